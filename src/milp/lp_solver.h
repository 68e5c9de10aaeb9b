/* lp_solver.h -- the one driver of CBC and Clp: every MILP and LP that
 * remat solves (Checkmate's MILP, milp.h; the covering bounds,
 * cover_lp.h; the window bound, wbound.h; the LP relaxation,
 * milp_model.h) goes through cbc_run or clp_run, which set the solvers'
 * parameters and hold their workarounds (but for the covering bound's
 * rounds of rows added lazily, cover_steps.c, which keep one Clp model
 * from round to round):
 *
 *   - preprocessing off, unless the caller gives a MIP start: CBC's
 *     preprocessing has returned optima above the true ones on the
 *     covering problems (bench/RESULTS.md#claims-cbc-preprocessing), the
 *     window bound's proofs come sooner without it, and CBC 2.10.8 (Cgl
 *     0.60.3) dereferences NULL when it proves a problem infeasible while
 *     keeping column names, which the stop callback turns on (`cbc
 *     -PrepNames on` crashes the same way); with a feasible MIP start it
 *     cannot prove infeasibility;
 *   - the feasibility pump off on models above CBC_PUMP_MAX_COLS columns
 *     when the caller needs CBC to keep to its clock (keep_clock): the
 *     pump checks neither the time limit nor the stop callback, and on
 *     large models one pass takes minutes;
 *   - CBC's heuristics lower the shared message handler's level to 0 in
 *     their sub-searches and do not always restore it: the stop callback
 *     puts it back, or the progress goes silent;
 *   - the stop: once asked, every node CBC asks for cuts gets an
 *     infeasible one (x_0 >= ub + 1), so the search closes quickly and
 *     CBC returns its incumbent;
 *   - when an end counts as a proof (below).
 *
 * When an end of CBC or Clp counts as a proof: CBC 2.10 stopped by its
 * time limit inside an LP can end as if it had finished: "linear
 * relaxation infeasible", an optimum that is none, a bound from an LP cut
 * short.  So a proof (optimal, infeasible, a finished solve's bound) is
 * taken only from a run that ended well before any clock the solver
 * checks could reach its limit (cbc_result.in_time, clp_result.in_time),
 * or that a solve without a time limit confirms (the covering bound's LP
 * relaxation); anything else is an answer out of time.  The clocks:
 * CBC's elapsed time (timeMode elapsed), and where CBC hands its limit to
 * Clp, CPU time, possibly from a later start with the limit left then.
 * On one thread a CPU clock runs no faster than the elapsed one; on T
 * threads at most T times as fast; so whatever mix of the two the solver
 * compares with its limit reads at most T times the run's elapsed time.
 *
 * Neither solver runs in a child process here: callers whose solves must
 * end on time run cbc_run or clp_run in one (child.h), since CBC's root
 * LP and Clp's presolve look at no clock. */
#ifndef REMAT_LP_SOLVER_H
#define REMAT_LP_SOLVER_H

#include "lp.h"

/* The share of its time limit that T times a run's elapsed time must stay
 * under for its proof to stand. */
#define SOLVER_END_SHARE 0.9

/* Nonzero when a run that took `took` seconds (elapsed) under a time limit
 * of `limit` seconds, on `threads` threads (< 1: one), ended early enough
 * for its proof to stand. */
int solver_end_in_time(double took, double limit, int threads);

/* The shortest time limit CBC is given, and the default: none in
 * practice (seconds). */
#define CBC_MIN_SECONDS 0.01
#define CBC_NO_LIMIT 1e6

/* Above this many columns the feasibility pump is off (keep_clock). */
#define CBC_PUMP_MAX_COLS 100000

/* Where CBC's log (on standard output) goes while it runs. */
enum { CBC_OUT_KEEP = 0, CBC_OUT_NULL = 1, CBC_OUT_STDERR = 2 };

