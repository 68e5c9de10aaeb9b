/* order.c -- order_solve (order.h): the phases in turn, the best order
 * and the best bound kept, every order re-simulated at the end. */
#include "order.h"

#include <stdlib.h>
#include <string.h>

#include "order_bound.h"
#include "order_dfs.h"
#include "order_exact.h"
#include "order_heur.h"
#include "order_walk.h"
#include "order_window.h"
#include "util.h"

void order_params_init(order_params *p) {
  *p = (order_params){.time_limit = REMAT_TIME_LIMIT, .seed = 1, .exact = 1,
                      .exact_max_nodes = 20000, .exact_max_bytes = (size_t)512 << 20,
                      .beam_max_nodes = 20000};
}

const char *order_open_name(order_open o) {
  switch (o) {
  case ORDER_OPEN_TIME: return "out of time";
  case ORDER_OPEN_MEMORY: return "the exact search's table is full";
  case ORDER_OPEN_SIZE: return "too many nodes for the exact search";
  case ORDER_OPEN_OFF: return "no exact search";
  case ORDER_OPEN_STOP: return "interrupted";
  default: return "";
  }
}

typedef struct ord_run {
  const remat_graph *g;
  const order_params *p;
  order_result *r;
  double t0;
  deadline deadline;
  const char *phase;
} ord_run;

static double ord_now(const ord_run *R) { return util_now() - R->t0; }

static int ord_halt(const ord_run *R) {
  return (R->p->stop && *R->p->stop) || deadline_passed(R->deadline);
}

static void ord_event(ord_run *R) {
  if (!R->p->progress) return;
  order_event e = {R->phase, R->r->peak, R->r->lower, ord_now(R)};
  R->p->progress(R->p->progress_ctx, &e);
}

/* Keep ord when its peak is lower than the best. */
static void ord_offer(ord_run *R, const int *ord, int64_t peak) {
  if (peak >= R->r->peak) return;
  memcpy(R->r->order, ord, (size_t)R->g->n * sizeof *ord);
  R->r->peak = peak;
  R->r->found_by = R->phase;
  R->r->t_best = ord_now(R);
  ord_event(R);
}

static void ord_improved(void *ctx, const int *ord, int64_t peak) {
  ord_offer(ctx, ord, peak);
}

static int ord_done(const ord_run *R) {
  return R->r->peak <= R->r->lower || ord_halt(R);
}

static void ord_bound(ord_run *R) {
  double t = util_now();
  order_bound_params bp;
  order_bound_params_init(&bp);
  bp.order = R->r->order;
  bp.stop = R->p->stop;
  bp.deadline = deadline_limit(util_now(), 0.25 * R->p->time_limit);
  order_bound_out bo;
  order_bound_run(R->g, &bp, &bo);
  R->r->bound = bo.bound;
  R->r->bound_complete = bo.complete;
  if (bo.bound > R->r->lower) R->r->lower = bo.bound;
  R->r->t_bound = util_now() - t;
  R->phase = "bound";
  ord_event(R);
}

static void ord_heuristics(ord_run *R, int *ord) {
  const remat_graph *g = R->g;
  double t = util_now();
  R->phase = "greedy";
  for (int rule = 0; rule < 2 && !ord_done(R); rule++)
    ord_offer(R, ord, order_heur_greedy(g, (order_heur_rule)rule, NULL, ord));
  R->phase = "beam";
  /* widths 16, 64, ... 1024 while the next (about 4 times as long) fits
   * in a twentieth of the time left: the later phases gain more from the
   * time than wider beams */
  for (int w = 16; w <= 1024 && g->n <= R->p->beam_max_nodes && !ord_done(R) &&
                  (double)g->n * w <= 8e6; /* its trail: 8 n w bytes */
       w *= 4) {
    double start = util_now();
    order_heur_beam_params bp;
    order_heur_beam_params_init(&bp);
    bp.width = w;
    bp.deadline = R->deadline;
    bp.stop = R->p->stop;
    int64_t pk = order_heur_beam(g, &bp, ord);
    if (pk < 0) break;
    R->r->beam_width = w;
    ord_offer(R, ord, pk);
    double took = util_now() - start;
    if (4 * took > 0.05 * deadline_left(R->deadline)) break;
  }
  R->r->t_heur = util_now() - t;
}

