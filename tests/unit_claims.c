/* unit_claims.c -- the claims a result makes hold exactly:
 *   - a lower bound is written as a JSON integer, rounded down (a real
 *     with ten digits rounds 12498261966 up to 12498261970);
 *   - the bound from the CP's optimum with rounded durations
 *     (bounds_rounded) is at or below the exact optimum, and a solve whose
 *     durations are rounded says `optimal` only at the exact optimum (an
 *     exhaustive search, exhaustive.h);
 *   - the MILP's memory scaling: a model rounded down is a relaxation, one
 *     rounded up a restriction, and at sizes near 10^12 CBC neither calls
 *     a budget infeasible that a schedule fits nor bounds above it;
 *   - CBC stopped by its time limit in an LP may end "finished, linear
 *     relaxation infeasible": no such end is taken as a proof. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#include "bounds.h"
#include "cover.h"
#include "exhaustive.h"
#include "gen.h"
#include "graph.h"
#include "milp.h"
#include "model.h"
#include "result.h"

static uint64_t uc_rand(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* A random DAG of n nodes: sizes in [1, 9] (or near 2.5 x 10^12 when
 * huge), durations from `dur` (0: near-ties of 2 x 10^8 multiples plus a
 * few units, which rounding to a quantum cannot tell apart; 1: any up to
 * 10^9). */
static remat_graph *uc_graph(uint64_t *s, int n, int dur, int huge) {
  int64_t w[EXH_MAXN], m[EXH_MAXN];
  int src[EXH_MAXN * EXH_MAXN], dst[EXH_MAXN * EXH_MAXN], ne = 0;
  for (int v = 0; v < n; v++) {
    w[v] = dur ? 1 + (int64_t)(uc_rand(s) % 1000000000) : 200000000LL * (int64_t)(1 + uc_rand(s) % 4) + (int64_t)(uc_rand(s) % 7);
    m[v] = huge ? 2500000000000LL + (int64_t)(uc_rand(s) % 1000) : 1 + (int64_t)(uc_rand(s) % 9);
    int has = 0;
    for (int u = 0; u < v; u++)
      if (uc_rand(s) % 100 < 45) src[ne] = u, dst[ne++] = v, has = 1;
    if (v && !has) src[ne] = (int)(uc_rand(s) % (uint64_t)v), dst[ne++] = v;
  }
  return graph_from_arrays(n, w, m, ne, src, dst, "claims");
}

/* ------------------------------------------------------------ JSON */

static json_int_t uc_written_bound(double bound) {
  uint64_t s = 3;
  remat_graph *g = uc_graph(&s, 4, 1, 0);
  remat_result r;
  remat_result_init(&r, g, remat_topo_peak(g), "cp");
  r.has_bound = 1;
  r.bound = bound;
  char path[] = "/tmp/remat-claims-XXXXXX", err[256];
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  close(fd);
  assert_int_equal(result_write_json(&r, g, NULL, path, err, sizeof err), 0);
  json_error_t je;
  json_t *root = json_load_file(path, 0, &je);
  unlink(path);
  assert_non_null(root);
  json_t *lb = json_object_get(root, "lower_bound");
  assert_true(json_is_integer(lb));
  json_int_t v = json_integer_value(lb);
  json_decref(root);
  remat_result_free(&r);
  remat_graph_free(g);
  return v;
}

static void test_bound_json_integer(void **state) {
  (void)state;
  assert_true(uc_written_bound(12498261966.0) == 12498261966LL);
  assert_true(uc_written_bound(14559179908.0) == 14559179908LL);
  assert_true(uc_written_bound(12.75) == 12); /* rounded down */
  assert_true(uc_written_bound(9007199254740992.0) == 9007199254740992LL);
}

/* --------------------------------------------- rounded durations */

/* The CP model's stage optimum with its rounded durations, in quanta:
 * the exhaustive optimum of the graph whose durations are md->dur. */
static long long uc_scaled_optimum(const remat_graph *g, const model *md, int64_t M,
                                   const int *caps) {
  int64_t w[EXH_MAXN];
  for (int v = 0; v < g->n; v++) w[v] = md->dur[v];
  int src[EXH_MAXN * EXH_MAXN], dst[EXH_MAXN * EXH_MAXN], ne = 0;
  for (int v = 0; v < g->n; v++)
    for (int j = g->succ_off[v]; j < g->succ_off[v + 1]; j++) src[ne] = v, dst[ne++] = g->succ[j];
  remat_graph *h = graph_from_arrays(g->n, w, g->m, ne, src, dst, "scaled");
  int64_t best = exh_best(h, M, caps, 1);
  long long units = best < 0 ? -1 : (long long)(best - remat_graph_base_duration(h));
  remat_graph_free(h);
  return units;
}

/* bounds_rounded never passes the exact optimum, and the gap it leaves
 * is at most what rounding can add. */
