/* solve_free.h -- remat_solve in free order (solve_free.c). */
#ifndef REMAT_SOLVE_FREE_H
#define REMAT_SOLVE_FREE_H

#include "remat.h"

/* remat_solve with p->free_order set: the same contract. */
int solve_free(const remat_graph *g, const remat_solve_params *p, remat_result *r);

#endif
