/* order_dfs.c -- the threshold search (order_dfs.h).
 *
 * A frame is a set after its forced steps, with its children on a shared
 * stack; a frame whose children all fail goes into the table of dead
 * sets. */
#include "order_dfs.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "order_bound.h"
#include "util.h"

void order_dfs_init(order_dfs *D, const remat_graph *g, size_t max_bytes,
                    size_t max_pairs) {
  memset(D, 0, sizeof *D);
  D->deadline = DEADLINE_NONE;
  size_t n = (size_t)(g->n ? g->n : 1);
  D->g = g;
  D->n = g->n;
  D->max_bytes = max_bytes;
  order_walk_init(&D->w, g);
  D->path = util_malloc(n * sizeof *D->path);
  D->loc = util_malloc(n * sizeof *D->loc);
  for (size_t v = 0; v < n; v++) D->loc[v] = -1;
  D->bits = util_calloc(n / 64 + 1, sizeof *D->bits);
  D->z = util_malloc(n * sizeof *D->z);
  uint64_t rng = 0x2545f4914f6cdd1dULL;
  for (size_t v = 0; v < n; v++) D->z[v] = util_xorshift(&rng);
  D->a = util_malloc(n * sizeof *D->a);
  if (!order_bound_pairs(g, D->a, max_pairs, &D->koff, &D->klist))
    D->dyn = util_calloc(n, sizeof *D->dyn);
  order_memo_init(&D->memo, g->n, max_bytes);
  D->fr = util_malloc((n + 1) * sizeof *D->fr);
  D->fstack = util_malloc(n * sizeof *D->fstack);
  D->cap_cs = 1024;
  D->cs = util_malloc((size_t)D->cap_cs * sizeof *D->cs);
  D->ckey = util_malloc((size_t)D->cap_cs * sizeof *D->ckey);
  D->ckey2 = util_malloc((size_t)D->cap_cs * sizeof *D->ckey2);
  D->goal = g->n;
  D->rng = 1;
}

void order_dfs_free(order_dfs *D) {
  order_walk_free(&D->w);
  order_memo_free(&D->memo);
  UTIL_FREE(D->path, D->loc, D->bits, D->z, D->a, D->dyn, D->koff, D->klist,
            D->fr, D->fstack, D->cs, D->ckey, D->ckey2);
  memset(D, 0, sizeof *D);
}

static int order_dfs_ok(const order_dfs *D, int v) {
  return !D->allowed || D->allowed[v];
}

/* Take v; 1 when the bound per set then exceeds P. */
static int order_dfs_take(order_dfs *D, int v) {
  order_walk_take(&D->w, v);
  D->path[D->w.k - 1] = v;
  if (D->loc[v] >= 0) D->bits[D->loc[v] >> 6] |= 1ULL << (D->loc[v] & 63);
  D->hash ^= D->z[v];
  int over = 0;
  if (D->koff) {
    int64_t m = D->g->m[v];
    for (int k = D->koff[v]; k < D->koff[v + 1]; k++) {
      int u = D->klist[k];
      D->dyn[u] += m;
      if (!D->w.taken[u] && D->a[u] + D->dyn[u] > D->P && order_dfs_ok(D, u))
        over = 1;
    }
  }
  return over;
}

static void order_dfs_undo(order_dfs *D, int v) {
  if (D->koff) {
    int64_t m = D->g->m[v];
    for (int k = D->koff[v]; k < D->koff[v + 1]; k++) D->dyn[D->klist[k]] -= m;
  }
  D->hash ^= D->z[v];
  if (D->loc[v] >= 0) D->bits[D->loc[v] >> 6] &= ~(1ULL << (D->loc[v] & 63));
  order_walk_undo(&D->w, v);
}

void order_dfs_start(order_dfs *D, const int *ord, int k, int len) {
  while (D->w.k > 0) order_dfs_undo(D, D->path[D->w.k - 1]);
  D->P = INT64_MAX;
  for (int v = 0; v < D->n; v++) D->loc[v] = -1;
  for (int i = 0; i < k; i++) order_dfs_take(D, ord[i]);
  for (int i = 0; i < len; i++) D->loc[ord[k + i]] = i;
  D->goal = k + len;
  order_memo_free(&D->memo);
  order_memo_init(&D->memo, len, D->max_bytes);
  memset(D->bits, 0, ((size_t)D->n / 64 + 1) * sizeof *D->bits);
}

/* An allowed available node whose step is forced, or -1. */
static int order_dfs_forced(const order_dfs *D) {
  for (int i = 0; i < D->w.navail; i++) {
    int v = D->w.avail[i];
    if (order_dfs_ok(D, v) && order_walk_cost(&D->w, v) <= D->P &&
        order_walk_delta(&D->w, v) <= 0)
      return v;
  }
  return -1;
}

