/* cover_free.c -- the covering bound over every order (cover_free.h).
 *
 * A sequence computes the nodes for the first time in some topological
 * order; before each first computation the nodes computed so far form a
 * down-closed set S (an ideal), and the first computations walk a chain
 * of ideals from the empty set to all nodes, one node k at a time: an
 * edge S -> S + k of the lattice of ideals.  At that step k's output and
 * every value u in S with a reader outside S (the live set) are in memory
 * unless u was dropped, to be computed again before its next reader; k's
 * inputs are in memory.  So where L(S, k) = m_k + the live set's sizes is
 * above M, the values dropped there weigh at least L(S, k) - M.
 *
 * Which of u's readers are computed, T = succ(u) & S, says which gap
 * between u's needed points (u's first computation and its readers')
 * the step lies in, whatever the order: a gap in which u is out of memory
 * somewhere costs a computation of u (w_u), and different gaps different
 * ones.  With y[u,T] = 1 when u is dropped in gap T and x_e = 1 on the
 * chain's edges (a path of one unit of flow through the lattice):
 *     minimise  sum w_u y[u,T]
 *     subject to  flow conservation of x from the empty ideal to V,
 *                 for every edge e = (S, k) with L(S, k) > M:
 *                   sum of m_u y[u, succ(u) & S] over the live u that k
 *                   does not read  >=  (L(S, k) - M) x_e,
 *                 sum_T y[u,T] <= C_u - 1 (when copies are given),
 *                 x, y binary,
 * is a relaxation of the rematerialization problem over every sequence:
 * its optimum is a lower bound on the duration increase in any order.
 * (The memory the recomputations add is left out, as in the plain
 * problem of cover.c.)  Merging two gaps into one column only weakens it,
 * so gaps are told apart by a 64-bit hash of T.
 *
 * The lattice has one ideal per antichain: few on training graphs (a
 * chain forward and back, branches a few nodes wide), astronomically many
 * on wide random graphs; beyond COVF_MAX_IDEALS ideals there is no bound.
 * Rows are scaled by their excess as in cover.c; CBC solves the problem
 * (cover_lp.h).  A problem without solution proves nothing here: it is
 * reported as no bound. */
#include "cover_free.h"

#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cover_lp.h"
#include "graph.h"
#include "util.h"

typedef struct covf {
  const remat_graph *g;
  const cover_params *p;
  int n, W;           /* nodes, 64-bit words per set */
  uint64_t *sets;     /* ideal i: sets[i * W .. (i + 1) * W) */
  int nsets, cap;
  int *slot;          /* open addressing: ideal index or -1 */
  int nslot;
  int *ea, *ek, *eb;  /* lattice edge: ideal ea + node ek = ideal eb */
  int ne, ecap;
  int64_t *live;      /* the live set's size per ideal */
  /* the gaps' columns: node, hash of T */
  int *yu;
  uint64_t *yh;
  int ny, ycap;
  int *yslot;
  int nyslot;
} covf;

static void covf_free(covf *F) {
  UTIL_FREE(F->sets, F->slot, F->ea, F->ek, F->eb, F->live, F->yu, F->yh, F->yslot);
}

static uint64_t covf_mix(uint64_t h, uint64_t x) {
  h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  h *= 0xbf58476d1ce4e5b9ULL;
  return h ^ (h >> 31);
}

static int covf_in(const uint64_t *s, int v) { return (int)(s[v >> 6] >> (v & 63) & 1); }

static uint64_t covf_set_hash(const covf *F, const uint64_t *s) {
  uint64_t h = 0x243f6a8885a308d3ULL;
  for (int i = 0; i < F->W; i++) h = covf_mix(h, s[i]);
  return h;
}

