/* solve.c -- remat_solve: the one place that chooses between the
 * stage-axis portfolio (portfolio.h), the search beyond the stage model
 * on the input order (solve_large.h) and the free-order search
 * (solve_free.h), which runs the first two on the orders it finds; and
 * the solve's default parameters. */
#include "model.h"
#include "portfolio.h"
#include "remat.h"
#include "solve_free.h"
#include "solve_large.h"

void remat_solve_params_init(remat_solve_params *p) {
  *p = (remat_solve_params){.default_copies = 2, .time_limit = REMAT_TIME_LIMIT,
                            .seed = 1, .heuristics = 1, .lns = REMAT_LNS_AUTO,
                            .verbose = 1};
}

int remat_solve(const remat_graph *g, const remat_solve_params *p, remat_result *r) {
  if (p->free_order) return solve_free(g, p, r);
  return g->n > MODEL_MAX_NODES ? solve_large(g, p, r) : portfolio_solve(g, p, r);
}