static int order_dfs_halt(order_dfs *D, long long limit) {
  if (limit > 0 && D->states >= limit) return ORDER_DFS_TIME;
  if ((++D->tick & 255) != 0) return 0;
  if (D->stop && *D->stop) return ORDER_DFS_STOP;
  if (deadline_passed(D->deadline)) return ORDER_DFS_TIME;
  return 0;
}

/* Push the children of the current set, best first. */
static void order_dfs_children(order_dfs *D, order_dfs_frame *f) {
  f->ch_lo = D->ncs;
  for (int i = 0; i < D->w.navail; i++) {
    int v = D->w.avail[i];
    int64_t cost = order_walk_cost(&D->w, v);
    if (cost > D->P || !order_dfs_ok(D, v)) continue;
    GROW_ALL(D->cap_cs, D->ncs + 1, 1, D->cs, D->ckey, D->ckey2);
    int64_t key = D->w.live + order_walk_delta(&D->w, v);
    if (D->noise > 0 && key <= INT64_MAX - D->noise)
      key += (int64_t)(util_xorshift(&D->rng) % (uint64_t)D->noise);
    int j = D->ncs++;
    while (j > f->ch_lo && (D->ckey[j - 1] > key ||
                            (D->ckey[j - 1] == key && D->ckey2[j - 1] > cost))) {
      D->cs[j] = D->cs[j - 1];
      D->ckey[j] = D->ckey[j - 1];
      D->ckey2[j] = D->ckey2[j - 1];
      j--;
    }
    D->cs[j] = v;
    D->ckey[j] = key;
    D->ckey2[j] = cost;
  }
  f->ch_hi = D->ncs;
  f->ch_i = f->ch_lo;
}

/* Enter frame d's set: forced steps, the goal, the table, the children.
 * Returns 1 at the goal. */
static int order_dfs_enter(order_dfs *D, int d) {
  order_dfs_frame *f = &D->fr[d];
  f->fbase = D->nf;
  f->expanded = 0;
  f->ch_lo = f->ch_hi = f->ch_i = D->ncs;
  for (int v; (v = order_dfs_forced(D)) >= 0;) {
    D->fstack[D->nf++] = v;
    D->forced++;
    if (order_dfs_take(D, v)) {
      D->pruned++;
      return 0;
    }
  }
  if (D->w.k == D->goal) return 1;
  if (order_memo_get(&D->memo, D->hash, D->bits) >= D->P) return 0;
  D->states++;
  f->expanded = 1;
  order_dfs_children(D, f);
  return 0;
}

/* Undo the frames 1..depth and the forced steps of 0..depth. */
static void order_dfs_unwind(order_dfs *D, int depth) {
  for (int d = depth; d >= 0; d--) {
    while (D->nf > D->fr[d].fbase) order_dfs_undo(D, D->fstack[--D->nf]);
    if (d > 0) order_dfs_undo(D, D->fr[d].v);
  }
  D->ncs = 0;
}

int order_dfs_decide(order_dfs *D, int64_t P) {
  int depth = 0, why;
  long long limit = D->budget > 0 ? D->states + D->budget : 0;
  D->P = P;
  D->nf = D->ncs = 0;
  /* the start itself: a node already over the bound fails at once */
  if (D->koff)
    for (int v = 0; v < D->n; v++)
      if (!D->w.taken[v] && order_dfs_ok(D, v) && D->a[v] + D->dyn[v] > P)
        return 0;
  D->fr[0].v = -1;
  if (order_dfs_enter(D, 0)) {
    order_dfs_unwind(D, 0);
    return 1;
  }
  for (;;) {
    order_dfs_frame *f = &D->fr[depth];
    if (f->ch_i < f->ch_hi) {
      int v = D->cs[f->ch_i++];
      if (order_dfs_take(D, v)) {
        D->pruned++;
        order_dfs_undo(D, v);
        continue;
      }
      if ((why = order_dfs_halt(D, limit))) {
        order_dfs_undo(D, v);
        order_dfs_unwind(D, depth);
        return -why;
      }
      depth++;
      D->fr[depth].v = v;
      if (order_dfs_enter(D, depth)) {
        order_dfs_unwind(D, depth);
        return 1;
      }
      continue;
    }
    if (f->expanded && order_memo_put(&D->memo, D->hash, D->bits, P)) {
      order_dfs_unwind(D, depth);
      return -ORDER_DFS_MEMORY;
    }
    D->ncs = f->ch_lo;
    while (D->nf > f->fbase) order_dfs_undo(D, D->fstack[--D->nf]);
    if (depth == 0) return 0;
    order_dfs_undo(D, f->v);
    depth--;
  }
}
