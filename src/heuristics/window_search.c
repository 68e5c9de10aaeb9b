/* window_search.c -- large-neighbourhood search over windows (window_search.h). */
#include "window_search.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "util.h"
#include "window_model.h"

void wsearch_params_init(wsearch_params *p) {
  memset(p, 0, sizeof *p);
  p->deadline = deadline_in(10);
  p->step_limit = 0.5;
  worker_io_init(&p->io);
}

typedef struct wsearch {
  const model *md;
  const remat_graph *g;
  const wsearch_params *p;
  uint64_t rng;
  unsigned char *R;
  int *cand;
  double nodes;  /* relaxed nodes per window (adaptive) */
  double width;  /* stages per window (adaptive) */
  double span_nodes; /* relaxed nodes per span window (adaptive) */
  util_buf last; /* the last solution's text */
  int got;
} wsearch;

static int wsearch_below(wsearch *L, int n) { return util_below(&L->rng, n); }

static int wsearch_solution(void *ctx, const char *text) {
  wsearch *L = ctx;
  L->last.len = 0;
  util_buf_puts(&L->last, text);
  L->got = 1;
  return 0;
}

/* Collect in L->cand the unmarked nodes with a copy live somewhere in
 * [t0, t1] (one entry per copy); returns their number. */
static int wsearch_live(wsearch *L, const plan *s, const plan_eval *E, int t0, int t1) {
  int cnt = 0;
  for (int i = 0; i < E->len; i++)
    if (s->key[E->lastuse[i]] >= t0 && s->key[i] <= t1 && !L->R[E->seq[i]])
      L->cand[cnt++] = E->seq[i];
  return cnt;
}

/* Mark up to k random nodes with a copy live somewhere in [t0, t1]. */
static void wsearch_pick_live(wsearch *L, const plan *s, const plan_eval *E, int t0, int t1, int k) {
  int cnt = wsearch_live(L, s, E, t0, t1);
  for (int i = 0; i < cnt && k > 0; i++) {
    int j = i + wsearch_below(L, cnt - i), t = L->cand[i];
    L->cand[i] = L->cand[j];
    L->cand[j] = t;
    if (!L->R[L->cand[i]]) {
      L->R[L->cand[i]] = 1;
      k--;
    }
  }
}

/* A random recomputation, marked in L->R: its node, and in *lo, *hi the
 * stages of the gap it bridges (from its node's previous last read to
 * it).  Returns -1 when there is none. */
static int wsearch_pick_recomp(wsearch *L, const plan *s, const plan_eval *E, int *lo, int *hi) {
  int pick = -1, seen = 0;
  for (int i = 0; i < E->len; i++)
    if (!plan_is_first(s->key[i]) && wsearch_below(L, ++seen) == 0) pick = i;
  if (pick < 0) return -1;
  int u = E->seq[pick], prev = pick - 1;
  while (prev >= 0 && E->seq[prev] != u) prev--;
  L->R[u] = 1;
  *lo = model_stage(prev >= 0 ? s->key[E->lastuse[prev]] : s->key[pick]);
  *hi = model_stage(s->key[pick]);
  return u;
}

/* Phase 2: around a random recomputation; phase 1: around the peak.
 * Returns 0 when there is nothing to do. */
static int wsearch_neighbourhood(wsearch *L, const plan *s, const plan_eval *E, int *k0, int *k1) {
  const model *md = L->md;
  memset(L->R, 0, (size_t)md->n);
  int w = (int)(L->width + 0.5), k = (int)(L->nodes + 0.5);
  int lo, hi;
  if (md->phase == 2) {
    if (wsearch_pick_recomp(L, s, E, &lo, &hi) < 0) return 0;
  } else {
    lo = hi = model_stage(s->key[E->peak_step]);
  }
  /* the window: the span, widened (or cut) to about w stages */
  if (hi - lo + 1 > w) lo = hi - w + 1;
  int extra = w - (hi - lo + 1);
  if (extra > 0) {
    int left = wsearch_below(L, extra + 1);
    lo -= left;
    hi += extra - left;
  }
  if (lo < 1) lo = 1;
  if (hi > md->n) hi = md->n;
  *k0 = lo;
  *k1 = hi;
  int t0 = model_event(lo, 1), t1 = model_event(hi, hi);
  /* the recomputations already in the window can move or go */
  for (int i = 0; i < E->len && k > 1; i++)
    if (s->key[i] >= t0 && s->key[i] <= t1 && !plan_is_first(s->key[i]) &&
        !L->R[E->seq[i]] && wsearch_below(L, 2)) {
      L->R[E->seq[i]] = 1;
      k--;
    }
  if (md->phase == 1) {
    int t = s->key[E->peak_step];
    wsearch_pick_live(L, s, E, t, t, k / 2 + 1);
  }
  wsearch_pick_live(L, s, E, t0, t1, k - 1);
  return 1;
}

