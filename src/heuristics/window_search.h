/* window_search.h -- large-neighbourhood search over windows: pick a window of
 * stages and a set of nodes around a recomputation (phase 2) or the memory
 * peak (phase 1), solve the window sub-model (window_model.h) completely with
 * Gecode under a short time limit, re-simulate the result and keep it when
 * it is better.  On large graphs each step costs milliseconds where a
 * restart of the whole model costs a large fraction of a second. */
#ifndef REMAT_WINDOW_SEARCH_H
#define REMAT_WINDOW_SEARCH_H

#include "deadline.h"
#include "gecode.h"
#include "model.h"
#include "worker.h"

typedef struct wsearch_params {
  deadline deadline;      /* when to stop (10 s from wsearch_params_init) */
  double step_limit;      /* seconds per window (0.5) */
  /* report: each improvement, "window" (phase 2 shorter within budget;
   * phase 1 lower excess); poll: moves there; tick: the windows solved;
   * stop, halt, seed */
  worker_io io;
} wsearch_params;

void wsearch_params_init(wsearch_params *p);

/* Improve the schedule seq[0..len) (stage-structured, within the model's
 * copies) for md->phase until the time limit, a stop, or (phase 1) the
 * budget is reached.  Returns GZ_SATISFIED, GZ_OPTIMAL (phase 2: nothing
 * left to recompute; phase 1: within budget), or GZ_ERROR. */
gz_status wsearch_run(const model *md, const int *seq, int len,
                     const wsearch_params *p, gz_stats *stats, char *err,
                     size_t errlen);

#endif
