/* wbound.h -- lower bounds, proofs of optimality and of infeasibility
 * from the window model (wmodel.h), solved with CBC.
 *
 * The window starts at the stages where the input order is over budget
 * (plus `margin` stages after them) with the live values and `depth`
 * levels of their predecessors; CBC solves it in a child process
 * (child.h), with the incumbent's duration as cutoff when one is given,
 * so that its time goes into the bound.  Its optimum is decoded into a
 * schedule (the window's recomputations, the closure's in the stage after
 * it) and re-simulated: within budget, it is an optimal schedule;
 * otherwise each over-budget step refines the model, and the model is
 * solved again: a memory row for a step that recomputes a node
 * (wm_step_row), the values held there that the model leaves free (added
 * to V_t up to their reader), or a wider window when the step is outside
 * it.  Each round is a relaxation at least as tight as the last; the loop
 * ends with a proof (CBC finds nothing below the incumbent: it is
 * optimal; nothing at all: no schedule fits), an optimal schedule, or the
 * best bound when the time runs out. */
#ifndef REMAT_WBOUND_H
#define REMAT_WBOUND_H

#include <stdint.h>

#include "remat.h"

/* Models with more matrix entries than this are not built. */
#define WBOUND_MAX_NONZEROS 5000000LL
/* ... or with more (stage, node) cells in the window than this. */
#define WBOUND_MAX_CELLS 4000000LL

typedef struct wbound_params {
  int64_t budget;      /* M in bytes */
  const int *copies;   /* C_v per node (0: any) or NULL: any number */
  int64_t incumbent;   /* the duration increase of a schedule known to
                          fit M with at most C_v copies (CBC's cutoff), or
                          -1 (none: CBC looks for the model's optimum) */
  double time_limit;   /* seconds for all rounds (10) */
  volatile int *stop;  /* stop (keeping the bound) when nonzero; may be NULL */
  int depth;           /* predecessor levels modelled past the live values (1) */
  int margin;          /* window stages past the last overloaded one, and
                          added around a step outside it (3) */
  long long max_nonzeros; /* 0: WBOUND_MAX_NONZEROS */
  int verbose;         /* 1: one line per round on stderr */
  /* called (may be NULL) each time the bound rises, with the new lower
   * bound on the duration increase */
  void (*on_bound)(void *ctx, int64_t increase);
  /* called (may be NULL) before each round: the duration increase of the
   * best schedule known by now to fit M with at most C_v copies, or -1;
   * a lower one than the incumbent replaces it as the cutoff */
  int64_t (*incumbent_now)(void *ctx);
  void *ctx;
} wbound_params;

void wbound_params_init(wbound_params *p);

typedef enum wbound_status {
  WBOUND_OPTIMAL = 0,    /* increase is the optimum (the incumbent's, or seq's) */
  WBOUND_BOUND = 1,      /* increase is a lower bound */
  WBOUND_INFEASIBLE = 2, /* no schedule on the stage axis fits M with C_v */
  WBOUND_NONE = 3        /* no bound (why says why) */
} wbound_status;

typedef struct wbound_out {
  wbound_status status;
  int64_t increase; /* lower bound on duration - sum of all durations */
  int *seq, len;    /* a schedule within budget (C_v kept) the model found:
                       optimal when status is WBOUND_OPTIMAL; or NULL */
  int rounds;       /* CBC runs */
  int a, b;         /* the last window */
  int cols, rows, lazy_rows;
  long long nnz, nodes;
  double seconds;
  char why[128];
} wbound_out;

/* Solve for g at p->budget (at least max_v: remat_result_precheck).
 * Stops early, keeping the bound, when *p->stop is set or, in a child
 * process, when child_stopping() says so.  Returns o->status. */
wbound_status wbound_solve(const remat_graph *g, const wbound_params *p, wbound_out *o);

void wbound_out_free(wbound_out *o);

const char *wbound_status_name(wbound_status s);

#endif
