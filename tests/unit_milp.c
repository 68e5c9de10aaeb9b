/* unit_milp.c -- the stage matrices, Checkmate's MILP on CBC, its LP
 * relaxation and rounding, and the baselines, against a brute-force
 * enumeration of all stage-structured schedules of tiny random DAGs. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "gen.h"
#include "graph.h"
#include "milp.h"
#include "remat.h"
#include "rounding.h"
#include "seeds.h"
#include "sim.h"
#include "stage.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

static uint64_t rng_state;

static uint64_t rng_next(void) { /* splitmix64 */
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static int rng_int(int lo, int hi) { /* inclusive */
  return lo + (int)(rng_next() % (uint64_t)(hi - lo + 1));
}

/* A random DAG on n nodes: each pair u < v an edge with probability pct,
 * every node but 0 gets at least one predecessor. */
static remat_graph *tiny_dag(int n, int pct, int wmax) {
  int64_t w[16], m[16];
  int src[128], dst[128], ne = 0;
  for (int v = 0; v < n; v++) {
    w[v] = rng_int(0, wmax);
    m[v] = rng_int(1, 9);
    int has = 0;
    for (int u = 0; u < v; u++)
      if (rng_int(1, 100) <= pct) {
        src[ne] = u, dst[ne++] = v;
        has = 1;
      }
    if (v > 0 && !has) src[ne] = rng_int(0, v - 1), dst[ne++] = v;
  }
  return graph_from_arrays(n, w, m, ne, src, dst, "tiny");
}

static remat_graph *chain(int n) { /* a chain with unit sizes */
  int64_t w[16], m[16];
  int src[16], dst[16];
  for (int v = 0; v < n; v++) w[v] = 1, m[v] = 1;
  for (int v = 1; v < n; v++) src[v - 1] = v - 1, dst[v - 1] = v;
  return graph_from_arrays(n, w, m, n - 1, src, dst, "chain");
}

/* Brute force over all stage-structured schedules: stage t recomputes any
 * subset of {0..t-1}; with cap > 0 only those computing no node more than
 * cap times.  best[k]: the least duration with peak <= budgets[k] (-1:
 * none); *min_peak: the least peak of all. */
static void brute_force_cap(const remat_graph *g, const int64_t *budgets, int nb,
                            int cap, int64_t *best, int64_t *min_peak) {
  int n = g->n, bits = n * (n - 1) / 2;
  int *seq = malloc(sizeof(int) * (size_t)(n + bits + 1));
  for (int k = 0; k < nb; k++) best[k] = -1;
  *min_peak = INT64_MAX;
  for (long mask = 0; mask < (1L << bits); mask++) {
    int len = 0, b = 0, cnt[16] = {0}, over = 0;
    for (int t = 0; t < n; t++) {
      for (int i = 0; i < t; i++, b++)
        if (mask >> b & 1) seq[len++] = i;
      seq[len++] = t;
    }
    for (int i = 0; i < len; i++) over |= cap > 0 && ++cnt[seq[i]] > cap;
    if (over) continue;
    remat_sim s;
    assert_int_equal(remat_simulate(g, seq, len, &s, NULL), 0);
    if (s.peak < *min_peak) *min_peak = s.peak;
    for (int k = 0; k < nb; k++)
      if (s.peak <= budgets[k] && (best[k] < 0 || s.duration < best[k]))
        best[k] = s.duration;
  }
  free(seq);
}

static void brute_force(const remat_graph *g, const int64_t *budgets, int nb,
                        int64_t *best, int64_t *min_peak) {
  brute_force_cap(g, budgets, nb, 0, best, min_peak);
}

/* The result's schedule re-simulates to its numbers. */
static void check_result(const remat_graph *g, const remat_result *r) {
  if (!r->seq) return;
  remat_sim s;
  assert_int_equal(remat_simulate(g, r->seq, r->len, &s, NULL), 0);
  assert_int_equal(s.peak, r->peak);
  assert_int_equal(s.duration, r->duration);
}

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

/* ------------------------------------------------------------------ */
/* Stage matrices                                                      */
/* ------------------------------------------------------------------ */

