/* cover_lp.h -- the covering bounds' problems in memory and their solve
 * with Clp and CBC (cover.c, cover_steps.c).
 *
 * A problem is a minimisation in compressed sparse columns whose integer
 * columns cost whole multiples of wq; its value is a lower bound on the
 * duration increase.  covlp_run solves the LP relaxation first (when
 * asked: on large problems CBC may not end) and then CBC in the time
 * left, and keeps the higher bound.  CBC runs without its preprocessing,
 * which has returned optima above the true ones on these problems
 * (bench/RESULTS.md, section 24). */
#ifndef REMAT_COVER_LP_H
#define REMAT_COVER_LP_H

#include <stdint.h>

#include "cover_types.h"

typedef struct covlp {
  int nrows, ncols;
  int *start, *index;  /* column j's rows index[start[j]..start[j+1]) */
  double *value, *collb, *colub, *obj, *rowlb, *rowub;
  char *integer;       /* per column */
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
 * infeasible, 0 optimal (its value in *value when not NULL), -1 no
 * answer. */
int covlp_relax(const covlp *L, double seconds, double *value);

/* Solve L within `limit` seconds, the LP relaxation first when lp_first
 * (its answer then goes to on_lp(ctx, ...) at once when on_lp is not
 * NULL: CBC may run past a caller's deadline), and only that when
 * lp_first is 2; fills o's status and
 * increase (o->status COVER_NONE: nothing usable, o->why then may say
 * why). */
void covlp_run(const covlp *L, double limit, int lp_first,
               void (*on_lp)(void *ctx, const cover_out *o), void *ctx, cover_out *o);

#endif
