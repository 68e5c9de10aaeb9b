/* bounds.h -- the solve's lower bounds: the covering bound (cover.h),
 * solved in a child process from the start while the workers search, the
 * window bound (wbound.h), in a second child from the first best schedule
 * on (their answers are taken through best.h), and, after the search,
 * Checkmate's LP relaxation (--lp-bound, milp.h). */
#ifndef REMAT_BOUNDS_H
#define REMAT_BOUNDS_H

#include "best.h"

/* Start the covering bound in a child (a fork: before any thread); not
 * with --no-heuristic, which runs the CP alone. */
void bounds_cover_start(best *B);

/* Stop its child if it still runs; take an answer it gave meanwhile. */
void bounds_cover_end(best *B);

/* Start the window bound in a child (a fork: before any thread), with
 * the best schedule so far as its cutoff: it runs until the time limit or
 * a proof (optimal, or nothing fits with C_v); not with --no-heuristic. */
void bounds_window_start(best *B);

/* Stop its child if it still runs (it keeps the bound it has); take its
 * answer. */
void bounds_window_end(best *B);

/* --lp-bound: when the search proved nothing, the LP relaxation's value
 * bounds every schedule of the model, so it is a lower bound; a schedule
 * at it is optimal, and an infeasible LP proves that nothing fits. */
void bounds_lp(best *B);

#endif
