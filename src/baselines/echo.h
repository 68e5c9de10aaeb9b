/* echo.h -- an Echo-style baseline (Zheng et al., ISCA 2020; echo.c):
 * recompute only cheap operators, never a convolution or a matrix
 * product, where that frees memory across the peak, until the schedule
 * fits the budget or nothing more helps.  Operator kinds come from the
 * graph (remat_graph.op, recorded by the importers); without them the
 * nodes cheapest per byte of output count as cheap. */
#ifndef REMAT_ECHO_H
#define REMAT_ECHO_H

#include <stdint.h>

#include "deadline.h"
#include "remat.h"

typedef struct echo_params {
  int64_t budget;     /* M in bytes (required) */
  int max_depth;      /* cheap inputs recomputed along with a value (4) */
  double t0;          /* util_now() at the start, for trace times (0: now) */
  deadline deadline;  /* when to stop, keeping the best (DEADLINE_NONE) */
  volatile int *stop; /* stop when nonzero, keeping the best */
  int phase;          /* trace phase of offered schedules (0) */
} echo_params;

void echo_params_init(echo_params *p);

/* Run, offering every improvement to r.  Returns 0, or REMAT_EINTERNAL
 * when a schedule failed re-simulation (a bug). */
int echo_run(const remat_graph *g, const echo_params *p, remat_result *r);

/* Is an operator kind compute-heavy (convolutions, matrix products,
 * attention, recurrent cells)? */
int echo_op_is_heavy(const char *op);

/* Per node: may Echo recompute it?  (allocated, n entries) */
unsigned char *echo_cheap(const remat_graph *g);

#endif
