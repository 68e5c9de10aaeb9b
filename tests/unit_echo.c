/* unit_echo.c -- the Echo-style baseline (echo.c): which operators are
 * cheap (op kinds, or duration per byte without them), that it never
 * recomputes a heavy operator or a backward node, that every schedule it
 * offers re-simulates, and that it reaches a budget that recomputing the
 * cheap values across the peak can reach. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "echo.h"
#include "graph.h"
#include "util.h"

/* conv -> expand -> conv -> expand -> ... -> loss, then a backward chain
 * that reads every expand: the expands (cheap, large outputs of small
 * inputs) are live across the turn, and recomputing one holds its small
 * input instead. */
static remat_graph *make_net(int layers, int with_ops) {
  int n = 2 * layers + 1 + layers;
  int64_t *w = calloc((size_t)n, sizeof *w), *m = calloc((size_t)n, sizeof *m);
  int *src = calloc((size_t)n * 4, sizeof *src), *dst = calloc((size_t)n * 4, sizeof *dst);
  int ne = 0;
  for (int i = 0; i < 2 * layers; i++) {
    w[i] = i % 2 ? 1 : 100; /* expand cheap, conv dear */
    m[i] = i % 2 ? 10 : 2;
    if (i) src[ne] = i - 1, dst[ne++] = i;
  }
  int loss = 2 * layers;
  w[loss] = 1, m[loss] = 1;
  src[ne] = loss - 1, dst[ne++] = loss;
  for (int k = 0; k < layers; k++) { /* backward node k reads relu (layers-1-k) */
    int b = loss + 1 + k, relu = 2 * (layers - 1 - k) + 1;
    w[b] = 100, m[b] = 10;
    src[ne] = b - 1, dst[ne++] = b;
    src[ne] = relu, dst[ne++] = b;
  }
  remat_graph *g = graph_from_arrays(n, w, m, ne, src, dst, "net");
  if (with_ops) {
    /* the graph may come with an array of ops (all NULL): fill it */
    if (!g->op) g->op = util_calloc((size_t)n, sizeof *g->op);
    for (int v = 0; v < n; v++) {
      free(g->op[v]);
      g->op[v] = util_strdup(v < 2 * layers ? (v % 2 ? "aten.relu" : "aten.convolution")
                             : v == loss  ? "aten.sum"
                                          : "aten.convolution_backward");
    }
  }
  free(w), free(m), free(src), free(dst);
  return g;
}

static void test_echo_heavy_ops(void **state) {
  (void)state;
  assert_true(echo_op_is_heavy("aten.convolution"));
  assert_true(echo_op_is_heavy("aten.addmm"));
  assert_true(echo_op_is_heavy("MatMul"));
  assert_true(echo_op_is_heavy("Gemm"));
  assert_true(echo_op_is_heavy("aten._scaled_dot_product_attention"));
  assert_false(echo_op_is_heavy("aten.relu"));
  assert_false(echo_op_is_heavy("aten.native_batch_norm"));
  assert_false(echo_op_is_heavy("Add"));
}

static void check_run(remat_graph *g, double frac, int expect_fit) {
  echo_params p;
  echo_params_init(&p);
  p.budget = (int64_t)(frac * (double)remat_topo_peak(g));
  remat_result r;
  remat_result_init(&r, g, p.budget, "echo");
  assert_int_equal(echo_run(g, &p, &r), 0);
  assert_non_null(r.seq);
  remat_sim s;
  assert_int_equal(remat_simulate(g, r.seq, r.len, &s, NULL), 0);
  assert_true(s.peak == r.peak);
  if (expect_fit) assert_true(r.peak <= p.budget);
  unsigned char *cheap = echo_cheap(g);
  int *count = calloc((size_t)g->n, sizeof *count);
  for (int i = 0; i < r.len; i++)
    if (count[r.seq[i]]++) assert_true(cheap[r.seq[i]]); /* only cheap recomputed */
  free(count);
  free(cheap);
  remat_result_free(&r);
}

/* The net with or without ops (cheap then by duration per byte): node 0
 * is not cheap, node 1 is; the budget 0.8 is reached. */
static void check_cheap_reaches(int ops) {
  remat_graph *g = make_net(6, ops);
  unsigned char *cheap = echo_cheap(g);
  assert_false(cheap[0]);
  assert_true(cheap[1]);
  free(cheap);
  check_run(g, 0.8, 1);
  remat_graph_free(g);
}

UNIT_TEST_OF(test_echo_reaches_budget_with_ops, check_cheap_reaches(1))

UNIT_TEST_OF(test_echo_without_ops, check_cheap_reaches(0))

/* A budget only heavy recomputations could reach: it stops over budget,
 * still valid, still never recomputing a convolution. */
static void test_echo_stops(void **state) {
  (void)state;
  remat_graph *g = make_net(6, 1);
  check_run(g, 0.35, 0);
  remat_graph_free(g);
}

UNIT_TESTS(test_echo_heavy_ops, test_echo_reaches_budget_with_ops,
           test_echo_without_ops, test_echo_stops)
