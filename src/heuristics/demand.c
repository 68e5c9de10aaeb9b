/* demand.c -- schedules by recomputation on demand (demand.h).
 *
 * Per stage t: the values to compute again (the inputs of t not held, and
 * theirs, down to held values), then one pass from t down to 0 that
 * gives each value its next use, `next` (the earliest later stage that
 * reads it, directly or through values not held after the stage; none:
 * dead) and `reach` (the earliest later stage that reads anything
 * computed from it, held or not: what a value of C_v = 1 is held for).
 * Evicting a value makes its inputs needed as soon as it is (next is
 * lowered along the values not held).  Each eviction takes one pass over
 * the nodes up to t for what can be computed again and at what cost, so
 * a walk is O(steps * (n + edges)).  The lookahead (demand_pilot) keeps
 * no state between rollouts: each replays the walk from the start with
 * its first evictions forced, the same walk up to there (it is
 * deterministic). */
#include "demand.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "sim.h"
#include "util.h"

#define DEMAND_NONE INT_MAX /* no next use */

void demand_params_init(demand_params *p) {
  memset(p, 0, sizeof *p);
  p->exponent = 1.0;
  p->width = 16;
  p->deadline = deadline_in(1.0);
}

typedef struct demand {
  const remat_graph *g;
  const demand_params *p;
  int n;
  unsigned char *held;  /* the value's latest copy is held */
  unsigned char *again; /* it can be computed again (eviction pass) */
  int *next, *reach;    /* next use, next use of anything computed from it */
  int *readers;         /* readers left in the stage */
  int *mark, stamp;     /* the stage's nodes carry mark == stamp */
  int *ncomp;           /* computations so far */
  double *cost;         /* duration of computing it again (eviction pass) */
  int *stack, *stage, nstage;
  int64_t mem;          /* the held values' sizes */
  int *seq;
  size_t len, cap;
  /* the lookahead (demand_pilot): the first nforced evictions take the
   * forced[i]-th best candidate; at eviction number nforced, ncand
   * counts the candidates (up to the width) */
  const int *forced;
  int nforced, evictions, ncand;
  int *cand;            /* the width best candidates, by score */
  double *cscore;
} demand;

/* May v be computed once more? */
static int dm_allowed(const demand *D, int v) {
  const int *c = D->p->copies;
  return !c || !c[v] || (c[v] != 1 && D->ncomp[v] < c[v]);
}

