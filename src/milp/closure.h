/* closure.h -- the closure bound: a lower bound on the recomputation cost
 * from single steps of the stage axis, exact in what a recomputation
 * needs.
 *
 * Take any schedule whose first computations follow the input order (the
 * stage axis) and the step where node k is first computed.  Every u < k
 * has been computed by then and every v > k is still to come.  A value
 * u < k with a reader after k is, at that step, either in memory (held)
 * or computed again later (recomputed: w_u more); a recomputed u reads
 * each of its inputs p at that later step, so p too is held at k or
 * recomputed after it; k's inputs are in memory and so is k.  With a_u = 1
 * when u is held or recomputed and r_u = 1 when it is recomputed:
 *     minimise    sum w_u r_u
 *     subject to  a_u = 1 for every u < k with a reader after k,
 *                 a_p = 1, r_p = 0 for every input p of k,
 *                 r_u <= a_u,  r_u <= a_p for every input p of u,
 *                 m_k + sum m_u (a_u - r_u) <= M,
 *                 r_u = 0 where C_u = 1,   a, r binary,
 * is a relaxation of the rematerialization problem at that step.  The
 * covering bound (cover.h) counts recomputations per gap between a value's
 * readers and so adds them up over steps, but takes an input's memory in
 * shares; this one looks at one step and follows the inputs exactly: where
 * the cheap operations (a GELU, a dropout) read a large output of an
 * expensive one (a matrix product), dropping the cheap ones saves nothing
 * unless the expensive one is recomputed too, which the covering bound
 * does not see.  Without the memory row every constraint compares two
 * variables, so the polytope is integral and the LP's value is the
 * Lagrangian bound of that knapsack.  The LP is solved with Clp at the
 * CLOSURE_STAGES steps of highest memory in the input order, then the
 * integer problem with CBC at the CLOSURE_MIP_STEPS of them whose LP
 * values are highest and whose LP solutions are not whole (where the
 * step's excess is a few large values, the LP takes fractions of them).
 *
 * The steps together: a value computed again after a later step is
 * computed again after an earlier one, so over those steps at once, with
 * h_u (held at the step) and r_u (computed again after it) per step,
 *     r_u at a step <= r_u at the step before it that looks at u,
 * each step's rows as above (a_u = h_u + r_u; k's inputs held, and they
 * too may be computed again later), and w_u charged once, at the first
 * step looking at u: where two steps must let different values go (two
 * parts of a graph whose peaks are apart), the single steps see the
 * dearer, this the sum.  Its LP after the steps' LPs, its integer
 * problem (CBC) after theirs, in what is left of their time, where the
 * closure bound leads the covering problem's (CLOSURE_JOINT_LEAD).  The
 * highest value is the bound. */
#ifndef REMAT_CLOSURE_H
#define REMAT_CLOSURE_H

#include <stdint.h>

#include "cover_types.h"
#include "remat.h"

/* The steps looked at: this many of the highest input-order memory. */
#define CLOSURE_STAGES 16

/* The integer problems solved: at this many steps, those of at most
 * this many columns (CBC's root on larger ones can pass its share of
 * the time). */
#define CLOSURE_MIP_STEPS 4
#define CLOSURE_MIP_COLS 50000
/* The steps together: at most this many columns (a larger LP may not
 * end within the closure bound's time) */
#define CLOSURE_JOINT_COLS 400000
/* The steps together's integer problem only where the closure bound is
 * at least this many times the plain covering problem's (the deep
 * stacks, where the covering problem stays near zero; not the random
 * layered graphs, where the covering problems lead and CBC's second
 * would slow the window bound's proofs) */
#define CLOSURE_JOINT_LEAD 3.0
/* and in at most this share of the closure bound's time, all of them
 * (the covering problems need theirs where CBC does not end) */
#define CLOSURE_MIP_SHARE 0.25

/* The share of the covering bound's time (cover_solve) the closure bound
 * may take, its LPs before the covering problems. */
#define CLOSURE_SHARE 0.5

/* The steps' problems of g at p->budget with C_v p->copies; load[k] is
 * the input order's memory at step k (cover.c's L_k).  p and load must
 * outlive it. */
typedef struct closure closure;
closure *closure_new(const remat_graph *g, const cover_params *p, const int64_t *load);
void closure_free(closure *C);

/* The LPs, within `seconds` (the steps solved by then count).  Fills o:
 * COVER_BOUND (closure 1; lp 1, or 3 where the best step's LP solution
 * is whole) with the bound, or COVER_NONE (o->why). */
void closure_lps(closure *C, double seconds, cover_out *o);

/* Then the integer problems, within `left` seconds and at most
 * CLOSURE_MIP_SHARE of `seconds` (the closure bound's whole time), the
 * steps together's where o is at least CLOSURE_JOINT_LEAD times `above`
 * (the plain covering problem's increase; -1: none); o (closure_lps's answer) raised where one says
 * more: lp 3 for a step's integer optimum, 4 for the steps together's,
 * 0 for CBC's bound at its share of the time. */
void closure_integer(closure *C, double seconds, double left, int64_t above, cover_out *o);

/* Both, within `seconds`. */
void closure_solve(const remat_graph *g, const cover_params *p, const int64_t *load,
                   double seconds, cover_out *o);

#endif
