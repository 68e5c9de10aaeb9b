/* demand.h -- schedules by recomputation on demand: walk the input order,
 * evict values when the next computation would pass the budget, and
 * recompute an evicted value when a reader needs it (recursively, from
 * the values still held), as Dynamic Tensor Rematerialization (Kirisame
 * et al., ICLR 2021) does at run time; here the whole future is known.
 *
 * Stage t computes node t for the first time, after the values it needs
 * that are not held (its inputs, and theirs where those are not held
 * either), in increasing index order: the stage model's form
 * (docs/method.md), so that the schedule is a start for the searches on
 * the input order's stages.  A value is held from its computation until
 * nothing that is still to come can read it: no later stage, and no
 * evicted value that a later stage needs.  Before a computation that
 * would pass the budget, the held value of least
 *     (duration of computing it again, with its inputs not held) /
 *     (size * (distance to its next reader)^exponent)
 * is evicted, among the values that no computation left in the stage
 * reads, that C_v allows to compute again, and whose inputs are held or
 * can be computed again in turn.  A value of C_v = 1 is held while any
 * value computed from it may still be needed: the one way to keep those
 * values evictable.  The walk gets stuck (no schedule) where nothing can
 * be evicted; it never passes the budget: every step's memory is at most
 * what the walk holds, which it keeps within the budget.
 *
 * The greedy (heur.h) removes the peak's excess one move at a time and
 * can get stuck above a tight budget where this walk, which never goes
 * above it, finds a schedule; where both fit, the annealing from the
 * greedy's is usually shorter. */
#ifndef REMAT_DEMAND_H
#define REMAT_DEMAND_H

#include "deadline.h"
#include "remat.h"

typedef struct demand_params {
  int64_t budget;
  const int *copies;  /* C_v per node, first computation included (NULL or
                         0: any number; 1: never computed again) */
  double exponent;    /* of the distance to the next reader in the
                         eviction score, in [0, 4] (1) */
  int width;          /* demand_pilot: the candidates tried at each
                         eviction, in [1, 64] (16) */
  deadline deadline;  /* when to give up (demand_params_init: 1 s) */
  volatile int *stop; /* give up when nonzero (NULL: never) */
} demand_params;

void demand_params_init(demand_params *p);

/* The walk: a sequence on the input order's stages within p->budget
 * (allocated, *len steps), or NULL where it gets stuck, runs out of time
 * or is stopped. */
int *demand_schedule(const remat_graph *g, const demand_params *p, int *len);

/* The exponents demand_best tries. */
#define DEMAND_EXPONENTS {0.5, 1.0, 2.0}

/* demand_schedule with each of DEMAND_EXPONENTS (p->exponent ignored):
 * the shortest within the budget (allocated), or NULL. */
int *demand_best(const remat_graph *g, const demand_params *p, int *len);

/* The walk with a lookahead (the pilot method: Duin and Voss, 1999): for
 * each of DEMAND_EXPONENTS, eviction by eviction, each of the p->width
 * candidates of least score is tried by completing the walk from it as
 * demand_schedule would (a rollout), and the one whose rollout is the
 * shortest is taken; the next eviction is decided the same way after it.
 * Each rollout is a whole walk, O(steps * (n + edges)), and a schedule:
 * returns the shortest of demand_best's and every rollout's (allocated),
 * or NULL; at p->deadline, the shortest so far.  The walk's greedy
 * choice is the first candidate, so the lookahead is never longer than
 * demand_best's walk. */
int *demand_pilot(const remat_graph *g, const demand_params *p, int *len);

#endif
