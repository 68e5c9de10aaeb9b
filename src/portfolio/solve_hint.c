/* solve_hint.c -- after a solve on the input order, whether another order
 * does better (solve_hint.h).
 *
 * A solve on the input order keeps the order of the first computations;
 * the free order (remat_solve_params.free_order, solve_free.c) searches
 * every order.  Where the solve proved nothing over every order, a short
 * search over every order tells the user when the order itself is what
 * costs:
 *
 *   order  where the input order ended above the budget, or the graph is
 *          too large for the annealing below, an order without
 *          recomputation that fits (order.h): the free order's duration is
 *          then the base one;
 *   joint  on graphs the free order's joint annealing takes
 *          (SFREE_SEQ_NODES), that annealing (seq_anneal.h) from the
 *          solve's best schedule (the input order where it has none), one
 *          run per thread (where that schedule is above the budget, the
 *          first thread's from the pebbling paths' schedule, seeds_paths,
 *          when there is one), with its C_v (sfree_joint_copies): a
 *          schedule within the budget, shorter than the solve's, is what
 *          the free order would start from.
 * What it finds is re-simulated, goes to the message and to
 * r->other_order_duration / other_order_peak; r's schedule stays the input
 * order's, and its status and claims are the input order's.  The time
 * comes out of the solve's limit (solve_hint_time), and the joint
 * annealing takes at most as long as the solve itself did, so that a
 * solve that ends early stays quick. */
#include "solve_hint.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "order.h"
#include "seeds.h"
#include "seq_anneal.h"
#include "shares.h"
#include "solve_free.h"
#include "util.h"

/* The hint's time: the ORDER_HINT share of the limit, at most
 * HINT_MAX seconds; the order search its first HINT_ORDER_MAX of them. */
#define HINT_MAX 2.0
#define HINT_ORDER_MAX 1.0
/* A schedule in another order is said to do better when it is shorter by at
 * least this share of the base duration (0.1 TDI points): less is within
 * what two runs of the same search differ by. */
#define HINT_MIN_GAIN 0.001

double solve_hint_time(const remat_graph *g, const remat_solve_params *p) {
  if (p->free_order || g->n < 2 || graph_order_unique(g)) return 0;
  double t = p->time_limit * time_share(SHARE_ORDER_HINT);
  return t <= 0 ? 0 : t > HINT_MAX ? HINT_MAX : t;
}

/* The joint annealing's threads: the best schedule found within the
 * budget (its duration and peak; dur 0 while none), under mu. */
typedef struct hint {
  const remat_graph *g;
  int64_t budget, base, dur, peak;
  volatile int done; /* a schedule of the base duration: none is shorter */
  pthread_mutex_t mu;
} hint;

typedef struct hint_run {
  hint *H;
  const int *seq;
  int len;
  sqa_params p;
  pthread_t tid;
  int started;
} hint_run;

/* Whether seq's first computations follow the input order (nodes are
 * numbered in it): such a schedule is not another order's. */
static int hint_input_firsts(const int *seq, int len) {
  int next = 0;
  for (int i = 0; i < len; i++)
    if (seq[i] >= next) {
      if (seq[i] != next) return 0;
      next++;
    }
  return 1;
}

/* The annealing's report: kept when its order is another and it fits,
 * re-simulated, shorter than what the threads have. */
static int hint_report(void *ctx, const int *seq, int len, const char *name) {
  (void)name;
  hint *H = ctx;
  remat_sim s;
  if (hint_input_firsts(seq, len) || remat_simulate(H->g, seq, len, &s, NULL) || !s.valid ||
      s.peak > H->budget)
    return 0;
  pthread_mutex_lock(&H->mu);
  if (!H->dur || s.duration < H->dur) {
    H->dur = s.duration;
    H->peak = s.peak;
  }
  if (s.duration <= H->base) H->done = 1;
  pthread_mutex_unlock(&H->mu);
  return 0;
}

