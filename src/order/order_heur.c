/* order_heur.c -- the greedy and the beam search (order_heur.h). */
#include "order_heur.h"

#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "grow.h"
#include "order_walk.h"
#include "util.h"

int64_t order_heur_greedy(const remat_graph *g, order_heur_rule rule,
                          uint64_t *rng, int *ord) {
  order_walk w;
  order_walk_init(&w, g);
  int64_t peak = 0;
  for (int i = 0; i < g->n; i++) {
    int best = -1;
    int64_t bk[3] = {0, 0, 0};
    uint64_t br = 0;
    for (int a = 0; a < w.navail; a++) {
      int v = w.avail[a];
      int64_t cost = order_walk_cost(&w, v), np = cost > peak ? cost : peak;
      int64_t d = order_walk_delta(&w, v), k[3];
      if (rule == ORDER_HEUR_FREE) {
        k[0] = d;
        k[1] = np;
      } else {
        k[0] = np;
        k[1] = d;
      }
      k[2] = g->m[v];
      uint64_t r = rng ? util_xorshift(rng) : (uint64_t)v;
      int better = best < 0;
      for (int j = 0; j < 3 && !better; j++) {
        if (k[j] != bk[j]) {
          better = k[j] < bk[j];
          break;
        }
        if (j == 2) better = r < br;
      }
      if (better) {
        best = v;
        memcpy(bk, k, sizeof bk);
        br = r;
      }
    }
    if (bk[0] > peak && rule != ORDER_HEUR_FREE) peak = bk[0];
    if (rule == ORDER_HEUR_FREE && bk[1] > peak) peak = bk[1];
    ord[i] = best;
    order_walk_take(&w, best);
  }
  order_walk_free(&w);
  return peak;
}

void order_heur_beam_params_init(order_heur_beam_params *p) {
  memset(p, 0, sizeof *p);
  p->width = 64;
  p->deadline = DEADLINE_NONE;
}

/* A state of a level, and a candidate for the next level. */
typedef struct hb_state {
  int64_t peak, live;
  uint64_t hash;
  int av_off, nav; /* its available nodes in the level's pool */
} hb_state;

typedef struct hb_child {
  int64_t peak, live;
  uint64_t hash;
  int parent, node;
} hb_child;

typedef struct hb_level {
  int ns;
  hb_state *st;
  uint64_t *bits;  /* ns * words */
  int *pool, npool, cap_pool;
} hb_level;

typedef struct hb {
  const remat_graph *g;
  int n, W, words;
  uint64_t *z;       /* Zobrist keys */
  hb_level lv[2];
  hb_child *ch;
  int nch, cap_ch;
  int *trail;        /* trail[2 (k W + j)]: parent and node of state j at
                        level k + 1 */
  uint64_t *seen;    /* hashes chosen at this level (open addressing) */
  int seen_cap;
} hb;

static int hb_in(const uint64_t *bits, int v) {
  return (bits[v >> 6] >> (v & 63)) & 1;
}

/* F(S + v) - F(S) with S given as bits. */
static int64_t hb_delta(const hb *B, const uint64_t *bits, int v) {
  const remat_graph *g = B->g;
  int64_t d = graph_nsucc(g, v) ? g->m[v] : 0;
  for (int k = g->pred_off[v]; k < g->pred_off[v + 1]; k++) {
    int u = g->pred[k], out = 0;
    for (int j = g->succ_off[u]; j < g->succ_off[u + 1] && out < 2; j++)
      out += !hb_in(bits, g->succ[j]);
    if (out == 1) d -= g->m[u];
  }
  return d;
}

static int hb_child_cmp(const void *x, const void *y) {
  const hb_child *a = x, *b = y;
  if (a->peak != b->peak) return a->peak < b->peak ? -1 : 1;
  if (a->live != b->live) return a->live < b->live ? -1 : 1;
  if (a->hash != b->hash) return a->hash < b->hash ? -1 : 1;
  return 0;
}

static void hb_pool_push(hb_level *L, int v) {
  PUSH(L->pool, L->npool, L->cap_pool, 256, v);
}

/* 1 if the hash was not chosen yet at this level (and records it). */
static int hb_seen_add(hb *B, uint64_t h) {
  int mask = B->seen_cap - 1;
  for (int i = (int)(h & (uint64_t)mask);; i = (i + 1) & mask) {
    if (B->seen[i] == h) return 0;
    if (!B->seen[i]) {
      B->seen[i] = h;
      return 1;
    }
  }
}

