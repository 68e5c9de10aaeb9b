/* chain.c -- a hierarchical composition of repeated blocks (chain.h). */
#include "chain.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "util.h"

/* Outside the blocks, the largest eligible forward nodes searched as
 * groups of their own, at most. */
#define CHAIN_OUTSIDE_MAX 64

typedef struct ch {
  const remat_graph *g;
  int64_t budget;
  deadline d;
  int ngroup;
  int *grp;   /* per node: its group, -1 for none */
  int *inst;  /* per node: its block's place among its kind's blocks (0 outside) */
  int *cnt;   /* per group: its blocks (1 outside) */
  int *dr;    /* per group: dropped in its first dr blocks (0: kept) */
  int *mv_off, *mv; /* per group: the groups dropped with it (ch_moves) */
  unsigned char *rec; /* per node: recomputed already (ch_schedule) */
  unsigned char *mark; /* per group: dropped by the move being tried */
  int *stamp, *need, *stack; /* scratch of ch_schedule */
  int *seq;   /* the schedule being evaluated (capacity 2n) */
  int internal;
  chain_out *out;
} ch;

typedef struct ch_val {
  int fits;
  int64_t peak, duration;
} ch_val;

static int ch_cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

static int ch_dropped(const ch *C, int u) {
  int q = C->grp[u];
  return q >= 0 && C->inst[u] < C->dr[q];
}

/* The schedule of the current choice into C->seq (chain.h); its length. */
static int ch_schedule(ch *C) {
  const remat_graph *g = C->g;
  int len = 0;
  memset(C->rec, 0, (size_t)g->n);
  for (int v = 0; v < g->n; v++) C->stamp[v] = -1;
  for (int v = 0; v < g->n; v++) {
    if (g->backward[v]) {
      int nn = 0, top = 0;
      for (int j = g->pred_off[v]; j < g->pred_off[v + 1]; j++) {
        int u = g->pred[j];
        if (!C->rec[u] && C->stamp[u] != v && ch_dropped(C, u))
          C->stamp[u] = v, C->stack[top++] = u;
      }
      while (top) {
        int u = C->stack[--top];
        C->need[nn++] = u;
        for (int j = g->pred_off[u]; j < g->pred_off[u + 1]; j++) {
          int x = g->pred[j];
          if (!C->rec[x] && C->stamp[x] != v && ch_dropped(C, x))
            C->stamp[x] = v, C->stack[top++] = x;
        }
      }
      if (nn > 1) qsort(C->need, (size_t)nn, sizeof *C->need, ch_cmp_int);
      for (int i = 0; i < nn; i++) {
        C->seq[len++] = C->need[i];
        C->rec[C->need[i]] = 1;
      }
    }
    C->seq[len++] = v;
  }
  return len;
}

/* Schedule and re-simulate the current choice; the best within budget is
 * kept in out. */
static ch_val ch_eval(ch *C) {
  ch_val r = {0, INT64_MAX, INT64_MAX};
  int len = ch_schedule(C);
  remat_sim s;
  C->out->evals++;
  if (remat_simulate(C->g, C->seq, len, &s, NULL)) {
    C->internal = 1;
    return r;
  }
  r.peak = s.peak;
  r.duration = s.duration;
  r.fits = s.peak <= C->budget;
  chain_out *o = C->out;
  if (r.fits && (!o->seq || s.duration < o->duration)) {
    o->seq = util_realloc(o->seq, (size_t)len * sizeof *o->seq);
    memcpy(o->seq, C->seq, (size_t)len * sizeof *o->seq);
    o->len = len;
    o->peak = s.peak;
    o->duration = s.duration;
    o->dropped = o->partial = 0;
    for (int q = 0; q < C->ngroup; q++) {
      if (C->dr[q] == C->cnt[q]) o->dropped++;
      else if (C->dr[q] > 0) o->partial++;
    }
  }
  return r;
}

static int ch_stop(const ch *C) { return C->internal || deadline_passed(C->d); }

/* Drop group q and the kept groups that only feed it (on 1), keep them
 * again (on 0), or keep the move as it is (on -1: forget the marks). */
static void ch_move(ch *C, int q, int on) {
  for (int i = C->mv_off[q]; i < C->mv_off[q + 1]; i++) {
    int a = C->mv[i];
    if (on < 0) C->mark[a] = 0;
    else if (on && !C->dr[a]) C->dr[a] = C->cnt[a], C->mark[a] = 1;
    else if (!on && C->mark[a]) C->dr[a] = 0, C->mark[a] = 0;
  }
}

