/* unit_plot_tradeoff.c -- the budget/overhead picture: one polyline per
 * curve through its points within budget (in budget order), one circle per
 * point with its status and data, and the budgets where no curve fits
 * shaded. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "plot.h"

static int count(const char *s, const char *needle) {
  int k = 0;
  for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle)) k++;
  return k;
}

static void test_tradeoff_svg(void **state) {
  (void)state;
  plot_point cp[3] = {{0.9, 900, REMAT_STATUS_OPTIMAL, 0.5, 0.5},
                      {0.5, 500, REMAT_STATUS_FEASIBLE, 3.0, NAN},
                      {0.3, 300, REMAT_STATUS_INFEASIBLE, NAN, NAN}};
  plot_point chen[3] = {{0.9, 900, REMAT_STATUS_FEASIBLE, 10, NAN},
                        {0.5, 500, REMAT_STATUS_OVER_BUDGET, NAN, NAN},
                        {0.3, 300, REMAT_STATUS_OVER_BUDGET, NAN, NAN}};
  plot_curve c[2] = {{"cp", "g", cp, 3}, {"chen-greedy", "g", chen, 3}};
  plot_opts o;
  plot_opts_init(&o);
  char err[256];
  memout mo;
  assert_int_equal(plot_tradeoff(memout_open(&mo), c, 2, &o, err, sizeof err),
                   0);
  char *buf = memout_close(&mo);
  assert_int_equal(count(buf, "class=\"tradeoff\""), 2);
  assert_int_equal(count(buf, "<circle"), 6);
  assert_int_equal(count(buf, "class=\"optimal\""), 1);
  assert_int_equal(count(buf, "class=\"infeasible\""), 1);
  assert_int_equal(count(buf, "class=\"over-budget\""), 2);
  /* only budget 0.3 has no curve within budget */
  assert_int_equal(count(buf, "class=\"infeasible-zone\""), 1);
  assert_non_null(strstr(buf, "class=\"infeasible-zone\" data-budget=\"0.3\""));
  assert_non_null(strstr(buf, "data-budget-bytes=\"500\" data-tdi=\"3\""));
  free(buf);
}

UNIT_TESTS(test_tradeoff_svg)
