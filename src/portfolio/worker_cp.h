/* worker_cp.h -- the portfolio's CP worker: the whole CP model in Gecode
 * (or an external FlatZinc solver) from the shared best schedule (best.h),
 * phase 1 while nothing fits, then phase 2.  Gecode restarts with
 * large-neighbourhood search (cp_nbh.h) and adopts the other workers'
 * improvements at its restarts; on small models its complete searches
 * prove optimality or infeasibility.  On small graphs it gives a slice of
 * its time to Checkmate's MILP (worker_milp.h).  Every solver solution is
 * decoded, re-simulated and offered; one that disagrees with the solver is
 * an internal error. */
#ifndef REMAT_WORKER_CP_H
#define REMAT_WORKER_CP_H

#include "best.h"
#include "cp_nbh.h"
#include "fzn.h"
#include "model.h"
#include "worker_milp.h"

typedef struct cp_worker {
  best *B;
  model md;            /* the CP model (cpw_model builds it) */
  fzn_layout layout;
  model_sol x;
  nbh nbh;
  long long solutions; /* of the current phase */
  long long obj2;      /* the least objective of phase 2 (scaled) */
  int complete;        /* a search completed: nothing more to learn */
  long seen;           /* shared version last adopted or produced */
  volatile int stop;   /* this worker's stop flag */
  deadline end;        /* when to stop */
  milp_worker milp;    /* Checkmate's MILP in a child process */
} cp_worker;

/* Build the CP model for B's graph and parameters, with C_v per node from
 * copies (NULL: the parameters').  Returns 0, or nonzero with a message in
 * err (nothing to free). */
int cpw_init(cp_worker *W, best *B, const int *copies, char *err, size_t errlen);
void cpw_free(cp_worker *W);

/* On graphs small enough for the MILP: the CP alone for a short slice
 * (its complete searches prove the easiest models at once), then the
 * MILP, then the CP again; elsewhere the CP alone, until W->end. */
void cpw_run(cp_worker *W);

#endif
