/* cover_lp.c -- the covering bounds' problems solved with Clp and CBC
 * (cover_lp.h). */
#include "cover_lp.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "child.h"
#include "lp_solver.h"
#include "util.h"

void covlp_alloc(covlp *L, int ncols, int nrows, long long nnz) {
  memset(L, 0, sizeof *L);
  lp_alloc(&L->lp, ncols, nrows, nnz);
  L->cost = util_calloc((size_t)ncols + 1, sizeof *L->cost);
  L->wq = 1;
}

void covlp_free(covlp *L) {
  lp_free(&L->lp);
  free(L->cost);
  L->cost = NULL;
}

void covlp_scale(covlp *L) {
  L->wq = 0;
  for (int j = 0; j < L->lp.ncols; j++) L->wq = util_gcd(L->wq, L->cost[j]);
  if (L->wq == 0) L->wq = 1; /* every column's node takes no time */
  for (int j = 0; j < L->lp.ncols; j++) L->lp.obj[j] = (double)(L->cost[j] / L->wq);
}

int covlp_relax(const covlp *L, double seconds, double *value, double *x) {
  /* the dual simplex: every cost is at least 0 (Clp's own choice of
   * method took 6 times as long on the steps' problem:
   * bench/RESULTS.md#cover-steps-cutoff) */
  clp_result res;
  int st = clp_run(&L->lp, seconds, CLP_DUAL, x, &res);
  if (st == 0 && value) *value = res.obj;
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
  W->lp.rowlb = util_malloc(((size_t)L->lp.nrows + 1) * sizeof *W->lp.rowlb);
  W->lp.rowub = util_malloc(((size_t)L->lp.nrows + 1) * sizeof *W->lp.rowub);
  for (int i = 0; i < L->lp.nrows; i++) {
    double lo = L->lp.rowlb[i], hi = L->lp.rowub[i];
    W->lp.rowlb[i] = lo > -1e300 ? lo - COVLP_SLACK * (fabs(lo) > 1 ? fabs(lo) : 1) : lo;
    W->lp.rowub[i] = hi < 1e300 ? hi + COVLP_SLACK * (fabs(hi) > 1 ? fabs(hi) : 1) : hi;
  }
}

static void covlp_loose_free(covlp *W) { UTIL_FREE(W->lp.rowlb, W->lp.rowub); }

int64_t covlp_round_up(const covlp *L, double v) {
  double lb = ceil(v - 1e-6 * (fabs(v) > 1 ? fabs(v) : 1));
  return lb > 0 ? (int64_t)lb * L->wq : 0;
}

/* W: the looser problem (covlp_loose) with a last row, the objective,
 * with no upper bound yet (covlp_prove sets it); its arrays are W's own
 * except the columns' bounds, costs and kinds, which are L's. */
static void covlp_objective_row(const covlp *L, covlp *W) {
  covlp Q;
  covlp_loose(L, &Q);
  *W = Q;
  long long nnz = L->lp.start[L->lp.ncols];
  W->lp.nrows = L->lp.nrows + 1;
  W->lp.start = util_malloc(((size_t)L->lp.ncols + 1) * sizeof *W->lp.start);
  W->lp.index = util_malloc(((size_t)nnz + (size_t)L->lp.ncols + 1) * sizeof *W->lp.index);
  W->lp.value = util_malloc(((size_t)nnz + (size_t)L->lp.ncols + 1) * sizeof *W->lp.value);
  W->lp.rowlb = util_realloc(Q.lp.rowlb, ((size_t)W->lp.nrows + 1) * sizeof *W->lp.rowlb);
  W->lp.rowub = util_realloc(Q.lp.rowub, ((size_t)W->lp.nrows + 1) * sizeof *W->lp.rowub);
  int z = 0;
  for (int j = 0; j < L->lp.ncols; j++) {
    W->lp.start[j] = z;
    for (int e = L->lp.start[j]; e < L->lp.start[j + 1]; e++) {
      W->lp.index[z] = L->lp.index[e];
      W->lp.value[z++] = L->lp.value[e];
    }
    if (L->lp.obj[j] != 0) {
      W->lp.index[z] = L->lp.nrows;
      W->lp.value[z++] = L->lp.obj[j];
    }
  }
  W->lp.start[L->lp.ncols] = z;
  W->lp.nnz = z;
  W->lp.rowlb[L->lp.nrows] = -DBL_MAX;
  W->lp.rowub[L->lp.nrows] = DBL_MAX;
}

