/* anneal.c -- simulated annealing over stage-axis schedules. */
#include "anneal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "model.h"
#include "plan.h"
#include "util.h"

void anneal_params_init(anneal_params *p) {
  memset(p, 0, sizeof *p);
  p->deadline = deadline_in(1.0);
  worker_io_init(&p->io);
  p->target_step = 0.005;
}

/* A best schedule and its numbers. */
typedef struct an_rec {
  plan s;
  int fits;
  int64_t dur, peak;
} an_rec;

typedef struct an {
  const remat_graph *g;
  const anneal_params *p;
  int n;
  int64_t M;      /* the budget */
  int64_t target; /* the memory the cost counts excess over (see an_retarget) */
  int targeting;  /* a cycle ended with nothing within budget */
  plan cur, start;
  an_rec best;  /* overall */
  an_rec ebest; /* of this epoch */
  int stale;    /* cycles since the epoch's best improved */
  plan_eval E;     /* evaluates cur (an_track, an_move) */
  int64_t extra;   /* cur's copies beyond C_v, summed over the nodes */
  plan_eval S;     /* scratch */
  int *cand, cand_cap; /* scratch */
  uint64_t rng;
  double lambda, lam0;  /* weight of the excess memory */
  double mu, mu0;       /* weight of copies beyond C_v */
  double T, T0, T1;     /* temperature: now, at a cycle's start and end */
  double fcur;          /* cost of cur */
  int peak_cost;        /* the excess is the peak's (something fits), else
                           the sum over the steps (anneal.h) */
  long long cycle_len, cycle0, in_cycle;
  int pending;
  double last_emit, last_better;
  int stopped;
} an;

/* Cycles without a better schedule before a new epoch starts. */
#define AN_PATIENCE 2

static uint64_t an_rand(an *A) { return util_xorshift(&A->rng); }

static int an_below(an *A, int n) { return util_below(&A->rng, n); }

static double an_unit(an *A) { return (double)(an_rand(A) >> 11) * (1.0 / 9007199254740992.0); }

static const plan_eval *an_cur(const an *A) { return &A->E; }

/* Copies of v beyond C_v in E. */
static int64_t an_node_extra(const an *A, const plan_eval *E, int v) {
  const int *c = A->p->copies;
  return c && c[v] && E->ncopy[v] > c[v] ? E->ncopy[v] - c[v] : 0;
}

/* Copies beyond C_v, summed over the nodes (for cur: kept up to date). */
static int64_t an_extra(const an *A, const plan_eval *E) {
  if (E == &A->E) return A->extra;
  int64_t x = 0;
  for (int v = 0; A->p->copies && v < A->n; v++) x += an_node_extra(A, E, v);
  return x;
}

/* Evaluate cur in full. */
static void an_track(an *A) {
  plan_track(&A->E, &A->cur);
  A->extra = 0;
  for (int v = 0; A->p->copies && v < A->n; v++) A->extra += an_node_extra(A, &A->E, v);
}

/* The copies beyond C_v of the nodes of events out and in. */
static int64_t an_move_extra(const an *A, int out, int in) {
  int uo = out ? plan_node(out) : -1, ui = in ? plan_node(in) : -1;
  int64_t x = uo >= 0 ? an_node_extra(A, &A->E, uo) : 0;
  if (ui >= 0 && ui != uo) x += an_node_extra(A, &A->E, ui);
  return x;
}

/* plan_move on cur, keeping extra. */
static void an_move(an *A, int out, int in) {
  int64_t before = an_move_extra(A, out, in);
  plan_move(&A->E, &A->cur, out, in);
  A->extra += an_move_extra(A, out, in) - before;
}

static double an_cost(const an *A, const plan_eval *E) {
  int64_t over = plan_cost_excess(A->peak_cost, E->excess, E->peak, E->M);
  return (double)E->duration + A->lambda * (double)over + A->mu * (double)an_extra(A, E);
}

static int an_copies_ok(const an *A, int u) {
  const int *c = A->p->copies;
  return !c || !c[u] || an_cur(A)->ncopy[u] < c[u];
}

/* ------------------------------------------------------------- moves */

/* A step to relieve: a random overloaded one, or the fullest of a few. */
static int an_pick_step(an *A) {
  const plan_eval *E = an_cur(A);
  return plan_pick_step(E->mem, E->len, E->over, E->M, &A->rng);
}

