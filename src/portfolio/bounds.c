/* bounds.c -- the solve's lower bounds (bounds.h). */
#include "bounds.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "closure.h"
#include "cover_free.h"
#include "milp_model.h"
#include "order_cost.h"
#include "pebble.h"
#include "result.h"
#include "shares.h"
#include "sim.h"
#include "util.h"

/* The pebbling proof's cap on its share (shares.h): it settles narrow
 * graphs (the networks' blocks) in milliseconds and wide ones never; the
 * order cost bound's. */
#define BOUNDS_PEBBLE_MAX 1.0
#define BOUNDS_COST_MAX 5.0

void bounds_pebble(best *B) {
  if (!B->p->heuristics || best_stopped(B)) return;
  pebble_params pp;
  pebble_params_init(&pp);
  double seconds = B->p->time_limit * time_share(SHARE_PEBBLE);
  pp.deadline = deadline_in(seconds < BOUNDS_PEBBLE_MAX ? seconds : BOUNDS_PEBBLE_MAX);
  pp.stop = B->p->stop;
  pebble_out o;
  pebble_check(B->g, B->p->budget, &pp, &o);
  best_verbose(B, "pebbling proof: %s, %zu sets, %.2fs",
               o.status == PEBBLE_INFEASIBLE ? "a node no sequence computes within M"
               : o.complete                  ? "every node can be computed within M"
                                             : "gave up",
               o.sets, o.seconds);
  if (o.status != PEBBLE_INFEASIBLE) return;
  B->proof.pebble_node = o.node;
  B->proven = 1;
  B->done = 1;
}

static void bounds_cover_any_start(best *B);

void bounds_order_cost(best *B, const int *order) {
  if (B->p->order_cost > 0) { /* the caller's (free order's bounds) */
    B->proof.order_lb = (double)(B->r->base_duration + B->p->order_cost);
    B->proof.order_by = "bound over every order";
    best_take_bound(B, B->proof.order_lb, B->proof.order_by);
    return;
  }
  if (!B->p->heuristics || best_stopped(B)) return;
  order_cost_params cp;
  order_cost_params_init(&cp);
  cp.budget = B->p->budget;
  cp.stop = B->p->stop;
  cp.order = order;
  double seconds = best_left(B) * time_share(SHARE_ORDER_COST);
  if (seconds > BOUNDS_COST_MAX) seconds = BOUNDS_COST_MAX;
  if (seconds < 0.01) seconds = 0.01;
  cp.deadline = deadline_in(seconds);
  order_cost_out o;
  order_cost_run(B->g, &cp, &o);
  best_verbose(B, "order cost bound: %lld over %d nodes (%d cuts, %s), %.2fs", (long long)o.bound,
               o.nodes, o.cuts, o.complete ? "complete" : "stopped", o.seconds);
  if (o.bound > 0) {
    B->proof.order_lb = (double)(B->r->base_duration + o.bound);
    B->proof.order_by = BOUNDS_COST_BY;
    best_take_bound(B, B->proof.order_lb, BOUNDS_COST_BY);
  }
  if (B->p->free_order && !B->fits && !best_stopped(B)) bounds_cover_any_start(B);
}

/* In the covering bound's child: an answer for the parent (the answers
 * so far first, when stronger problems follow), unless it is the last
 * one again. */
static void bounds_cover_answer(void *ctx, const cover_out *o) {
  best_cover *c = ctx;
  int k = c->ready;
  if (k >= BEST_COVER_ANSWERS) return;
  if (k && o->status == c->out[k - 1].status && o->increase == c->out[k - 1].increase) return;
  c->out[k] = *o;
  __atomic_store_n(&c->ready, k + 1, __ATOMIC_RELEASE);
}

static int64_t bounds_cover_incumbent(void *ctx) {
  best_cover *c = ctx;
  return __atomic_load_n(&c->incumbent, __ATOMIC_ACQUIRE);
}

