/* portfolio.h -- the stage-axis portfolio (portfolio.c): bounds, seeds
 * and the workers over the stages of the graph's own order. */
#ifndef REMAT_PORTFOLIO_H
#define REMAT_PORTFOLIO_H

#include "remat.h"

/* remat_solve in the input order's stages (p->free_order is not read):
 * the same contract. */
int portfolio_solve(const remat_graph *g, const remat_solve_params *p, remat_result *r);

#endif
