/* cover_steps.c -- the covering bound with the recomputing steps' rows
 * (cover_steps.h). */
#include "cover_steps.h"

#include <Clp_C_Interface.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "child.h"
#include "cover_lp.h"
#include "grow.h"
#include "util.h"

/* Rows whose coefficients would pass this ratio to the stage's excess are
 * left out (leaving rows out only weakens the bound), as in cover.c. */
#define CS_MAX_RATIO 1e6

struct cover_steps {
  const remat_graph *g;
  const cover_params *p;
  const int64_t *load;
  int n;
  int64_t M;
  char *over;           /* per stage: L_k > M */
  int *before;          /* overloaded stages among 0..k-1 */
  int *lr;              /* last reader (the node itself: none) */
  /* gaps: node, (a, b], first piece column, pieces */
  int *gu, *ga, *gb, *gc, *gn, ngaps, gcap;
  int *gfirst, *gcount; /* per node: its gaps, in order */
  int *pfirst;          /* per piece column: its first stage */
  int npieces;
  /* columns past the pieces: R_p, z_jk, E_pk, F_k */
  int ncols, ccap;
  double *lb, *ub;
  int64_t *cost;
  char *integer;
  int *rcol;            /* R_p's column or -1 */
  int *ecol;            /* E_pk's column at the current stage or -1 */
  int *zcol;            /* per gap: z_jk's column at the current stage or -1 */
  /* rows and entries */
  int nrows, rcap;
  double *rlb, *rub;
  char *rlazy;          /* per row: generated lazily (built lazily only) */
  int *rf;              /* per row: a recomputing step's row: its stage's
                           F_k row (F_k <= the sum), else -1 */
  int *tr, *tc;
  double *tv;
  long long nnz, tcap;
  int full;             /* past cap */
  int lazy;             /* built lazily (cover_steps.h) */
  long long cap;        /* COVER_STEPS_MAX_NONZEROS or the lazy one */
};
typedef struct cover_steps cs;

static int cs_copies(const cs *S, int u) {
  const int *c = S->p->copies;
  return c && c[u] > 0 ? c[u] : 0; /* 0: any */
}

static int cs_hits(const cs *S, int a, int b) { return S->before[b + 1] - S->before[a]; }

static int cs_col(cs *S, double lb, double ub, int64_t cost, int integer) {
  GROW_ALL(S->ccap, S->ncols + 1, 1024, S->lb, S->ub, S->cost, S->integer);
  S->lb[S->ncols] = lb;
  S->ub[S->ncols] = ub;
  S->cost[S->ncols] = cost;
  S->integer[S->ncols] = (char)integer;
  return S->ncols++;
}

static int cs_row(cs *S, double lb, double ub) {
  GROW_ALL(S->rcap, S->nrows + 1, 1024, S->rlb, S->rub, S->rlazy, S->rf);
  S->rlb[S->nrows] = lb;
  S->rub[S->nrows] = ub;
  S->rlazy[S->nrows] = 0;
  S->rf[S->nrows] = -1;
  return S->nrows++;
}

static void cs_put(cs *S, int row, int col, double v) {
  if (S->nnz >= S->cap) {
    S->full = 1;
    return;
  }
  GROW_ALL(S->tcap, S->nnz + 1, 4096, S->tr, S->tc, S->tv);
  S->tr[S->nnz] = row;
  S->tc[S->nnz] = col;
  S->tv[S->nnz] = v;
  S->nnz++;
}

/* The gaps (a, b] between u's needed points with an overloaded stage in
 * them, and their pieces: each overloaded stage alone, each run of other
 * stages together. */
