/* exhaustive.h -- exact optima of tiny graphs (n <= 7) by a search over
 * every schedule, for the tests: the least total duration of a schedule
 * whose peak fits M, in two models:
 *
 *   - the stage model (the input order's stages: stage t recomputes any
 *     nodes before t in increasing order, then computes t for the first
 *     time), with at most copies[v] computations of each node v;
 *   - free order: every sequence that computes each node at least once
 *     and at most copies[v] times, each step reading its predecessors'
 *     latest copies.
 *
 * Both are a shortest path (Dijkstra on durations) over states (where the
 * schedule is, how often each node was computed, which copies are kept for
 * a later reader).  Memory at a step is the kept copies plus the output
 * computed at the step, which is the simulator's memory for the schedule
 * whose copies are kept exactly until their last reader; keeping a copy
 * longer only costs memory, so the search's optimum is the true one.
 * Written for the tests only: it shares nothing with remat's solvers. */
#ifndef REMAT_TEST_EXHAUSTIVE_H
#define REMAT_TEST_EXHAUSTIVE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "remat.h"

#define EXH_MAXN 7

/* A state packed in 64 bits: stage (4 bits), position within the stage
 * (4 bits, 15 = none yet), kept copies (7 bits), computations per node
 * (3 bits each). */
typedef struct exh_state {
  int t, p, kept, cnt[EXH_MAXN];
} exh_state;

static inline uint64_t exh_pack(const exh_state *s, int n) {
  uint64_t k = (uint64_t)s->t | (uint64_t)(s->p & 15) << 4 | (uint64_t)s->kept << 8;
  for (int v = 0; v < n; v++) k |= (uint64_t)s->cnt[v] << (15 + 3 * v);
  return k;
}

static inline void exh_unpack(uint64_t k, int n, exh_state *s) {
  s->t = (int)(k & 15);
  s->p = (int)(k >> 4 & 15);
  if (s->p == 15) s->p = -1;
  s->kept = (int)(k >> 8 & 127);
  for (int v = 0; v < n; v++) s->cnt[v] = (int)(k >> (15 + 3 * v) & 7);
}

/* Open-addressing map key -> best duration, and a binary heap. */
typedef struct exh_search {
  uint64_t *key;
  int64_t *dist;
  unsigned char *used;
  size_t cap, size;
  struct exh_item {
    int64_t d;
    uint64_t k;
  } *heap;
  size_t hn, hcap;
} exh_search;

static inline size_t exh_slot(const exh_search *S, uint64_t k) {
  uint64_t h = k * 0x9E3779B97F4A7C15ull;
  size_t i = (size_t)(h >> 20) & (S->cap - 1);
  while (S->used[i] && S->key[i] != k) i = (i + 1) & (S->cap - 1);
  return i;
}

static inline void exh_grow(exh_search *S) {
  exh_search T = *S;
  S->cap = T.cap ? 2 * T.cap : 1 << 12;
  S->key = calloc(S->cap, sizeof *S->key);
  S->dist = calloc(S->cap, sizeof *S->dist);
  S->used = calloc(S->cap, 1);
  if (!S->key || !S->dist || !S->used) abort();
  for (size_t i = 0; i < T.cap; i++)
    if (T.used[i]) {
      size_t j = exh_slot(S, T.key[i]);
      S->used[j] = 1;
      S->key[j] = T.key[i];
      S->dist[j] = T.dist[i];
    }
  free(T.key);
  free(T.dist);
  free(T.used);
}

static inline void exh_push(exh_search *S, int64_t d, uint64_t k) {
  if (2 * (S->size + 1) > S->cap) exh_grow(S);
  size_t i = exh_slot(S, k);
  if (S->used[i] && S->dist[i] <= d) return;
  if (!S->used[i]) S->size++;
  S->used[i] = 1;
  S->key[i] = k;
  S->dist[i] = d;
  if (S->hn == S->hcap) {
    S->hcap = S->hcap ? 2 * S->hcap : 1 << 12;
    S->heap = realloc(S->heap, S->hcap * sizeof *S->heap);
    if (!S->heap) abort();
  }
  size_t c = S->hn++;
  while (c > 0 && S->heap[(c - 1) / 2].d > d) {
    S->heap[c] = S->heap[(c - 1) / 2];
    c = (c - 1) / 2;
  }
  S->heap[c] = (struct exh_item){d, k};
}

