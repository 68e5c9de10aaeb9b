/* cover_lp.c -- the covering bounds' problems solved with Clp and CBC
 * (cover_lp.h). */
#include "cover_lp.h"

#include <Cbc_C_Interface.h>
#include <Clp_C_Interface.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver_end.h"
#include "util.h"

void covlp_alloc(covlp *L, int ncols, int nrows, long long nnz) {
  memset(L, 0, sizeof *L);
  L->ncols = ncols;
  L->nrows = nrows;
  size_t c = (size_t)ncols + 1, r = (size_t)nrows + 1, z = (size_t)(nnz > 0 ? nnz : 1);
  L->start = util_calloc(c, sizeof *L->start);
  L->index = util_malloc(z * sizeof *L->index);
  L->value = util_malloc(z * sizeof *L->value);
  L->collb = util_calloc(c, sizeof *L->collb);
  L->colub = util_calloc(c, sizeof *L->colub);
  L->obj = util_calloc(c, sizeof *L->obj);
  L->integer = util_calloc(c, sizeof *L->integer);
  L->cost = util_calloc(c, sizeof *L->cost);
  L->rowlb = util_calloc(r, sizeof *L->rowlb);
  L->rowub = util_calloc(r, sizeof *L->rowub);
  L->wq = 1;
}

void covlp_free(covlp *L) {
  UTIL_FREE(L->start, L->index, L->value, L->collb, L->colub, L->obj, L->integer, L->cost,
            L->rowlb, L->rowub);
}

void covlp_scale(covlp *L) {
  L->wq = 0;
  for (int j = 0; j < L->ncols; j++) L->wq = util_gcd(L->wq, L->cost[j]);
  if (L->wq == 0) L->wq = 1; /* every column's node takes no time */
  for (int j = 0; j < L->ncols; j++) L->obj[j] = (double)(L->cost[j] / L->wq);
}

int covlp_relax(const covlp *L, double seconds, double *value) {
  Clp_Simplex *lp = Clp_newModel();
  Clp_setLogLevel(lp, 0);
  if (seconds > 0) Clp_setMaximumSeconds(lp, seconds);
  Clp_loadProblem(lp, L->ncols, L->nrows, L->start, L->index, L->value, L->collb, L->colub,
                  L->obj, L->rowlb, L->rowub);
  Clp_initialSolve(lp);
  int st = Clp_status(lp);
  if (st == 0 && value) *value = Clp_objectiveValue(lp);
  Clp_deleteModel(lp);
  return st == 1 ? 1 : st == 0 ? 0 : -1;
}

/* A proof that nothing fits is taken only when the problem stays
 * infeasible with every finite row bound moved outwards by COVLP_SLACK
 * of its size (at least COVLP_SLACK): Clp has called a feasible problem
 * infeasible where a row's slack (10^-12, half a byte over an excess near
 * 10^12) lay far below its tolerances, so a claim never rests on them.
 * The looser problem is a relaxation of L: its value is a bound too. */
#define COVLP_SLACK 1e-6

static void covlp_loose(const covlp *L, covlp *W) {
  *W = *L;
  W->rowlb = util_malloc(((size_t)L->nrows + 1) * sizeof *W->rowlb);
  W->rowub = util_malloc(((size_t)L->nrows + 1) * sizeof *W->rowub);
  for (int i = 0; i < L->nrows; i++) {
    double lo = L->rowlb[i], hi = L->rowub[i];
    W->rowlb[i] = lo > -1e300 ? lo - COVLP_SLACK * (fabs(lo) > 1 ? fabs(lo) : 1) : lo;
    W->rowub[i] = hi < 1e300 ? hi + COVLP_SLACK * (fabs(hi) > 1 ? fabs(hi) : 1) : hi;
  }
}

static void covlp_loose_free(covlp *W) { UTIL_FREE(W->rowlb, W->rowub); }

int64_t covlp_round_up(const covlp *L, double v) {
  double lb = ceil(v - 1e-6 * (fabs(v) > 1 ? fabs(v) : 1));
  return lb > 0 ? (int64_t)lb * L->wq : 0;
}

/* Solve L with CBC within limit seconds; fills o.  With `confirm`, a
 * proof that nothing fits must hold for the looser problem too. */
