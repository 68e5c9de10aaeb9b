/* order_walk.h -- a walk through the down-closed node sets of a graph
 * (orders without recomputation, built one node at a time): which nodes
 * are taken, the memory they keep live, which nodes can come next, and
 * what taking one costs.  Shared by the bounds, the heuristics and the
 * exact search of the order wing.
 *
 * With S the set taken, the live memory F(S) is the sum of m_u over u in S
 * having a successor outside S; computing v next costs F(S) + m_v at its
 * step (the memory model of remat_simulate without recomputation). */
#ifndef REMAT_ORDER_WALK_H
#define REMAT_ORDER_WALK_H

#include "remat.h"

typedef struct order_walk {
  const remat_graph *g;
  int n, k;             /* nodes; nodes taken */
  int *rem;             /* rem[u]: successors of u not taken */
  int *need;            /* need[v]: predecessors of v not taken */
  unsigned char *taken; /* taken[v]: v is in S */
  int64_t live;         /* F(S) */
  int *avail;           /* avail[0..navail): nodes not taken whose */
  int *apos;            /*   predecessors all are; apos[v]: v's index */
  int navail;           /*   there, or -1 */
} order_walk;

/* Start at the empty set. */
void order_walk_init(order_walk *w, const remat_graph *g);
void order_walk_free(order_walk *w);
/* Back to the empty set. */
void order_walk_reset(order_walk *w);

/* Memory at the step that computes v next: F(S) + m_v. */
static inline int64_t order_walk_cost(const order_walk *w, int v) {
  return w->live + w->g->m[v];
}

/* F(S + v) - F(S) for an available v: m_v if v has a successor, minus the
 * sizes of its predecessors whose last successor not taken is v. */
int64_t order_walk_delta(const order_walk *w, int v);

/* Take an available v; undo the last take of v (takes are undone last in,
 * first out). */
void order_walk_take(order_walk *w, int v);
void order_walk_undo(order_walk *w, int v);

/* Peak of a complete order (a permutation of 0..n-1, each node after its
 * predecessors; not checked); mem, when not NULL, receives the memory at
 * each step.  O(n + edges). */
int64_t order_walk_peak(const remat_graph *g, const int *ord, int64_t *mem);

/* 1 if ord is a permutation of 0..n-1 with every node after its
 * predecessors. */
int order_walk_valid(const remat_graph *g, const int *ord);

#endif