/* Mark up to k nodes live somewhere in [t0, t1], by tournament: of two
 * random candidates the one with less duration per byte (cheap to
 * recompute, much memory freed). */
static void wsearch_pick_cheap(wsearch *L, const plan *s, const plan_eval *E, int t0, int t1, int k) {
  const remat_graph *g = L->g;
  int cnt = wsearch_live(L, s, E, t0, t1);
  for (int tries = 0; cnt > 0 && k > 0 && tries < 4 * k + 8; tries++) {
    int a = L->cand[wsearch_below(L, cnt)], b = L->cand[wsearch_below(L, cnt)];
    /* w_b / m_b < w_a / m_a, cross-multiplied */
    if ((double)g->w[b] * (double)g->m[a] < (double)g->w[a] * (double)g->m[b]) a = b;
    if (!L->R[a]) {
      L->R[a] = 1;
      k--;
    }
  }
}

/* Phase 2, the span neighbourhood: the whole gap a recomputation bridges
 * (from its node's previous last read to the recomputation, so the
 * eviction itself can move), few nodes: the recomputed node, other
 * recomputations in the gap and cheap values live in it, which the
 * sub-model may evict instead.  Returns 0 when there is nothing to do or
 * the gap is too wide. */
#define WSEARCH_SPAN_MAX 400

static int wsearch_span(wsearch *L, const plan *s, const plan_eval *E, int *k0, int *k1) {
  const model *md = L->md;
  memset(L->R, 0, (size_t)md->n);
  int lo, hi;
  if (wsearch_pick_recomp(L, s, E, &lo, &hi) < 0) return 0;
  lo -= wsearch_below(L, 4);
  hi += wsearch_below(L, 4);
  if (lo < 1) lo = 1;
  if (hi > md->n) hi = md->n;
  if (hi - lo + 1 > WSEARCH_SPAN_MAX) return 0;
  *k0 = lo;
  *k1 = hi;
  int k = (int)(L->span_nodes + 0.5);
  int t0 = model_event(lo, 1), t1 = model_event(hi, hi);
  for (int i = 0; i < E->len && k > 2; i++)
    if (s->key[i] >= t0 && s->key[i] <= t1 && !plan_is_first(s->key[i]) &&
        !L->R[E->seq[i]] && wsearch_below(L, 3) == 0) {
      L->R[E->seq[i]] = 1;
      k--;
    }
  wsearch_pick_cheap(L, s, E, t0, t1, k - 1);
  return 1;
}

