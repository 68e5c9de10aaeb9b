/* solve_free.c -- remat_solve in free order (remat_solve_params.free_order):
 * the shortest schedule within M over every sequence that computes each
 * node at least once and at most C_v times, whatever its order (the
 * paper's Sections 2.1-2.2; the input order is only a starting point).
 *
 *   bounds  max_v holds in any order (remat_result_precheck);
 *   order   a minimum-peak order without recomputation (order.h); when
 *           one fits M, its duration, the base one, is optimal; the
 *           search stops once it stalls (sfree_order_watch);
 *   cost    when no order fits, the bounds over every order (bounds.h: the
 *           order cost bound, then the covering bound in a child);
 *   exact   on graphs of at most FREE_EXACT_MAXN nodes, the exact search
 *           over every sequence (free_exact.h); a proof ends the solve;
 *   beyond  graphs of more than MODEL_MAX_NODES nodes, which the stage
 *           model refuses: the best baseline and the segment search
 *           (seg_search.h) on that order, in linear memory (solve_large.h);
 *   descent on graphs of at most SFREE_SEQ_NODES nodes whose order search ended
 *           above M without a proof: restarts of the order descent
 *           (order_descent.h), which often finds a lower peak;
 *   stages  the stage-axis portfolio (portfolio.h) on the graph renumbered in
 *           that order, whose schedules are schedules of g; when the
 *           input order is a minimum-peak order, on the input order;
 *   joint   on graphs whose free CP would not end, of at most SFREE_SEQ_NODES nodes (up
 *           to SFREE_SEQ_FIT_NODES when the stage phase has a schedule within M by
 *           then), the last FREE_SEQ share (shares.h): the annealing over sequences
 *           (seq_anneal.h), which moves first computations (the order) and
 *           recomputations together: the first thread from the best schedule, following
 *           the others' improvements; every other thread in tries from fresh orders (a
 *           short order descent from the input order with its own seed), each annealed
 *           on its own for SFREE_TRY seconds: where the annealing ends depends on the
 *           order it starts from more than on its time; it computes nodes whose C_v is 2
 *           or more any number of times, and its schedules within budget raise C_v
 *           (best_offer) as the baselines' do (unless C_v is a hard limit);
 *   free CP on small graphs, the free-order model (model_free.h) in the CP
 *           worker, from the best schedule: its complete searches prove optimality
 *           or infeasibility in free order;
 *   end     the status; a proof says that it covers free order.
 * Every schedule goes to one shared best (best.h) on g. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "baseline.h"
#include "best.h"
#include "bounds.h"
#include "free_exact.h"
#include "graph.h"
#include "order.h"
#include "model_free.h"
#include "order_descent.h"
#include "portfolio.h"
#include "remat.h"
#include "result.h"
#include "seeds.h"
#include "seq_anneal.h"
#include "shares.h"
#include "solve_large.h"
#include "sim.h"
#include "solve_free.h"
#include "util.h"
#include "worker_cp.h"

/* The time shares (shares.h): the order search's (it stops as soon as an
 * order fits the budget), and the free CP's on graphs of at most
 * SFREE_CP_COPIES copies, where its complete searches can end. */
#define SFREE_ORDER_STALL 1.0
#define SFREE_STAGE_STALL 3.0
#define SFREE_CP_COPIES 40
/* Graphs of more nodes, up to SFREE_SEQ_FIT_NODES, get the joint
 * annealing's share only when the stage phase has a schedule within M by
 * then; where it has none, the stage phase keeps the time (it came nearer
 * M there than the annealing: bench/RESULTS.md#seq-anneal-incremental). */
#define SFREE_SEQ_FIT_NODES 20000
/* A try of the joint annealing's other threads: an order descent of at
 * most SFREE_TRY_DESCENT seconds (and the FREE_TRY_DESCENT share of the time
 * left), then SFREE_TRY seconds of annealing from that order (the last
 * try takes what is left when that is less than two tries). */
#define SFREE_TRY 15.0
#define SFREE_TRY_DESCENT 2.0
/* On the same graphs, when no order fits and the order search did not
 * prove its order minimal, the order descent has its share of the
 * stage-axis search's time, before it (a lower peak leaves less to
 * recompute). */

