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
#include "grow.h"
#include "util.h"

/* A lattice edge: ideal a plus node k is ideal b. */
typedef struct covf_edge {
  int a, k, b;
} covf_edge;

typedef struct covf {
  const remat_graph *g;
  const cover_params *p;
  int n, W;           /* nodes, 64-bit words per set */
  uint64_t *sets;     /* ideal i: sets[i * W .. (i + 1) * W) */
  int nsets, cap;
  int *slot;          /* open addressing: ideal index or -1 */
  int nslot;
  covf_edge *edge;    /* the lattice's edges */
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
  UTIL_FREE(F->sets, F->slot, F->edge, F->live, F->yu, F->yh, F->yslot);
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
  if (GROW_CAP(F->cap, F->nsets + 1, 256))
    F->sets = util_realloc(F->sets, (size_t)F->cap * bytes);
  memcpy(F->sets + (size_t)F->nsets * F->W, s, bytes);
  F->slot[i] = F->nsets;
  return F->nsets++;
}

static void covf_add_edge(covf *F, int a, int k, int b) {
  PUSH(F->edge, F->ne, F->ecap, 1024, ((covf_edge){a, k, b}));
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
      else covf_add_edge(F, i, k, b);
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
  GROW_ALL(F->ycap, F->ny + 1, 1024, F->yu, F->yh);
  F->yu[F->ny] = u;
  F->yh[F->ny] = h;
  F->yslot[i] = F->ny;
  return F->ny++;
}

/* The inputs' extension (as cover.c's for one order).  When u is out of
 * memory at the step of edge e = (S, k), it is computed again after it,
 * and each input p of u is in memory then.  If p is dead in S (all its
 * readers computed), that copy of p was either kept through e's step,
 * outside L(S, k) (E[p,e] = 1, -m_p in e's row), or computed after its
 * last reader (R[p] = 1, cost w_p: a computation no gap of p counts, one
 * may serve every reader).  So on the chain's edges
 *     E[p,e] >= a_p (y[u,T] - R[p]),
 * with shares a_p in [0, 1], sum a_p m_p <= m_u, the heaviest inputs
 * whole: where u is in memory at e but dropped elsewhere in its gap, the
 * row counts m_u that the step does not free, which covers what the
 * shares take from it (cover.c says more).  The same rows hold off the
 * chain: there x_e = 0, and whatever they force, each y in e's row
 * counts at least the shares it forces, so the row holds. */

/* Column kinds, numbered in this order once their counts are known: the
 * lattice's edges x, the gaps y, the inputs' R, their E. */
enum { COVF_X, COVF_Y, COVF_R, COVF_E };

/* A matrix entry before the columns are numbered and sorted. */
typedef struct covf_nz {
  int kind, col, row;
  double v;
} covf_nz;

/* The problem as it is built. */
typedef struct covf_prob {
  covf_nz *a;
  long long n, cap;
  double *rlb, *rub; /* per row */
  int nrows, rcap;
  int *rnode, nr;    /* R column -> node */
  int *rcol;         /* node -> R column, or -1 */
  int ne;            /* E columns */
} covf_prob;

static void covf_put(covf_prob *P, int kind, int col, int row, double v) {
  PUSH(P->a, P->n, P->cap, 4096, ((covf_nz){kind, col, row, v}));
}

static int covf_row(covf_prob *P, double lb, double ub) {
  GROW_ALL(P->rcap, P->nrows + 1, 4096, P->rlb, P->rub);
  P->rlb[P->nrows] = lb;
  P->rub[P->nrows] = ub;
  return P->nrows++;
}

static int covf_rcol(covf_prob *P, int p) {
  if (P->rcol[p] < 0) {
    P->rnode[P->nr] = p;
    P->rcol[p] = P->nr++;
  }
  return P->rcol[p];
}

static int covf_nz_cmp(const void *x, const void *y) {
  const covf_nz *a = x, *b = y;
  return a->col != b->col ? (a->col > b->col) - (a->col < b->col)
                          : (a->row > b->row) - (a->row < b->row);
}

/* The values u in e's row: live in s, not read by k, that may be dropped. */
static int covf_droppable(const covf *F, const uint64_t *s, int u, int k) {
  return covf_copies(F, u) != 1 && F->g->m[u] > 0 && covf_is_live(F->g, s, u) &&
         !graph_is_pred(F->g, u, k);
}

/* u's inputs dead in s with their shares (the inputs' extension),
 * heaviest first; their number. */