static void bounds_cover_child(void *ctx) {
  best *B = ctx;
  cover_params cp;
  cover_params_init(&cp);
  cp.budget = B->p->budget;
  cp.copies = B->r->copies;
  /* with the recomputing steps' rows: where they do not end (ResNet50's
   * training graph), they take the child's time, not the workers' */
  cp.inputs = 2;
  /* a quarter of the time (it takes a core from the workers), at least
   * 1 s or half of a shorter limit: the plain problem takes milliseconds
   * to seconds, the rest goes to the one with the inputs' rows, which
   * needs seconds on a few hundred layered nodes, a minute on a thousand
   * at 0.8 (bench/RESULTS.md#design-choices and
   * #cover-inputs-rows) */
  double T = B->p->time_limit, t = time_share(SHARE_COVER) * T;
  double short_t = time_share(SHARE_COVER_SHORT) * T;
  if (t < 1) t = short_t < 1 ? short_t : 1;
  cp.time_limit = t;
  /* the recomputing steps' problem may need minutes to say more, whole
   * (its CBC) or built lazily (its LP's rounds, each bound taken as it
   * comes), so it runs until the solve ends
   * (bench/RESULTS.md#cover-steps-lazy and #cover-steps-until-end) */
  cp.steps_time_limit = T;
  child_deadline(t + 2); /* whatever CBC does */
  cp.plain_done = bounds_cover_answer;
  cp.incumbent_now = bounds_cover_incumbent;
  cp.ctx = B->children.cov;
  cover_out o;
  cover_solve(B->g, &cp, &o);
  bounds_cover_answer(B->children.cov, &o);
}

void bounds_cover_start(best *B) {
  if (!B->p->heuristics) return;
  B->children.cov = child_shared(sizeof *B->children.cov);
  B->children.cov->incumbent = best_increase(B);
  child_start(&B->children.cov_child, bounds_cover_child, B);
}

/* Beyond the stage model: the closure bound (closure.h) at the input
 * order's step of highest memory alone, one LP of about twice the live
 * values' columns (seconds at tens of thousands of nodes), in a child for
 * its share of the time left; its answer is taken as the covering bound's
 * (best_take_cover). */
static void bounds_closure_child(void *ctx) {
  best *B = ctx;
  const remat_graph *g = B->g;
  cover_params cp;
  cover_params_init(&cp);
  cp.budget = B->p->budget;
  cp.copies = B->r->copies;
  cp.closure_steps = 1;
  child_deadline(B->children.cov_limit + 1); /* whatever Clp does */
  int64_t *load = sim_topo_loads(g);
  cover_out o;
  closure_solve(g, &cp, load, B->children.cov_limit, &o);
  free(load);
  bounds_cover_answer(B->children.cov, &o);
}

void bounds_closure_start(best *B) {
  if (!B->p->heuristics) return;
  B->children.cov = child_shared(sizeof *B->children.cov);
  B->children.cov_limit = time_share(SHARE_LARGE_CLOSURE) * best_left(B);
  child_start(&B->children.cov_child, bounds_closure_child, B);
}

/* The covering bound over every order has its share of the time left
 * (shares.h; at least BOUNDS_COVER_ANY_MIN seconds): its problem is small where it
 * is built at all (cover_free.h), and CBC solves it in a fraction of a
 * second on the training graphs. */
#define BOUNDS_COVER_ANY_MIN 1.0

static void bounds_cover_any_child(void *ctx) {
  best *B = ctx;
  cover_params cp;
  cover_params_init(&cp);
  cp.budget = B->p->budget;
  cp.any_order = 1; /* any number of copies: it holds whatever C_v becomes */
  cp.time_limit = B->children.cov_limit;
  child_deadline(cp.time_limit + 1); /* whatever CBC does */
  cp.plain_done = bounds_cover_answer; /* the plain problem's answer at once */
  cp.ctx = B->children.cov;
  cover_out o;
  cover_solve(B->g, &cp, &o);
  bounds_cover_answer(B->children.cov, &o);
}

/* In free order: the covering bound over every order (cover_free.h, any
 * number of copies) in a child, as bounds_cover_start does; its bounds
 * raise B->proof.order_lb (best.h, cov_any).  Not above COVF_MAX_NODES nodes. */