/* The index of ideal s, added when new; -1 when that would pass the cap. */
static int covf_ideal(covf *F, const uint64_t *s) {
  size_t bytes = (size_t)F->W * sizeof *s;
  uint64_t h = covf_set_hash(F, s);
  int i = (int)(h & (uint64_t)(F->nslot - 1));
  while (F->slot[i] >= 0) {
    if (!memcmp(F->sets + (size_t)F->slot[i] * F->W, s, bytes)) return F->slot[i];
    i = (i + 1) & (F->nslot - 1);
  }
  if (F->nsets == COVF_MAX_IDEALS) return -1;
  if (F->nsets == F->cap) {
    F->cap = F->cap ? 2 * F->cap : 256;
    F->sets = util_realloc(F->sets, (size_t)F->cap * bytes);
  }
  memcpy(F->sets + (size_t)F->nsets * F->W, s, bytes);
  F->slot[i] = F->nsets;
  return F->nsets++;
}

static void covf_edge(covf *F, int a, int k, int b) {
  if (F->ne == F->ecap) {
    F->ecap = F->ecap ? 2 * F->ecap : 1024;
    F->ea = util_realloc(F->ea, (size_t)F->ecap * sizeof *F->ea);
    F->ek = util_realloc(F->ek, (size_t)F->ecap * sizeof *F->ek);
    F->eb = util_realloc(F->eb, (size_t)F->ecap * sizeof *F->eb);
  }
  F->ea[F->ne] = a;
  F->ek[F->ne] = k;
  F->eb[F->ne] = b;
  F->ne++;
}

/* Every ideal (breadth first from the empty set) and the lattice's edges;
 * 0, or -1 past COVF_MAX_IDEALS. */
static int covf_lattice(covf *F) {
  const remat_graph *g = F->g;
  F->nslot = 1;
  while (F->nslot < 2 * COVF_MAX_IDEALS) F->nslot <<= 1;
  F->slot = util_malloc((size_t)F->nslot * sizeof *F->slot);
  for (int i = 0; i < F->nslot; i++) F->slot[i] = -1;
  uint64_t *s = util_calloc((size_t)F->W, sizeof *s);
  covf_ideal(F, s);
  int rc = 0;
  for (int i = 0; i < F->nsets && !rc; i++) {
    memcpy(s, F->sets + (size_t)i * F->W, (size_t)F->W * sizeof *s);
    for (int k = 0; k < F->n && !rc; k++) {
      if (covf_in(s, k)) continue;
      int ready = 1;
      for (int j = g->pred_off[k]; j < g->pred_off[k + 1] && ready; j++)
        ready = covf_in(s, g->pred[j]);
      if (!ready) continue;
      s[k >> 6] |= 1ULL << (k & 63);
      int b = covf_ideal(F, s);
      s[k >> 6] &= ~(1ULL << (k & 63));
      if (b < 0) rc = -1;
      else covf_edge(F, i, k, b);
    }
  }
  free(s);
  return rc;
}

/* Is u in set s and live there: read by a node outside s? */
static int covf_is_live(const remat_graph *g, const uint64_t *s, int u) {
  if (!covf_in(s, u)) return 0;
  for (int j = g->succ_off[u]; j < g->succ_off[u + 1]; j++)
    if (!covf_in(s, g->succ[j])) return 1;
  return 0;
}

/* The live set's size of each ideal. */
static void covf_live(covf *F) {
  F->live = util_calloc((size_t)F->nsets, sizeof *F->live);
  for (int i = 0; i < F->nsets; i++)
    for (int u = 0; u < F->n; u++)
      if (covf_is_live(F->g, F->sets + (size_t)i * F->W, u)) F->live[i] += F->g->m[u];
}

static int covf_copies(const covf *F, int u) {
  const int *c = F->p->copies;
  return c && c[u] > 0 ? c[u] : 0; /* 0: any */
}

