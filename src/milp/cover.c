/* cover.c -- the covering bound (cover.h) with CBC. */
#include "cover.h"

#include <Cbc_C_Interface.h>
#include <Clp_C_Interface.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "solver_end.h"
#include "util.h"

void cover_params_init(cover_params *p) {
  memset(p, 0, sizeof *p);
  p->time_limit = 10;
}

const char *cover_status_name(cover_status s) {
  switch (s) {
  case COVER_OPTIMAL:
    return "optimal";
  case COVER_BOUND:
    return "out of time";
  case COVER_INFEASIBLE:
    return "infeasible";
  default:
    return "none";
  }
}

/* The problem: gaps (columns) and overloaded stages (rows). */
typedef struct cv {
  const remat_graph *g;
  const cover_params *p;
  int n;
  int64_t *load;  /* L_k of the input order */
  int *row;       /* row of stage k, or -1 when L_k <= M */
  int nrows;      /* overloaded stages */
  int *before;    /* before[k]: overloaded stages among 0..k-1 */
  int *cu, *ca, *cb; /* gap j: node cu, stages ca..cb */
  int ncols, cap;
  int64_t wq;     /* GCD of the gaps' nodes' durations */
} cv;

static void cv_free(cv *C) {
  free(C->load);
  free(C->row);
  free(C->before);
  free(C->cu);
  free(C->ca);
  free(C->cb);
}

/* L_k: the input order's memory at its step k (the simulator's: m_k plus
 * every u < k with a reader at k or later). */
static void cv_loads(cv *C) {
  int *topo = sim_topo_sequence(C->g);
  C->load = util_malloc((size_t)C->n * sizeof *C->load);
  remat_sim sim;
  remat_simulate(C->g, topo, C->n, &sim, C->load); /* valid: a topological order */
  free(topo);
}

static int cv_copies(const cv *C, int u) {
  const int *c = C->p->copies;
  return c && c[u] > 0 ? c[u] : 0; /* 0: any */
}

/* The number of overloaded stages in a..b. */
static int cv_hits(const cv *C, int a, int b) { return C->before[b + 1] - C->before[a]; }

static void cv_add(cv *C, int u, int a, int b) {
  if (C->ncols == C->cap) {
    C->cap = C->cap ? 2 * C->cap : 1024;
    C->cu = util_realloc(C->cu, (size_t)C->cap * sizeof *C->cu);
    C->ca = util_realloc(C->ca, (size_t)C->cap * sizeof *C->ca);
    C->cb = util_realloc(C->cb, (size_t)C->cap * sizeof *C->cb);
  }
  C->cu[C->ncols] = u;
  C->ca[C->ncols] = a;
  C->cb[C->ncols] = b;
  C->ncols++;
}

/* The gaps between u's needed points (u, then its readers ascending) that
 * contain an overloaded stage; none for a node computed only once. */
static void cv_gaps(cv *C) {
  const remat_graph *g = C->g;
  for (int u = 0; u < C->n; u++) {
    if (cv_copies(C, u) == 1) continue;
    int prev = u;
    for (int j = g->succ_off[u]; j < g->succ_off[u + 1]; j++) {
      int c = g->succ[j];
      if (c - prev >= 2 && cv_hits(C, prev + 1, c - 1)) cv_add(C, u, prev + 1, c - 1);
      prev = c;
    }
  }
}

/* Can every overloaded stage be relieved at all, dropping every gap
 * around it?  (Else the problem is infeasible without CBC.) */
static int cv_coverable(const cv *C, int64_t M) {
  /* the sizes of the gaps around each stage, as differences (in doubles:
   * sums of 64-bit sizes; only compared with the excess) */
  double *diff = util_calloc((size_t)C->n + 1, sizeof *diff);
  for (int j = 0; j < C->ncols; j++) {
    diff[C->ca[j]] += (double)C->g->m[C->cu[j]];
    diff[C->cb[j] + 1] -= (double)C->g->m[C->cu[j]];
  }
  int ok = 1;
  double room = 0;
  for (int k = 0; k < C->n && ok; k++) {
    room += diff[k];
    if (C->row[k] >= 0 && room < (double)(C->load[k] - M) * (1 - 1e-9)) ok = 0;
  }
  free(diff);
  return ok;
}