typedef struct sfree {
  best B;
  volatile int order_stop; /* an order fits, or the search stalled (sfree_order_watch) */
  _Atomic int order_done;   /* it returned */
  _Atomic long long order_peak, order_lower; /* its best peak and bound ... */
  _Atomic long long order_tbest_us; /* ... found at this elapsed time */
  volatile int stage_stop; /* the stage-axis search stalled or the caller
                              stopped (sfree_stage_watch) */
  _Atomic int stage_done;   /* it returned */
  _Atomic long long stage_tbest_us; /* its last improvement, elapsed */
  int input_minimal;       /* the input order is a minimum-peak order */
  int stages_optimal;      /* the stage-axis search proved its optimum */
  int probe_input;         /* the stages are the input order's: its copies
                              probe fits, the chosen order's does not */
  int *perm;               /* node i of the renumbered graph is perm[i] */
  int *probe_seq, probe_len; /* the copies probe's schedule (g's nodes) */
  int *paths_seq, paths_len; /* the pebbling paths' schedule (sfree_paths) */
  pthread_mutex_t wmu;     /* the watchers' naps (sfree_nap, sfree_wake) */
  pthread_cond_t wcv;
} sfree;

/* A watcher's nap: SFREE_NAP_MS, or until the search it watches returns
 * (sfree_wake), so that the watcher's join adds no delay. */
#define SFREE_NAP_MS 20
static void sfree_nap(sfree *F, _Atomic int *done) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  ts.tv_nsec += SFREE_NAP_MS * 1000000L;
  if (ts.tv_nsec >= 1000000000L) {
    ts.tv_sec++;
    ts.tv_nsec -= 1000000000L;
  }
  pthread_mutex_lock(&F->wmu);
  if (!*done) pthread_cond_timedwait(&F->wcv, &F->wmu, &ts);
  pthread_mutex_unlock(&F->wmu);
}

static void sfree_wake(sfree *F, _Atomic int *done) {
  pthread_mutex_lock(&F->wmu);
  *done = 1;
  pthread_cond_broadcast(&F->wcv);
  pthread_mutex_unlock(&F->wmu);
}

void sfree_limit_copies(const remat_graph *g, int *c) {
  for (int v = 0; v < g->n; v++)
    if (c[v] < 1 || graph_nsucc(g, v) == 0) c[v] = 1;
}

void sfree_joint_copies(const remat_graph *g, const remat_solve_params *p, const int *c,
                        int *out) {
  if (p->keep_copies) memmove(out, c, (size_t)g->n * sizeof *out);
  else graph_copies_open(g, c, out);
}

/* C_v per node in free order: as given (default where 0), then
 * sfree_limit_copies. */
static int *sfree_copies(const remat_graph *g, const remat_solve_params *p) {
  int *c = seeds_caller_copies(g, p);
  sfree_limit_copies(g, c);
  return c;
}

static void sfree_order_event(void *ctx, const order_event *e) {
  sfree *F = ctx;
  if (e->peak <= F->B.p->budget) F->order_stop = 1;
  if (F->B.p->stop && *F->B.p->stop) F->order_stop = 1;
  if (e->peak < F->order_peak || e->lower > F->order_lower) { /* progress */
    F->order_peak = e->peak;
    F->order_lower = e->lower;
    F->order_tbest_us = (long long)(best_elapsed(&F->B) * 1e6);
  }
}

/* Stop the order search once no better order or bound came for
 * SFREE_ORDER_STALL seconds and for longer than it took to find the last (its later
 * phases rarely improve on what the first second found, and the time is
 * worth more to the recomputations), or when the caller stops. */
static void *sfree_order_watch(void *arg) {
  sfree *F = arg;
  double t0 = best_elapsed(&F->B);
  while (!F->order_done) {
    sfree_nap(F, &F->order_done);
    double now = best_elapsed(&F->B), tb = (double)F->order_tbest_us / 1e6;
    if (tb < t0) tb = t0;
    if (now - tb > SFREE_ORDER_STALL && now - tb > tb - t0) F->order_stop = 1;
    if (best_interrupted(&F->B)) F->order_stop = 1;
  }
  return NULL;
}

/* A minimum-peak order (or the best found in its share of the time),
 * offered to the best; the graph renumbered in it (NULL: the input order
 * is as good). */