static inline int exh_pop(exh_search *S, int64_t *d, uint64_t *k) {
  while (S->hn) {
    struct exh_item top = S->heap[0], last = S->heap[--S->hn];
    size_t c = 0;
    for (;;) {
      size_t l = 2 * c + 1;
      if (l >= S->hn) break;
      if (l + 1 < S->hn && S->heap[l + 1].d < S->heap[l].d) l++;
      if (S->heap[l].d >= last.d) break;
      S->heap[c] = S->heap[l];
      c = l;
    }
    if (S->hn) S->heap[c] = last;
    size_t i = exh_slot(S, top.k);
    if (S->dist[i] < top.d) continue; /* a stale entry */
    *d = top.d;
    *k = top.k;
    return 1;
  }
  return 0;
}

static inline void exh_free(exh_search *S) {
  free(S->key);
  free(S->dist);
  free(S->used);
  free(S->heap);
  memset(S, 0, sizeof *S);
}

/* Compute v from state s (its inputs kept): the step's memory fits M?
 * Then push every choice of the copies to keep after the step. */
static inline void exh_step(exh_search *S, const remat_graph *g, int64_t M,
                            const exh_state *s, int64_t d, int v, int t, int p) {
  int n = g->n;
  int64_t mem = g->m[v];
  for (int u = 0; u < n; u++)
    if ((s->kept >> u & 1) && u != v) mem += g->m[u];
  if (mem > M) return;
  exh_state x = *s;
  x.t = t;
  x.p = p;
  x.cnt[v]++;
  int avail = s->kept | 1 << v, mustdrop = 0;
  for (int u = 0; u < n; u++) /* a sink's copy has no reader */
    if (g->succ_off[u] == g->succ_off[u + 1]) mustdrop |= 1 << u;
  avail &= ~mustdrop;
  /* every subset of avail */
  for (int keep = avail;; keep = (keep - 1) & avail) {
    x.kept = keep;
    exh_push(S, d + g->w[v], exh_pack(&x, n));
    if (!keep) break;
  }
}

static inline int exh_inputs_kept(const remat_graph *g, int kept, int v) {
  for (int j = g->pred_off[v]; j < g->pred_off[v + 1]; j++)
    if (!(kept >> g->pred[j] & 1)) return 0;
  return 1;
}

/* The least duration of a schedule of the model (stage: 1, free order:
 * 0) with peak <= M and at most copies[v] computations of v (copies NULL:
 * n each, which in the stage model is no limit), or -1 when none fits. */
static inline int64_t exh_best(const remat_graph *g, int64_t M, const int *copies,
                               int stage) {
  int n = g->n;
  if (n > EXH_MAXN) abort();
  int cap[EXH_MAXN];
  for (int v = 0; v < n; v++) {
    cap[v] = copies ? copies[v] : n;
    if (cap[v] > 7) cap[v] = 7;
  }
  exh_search S = {0};
  exh_state s0;
  memset(&s0, 0, sizeof s0);
  s0.p = -1;
  exh_push(&S, 0, exh_pack(&s0, n));
  int64_t best = -1, d;
  uint64_t k;
  while (exh_pop(&S, &d, &k)) {
    exh_state s;
    exh_unpack(k, n, &s);
    int done = 1;
    for (int v = 0; v < n; v++) done &= s.cnt[v] > 0;
    if (stage ? s.t == n : done) {
      best = d;
      break;
    }
    for (int v = 0; v < n; v++) {
      if (s.cnt[v] >= cap[v] || !exh_inputs_kept(g, s.kept, v)) continue;
      if (!stage) {
        exh_step(&S, g, M, &s, d, v, 0, -1);
      } else if (v == s.t) { /* the stage's first computation ends it */
        exh_step(&S, g, M, &s, d, v, s.t + 1, -1);
      } else if (v < s.t && v > s.p) {
        exh_step(&S, g, M, &s, d, v, s.t, v);
      }
    }
  }
  exh_free(&S);
  return best;
}

#endif
