/* seeds.h -- the first schedules, before any search: the input order, a
 * caller's warm start, the baselines that fit (Chen's best, base_best,
 * Checkmate's appendix B; the Echo-style baseline, echo.h) and the C
 * heuristics (heur.h); for the MILP also, while nothing fits, LP rounding
 * (round_seed), and a local search on the best (round_polish).
 *
 * The solve offers them to its shared best (best.h), keeping to C_v; the
 * MILP (milp.h) takes them as its start: milp_params.seeds = seeds_milp,
 * which it calls once its model is built, so that a model too large is
 * refused at once.
 *
 * The baselines run before the CP model is built (seeds_base_run) so that
 * its C_v can hold them: the portfolio must never end worse than a
 * baseline it can compute in a moment, and one that fits the budget but
 * computes a node more than C_v times would otherwise be thrown away
 * (Echo recomputes a cheap value once per group of readers).  The
 * alternative, keeping it as an incumbent outside the model, would leave
 * the CP unable to start from it (model_encode refuses it) and make every
 * claim (optimal, the covering bound) one about a set of schedules the
 * result is not in.  Raising C_v for those nodes keeps every claim about
 * the schedules with at most r->copies[v] copies, the result among them.
 * The LP rounding's schedule counts as a baseline when it runs (nothing
 * else fits: seeds_base_run).
 * Only a baseline schedule on the input order's stages (the model's
 * other half) is a seed.  Raising is only done where a baseline fits (so
 * no claim that nothing fits is ever affected) and only where the caller's C_v is 2 or more:
 * C_v = 1 forbids recomputing the node, which a baseline does not
 * override. */
#ifndef REMAT_SEEDS_H
#define REMAT_SEEDS_H

#include <stddef.h>

#include "best.h"
#include "milp.h"

/* The input order.  When it fits, no recomputation is needed: its
 * duration, the base one, is optimal (B->proven).  Returns whether it
 * fits. */
int seeds_input_order(best *B);

/* The caller's C_v: p->copies[v] where given (above 0), else
 * p->default_copies.  Allocated, g->n entries. */
int *seeds_caller_copies(const remat_graph *g, const remat_solve_params *p);

/* The baselines' schedules, computed before the model. */
typedef struct seeds_base {
  remat_result chen; /* Chen's best and checkpoint-all (base_best) */
  remat_result echo; /* the Echo-style baseline (echo_run) */
  remat_result round; /* Checkmate's LP rounded, any copies (seeds.c,
                         seeds_base_round), when rounded */
  remat_result probe; /* the copies probe (seeds_probe), when probed */
  remat_result chain; /* the chain of repeated blocks (chain.h), when chained */
  int ran;           /* they ran (else nothing to offer or free) */
  int rounded;       /* the LP rounding ran: nothing else fit */
  int probed;        /* the copies probe ran (C_v not kept) */
  int chained;       /* the chain ran (a training graph with repeated blocks) */
  double round_seconds; /* what it took */
  double probe_seconds; /* what the probe took */
  double seconds;    /* what they took */
} seeds_base;

/* Unless --no-heuristic (or when the input order fits, which needs no
 * recomputation, or the durations are too large): Chen's baselines and
 * Echo's, 5% of the time limit each; when neither fits, nor the greedy
 * with the caller's C_v, on graphs of at most 80 nodes (Checkmate's LP
 * grows with n^2): Checkmate's LP rounded with any number of copies and
 * polished (round_seed, round_polish; 5% of the time limit each, at least
 * 2 s for the LPs), which counts as a third baseline.  Where the greedy gets stuck above the
 * budget, the search from there seldom reaches it, and a schedule that
 * fits by computing some node more than C_v times says at once that more
 * copies reach the budget.  Then, with `probe` and unless C_v is kept,
 * the copies probe (seeds_probe, at most 5% of the time limit), a fourth
 * baseline: the fixed-order solve's; not free order's, which probes the
 * stages of the order it chose, nor `remat info`'s, whose bound stays
 * the same from run to run. */
void seeds_base_run(seeds_base *S, const remat_graph *g, const remat_solve_params *p,
                    int probe);

