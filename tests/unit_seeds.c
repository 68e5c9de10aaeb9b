/* unit_seeds.c -- the solve's first schedules (seeds.h).  The copies probe
 * (seeds_probe): on a graph where a value must be recomputed before each
 * of its four readers, with C_v = 2 nowhere near enough, it finds the
 * optimum (the value computed four times); where that value's C_v is 1 it
 * never recomputes it; on graphs of more than 2,000 nodes it does not
 * run.  A warm start off the input order's stages is not taken: the
 * portfolio's searches start from the best schedule, which must be one of
 * the stage model. */
#include "testutil.h"

#include "gen.h"
#include "plan.h"
#include "seeds.h"

/* a (kept to the end), x = f(a), and readers r1..r4 of x, each pair of
 * readers separated by a large b_i that x cannot stay live across:
 *   a x r1 b1 c1 r2 b2 c2 r3 b3 c3 r4 out.
 * Input order's peak 32 (at each b_i and c_i: a, x, b_i's input and
 * output); with x dropped there 22; budget 25: x must be computed before
 * each reader, 4 times, duration base + 3 * 50. */
enum { X_NODE = 1 };
static remat_graph *four_readers(void) {
  int64_t w[13] = {100, 50, 1, 5, 1, 1, 5, 1, 1, 5, 1, 1, 1};
  int64_t m[13] = {1, 10, 1, 20, 1, 1, 20, 1, 1, 20, 1, 1, 1};
  int src[16] = {0, 1, 2, 3, 4, 1, 5, 6, 7, 1, 8, 9, 10, 1, 11, 0};
  int dst[16] = {1, 2, 3, 4, 5, 5, 6, 7, 8, 8, 9, 10, 11, 11, 12, 12};
  return graph_from_arrays(13, w, m, 16, src, dst, "four readers");
}

static int count_of(const remat_result *r, int v) {
  int k = 0;
  for (int i = 0; i < r->len; i++) k += r->seq[i] == v;
  return k;
}

static void test_probe_finds_the_copies(void **state) {
  (void)state;
  remat_graph *g = four_readers();
  assert_int_equal(remat_topo_peak(g), 32);
  remat_solve_params p = solve_params(25, 5, 1);
  int c[13];
  for (int v = 0; v < 13; v++) c[v] = 2;
  remat_result r;
  remat_result_init(&r, g, p.budget, "anneal");
  assert_int_equal(seeds_probe(g, &p, c, 0.5, &r), 0);
  assert_non_null(r.seq);
  assert_true(r.peak <= 25);
  assert_int_equal(count_of(&r, X_NODE), 4);
  assert_int_equal(r.duration, r.base_duration + 3 * 50);
  remat_result_free(&r);

  /* C_v = 1 forbids recomputing x: nothing fits then */
  c[X_NODE] = 1;
  remat_result_init(&r, g, p.budget, "anneal");
  assert_int_equal(seeds_probe(g, &p, c, 0.5, &r), 0);
  assert_non_null(r.seq);
  assert_int_equal(count_of(&r, X_NODE), 1);
  assert_true(r.peak > 25);
  remat_result_free(&r);
  remat_graph_free(g);
}

static void test_probe_not_on_large_graphs(void **state) {
  (void)state;
  remat_graph *g = gen_training(1001, 1); /* 2,003 nodes */
  assert_non_null(g);
  assert_true(g->n > 2000);
  remat_solve_params p = solve_params(remat_topo_peak(g) / 2, 5, 1);
  int *c = malloc((size_t)g->n * sizeof *c);
  for (int v = 0; v < g->n; v++) c[v] = 2;
  remat_result r;
  remat_result_init(&r, g, p.budget, "anneal");
  assert_int_equal(seeds_probe(g, &p, c, 5, &r), 0);
  assert_null(r.seq);
  remat_result_free(&r);
  free(c);
  remat_graph_free(g);
}

/* A schedule of the stage model within budget with two recomputations at
 * one stage, neither reading the other, swapped so that it leaves the
 * stages (each stage's recomputations in increasing order); NULL if the
 * solve's schedule has no such pair. */
static int *off_the_stages(const remat_graph *g, const remat_result *r) {
  int *seq = malloc((size_t)r->len * sizeof *seq);
  memcpy(seq, r->seq, (size_t)r->len * sizeof *seq);
  int t = 0;
  for (int i = 0; i + 1 < r->len; i++) {
    if (seq[i] == t) {
      t++;
      continue;
    }
    int u = seq[i], v = seq[i + 1];
    if (v < t && v != t && !graph_is_pred(g, u, v)) {
      seq[i] = v, seq[i + 1] = u;
      remat_sim sim;
      if (remat_simulate(g, seq, r->len, &sim, NULL) == 0 && sim.peak <= r->budget) return seq;
      seq[i] = u, seq[i + 1] = v;
    }
  }
  free(seq);
  return NULL;
}

static void test_warm_start_off_the_stages(void **state) {
  (void)state;
  /* 1,200 copies: the window search is worker 0 (portfolio.c) */
  remat_graph *g = gen_layered(600, 3);
  /* the first budget whose solve leaves a pair to swap */
  static const int pct[] = {85, 80, 90, 75};
  remat_solve_params p;
  remat_result r;
  int *warm = NULL;
  for (int k = 0; k < 4 && !warm; k++) {
    if (k) remat_result_free(&r);
    p = solve_params(remat_topo_peak(g) * pct[k] / 100, 3, 2);
    p.keep_copies = 1;
    remat_result_init(&r, g, p.budget, "cp");
    assert_int_equal(remat_solve(g, &p, &r), REMAT_OK);
    warm = off_the_stages(g, &r);
  }
  assert_non_null(warm);
  p.warm_seq = warm;
  p.warm_len = r.len;
  p.time_limit = 2;
  remat_result w;
  remat_result_init(&w, g, p.budget, "cp");
  assert_int_equal(remat_solve(g, &p, &w), REMAT_OK);
  assert_int_not_equal(w.status, REMAT_STATUS_ERROR);
  free(warm);
  remat_result_free(&w);
  remat_result_free(&r);
  remat_graph_free(g);
}

UNIT_TESTS(test_probe_finds_the_copies, test_probe_not_on_large_graphs,
           test_warm_start_off_the_stages)