static void cs_gaps(cs *S) {
  const remat_graph *g = S->g;
  int cap = 1024;
  S->pfirst = util_malloc((size_t)cap * sizeof *S->pfirst);
  S->gfirst = util_malloc((size_t)S->n * sizeof *S->gfirst);
  S->gcount = util_calloc((size_t)S->n, sizeof *S->gcount);
  for (int u = 0; u < S->n; u++) {
    S->gfirst[u] = S->ngaps;
    if (cs_copies(S, u) == 1) continue;
    int prev = u;
    for (int e = g->succ_off[u]; e < g->succ_off[u + 1]; e++) {
      int a = prev, b = g->succ[e];
      prev = b;
      if (!cs_hits(S, a + 1, b)) continue;
      GROW_ALL(S->gcap, S->ngaps + 1, 1024, S->gu, S->ga, S->gb, S->gc, S->gn);
      int j = S->ngaps++;
      S->gu[j] = u;
      S->ga[j] = a;
      S->gb[j] = b;
      S->gc[j] = S->npieces;
      for (int s = a + 1; s <= b;) {
        GROW(S->pfirst, cap, S->npieces + 1, 1);
        S->pfirst[S->npieces++] = s;
        if (S->over[s]) s++;
        else
          while (s <= b && !S->over[s]) s++;
      }
      S->gn[j] = S->npieces - S->gc[j];
      S->gcount[u]++;
    }
  }
}

