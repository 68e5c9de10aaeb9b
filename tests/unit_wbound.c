/* unit_wbound.c -- the window model's bound (wbound.h) against brute force:
 * on random DAGs of at most 6 nodes, at budgets across their range, with
 * C_v = 1, 2, 3 (and mixed) or any number of copies, with or without the
 * optimum as incumbent (given at the start or while the bound runs), and
 * with depth 0..2 and windows from the smallest: the bound never exceeds the best duration increase of any
 * stage-structured schedule within the copies; a proof of infeasibility
 * or of optimality is never wrong; the loop always ends with one (a
 * complete answer on graphs this small), and a schedule it returns is
 * valid, within budget and copies, and optimal.  Then the same graphs
 * with sizes near 10^12 and durations near 10^9 (not multiples of one
 * quantum): the bound stays below the optimum, and no feasible window is
 * called infeasible (CBC's tolerances did both with memory rows of up to
 * 2^31 units: wmodel.c). */
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"

#include "exhaustive.h"
#include "oracle.h"
#include "remat.h"
#include "sim.h"
#include "wbound.h"

static int64_t max_v(const remat_graph *g) {
  int64_t most = 0;
  for (int v = 0; v < g->n; v++) {
    int64_t s = g->m[v];
    for (int p = g->pred_off[v]; p < g->pred_off[v + 1]; p++) s += g->m[g->pred[p]];
    if (s > most) most = s;
  }
  return most;
}

/* The incumbent handed over while the bound runs (incumbent_now). */
static int64_t later_incumbent(void *ctx) { return *(const int64_t *)ctx; }

typedef struct tally {
  int runs, optimal, infeasible, bound, schedules, exact_bound;
} tally;

/* One instance; exact: the answer must be complete. */
static void check(const remat_graph *g, int64_t M, const int *copies, int64_t truth, int64_t inc,
                  int depth, int margin, int exact, tally *t) {
  int64_t later = inc;
  int64_t base = remat_graph_base_duration(g);
  wbound_params p;
  wbound_params_init(&p);
  p.budget = M;
  p.copies = copies;
  p.incumbent = inc;
  if (inc >= 0 && (t->runs & 1)) { /* known only once the bound runs */
    p.incumbent = -1;
    p.incumbent_now = later_incumbent;
    p.ctx = &later;
  }
  p.depth = depth;
  p.margin = margin;
  p.time_limit = 60;
  wbound_out o;
  wbound_status st = wbound_solve(g, &p, &o);
  t->runs++;
  if (truth >= 0) {
    if (st == WBOUND_INFEASIBLE) fail_msg("infeasible, but %lld fits", (long long)truth);
    if (o.increase > truth - base)
      fail_msg("bound %lld above the optimum %lld", (long long)o.increase,
               (long long)(truth - base));
    if (st == WBOUND_OPTIMAL && o.increase != truth - base)
      fail_msg("optimal %lld, but the optimum is %lld", (long long)o.increase,
               (long long)(truth - base));
    if (exact && st != WBOUND_OPTIMAL)
      fail_msg("%s (%lld) where %lld is optimal: %s", wbound_status_name(st),
               (long long)o.increase, (long long)(truth - base), o.why);
  } else if (exact && st != WBOUND_INFEASIBLE) {
    fail_msg("%s where nothing fits", wbound_status_name(st));
  }
  if (o.seq) {
    remat_sim s;
    assert_int_equal(remat_simulate(g, o.seq, o.len, &s, NULL), 0);
    assert_true(s.peak <= M);
    assert_true(!copies || sim_within_copies(g, o.seq, o.len, copies));
    if (st == WBOUND_OPTIMAL) assert_int_equal(s.duration, truth);
    t->schedules++;
  }
  t->optimal += st == WBOUND_OPTIMAL;
  t->infeasible += st == WBOUND_INFEASIBLE;
  t->bound += st == WBOUND_BOUND;
  t->exact_bound += truth >= 0 && o.increase == truth - base;
  wbound_out_free(&o);
}

