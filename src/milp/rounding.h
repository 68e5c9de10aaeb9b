/* rounding.h -- Checkmate's LP relaxation and two-phase deterministic
 * rounding (MLSys 2020, Section 5, Algorithm 2).
 *
 *   1. The LP relaxation of the MILP (milp.h) at the budget M, solved with
 *      Clp: its value is a lower bound on the duration of every
 *      stage-structured schedule on the input order.
 *   2. The LP at floor((1 - eps) M) (rounding ignores memory, so it is
 *      solved with slack; eps = 0.1 as in the paper).
 *   3. For each threshold theta (0.1, 0.2, ..., 0.9 as in the reference
 *      implementation): S = [S* >= theta], R = solve_r_opt(S)
 *      (stage_r_opt), the sequence of R; it and its pruned form
 *      (stage_prune) are re-simulated and offered to the result, which
 *      keeps the cheapest within budget, else the lowest peak.  Both LPs'
 *      solutions are rounded.
 * The LPs are not interruptible (Clp's C interface has no hook for it);
 * the stop flag is checked between the LPs and the roundings, and the time
 * limit bounds each LP. */
#ifndef REMAT_ROUNDING_H
#define REMAT_ROUNDING_H

#include <stdint.h>

#include "remat.h"

typedef struct round_params {
  int64_t budget;           /* M in bytes (required) */
  double eps;               /* the LP for rounding gets (1 - eps) M (0.1) */
  const double *thresholds; /* NULL: 0.1, 0.2, ..., 0.9 */
  int nthresholds;
  double time_limit;  /* seconds for both LPs (60) */
  int verbose;        /* progress on stderr: 0 none, 1 lines */
  volatile int *stop; /* stop (keeping the best) when nonzero */
} round_params;

void round_params_init(round_params *p);

typedef struct round_stats {
  int columns, rows;
  long long nonzeros;
  int lp_status;      /* LP at M: 0 optimal, 1 infeasible, 2 out of
                         time, -1 error, -2 not solved */
  double lp_duration; /* its value in duration units (the bound) */
  int lp_eps_status;  /* LP at (1 - eps) M, same codes */
  double lp_eps_duration;
  int64_t rounding_budget; /* floor((1 - eps) M) */
  double threshold;        /* theta of the best schedule (-1: none) */
  int from_eps_lp;         /* the best schedule rounds the (1 - eps) LP */
  int schedules;           /* rounded schedules simulated */
} round_stats;

/* Solve and round; fills r (initialised with remat_result_init, method
 * "lp-rounding"): status feasible (optimal only when a schedule meets the
 * LP bound, or the input order fits), over-budget when no rounded schedule
 * fits, infeasible when the LP at M is infeasible (then no stage-structured
 * schedule fits) or M is below max_v (m_v + inputs).  r->bound is the LP
 * value at M.  st may be NULL.  Returns REMAT_OK, REMAT_ENOFIT,
 * REMAT_EUSAGE (bad parameters, model too large) or REMAT_EINTERNAL (an
 * invalid rounded schedule, an LP failure). */
int round_solve(const remat_graph *g, const round_params *p, remat_result *r,
                round_stats *st);

/* A warm start for the MILP while nothing fits: the LP at (1 - eps) M
 * rounded as above for eps = 0.1, 0.2, ..., 0.6 until a rounded schedule
 * fits M, within time_limit seconds (checked between the LPs; each LP gets
 * what is left).  Every schedule is offered to r (trace phase 0; t0 is
 * util_now() at the caller's start, for trace times and messages, 0: now).
 * Returns REMAT_OK or REMAT_EINTERNAL (an invalid schedule). */
int round_seed(const remat_graph *g, int64_t budget, double t0,
               double time_limit, volatile int *stop, int verbose,
               remat_result *r);

/* Local search on r's best schedule when it fits and is stage-structured:
 * repeatedly drop one recomputation of i in stage t by keeping i resident
 * from its previous copy instead (S[a+1..t, i] = 1, then the cheapest R),
 * keeping the change when the re-simulated schedule fits and is shorter;
 * until no move helps or time_limit seconds have passed.  Improvements are
 * offered to r (trace phase 0, times since t0 as in round_seed).  Returns
 * the number of improvements. */
int round_polish(const remat_graph *g, double t0, double time_limit,
                 volatile int *stop, remat_result *r);

#endif