/* Two steps before j whose values are live across j, each uniformly at
 * random (a is -1 if there is none).  Beyond AN_SCAN steps by rejection
 * (a few random tries each: on long sequences the scan for them all takes
 * a large share of the annealing's time, bench/RESULTS.md#anneal-avx2),
 * else, or when the tries fail, by one scan (on shorter sequences it
 * costs little, and the search there was tuned with it). */
#define AN_SCAN 4096
#define AN_TRIES 32
static void an_live2(an *A, int j, int *a, int *b) {
  const int *lastuse = an_cur(A)->lastuse;
  int *pick[2] = {a, b};
  *a = *b = -1;
  if (j <= 0) return;
  for (int i = 0; i < 2 && j > AN_SCAN; i++)
    for (int t = 0; t < AN_TRIES && *pick[i] < 0; t++) {
      int x = an_below(A, j);
      if (lastuse[x] > j) *pick[i] = x;
    }
  if (*b >= 0) return;
  int cnt = 0;
  for (int x = 0; x < j; x++)
    if (lastuse[x] > j) A->cand[cnt++] = x;
  if (!cnt) return;
  if (*a < 0) *a = A->cand[an_below(A, cnt)];
  *b = A->cand[an_below(A, cnt)];
}

/* A recomputation of a value live across a chosen step, placed between
 * that step and the value's next reader (half the time just before the
 * reader); when the value has no copy left, half the time one of its
 * recomputations moves there (*out), else the copy penalty decides.
 * Returns 0 if no move was found. */
static int an_add(an *A, int *ins, int *out) {
  const plan_eval *E = an_cur(A);
  const remat_graph *g = A->g;
  const int *key = A->cur.key;
  int j = an_pick_step(A), a, b;
  an_live2(A, j, &a, &b); /* prefer the larger of two */
  if (a < 0) return 0;
  if (g->m[E->seq[b]] > g->m[E->seq[a]]) a = b;
  int u = E->seq[a];
  if (!an_copies_ok(A, u) && an_rand(A) & 1) { /* move one of u's recomputations */
    int nth = an_below(A, E->ncopy[u] - 1);
    for (int r = 0; r < E->nrec && !*out; r++)
      if (E->seq[E->rec[r]] == u && nth-- == 0) *out = key[E->rec[r]];
    if (!*out) return 0;
  }
  int r = plan_next_reader(E, &A->cur, u, key[j], E->lastuse[a]);
  int klo = model_stage(key[j]), khi = model_stage(key[r]);
  if (klo < u + 2) klo = u + 2;
  if (klo > khi) return 0;
  int k = an_rand(A) & 1 ? khi : klo + an_below(A, khi - klo + 1);
  int ev = model_event(k, u + 1);
  if (ev >= key[r] && k > klo) ev = model_event(--k, u + 1);
  if (ev <= key[j] || ev >= key[r] || plan_has(&A->cur, ev)) {
    if (out) *out = 0;
    return 0;
  }
  *ins = ev;
  return 1;
}

/* A random recomputation event, or 0. */
static int an_pick_rec(an *A) {
  const plan_eval *E = an_cur(A);
  if (E->nrec <= 0) return 0;
  return A->cur.key[E->rec[an_below(A, E->nrec)]];
}

/* The same node recomputed a few stages earlier or later. */
static int an_shift(an *A, int old) {
  int u = plan_node(old), k = model_stage(old);
  int d = 1;
  while (d < A->n && an_rand(A) & 1) d *= 2;
  d = 1 + an_below(A, d);
  int k2 = an_rand(A) & 1 ? k + d : k - d;
  if (k2 < u + 2 || k2 > A->n) return 0;
  int ev = model_event(k2, u + 1);
  return plan_has(&A->cur, ev) ? 0 : ev;
}

/* Propose a move: at most one event out, at most one in. */
static int an_propose(an *A, int *out, int *in) {
  *out = *in = 0;
  int r = an_below(A, 100);
  if (r < 35) return an_add(A, in, out);
  if (r < 60) return (*out = an_pick_rec(A)) != 0;
  if (r < 85) {
    if (!(*out = an_pick_rec(A))) return 0;
    return (*in = an_shift(A, *out)) != 0;
  }
  if (!an_add(A, in, out)) return 0;
  if (!*out) *out = an_pick_rec(A);
  if (*out == *in) *out = 0;
  return 1;
}

/* ------------------------------------------------------------ driver */

static int an_halted(an *A) { return worker_halted(&A->p->io); }

