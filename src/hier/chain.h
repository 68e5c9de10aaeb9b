/* chain.h -- a first hierarchical composition: a training graph's chain of
 * identical blocks (repeat.h), each block given one of a small menu of
 * options, composed over the chain into one schedule, a baseline of the
 * flat search (seeds.h).
 *
 * The kind of block that covers the most nodes is the chain.  An option
 * of a block is the number t of its forward nodes dropped after the
 * forward pass and recomputed for the block's backward pass: the t
 * cheapest to recompute per byte among those that only the block's own
 * nodes read, its output kept (the same local nodes in every block, the
 * blocks being identical).  The composition gives option t to the first r
 * blocks of the chain and keeps everything else: the backward pass meets
 * the first blocks last, when every later block's activations are freed,
 * so they are where dropping costs the least peak.  For each t, r is the
 * fewest blocks whose schedule fits the budget (bisection: the peak falls
 * as r grows); the shortest over t wins.
 *
 * A schedule is the input order and, before each backward node, the
 * dropped nodes it reads (and their dropped inputs, recursively) whose
 * latest copy was not made for its block, recomputed in increasing order:
 * on the input order's stages.  Each is re-simulated: about (forward nodes
 * per block) x log2(blocks) schedules of O(n + edges) each. */
#ifndef REMAT_CHAIN_H
#define REMAT_CHAIN_H

#include <stdint.h>

#include "deadline.h"
#include "remat.h"
#include "repeat.h"

typedef struct chain_out {
  int *seq, len;     /* the shortest schedule within the budget (NULL: none) */
  int64_t peak, duration;
  int kind;          /* the chain's kind in rep (-1: no chain) */
  int blocks;        /* its blocks */
  int dropped;       /* t: nodes dropped per block ... */
  int recomputed;    /* ... in the first r blocks */
  int evals;         /* schedules simulated */
} chain_out;

/* Compose a schedule of g within budget from the chain of rep (needs
 * g->backward: the forward nodes are those not flagged), computing each
 * node v at most copies[v] times (copies NULL: any number); stops at d.
 * Returns 0, or REMAT_EINTERNAL when a schedule failed re-simulation.
 * Free out->seq. */
int chain_compose(const remat_graph *g, const repeat_out *rep, int64_t budget,
                  const int *copies, deadline d, chain_out *out);

#endif