/* How CBC goes about a model (cbc_limits_init: the defaults). */
typedef struct cbc_limits {
  double seconds;       /* CBC's time limit, elapsed (at least
                           CBC_MIN_SECONDS; given to CBC to the ms;
                           default CBC_NO_LIMIT) */
  int threads;          /* CBC's threads (< 2: one) */
  double ratio_gap;     /* done within this relative gap (default 0) */
  double allowable_gap; /* and this absolute one (default 1e-9; 0.5 where
                           the objective is whole) */
  double cutoff;        /* only solutions below it (INFINITY: none) */
  int max_solutions;    /* stop at this many solutions (0: no limit) */
  int heuristics_off;   /* no primal heuristics (where only the proof
                           matters) */
  int bare_tree;        /* no cuts, no strong branching, rows scaled and
                           columns not: the quickest search where there
                           may be no solution (the covering bound's steps) */
  int keep_clock;       /* the feasibility pump off on large models */
  int log;              /* CBC's log level (progress callbacks need 1) */
  int out;              /* CBC_OUT_*: where its log goes */
  int nstart;           /* a MIP start's entries (0: none), which turns */
  const int *start_col; /* preprocessing on: the caller vouches that it */
  const double *start_val; /* is feasible */
} cbc_limits;

void cbc_limits_init(cbc_limits *lim);

/* What the caller hears while CBC runs (any field may be NULL), each
 * with ctx.  CBC may call back from several threads: the driver calls one
 * at a time.  CBC's message callback is given its model and no user
 * pointer: the driver keeps a table of the runs in progress in the
 * process, where a message finds its run by the model (64 at once; a run
 * beyond them goes without progress). */
typedef struct cbc_callbacks {
  void *ctx;
  /* A line of CBC's log: an incumbent (INFINITY: none in this line), a
   * bound (-INFINITY: none), the nodes so far (-1: not said). */
  void (*progress)(void *ctx, double incumbent, double bound, int nodes);
  /* Nonzero: stop the search (it returns its incumbent soon after). */
  int (*stop)(void *ctx);
} cbc_callbacks;

/* How a CBC run ended. */
typedef struct cbc_result {
  int status, secondary; /* Cbc_status, Cbc_secondaryStatus */
  int optimal;           /* CBC's claims, proofs only with in_time */
  int infeasible;
  int finished;   /* status 0, not at its time limit, not abandoned */
  int in_time;    /* ended well before its limit (solver_end_in_time) */
  int stopped;    /* the stop callback cut the search */
  int have_x;     /* a solution (in cbc_run's x when not NULL) */
  double obj;     /* CBC's objective of that solution */
  double best_possible; /* CBC's bound */
  long long nodes;
  double seconds; /* the time limit CBC had */
} cbc_result;

/* Solve L (its integer flags as given) with CBC within lim (NULL: the
 * defaults) and callbacks cb (NULL: none); x (L->ncols values, may be
 * NULL) receives the best solution when there is one.  Fills *res;
 * returns res->have_x. */
int cbc_run(const lp_model *L, const cbc_limits *lim, const cbc_callbacks *cb, double *x,
            cbc_result *res);

/* Clp's methods. */
enum {
  CLP_AUTO = 0, /* Clp's own choice (Clp_initialSolve) */
  CLP_DUAL = 1  /* the dual simplex (Clp_initialDualSolve): where every
                   cost is at least 0, the slack basis with every column
                   at its lower bound is dual feasible from the start */
};

/* How a Clp run ended. */
typedef struct clp_result {
  int status;  /* Clp_status: 0 optimal, 1 infeasible, 2 unbounded,
                  3 stopped, 4 errors */
  int in_time; /* ended well before its limit, or had none */
  double obj;  /* the objective when optimal */
} clp_result;

/* Solve L's LP relaxation (integer flags ignored) with Clp within
 * `seconds` (<= 0: no limit) by `method` (CLP_*); x (may be NULL)
 * receives the solution when optimal.  Returns res->status. */
int clp_run(const lp_model *L, double seconds, int method, double *x, clp_result *res);

#endif
