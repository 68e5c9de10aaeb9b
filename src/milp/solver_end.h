/* solver_end.h: when an end of CBC or Clp counts as a proof.
 *
 * CBC 2.10 stopped by its time limit inside an LP can end as if it had
 * finished: "linear relaxation infeasible", an optimum that is none, a
 * bound from an LP cut short.  So a proof (optimal, infeasible, a
 * finished solve's bound) is taken only from a run that ended well before
 * any clock the solver checks could reach its limit, or that a solve
 * without a time limit confirms (the covering bound's LP relaxation);
 * anything else is an answer out of time.  The clocks: CBC's elapsed time
 * (timeMode elapsed), and where CBC hands its limit to Clp, CPU time,
 * possibly from a later start with the limit left then.  On one thread a
 * CPU clock runs no faster than the elapsed one; on T threads at most T
 * times as fast; so whatever mix of the two the solver compares with its
 * limit reads at most T times the run's elapsed time. */
#ifndef SOLVER_END_H
#define SOLVER_END_H

/* The share of its time limit that T times a run's elapsed time must stay
 * under for its proof to stand. */
#define SOLVER_END_SHARE 0.9

/* Nonzero when a run that took `took` seconds (elapsed) under a time limit
 * of `limit` seconds, on `threads` threads (< 1: one), ended early enough
 * for its proof to stand. */
int solver_end_in_time(double took, double limit, int threads);

#endif
