/* free_exact.c -- the exact free-order search (free_exact.h). */
#include "free_exact.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "util.h"

void free_exact_params_init(free_exact_params *p) {
  memset(p, 0, sizeof *p);
  p->max_states = 2000000;
  p->deadline = DEADLINE_NONE;
}

/* A state packed in 64 bits: kept copies (n bits), then computations per
 * node (cb bits each), then the last node dropped since the last
 * computation plus one (5 bits, 0: none). */
typedef struct fex {
  const remat_graph *g;
  const free_exact_params *p;
  int n, cb, cap[FREE_EXACT_MAXN];
  uint32_t preds[FREE_EXACT_MAXN]; /* predecessors as a mask */
  uint32_t succs[FREE_EXACT_MAXN];
  /* the states: open addressing */
  uint64_t *key;
  int64_t *dist;
  uint32_t *parent; /* index of the state it was reached from */
  signed char *move; /* node computed to reach it, -1 for a drop */
  size_t cap_s, size;
  /* the heap of (estimate, state index) */
  struct fex_item {
    int64_t f;
    uint32_t s;
  } *heap;
  size_t hn, hcap;
  int full;
} fex;

static int fex_count(const fex *X, uint64_t k, int v) {
  return (int)(k >> (X->n + X->cb * v) & ((1u << X->cb) - 1));
}

static uint64_t fex_kept(const fex *X, uint64_t k) {
  return k & ((UINT64_C(1) << X->n) - 1);
}

static int fex_last(const fex *X, uint64_t k) {
  return (int)(k >> (X->n + X->cb * X->n) & 31);
}

static uint64_t fex_with_last(const fex *X, uint64_t k, int last) {
  int sh = X->n + X->cb * X->n;
  return (k & ~(UINT64_C(31) << sh)) | (uint64_t)last << sh;
}

static size_t fex_slot(const fex *X, uint64_t k) {
  uint64_t h = k * UINT64_C(0x9E3779B97F4A7C15);
  size_t i = (size_t)(h >> 17) & (X->cap_s - 1);
  while (X->key[i] != UINT64_MAX && X->key[i] != k) i = (i + 1) & (X->cap_s - 1);
  return i;
}

static void fex_grow(fex *X) {
  fex old = *X;
  X->cap_s = old.cap_s ? 2 * old.cap_s : 1 << 14;
  X->key = util_malloc(X->cap_s * sizeof *X->key);
  memset(X->key, 0xff, X->cap_s * sizeof *X->key);
  X->dist = util_malloc(X->cap_s * sizeof *X->dist);
  X->parent = util_malloc(X->cap_s * sizeof *X->parent);
  X->move = util_malloc(X->cap_s);
  /* parents are slot indices: keep a map from old slots to new ones */
  uint32_t *where = util_malloc((old.cap_s ? old.cap_s : 1) * sizeof *where);
  for (size_t i = 0; i < old.cap_s; i++)
    if (old.key[i] != UINT64_MAX) {
      size_t j = fex_slot(X, old.key[i]);
      X->key[j] = old.key[i];
      X->dist[j] = old.dist[i];
      X->move[j] = old.move[i];
      where[i] = (uint32_t)j;
    }
  for (size_t i = 0; i < old.cap_s; i++)
    if (old.key[i] != UINT64_MAX) X->parent[where[i]] = where[old.parent[i]];
  for (size_t i = 0; i < X->hn; i++) X->heap[i].s = where[X->heap[i].s];
  UTIL_FREE(where, old.key, old.dist, old.parent, old.move);
}

/* The durations of the nodes never computed in k (an admissible estimate). */
static int64_t fex_h(const fex *X, uint64_t k) {
  int64_t h = 0;
  for (int v = 0; v < X->n; v++)
    if (!fex_count(X, k, v)) h += X->g->w[v];
  return h;
}

static void fex_heap_push(fex *X, int64_t f, uint32_t s) {
  GROW(X->heap, X->hcap, X->hn + 1, 1 << 12);
  size_t c = X->hn++;
  while (c > 0 && X->heap[(c - 1) / 2].f > f) {
    X->heap[c] = X->heap[(c - 1) / 2];
    c = (c - 1) / 2;
  }
  X->heap[c] = (struct fex_item){f, s};
}

static struct fex_item fex_heap_pop(fex *X) {
  struct fex_item top = X->heap[0], last = X->heap[--X->hn];
  size_t c = 0;
  for (;;) {
    size_t l = 2 * c + 1;
    if (l >= X->hn) break;
    if (l + 1 < X->hn && X->heap[l + 1].f < X->heap[l].f) l++;
    if (X->heap[l].f >= last.f) break;
    X->heap[c] = X->heap[l];
    c = l;
  }
  if (X->hn) X->heap[c] = last;
  return top;
}

/* Reach state k at distance d from state `from` (its key) by `move`. */
static void fex_reach(fex *X, uint64_t k, int64_t d, uint64_t from, int move) {
  if (2 * (X->size + 1) > X->cap_s) {
    if (X->size + 1 > X->p->max_states) {
      X->full = 1;
      return;
    }
    fex_grow(X);
  }
  size_t i = fex_slot(X, k);
  if (X->key[i] != UINT64_MAX && X->dist[i] <= d) return;
  if (X->key[i] == UINT64_MAX) X->size++;
  X->key[i] = k;
  X->dist[i] = d;
  X->parent[i] = (uint32_t)fex_slot(X, from);
  X->move[i] = (signed char)move;
  fex_heap_push(X, d + fex_h(X, k), (uint32_t)i);
}

