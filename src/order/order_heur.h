/* order_heur.h -- heuristic orders without recomputation: a greedy (one
 * pass; each step looks at every available node and its predecessors) and
 * a beam search over the down-closed sets (the exact search's first upper
 * bound; level by level, it copies each kept set, so it is for graphs of
 * up to some 10^4 nodes). */
#ifndef REMAT_ORDER_HEUR_H
#define REMAT_ORDER_HEUR_H

#include <stdint.h>

#include "deadline.h"
#include "remat.h"

/* How a step is chosen among the available nodes (smallest first). */
typedef enum order_heur_rule {
  ORDER_HEUR_PEAK = 0, /* the path's peak after the step, then the change
                          of live memory, then m_v */
  ORDER_HEUR_FREE,     /* the change of live memory, then the peak */
} order_heur_rule;

/* Build an order into ord[0..n) with the rule; rng (nonzero state) breaks
 * ties at random, NULL by the lowest index.  Returns its peak. */
int64_t order_heur_greedy(const remat_graph *g, order_heur_rule rule,
                          uint64_t *rng, int *ord);

typedef struct order_heur_beam_params {
  int width;          /* states kept per level (64) */
  deadline deadline;  /* when to give up (DEADLINE_NONE) */
  volatile int *stop; /* give up when nonzero */
} order_heur_beam_params;

void order_heur_beam_params_init(order_heur_beam_params *p);

/* Beam search: level k holds up to width down-closed sets of k nodes,
 * ranked by the peak of the path to them, then by their live memory;
 * sets reached twice are kept once.  Writes the best order found into
 * ord and returns its peak, or -1 when it gave up. */
int64_t order_heur_beam(const remat_graph *g, const order_heur_beam_params *p,
                        int *ord);

#endif