/* The column of u's gap whose computed readers are those in s. */
static int covf_gap(covf *F, int u, const uint64_t *s) {
  const remat_graph *g = F->g;
  uint64_t h = covf_mix(0x13198a2e03707344ULL, (uint64_t)u);
  for (int j = g->succ_off[u]; j < g->succ_off[u + 1]; j++)
    if (covf_in(s, g->succ[j])) h = covf_mix(h, (uint64_t)g->succ[j]);
  if (2 * (F->ny + 1) > F->nyslot) { /* grow and rehash */
    int n2 = F->nyslot ? 2 * F->nyslot : 1024;
    int *t = util_malloc((size_t)n2 * sizeof *t);
    for (int i = 0; i < n2; i++) t[i] = -1;
    for (int c = 0; c < F->ny; c++) {
      int i = (int)(covf_mix(F->yh[c], (uint64_t)F->yu[c]) & (uint64_t)(n2 - 1));
      while (t[i] >= 0) i = (i + 1) & (n2 - 1);
      t[i] = c;
    }
    free(F->yslot);
    F->yslot = t;
    F->nyslot = n2;
  }
  int i = (int)(covf_mix(h, (uint64_t)u) & (uint64_t)(F->nyslot - 1));
  while (F->yslot[i] >= 0) {
    int c = F->yslot[i];
    if (F->yu[c] == u && F->yh[c] == h) return c;
    i = (i + 1) & (F->nyslot - 1);
  }
  if (F->ny == F->ycap) {
    F->ycap = F->ycap ? 2 * F->ycap : 1024;
    F->yu = util_realloc(F->yu, (size_t)F->ycap * sizeof *F->yu);
    F->yh = util_realloc(F->yh, (size_t)F->ycap * sizeof *F->yh);
  }
  F->yu[F->ny] = u;
  F->yh[F->ny] = h;
  F->yslot[i] = F->ny;
  return F->ny++;
}

/* A matrix entry (row, column, value) before the columns are sorted. */
typedef struct covf_nz {
  int col, row;
  double v;
} covf_nz;

typedef struct covf_nzs {
  covf_nz *a;
  long long n, cap;
} covf_nzs;

static void covf_put(covf_nzs *Z, int col, int row, double v) {
  if (Z->n == Z->cap) {
    Z->cap = Z->cap ? 2 * Z->cap : 4096;
    Z->a = util_realloc(Z->a, (size_t)Z->cap * sizeof *Z->a);
  }
  Z->a[Z->n++] = (covf_nz){col, row, v};
}

static int covf_nz_cmp(const void *x, const void *y) {
  const covf_nz *a = x, *b = y;
  return a->col != b->col ? (a->col > b->col) - (a->col < b->col)
                          : (a->row > b->row) - (a->row < b->row);
}

/* The problem: columns x_e (the lattice's edges), then y (the gaps);
 * rows: flow per ideal, one per overloaded edge, one per node whose gaps
 * outnumber its recomputations.  Returns the overloaded edges' count, or
 * -1 (L not built) past COVER_MAX_NONZEROS. */
