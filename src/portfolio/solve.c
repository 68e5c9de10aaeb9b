/* solve.c -- remat_solve: the one place that chooses between the
 * stage-axis portfolio (portfolio.h), the search beyond the stage model
 * on the input order (solve_large.h) and the free-order search
 * (solve_free.h), which runs the first two on the orders it finds; where
 * the input order cannot reach the budget, whether another order can; and
 * the solve's default parameters. */
#include <stdio.h>
#include <string.h>

#include "model.h"
#include "order.h"
#include "portfolio.h"
#include "remat.h"
#include "solve_free.h"
#include "solve_large.h"

/* The order search's time when the input order ended above the budget:
 * this share of the time limit, at most SOLVE_HINT_MAX seconds. */
#define SOLVE_HINT_SHARE 0.02
#define SOLVE_HINT_MAX 1.0

void remat_solve_params_init(remat_solve_params *p) {
  *p = (remat_solve_params){.default_copies = 2, .time_limit = REMAT_TIME_LIMIT,
                            .seed = 1, .heuristics = 1, .lns = REMAT_LNS_AUTO,
                            .verbose = 1};
}

/* The input order ended above the budget, out of time or proven so for
 * its own sequences only: when an order without recomputation fits
 * (order.h, a short search), the message says that the free order
 * reaches the budget. */
static void solve_hint_free(const remat_graph *g, const remat_solve_params *p, remat_result *r) {
  int any = r->proof_covers == REMAT_COVERS_ANY_ORDER ||
            r->proof_covers == REMAT_COVERS_ANY_ORDER_COPIES;
  if (r->interrupted || (p->stop && *p->stop) || r->status == REMAT_STATUS_ERROR ||
      (r->status == REMAT_STATUS_INFEASIBLE && any) || !r->message[0])
    return;
  order_params op;
  order_params_init(&op);
  op.time_limit = p->time_limit * SOLVE_HINT_SHARE;
  if (op.time_limit > SOLVE_HINT_MAX) op.time_limit = SOLVE_HINT_MAX;
  if (op.time_limit < 0.01) op.time_limit = 0.01;
  op.stop = p->stop;
  op.seed = p->seed;
  order_result o;
  if (!order_solve(g, &op, &o) && o.order && o.peak <= r->budget) {
    size_t n = strlen(r->message);
    if (n < sizeof r->message)
      snprintf(r->message + n, sizeof r->message - n,
               "; the free order (--free-order) reaches it: an order without recomputation "
               "peaks at %lld",
               (long long)o.peak);
  }
  order_result_free(&o);
}

int remat_solve(const remat_graph *g, const remat_solve_params *p, remat_result *r) {
  if (p->free_order) return solve_free(g, p, r);
  int rc = g->n > MODEL_MAX_NODES ? solve_large(g, p, r) : portfolio_solve(g, p, r);
  if (rc == REMAT_ENOFIT) solve_hint_free(g, p, r);
  return rc;
}
