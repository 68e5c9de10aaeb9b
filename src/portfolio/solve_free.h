/* solve_free.h -- remat_solve in free order (solve_free.c). */
#ifndef REMAT_SOLVE_FREE_H
#define REMAT_SOLVE_FREE_H

#include "remat.h"

/* The joint annealing (seq_anneal.h) has its share (after the order
 * search) on graphs of at most SFREE_SEQ_NODES nodes (each move costs
 * O(len): seq_eval.h); the hint after a solve on the input order
 * (solve_hint.c) runs it on the same graphs. */
#define SFREE_SEQ_NODES 5000

/* Free order's C_v per node, in place: at least 1, and 1 for a sink (a
 * recomputed sink is never read). */
void sfree_limit_copies(const remat_graph *g, int *c);

/* The joint annealing's C_v from c (sfree_limit_copies'): 0, any number,
 * where c[v] is 2 or more and not the node's own (graph_copies_open),
 * unless C_v is a hard limit (p->keep_copies); a
 * schedule within budget that uses more raises C_v, as a baseline's does.
 * out may be c. */
void sfree_joint_copies(const remat_graph *g, const remat_solve_params *p, const int *c,
                        int *out);

/* remat_solve with p->free_order set: the same contract. */
int solve_free(const remat_graph *g, const remat_solve_params *p, remat_result *r);

#endif
