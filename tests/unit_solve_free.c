/* unit_solve_free.c -- remat_solve in free order against the exhaustive
 * search over every sequence (exhaustive.h): on random DAGs of at most 5
 * nodes with up to 2 copies per node it proves the same optimum, or that
 * nothing fits; the free-order optimum is never above the stage model's,
 * and equals it on chains; where the input order is the only order, the
 * fixed-order solve's covering proof holds over every sequence. */
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"

#include "exhaustive.h"
#include "gen.h"
#include "graph.h"
#include "oracle.h"
#include "remat.h"

static int solve_free_once(const remat_graph *g, int64_t M, int copies, remat_result *r) {
  remat_solve_params p = solve_params(M, 20, 1);
  p.default_copies = copies;
  p.free_order = 1;
  remat_result_init(r, g, M, "cp");
  return remat_solve(g, &p, r);
}

static void test_free_proves_exhaustive(void **state) {
  (void)state;
  int bad = 0, total = 0;
  for (int i = 0; i < 40; i++) {
    remat_graph *g = oracle_small(i, 2, 4, 900);
    int n = g->n;
    int64_t lo = remat_graph_min_peak(g), hi = remat_topo_peak(g);
    int64_t budgets[4] = {lo - 1, lo, (lo + hi) / 2, hi - 1};
    for (int k = 0; k < 4; k++) {
      if (budgets[k] < 0) continue;
      int caps[EXH_MAXN] = {2, 2, 2, 2, 2, 2, 2};
      int64_t want = exh_best(g, budgets[k], caps, 0);
      int64_t stage = exh_best(g, budgets[k], caps, 1);
      remat_result r;
      int rc = solve_free_once(g, budgets[k], 2, &r);
      int ok = want < 0 ? rc == REMAT_ENOFIT && r.status == REMAT_STATUS_INFEASIBLE
                        : rc == REMAT_OK && r.status == REMAT_STATUS_OPTIMAL &&
                              r.duration == want && r.peak <= budgets[k];
      ok = ok && r.free_order;
      if (stage >= 0 && (want < 0 || want > stage)) ok = 0; /* free <= stages */
      if (!ok) {
        fprintf(stderr, "  graph %d (n=%d) at %lld: exhaustive %lld (stages %lld), solve "
                        "rc %d %s %lld (%s)\n",
                i, n, (long long)budgets[k], (long long)want, (long long)stage, rc,
                remat_status_name(r.status), (long long)r.duration, r.message);
        bad++;
      }
      total++;
      remat_result_free(&r);
    }
    remat_graph_free(g);
  }
  if (bad) fail_msg("%d of %d instances disagree with the exhaustive search", bad, total);
}

/* On a chain every order is the input order: free order and the stages
 * have the same optimum. */
static void test_free_chain(void **state) {
  (void)state;
  int64_t w[5] = {3, 1, 4, 1, 5}, m[5] = {2, 7, 1, 8, 2};
  int src[4] = {0, 1, 2, 3}, dst[4] = {1, 2, 3, 4};
  remat_graph *g = graph_from_arrays(5, w, m, 4, src, dst, "chain");
  int caps[EXH_MAXN] = {2, 2, 2, 2, 2, 2, 2};
  for (int64_t M = remat_graph_min_peak(g); M <= remat_topo_peak(g); M++) {
    int64_t f = exh_best(g, M, caps, 0), s = exh_best(g, M, caps, 1);
    assert_int_equal(f, s);
    remat_result r;
    solve_free_once(g, M, 2, &r);
    assert_int_equal(r.status, REMAT_STATUS_OPTIMAL);
    assert_int_equal(r.duration, f);
    remat_result_free(&r);
  }
  remat_graph_free(g);
}

/* A graph whose only topological order is the input order: the chain
 * 0 -> 1 -> ... -> n-1 and each longer edge u -> v with probability 1/3
 * (seeded); durations 0..9, sizes 1..9. */
static remat_graph *unique_order_graph(uint64_t *s, int n) {
  int64_t w[EXH_MAXN], m[EXH_MAXN];
  int src[EXH_MAXN * EXH_MAXN], dst[EXH_MAXN * EXH_MAXN], ne = 0;
  for (int v = 0; v < n; v++) {
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    w[v] = (int64_t)(*s >> 33) % 10;
    m[v] = 1 + (int64_t)(*s >> 45) % 9;
    for (int u = 0; u < v; u++) {
      *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
      if (u == v - 1 || (*s >> 33) % 3 == 0) src[ne] = u, dst[ne++] = v;
    }
  }
  return graph_from_arrays(n, w, m, ne, src, dst, "unique");
}