static remat_graph *sfree_order(sfree *F) {
  best *B = &F->B;
  const remat_graph *g = B->g;
  order_params op;
  order_params_init(&op);
  op.time_limit = best_left(B) * time_share(SHARE_FREE_ORDER);
  if (op.time_limit < 0.01) op.time_limit = 0.01;
  op.stop = &F->order_stop;
  op.seed = B->p->seed;
  op.progress = sfree_order_event;
  op.progress_ctx = F;
  order_result o;
  F->order_peak = INT64_MAX;
  F->order_lower = 0;
  F->order_tbest_us = 0;
  F->order_done = 0;
  pthread_t watch;
  int watching = pthread_create(&watch, NULL, sfree_order_watch, F) == 0;
  int rc = order_solve(g, &op, &o);
  sfree_wake(F, &F->order_done);
  if (watching) pthread_join(watch, NULL);
  if (rc) {
    best_error(B, "%s", "an order failed re-simulation");
    order_result_free(&o);
    return NULL;
  }
  F->input_minimal = o.lower >= o.input_peak;
  F->order_lower = o.lower;
  F->order_peak = o.peak;
  if (F->input_minimal)
    prog_line(&B->pr, "[%7.2fs] order     the input order is %s %lld)", best_elapsed(B),
              graph_order_unique(g) ? "the graph's only topological order (peak"
                                    : "a minimum-peak order (no order without recomputation peaks below",
              (long long)o.input_peak);
  else
    prog_line(&B->pr, "[%7.2fs] order     peak %lld (input order %lld, every order "
                      "at least %lld)%s",
              best_elapsed(B), (long long)o.peak, (long long)o.input_peak,
              (long long)o.lower, o.optimal ? ": a minimum-peak order" : "");
  best_offer(B, o.order, o.n, 0, "order");
  remat_graph *h = NULL;
  if (o.peak < o.input_peak) {
    char err[256];
    h = graph_permute(g, o.order, err, sizeof err);
    if (!h) best_error(B, "renumbering the graph: %s", err);
    F->perm = util_malloc((size_t)g->n * sizeof *F->perm);
    memcpy(F->perm, o.order, (size_t)g->n * sizeof *F->perm);
  }
  order_result_free(&o);
  return h;
}

/* Chen's and Echo's schedules on the input order (seeds.h), before any
 * model is built: where one fits the budget, C_v is raised to its copies
 * where it is 2 or more, as the stage solve does (docs/method.md,
 * "Copies"), so that the free solve does not end worse than they do either. */
static void sfree_baselines(sfree *F, seeds_base *S) {
  best *B = &F->B;
  seeds_base_run(S, B->g, B->p, 0); /* the probe: sfree_probe */
  int raised = seeds_base_raise(S, B->g, B->p, B->r->copies);
  best_verbose(B, "baselines on the input order: %.2fs, C_v raised for %d nodes", S->seconds,
               raised);
  best_copies_raised(B, raised, BEST_BY_SEEDS);
}

/* The copies probe on the stages of `on` (seeds_probe_order), its
 * schedule kept for sfree_probe_offer: nonzero when it fits. */
static int sfree_probe_on(sfree *F, const remat_graph *on, const int *perm) {
  best *B = &F->B;
  double t0 = best_elapsed(B);
  int fits = seeds_probe_order(B, on, perm, &F->probe_seq, &F->probe_len);
  best_verbose(B, "copies probe on the %s order: %.2fs, %s", perm ? "chosen" : "input",
               best_elapsed(B) - t0, fits ? "within budget" : "nothing within budget");
  return fits;
}

/* The copies probe before the exact search and the stage-axis search, on
 * the stages of h (the chosen order; NULL: the input order), then on the
 * input order's, whose stages are taken where its schedule fits and h's
 * does not or is longer: a lower peak does not make an order a better
 * frame for recomputing (bench/RESULTS.md#free-order-paths, #demand-walk).
 * Returns the graph to stage: h, or NULL for g (h freed, F->perm dropped). */
static remat_graph *sfree_probe(sfree *F, remat_graph *h) {
  int fits = sfree_probe_on(F, h ? h : F->B.g, h ? F->perm : NULL);
  if (!h || best_stopped(&F->B)) return h;
  int *on_h = F->probe_seq, len_h = F->probe_len;
  F->probe_seq = NULL;
  if (!sfree_probe_on(F, F->B.g, NULL) ||
      (fits && sim_duration_approx(F->B.g, on_h, len_h) <=
                   sim_duration_approx(F->B.g, F->probe_seq, F->probe_len))) {
    free(F->probe_seq);
    F->probe_seq = on_h;
    F->probe_len = len_h;
    return h;
  }
  free(on_h);
  prog_line(&F->B.pr, "[%7.2fs] order     the stages are the input order's (its copies probe "
                      "%s)", best_elapsed(&F->B),
            fits ? "is shorter than the chosen order's" : "fits, the chosen order's does not");
  remat_graph_free(h);
  free(F->perm);
  F->perm = NULL;
  F->probe_input = 1;
  return NULL;
}

/* Where nothing fits yet (neither an order nor the copies probe), on
 * graphs the joint annealing takes: the pebbling paths' schedule
 * (seeds_paths), kept for sfree_paths_offer: where the stage-axis search
 * finds nothing within M either, the joint annealing starts from it. */