static int covf_shares(const covf *F, const uint64_t *s, int u, int64_t R, int *pick,
                       double *share) {
  const remat_graph *g = F->g;
  int np = 0;
  for (int q = g->pred_off[u]; q < g->pred_off[u + 1]; q++) {
    int p = g->pred[q];
    int64_t big = g->m[u] > g->m[p] ? g->m[u] : g->m[p];
    if (g->m[p] > 0 && !covf_is_live(g, s, p) && (double)big <= COVER_MAX_RATIO * (double)R)
      pick[np++] = p;
  }
  cover_heaviest_first(g->m, pick, np);
  int64_t room = g->m[u];
  int n = 0;
  for (; n < np && room > 0; n++) {
    int p = pick[n];
    share[n] = 1;
    if (g->m[p] <= room) {
      room -= g->m[p];
    } else {
      share[n] = (double)room / (double)g->m[p];
      room = 0;
      if (share[n] < COVER_MIN_SHARE) break;
    }
  }
  return n;
}

/* Edge e's row (L(S, k) - M = R > 0), scaled by R: the gaps it may drop,
 * min(m_u / R, clip), and with inputs their inputs' rows. */
static void covf_edge_row(covf *F, covf_prob *P, int e, int64_t R, int inputs, int *mark,
                          int *pick, double *share) {
  const remat_graph *g = F->g;
  int k = F->edge[e].k;
  const uint64_t *s = F->sets + (size_t)F->edge[e].a * F->W;
  int row = covf_row(P, 0, DBL_MAX);
  covf_put(P, COVF_X, e, row, -(1.0 - 0.5 / (double)R));
  /* A y alone meets the row whatever E is, as unscaled: y's coefficient
   * is clipped at 1 plus the E's. */
  double clip = 1;
  for (int u = 0; inputs && u < F->n; u++) {
    if (!covf_droppable(F, s, u, k)) continue;
    int y = covf_gap(F, u, s);
    int np = covf_shares(F, s, u, R, pick, share);
    for (int x = 0; x < np; x++) {
      int p = pick[x];
      if (mark[p] < 0) { /* E[p,e]: once per row */
        mark[p] = P->ne++;
        double d = (double)g->m[p] / (double)R;
        covf_put(P, COVF_E, mark[p], row, -d);
        clip += d;
      }
      double a = share[x];
      int in = covf_row(P, 0, DBL_MAX);
      covf_put(P, COVF_E, mark[p], in, 1);
      covf_put(P, COVF_Y, y, in, -a);
      covf_put(P, COVF_R, covf_rcol(P, p), in, a);
    }
  }
  for (int u = 0; u < F->n; u++) {
    if (!covf_droppable(F, s, u, k)) continue;
    double v = (double)g->m[u] / (double)R;
    covf_put(P, COVF_Y, covf_gap(F, u, s), row, v > clip ? clip : v);
  }
  for (int p = 0; inputs && p < F->n; p++) mark[p] = -1;
}

/* The problem: columns x_e (the lattice's edges), the gaps y, with inputs
 * R and E; rows: flow per ideal, one per overloaded edge, the inputs'
 * rows, one per node whose gaps (and R) outnumber its recomputations.
 * Returns the overloaded edges' count, or -1 (L not built) past
 * COVER_MAX_NONZEROS. */
