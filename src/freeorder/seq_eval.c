/* seq_eval.c -- the evaluation of sequences in free order (seq_eval.h). */
#include "seq_eval.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

void sqe_init(sqe *E, const remat_graph *g, const int *copies, int64_t M) {
  memset(E, 0, sizeof *E);
  E->g = g;
  E->copies = copies;
  E->M = M;
  size_t nn = (size_t)(g->n ? g->n : 1);
  E->latest = util_malloc(nn * sizeof *E->latest);
  E->cnt = util_malloc(nn * sizeof *E->cnt);
  E->stamp = util_calloc(nn, sizeof *E->stamp);
  E->aff = util_malloc(nn * sizeof *E->aff);
  E->ib = util_malloc(nn * sizeof *E->ib);
  E->icnt = util_malloc(nn * sizeof *E->icnt);
  E->icap = util_malloc(nn * sizeof *E->icap);
}

void sqe_free(sqe *E) {
  UTIL_FREE(E->latest, E->cnt, E->stamp, E->aff, E->tp, E->tq, E->tl, E->pt, E->pl,
            E->delta, E->ib, E->icnt, E->icap, E->ipos);
}

void sqe_ev_reserve(sqe_ev *e, int len) {
  if (len <= e->cap) return;
  e->cap = 2 * len + 16;
  e->seq = util_realloc(e->seq, (size_t)e->cap * sizeof *e->seq);
  e->lastuse = util_realloc(e->lastuse, (size_t)e->cap * sizeof *e->lastuse);
  e->mem = util_realloc(e->mem, (size_t)e->cap * sizeof *e->mem);
}

void sqe_ev_free(sqe_ev *e) {
  UTIL_FREE(e->seq, e->lastuse, e->mem);
}

/* Scratch for sequences of up to len steps. */
static void sqe_scratch(sqe *E, int len) {
  if (len + 2 <= E->cap) return;
  E->cap = 2 * len + 16;
  size_t c = (size_t)E->cap;
  E->tp = util_realloc(E->tp, c * sizeof *E->tp);
  E->tq = util_realloc(E->tq, c * sizeof *E->tq);
  E->tl = util_realloc(E->tl, c * sizeof *E->tl);
  E->pt = util_realloc(E->pt, c * sizeof *E->pt);
  E->pl = util_realloc(E->pl, c * sizeof *E->pl);
  E->delta = util_realloc(E->delta, c * sizeof *E->delta);
}

/* Room in the index for SQE_ROOM more copies of each node (a node that
 * outgrows it rebuilds the index). */
#define SQE_ROOM 2

/* The index of e, from scratch. */
static void sqe_index(sqe *E, const sqe_ev *e) {
  int n = E->g->n;
  memset(E->icnt, 0, (size_t)n * sizeof *E->icnt);
  for (int j = 0; j < e->len; j++) E->icnt[e->seq[j]]++;
  int size = 0;
  for (int v = 0; v < n; v++) {
    E->icap[v] = E->icnt[v] + SQE_ROOM;
    E->ib[v] = size;
    size += E->icap[v];
    E->icnt[v] = 0;
  }
  if (size > E->isize) {
    E->isize = 2 * size;
    E->ipos = util_realloc(E->ipos, (size_t)E->isize * sizeof *E->ipos);
  }
  for (int j = 0; j < e->len; j++) {
    int v = e->seq[j];
    E->ipos[E->ib[v] + E->icnt[v]++] = j;
  }
  E->ix = e;
}

/* Where the step inserted before c's step at lands, c's step i taken out. */
static inline int sqe_ins(int i, int at) { return at - (i >= 0 && i < at); }

/* Node x's copy at step from is now at step to. */
static void sqe_index_set(sqe *E, int x, int from, int to) {
  int *p = E->ipos + E->ib[x];
  for (int k = 0; k < E->icnt[x]; k++)
    if (p[k] == from) {
      p[k] = to;
      return;
    }
}