static void sfree_paths(sfree *F) {
  best *B = &F->B;
  if (B->p->keep_copies || B->g->n > SFREE_SEQ_NODES) return;
  double t0 = best_elapsed(B);
  F->paths_seq = seeds_paths(B->g, B->p, B->r->copies,
                             best_left(B) * time_share(SHARE_PEBBLE_PATHS), &F->paths_len);
  best_verbose(B, "pebbling paths: %s, %.2fs", F->paths_seq ? "a schedule within M" : "none",
               best_elapsed(B) - t0);
}

/* The paths' schedule, offered where nothing better fits, C_v raised to
 * its copies where C_v is 2 or more (the joint annealing's C_v). */
static void sfree_paths_offer(sfree *F) {
  best *B = &F->B;
  if (F->paths_seq && !B->fits) {
    int *was = best_raise_begin(B);
    if (best_offer(B, F->paths_seq, F->paths_len, 0, "paths") < 0)
      best_error(B, "the pebbling paths' schedule is outside C_v or M%s", "");
    best_raise_end(B, was, "the pebbling paths'");
  }
  free(F->paths_seq);
  F->paths_seq = NULL;
}

/* The probe's schedule, offered once B->fits no longer means "without
 * recomputation" to the branches that read it. */
static void sfree_probe_offer(sfree *F) {
  if (F->probe_seq && best_offer(&F->B, F->probe_seq, F->probe_len, 0, "probe") < 0)
    best_error(&F->B, "the copies probe's schedule is outside C_v%s", "");
  free(F->probe_seq);
  F->probe_seq = NULL;
}

/* A schedule of the renumbered graph, offered in g's numbering. */
static void sfree_back(sfree *F, const int *seq, int len, const char *what) {
  const int *perm = F->perm;
  int *back = util_malloc((size_t)(len ? len : 1) * sizeof *back);
  for (int i = 0; i < len; i++) back[i] = perm ? perm[seq[i]] : seq[i];
  if (best_offer(&F->B, back, len, 2, what) < 0)
    best_error(&F->B, "the %s search produced a schedule outside C_v", what);
  free(back);
}

/* The stage-axis search's improvements. */
static void sfree_stage_found(void *ctx, const int *seq, int len) {
  sfree *F = ctx;
  F->stage_tbest_us = (long long)(best_elapsed(&F->B) * 1e6);
  sfree_back(F, seq, len, "stages");
}

/* The stage-axis search on an order the order search chose ends once no
 * better schedule came for SFREE_STAGE_STALL seconds and for longer than
 * it took to find the last: on such orders it finds its best early, and
 * the joint annealing, which can change the order, gains the time.  The
 * caller's stop passes through; the free solve's own end halts it. */
typedef struct sfree_sw {
  sfree *F;
  int stall;    /* watch for stalls, not only the caller's stop */
  deadline split; /* stop from then on once a schedule fits (or never) */
} sfree_sw;

static void *sfree_stage_watch(void *arg) {
  sfree_sw *W = arg;
  sfree *F = W->F;
  double t0 = best_elapsed(&F->B);
  while (!F->stage_done) {
    sfree_nap(F, &F->stage_done);
    if (best_stopped(&F->B)) F->stage_stop = best_interrupted(&F->B) ? 1 : REMAT_HALT;
    double now = best_elapsed(&F->B), tb = (double)F->stage_tbest_us / 1e6;
    if (tb < t0) tb = t0;
    if (W->stall && F->B.fits && now - tb > SFREE_STAGE_STALL && now - tb > tb - t0)
      F->stage_stop = 1;
    if (F->B.fits && deadline_passed(W->split)) F->stage_stop = 1;
  }
  return NULL;
}

/* One run of the order descent (order_descent.h) from the input order,
 * into ord[0..n): down to `lower` at most, ending once within the budget;
 * returns the peak of the order left there. */
static int64_t sfree_descent(best *B, int *ord, int64_t lower, double step, double seconds,
                             unsigned seed) {
  for (int i = 0; i < B->g->n; i++) ord[i] = i;
  odesc_params dp;
  odesc_params_init(&dp);
  dp.lower = lower;
  dp.target = B->p->budget;
  dp.step = step;
  dp.deadline = deadline_in(seconds);
  dp.seed = seed;
  dp.stop = B->p->stop;
  return odesc_run(B->g, ord, &dp);
}

/* One thread of the order descent: runs from the input order, each with
 * its own seed and step, until the time is up; the best order found goes
 * to the shared one. */
typedef struct sfree_odw {
  sfree *F;
  pthread_mutex_t *mu;
  int *shared;          /* the best order (under mu) */
  int64_t *shared_peak;
  int64_t lower;
  deadline end;
  unsigned seed;
  int runs;
  pthread_t tid;
  int started;
} sfree_odw;