static void an_emit(an *A, int force) {
  if (!A->pending || A->stopped) return;
  double now = util_now();
  if (!force && now - A->last_emit < 0.05) return;
  A->pending = 0;
  A->last_emit = now;
  plan_eval *E = &A->S;
  plan_run(E, &A->best.s);
  if (worker_report(&A->p->io, E->seq, E->len, "anneal")) A->stopped = 1;
}

/* Is E (its schedule within the copy limits) better than the record B:
 * within budget and shorter, or a lower peak while nothing fits? */
static int an_better(const an *A, const an_rec *B, const plan_eval *E) {
  if (an_extra(A, E)) return 0;
  if (E->peak <= A->M) return !B->fits || E->duration < B->dur;
  return !B->fits && E->peak < B->peak;
}

static void an_set(an *A, an_rec *B, const plan *s, const plan_eval *E) {
  plan_copy(&B->s, s);
  B->fits = E->peak <= A->M;
  B->dur = E->duration;
  B->peak = E->peak;
}

/* The excess counts over the budget, or, once a cycle ended with nothing
 * within budget and until something fits, over the best peak less
 * target_step x the budget (anneal.h). */
static void an_retarget(an *A) {
  if (A->best.fits != A->peak_cost) {
    A->peak_cost = A->best.fits;
    A->fcur = an_cost(A, an_cur(A));
  }
  int64_t t = A->M;
  if (A->targeting && !A->best.fits && A->p->target_step > 0) {
    int64_t step = (int64_t)((double)A->M * A->p->target_step) + 1;
    if (A->best.peak - step > t) t = A->best.peak - step;
  }
  if (t == A->target) return;
  A->target = A->E.M = A->S.M = t;
  an_track(A);
  A->fcur = an_cost(A, an_cur(A));
}

static void an_consider(an *A) {
  const plan_eval *E = an_cur(A);
  if (!an_better(A, &A->ebest, E)) return;
  an_set(A, &A->ebest, &A->cur, E);
  A->stale = 0;
  if (!an_better(A, &A->best, E)) return;
  an_set(A, &A->best, &A->cur, E);
  A->pending = 1;
  A->last_better = util_now();
  an_retarget(A);
}

/* Move to a better schedule from elsewhere. */
static void an_poll(an *A) {
  const anneal_params *p = A->p;
  int *seq, len;
  if (!worker_poll(&p->io, &seq, &len)) return;
  plan s = {0};
  if (!plan_from_seq(&s, seq, len, A->n)) {
    plan_eval *E = &A->S;
    plan_run(E, &s);
    if (an_better(A, &A->best, E)) {
      an_set(A, &A->best, &s, E);
      an_set(A, &A->ebest, &s, E);
      an_retarget(A);
    }
  }
  plan_free(&s);
  free(seq);
}

/* Scales: a mean recomputation costs mean_w; at the start a mean value one
 * step over the budget costs the same, and so does a copy beyond C_v. */
static void an_init(an *A, const remat_graph *g, const int *seq, int len,
                    const anneal_params *p) {
  memset(A, 0, sizeof *A);
  A->g = g;
  A->p = p;
  A->n = g->n;
  A->M = p->budget;
  A->rng = 0x9e3779b97f4a7c15ull ^ ((uint64_t)p->io.seed * 0x2545f4914f6cdd1dull);
  if (!A->rng) A->rng = 1;
  if (!seq || plan_from_seq(&A->cur, seq, len, g->n)) {
    plan_free(&A->cur);
    plan_init_topo(&A->cur, g->n);
  }
  A->target = A->M;
  plan_eval_init(&A->E, g, A->M);
  plan_eval_init(&A->S, g, A->M);
  an_track(A);
  A->cand_cap = 2 * (A->cur.len + 16);
  A->cand = util_malloc((size_t)A->cand_cap * sizeof *A->cand);
  A->best.peak = A->ebest.peak = INT64_MAX;
  plan_copy(&A->start, &A->cur);
  an_consider(A);
  double mean_w = 0, mean_m = 0;
  for (int v = 0; v < g->n; v++) {
    mean_w += (double)g->w[v];
    mean_m += (double)g->m[v];
  }
  mean_w = mean_w / g->n + 1;
  mean_m = mean_m / g->n + 1;
  A->lam0 = mean_w / mean_m;
  A->lambda = A->lam0;
  A->mu0 = A->mu = mean_w;
  A->T0 = A->T = mean_w;
  A->T1 = mean_w * 0.002;
  A->cycle0 = A->cycle_len = 40LL * (g->n + 16);
  A->fcur = an_cost(A, an_cur(A));
}