/* Drop the kept copies no later step can read: every successor has used
 * its copies. */
static uint64_t fex_tidy(const fex *X, uint64_t k) {
  uint64_t kept = fex_kept(X, k);
  for (int u = 0; u < X->n; u++) {
    if (!(kept >> u & 1)) continue;
    int readable = 0;
    for (int w = 0; w < X->n && !readable; w++)
      if ((X->succs[u] >> w & 1) && fex_count(X, k, w) < X->cap[w]) readable = 1;
    if (!readable) k &= ~(UINT64_C(1) << u);
  }
  return k;
}

static void fex_expand(fex *X, uint32_t si) {
  uint64_t k = X->key[si];
  int64_t d = X->dist[si];
  /* the slots move when the table grows: parents go by key */
  const remat_graph *g = X->g;
  uint64_t kept = fex_kept(X, k);
  int64_t held = 0;
  for (int u = 0; u < X->n; u++)
    if (kept >> u & 1) held += g->m[u];
  for (int v = 0; v < X->n; v++) { /* compute v */
    int c = fex_count(X, k, v);
    if (c >= X->cap[v] || (X->preds[v] & ~kept)) continue;
    int64_t mem = held - ((kept >> v & 1) ? g->m[v] : 0) + g->m[v];
    if (mem > X->p->budget) continue;
    uint64_t nk = k + (UINT64_C(1) << (X->n + X->cb * v));
    nk |= UINT64_C(1) << v;
    nk = fex_tidy(X, fex_with_last(X, nk, 0));
    fex_reach(X, nk, d + g->w[v], k, v);
  }
  for (int u = fex_last(X, k); u < X->n; u++) /* drop u (in node order) */
    if (kept >> u & 1)
      fex_reach(X, fex_with_last(X, k & ~(UINT64_C(1) << u), u + 1), d, k, -1);
}

static int fex_done(const fex *X, uint64_t k) {
  for (int v = 0; v < X->n; v++)
    if (!fex_count(X, k, v)) return 0;
  return 1;
}

free_exact_status free_exact_solve(const remat_graph *g, const free_exact_params *p,
                                   int **seq, int *len, size_t *states) {
  *seq = NULL;
  *len = 0;
  if (states) *states = 0;
  int n = g->n, most = 0;
  if (n > FREE_EXACT_MAXN) return FREE_EXACT_UNKNOWN;
  fex X;
  memset(&X, 0, sizeof X);
  X.g = g;
  X.p = p;
  X.n = n;
  for (int v = 0; v < n; v++) {
    int c = p->copies ? p->copies[v] : 2;
    if (c < 1) c = 1;
    if (c > 7) return FREE_EXACT_UNKNOWN;
    X.cap[v] = c;
    if (c > most) most = c;
    for (int j = g->pred_off[v]; j < g->pred_off[v + 1]; j++) X.preds[v] |= 1u << g->pred[j];
    for (int j = g->succ_off[v]; j < g->succ_off[v + 1]; j++) X.succs[v] |= 1u << g->succ[j];
  }
  X.cb = most <= 3 ? 2 : 3;
  if (n + X.cb * n + 5 > 64) return FREE_EXACT_UNKNOWN;
  fex_grow(&X);
  size_t s0 = fex_slot(&X, 0);
  X.key[s0] = 0;
  X.dist[s0] = 0;
  X.parent[s0] = (uint32_t)s0;
  X.move[s0] = -1;
  X.size = 1;
  fex_heap_push(&X, fex_h(&X, 0), (uint32_t)s0);
  free_exact_status st = FREE_EXACT_INFEASIBLE;
  long long pops = 0;
  while (X.hn) {
    struct fex_item it = fex_heap_pop(&X);
    uint32_t si = it.s;
    if (it.f != X.dist[si] + fex_h(&X, X.key[si])) continue; /* stale */
    if (fex_done(&X, X.key[si])) {
      int cnt = 0;
      for (uint32_t i = si; X.key[i] != 0 || X.move[i] >= 0; i = X.parent[i])
        if (X.move[i] >= 0) cnt++;
      int *s = util_malloc((size_t)(cnt ? cnt : 1) * sizeof *s);
      int j = cnt;
      for (uint32_t i = si; X.key[i] != 0 || X.move[i] >= 0; i = X.parent[i])
        if (X.move[i] >= 0) s[--j] = X.move[i];
      *seq = s;
      *len = cnt;
      st = FREE_EXACT_OPTIMAL;
      break;
    }
    fex_expand(&X, si);
    if (X.full || (p->stop && *p->stop) ||
        (++pops % 4096 == 0 && deadline_passed(p->deadline))) {
      st = FREE_EXACT_UNKNOWN;
      break;
    }
  }
  if (states) *states = X.size;
  UTIL_FREE(X.key, X.dist, X.parent, X.move, X.heap);
  return st;
}
