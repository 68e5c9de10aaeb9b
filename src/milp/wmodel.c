/* wmodel.c -- the window model (wmodel.h): value sets, columns, rows. */
#include "wmodel.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "util.h"

/* Largest budget in memory units, largest total duration (times n) in
 * duration units: integers CBC handles exactly (doubles hold 2^53).  The
 * memory rows' coefficients stay near 2^24 at most: at 2^31 CBC's
 * tolerances (1e-6 of a coefficient is thousands of units there) made it
 * call feasible windows infeasible and pass the optimum, on graphs with
 * sizes near 10^12 (bench/RESULTS.md#claims-cbc-preprocessing); sizes are
 * rounded down to the unit, which keeps the model a relaxation. */
#define WM_MEM_UNITS (1LL << 24)
#define WM_DUR_UNITS 1125899906842624.0 /* 2^50 */

void wm_rows_init(wm_rows *L) { memset(L, 0, sizeof *L); }

void wm_rows_free(wm_rows *L) {
  free(L->start);
  free(L->rhs);
  free(L->term);
  memset(L, 0, sizeof *L);
}

/* The last successor of u (successors ascend), -1 for a sink. */
static int wm_last_reader(const remat_graph *g, int u) {
  return g->succ_off[u + 1] > g->succ_off[u] ? g->succ[g->succ_off[u + 1] - 1] : -1;
}

static int wm_has_succ(const remat_graph *g, int u) {
  return g->succ_off[u + 1] > g->succ_off[u];
}

static void wm_quanta(wmodel *W) {
  const remat_graph *g = W->g;
  int64_t gm = 0, gw = 0;
  double total = 0;
  for (int v = 0; v < g->n; v++) {
    gm = util_gcd(gm, g->m[v]);
    gw = util_gcd(gw, g->w[v]);
    total += (double)g->w[v];
  }
  if (gm <= 0) gm = 1;
  if (gw <= 0) gw = 1;
  if (W->budget / gm > WM_MEM_UNITS) gm = W->budget / WM_MEM_UNITS + 1;
  double units = total / (double)gw * (double)(g->n > 0 ? g->n : 1);
  if (units > WM_DUR_UNITS) gw = (int64_t)ceil(total * (double)g->n / WM_DUR_UNITS) + 1;
  W->mq = gm;
  W->wq = gw;
  W->cap = W->budget / gm;
  for (int v = 0; v < g->n; v++) {
    W->m[v] = g->m[v] / gm;
    W->w[v] = g->w[v] / gw;
  }
}

/* V_t: the values live at t in the input order, and their predecessors
 * up to depth levels; then closed downwards (u in V_{t+1}, u < t: u in
 * V_t), which the continuity rows need. */
static void wm_sets(wmodel *W) {
  const remat_graph *g = W->g;
  int n = W->n, *front = util_malloc((size_t)n * sizeof *front);
  int *next = util_malloc((size_t)n * sizeof *next);
  for (int t = W->a; t <= W->b + 1 && t < n; t++) {
    unsigned char *in = W->in + wm_at(W, t, 0);
    int nf = 0;
    for (int u = 0; u < t; u++)
      if (wm_last_reader(g, u) >= t) in[u] = 1, front[nf++] = u;
    for (int d = 0; d < W->depth && nf; d++) {
      int nn = 0;
      for (int i = 0; i < nf; i++)
        for (int p = g->pred_off[front[i]]; p < g->pred_off[front[i] + 1]; p++)
          if (!in[g->pred[p]]) in[g->pred[p]] = 1, next[nn++] = g->pred[p];
      memcpy(front, next, (size_t)nn * sizeof *front);
      nf = nn;
    }
  }
  free(front);
  free(next);
}

