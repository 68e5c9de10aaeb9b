/* plot.h -- the three pictures of `remat plot`, as SVG documents written to
 * a FILE (see svg.h): retention intervals of a schedule, memory in use per
 * step, and solve progress (TDI against time).
 *
 * The SVG is meant to be read by programs too:
 *   - <rect class="plot-area" data-xmin data-xmax data-ymin data-ymax> gives
 *     the data range of the plot area's edges (memory, progress);
 *   - intervals: one <rect class="interval" data-node data-index data-copy
 *     data-start data-end> per computed copy (data-end is the copy's last
 *     reader, inclusive: the copy is held during steps start..end), and one
 *     mark per step with class "compute" (first computation) or
 *     "recompute", with data-step;
 *   - memory: per schedule, <polyline class="memory" data-label data-peak>
 *     with two points per step (the step's left and right edge at the
 *     step's memory), and <line class="budget" data-budget>;
 *   - progress: per result, <polyline class="progress" data-method> with
 *     the best within-budget TDI so far, and <circle class="improvement">
 *     / <circle class="over-budget"> for the trace's points. */
#ifndef REMAT_PLOT_H
#define REMAT_PLOT_H

#include <stdint.h>
#include <stdio.h>

#include "remat.h"

enum {
  PLOT_X_AUTO = 0, /* memory: steps if all schedules are equally long,
                      else progress through each schedule (0..100%) */
  PLOT_X_STEP,
  PLOT_X_PROGRESS,
};

typedef struct plot_opts {
  const char *title; /* NULL: "<graph name>: <picture>" */
  int64_t budget;    /* memory budget for titles and the budget line, <0 none */
  int x_axis;        /* PLOT_X_* (memory plot) */
} plot_opts;

void plot_opts_init(plot_opts *o);

/* A schedule to draw: node indices, and its legend text. */
typedef struct plot_schedule {
  const char *label;
  const int *seq;
  int len;
} plot_schedule;

/* A solve to draw: the result's method, budget, base_duration, trace and
 * t_total are used. */
typedef struct plot_run {
  const remat_result *result;
  const char *graph; /* graph name, or NULL */
  const char *label; /* legend text, NULL: built from method, graph, budget */
} plot_run;

/* The Moccasin paper's Figure 3 for a schedule: one row per node (node
 * index order), one bar per computed copy from its compute step to its last
 * reader, compute steps marked, recomputations in another colour.  Returns
 * 0; REMAT_EUSAGE if the schedule is invalid for g; REMAT_EINTERNAL if
 * writing failed (a message in err either way). */
int plot_intervals(FILE *f, const remat_graph *g, const int *seq, int len,
                   const plot_opts *o, char *err, size_t errlen);

/* Memory in use at each step of ns schedules (remat_simulate's per-step
 * memory) against the budget line; peak and TDI in the legend.  Returns as
 * plot_intervals (an invalid schedule's message names its label). */
int plot_memory(FILE *f, const remat_graph *g, const plot_schedule *s,
                int ns, const plot_opts *o, char *err, size_t errlen);

/* TDI against solve time (log axis) for nr solves, like the paper's
 * Figure 5: a step curve of the best within-budget TDI so far per run, the
 * over-budget trace points marked apart.  Returns 0 or REMAT_EINTERNAL. */
int plot_progress(FILE *f, const plot_run *runs, int nr, const plot_opts *o,
                  char *err, size_t errlen);

/* One point of a budget/overhead curve: how a method did at one budget. */
typedef struct plot_point {
  double budget;        /* the budget as a share of the input order's peak */
  int64_t budget_bytes; /* the budget */
  int status;           /* REMAT_STATUS_* */
  double tdi;           /* its schedule's TDI (%), when one fits */
  double bound_tdi;     /* a lower bound on the TDI (%), or NAN */
} plot_point;

/* A method's curve over budgets. */
typedef struct plot_curve {
  const char *label; /* legend text: the method and its options */
  const char *graph; /* the graph's name, or NULL */
  const plot_point *pts;
  int n;
} plot_curve;

/* TDI against the budget for nc curves, like Checkmate's Figure 5: a
 * line through each curve's schedules within budget, its budgets without
 * one marked on the axis (proven infeasible ones crossed), and the budgets
 * where no curve has a schedule within budget shaded.  SVG: <polyline
 * class="tradeoff" data-label>, one <circle> per point whose class is its
 * status, with data-budget (share of the peak), data-budget-bytes, and
 * data-tdi when a schedule fits; <rect class="infeasible-zone"
 * data-budget> per shaded budget.  Returns 0 or REMAT_EINTERNAL. */
int plot_tradeoff(FILE *f, const plot_curve *c, int nc, const plot_opts *o, char *err,
                  size_t errlen);

#endif
