/* pebble.c -- the pebbling proof (pebble.h). */
#include "pebble.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "util.h"

void pebble_params_init(pebble_params *p) {
  memset(p, 0, sizeof *p);
  p->deadline = deadline_in(1.0);
  p->max_sets = 4000000;
}

/* The most node entries the sets may take together (128 MB): wide
 * graphs' sets are long. */
#define PB_POOL_MAX ((size_t)1 << 25)

/* What is known of a set. */
enum { PB_UNKNOWN = 0, PB_PATH, PB_NONE };

typedef struct pb_ent {
  uint64_t h;
  size_t off; /* in pool: the length, then the nodes in increasing order */
  int status;
  int x;      /* PB_PATH: the node whose step leads on along the path */
} pb_ent;

/* A set on the search's stack and the next of its nodes to try. */
typedef struct pb_frame {
  size_t ent;
  int next;
} pb_frame;

typedef struct pb {
  const remat_graph *g;
  int64_t M;
  int64_t small; /* nodes of at most this size are free (relaxed search) */
  const int *held; /* held[v] nonzero: v is free too (pebble_schedule) */
  const pebble_params *p;
  int *pool;
  size_t npool, cap_pool;
  pb_ent *ent;
  size_t nent, cap_ent;
  uint32_t *slot; /* 0: empty, else entry index + 1 */
  size_t cap;     /* slots, a power of two */
  int *tmp;       /* a set being built */
  pb_frame *stack;
  size_t nstack, cap_stack;
  double t0, end; /* the clock's start; give up at end (seconds from t0) */
  long long steps;
  int gave_up;
} pb;

static uint64_t pb_hash(const int *s, int len) {
  uint64_t h = 0x9e3779b97f4a7c15ull ^ (uint64_t)len;
  for (int i = 0; i < len; i++) {
    h ^= (uint64_t)(uint32_t)s[i];
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 32;
  }
  return h;
}

static const int *pb_set(const pb *P, size_t e, int *len) {
  const int *x = P->pool + P->ent[e].off;
  *len = x[0];
  return x + 1;
}

static void pb_grow_slots(pb *P) {
  size_t cap = P->cap ? 2 * P->cap : 1024;
  uint32_t *slot = util_calloc(cap, sizeof *slot);
  for (size_t e = 0; e < P->nent; e++) {
    size_t i = P->ent[e].h & (cap - 1);
    while (slot[i]) i = (i + 1) & (cap - 1);
    slot[i] = (uint32_t)(e + 1);
  }
  free(P->slot);
  P->slot = slot;
  P->cap = cap;
}

/* The entry of set s[0..len), added (status unknown) when new; -1 when
 * the table is full. */
static long pb_find(pb *P, const int *s, int len) {
  uint64_t h = pb_hash(s, len);
  size_t i = h & (P->cap - 1);
  for (; P->slot[i]; i = (i + 1) & (P->cap - 1)) {
    size_t e = P->slot[i] - 1;
    int l;
    const int *x = pb_set(P, e, &l);
    if (P->ent[e].h == h && l == len && !memcmp(x, s, (size_t)len * sizeof *s)) return (long)e;
  }
  if (P->nent >= P->p->max_sets || P->nent >= UINT32_MAX - 1 ||
      P->npool + (size_t)len + 1 > PB_POOL_MAX)
    return -1;
  if (P->npool + (size_t)len + 1 > P->cap_pool) {
    P->cap_pool = 2 * (P->npool + (size_t)len + 1) + 4096;
    P->pool = util_realloc(P->pool, P->cap_pool * sizeof *P->pool);
  }
  GROW(P->ent, P->cap_ent, P->nent + 1, 1024);
  size_t e = P->nent++;
  P->ent[e] = (pb_ent){h, P->npool, PB_UNKNOWN, -1};
  P->pool[P->npool++] = len;
  memcpy(P->pool + P->npool, s, (size_t)len * sizeof *s);
  P->npool += (size_t)len;
  P->slot[i] = (uint32_t)(e + 1);
  if (2 * P->nent > P->cap) pb_grow_slots(P);
  return (long)e;
}