static void bounds_cover_any_start(best *B) {
  if (!B->p->heuristics || B->g->n > COVF_MAX_NODES) return;
  B->children.cov = child_shared(sizeof *B->children.cov);
  B->children.cov_any = 1;
  double t = time_share(SHARE_COVER_ANY) * best_left(B);
  B->children.cov_limit = t > BOUNDS_COVER_ANY_MIN ? t : BOUNDS_COVER_ANY_MIN;
  child_start(&B->children.cov_child, bounds_cover_any_child, B);
}

/* While the search waits for the covering bound's child: stop it on
 * Ctrl-C, or once its answers prove the best schedule. */
static int bounds_cover_halt(void *ctx) {
  best *B = ctx;
  best_take_cover(B);
  return best_interrupted(B) || B->proven;
}

/* The covering bound over every order may still prove the best schedule
 * optimal when the search ends before it answers (its stronger problem,
 * with the inputs' rows, takes seconds): its child then keeps the time it
 * was given, within the time limit; not after Ctrl-C. */
void bounds_cover_end(best *B) {
  if (!B->children.cov) return;
  double wait = 0;
  if (B->children.cov_any && B->fits && !B->proven && !best_interrupted(B)) {
    wait = B->children.cov_child.t0 + B->children.cov_limit - util_now();
    if (wait > best_left(B)) wait = best_left(B);
    if (wait < 0) wait = 0;
  }
  child *c = &B->children.cov_child;
  child_wait(c, util_now() - c->t0 + wait, best_child_grace(B, 0.1), bounds_cover_halt, B, NULL);
  best_take_cover(B);
  child_shared_free(B->children.cov, sizeof *B->children.cov);
  B->children.cov = NULL;
}

/* In the window bound's child: each higher bound, at once. */
static void bounds_window_raised(void *ctx, int64_t increase) {
  best_window *w = ctx;
  __atomic_store_n(&w->increase, (long long)increase, __ATOMIC_RELEASE);
}

static int64_t bounds_window_incumbent(void *ctx) {
  best_window *w = ctx;
  return __atomic_load_n(&w->incumbent, __ATOMIC_ACQUIRE);
}

/* Seconds the window bound may take to say whether more copies help. */
#define BOUNDS_ANY_WAIT 2.0

static void bounds_window_child(void *ctx) {
  best *B = ctx;
  const remat_result *r = B->r;
  wbound_params wp;
  wbound_params_init(&wp);
  wp.budget = B->p->budget;
  wp.copies = r->copies;
  wp.incumbent = best_increase(B);
  /* it stops itself before the workers do, so that its last bound is
   * taken */
  double t = B->p->time_limit - best_elapsed(B) - 0.5;
  wp.time_limit = t > 0.1 ? t : 0.1;
  wp.on_bound = bounds_window_raised;
  wp.incumbent_now = bounds_window_incumbent;
  wp.ctx = B->children.win;
  child_deadline(wp.time_limit + BOUNDS_ANY_WAIT + 1); /* whatever CBC does */
  wbound_out o;
  wbound_solve(B->g, &wp, &o);
  best_window *w = B->children.win;
  w->status = o.status;
  w->rounds = o.rounds;
  w->seconds = o.seconds;
  if (o.status == WBOUND_OPTIMAL || o.status == WBOUND_BOUND)
    __atomic_store_n(&w->increase, (long long)o.increase, __ATOMIC_RELEASE);
  wbound_out_free(&o);
  __atomic_store_n(&w->ready, 1, __ATOMIC_RELEASE);
  if (o.status != WBOUND_INFEASIBLE || !r->copies) return;
  /* nothing fits with C_v copies: with any number?  (the parent waits a
   * little for this answer, bounds_window_end) */
  wp.copies = NULL;
  wp.incumbent = -1;
  wp.incumbent_now = NULL;
  wp.on_bound = NULL;
  wp.time_limit = BOUNDS_ANY_WAIT;
  w->any = wbound_solve(B->g, &wp, &o) == WBOUND_INFEASIBLE;
  wbound_out_free(&o);
  __atomic_store_n(&w->any_ready, 1, __ATOMIC_RELEASE);
}

void bounds_window_start(best *B) {
  /* below 2 s its models would not be solved, and stopping CBC's root LP
   * costs a fraction of a second */
  if (!B->p->heuristics || B->done || best_left(B) < 2) return;
  B->children.win = child_shared(sizeof *B->children.win);
  B->children.win->incumbent = best_increase(B);
  child_start(&B->children.win_child, bounds_window_child, B);
}

