/* solve_free.c -- remat_solve in free order (remat_solve_params.free_order):
 * the shortest schedule within M over every sequence that computes each
 * node at least once and at most C_v times, whatever its order (the
 * paper's Sections 2.1-2.2; the input order is only a starting point).
 *
 *   bounds  max_v holds in any order (remat_result_precheck);
 *   order   a minimum-peak order without recomputation (order.h); when
 *           one fits M, its duration, the base one, is optimal;
 *   stages  the stage-axis portfolio (remat_solve) on the graph renumbered
 *           in that order, whose schedules are schedules of g; when the
 *           input order is a minimum-peak order, on the input order;
 *   free CP on small graphs, the free-order model (model_free.c) in the
 *           CP worker, from the best schedule: its complete searches prove
 *           optimality or infeasibility in free order;
 *   end     the status; a proof says that it covers free order.
 * Every schedule goes to one shared best (best.h) on g. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "best.h"
#include "free_exact.h"
#include "graph.h"
#include "order.h"
#include "remat.h"
#include "seeds.h"
#include "sim.h"
#include "solve_free.h"
#include "util.h"
#include "worker_cp.h"

/* The order search's share of the time limit (it stops as soon as an
 * order fits the budget), and the free CP's on graphs of at most
 * SFREE_CP_COPIES copies, where its complete searches can end. */
#define SFREE_ORDER_SHARE 0.25
#define SFREE_CP_SHARE 0.5
#define SFREE_CP_COPIES 40
/* The exact search's share of the time left, on graphs small enough. */
#define SFREE_EXACT_SHARE 0.5

typedef struct sfree {
  best B;
  volatile int order_stop; /* the order search found an order that fits */
  int input_minimal;       /* the input order is a minimum-peak order */
  int stages_optimal;      /* the stage-axis search proved its optimum */
  int *perm;               /* node i of the renumbered graph is perm[i] */
} sfree;

/* C_v per node in free order: as given (default where 0), at least 1, one
 * for a sink (a recomputed sink is never read). */
static int *sfree_copies(const remat_graph *g, const remat_solve_params *p) {
  int *c = util_malloc((size_t)g->n * sizeof *c);
  for (int v = 0; v < g->n; v++) {
    int cv = p->copies && p->copies[v] > 0 ? p->copies[v] : p->default_copies;
    if (cv < 1) cv = 1;
    if (graph_nsucc(g, v) == 0) cv = 1;
    c[v] = cv;
  }
  return c;
}

static void sfree_order_event(void *ctx, const order_event *e) {
  sfree *F = ctx;
  if (e->peak <= F->B.p->budget) F->order_stop = 1;
  if (F->B.p->stop && *F->B.p->stop) F->order_stop = 1;
}

/* A minimum-peak order (or the best found in its share of the time),
 * offered to the best; the graph renumbered in it (NULL: the input order
 * is as good). */
