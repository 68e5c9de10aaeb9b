/* anneal.h -- simulated annealing over stage-axis schedules (plan.h).
 *
 * A schedule on the stage axis is the set of its recomputation events; any
 * such set is a valid schedule (the first copies are fixed, every input is
 * computed before its reader), so the search moves freely: add a
 * recomputation of a value live across an overloaded step, remove one,
 * shift one to another stage, or replace one.  The cost is
 *     duration + lambda * excess,
 * excess being, until something fits, the memory above the budget summed
 * over the steps (every move that relieves any overloaded step pays: the
 * way to a first fit), and from then on how far the peak is above the
 * budget (moves between schedules over budget at several steps are free
 * until the last step fits: with the sum there too the search ended in
 * longer schedules on the large random graphs, with the peak alone
 * farther from the budget on graphs that do not fit;
 * bench/RESULTS.md#anneal-excess); lambda rises while the search stays over
 * budget and falls while it fits, so the search crosses the boundary in both
 * directions; a copy beyond C_v is penalised the same way.  When a whole
 * cycle ends with
 * nothing within budget, the excess counts over the best peak less a step
 * instead, until something fits: the sum then counts only the steps near
 * the peak, as phase 1's max(peak, M) does, rather than every step above
 * a budget that may be far below (bench/RESULTS.md#table3: on hard graphs
 * it ends much nearer the budget; graphs that fit within the first cycle
 * are not affected).
 * Cooling runs in cycles that restart from the best schedule and grow;
 * when they stop improving, a new epoch starts from the starting
 * schedule.  A move is evaluated incrementally (plan_move: the lifetimes
 * of the few copies it touches, then a scan of the memory per step) and
 * undone the same way when rejected (bench/RESULTS.md#anneal-incremental). */
#ifndef REMAT_ANNEAL_H
#define REMAT_ANNEAL_H

#include "deadline.h"
#include "remat.h"
#include "worker.h"

typedef struct anneal_params {
  int64_t budget;
  const int *copies; /* C_v per node, first copy included (NULL or 0: any) */
  deadline deadline; /* when to stop (anneal_params_init: 1 s from then) */
  long long max_moves; /* stop after this many moves (0: no limit) */
  /* stop once no new best came for stall seconds and for longer than the
   * search took to find the last one (0: run to the time limit) */
  double stall;
  /* the moving target's step, a fraction of the budget (0.005; 0: the
   * excess always counts over the budget) */
  double target_step;
  /* report: each new best, within budget and shorter, or (while nothing
   * fits) a lower peak; poll: moves there when it is better; tick: the
   * moves made; stop, halt, seed */
  worker_io io;
} anneal_params;

void anneal_params_init(anneal_params *p);

/* Anneal from seq[0..len) (stage-structured; the input order if seq is
 * NULL or not stage-structured) until the time limit, a stop, a halt,
 * max_moves or a stall.  Returns the number of moves made (0 without
 * searching on graphs of more than 60,000 nodes). */
long long anneal_run(const remat_graph *g, const int *seq, int len,
                     const anneal_params *p);

#endif