/* A free node: no memory, at hand without its inputs. */
static int pb_free(const pb *P, int v) {
  return P->g->m[v] <= P->small || (P->held && P->held[v]);
}

/* Node x's step from set L (x in L): the memory it holds at least,
 * m(L + inputs of x), and into out the set L - x + inputs of x. */
static int64_t pb_step(const pb *P, const int *L, int len, int x, int *out, int *outlen) {
  const remat_graph *g = P->g;
  const int *in = g->pred + g->pred_off[x];
  int nin = g->pred_off[x + 1] - g->pred_off[x];
  int64_t mem = g->m[x];
  int i = 0, j = 0, k = 0;
  while (i < len || j < nin) { /* both increasing: a merge */
    int v;
    if (j >= nin || (i < len && L[i] < in[j])) v = L[i++];
    else if (i >= len || in[j] < L[i]) v = in[j++];
    else {
      v = L[i++];
      j++;
    }
    if (v == x || pb_free(P, v)) continue; /* (only inputs can be free) */
    mem += g->m[v];
    out[k++] = v;
  }
  *outlen = k;
  return mem;
}

static int pb_has(const int *s, int len, int v) {
  int lo = 0, hi = len;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (s[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo < len && s[lo] == v;
}

/* Take out of s every node whose inputs are all in s (a node without
 * inputs among them): computing it last holds only s, the least any
 * step from s holds, and leads to a subset of s, so a path from s exists
 * exactly when one from the rest does.  Latest first: a node's inputs
 * come before it, so one pass reaches the end.  Free nodes count as
 * present. */
static void pb_reduce(const pb *P, int *s, int *len) {
  const remat_graph *g = P->g;
  int n = *len;
  for (int i = n - 1; i >= 0; i--) {
    int x = s[i], all = 1;
    for (int k = g->pred_off[x]; k < g->pred_off[x + 1] && all && !pb_free(P, x); k++)
      all = pb_free(P, g->pred[k]) || pb_has(s, n, g->pred[k]);
    if (!all) continue;
    memmove(s + i, s + i + 1, (size_t)(n - i - 1) * sizeof *s);
    n--;
  }
  *len = n;
}

static int pb_out_of_time(pb *P) {
  if ((++P->steps & 1023) == 0 &&
      (util_now() - P->t0 > P->end || (P->p->stop && *P->p->stop)))
    P->gave_up = 1;
  return P->gave_up;
}

static void pb_push(pb *P, size_t e) {
  GROW(P->stack, P->cap_stack, P->nstack + 1, 256);
  int len;
  pb_set(P, e, &len);
  P->stack[P->nstack++] = (pb_frame){e, len - 1};
}

/* Whether a path of sets leads from entry e0 to the empty set within M:
 * PB_PATH, PB_NONE, or PB_UNKNOWN when the search gave up. */
static int pb_search(pb *P, size_t e0) {
  if (P->ent[e0].status != PB_UNKNOWN) return P->ent[e0].status;
  P->nstack = 0;
  pb_push(P, e0);
  while (P->nstack) {
    if (pb_out_of_time(P)) return PB_UNKNOWN;
    pb_frame *f = &P->stack[P->nstack - 1];
    if (f->next < 0) { /* no node of the set leads anywhere */
      P->ent[f->ent].status = PB_NONE;
      P->nstack--;
      continue;
    }
    int len, nlen;
    const int *L = pb_set(P, f->ent, &len);
    int x = L[f->next--];
    if (pb_step(P, L, len, x, P->tmp, &nlen) > P->M) continue;
    pb_reduce(P, P->tmp, &nlen);
    long e = nlen ? pb_find(P, P->tmp, nlen) : 0;
    if (e < 0) {
      P->gave_up = 1;
      return PB_UNKNOWN;
    }
    if (!nlen || P->ent[e].status == PB_PATH) { /* the whole stack leads there */
      for (size_t k = 0; k < P->nstack; k++) {
        pb_ent *a = &P->ent[P->stack[k].ent];
        a->status = PB_PATH;
        a->x = P->pool[a->off + 1 + P->stack[k].next + 1]; /* its step on the path */
      }
      return PB_PATH;
    }
    if (P->ent[e].status == PB_UNKNOWN) pb_push(P, (size_t)e);
  }
  return PB_NONE;
}

/* The memory of node v's own step: m_v and its inputs. */
static int64_t pb_own(const remat_graph *g, int v) {
  int64_t s = g->m[v];
  for (int k = g->pred_off[v]; k < g->pred_off[v + 1]; k++) s += g->m[g->pred[k]];
  return s;
}

/* By own[], largest first (qsort_r). */
static int pb_cmp(const void *a, const void *b, void *ctx) {
  const int64_t *own = ctx;
  int64_t x = own[*(const int *)a], y = own[*(const int *)b];
  return (x < y) - (x > y);
}

/* One search with the nodes of at most P->small free, until `end` (on
 * P's clock): PB_NONE with *node when some node cannot be computed,
 * PB_PATH when every node can, PB_UNKNOWN when it gave up. */
static int pb_run(pb *P, const int *order, const int64_t *own, double end, int *node) {
  const remat_graph *g = P->g;
  int n = g->n;
  P->nent = P->npool = 0;
  P->gave_up = 0;
  memset(P->slot, 0, P->cap * sizeof *P->slot);
  P->end = end;
  for (int i = 0; i < n; i++) {
    int v = order[i], nin = g->pred_off[v + 1] - g->pred_off[v];
    *node = v;
    if (own[v] > P->M) return PB_NONE;
    memcpy(P->tmp, g->pred + g->pred_off[v], (size_t)nin * sizeof *P->tmp);
    pb_reduce(P, P->tmp, &nin);
    if (!nin) continue;
    long e = pb_find(P, P->tmp, nin);
    int st = e < 0 ? PB_UNKNOWN : pb_search(P, (size_t)e);
    if (st != PB_PATH) return st;
  }
  return PB_PATH;
}

/* The sequence that computes, from nothing and within M, exactly the
 * values of set s[0..len) (they are live at its end; held values are
 * live already), appended to *seq[0..*n): the reduced set's path read
 * backwards (each set's step x computed from the set before it), then the
 * nodes the reduction took out, in increasing order (their inputs are in
 * s, before them; m(s) <= M holds their steps).  Every set on the way is
 * PB_PATH (pb_search marked it with its step x).  Returns 0, or -1 past
 * maxlen steps in all (or off a path: not after a search that found
 * one). */
static int pb_emit(pb *P, const int *s, int len, int **seq, int *n, int *cap, int maxlen) {
  const remat_graph *g = P->g;
  /* down the path: each level's removed nodes and step, stacked */
  int *lv = NULL, nlv = 0, caplv = 0;  /* level starts in `items` */
  int *items = NULL, nit = 0, capit = 0;
  int *cur = util_malloc((size_t)(g->n ? g->n : 1) * sizeof *cur);
  int *red = util_malloc((size_t)(g->n ? g->n : 1) * sizeof *red);
  int clen = len, rc = 0;
  memcpy(cur, s, (size_t)len * sizeof *cur);
  for (;;) {
    int rlen = clen;
    memcpy(red, cur, (size_t)clen * sizeof *red);
    pb_reduce(P, red, &rlen);
    GROW(lv, caplv, nlv + 1, 64);
    lv[nlv++] = nit;
    /* this level's step (none at the last), then the removed nodes */
    int x = -1;
    long e = rlen ? pb_find(P, red, rlen) : -1;
    if (rlen && (e < 0 || P->ent[e].status != PB_PATH || P->ent[e].x < 0)) {
      rc = -1;
      break;
    }
    if (rlen) x = P->ent[e].x;
    GROW(items, capit, nit + clen + 1, 256);
    items[nit++] = x;
    for (int i = 0, j = 0; i < clen; i++) { /* cur minus red, both increasing */
      while (j < rlen && red[j] < cur[i]) j++;
      if ((j < rlen && red[j] == cur[i]) || (P->held && P->held[cur[i]])) continue;
      items[nit++] = cur[i];
    }
    if (nit > maxlen) {
      rc = -1;
      break;
    }
    if (!rlen) break;
    int nlen;
    pb_step(P, red, rlen, x, cur, &nlen);
    clen = nlen;
  }
  if (!rc) {
    /* the deepest level first: its removed nodes; then each level above:
     * its step x, then its removed nodes */
    for (int l = nlv - 1; l >= 0; l--) {
      int a = lv[l], b = l + 1 < nlv ? lv[l + 1] : nit;
      if (*n + (b - a) > maxlen) {
        rc = -1;
        break;
      }
      GROW(*seq, *cap, *n + (b - a), 1024);
      for (int i = a; i < b; i++)
        if (items[i] >= 0) (*seq)[(*n)++] = items[i];
    }
  }
  UTIL_FREE(lv, items, cur, red);
  return rc;
}

static int pb_int_cmp(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* The union of the inputs of vs[0..nv) that are not free, sorted, into
 * u; returns its length (u holds g->n). */
static int pb_union(const pb *P, const int *vs, int nv, int *u, char *mark) {
  const remat_graph *g = P->g;
  int k = 0;
  for (int i = 0; i < nv; i++)
    for (int e = g->pred_off[vs[i]]; e < g->pred_off[vs[i] + 1]; e++) {
      int x = g->pred[e];
      if (!mark[x] && !pb_free(P, x)) {
        mark[x] = 1;
        u[k++] = x;
      }
    }
  for (int i = 0; i < k; i++) mark[u[i]] = 0;
  qsort(u, (size_t)k, sizeof *u, pb_int_cmp);
  return k;
}

/* Whether the nodes vs[0..nv) can be computed one after the other once
 * the union u[0..nu) of their inputs is live: each step holds at most u
 * and the node (unless free), and a path leads to u. */
static int pb_group_ok(pb *P, const int *vs, int nv, const int *u, int nu) {
  const remat_graph *g = P->g;
  int64_t mu = 0, most = 0;
  for (int i = 0; i < nu; i++) mu += g->m[u[i]];
  for (int i = 0; i < nv; i++)
    if (!pb_free(P, vs[i]) && g->m[vs[i]] > most) most = g->m[vs[i]];
  if (mu + most > P->M) return 0;
  int nin = nu;
  memcpy(P->tmp, u, (size_t)nu * sizeof *P->tmp);
  pb_reduce(P, P->tmp, &nin);
  if (!nin) return 1;
  long e = pb_find(P, P->tmp, nin);
  return e >= 0 && pb_search(P, (size_t)e) == PB_PATH;
}

/* The part that computes vs[0..nv) from nothing, appended: the path to
 * the union of their inputs u[0..nu) (pb_group_ok), then each of them.
 * Returns 0, or -1 past maxlen steps. */
static int pb_part(pb *P, const int *vs, int nv, const int *u, int nu, int **seq, int *n,
                   int *cap, int maxlen) {
  if (pb_emit(P, u, nu, seq, n, cap, maxlen - nv) || *n + nv > maxlen) return -1;
  GROW(*seq, *cap, *n + nv, 1024);
  for (int i = 0; i < nv; i++) (*seq)[(*n)++] = vs[i];
  return 0;
}

int pebble_schedule(const remat_graph *g, int64_t budget, const int *copies,
                    const pebble_params *p, int **seq, int *len) {
  int n = g->n, cap = 0, k = 0, rc = 0;
  *seq = NULL;
  *len = 0;
  int *held = util_calloc((size_t)(n ? n : 1), sizeof *held);
  int64_t kept = 0;
  for (int v = 0; v < n; v++)
    if (copies && copies[v] == 1 && g->succ_off[v + 1] > g->succ_off[v]) {
      held[v] = 1;
      kept += g->m[v];
    }
  pb P = {.g = g, .M = budget - kept, .small = -1, .held = held, .p = p, .t0 = util_now()};
  P.tmp = util_malloc((size_t)(n ? n : 1) * sizeof *P.tmp);
  pb_grow_slots(&P);
  P.end = deadline_left(p->deadline);
  int maxlen = p->schedule_max > 0 ? p->schedule_max : INT_MAX;
  /* the held values first, one part each in index order (a part reads
   * only held values of lower index, computed before it), then the sinks
   * in index order, as many in one part as a path to their inputs' union
   * allows (each part rebuilds what it reads: fewer parts, less of it) */
  size_t sz = (size_t)(n ? n : 1);
  int *vs = util_malloc(sz * sizeof *vs), *u = util_malloc(sz * sizeof *u);
  int *u2 = util_malloc(sz * sizeof *u2);
  char *mark = util_calloc(sz, 1);
  int nv = 0, nu = 0;
  for (int pass = 0; pass < 2 && !rc && P.M >= 0; pass++) {
    for (int v = 0; v < n && !rc; v++) {
      int sink = g->succ_off[v + 1] == g->succ_off[v];
      if (pass ? !sink : !held[v]) continue;
      if (nv) { /* a sink: it joins the part, or the part so far is emitted */
        vs[nv] = v;
        int nu2 = pb_union(&P, vs, nv + 1, u2, mark);
        if (pb_group_ok(&P, vs, nv + 1, u2, nu2)) {
          nv++;
          memcpy(u, u2, (size_t)nu2 * sizeof *u);
          nu = nu2;
          continue;
        }
        rc = pb_part(&P, vs, nv, u, nu, seq, &k, &cap, maxlen);
      }
      vs[0] = v;
      nv = 1;
      nu = pb_union(&P, vs, 1, u, mark);
      if (!rc && !pb_group_ok(&P, vs, 1, u, nu)) rc = -1;
      if (!rc && !pass) { /* a held value: its own part */
        rc = pb_part(&P, vs, 1, u, nu, seq, &k, &cap, maxlen);
        nv = 0;
      }
    }
  }
  if (!rc && nv) rc = pb_part(&P, vs, nv, u, nu, seq, &k, &cap, maxlen);
  UTIL_FREE(vs, u, u2, mark);
  if (rc || P.M < 0) {
    free(*seq);
    *seq = NULL;
    k = 0;
    rc = -1;
  }
  *len = k;
  UTIL_FREE(held, P.tmp, P.pool, P.ent, P.slot, P.stack);
  return rc;
}

/* The relaxations after the exact search gives up: nodes of at most
 * M / PEBBLE_SMALL[k] free, a larger share of M each time (a relaxed
 * search has fewer sets; its proofs hold, its paths prove nothing). */
static const int64_t PEBBLE_SMALL[PEBBLE_LEVELS - 1] = {1024, 128, 16};

void pebble_check(const remat_graph *g, int64_t budget, const pebble_params *p,
                  pebble_out *out) {
  memset(out, 0, sizeof *out);
  out->node = -1;
  int n = g->n;
  pb P = {.g = g, .M = budget, .p = p, .t0 = util_now()};
  P.tmp = util_malloc((size_t)(n ? n : 1) * sizeof *P.tmp);
  pb_grow_slots(&P);
  int *order = util_malloc((size_t)(n ? n : 1) * sizeof *order);
  int64_t *own = util_malloc((size_t)(n ? n : 1) * sizeof *own);
  for (int v = 0; v < n; v++) {
    order[v] = v;
    own[v] = pb_own(g, v);
  }
  qsort_r(order, (size_t)n, sizeof *order, pb_cmp, own);
  /* the exact search gets half of the time, each relaxation half of
   * what is left */
  for (int k = p->first_level; k < PEBBLE_LEVELS; k++) {
    P.small = k ? budget / PEBBLE_SMALL[k - 1] : -1;
    double left = deadline_left(p->deadline);
    double end = util_now() - P.t0 + (k + 1 < PEBBLE_LEVELS ? left / 2 : left);
    int v, st = pb_run(&P, order, own, end, &v);
    out->sets += P.nent;
    if (st == PB_NONE) {
      out->status = PEBBLE_INFEASIBLE;
      out->node = v;
    }
    out->complete = st == PB_PATH && !k;
    if (st != PB_UNKNOWN || (p->stop && *p->stop)) break;
  }
  out->seconds = util_now() - P.t0;
  UTIL_FREE(order, own, P.tmp, P.pool, P.ent, P.slot, P.stack);
}
