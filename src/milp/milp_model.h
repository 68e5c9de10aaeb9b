/* milp_model.h -- Checkmate's MILP (Jain et al., MLSys 2020, problem (9))
 * with T = n frontier-advancing stages on the input order, built in memory
 * (solved with CBC: milp.h; relaxed, with Clp: here).
 *
 * Variables (0-based stages t and nodes i, k):
 *   R[t,i] (i < t)   binary: node i is recomputed in stage t (R[t,t] = 1 is
 *                    a constant, not a column);
 *   S[t,i] (i < t)   binary: node i is resident at the start of stage t;
 *   U[t,k] (k <= t)  continuous in [0, cap]: memory while k runs in stage t;
 *   FREE[t,(i,k)]    continuous in [0, 1], for each edge i -> k with k < t
 *                    (omitted when t itself is a later user of i: then it is
 *                    0; and for k = t, where the stage ends): i is freed
 *                    right after k in stage t.
 * Constraints:
 *   (1b) R[t,v] <= R[t,u] + S[t,u] for every edge u -> v, v <= t;
 *   (1c) S[t+1,i] <= S[t,i] + R[t,i];
 *   U[t,0] = sum_i m_i S[t,i] + m_0 R[t,0];
 *   U[t,k] = U[t,k-1] - sum_{i in DEPS[k-1]} m_i FREE[t,(i,k-1)] + m_k R[t,k];
 *   FREE[t,(i,k)] <= R[t,k], <= 1 - S[t+1,i] (t < n-1) and <= 1 - R[t,j]
 *   for every user j of i with k < j < t: the product form of Checkmate's
 *   (5) as its tight linear upper bounds.  FREE has no lower bound: freeing
 *   less only overstates the memory, and an optimal solution frees where
 *   it helps.
 * Objective: sum of w_i R[t,i] over i < t (the recomputations; the input
 * order's duration is a constant added back when reporting).
 *
 * Memory accounting versus the simulator: U[t,k] includes k's inputs and
 * output, a value is freed right after its last use in the stage unless it
 * is kept, and a checkpoint counts from the start of its stage.  A node is
 * never freed after its own step (the paper's FREE[t,k,k] = 0): a
 * recomputation nobody reads stays allocated to the stage's end, where the
 * simulator frees it at once.  So for any integral solution the MILP's
 * memory is never below the simulated memory of the decoded schedule, and
 * for a schedule without unread recomputations and with its canonical S
 * (stage.h) the two agree exactly: the MILP optimum equals the best
 * stage-structured schedule (brute force, or CP with enough copies).
 *
 * Scaling: durations are divided by their GCD, sizes by theirs (budget
 * floor(M / g)) while the budget stays within MILP_MEM_UNITS of it: CBC's
 * absolute tolerances, against sizes of 10^12, cut off feasible schedules
 * (a proven-infeasible MILP that a schedule fits).  Past that, sizes are
 * counted in a coarser quantum q (a multiple of the GCD, budget
 * floor(M / q) <= MILP_MEM_UNITS), rounded one of two ways:
 *   down (the relaxation, the default): any schedule whose memory fits M
 *        fits the scaled rows (sum floor(m/q) <= floor(sum m / q)), so an
 *        infeasible model, an optimum or a bound of it holds for the exact
 *        problem; a solution may not fit M (re-simulate it);
 *   up   (the restriction, milp_build_rounded): every solution fits M
 *        (sum ceil(m/q) <= floor(M/q) implies sum m <= M), but proves
 *        nothing.
 * Models above MILP_MAX_NONZEROS matrix entries are refused
 * after a counting pass that allocates one int per column, so a model far
 * too large is refused before anything is built (the benchmark graphs'
 * sizes: bench/RESULTS.md#design-choices). */
#ifndef REMAT_MILP_MODEL_H
#define REMAT_MILP_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "lp.h"
#include "remat.h"
#include "stage.h"

#define MILP_MAX_NONZEROS 15000000LL
/* The largest budget in memory units the model keeps exact (Scaling): a
 * margin below 2^31 units, past which CBC was seen to cut off schedules
 * on random graphs (from 2^35 on). */
#define MILP_MEM_UNITS (1LL << 26)

/* Model kinds. */
enum {
  MILP_RELAXED = 0, /* the LP relaxation (all columns continuous) */
  MILP_INTEGRAL = 1 /* the MILP */
};

typedef struct milp_model {
  const remat_graph *g;
  int n;
  int kind;       /* MILP_* */
  int64_t budget; /* M in bytes */
  int64_t mem_q;  /* memory quantum: the sizes' GCD, or a multiple */
  int mem_exact;  /* mem_q divides every size */
  int mem_up;     /* sizes rounded up (the restriction), else down */
  int64_t dur_q;  /* GCD of the durations */
  double cap;     /* floor(M / mem_q) */
  int s_base, u_base, f_base; /* first S, U, FREE column */
  const int *copies; /* NULL, or at most copies[v] computations of v */
  lp_model lp;   /* the problem (lp.h) */
} milp_model;

/* Column of R[t,i] (i < t) and S[t,i] (i < t), U[t,k] (k <= t). */
static inline int milp_col_r(int t, int i) { return t * (t - 1) / 2 + i; }
static inline int milp_col_s(const milp_model *md, int t, int i) {
  return md->s_base + t * (t - 1) / 2 + i;
}
static inline int milp_col_u(const milp_model *md, int t, int k) {
  return md->u_base + t * (t + 1) / 2 + k;
}

