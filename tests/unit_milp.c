/* unit_milp.c -- Checkmate's MILP on CBC and its LP relaxation (milp.c),
 * against a brute-force enumeration of all stage-structured schedules of
 * tiny random DAGs. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "milp.h"
#include "remat.h"
#include "seeds.h"
#include "sim.h"
#include "lp_solver.h"
#include "tiny.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

static int milp_run_copies(const remat_graph *g, int64_t budget, int warm,
                           const int *copies, remat_result *r) {
  milp_params p;
  milp_params_init(&p);
  p.budget = budget;
  p.copies = copies;
  p.verbose = 0;
  p.threads = 1;
  p.seeds = warm ? seeds_milp : NULL;
  p.time_limit = 60;
  remat_result_init(r, g, budget, "milp");
  return milp_solve(g, &p, r, NULL);
}

static int milp_run_quiet(const remat_graph *g, int64_t budget, int warm,
                          remat_result *r) {
  return milp_run_copies(g, budget, warm, NULL, r);
}

/* The MILP at budget against the brute-force optimum `best` (-1: none
 * fits): optimal at it, computing no node v more than caps[v] times
 * (0: any number), or proven infeasible. */
static void milp_at_optimum(const remat_graph *g, int64_t budget, int warm, const int *copies,
                            int64_t best, const int *caps) {
  remat_result r;
  int rc = milp_run_copies(g, budget, warm, copies, &r);
  check_result(g, &r);
  if (best >= 0) {
    assert_int_equal(rc, 0);
    assert_int_equal(r.status, REMAT_STATUS_OPTIMAL);
    assert_int_equal(r.duration, best);
    int cnt[16] = {0};
    for (int i = 0; i < r.len; i++)
      assert_true(++cnt[r.seq[i]] <= caps[r.seq[i]] || !caps[r.seq[i]]);
  } else {
    assert_int_equal(rc, REMAT_ENOFIT);
    assert_int_equal(r.status, REMAT_STATUS_INFEASIBLE);
  }
  remat_result_free(&r);
}

/* ------------------------------------------------------------------ */
/* MILP versus brute force                                             */
/* ------------------------------------------------------------------ */

static int n_recompute, n_cbc_infeasible; /* cases that exercised CBC */

static void milp_vs_brute(const remat_graph *g, int warm) {
  int64_t topo = remat_topo_peak(g), lb = remat_graph_min_peak(g), bf_min;
  int64_t probe[1] = {0}, dummy[1];
  brute_force(g, probe, 1, dummy, &bf_min);
  int64_t budgets[6] = {lb - 1,   bf_min - 1, bf_min, (bf_min + topo) / 2,
                        topo - 1, topo};
  int64_t best[6];
  brute_force(g, budgets, 6, best, &bf_min);
  for (int k = 0; k < 6; k++) {
    if (budgets[k] <= 0) continue;
    remat_result r;
    int rc = milp_run_quiet(g, budgets[k], warm, &r);
    check_result(g, &r);
    if (best[k] >= 0) {
      if (rc != 0 || r.status != REMAT_STATUS_OPTIMAL || r.duration != best[k])
        fprintf(stderr,
                "n=%d budget %lld: milp rc %d status %s duration %lld, "
                "brute force %lld (%s)\n",
                g->n, (long long)budgets[k], rc, remat_status_name(r.status),
                (long long)r.duration, (long long)best[k], r.message);
      assert_int_equal(rc, 0);
      assert_int_equal(r.status, REMAT_STATUS_OPTIMAL);
      assert_int_equal(r.duration, best[k]);
      assert_true(r.peak <= budgets[k]);
      assert_true(r.has_bound);
      n_recompute += r.recomputations > 0;
    } else {
      n_cbc_infeasible += budgets[k] >= lb;
      assert_int_equal(rc, REMAT_ENOFIT);
      assert_int_equal(r.status, REMAT_STATUS_INFEASIBLE);
      assert_true(r.message[0] != 0);
    }
    remat_result_free(&r);
  }
}

