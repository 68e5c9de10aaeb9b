/* unit_solve_large.c -- remat_solve on the input order of graphs beyond
 * the stage model (solve_large.h): a 60,001-node training graph at half
 * its peak fits (re-simulated, first computations in the input order),
 * shorter than Chen's baselines, with a lower bound that says it covers
 * every order and a message that says the stage model was not built (and
 * in free order, which takes the same path, it fits too); with
 * C_v = 1 nothing recomputes, so nothing fits, and the message names the
 * free order; a budget the input order fits is optimal at once.  On a
 * small graph (solve_large takes any size) the closure bound at the
 * input order's highest step proves the schedule optimal over the
 * sequences whose first computations follow the input order: the stage
 * model's proven optimum is the same, at sizes near 10^12 and durations
 * near 10^9 too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "baseline.h"
#include "blocks.h"
#include "gen.h"
#include "model.h"
#include "solve_large.h"

/* The solve's seconds: the segment search needs more under the sanitizers
 * to beat Chen's baselines, which run to the end here. */
#if defined(__SANITIZE_ADDRESS__)
#define LARGE_SECONDS 12
#else
#define LARGE_SECONDS 3
#endif

/* Each node's first computation comes after every lower node's. */
static int firsts_in_order(const remat_graph *g, const int *seq, int len) {
  int next = 0;
  for (int i = 0; i < len; i++) {
    if (seq[i] == next) next++;
    else if (seq[i] > next) return 0;
  }
  return next == g->n;
}

/* Solve g at half its input order's peak for `seconds`: it fits, and the
 * schedule re-simulates within budget with the claimed duration and some
 * recomputation; the result is returned for more checks. */
static remat_result solve_half(const remat_graph *g, int free_order, double seconds) {
  int64_t M = remat_topo_peak(g) / 2;
  remat_solve_params p = solve_params(M, seconds, 0);
  p.free_order = free_order;
  remat_result r;
  remat_result_init(&r, g, M, "cp");
  assert_int_equal(remat_solve(g, &p, &r), REMAT_OK);
  assert_int_equal(r.status, REMAT_STATUS_FEASIBLE);
  remat_sim sim;
  assert_int_equal(remat_simulate(g, r.seq, r.len, &sim, NULL), 0);
  assert_true(sim.peak <= M);
  assert_int_equal(sim.duration, r.duration);
  assert_true(r.recomputations > 0);
  assert_int_equal(r.free_order, free_order);
  return r;
}

static void test_large_fits(void **state) {
  (void)state;
  remat_graph *g = gen_training(MODEL_MAX_NODES / 2, 3);
  assert_true(g->n > MODEL_MAX_NODES);
  remat_result r = solve_half(g, 0, LARGE_SECONDS);
  int64_t M = r.budget;
  assert_true(firsts_in_order(g, r.seq, r.len));
  assert_true(r.has_bound);
  assert_true(r.bound > (double)r.base_duration && r.bound <= (double)r.duration);
  /* the order cost bound's, or the closure bound's where its LP answers
   * in time and says more */
  assert_true(r.bound_covers == REMAT_COVERS_ANY_ORDER ||
              r.bound_covers == REMAT_COVERS_FIRSTS_COPIES);
  char want[128];
  snprintf(want, sizeof want, "%d nodes, beyond the stage model (at most %d):", g->n,
           MODEL_MAX_NODES);
  assert_true(strncmp(r.message, want, strlen(want)) == 0);
  remat_result b;
  remat_result_init(&b, g, M, "baseline");
  assert_int_equal(base_best(g, M, 0, DEADLINE_NONE, NULL, &b), REMAT_OK);
  if (!(b.peak <= M && r.duration < b.duration))
    fail_msg("solve %lld, baselines %lld (peak %lld, budget %lld)", (long long)r.duration,
             (long long)b.duration, (long long)b.peak, (long long)M);
  remat_result_free(&b);
  remat_result_free(&r);
  remat_graph_free(g);
}

/* Free order takes the same path on the order it chose. */
static void test_large_free_order(void **state) {
  (void)state;
  remat_graph *g = gen_training(MODEL_MAX_NODES / 2, 3);
  remat_result r = solve_half(g, 1, 4);
  remat_result_free(&r);
  remat_graph_free(g);
}

static void test_large_one_copy(void **state) {
  (void)state;
  remat_graph *g = gen_training(MODEL_MAX_NODES / 2, 4);
  int64_t M = remat_topo_peak(g) / 2;
  remat_solve_params p = solve_params(M, 1, 1);
  p.default_copies = 1;
  remat_result r;
  remat_result_init(&r, g, M, "cp");
  assert_int_equal(remat_solve(g, &p, &r), REMAT_ENOFIT);
  assert_int_equal(r.status, REMAT_STATUS_OVER_BUDGET);
  assert_int_equal(r.recomputations, 0);
  assert_int_equal(r.len, g->n);
  char want[256];
  snprintf(want, sizeof want,
           "out of time: no schedule within %lld found on the input order (%d nodes, beyond "
           "the stage model: the baselines and the segment search); best peak %lld",
           (long long)M, g->n, (long long)remat_topo_peak(g));
  assert_true(strncmp(r.message, want, strlen(want)) == 0);
  assert_non_null(strstr(r.message, "; more time, more copies or the free order "
                                    "(--free-order) may reach it"));
  remat_result_free(&r);
  remat_graph_free(g);
}

static void test_large_input_order_fits(void **state) {
  (void)state;
  remat_graph *g = gen_training(MODEL_MAX_NODES / 2, 5);
  int64_t M = remat_topo_peak(g);
  remat_solve_params p = solve_params(M, 1, 1);
  remat_result r;
  remat_result_init(&r, g, M, "cp");
  assert_int_equal(remat_solve(g, &p, &r), REMAT_OK);
  assert_int_equal(r.status, REMAT_STATUS_OPTIMAL);
  assert_int_equal(r.duration, r.base_duration);
  assert_int_equal(r.proof_covers, REMAT_COVERS_ANY_ORDER);
  assert_string_equal(r.message, "optimal: the input order fits (the base duration)");
  remat_result_free(&r);
  remat_graph_free(g);
}

static void test_large_closure(void **state) {
  (void)state;
  static const int64_t scale[][2] = {{1, 1}, {250000000000, 50000000}};
  for (int s = 0; s < 2; s++) {
    remat_graph *g = dropout_layers(8, scale[s][0], scale[s][1]);
    int64_t M = remat_topo_peak(g) / 2;
    remat_solve_params p = solve_params(M, 3, 1);
    remat_result r, st;
    remat_result_init(&r, g, M, "cp");
    assert_int_equal(solve_large(g, &p, &r), REMAT_OK);
    assert_int_equal(r.status, REMAT_STATUS_OPTIMAL);
    assert_int_equal(r.proof_covers, REMAT_COVERS_FIRSTS_COPIES);
    assert_string_equal(r.message, "optimal over every sequence whose first computations "
                                   "follow the input order, with at most C_v copies (the "
                                   "closure bound)");
    remat_result_init(&st, g, M, "cp");
    assert_int_equal(remat_solve(g, &p, &st), REMAT_OK);
    assert_int_equal(st.status, REMAT_STATUS_OPTIMAL);
    assert_int_equal(st.duration, r.duration);
    remat_result_free(&st);
    remat_result_free(&r);
    remat_graph_free(g);
  }
}

UNIT_TESTS(test_large_fits, test_large_free_order, test_large_one_copy,
           test_large_input_order_fits, test_large_closure)