static void test_brute(void **state) {
  (void)state;
  uint64_t rng = 99;
  tally t = {0};
  int copies[8];
  for (int i = 0; i < 700; i++) {
    int n = 3 + (int)(oracle_rand(&rng) % 4);
    remat_graph *g = oracle_dag(n, 25 + (int)(oracle_rand(&rng) % 60), 9, 9, 1000 + (uint64_t)i);
    int64_t lo = max_v(g), hi = remat_topo_peak(g);
    if (lo >= hi) {
      remat_graph_free(g);
      continue;
    }
    int64_t M = lo + (int64_t)(oracle_rand(&rng) % (uint64_t)(hi - lo));
    int kind = (int)(oracle_rand(&rng) % 4);
    for (int v = 0; v < n; v++)
      copies[v] = kind == 3 ? 1 + (int)(oracle_rand(&rng) % 3) : kind + 1;
    const int *cv = kind == 0 ? NULL : copies;
    int64_t truth = oracle_best_copies(g, M, cv, NULL);
    int depth = (int)(oracle_rand(&rng) % 3), margin = (int)(oracle_rand(&rng) % 3);
    int64_t base = remat_graph_base_duration(g);
    check(g, M, cv, truth, -1, depth, margin, 1, &t);
    if (truth >= 0) {
      check(g, M, cv, truth, truth - base, depth, margin, 1, &t);
      check(g, M, cv, truth, truth - base + 1 + (int64_t)(oracle_rand(&rng) % 5), depth, margin,
            1, &t);
    }
    remat_graph_free(g);
  }
  fprintf(stderr, "  window bound: %d runs: %d optimal, %d infeasible, %d bound only; %d schedules\n",
          t.runs, t.optimal, t.infeasible, t.bound, t.schedules);
  assert_true(t.runs > 300);
  assert_true(t.infeasible > 10);
  assert_true(t.schedules > 50);
}

/* Seven-node DAGs against the shortest-path oracle (exhaustive.h), with
 * any number of copies and with C_v = 2. */
static void test_seven(void **state) {
  (void)state;
  uint64_t rng = 4242;
  tally t = {0};
  int copies[EXH_MAXN];
  for (int v = 0; v < EXH_MAXN; v++) copies[v] = 2;
  for (int i = 0; i < 120; i++) {
    remat_graph *g = oracle_dag(7, 25 + (int)(oracle_rand(&rng) % 50), 9, 9, 9000 + (uint64_t)i);
    int64_t lo = max_v(g), hi = remat_topo_peak(g);
    if (lo >= hi) {
      remat_graph_free(g);
      continue;
    }
    int64_t M = lo + (int64_t)(oracle_rand(&rng) % (uint64_t)(hi - lo));
    const int *cv = i % 2 ? copies : NULL;
    int64_t truth = exh_best(g, M, cv, 1);
    check(g, M, cv, truth, -1, 1, 1, 1, &t);
    if (truth >= 0) check(g, M, cv, truth, truth - remat_graph_base_duration(g), 1, 1, 1, &t);
    remat_graph_free(g);
  }
  fprintf(stderr, "  seven nodes: %d runs: %d optimal, %d infeasible, %d bound only\n", t.runs,
          t.optimal, t.infeasible, t.bound);
  assert_true(t.runs > 60);
}

/* Sizes near 10^12 and durations near 10^9, not sharing a quantum: the
 * quanta round them down; the bound stays at most the optimum. */
static void test_scale(void **state) {
  (void)state;
  uint64_t rng = 7;
  tally t = {0};
  for (int i = 0; i < 600; i++) { /* memory units of 2^31 failed at i = 275 */
    int n = 3 + (int)(oracle_rand(&rng) % 4);
    remat_graph *g = oracle_dag(n, 50, 9, 9, 5000 + (uint64_t)i);
    for (int v = 0; v < n; v++) {
      g->m[v] = g->m[v] * 999999999989LL + (int64_t)(oracle_rand(&rng) % 1000);
      g->w[v] = g->w[v] * 999999937LL + (int64_t)(oracle_rand(&rng) % 1000);
    }
    int64_t lo = max_v(g), hi = remat_topo_peak(g);
    if (lo >= hi) {
      remat_graph_free(g);
      continue;
    }
    int64_t M = lo + (int64_t)(oracle_rand(&rng) % (uint64_t)(hi - lo));
    int64_t truth = oracle_best_copies(g, M, NULL, NULL);
    check(g, M, NULL, truth, -1, 1, 1, 0, &t);
    if (truth >= 0) check(g, M, NULL, truth, truth - remat_graph_base_duration(g), 1, 1, 0, &t);
    remat_graph_free(g);
  }
  fprintf(stderr, "  at scale: %d runs: %d optimal, %d infeasible, %d bound only\n", t.runs,
          t.optimal, t.infeasible, t.bound);
  assert_true(t.runs > 100);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_brute), cmocka_unit_test(test_seven),
                                     cmocka_unit_test(test_scale)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
