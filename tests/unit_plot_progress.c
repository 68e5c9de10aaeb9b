/* unit_plot_progress.c -- the solve progress picture of a solve that found
 * nothing (an empty trace, as `remat solve -o` writes for a budget below
 * max_v): a valid picture with finite axes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "graph.h"
#include "plot.h"

static void test_progress_empty_trace(void **state) {
  (void)state;
  int64_t w[2] = {1, 1}, m[2] = {5, 5};
  int src[1] = {0}, dst[1] = {1};
  remat_graph *g = graph_from_arrays(2, w, m, 1, src, dst, "g");
  remat_result r;
  remat_result_init(&r, g, 3, "cp");
  r.t_total = 0.0004;
  plot_run run = {&r, "g", NULL};
  plot_opts o;
  plot_opts_init(&o);
  char err[256];
  memout mo;
  assert_int_equal(
      plot_progress(memout_open(&mo), &run, 1, &o, err, sizeof err), 0);
  char *buf = memout_close(&mo);
  /* no non-finite number in an attribute or a coordinate */
  assert_null(strstr(buf, "=\"inf"));
  assert_null(strstr(buf, "=\"-inf"));
  assert_null(strstr(buf, "=\"nan"));
  assert_null(strstr(buf, "=\"-nan"));
  assert_non_null(strstr(buf, "nothing within budget"));
  free(buf);
  remat_result_free(&r);
  remat_graph_free(g);
}

UNIT_TESTS(test_progress_empty_trace)