/* Greedy drops until the schedule fits: the group that lowers the peak the
 * most per unit of added duration (where none lowers it, the lowest peak,
 * then the shortest). */
static ch_val ch_greedy(ch *C, ch_val cur) {
  while (!cur.fits && !ch_stop(C)) {
    int pick = -1;
    double score = -1;
    ch_val pv = cur;
    for (int q = 0; q < C->ngroup && !ch_stop(C); q++) {
      if (C->dr[q]) continue;
      ch_move(C, q, 1);
      ch_val v = ch_eval(C);
      ch_move(C, q, 0);
      double s = v.peak < cur.peak ? (double)(cur.peak - v.peak) /
                                         (double)(v.duration - cur.duration > 1 ? v.duration - cur.duration : 1)
                                   : 0;
      if (pick < 0 || s > score ||
          (s == score && (v.peak < pv.peak || (v.peak == pv.peak && v.duration < pv.duration))))
        pick = q, score = s, pv = v;
    }
    if (pick < 0 || ch_stop(C)) break;
    ch_move(C, pick, 1);
    ch_move(C, pick, -1);
    cur = pv;
  }
  return cur;
}

/* Within budget: groups kept again, and swaps of a dropped group for a
 * kept one (alone, or with the groups it needs), while the schedule gets
 * shorter. */
static ch_val ch_refine(ch *C, ch_val cur) {
  for (int more = 1; more && !ch_stop(C);) {
    more = 0;
    int best = -1;
    ch_val bv = cur;
    for (int q = 0; q < C->ngroup && !ch_stop(C); q++) {
      if (C->dr[q] != C->cnt[q]) continue;
      C->dr[q] = 0;
      ch_val v = ch_eval(C);
      C->dr[q] = C->cnt[q];
      if (v.fits && v.duration < bv.duration) best = q, bv = v;
    }
    if (best >= 0) C->dr[best] = 0, cur = bv, more = 1;
  }
  for (int more = 1; more && !ch_stop(C);) {
    more = 0;
    for (int a = 0; a < C->ngroup && !more && !ch_stop(C); a++) {
      if (C->dr[a] != C->cnt[a]) continue;
      for (int b = 0; b < C->ngroup && !more && !ch_stop(C); b++) {
        if (C->dr[b]) continue;
        C->dr[a] = 0, C->dr[b] = C->cnt[b]; /* b alone */
        ch_val v = ch_eval(C);
        if (v.fits && v.duration < cur.duration) {
          cur = v, more = 1;
          break;
        }
        C->dr[b] = 0;
        if (C->mv_off[b + 1] - C->mv_off[b] > 1) { /* b with what it needs */
          ch_move(C, b, 1);
          v = ch_eval(C);
          if (v.fits && v.duration < cur.duration) {
            cur = v, more = 1;
            ch_move(C, b, -1);
            break;
          }
          ch_move(C, b, 0);
        }
        C->dr[a] = C->cnt[a];
      }
    }
  }
  return cur;
}

/* Dropped groups kept again in all but their first r blocks: in each
 * round, for each group dropped in some blocks, the fewest r that fit (by
 * bisection); the one that shortens the schedule most is taken, until
 * none does. */
static ch_val ch_partial(ch *C, ch_val cur) {
  for (int more = 1; more && !ch_stop(C);) {
    more = 0;
    int best = -1, best_r = 0;
    ch_val bv = cur;
    for (int q = 0; q < C->ngroup && !ch_stop(C); q++) {
      int was = C->dr[q];
      if (was < 2) continue;
      int lo = 0, hi = was; /* hi fits */
      while (hi - lo > 1 && !ch_stop(C)) {
        int mid = lo + (hi - lo) / 2;
        C->dr[q] = mid;
        ch_val v = ch_eval(C);
        if (v.fits) {
          hi = mid;
          if (v.duration < bv.duration) best = q, best_r = mid, bv = v;
        } else {
          lo = mid;
        }
      }
      C->dr[q] = was;
    }
    if (best >= 0) C->dr[best] = best_r, cur = bv, more = 1;
  }
  return cur;
}

static int ch_read_backward(const remat_graph *g, int v) {
  for (int j = g->succ_off[v]; j < g->succ_off[v + 1]; j++)
    if (g->backward[g->succ[j]]) return 1;
  return 0;
}