void wm_columns(wmodel *W) {
  const remat_graph *g = W->g;
  int n = W->n, top = W->b + 1 < n ? W->b + 1 : W->b;
  for (int t = top; t > W->a; t--) /* closed downwards */
    for (int u = 0; u < t - 1; u++)
      if (W->in[wm_at(W, t, u)]) W->in[wm_at(W, t - 1, u)] = 1;
  size_t cells = (size_t)(W->b - W->a + 2) * (size_t)n;
  int k = 0;
  for (size_t i = 0; i < cells; i++) W->rc[i] = W->sc[i] = -1;
  for (int u = 0; u < n; u++) W->qc[u] = -1;
  for (int t = W->a; t <= top; t++)
    for (int u = 0; u < t; u++) {
      if (!W->in[wm_at(W, t, u)]) continue;
      W->sc[wm_at(W, t, u)] = k++;
      if (t <= W->b && wm_has_succ(g, u)) W->rc[wm_at(W, t, u)] = k++;
    }
  if (W->b + 1 < n)
    for (int u = 0; u <= W->b; u++)
      if (W->in[wm_at(W, W->b + 1, u)] && wm_has_succ(g, u)) W->qc[u] = k++;
  W->ncols = k;
  free(W->ckind);
  free(W->ct);
  free(W->cu);
  W->ckind = util_malloc((size_t)(k ? k : 1) * sizeof *W->ckind);
  W->ct = util_malloc((size_t)(k ? k : 1) * sizeof *W->ct);
  W->cu = util_malloc((size_t)(k ? k : 1) * sizeof *W->cu);
  for (int t = W->a; t <= top; t++)
    for (int u = 0; u < t; u++) {
      int c = W->sc[wm_at(W, t, u)];
      if (c >= 0) W->ckind[c] = WM_S, W->ct[c] = t, W->cu[c] = u;
      c = t <= W->b ? W->rc[wm_at(W, t, u)] : -1;
      if (c >= 0) W->ckind[c] = WM_R, W->ct[c] = t, W->cu[c] = u;
    }
  for (int u = 0; u < n; u++)
    if (W->qc[u] >= 0) W->ckind[W->qc[u]] = WM_Q, W->ct[W->qc[u]] = W->b + 1, W->cu[W->qc[u]] = u;
}

int wm_init(wmodel *W, const remat_graph *g, int64_t budget, const int *copies, int a, int b,
            int depth, long long max_cells, char *err, size_t errlen) {
  memset(W, 0, sizeof *W);
  long long cells = (long long)(b - a + 2) * g->n;
  if (cells > max_cells)
    return util_err(err, errlen, -1, "window model of %d stages and %d nodes, above %lld cells",
                    b - a + 1, g->n, max_cells);
  W->g = g;
  W->n = g->n;
  W->a = a;
  W->b = b;
  W->depth = depth;
  W->budget = budget;
  W->copies = copies;
  W->m = util_malloc((size_t)g->n * sizeof *W->m);
  W->w = util_malloc((size_t)g->n * sizeof *W->w);
  wm_quanta(W);
  W->in = util_calloc((size_t)cells, 1);
  W->rc = util_malloc((size_t)cells * sizeof *W->rc);
  W->sc = util_malloc((size_t)cells * sizeof *W->sc);
  W->qc = util_malloc((size_t)g->n * sizeof *W->qc);
  wm_sets(W);
  wm_columns(W);
  return 0;
}

int wm_add_value(wmodel *W, int u, int tmax) {
  int top = W->b + 1 < W->n ? W->b + 1 : W->b, added = 0;
  if (tmax > top) tmax = top;
  for (int t = W->a; t <= tmax; t++)
    if (u < t && !W->in[wm_at(W, t, u)]) W->in[wm_at(W, t, u)] = 1, added = 1;
  return added;
}

void wm_free(wmodel *W) {
  lp_free(&W->lp);
  UTIL_FREE(W->m, W->w, W->in, W->rc, W->sc, W->qc, W->ckind, W->ct, W->cu);
  memset(W, 0, sizeof *W);
}

/* ------------------------------------------------------------------ */
/* Rows                                                                */
/* ------------------------------------------------------------------ */

/* Rows as triplets, then compressed by column. */
typedef struct wm_bld {
  int nrows, rcap;
  double *lb, *ub;
  long long nz, zcap, most;
  int *row, *col;
  double *val;
  int over; /* more than `most` entries */
} wm_bld;

static int wm_row(wm_bld *B, double lb, double ub) {
  GROW_ALL(B->rcap, B->nrows + 1, 4096, B->lb, B->ub);
  B->lb[B->nrows] = lb;
  B->ub[B->nrows] = ub;
  return B->nrows++;
}

static void wm_put(wm_bld *B, int row, int col, double v) {
  if (col < 0 || v == 0 || B->over) return;
  if (B->nz == B->most) {
    B->over = 1;
    return;
  }
  GROW_ALL(B->zcap, B->nz + 1, 65536, B->row, B->col, B->val);
  B->row[B->nz] = row;
  B->col[B->nz] = col;
  B->val[B->nz++] = v;
}

