/* order_descent.h -- lower the peak of an order without recomputation by
 * a descent over thresholds.
 *
 * For a threshold T below the order's peak, a late-acceptance hill climb
 * minimises the memory above T summed over the steps; when that reaches 0
 * the order peaks at or below T, and T moves below the new peak by a
 * share of the gap to the lower bound; when the climb stalls, T rises
 * halfway to the peak, and the run ends once T is just below the peak
 * (the result depends much on the seed: callers restart).  The summed excess gives the
 * climb a slope where the peak alone is flat (many orders share it).  A
 * move takes one node to another place between its last predecessor and
 * its first successor (half the time a node near a step above T); each
 * candidate is evaluated in full (O(n + edges)) with the memory model of
 * remat_simulate.  It complements order_solve (order.h), whose exact and
 * window searches stall on graphs of a thousand nodes and more. */
#ifndef REMAT_ORDER_DESCENT_H
#define REMAT_ORDER_DESCENT_H

#include <stdint.h>

#include "deadline.h"
#include "remat.h"

typedef struct odesc_params {
  int64_t lower;      /* a lower bound on every order's peak: stop there (0) */
  int64_t target;     /* stop once the peak is at or below it (0: none) */
  double step;        /* each threshold this share of the way from the
                         peak to `lower` (1/16) */
  deadline deadline;  /* when to stop (1 s from odesc_params_init) */
  unsigned seed;      /* the moves' choices (1) */
  volatile int *stop; /* stop, keeping the best order, when nonzero */
} odesc_params;

void odesc_params_init(odesc_params *p);

/* Lower the peak of order[0..g->n) (each node once, after its
 * predecessors) in place.  Returns the peak of the order left there. */
int64_t odesc_run(const remat_graph *g, int *order, const odesc_params *p);

/* The peak of an order (as remat_simulate computes it). */
int64_t odesc_peak(const remat_graph *g, const int *order);

#endif