/* The problem in compressed sparse columns.  Row k is scaled by its
 * excess R = L_k - M: coefficients min(m_u / R, 1), right-hand side
 * 1 - 0.5 / R, the same set of binary solutions (sizes and R are whole
 * bytes) and a slightly weaker LP: tolerances can only lower the bound.
 * Then one row per node with more gaps than recomputations allowed. */
typedef struct cv_lp {
  int nrows, ncols;
  int *start, *index;
  double *value, *collb, *colub, *obj, *rowlb, *rowub;
} cv_lp;

static void cv_lp_free(cv_lp *L) {
  free(L->start);
  free(L->index);
  free(L->value);
  free(L->collb);
  free(L->colub);
  free(L->obj);
  free(L->rowlb);
  free(L->rowub);
}

static void cv_build(const cv *C, cv_lp *L, long long nnz) {
  const remat_graph *g = C->g;
  int64_t M = C->p->budget;
  int *urow = util_malloc((size_t)C->n * sizeof *urow);
  int *ngap = util_calloc((size_t)C->n, sizeof *ngap);
  for (int j = 0; j < C->ncols; j++) ngap[C->cu[j]]++;
  L->nrows = C->nrows;
  for (int u = 0; u < C->n; u++) {
    int c = cv_copies(C, u);
    urow[u] = c > 0 && ngap[u] > c - 1 ? L->nrows++ : -1;
  }
  L->ncols = C->ncols;
  L->start = util_malloc(((size_t)C->ncols + 1) * sizeof *L->start);
  L->index = util_malloc((size_t)(nnz ? nnz : 1) * sizeof *L->index);
  L->value = util_malloc((size_t)(nnz ? nnz : 1) * sizeof *L->value);
  L->collb = util_calloc((size_t)C->ncols + 1, sizeof *L->collb);
  L->colub = util_malloc(((size_t)C->ncols + 1) * sizeof *L->colub);
  L->obj = util_malloc(((size_t)C->ncols + 1) * sizeof *L->obj);
  L->rowlb = util_malloc(((size_t)L->nrows + 1) * sizeof *L->rowlb);
  L->rowub = util_malloc(((size_t)L->nrows + 1) * sizeof *L->rowub);
  long long z = 0;
  for (int j = 0; j < C->ncols; j++) {
    int u = C->cu[j];
    L->start[j] = (int)z;
    for (int k = C->ca[j]; k <= C->cb[j]; k++) {
      if (C->row[k] < 0) continue;
      double R = (double)(C->load[k] - M), a = (double)g->m[u] / R;
      L->index[z] = C->row[k];
      L->value[z++] = a < 1 ? a : 1;
    }
    if (urow[u] >= 0) {
      L->index[z] = urow[u];
      L->value[z++] = 1;
    }
    L->colub[j] = 1;
    L->obj[j] = (double)(g->w[u] / C->wq);
  }
  L->start[C->ncols] = (int)z;
  for (int k = 0; k < C->n; k++)
    if (C->row[k] >= 0) {
      L->rowlb[C->row[k]] = 1.0 - 0.5 / (double)(C->load[k] - M);
      L->rowub[C->row[k]] = DBL_MAX;
    }
  for (int u = 0; u < C->n; u++)
    if (urow[u] >= 0) {
      L->rowlb[urow[u]] = -DBL_MAX;
      L->rowub[urow[u]] = cv_copies(C, u) - 1;
    }
  free(urow);
  free(ngap);
}

static long long cv_nnz(const cv *C) {
  long long z = 0;
  for (int j = 0; j < C->ncols; j++) z += cv_hits(C, C->ca[j], C->cb[j]) + 1; /* + node row */
  return z;
}

/* Is L's LP relaxation infeasible?  Clp to the end (no time limit: the
 * covering LP is small; the solve's covering bound runs in a child with a
 * deadline).  1 infeasible, 0 feasible, -1 no answer. */
static int cv_lp_infeasible(const cv_lp *L) {
  Clp_Simplex *lp = Clp_newModel();
  Clp_setLogLevel(lp, 0);
  Clp_loadProblem(lp, L->ncols, L->nrows, L->start, L->index, L->value, L->collb, L->colub,
                  L->obj, L->rowlb, L->rowub);
  Clp_initialSolve(lp);
  int st = Clp_status(lp);
  Clp_deleteModel(lp);
  return st == 1 ? 1 : st == 0 ? 0 : -1;
}