static void test_milp_brute_force(void **state) {
  (void)state;
  rng_state = 42;
  int reps = getenv("UNIT_MILP_REPS") ? atoi(getenv("UNIT_MILP_REPS")) : 24;
  n_recompute = n_cbc_infeasible = 0;
  for (int rep = 0; rep < reps; rep++) {
    remat_graph *g = tiny_rand(3, 6, 20, 80);
    milp_vs_brute(g, rep & 1);
    remat_graph_free(g);
  }
  /* graphs on which no stage-structured schedule reaches max_v (m_v +
   * inputs): CBC must prove the budgets in between infeasible */
  int found = 0;
  for (int tries = 0; tries < 3000 && found < 6; tries++) {
    remat_graph *g = tiny_dag(rng_int(5, 6), rng_int(30, 80), 9);
    int64_t probe[1] = {0}, dummy[1], bf_min;
    brute_force(g, probe, 1, dummy, &bf_min);
    if (bf_min > remat_graph_min_peak(g)) {
      milp_vs_brute(g, found & 1);
      found++;
    }
    remat_graph_free(g);
  }
  /* CBC really had to work: optima with recomputations, proofs of
   * infeasibility above max_v (m_v + inputs) */
  assert_true(n_recompute >= reps / 2);
  assert_true(n_cbc_infeasible >= 6);
}

/* With the C_v rows (milp_params.copies) the MILP's optimum is the best
 * schedule computing no node more than C_v times (the CP model's), and
 * its proofs of infeasibility hold for exactly those. */
static void test_milp_copies(void **state) {
  (void)state;
  rng_state = 7;
  int differ = 0, infeasible = 0;
  for (int rep = 0; rep < 16; rep++) {
    remat_graph *g = tiny_dag(rng_int(4, 6), rng_int(30, 80), 9);
    int cap = 1 + rep % 2, copies[16];
    for (int v = 0; v < g->n; v++) copies[v] = cap;
    int64_t topo = remat_topo_peak(g), lb = remat_graph_min_peak(g), any_min, cap_min;
    int64_t probe[1] = {0}, dummy[1];
    brute_force(g, probe, 1, dummy, &any_min);
    brute_force_cap(g, probe, 1, cap, dummy, &cap_min);
    int64_t budgets[4] = {any_min, cap_min - 1, cap_min, (cap_min + topo) / 2};
    int64_t best[4], any[4];
    brute_force_cap(g, budgets, 4, cap, best, &cap_min);
    brute_force(g, budgets, 4, any, &any_min);
    for (int k = 0; k < 4; k++) {
      if (budgets[k] < lb) continue;
      milp_at_optimum(g, budgets[k], 0, copies, best[k], copies);
      infeasible += best[k] < 0;
      differ += best[k] != any[k];
    }
    remat_graph_free(g);
  }
  /* the rows mattered: optima or feasibility that C_v changes */
  assert_true(differ >= 4);
  assert_true(infeasible >= 4);
}

/* The graph's own C_v (its nodes' "copies": 1 on every other node here,
 * none on the rest) hold without milp_params.copies, with the seeds on:
 * the optimum is the best schedule within them. */
static void test_milp_graph_copies(void **state) {
  (void)state;
  rng_state = 11;
  int differ = 0;
  for (int rep = 0; rep < 40; rep++) {
    remat_graph *g = tiny_dag(rng_int(4, 6), rng_int(30, 80), 9);
    for (int v = 0; v < g->n; v++) g->copies[v] = (v + rep) % 2;
    int64_t topo = remat_topo_peak(g), lb = remat_graph_min_peak(g), any_min, own_min;
    int64_t probe[1] = {0}, dummy[1];
    brute_force(g, probe, 1, dummy, &any_min);
    brute_force_caps(g, probe, 1, 0, g->copies, dummy, &own_min);
    int64_t budgets[3] = {any_min, own_min, (own_min + topo) / 2};
    int64_t best[3], any[3];
    brute_force_caps(g, budgets, 3, 0, g->copies, best, &own_min);
    brute_force(g, budgets, 3, any, &any_min);
    for (int k = 0; k < 3; k++) {
      if (budgets[k] < lb) continue;
      milp_at_optimum(g, budgets[k], 1, NULL, best[k], g->copies);
      differ += best[k] != any[k];
    }
    remat_graph_free(g);
  }
  assert_true(differ >= 5); /* 7 of the 40 graphs' cases: the C_v cost there */
}