static void *sfree_odw_thread(void *arg) {
  sfree_odw *W = arg;
  best *B = &W->F->B;
  int n = B->g->n;
  int *ord = util_malloc((size_t)(n ? n : 1) * sizeof *ord);
  for (int r = 0; !best_stopped(B); r++) {
    double left = deadline_left(W->end);
    if (left < 0.05) break;
    int64_t peak = sfree_descent(B, ord, W->lower, r % 2 ? 0.5 : 1.0 / 16, left,
                                 W->seed + 7919u * (unsigned)r);
    W->runs++;
    pthread_mutex_lock(W->mu);
    if (peak < *W->shared_peak) {
      *W->shared_peak = peak;
      memcpy(W->shared, ord, (size_t)n * sizeof *ord);
    }
    pthread_mutex_unlock(W->mu);
    if (peak <= B->p->budget || peak <= W->lower) break;
  }
  free(ord);
  return NULL;
}

/* Lower the peak of h's order by restarts of the order descent
 * (order_descent.h) until `end` (elapsed seconds), one per thread;
 * returns the graph renumbered in the best order found when it peaks
 * lower (h freed), else h. */
static remat_graph *sfree_descend(sfree *F, remat_graph *h, int64_t lower, deadline end) {
  best *B = &F->B;
  const remat_graph *g = B->g;
  int n = g->n;
  int threads = B->p->threads > 0 ? B->p->threads : util_ncpus();
  if (threads > REMAT_MAX_THREADS) threads = REMAT_MAX_THREADS;
  if (threads < 1) threads = 1;
  int *ord = util_malloc((size_t)(n ? n : 1) * sizeof *ord);
  for (int i = 0; i < n; i++) ord[i] = F->perm && h ? F->perm[i] : i;
  int64_t before = odesc_peak(g, ord), peak = before;
  pthread_mutex_t mu;
  pthread_mutex_init(&mu, NULL);
  sfree_odw W[REMAT_MAX_THREADS];
  for (int k = 0; k < threads; k++)
    W[k] = (sfree_odw){F, &mu, ord, &peak, lower, end, B->p->seed + 104729u * (unsigned)k, 0, 0, 0};
  for (int k = 1; k < threads; k++)
    W[k].started = pthread_create(&W[k].tid, NULL, sfree_odw_thread, &W[k]) == 0;
  sfree_odw_thread(&W[0]);
  int runs = W[0].runs;
  for (int k = 1; k < threads; k++)
    if (W[k].started) {
      pthread_join(W[k].tid, NULL);
      runs += W[k].runs;
    }
  pthread_mutex_destroy(&mu);
  best_verbose(B, "order descent: peak %lld -> %lld (%d runs)", (long long)before,
               (long long)peak, runs);
  if (peak < before) {
    char err[256];
    remat_graph *k = graph_permute(g, ord, err, sizeof err);
    if (!k) {
      best_error(B, "renumbering the graph: %s", err);
    } else {
      prog_line(&B->pr, "[%7.2fs] order     peak %lld by the order descent", best_elapsed(B),
                (long long)peak);
      best_offer(B, ord, n, 0, "order");
      remat_graph_free(h);
      h = k;
      if (!F->perm) F->perm = util_malloc((size_t)n * sizeof *F->perm);
      memcpy(F->perm, ord, (size_t)n * sizeof *F->perm);
    }
  }
  free(ord);
  return h;
}

/* The stage-axis portfolio on h (g renumbered; NULL: g itself) until
 * `end` (elapsed seconds), or with `stall` until it stalls, or from
 * `split` on (-1: none) once a schedule fits (sfree_stage_watch). */
