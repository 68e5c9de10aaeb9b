/* bounds.h -- the solve's lower bounds: the covering bound (cover.h),
 * solved in a child process from the start while the workers search (its
 * answer is taken through best.h), and, after the search, Checkmate's LP
 * relaxation (--lp-bound, milp.h). */
#ifndef REMAT_BOUNDS_H
#define REMAT_BOUNDS_H

#include "best.h"

/* Start the covering bound in a child (a fork: before any thread); not
 * with --no-heuristic, which runs the CP alone. */
void bounds_cover_start(best *B);

/* Stop its child if it still runs; take an answer it gave meanwhile. */
void bounds_cover_end(best *B);

/* --lp-bound: when the search proved nothing, the LP relaxation's value
 * bounds every schedule of the model, so it is a lower bound; a schedule
 * at it is optimal, and an infeasible LP proves that nothing fits. */
void bounds_lp(best *B);

#endif
