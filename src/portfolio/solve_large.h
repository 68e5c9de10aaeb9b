/* solve_large.h -- remat_solve on graphs beyond the stage model (more than
 * MODEL_MAX_NODES nodes, model.h), whose events would pass 32 bits: every
 * search there works in linear memory and 64-bit sizes and durations.
 *
 *   bounds  max_v (remat_result_precheck), the pebbling proof, the order
 *           cost bound (bounds.h): each holds for every sequence in any
 *           order with any number of copies, so on the input order too;
 *           and, in a child beside the search, the closure bound at the
 *           input order's highest step (bounds_closure_start), which holds
 *           for the sequences whose first computations follow the input
 *           order, with C_v;
 *   seeds   the input order (optimal when it fits);
 *   search  on a training graph with repeated blocks, their composition
 *           (chain.h); the best baseline (Chen's, checkpoint-all:
 *           baseline.h) and the segment search (seg_search.h) on the input
 *           order, to the time limit; their schedules' first computations
 *           follow the input order;
 *   end     the status; the message says that the stage model was not
 *           built, and what the bound covers.
 * Free order (solve_free.c) runs large_segments on the order it chose. */
#ifndef REMAT_SOLVE_LARGE_H
#define REMAT_SOLVE_LARGE_H

#include "best.h"
#include "remat.h"

/* remat_solve on the input order of a graph of more than MODEL_MAX_NODES
 * nodes (any size works; the stage-axis portfolio is better below it). */
int solve_large(const remat_graph *g, const remat_solve_params *p, remat_result *r);

/* The repeated blocks' composition, the best baseline and the segment
 * search on `on`, which is B's graph renumbered (node i of `on` is B's
 * perm[i]; perm NULL: `on` is B's graph), to B's time limit; their schedules go to B in its numbering (phase 2).
 * A schedule that computes a node more often than its C_v
 * (B->r->copies) is left out. */
void large_segments(best *B, const remat_graph *on, const int *perm);

#endif
