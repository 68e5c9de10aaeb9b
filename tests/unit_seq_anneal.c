/* unit_seq_anneal.c -- the annealing over sequences in free order
 * (seq_anneal.h): every schedule it reports re-simulates, keeps the copy
 * limits and improves on the one before; from the input order it reaches
 * the exhaustive free-order optimum (exhaustive.h) on random DAGs of up to
 * 6 nodes, below the stage model's optimum where that is higher; from a
 * schedule that fits it never reports a worse one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "exhaustive.h"
#include "gen.h"
#include "oracle.h"
#include "seq_anneal.h"

typedef report_seen seen;

static int check_report(void *ctx, const int *seq, int len, const char *name) {
  report_check(ctx, name, "sequence", seq, len);
  report_keep(ctx, seq, len);
  return 0;
}

static void run_sqa(seen *S, const remat_graph *g, int64_t M, const int *copies,
                    const int *seq, int len, long long moves, double seconds) {
  report_seen_start(S, g, M, copies);
  sqa_params p;
  sqa_params_init(&p);
  p.budget = M;
  p.copies = copies;
  p.max_moves = moves;
  p.deadline = deadline_in(seconds);
  p.io.report = check_report;
  p.io.ctx = S;
  if (seq) { /* the start counts as the first report */
    check_report(S, seq, len, "sequence");
  } else {
    int *topo = malloc((size_t)g->n * sizeof *topo);
    for (int v = 0; v < g->n; v++) topo[v] = v;
    check_report(S, topo, g->n, "sequence");
    free(topo);
  }
  sqa_run(g, seq, len, &p);
}

static void test_sqa_exhaustive(void **state) {
  (void)state;
  int bad = 0, total = 0, below_stages = 0;
  for (int i = 0; i < 80; i++) {
    remat_graph *g = oracle_small(i, 3, 4, 700);
    int n = g->n;
    int64_t lo = remat_graph_min_peak(g), hi = remat_topo_peak(g);
    int caps[EXH_MAXN] = {2, 2, 2, 2, 2, 2, 2};
    int64_t budgets[3] = {lo, (lo + hi) / 2, hi - 1};
    for (int k = 0; k < 3; k++) {
      int64_t M = budgets[k];
      if (M < lo || (k && M == budgets[k - 1])) continue;
      int64_t want = exh_best(g, M, caps, 0), stage = exh_best(g, M, caps, 1);
      if (want < 0) continue;
      seen S;
      run_sqa(&S, g, M, caps, NULL, 0, 300000, 10);
      if (!S.fits || S.last_dur != want) {
        fprintf(stderr, "  graph %d (n=%d) at %lld: exhaustive %lld, annealing %s %lld\n", i, n,
                (long long)M, (long long)want, S.fits ? "fits" : "over", (long long)S.last_dur);
        bad++;
      }
      if (stage < 0 || stage > want) below_stages++;
      total++;
      free(S.last);
    }
    remat_graph_free(g);
  }
  if (bad) fail_msg("%d of %d instances: the annealing missed the optimum", bad, total);
  fprintf(stderr, "  %d instances, %d below the stage model's optimum\n", total, below_stages);
  assert_true(total >= 30);
  assert_true(below_stages > 0); /* some optimum needs the order to change */
}

/* On a larger graph, from the best of a first run (within budget): every
 * report of the second run is shorter than that start. */
static void test_sqa_from_fit(void **state) {
  (void)state;
  remat_graph *g = gen_layered(120, 5);
  int64_t M = remat_topo_peak(g) * 85 / 100;
  int *caps = malloc((size_t)g->n * sizeof *caps);
  for (int v = 0; v < g->n; v++) caps[v] = 2;
  seen S, T;
  run_sqa(&S, g, M, caps, NULL, 0, 20000, 10);
  assert_true(S.fits);
  run_sqa(&T, g, M, caps, S.last, S.last_len, 200000, 10);
  assert_true(T.fits);
  assert_true(T.last_dur <= S.last_dur);
  free(S.last);
  free(T.last);
  free(caps);
  remat_graph_free(g);
}

UNIT_TESTS(test_sqa_exhaustive, test_sqa_from_fit)