/* The copies probe (of p: the budget, the stop flag and the seed): on
 * g's stages, with any number of copies of the
 * nodes whose c[v] is 2 or more (graph_copies_open: C_v = 1 still forbids
 * recomputing, a node's own C_v stays), the
 * greedy (heur.h), then annealing (anneal.h) from its schedule: one short
 * run, and while the best computes some node more than c[v] times more
 * runs with new seeds, within `seconds` (seeds.c says how long each); not
 * on graphs of more than 2,000 nodes.  The walk on demand (demand.h)
 * too: its schedule is offered, and where the greedy's is above the
 * budget every other run starts from it.  The best schedule found (within
 * budget and shortest, else of least peak) goes to r
 * (remat_result_init'ed by the caller).  Where the caller's C_v holds the
 * search in a basin that more copies of a few nodes leave (a value
 * recomputed right before each of its readers while its inputs stay
 * live), it finds the shorter schedule in a second or two, and the raise
 * (seeds_base_raise) puts it in the model.  Returns nonzero if a schedule
 * failed re-simulation (a bug; r->seq is then NULL). */
int seeds_probe(const remat_graph *g, const remat_solve_params *p, const int *c, double seconds,
                remat_result *r);

/* The copies probe on the stages of `on` (g renumbered, node i is g's
 * perm[i]; perm NULL: g itself), with B's C_v, for the SEEDS_PROBE share of
 * the time limit: where its schedule fits the budget, C_v is raised to its
 * copies where it is 2 or more (as the baselines raise it) and *seq (g's
 * nodes, allocated) is set; returns whether it fits. */
int seeds_probe_order(best *B, const remat_graph *on, const int *perm, int **seq, int *len);

/* The pebbling paths' schedule (pebble_schedule, pebble.h: each sink
 * computed from nothing, the values of C_v = 1 in c held), searched for
 * `seconds` (at most SEEDS_PATHS_MAX), of at most SEEDS_PATHS_STEPS steps
 * per node: a sequence within p->budget in some order with more copies
 * where c is 2 or more, a start for an annealing where nothing else fits
 * (it recomputes much of the graph before each sink).  Allocated; NULL
 * when there is none. */
#define SEEDS_PATHS_MAX 2.0
#define SEEDS_PATHS_STEPS 64
int *seeds_paths(const remat_graph *g, const remat_solve_params *p, const int *c, double seconds,
                 int *len);

/* The C_v to build the model with: the caller's (p->copies, else
 * p->default_copies), raised to the copies of a node in a baseline
 * schedule within the budget where the caller's C_v is at least 2.
 * Allocated, g->n entries; NULL when no baseline fits or p->keep_copies
 * (the caller's then).  *raised (when not NULL): how many nodes it
 * raised. */
int *seeds_base_copies(const seeds_base *S, const remat_graph *g, const remat_solve_params *p,
                       int *raised);

/* The same raise applied to c (g->n entries) in place, unless
 * p->keep_copies; returns how many nodes it raised. */
int seeds_base_raise(const seeds_base *S, const remat_graph *g, const remat_solve_params *p,
                     int *c);

/* Offer the baselines' schedules within the budget to B: with `stages`
 * only those on the input order's stages (the stage model's), else any;
 * one that computes a node more than B's C_v times is not taken (a
 * verbose line says so). */
void seeds_base_offer(best *B, const seeds_base *S, int stages);

void seeds_base_free(seeds_base *S);

/* The solve's seeds, each offered to B (trace phase 0) when it keeps to
 * C_v: the warm start (remat_solve_params.warm_seq), the baselines of S
 * that fit the budget (may be NULL), and unless --no-heuristic the
 * heuristics (5% of the time; at least what the greedy needs on large
 * graphs).  Sets r->t_phase[0], S's time included. */
void seeds_solve(best *B, const seeds_base *S);

/* The MILP's seeds (a milp_params.seeds): the baselines (5% of the time
 * limit), the heuristics (5%), while nothing fits the copies probe
 * (seeds_probe with the MILP's C_v, at most 5%; not above 2,000 nodes),
 * while nothing fits still LP rounding (10%), then
 * the polish of the best (5%); each improvement is offered to r and gets a
 * progress line.  Returns 0, or nonzero with err set when a schedule
 * fails re-simulation. */
int seeds_milp(const remat_graph *g, const milp_params *p, remat_result *r, double t0,
               char *err, size_t errlen);

#endif
