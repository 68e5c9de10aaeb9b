/* cover.c -- the covering bound (cover.h) with CBC. */
#include "cover.h"

#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "child.h"
#include "closure.h"
#include "cover_free.h"
#include "cover_lp.h"
#include "cover_steps.h"
#include "grow.h"
#include "sim.h"
#include "util.h"

void cover_params_init(cover_params *p) {
  memset(p, 0, sizeof *p);
  p->time_limit = 10;
  p->inputs = 1;
  p->closure = 1;
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

const char *cover_bound_name(const cover_out *o) {
  return o->closure ? "closure bound" : "covering bound";
}

const char *cover_bound_how(const cover_out *o) {
  if (o->status != COVER_BOUND) return "";
  return o->lp == 1   ? ", LP relaxation"
         : o->lp == 2 ? ", CBC found nothing below it"
         : o->lp == 3 ? ", integer optimum at its step"
         : o->lp == 4 ? ", integer optimum over its steps"
                      : ", out of time";
}

/* A column of the problem. */
typedef struct cv_col {
  int u;    /* its node */
  int a, b; /* a gap: the stages a..b; an input's R_p: a = -1; its E_pk:
               a = b = k */
} cv_col;

/* The problem: gaps (columns) and overloaded stages (rows). */
typedef struct cv {
  const remat_graph *g;
  const cover_params *p;
  int n;
  int64_t *load;  /* L_k of the input order */
  int *row;       /* row of stage k, or -1 when L_k <= M */
  int nrows;      /* overloaded stages */
  int *before;    /* before[k]: overloaded stages among 0..k-1 */
  cv_col *col;    /* the gaps, then (inputs) R_p and E_pk (no cost) */
  int ngaps, ncols, cap;
  double limit;   /* seconds for this run of CBC */
  int lp_only;    /* with the inputs' rows: their LP alone, no CBC */
  /* the inputs' rows E_pk - a (y_j - R_p) >= 0: gap j, input p, stage k,
   * a in ia */
  int *ij, *ip, *ik;
  double *ia;
  int nin, incap;
  int *lr;        /* lr[p]: p's last reader in the input order (p: none) */
  int *rcol;      /* rcol[p]: the column R_p, or -1 */
} cv;

static void cv_free(cv *C) {
  UTIL_FREE(C->load, C->row, C->before, C->col, C->ij, C->ip,
            C->ik, C->ia, C->lr, C->rcol);
}

/* L_k: the input order's memory at its step k (the simulator's: m_k plus
 * every u < k with a reader at k or later). */
static void cv_loads(cv *C) { C->load = sim_topo_loads(C->g); }

static int cv_copies(const cv *C, int u) {
  const int *c = C->p->copies;
  return c && c[u] > 0 ? c[u] : 0; /* 0: any */
}

/* The number of overloaded stages in a..b. */
static int cv_hits(const cv *C, int a, int b) { return C->before[b + 1] - C->before[a]; }

static void cv_add(cv *C, int u, int a, int b) {
  PUSH(C->col, C->ncols, C->cap, 1024, ((cv_col){u, a, b}));
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
  C->ngaps = C->ncols;
}

/* ------------------------------------------------- the inputs' extension
 *
 * When u is out of memory at stage k of its gap j (y_j = 1) it is
 * recomputed after k, and then each of its inputs p is in memory: if p's
 * last reader lr_p comes before k, p is either kept from before lr_p
 * through stage k, outside L_k (E_pk = 1, which takes m_p from row k), or
 * computed again after lr_p (R_p = 1, which costs w_p: no gap of p lies
 * after lr_p, and one such computation may serve every reader).  So
 * E_pk >= y_j - R_p for the stages k > lr_p of the gap.  When u is in
 * memory at k but y_j = 1 all the same (out of memory elsewhere in the
 * gap), E_pk = 1 holds nothing in memory; row k then counts m_u for u
 * that it does not free, and as long as what gap j forces weighs at most
 * m_u, the row still counts at least what is freed: the relaxation
 * holds.  Hence, for each gap, E_pk >= a_p (y_j - R_p) with shares a_p in
 * [0, 1] and sum a_p m_p <= m_u: the heaviest inputs whole, then a share
 * of the next (E is continuous; a schedule has it 0 or 1). */

/* Adds the row unless the problem would pass COVER_MAX_NONZEROS (each
 * row has three entries, and may bring an E column): 0 then.  The rows
 * added until then are a relaxation too. */
static int cv_in_add(cv *C, int j, int p, int k, double a, long long space) {
  if (5LL * C->nin >= space) return 0;
  GROW_ALL(C->incap, C->nin + 1, 1024, C->ij, C->ip, C->ik, C->ia);
  C->ij[C->nin] = j;
  C->ip[C->nin] = p;
  C->ik[C->nin] = k;
  C->ia[C->nin] = a;
  C->nin++;
  return 1;
}

static long long cv_nnz(const cv *C);

static void cv_inputs(cv *C) {
  const remat_graph *g = C->g;
  int n = C->n;
  long long space = COVER_MAX_NONZEROS - cv_nnz(C);
  C->lr = util_malloc((size_t)n * sizeof *C->lr);
  C->rcol = util_malloc((size_t)n * sizeof *C->rcol);
  for (int p = 0; p < n; p++) {
    int e = g->succ_off[p + 1];
    C->lr[p] = e > g->succ_off[p] ? g->succ[e - 1] : p;
    C->rcol[p] = -1;
  }
  int *pick = util_malloc((size_t)(n ? n : 1) * sizeof *pick);
  int full = 0;
  for (int j = 0; j < C->ngaps && !full; j++) {
    int u = C->col[j].u, a = C->col[j].a, b = C->col[j].b, np = 0;
    /* the inputs that die before the gap's last overloaded stage */
    for (int q = g->pred_off[u]; q < g->pred_off[u + 1]; q++) {
      int p = g->pred[q];
      int from = C->lr[p] + 1 > a ? C->lr[p] + 1 : a;
      if (from <= b && cv_hits(C, from, b)) pick[np++] = p;
    }
    /* heaviest first, while they fit in m_u together */
    cover_heaviest_first(g->m, pick, np);
    int64_t room = g->m[u];
    for (int x = 0; x < np && room > 0; x++) {
      int p = pick[x];
      double share = 1;
      if (g->m[p] <= room) {
        room -= g->m[p];
      } else { /* the part of p that m_u still covers */
        share = (double)room / (double)g->m[p];
        room = 0;
        if (share < COVER_MIN_SHARE) break;
      }
      int from = C->lr[p] + 1 > a ? C->lr[p] + 1 : a;
      int64_t big = g->m[u] > g->m[p] ? g->m[u] : g->m[p];
      for (int k = from; k <= b && !full; k++)
        if (C->row[k] >= 0 && (double)big <= COVER_MAX_RATIO * (double)(C->load[k] - C->p->budget))
          full = !cv_in_add(C, j, p, k, share, space);
    }
  }
  free(pick);
}

/* The columns R_p and E_pk of the inputs' rows; each row's E column
 * then replaces its stage in ik. */
static void cv_in_cols(cv *C) {
  int n = C->n;
  for (int i = 0; i < C->nin; i++) {
    int p = C->ip[i];
    if (C->rcol[p] < 0) {
      C->rcol[p] = C->ncols;
      cv_add(C, p, -1, -1);
    }
  }
  /* the rows input by input (counting sort on p), E columns by stage */
  int *start = util_calloc((size_t)n + 1, sizeof *start);
  int *ord = util_malloc((size_t)(C->nin ? C->nin : 1) * sizeof *ord);
  int *ecol = util_malloc((size_t)(n ? n : 1) * sizeof *ecol);
  for (int k = 0; k < n; k++) ecol[k] = -1;
  for (int i = 0; i < C->nin; i++) start[C->ip[i] + 1]++;
  for (int p = 0; p < n; p++) start[p + 1] += start[p];
  int *pos = util_malloc((size_t)(n ? n : 1) * sizeof *pos);
  for (int p = 0; p < n; p++) pos[p] = start[p];
  for (int i = 0; i < C->nin; i++) ord[pos[C->ip[i]]++] = i;
  for (int p = 0; p < n; p++) {
    for (int x = start[p]; x < start[p + 1]; x++) {
      int i = ord[x], k = C->ik[i];
      if (ecol[k] < 0) {
        ecol[k] = C->ncols;
        cv_add(C, p, k, k);
      }
      C->ik[i] = ecol[k];
    }
    for (int x = start[p]; x < start[p + 1]; x++) ecol[C->col[C->ik[ord[x]]].a] = -1;
  }
  UTIL_FREE(pos, ecol, ord, start);
}

/* Can every overloaded stage be relieved at all, dropping every gap
 * around it?  (Else the problem is infeasible without CBC.) */
static int cv_coverable(const cv *C, int64_t M) {
  /* the sizes of the gaps around each stage, as differences (in doubles:
   * sums of 64-bit sizes; only compared with the excess) */
  double *diff = util_calloc((size_t)C->n + 1, sizeof *diff);
  for (int j = 0; j < C->ngaps; j++) {
    diff[C->col[j].a] += (double)C->g->m[C->col[j].u];
    diff[C->col[j].b + 1] -= (double)C->g->m[C->col[j].u];
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

/* The input rows of each column (gap: -1 each, R_p and E_pk: +1 each), in
 * compressed form: rows irow[ioff[c]..ioff[c+1]) of column c. */
static void cv_in_by_col(const cv *C, int **ioff, int **irow) {
  int *off = util_calloc((size_t)C->ncols + 1, sizeof *off);
  for (int i = 0; i < C->nin; i++) {
    off[C->ij[i] + 1]++;
    off[C->rcol[C->ip[i]] + 1]++;
    off[C->ik[i] + 1]++;
  }
  for (int c = 0; c < C->ncols; c++) off[c + 1] += off[c];
  int *pos = util_malloc(((size_t)C->ncols + 1) * sizeof *pos);
  memcpy(pos, off, ((size_t)C->ncols + 1) * sizeof *pos);
  int *row = util_malloc(((size_t)off[C->ncols] + 1) * sizeof *row);
  for (int i = 0; i < C->nin; i++) {
    row[pos[C->ij[i]]++] = i;
    row[pos[C->rcol[C->ip[i]]]++] = i;
    row[pos[C->ik[i]]++] = i;
  }
  free(pos);
  *ioff = off;
  *irow = row;
}

static int cv_is_gap(const cv *C, int c) { return c < C->ngaps; }
static int cv_is_r(const cv *C, int c) { return c >= C->ngaps && C->col[c].a < 0; }

/* A column's cost (E columns cost nothing). */
static int64_t cv_cost(const cv *C, int c) {
  return cv_is_gap(C, c) || cv_is_r(C, c) ? C->g->w[C->col[c].u] : 0;
}

/* The problem in compressed sparse columns (cover_lp.h).  Row k is
 * scaled by its excess R = L_k - M: coefficients min(m_u / R, 1),
 * right-hand side 1 - 0.5 / R, the same set of binary solutions (sizes
 * and R are whole bytes) and a slightly weaker LP: tolerances can only
 * lower the bound.  Then one row per node with more gaps than
 * recomputations allowed. */
static void cv_build(const cv *C, covlp *L, long long nnz) {
  const remat_graph *g = C->g;
  int64_t M = C->p->budget;
  int *urow = util_malloc((size_t)C->n * sizeof *urow);
  int *ngap = util_calloc((size_t)C->n, sizeof *ngap);
  /* A row, scaled by its excess R, is sum c_j y_j - sum d_p E_pk >= 1
   * (less half a byte): a gap's c_j = m_u / R is clipped at 1 + sum d_p,
   * with which y_j = 1 alone meets the row whatever E is, as it does
   * unclipped (the same binary solutions, a tighter LP). */
  double *clip = util_malloc(((size_t)C->n + 1) * sizeof *clip);
  for (int k = 0; k < C->n; k++) clip[k] = 1;
  for (int c = 0; c < C->ncols; c++) {
    const cv_col *x = &C->col[c];
    if (cv_is_gap(C, c) || cv_is_r(C, c)) ngap[x->u]++;
    else clip[x->a] += (double)g->m[x->u] / (double)(C->load[x->a] - M);
  }
  int nrows = C->nrows;
  for (int u = 0; u < C->n; u++) {
    int c = cv_copies(C, u);
    urow[u] = c > 0 && ngap[u] > c - 1 ? nrows++ : -1;
  }
  int in0 = nrows; /* the input rows follow */
  nrows += C->nin;
  int *ioff, *irow;
  cv_in_by_col(C, &ioff, &irow);
  covlp_alloc(L, C->ncols, nrows, nnz);
  long long z = 0;
  for (int j = 0; j < C->ncols; j++) {
    int u = C->col[j].u;
    L->lp.start[j] = (int)z;
    if (cv_is_gap(C, j) || !cv_is_r(C, j)) {
      /* a gap frees m_u at its overloaded stages; E_uk holds m_u at k */
      int a = C->col[j].a, b = C->col[j].b, sign = cv_is_gap(C, j) ? 1 : -1;
      for (int k = a; k <= b; k++) {
        if (C->row[k] < 0) continue;
        double R = (double)(C->load[k] - M), v = (double)g->m[u] / R;
        L->lp.index[z] = C->row[k];
        L->lp.value[z++] = sign < 0 ? -v : v > clip[k] ? clip[k] : v;
      }
    }
    if (urow[u] >= 0 && (cv_is_gap(C, j) || cv_is_r(C, j))) {
      L->lp.index[z] = urow[u];
      L->lp.value[z++] = 1;
    }
    for (int x = ioff[j]; x < ioff[j + 1]; x++) {
      int i = irow[x];
      L->lp.index[z] = in0 + i;
      L->lp.value[z++] = cv_is_gap(C, j) ? -C->ia[i] : cv_is_r(C, j) ? C->ia[i] : 1;
    }
    L->lp.colub[j] = 1;
    L->cost[j] = cv_cost(C, j);
    L->lp.integer[j] = cv_is_gap(C, j) || cv_is_r(C, j);
  }
  L->lp.start[C->ncols] = (int)z;
  L->lp.nnz = (long long)z;
  for (int k = 0; k < C->n; k++)
    if (C->row[k] >= 0) {
      L->lp.rowlb[C->row[k]] = 1.0 - 0.5 / (double)(C->load[k] - M);
      L->lp.rowub[C->row[k]] = DBL_MAX;
    }
  for (int u = 0; u < C->n; u++)
    if (urow[u] >= 0) {
      L->lp.rowlb[urow[u]] = -DBL_MAX;
      L->lp.rowub[urow[u]] = cv_copies(C, u) - 1;
    }
  for (int i = 0; i < C->nin; i++) {
    L->lp.rowlb[in0 + i] = 0;
    L->lp.rowub[in0 + i] = DBL_MAX;
  }
  UTIL_FREE(ioff, irow, clip, urow, ngap);
}

static long long cv_nnz(const cv *C) {
  long long z = 0;
  for (int j = 0; j < C->ncols; j++) {
    if (!cv_is_r(C, j)) z += cv_hits(C, C->col[j].a, C->col[j].b);
    z += 1; /* the node's row */
  }
  return z + 3LL * C->nin;
}

/* Build and solve the problem as C stands (the gaps, and the inputs'
 * columns and rows when cv_inputs added them) within C->limit; fills o. */
static void cv_run(cv *C, cover_out *o) {
  o->nnz = cv_nnz(C);
  if (o->nnz > COVER_MAX_NONZEROS) {
    snprintf(o->why, sizeof o->why, "covering problem with %lld nonzeros, above %lld", o->nnz,
             COVER_MAX_NONZEROS);
    return;
  }
  covlp L;
  cv_build(C, &L, o->nnz);
  covlp_scale(&L);
  /* with the inputs' rows CBC may need minutes on a thousand nodes: the
   * LP's bound first, kept when CBC says nothing better in time */
  covlp_run(&L, C->limit, C->nin == 0 ? COVLP_CBC : C->lp_only ? COVLP_LP_ONLY : COVLP_LP_FIRST,
            C->p, o);
  covlp_free(&L);
}

cover_status cover_solve(const remat_graph *g, const cover_params *p, cover_out *o) {
  if (p->any_order) return cover_free_solve(g, p, o);
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
  /* the closure bound first (closure.h): a few LPs, seconds at most on
   * thousands of nodes, where the plain problem can take the whole time
   * (a 96-layer decoder's training graph at 0.5), and far above the
   * covering problems where cheap operations read the outputs of
   * expensive ones; at most CLOSURE_SHARE of the time, its answer out at
   * once.  Then the plain problem (milliseconds to seconds); then the
   * closure bound's integer problems (closure_integer); then, in the
   * time left, with the inputs' rows, then (inputs 2) with the
   * recomputing steps' rows where that problem is small enough, each
   * taken when it says more */
  cover_out cl;
  cl.status = COVER_NONE;
  closure *clh = NULL;
  if (p->closure && !child_stopping()) {
    clh = closure_new(g, p, C.load);
    closure_lps(clh, CLOSURE_SHARE * p->time_limit, &cl);
    if (p->plain_done && cover_answered(&cl)) p->plain_done(p->ctx, &cl);
  }
  C.limit = p->time_limit - (util_now() - t0);
  cv_run(&C, o);
  int64_t plain = cover_answered(o) ? o->increase : -1;
  cover_take(o, &cl);
  /* the integer problems after the plain problem, whose answer (at once
   * on small graphs, where it can prove a schedule optimal over every
   * order) they would hold up */
  double left = p->time_limit - (util_now() - t0);
  if (clh && cover_answered(&cl) && o->status != COVER_INFEASIBLE && left > 0.01 &&
      !child_stopping()) {
    int64_t was = cl.increase;
    if (p->plain_done && cover_answered(o)) p->plain_done(p->ctx, o);
    closure_integer(clh, CLOSURE_SHARE * p->time_limit, left, plain, &cl);
    if (cl.increase > was) cover_take(o, &cl);
  }
  closure_free(clh);
  left = p->time_limit - (util_now() - t0);
  cover_steps *steps = NULL;
  if (p->inputs >= 1 && cover_answered(o) && left > 0.01) {
    if (p->plain_done) p->plain_done(p->ctx, o); /* before the rows: they take time */
    cv_inputs(&C);
    cv_in_cols(&C);
    /* the steps' problem built lazily (a large one) comes before the
     * inputs' CBC, which its LP's rounds pass
     * (bench/RESULTS.md#cover-steps-lazy): the inputs' LP alone then */
    if (p->inputs >= 2 && !child_stopping()) steps = cover_steps_new(g, p, C.load);
    C.lp_only = steps && cover_steps_lazy(steps);
    if (C.nin > 0) {
      cover_out x = *o;
      x.status = COVER_NONE;
      x.why[0] = 0;
      x.closure = 0;
      C.limit = p->time_limit - (util_now() - t0); /* after building the rows */
      if (C.limit > 0.01) cv_run(&C, &x);
      cover_take(o, &x);
    }
  }
  /* the steps' rows until p->steps_time_limit when it is given (their
   * CBC or, built lazily, their LP's rounds may need minutes: bounds.c),
   * else in the time the others leave */
  double until = steps && p->steps_time_limit > 0 ? p->steps_time_limit : p->time_limit;
  left = until - (util_now() - t0);
  if (steps && cover_answered(o) && left > 0.01 && !child_stopping()) {
    if (p->plain_done) p->plain_done(p->ctx, o);
    if (until > p->time_limit) child_deadline(left + 2); /* in a child: its new end */
    cover_out x;
    cover_steps_solve(steps, until - (util_now() - t0), &x);
    cover_take(o, &x);
  }
  cover_steps_free(steps);
  if (o->status == COVER_NONE && !o->why[0])
    snprintf(o->why, sizeof o->why, "CBC gave no bound in %.2fs", util_now() - t0);
done:
  cv_free(&C);
  return o->status;
}
