/* unit_order_descent.c -- the order descent (order_descent.h): what it
 * returns is an order (each node once, after its predecessors) whose peak
 * re-simulates to the value returned, never above the start's and never
 * below the least peak over every order (brute force over all orders on
 * random DAGs of up to 8 nodes), which it reaches on most of them; it
 * stops at the target; on a generated layered graph it lowers the input
 * order's peak. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "gen.h"
#include "oracle.h"
#include "order_descent.h"

/* The least peak over all topological orders (depth-first over them). */
static void brute(const remat_graph *g, int *ord, int k, int *placed, int64_t *best) {
  int n = g->n;
  if (k == n) {
    int64_t p = odesc_peak(g, ord);
    if (p < *best) *best = p;
    return;
  }
  for (int v = 0; v < n; v++) {
    if (placed[v]) continue;
    int ready = 1;
    for (int j = g->pred_off[v]; j < g->pred_off[v + 1]; j++)
      if (!placed[g->pred[j]]) ready = 0;
    if (!ready) continue;
    placed[v] = 1;
    ord[k] = v;
    brute(g, ord, k + 1, placed, best);
    placed[v] = 0;
  }
}

/* An order of g, each node once after its predecessors, whose peak under
 * remat_simulate is `peak`. */
static void assert_order(const remat_graph *g, const int *ord, int64_t peak) {
  int *pos = malloc((size_t)g->n * sizeof *pos);
  for (int v = 0; v < g->n; v++) pos[v] = -1;
  for (int i = 0; i < g->n; i++) {
    assert_true(ord[i] >= 0 && ord[i] < g->n);
    assert_int_equal(pos[ord[i]], -1);
    pos[ord[i]] = i;
  }
  for (int v = 0; v < g->n; v++)
    for (int j = g->pred_off[v]; j < g->pred_off[v + 1]; j++)
      assert_true(pos[g->pred[j]] < pos[v]);
  remat_sim sim;
  assert_int_equal(remat_simulate(g, ord, g->n, &sim, NULL), 0);
  assert_int_equal(sim.peak, peak);
  assert_int_equal(odesc_peak(g, ord), peak);
  free(pos);
}

static void test_odesc_brute_force(void **state) {
  (void)state;
  int total = 0, reached = 0;
  for (int i = 0; i < 60; i++) {
    int n = 4 + i % 5;
    remat_graph *g = oracle_dag(n, 20 + 10 * (i % 3), 9, 20, 900 + (uint64_t)i);
    int ord[8], placed[8] = {0};
    int64_t least = INT64_MAX;
    brute(g, ord, 0, placed, &least);
    for (int v = 0; v < n; v++) ord[v] = v;
    int64_t start = odesc_peak(g, ord);
    odesc_params p;
    odesc_params_init(&p);
    p.deadline = deadline_in(0.2);
    p.seed = 1 + (unsigned)i;
    int64_t peak = odesc_run(g, ord, &p);
    assert_order(g, ord, peak);
    assert_true(peak <= start);
    assert_true(peak >= least);
    reached += peak == least;
    total++;
    remat_graph_free(g);
  }
  fprintf(stderr, "  %d of %d graphs at the least peak over every order\n", reached, total);
  assert_true(reached * 10 >= total * 9);
}

/* It stops once the peak is at or below the target, and at the lower
 * bound. */
static void test_odesc_target(void **state) {
  (void)state;
  remat_graph *g = gen_layered(300, 3);
  int n = g->n;
  int *ord = malloc((size_t)n * sizeof *ord);
  for (int v = 0; v < n; v++) ord[v] = v;
  int64_t start = odesc_peak(g, ord);
  odesc_params p;
  odesc_params_init(&p);
  p.deadline = deadline_in(5);
  p.target = start - 1;
  int64_t peak = odesc_run(g, ord, &p);
  assert_order(g, ord, peak);
  assert_true(peak <= start - 1);
  for (int v = 0; v < n; v++) ord[v] = v;
  odesc_params_init(&p);
  p.deadline = deadline_in(5);
  p.lower = start;
  assert_int_equal(odesc_run(g, ord, &p), start);
  for (int v = 0; v < n; v++) assert_int_equal(ord[v], v);
  free(ord);
  remat_graph_free(g);
}

UNIT_TESTS(test_odesc_brute_force, test_odesc_target)
