/* bounds.h -- the solve's lower bounds: the covering bound (cover.h),
 * solved in a child process from the start while the workers search, the
 * window bound (wbound.h), in a second child from the first best schedule
 * on (their answers are taken through best.h), and, after the search,
 * Checkmate's LP relaxation (--lp-bound, milp.h). */
#ifndef REMAT_BOUNDS_H
#define REMAT_BOUNDS_H

#include "best.h"
#include "model.h"

/* The pebbling proof (pebble.h), before any search, for a share of the
 * time: when no sequence computes some node within M, the solve is over
 * (B->proof.pebble_node, proven, done); not with --no-heuristic. */
void bounds_pebble(best *B);

/* The order cost bound (order_cost.h) in the caller's thread, for
 * its share of the time left (shares.h, ORDER_COST) (at most BOUNDS_COST_MAX s): a lower
 * bound on every sequence in any order, so on the stage model's too,
 * raised on B as BOUNDS_COST_BY; nodes are looked at by their memory in
 * `order` (NULL: the input order); not with --no-heuristic.  A bound the
 * caller gave (remat_solve_params.order_cost) is taken instead.  In free
 * order, when nothing fits yet, it then starts the covering bound over
 * every order in a child (a fork: before any thread; cover_free.h), whose
 * bounds raise B->proof.order_lb; bounds_cover_end stops it. */
#define BOUNDS_COST_BY "order cost bound"
void bounds_order_cost(best *B, const int *order);

/* Start the covering bound in a child (a fork: before any thread); not
 * with --no-heuristic, which runs the CP alone. */
void bounds_cover_start(best *B);

/* Beyond the stage model (solve_large.h): the closure bound at the input
 * order's step of highest memory, in the covering bound's child (a fork:
 * before any thread), for its share of the time left (shares.h,
 * LARGE_CLOSURE); its bound holds for the sequences whose first
 * computations follow the input order, with C_v; not with --no-heuristic. */
void bounds_closure_start(best *B);

/* Stop its child (the covering or the closure bound's) if it still runs;
 * take an answer it gave meanwhile. */
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

/* A lower bound on the duration of every schedule of the CP model md
 * (its C_v) when its optimum with durations rounded to multiples of
 * md->dur_q (dur'_v = round(w_v / q)) is units quanta: a schedule that
 * recomputes v k_v <= C_v - 1 times has sum k_v dur'_v >= units, so its
 * extra duration sum k_v w_v is at least the least value of that sum under
 * that covering constraint with k_v fractional: a fractional knapsack,
 * taken greedily by w_v / dur'_v (which never falls below
 * q units - sum (C_v - 1) max(0, q dur'_v - w_v)).  Returns base + its
 * ceiling. */
double bounds_rounded(const remat_graph *g, const model *md, long long units);

#endif
