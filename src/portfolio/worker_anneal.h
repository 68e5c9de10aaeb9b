/* worker_anneal.h -- the portfolio's annealing worker: simulated annealing
 * (anneal.h) whose epochs start from the best schedule it first saw, and
 * which moves to the other workers' improvements (best.h). */
#ifndef REMAT_WORKER_ANNEAL_H
#define REMAT_WORKER_ANNEAL_H

#include "best.h"

typedef struct anneal_worker {
  best_client c;
  const int *copies;     /* C_v per node */
  unsigned seed;
  int *start, start_len; /* where its epochs start: the first best it saw */
} anneal_worker;

void aw_init(anneal_worker *W, best *B, const int *copies, unsigned seed);

/* Anneal for at most `seconds` (stall > 0: stop earlier once it stalls,
 * see anneal.h).  On later runs the current best comes in through the
 * poll at once. */
void aw_run(anneal_worker *W, double seconds, double stall);

/* The start schedule's copy. */
void aw_free(anneal_worker *W);

/* aw_run to the time limit, then aw_free, as a thread's function (arg:
 * an anneal_worker). */
void *aw_thread(void *arg);

#endif
