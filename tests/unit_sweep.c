/* unit_sweep.c -- validity sweep: 200 random layered graphs of 10-40
 * nodes at budgets 0.6-1.0; every result is a valid schedule within budget
 * (re-simulated here), or "nothing within budget" with a reason. */
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"

#include "gen.h"
#include "remat.h"

static void test_sweep(void **state) {
  (void)state;
  static const double fractions[5] = {0.6, 0.7, 0.8, 0.9, 1.0};
  int fits = 0, below = 0, proven = 0, timeout = 0;
  for (int i = 0; i < 200; i++) {
    int n = 10 + (i * 7) % 31;
    remat_graph *g = gen_layered(n, 500 + (uint64_t)i);
    assert_non_null(g);
    int64_t topo = remat_topo_peak(g);
    char text[16], err[256];
    snprintf(text, sizeof text, "%.1f", fractions[i % 5]);
    int64_t M;
    assert_int_equal(remat_budget_parse(text, topo, &M, err, sizeof err), 0);
    remat_solve_params p = solve_params(M, 0.2, 0);
    p.seed = (unsigned)i;
    remat_result r;
    remat_result_init(&r, g, M, "cp");
    int rc = remat_solve(g, &p, &r);
    if (rc == REMAT_OK) {
      remat_sim s;
      assert_int_equal(remat_simulate(g, r.seq, r.len, &s, NULL), 0);
      if (s.peak > M || s.peak != r.peak || s.duration != r.duration)
        fail_msg("graph %d at %s: peak %lld (claimed %lld) budget %lld", i, text,
                 (long long)s.peak, (long long)r.peak, (long long)M);
      assert_true(r.status == REMAT_STATUS_OPTIMAL ||
                  r.status == REMAT_STATUS_FEASIBLE);
      fits++;
    } else {
      if (rc != REMAT_ENOFIT)
        fail_msg("graph %d at %s: exit %d (%s)", i, text, rc, r.message);
      assert_true(r.status == REMAT_STATUS_OVER_BUDGET ||
                  r.status == REMAT_STATUS_INFEASIBLE);
      assert_true(r.message[0] != 0);
      if (r.seq) { /* the best schedule is still valid */
        remat_sim s;
        assert_int_equal(remat_simulate(g, r.seq, r.len, &s, NULL), 0);
        assert_true(s.peak > M);
      }
      if (M < remat_graph_min_peak(g))
        below++;
      else if (r.status == REMAT_STATUS_INFEASIBLE)
        proven++;
      else
        timeout++;
    }
    remat_result_free(&r);
    remat_graph_free(g);
  }
  fprintf(stderr,
          "  sweep: %d within budget; %d below the lower bound, %d proven "
          "infeasible, %d out of time\n",
          fits, below, proven, timeout);
  assert_true(fits > 0);
}

UNIT_TESTS(test_sweep)
