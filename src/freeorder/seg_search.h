/* seg_search.h -- a local search over Chen-style checkpoint sets, for
 * graphs beyond the stage model (more than 60,000 nodes).
 *
 * A checkpoint set over the forward nodes is scheduled as Chen's segments
 * (base_schedule, baseline.h, keeping the values a later segment's
 * forward pass reads: keep_crossing): every forward node that is not a
 * checkpoint is recomputed once, just before the backward pass of its
 * segment needs it, so the schedule's duration is the base duration plus
 * the dropped nodes' durations, and the memory held across the forward
 * pass is that of the checkpoints.  The search is a knapsack on that
 * reading:
 *
 *   rank    the forward nodes by duration per byte, the cheapest to
 *           recompute per byte freed first;
 *   drop    the fewest of that ranking whose schedule fits the budget
 *           (bisection on the count, each count scheduled and re-simulated);
 *   swap    until the time limit: take back a dropped node, the dearer of
 *           two picked at random, and when that breaks the budget drop a
 *           cheaper kept one instead, the cheapest per byte of a few; keep
 *           the change when the schedule fits and is shorter.
 *
 * Every evaluation schedules and re-simulates in O(n + edges) time and
 * memory; nothing is quadratic, so graphs of 10^5 nodes and more are
 * fine.  The schedules are sequences on the input order (the caller
 * renumbers the graph in the order it wants). */
#ifndef REMAT_SEG_SEARCH_H
#define REMAT_SEG_SEARCH_H

#include <stdint.h>

#include "deadline.h"
#include "remat.h"
#include "worker.h"

typedef struct seg_params {
  int64_t budget;
  deadline deadline; /* when to stop (1 s from seg_params_init) */
  /* report: each schedule within budget shorter than the last ("segments");
   * stop, halt, seed */
  worker_io io;
} seg_params;

void seg_params_init(seg_params *p);

/* What a run did. */
typedef struct seg_out {
  long long evals;    /* checkpoint sets scheduled and re-simulated */
  int fits;           /* a schedule within budget was found */
  int64_t duration;   /* the best one's */
  int dropped;        /* forward nodes recomputed in it */
  int forward;        /* forward nodes */
} seg_out;

/* Search; out may be NULL.  Returns 0, or REMAT_EINTERNAL when a schedule
 * failed re-simulation (a bug). */
int seg_run(const remat_graph *g, const seg_params *p, seg_out *out);

#endif