gz_status wsearch_run(const model *md, const int *seq, int len,
                     const wsearch_params *p, gz_stats *stats, char *err,
                     size_t errlen) {
  const remat_graph *g = md->g;
  double t0 = util_now();
  wsearch L;
  memset(&L, 0, sizeof L);
  L.md = md;
  L.g = g;
  L.p = p;
  L.rng = 0x9E3779B97F4A7C15ull ^ ((uint64_t)(p->io.seed + 7) * 0xBF58476D1CE4E5B9ull);
  L.R = util_calloc((size_t)g->n, 1);
  L.cand = util_malloc((size_t)(2 * md->ncopy + g->n) * sizeof *L.cand);
  L.nodes = 12;
  L.width = 12;
  L.span_nodes = 4;
  plan cur = {0}, trial = {0};
  plan_eval E, T;
  plan_eval_init(&E, g, md->budget);
  plan_eval_init(&T, g, md->budget);
  gz_status status = GZ_SATISFIED;
  gz_stats total;
  memset(&total, 0, sizeof total);
  if (plan_from_seq(&cur, seq, len, g->n)) {
    util_err(err, errlen, 0, "the start schedule is not stage-structured");
    status = GZ_ERROR;
    goto done;
  }
  util_buf text = {0};
  long long steps = 0;
  int stop = 0;
  while (!stop && !worker_halted(&p->io)) {
    double left = deadline_left(p->deadline);
    if (left <= 0.01) break;
    int *other, olen;
    if (worker_poll(&p->io, &other, &olen)) { /* adopt a better one */
      plan moved = {0};
      if (!plan_from_seq(&moved, other, olen, g->n)) plan_copy(&cur, &moved);
      plan_free(&moved);
      free(other);
    }
    plan_run(&E, &cur);
    if (md->phase == 1 && E.peak <= md->budget) {
      status = GZ_OPTIMAL;
      break;
    }
    int k0, k1;
    int span = md->phase == 2 && wsearch_below(&L, 2) == 0 && wsearch_span(&L, &cur, &E, &k0, &k1);
    if (!span && !wsearch_neighbourhood(&L, &cur, &E, &k0, &k1)) {
      status = GZ_OPTIMAL; /* phase 2: no recomputation left */
      break;
    }
    steps++;
    text.len = 0;
    if (text.s) text.s[0] = 0;
    win W;
    if (!win_build(&W, md, &cur, &E, L.R, k0, k1, &text)) {
      if (W.too_big && !span) { /* narrower windows, fewer nodes */
        L.width = L.width / 2 < 4 ? 4 : L.width / 2;
        L.nodes = L.nodes * 0.8 < 4 ? 4 : L.nodes * 0.8;
      }
      win_free(&W);
      continue;
    }
    gz_params gp;
    gz_params_init(&gp);
    gp.time_limit = left < p->step_limit ? left : p->step_limit;
    gp.stop = p->io.stop;
    gp.on_solution = wsearch_solution;
    gp.ctx = &L;
    gp.neighbourhood = win_neighbourhood;
    gz_stats st;
    L.got = 0;
    gz_status s = gz_solve(text.s, text.len, &gp, &st, err, errlen);
    total.nodes += st.nodes;
    total.fails += st.fails;
    total.propagations += st.propagations;
    total.solutions += st.solutions;
    if (s == GZ_ERROR) {
      win_free(&W);
      status = GZ_ERROR;
      break;
    }
    int improved = 0;
    if (L.got) {
      plan_copy(&trial, &cur);
      if (win_apply(&W, L.last.s, &trial) == 0) {
        plan_run(&T, &trial);
        /* equal moves are taken too: they let the search drift */
        int better = md->phase == 2 ? T.duration < E.duration : T.excess < E.excess;
        int equal = md->phase == 2 ? T.duration == E.duration : T.excess == E.excess;
        int fits = md->phase == 1 || T.peak <= md->budget;
        if (fits && (better || equal)) plan_copy(&cur, &trial);
        improved = fits && better;
        if (improved && worker_report(&p->io, T.seq, T.len, "window")) stop = 1;
      }
    }
    win_free(&W);
    /* adapt: grow while windows are solved quickly without improving,
     * shrink after successes and when they run out of time */
    int timed_out = s != GZ_OPTIMAL && s != GZ_UNSAT;
    double f = improved ? 0.95 : timed_out ? 0.9 : 1.03;
    if (span) {
      L.span_nodes *= f;
      if (L.span_nodes < 2) L.span_nodes = 2;
      if (L.span_nodes > 24) L.span_nodes = 24;
    } else {
      L.nodes *= f;
      L.width *= f;
    }
    if (L.nodes < 4) L.nodes = 4;
    if (L.nodes > g->n / 2) L.nodes = g->n / 2;
    if (L.width < 4) L.width = 4;
    if (L.width > md->n) L.width = md->n;
    worker_tick(&p->io, steps);
  }
  total.searches = steps;
  util_buf_free(&text);
done:
  total.seconds = util_now() - t0;
  if (stats) *stats = total;
  util_buf_free(&L.last);
  plan_free(&cur);
  plan_free(&trial);
  plan_eval_free(&E);
  plan_eval_free(&T);
  free(L.R);
  free(L.cand);
  return status;
}