static int wm_r(const wmodel *W, int t, int u) {
  return t >= W->a && t <= W->b ? W->rc[wm_at(W, t, u)] : -1;
}

static int wm_s(const wmodel *W, int t, int u) {
  return t >= W->a && t <= W->b + 1 && t < W->n ? W->sc[wm_at(W, t, u)] : -1;
}

/* Inputs, continuity, canonical and pruned rows of stage t; mark[u] ==
 * t + 1 for the inputs of t. */
static void wm_stage_logic(const wmodel *W, wm_bld *B, int t, const int *mark) {
  const remat_graph *g = W->g;
  for (int p = g->pred_off[t]; p < g->pred_off[t + 1]; p++) {
    int u = g->pred[p], row = wm_row(B, 1, DBL_MAX);
    wm_put(B, row, wm_r(W, t, u), 1);
    wm_put(B, row, wm_s(W, t, u), 1);
  }
  for (int v = 0; v < t; v++) {
    int rv = wm_r(W, t, v);
    if (rv < 0) continue;
    for (int p = g->pred_off[v]; p < g->pred_off[v + 1]; p++) {
      int u = g->pred[p];
      if (wm_s(W, t, u) < 0) continue; /* free at t */
      int row = wm_row(B, -DBL_MAX, 0);
      wm_put(B, row, rv, 1);
      wm_put(B, row, wm_r(W, t, u), -1);
      wm_put(B, row, wm_s(W, t, u), -1);
    }
  }
  for (int u = 0; u < t; u++) {
    int s = wm_s(W, t, u), r = wm_r(W, t, u), s1 = wm_s(W, t + 1, u);
    if (s < 0) continue;
    if (s1 >= 0) {
      int row = wm_row(B, -DBL_MAX, 0);
      wm_put(B, row, s1, 1);
      wm_put(B, row, s, -1);
      wm_put(B, row, r, -1);
    }
    if (r < 0) continue;
    int row = wm_row(B, -DBL_MAX, 1);
    wm_put(B, row, s, 1);
    wm_put(B, row, r, 1);
    if (mark[u] == t + 1) continue; /* read by t */
    row = wm_row(B, -DBL_MAX, 0);
    wm_put(B, row, r, 1);
    for (int q = g->succ_off[u]; q < g->succ_off[u + 1] && g->succ[q] < t; q++)
      wm_put(B, row, wm_r(W, t, g->succ[q]), -1);
    wm_put(B, row, s1, -1);
  }
}

/* The memory at the step computing t. */
static void wm_stage_memory(const wmodel *W, wm_bld *B, int t, const int *mark) {
  const remat_graph *g = W->g;
  int64_t base = W->m[t];
  for (int p = g->pred_off[t]; p < g->pred_off[t + 1]; p++) base += W->m[g->pred[p]];
  int row = wm_row(B, -DBL_MAX, (double)(W->cap - base));
  for (int u = 0; u < t; u++)
    if (mark[u] != t + 1) wm_put(B, row, wm_s(W, t + 1, u), (double)W->m[u]);
}

/* After the window: Q. */
static void wm_closure(const wmodel *W, wm_bld *B) {
  const remat_graph *g = W->g;
  int b1 = W->b + 1;
  if (b1 >= W->n) return;
  for (int u = 0; u < b1; u++) {
    if (W->qc[u] < 0) continue;
    if (wm_last_reader(g, u) > W->b) {
      int row = wm_row(B, 1, DBL_MAX);
      wm_put(B, row, wm_s(W, b1, u), 1);
      wm_put(B, row, W->qc[u], 1);
    }
    for (int p = g->pred_off[u]; p < g->pred_off[u + 1]; p++) {
      int x = g->pred[p];
      if (wm_s(W, b1, x) < 0) continue;
      int row = wm_row(B, -DBL_MAX, 0);
      wm_put(B, row, W->qc[u], 1);
      wm_put(B, row, wm_s(W, b1, x), -1);
      wm_put(B, row, W->qc[x], -1);
    }
  }
}

