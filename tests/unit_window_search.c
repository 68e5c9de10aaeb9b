/* unit_window_search.c -- the window search (window_search.c) through its
 * worker_io: every schedule it reports re-simulates, keeps the budget
 * (phase 2) and the copy limits and improves on the one before; on tiny
 * graphs phase 2 reaches the brute-force optimum and phase 1 ends within
 * budget; it moves to a schedule it polls, stops on halt and on the stop
 * flag, ticks, ends at once when nothing is left to recompute, and refuses
 * a start that is not stage-structured. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "graph.h"
#include "model.h"
#include "oracle.h"
#include "window_search.h"

typedef struct watch {
  const remat_graph *g;
  int phase;
  int64_t M;
  int reports;
  int64_t last_peak, last_dur;
  int *last, last_len; /* the last schedule reported */
  long long ticks, last_tick;
  int *give, give_len; /* what poll hands over once (NULL: nothing) */
  int polled;
  int halt_after;      /* halt once this many reports came (0: never) */
  int64_t halt_at;     /* halt once a report is this short (0: never) */
} watch;

static int watch_report(void *ctx, const int *seq, int len, const char *name) {
  watch *W = ctx;
  assert_string_equal(name, "window");
  remat_sim sim;
  assert_int_equal(remat_simulate(W->g, seq, len, &sim, NULL), 0);
  if (W->phase == 2) {
    assert_true(sim.peak <= W->M);
    if (W->reports) assert_true(sim.duration < W->last_dur);
  }
  W->reports++;
  W->last_peak = sim.peak;
  W->last_dur = sim.duration;
  free(W->last);
  W->last = malloc((size_t)len * sizeof *seq);
  memcpy(W->last, seq, (size_t)len * sizeof *seq);
  W->last_len = len;
  return 0;
}

static int watch_poll(void *ctx, int **seq, int *len) {
  watch *W = ctx;
  if (!W->give || W->polled) return 0;
  W->polled = 1;
  *seq = malloc((size_t)W->give_len * sizeof **seq);
  memcpy(*seq, W->give, (size_t)W->give_len * sizeof **seq);
  *len = W->give_len;
  return 1;
}

static int watch_halt(void *ctx) {
  watch *W = ctx;
  return (W->halt_after > 0 && W->reports >= W->halt_after) ||
         (W->halt_at > 0 && W->reports && W->last_dur <= W->halt_at);
}

static void watch_tick(void *ctx, long long count) {
  watch *W = ctx;
  assert_true(count > W->last_tick);
  W->last_tick = count;
  W->ticks++;
}

/* Run the window search over g at budget M in `phase` from seq. */
static gz_status run(watch *W, const remat_graph *g, int phase, int64_t M, const int *seq,
                     int len, double seconds, volatile int *stop, gz_stats *st) {
  W->g = g;
  W->phase = phase;
  W->M = M;
  model md;
  char err[256];
  assert_int_equal(model_build(&md, g, phase, M, NULL, g->n, err, sizeof err), 0);
  wsearch_params p;
  wsearch_params_init(&p);
  p.deadline = deadline_in(seconds);
  p.io.report = watch_report;
  p.io.poll = watch_poll;
  p.io.halt = watch_halt;
  p.io.tick = watch_tick;
  p.io.ctx = W;
  p.io.stop = stop;
  gz_status s = wsearch_run(&md, seq, len, &p, st, err, sizeof err);
  if (s == GZ_ERROR) assert_string_equal(err, "the start schedule is not stage-structured");
  model_free(&md);
  return s;
}

/* Stage t recomputes every ancestor of t (in order), then computes t: a
 * schedule that keeps nothing across stages, long but low.  Returns its
 * length. */
static int recompute_all(const remat_graph *g, int *seq) {
  int len = 0;
  for (int t = 0; t < g->n; t++) {
    unsigned char anc[64] = {0};
    anc[t] = 1;
    for (int v = t; v >= 0; v--)
      if (anc[v])
        for (int j = g->pred_off[v]; j < g->pred_off[v + 1]; j++) anc[g->pred[j]] = 1;
    for (int u = 0; u < t; u++)
      if (anc[u]) seq[len++] = u;
    seq[len++] = t;
  }
  return len;
}

/* Graph `seed` on TINY nodes at a budget where the optimum recomputes. */
#define TINY 6
static remat_graph *tiny(uint64_t seed, int64_t *M, int64_t *optimum) {
  remat_graph *g = oracle_dag(TINY, 40, 9, 9, seed);
  int64_t lo = remat_graph_min_peak(g), hi = remat_topo_peak(g);
  for (int k = 3; k > 0; k--) {
    int64_t b = lo + (hi - lo) * k / 4, min_peak;
    int64_t best = oracle_best(g, b, &min_peak);
    if (best > remat_graph_base_duration(g)) {
      *M = b;
      *optimum = best;
      return g;
    }
  }
  remat_graph_free(g);
  return NULL;
}