static void sfree_stages(sfree *F, const remat_graph *h, deadline end, int stall,
                         deadline split) {
  best *B = &F->B;
  const remat_graph *g = B->g;
  const remat_graph *on = h ? h : g;
  remat_solve_params p = *B->p;
  p.free_order = 0;
  p.time_limit = best_left_by(B, end);
  if (p.time_limit < 0.01) return;
  int *copies = util_malloc((size_t)g->n * sizeof *copies);
  for (int i = 0; i < g->n; i++) copies[i] = B->r->copies[F->perm && h ? F->perm[i] : i];
  p.copies = copies;
  p.keep_copies = 1; /* its schedules are offered to the free solve's C_v */
  if (B->proof.order_lb >= 0) /* every sequence's, so those of h's stages too */
    p.order_cost = (int64_t)B->proof.order_lb - B->r->base_duration;
  /* the copies probe's schedule, in on's numbering: a start when it is on
   * on's stages (the order descent may have changed the order since) */
  int *warm = NULL;
  if (F->probe_seq) {
    int *inv = util_malloc((size_t)g->n * sizeof *inv);
    for (int i = 0; i < g->n; i++) inv[F->perm && h ? F->perm[i] : i] = i;
    warm = util_malloc((size_t)F->probe_len * sizeof *warm);
    for (int i = 0; i < F->probe_len; i++) warm[i] = inv[F->probe_seq[i]];
    free(inv);
  }
  p.warm_seq = warm;
  p.warm_len = warm ? F->probe_len : 0;
  p.verbose = p.verbose > 1 ? 1 : 0;
  p.on_improvement = sfree_stage_found;
  p.improvement_ctx = F;
  p.stop = &F->stage_stop;
  F->stage_stop = 0;
  F->stage_done = 0;
  F->stage_tbest_us = 0;
  sfree_sw W = {F, stall, split};
  pthread_t watch;
  int watching = pthread_create(&watch, NULL, sfree_stage_watch, &W) == 0;
  remat_result r;
  remat_result_init(&r, on, p.budget, "cp");
  int rc = portfolio_solve(on, &p, &r);
  sfree_wake(F, &F->stage_done);
  if (watching) pthread_join(watch, NULL);
  if (rc == REMAT_EINTERNAL) best_error(B, "stage-axis search: %s", r.message);
  F->stages_optimal = r.status == REMAT_STATUS_OPTIMAL && !(r.message[0]);
  if (r.has_bound)
    best_verbose(B, "stage-axis search: lower bound %.0f (for its order's stages only)", r.bound);
  remat_result_free(&r);
  free(copies);
  free(warm);
}

/* One joint annealing thread. */
typedef struct sfree_sqa {
  best_client c;
  sqa_params p;
  pthread_t tid;
  int started;
  long long moves;
  int64_t lower; /* tries: every order peaks at least this */
  deadline end;  /* tries: until then */
  int tries;
} sfree_sqa;

/* The first thread: from the best schedule. */
static void *sfree_sqa_thread(void *arg) {
  sfree_sqa *W = arg;
  int len;
  int *seq = best_copy(W->c.B, &len, NULL);
  if (seq) W->moves = sqa_run(W->c.B->g, seq, len, &W->p);
  free(seq);
  return NULL;
}

/* The other threads: tries from fresh orders until W->end, each offering
 * its improvements to the best without moving to the others' (its
 * worker_io has no poll).  The descent takes the fine threshold steps
 * (1/16 of the way to the bound): its orders led the annealing further
 * than the coarse steps' did. */
static void *sfree_sqa_tries(void *arg) {
  sfree_sqa *W = arg;
  best *B = W->c.B;
  const remat_graph *g = B->g;
  int n = g->n;
  int *ord = util_malloc((size_t)(n ? n : 1) * sizeof *ord);
  for (int r = 0; !best_stopped(B); r++) {
    double left = deadline_left(W->end);
    if (left < 0.05) break;
    double t = left * time_share(SHARE_FREE_TRY_DESCENT);
    sfree_descent(B, ord, W->lower, 1.0 / 16, t < SFREE_TRY_DESCENT ? t : SFREE_TRY_DESCENT,
                  W->p.io.seed + 7919u * (unsigned)r);
    sqa_params p = W->p;
    left = deadline_left(W->end);
    p.deadline = deadline_in(left < 2 * SFREE_TRY ? left : SFREE_TRY);
    p.io.seed += 104729u * (unsigned)r;
    W->moves += sqa_run(g, ord, n, &p);
    W->tries++;
  }
  free(ord);
  return NULL;
}

/* The joint annealing to the time limit: one run from the best schedule,
 * tries from fresh orders in the other threads. */
static void sfree_joint(sfree *F) {
  best *B = &F->B;
  const remat_solve_params *p = B->p;
  int threads = p->threads > 0 ? p->threads : util_ncpus();
  if (threads > REMAT_MAX_THREADS) threads = REMAT_MAX_THREADS;
  if (threads < 1) threads = 1;
  sfree_sqa W[REMAT_MAX_THREADS];
  double left = best_left(B);
  if (left < 0.01) return;
  /* Its own C_v: any number of copies where C_v is 2 or more (unless C_v
   * is a hard limit); a schedule within budget that uses more raises C_v
   * (best_offer), as a baseline's does. */
  int n = B->g->n, *copies = B->r->copies, *was = NULL;
  if (!p->keep_copies) {
    copies = util_malloc((size_t)(n ? n : 1) * sizeof *copies);
    was = best_raise_begin(B);
    sfree_joint_copies(B->g, p, was, copies);
  }
  for (int k = 0; k < threads; k++) {
    W[k].c = (best_client){B, 0, BEST_FOLLOW, "moves"};
    sqa_params_init(&W[k].p);
    W[k].p.budget = p->budget;
    W[k].p.copies = copies;
    W[k].p.deadline = deadline_in(left);
    W[k].p.io = best_io(&W[k].c, p->seed * 7919u + 31 + 104729u * (unsigned)k);
    W[k].started = 0;
    W[k].moves = 0;
    W[k].lower = F->order_lower;
    W[k].end = deadline_in(left);
    W[k].tries = 0;
    if (k > 0) {
      W[k].p.io.poll = NULL;
      W[k].p.name = "try";
    }
  }
  for (int k = 1; k < threads; k++)
    W[k].started = pthread_create(&W[k].tid, NULL, sfree_sqa_tries, &W[k]) == 0;
  sfree_sqa_thread(&W[0]);
  long long moves = 0;
  int tries = 0;
  for (int k = 1; k < threads; k++)
    if (W[k].started) pthread_join(W[k].tid, NULL);
  for (int k = 0; k < threads; k++) {
    moves += W[k].moves;
    tries += W[k].tries;
  }
  best_verbose(B, "joint annealing: %lld moves in %d threads over %.1f s, %d tries from "
                  "fresh orders", moves, threads, left, tries);
  if (was) {
    best_raise_end(B, was, "the joint annealing's");
    free(copies);
  }
}

