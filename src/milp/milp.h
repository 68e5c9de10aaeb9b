/* milp.h -- Checkmate's MILP (Jain et al., MLSys 2020, problem (9)) with
 * T = n frontier-advancing stages on the input order, built in memory and
 * solved with CBC (or, relaxed, with Clp).
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
 * Scaling: sizes are divided by their GCD (budget floor(M / g)), durations
 * by theirs.  Models above MILP_MAX_NONZEROS matrix entries are refused
 * after a counting pass that allocates one int per column: the benchmark
 * graphs need 19 thousand (VGG16 train) to 1.3 million (n250, ResNet50
 * train) entries; random_layered_n1000 would need 39 million and is
 * refused in 0.3 s. */
#ifndef REMAT_MILP_H
#define REMAT_MILP_H

#include <stdint.h>

#include "remat.h"
#include "stage.h"

#define MILP_MAX_NONZEROS 15000000LL

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
  int64_t mem_q;  /* GCD of the sizes */
  int64_t dur_q;  /* GCD of the durations */
  double cap;     /* floor(M / mem_q) */
  int ncols, nrows, nint;
  long long nnz;
  int s_base, u_base, f_base; /* first S, U, FREE column */
  const int *copies; /* NULL, or at most copies[v] computations of v */
  /* the problem in compressed sparse columns (Cbc/Clp_loadProblem) */
  int *start, *index;
  double *value, *collb, *colub, *obj, *rowlb, *rowub;
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
void milp_free(milp_model *md);

/* R of a solution vector (R[t,i] = x > 0.5; R[t,t] = 1). */
void milp_decode_r(const milp_model *md, const double *x, stage_mat *R);

/* The S part of a solution vector as a matrix of values in [0, 1]:
 * s[t * n + i] for i < t (others 0).  For the LP rounding. */
void milp_s_values(const milp_model *md, const double *x, double *s);

/* Objective value of (R) in duration units: base + sum of recomputed w. */
double milp_duration(const milp_model *md, double objective);

/* ------------------------------------------------------------------ */
/* Solving                                                             */
/* ------------------------------------------------------------------ */

typedef struct milp_params {
  int64_t budget;     /* M in bytes (required) */
  double time_limit;  /* seconds (60) */
  int threads;        /* CBC threads, 0 = all cores (0) */
  int verbose;        /* 0 quiet, 1 progress lines, 2 also CBC's log */
  volatile int *stop; /* stop (keeping the best) when nonzero */
  int warm_start;     /* seed CBC with the best fitting schedule of the
                         baselines (base_best), the C heuristics and,
                         while none fits, LP rounding (round_seed, 10% of
                         the time limit), polished (round_polish, 5%) (1) */
  int heuristics;     /* with warm_start: run the C heuristics (heur.h)
                         for 5% of the time limit (1) */
  double rel_gap;     /* stop when (incumbent - bound) / incumbent is at
                         most this (0: prove optimality) */
  int first_fit;      /* stop at the first schedule within budget (or the
                         proof that none exists): phase 1 only (0) */
  long long max_nonzeros; /* refuse larger models (0: MILP_MAX_NONZEROS) */
  const int *copies;  /* compute v at most copies[v] times (C_v, as in the
                         CP model: one row per node), or NULL: any number
                         of times (Checkmate).  The warm start's seeds do
                         not keep to it and are skipped (NULL) */
  const int *start;    /* a schedule offered first (start_len entries),
                          CBC's MIP start when it fits (NULL: none) */
  int start_len;
  int (*halt)(void *ctx); /* also stop when this returns nonzero (polled
                             like stop; may be NULL) */
  void *halt_ctx;
} milp_params;

void milp_params_init(milp_params *p);

/* Facts about a solve, for the JSON output. */
typedef struct milp_stats {
  int columns, rows, integer_columns;
  long long nonzeros;
  int warm_start;    /* CBC got a MIP start */
  int cbc_status;    /* Cbc_status(): 0 finished, 1 stopped, ... */
  int cbc_secondary; /* Cbc_secondaryStatus() */
} milp_stats;

/* Solve the MILP with CBC and fill r (initialised with remat_result_init,
 * method "milp"): the decoded schedule, re-simulated; CBC's best bound
 * (r->has_bound, r->bound in duration units); status optimal (proven by
 * CBC), feasible, over-budget or infeasible (proven by CBC).  The input
 * order is returned at once when it fits.
 *
 * Phases (trace phases): 0 the seeds (warm_start); 1 only while no seed
 * fits: CBC without preprocessing until its first schedule (see
 * milp_cbc_run in milp.c for why); 2 CBC warm-started from the best fitting
 * schedule.  Every CBC solution is decoded (Algorithm 1), checked against
 * the model (its memory must not be below the simulated peak, its
 * objective must be the simulated duration) and offered with its pruned
 * form.  Returns REMAT_OK, REMAT_ENOFIT,
 * REMAT_EUSAGE (bad parameters, model too large) or REMAT_EINTERNAL (a
 * decoded schedule disagrees with the model, a solver failure).  st may
 * be NULL.
 *
 * Interruption: when *stop becomes nonzero, a cut callback makes every
 * remaining node infeasible, so CBC closes its tree quickly and returns
 * its incumbent; the bound reported is the last one CBC logged.  CBC's
 * message callback has no user pointer, so only one milp_solve may run at
 * a time in a process. */
int milp_solve(const remat_graph *g, const milp_params *p, remat_result *r,
               milp_stats *st);

/* Solve the LP relaxation (a MILP_RELAXED model) with Clp, in a child
 * process (child.h) killed a second after the time limit or soon after
 * *stop (stop may be NULL) becomes nonzero.  x receives md->ncols values.
 * Returns 0 (optimal, *objective set), 1 (infeasible), 2 (stopped by the
 * time limit or *stop) or -1 (solver error). */
int milp_solve_lp(const milp_model *md, double time_limit, volatile int *stop,
                  double *x, double *objective);

/* The value of the LP relaxation at `budget` in duration units (*duration):
 * a lower bound on the duration of every stage-structured schedule on the
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