/* Build the model of a kind (MILP_*) for budget M.  Returns 0, or
 * REMAT_EUSAGE with a message when it is too large. */
int milp_build(milp_model *md, const remat_graph *g, int64_t budget, int kind,
               char *err, size_t errlen);

/* The same with at most copies[v] computations of v (NULL: any number; one
 * row per node) and at most max_nnz nonzeros. */
int milp_build_max(milp_model *md, const remat_graph *g, int64_t budget, int kind,
                   const int *copies, long long max_nnz, char *err, size_t errlen);
/* The same with sizes rounded up (mem_up = 1: every solution fits M) or
 * down (0: the relaxation, as milp_build_max) when not exact. */
int milp_build_rounded(milp_model *md, const remat_graph *g, int64_t budget, int kind,
                       const int *copies, long long max_nnz, int mem_up, char *err,
                       size_t errlen);
void milp_free(milp_model *md);

/* Names, for the model files (milp_file.h): what each row and each FREE
 * column stands for. */
enum {
  MILP_ROW_DEP = 1, /* DEP_t_v_u: (1b) R[t,v] <= R[t,u] + S[t,u] (v = t:
                       R[t,u] + S[t,u] >= 1) */
  MILP_ROW_KEEP,    /* KEEP_t_i: (1c) S[t,i] <= S[t-1,i] + R[t-1,i] */
  MILP_ROW_FREE_R,  /* FREER_t_i_k: FREE[t,(i,k)] <= R[t,k] */
  MILP_ROW_FREE_S,  /* FREES_t_i_k: FREE[t,(i,k)] + S[t+1,i] <= 1 */
  MILP_ROW_FREE_J,  /* FREEJ_t_i_k_j: FREE[t,(i,k)] + R[t,j] <= 1 */
  MILP_ROW_MEM,     /* MEM_t_k: the memory recurrence at U[t,k] */
  MILP_ROW_COPIES,  /* COPIES_i: sum over t > i of R[t,i] <= C_i - 1 */
  MILP_COL_FREE     /* FREE_t_i_k: the column FREE[t,(i,k)] */
};

typedef struct milp_tag {
  int kind;       /* MILP_ROW_*, MILP_COL_FREE */
  int t, a, c, d; /* the indices, in the order of the name */
} milp_tag;

/* The tags of every row (md->lp.nrows) and of every FREE column
 * (md->lp.ncols - md->f_base), by the generator that built md. */
void milp_tags(const milp_model *md, milp_tag *rows, milp_tag *frees);

/* A tag's name ("MEM_3_1"). */
void milp_tag_name(const milp_tag *tg, char *buf, size_t len);

/* Column j's name: R_t_i, S_t_i, U_t_k or FREE_t_i_k (frees: milp_tags). */
void milp_col_name(const milp_model *md, const milp_tag *frees, int j, char *buf, size_t len);

/* R of a solution vector (R[t,i] = x > 0.5; R[t,t] = 1). */
void milp_decode_r(const milp_model *md, const double *x, stage_mat *R);

/* S of a solution vector (S[t,i] = x > 0.5). */
void milp_decode_s(const milp_model *md, const double *x, stage_mat *S);

/* The S part of a solution vector as a matrix of values in [0, 1]:
 * s[t * n + i] for i < t (others 0).  For the LP rounding. */
void milp_s_values(const milp_model *md, const double *x, double *s);

/* The objective of a solution vector with R rounded (x > 0.5), exactly:
 * the recomputed durations in quanta. */
int64_t milp_objective_units(const milp_model *md, const double *x);

/* Objective value of (R) in duration units: base + sum of recomputed w. */
double milp_duration(const milp_model *md, double objective);

/* A lower bound in duration units from a solver's bound on the objective
 * (LP value, CBC's best possible), rounded down: the objective is a whole
 * number of duration quanta, so base + ceil(objective - tolerance) quanta,
 * and never below base. */
double milp_bound_duration(const milp_model *md, double objective);

/* ------------------------------------------------------------------ */
/* The LP relaxation                                                   */
/* ------------------------------------------------------------------ */

/* Solve the LP relaxation (a MILP_RELAXED model) with Clp, in a child
 * process (child.h) killed a second after the time limit or soon after
 * *stop (stop may be NULL) becomes nonzero.  x receives md->lp.ncols values.
 * Returns 0 (optimal, *objective set), 1 (infeasible), 2 (stopped by the
 * time limit or *stop) or -1 (solver error). */
int milp_solve_lp(const milp_model *md, double time_limit, volatile int *stop,
                  double *x, double *objective);

/* The value of the LP relaxation at `budget` in duration units
 * (*duration, milp_bound_duration): a lower bound on the duration of every stage-structured schedule on the
 * input order, so on every schedule of the CP model (any C_v).  Returns
 * milp_solve_lp's codes, or -2 when the model is not built (too large:
 * err says why). */
int milp_lp_bound(const remat_graph *g, int64_t budget, double time_limit,
                  volatile int *stop, double *duration, char *err,
                  size_t errlen);

/* A word for those codes: optimal, infeasible, out of time, not solved
 * (-2), error. */
const char *milp_lp_status_name(int status);

#endif