/* On graphs of at most FREE_EXACT_MAXN nodes: the exact search over every
 * sequence, for a share of the time; a proof either way ends the solve. */
static void sfree_exact(sfree *F) {
  best *B = &F->B;
  if (B->g->n > FREE_EXACT_MAXN) return;
  free_exact_params xp;
  free_exact_params_init(&xp);
  xp.budget = B->p->budget;
  xp.copies = B->r->copies;
  xp.deadline = deadline_limit(util_now(), best_left(B) * time_share(SHARE_FREE_EXACT));
  xp.stop = B->p->stop;
  int *seq, len;
  size_t states;
  free_exact_status st = free_exact_solve(B->g, &xp, &seq, &len, &states);
  best_verbose(B, "exact search over every sequence: %s, %zu states",
               st == FREE_EXACT_OPTIMAL      ? "optimal"
               : st == FREE_EXACT_INFEASIBLE ? "nothing fits"
                                             : "gave up",
               states);
  if (st == FREE_EXACT_OPTIMAL) {
    if (best_offer(B, seq, len, 2, "exact") < 0)
      best_error(B, "%s", "the exact search produced an invalid schedule");
    remat_sim sim;
    if (!remat_simulate(B->g, seq, len, &sim, NULL) && B->fits && B->r->duration <= sim.duration)
      B->proven = 1;
    free(seq);
  } else if (st == FREE_EXACT_INFEASIBLE && !B->fits) {
    B->proven = 1;
  }
}

/* The free-order model in the CP worker, to the time limit or a proof. */
static void sfree_cp(sfree *F) {
  best *B = &F->B;
  cp_worker C;
  char err[256];
  if (cpw_init(&C, B, NULL, err, sizeof err)) {
    best_verbose(B, "free-order CP: %s", err);
    return;
  }
  cpw_run(&C);
  cpw_free(&C);
}

static void sfree_status(sfree *F) {
  best *B = &F->B;
  remat_result *r = B->r;
  long long M = B->p->budget, peak = r->peak;
  if (r->has_bound) /* the bounds over every order hold with any number of copies */
    r->bound_covers = B->proof.order_lb >= 0 && r->bound <= B->proof.order_lb
                          ? REMAT_COVERS_ANY_ORDER
                          : REMAT_COVERS_ANY_ORDER_COPIES;
  if (B->fits && B->proven) {
    r->status = REMAT_STATUS_OPTIMAL;
    r->has_bound = 1;
    r->bound = (double)r->duration;
    int any = B->proof.order_lb >= 0 && (double)r->duration <= B->proof.order_lb;
    r->proof_covers = r->bound_covers =
        r->recomputations && !any ? REMAT_COVERS_ANY_ORDER_COPIES : REMAT_COVERS_ANY_ORDER;
    if (!r->recomputations)
      snprintf(r->message, sizeof r->message,
               "optimal: an order without recomputation fits (the base duration)");
    else if (any)
      snprintf(r->message, sizeof r->message,
               "optimal over every sequence in any order, with any number of copies (the %s)",
               B->proof.order_by);
    else
      snprintf(r->message, sizeof r->message,
               "optimal over every sequence in free order with at most C_v copies per node");
  } else if (B->fits) {
    r->status = REMAT_STATUS_FEASIBLE;
    if (F->input_minimal && F->stages_optimal)
      snprintf(r->message, sizeof r->message,
               "optimal on the input order's stages; the input order is a minimum-peak "
               "order (free order not proven)");
  } else if (B->proven && B->proof.pebble_node >= 0) {
    result_infeasible_pebble(r, B->g, B->proof.pebble_node);
  } else if (B->proven) {
    result_infeasible(r, REMAT_COVERS_ANY_ORDER_COPIES, NULL, NULL);
  } else {
    r->status = REMAT_STATUS_OVER_BUDGET;
    snprintf(r->message, sizeof r->message,
             "%s: no schedule within %lld found in free order; best peak %lld (%.1f%% of "
             "budget); more time or more copies may reach it",
             best_interrupted(B) ? "interrupted" : "out of time", M, peak,
             100.0 * (double)peak / (double)M);
  }
}

