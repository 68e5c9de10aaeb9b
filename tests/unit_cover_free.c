/* unit_cover_free.c -- the covering bound over every order (cover_free.h)
 * against the exhaustive free-order optimum (exhaustive.h): on random
 * DAGs of 2 to 6 nodes at every budget between max_v and the input
 * order's peak, with any number of copies and with C_v = 2, never above
 * the optimum and often at it (else a bound of 0 would pass), also at
 * sizes near 10^12 and durations near 10^9, and on graphs of 6 nodes,
 * where the inputs' rows raise bounds; on graphs whose only order is the
 * input order it is the fixed order's plain covering bound (the lattice
 * is one chain), and with the inputs' rows at least the fixed order's
 * with them; and the limits: too many down-closed sets or
 * nodes give no bound, and a budget every order fits gives 0. */
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"

#include "cover.h"
#include "cover_free.h"
#include "exhaustive.h"
#include "gen.h"
#include "graph.h"
#include "oracle.h"
#include "remat.h"

typedef struct tally {
  int total, wrong, exact, paying, paying_exact;
  int raised; /* bounds the inputs' rows raise above the plain problem's */
} tally;

/* The bound at M (copies: NULL any, else C_v = c) against the optimum. */
static void check(const remat_graph *g, int64_t M, int c, tally *t) {
  int caps[EXH_MAXN];
  for (int v = 0; v < EXH_MAXN; v++) caps[v] = c;
  int64_t opt = exh_best(g, M, c ? caps : NULL, 0);
  if (opt < 0) return; /* nothing fits: no bound to compare */
  cover_params p;
  cover_params_init(&p);
  p.budget = M;
  p.copies = c ? caps : NULL;
  p.time_limit = 20;
  p.any_order = 1;
  cover_out o;
  cover_status st = cover_solve(g, &p, &o);
  int64_t base = remat_graph_base_duration(g);
  t->total++;
  if (st != COVER_OPTIMAL) {
    fprintf(stderr, "  n=%d M=%lld c=%d: status %s (%s)\n", g->n, (long long)M, c,
            cover_status_name(st), o.why);
    t->wrong++;
    return;
  }
  if (base + o.increase > opt) {
    fprintf(stderr, "  n=%d M=%lld c=%d: bound %lld above the optimum %lld\n", g->n,
            (long long)M, c, (long long)(base + o.increase), (long long)opt);
    t->wrong++;
  }
  p.inputs = 0;
  cover_out plain;
  if (cover_solve(g, &p, &plain) == COVER_OPTIMAL && plain.increase < o.increase) t->raised++;
  t->exact += base + o.increase == opt;
  t->paying += opt > base; /* no order fits without recomputation */
  t->paying_exact += opt > base && base + o.increase == opt;
}

static void sweep(int count, int lo, int span, uint64_t seed, int scale, tally *t) {
  for (int i = 0; i < count; i++) {
    remat_graph *g = oracle_small(i, lo, span, seed);
    if (scale) { /* sizes near 10^12, durations near 10^9, not multiples */
      int64_t w[EXH_MAXN], m[EXH_MAXN];
      uint64_t s = seed + 77 * (uint64_t)i;
      for (int v = 0; v < g->n; v++) {
        w[v] = g->w[v] * 100000000 + (int64_t)(oracle_rand(&s) % 1000);
        m[v] = g->m[v] * 100000000000 + (int64_t)(oracle_rand(&s) % 1000000);
      }
      remat_graph *h = oracle_renumber(g, w, m, "scaled");
      remat_graph_free(g);
      g = h;
    }
    int64_t lo = remat_graph_min_peak(g), hi = remat_topo_peak(g);
    int steps = 12;
    for (int k = 0; k < steps && lo < hi; k++) {
      int64_t M = lo + (hi - lo) * k / steps;
      check(g, M, 0, t);
      check(g, M, 2, t);
    }
    remat_graph_free(g);
  }
}

static void report(const char *what, const tally *t) {
  fprintf(stderr,
          "  %s: %d bounds, %d at the optimum; %d need recomputation, %d of them at it; "
          "%d raised by the inputs' rows\n",
          what, t->total, t->exact, t->paying, t->paying_exact, t->raised);
  if (t->wrong) fail_msg("%s: %d of %d bounds wrong", what, t->wrong, t->total);
  if (t->paying < t->total / 10 || t->paying_exact < t->paying / 2)
    fail_msg("%s: %d of %d need recomputation, %d of them at the optimum", what, t->paying,
             t->total, t->paying_exact);
}

