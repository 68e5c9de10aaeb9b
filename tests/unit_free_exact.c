/* unit_free_exact.c -- the exact free-order search (free_exact.c) against
 * the tests' own exhaustive search (exhaustive.h) on random DAGs of up to
 * 7 nodes with 1 to 3 copies per node, at sizes up to 10^12: the same
 * optimum or the same infeasibility, and a schedule that re-simulates
 * within the budget at that duration and keeps to the copies. */
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"

#include "exhaustive.h"
#include "free_exact.h"
#include "oracle.h"
#include "sim.h"

static void check(const remat_graph *g, int64_t M, int copies) {
  int caps[EXH_MAXN];
  for (int v = 0; v < EXH_MAXN; v++) caps[v] = copies;
  int64_t want = exh_best(g, M, caps, 0);
  free_exact_params p;
  free_exact_params_init(&p);
  p.budget = M;
  p.copies = caps;
  int *seq, len;
  free_exact_status st = free_exact_solve(g, &p, &seq, &len, NULL);
  if (want < 0) {
    if (st != FREE_EXACT_INFEASIBLE)
      fail_msg("n=%d M=%lld C=%d: exhaustive says none fits, free_exact %d", g->n,
               (long long)M, copies, st);
    return;
  }
  if (st != FREE_EXACT_OPTIMAL) fail_msg("n=%d M=%lld: status %d, optimum %lld", g->n,
                                          (long long)M, st, (long long)want);
  remat_sim s;
  assert_int_equal(remat_simulate(g, seq, len, &s, NULL), 0);
  assert_true(s.peak <= M);
  assert_true(sim_within_copies(g, seq, len, caps));
  if (s.duration != want)
    fail_msg("n=%d M=%lld C=%d: duration %lld, optimum %lld", g->n, (long long)M, copies,
             (long long)s.duration, (long long)want);
  free(seq);
}

static void test_free_exact_small(void **state) {
  (void)state;
  for (int i = 0; i < 150; i++) {
    int n = 2 + i % 6;
    remat_graph *g = oracle_dag(n, 25 + 10 * (i % 4), 9, 9, 3000 + (uint64_t)i);
    int64_t lo = remat_graph_min_peak(g), hi = remat_topo_peak(g);
    int64_t budgets[4] = {lo - 1, lo, (lo + hi) / 2, hi};
    for (int k = 0; k < 4; k++)
      if (budgets[k] >= 0) check(g, budgets[k], 1 + i % 3);
    remat_graph_free(g);
  }
}

/* Sizes near 10^12 and durations near 10^9: no overflow, same answers. */
static void test_free_exact_large_numbers(void **state) {
  (void)state;
  for (int i = 0; i < 40; i++) {
    int n = 3 + i % 5;
    remat_graph *g = oracle_dag(n, 40, 9, 9, 7000 + (uint64_t)i);
    for (int v = 0; v < n; v++) {
      g->m[v] = 1000000000000LL + g->m[v] * 1000003;
      g->w[v] = 1000000000LL - g->w[v] * 7;
    }
    int64_t lo = remat_graph_min_peak(g), hi = remat_topo_peak(g);
    check(g, lo + (hi - lo) / 2, 2);
    remat_graph_free(g);
  }
}

/* Beyond the cap on states it says it does not know. */
static void test_free_exact_gives_up(void **state) {
  (void)state;
  remat_graph *g = oracle_dag(12, 30, 9, 9, 1);
  free_exact_params p;
  free_exact_params_init(&p);
  p.budget = remat_graph_min_peak(g);
  p.max_states = 100;
  int *seq, len;
  assert_int_equal(free_exact_solve(g, &p, &seq, &len, NULL), FREE_EXACT_UNKNOWN);
  remat_graph_free(g);
}

UNIT_TESTS(test_free_exact_small, test_free_exact_large_numbers,
           test_free_exact_gives_up)
