/* order_cost.h -- a lower bound on the duration that recomputation adds
 * to every sequence within M, whatever its order (free order), and with
 * any number of copies.
 *
 * Take v's first computation, at step s, and S the nodes computed before
 * s: S is down-closed, holds v's ancestors A_v and none of D_v (v and its
 * descendants), as in order_bound.h.  Each u in S with a successor outside
 * S is read at or after s: its copy is live at s (m_u in the memory at s),
 * or u is computed again after s (w_u more than the base duration); v's
 * inputs are live.  So every sequence within M adds at least
 *
 *   cost_v = min over S and X (X: those u computed again, not v's inputs)
 *            of the sum of w_u over X, with m_v + the live ones' m_u <= M.
 *
 * For every lambda >= 0 (weak duality), cost_v >= L_v(lambda) =
 *   lambda (m_v - M) + min over S of the sum, over u in S with a successor
 *   outside S, of min(w_u, lambda m_u) (lambda m_u for v's inputs),
 * a closure problem (order_closure_cut).  L_v is concave in lambda; the
 * bound is the largest L_v found over the nodes looked at and the lambdas
 * tried, each rounded down, so it holds whichever ones are looked at.  It
 * charges a single step and leaves out the inputs that a node computed
 * again needs then, so it is weak where many steps are over M. */
#ifndef REMAT_ORDER_COST_H
#define REMAT_ORDER_COST_H

#include <stdint.h>

#include "deadline.h"
#include "remat.h"

typedef struct order_cost_params {
  int64_t budget;     /* M (required) */
  deadline deadline;  /* when to stop (DEADLINE_NONE) */
  volatile int *stop; /* stop when nonzero (NULL) */
  const int *order;   /* a known order (NULL: the input order): nodes are
                         looked at by decreasing memory at their step in
                         it, those at or below M never (their cost_v is 0) */
  int lambdas;        /* lambdas tried per node, at least 3 (32) */
} order_cost_params;

void order_cost_params_init(order_cost_params *p);

typedef struct order_cost_out {
  int64_t bound;   /* duration added to the base by every sequence within M */
  int node;        /* the node v where it is reached (-1: bound 0) */
  int complete;    /* every node above M in the order was looked at */
  int nodes, cuts; /* nodes looked at, closure problems solved */
  double seconds;
} order_cost_out;

/* Compute the bound into out; returns out->bound (0 when nothing shows
 * more).  Graphs where some node cannot be computed within M at all
 * (m_v plus its inputs above M) are remat_result_precheck's to report;
 * their bound here is 0. */
int64_t order_cost_run(const remat_graph *g, const order_cost_params *p, order_cost_out *out);

#endif
