/* cp_nbh.c -- the CP worker's neighbourhoods (cp_nbh.h). */
#include "cp_nbh.h"

#include <stdlib.h>
#include <string.h>

#include "gecode.h"
#include "graph.h"
#include "util.h"

#define NBH_COMPLETE_EVERY 16
#define NBH_SMALL 64 /* models with at most this many copies: no LNS */

static uint64_t nbh_next(nbh *L) { return util_xorshift(&L->rng); }

static int nbh_below(nbh *L, int n) { return util_below(&L->rng, n); }

void nbh_init(nbh *L, const model *md, const fzn_layout *layout, int mode,
              unsigned seed, const long long *solutions) {
  memset(L, 0, sizeof *L);
  L->md = md;
  L->layout = layout;
  L->mode = mode;
  L->rng = 0x9E3779B97F4A7C15ull ^ ((uint64_t)seed * 0x2545F4914F6CDD1Dull);
  if (!L->rng) L->rng = 1;
  L->solutions = solutions;
  L->size = 0.08;
  L->last_kind = -1;
  int nc = md->ncopy;
  L->var_a = util_malloc((size_t)nc * sizeof *L->var_a);
  L->var_s = util_malloc((size_t)nc * sizeof *L->var_s);
  L->var_e = util_malloc((size_t)nc * sizeof *L->var_e);
  for (int c = 0; c < nc; c++) L->var_a[c] = L->var_s[c] = L->var_e[c] = -1;
  for (int k = 0; k < layout->nlns; k++) {
    int c = layout->copy[k];
    int *dst = layout->kind[k] == 'a' ? L->var_a : layout->kind[k] == 's' ? L->var_s : L->var_e;
    dst[c] = k;
  }
  L->nodes = util_malloc((size_t)(md->ncopy > md->n ? md->ncopy : md->n) * sizeof *L->nodes);
  L->mark = util_calloc((size_t)md->n, 1);
  L->profile = util_malloc(((size_t)md->horizon + 2) * sizeof *L->profile);
}

void nbh_free(nbh *L) {
  UTIL_FREE(L->var_a, L->var_s, L->var_e, L->nodes, L->mark, L->profile);
}

/* Values of copy c from the LNS variables. */
static void nbh_copy(const nbh *L, const int *values, int c, int *s, int *e,
                     int *a) {
  const model *md = L->md;
  int v = md->node[c];
  *a = L->var_a[c] < 0 ? 1 : values[L->var_a[c]];
  *s = L->var_s[c] < 0 ? model_first_start(v) : values[L->var_s[c]];
  *e = values[L->var_e[c]];
}

/* Pick up to k nodes from the candidates list (cand, ncand) at random into
 * the marked set; returns how many were newly marked. */
static int nbh_pick(nbh *L, int *cand, int ncand, int k) {
  int got = 0;
  for (int i = 0; i < ncand && got < k; i++) {
    int j = i + nbh_below(L, ncand - i);
    int t = cand[i];
    cand[i] = cand[j];
    cand[j] = t;
    if (!L->mark[cand[i]]) {
      L->mark[cand[i]] = 1;
      got++;
    }
  }
  return got;
}

static void nbh_random(nbh *L, int k) {
  int n = L->md->n;
  for (int v = 0; v < n; v++) L->nodes[v] = v;
  nbh_pick(L, L->nodes, n, k);
}

/* The position (node index) an event belongs to: its stage's node on the
 * stage axis; in free order, where events are steps and nodes are roughly
 * in the input order, the node as far along as the event. */
static int nbh_position(const nbh *L, int event) {
  const model *md = L->md;
  if (!md->free_order) return model_stage(event) - 1;
  int64_t c = (int64_t)(event - 1) * md->n / (md->horizon > 0 ? md->horizon : 1);
  return c < 0 ? 0 : c >= md->n ? md->n - 1 : (int)c;
}

/* Consecutive positions [a, a + k) around position c. */
static void nbh_window(nbh *L, int c, int k) {
  int n = L->md->n;
  int a = c - k / 2 - nbh_below(L, k / 2 + 1);
  if (a < 0) a = 0;
  if (a + k > n) a = n - k;
  for (int v = a; v < a + k && v < n; v++) L->mark[v] = 1;
}

/* Memory profile (scaled) over events; returns a peak event. */
static int nbh_profile(nbh *L, const int *values, int64_t *peak) {
  const model *md = L->md;
  memset(L->profile, 0, ((size_t)md->horizon + 2) * sizeof *L->profile);
  for (int c = 0; c < md->ncopy; c++) {
    int s, e, a;
    nbh_copy(L, values, c, &s, &e, &a);
    if (!a || s < 1 || e > md->horizon || s > e) continue;
    L->profile[s] += md->mem[md->node[c]];
    L->profile[e + 1] -= md->mem[md->node[c]];
  }
  int64_t cur = 0, best = -1;
  int arg = 1, ties = 0;
  for (int t = 1; t <= md->horizon; t++) {
    cur += L->profile[t];
    L->profile[t] = cur;
    if (cur > best) {
      best = cur;
      arg = t;
      ties = 1;
    } else if (cur == best && nbh_below(L, ++ties) == 0) {
      arg = t;
    }
  }
  *peak = best;
  return arg;
}

