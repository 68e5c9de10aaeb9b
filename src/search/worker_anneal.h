/* worker_anneal.h -- the portfolio's annealing worker: simulated annealing
 * (anneal.h) whose epochs start from the best schedule it first saw, and
 * which moves to the other workers' improvements (best.h). */
#ifndef REMAT_WORKER_ANNEAL_H
#define REMAT_WORKER_ANNEAL_H

#include "best.h"

typedef struct aw {
  best_client c;
  const int *copies;     /* C_v per node */
  unsigned seed;
  int *start, start_len; /* where its epochs start: the first best it saw */
} aw;

void aw_init(aw *W, best *B, const int *copies, unsigned seed);

/* Anneal for at most `seconds` (stall > 0: stop earlier once it stalls,
 * see anneal.h).  On later runs the current best comes in through the
 * poll at once. */
void aw_run(aw *W, double seconds, double stall);

/* The start schedule's copy. */
void aw_free(aw *W);

/* aw_run to the time limit, then aw_free, as a thread's function (arg:
 * an aw). */
void *aw_thread(void *arg);

#endif
