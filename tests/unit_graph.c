/* unit_graph.c -- the graph's peak bounds (core/graph.c) against brute
 * force: remat_graph_order_min_peak never exceeds the least peak of any
 * stage-structured schedule within the nodes' copies, and is exact when
 * every node is computed once. */
#include "testutil.h"

#include "graph.h"
#include "oracle.h"
#include "remat.h"

static void test_order_min_peak_below_brute_force(void **state) {
  (void)state;
  uint64_t seed = 7;
  for (int i = 0; i < 120; i++) {
    remat_graph *g = oracle_small(i, 3, 4, 500);
    for (int v = 0; v < g->n; v++) g->copies[v] = 1 + (int)(oracle_rand(&seed) % 3);
    int64_t least;
    oracle_best_copies(g, INT64_MAX, g->copies, &least);
    int64_t b = remat_graph_order_min_peak(g);
    assert_true(b <= least);
    assert_true(b >= remat_graph_min_peak(g));
    remat_graph_free(g);
  }
}

static void test_order_min_peak_exact_when_computed_once(void **state) {
  (void)state;
  for (int i = 0; i < 60; i++) {
    remat_graph *g = oracle_small(i, 3, 5, 900);
    for (int v = 0; v < g->n; v++) g->copies[v] = 1;
    assert_true(remat_graph_order_min_peak(g) == remat_topo_peak(g));
    remat_graph_free(g);
  }
}

/* A chain 0 -> 1 -> 2 -> 3 with 0 also read by 3 (a kept activation) and a
 * gradient 4 (read by the last node 5): with copies 1 on 0 and 4, node 2's
 * step holds 0 beside its input 1; node 5's holds 4 and 3.  Without copies
 * given, only each node's own step counts. */
static void test_order_min_peak_kept_nodes(void **state) {
  (void)state;
  const int64_t P = 1000000000000LL; /* sizes near 10^12 */
  int64_t w[6] = {1, 1, 1, 1, 1, 0}, m[6] = {5 * P, P, P, P, 7 * P, 0};
  int src[6] = {0, 1, 2, 0, 3, 4}, dst[6] = {1, 2, 3, 3, 4, 5};
  remat_graph *g = graph_from_arrays(6, w, m, 6, src, dst, "kept");
  assert_true(remat_graph_order_min_peak(g) == 8 * P); /* node 4 with 3 */
  assert_true(remat_graph_min_peak(g) == 8 * P);
  g->copies[0] = 1;
  g->copies[4] = 1;
  /* node 2: m2 + m1 + m0 (kept); node 3: 0, 2, 3 = 7P; node 4 = 8P */
  assert_true(remat_graph_order_min_peak(g) == 8 * P);
  m[4] = P;
  remat_graph *h = graph_from_arrays(6, w, m, 6, src, dst, "kept");
  h->copies[0] = 1;
  assert_true(remat_graph_order_min_peak(h) == 7 * P);
  h->copies[0] = 0;
  assert_true(remat_graph_order_min_peak(h) == 7 * P); /* node 3's step */
  remat_graph_free(g);
  remat_graph_free(h);
}

UNIT_TESTS(test_order_min_peak_below_brute_force,
           test_order_min_peak_exact_when_computed_once,
           test_order_min_peak_kept_nodes)