/* Solve L with CBC; fills o. */
static void cv_cbc(const cv *C, const cv_lp *L, cover_out *o) {
  Cbc_Model *m = Cbc_newModel();
  Cbc_loadProblem(m, L->ncols, L->nrows, L->start, L->index, L->value, L->collb,
                  L->colub, L->obj, L->rowlb, L->rowub);
  for (int j = 0; j < L->ncols; j++) Cbc_setInteger(m, j);
  char sec[32];
  snprintf(sec, sizeof sec, "%.3f", C->p->time_limit > 0.01 ? C->p->time_limit : 0.01);
  Cbc_setParameter(m, "sec", sec);
  Cbc_setParameter(m, "timeMode", "elapsed");
  Cbc_setParameter(m, "log", "0");
  Cbc_setParameter(m, "allowableGap", "0.5"); /* whole units: 0.5 proves */
  Cbc_setParameter(m, "ratioGap", "0");
  double t0 = util_now(), limit = atof(sec);
  Cbc_solve(m);
  int in_time = solver_end_in_time(util_now() - t0, limit);
  const double *x = Cbc_bestSolution(m);
  if (Cbc_isProvenInfeasible(m)) {
    /* the proof stands when the LP relaxation is infeasible too (Clp to
     * the end), or when CBC ended in time with the relaxation feasible
     * (the integers then are what does not fit): solver_end.h */
    int lp = cv_lp_infeasible(L);
    if (lp == 1 || (lp == 0 && in_time))
      o->status = COVER_INFEASIBLE;
    else
      snprintf(o->why, sizeof o->why,
               "CBC called the covering problem infeasible at its time limit: not "
               "taken as a proof");
    Cbc_deleteModel(m);
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
  double lb = ceil(bp - 1e-6 * (fabs(bp) > 1 ? fabs(bp) : 1));
  o->status = COVER_BOUND;
  o->increase = lb > 0 ? (int64_t)lb * C->wq : 0;
  if (Cbc_isProvenOptimal(m) && x) {
    int64_t inc = 0;
    for (int j = 0; j < L->ncols; j++)
      if (x[j] > 0.5) inc += C->g->w[C->cu[j]];
    if ((double)(inc / C->wq) - bp <= 0.5 + 1e-9 * fabs(bp)) {
      o->status = COVER_OPTIMAL;
      o->increase = inc;
    }
  }
  Cbc_deleteModel(m);
}

cover_status cover_solve(const remat_graph *g, const cover_params *p, cover_out *o) {
  double t0 = util_now();
  memset(o, 0, sizeof *o);
  o->status = COVER_NONE;
  cv C;
  memset(&C, 0, sizeof C);
  C.g = g;
  C.p = p;
  C.n = g->n;
  cv_loads(&C);
  C.row = util_malloc((size_t)C.n * sizeof *C.row);
  C.before = util_malloc(((size_t)C.n + 1) * sizeof *C.before);
  C.before[0] = 0;
  for (int k = 0; k < C.n; k++) {
    C.row[k] = C.load[k] > p->budget ? C.nrows++ : -1;
    C.before[k + 1] = C.nrows;
  }
  if (C.nrows == 0) { /* the input order fits */
    o->status = COVER_OPTIMAL;
    goto done;
  }
  if (remat_graph_max_duration(g) < 0) {
    snprintf(o->why, sizeof o->why, "durations too large: sums of them could pass 64 bits");
    goto done;
  }
  cv_gaps(&C);
  o->cols = C.ncols;
  o->rows = C.nrows;
  if (!cv_coverable(&C, p->budget)) {
    o->status = COVER_INFEASIBLE;
    goto done;
  }
  o->nnz = cv_nnz(&C);
  if (o->nnz > COVER_MAX_NONZEROS) {
    snprintf(o->why, sizeof o->why, "covering problem with %lld nonzeros, above %lld",
             o->nnz, COVER_MAX_NONZEROS);
    goto done;
  }
  for (int j = 0; j < C.ncols; j++) C.wq = util_gcd(C.wq, g->w[C.cu[j]]);
  if (C.wq == 0) C.wq = 1; /* every gap's node takes no time */
  cv_lp L;
  cv_build(&C, &L, o->nnz);
  cv_cbc(&C, &L, o);
  if (o->status == COVER_NONE && !o->why[0])
    snprintf(o->why, sizeof o->why, "CBC gave no bound in %.2fs", util_now() - t0);
  cv_lp_free(&L);
done:
  cv_free(&C);
  return o->status;
}