static int covf_build(covf *F, covlp *L, int inputs) {
  const remat_graph *g = F->g;
  int64_t M = F->p->budget;
  size_t nn = (size_t)F->n;
  covf_prob P = {0};
  P.rcol = util_malloc(nn * sizeof *P.rcol);
  P.rnode = util_malloc(nn * sizeof *P.rnode);
  int *mark = util_malloc(nn * sizeof *mark);
  int *pick = util_malloc(nn * sizeof *pick);
  double *share = util_malloc(nn * sizeof *share);
  for (int v = 0; v < F->n; v++) P.rcol[v] = mark[v] = -1;
  int full = F->nsets - 1; /* breadth first, the set of all nodes comes last */
  for (int i = 0; i < F->nsets; i++) {
    double b = i == 0 ? 1 : i == full ? -1 : 0;
    covf_row(&P, b, b);
  }
  int nover = 0;
  for (int e = 0; e < F->ne && nover >= 0; e++) {
    covf_put(&P, COVF_X, e, F->edge[e].a, 1);
    covf_put(&P, COVF_X, e, F->edge[e].b, -1);
    int64_t R = g->m[F->edge[e].k] + F->live[F->edge[e].a] - M;
    if (R <= 0) continue;
    nover++;
    covf_edge_row(F, &P, e, R, inputs, mark, pick, share);
    if (P.n > COVER_MAX_NONZEROS) nover = -1;
  }
  if (nover >= 0) {
    /* the recomputations per node: its gaps and its R */
    int *ngap = util_calloc(nn, sizeof *ngap);
    for (int c = 0; c < F->ny; c++) ngap[F->yu[c]]++;
    for (int c = 0; c < P.nr; c++) ngap[P.rnode[c]]++;
    int *urow = mark;
    for (int u = 0; u < F->n; u++) {
      int c = covf_copies(F, u);
      urow[u] = c > 0 && ngap[u] > c - 1 ? covf_row(&P, -DBL_MAX, c - 1) : -1;
    }
    for (int c = 0; c < F->ny; c++)
      if (urow[F->yu[c]] >= 0) covf_put(&P, COVF_Y, c, urow[F->yu[c]], 1);
    for (int c = 0; c < P.nr; c++)
      if (urow[P.rnode[c]] >= 0) covf_put(&P, COVF_R, c, urow[P.rnode[c]], 1);
    free(ngap);
    int first[4] = {0, F->ne, F->ne + F->ny, F->ne + F->ny + P.nr};
    for (long long z = 0; z < P.n; z++) P.a[z].col += first[P.a[z].kind];
    qsort(P.a, (size_t)P.n, sizeof *P.a, covf_nz_cmp);
    int ncols = first[3] + P.ne;
    covlp_alloc(L, ncols, P.nrows, P.n);
    long long z = 0;
    for (int c = 0; c < ncols; c++) {
      L->lp.start[c] = (int)z;
      for (; z < P.n && P.a[z].col == c; z++) {
        L->lp.index[z] = P.a[z].row;
        L->lp.value[z] = P.a[z].v;
      }
      L->lp.colub[c] = 1;
      L->lp.integer[c] = c < first[3];
      L->cost[c] = c < first[1] || c >= first[3] ? 0
                   : c < first[2]                ? g->w[F->yu[c - first[1]]]
                                                 : g->w[P.rnode[c - first[2]]];
    }
    L->lp.start[ncols] = (int)z;
    L->lp.nnz = (long long)z;
    memcpy(L->lp.rowlb, P.rlb, (size_t)P.nrows * sizeof *P.rlb);
    memcpy(L->lp.rowub, P.rub, (size_t)P.nrows * sizeof *P.rub);
  }
  UTIL_FREE(P.a, P.rlb, P.rub, P.rcol, P.rnode, mark, pick, share);
  return nover;
}

/* Build the problem (with the inputs' rows or not) and solve it within
 * limit seconds: o as cover_free_solve fills it. */
static void covf_run(covf *F, int inputs, double limit, cover_out *o) {
  memset(o, 0, sizeof *o);
  o->status = COVER_NONE;
  covlp L;
  int nover = covf_build(F, &L, inputs);
  if (nover < 0) {
    snprintf(o->why, sizeof o->why, "covering problem with more than %lld nonzeros",
             COVER_MAX_NONZEROS);
    return;
  }
  o->cols = L.lp.ncols;
  o->rows = nover;
  o->nnz = L.lp.start[L.lp.ncols];
  if (nover == 0) { /* every order fits: nothing to add */
    o->status = COVER_OPTIMAL;
  } else {
    covlp_scale(&L);
    covlp_run(&L, limit, inputs ? COVLP_LP_FIRST : COVLP_CBC, F->p, o);
    if (o->status == COVER_INFEASIBLE) { /* a proof is not taken from it */
      o->status = COVER_NONE;
      snprintf(o->why, sizeof o->why, "its problem has no solution");
    }
  }
  covlp_free(&L);
}

cover_status cover_free_solve(const remat_graph *g, const cover_params *p, cover_out *o) {
  double t0 = util_now();
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
    covf_free(&F);
    return o->status;
  }
  covf_live(&F);
  /* the plain problem, then in the time left the one with the inputs'
   * rows, taken when it says more */
  covf_run(&F, 0, p->time_limit, o);
  double left = p->time_limit - (util_now() - t0);
  if (p->inputs >= 1 && o->rows > 0 && cover_answered(o) && left > 0.01) {
    if (p->plain_done) p->plain_done(p->ctx, o);
    cover_out x;
    covf_run(&F, 1, left, &x);
    cover_take(o, &x);
  }
  covf_free(&F);
  return o->status;
}
