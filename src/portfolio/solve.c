/* solve.c -- remat_solve: the one place that chooses between the
 * stage-axis portfolio (portfolio.h) and the free-order search
 * (solve_free.h), which runs that portfolio on the orders it finds; and
 * the solve's default parameters. */
#include "portfolio.h"
#include "remat.h"
#include "solve_free.h"

void remat_solve_params_init(remat_solve_params *p) {
  *p = (remat_solve_params){.default_copies = 2, .time_limit = REMAT_TIME_LIMIT,
                            .seed = 1, .heuristics = 1, .lns = REMAT_LNS_AUTO,
                            .verbose = 1};
}

int remat_solve(const remat_graph *g, const remat_solve_params *p, remat_result *r) {
  return p->free_order ? solve_free(g, p, r) : portfolio_solve(g, p, r);
}
