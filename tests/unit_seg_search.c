/* unit_seg_search.c -- the segment search (seg_search.h): every schedule
 * reported re-simulates within budget and improves on the one before; on a
 * training graph at half its peak it fits and beats Chen's baselines; a
 * budget no checkpoint set reaches gets no report (the solves that run it
 * beyond the stage model: unit_solve_large.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "baseline.h"
#include "gen.h"
#include "seg_search.h"

typedef report_seen seen;

/* Every report fits and is shorter than the one before. */
static int check_report(void *ctx, const int *seq, int len, const char *name) {
  assert_true(report_check(ctx, name, "segments", seq, len));
  return 0;
}

static seg_out run_seg(seen *S, const remat_graph *g, int64_t M, double seconds) {
  report_seen_start(S, g, M, NULL);
  seg_params p;
  seg_params_init(&p);
  p.budget = M;
  p.deadline = deadline_in(seconds);
  p.io.report = check_report;
  p.io.ctx = S;
  seg_out out;
  assert_int_equal(seg_run(g, &p, &out), 0);
  return out;
}

static void test_seg_training(void **state) {
  (void)state;
  for (uint64_t seed = 1; seed <= 3; seed++) {
    remat_graph *g = gen_training(1000, seed);
    int64_t M = remat_topo_peak(g) / 2;
    seen S;
    seg_out out = run_seg(&S, g, M, 0.5);
    assert_true(out.fits);
    assert_true(S.reports > 0);
    assert_int_equal(out.duration, S.last_dur);
    assert_int_equal(out.forward, 1000);
    assert_true(out.dropped > 0 && out.dropped < 1000);
    remat_result b;
    remat_result_init(&b, g, M, "baseline");
    assert_int_equal(base_best(g, M, 0, DEADLINE_NONE, NULL, &b), REMAT_OK);
    assert_true(b.peak <= M);
    assert_true(out.duration < b.duration);
    remat_result_free(&b);
    remat_graph_free(g);
  }
}

static void test_seg_nothing_fits(void **state) {
  (void)state;
  remat_graph *g = gen_training(200, 7);
  int64_t most = 0;
  for (int v = 0; v < g->n; v++)
    if (g->m[v] > most) most = g->m[v];
  seen S;
  seg_out out = run_seg(&S, g, most, 0.2);
  assert_false(out.fits);
  assert_int_equal(S.reports, 0);
  remat_graph_free(g);
}

UNIT_TESTS(test_seg_training, test_seg_nothing_fits)
