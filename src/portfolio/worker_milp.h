/* worker_milp.h -- Checkmate's MILP inside the solve, for the CP worker
 * (worker_cp.h) on small graphs: the MILP (milp.h) with at most C_v
 * computations of each node, so exactly the CP model's schedules, in a
 * child process.
 *   (A) While nothing fits, to its first schedule within budget: CBC
 *       settles what Gecode, without nogood learning, rarely does, that
 *       no schedule fits at all; after such a proof the MILP without the
 *       C_v rows tells whether more copies would help.
 *   (B) Once a schedule fits, from the best one to a proof of optimality,
 *       which the CP often does not reach in the time it has
 *       (bench/RESULTS.md#milp-in-solve).
 * The child is forked before the other workers' threads start (mw_start:
 * a child forked while another thread allocates can hang) and talks with
 * the CP worker, which waits for it (mw_wait), through shared memory: the
 * parent says when it has a schedule within budget (A stops) and hands
 * over its best (B starts from it); the child hands back A's schedule at
 * once and B's optimum at its end. */
#ifndef REMAT_WORKER_MILP_H
#define REMAT_WORKER_MILP_H

#include <stddef.h>

#include "best.h"
#include "child.h"

typedef struct milp_worker_out milp_worker_out;

typedef struct milp_worker {
  best *B;
  child ch;
  milp_worker_out *out;      /* shared with the child; NULL: not started */
  size_t bytes;
  int ran;          /* started once: not again */
  int taken;        /* its first schedule was offered */
  double any_until; /* after the CP's proof of infeasibility: wait for the
                       MILP until then (0: not yet) */
  int cap;          /* entries of each schedule out holds */
  double limit;     /* its time limit */
  double t0;        /* elapsed time at its start */
} milp_worker;

void mw_init(milp_worker *M, best *B);

/* The MILP is wanted (a small graph, the in-process Gecode) and started
 * or not yet run: the CP worker gives it a slice. */
int mw_due(const milp_worker *M);

/* Start the child, if it is wanted and has not run, with a share of the
 * time left until `end`. */
void mw_start(milp_worker *M, deadline end);

/* Start it if need be, then wait for it, feeding it, and take its results
 * (a schedule, a proof of optimality or infeasibility). */
void mw_wait(milp_worker *M, deadline end);

#endif
