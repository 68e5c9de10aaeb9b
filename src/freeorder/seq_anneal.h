/* seq_anneal.h -- simulated annealing over sequences in free order: the
 * order and the recomputations searched together.
 *
 * A schedule here is any sequence of node computations; a move takes one
 * computation out and/or puts one in, evaluated incrementally
 * (seq_eval.h: O(len) array work plus the degrees of the nodes involved):
 *
 *   shift   one computation moves a few places earlier or later (a first
 *           computation moves the node in the order, which the stage
 *           axis cannot do);
 *   drop    one of the copies of a node computed more than once goes;
 *   replace an add and a drop (of another node) at once;
 *   add     a value live across an overloaded step and not read before
 *           it is computed later instead, just before its first reader
 *           (or somewhere between); one read before it is computed again
 *           just before its first reader after the step (or somewhere
 *           between), so that the copy before can die earlier;
 *   swap    two neighbouring computations trade places.
 * A sequence that reads a value with no live copy, or computes a node more
 * than C_v times, is rejected.  The cost is duration + lambda * excess
 * (the memory above the budget summed over the steps until something
 * fits, how far the peak is above it from then on: anneal.h), lambda rising
 * while the search is over budget and falling while it fits, as in
 * anneal.h; cooling runs in cycles, each from the best schedule.  Meant
 * for graphs of a few thousand nodes at most, from a schedule that fits
 * or nearly (the stage-axis searches' best). */
#ifndef REMAT_SEQ_ANNEAL_H
#define REMAT_SEQ_ANNEAL_H

#include "deadline.h"
#include "remat.h"
#include "worker.h"

typedef struct sqa_params {
  int64_t budget;
  const int *copies;   /* C_v per node (NULL or 0: any) */
  deadline deadline;   /* when to stop (1 s from sqa_params_init) */
  long long max_moves; /* stop after this many moves (0: no limit) */
  const char *name;    /* its reports' name ("sequence") */
  /* report: each new best, within budget and shorter, or (while nothing
   * fits) a lower peak ("sequence"); poll: moves there when it is better;
   * tick: the moves made; stop, halt, seed */
  worker_io io;
} sqa_params;

void sqa_params_init(sqa_params *p);

/* Anneal from seq[0..len) (a valid schedule within the copy limits; the
 * input order when NULL) until the time limit, a stop, a halt or
 * max_moves.  Returns the number of moves made. */
long long sqa_run(const remat_graph *g, const int *seq, int len, const sqa_params *p);

#endif
