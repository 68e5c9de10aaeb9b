/* order_window.h -- improving an order window by window.
 *
 * While some steps exceed the target P (the peak minus 1), a window of
 * consecutive steps around one of them is reordered with the threshold
 * search (order_dfs.h) so that all its steps are within P, then as far
 * below as the search gets.  The steps outside a window keep their memory
 * (the set before each of them is unchanged), so each window solved
 * removes steps over P; when none is left the peak has gone down.  When
 * no window fixes a step, a few random windows near the peak are
 * reordered within the peak plus a slack (the search's children ranked
 * with noise): a different order, at most a little worse, to start again
 * from; the best order is kept.  For graphs too large or too wide for the
 * exact search. */
#ifndef REMAT_ORDER_WINDOW_H
#define REMAT_ORDER_WINDOW_H

#include <stdint.h>

#include "deadline.h"
#include "order_dfs.h"
#include "remat.h"

typedef struct order_window_params {
  int min_len, max_len;  /* window lengths, doubled from min to max (16, 512) */
  long long budget;      /* sets expanded per window of min_len, in
                            proportion for longer ones (2000) */
  int tries;             /* windows tried per step before a kick (8) */
  int kicks;             /* random windows reordered per kick (4) */
  double kick_slack;     /* their steps may exceed the peak by this
                            fraction of it (0.001) */
  int max_kicks;         /* stop after this many kicks without a better
                            order; 0: no limit (0) */
  deadline deadline;     /* when to stop (DEADLINE_NONE) */
  volatile int *stop;
  uint64_t seed;         /* window offsets and noise (nonzero) */
  /* called with each better order (may be NULL) */
  void (*improved)(void *ctx, const int *ord, int64_t peak);
  void *ctx;
} order_window_params;

void order_window_params_init(order_window_params *p);

typedef struct order_window_out {
  long long windows, solved;  /* windows searched, windows reordered */
  long long kicks;            /* kicks made */
} order_window_out;

/* Improve ord in place with D (initialised on g; its start, allowed nodes,
 * budget and noise are changed) until the deadline or *stop; returns the
 * best peak (ord holds that order). */
int64_t order_window_run(const remat_graph *g, order_dfs *D,
                         const order_window_params *p, int *ord,
                         order_window_out *out);

#endif
