/* seeds.h -- the first schedules, before any search: the input order, a
 * caller's warm start, the best baseline that fits (base_best, Checkmate's
 * appendix B) and the C heuristics (heur.h); for the MILP also, while
 * nothing fits, LP rounding (round_seed), and a local search on the best
 * (round_polish).
 *
 * The solve offers them to its shared best (best.h), keeping to C_v; the
 * MILP (milp.h) takes them as its start: milp_params.seeds = seeds_milp,
 * which it calls once its model is built, so that a model too large is
 * refused at once. */
#ifndef REMAT_SEEDS_H
#define REMAT_SEEDS_H

#include <stddef.h>

#include "best.h"
#include "milp.h"

/* The input order.  When it fits, no recomputation is needed: its
 * duration, the base one, is optimal (B->proven).  Returns whether it
 * fits. */
int seeds_input_order(best *B);

/* The solve's seeds, each offered to B (trace phase 0) when it keeps to
 * C_v: the warm start (remat_solve_params.warm_seq), and unless
 * --no-heuristic the best baseline and the heuristics (5% of the time
 * each; the heuristics at least what the greedy needs on large graphs).
 * Sets r->t_phase[0]. */
void seeds_solve(best *B);

/* The MILP's seeds (a milp_params.seeds): the baselines (5% of the time
 * limit), the heuristics (5%), while nothing fits LP rounding (10%), then
 * the polish of the best (5%); each improvement is offered to r and gets a
 * progress line.  Returns 0, or nonzero with err set when a schedule
 * fails re-simulation. */
int seeds_milp(const remat_graph *g, const milp_params *p, remat_result *r, double t0,
               char *err, size_t errlen);

#endif