/* The forward nodes whose value a backward node reads, directly or through
 * forward nodes. */
static unsigned char *ch_feeds_backward(const remat_graph *g) {
  unsigned char *fb = util_calloc((size_t)(g->n ? g->n : 1), 1);
  for (int v = g->n - 1; v >= 0; v--) {
    if (g->backward[v]) continue;
    for (int j = g->succ_off[v]; j < g->succ_off[v + 1] && !fb[v]; j++) {
      int s = g->succ[j];
      fb[v] = g->backward[s] || fb[s];
    }
  }
  return fb;
}

/* Each group's move: the group, and the groups of the forward nodes that
 * only forward nodes read and that its nodes read, directly or through
 * other such nodes (from its node in the middle block, whose inputs are in
 * blocks too, where a first block's may not be): dropping a value whose
 * inputs are kept for its recomputation frees nothing. */
static void ch_moves(ch *C) {
  const remat_graph *g = C->g;
  int ng = C->ngroup, *rep = util_malloc((size_t)(ng ? ng : 1) * sizeof *rep);
  int *seen = util_malloc((size_t)(g->n ? g->n : 1) * sizeof *seen);
  int *gseen = util_malloc((size_t)(ng ? ng : 1) * sizeof *gseen), *stack = C->stack;
  for (int q = 0; q < ng; q++) rep[q] = -1, gseen[q] = -1;
  for (int v = 0; v < g->n; v++) { /* the middle block's node: its inputs are blocks' too */
    seen[v] = -1;
    int q = C->grp[v];
    if (q >= 0 && (rep[q] < 0 || C->inst[v] == C->cnt[q] / 2)) rep[q] = v;
  }
  int len = 0;
  size_t cap = 0;
  C->mv_off = util_malloc(((size_t)ng + 1) * sizeof *C->mv_off);
  C->mv = NULL;
  for (int q = 0; q < ng; q++) {
    C->mv_off[q] = len;
    PUSH(C->mv, len, cap, (size_t)ng + 16, q);
    gseen[q] = q;
    int top = 0;
    stack[top++] = rep[q];
    seen[rep[q]] = q;
    while (top) {
      int u = stack[--top];
      for (int j = g->pred_off[u]; j < g->pred_off[u + 1]; j++) {
        int x = g->pred[j];
        if (seen[x] == q || C->grp[x] < 0 || ch_read_backward(g, x)) continue;
        seen[x] = q;
        stack[top++] = x;
        if (gseen[C->grp[x]] != q) {
          gseen[C->grp[x]] = q;
          PUSH(C->mv, len, cap, (size_t)ng + 16, C->grp[x]);
        }
      }
    }
  }
  C->mv_off[ng] = len;
  C->mark = util_calloc((size_t)(ng ? ng : 1), 1);
  UTIL_FREE(rep, seen, gseen);
}

static int ch_cmp_m_desc(const void *a, const void *b) {
  const util_ratio_key *x = a, *y = b;
  return (x->ratio < y->ratio) - (x->ratio > y->ratio);
}

/* The groups: places of each kind whose blocks agree on their forward
 * nodes, then the largest eligible nodes outside the blocks. */