/* solve_r_opt on a chain 0 -> 1 -> 2 -> 3 with hand-made S. */
static void test_r_opt_chain(void **state) {
  (void)state;
  remat_graph *g = chain(4);
  stage_mat S, R;
  stage_mat_init(&S, 4);
  stage_mat_init(&R, 4);
  /* everything kept while needed: R = I */
  stage_set(&S, 1, 0, 1);
  stage_set(&S, 2, 1, 1);
  stage_set(&S, 3, 2, 1);
  stage_r_opt(g, &S, &R);
  for (int t = 0; t < 4; t++)
    for (int i = 0; i <= t; i++) assert_int_equal(stage_get(&R, t, i), i == t);
  /* nothing kept: stage t recomputes 0..t-1 */
  stage_mat_clear(&S);
  stage_r_opt(g, &S, &R);
  for (int t = 0; t < 4; t++)
    for (int i = 0; i <= t; i++) assert_int_equal(stage_get(&R, t, i), 1);
  /* only 0 kept (S[t,0] = 1 for t >= 1): stage t recomputes 1..t-1 */
  for (int t = 1; t < 4; t++) stage_set(&S, t, 0, 1);
  stage_r_opt(g, &S, &R);
  for (int t = 1; t < 4; t++) {
    assert_int_equal(stage_get(&R, t, 0), 0);
    for (int i = 1; i <= t; i++) assert_int_equal(stage_get(&R, t, i), 1);
  }
  /* S[3,1] = 1 but S[2,1] = 0: (1c) makes stage 2 recompute 1, which
   * needs 0 (kept) */
  stage_mat_clear(&S);
  stage_set(&S, 1, 0, 1);
  stage_set(&S, 2, 0, 1);
  stage_set(&S, 3, 1, 1);
  stage_set(&S, 2, 1, 0);
  stage_r_opt(g, &S, &R);
  assert_int_equal(stage_get(&R, 2, 1), 1);
  assert_int_equal(stage_get(&R, 2, 0), 0);
  assert_int_equal(stage_get(&R, 3, 1), 0); /* kept */
  assert_int_equal(stage_get(&R, 3, 2), 1); /* 2 is not kept: recomputed */
  stage_mat_free(&S);
  stage_mat_free(&R);
  remat_graph_free(g);
}

/* A diamond 0 -> {1, 2} -> 3: S keeps 1 only; stage 3 needs 2, which needs
 * 0, not kept either: both are recomputed, in order. */
static void test_r_opt_diamond(void **state) {
  (void)state;
  int64_t w[4] = {1, 2, 3, 4}, m[4] = {1, 1, 1, 1};
  int src[4] = {0, 0, 1, 2}, dst[4] = {1, 2, 3, 3};
  remat_graph *g = graph_from_arrays(4, w, m, 4, src, dst, "diamond");
  stage_mat S, R;
  stage_mat_init(&S, 4);
  stage_mat_init(&R, 4);
  stage_set(&S, 1, 0, 1);
  stage_set(&S, 2, 0, 1);
  stage_set(&S, 2, 1, 1);
  stage_set(&S, 3, 1, 1);
  stage_r_opt(g, &S, &R);
  int *seq, len = stage_sequence(&R, &seq);
  int want[] = {0, 1, 2, 0, 2, 3};
  assert_int_equal(len, 6);
  assert_memory_equal(seq, want, sizeof want);
  assert_int_equal(stage_duration(g, &R), 1 + 2 + 3 + 1 + 3 + 4);
  /* round trip */
  stage_mat R2;
  stage_mat_init(&R2, 4);
  assert_int_equal(stage_from_sequence(seq, len, &R2), 0);
  assert_memory_equal(R.a, R2.a, 16);
  int bad[] = {0, 2, 1, 3}; /* not the input order */
  assert_int_equal(stage_from_sequence(bad, 4, &R2), -1);
  int bad2[] = {0, 1, 0, 0, 2, 3}; /* 0 twice in one stage */
  assert_int_equal(stage_from_sequence(bad2, 6, &R2), -1);
  free(seq);
  stage_mat_free(&S);
  stage_mat_free(&R);
  stage_mat_free(&R2);
  remat_graph_free(g);
}

/* Random R: after pruning, the canonical S satisfies (1b)/(1c) and
 * Checkmate's accounting equals the simulator step by step; without
 * pruning it is never below the simulated peak. */
