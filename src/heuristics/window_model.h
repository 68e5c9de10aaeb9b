/* window_model.h -- the window sub-model: re-decide the recomputations of a set
 * of nodes R inside a window of stages, everything else fixed, as a small
 * FlatZinc model.
 *
 * Given the current schedule (a set of stage events, see plan.h) and its
 * simulation, the window [T0, T1] (the events of stages k0..k1) and R:
 *   - the variable nodes are R and their predecessors P; their copies that
 *     meet the window become intervals clipped to the window: fixed starts
 *     (first copies, P's recomputations, copies entering from the left,
 *     which must stay live until T0) with free ends, and for each node of
 *     R up to C_v - (its other copies) free recomputations at its slots in
 *     the window's stages (or parked when inactive);
 *   - a variable node live at T1 now (read after the window) must still
 *     have an active copy covering T1, so the memory after the window is
 *     unchanged; no other copy reaches past T1;
 *   - every step inside the window, fixed or free, finds each variable
 *     predecessor live (the paper's reservoir condition);
 *   - memory: one cumulative over the clipped intervals plus the fixed
 *     nodes' load inside the window as fixed tasks; capacity M (phase 2) or
 *     a peak variable to minimise (phase 1);
 *   - a node's copies never overlap (one unary resource per node).
 * The fixed nodes' lifetimes can only get shorter, so a solution of the
 * sub-model is a schedule within budget; the caller re-simulates it anyway.
 * Phase 2 minimises the duration of R's recomputations in the window, which
 * may not exceed the current one (phase 1: the window's peak load).  The
 * model carries the current schedule as relax_and_reconstruct's initial
 * values: a search that fixes all of them first (win_neighbourhood) starts
 * from it. */
#ifndef REMAT_WINDOW_MODEL_H
#define REMAT_WINDOW_MODEL_H

#include "model.h"
#include "plan.h"
#include "util.h"

typedef struct win {
  const model *md;
  int k0, k1;   /* stages */
  int t0, t1;   /* events */
  int nfree;    /* free recomputation slots */
  int *slot_node;
  int nold;     /* R's current recomputations in the window (replaced) */
  int *old_key;
  int *old_end; /* their last readers (clipped to T1) */
  long long bound; /* phase 2: current duration of those (scaled); phase 1:
                      current max load in the window (scaled) */
  int too_big;     /* left out: past Gecode's cumulative limits (win_build) */
} win;

/* Build the sub-model of schedule s (evaluated in E) for nodes R (flags
 * per node) and stages [k0, k1]; write its FlatZinc.  Returns the number
 * of free slots (0: nothing to decide, or W->too_big: the window is too
 * large for Gecode's cumulative; nothing written). */
int win_build(win *W, const model *md, const plan *s, const plan_eval *E,
              const unsigned char *R, int k0, int k1, util_buf *out);

/* Apply a solution (FlatZinc text with the output variables WA<j>, WS<j>
 * of the free slots) to s: remove R's old recomputations in the window,
 * add the active slots'.  Returns 0, or -1 if the text cannot be read. */
int win_apply(const win *W, const char *text, plan *s);

void win_free(win *W);

/* The gz_neighbourhood_fn for window models: the first search fixes every
 * variable to the current schedule, later ones search completely. */
int win_neighbourhood(void *ctx, long long restart, int n, int *values,
                      int have_solution, unsigned char *fix);

#endif
