/* worker_window.h -- the portfolio's window worker: the window search
 * (window_search.h) from the shared best schedule (best.h), phase 1 while
 * nothing fits, then phase 2, adopting the other workers' improvements. */
#ifndef REMAT_WORKER_WINDOW_H
#define REMAT_WORKER_WINDOW_H

#include "best.h"
#include "model.h"

typedef struct window_worker {
  best_client c; /* its phase is the model's */
  model md;      /* the CP model's arrays, shared; only the phase is its own */
  unsigned seed;
  deadline end;  /* when to stop */
} window_worker;

/* A window worker on B over the CP model md (its arrays are shared). */
void ww_init(window_worker *W, best *B, const model *md, unsigned seed, deadline end);

/* Phase 1 while nothing fits, then phase 2, until W->end, a stop or a
 * proof (phase 2 with nothing left to recompute: the base duration). */
void ww_run(window_worker *W);

/* ww_run as a thread's function (arg: a window_worker). */
void *ww_thread(void *arg);

#endif