static void covlp_objective_row_free(covlp *W) {
  UTIL_FREE(W->lp.start, W->lp.index, W->lp.value, W->lp.rowlb, W->lp.rowub);
}

/* The duration increase of CBC's solution x of L (its integer columns:
 * the others cost nothing). */
static int64_t covlp_value(const covlp *L, const double *x) {
  int64_t inc = 0;
  for (int j = 0; j < L->lp.ncols; j++)
    if (L->lp.integer[j] && x[j] > 0.5) inc += L->cost[j] * (int64_t)llround(x[j]);
  return inc;
}

/* Solve L with CBC within limit seconds; fills o.  With `confirm`, a
 * proof that nothing fits must hold for the looser problem too.  With
 * below > 0 (whole units), L's last row is the objective, at most
 * below - 0.5 (covlp_prove): when nothing meets it, o is that bound
 * (lp 2); CBC stops at its first solution, whose increase goes to
 * *found (-1: none). */
static void covlp_cbc(const covlp *L, double limit, int confirm, int64_t below, int64_t *found,
                      cover_out *o) {
  cbc_limits lim;
  cbc_limits_init(&lim);
  lim.seconds = limit;
  lim.allowable_gap = 0.5; /* whole units: 0.5 proves */
  if (below > 0) {
    /* heuristics, cuts and strong branching off, rows scaled and columns
     * not: the search ends faster where there is no solution, and each
     * node's LP takes far fewer and cheaper dual iterations than with
     * CBC's default scaling (the rows are divided by their stage's excess
     * already; bench/RESULTS.md#cover-cbc-steps) */
    lim.heuristics_off = 1;
    lim.bare_tree = 1;
    lim.max_solutions = 1;
    /* a cutoff too: CBC then fixes columns by their reduced costs (at
     * its root, where it may restart the search on what is left, and in
     * its tree); half a unit above the row, so a node whose LP is within
     * a unit of it (CBC may take the objective as whole) is never cut
     * off by the cutoff, only by the row */
    lim.cutoff = (double)below + 0.5;
    *found = -1;
  }
  double t0 = util_now();
  double *x = util_malloc(((size_t)L->lp.ncols + 1) * sizeof *x);
  cbc_result r;
  int have = cbc_run(&L->lp, &lim, NULL, x, &r);
  int in_time = r.in_time;
  limit = r.seconds;
  if (below > 0 && r.infeasible) {
    if (in_time) {
      o->status = COVER_BOUND;
      o->lp = 2;
      o->increase = below * L->wq;
    }
    free(x);
    return;
  }
  /* CBC's bound at a limit is one with the row: for L only with it */
  if (below > 0 && !r.optimal) {
    if (have) *found = covlp_value(L, x);
    free(x);
    return;
  }
  if (r.infeasible) {
    /* the proof stands when the LP relaxation is infeasible too (Clp to
     * the end), or when CBC ended in time with the relaxation feasible
     * (the integers then are what does not fit): lp_solver.h; with
     * `confirm`, of the looser problem (COVLP_SLACK), CBC's included */
    free(x);
    covlp W;
    if (confirm) covlp_loose(L, &W);
    int lp = covlp_relax(confirm ? &W : L, 0, NULL, NULL), sure = lp == 1;
    double left = limit - (util_now() - t0);
    if (!sure && lp == 0 && in_time) {
      sure = !confirm;
      if (confirm && left > 0.01) {
        cover_out w = {.status = COVER_NONE};
        covlp_cbc(&W, left, 0, 0, NULL, &w);
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
  double bp = r.best_possible;
  if (!in_time && r.status == 0) { /* "finished" at the limit: no bound */
    snprintf(o->why, sizeof o->why, "CBC ended the covering problem at its time limit "
             "as if finished: no bound taken");
    free(x);
    return;
  }
  if (!isfinite(bp) || bp <= -1e300) {
    free(x);
    return; /* cover_solve says why */
  }
  o->status = COVER_BOUND;
  o->increase = covlp_round_up(L, bp);
  if (r.optimal && have) {
    int64_t inc = covlp_value(L, x);
    if ((double)(inc / L->wq) - bp <= 0.5 + 1e-9 * fabs(bp)) {
      o->status = COVER_OPTIMAL;
      o->increase = inc;
    }
  }
  free(x);
}

/* The steps between o's bound and the best schedule's increase
 * (COVLP_LP_PROVE): CBC seeks a solution below a quarter of the way;
 * when there is none, that is the bound and the next step goes a
 * part of what is left: a quarter at first, half as much after a step
 * that took more than twice the one before, twice as much (half at
 * most) after one that took about as long (CBC's time grows steeply as
 * the step nears the problem's optimum: a step it does not end gives
 * nothing); when there is one, the steps go on below it.  Each proof
 * goes to p->plain_done at once.  Claims rest on the looser problem
 * (covlp_loose), a relaxation of L.  Returns 0 when no schedule fits
 * yet (the caller's CBC then works on L), 1 when the steps took the
 * time. */
static int covlp_prove(const covlp *L, double limit, const cover_params *p, cover_out *o) {
  double t0 = util_now();
  int64_t inc = p->incumbent_now(p->ctx);
  if (inc < 0) return 0;
  covlp W;
  covlp_objective_row(L, &W);
  int64_t top = inc / L->wq; /* whole units: no optimum above it */
  int64_t part = 4;  /* each step goes 1/part of the way */
  double last = 0;   /* the last proven step's seconds */
  for (;;) {
    double left = limit - (util_now() - t0);
    int64_t lo = o->increase / L->wq;
    if (inc / L->wq < top) top = inc / L->wq;
    if (top <= lo || left <= 0.01 || child_stopping()) break;
    cover_out x = *o;
    x.status = COVER_NONE;
    x.lp = 0;
    int64_t below = lo + (top - lo + part - 1) / part, found;
    /* half a unit of slack: a solution of value below - 1 meets it by far */
    W.lp.rowub[L->lp.nrows] = (double)below - 0.5;
    double ts = util_now();
    covlp_cbc(&W, left, 0, below, &found, &x);
    if (x.status == COVER_BOUND && x.lp == 2) {
      /* a step that took more than twice the one before: the optimum is
       * near, where a step above it must wait for CBC to find a solution;
       * shorter steps from here.  One that took at most half as long
       * again: longer ones (where the schedule is the optimum, its proof
       * comes in fewer steps) */
      double took = util_now() - ts;
      if (last > 0 && took > 2 * last && part < COVLP_MAX_PART) part *= 2;
      else if (last > 0 && took <= 1.5 * last && part > 2) part /= 2;
      last = took;
      *o = x;
      if (p->plain_done) p->plain_done(p->ctx, o);
    } else if (x.status == COVER_OPTIMAL || x.status == COVER_BOUND) {
      if (x.increase > o->increase) *o = x; /* CBC's optimum: the end */
      break;
    } else if (found >= 0) {
      top = found / L->wq; /* a solution below: the next steps stay under it */
    } else {
      break; /* out of time */
    }
    inc = p->incumbent_now(p->ctx);
  }
  covlp_objective_row_free(&W);
  return 1;
}

void covlp_run(const covlp *L, double limit, int how, const cover_params *p, cover_out *o) {
  if (how != COVLP_CBC) {
    double t0 = util_now(), v;
    int lp = covlp_relax(L, limit > 0.01 ? limit : 0.01, &v, NULL);
    if (lp == 1) { /* a proof only when the looser problem agrees */
      covlp W;
      covlp_loose(L, &W);
      double left = limit - (util_now() - t0);
      lp = covlp_relax(&W, left > 0.01 ? left : 0.01, &v, NULL);
      covlp_loose_free(&W);
      if (lp == 1) o->status = COVER_INFEASIBLE;
    }
    if (lp == 0) {
      o->status = COVER_BOUND;
      o->increase = covlp_round_up(L, v);
      o->lp = 1;
    }
    if (lp >= 0 && p->plain_done) p->plain_done(p->ctx, o);
    limit -= util_now() - t0;
    if (lp == 1 || limit <= 0.01 || how == COVLP_LP_ONLY) return;
    if (lp == 0 && how == COVLP_LP_PROVE && p->incumbent_now && covlp_prove(L, limit, p, o))
      return;
  }
  cover_out x = *o;
  x.status = COVER_NONE;
  x.lp = 0;
  covlp_cbc(L, limit, 1, 0, NULL, &x);
  if (o->status == COVER_NONE || x.status == COVER_INFEASIBLE || x.status == COVER_OPTIMAL ||
      (x.status == COVER_BOUND && x.increase > o->increase))
    *o = x;
}
