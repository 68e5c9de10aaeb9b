/* order_flow.h -- maximum flow (Dinic's algorithm) with 64-bit capacities,
 * for the closure bounds of order_bound.c.  The depth-first part walks an
 * explicit path, so networks of any size do not grow the C stack. */
#ifndef REMAT_ORDER_FLOW_H
#define REMAT_ORDER_FLOW_H

#include <stdint.h>

/* An infinite capacity (an arc the minimum cut never crosses). */
#define ORDER_FLOW_INF INT64_MAX

typedef struct order_flow {
  int n, m;               /* nodes, arcs (each arc has its reverse at ^1) */
  int cap_n, cap_m;       /* allocated */
  int *head, *next, *to;  /* adjacency lists: head[u], next[e], to[e] */
  int64_t *res;           /* residual capacity of each arc */
  int *level, *it, *queue, *path;
} order_flow;

void order_flow_init(order_flow *f);
void order_flow_free(order_flow *f);
/* Empty network on nodes 0..n-1. */
void order_flow_reset(order_flow *f, int n);
/* Arc a -> b with capacity cap (>= 0, or ORDER_FLOW_INF). */
void order_flow_arc(order_flow *f, int a, int b, int64_t cap);
/* The maximum flow from s to t (= the minimum cut), or ORDER_FLOW_INF when
 * an s-t path has infinite capacity.  The sum of the finite capacities
 * must fit in 64 bits. */
int64_t order_flow_max(order_flow *f, int s, int t);

#endif