static void test_checkmate_accounting(void **state) {
  (void)state;
  rng_state = 7;
  for (int rep = 0; rep < 400; rep++) {
    int n = rng_int(2, 9);
    remat_graph *g = tiny_dag(n, rng_int(10, 70), 9);
    stage_mat R, S;
    stage_mat_init(&R, n);
    stage_mat_init(&S, n);
    for (int t = 0; t < n; t++) {
      stage_set(&R, t, t, 1);
      for (int i = 0; i < t; i++) stage_set(&R, t, i, rng_int(0, 3) == 0);
    }
    int *seq, len = stage_sequence(&R, &seq);
    remat_sim sim;
    assert_int_equal(remat_simulate(g, seq, len, &sim, NULL), 0);
    stage_canonical_s(g, &R, &S);
    assert_true(stage_checkmate_peak(g, &R, &S, NULL) >= sim.peak);
    free(seq);
    int64_t dur0 = stage_duration(g, &R);
    stage_prune(g, &R);
    assert_true(stage_duration(g, &R) <= dur0);
    stage_canonical_s(g, &R, &S);
    for (int t = 0; t < n; t++) /* (1b), (1c) */
      for (int v = 0; v <= t; v++) {
        if (t + 1 < n && v < t)
          assert_true(stage_get(&S, t + 1, v) <=
                      stage_get(&S, t, v) + stage_get(&R, t, v));
        if (!stage_get(&R, t, v)) continue;
        for (int k = g->pred_off[v]; k < g->pred_off[v + 1]; k++)
          assert_true(stage_get(&R, t, g->pred[k]) ||
                      stage_get(&S, t, g->pred[k]));
      }
    len = stage_sequence(&R, &seq);
    int64_t *m1 = malloc(sizeof(int64_t) * (size_t)len);
    int64_t *m2 = malloc(sizeof(int64_t) * (size_t)len);
    assert_int_equal(remat_simulate(g, seq, len, &sim, m1), 0);
    int64_t peak = stage_checkmate_peak(g, &R, &S, m2);
    assert_int_equal(peak, sim.peak);
    assert_memory_equal(m1, m2, sizeof(int64_t) * (size_t)len);
    assert_true(sim.peak <= peak);
    free(m1);
    free(m2);
    free(seq);
    stage_mat_free(&R);
    stage_mat_free(&S);
    remat_graph_free(g);
  }
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
    int n = rng_int(3, 6);
    remat_graph *g = tiny_dag(n, rng_int(20, 80), 9);
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
      remat_result r;
      int rc = milp_run_copies(g, budgets[k], 0, copies, &r);
      check_result(g, &r);
      if (best[k] >= 0) {
        assert_int_equal(rc, 0);
        assert_int_equal(r.status, REMAT_STATUS_OPTIMAL);
        assert_int_equal(r.duration, best[k]);
        int cnt[16] = {0};
        for (int i = 0; i < r.len; i++) assert_true(++cnt[r.seq[i]] <= cap);
      } else {
        assert_int_equal(rc, REMAT_ENOFIT);
        assert_int_equal(r.status, REMAT_STATUS_INFEASIBLE);
        infeasible++;
      }
      differ += best[k] != any[k];
      remat_result_free(&r);
    }
    remat_graph_free(g);
  }
  /* the rows mattered: optima or feasibility that C_v changes */
  assert_true(differ >= 4);
  assert_true(infeasible >= 4);
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
static void test_lp_bound(void **state) {
  (void)state;
  rng_state = 99;
  for (int rep = 0; rep < 12; rep++) {
    int n = rng_int(4, 7);
    remat_graph *g = tiny_dag(n, rng_int(30, 70), 9);
    int64_t topo = remat_topo_peak(g), lb = remat_graph_min_peak(g);
    for (int64_t M = lb; M < topo; M += (topo - lb) / 3 + 1) {
      remat_result r;
      int rc = milp_run_quiet(g, M, 0, &r);
      milp_model md;
      char err[256];
      assert_int_equal(milp_build(&md, g, M, MILP_RELAXED, err, sizeof err), 0);
      double *x = malloc(sizeof(double) * (size_t)md.ncols), obj;
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
    remat_graph_free(g);
  }
}

/* Rounding and baselines: valid schedules, or a clear none within budget. */
static void test_rounding_and_baselines(void **state) {
  (void)state;
  rng_state = 1234;
  for (int rep = 0; rep < 16; rep++) {
    int n = rng_int(3, 9);
    remat_graph *g = tiny_dag(n, rng_int(20, 70), 9);
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
      assert_int_equal(base_best(g, budgets[k], 0, 0, NULL, &r), 0);
      check_result(g, &r);
      /* polishing keeps a fitting schedule fitting and never lengthens it */
      int fits = r.seq && r.peak <= budgets[k];
      int64_t before = r.duration;
      round_polish(g, 0, 10, NULL, &r);
      check_result(g, &r);
      if (fits) assert_true(r.peak <= budgets[k] && r.duration <= before);
      remat_result_free(&r);
    }
    remat_graph_free(g);
  }
}

