/* worker_anneal.c -- the portfolio's annealing worker (worker_anneal.h). */
#include "worker_anneal.h"

#include <stdlib.h>
#include <string.h>

#include "anneal.h"
#include "util.h"

void aw_init(anneal_worker *W, best *B, const int *copies, unsigned seed) {
  memset(W, 0, sizeof *W);
  W->c.B = B;
  W->c.phase = BEST_FOLLOW;
  W->c.unit = "moves";
  W->copies = copies;
  W->seed = seed;
}

void aw_run(anneal_worker *W, double seconds, double stall) {
  best *B = W->c.B;
  if (!W->start)
    W->start = best_copy(B, &W->start_len, &W->c.seen);
  else
    W->c.seen = -1; /* adopt the current best at once */
  anneal_params ap;
  anneal_params_init(&ap);
  ap.budget = B->p->budget;
  ap.copies = W->copies;
  ap.deadline = deadline_in(seconds);
  ap.stall = stall;
  ap.io = best_io(&W->c, W->seed);
  double t0 = util_now();
  long long moves = anneal_run(B->g, W->start, W->start_len, &ap);
  double dt = util_now() - t0;
  best_verbose(B, "anneal (seed %u): %lld moves, %.2fs, %.0f moves/s", W->seed, moves, dt,
               dt > 0 ? (double)moves / dt : 0.0);
}

void aw_free(anneal_worker *W) {
  free(W->start);
  W->start = NULL;
}

void *aw_thread(void *arg) {
  anneal_worker *W = arg;
  aw_run(W, best_left(W->c.B), 0);
  aw_free(W);
  return NULL;
}