void sqe_take(sqe *E, const sqe_ev *c, const sqe_ev *t) {
  if (E->ix != c || E->mv_c != c || E->mv_t != t) {
    E->ix = NULL;
    return;
  }
  int i = E->mv_i, at = E->mv_at, v = E->mv_v;
  if (i >= 0) { /* its copy goes */
    int y = c->seq[i], *p = E->ipos + E->ib[y], k = 0;
    while (p[k] != i) k++;
    memmove(p + k, p + k + 1, (size_t)(E->icnt[y] - k - 1) * sizeof *p);
    E->icnt[y]--;
  }
  /* The steps between the two places (or after the one) move by one, all
   * the same way; taken in the order that never meets a step's new
   * position before its old one. */
  int lo, hi, by;
  if (i >= 0 && at >= 0) {
    lo = at <= i ? at : i + 1;
    hi = at <= i ? i : at;
    by = at <= i ? 1 : -1;
  } else if (i >= 0) {
    lo = i + 1, hi = c->len, by = -1;
  } else if (at >= 0) {
    lo = at, hi = c->len, by = 1;
  } else { /* nothing moved */
    lo = hi = 0, by = 1;
  }
  if (by > 0)
    for (int j = hi - 1; j >= lo; j--) sqe_index_set(E, c->seq[j], j, j + 1);
  else
    for (int j = lo; j < hi; j++) sqe_index_set(E, c->seq[j], j, j - 1);
  if (at >= 0) { /* v's new copy, in its place */
    if (E->icnt[v] == E->icap[v]) {
      sqe_index(E, t);
      return;
    }
    int g = sqe_ins(i, at), *p = E->ipos + E->ib[v], k = E->icnt[v]++;
    while (k > 0 && p[k - 1] > g) {
      p[k] = p[k - 1];
      k--;
    }
    p[k] = g;
  }
  E->ix = t;
}

/* The running numbers of a sequence's memory, step by step. */
typedef struct sqe_acc {
  int64_t run, peak, excess; /* run: sqe_move's differences so far */
  int over;
} sqe_acc;

static inline void sqe_acc_add(sqe_acc *A, int64_t here, int64_t M) {
  int64_t e = here - M;
  A->peak = here > A->peak ? here : A->peak;
  A->excess += e > 0 ? e : 0;
  A->over += e > 0;
}

int sqe_full(sqe *E, sqe_ev *e) {
  const remat_graph *g = E->g;
  const int *c = E->copies;
  int len = e->len;
  if (E->ix == e) E->ix = NULL;
  if (E->mv_t == e) E->mv_c = NULL;
  sqe_scratch(E, len);
  for (int v = 0; v < g->n; v++) {
    E->latest[v] = -1;
    E->cnt[v] = 0;
  }
  for (int j = 0; j < len; j++) {
    int v = e->seq[j];
    if (++E->cnt[v] > 1 && c && c[v] && E->cnt[v] > c[v]) return 0;
    e->lastuse[j] = j;
    for (int k = g->pred_off[v]; k < g->pred_off[v + 1]; k++) {
      int i = E->latest[g->pred[k]];
      if (i < 0) return 0;
      e->lastuse[i] = j;
    }
    E->latest[v] = j;
  }
  for (int v = 0; v < g->n; v++)
    if (!E->cnt[v]) return 0;
  int64_t *delta = E->delta;
  memset(delta, 0, ((size_t)len + 1) * sizeof *delta);
  for (int i = 0; i < len; i++)
    if (e->lastuse[i] > i) {
      delta[i + 1] += g->m[e->seq[i]];
      delta[e->lastuse[i] + 1] -= g->m[e->seq[i]];
    }
  int64_t cur = 0;
  sqe_acc A = {0, 0, 0, 0};
  e->dur = 0;
  for (int j = 0; j < len; j++) {
    cur += delta[j];
    int64_t here = cur + g->m[e->seq[j]];
    e->mem[j] = here;
    sqe_acc_add(&A, here, E->M);
    e->dur += g->w[e->seq[j]];
  }
  e->peak = A.peak;
  e->excess = A.excess;
  e->over = A.over;
  return 1;
}

/* ------------------------------------------------------------ a move */