static void ord_exact(ord_run *R, int *ord) {
  const remat_graph *g = R->g;
  if (!R->p->exact) {
    R->r->open = ORDER_OPEN_OFF;
    return;
  }
  double t = util_now();
  R->phase = "exact";
  order_exact_params ep;
  order_exact_params_init(&ep);
  ep.lower = R->r->lower;
  ep.deadline = deadline_halfway(t, R->deadline);
  ep.stop = R->p->stop;
  ep.max_bytes = R->p->exact_max_bytes;
  ep.max_nodes = R->p->exact_max_nodes;
  ep.improved = ord_improved;
  ep.ctx = R;
  memcpy(ord, R->r->order, (size_t)g->n * sizeof *ord);
  order_exact_out eo;
  order_exact_run(g, &ep, ord, &eo);
  ord_offer(R, ord, eo.peak);
  if (eo.lower > R->r->lower) {
    R->r->lower = eo.lower;
    ord_event(R);
  }
  R->r->open = eo.why == ORDER_EXACT_DONE     ? ORDER_OPEN_NONE
               : eo.why == ORDER_EXACT_MEMORY ? ORDER_OPEN_MEMORY
               : eo.why == ORDER_EXACT_SIZE   ? ORDER_OPEN_SIZE
               : eo.why == ORDER_EXACT_STOP   ? ORDER_OPEN_STOP
                                              : ORDER_OPEN_TIME;
  R->r->states = eo.states;
  R->r->forced = eo.forced;
  R->r->pruned = eo.pruned;
  R->r->memo_sets = eo.memo_sets;
  R->r->memo_bytes = eo.memo_bytes;
  R->r->t_exact = util_now() - t;
}

/* Window runs until the deadline, each ending after 16 kicks without a
 * better order: from the heuristics' best order (the exact search's orders
 * sit tight under their threshold, with little room to move) and from the
 * best order in turn. */
static void ord_window(ord_run *R, int *ord, const int *heur) {
  const remat_graph *g = R->g;
  double t = util_now();
  R->phase = "window";
  order_dfs D;
  order_dfs_init(&D, g, (size_t)64 << 20, 10000000);
  for (int run = 0; !ord_done(R); run++) {
    order_window_params wp;
    order_window_params_init(&wp);
    wp.deadline = R->deadline;
    wp.stop = R->p->stop;
    wp.seed = ((uint64_t)R->p->seed << 20) + (uint64_t)run + 1;
    wp.max_kicks = 16;
    wp.improved = ord_improved;
    wp.ctx = R;
    memcpy(ord, run % 2 ? R->r->order : heur, (size_t)g->n * sizeof *ord);
    order_window_out wo;
    order_window_run(g, &D, &wp, ord, &wo);
    R->r->windows += wo.windows;
    R->r->windows_solved += wo.solved;
    R->r->kicks += wo.kicks;
  }
  order_dfs_free(&D);
  R->r->t_window = util_now() - t;
}

int order_solve(const remat_graph *g, const order_params *p, order_result *r) {
  memset(r, 0, sizeof *r);
  int n = g->n;
  ord_run R = {g, p, r, util_now(), DEADLINE_NONE, "start"};
  R.deadline = deadline_limit(R.t0, p->time_limit);
  r->n = n;
  r->order = util_malloc((size_t)(n ? n : 1) * sizeof *r->order);
  for (int i = 0; i < n; i++) r->order[i] = p->start ? p->start[i] : i;
  if (!order_walk_valid(g, r->order)) return REMAT_EUSAGE;
  r->found_by = "start";
  r->peak = r->input_peak = order_walk_peak(g, r->order, NULL);
  r->lower = remat_graph_min_peak(g);
  r->open = ORDER_OPEN_TIME;
  int *ord = util_malloc((size_t)(n ? n : 1) * sizeof *ord);
  ord_bound(&R);
  if (!ord_done(&R)) ord_heuristics(&R, ord);
  int *heur = util_malloc((size_t)(n ? n : 1) * sizeof *heur);
  memcpy(heur, r->order, (size_t)n * sizeof *heur);
  if (!ord_done(&R)) ord_exact(&R, ord);
  if (!ord_done(&R)) ord_window(&R, ord, heur);
  free(heur);
  free(ord);
  r->optimal = r->peak <= r->lower;
  if (r->optimal) r->open = ORDER_OPEN_NONE;
  r->interrupted = p->stop && *p->stop;
  if (r->interrupted && !r->optimal) r->open = ORDER_OPEN_STOP;
  r->seconds = ord_now(&R);
  remat_sim s;
  if (remat_simulate(g, r->order, n, &s, NULL) || s.recomputations ||
      s.peak != r->peak)
    return REMAT_EINTERNAL;
  return 0;
}

void order_result_free(order_result *r) {
  free(r->order);
  r->order = NULL;
}