/* Chen's sqrt(n) on a Checkmate-style training chain: checkpoints every
 * floor(sqrt(L))-th forward node, each segment recomputed once. */
static void test_baseline_training_chain(void **state) {
  (void)state;
  int L = 9, n = 2 * L + 1, ne = 0;
  int64_t w[32], m[32];
  int src[64], dst[64];
  for (int v = 0; v < n; v++) w[v] = 1, m[v] = 1;
  for (int i = 1; i < L; i++) src[ne] = i - 1, dst[ne++] = i; /* forward */
  src[ne] = L - 1, dst[ne++] = L;                             /* loss */
  src[ne] = L, dst[ne++] = L + 1;                             /* grad(L-1) */
  for (int i = L - 1; i >= 1; i--) {
    int gi = 2 * L - i, gim1 = 2 * L - (i - 1);
    src[ne] = gi, dst[ne++] = gim1; /* grad(i) -> grad(i-1) */
    src[ne] = i, dst[ne++] = gim1;  /* i -> grad(i-1) */
  }
  for (int i = 0; i < L; i++)
    src[ne] = i, dst[ne++] = 2 * L - i; /* i -> grad(i) */
  remat_graph *g = graph_from_arrays(n, w, m, ne, src, dst, "train");
  g->backward = calloc((size_t)n, 1);
  for (int v = L; v < n; v++) g->backward[v] = 1;
  int *cand, nc = base_candidates(g, BASE_CAND_AP, &cand);
  assert_int_equal(nc, L); /* a chain: every forward node */
  free(cand);
  nc = base_candidates(g, BASE_CAND_LINEARIZED, &cand);
  assert_int_equal(nc, L);
  free(cand);
  int ck[3] = {2, 5, 8}, *seq;
  int len = base_schedule(g, ck, 3, &seq);
  remat_sim s;
  assert_int_equal(remat_simulate(g, seq, len, &s, NULL), 0);
  /* the non-checkpoints of [0,2), [2,5) and [5,8) are recomputed once,
   * right before their backward pass; the last segment [8,9) is kept */
  assert_int_equal(s.recomputations, 2 + 2 + 2);
  assert_true(s.peak < remat_topo_peak(g));
  free(seq);
  remat_result r;
  base_params bp;
  base_params_init(&bp);
  bp.budget = remat_topo_peak(g) - 1;
  bp.method = BASE_CHEN_SQRTN;
  base_info info;
  remat_result_init(&r, g, bp.budget, "chen-sqrtn");
  assert_int_equal(base_run(g, &bp, &r, &info), 0);
  int want[3] = {2, 5, 8};
  assert_int_equal(info.ncheckpoints, 3);
  assert_memory_equal(info.checkpoints, want, sizeof want);
  assert_true(r.peak <= bp.budget);
  base_info_free(&info);
  remat_result_free(&r);
  bp.method = BASE_CHEN_GREEDY;
  remat_result_init(&r, g, bp.budget, "chen-greedy");
  assert_int_equal(base_run(g, &bp, &r, &info), 0);
  assert_true(r.peak <= bp.budget);
  assert_true(info.evaluated >= 2);
  base_info_free(&info);
  remat_result_free(&r);
  remat_graph_free(g);
}

/* Articulation points of a diamond-with-tail: 0 -> {1,2} -> 3 -> 4. */
/* The baselines build S and R stage by stage from S's intervals; check
 * them against the matrices of baseline.h's definition (S entry by entry,
 * then stage_r_opt and stage_sequence) for random checkpoint sets on
 * training graphs (forward/backward split), U-Nets and layered graphs. */