/* The piece column of gap j that holds stage s (a < s <= b). */
static int cs_piece(const cs *S, int j, int s) {
  int lo = S->gc[j], hi = S->gc[j] + S->gn[j] - 1;
  while (lo < hi) {
    int mid = (lo + hi + 1) / 2;
    if (S->pfirst[mid] <= s) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/* The gap of v around stage s (a < s <= b), or -1. */
static int cs_gap_at(const cs *S, int v, int s) {
  int lo = S->gfirst[v], hi = S->gfirst[v] + S->gcount[v];
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (S->gb[mid] < s) lo = mid + 1;
    else hi = mid;
  }
  return lo < S->gfirst[v] + S->gcount[v] && S->ga[lo] < s ? lo : -1;
}

/* The gaps around each overloaded stage s (a < s <= b), in compressed
 * rows: at[off[s]..off[s+1]). */
static void cs_around(const cs *S, int **off, int **at) {
  int *o = util_calloc((size_t)S->n + 2, sizeof *o);
  for (int j = 0; j < S->ngaps; j++)
    for (int s = S->ga[j] + 1; s <= S->gb[j]; s++)
      if (S->over[s]) o[s + 1]++;
  for (int s = 0; s <= S->n; s++) o[s + 1] += o[s];
  int *pos = util_malloc(((size_t)S->n + 1) * sizeof *pos);
  memcpy(pos, o, ((size_t)S->n + 1) * sizeof *pos);
  int *a = util_malloc(((size_t)o[S->n] + 1) * sizeof *a);
  for (int j = 0; j < S->ngaps; j++)
    for (int s = S->ga[j] + 1; s <= S->gb[j]; s++)
      if (S->over[s]) a[pos[s]++] = j;
  free(pos);
  *off = o;
  *at = a;
}

/* Puts coef times "u_j out of memory at a step of stage k before k's
 * own" into the row: then u_j is computed again in stage k after that
 * step, or is out at k's step (z_jk) and computed later.  With C_u = 2 it
 * is computed again once at most, so the first means that its last
 * computation in the gap falls in stage k: z_jk + X[j,k] - X[j, after
 * k]; otherwise X[j,k] (computed again at stage k or later), which bounds
 * both (built lazily: always). */
static void cs_out(cs *S, int row, int j, int k, double coef) {
  int c = cs_piece(S, j, k);
  cs_put(S, row, c, coef);
  if (S->lazy || cs_copies(S, S->gu[j]) != 2 || S->gb[j] == k) return;
  cs_put(S, row, S->zcol[j], coef);
  cs_put(S, row, c + 1, -coef);
}

/* The columns E_pk (p kept through the current stage; listed in elist,
 * whose length it returns) and R_p (p computed after its last reader),
 * where p has none yet. */
static int cs_kept(cs *S, int p, int *elist, int ne) {
  if (S->ecol[p] >= 0) return ne;
  S->ecol[p] = cs_col(S, 0, 1, 0, 0);
  elist[ne++] = p;
  if (S->rcol[p] < 0) S->rcol[p] = cs_col(S, 0, 1, S->g->w[p], 1);
  return ne;
}

/* The rows of the inputs q of u's input p (last read before k, as p is)
 * for u's gap j around stage k, whose piece after k is column `after`:
 * where p is out of memory at k and u computed after k, p is computed
 * after k, and q must be at hand then: E_qk + E_pk + R_q >= X[j, after k].
 * Returns elist's length (cs_kept). */
static int cs_inputs_of(cs *S, int k, double R, int after, int p, int64_t big, int *elist,
                        int ne) {
  const remat_graph *g = S->g;
  for (int e = g->pred_off[p]; e < g->pred_off[p + 1] && !S->full; e++) {
    int q = g->pred[e];
    if (S->lr[q] >= k) continue; /* in L_k: counted there */
    if ((double)(g->m[q] > big ? g->m[q] : big) > CS_MAX_RATIO * R) continue;
    ne = cs_kept(S, q, elist, ne);
    int r = cs_row(S, 0, DBL_MAX);
    cs_put(S, r, S->ecol[q], 1);
    cs_put(S, r, S->ecol[p], 1);
    cs_put(S, r, S->rcol[q], 1);
    cs_put(S, r, after, -1);
  }
  return ne;
}

/* The rows of overloaded stage k (cover_steps.h); every row is divided by
 * the excess R = L_k - M, and a row's right-hand side is lowered by half
 * a byte (sizes are whole bytes: the same schedules, a weaker LP). */
static void cs_stage(cs *S, int k, const int *gj, int ng, int *elist) {
  const remat_graph *g = S->g;
  double R = (double)(S->load[k] - S->M);
  int ne = 0;
  /* z_jk = 1: u out of memory at k's step, computed again after k;
   * built lazily, X[j, after k] itself */
  for (int x = 0; x < ng && !S->full; x++) {
    int j = gj[x];
    if (S->gb[j] == k) continue; /* read at k: in memory there */
    if (S->lazy) {
      S->zcol[j] = cs_piece(S, j, k) + 1;
      continue;
    }
    S->zcol[j] = cs_col(S, 0, 1, 0, 0);
    int r = cs_row(S, -DBL_MAX, 0);
    cs_put(S, r, S->zcol[j], 1);
    cs_put(S, r, cs_piece(S, j, k) + 1, -1);
  }
  /* the inputs kept through k: E_pk >= X[j, after k] - R_p */
  for (int x = 0; x < ng && !S->full; x++) {
    int j = gj[x], u = S->gu[j];
    if (S->gb[j] == k) continue; /* read at k: in memory there */
    int after = cs_piece(S, j, k) + 1;
    for (int q = g->pred_off[u]; q < g->pred_off[u + 1]; q++) {
      int p = g->pred[q];
      /* p in L_k (read at k or later) is counted there already */
      if (S->lr[p] >= k) continue;
      int64_t big = g->m[u] > g->m[p] ? g->m[u] : g->m[p];
      if ((double)big > CS_MAX_RATIO * R) continue;
      ne = cs_kept(S, p, elist, ne);
      int r = cs_row(S, 0, DBL_MAX);
      S->rlazy[r] = (char)S->lazy;
      cs_put(S, r, S->ecol[p], 1);
      cs_put(S, r, after, -1);
      cs_put(S, r, S->rcol[p], 1);
      if (!S->lazy) ne = cs_inputs_of(S, k, R, after, p, big, elist, ne);
    }
  }
  /* the stage's own step; a piece's coefficient is clipped where it alone
   * meets the row whatever E is (the same 0/1 solutions) */
  double emass = 0;
  for (int x = 0; x < ne; x++) emass += (double)g->m[elist[x]] / R;
  int r = cs_row(S, 1.0 - 0.5 / R, DBL_MAX);
  for (int x = 0; x < ng; x++) {
    int j = gj[x];
    if (S->gb[j] == k) continue;
    double v = (double)g->m[S->gu[j]] / R;
    cs_put(S, r, S->zcol[j], v > 1 + emass ? 1 + emass : v);
  }
  for (int x = 0; x < ne; x++) cs_put(S, r, S->ecol[elist[x]], -(double)g->m[elist[x]] / R);
  /* the recomputing steps: F_k at most the sum of m_v over the values
   * out of memory at a step of stage k before k's own (cs_out).  The
   * inputs kept through k (E) stay out of these rows: where u's last
   * computation falls elsewhere, nothing makes the values out of memory
   * outweigh them (bench/RESULTS.md#cover-steps-rows). */
  int64_t mmax = 0;
  for (int x = 0; x < ng; x++)
    if (g->m[S->gu[gj[x]]] > mmax) mmax = g->m[S->gu[gj[x]]];
  int fcol = -1, first_rr = S->nrows;
  if ((double)mmax <= CS_MAX_RATIO * R) {
    for (int x = 0; x < ng && !S->full; x++) {
      int j = gj[x], u = S->gu[j];
      int64_t need = S->load[k] - g->m[k] - S->M;
      for (int q = g->pred_off[u]; q < g->pred_off[u + 1]; q++)
        if (S->lr[g->pred[q]] < k) need += g->m[g->pred[q]];
      if (need <= 0 || (double)need > CS_MAX_RATIO * R) continue;
      if (fcol < 0) fcol = cs_col(S, -DBL_MAX, DBL_MAX, 0, 0);
      int rr = cs_row(S, -0.5 / R, DBL_MAX);
      S->rlazy[rr] = (char)S->lazy;
      cs_put(S, rr, fcol, 1);
      for (int q = g->pred_off[u]; q <= g->pred_off[u + 1]; q++) {
        int v = q < g->pred_off[u + 1] ? g->pred[q] : u;
        int jv = v == u ? j : cs_gap_at(S, v, k);
        if (jv >= 0) cs_out(S, rr, jv, k, -(double)g->m[v] / R);
      }
      int c = cs_piece(S, j, k);
      cs_put(S, rr, c, -(double)need / R);
      if (S->gb[j] > k) cs_put(S, rr, c + 1, (double)need / R);
    }
  }
  if (fcol >= 0) {
    int fr = cs_row(S, 0, DBL_MAX); /* F_k at most the sum */
    for (int x = 0; x < ng; x++) {
      int j = gj[x];
      cs_out(S, fr, j, k, (double)g->m[S->gu[j]] / R);
    }
    cs_put(S, fr, fcol, -1);
    for (int r = first_rr; r < fr; r++) S->rf[r] = fr; /* the rows of the loop above */
  }
  for (int x = 0; x < ne; x++) S->ecol[elist[x]] = -1;
  for (int x = 0; x < ng; x++) S->zcol[gj[x]] = -1;
}

/* The entries in compressed columns, duplicates summed. */
static void cs_compress(const cs *S, covlp *L) {
  covlp_alloc(L, S->ncols, S->nrows, S->nnz);
  lp_model *A = &L->lp;
  for (long long i = 0; i < S->nnz; i++) A->start[S->tc[i] + 1]++;
  for (int c = 0; c < S->ncols; c++) A->start[c + 1] += A->start[c];
  int *pos = util_malloc(((size_t)S->ncols + 1) * sizeof *pos);
  memcpy(pos, A->start, ((size_t)S->ncols + 1) * sizeof *pos);
  for (long long i = 0; i < S->nnz; i++) {
    int at = pos[S->tc[i]]++;
    A->index[at] = S->tr[i];
    A->value[at] = S->tv[i];
  }
  free(pos);
  /* sort each column by row (short columns: insertion sort) and merge */
  int z = 0;
  for (int c = 0; c < S->ncols; c++) {
    int from = A->start[c], to = A->start[c + 1];
    for (int x = from + 1; x < to; x++)
      for (int y = x; y > from && A->index[y] < A->index[y - 1]; y--) {
        int ti = A->index[y];
        A->index[y] = A->index[y - 1];
        A->index[y - 1] = ti;
        double tv = A->value[y];
        A->value[y] = A->value[y - 1];
        A->value[y - 1] = tv;
      }
    A->start[c] = z;
    for (int x = from; x < to; x++) {
      if (z > A->start[c] && A->index[z - 1] == A->index[x]) {
        A->value[z - 1] += A->value[x];
      } else {
        A->index[z] = A->index[x];
        A->value[z++] = A->value[x];
      }
    }
  }
  A->start[S->ncols] = z;
  A->nnz = z;
  for (int c = 0; c < S->ncols; c++) {
    A->collb[c] = S->lb[c];
    A->colub[c] = S->ub[c];
    L->cost[c] = S->cost[c];
    A->integer[c] = S->integer[c];
  }
  memcpy(A->rowlb, S->rlb, (size_t)S->nrows * sizeof *A->rowlb);
  memcpy(A->rowub, S->rub, (size_t)S->nrows * sizeof *A->rowub);
}


/* The problem, whole or built lazily; NULL past its cap. */
static cs *cs_build(const remat_graph *g, const cover_params *p, const int64_t *load, int lazy) {
  cs *S = util_calloc(1, sizeof *S);
  S->g = g;
  S->p = p;
  S->load = load;
  S->lazy = lazy;
  S->cap = lazy ? COVER_STEPS_LAZY_MAX_NONZEROS : COVER_STEPS_MAX_NONZEROS;
  S->n = g->n;
  S->M = p->budget;
  size_t nn = (size_t)(g->n ? g->n : 1);
  S->over = util_calloc(nn, sizeof *S->over);
  S->before = util_malloc((nn + 1) * sizeof *S->before);
  S->lr = util_malloc(nn * sizeof *S->lr);
  S->rcol = util_malloc(nn * sizeof *S->rcol);
  S->ecol = util_malloc(nn * sizeof *S->ecol);
  S->before[0] = 0;
  for (int k = 0; k < S->n; k++) {
    S->over[k] = load[k] > S->M;
    S->before[k + 1] = S->before[k] + S->over[k];
    int e = g->succ_off[k + 1];
    S->lr[k] = e > g->succ_off[k] ? g->succ[e - 1] : k;
    S->rcol[k] = S->ecol[k] = -1;
  }
  cs_gaps(S);
  S->zcol = util_malloc(((size_t)S->ngaps + 1) * sizeof *S->zcol);
  for (int j = 0; j < S->ngaps; j++) S->zcol[j] = -1;
  /* the pieces are the first columns: X[j, c] in [0, 1], X[j, 0] = y_j
   * costs w_u and is whole */
  for (int j = 0; j < S->ngaps; j++)
    for (int c = 0; c < S->gn[j]; c++) cs_col(S, 0, 1, c ? 0 : g->w[S->gu[j]], c == 0);
  for (int j = 0; j < S->ngaps && !S->full; j++)
    for (int c = S->gc[j]; c + 1 < S->gc[j] + S->gn[j]; c++) { /* X nonincreasing */
      int r = cs_row(S, 0, DBL_MAX);
      cs_put(S, r, c, 1);
      cs_put(S, r, c + 1, -1);
    }
  int *off, *at;
  cs_around(S, &off, &at);
  int *elist = util_malloc(nn * sizeof *elist);
  for (int k = 0; k < S->n && !S->full; k++) {
    if (S->over[k]) cs_stage(S, k, at + off[k], off[k + 1] - off[k], elist);
    if (child_stopping()) S->full = 1; /* in the solve's child, told to end */
  }
  UTIL_FREE(off, at, elist);
  /* at most C_u - 1 computations after the first */
  for (int u = 0; u < S->n && !S->full; u++) {
    int c = cs_copies(S, u), k = S->gcount[u] + (S->rcol[u] >= 0);
    if (c == 0 || k <= c - 1) continue;
    int r = cs_row(S, -DBL_MAX, c - 1);
    for (int j = S->gfirst[u]; j < S->gfirst[u] + S->gcount[u]; j++) cs_put(S, r, S->gc[j], 1);
    if (S->rcol[u] >= 0) cs_put(S, r, S->rcol[u], 1);
  }
  if (S->full) {
    cover_steps_free(S);
    return NULL;
  }
  return S;
}

cover_steps *cover_steps_new(const remat_graph *g, const cover_params *p, const int64_t *load) {
  cs *S = p->steps_lazy ? NULL : cs_build(g, p, load, 0);
  return S || child_stopping() ? S : cs_build(g, p, load, 1);
}

int cover_steps_lazy(const cover_steps *S) { return S->lazy; }

/* The lazily built problem's rows apart: the base ones (columns bs, bi,
 * bv, bounds blb, bub) and the generated ones (rows ls, lc, lv, bounds
 * llb, lub; lfr: the base row of its F_k bound or -1). */
typedef struct cs_split {
  int nb, nl;
  int *bs, *bi, *ls, *lc, *lfr;
  double *bv, *blb, *bub, *lv, *llb, *lub;
} cs_split;

static void cs_split_rows(const cs *S, const covlp *L, cs_split *P) {
  int nr = L->lp.nrows, nc = L->lp.ncols;
  int *to = util_malloc(((size_t)nr + 1) * sizeof *to); /* base row, or -1 - lazy row */
  P->nb = P->nl = 0;
  for (int r = 0; r < nr; r++) to[r] = S->rlazy[r] ? -1 - P->nl++ : P->nb++;
  long long nnz = L->lp.start[nc];
  P->bs = util_malloc(((size_t)nc + 1) * sizeof *P->bs);
  P->bi = util_malloc(((size_t)nnz + 1) * sizeof *P->bi);
  P->bv = util_malloc(((size_t)nnz + 1) * sizeof *P->bv);
  P->ls = util_calloc((size_t)P->nl + 2, sizeof *P->ls);
  for (long long e = 0; e < nnz; e++)
    if (to[L->lp.index[e]] < 0) P->ls[-to[L->lp.index[e]]]++; /* generated row -1 - to, + 1 */
  for (int i = 0; i < P->nl; i++) P->ls[i + 1] += P->ls[i];
  P->lc = util_malloc(((size_t)P->ls[P->nl] + 1) * sizeof *P->lc);
  P->lv = util_malloc(((size_t)P->ls[P->nl] + 1) * sizeof *P->lv);
  int *pos = util_malloc(((size_t)P->nl + 1) * sizeof *pos);
  memcpy(pos, P->ls, ((size_t)P->nl + 1) * sizeof *pos);
  int z = 0;
  for (int c = 0; c < nc; c++) {
    P->bs[c] = z;
    for (int e = L->lp.start[c]; e < L->lp.start[c + 1]; e++) {
      int r = to[L->lp.index[e]];
      if (r >= 0) {
        P->bi[z] = r;
        P->bv[z++] = L->lp.value[e];
      } else {
        int i = -1 - r;
        P->lc[pos[i]] = c;
        P->lv[pos[i]++] = L->lp.value[e];
      }
    }
  }
  P->bs[nc] = z;
  P->blb = util_malloc(((size_t)P->nb + 1) * sizeof *P->blb);
  P->bub = util_malloc(((size_t)P->nb + 1) * sizeof *P->bub);
  P->llb = util_malloc(((size_t)P->nl + 1) * sizeof *P->llb);
  P->lub = util_malloc(((size_t)P->nl + 1) * sizeof *P->lub);
  P->lfr = util_malloc(((size_t)P->nl + 1) * sizeof *P->lfr);
  for (int r = 0; r < nr; r++) {
    int q = to[r];
    if (q >= 0) {
      P->blb[q] = L->lp.rowlb[r];
      P->bub[q] = L->lp.rowub[r];
    } else {
      P->llb[-1 - q] = L->lp.rowlb[r];
      P->lub[-1 - q] = L->lp.rowub[r];
      P->lfr[-1 - q] = S->rf[r] >= 0 ? to[S->rf[r]] : -1; /* F_k's rows are base rows */
    }
  }
  UTIL_FREE(to, pos);
}

static void cs_split_free(cs_split *P) {
  UTIL_FREE(P->bs, P->bi, P->bv, P->ls, P->lc, P->lv, P->blb, P->bub, P->llb, P->lub, P->lfr);
}

/* A generated row is added when the LP's solution misses it by more than
 * this (its rows are scaled by the stage's excess: about 1). */
#define CS_VIOLATED 1e-7

/* The rounds of the lazily built problem's LP (cover_steps.h). */
static void cs_rounds(const cs *S, const covlp *L, double limit, cover_out *o) {
  double t0 = util_now();
  cs_split P;
  cs_split_rows(S, L, &P);
  Clp_Simplex *lp = Clp_newModel();
  Clp_setLogLevel(lp, 0);
  Clp_loadProblem(lp, L->lp.ncols, P.nb, P.bs, P.bi, P.bv, L->lp.collb, L->lp.colub, L->lp.obj,
                  P.blb, P.bub);
  char *in = util_calloc((size_t)P.nl + 1, 1);
  int *as = util_malloc(((size_t)P.nl + 1) * sizeof *as);
  int *ac = util_malloc(((size_t)P.ls[P.nl] + 1) * sizeof *ac);
  double *av = util_malloc(((size_t)P.ls[P.nl] + 1) * sizeof *av);
  double *alb = util_malloc(((size_t)P.nl + 1) * sizeof *alb);
  double *aub = util_malloc(((size_t)P.nl + 1) * sizeof *aub);
  for (int pass = 0;; pass++) {
    double left = limit - (util_now() - t0);
    if (left <= 0.01 || child_stopping()) break;
    Clp_setMaximumSeconds(lp, left);
    /* the first LP with Clp's presolve: its later rounds' dual simplex
     * then took a third less time on random_layered_n1000
     * (bench/RESULTS.md#cover-steps-lazy) */
    if (pass == 0)
      Clp_initialSolve(lp);
    else
      Clp_dual(lp, 0);
    if (Clp_status(lp) != 0) break; /* out of time (or worse): the rounds so far */
    int64_t inc = covlp_round_up(L, Clp_objectiveValue(lp));
    if (o->status == COVER_NONE || inc > o->increase) {
      o->status = COVER_BOUND;
      o->lp = 1;
      o->increase = inc;
      if (S->p->plain_done) S->p->plain_done(S->p->ctx, o);
    }
    /* the generated rows the solution misses; a recomputing step's row
     * with F_k at the sum it bounds (its base row's activity added) */
    const double *x = Clp_getColSolution(lp), *act = Clp_getRowActivity(lp);
    int add = 0, k = 0;
    for (int i = 0; i < P.nl; i++) {
      if (in[i]) continue;
      double a = P.lfr[i] >= 0 ? act[P.lfr[i]] : 0;
      for (int e = P.ls[i]; e < P.ls[i + 1]; e++) a += P.lv[e] * x[P.lc[e]];
      if (a >= P.llb[i] - CS_VIOLATED) continue;
      in[i] = 1;
      as[add] = k;
      for (int e = P.ls[i]; e < P.ls[i + 1]; e++) {
        ac[k] = P.lc[e];
        av[k++] = P.lv[e];
      }
      alb[add] = P.llb[i];
      aub[add++] = P.lub[i];
    }
    if (!add) break; /* the looser problem's LP optimum */
    as[add] = k;
    Clp_addRows(lp, add, alb, aub, as, ac, av);
  }
  Clp_deleteModel(lp);
  UTIL_FREE(in, as, ac, av, alb, aub);
  cs_split_free(&P);
}

void cover_steps_solve(cover_steps *S, double limit, cover_out *o) {
  double t0 = util_now();
  memset(o, 0, sizeof *o);
  o->status = COVER_NONE;
  o->cols = S->ncols;
  o->rows = S->nrows;
  o->nnz = S->nnz;
  covlp L;
  cs_compress(S, &L);
  covlp_scale(&L);
  double left = limit - (util_now() - t0);
  if (left > 0.01 && S->lazy)
    cs_rounds(S, &L, left, o);
  else if (left > 0.01)
    covlp_run(&L, left, COVLP_LP_PROVE, S->p, o);
  covlp_free(&L);
}

void cover_steps_free(cover_steps *S) {
  if (!S) return;
  UTIL_FREE(S->zcol, S->over, S->before, S->lr, S->gu, S->ga, S->gb, S->gc, S->gn,
            S->gfirst, S->gcount, S->pfirst, S->lb, S->ub, S->cost, S->integer, S->rcol,
            S->ecol, S->rlb, S->rub, S->rlazy, S->rf, S->tr, S->tc, S->tv);
  free(S);
}
