/* heur.h -- fast C heuristics that produce schedules directly on the stage
 * axis (so that the CP model can take them as a warm start). */
#ifndef REMAT_HEUR_H
#define REMAT_HEUR_H

#include "deadline.h"
#include "remat.h"
#include "worker.h"

/* What a run did (for -v): the greedy's time and whether it reached the
 * budget, the exchange passes that improved, the ruin-and-recreate
 * iterations, the total time. */
typedef struct heur_stats {
  double t_greedy, t_total;
  int greedy_fits, exchanges;
  long long lns_iters;
} heur_stats;

typedef struct heur_params {
  int64_t budget;
  const int *copies;   /* C_v limit per node (NULL: unlimited) */
  deadline deadline;   /* when to stop (heur_params_init: 1 s from then) */
  heur_stats *stats;   /* filled in when not NULL */
  /* report: each schedule, named "greedy", "exchange" or "heuristic";
   * stop, seed (the heuristics neither poll, halt nor tick) */
  worker_io io;
} heur_params;

void heur_params_init(heur_params *p);

/* Run the heuristics; each schedule is reported (p->io).  Returns the
 * number of schedules found. */
int heur_run(const remat_graph *g, const heur_params *p);

#endif
