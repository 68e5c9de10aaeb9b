/* cover_lp.h -- the covering bounds' problems in memory and their solve
 * with Clp and CBC (cover.c, cover_steps.c).
 *
 * A problem is a minimisation in compressed sparse columns whose integer
 * columns cost whole multiples of wq; its value is a lower bound on the
 * duration increase.  covlp_run solves the LP relaxation first (when
 * asked: on large problems CBC may not end) and then CBC in the time
 * left, and keeps the higher bound (or, asked to, proves bounds below
 * the best schedule's increase step by step).  Both solvers run through
 * lp_solver.h, which holds their workarounds (CBC's preprocessing off,
 * which has returned optima above the true ones on these problems). */
#ifndef REMAT_COVER_LP_H
#define REMAT_COVER_LP_H

#include <stdint.h>

#include "cover_types.h"
#include "lp.h"

typedef struct covlp {
  lp_model lp;         /* the problem (its objective: cost / wq) */
  int64_t *cost;       /* per column, in the graph's units (obj = cost / wq) */
  int64_t wq;          /* every cost's common divisor (1 when none) */
} covlp;

/* Allocate L for ncols columns, nrows rows and nnz entries (zeroed
 * bounds and costs). */
void covlp_alloc(covlp *L, int ncols, int nrows, long long nnz);
void covlp_free(covlp *L);

/* Set wq to the GCD of the costs and obj to cost / wq. */
void covlp_scale(covlp *L);

/* A bound from a relaxation's value v (in units of wq), rounded up
 * unless within tolerance of the integer below. */
int64_t covlp_round_up(const covlp *L, double v);

/* The LP relaxation with Clp within seconds (0: to the end): 1
 * infeasible, 0 optimal (its value in *value and its solution in x, L's
 * ncols entries, each when not NULL), -1 no answer. */
int covlp_relax(const covlp *L, double seconds, double *value, double *x);

/* How covlp_run goes about L. */
enum {
  COVLP_CBC = 0,      /* CBC alone */
  COVLP_LP_FIRST = 1, /* the LP relaxation, then CBC in the time left */
  COVLP_LP_ONLY = 2,  /* the LP relaxation alone */
  /* the LP relaxation, then, once a schedule fits (p->incumbent_now),
   * CBC proving bounds below it step by step: it seeks solutions below
   * a part of the way from the bound so far to the schedule's increase
   * (a quarter at first, less where the steps' time grows steeply,
   * more, up to half, where it does not);
   * when there are none, that is the bound and the next step starts
   * there; when there is one, the next steps stay below it.
   * CBC's own bound stays at its root's until its search ends, which
   * takes minutes where its incumbents come late
   * (bench/RESULTS.md#cover-cbc-steps) */
  COVLP_LP_PROVE = 3
};

/* The steps' shortest part of the way (COVLP_LP_PROVE): each step closes
 * at least 1/COVLP_MAX_PART of the gap, so their number stays within
 * what the solve keeps of a child's answers (best.h). */
#define COVLP_MAX_PART 64

/* Solve L within `limit` seconds as `how` says (the enum above; the
 * LP's answer, and each bound proven below the schedule, go to
 * p->plain_done at once when it is not NULL: CBC may run past a
 * caller's deadline); fills o's status and increase (o->status
 * COVER_NONE: nothing usable, o->why then may say why). */
void covlp_run(const covlp *L, double limit, int how, const cover_params *p, cover_out *o);

#endif
