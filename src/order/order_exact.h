/* order_exact.h -- the exact search for a minimum-peak order without
 * recomputation: thresholds P decided by the threshold search
 * (order_dfs.h) on the whole graph, from the best order's peak minus 1
 * down.  Each order found lowers P below its peak; a threshold without an
 * order proves the best one optimal.  Sets found dead at one threshold
 * stay dead at the lower ones (one table for the whole run). */
#ifndef REMAT_ORDER_EXACT_H
#define REMAT_ORDER_EXACT_H

#include <stddef.h>
#include <stdint.h>

#include "deadline.h"
#include "remat.h"

/* Why the search ended. */
typedef enum order_exact_why {
  ORDER_EXACT_DONE = 0, /* the best order is proven minimal */
  ORDER_EXACT_TIME,     /* out of time */
  ORDER_EXACT_MEMORY,   /* the table of dead sets is full */
  ORDER_EXACT_SIZE,     /* the graph has more than max_nodes nodes */
  ORDER_EXACT_STOP,     /* *stop was set */
} order_exact_why;

typedef struct order_exact_params {
  int64_t lower;       /* a lower bound valid for every order (0) */
  deadline deadline;   /* when to give up (DEADLINE_NONE) */
  volatile int *stop;  /* give up when nonzero */
  size_t max_bytes;    /* memory for the dead sets (512 MiB) */
  int max_nodes;       /* larger graphs are not searched (20000) */
  size_t max_pairs;    /* pairs for the per-set bound; more: no such
                          bound (10^7) */
  /* called with each better order (may be NULL) */
  void (*improved)(void *ctx, const int *ord, int64_t peak);
  void *ctx;
} order_exact_params;

void order_exact_params_init(order_exact_params *p);

typedef struct order_exact_out {
  int64_t peak;        /* the best order's peak */
  int64_t lower;       /* the lower bound at the end (p->lower or higher) */
  int proven;          /* peak == lower */
  order_exact_why why;
  long long states;    /* sets expanded */
  long long forced;    /* forced steps */
  long long pruned;    /* steps cut by the per-set bound */
  long long thresholds;/* thresholds decided */
  size_t memo_sets, memo_bytes;
  int pair_bound;      /* the per-set bound was used */
} order_exact_out;

/* Search from the order in ord[0..n) (its peak is the first upper bound);
 * ord receives the best order found.  Returns 0. */
int order_exact_run(const remat_graph *g, const order_exact_params *p,
                    int *ord, order_exact_out *out);

#endif
