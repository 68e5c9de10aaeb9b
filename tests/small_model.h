/* small_model.h -- the CP model (model.h) of testutil.h's small_graph, for
 * the tests of the model and of what reads a solver's answer into it. */
#ifndef REMAT_TEST_SMALL_MODEL_H
#define REMAT_TEST_SMALL_MODEL_H

#include "model.h"
#include "testutil.h"

/* small_graph's model md for phase and budget M (C_v = 2), with room for
 * a solution x; the graph (freed with small_model_free). */
static inline remat_graph *small_model(model *md, model_sol *x, int phase,
                                       int64_t M) {
  remat_graph *g = small_graph();
  char err[256];
  assert_int_equal(model_build(md, g, phase, M, NULL, 2, err, sizeof err), 0);
  model_sol_alloc(md, x);
  return g;
}

static inline void small_model_free(remat_graph *g, model *md, model_sol *x) {
  model_sol_free(x);
  model_free(md);
  remat_graph_free(g);
}

#endif
