/* chain.h -- a hierarchical composition of a training graph's repeated
 * blocks (repeat.h): one keep-or-drop choice per place of a kind of block,
 * made once and applied to every block of the kind, searched on the whole
 * graph's re-simulated schedules, a baseline of the flat search (seeds.h)
 * and the schedule of graphs beyond the stage model (solve_large.h).
 *
 * Groups.  A group is a set of forward nodes dropped or kept together: the
 * nodes at one place (local forward index) of every block of one kind, or
 * one forward node outside the blocks (the largest CHAIN_OUTSIDE_MAX).
 * Only nodes that a backward node reads, directly or through other forward
 * nodes, and whose C_v allows a second copy, are in a group.  A dropped node's first copy lives until
 * its last forward reader; the backward pass recomputes it once.
 *
 * A schedule is the input order and, before each backward node, the
 * dropped nodes it reads (and their dropped inputs, recursively) not yet
 * recomputed, in increasing order: on the input order's stages, each
 * dropped node computed twice.  It is re-simulated for its peak and
 * duration, exactly.
 *
 * The search: from nothing dropped, greedily the group whose drop lowers
 * the peak the most per unit of added duration, until the schedule fits
 * (a schedule within budget tried on the way is kept); a group is dropped
 * with the groups of the forward-only nodes it is made from (dropping a
 * value whose inputs are kept for its recomputation frees nothing).  Then
 * groups given back (kept again) while it still fits, and swaps of a
 * dropped group for a kept one that shorten it; last, dropped groups
 * kept again in all but their first r blocks (the fewest r that still fit,
 * by bisection: the backward pass reaches the first blocks last, when the
 * later blocks' values are freed), the best such group at a time while
 * the schedule gets shorter.  Each step re-simulates a schedule of
 * O(n + edges): about groups^2 of them, fewer when the deadline comes
 * first; the best schedule within budget seen is returned. */
#ifndef REMAT_CHAIN_H
#define REMAT_CHAIN_H

#include <stdint.h>

#include "deadline.h"
#include "remat.h"
#include "repeat.h"

typedef struct chain_out {
  int *seq, len;     /* the shortest schedule within the budget (NULL: none) */
  int64_t peak, duration;
  int kind;          /* the kind of block covering the most nodes (-1: none) */
  int blocks;        /* its blocks */
  int groups;        /* groups searched (places of kinds, nodes outside) */
  int dropped;       /* groups dropped in every block, in the schedule */
  int partial;       /* groups dropped in their first blocks only */
  int evals;         /* schedules simulated */
} chain_out;

/* Compose a schedule of g within budget from the repeated blocks of rep
 * (needs g->backward: the forward nodes are those not flagged), computing
 * each node v at most copies[v] times (copies NULL: any number); stops at
 * d.  Where the input order fits, its schedule (nothing dropped).
 * Returns 0, or REMAT_EINTERNAL when a schedule failed re-simulation.
 * Free out->seq. */
int chain_compose(const remat_graph *g, const repeat_out *rep, int64_t budget,
                  const int *copies, deadline d, chain_out *out);

#endif
