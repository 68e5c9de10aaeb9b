/* solve.c -- remat_solve: the one place that chooses between the
 * stage-axis portfolio (portfolio.h), the search beyond the stage model
 * on the input order (solve_large.h) and the free-order search
 * (solve_free.h), which runs the first two on the orders it finds; after
 * a solve on the input order, whether another order does better
 * (solve_hint.h); and the solve's default parameters. */

#include <stdlib.h>

#include "graph.h"
#include "model.h"
#include "portfolio.h"
#include "remat.h"
#include "solve_free.h"
#include "solve_hint.h"
#include "solve_large.h"
#include "util.h"

void remat_solve_params_init(remat_solve_params *p) {
  *p = (remat_solve_params){.default_copies = 2, .time_limit = REMAT_TIME_LIMIT,
                            .seed = 1, .heuristics = 1, .lns = REMAT_LNS_AUTO,
                            .verbose = 1};
}

int remat_solve(const remat_graph *g, const remat_solve_params *in, remat_result *r) {
  /* the graph's own C_v are a ceiling whatever the caller asks */
  remat_solve_params c = *in;
  const remat_solve_params *p = &c;
  int *capped = graph_copies_capped(g, in->copies, in->default_copies), rc;
  if (capped) c.copies = capped;
  if (p->free_order) {
    rc = solve_free(g, p, r);
  } else {
    remat_solve_params q = *p;
    double hint = solve_hint_time(g, p);
    q.time_limit -= hint;
    double t0 = util_now();
    rc = g->n > MODEL_MAX_NODES ? solve_large(g, &q, r) : portfolio_solve(g, &q, r);
    solve_hint(g, p, rc, util_now() - t0, hint, r);
  }
  free(capped);
  return rc;
}
