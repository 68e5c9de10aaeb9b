/* best.c -- the portfolio's shared best schedule (best.h). */
#include "best.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result.h"
#include "shares.h"
#include "sim.h"
#include "util.h"

void best_init(best *B, const remat_graph *g, const remat_solve_params *p, remat_result *r) {
  memset(B, 0, sizeof *B);
  B->g = g;
  B->p = p;
  B->r = r;
  B->t0 = util_now();
  B->proof.cover_lb = -1;
  B->proof.order_lb = -1;
  B->proof.pebble_node = -1;
  pthread_mutex_init(&B->mu, NULL);
  prog_init(&B->pr, p->verbose);
}

void best_free(best *B) { pthread_mutex_destroy(&B->mu); }

double best_elapsed(const best *B) { return util_now() - B->t0; }

deadline best_deadline(const best *B) { return deadline_after(B->t0, B->p->time_limit); }

double best_left_by(const best *B, deadline end) {
  double left = deadline_left(deadline_sooner(end, best_deadline(B)));
  return left > 0 ? left : 0;
}

double best_left(const best *B) { return best_left_by(B, best_deadline(B)); }

/* Record the first internal error (B->mu held, or no worker running). */
static void best_internal(best *B, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void best_internal(best *B, const char *fmt, ...) {
  if (B->internal) return;
  B->internal = 1;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(B->errmsg, sizeof B->errmsg, fmt, ap);
  va_end(ap);
}

/* A lower bound lb above the duration of a schedule that fits: a bug in
 * whatever gave the bound (or the schedule), recorded as the internal
 * error (B->mu held, or no worker running). */
static int best_bound_wrong(best *B, double lb) {
  const remat_result *r = B->r;
  if (!B->fits || (double)r->duration >= lb) return 0;
  best_internal(B,
                "a lower bound (%s: duration >= %.0f) is above a schedule within budget "
                "(duration %lld); no proof taken",
                B->proof.bound_by ? B->proof.bound_by : "lower bound", lb, (long long)r->duration);
  return 1;
}

/* A proof that nothing fits while a schedule within budget is at hand: a
 * bug, recorded as the internal error (B->mu held). */
static void best_proof_wrong(best *B, const char *by) {
  best_internal(B,
                "the %s proved that nothing fits, but a schedule within budget (duration "
                "%lld) exists",
                by, (long long)B->r->duration);
}

int best_check_optimum(best *B, int64_t dur, const char *by) {
  pthread_mutex_lock(&B->mu);
  const remat_result *r = B->r;
  int rc = B->fits && r->duration == dur;
  if (B->fits && r->duration < dur) {
    best_internal(B,
                  "%s proved an optimum (duration %lld) above a schedule within budget "
                  "(duration %lld); no proof taken",
                  by, (long long)dur, (long long)r->duration);
    rc = -1;
  }
  pthread_mutex_unlock(&B->mu);
  return rc;
}

int best_raise_bound(best *B, double lb) {
  if (best_bound_wrong(B, lb)) return -1;
  result_raise_bound(B->r, lb, best_elapsed(B));
  return 0;
}

/* With B->mu held: the best schedule fits and is at the lower bound (or,
 * a bug, below it). */
static void best_at_bound(best *B) {
  const remat_result *r = B->r;
  if (B->proven || B->internal || !B->fits || !r->has_bound || (double)r->duration > r->bound)
    return;
  if (best_bound_wrong(B, r->bound)) return;
  B->proven = 1;
  B->proof.bound = 1;
  B->done = 1;
  prog_line(&B->pr, "[%7.2fs] optimal   TDI %.3f%% is the %s", best_elapsed(B), r->tdi,
            B->proof.bound_by ? B->proof.bound_by : "lower bound");
}

void best_cp_rounded(best *B, double lb, int64_t q) {
  pthread_mutex_lock(&B->mu);
  B->proof.rounded_q = q;
  if (!B->r->has_bound || lb > B->r->bound)
    B->proof.bound_by = "CP's optimum for rounded durations";
  B->done = 1;
  if (best_raise_bound(B, lb) < 0) {
    pthread_mutex_unlock(&B->mu);
    return;
  }
  prog_line(&B->pr, "[%7.2fs] bound     TDI >= %.3f%% (the CP's optimum for durations rounded to %lld)",
            best_elapsed(B), remat_tdi(B->r->base_duration, lb), (long long)q);
  best_at_bound(B);
  pthread_mutex_unlock(&B->mu);
}

/* With B->mu held: take the covering bound's answer; 1 when it raised
 * the bound (a stronger problem's LP may start below the bound so far). */
static int best_cover_take(best *B, const cover_out *o) {
  remat_result *r = B->r;
  if (B->children.cov_any && o->status == COVER_INFEASIBLE) return 0; /* not a proof there */
  if (o->status == COVER_INFEASIBLE && B->fits) {
    best_proof_wrong(B, "covering bound");
  } else if (o->status == COVER_INFEASIBLE) {
    B->proven = 1;
    B->proof.cover = 1;
    B->done = 1;
  } else if (o->status == COVER_OPTIMAL || o->status == COVER_BOUND) {
    double lb = (double)(r->base_duration + o->increase);
    int higher = !r->has_bound || lb > r->bound;
    if (higher) B->proof.bound_by = B->children.cov_any ? BEST_COVER_ANY_BY : cover_bound_name(o);
    if (best_raise_bound(B, lb) < 0) return 0;
    if (B->children.cov_any && lb > B->proof.order_lb) {
      B->proof.order_lb = lb;
      B->proof.order_by = BEST_COVER_ANY_BY;
    }
    if (!B->children.cov_any && lb > B->proof.cover_lb) B->proof.cover_lb = lb;
    return higher;
  }
  return 0;
}

void best_take_cover(best *B) {
  best_children *K = &B->children;
  if (!K->cov || K->cov_taken >= __atomic_load_n(&K->cov->ready, __ATOMIC_ACQUIRE)) return;
  pthread_mutex_lock(&B->mu);
  int ready = __atomic_load_n(&B->children.cov->ready, __ATOMIC_ACQUIRE);
  /* every answer goes to the bound's trace; the progress line shows the
   * highest of those that came together (CBC's steps below the schedule
   * come by the dozen on small graphs) */
  const cover_out *shown = NULL;
  while (B->children.cov_taken < ready) {
    const cover_out *o = &B->children.cov->out[B->children.cov_taken++];
    if (best_cover_take(B, o)) shown = o;
  }
  if (shown)
    prog_line(&B->pr, "[%7.2fs] bound     TDI >= %.3f%% (%s%s)", best_elapsed(B),
              remat_tdi(B->r->base_duration, (double)(B->r->base_duration + shown->increase)),
              B->children.cov_any ? BEST_COVER_ANY_BY : cover_bound_name(shown),
              cover_bound_how(shown));
  best_at_bound(B);
  pthread_mutex_unlock(&B->mu);
}

/* With B->mu held: a lower bound lb from `by`, when higher than the one
 * so far: raised, printed, a proof when the best schedule is at it. */
static void best_new_bound(best *B, double lb, const char *by) {
  remat_result *r = B->r;
  if (r->has_bound && lb <= r->bound) return;
  B->proof.bound_by = by;
  if (best_raise_bound(B, lb) < 0) return;
  prog_line(&B->pr, "[%7.2fs] bound     TDI >= %.3f%% (%s)", best_elapsed(B),
            remat_tdi(r->base_duration, lb), by);
  best_at_bound(B);
}

void best_take_bound(best *B, double lb, const char *by) {
  pthread_mutex_lock(&B->mu);
  best_new_bound(B, lb, by);
  pthread_mutex_unlock(&B->mu);
}

/* The window bound's child has its share of the time limit (shares.h,
 * at least BEST_WINDOW_YIELD_MIN seconds) before it may yield (best.h). */
#define BEST_WINDOW_YIELD_MIN 2.0

static void best_window_yield(best *B) {
  long long seen = __atomic_load_n(&B->children.win_yield_ms, __ATOMIC_ACQUIRE), at = seen;
  if (at < 0) return;
  if (at == 0) { /* its first check: when the child has had its share */
    double wait = time_share(SHARE_WINDOW_YIELD) * B->p->time_limit;
    if (wait < BEST_WINDOW_YIELD_MIN) wait = BEST_WINDOW_YIELD_MIN;
    at = (long long)(1000 * (B->children.win_child.t0 - B->t0 + wait));
  }
  long long now = (long long)(1000 * best_elapsed(B));
  if (now < at ||
      !__atomic_compare_exchange_n(&B->children.win_yield_ms, &seen, now + 1000, 0,
                                   __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    return; /* another thread asks this time */
  pthread_mutex_lock(&B->mu);
  if (B->fits && B->proof.cover_lb > (double)(B->r->base_duration + B->children.win_seen)) {
    if (!child_yield(&B->children.win_child) && B->p->verbose >= 2)
      prog_line(&B->pr, "window bound: below the covering bound, its child yields its core");
    __atomic_store_n(&B->children.win_yield_ms, -1LL, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&B->mu);
}

void best_take_window(best *B) {
  best_window *w = B->children.win;
  if (!w) return;
  best_window_yield(B);
  long long inc = __atomic_load_n(&w->increase, __ATOMIC_ACQUIRE);
  int ready = __atomic_load_n(&w->ready, __ATOMIC_ACQUIRE);
  if (inc <= B->children.win_seen && (!ready || B->children.win_taken) &&
      !(B->proof.window && __atomic_load_n(&w->any_ready, __ATOMIC_ACQUIRE)))
    return;
  pthread_mutex_lock(&B->mu);
  remat_result *r = B->r;
  if (inc > B->children.win_seen && !B->children.win_taken) {
    B->children.win_seen = inc;
    best_new_bound(B, (double)(r->base_duration + inc), "window bound");
  }
  if (ready && !B->children.win_taken) {
    B->children.win_taken = 1;
    if (w->status == WBOUND_INFEASIBLE && B->fits) best_proof_wrong(B, "window bound");
    if (w->status == WBOUND_INFEASIBLE && !B->fits && !B->proven) {
      B->proven = 1;
      B->proof.cover = 1;
      B->proof.window = 1;
      B->done = 1;
    }
  }
  if (B->proof.window && __atomic_load_n(&w->any_ready, __ATOMIC_ACQUIRE))
    B->proof.window = w->any ? 2 : 1;
  pthread_mutex_unlock(&B->mu);
}

int best_interrupted(const best *B) { return B->p->stop && *B->p->stop; }

double best_child_grace(const best *B, double grace) {
  return B->proven || (B->p->stop && *B->p->stop == REMAT_HALT) ? 0 : grace;
}

int best_stopped(best *B) {
  best_take_cover(B);
  best_take_window(B);
  return B->done || B->internal || best_interrupted(B);
}

void best_error(best *B, const char *fmt, const char *detail) {
  pthread_mutex_lock(&B->mu);
  best_internal(B, fmt, detail);
  pthread_mutex_unlock(&B->mu);
}

int best_nothing_fits(const best *B) {
  return B->done && B->proven && !B->fits && !B->internal && !best_interrupted(B);
}

/* best_offer's test of C_v (best.h): 1 to offer seq, 0 to leave it, -1
 * outside the model.  Under B->mu (C_v may be raised meanwhile). */
static int best_copies_take(best *B, const int *seq, int len) {
  const remat_graph *g = B->g;
  int *c = B->r->copies;
  if (sim_within_copies(g, seq, len, c)) return 1;
  if (!B->raise_copies) return -1;
  size_t size = (size_t)(g->n ? g->n : 1) * sizeof *c;
  int *raised = util_malloc(size), rc = -1;
  memcpy(raised, c, size);
  sim_raise_copies(g, seq, len, raised);
  remat_sim sim;
  if (sim_within_copies(g, seq, len, raised) && !remat_simulate(g, seq, len, &sim, NULL))
    rc = sim.peak <= B->p->budget && !(B->fits && sim.duration >= B->r->duration);
  if (rc > 0) memcpy(c, raised, size);
  free(raised);
  return rc;
}

long long best_increase(const best *B) {
  return B->fits ? (long long)(B->r->duration - B->r->base_duration) : -1;
}

int best_offer(best *B, const int *seq, int len, int phase, const char *what) {
  pthread_mutex_lock(&B->mu);
  int rc = best_copies_take(B, seq, len);
  if (rc > 0) rc = remat_result_offer(B->r, B->g, seq, len, phase, best_elapsed(B));
  if (rc > 0) {
    const remat_result *r = B->r;
    B->fits = r->peak <= r->budget;
    B->version++;
    best_children *K = &B->children;
    if (K->win && B->fits) __atomic_store_n(&K->win->incumbent, best_increase(B), __ATOMIC_RELEASE);
    if (K->cov && B->fits) __atomic_store_n(&K->cov->incumbent, best_increase(B), __ATOMIC_RELEASE);
    prog_line(&B->pr, "[%7.2fs] %-9s peak %lld (%.1f%% of budget)  TDI %.2f%%%s",
              best_elapsed(B), what, (long long)r->peak,
              100.0 * (double)r->peak / (double)r->budget, r->tdi,
              r->recomputations ? "" : "  no recomputation");
    best_at_bound(B);
    if (B->p->on_improvement) B->p->on_improvement(B->p->improvement_ctx, seq, len);
  }
  pthread_mutex_unlock(&B->mu);
  return rc;
}

int *best_copy(best *B, int *len, long *version) {
  pthread_mutex_lock(&B->mu);
  int *seq = NULL;
  *len = 0;
  if (B->r->seq) {
    *len = B->r->len;
    seq = util_malloc((size_t)(*len ? *len : 1) * sizeof *seq);
    memcpy(seq, B->r->seq, (size_t)*len * sizeof *seq);
  }
  if (version) *version = B->version;
  pthread_mutex_unlock(&B->mu);
  return seq;
}

void best_status(best *B, int phase, const char *what, long long n) {
  pthread_mutex_lock(&B->mu);
  const remat_result *r = B->r;
  if (r->seq)
    prog_status(&B->pr, "[%7.2fs] phase %d  best peak %lld  TDI %.2f%%  %s %lld",
                best_elapsed(B), phase, (long long)r->peak, r->tdi, what, n);
  pthread_mutex_unlock(&B->mu);
}

void best_stats(best *B, const gz_stats *st) {
  pthread_mutex_lock(&B->mu);
  remat_result *r = B->r;
  r->nodes += st->nodes;
  r->fails += st->fails;
  r->restarts += st->searches;
  r->solutions += st->solutions;
  r->propagations += st->propagations;
  pthread_mutex_unlock(&B->mu);
}

void best_copies_raised(best *B, int n, const char *whose) {
  if (n <= 0) return;
  pthread_mutex_lock(&B->mu);
  prog_line(&B->pr,
            "[%7.2fs] copies    C_v raised on %d node%s to its copies in %s schedule within "
            "budget; claims speak of the raised C_v (the result's \"copies\")",
            best_elapsed(B), n, n == 1 ? "" : "s", whose);
  pthread_mutex_unlock(&B->mu);
}

int *best_raise_begin(best *B) {
  int n = B->g->n, *was = util_malloc((size_t)(n ? n : 1) * sizeof *was);
  pthread_mutex_lock(&B->mu);
  memcpy(was, B->r->copies, (size_t)n * sizeof *was);
  B->raise_copies = 1;
  pthread_mutex_unlock(&B->mu);
  return was;
}

void best_raise_end(best *B, int *was, const char *whose) {
  int raised = 0;
  pthread_mutex_lock(&B->mu);
  B->raise_copies = 0;
  for (int v = 0; v < B->g->n; v++) raised += B->r->copies[v] > was[v];
  pthread_mutex_unlock(&B->mu);
  best_copies_raised(B, raised, whose);
  free(was);
}

void best_verbose(best *B, const char *fmt, ...) {
  if (B->p->verbose < 2) return;
  char buf[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  pthread_mutex_lock(&B->mu);
  prog_line(&B->pr, "%s", buf);
  pthread_mutex_unlock(&B->mu);
}

/* ---------------------------------------------------------- best_io */

static int best_client_phase(const best_client *c) {
  return c->phase == BEST_FOLLOW ? (c->B->fits ? 2 : 1) : c->phase;
}

/* Stop: best_stopped, and a phase-1 worker once something fits. */
static int best_client_halt(void *ctx) {
  best_client *c = ctx;
  return best_stopped(c->B) || (c->phase == 1 && c->B->fits);
}

static int best_client_report(void *ctx, const int *seq, int len, const char *name) {
  best_client *c = ctx;
  best *B = c->B;
  int rc = best_offer(B, seq, len, best_client_phase(c), name);
  if (rc < 0) {
    best_error(B, c->phase == 0 ? "heuristic %s produced an invalid schedule"
                                : "%s produced an invalid schedule",
               name);
    return 1;
  }
  if (rc > 0) c->seen = B->version;
  return best_client_halt(c);
}

static int best_client_poll(void *ctx, int **seq, int *len) {
  best_client *c = ctx;
  best *B = c->B;
  if (B->version == c->seen) return 0;
  if (c->phase == 2 && !B->fits) return 0;
  *seq = best_copy(B, len, &c->seen);
  return *seq != NULL;
}

static void best_client_tick(void *ctx, long long count) {
  best_client *c = ctx;
  best_status(c->B, best_client_phase(c), c->unit, count);
}

worker_io best_io(best_client *c, unsigned seed) {
  return (worker_io){.report = best_client_report, .poll = best_client_poll,
                     .halt = best_client_halt, .tick = best_client_tick, .ctx = c,
                     .stop = c->B->p->stop, .seed = seed};
}
