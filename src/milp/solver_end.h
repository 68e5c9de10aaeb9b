/* solver_end.h: when an end of CBC or Clp counts as a proof.
 *
 * CBC 2.10 stopped by its time limit inside an LP can end as if it had
 * finished: "linear relaxation infeasible", an optimum that is none, a
 * bound from an LP cut short.  Where CBC hands its limit to Clp, the
 * limit may be measured on CPU time, which runs ahead of the elapsed time
 * with threads.  So a proof (optimal, infeasible, a finished solve's
 * bound) is taken from a run that ended within half its time limit, or
 * that a solve without a time limit confirms (the covering bound's LP
 * relaxation); anything else is an answer out of time. */
#ifndef SOLVER_END_H
#define SOLVER_END_H

/* Nonzero when a run that took `took` seconds under a time limit of
 * `limit` seconds ended early enough for its proof to stand. */
int solver_end_in_time(double took, double limit);

#endif