/* The move being evaluated: c's step i out, v in before c's step at (old
 * positions; -1: none); g is v's position in the new sequence. */
typedef struct sqe_mv {
  const sqe *E;
  const sqe_ev *c;
  int i, at, v, g;
} sqe_mv;

/* The new position of c's step j; for j = i (taken out), the position
 * of whatever now follows c's steps before i. */
static inline int sqe_map(const sqe_mv *mv, int j) {
  return j - (mv->i >= 0 && mv->i < j) + (mv->at >= 0 && mv->at <= j);
}

/* The new positions of x's copies, ascending, into out; their number. */
static int sqe_copies(const sqe_mv *mv, int x, int *out) {
  const int *pos = mv->E->ipos + mv->E->ib[x];
  int k = 0, ins = mv->at >= 0 && mv->v == x ? mv->g : -1;
  for (int a = 0; a < mv->E->icnt[x]; a++) {
    int p = pos[a];
    if (p == mv->i) continue;
    int t = sqe_map(mv, p);
    if (ins >= 0 && ins < t) {
      out[k++] = ins;
      ins = -1;
    }
    out[k++] = t;
  }
  if (ins >= 0) out[k++] = ins;
  return k;
}

/* x's copies in the new sequence: their lives (the last reader of each,
 * from the copies of x's successors), and the difference to the memory
 * (delta, over new positions) between their old lives and the new ones;
 * each new life goes to the patch list (pt, pl, *np).  0 when a
 * successor's copy reads x with no copy before it, or x has none. */
static int sqe_relive(sqe *E, const sqe_mv *mv, int x, int *np) {
  const remat_graph *g = E->g;
  const sqe_ev *c = mv->c;
  int *P = E->tp, *L = E->tl, *Q = E->tq;
  int n = sqe_copies(mv, x, P);
  if (!n) return 0;
  for (int k = 0; k < n; k++) L[k] = P[k];
  for (int e = g->succ_off[x]; e < g->succ_off[x + 1]; e++) {
    int nq = sqe_copies(mv, g->succ[e], Q), k = 0;
    for (int a = 0; a < nq; a++) {
      int q = Q[a];
      while (k + 1 < n && P[k + 1] < q) k++;
      if (P[k] > q) return 0;
      if (q > L[k]) L[k] = q;
    }
  }
  int64_t mx = g->m[x], *d = E->delta;
  int i = mv->i, at = mv->at;
  const int *pos = E->ipos + E->ib[x];
  for (int a = 0; a < E->icnt[x]; a++) {
    /* The old life [p, lu] covers the new steps that were old steps in
     * [p, lu], and v's step when p < at <= lu. */
    int p = pos[a], lu = c->lastuse[p];
    int s = sqe_map(mv, p);
    int t = lu - (i >= 0 && i <= lu) + (at >= 0 && at <= lu);
    if (s <= t) {
      d[s] -= mx;
      d[t + 1] += mx;
    }
  }
  for (int k = 0; k < n; k++) {
    d[P[k]] += mx;
    d[L[k] + 1] -= mx;
    E->pt[*np] = P[k];
    E->pl[*np] = L[k];
    ++*np;
  }
  return 1;
}

/* x and its predecessors, each once, onto the affected list. */
static void sqe_affect(sqe *E, int x, int *na) {
  const remat_graph *g = E->g;
  if (E->stamp[x] != E->stampv) {
    E->stamp[x] = E->stampv;
    E->aff[(*na)++] = x;
  }
  for (int k = g->pred_off[x]; k < g->pred_off[x + 1]; k++) {
    int u = g->pred[k];
    if (E->stamp[u] != E->stampv) {
      E->stamp[u] = E->stampv;
      E->aff[(*na)++] = u;
    }
  }
}