static int hint_halt(void *ctx) { return ((hint *)ctx)->done; }

static void *hint_thread(void *arg) {
  hint_run *W = arg;
  sqa_run(W->H->g, W->seq, W->len, &W->p);
  return NULL;
}

/* The solve's C_v (r's, else the caller's), allocated. */
static int *hint_solve_copies(const remat_graph *g, const remat_solve_params *p,
                              const remat_result *r) {
  if (!r->copies) return seeds_caller_copies(g, p);
  int *c = util_malloc((size_t)(g->n ? g->n : 1) * sizeof *c);
  memcpy(c, r->copies, (size_t)g->n * sizeof *c);
  return c;
}

/* The free order's C_v for the annealing from seq[0..len): the joint
 * annealing's (solve_free.h) from the solve's C_v, and at least seq's
 * copies (its start must keep to them). */
static int *hint_copies(const remat_graph *g, const remat_solve_params *p,
                        const remat_result *r, const int *seq, int len) {
  int n = g->n;
  int *cnt = util_calloc((size_t)(n ? n : 1), sizeof *cnt), *out = hint_solve_copies(g, p, r);
  sfree_limit_copies(g, out);
  sfree_joint_copies(g, p, out, out);
  for (int i = 0; i < len; i++) cnt[seq[i]]++;
  for (int v = 0; v < n; v++)
    if (out[v] && cnt[v] > out[v]) out[v] = cnt[v];
  free(cnt);
  return out;
}

/* The joint annealing for `seconds` from r's schedule (the input order
 * where it has none), and from start[0..slen) in the first thread when
 * given; H->dur the best found within the budget (0: none). */
static void hint_joint(const remat_graph *g, const remat_solve_params *p, const remat_result *r,
                       const int *start, int slen, double seconds, hint *H) {
  int *input = NULL;
  const int *seq = r->seq;
  int len = r->len;
  if (!seq) {
    input = util_malloc((size_t)g->n * sizeof *input);
    for (int v = 0; v < g->n; v++) input[v] = v;
    seq = input;
    len = g->n;
  }
  int *copies = hint_copies(g, p, r, start ? start : seq, start ? slen : len);
  int threads = p->threads > 0 ? p->threads : util_ncpus();
  if (threads > REMAT_MAX_THREADS) threads = REMAT_MAX_THREADS;
  if (threads < 1) threads = 1;
  hint_run W[REMAT_MAX_THREADS];
  deadline end = deadline_in(seconds);
  for (int k = 0; k < threads; k++) {
    W[k] = (hint_run){.H = H, .seq = k || !start ? seq : start, .len = k || !start ? len : slen};
    sqa_params_init(&W[k].p);
    W[k].p.budget = p->budget;
    W[k].p.copies = copies;
    W[k].p.deadline = end;
    W[k].p.io.report = hint_report;
    W[k].p.io.halt = hint_halt;
    W[k].p.io.ctx = H;
    W[k].p.io.stop = p->stop;
    W[k].p.io.seed = p->seed * 7919u + 31 + 104729u * (unsigned)k;
  }
  for (int k = 1; k < threads; k++)
    W[k].started = pthread_create(&W[k].tid, NULL, hint_thread, &W[k]) == 0;
  hint_thread(&W[0]);
  for (int k = 1; k < threads; k++)
    if (W[k].started) pthread_join(W[k].tid, NULL);
  free(copies);
  free(input);
}

/* The order search's progress: it stops once an order fits the budget
 * or its bound shows that none does, or on the caller's stop. */
typedef struct hint_order_ctx {
  int64_t budget;
  volatile int *caller, stop;
} hint_order_ctx;

static void hint_order_event(void *ctx, const order_event *e) {
  hint_order_ctx *O = ctx;
  if (e->peak <= O->budget || e->lower > O->budget || (O->caller && *O->caller)) O->stop = 1;
}

