/* unit_decode.c -- reading a solver's solution text (decode.c): a
 * malformed array is an error naming it. */
#include <string.h>

#include "testutil.h"

#include "decode.h"
#include "graph.h"
#include "model.h"

static void test_decode_errors(void **state) {
  (void)state;
  remat_graph *g = small_graph();
  model md;
  char err[256];
  model_build(&md, g, 2, 60, NULL, 2, err, sizeof err);
  model_sol x;
  model_sol_alloc(&md, &x);
  long long obj;
  assert_int_equal(decode_solution(&md, "S = array1d(1..2, [1, 3]);\n", &x, &obj,
                                   err, sizeof err),
                   -1);
  assert_non_null(strstr(err, "array S"));
  model_sol_free(&x);
  model_free(&md);
  remat_graph_free(g);
}

UNIT_TESTS(test_decode_errors)
