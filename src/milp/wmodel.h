/* wmodel.h -- the window model: a relaxation of the rematerialization
 * problem on the stage axis (stage.h) as a MILP over a window of stages,
 * whose optimum is a lower bound on the duration increase of every
 * schedule with at most C_v copies (wbound.h solves it).
 *
 * Stages t = a..b of the input order carry Checkmate's binaries for the
 * values V_t modelled there: R[t,u] (u recomputed in stage t) and S[t,u]
 * (u resident at the start of stage t; also at t = b + 1).  V_t holds
 * the values the input order keeps live at t (a reader at t or later),
 * their predecessors up to `depth` levels, and values added later
 * (wm_add_value); values outside V_t are free at t (always at hand, no
 * memory): that only relaxes.  Rows, for t in a..b:
 *   inputs      R[t,u] + S[t,u] >= 1 for u in pred(t);
 *               R[t,v] <= R[t,u] + S[t,u] for u in pred(v), both in V_t;
 *   continuity  S[t+1,u] <= S[t,u] + R[t,u];
 *   canonical   S[t,u] + R[t,u] <= 1 (a copy recomputed in stage t is
 *               the one its readers there see: the older one is unread);
 *   pruned      R[t,u] <= sum of R[t,j] over u's modelled successors
 *               j < t, plus S[t+1,u] (u not read by t): every
 *               recomputation is read (removing unread ones never hurts);
 *   memory      at the step computing t: m_t + its inputs + sum of m_u
 *               S[t+1,u] over the other values <= M (exact);
 *   copies      sum_t R[t,u] + Q[u] <= C_u - 1.
 * Before stage a nothing is charged: S[a,.] is free (values are held from
 * their computation).  After stage b, Q[u] = u is recomputed once: every
 * modelled value read after b is resident after b or recomputed
 * (S[b+1,u] + Q[u] >= 1), and a recomputed value's modelled inputs are
 * too (Q[v] <= S[b+1,x] + Q[x]).  The objective is the recomputations'
 * duration.  Memory at the steps that recompute a node (t, v < t) is
 * added lazily (wm_step_row): each value's presence there bounded below
 * by one linear term (a reader of its own in stage t or later), chosen
 * where the current solution has it.
 *
 * Every schedule on the stage axis (with canonical S, pruned) maps to a
 * solution of no larger cost, so the model's optimum is a lower bound, and
 * when it is infeasible no schedule fits M with C_v copies.  Sizes are
 * divided by a quantum and rounded down, the budget too (floor(M / q));
 * durations likewise: both only relax, so the model stays a relaxation
 * at any scale (the quanta are the GCDs unless the numbers pass 2^24
 * units of memory, where CBC's tolerances begin to matter: wmodel.c, or
 * 2^50 of total duration). */
#ifndef REMAT_WMODEL_H
#define REMAT_WMODEL_H

#include <stdint.h>

#include "lp.h"
#include "remat.h"

/* Column kinds. */
enum { WM_R = 0, WM_S = 1, WM_Q = 2 };

/* One term of a stored row: coef * column (kind, t, u); t unused for Q. */
typedef struct wm_term {
  int kind, t, u;
  double coef;
} wm_term;

/* Rows kept across rebuilds (lazy memory rows), each sum <= rhs. */
typedef struct wm_rows {
  int n, cap;      /* rows */
  int *start;      /* row i: terms start[i] .. start[i+1]-1 */
  double *rhs;
  int nterm, tcap;
  wm_term *term;
} wm_rows;

void wm_rows_init(wm_rows *L);
void wm_rows_free(wm_rows *L);

typedef struct wmodel {
  const remat_graph *g;
  int n, a, b, depth;
  int64_t budget, mq, wq; /* budget M; quanta of sizes and durations */
  int64_t cap;            /* floor(M / mq) */
  int64_t *m, *w;         /* m[v] / mq, w[v] / wq (rounded down) */
  const int *copies;      /* C_v (0: any) or NULL */
  unsigned char *in;      /* in[(t - a) * n + u]: u in V_t, t = a..b+1 */
  int *rc, *sc, *qc;      /* columns of R[t,u], S[t,u], Q[u]; -1: none */
  int ncols;              /* the columns numbered (wm_columns) */
  int *ckind, *ct, *cu;   /* what each column is */
  lp_model lp;            /* the problem, every column binary (wm_build) */
} wmodel;

/* The value sets and columns for window a..b (0 <= a <= b < n).  Returns
 * 0, or -1 with a message when (b - a + 2) * n passes max_cells. */
int wm_init(wmodel *W, const remat_graph *g, int64_t budget, const int *copies, int a, int b,
            int depth, long long max_cells, char *err, size_t errlen);

/* Model u in every stage a..min(tmax, b + 1) from now on (wm_init and
 * wm_build again: columns change).  Returns 1 if that added anything. */
int wm_add_value(wmodel *W, int u, int tmax);

/* Renumber the columns after wm_add_value. */
void wm_columns(wmodel *W);

/* The rows (with L's lazy rows whose columns exist) in compressed sparse
 * columns.  Returns 0, or -1 with a message when there are more than
 * max_nnz entries. */
int wm_build(wmodel *W, const wm_rows *L, long long max_nnz, char *err, size_t errlen);

void wm_free(wmodel *W);

/* The memory row of step (t, v) (v < t recomputed in stage t; a <= t <=
 * b) for solution x: appended to L when its left-hand side at x exceeds
 * cap.  Returns 1 if appended.  live (n flags, may be NULL) marks the
 * values live at that step in the decoded schedule; those the row does
 * not count at x are flagged in uncaptured (n flags, may be NULL). */
int wm_step_row(const wmodel *W, const double *x, int t, int v, const unsigned char *live,
                wm_rows *L, unsigned char *uncaptured);

/* Is u counted at the step computing t (final step) at solution x?
 * (an input of t, or resident after stage t) */
int wm_final_has(const wmodel *W, const double *x, int t, int u);

static inline size_t wm_at(const wmodel *W, int t, int u) {
  return (size_t)(t - W->a) * (size_t)W->n + (size_t)u;
}

#endif