static void dm_release(demand *D, int v) {
  if (D->held[v]) {
    D->held[v] = 0;
    D->mem -= D->g->m[v];
  }
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* The stage of t: the values not held that t needs, and theirs, in
 * increasing index order, then t.  Returns 0 where one of them may not
 * be computed again. */
static int dm_stage(demand *D, int t) {
  const remat_graph *g = D->g;
  int top = 0;
  D->stamp++;
  D->nstage = 0;
  D->stack[top++] = t;
  D->mark[t] = D->stamp;
  while (top) {
    int u = D->stack[--top];
    if (u != t) {
      if (!dm_allowed(D, u)) return 0;
      D->stage[D->nstage++] = u;
    }
    for (int k = g->pred_off[u]; k < g->pred_off[u + 1]; k++) {
      int q = g->pred[k];
      if (!D->held[q] && D->mark[q] != D->stamp) {
        D->mark[q] = D->stamp;
        D->stack[top++] = q;
      }
    }
  }
  qsort(D->stage, (size_t)D->nstage, sizeof *D->stage, cmp_int);
  D->stage[D->nstage++] = t;
  return 1;
}

/* next and reach for the values up to t, the stage's nodes counted as
 * held after it. */
static void dm_uses(demand *D, int t) {
  const remat_graph *g = D->g;
  const int *c = D->p->copies;
  for (int v = t; v >= 0; v--) {
    int nx = DEMAND_NONE, re = DEMAND_NONE;
    for (int k = g->succ_off[v]; k < g->succ_off[v + 1]; k++) {
      int x = g->succ[k];
      if (x > t) {
        if (x < nx) nx = x;
        if (x < re) re = x;
        continue;
      }
      if (D->next[x] < re) re = D->next[x];
      if (D->reach[x] < re) re = D->reach[x];
      if (!D->held[x] && D->mark[x] != D->stamp && D->next[x] < nx) nx = D->next[x];
    }
    D->reach[v] = re;
    D->next[v] = c && c[v] == 1 ? re : nx;
  }
}

/* After evicting v: its inputs are needed when it is, and theirs where
 * they are not held. */
static void dm_need(demand *D, int v) {
  const remat_graph *g = D->g;
  int top = 0;
  D->stack[top++] = v;
  while (top) {
    int x = D->stack[--top];
    for (int k = g->pred_off[x]; k < g->pred_off[x + 1]; k++) {
      int q = g->pred[k];
      if (D->next[x] < D->next[q]) {
        D->next[q] = D->next[x];
        if (!D->held[q]) D->stack[top++] = q;
      }
    }
  }
}

/* Evict the held value of least score before stage t's computation;
 * returns 0 when none can be. */
static int dm_evict(demand *D, int t) {
  const remat_graph *g = D->g;
  for (int v = 0; v <= t; v++) {
    int ok = dm_allowed(D, v);
    double cost = (double)g->w[v];
    for (int k = g->pred_off[v]; ok && k < g->pred_off[v + 1]; k++) {
      int q = g->pred[k];
      if (!D->held[q]) {
        ok = D->again[q];
        cost += D->cost[q];
      }
    }
    D->again[v] = (unsigned char)ok;
    D->cost[v] = cost;
  }
  /* the `width` least scores, in increasing order (ties: the lower index) */
  int width = D->forced ? D->p->width : 1, nc = 0;
  for (int v = 0; v <= t; v++) {
    if (!D->held[v] || D->readers[v] || !D->again[v] || !g->m[v]) continue;
    double dist = (double)D->next[v] - t + 1;
    double score = D->cost[v] / ((double)g->m[v] * pow(dist, D->p->exponent));
    if (nc == width && score >= D->cscore[nc - 1]) continue;
    int i = nc < width ? nc++ : nc - 1;
    for (; i > 0 && D->cscore[i - 1] > score; i--) {
      D->cscore[i] = D->cscore[i - 1];
      D->cand[i] = D->cand[i - 1];
    }
    D->cscore[i] = score;
    D->cand[i] = v;
  }
  int k = D->evictions++, pick = 0;
  if (k < D->nforced) pick = D->forced[k];
  if (k == D->nforced) D->ncand = nc;
  int best = pick < nc ? D->cand[pick] : -1;
  if (best < 0) return 0;
  dm_release(D, best);
  dm_need(D, best);
  return 1;
}

static int dm_walk(demand *D) {
  const remat_graph *g = D->g;
  int64_t M = D->p->budget;
  for (int t = 0; t < D->n; t++) {
    if (deadline_passed(D->p->deadline) || (D->p->stop && *D->p->stop)) return 0;
    if (!dm_stage(D, t)) return 0;
    dm_uses(D, t);
    for (int i = 0; i < D->nstage; i++) {
      int x = D->stage[i];
      for (int k = g->pred_off[x]; k < g->pred_off[x + 1]; k++) D->readers[g->pred[k]]++;
    }
    for (int v = 0; v < t; v++)
      if (D->held[v] && D->next[v] == DEMAND_NONE && !D->readers[v]) dm_release(D, v);
    for (int i = 0; i < D->nstage; i++) {
      int x = D->stage[i];
      while (D->mem > M - g->m[x])
        if (!dm_evict(D, t)) return 0;
      PUSH(D->seq, D->len, D->cap, 256, x);
      D->ncomp[x]++;
      D->held[x] = 1;
      D->mem += g->m[x];
      for (int k = g->pred_off[x]; k < g->pred_off[x + 1]; k++) {
        int q = g->pred[k];
        if (!--D->readers[q] && D->next[q] == DEMAND_NONE) dm_release(D, q);
      }
      if (!D->readers[x] && D->next[x] == DEMAND_NONE) dm_release(D, x);
    }
  }
  return 1;
}

/* The walk, its first nforced evictions forced (forced NULL: none, the
 * best candidate each time); *ncand: the candidates at eviction number
 * nforced (0: there is none). */
static int *dm_run(const remat_graph *g, const demand_params *p, const int *forced, int nforced,
                   int *ncand, int *len) {
  int n = g->n;
  size_t sz = (size_t)(n ? n : 1);
  *len = 0;
  if (ncand) *ncand = 0;
  for (int v = 0; v < n; v++)
    if (g->m[v] > p->budget) return NULL;
  demand D;
  memset(&D, 0, sizeof D);
  D.g = g;
  D.p = p;
  D.n = n;
  D.forced = forced;
  D.nforced = nforced;
  size_t width = (size_t)(forced && p->width > 1 ? p->width : 1);
  D.cand = util_calloc(width, sizeof *D.cand);
  D.cscore = util_calloc(width, sizeof *D.cscore);
  D.held = util_calloc(sz, 1);
  D.again = util_calloc(sz, 1);
  D.next = util_calloc(sz, sizeof *D.next);
  D.reach = util_calloc(sz, sizeof *D.reach);
  D.readers = util_calloc(sz, sizeof *D.readers);
  D.mark = util_calloc(sz, sizeof *D.mark);
  D.ncomp = util_calloc(sz, sizeof *D.ncomp);
  D.cost = util_calloc(sz, sizeof *D.cost);
  D.stack = util_calloc(sz, sizeof *D.stack);
  D.stage = util_calloc(sz, sizeof *D.stage);
  int ok = dm_walk(&D);
  free(D.cand);
  free(D.cscore);
  free(D.held);
  free(D.again);
  free(D.next);
  free(D.reach);
  free(D.readers);
  free(D.mark);
  free(D.ncomp);
  free(D.cost);
  free(D.stack);
  free(D.stage);
  if (ncand) *ncand = D.ncand;
  if (!ok) {
    free(D.seq);
    return NULL;
  }
  *len = (int)D.len;
  return D.seq;
}

int *demand_schedule(const remat_graph *g, const demand_params *p, int *len) {
  return dm_run(g, p, NULL, 0, NULL, len);
}

/* Keep seq (len steps) in *best where it is shorter; frees the other. */
static void dm_keep(const remat_graph *g, int *seq, int len, int **best, int *best_len,
                    double *best_dur) {
  if (!seq) return;
  double dur = sim_duration_approx(g, seq, len);
  if (!*best || dur < *best_dur) {
    free(*best);
    *best = seq;
    *best_len = len;
    *best_dur = dur;
  } else {
    free(seq);
  }
}

int *demand_best(const remat_graph *g, const demand_params *p, int *len) {
  static const double exps[] = DEMAND_EXPONENTS;
  int *best = NULL;
  double best_dur = 0;
  *len = 0;
  for (size_t i = 0; i < sizeof exps / sizeof *exps; i++) {
    demand_params q = *p;
    q.exponent = exps[i];
    int l, *seq = demand_schedule(g, &q, &l);
    dm_keep(g, seq, l, &best, len, &best_dur);
  }
  return best;
}

int *demand_pilot(const remat_graph *g, const demand_params *p, int *len) {
  static const double exps[] = DEMAND_EXPONENTS;
  double best_dur = 0;
  int *best = NULL;
  *len = 0;
  size_t cap = 256;
  int *forced = util_malloc(cap * sizeof *forced);
  for (size_t i = 0; i < sizeof exps / sizeof *exps; i++) {
    demand_params q = *p;
    q.exponent = exps[i];
    size_t nf = 0;
    int ncand, l, *seq = dm_run(g, &q, forced, 0, &ncand, &l); /* the plain walk */
    dm_keep(g, seq, l, &best, len, &best_dur);
    while (ncand > 0 && !deadline_passed(p->deadline) && !(p->stop && *p->stop)) {
      if (nf == cap) {
        cap *= 2;
        forced = util_realloc(forced, cap * sizeof *forced);
      }
      int pick = -1, pick_ncand = 0;
      double pick_dur = 0;
      for (int j = 0; j < ncand; j++) {
        forced[nf] = j;
        int nc;
        seq = dm_run(g, &q, forced, (int)nf + 1, &nc, &l);
        if (!seq) continue;
        double dur = sim_duration_approx(g, seq, l);
        if (pick < 0 || dur < pick_dur) {
          pick = j;
          pick_dur = dur;
          pick_ncand = nc;
        }
        dm_keep(g, seq, l, &best, len, &best_dur);
      }
      if (pick < 0) break;
      forced[nf++] = pick;
      ncand = pick_ncand;
    }
  }
  free(forced);
  return best;
}
