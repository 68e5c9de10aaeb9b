/* cover.h -- a lower bound on the recomputation cost, and proofs that no
 * schedule fits, from a small covering problem solved with CBC.
 *
 * Take any schedule whose first computations follow the input order (the
 * stage axis: every schedule of the Moccasin model) and the step where
 * node k is first computed.  The input order holds there L_k = m_k + the
 * values u < k still read at k or later.  A value u with readers
 * c_1 < ... < c_d has the "needed points" u, c_1, ..., c_d: it is live at
 * each of them.  If u is not in memory when k is computed, for some
 * needed points p_i < k < p_{i+1}, then u is recomputed between k and
 * p_{i+1}, in the gap (p_i, p_{i+1}); recomputations in different gaps
 * are different steps.  So with y[u,i] = 1 when u is dropped somewhere in
 * gap i:
 *     minimise  sum w_u y[u,i]
 *     subject to, for every k with L_k > M:
 *               sum of m_u y[u,i] over the gaps (u,i) around k >= L_k - M,
 *               sum_i y[u,i] <= C_u - 1 for every u,   y binary,
 * is a relaxation of the rematerialization problem: its optimum is a
 * lower bound on the duration increase of every such schedule, and when
 * it is infeasible no such schedule fits M with at most C_v copies.
 *
 * What memory the recomputations' inputs add, the plain problem leaves
 * out; with its inputs' rows (cover.c) it takes in part of it: u out of
 * memory at k is recomputed after k, so an input p of u whose last reader
 * comes before k is kept through k (E[p,k] = 1, -m_p in row k) or
 * computed again after that reader (R[p] = 1, cost w_p):
 *     E[p,k] >= a_p (y[u,i] - R[p])   for the stages k of gap i after lr_p,
 * with shares a_p in [0, 1], sum a_p m_p <= m_u (cover.c says why that
 * keeps it a relaxation).  The third problem (cover_steps.h) places each
 * recomputation at a stage and bounds the memory at the steps that
 * recompute too.  cover_solve solves the plain problem, then the others
 * in the time left, and keeps the highest bound.
 *
 * The problem has one column per gap (at most the number of edges) and one
 * row per overloaded stage; CBC solves it in milliseconds to seconds on
 * the benchmark graphs (bench/RESULTS.md#covering-bound), and its bound is
 * exact on the Checkmate graphs: it proves FCN8's, VGG16's and ResNet50's
 * optima. */
#ifndef REMAT_COVER_H
#define REMAT_COVER_H

#include <stdint.h>

#include "cover_types.h"
#include "remat.h"

void cover_params_init(cover_params *p);

/* Solve the covering problem for g at p->budget. */
cover_status cover_solve(const remat_graph *g, const cover_params *p, cover_out *o);

/* cover_solve in a child process (cover_timed.c), stopped at
 * p->time_limit: CBC and Clp can run seconds past it.  Fills o with the
 * strongest answer given by then (p->plain_done and p->incumbent_now
 * are not called); where
 * fork fails it runs here.  For callers that wait for it; the solve runs
 * its covering child beside its workers instead (bounds.h). */
cover_status cover_solve_timed(const remat_graph *g, const cover_params *p, cover_out *o);

const char *cover_status_name(cover_status s);

/* Which problem gave the bound o: "closure bound" (closure.h) or
 * "covering bound". */
const char *cover_bound_name(const cover_out *o);

/* How a bound o was found, for a message after its name: "" (the
 * problem's optimum), ", LP relaxation", ", out of time" or ", CBC found
 * nothing below it" (cover_out.lp). */
const char *cover_bound_how(const cover_out *o);

#endif