static void covlp_cbc(const covlp *L, double limit, int confirm, cover_out *o) {
  Cbc_Model *m = Cbc_newModel();
  Cbc_loadProblem(m, L->ncols, L->nrows, L->start, L->index, L->value, L->collb,
                  L->colub, L->obj, L->rowlb, L->rowub);
  for (int j = 0; j < L->ncols; j++)
    if (L->integer[j]) Cbc_setInteger(m, j);
  Cbc_setParameter(m, "preprocess", "off"); /* wrong optima with it: cover_lp.h */
  char sec[32];
  snprintf(sec, sizeof sec, "%.3f", limit > 0.01 ? limit : 0.01);
  Cbc_setParameter(m, "sec", sec);
  Cbc_setParameter(m, "timeMode", "elapsed");
  Cbc_setParameter(m, "log", "0");
  Cbc_setParameter(m, "allowableGap", "0.5"); /* whole units: 0.5 proves */
  Cbc_setParameter(m, "ratioGap", "0");
  double t0 = util_now();
  limit = atof(sec);
  Cbc_solve(m);
  int in_time = solver_end_in_time(util_now() - t0, limit, 1);
  const double *x = Cbc_bestSolution(m);
  if (Cbc_isProvenInfeasible(m)) {
    /* the proof stands when the LP relaxation is infeasible too (Clp to
     * the end), or when CBC ended in time with the relaxation feasible
     * (the integers then are what does not fit): solver_end.h; with
     * `confirm`, of the looser problem (COVLP_SLACK), CBC's included */
    Cbc_deleteModel(m);
    covlp W;
    if (confirm) covlp_loose(L, &W);
    int lp = covlp_relax(confirm ? &W : L, 0, NULL), sure = lp == 1;
    double left = limit - (util_now() - t0);
    if (!sure && lp == 0 && in_time) {
      sure = !confirm;
      if (confirm && left > 0.01) {
        cover_out w = {.status = COVER_NONE};
        covlp_cbc(&W, left, 0, &w);
        sure = w.status == COVER_INFEASIBLE;
      }
    }
    if (confirm) covlp_loose_free(&W);
    if (sure)
      o->status = COVER_INFEASIBLE;
    else
      snprintf(o->why, sizeof o->why, "%s",
               in_time ? "CBC's infeasible covering problem is not robust: not taken as a proof"
                       : "CBC called the covering problem infeasible at its time limit: not "
                         "taken as a proof");
    return;
  }
  /* CBC's bound, in whole units of wq; an optimum proven within half a
   * unit of it is the exact value of the solution found */
  double bp = Cbc_getBestPossibleObjValue(m);
  if (!in_time && Cbc_status(m) == 0) { /* "finished" at the limit: no bound */
    snprintf(o->why, sizeof o->why, "CBC ended the covering problem at its time limit "
             "as if finished: no bound taken");
    Cbc_deleteModel(m);
    return;
  }
  if (!isfinite(bp) || bp <= -1e300) {
    Cbc_deleteModel(m);
    return; /* cover_solve says why */
  }
  o->status = COVER_BOUND;
  o->increase = covlp_round_up(L, bp);
  if (Cbc_isProvenOptimal(m) && x) {
    int64_t inc = 0;
    for (int j = 0; j < L->ncols; j++)
      if (L->integer[j] && x[j] > 0.5) inc += L->cost[j] * (int64_t)llround(x[j]);
    if ((double)(inc / L->wq) - bp <= 0.5 + 1e-9 * fabs(bp)) {
      o->status = COVER_OPTIMAL;
      o->increase = inc;
    }
  }
  Cbc_deleteModel(m);
}

void covlp_run(const covlp *L, double limit, int lp_first,
               void (*on_lp)(void *ctx, const cover_out *o), void *ctx, cover_out *o) {
  if (lp_first) {
    double t0 = util_now(), v;
    int lp = covlp_relax(L, limit > 0.01 ? limit : 0.01, &v);
    if (lp == 1) { /* a proof only when the looser problem agrees */
      covlp W;
      covlp_loose(L, &W);
      double left = limit - (util_now() - t0);
      lp = covlp_relax(&W, left > 0.01 ? left : 0.01, &v);
      covlp_loose_free(&W);
      if (lp == 1) o->status = COVER_INFEASIBLE;
    }
    if (lp == 0) {
      o->status = COVER_BOUND;
      o->increase = covlp_round_up(L, v);
      o->lp = 1;
    }
    if (lp >= 0 && on_lp) on_lp(ctx, o);
    limit -= util_now() - t0;
    if (lp == 1 || limit <= 0.01 || lp_first == 2) return;
  }
  cover_out x = *o;
  x.status = COVER_NONE;
  x.lp = 0;
  covlp_cbc(L, limit, 1, &x);
  if (o->status == COVER_NONE || x.status == COVER_INFEASIBLE || x.status == COVER_OPTIMAL ||
      (x.status == COVER_BOUND && x.increase > o->increase))
    *o = x;
}
