/* worker_window.c -- the portfolio's window worker (worker_window.h). */
#include "worker_window.h"

#include <stdlib.h>
#include <string.h>

#include "window_search.h"

void ww_init(window_worker *W, best *B, const model *md, unsigned seed, deadline end) {
  memset(W, 0, sizeof *W);
  W->c.B = B;
  W->c.unit = "windows";
  W->md = *md;
  W->seed = seed;
  W->end = end;
}

static gz_status ww_phase(window_worker *W, int phase) {
  best *B = W->c.B;
  W->md.phase = W->c.phase = phase;
  int len;
  int *seq = best_copy(B, &len, &W->c.seen);
  if (!seq) return GZ_UNKNOWN;
  wsearch_params sp;
  wsearch_params_init(&sp);
  sp.deadline = deadline_sooner(W->end, best_deadline(B));
  sp.io = best_io(&W->c, W->seed + (unsigned)phase);
  gz_stats st;
  char err[1024] = "";
  gz_status status = wsearch_run(&W->md, seq, len, &sp, &st, err, sizeof err);
  free(seq);
  if (status == GZ_ERROR) best_error(B, "window search: %s", err);
  best_stats(B, &st);
  best_verbose(B, "window phase %d: %lld windows, %lld solutions, %lld nodes, %.2fs", phase,
               st.searches, st.solutions, st.nodes, st.seconds);
  return status;
}

void ww_run(window_worker *W) {
  best *B = W->c.B;
  while (!B->fits && !best_stopped(B) && best_left_by(B, W->end) > 0.01)
    if (ww_phase(W, 1) != GZ_SATISFIED) break;
  if (B->fits && !best_stopped(B) && best_left_by(B, W->end) > 0.01) {
    gz_status st = ww_phase(W, 2);
    if (st == GZ_OPTIMAL) { /* no recomputation left: the base duration */
      B->proven = 1;
      B->done = 1;
    }
  }
}

void *ww_thread(void *arg) {
  ww_run(arg);
  return NULL;
}