static void test_bounds_rounded(void **state) {
  (void)state;
  uint64_t s = 11;
  int checked = 0, naive_above = 0;
  for (int it = 0; it < 300; it++) {
    int n = 4 + (int)(uc_rand(&s) % 4), C = 2 + (int)(uc_rand(&s) % 2);
    remat_graph *g = uc_graph(&s, n, it % 2, 0);
    int64_t lo = remat_graph_min_peak(g), hi = remat_topo_peak(g);
    int64_t M = lo + (hi - lo) / 2;
    model md;
    char err[256];
    assert_int_equal(model_build(&md, g, 2, M, NULL, C, err, sizeof err), 0);
    int caps[EXH_MAXN];
    for (int v = 0; v < n; v++) caps[v] = md.first[v + 1] - md.first[v];
    int64_t opt = exh_best(g, M, caps, 1);
    if (!md.dur_exact && md.mem_exact && opt > remat_graph_base_duration(g)) {
      long long units = uc_scaled_optimum(g, &md, M, caps);
      assert_true(units >= 0);
      double lb = bounds_rounded(g, &md, units);
      assert_true(lb <= (double)opt);
      /* never below q O' - sum (C_v - 1) max(0, q dur'_v - w_v) */
      int64_t slack = 0;
      for (int v = 0; v < n; v++) {
        int64_t d = md.dur_q * md.dur[v] - g->w[v];
        if (d > 0) slack += (caps[v] - 1) * d;
      }
      assert_true(lb >= (double)(remat_graph_base_duration(g) + md.dur_q * units - slack));
      checked++;
      naive_above += remat_graph_base_duration(g) + md.dur_q * units > opt;
    }
    model_free(&md);
    remat_graph_free(g);
  }
  assert_true(checked >= 50);
  assert_true(naive_above > 0); /* the rounded optimum times q is no bound */
}

/* A solve whose durations are rounded says `optimal` only at the exact
 * optimum; otherwise its message says so and its bound is below. */
static void test_solve_rounded(void **state) {
  (void)state;
  uint64_t s = 5;
  int rounded = 0, optimal = 0;
  for (int it = 0; it < 60; it++) {
    int n = 5 + (int)(uc_rand(&s) % 3);
    remat_graph *g = uc_graph(&s, n, 0, 0);
    int64_t lo = remat_graph_min_peak(g), hi = remat_topo_peak(g);
    remat_solve_params p = solve_params(lo + (hi - lo) / 3, 5, 1);
    p.default_copies = 2;
    remat_result r;
    remat_result_init(&r, g, p.budget, "cp");
    int rc = remat_solve(g, &p, &r);
    int caps[EXH_MAXN];
    for (int v = 0; v < n; v++) caps[v] = r.copies ? r.copies[v] : 1;
    int64_t opt = exh_best(g, p.budget, caps, 1);
    if (rc == REMAT_OK) {
      assert_true(opt >= 0 && r.duration >= opt);
      if (r.status == REMAT_STATUS_OPTIMAL) {
        assert_true(r.duration == opt);
        optimal++;
      }
      if (r.has_bound) assert_true(r.bound <= (double)opt);
      if (strstr(r.message, "rounded")) {
        assert_int_equal(r.status, REMAT_STATUS_FEASIBLE);
        rounded++;
      }
    }
    remat_result_free(&r);
    remat_graph_free(g);
  }
  assert_true(optimal > 0);
  (void)rounded;
}

/* ------------------------------------------------------ the MILP */

/* Sizes near 2.5 x 10^12: `remat milp` (any number of recomputations) and
 * with C_v rows: never infeasible where the exhaustive search finds a
 * schedule, never an internal error, its bound never above the optimum. */
static void test_milp_huge(void **state) {
  (void)state;
  uint64_t s = 17;
  int fits = 0;
  for (int it = 0; it < 40; it++) {
    int n = 5 + (int)(uc_rand(&s) % 3);
    remat_graph *g = uc_graph(&s, n, 1, 1);
    int64_t lo = remat_graph_min_peak(g), hi = remat_topo_peak(g);
    int64_t M = lo + (int64_t)((double)(hi - lo) * (double)(uc_rand(&s) % 1000) / 1000.0);
    int caps[EXH_MAXN];
    for (int v = 0; v < n; v++) caps[v] = 2;
    for (int k = 0; k < 2; k++) {
      milp_params p;
      milp_params_init(&p);
      p.budget = M;
      p.time_limit = 10;
      p.threads = 1;
      p.verbose = 0;
      p.copies = k ? caps : NULL;
      remat_result r;
      remat_result_init(&r, g, M, "milp");
      int rc = milp_solve(g, &p, &r, NULL);
      int64_t opt = exh_best(g, M, k ? caps : NULL, 1);
      assert_true(rc == REMAT_OK || rc == REMAT_ENOFIT);
      if (r.status == REMAT_STATUS_INFEASIBLE) assert_true(opt == -1);
      if (r.status == REMAT_STATUS_OPTIMAL) assert_true(r.duration == opt);
      if (r.has_bound && opt >= 0) assert_true(r.bound <= (double)opt);
      fits += rc == REMAT_OK;
      remat_result_free(&r);
    }
    remat_graph_free(g);
  }
  assert_true(fits > 10);
}

/* The covering problem of a 1000-node layered graph at 0.8 has a bound
 * (CBC proves it in seconds); at every time limit it is never called
 * infeasible. */
static void test_cover_time_limits(void **state) {
  (void)state;
  remat_graph *g = gen_layered(1000, 1);
  int64_t M = (int64_t)(0.8 * (double)remat_topo_peak(g));
  int *c = malloc((size_t)g->n * sizeof *c);
  for (int v = 0; v < g->n; v++) c[v] = 2;
  int bounds = 0;
  for (double t = 0.004; t < 0.4; t *= 1.15) {
    cover_params p;
    cover_params_init(&p);
    p.budget = M;
    p.copies = c;
    p.time_limit = t;
    cover_out o;
    cover_solve(g, &p, &o);
    assert_true(o.status != COVER_INFEASIBLE);
    bounds += o.status == COVER_BOUND || o.status == COVER_OPTIMAL;
  }
  assert_true(bounds > 0);
  free(c);
  remat_graph_free(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bound_json_integer),
      cmocka_unit_test(test_bounds_rounded),
      cmocka_unit_test(test_solve_rounded),
      cmocka_unit_test(test_milp_huge),
      cmocka_unit_test(test_cover_time_limits),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
