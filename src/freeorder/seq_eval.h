/* seq_eval.h -- the evaluation of a sequence of node computations in free
 * order against a budget, in full or move by move, for the annealing over
 * sequences (seq_anneal.h).
 *
 * A copy computed at step p lives from p through its last reader (the last
 * step before the node's next copy that reads it); the memory at a step is
 * the sizes of the copies live there, its own output included, as in the
 * simulator (sim.h).  A move takes one step out and/or puts one node in.
 * Only the copies of the nodes it moves and of their predecessors change
 * their lives (a copy's life depends on where its node's copies and its
 * successors' copies are), so sqe_move finds those lives from each node's
 * copy positions (a per-node index of the sequence) and applies the
 * differences to the memory of the steps that stay: O(len) plain array
 * work plus the degrees of the nodes involved, instead of the full
 * evaluation's O(len + edges) scattered reads. */
#ifndef REMAT_SEQ_EVAL_H
#define REMAT_SEQ_EVAL_H

#include <stdint.h>

#include "remat.h"

/* A sequence and its evaluation. */
typedef struct sqe_ev {
  int *seq, len, cap;
  int *lastuse;  /* per step: the last step that reads its copy (itself if none) */
  int64_t *mem;  /* per step */
  int64_t dur, peak, excess; /* excess: the memory above the budget, summed over the steps */
  int over;      /* steps above the budget */
} sqe_ev;

typedef struct sqe {
  const remat_graph *g;
  const int *copies; /* C_v per node (NULL or 0: any) */
  int64_t M;
  int cap;           /* of the scratch arrays below */
  int *latest, *cnt, *stamp, *aff;
  int *tp, *tq, *tl, *pt, *pl;
  int64_t *delta;
  int stampv;
  /* The index of one sequence: node v's copies at the steps
   * ipos[ib[v] .. ib[v] + icnt[v]), ascending, room for icap[v]. */
  const sqe_ev *ix;  /* the sequence indexed (NULL: none) */
  int *ib, *icnt, *icap, *ipos, isize;
  /* The last move sqe_move evaluated and found valid (sqe_take). */
  const sqe_ev *mv_c, *mv_t;
  int mv_i, mv_at, mv_v;
} sqe;

void sqe_init(sqe *E, const remat_graph *g, const int *copies, int64_t M);
void sqe_free(sqe *E);
void sqe_ev_reserve(sqe_ev *e, int len);
void sqe_ev_free(sqe_ev *e);

/* Evaluate e->seq[0..e->len) in full: 0 when it reads a value with no live
 * copy, leaves a node out or computes one more than C_v times, else 1 with the numbers
 * filled in (E->cnt then holds the copies per node). */
int sqe_full(sqe *E, sqe_ev *e);

/* t := c without its step i (-1: none), with node v inserted before c's
 * step at (-1: none; c->len: at the end), evaluated: the same return and
 * numbers as sqe_full(t), which it equals.  c must have been evaluated
 * (sqe_full or sqe_move).  The index of c is built on c's first move. */
int sqe_move(sqe *E, const sqe_ev *c, sqe_ev *t, int i, int at, int v);

/* t, from the last valid sqe_move(c, t), takes c's place: the index
 * follows it, updated over the steps that moved. */
void sqe_take(sqe *E, const sqe_ev *c, const sqe_ev *t);

#endif
