/* order_window.c -- window by window improvement (order_window.h).
 *
 * For a step s over P the windows tried are centred near s (a random
 * shift of up to a quarter of their length), of lengths min_len, 2
 * min_len, ... max_len, then again from min_len with other shifts, up to
 * `tries` windows.  The step is the first over P from a random place. */
#include "order_window.h"

#include <stdlib.h>
#include <string.h>

#include "order_walk.h"
#include "util.h"

void order_window_params_init(order_window_params *p) {
  *p = (order_window_params){.min_len = 16, .max_len = 512, .budget = 2000, .tries = 8,
                             .kicks = 4, .kick_slack = 0.001, .deadline = DEADLINE_NONE,
                             .seed = 1};
}

typedef struct ow {
  const remat_graph *g;
  order_dfs *D;
  const order_window_params *p;
  order_window_out *out;
  int n;
  int *ord;
  int64_t *mem;
  unsigned char *allowed;
  uint64_t rng;
} ow;

static int ow_halt(const ow *W) {
  return (W->p->stop && *W->p->stop) ||
         deadline_passed(W->p->deadline);
}

/* Reorder the window of length len from lo so that its steps are within
 * P, then (when lower is set) as far below as the search gets; mem follows.
 * Returns 1 when the window was reordered. */
static int ow_solve(ow *W, int lo, int len, int64_t P, int lower) {
  order_dfs *D = W->D;
  int *ord = W->ord, found = 0;
  for (int i = 0; i < len; i++) W->allowed[ord[lo + i]] = 1;
  D->allowed = W->allowed;
  D->budget = W->p->budget * (len / W->p->min_len > 0 ? len / W->p->min_len : 1);
  order_dfs_start(D, ord, lo, len);
  W->out->windows++;
  while (order_dfs_decide(D, P) == 1) {
    found = 1;
    memcpy(ord + lo, D->path + lo, (size_t)len * sizeof *ord);
    order_walk_peak(W->g, ord, W->mem);
    int64_t top = 0;
    for (int i = lo; i < lo + len; i++)
      if (W->mem[i] > top) top = W->mem[i];
    if (!lower) break;
    P = top - 1;
  }
  for (int i = 0; i < len; i++) W->allowed[ord[lo + i]] = 0;
  return found;
}

/* A window of length len around step s, shifted at random. */
static int ow_place(ow *W, int s, int len) {
  int jitter = len / 4 ? util_below(&W->rng, len / 2 + 1) - len / 4 : 0;
  int lo = s - len / 2 + jitter;
  if (lo > W->n - len) lo = W->n - len;
  return lo < 0 ? 0 : lo;
}

/* Bring every step within P: 1 done, 0 a step no window fixed (or out of
 * time). */
static int ow_descend(ow *W, int64_t P) {
  int n = W->n;
  for (;;) {
    if (ow_halt(W)) return 0;
    int start = util_below(&W->rng, n), s = -1;
    for (int i = 0; i < n && s < 0; i++)
      if (W->mem[(start + i) % n] > P) s = (start + i) % n;
    if (s < 0) return 1;
    int done = 0, len = W->p->min_len;
    for (int t = 0; t < W->p->tries && !done && !ow_halt(W); t++) {
      int L = len < n ? len : n;
      done = ow_solve(W, ow_place(W, s, L), L, P, 1);
      len = len >= W->p->max_len || len >= n ? W->p->min_len : 2 * len;
    }
    if (!done) return 0;
    W->out->solved++;
  }
}

/* Reorder a few random windows around steps at the peak, within
 * `peak` (the peak plus the slack). */
static void ow_kick(ow *W, int64_t peak) {
  W->out->kicks++;
  W->D->noise = peak / 64 + 1;
  for (int k = 0; k < W->p->kicks && !ow_halt(W); k++) {
    int start = util_below(&W->rng, W->n), s = start;
    for (int i = 0; i < W->n; i++)
      if (W->mem[(start + i) % W->n] >= peak) {
        s = (start + i) % W->n;
        break;
      }
    int len = W->p->min_len << util_below(&W->rng, 4);
    if (len > W->n) len = W->n;
    ow_solve(W, ow_place(W, s, len), len, peak, 0);
  }
  W->D->noise = 0;
}

int64_t order_window_run(const remat_graph *g, order_dfs *D,
                         const order_window_params *p, int *ord,
                         order_window_out *out) {
  int n = g->n;
  memset(out, 0, sizeof *out);
  if (n < 2) return order_walk_peak(g, ord, NULL);
  ow W = {g, D, p, out, n, util_malloc((size_t)n * sizeof *ord),
           util_malloc((size_t)n * sizeof *W.mem), util_calloc((size_t)n, 1),
           p->seed ? p->seed : 1};
  memcpy(W.ord, ord, (size_t)n * sizeof *ord);
  D->rng = W.rng ^ 0x5bd1e995ULL;
  D->deadline = p->deadline;
  D->stop = p->stop;
  int64_t best = order_walk_peak(g, ord, W.mem), peak = best;
  long long kicks_then = 0;
  while (!ow_halt(&W) &&
         !(p->max_kicks > 0 && out->kicks - kicks_then >= p->max_kicks)) {
    if (ow_descend(&W, peak - 1)) {
      peak = 0;
      for (int i = 0; i < n; i++)
        if (W.mem[i] > peak) peak = W.mem[i];
      if (peak < best) {
        best = peak;
        kicks_then = out->kicks;
        memcpy(ord, W.ord, (size_t)n * sizeof *ord);
        if (p->improved) p->improved(p->ctx, ord, best);
      }
    } else {
      ow_kick(&W, peak + (int64_t)((double)peak * p->kick_slack));
    }
  }
  D->allowed = NULL;
  D->budget = 0;
  free(W.ord);
  free(W.mem);
  free(W.allowed);
  return best;
}
