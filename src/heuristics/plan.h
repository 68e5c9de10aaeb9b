/* plan.h -- stage-axis schedules for the C heuristics: a schedule is a
 * sorted set of events of the stage model (model_event(stage, v + 1)), so
 * every schedule here is stage-structured and can warm-start the CP model;
 * and a fast evaluator (peak, duration, excess over a budget, lifetimes)
 * with reusable buffers, in full (plan_run) or move by move (plan_move). */
#ifndef REMAT_PLAN_H
#define REMAT_PLAN_H

#include <stdint.h>

#include "remat.h"

typedef struct plan {
  int *key; /* sorted events */
  int len, cap;
} plan;

void plan_init_topo(plan *s, int n); /* the input order: first copies only */
void plan_copy(plan *dst, const plan *src);
void plan_free(plan *s);
int plan_find(const plan *s, int key); /* index of the first key >= key */
int plan_has(const plan *s, int key);
int plan_insert(plan *s, int key);     /* 1 if inserted */
int plan_erase(plan *s, int key);      /* 1 if erased */
int plan_node(int key);               /* node of an event */
int plan_is_first(int key);           /* a node's first computation? */
/* Build from a sequence; -1 if it is not stage-structured. */
int plan_from_seq(plan *s, const int *seq, int len, int n);

/* Evaluation of a schedule against a budget. */
typedef struct plan_eval {
  const remat_graph *g;
  int64_t M;
  int cap;
  int *seq, *lastuse, *latest, *ncopy;
  int *rec, nrec; /* the steps that recompute, ascending */
  int64_t *mem, *delta;
  int **cp, *cpn, *cpcap; /* per node: its copies' events (plan_track) */
  int64_t peak, duration, excess; /* excess: sum over steps of mem - M > 0 */
  int peak_step, over;             /* over: steps above M; peak_step:
                                      after plan_move, plan_peak_step */
  int len;                         /* steps of the evaluated schedule */
  long long evals;
} plan_eval;

void plan_eval_init(plan_eval *E, const remat_graph *g, int64_t M);
void plan_eval_free(plan_eval *E);
void plan_run(plan_eval *E, const plan *s);
/* Incremental evaluation.  plan_track is plan_run that also keeps each
 * node's events; after it, plan_move erases the recomputation out and
 * inserts the recomputation in (either 0: none; an absent out, a present
 * in and first computations are skipped) in s and brings E up to date, as
 * plan_run(E, s) would (E->latest and E->peak_step aside), in O(len + the degrees of the
 * nodes involved) instead of O(len + edges); undo a move by swapping out
 * and in. */
void plan_track(plan_eval *E, const plan *s);
void plan_move(plan_eval *E, plan *s, int out, int in);
/* The first step at the peak (plan_run finds it; plan_move leaves it to
 * this function, which scans on the first call after a move). */
int plan_peak_step(plan_eval *E);
/* After plan_track: the first step after event key that computes a
 * successor of v, if before step lim (< s->len); else lim. */
int plan_next_reader(const plan_eval *E, const plan *s, int v, int key, int lim);
/* After plan_track: the event of v's latest copy before event key, or 0. */
int plan_copy_before(const plan_eval *E, int v, int key);
/* The step an annealing move relieves: one of the `over` steps whose mem
 * exceeds M, at random, or else the fullest of four random steps. */
int plan_pick_step(const int64_t *mem, int len, int over, int64_t M,
                   uint64_t *rng);
/* The excess an annealing's cost weighs (anneal.h): once something fits
 * (peak_only), how far the peak is above M; until then `sum`, the memory
 * above M summed over the steps. */
static inline int64_t plan_cost_excess(int peak_only, int64_t sum, int64_t peak, int64_t M) {
  return !peak_only ? sum : peak > M ? peak - M : 0;
}

#endif
