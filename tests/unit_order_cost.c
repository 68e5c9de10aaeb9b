/* unit_order_cost.c -- the recomputation cost bound of every order
 * (order_cost.h): its value on a hand-worked graph, and never above the
 * exhaustive free-order optimum of small random DAGs, at small and at
 * large scales (sizes near 10^12, durations near 10^9). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "exhaustive.h"
#include "graph.h"
#include "order.h"
#include "order_cost.h"
#include "remat.h"
#include "tiny.h"

static int64_t cost_bound(const remat_graph *g, int64_t M) {
  order_cost_params p;
  order_cost_params_init(&p);
  p.budget = M;
  order_cost_out o;
  int64_t b = order_cost_run(g, &p, &o);
  assert_true(b == o.bound && o.complete);
  return b;
}

/* a -> b -> c -> d and a -> d; at c's step a (10), b (10) and c (10) are
 * held in the only order.  With M = 25, a is dropped there and computed
 * again before d: the optimum adds w_a = 5.  The bound is the knapsack's
 * LP value: half of a's memory is enough, so lambda = 1/2 gives
 * 10 lambda + min(5, 10 lambda) - 15 lambda = 2.5, rounded up to 3. */
static remat_graph *cost_chain(int64_t ws, int64_t ms) {
  int64_t w[4] = {5 * ws, 1 * ws, 1 * ws, 1 * ws}, m[4] = {10 * ms, 10 * ms, 10 * ms, 1 * ms};
  int src[4] = {0, 1, 2, 0}, dst[4] = {1, 2, 3, 3};
  return graph_from_arrays(4, w, m, 4, src, dst, "chain");
}

static void test_cost_hand_worked(void **state) {
  (void)state;
  remat_graph *g = cost_chain(1, 1);
  int64_t base = 8;
  assert_int_equal(exh_best(g, 25, NULL, 0), base + 5);
  assert_int_equal(cost_bound(g, 25), 3);
  assert_int_equal(cost_bound(g, 30), 0); /* the order fits */
  assert_int_equal(cost_bound(g, 19), 0); /* c and b alone do not fit */
  remat_graph_free(g);
  /* with d of size 0 and M = 20, all of a must go: the knapsack is
   * integral and the bound (lambda >= 1/2, the largest ratio) is the
   * optimum */
  g = cost_chain(1, 1);
  g->m[3] = 0;
  assert_int_equal(exh_best(g, 20, NULL, 0), base + 5);
  assert_int_equal(cost_bound(g, 20), 5);
  remat_graph_free(g);
  /* the same at 10^8 times the durations and 10^11 times the sizes */
  int64_t ws = 100000000, ms = 100000000000;
  g = cost_chain(ws, ms);
  int64_t b = cost_bound(g, 25 * ms);
  assert_true(b <= ws * 5 / 2 && b >= ws * 5 / 2 - ws / 1000);
  assert_int_equal(exh_best(g, 25 * ms, NULL, 0), 8 * ws + 5 * ws);
  remat_graph_free(g);
}

/* tiny_dag's DAG of n nodes, durations 0..9 and sizes 1..9 times wmul and
 * mmul, plus 0..999 where those are above 1. */
static remat_graph *cost_dag(int n, int64_t wmul, int64_t mmul) {
  remat_graph *g = tiny_dag(n, rng_int(20, 70), 9);
  for (int v = 0; v < n; v++) {
    g->w[v] = g->w[v] * wmul + (wmul > 1 ? rng_int(0, 999) : 0);
    g->m[v] = g->m[v] * mmul + (mmul > 1 ? rng_int(0, 999) : 0);
  }
  return g;
}

/* Budgets from the least that computes every node to the least peak of
 * an order: the bound is at most the free-order optimum with 3 copies
 * (at least the optimum with any number) less the base duration, and 0
 * once an order fits. */
static void cost_against_brute_force(uint64_t seed, int count, int64_t wmul, int64_t mmul) {
  rng_state = seed;
  int positive = 0, tight = 0, cases = 0, three[EXH_MAXN];
  for (int v = 0; v < EXH_MAXN; v++) three[v] = 3;
  for (int rep = 0; rep < count; rep++) {
    remat_graph *g = cost_dag(rng_int(2, EXH_MAXN), wmul, mmul);
    int64_t lo = remat_graph_min_peak(g), base = 0;
    for (int v = 0; v < g->n; v++) base += g->w[v];
    order_params op;
    order_params_init(&op);
    op.time_limit = 30;
    order_result r;
    assert_int_equal(order_solve(g, &op, &r), 0);
    assert_true(r.optimal);
    int64_t hi = r.peak; /* the least peak of an order */
    order_result_free(&r);
    int64_t pick[5] = {lo, lo + (hi - lo) / 3, lo + 2 * (hi - lo) / 3, hi - 1, hi};
    for (int i = 0; i < 5; i++) {
      int64_t M = pick[i], b = cost_bound(g, M);
      if (M >= hi) assert_true(b == 0);
      if (M >= hi) continue;
      int64_t opt = exh_best(g, M, three, 0);
      if (opt < 0) continue;
      cases++;
      if (b > opt - base) {
        fprintf(stderr, "seed %llu rep %d M %lld: bound %lld above the optimum's %lld\n",
                (unsigned long long)seed, rep, (long long)M, (long long)b,
                (long long)(opt - base));
        fail();
      }
      positive += b > 0;
      tight += b > 0 && b == opt - base;
    }
    remat_graph_free(g);
  }
  fprintf(stderr, "%d budgets below every order's peak with a schedule: bound positive on %d, the optimum on %d\n", cases,
          positive, tight);
  assert_true(positive * 5 >= cases); /* the test would see a bound too high */
}

UNIT_TEST_OF(test_cost_small_numbers, cost_against_brute_force(4242, 1500, 1, 1))
UNIT_TEST_OF(test_cost_large_numbers,
             cost_against_brute_force(4343, 1200, 100000000, 100000000000))

UNIT_TESTS(test_cost_hand_worked, test_cost_small_numbers, test_cost_large_numbers)
