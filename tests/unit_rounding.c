/* unit_rounding.c -- the LP rounding and the polish (rounding.c): on tiny
 * random DAGs the rounded schedules and every baseline's re-simulate, fit
 * when they say so, and polishing never lengthens a fitting schedule; a
 * chain's recomputations all go. */
#include "testutil.h"

#include "baseline.h"
#include "graph.h"
#include "remat.h"
#include "rounding.h"
#include "tiny.h"

/* Rounding and baselines: valid schedules, or a clear none within budget. */
static void rounding_and_baselines(const remat_graph *g) {
  int64_t topo = remat_topo_peak(g), lb = remat_graph_min_peak(g);
  int64_t budgets[3] = {lb, (lb + topo) / 2, topo};
  for (int k = 0; k < 3; k++) {
    round_params rp;
    round_params_init(&rp);
    rp.budget = budgets[k];
    rp.verbose = 0;
    remat_result r;
    remat_result_init(&r, g, budgets[k], "lp-rounding");
    round_stats st;
    int rc = round_solve(g, &rp, &r, &st);
    check_result(g, &r);
    assert_true(rc == 0 || rc == REMAT_ENOFIT);
    assert_int_equal(rc == 0, r.seq && r.peak <= budgets[k]);
    if (rc) assert_true(r.message[0] != 0);
    if (r.has_bound && rc == 0)
      assert_true(r.bound <= (double)r.duration + 1e-6);
    remat_result_free(&r);
    for (int m = 0; m < BASE_NMETHODS; m++)
      for (int c = 0; c < BASE_NCAND; c++) {
        base_params bp;
        base_params_init(&bp);
        bp.budget = budgets[k];
        bp.method = m;
        bp.candidates = c;
        base_info info;
        remat_result_init(&r, g, budgets[k], base_method_name(m));
        assert_int_equal(base_run(g, &bp, &r, &info), 0);
        assert_non_null(r.seq);
        check_result(g, &r);
        if (m == BASE_CHECKPOINT_ALL) assert_int_equal(r.peak, topo);
        base_info_free(&info);
        remat_result_free(&r);
      }
    remat_result_init(&r, g, budgets[k], "baselines");
    assert_int_equal(base_best(g, budgets[k], 0, DEADLINE_NONE, NULL, &r), 0);
    check_result(g, &r);
    /* polishing keeps a fitting schedule fitting and never lengthens it */
    int fits = r.seq && r.peak <= budgets[k];
    int64_t before = r.duration;
    round_polish(g, 0, 10, NULL, &r);
    check_result(g, &r);
    if (fits) assert_true(r.peak <= budgets[k] && r.duration <= before);
    remat_result_free(&r);
  }
}

TINY_TEST(test_rounding_and_baselines, rounding_and_baselines, 1234, 16, 3, 9, 20, 70)


/* The graph's own "copies" 1 hold in the rounded schedules: on tiny DAGs
 * the nodes the rounding computes again are given copies 1, and the
 * rounding then holds them while their readers are computed again.
 * Returns the number of nodes the schedule computes more than once and
 * marks them in again[]. */
static int rounding_again(remat_graph *g, int64_t budget, int *again) {
  round_params rp;
  round_params_init(&rp);
  rp.budget = budget;
  rp.verbose = 0;
  remat_result r;
  remat_result_init(&r, g, budget, "lp-rounding");
  int rc = round_solve(g, &rp, &r, NULL), cnt[16] = {0}, k = 0;
  check_result(g, &r);
  assert_true(rc == 0 || rc == REMAT_ENOFIT);
  for (int i = 0; r.seq && i < r.len; i++)
    if (++cnt[r.seq[i]] == 2) again[r.seq[i]] = 1, k++;
  remat_result_free(&r);
  return k;
}

static void test_rounding_own_copies(void **state) {
  (void)state;
  rng_state = 5;
  int cases = 0;
  for (int rep = 0; rep < 40; rep++) {
    remat_graph *g = tiny_dag(rng_int(5, 9), rng_int(20, 70), 9);
    int64_t topo = remat_topo_peak(g), lb = remat_graph_min_peak(g);
    int64_t budgets[2] = {lb, (lb + topo) / 2};
    for (int k = 0; k < 2; k++) {
      int again[16] = {0}, twice[16] = {0};
      for (int v = 0; v < g->n; v++) g->copies[v] = 0;
      if (!rounding_again(g, budgets[k], again)) continue;
      for (int v = 0; v < g->n; v++) g->copies[v] = again[v];
      rounding_again(g, budgets[k], twice);
      for (int v = 0; v < g->n; v++) assert_false(again[v] && twice[v]);
      cases++;
    }
    remat_graph_free(g);
  }
  assert_true(cases >= 20); /* 39 of the 80 */
}

/* Polishing a chain schedule that recomputes everything in every stage:
 * with the input order's peak as budget every recomputation goes. */
static void test_polish_chain(void **state) {
  (void)state;
  remat_graph *g = chain(5);
  int seq[15], len = 0;
  for (int t = 0; t < 5; t++)
    for (int i = 0; i <= t; i++) seq[len++] = i;
  remat_result r;
  remat_result_init(&r, g, remat_topo_peak(g), "polish");
  assert_int_equal(remat_result_offer(&r, g, seq, len, 0, 0), 1);
  assert_int_equal(r.recomputations, 10);
  assert_true(round_polish(g, 0, 10, NULL, &r) > 0);
  check_result(g, &r);
  assert_int_equal(r.recomputations, 0);
  assert_int_equal(r.duration, 5);
  remat_result_free(&r);
  remat_graph_free(g);
}


UNIT_TESTS(test_rounding_and_baselines, test_rounding_own_copies, test_polish_chain)