int solve_free(const remat_graph *g, const remat_solve_params *p, remat_result *r) {
  sfree F;
  memset(&F, 0, sizeof F);
  pthread_mutex_init(&F.wmu, NULL);
  pthread_cond_init(&F.wcv, NULL);
  best *B = &F.B;
  best_init(B, g, p, r);
  r->free_order = 1;
  r->budget = p->budget;
  int rc = remat_result_precheck(r, g);
  if (!rc) {
    r->copies = sfree_copies(g, p);
    if (!seeds_input_order(B)) bounds_pebble(B);
    seeds_base sb = {0};
    if (!B->fits && !B->done) {
      remat_graph *h = sfree_order(&F);
      if (!B->fits) bounds_order_cost(B, F.perm); /* and the covering bound over every order */
      if (!B->fits && !best_stopped(B) && g->n <= MODEL_MAX_NODES) sfree_baselines(&F, &sb);
      if (!B->fits && !best_stopped(B) && !p->keep_copies && p->heuristics) h = sfree_probe(&F, h);
      if (!B->fits && !F.probe_seq && !best_stopped(B) && p->heuristics) sfree_paths(&F);
      if (!B->fits && !best_stopped(B)) sfree_exact(&F);
      if (!B->fits && !B->proven && !best_stopped(B) && g->n > MODEL_MAX_NODES) {
        large_segments(B, h ? h : g, h ? F.perm : NULL);
      } else if (!B->fits && !B->proven && !best_stopped(B)) {
        model probe;
        char err[256];
        int small = 0;
        if (!model_build_free(&probe, g, 1, p->budget, r->copies, 1, err, sizeof err)) {
          small = probe.ncopy <= SFREE_CP_COPIES;
          model_free(&probe);
        }
        int joint = !small && g->n <= SFREE_SEQ_NODES && p->heuristics;
        int mid = !small && !joint && g->n <= SFREE_SEQ_FIT_NODES && p->heuristics;
        deadline end = best_deadline(B), split = DEADLINE_NONE;
        deadline cp_at = deadline_in(best_left(B) * (1 - time_share(SHARE_FREE_CP)));
        deadline seq_at = deadline_in(best_left(B) * (1 - time_share(SHARE_FREE_SEQ)));
        if (small) end = cp_at;
        else if (joint) end = seq_at;
        else if (mid) split = seq_at;
        if (!small && g->n <= SFREE_SEQ_NODES && F.order_peak > F.order_lower && !F.probe_input) {
          double descent = deadline_left(end) * time_share(SHARE_FREE_DESCENT);
          h = sfree_descend(&F, h, F.order_lower, deadline_in(descent));
          if (B->fits) B->proven = 1; /* no recomputation: the base duration */
        }
        if (!B->fits) sfree_stages(&F, h, end, (joint || mid) && !F.input_minimal, split);
        seeds_base_offer(B, &sb, 0); /* after the branches above, which read
                                        B->fits as "no recomputation" */
        sfree_probe_offer(&F);
        sfree_paths_offer(&F);
        int open = !B->proven && !best_stopped(B) && !(F.input_minimal && F.stages_optimal);
        if (open && small) sfree_cp(&F);
        else if (open && (joint || (mid && B->fits))) sfree_joint(&F);
      } else if (B->fits && !B->proven) {
        B->proven = 1; /* no recomputation: the base duration */
      }
      remat_graph_free(h);
    }
    bounds_cover_end(B);
    seeds_base_free(&sb);
    free(F.probe_seq);
    free(F.paths_seq);
    if (B->internal) {
      snprintf(r->message, sizeof r->message, "internal error: %.480s", B->errmsg);
      rc = REMAT_EINTERNAL;
    } else {
      sfree_status(&F);
      rc = B->fits ? REMAT_OK : REMAT_ENOFIT;
    }
  }
  free(F.perm);
  pthread_cond_destroy(&F.wcv);
  pthread_mutex_destroy(&F.wmu);
  prog_done(&B->pr);
  r->t_total = best_elapsed(B);
  r->interrupted = best_interrupted(B);
  best_free(B);
  return rc;
}