static int covf_build(covf *F, covlp *L) {
  const remat_graph *g = F->g;
  int64_t M = F->p->budget;
  covf_nzs Z = {0};
  int full = F->nsets - 1; /* breadth first, the set of all nodes comes last */
  int nrows = F->nsets, nover = 0;
  for (int e = 0; e < F->ne; e++) {
    covf_put(&Z, e, F->ea[e], 1);
    covf_put(&Z, e, F->eb[e], -1);
    int k = F->ek[e];
    int64_t R = g->m[k] + F->live[F->ea[e]] - M;
    if (R <= 0) continue;
    int row = nrows++;
    nover++;
    covf_put(&Z, e, row, -(1.0 - 0.5 / (double)R));
    const uint64_t *s = F->sets + (size_t)F->ea[e] * F->W;
    for (int u = 0; u < F->n; u++) {
      if (covf_copies(F, u) == 1 || g->m[u] <= 0 || !covf_is_live(g, s, u) ||
          graph_is_pred(g, u, k))
        continue;
      double v = (double)g->m[u] / (double)R;
      covf_put(&Z, -1 - covf_gap(F, u, s), row, v > 1 ? 1 : v); /* y: numbered below */
    }
    if (Z.n > COVER_MAX_NONZEROS) {
      free(Z.a);
      return -1;
    }
  }
  /* y columns were put as -1 - c: number them after the edges */
  for (long long z = 0; z < Z.n; z++)
    if (Z.a[z].col < 0) Z.a[z].col = F->ne + (-1 - Z.a[z].col);
  int *ngap = util_calloc((size_t)F->n, sizeof *ngap);
  for (int c = 0; c < F->ny; c++) ngap[F->yu[c]]++;
  int *urow = util_malloc((size_t)F->n * sizeof *urow);
  for (int u = 0; u < F->n; u++) {
    int c = covf_copies(F, u);
    urow[u] = c > 0 && ngap[u] > c - 1 ? nrows++ : -1;
  }
  for (int c = 0; c < F->ny; c++)
    if (urow[F->yu[c]] >= 0) covf_put(&Z, F->ne + c, urow[F->yu[c]], 1);
  qsort(Z.a, (size_t)Z.n, sizeof *Z.a, covf_nz_cmp);
  int ncols = F->ne + F->ny;
  covlp_alloc(L, ncols, nrows, Z.n);
  long long z = 0;
  for (int c = 0; c < ncols; c++) {
    L->start[c] = (int)z;
    for (; z < Z.n && Z.a[z].col == c; z++) {
      L->index[z] = Z.a[z].row;
      L->value[z] = Z.a[z].v;
    }
    L->colub[c] = 1;
    L->integer[c] = 1;
    L->cost[c] = c < F->ne ? 0 : g->w[F->yu[c - F->ne]];
  }
  L->start[ncols] = (int)z;
  for (int i = 0; i < F->nsets; i++) {
    double b = i == 0 ? 1 : i == full ? -1 : 0;
    L->rowlb[i] = L->rowub[i] = b;
  }
  for (int r = F->nsets; r < F->nsets + nover; r++) {
    L->rowlb[r] = 0;
    L->rowub[r] = DBL_MAX;
  }
  for (int u = 0; u < F->n; u++)
    if (urow[u] >= 0) {
      L->rowlb[urow[u]] = -DBL_MAX;
      L->rowub[urow[u]] = covf_copies(F, u) - 1;
    }
  UTIL_FREE(ngap, urow, Z.a);
  return nover;
}

cover_status cover_free_solve(const remat_graph *g, const cover_params *p, cover_out *o) {
  memset(o, 0, sizeof *o);
  o->status = COVER_NONE;
  if (g->n > COVF_MAX_NODES) {
    snprintf(o->why, sizeof o->why, "more than %d nodes", COVF_MAX_NODES);
    return o->status;
  }
  if (remat_graph_max_duration(g) < 0) {
    snprintf(o->why, sizeof o->why, "durations too large: sums of them could pass 64 bits");
    return o->status;
  }
  covf F;
  memset(&F, 0, sizeof F);
  F.g = g;
  F.p = p;
  F.n = g->n;
  F.W = (g->n + 63) / 64 > 0 ? (g->n + 63) / 64 : 1;
  if (covf_lattice(&F)) {
    snprintf(o->why, sizeof o->why, "more than %d down-closed sets", COVF_MAX_IDEALS);
  } else {
    covf_live(&F);
    covlp L;
    int nover = covf_build(&F, &L);
    if (nover < 0) {
      snprintf(o->why, sizeof o->why, "covering problem with more than %lld nonzeros",
               COVER_MAX_NONZEROS);
      covf_free(&F);
      return o->status;
    }
    o->cols = L.ncols;
    o->rows = nover;
    o->nnz = L.start[L.ncols];
    if (nover == 0) { /* every order fits: nothing to add */
      o->status = COVER_OPTIMAL;
    } else {
      covlp_scale(&L);
      covlp_run(&L, p->time_limit, COVLP_CBC, p, o);
      if (o->status == COVER_INFEASIBLE) { /* a proof is not taken from it */
        o->status = COVER_NONE;
        snprintf(o->why, sizeof o->why, "its problem has no solution");
      }
    }
    covlp_free(&L);
  }
  covf_free(&F);
  return o->status;
}
