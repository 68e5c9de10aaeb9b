/* order.h -- minimum-peak orders without recomputation (remat order).
 *
 * An order computes every node once, each after its predecessors; its peak
 * is the schedule's peak under remat_simulate.  order_solve looks for an
 * order of least peak and a lower bound valid for every order:
 *
 *   1. the bounds (order_bound.h): per node, the ancestors live at its step
 *      and a minimum cut over the sets that can precede it;
 *   2. heuristics (order_heur.h): greedy orders and a beam search;
 *   3. the exact search (order_exact.h) on graphs of at most
 *      exact_max_nodes nodes: thresholds decided by a depth-first search
 *      over the down-closed sets; it ends with a proof or out of time;
 *   4. with the time left, window by window improvement (order_window.h).
 *
 * The order is optimal when its peak meets the lower bound (the bounds
 * meet it, or the exact search proved it).  Sizes are 64-bit throughout;
 * no step recurses, so graphs of 10^5 nodes and more are fine (the beam
 * and the exact search step aside by size, see the parameters). */
#ifndef REMAT_ORDER_H
#define REMAT_ORDER_H

#include <stddef.h>
#include <stdint.h>

#include "remat.h"

/* A progress report: the best order's peak or the bound moved. */
typedef struct order_event {
  const char *phase;  /* "start", "bound", "greedy", "beam", "exact",
                         "window" */
  int64_t peak;       /* the best order's peak so far */
  int64_t lower;      /* the lower bound so far */
  double seconds;     /* since order_solve began */
} order_event;

typedef struct order_params {
  double time_limit;     /* seconds for the whole run (60); <= 0: no limit
                            (until proven optimal or *stop) */
  volatile int *stop;    /* stop, keeping the best order, when nonzero */
  unsigned seed;         /* the window search's choices (1) */
  /* called on each event (may be NULL) */
  void (*progress)(void *ctx, const order_event *e);
  void *progress_ctx;
  const int *start;      /* an order to start from, NULL: the input order */
  int exact;             /* run the exact search (1) */
  int exact_max_nodes;   /* larger graphs skip it (20000) */
  size_t exact_max_bytes;/* memory for its table of dead sets (512 MiB) */
  int beam_max_nodes;    /* larger graphs skip the beam search (20000) */
} order_params;

void order_params_init(order_params *p);

/* Why the exact search did not prove the order optimal. */
typedef enum order_open {
  ORDER_OPEN_NONE = 0,   /* it did (or the bound met the peak) */
  ORDER_OPEN_TIME,       /* out of time */
  ORDER_OPEN_MEMORY,     /* its table of dead sets was full */
  ORDER_OPEN_SIZE,       /* the graph is above exact_max_nodes */
  ORDER_OPEN_OFF,        /* p->exact was 0 */
  ORDER_OPEN_STOP,       /* stopped (*stop) */
} order_open;

typedef struct order_result {
  int n;
  int *order;            /* the best order (n node indices), owned */
  int64_t peak;          /* its peak (re-simulated) */
  int64_t input_peak;    /* the peak of the start order */
  int64_t lower;         /* lower bound on the peak of every order */
  int64_t bound;         /* the polynomial bound alone (order_bound.h) */
  int bound_complete;    /* bound is the max over all nodes (not cut short) */
  int optimal;           /* peak == lower */
  order_open open;       /* why not, when not */
  int interrupted;       /* stopped by *stop */
  const char *found_by;  /* the phase that found the best order */
  double seconds;        /* total */
  double t_bound, t_heur, t_exact, t_window, t_best;
  long long states, forced, pruned; /* exact search: sets expanded, forced
                                       steps, steps cut by its bound */
  size_t memo_sets, memo_bytes;     /* its table of dead sets */
  int beam_width;        /* widest beam completed (0: none) */
  long long windows, windows_solved, kicks;
} order_result;

/* Search.  Returns 0; REMAT_EUSAGE when p->start is not an order (each
 * node once, after its predecessors); REMAT_EINTERNAL when the order found
 * failed re-simulation (a bug).  Free r with order_result_free in every
 * case. */
int order_solve(const remat_graph *g, const order_params *p, order_result *r);
void order_result_free(order_result *r);

/* The open reason as a phrase ("out of time", ...), "" for NONE. */
const char *order_open_name(order_open o);

#endif