static remat_graph *sfree_order(sfree *F) {
  best *B = &F->B;
  const remat_graph *g = B->g;
  order_params op;
  order_params_init(&op);
  op.time_limit = best_left(B) * SFREE_ORDER_SHARE;
  if (op.time_limit < 0.01) op.time_limit = 0.01;
  op.stop = &F->order_stop;
  op.seed = B->p->seed;
  op.progress = sfree_order_event;
  op.progress_ctx = F;
  order_result o;
  if (order_solve(g, &op, &o)) {
    best_error(B, "%s", "an order failed re-simulation");
    order_result_free(&o);
    return NULL;
  }
  F->input_minimal = o.lower >= o.input_peak;
  if (F->input_minimal)
    prog_line(&B->pr, "[%7.2fs] order     the input order is a minimum-peak order "
                      "(no order without recomputation peaks below %lld)",
              best_elapsed(B), (long long)o.input_peak);
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

/* The stage-axis search's improvements, back in g's numbering. */
static void sfree_stage_found(void *ctx, const int *seq, int len) {
  sfree *F = ctx;
  const int *perm = F->perm;
  int *back = util_malloc((size_t)(len ? len : 1) * sizeof *back);
  for (int i = 0; i < len; i++) back[i] = perm ? perm[seq[i]] : seq[i];
  if (best_offer(&F->B, back, len, 2, "stages") < 0)
    best_error(&F->B, "%s", "the stage-axis search produced a schedule outside C_v");
  free(back);
}

/* The stage-axis portfolio on h (g renumbered; NULL: g itself) until
 * `end` (elapsed seconds). */
static void sfree_stages(sfree *F, const remat_graph *h, double end) {
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
  p.warm_seq = NULL;
  p.warm_len = 0;
  p.verbose = p.verbose > 1 ? 1 : 0;
  p.on_improvement = sfree_stage_found;
  p.improvement_ctx = F;
  remat_result r;
  remat_result_init(&r, on, p.budget, "cp");
  int rc = remat_solve(on, &p, &r);
  if (rc == REMAT_EINTERNAL) best_error(B, "stage-axis search: %s", r.message);
  F->stages_optimal = r.status == REMAT_STATUS_OPTIMAL && !(r.message[0]);
  if (r.has_bound)
    best_verbose(B, "stage-axis search: lower bound %.0f (for its order's stages only)", r.bound);
  remat_result_free(&r);
  free(copies);
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
  xp.time_limit = best_left(B) * SFREE_EXACT_SHARE;
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
  cpw C;
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
  if (B->fits && B->proven) {
    r->status = REMAT_STATUS_OPTIMAL;
    r->has_bound = 1;
    r->bound = (double)r->duration;
    if (!r->recomputations)
      snprintf(r->message, sizeof r->message,
               "optimal: an order without recomputation fits (the base duration)");
    else
      snprintf(r->message, sizeof r->message,
               "optimal over every sequence in free order with at most C_v copies per node");
  } else if (B->fits) {
    r->status = REMAT_STATUS_FEASIBLE;
    if (F->input_minimal && F->stages_optimal)
      snprintf(r->message, sizeof r->message,
               "optimal on the input order's stages; the input order is a minimum-peak "
               "order (free order not proven)");
  } else if (B->proven) {
    r->status = REMAT_STATUS_INFEASIBLE;
    snprintf(r->message, sizeof r->message,
             "proven infeasible: no sequence in free order with at most C_v copies per "
             "node fits %lld; best peak %lld",
             M, peak);
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
  best *B = &F.B;
  best_init(B, g, p, r);
  r->free_order = 1;
  r->budget = p->budget;
  int rc = remat_result_precheck(r, g);
  if (!rc) {
    r->copies = sfree_copies(g, p);
    if (!seeds_input_order(B)) {
      remat_graph *h = sfree_order(&F);
      if (!B->fits && !best_stopped(B)) sfree_exact(&F);
      if (!B->fits && !B->proven && !best_stopped(B)) {
        model probe;
        char err[256];
        int small = 0;
        if (!model_build_free(&probe, g, 1, p->budget, r->copies, 1, err, sizeof err)) {
          small = probe.ncopy <= SFREE_CP_COPIES;
          model_free(&probe);
        }
        double end = p->time_limit;
        if (small) end = best_elapsed(B) + best_left(B) * (1 - SFREE_CP_SHARE);
        sfree_stages(&F, h, end);
        if (!best_stopped(B) && !(F.input_minimal && F.stages_optimal) && small)
          sfree_cp(&F);
      } else if (B->fits && !B->proven) {
        B->proven = 1; /* no recomputation: the base duration */
      }
      remat_graph_free(h);
    }
    if (B->internal) {
      snprintf(r->message, sizeof r->message, "internal error: %.480s", B->errmsg);
      rc = REMAT_EINTERNAL;
    } else {
      sfree_status(&F);
      rc = B->fits ? REMAT_OK : REMAT_ENOFIT;
    }
  }
  free(F.perm);
  prog_done(&B->pr);
  r->t_total = best_elapsed(B);
  r->interrupted = best_interrupted(B);
  best_free(B);
  return rc;
}
