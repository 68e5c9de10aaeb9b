/* local.h -- simulated annealing on stage-axis schedules (sched.h).
 *
 * The state is the set of recomputations; the objective is the duration
 * plus lambda times the memory excess (the sum over steps of the memory
 * above the budget), lambda adapting so that the search keeps returning to
 * feasible schedules.  Moves: recompute a value live across an overloaded
 * (or near-peak) step just before its next reader (with the inputs it
 * needs), drop a recomputation, shift one to another stage, or replace one
 * by another.  Every move is evaluated by the exact simulator. */
#ifndef REMAT_LOCAL_H
#define REMAT_LOCAL_H

#include "heur.h"

typedef struct ls_params {
  int64_t budget;
  const int *copies;       /* C_v limits, NULL: none */
  double time_limit;       /* seconds */
  volatile int *stop;
  unsigned seed;
  const int *start;        /* start schedule (stage-structured), or NULL */
  int start_len;
  heur_fn found;           /* each new best (within budget: shorter; else lower peak) */
  void *ctx;
  /* optional: a better schedule published by someone else (portfolio);
   * polled now and then, NULL if unused */
  int (*poll)(void *ctx, int **seq, int *len);
} ls_params;

void ls_params_init(ls_params *p);

/* Run until the time limit; returns the number of improvements reported. */
int ls_run(const remat_graph *g, const ls_params *p);

#endif