/* Durations of 0 and a chain (the classic case). */
static void test_milp_chain(void **state) {
  (void)state;
  for (int n = 3; n <= 6; n++) {
    remat_graph *g = chain(n);
    milp_vs_brute(g, 0);
    remat_graph_free(g);
  }
  rng_state = 5;
  for (int rep = 0; rep < 6; rep++) {
    remat_graph *g = tiny_dag(rng_int(4, 6), 50, 1); /* many zero durations */
    milp_vs_brute(g, 1);
    remat_graph_free(g);
  }
}

/* The LP relaxation's value is a lower bound of the MILP optimum. */
static void lp_bound(const remat_graph *g) {
  int64_t topo = remat_topo_peak(g), lb = remat_graph_min_peak(g);
  for (int64_t M = lb; M < topo; M += (topo - lb) / 3 + 1) {
    remat_result r;
    int rc = milp_run_quiet(g, M, 0, &r);
    milp_model md;
    char err[256];
    assert_int_equal(milp_build(&md, g, M, MILP_RELAXED, err, sizeof err), 0);
    double *x = malloc(sizeof(double) * (size_t)md.lp.ncols), obj;
    int st = milp_solve_lp(&md, 30, NULL, x, &obj);
    if (rc == 0) {
      assert_int_equal(st, 0);
      assert_true(milp_duration(&md, obj) <= (double)r.duration + 1e-6);
    } else {
      assert_int_equal(r.status, REMAT_STATUS_INFEASIBLE);
    }
    free(x);
    milp_free(&md);
    remat_result_free(&r);
  }
}

TINY_TEST(test_lp_bound, lp_bound, 99, 12, 4, 7, 30, 70)

/* A budget below max_v (m_v + inputs) fails at once; the input order wins
 * when it fits. */
static void test_milp_trivial(void **state) {
  (void)state;
  remat_graph *g = chain(5);
  remat_result r;
  assert_int_equal(milp_run_quiet(g, 1, 1, &r), REMAT_ENOFIT);
  assert_int_equal(r.status, REMAT_STATUS_INFEASIBLE);
  assert_null(r.seq);
  remat_result_free(&r);
  assert_int_equal(milp_run_quiet(g, 2, 1, &r), 0);
  assert_int_equal(r.status, REMAT_STATUS_OPTIMAL);
  assert_int_equal(r.recomputations, 0);
  remat_result_free(&r);
  remat_graph_free(g);
}

/* The model refuses instead of blowing up. */
static void test_milp_too_large(void **state) {
  (void)state;
  int n = 1200, ne = 0;
  int64_t *w = malloc(sizeof(int64_t) * (size_t)n),
          *m = malloc(sizeof(int64_t) * (size_t)n);
  int *src = malloc(sizeof(int) * 4 * (size_t)n),
      *dst = malloc(sizeof(int) * 4 * (size_t)n);
  for (int v = 0; v < n; v++) {
    w[v] = 1, m[v] = 1;
    for (int d = 1; d <= 3 && v - d >= 0; d++) src[ne] = v - d, dst[ne++] = v;
  }
  remat_graph *g = graph_from_arrays(n, w, m, ne, src, dst, "big");
  milp_model md;
  char err[256] = "";
  assert_int_equal(milp_build(&md, g, 10, MILP_INTEGRAL, err, sizeof err),
                   REMAT_EUSAGE);
  assert_non_null(strstr(err, "too large"));
  free(w), free(m), free(src), free(dst);
  remat_graph_free(g);
}

/* When CBC's or Clp's end counts as a proof (lp_solver.h): on one thread
 * up to 90 % of the limit (a proof at 60 % stands), on T threads up to 90 %
 * divided by T (a CPU-time clock runs up to T times as fast). */
static void test_solver_end_rule(void **state) {
  (void)state;
  assert_true(solver_end_in_time(6.0, 10.0, 1));
  assert_true(solver_end_in_time(8.9, 10.0, 0));
  assert_false(solver_end_in_time(9.0, 10.0, 1));
  assert_false(solver_end_in_time(12.0, 10.0, 1));
  assert_true(solver_end_in_time(4.4, 10.0, 2));
  assert_false(solver_end_in_time(4.6, 10.0, 2));
  assert_false(solver_end_in_time(2.0, 10.0, 8));
}

UNIT_TESTS(test_milp_trivial, test_milp_brute_force, test_milp_chain,
           test_milp_copies, test_milp_graph_copies, test_lp_bound, test_milp_too_large,
           test_solver_end_rule)