/* Where the input order is the graph's only topological order, every
 * sequence computes the nodes for the first time in that order, so the
 * fixed-order solve's covering proof ("any-order-copies") is a proof over
 * every sequence: its optimum must be the exhaustive free-order optimum. */
static void test_unique_order_proofs(void **state) {
  (void)state;
  uint64_t s = 2411;
  int widened = 0, total = 0, bad = 0;
  for (int i = 0; i < 120; i++) {
    remat_graph *g = unique_order_graph(&s, 4 + i % 4);
    assert_true(graph_order_unique(g));
    int caps[EXH_MAXN] = {2, 2, 2, 2, 2, 2, 2};
    for (int64_t M = remat_graph_min_peak(g); M < remat_topo_peak(g); M++) {
      remat_solve_params p = solve_params(M, 20, 1);
      p.default_copies = 2;
      remat_result r;
      remat_result_init(&r, g, M, "cp");
      remat_solve(g, &p, &r);
      if (r.status == REMAT_STATUS_OPTIMAL && r.proof_covers == REMAT_COVERS_ANY_ORDER_COPIES) {
        int64_t want = exh_best(g, M, caps, 0);
        widened++;
        if (r.duration != want) {
          fprintf(stderr, "  graph %d (n=%d) at %lld: free-order optimum %lld, solve %lld\n", i,
                  g->n, (long long)M, (long long)want, (long long)r.duration);
          bad++;
        }
      }
      total++;
      remat_result_free(&r);
    }
    remat_graph_free(g);
  }
  if (bad) fail_msg("%d of %d proofs over every sequence are wrong", bad, widened);
  if (widened < total / 4) fail_msg("only %d of %d solves proved over every sequence", widened, total);
}

/* The rule itself: the chain edges make the order unique; without one of
 * them another order exists. */
static void test_order_unique(void **state) {
  (void)state;
  int64_t w[4] = {1, 1, 1, 1}, m[4] = {1, 1, 1, 1};
  int src[4] = {0, 1, 2, 0}, dst[4] = {1, 2, 3, 3};
  remat_graph *g = graph_from_arrays(4, w, m, 4, src, dst, "chain");
  assert_true(graph_order_unique(g));
  remat_graph_free(g);
  int src2[3] = {0, 0, 1}, dst2[3] = {1, 2, 3}; /* 1 and 2 may swap */
  g = graph_from_arrays(4, w, m, 3, src2, dst2, "fork");
  assert_false(graph_order_unique(g));
  remat_graph_free(g);
  int src3[2] = {1, 2}, dst3[2] = {2, 3}; /* 0 is a second source */
  g = graph_from_arrays(4, w, m, 2, src3, dst3, "two sources");
  assert_false(graph_order_unique(g));
  remat_graph_free(g);
  g = graph_from_arrays(1, w, m, 0, src, dst, "one node");
  assert_true(graph_order_unique(g));
  remat_graph_free(g);
}

/* On generated layered graphs (the benchmark's kind), free order given the
 * same time and threads is never worse than the input order's stages: its
 * minimum-peak order needs fewer recomputations, and the joint annealing
 * only improves on the best schedule.  Graphs 1 and 2 reach the joint
 * annealing, graph 1 with two threads (the second one's tries from fresh
 * orders). */
static void test_free_not_worse(void **state) {
  (void)state;
  for (int i = 0; i < 4; i++) {
    remat_graph *g = gen_layered(60 + 40 * (i % 2), 11 + (uint64_t)i);
    int64_t M = remat_topo_peak(g) * (i < 2 ? 80 : 90) / 100;
    remat_result r[2];
    for (int free_order = 0; free_order < 2; free_order++) {
      remat_solve_params p = solve_params(M, 2, i % 2 ? 2 : 1);
      p.free_order = free_order;
      remat_result_init(&r[free_order], g, M, "cp");
      assert_int_equal(remat_solve(g, &p, &r[free_order]), REMAT_OK);
    }
    if (r[1].duration > r[0].duration)
      fail_msg("graph %d: free order %lld, fixed order %lld", i, (long long)r[1].duration,
               (long long)r[0].duration);
    remat_result_free(&r[0]);
    remat_result_free(&r[1]);
    remat_graph_free(g);
  }
}

UNIT_TESTS(test_free_not_worse, test_free_chain, test_free_proves_exhaustive, test_order_unique,
           test_unique_order_proofs)
