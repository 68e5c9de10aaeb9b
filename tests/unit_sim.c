/* unit_sim.c -- the simulator (sim.c): memory step by step, peak,
 * duration and recomputations; invalid sequences with their reason. */
#include <string.h>

#include "testutil.h"

#include "graph.h"
#include "remat.h"
#include "sim.h"

static void test_sim_basic(void **state) {
  (void)state;
  remat_graph *g = small_graph();
  int seq[3] = {0, 1, 2};
  remat_sim s;
  int64_t mem[4];
  assert_int_equal(remat_simulate(g, seq, 3, &s, mem), 0);
  assert_true(mem[0] == 10 && mem[1] == 30 && mem[2] == 60);
  assert_true(s.peak == 60 && s.duration == 10 && s.peak_step == 2);
  assert_int_equal(s.recomputations, 0);
  /* recompute a before c: a's first copy dies after b */
  int seq2[4] = {0, 1, 0, 2};
  assert_int_equal(remat_simulate(g, seq2, 4, &s, mem), 0);
  assert_true(mem[1] == 30 && mem[2] == 30 && mem[3] == 60);
  assert_true(s.duration == 12 && s.recomputations == 1);
  remat_graph_free(g);
}

static void test_sim_invalid(void **state) {
  (void)state;
  remat_graph *g = small_graph();
  remat_sim s;
  int seq[2] = {1, 2};
  assert_int_equal(remat_simulate(g, seq, 2, &s, NULL), REMAT_EUSAGE);
  assert_false(s.valid);
  assert_non_null(strstr(s.error, "needs 0"));
  int seq2[2] = {0, 1};
  assert_int_equal(remat_simulate(g, seq2, 2, &s, NULL), REMAT_EUSAGE);
  assert_non_null(strstr(s.error, "never computed"));
  remat_graph_free(g);
}

UNIT_TESTS(test_sim_basic, test_sim_invalid)