static void wm_copy_rows(const wmodel *W, wm_bld *B) {
  if (!W->copies) return;
  for (int u = 0; u < W->n; u++) {
    int c = W->copies[u];
    if (c <= 0) continue;
    int cnt = W->qc[u] >= 0;
    for (int t = W->a; t <= W->b; t++) cnt += wm_r(W, t, u) >= 0;
    if (cnt <= c - 1) continue;
    int row = wm_row(B, -DBL_MAX, c - 1);
    for (int t = W->a; t <= W->b; t++) wm_put(B, row, wm_r(W, t, u), 1);
    wm_put(B, row, W->qc[u], 1);
  }
}

static int wm_term_col(const wmodel *W, const wm_term *e) {
  if (e->kind == WM_Q) return W->qc[e->u];
  return e->kind == WM_R ? wm_r(W, e->t, e->u) : wm_s(W, e->t, e->u);
}

/* L's rows; a row one of whose terms has no column is left out (its
 * validity argument needs every term's variable). */
static void wm_lazy(const wmodel *W, wm_bld *B, const wm_rows *L) {
  for (int i = 0; i < L->n; i++) {
    int ok = 1;
    for (int k = L->start[i]; k < L->start[i + 1] && ok; k++)
      ok = wm_term_col(W, &L->term[k]) >= 0;
    if (!ok) continue;
    int row = wm_row(B, -DBL_MAX, L->rhs[i]);
    for (int k = L->start[i]; k < L->start[i + 1]; k++)
      wm_put(B, row, wm_term_col(W, &L->term[k]), L->term[k].coef);
  }
}

int wm_build(wmodel *W, const wm_rows *L, long long max_nnz, char *err, size_t errlen) {
  const remat_graph *g = W->g;
  lp_free(&W->lp);
  wm_bld B;
  memset(&B, 0, sizeof B);
  B.most = max_nnz;
  int *mark = util_calloc((size_t)W->n, sizeof *mark);
  for (int t = W->a; t <= W->b && !B.over; t++) {
    for (int p = g->pred_off[t]; p < g->pred_off[t + 1]; p++) mark[g->pred[p]] = t + 1;
    wm_stage_logic(W, &B, t, mark);
    wm_stage_memory(W, &B, t, mark);
  }
  free(mark);
  wm_closure(W, &B);
  wm_copy_rows(W, &B);
  if (L) wm_lazy(W, &B, L);
  int rc = 0;
  if (B.over) {
    rc = util_err(err, errlen, -1, "window model of %d stages above %lld nonzeros",
                  W->b - W->a + 1, max_nnz);
  } else {
    int nc = W->ncols;
    lp_model *P = &W->lp;
    lp_alloc(P, nc, B.nrows, B.nz);
    for (long long z = 0; z < B.nz; z++) P->start[B.col[z] + 1]++;
    for (int j = 0; j < nc; j++) P->start[j + 1] += P->start[j];
    int *pos = util_malloc(((size_t)nc + 1) * sizeof *pos);
    memcpy(pos, P->start, ((size_t)nc + 1) * sizeof *pos);
    for (long long z = 0; z < B.nz; z++) { /* rows ascend within columns */
      int p = pos[B.col[z]]++;
      P->index[p] = B.row[z];
      P->value[p] = B.val[z];
    }
    free(pos);
    for (int j = 0; j < nc; j++) {
      P->colub[j] = 1;
      P->obj[j] = W->ckind[j] == WM_S ? 0 : (double)W->w[W->cu[j]];
      P->integer[j] = 1;
    }
    memcpy(P->rowlb, B.lb, (size_t)B.nrows * sizeof *B.lb);
    memcpy(P->rowub, B.ub, (size_t)B.nrows * sizeof *B.ub);
  }
  UTIL_FREE(B.lb, B.ub, B.row, B.col, B.val);
  return rc;
}

/* ------------------------------------------------------------------ */
/* Lazy rows                                                           */
/* ------------------------------------------------------------------ */

static void wm_rows_term(wm_rows *L, int kind, int t, int u, double coef) {
  GROW(L->term, L->tcap, L->nterm + 1, 1024);
  wm_term e = {kind, t, u, coef};
  L->term[L->nterm++] = e;
}

static void wm_rows_open(wm_rows *L) {
  if (GROW_CAP(L->cap, L->n + 2, 64)) { /* start has one more entry */
    L->start = util_realloc(L->start, (size_t)(L->cap + 1) * sizeof *L->start);
    GROW_RESIZE(L->rhs, L->cap);
  }
  if (L->n == 0) L->start[0] = 0;
}