/* The candidates of level cur, ranked, become level cur ^ 1. */
static void hb_step(hb *B, int cur, int level) {
  const remat_graph *g = B->g;
  hb_level *L = &B->lv[cur], *N = &B->lv[cur ^ 1];
  B->nch = 0;
  for (int s = 0; s < L->ns; s++) {
    const hb_state *st = &L->st[s];
    const uint64_t *bits = L->bits + (size_t)s * (size_t)B->words;
    for (int a = 0; a < st->nav; a++) {
      int v = L->pool[st->av_off + a];
      GROW(B->ch, B->cap_ch, B->nch + 1, 1024);
      int64_t cost = st->live + g->m[v];
      B->ch[B->nch++] = (hb_child){cost > st->peak ? cost : st->peak,
                                     st->live + hb_delta(B, bits, v),
                                     st->hash ^ B->z[v], s, v};
    }
  }
  qsort(B->ch, (size_t)B->nch, sizeof *B->ch, hb_child_cmp);
  memset(B->seen, 0, (size_t)B->seen_cap * sizeof *B->seen);
  N->ns = 0;
  N->npool = 0;
  for (int c = 0; c < B->nch && N->ns < B->W; c++) {
    const hb_child *ch = &B->ch[c];
    if (!hb_seen_add(B, ch->hash | 1)) continue;
    int j = N->ns++;
    const hb_state *ps = &L->st[ch->parent];
    uint64_t *nb = N->bits + (size_t)j * (size_t)B->words;
    memcpy(nb, L->bits + (size_t)ch->parent * (size_t)B->words,
           (size_t)B->words * sizeof *nb);
    nb[ch->node >> 6] |= 1ULL << (ch->node & 63);
    hb_state *ns = &N->st[j];
    *ns = (hb_state){ch->peak, ch->live, ch->hash, N->npool, 0};
    for (int a = 0; a < ps->nav; a++)
      if (L->pool[ps->av_off + a] != ch->node)
        hb_pool_push(N, L->pool[ps->av_off + a]);
    for (int k = g->succ_off[ch->node]; k < g->succ_off[ch->node + 1]; k++) {
      int w = g->succ[k], ready = 1;
      for (int q = g->pred_off[w]; q < g->pred_off[w + 1] && ready; q++)
        ready = hb_in(nb, g->pred[q]);
      if (ready) hb_pool_push(N, w);
    }
    ns->nav = N->npool - ns->av_off;
    int *t = B->trail + 2 * ((size_t)level * (size_t)B->W + (size_t)j);
    t[0] = ch->parent;
    t[1] = ch->node;
  }
}

int64_t order_heur_beam(const remat_graph *g, const order_heur_beam_params *p,
                        int *ord) {
  hb B;
  memset(&B, 0, sizeof B);
  B.g = g;
  B.n = g->n;
  B.W = p->width > 0 ? p->width : 1;
  B.words = (g->n + 63) / 64 + 1;
  B.z = util_malloc((size_t)(g->n + 1) * sizeof *B.z);
  uint64_t rng = 0x9e3779b97f4a7c15ULL;
  for (int v = 0; v < g->n; v++) B.z[v] = util_xorshift(&rng);
  for (int i = 0; i < 2; i++) {
    B.lv[i].st = util_malloc((size_t)B.W * sizeof *B.lv[i].st);
    B.lv[i].bits = util_calloc((size_t)B.W * (size_t)B.words, sizeof(uint64_t));
  }
  B.trail = util_malloc(2 * (size_t)(g->n ? g->n : 1) * (size_t)B.W * sizeof(int));
  for (B.seen_cap = 4; B.seen_cap < 2 * B.W; B.seen_cap *= 2) {}
  B.seen = util_malloc((size_t)B.seen_cap * sizeof *B.seen);
  hb_level *L0 = &B.lv[0];
  L0->ns = 1;
  L0->st[0] = (hb_state){0, 0, 0, 0, 0};
  for (int v = 0; v < g->n; v++)
    if (!graph_npred(g, v)) hb_pool_push(L0, v);
  L0->st[0].nav = L0->npool;
  int cur = 0, gave_up = 0;
  for (int k = 0; k < g->n && !gave_up; k++) {
    hb_step(&B, cur, k);
    cur ^= 1;
    if ((p->stop && *p->stop) || deadline_passed(p->deadline))
      gave_up = 1;
  }
  int64_t peak = -1;
  if (!gave_up) {
    int j = 0;
    peak = g->n ? B.lv[cur].st[0].peak : 0; /* ranked: the first is best */
    for (int k = g->n - 1; k >= 0; k--) {
      int *t = B.trail + 2 * ((size_t)k * (size_t)B.W + (size_t)j);
      ord[k] = t[1];
      j = t[0];
    }
  }
  for (int i = 0; i < 2; i++) {
    free(B.lv[i].st);
    free(B.lv[i].bits);
    free(B.lv[i].pool);
  }
  UTIL_FREE(B.z, B.ch, B.trail, B.seen);
  return peak;
}
