/* solve_free.h -- remat_solve in free order (solve_free.c). */
#ifndef REMAT_SOLVE_FREE_H
#define REMAT_SOLVE_FREE_H

#include "remat.h"

/* The joint annealing (seq_anneal.h) has its share (after the order
 * search) on graphs of at most SFREE_SEQ_NODES nodes (each move costs
 * O(len): seq_eval.h); the hint after a solve on the input order
 * (solve_hint.c) runs it on the same graphs. */
#define SFREE_SEQ_NODES 5000

/* remat_solve with p->free_order set: the same contract. */
int solve_free(const remat_graph *g, const remat_solve_params *p, remat_result *r);

#endif
