/* sched.h -- stage-axis schedules for the C heuristics: a schedule is a
 * sorted set of events of the stage model (model_event(stage, v + 1)), so
 * every schedule here is stage-structured and can warm-start the CP model;
 * and a fast evaluator (peak, duration, excess over a budget, lifetimes)
 * with reusable buffers. */
#ifndef REMAT_SCHED_H
#define REMAT_SCHED_H

#include <stdint.h>

#include "remat.h"

typedef struct sch {
  int *key; /* sorted events */
  int len, cap;
} sch;

void sch_init_topo(sch *s, int n); /* the input order: first copies only */
void sch_copy(sch *dst, const sch *src);
void sch_free(sch *s);
int sch_find(const sch *s, int key); /* index of the first key >= key */
int sch_has(const sch *s, int key);
int sch_insert(sch *s, int key);     /* 1 if inserted */
int sch_erase(sch *s, int key);      /* 1 if erased */
int sch_node(int key);               /* node of an event */
int sch_is_first(int key);           /* a node's first computation? */
/* Build from a sequence; -1 if it is not stage-structured. */
int sch_from_seq(sch *s, const int *seq, int len, int n);

/* Evaluation of a schedule against a budget. */
typedef struct sev {
  const remat_graph *g;
  int64_t M;
  int cap;
  int *seq, *lastuse, *latest, *ncopy;
  int64_t *mem, *delta;
  int64_t peak, duration, excess; /* excess: sum over steps of mem - M > 0 */
  int peak_step, over;             /* over: steps above M */
  int len;                         /* steps of the evaluated schedule */
  long long evals;
} sev;

void sev_init(sev *E, const remat_graph *g, int64_t M);
void sev_free(sev *E);
void sev_run(sev *E, const sch *s);
/* Is u a predecessor of v?  (binary search in v's sorted list) */
int sev_is_pred(const remat_graph *g, int u, int v);

#endif