static double wm_x(const double *x, int col) { return col >= 0 ? x[col] : 0; }

/* The best lower bound on u's presence at step (t, v) at x (u not an
 * input of v): a reader of its own in stage t (the node t itself, a later
 * recomputation, or the next stage), minus its recomputation after v.
 * Fills alt (up to 3 terms); returns its value. */
static double wm_presence(const wmodel *W, const double *x, int t, int v, int u, int tread,
                          wm_term *alt, int *nalt) {
  const remat_graph *g = W->g;
  int r = wm_r(W, t, u);
  double best = -1;
  *nalt = 0;
  if (tread) { /* read by t: resident, or recomputed before v */
    wm_term a0 = {WM_S, t, u, 1}, a1 = {WM_R, t, u, 1};
    alt[0] = a0;
    *nalt = 1;
    if (u < v && r >= 0) alt[(*nalt)++] = a1;
    return wm_x(x, wm_s(W, t, u)) + (u < v ? wm_x(x, r) : 0);
  }
  double neg = u > v ? wm_x(x, r) : 0;
  int kind = -1, kt = 0, ku = 0;
  if (wm_s(W, t + 1, u) >= 0) {
    best = wm_x(x, wm_s(W, t + 1, u)) - neg;
    kind = WM_S, kt = t + 1, ku = u;
  }
  for (int q = g->succ_off[u]; q < g->succ_off[u + 1]; q++) {
    int j = g->succ[q];
    if (j <= v || j >= t || wm_r(W, t, j) < 0) continue;
    double val = x[wm_r(W, t, j)] - neg;
    if (val > best) best = val, kind = WM_R, kt = t, ku = j;
  }
  if (kind < 0) return -1;
  wm_term a0 = {kind, kt, ku, 1}, a1 = {WM_R, t, u, -1};
  alt[(*nalt)++] = a0;
  if (u > v && r >= 0) alt[(*nalt)++] = a1;
  return best;
}

int wm_step_row(const wmodel *W, const double *x, int t, int v, const unsigned char *live,
                wm_rows *L, unsigned char *unc) {
  const remat_graph *g = W->g;
  int n = W->n;
  unsigned char *pv = util_calloc((size_t)n, 1), *pt = util_calloc((size_t)n, 1);
  for (int p = g->pred_off[v]; p < g->pred_off[v + 1]; p++) pv[g->pred[p]] = 1;
  for (int p = g->pred_off[t]; p < g->pred_off[t + 1]; p++) pt[g->pred[p]] = 1;
  int mark = L->nterm;
  wm_rows_open(L);
  double a = (double)W->m[v];
  for (int p = g->pred_off[v]; p < g->pred_off[v + 1]; p++) {
    int u = g->pred[p];
    if (wm_s(W, t, u) >= 0)
      a += (double)W->m[u];
    else if (live && live[u] && unc)
      unc[u] = 1; /* a free input, held in the schedule */
  }
  wm_rows_term(L, WM_R, t, v, a);
  double lhs = a * wm_x(x, wm_r(W, t, v));
  for (int u = 0; u < t; u++) {
    if (u == v || pv[u]) continue;
    if (wm_s(W, t, u) < 0) {
      if (live && live[u] && unc) unc[u] = 1;
      continue;
    }
    wm_term alt[3];
    int nalt;
    double val = wm_presence(W, x, t, v, u, pt[u], alt, &nalt);
    if (live && live[u] && val <= 0.5 && unc) unc[u] = 1;
    if (val <= 1e-9) continue;
    lhs += (double)W->m[u] * val;
    for (int k = 0; k < nalt; k++)
      wm_rows_term(L, alt[k].kind, alt[k].t, alt[k].u, alt[k].coef * (double)W->m[u]);
  }
  free(pv);
  free(pt);
  if (lhs <= (double)W->cap + 0.5) {
    L->nterm = mark;
    return 0;
  }
  L->rhs[L->n] = (double)W->cap;
  L->start[++L->n] = L->nterm;
  return 1;
}

int wm_final_has(const wmodel *W, const double *x, int t, int u) {
  const remat_graph *g = W->g;
  for (int p = g->pred_off[t]; p < g->pred_off[t + 1]; p++)
    if (g->pred[p] == u) return 1;
  int s = wm_s(W, t + 1, u);
  return s >= 0 && x[s] > 0.5;
}
