/* cover_steps.h -- the covering bound with the recomputing steps' rows
 * (the third problem of cover_solve, cover.h).
 *
 * The covering problems bound the memory at each stage's own step; the
 * steps that recompute a value in a stage before it hold more: what the
 * stage holds besides its node, plus the recomputed value's inputs.  Here
 * each gap j = (a, b] of a value u (a: a needed point of u, b: the next
 * reader) is split into pieces, one per overloaded stage and one per run
 * of other stages, with X[j,c] = 1 when u is computed again in the gap at
 * piece c or later (X[j,0] = y_j, cost w_u; X nonincreasing).  Then, for
 * every overloaded stage k:
 *   - z[j,k] = 1 when u is out of memory at k's step, z <= X[j, after k]
 *     (it is computed again after k), and
 *     sum m_u z[j,k] - sum m_p E[p,k] >= L_k - M;
 *   - E[p,k] >= X[j, after k] - R[p] for each input p of u whose last
 *     reader comes before k (as with the inputs' rows, but at full
 *     weight: X[j, after k] = 1 means u is computed after k, when p must
 *     be at hand);
 *   - and for each input q of such a p whose last reader comes before k
 *     too: E[q,k] + E[p,k] + R[q] >= X[j, after k] (p out of memory at k
 *     while u is computed after k means that p is computed after k, and q
 *     must be at hand then: kept through k, or computed after its last
 *     reader);
 *   - when the last computation of u in gap j falls in stage k
 *     (X[j,k] - X[j, after k] = 1), the step that computes it holds
 *     L_k - m_k plus u's inputs that L_k leaves out, less every other
 *     value out of memory there, and each of those is computed again at
 *     stage k or later (X[j',k] = 1 for its gap j'; with C_v = 2, once
 *     at most: z[j',k] + X[j',k] - X[j', after k]):
 *     sum over v not u nor an input of u of m_v X[j',k] >=
 *     (L_k - m_k + sum m_p - M) (X[j,k] - X[j, after k]),
 *     written with one column F_k per stage for the shared sum;
 *   - sum_j y_j + R[u] <= C_u - 1.
 * Every schedule on the stage axis gives a solution (X, z, E, R in {0, 1}),
 * so the optimum is a lower bound on its duration increase, and an
 * infeasible problem proves that none fits.
 *
 * Where the whole problem passes COVER_STEPS_MAX_NONZEROS (or when
 * cover_params.steps_lazy asks for it), it is built lazily, as a looser
 * problem: z[j,k] is X[j, after k] (its upper bound: z appears nowhere
 * else then), a value out of memory at a recomputing step is bounded by
 * X[j,k] alone, the rows of the inputs' inputs are left out, and the
 * rows E >= X - R and those of the recomputing steps are generated: the
 * LP without them first, then, round by round, the rows its solution
 * violates (with F_k at the sum it bounds), Clp's dual simplex
 * warm-started each round, until none is violated or the time is out.
 * Every round's LP keeps a subset of the looser problem's rows, so its
 * value is a lower bound too; CBC does not run on it, and it proves no
 * infeasibility. */
#ifndef REMAT_COVER_STEPS_H
#define REMAT_COVER_STEPS_H

#include <stdint.h>

#include "cover_types.h"
#include "remat.h"

/* Problems with more matrix entries than this are built lazily: Clp's LP
 * of the whole problem had not ended after 400 s at 2.8 million
 * (bench/RESULTS.md#cover-steps-rows and #cover-steps-lazy); lazily built
 * ones with more
 * than COVER_STEPS_LAZY_MAX_NONZEROS (the generated rows included) are
 * not built. */
#define COVER_STEPS_MAX_NONZEROS 500000LL
#define COVER_STEPS_LAZY_MAX_NONZEROS 8000000LL

typedef struct cover_steps cover_steps;

/* The problem for g at p->budget with the input order's loads L_k
 * (load[k], kept by reference); NULL when it would pass
 * COVER_STEPS_MAX_NONZEROS (or in a child told to stop: child.h). */
cover_steps *cover_steps_new(const remat_graph *g, const cover_params *p, const int64_t *load);

/* Built lazily (above). */
int cover_steps_lazy(const cover_steps *S);

/* Solve it within `limit` seconds (the LP relaxation first, then CBC,
 * with p->incumbent_now proving bounds below the best schedule step by
 * step: COVLP_LP_PROVE, cover_lp.h; built lazily: the rounds of its LP,
 * each higher bound also to p->plain_done); fills o (its status
 * COVER_NONE when there is no answer). */
void cover_steps_solve(cover_steps *S, double limit, cover_out *o);

void cover_steps_free(cover_steps *S);

#endif
