/* tune.h -- choosing C_v (the copies each node may have) per node.
 *
 * Adaptive mode: start from a map (1 everywhere by default), solve, and
 * raise C_v by one for the nodes that can pay: those whose output is live
 * across the high-memory steps of the best schedule so far (steps at 95 %
 * or more of min(peak, budget)) and which already use all their copies
 * there.  When no such node exists, the saturated predecessors of the live
 * nodes are raised instead (recomputing a node needs its inputs).  While
 * nothing fits, every such node is raised; once a schedule fits, at most a
 * share of the nodes (raise_share), those live across the most memory
 * first, so that the map stays small where it can.  Each
 * round re-solves in-process (remat_solve) with a share of the time left
 * and the best schedule so far as warm start; the loop stops when a round
 * brings no improvement `patience` times, when nothing is left to raise,
 * or when the time is spent.  Any time left then goes to a last round on
 * the best map.
 *
 * Sweep mode: uniform values (C_v = c for all v) one after the other, each
 * with an equal share of the time left, warm-started from the best
 * schedule when it respects the new limits.
 *
 * The best round: a schedule within budget with the smallest duration
 * (ties: fewer total copies); when nothing fits, the lowest peak. */
#ifndef REMAT_TUNE_H
#define REMAT_TUNE_H

#include <stdio.h>

#include "remat.h"

/* One round's outcome (a row of the table). */
typedef struct tune_round {
  int round;          /* 0, 1, ... */
  int uniform;        /* the swept value, 0 in adaptive mode */
  int raised;         /* nodes with C_v > 1 */
  long long total;    /* sum of C_v */
  int has_schedule;
  int fits;           /* the best schedule of the round is within budget */
  int status;         /* REMAT_STATUS_* */
  double tdi;         /* percent */
  int64_t peak, duration;
  double seconds;     /* solve time */
  int final;          /* the last round on the best map */
} tune_round;

typedef void (*tune_round_fn)(void *ctx, const tune_round *row);

typedef struct tune_params {
  remat_solve_params solve; /* template for every round: budget, threads,
                               seed, verbosity, stop flag... (its copies,
                               time_limit and warm start are set per round) */
  double time_limit;  /* seconds for everything (60) */
  const int *start;   /* first map (C_v >= 1 per node), NULL: 1 everywhere */
  const int *sweep;   /* uniform values to sweep instead, or NULL */
  int nsweep;
  double share;       /* adaptive: a round gets this share of the time left (0.25) */
  double min_round;   /* adaptive: but at least this many seconds (1) */
  int patience;       /* adaptive: rounds without improvement before stopping (2) */
  double raise_share; /* adaptive: once within budget, raise at most this
                         share of the nodes per round, best scores first (0.1) */
  int max_rounds;     /* adaptive: (50) */
  tune_round_fn on_round; /* called after each round (may be NULL) */
  void *ctx;
} tune_params;

void tune_params_init(tune_params *p);

typedef struct tune_result {
  int *copies;         /* the best map (n entries) */
  remat_result best;   /* the best round's result (its schedule re-simulated) */
  int best_round;      /* -1 if no round ran */
  tune_round *rounds;
  int nrounds;
} tune_result;

/* Run the tuning.  Returns REMAT_OK (the best schedule is within budget),
 * REMAT_ENOFIT, REMAT_EUSAGE or REMAT_EINTERNAL (from remat_solve, with
 * the message in res->best.message). */
int tune_run(const remat_graph *g, const tune_params *p, tune_result *res);

void tune_result_free(tune_result *res);

/* The nodes to raise after a schedule: writes them to out (capacity n) and
 * returns their number (see the rule above).  copies: the current map. */
int tune_candidates(const remat_graph *g, const int *seq, int len,
                    int64_t budget, const int *copies, int *out);

/* Write {"node id": C_v, ...} (loadable by --copies).  Returns 0 or
 * REMAT_EUSAGE with a message. */
int tune_write_map(const remat_graph *g, const int *copies, const char *path,
                   char *err, size_t errlen);

/* Print the table header / one row. */
void tune_print_header(FILE *f);
void tune_print_row(FILE *f, const tune_round *row);

#endif
