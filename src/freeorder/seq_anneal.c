/* seq_anneal.c -- simulated annealing over sequences in free order
 * (seq_anneal.h). */
#include "seq_anneal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "plan.h"
#include "seq_eval.h"
#include "util.h"

void sqa_params_init(sqa_params *p) {
  memset(p, 0, sizeof *p);
  p->deadline = deadline_in(1.0);
  p->name = "sequence";
  worker_io_init(&p->io);
}

/* A schedule kept aside and its numbers. */
typedef struct sqa_rec {
  int64_t dur, peak;
  int *seq, len, cap, fits;
} sqa_rec;

typedef struct sqa {
  const remat_graph *g;
  const sqa_params *p;
  int n;
  int64_t M;
  sqe E;             /* the evaluation (seq_eval.h) */
  sqe_ev a, b;       /* cur and the candidate (swapped on acceptance) */
  sqe_ev *cur, *try_;
  int *ccnt;         /* cur's copies per node */
  int mv_i, mv_at, mv_v; /* the move: cur's step mv_i out, mv_v in before
                            its step mv_at (-1: none) */
  int mv_add, mv_del;/* the candidate's node added / removed (-1: none) */
  sqa_rec best;      /* overall (reported) */
  sqa_rec ebest;     /* of this epoch */
  sqa_rec start;     /* where each epoch starts */
  int stale;         /* cycles since the epoch's best improved */
  uint64_t rng;
  double lambda, lam0, T, T0, T1, fcur, mean_w;
  long long cycles, cycle0;
  long long cycle_len, in_cycle;
  int pending, stopped;
  double last_emit;
} sqa;

static int sqa_below(sqa *S, int n) { return util_below(&S->rng, n); }

static double sqa_unit(sqa *S) {
  return (double)(util_xorshift(&S->rng) >> 11) * (1.0 / 9007199254740992.0);
}

static double sqa_cost(const sqa *S, const sqe_ev *e) {
  int64_t over = plan_cost_excess(S->best.fits, e->excess, e->peak, S->M);
  return (double)e->dur + S->lambda * (double)over;
}

/* ------------------------------------------------------------- moves */

/* The candidate: cur without step i (-1: none), with v inserted before
 * step at (of cur; -1: none); sqe_move evaluates it. */
static void sqa_build(sqa *S, int i, int at, int v) {
  S->mv_i = i;
  S->mv_at = at;
  S->mv_v = v;
  S->mv_add = at >= 0 ? v : -1;
  S->mv_del = i >= 0 ? S->cur->seq[i] : -1;
}

/* Steps either side of a step to relieve that sqa_pick_move picks from. */
#define SQA_NEAR 32

/* A random distance, small more often than large. */
static int sqa_dist(sqa *S) {
  int d = 1;
  while (d < S->cur->len && util_xorshift(&S->rng) & 1) d *= 2;
  return 1 + sqa_below(S, d);
}

/* A step to relieve: a random overloaded one, or the fullest of a few. */
static int sqa_pick_step(sqa *S) {
  return plan_pick_step(S->cur->mem, S->cur->len, S->cur->over, S->M,
                        &S->rng);
}

/* A step to move: half the time near a step to relieve (the moves that
 * matter are there; elsewhere they change nothing), else any. */
static int sqa_pick_move(sqa *S) {
  int len = S->cur->len;
  if (util_xorshift(&S->rng) & 1) return sqa_below(S, len);
  int i = sqa_pick_step(S) + sqa_below(S, 2 * SQA_NEAR + 1) - SQA_NEAR;
  return i < 0 ? 0 : i >= len ? len - 1 : i;
}

static int sqa_shift(sqa *S) {
  const sqe_ev *c = S->cur;
  int i = sqa_pick_move(S), d = sqa_dist(S);
  int j = util_xorshift(&S->rng) & 1 ? i + 1 + d : i - d; /* insert before j */
  if (j < 0 || j > c->len || j == i || j == i + 1) return 0;
  sqa_build(S, i, j, c->seq[i]);
  return 1;
}

static int sqa_swap(sqa *S) {
  const sqe_ev *c = S->cur;
  if (c->len < 2) return 0;
  int i = sqa_pick_move(S);
  if (i >= c->len - 1) i = c->len - 2;
  sqa_build(S, i, i + 2, c->seq[i]);
  return 1;
}

static int sqa_drop(sqa *S) {
  const sqe_ev *c = S->cur;
  for (int t = 0; t < 16; t++) {
    int i = sqa_below(S, c->len);
    if (S->ccnt[c->seq[i]] > 1) {
      sqa_build(S, i, -1, -1);
      return 1;
    }
  }
  return 0;
}

/* The add move (seq_anneal.h); with replace, a copy of another node
 * computed more than once goes in the same move. */