static double an_clamp(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }

/* Every 64 moves: the penalties rise while the current schedule breaks
 * the budget (or the copy limits) and fall while it keeps them; the
 * temperature follows the cycle's geometric cooling. */
static void an_adapt(an *A) {
  const plan_eval *E = an_cur(A);
  A->lambda = an_clamp(A->lambda * (E->excess > 0 ? 1.05 : 0.97), A->lam0 * 1e-3, A->lam0 * 1e6);
  A->mu = an_clamp(A->mu * (an_extra(A, E) > 0 ? 1.05 : 0.97), A->mu0 * 1e-2, A->mu0 * 1e6);
  A->T = A->T0 * pow(A->T1 / A->T0, (double)A->in_cycle / (double)A->cycle_len);
  A->fcur = an_cost(A, E);
}

/* The end of a cycle: report, adopt a better schedule from elsewhere;
 * restart from the epoch's best with a longer cycle, or, when the epoch
 * has not improved for AN_PATIENCE cycles, start a new epoch from the
 * starting schedule (runs from one start end in quite different basins;
 * sampling several finds the good ones more often than one long run). */
static void an_reheat(an *A) {
  an_emit(A, 1);
  an_poll(A);
  A->in_cycle = 0;
  if (!A->best.fits && !A->targeting) {
    A->targeting = 1;
    an_retarget(A);
  }
  if (++A->stale > AN_PATIENCE) { /* a new epoch, from the start */
    A->stale = 0;
    A->ebest.fits = 0;
    A->ebest.peak = INT64_MAX;
    plan_copy(&A->cur, &A->start);
    A->cycle_len = A->cycle0;
  } else {
    plan_copy(&A->cur, &A->ebest.s);
    A->cycle_len = A->cycle_len * 5 / 4;
  }
  an_track(A);
  A->fcur = an_cost(A, an_cur(A));
  an_consider(A);
}

/* One move: propose, evaluate (incrementally), accept (Metropolis) or
 * undo. */
static void an_step(an *A) {
  if (A->cand_cap < A->cur.len + 2) {
    A->cand_cap = 2 * (A->cur.len + 2);
    A->cand = util_realloc(A->cand, (size_t)A->cand_cap * sizeof *A->cand);
  }
  int out, in;
  if (!an_propose(A, &out, &in)) return;
  an_move(A, out, in);
  double f = an_cost(A, &A->E), d = f - A->fcur;
  if (d <= 0 || an_unit(A) < exp(-d / A->T)) {
    A->fcur = f;
    an_consider(A);
  } else {
    an_move(A, in, out);
  }
}

/* Out of time, stopped, halted, or (with p->stall) stalled: no new best
 * for longer than p->stall and than the search took to find the last. */
static int an_done(an *A, double start, long long moves) {
  const anneal_params *p = A->p;
  if (A->stopped || (p->max_moves && moves >= p->max_moves)) return 1;
  if ((moves & 255) != 0) return 0;
  double now = util_now();
  if (deadline_passed(p->deadline) || an_halted(A)) return 1;
  if (p->stall > 0) {
    double quiet = now - A->last_better, before = A->last_better - start;
    if (quiet > p->stall && quiet > before) return 1;
  }
  return 0;
}

long long anneal_run(const remat_graph *g, const int *seq, int len, const anneal_params *p) {
  if (g->n > MODEL_MAX_NODES) return 0; /* stage-axis events would pass 32 bits */
  an A;
  an_init(&A, g, seq, len, p);
  double start = util_now();
  A.last_better = start;
  long long moves = 0;
  while (!an_done(&A, start, moves)) {
    if ((moves & 255) == 0) {
      an_emit(&A, 0);
      if ((moves & 65535) == 0) worker_tick(&p->io, moves);
    }
    if ((moves & 63) == 0) an_adapt(&A);
    if (++A.in_cycle > A.cycle_len) an_reheat(&A);
    moves++;
    an_step(&A);
  }
  an_emit(&A, 1);
  free(A.cand);
  plan_free(&A.cur);
  plan_free(&A.best.s);
  plan_free(&A.ebest.s);
  plan_free(&A.start);
  plan_eval_free(&A.E);
  plan_eval_free(&A.S);
  return moves;
}