/* Nodes with a copy live somewhere in [t0, t1] (into L->nodes). */
static int nbh_live_in(nbh *L, const int *values, int t0, int t1) {
  const model *md = L->md;
  int cnt = 0;
  for (int c = 0; c < md->ncopy; c++) {
    int s, e, a;
    nbh_copy(L, values, c, &s, &e, &a);
    if (a && s <= t1 && t0 <= e) L->nodes[cnt++] = md->node[c];
  }
  return cnt;
}

static void nbh_peak(nbh *L, const int *values, int k) {
  int64_t peak;
  int t = nbh_profile(L, values, &peak);
  int cnt = nbh_live_in(L, values, t, t);
  nbh_pick(L, L->nodes, cnt, k);
}

/* A random active recomputation, or -1. */
static int nbh_anchor(nbh *L, const int *values) {
  const model *md = L->md;
  int pick = -1, seen = 0;
  for (int c = 0; c < md->ncopy; c++)
    if (L->var_a[c] >= 0 && values[L->var_a[c]] && nbh_below(L, ++seen) == 0)
      pick = c;
  return pick;
}

/* Relax k nodes around recomputation c of node u. */
static void nbh_around(nbh *L, const int *values, int c, int kind, int k) {
  const model *md = L->md;
  int u = md->node[c];
  int s, e, a, ps, pe, pa;
  nbh_copy(L, values, c, &s, &e, &a);
  nbh_copy(L, values, c - 1, &ps, &pe, &pa);
  L->mark[u] = 1;
  switch (kind) {
  case NBH_GAP: {
    int cnt = nbh_live_in(L, values, pe, s);
    nbh_pick(L, L->nodes, cnt, k - 1);
    break;
  }
  case NBH_WINDOW:
    nbh_window(L, nbh_position(L, s), k - 1);
    break;
  case NBH_PEAK:
    nbh_peak(L, values, k - 1);
    break;
  default:
    nbh_random(L, k - 1);
  }
}

/* Free the marked nodes: their copies, and their predecessors' ends. */
static void nbh_apply(nbh *L, unsigned char *fix, int n) {
  const model *md = L->md;
  const remat_graph *g = md->g;
  memset(fix, 1, (size_t)n);
  for (int v = 0; v < md->n; v++) {
    if (!L->mark[v]) continue;
    for (int c = md->first[v]; c < md->first[v + 1]; c++) {
      if (L->var_a[c] >= 0) fix[L->var_a[c]] = 0;
      if (L->var_s[c] >= 0) fix[L->var_s[c]] = 0;
      fix[L->var_e[c]] = 0;
    }
    for (int j = g->pred_off[v]; j < g->pred_off[v + 1]; j++) {
      int u = g->pred[j];
      for (int c = md->first[u]; c < md->first[u + 1]; c++) fix[L->var_e[c]] = 0;
    }
  }
  memset(L->mark, 0, (size_t)md->n);
}

int nbh_neighbourhood(void *ctx, long long restart, int n, int *values,
                      int have_solution, unsigned char *fix) {
  nbh *L = ctx;
  (void)have_solution;
  L->calls++;
  long long now = L->solutions ? *L->solutions : 0;
  int improved = now > L->seen;
  L->seen = now;
  if (L->last_kind >= 0) {
    if (improved) L->wins[L->last_kind]++;
    /* aim at roughly one success in five attempts */
    L->size *= improved ? 0.95 : 1.012;
    if (L->size < 0.02) L->size = 0.02;
    if (L->size > 0.6) L->size = 0.6;
  }
  L->last_kind = -1;
  if (restart == 0) {
    if (!values) return GZ_NBH_COMPLETE;
    memset(fix, 1, (size_t)n); /* warm start: reproduce the initial solution */
    return GZ_NBH_FIX;
  }
  if (!values || L->mode == REMAT_LNS_NONE) return GZ_NBH_COMPLETE;
  if (L->md->ncopy <= NBH_SMALL) return GZ_NBH_COMPLETE; /* just prove it */
  if (restart % NBH_COMPLETE_EVERY == 1) return GZ_NBH_COMPLETE;
  int k = (int)(L->size * L->md->n + 0.5);
  if (k < 2) k = 2;
  if (k > L->md->n) k = L->md->n;
  int kind = NBH_RANDOM;
  if (L->mode == REMAT_LNS_AUTO) {
    /* roulette over kinds weighted by (wins+1)/(tries+2) */
    double w[NBH_KINDS], tot = 0;
    for (int i = 0; i < NBH_KINDS; i++) {
      w[i] = (double)(L->wins[i] + 1) / (double)(L->tries[i] + 2);
      tot += w[i];
    }
    double r = (double)(nbh_next(L) % 1000000) / 1e6 * tot;
    for (kind = 0; kind < NBH_KINDS - 1 && r >= w[kind]; kind++) r -= w[kind];
  }
  int anchor = L->md->phase == 2 ? nbh_anchor(L, values) : -1;
  if (L->md->phase == 2 && anchor < 0) return GZ_NBH_COMPLETE; /* nothing to free */
  if (anchor >= 0)
    nbh_around(L, values, anchor, kind, k);
  else if (kind == NBH_WINDOW || kind == NBH_GAP) {
    int64_t peak;
    nbh_window(L, nbh_position(L, nbh_profile(L, values, &peak)), k);
  } else if (kind == NBH_PEAK)
    nbh_peak(L, values, k);
  else
    nbh_random(L, k);
  L->tries[kind]++;
  L->last_kind = kind;
  nbh_apply(L, fix, n);
  return GZ_NBH_FIX;
}