static int sqa_add(sqa *S, int replace) {
  const sqe_ev *c = S->cur;
  const int *cp = S->p->copies;
  int k = sqa_pick_step(S);
  if (k <= 0) return 0;
  int i = -1;
  for (int t = 0; t < 32 && i < 0; t++) {
    int x = sqa_below(S, k);
    if (c->lastuse[x] > k) i = x;
  }
  if (i < 0) return 0;
  int u = c->seq[i];
  int r0 = i + 1;
  while (r0 < c->lastuse[i] && !graph_is_pred(S->g, u, c->seq[r0])) r0++;
  if (r0 > k) { /* not read before k: computed later instead */
    int at = util_xorshift(&S->rng) & 1 ? r0 : k + 1 + sqa_below(S, r0 - k);
    sqa_build(S, i, at, u);
    return 1;
  }
  if (cp && cp[u] && S->ccnt[u] >= cp[u]) return 0;
  int r = k + 1;
  while (r < c->lastuse[i] && !graph_is_pred(S->g, u, c->seq[r])) r++;
  int at = util_xorshift(&S->rng) & 1 ? r : k + 1 + sqa_below(S, r - k);
  int out = -1;
  for (int t = 0; replace && t < 16 && out < 0; t++) {
    int j = sqa_below(S, c->len);
    if (j != i && c->seq[j] != u && S->ccnt[c->seq[j]] > 1) out = j;
  }
  if (replace && out < 0) return 0;
  sqa_build(S, out, at, u);
  return 1;
}

static int sqa_propose(sqa *S) {
  int r = sqa_below(S, 100);
  if (r < 35) return sqa_shift(S);
  if (r < 55) return sqa_add(S, 0);
  if (r < 70) return sqa_add(S, 1);
  if (r < 85) return sqa_drop(S);
  return sqa_swap(S);
}

/* ------------------------------------------------------------ driver */

/* Is e (valid) better than the record R: within budget and shorter, or a
 * lower peak while R does not fit?  (R->len 0: no record.) */
static int sqa_better(const sqa *S, const sqa_rec *R, const sqe_ev *e) {
  if (!R->len) return 1;
  if (e->peak <= S->M) return !R->fits || e->dur < R->dur;
  return !R->fits && e->peak < R->peak;
}

static void sqa_rec_set(sqa *S, sqa_rec *R, const sqe_ev *e) {
  if (e->len > R->cap) {
    R->cap = e->cap;
    R->seq = util_realloc(R->seq, (size_t)R->cap * sizeof *R->seq);
  }
  memcpy(R->seq, e->seq, (size_t)e->len * sizeof *R->seq);
  R->len = e->len;
  R->fits = e->peak <= S->M;
  R->dur = e->dur;
  R->peak = e->peak;
}

/* cur (or a schedule from elsewhere, in e) may be a new best. */
static void sqa_consider(sqa *S, const sqe_ev *e, int ours) {
  if (!sqa_better(S, &S->ebest, e)) return;
  sqa_rec_set(S, &S->ebest, e);
  S->stale = 0;
  if (!sqa_better(S, &S->best, e)) return;
  int fitted = S->best.fits;
  sqa_rec_set(S, &S->best, e);
  if (ours) S->pending = 1;
  if (S->best.fits != fitted) S->fcur = sqa_cost(S, S->cur); /* the excess changes */
}

static void sqa_emit(sqa *S, int force) {
  if (!S->pending || S->stopped) return;
  double now = util_now();
  if (!force && now - S->last_emit < 0.05) return;
  S->pending = 0;
  S->last_emit = now;
  if (worker_report(&S->p->io, S->best.seq, S->best.len, S->p->name)) S->stopped = 1;
}

/* Set cur to seq and evaluate it. */
static int sqa_set(sqa *S, const int *seq, int len) {
  sqe_ev_reserve(S->cur, len);
  memcpy(S->cur->seq, seq, (size_t)len * sizeof *seq);
  S->cur->len = len;
  int ok = sqe_full(&S->E, S->cur);
  memcpy(S->ccnt, S->E.cnt, (size_t)S->n * sizeof *S->ccnt);
  return ok;
}

/* The end of a cycle: adopt a better schedule from elsewhere; go on from
 * the epoch's best with a longer cycle, or, when the epoch has not
 * improved for SQA_PATIENCE cycles, start a new epoch from the start
 * (as anneal.c does: runs from one start end in different basins). */