/* Runs check on the first four of the tiny graphs of seeds 701 to 799
 * that it takes (check returns 1; 0: passed over), then frees them. */
static void on_tiny_graphs(int (*check)(remat_graph *g, uint64_t seed,
                                        int64_t M, int64_t optimum)) {
  int done = 0;
  for (uint64_t seed = 701; seed < 800 && done < 4; seed++) {
    int64_t M, optimum;
    remat_graph *g = tiny(seed, &M, &optimum);
    if (!g) continue;
    done += check(g, seed, M, optimum);
    remat_graph_free(g);
  }
  assert_int_equal(done, 4);
}

static int phase2_optimum(remat_graph *g, uint64_t seed, int64_t M,
                          int64_t optimum) {
  int start[TINY * TINY];
  int len = recompute_all(g, start);
  remat_sim s0;
  assert_int_equal(remat_simulate(g, start, len, &s0, NULL), 0);
  if (s0.peak > M || s0.duration == optimum)
    return 0; /* not a start that shows much */
  watch W = {0};
  W.halt_at = optimum; /* no need to wait for the time limit there */
  gz_stats st;
  gz_status s = run(&W, g, 2, M, start, len, 5.0, NULL, &st);
  assert_true(s == GZ_SATISFIED || s == GZ_OPTIMAL);
  assert_true(W.reports > 0);
  if (W.last_dur != optimum)
    fail_msg("graph %d: window search %lld, optimum %lld", (int)seed, (long long)W.last_dur,
             (long long)optimum);
  assert_true(W.last_tick <= st.searches);
  assert_true(W.ticks > 0 || st.searches <= 1);
  /* from the same start, polling the optimum first: nothing is better */
  watch P = {0};
  P.give = W.last;
  P.give_len = W.last_len;
  run(&P, g, 2, M, start, len, 0.2, NULL, NULL);
  assert_true(P.polled);
  assert_int_equal(P.reports, 0);
  /* halt after the first report */
  watch H = {0};
  H.halt_after = 1;
  run(&H, g, 2, M, start, len, 1.0, NULL, NULL);
  assert_int_equal(H.reports, 1);
  free(W.last);
  free(H.last);
  return 1;
}

static void test_wsearch_phase2_optimum(void **state) {
  (void)state;
  on_tiny_graphs(phase2_optimum);
}

static int phase1_fits(remat_graph *g, uint64_t seed, int64_t M,
                       int64_t optimum) {
  (void)seed;
  (void)optimum;
  int topo[TINY] = {0, 1, 2, 3, 4, 5};
  assert_true(remat_topo_peak(g) > M);
  watch W = {0};
  gz_status s = run(&W, g, 1, M, topo, TINY, 2.0, NULL, NULL);
  assert_int_equal(s, GZ_OPTIMAL); /* phase 1: within budget */
  assert_true(W.reports > 0);
  assert_true(W.last_peak <= M);
  free(W.last);
  return 1;
}

static void test_wsearch_phase1_fits(void **state) {
  (void)state;
  on_tiny_graphs(phase1_fits);
}

static void test_wsearch_ends(void **state) {
  (void)state;
  remat_graph *g = oracle_dag(6, 40, 9, 9, 701);
  int topo[6] = {0, 1, 2, 3, 4, 5};
  int64_t M = remat_topo_peak(g);
  /* phase 2 with nothing to recompute: optimal at once */
  watch W = {0};
  gz_stats st;
  assert_int_equal(run(&W, g, 2, M, topo, 6, 5.0, NULL, &st), GZ_OPTIMAL);
  assert_int_equal(W.reports, 0);
  assert_int_equal(st.searches, 0);
  /* the stop flag: nothing done */
  volatile int stop = 1;
  watch S = {0};
  assert_int_equal(run(&S, g, 1, M - 1, topo, 6, 5.0, &stop, &st), GZ_SATISFIED);
  assert_int_equal(st.searches, 0);
  assert_int_equal(S.reports, 0);
  /* not stage-structured: node 3 before node 2 */
  int bad[6] = {0, 1, 3, 2, 4, 5};
  watch B = {0};
  assert_int_equal(run(&B, g, 2, M, bad, 6, 5.0, NULL, NULL), GZ_ERROR);
  remat_graph_free(g);
}

UNIT_TESTS(test_wsearch_phase2_optimum, test_wsearch_phase1_fits,
           test_wsearch_ends)
