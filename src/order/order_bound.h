/* order_bound.h -- lower bounds on the peak of every order without
 * recomputation.
 *
 * For a node v, let D_v be v and its descendants and A_v its ancestors.
 * Any order computes A_v before v and D_v from v on, so with S the set
 * computed before v (a down-closed set, A_v in S, D_v outside), the memory
 * at v's step is m_v + F(S), F(S) = sum of m_u over u in S with a successor
 * outside S.
 *
 *   ancestor bound  a_v = m_v + sum of m_u over u in A_v with a successor
 *                   in D_v (those are live at v's step whatever S is);
 *   closure bound   c_v = m_v + min F(S) over all such S: a minimum cut
 *                   (a closure problem on the nodes neither in A_v nor in
 *                   D_v), computed exactly in 64 bits.
 *
 * a_v <= c_v <= the memory at v's step in any order, and max over v of
 * either is a lower bound on every order's peak.  The per-node masks are
 * built 64 nodes at a time (one pass over the edges per batch). */
#ifndef REMAT_ORDER_BOUND_H
#define REMAT_ORDER_BOUND_H

#include "deadline.h"
#include "remat.h"

typedef struct order_bound_params {
  deadline deadline;  /* when to stop (DEADLINE_NONE) */
  volatile int *stop; /* stop when nonzero (NULL) */
  int closure;        /* 1: the closure bound, 0: the ancestor bound (1) */
  const int *order;   /* a known order (or NULL, the input order): the
                         memory at v's step in it bounds c_v from above,
                         so nodes where it is no more than the bound so
                         far are skipped (the result stays complete) */
} order_bound_params;

void order_bound_params_init(order_bound_params *p);

typedef struct order_bound_out {
  int64_t bound;    /* max over the nodes looked at: valid for every order */
  int node;         /* a node where it is reached (-1 for an empty graph) */
  int complete;     /* 1: bound is the max over every node */
  int evaluated;    /* nodes whose masks were built */
  int flows;        /* minimum cuts solved */
  double seconds;
} order_bound_out;

/* Compute the bound; nodes are taken by decreasing memory at their step in
 * p->order until that memory is no more than the bound so far, the time
 * runs out, or *stop.  Returns out->bound. */
int64_t order_bound_run(const remat_graph *g, const order_bound_params *p,
                        order_bound_out *out);

/* The memory at each node's step in `order` (a complete order; NULL: the
 * input order) into at[0..n), and the nodes by decreasing memory there
 * (ties by index), newly allocated: the order in which the bounds look at
 * them, since a node's closure bound is at most its memory in any order. */
int *order_bound_by_memory(const remat_graph *g, const int *order, int64_t *at);

/* The ancestor bound a_v of every node into a[0..n).  O(n/64 (n + edges)
 * + the sum over v of |{u in A_v with a successor in D_v}|). */
void order_bound_ancestors(const remat_graph *g, int64_t *a);

/* a_v of every node into a[0..n), and the pairs (u, v) of incomparable
 * nodes where u has a successor in D_v (u computed before v is live at
 * v's step), as lists by u: v in list[off[u] .. off[u + 1]).  Returns 0,
 * or -1 (nothing allocated, a[] unset) when there are more than max_pairs
 * pairs, or when the passes would take more than 16 max_pairs steps
 * (n / 64 passes over the nodes and edges). */
int order_bound_pairs(const remat_graph *g, int64_t *a, size_t max_pairs,
                      int **off, int **list);

/* The closure bound c_v of one node (m_v + min F(S)). */
int64_t order_bound_closure(const remat_graph *g, int v);

/* The same closure problem of one node v with other capacities, for
 * order_cost.c: the masks of v are built once by order_closure_new, then
 * order_closure_cut returns min over S of the sum of cap[u] over u in S
 * with a successor outside S (cap_in[u] instead where u is an input of v;
 * cap_in NULL: cap), without m_v.  Capacities are >= 0 and their sum must
 * fit in 64 bits. */
typedef struct order_closure order_closure;
order_closure *order_closure_new(const remat_graph *g, int v);
int64_t order_closure_cut(order_closure *c, const int64_t *cap, const int64_t *cap_in);
void order_closure_free(order_closure *c);

#endif