void bounds_window_end(best *B) {
  if (!B->children.win) return;
  best_take_window(B);
  double wait = 0;
  if (B->proof.window == 1 && !__atomic_load_n(&B->children.win->any_ready, __ATOMIC_ACQUIRE))
    wait = util_now() - B->children.win_child.t0 + BOUNDS_ANY_WAIT;
  /* (its last answer, when waited for, keeps the usual grace) */
  double grace = wait > 0 ? 1.0 : best_child_grace(B, 1.0);
  child_wait(&B->children.win_child, wait, grace, NULL, NULL, NULL);
  best_take_window(B);
  child_shared_free(B->children.win, sizeof *B->children.win);
  B->children.win = NULL;
}

void bounds_lp(best *B) {
  remat_result *r = B->r;
  const remat_solve_params *p = B->p;
  if (B->proven || p->lp_time <= 0 || best_interrupted(B)) return;
  char err[256];
  double lp = 0, t = best_elapsed(B);
  int st = milp_lp_bound(B->g, p->budget, p->lp_time, p->stop, &lp, err, sizeof err);
  double base = (double)r->base_duration;
  if (st == 0) {
    double lb = lp < base ? base : lp; /* rounded down (milp_lp_bound) */
    if (!r->has_bound || lb > r->bound) B->proof.bound_by = "LP bound";
    if (best_raise_bound(B, lb) < 0) return;
    if (B->fits && (double)r->duration <= lb) {
      r->status = REMAT_STATUS_OPTIMAL;
      r->proof_covers = REMAT_COVERS_STAGES; /* the LP's model */
      r->message[0] = 0;
    }
    prog_line(&B->pr, "[%7.2fs] LP bound  duration >= %.0f (TDI >= %.3f%%) in %.2fs%s",
              best_elapsed(B), lb, remat_tdi(r->base_duration, lb), best_elapsed(B) - t,
              r->status == REMAT_STATUS_OPTIMAL ? ": optimal" : "");
  } else if (st == 1 && !B->fits) {
    result_infeasible(r, REMAT_COVERS_STAGES, "the LP relaxation", NULL);
  } else {
    prog_line(&B->pr, "[%7.2fs] LP bound  none: %s", best_elapsed(B),
              st == -2 ? err : milp_lp_status_name(st));
  }
}

/* w_a / d_a < w_b / d_b, for qsort_r's order by cost per rounded quantum. */
static int bounds_ratio_cmp(const void *a, const void *b, void *ctx) {
  const int64_t *wd = ctx; /* w_v, dur'_v pairs */
  int u = *(const int *)a, v = *(const int *)b;
  __int128 l = (__int128)wd[2 * u] * wd[2 * v + 1], r = (__int128)wd[2 * v] * wd[2 * u + 1];
  return l < r ? -1 : l > r;
}

double bounds_rounded(const remat_graph *g, const model *md, long long units) {
  int n = g->n, k = 0;
  int *ord = util_malloc((size_t)(n ? n : 1) * sizeof *ord);
  int64_t *wd = util_malloc((size_t)(2 * n + 1) * sizeof *wd);
  for (int v = 0; v < n; v++) {
    wd[2 * v] = g->w[v];
    wd[2 * v + 1] = md->dur[v];
    if (md->dur[v] > 0 && md->first[v + 1] - md->first[v] > 1) ord[k++] = v;
  }
  qsort_r(ord, (size_t)k, sizeof *ord, bounds_ratio_cmp, wd);
  __int128 need = units, extra = 0;
  for (int i = 0; i < k && need > 0; i++) {
    int v = ord[i];
    __int128 d = md->dur[v], most = md->first[v + 1] - md->first[v] - 1;
    if (most * d <= need) {
      extra += most * g->w[v];
      need -= most * d;
    } else { /* a fraction need / d of one more: its cost, rounded up */
      extra += (need * g->w[v] + d - 1) / d;
      need = 0;
    }
  }
  free(ord);
  free(wd);
  return (double)(remat_graph_base_duration(g) + (int64_t)extra);
}
