/* repeat.h -- repeated structure: blocks of nodes that are identical up to
 * renaming (transformer layers, ResNet stages' blocks, unrolled RNN
 * steps), found in O(n log n + C (n + edges)) time without any graph
 * isomorphism test, as HiRemate does it (a canonical form per block,
 * hashed).
 *
 *   class   each node's class: its operator (g->op), output size m_v
 *           (exact), duration w_v within the tolerance (below), pass
 *           (forward or backward) and number of inputs;
 *   passes  the forward nodes and the backward nodes (g->backward; all
 *           nodes are one pass without it), each in the input order;
 *   periods each node's signature is its class and, for each input from its
 *           own pass, how many places back in the pass it is (an input from
 *           the other pass counts by its size alone); identical
 *           blocks laid out alike make the signatures periodic.  The
 *           distances between equal signatures give the candidate periods
 *           (the C most frequent); every maximal periodic stretch of at
 *           least two periods is a run of blocks, taken greedily by the
 *           nodes it covers;
 *   pairs   a backward block joins the forward block that most of its
 *           nodes' forward inputs come from (once per forward block);
 *   kinds   each block's canonical form -- per node in the input order its
 *           class and its inputs, as the block's local index or, outside
 *           the block, "outside" and the input's size (what it computes
 *           from matters, not who made it) -- hashed (64 bits);
 *           blocks with equal hashes are one kind.  Kinds of a single block
 *           are dropped.
 *
 * Durations: two nodes agree when floor(log w / log(1 + tol)) is equal
 * (tol 0: exactly equal w), so durations that agree are within a factor
 * 1 + tol of each other; two within that factor may still fall either
 * side of a bucket's edge. */
#ifndef REMAT_REPEAT_H
#define REMAT_REPEAT_H

#include <stdint.h>

#include "remat.h"

typedef struct repeat_params {
  double dur_tol; /* relative tolerance on durations, in [0, 1) (0.05) */
  int candidates; /* periods tried per pass (8) */
} repeat_params;

void repeat_params_init(repeat_params *p);

typedef struct repeat_out {
  int n;          /* the graph's nodes */
  int *block_of;  /* per node: its block, -1 for none */
  int nblocks;
  int *kind;      /* per block: its kind (0 .. nkinds-1, by first block) */
  int *size;      /* per block: its nodes */
  int *first;     /* per block: its lowest node (blocks in that order) */
  int nkinds;
  int *copies;    /* per kind: its blocks (at least 2) */
  uint64_t *hash; /* per kind: the canonical form's hash */
  int covered;    /* nodes in some block */
} repeat_out;

/* Find the repeated blocks of g.  Returns 0 (out filled, possibly with no
 * block); free out with repeat_out_free. */
int repeat_find(const remat_graph *g, const repeat_params *p, repeat_out *out);
void repeat_out_free(repeat_out *out);

#endif