/* c's steps [j0, j1) at their new places j + by (none of them i). */
static void sqe_run(const sqe *E, const sqe_mv *mv, sqe_ev *t, int j0, int j1, int by,
                    sqe_acc *A) {
  if (j1 <= j0) return;
  const sqe_ev *c = mv->c;
  int n = j1 - j0;
  memcpy(t->seq + j0 + by, c->seq + j0, (size_t)n * sizeof *t->seq);
  const int *cl = c->lastuse + j0;
  int *tl = t->lastuse + j0 + by;
  for (int k = 0; k < n; k++) tl[k] = sqe_map(mv, cl[k]);
  const int64_t *cm = c->mem + j0, *d = E->delta + j0 + by;
  int64_t *tm = t->mem + j0 + by, M = E->M;
  sqe_acc L = *A; /* a local copy the loop keeps in registers */
  for (int k = 0; k < n; k++) {
    L.run += d[k];
    int64_t here = cm[k] + L.run;
    tm[k] = here;
    sqe_acc_add(&L, here, M);
  }
  *A = L;
}

int sqe_move(sqe *E, const sqe_ev *c, sqe_ev *t, int i, int at, int v) {
  const remat_graph *g = E->g;
  if (at < 0) v = -1;
  if (E->ix != c) sqe_index(E, c);
  E->mv_c = NULL;
  int len = c->len - (i >= 0) + (at >= 0);
  sqe_ev_reserve(t, len);
  t->len = len;
  sqe_scratch(E, c->len + 1);
  if (v >= 0 && E->copies && E->copies[v]) {
    int k = E->icnt[v] + 1 - (i >= 0 && c->seq[i] == v);
    if (k > 1 && k > E->copies[v]) return 0;
  }
  sqe_mv mv = {E, c, i, at, v, at >= 0 ? sqe_ins(i, at) : -1};
  if (++E->stampv == 0) { /* wrapped: clear the stamps */
    memset(E->stamp, 0, (size_t)g->n * sizeof *E->stamp);
    E->stampv = 1;
  }
  int na = 0, np = 0;
  if (i >= 0) sqe_affect(E, c->seq[i], &na);
  if (v >= 0) sqe_affect(E, v, &na);
  int64_t *d = E->delta;
  memset(d, 0, ((size_t)len + 1) * sizeof *d);
  for (int a = 0; a < na; a++)
    if (!sqe_relive(E, &mv, E->aff[a], &np)) return 0;
  /* The steps that stay, in runs that move by the same amount, keep their
   * memory but for the differences; v's step starts from what lives
   * across it (old step at's memory without its own output). */
  sqe_acc A = {0, 0, 0, 0};
  if (at < 0 && i < 0) {
    sqe_run(E, &mv, t, 0, c->len, 0, &A);
  } else if (at < 0) {
    sqe_run(E, &mv, t, 0, i, 0, &A);
    sqe_run(E, &mv, t, i + 1, c->len, -1, &A);
  } else {
    int lo = i >= 0 && i < at ? i : at;
    sqe_run(E, &mv, t, 0, lo, 0, &A);
    if (i >= 0 && i < at) sqe_run(E, &mv, t, i + 1, at, -1, &A);
    int64_t here = (at < c->len ? c->mem[at] - g->m[c->seq[at]] : 0) + (A.run += d[mv.g]);
    t->seq[mv.g] = v;
    t->lastuse[mv.g] = mv.g;
    t->mem[mv.g] = here;
    sqe_acc_add(&A, here, E->M);
    if (i < 0) {
      sqe_run(E, &mv, t, at, c->len, 1, &A);
    } else if (i >= at) {
      sqe_run(E, &mv, t, at, i, 1, &A);
      sqe_run(E, &mv, t, i + 1, c->len, 0, &A);
    } else {
      sqe_run(E, &mv, t, at, c->len, 0, &A);
    }
  }
  for (int a = 0; a < np; a++) t->lastuse[E->pt[a]] = E->pl[a];
  t->dur = c->dur - (i >= 0 ? g->w[c->seq[i]] : 0) + (v >= 0 ? g->w[v] : 0);
  t->peak = A.peak;
  t->excess = A.excess;
  t->over = A.over;
  E->mv_c = c;
  E->mv_t = t;
  E->mv_i = i;
  E->mv_at = at;
  E->mv_v = v;
  return 1;
}