static void test_below_exhaustive(void **state) {
  (void)state;
  tally t = {0};
  sweep(300, 2, 5, 9100, 0, &t);
  report("small numbers", &t);
}

static void test_below_exhaustive_scaled(void **state) {
  (void)state;
  tally t = {0};
  sweep(150, 2, 5, 9400, 1, &t);
  report("sizes near 10^12, durations near 10^9", &t);
}

/* Graphs of 6 nodes, where recomputed values' inputs weigh: the
 * inputs' rows raise bounds, and none passes the optimum. */
static void test_inputs_below_exhaustive(void **state) {
  (void)state;
  tally t = {0};
  sweep(200, 6, 1, 9700, 0, &t);
  report("6 nodes", &t);
  if (t.raised < 10) fail_msg("the inputs' rows raised only %d bounds", t.raised);
}

/* A training graph's only order is its input order: the lattice is one
 * chain, and the bound is the fixed order's plain covering bound; with
 * the inputs' rows it is at least the fixed order's with them. */
static void test_one_chain(void **state) {
  (void)state;
  for (int L = 4; L <= 40; L += 6) {
    remat_graph *g = gen_training(L, 3 + (uint64_t)L);
    assert_true(graph_order_unique(g));
    for (int pct = 50; pct <= 90; pct += 20) {
      cover_params p;
      cover_params_init(&p);
      p.budget = remat_topo_peak(g) * pct / 100;
      p.inputs = 0;
      p.time_limit = 20;
      cover_out fixed, any;
      cover_status a = cover_solve(g, &p, &fixed);
      p.any_order = 1;
      cover_status b = cover_solve(g, &p, &any);
      if (a == COVER_INFEASIBLE) {
        assert_int_equal(b, COVER_NONE); /* no proof from it */
      } else {
        assert_int_equal(a, COVER_OPTIMAL);
        assert_int_equal(b, COVER_OPTIMAL);
        assert_int_equal(any.increase, fixed.increase);
        /* with the inputs' rows: each step's shares are taken among the
         * inputs dead there, at least those of the fixed order's rows */
        p.inputs = 1;
        cover_out fixed_in, any_in;
        assert_int_equal(cover_solve(g, &p, &any_in), COVER_OPTIMAL);
        p.any_order = 0;
        assert_int_equal(cover_solve(g, &p, &fixed_in), COVER_OPTIMAL);
        assert_true(any_in.increase >= fixed_in.increase);
        assert_true(any_in.increase >= any.increase);
      }
    }
    remat_graph_free(g);
  }
}

static void test_limits(void **state) {
  (void)state;
  /* 13 independent nodes and a sink: 2^13 down-closed sets and more */
  int64_t w[14], m[14];
  int src[13], dst[13];
  for (int v = 0; v < 14; v++) w[v] = m[v] = 1;
  for (int v = 0; v < 13; v++) src[v] = v, dst[v] = 13;
  remat_graph *g = graph_from_arrays(14, w, m, 13, src, dst, "wide");
  cover_params p;
  cover_params_init(&p);
  p.budget = 10;
  p.any_order = 1;
  cover_out o;
  assert_int_equal(cover_solve(g, &p, &o), COVER_NONE);
  assert_string_equal(o.why, "more than 4000 down-closed sets");
  remat_graph_free(g);
  /* a -> b, a -> c: at its input order's peak every order fits */
  int s2[2] = {0, 0}, d2[2] = {1, 2};
  g = graph_from_arrays(3, w, m, 2, s2, d2, "fork");
  p.budget = remat_topo_peak(g);
  assert_int_equal(cover_solve(g, &p, &o), COVER_OPTIMAL);
  assert_int_equal(o.increase, 0);
  assert_int_equal(o.rows, 0);
  remat_graph_free(g);
  remat_graph *big = gen_training(2100, 1); /* 4,201 nodes */
  p.budget = remat_topo_peak(big) / 2;
  assert_int_equal(cover_solve(big, &p, &o), COVER_NONE);
  assert_string_equal(o.why, "more than 4096 nodes");
  remat_graph_free(big);
}

UNIT_TESTS(test_below_exhaustive, test_below_exhaustive_scaled, test_inputs_below_exhaustive,
           test_one_chain, test_limits)