static void dense_baseline(const remat_graph *g, const unsigned char *is_ck,
                           stage_mat *S, stage_mat *R) {
  int n = g->n, last_fwd = -1;
  for (int v = 0; v < n; v++)
    if (!g->backward || !g->backward[v]) last_fwd = v;
  stage_mat_clear(S);
  for (int i = 0; i < n; i++) {
    int fwd = !g->backward || !g->backward[i];
    int last = g->succ_off[i + 1] > g->succ_off[i] ? g->succ[g->succ_off[i + 1] - 1] : i;
    int end = last_fwd + 1, first = n + 1;
    if (fwd && !is_ck[i]) {
      int start = 0; /* the segment [start, end) holding i */
      for (int c = i; c >= 0; c--)
        if (is_ck[c]) {
          start = c;
          break;
        }
      for (int c = i + 1; c <= last_fwd; c++)
        if (is_ck[c]) {
          end = c;
          break;
        }
      for (int v = start; v < end; v++) /* first reader after end */
        if (!is_ck[v] && (!g->backward || !g->backward[v]))
          for (int k = g->succ_off[v]; k < g->succ_off[v + 1]; k++)
            if (g->succ[k] > end && g->succ[k] < first) first = g->succ[k];
    }
    for (int t = i + 1; t <= last; t++)
      if (!fwd || is_ck[i] || t <= end || t >= first) stage_set(S, t, i, 1);
  }
  stage_r_opt(g, S, R);
}

static void test_baseline_sparse_equals_dense(void **state) {
  (void)state;
  rng_state = 11;
  int recomputing = 0;
  for (int round = 0; round < 24; round++) {
    remat_graph *g = round % 3 == 0   ? gen_training(5 + round, (uint64_t)round)
                     : round % 3 == 1 ? gen_unet(2 + round % 2, (uint64_t)round)
                                      : gen_layered(30 + 3 * round, (uint64_t)round);
    int n = g->n, *ck = malloc((size_t)n * sizeof *ck), nck = 0;
    unsigned char *is_ck = calloc((size_t)n, 1);
    int pct = (int)(rng_next() % 60);
    for (int v = 0; v < n; v++)
      if ((!g->backward || !g->backward[v]) && (int)(rng_next() % 100) < pct) {
        ck[nck++] = v;
        is_ck[v] = 1;
      }
    stage_mat S, R;
    stage_mat_init(&S, n);
    stage_mat_init(&R, n);
    dense_baseline(g, is_ck, &S, &R);
    int *want, *got;
    int wlen = stage_sequence(&R, &want), glen = base_schedule(g, ck, nck, &got);
    assert_int_equal(glen, wlen);
    assert_memory_equal(got, want, (size_t)wlen * sizeof *got);
    recomputing += wlen > n;
    free(want);
    free(got);
    stage_mat_free(&S);
    stage_mat_free(&R);
    free(ck);
    free(is_ck);
    remat_graph_free(g);
  }
  assert_true(recomputing >= 12); /* the sets do cut segments */
}

static void test_articulation_points(void **state) {
  (void)state;
  int64_t w[5] = {1, 1, 1, 1, 1}, m[5] = {1, 1, 1, 1, 1};
  int src[5] = {0, 0, 1, 2, 3}, dst[5] = {1, 2, 3, 3, 4};
  remat_graph *g = graph_from_arrays(5, w, m, 5, src, dst, "ap");
  int *cand, nc = base_candidates(g, BASE_CAND_AP, &cand);
  int want[3] = {0, 3, 4}; /* 0 and 4 through the virtual input/output */
  assert_int_equal(nc, 3);
  assert_memory_equal(cand, want, sizeof want);
  free(cand);
  remat_graph_free(g);
}

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

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_r_opt_chain),
      cmocka_unit_test(test_r_opt_diamond),
      cmocka_unit_test(test_checkmate_accounting),
      cmocka_unit_test(test_articulation_points),
      cmocka_unit_test(test_baseline_training_chain),
      cmocka_unit_test(test_baseline_sparse_equals_dense),
      cmocka_unit_test(test_milp_trivial),
      cmocka_unit_test(test_milp_brute_force),
      cmocka_unit_test(test_milp_chain),
      cmocka_unit_test(test_milp_copies),
      cmocka_unit_test(test_lp_bound),
      cmocka_unit_test(test_rounding_and_baselines),
      cmocka_unit_test(test_polish_chain),
      cmocka_unit_test(test_milp_too_large),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
