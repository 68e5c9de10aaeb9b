/* free_exact.h -- an exact search over every sequence of a small graph
 * (free order), for proofs: the least total duration of a schedule whose
 * peak fits M, computing each node at least once and at most copies[v]
 * times, or a proof that none fits.
 *
 * A state is how often each node was computed and which copies are kept
 * for a later reader; a move computes a node whose inputs are kept (its
 * duration; the step's memory, the kept copies plus its output, must fit)
 * or drops a kept copy (free; drops between two computations in
 * increasing node order, so that each set of drops is one path).  The
 * least duration to a state where every node was computed is found by
 * Dijkstra's algorithm with the durations of the nodes not yet computed as
 * an admissible estimate.  Keeping a copy past its last reader only costs
 * memory, so the optimum is the simulator's.  Graphs of at most
 * FREE_EXACT_MAXN nodes; the number of states is capped, beyond which the
 * search gives up. */
#ifndef REMAT_FREE_EXACT_H
#define REMAT_FREE_EXACT_H

#include <stddef.h>
#include <stdint.h>

#include "deadline.h"
#include "remat.h"

#define FREE_EXACT_MAXN 16

typedef enum free_exact_status {
  FREE_EXACT_OPTIMAL = 0, /* seq is an optimal schedule */
  FREE_EXACT_INFEASIBLE,  /* no schedule fits */
  FREE_EXACT_UNKNOWN      /* too large, too many states, out of time, stopped */
} free_exact_status;

typedef struct free_exact_params {
  int64_t budget;       /* M */
  const int *copies;    /* C_v per node (at most 7; NULL: 2) */
  size_t max_states;    /* give up beyond (2,000,000) */
  deadline deadline;    /* when to give up (DEADLINE_NONE) */
  volatile int *stop;   /* stop when nonzero, or NULL */
} free_exact_params;

void free_exact_params_init(free_exact_params *p);

/* Search.  On FREE_EXACT_OPTIMAL *seq (allocated) and *len hold an optimal
 * schedule; *states receives the number of states reached (may be NULL). */
free_exact_status free_exact_solve(const remat_graph *g, const free_exact_params *p,
                                   int **seq, int *len, size_t *states);

#endif
