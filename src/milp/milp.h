/* milp.h -- Checkmate's MILP (milp_model.h) solved with CBC.
 *
 * The caller gives the start schedules: milp_params.start, and a seeding
 * function (milp_params.seeds; remat milp and compare use seeds_milp, in
 * the search wing) that offers schedules to the result once the model is
 * built. */
#ifndef REMAT_MILP_H
#define REMAT_MILP_H

#include <stddef.h>
#include <stdint.h>

#include "milp_model.h"
#include "progress.h"
#include "remat.h"

struct milp_params;

/* The start schedules (milp_params.seeds): called once the model is built
 * and before CBC, it offers schedules to r (trace phase 0, at times since
 * t0, util_now() at the run's start), prints a progress line for each
 * improvement at p->verbose (milp_best_line) and stops early when
 * milp_stopped(p).  Returns 0, or nonzero with a message in err (a
 * schedule that fails re-simulation: an internal error). */
typedef int (*milp_seeds_fn)(const remat_graph *g, const struct milp_params *p,
                             remat_result *r, double t0, char *err, size_t errlen);

typedef struct milp_params {
  int64_t budget;     /* M in bytes (required) */
  double time_limit;  /* seconds (60) */
  int threads;        /* CBC threads, 0 = all cores (0) */
  int verbose;        /* 0 quiet, 1 progress lines, 2 also CBC's log */
  volatile int *stop; /* stop (keeping the best) when nonzero */
  milp_seeds_fn seeds; /* the start schedules, CBC's MIP start when one
                          fits (NULL: none, CBC alone as in Checkmate's
                          paper) */
  double rel_gap;     /* stop when (incumbent - bound) / incumbent is at
                         most this (0: prove optimality) */
  int first_fit;      /* stop at the first schedule within budget (or the
                         proof that none exists): phase 1 only (0) */
  long long max_nonzeros; /* refuse larger models (0: MILP_MAX_NONZEROS) */
  const int *copies;  /* compute v at most copies[v] times (C_v, as in the
                         CP model: one row per node), or NULL: any number
                         of times (Checkmate); the graph's nodes' own C_v
                         are a ceiling either way (graph_copies_cap).  The
                         seeds keep to it */
  const int *start;    /* a schedule offered first (start_len entries),
                          CBC's MIP start when it fits (NULL: none); on
                          the input order's stages, within copies (a
                          bound above it is taken as a bug) */
  int start_len;
  int (*halt)(void *ctx); /* also stop when this returns nonzero (polled
                             like stop; may be NULL) */
  void *halt_ctx;
  unsigned seed; /* the seeds' random seed: the C heuristics' (1) */
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
 * Phases (trace phases): 0 the start and the seeds; 1 only while no seed
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

/* A stop is asked: *p->stop, p->halt, or (in a child) child_stopping(). */
int milp_stopped(const milp_params *p);

/* The progress line of a new best schedule at t seconds, named `what`. */
void milp_best_line(prog *pr, double t, const remat_result *r, const char *what);

#endif