#define SQA_PATIENCE 2
static void sqa_reheat(sqa *S) {
  int *seq, len;
  if (worker_poll(&S->p->io, &seq, &len)) {
    sqe_ev *t = S->try_;
    sqe_ev_reserve(t, len);
    memcpy(t->seq, seq, (size_t)len * sizeof *seq);
    t->len = len;
    if (sqe_full(&S->E, t)) sqa_consider(S, t, 0);
    free(seq);
  }
  if (++S->stale > SQA_PATIENCE) {
    S->stale = 0;
    S->ebest.len = 0;
    S->cycle_len = S->cycle0;
    sqa_set(S, S->start.seq, S->start.len);
    sqa_consider(S, S->cur, 1);
  } else {
    S->cycle_len = S->cycle_len * 5 / 4;
    sqa_set(S, S->ebest.seq, S->ebest.len);
  }
  S->fcur = sqa_cost(S, S->cur);
}

/* The starting temperatures of the cycles, in mean durations, by turns:
 * hot cycles cross to other basins (on tiny graphs they are needed to
 * reach the optimum), cool ones search near the best schedule. */
#define SQA_T_HOT 1.0
#define SQA_T_COOL 0.1

static double sqa_clamp(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }

static void sqa_adapt(sqa *S) {
  S->lambda = sqa_clamp(S->lambda * (S->cur->excess > 0 ? 1.05 : 0.97), S->lam0 * 1e-3,
                        S->lam0 * 1e6);
  S->T = S->T0 * pow(S->T1 / S->T0, (double)S->in_cycle / (double)S->cycle_len);
  S->fcur = sqa_cost(S, S->cur);
}

static void sqa_step(sqa *S) {
  if (!sqa_propose(S)) return;
  if (!sqe_move(&S->E, S->cur, S->try_, S->mv_i, S->mv_at, S->mv_v)) return;
  double f = sqa_cost(S, S->try_), d = f - S->fcur;
  if (d <= 0 || sqa_unit(S) < exp(-d / S->T)) {
    sqe_ev *x = S->cur;
    sqe_take(&S->E, S->cur, S->try_);
    S->cur = S->try_;
    S->try_ = x;
    S->fcur = f;
    if (S->mv_add >= 0) S->ccnt[S->mv_add]++;
    if (S->mv_del >= 0) S->ccnt[S->mv_del]--;
    sqa_consider(S, S->cur, 1);
  }
}

long long sqa_run(const remat_graph *g, const int *seq, int len, const sqa_params *p) {
  sqa S = {.g = g, .p = p, .n = g->n, .M = p->budget,
           .rng = 0x9e3779b97f4a7c15ull ^ ((uint64_t)p->io.seed * 0x2545f4914f6cdd1dull)};
  if (!S.rng) S.rng = 1;
  size_t nn = (size_t)(g->n ? g->n : 1);
  sqe_init(&S.E, g, p->copies, p->budget);
  S.ccnt = util_malloc(nn * sizeof *S.ccnt);
  S.cur = &S.a;
  S.try_ = &S.b;
  int *topo = NULL;
  if (!seq) {
    topo = util_malloc(nn * sizeof *topo);
    for (int v = 0; v < g->n; v++) topo[v] = v;
    seq = topo;
    len = g->n;
  }
  sqe_ev_reserve(&S.b, len + 1);
  long long moves = 0;
  if (sqa_set(&S, seq, len)) {
    sqa_rec_set(&S, &S.start, S.cur);
    sqa_consider(&S, S.cur, 0); /* the caller's */
    double mean_w = 0, mean_m = 0;
    for (int v = 0; v < g->n; v++) {
      mean_w += (double)g->w[v];
      mean_m += (double)g->m[v];
    }
    mean_w = mean_w / (double)nn + 1;
    mean_m = mean_m / (double)nn + 1;
    S.lam0 = S.lambda = mean_w / mean_m;
    S.mean_w = mean_w;
    S.T0 = S.T = mean_w * SQA_T_COOL;
    S.T1 = mean_w * 0.002;
    S.cycle0 = S.cycle_len = 40LL * (g->n + 16);
    S.fcur = sqa_cost(&S, S.cur);
    while (!S.stopped && !(p->max_moves && moves >= p->max_moves)) {
      if ((moves & 255) == 0) {
        if (deadline_passed(p->deadline) || worker_halted(&p->io)) break;
        sqa_emit(&S, 0);
        if ((moves & 65535) == 0) worker_tick(&p->io, moves);
      }
      if ((moves & 63) == 0) sqa_adapt(&S);
      if (++S.in_cycle > S.cycle_len) {
        sqa_emit(&S, 1);
        S.in_cycle = 0;
        S.T0 = S.mean_w * (++S.cycles % 2 ? SQA_T_HOT : SQA_T_COOL);
        sqa_reheat(&S);
      }
      moves++;
      sqa_step(&S);
    }
    sqa_emit(&S, 1);
  }
  UTIL_FREE(topo, S.ccnt, S.best.seq, S.ebest.seq, S.start.seq);
  sqe_free(&S.E);
  sqe_ev_free(&S.a);
  sqe_ev_free(&S.b);
  return moves;
}
