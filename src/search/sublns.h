/* sublns.h -- large-neighbourhood search over windows: pick a window of
 * stages and a set of nodes around a recomputation (phase 2) or the memory
 * peak (phase 1), solve the window sub-model (window.h) completely with
 * Gecode under a short time limit, re-simulate the result and keep it when
 * it is better.  On large graphs each step costs milliseconds where a
 * restart of the whole model costs a large fraction of a second. */
#ifndef REMAT_SUBLNS_H
#define REMAT_SUBLNS_H

#include "gecode.h"
#include "heur.h"
#include "model.h"

typedef struct sublns_params {
  double time_limit;      /* seconds in all */
  double step_limit;      /* seconds per window (0.5) */
  volatile int *stop;
  unsigned seed;
  heur_fn found;          /* each improvement: phase 2 shorter within
                             budget; phase 1 lower excess (return nonzero
                             to stop) */
  /* optional: a better schedule found elsewhere (portfolio): return 1 and
   * an allocated copy to move there */
  int (*poll)(void *ctx, int **seq, int *len);
  int (*halt)(void *ctx); /* optional: nonzero to stop */
  void *ctx;
  void (*on_tick)(void *ctx, long long steps);
} sublns_params;

void sublns_params_init(sublns_params *p);

/* Improve the schedule seq[0..len) (stage-structured, within the model's
 * copies) for md->phase until the time limit, a stop, or (phase 1) the
 * budget is reached.  Returns GZ_SATISFIED, GZ_OPTIMAL (phase 2: nothing
 * left to recompute; phase 1: within budget), or GZ_ERROR. */
gz_status sublns_run(const model *md, const int *seq, int len,
                     const sublns_params *p, gz_stats *stats, char *err,
                     size_t errlen);

#endif