static void ch_groups(ch *C, const repeat_out *rep, const int *copies) {
  const remat_graph *g = C->g;
  unsigned char *fb = ch_feeds_backward(g);
  size_t nb = (size_t)(rep->nblocks ? rep->nblocks : 1);
  int *nfw = util_calloc(nb, sizeof *nfw), *place = util_malloc(nb * sizeof *place);
  int *kseen = util_calloc((size_t)rep->nkinds + 1, sizeof *kseen);
  int *kfw = util_malloc(((size_t)rep->nkinds + 1) * sizeof *kfw);
  int *kbase = util_malloc(((size_t)rep->nkinds + 1) * sizeof *kbase);
  int *local = util_malloc((size_t)(g->n ? g->n : 1) * sizeof *local);
  for (int v = 0; v < g->n; v++) {
    int b = rep->block_of[v];
    local[v] = b >= 0 && !g->backward[v] ? nfw[b]++ : -1;
  }
  for (int q = 0; q < rep->nkinds; q++) kfw[q] = -1;
  for (int b = 0; b < rep->nblocks; b++) {
    int q = rep->kind[b];
    place[b] = kseen[q]++;
    kfw[q] = kfw[q] < 0 || kfw[q] == nfw[b] ? nfw[b] : 0; /* 0: the blocks differ */
  }
  /* the kind covering the most nodes, for the report */
  long long most = 0;
  for (int b = 0; b < rep->nblocks; b++) {
    int q = rep->kind[b];
    if ((long long)rep->copies[q] * rep->size[b] > most)
      most = (long long)rep->copies[q] * rep->size[b], C->out->kind = q, C->out->blocks = rep->copies[q];
  }
  int ng = 0;
  for (int q = 0; q < rep->nkinds; q++) kbase[q] = ng, ng += kfw[q] > 0 ? kfw[q] : 0;
  for (int v = 0; v < g->n; v++) {
    C->grp[v] = -1;
    C->inst[v] = 0;
    int b = rep->block_of[v];
    if (g->backward[v] || !fb[v] || (copies && copies[v] < 2)) continue;
    if (b >= 0 && kfw[rep->kind[b]] > 0) {
      C->grp[v] = kbase[rep->kind[b]] + local[v];
      C->inst[v] = place[b];
    }
  }
  /* outside the blocks: the largest, each a group */
  util_ratio_key *key = util_malloc((size_t)(g->n ? g->n : 1) * sizeof *key);
  int m = 0;
  for (int v = 0; v < g->n; v++)
    if (!g->backward[v] && fb[v] && rep->block_of[v] < 0 && (!copies || copies[v] >= 2))
      key[m++] = (util_ratio_key){(double)g->m[v], v};
  if (m > 1) qsort(key, (size_t)m, sizeof *key, ch_cmp_m_desc);
  if (m > CHAIN_OUTSIDE_MAX) m = CHAIN_OUTSIDE_MAX;
  for (int i = 0; i < m; i++) C->grp[key[i].i] = ng + i;
  ng += m;
  /* places without an eligible node are no group: renumber the rest */
  int *cnt = util_calloc((size_t)(ng ? ng : 1), sizeof *cnt), *id = util_malloc((size_t)(ng ? ng : 1) * sizeof *id);
  for (int v = 0; v < g->n; v++)
    if (C->grp[v] >= 0 && C->inst[v] + 1 > cnt[C->grp[v]]) cnt[C->grp[v]] = C->inst[v] + 1;
  int k = 0;
  for (int q = 0; q < ng; q++) id[q] = cnt[q] ? k++ : -1;
  for (int v = 0; v < g->n; v++)
    if (C->grp[v] >= 0) C->grp[v] = id[C->grp[v]];
  C->ngroup = k;
  C->cnt = util_calloc((size_t)(k ? k : 1), sizeof *C->cnt);
  C->dr = util_calloc((size_t)(k ? k : 1), sizeof *C->dr);
  for (int q = 0; q < ng; q++)
    if (id[q] >= 0) C->cnt[id[q]] = cnt[q];
  C->out->groups = k;
  UTIL_FREE(cnt, id);
  ch_moves(C);
  UTIL_FREE(fb, nfw, place, kseen, kfw, kbase, local, key);
}

int chain_compose(const remat_graph *g, const repeat_out *rep, int64_t budget,
                  const int *copies, deadline d, chain_out *out) {
  memset(out, 0, sizeof *out);
  out->kind = -1;
  if (!g->backward || !rep->nblocks) return 0;
  size_t sz = (size_t)(g->n ? g->n : 1);
  ch C = {.g = g, .budget = budget, .d = d, .out = out};
  C.grp = util_malloc(sz * sizeof *C.grp);
  C.inst = util_malloc(sz * sizeof *C.inst);
  C.rec = util_malloc(sz);
  C.stamp = util_malloc(sz * sizeof *C.stamp);
  C.need = util_malloc(sz * sizeof *C.need);
  C.stack = util_malloc(sz * sizeof *C.stack);
  C.seq = util_malloc(2 * sz * sizeof *C.seq);
  ch_groups(&C, rep, copies);
  ch_val cur = ch_eval(&C);
  if (!cur.fits) cur = ch_greedy(&C, cur);
  if (cur.fits && out->dropped) {
    cur = ch_refine(&C, cur);
    cur = ch_partial(&C, cur);
  }
  UTIL_FREE(C.grp, C.inst, C.rec, C.stamp, C.need, C.stack, C.seq, C.cnt, C.dr, C.mv_off, C.mv,
            C.mark);
  if (C.internal) {
    free(out->seq);
    out->seq = NULL;
    return REMAT_EINTERNAL;
  }
  return 0;
}