/* An order without recomputation within the budget, searched for at most
 * `seconds`: its peak (0: none found). */
static int64_t hint_order(const remat_graph *g, const remat_solve_params *p, double seconds) {
  hint_order_ctx O = {.budget = p->budget, .caller = p->stop};
  order_params op;
  order_params_init(&op);
  op.time_limit = seconds < 0.01 ? 0.01 : seconds;
  op.stop = &O.stop;
  op.seed = p->seed;
  op.progress = hint_order_event;
  op.progress_ctx = &O;
  order_result o;
  int64_t peak = 0;
  if (!order_solve(g, &op, &o) && o.order && o.peak <= p->budget) peak = o.peak;
  order_result_free(&o);
  return peak;
}

/* Append to r's message, after "; " where it has one. */
static void hint_say(remat_result *r, const char *fmt, ...) {
  size_t n = strlen(r->message);
  if (n && n + 2 < sizeof r->message) n += (size_t)snprintf(r->message + n, 3, "; ");
  if (n >= sizeof r->message) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->message + n, sizeof r->message - n, fmt, ap);
  va_end(ap);
}

void solve_hint(const remat_graph *g, const remat_solve_params *p, int rc, double elapsed,
                double seconds, remat_result *r) {
  int any = r->proof_covers == REMAT_COVERS_ANY_ORDER ||
            r->proof_covers == REMAT_COVERS_ANY_ORDER_COPIES;
  int proven = r->status == REMAT_STATUS_OPTIMAL || r->status == REMAT_STATUS_INFEASIBLE;
  int fits = r->seq && r->peak <= r->budget;
  if (seconds <= 0 || (rc != REMAT_OK && rc != REMAT_ENOFIT) || r->interrupted ||
      (p->stop && *p->stop) || r->status == REMAT_STATUS_ERROR || (proven && any) ||
      r->budget < r->min_peak || (fits && r->duration <= r->base_duration))
    return;
  double t0 = util_now();
  if (!fits || g->n > SFREE_SEQ_NODES) { /* an order that needs no recomputation */
    double t = seconds < HINT_ORDER_MAX ? seconds : HINT_ORDER_MAX;
    int64_t peak = hint_order(g, p, t);
    r->t_total += util_now() - t0;
    if (peak) {
      r->other_order_duration = r->base_duration;
      r->other_order_peak = peak;
      hint_say(r, "the free order (--free-order) %s: an order without recomputation peaks at %lld",
               fits ? "does better" : "reaches it", (long long)peak);
      return;
    }
  }
  double left = seconds - (util_now() - t0);
  if (left > elapsed) left = elapsed; /* a quick solve stays quick */
  if (g->n > SFREE_SEQ_NODES || left < 0.01) return;
  double t1 = util_now();
  hint H = {.g = g, .budget = p->budget, .base = r->base_duration};
  pthread_mutex_init(&H.mu, NULL);
  int *paths = NULL, plen = 0;
  if (!fits) { /* a start within the budget: the pebbling paths' schedule */
    int *c = hint_solve_copies(g, p, r);
    paths = seeds_paths(g, p, c, left / 2, &plen);
    free(c);
  }
  if (paths) hint_report(&H, paths, plen, "paths");
  hint_joint(g, p, r, paths, plen, left - (util_now() - t1), &H);
  free(paths);
  pthread_mutex_destroy(&H.mu);
  r->t_total += util_now() - t1;
  if (!H.dur || (fits && r->duration - H.dur < HINT_MIN_GAIN * (double)r->base_duration))
    return;
  r->other_order_duration = H.dur;
  r->other_order_peak = H.peak;
  hint_say(r, "the free order (--free-order) %s: a schedule in another order peaks at %lld "
              "with TDI %.2f%%",
           fits ? "does better" : "reaches it", (long long)H.peak,
           remat_tdi(r->base_duration, (double)H.dur));
}
