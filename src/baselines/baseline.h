/* baseline.h -- Checkmate's baselines (MLSys 2020, Table 1 and App. B):
 * checkpoint-all, Chen's sqrt(n) and Chen's greedy segments, on the
 * articulation points of the forward graph ("ap") or on the input order
 * ("linearized").
 *
 * Forward nodes are those with g->backward[v] == 0 (all nodes when the
 * graph carries no forward/backward split).  A checkpoint set C (sorted
 * forward nodes) cuts the forward nodes into segments [start, end): start
 * is 0 or a checkpoint, end the next checkpoint or the last forward node
 * + 1.  The checkpoint matrix S (our generalisation of Checkmate's
 * gen_s_matrix_fixed_checkpoints, which assumes Keras' numbering with
 * grad(i) = n - 1 - i) has S[t,i] = 1 for i < t <= last user of i when
 *   - i is a checkpoint or a backward node (never recomputed), or
 *   - i is in segment s and t <= end_s (the segment's forward pass: the
 *     "forward checkpoint block"), or t >= first_s, the first stage after
 *     end_s that reads a non-checkpoint node of segment s (the "checkpoint
 *     ladder": the segment is recomputed once, in stage first_s - 1, and
 *     kept for its backward pass).
 * On Keras-numbered training graphs this is Checkmate's S up to entries
 * after a node's last use, which no schedule reads.  Then R is
 * stage_r_opt(S) (solve_r_opt) and the schedule is R's sequence, always
 * re-simulated by the result bookkeeping; both are computed stage by stage
 * from S's intervals, never as n x n matrices (linear memory: graphs of
 * tens of thousands of nodes).
 *
 *   checkpoint-all: the input order (everything kept);
 *   chen-sqrtn:     every floor(sqrt(|C|))-th candidate;
 *   chen-greedy:    walk the forward nodes accumulating sizes; checkpoint a
 *                   candidate once the sum exceeds b and restart the sum.
 *                   Every distinct checkpoint set as b varies is found
 *                   exactly (breakpoints of the step function); at most
 *                   max_evals of them are scheduled: evenly spread, then
 *                   refined around the best. */
#ifndef REMAT_BASELINE_H
#define REMAT_BASELINE_H

#include <stdint.h>

#include "deadline.h"
#include "remat.h"

enum {
  BASE_CHECKPOINT_ALL = 0,
  BASE_CHEN_SQRTN,
  BASE_CHEN_GREEDY,
  BASE_ECHO, /* echo.h: cheap operators only */
  BASE_NMETHODS
};
enum { BASE_CAND_AP = 0, BASE_CAND_LINEARIZED, BASE_NCAND };

/* "checkpoint-all", "chen-sqrtn", "chen-greedy" / "ap", "linearized". */
const char *base_method_name(int method);
const char *base_candidates_name(int candidates);
/* Parse the names above; -1 if unknown. */
int base_method_parse(const char *s);
int base_candidates_parse(const char *s);

typedef struct base_params {
  int64_t budget;     /* M in bytes (required) */
  int method;         /* BASE_* (BASE_CHEN_GREEDY) */
  int candidates;     /* BASE_CAND_* (BASE_CAND_AP) */
  int max_evals;      /* chen-greedy: checkpoint sets scheduled (64) */
  volatile int *stop; /* stop early when nonzero */
  double t0;          /* util_now() at the start, for trace times (0:
                         now) */
  deadline deadline;  /* when to stop, keeping the schedules built by
                         then (DEADLINE_NONE) */
  int phase;          /* trace phase of offered schedules (0) */
  int keep_crossing;  /* 1: a forward value that a later segment's forward
                         pass reads is stored like a checkpoint, not
                         dropped after its segment (0: Checkmate's App. B;
                         on graphs whose segments such values join, as the
                         random-number states of exported training graphs
                         do, App. B's segments save nothing) */
} base_params;

void base_params_init(base_params *p);

/* What produced the best schedule base_run offered. */
typedef struct base_info {
  int *checkpoints; /* node indices, ascending (allocated) */
  int ncheckpoints;
  int ncandidates;
  int64_t segment_budget; /* chen-greedy's b (-1 otherwise) */
  int evaluated;          /* schedules built */
} base_info;

void base_info_free(base_info *info);

/* Run one method on one candidate set, offering every schedule to r (the
 * cheapest within budget, else the lowest peak, is kept).  info may be
 * NULL.  Returns REMAT_OK, or REMAT_EINTERNAL if a schedule failed
 * re-simulation (a bug). */
int base_run(const remat_graph *g, const base_params *p, remat_result *r,
             base_info *info);

/* Set r's status after base_run: feasible within budget (optimal without
 * any recomputation), else over-budget with a message naming the method.
 * Returns REMAT_OK or REMAT_ENOFIT. */
int base_conclude(remat_result *r, int method);

/* base_run, then the timings and base_conclude: what `remat baseline`
 * and remat_baseline (remat.h) report.  p->t0 is set to now.  Returns
 * REMAT_OK, REMAT_ENOFIT (nothing within budget) or REMAT_EINTERNAL (a
 * schedule failed re-simulation; r->message says so). */
int base_solve(const remat_graph *g, base_params *p, remat_result *r,
               base_info *info);

/* All methods on both candidate sets, with and without keep_crossing
 * (chen-greedy with max_evals 24),
 * every schedule offered to r (phase 0): the warm start of remat solve and
 * remat milp.  t0 is util_now() at the caller's start, for trace times (0:
 * now); stop may be NULL; d: when to stop (DEADLINE_NONE).  About
 * 100 schedules: fast on the benchmark graphs, seconds on the largest
 * (bench/RESULTS.md#large-graphs and #design-choices).  Returns like
 * base_run. */
int base_best(const remat_graph *g, int64_t budget, double t0, deadline d,
              volatile int *stop, remat_result *r);

/* Candidates: the articulation points of the undirected forward graph
 * (with Checkmate's virtual input before the first and output after the
 * last forward node) or all forward nodes; ascending.  *out is allocated;
 * returns the count. */
int base_candidates(const remat_graph *g, int kind, int **out);

/* The schedule of a checkpoint set (ascending forward nodes), with or
 * without keep_crossing (base_params).  *seq is allocated; returns its
 * length. */
int base_schedule(const remat_graph *g, const int *checkpoints, int ncheck, int keep_crossing,
                  int **seq);

#endif
