/* cover_timed.c -- the covering bound ended on time (cover.h).
 *
 * cover_solve runs in a child (child.h): CBC and Clp do not look at the
 * clock everywhere (their root LP, their heuristics), so only a process
 * that can be stopped ends on time.  The child hands each
 * stronger answer to the parent through shared memory as it comes (the
 * plain problem's optimum, then the stronger problems' LP bounds and
 * ends), and is stopped at the time limit; the parent keeps the strongest
 * answer it was given. */
#include <stdio.h>
#include <string.h>

#include "child.h"
#include "cover.h"

/* The child is asked to stop (SIGTERM: its callbacks stop CBC) this long
 * before the time limit and killed at the limit if it has not ended. */
#define COVER_TIMED_GRACE 0.2

/* Two slots, so that the child, killed while writing one, leaves the
 * other, the last it published, whole. */
typedef struct ct_shared {
  cover_out out[2];
  int ready; /* 0: no answer; k: out[k - 1] (release after each write) */
} ct_shared;

typedef struct ct_run {
  const remat_graph *g;
  cover_params p;
  ct_shared *sh;
  cover_out best; /* in the child: the strongest answer so far */
  int have;
} ct_run;

/* In the child: publish o when it says more than the answers before. */
static void ct_answer(void *ctx, const cover_out *o) {
  ct_run *R = ctx;
  if (!R->have)
    R->best = *o;
  else if (!cover_take(&R->best, o))
    return;
  R->have = 1;
  int slot = __atomic_load_n(&R->sh->ready, __ATOMIC_ACQUIRE) == 1 ? 1 : 0;
  R->sh->out[slot] = *o;
  __atomic_store_n(&R->sh->ready, slot + 1, __ATOMIC_RELEASE);
}

static void ct_child(void *ctx) {
  ct_run *R = ctx;
  cover_out o;
  cover_solve(R->g, &R->p, &o);
  ct_answer(R, &o);
}

cover_status cover_solve_timed(const remat_graph *g, const cover_params *p, cover_out *o) {
  ct_run R = {.g = g, .p = *p};
  R.p.plain_done = ct_answer;
  R.p.ctx = &R;
  R.p.incumbent_now = NULL; /* its ctx was the caller's */
  R.sh = child_shared(sizeof *R.sh);
  int signo = 0;
  double stop = p->time_limit - COVER_TIMED_GRACE;
  child_end end = child_run(ct_child, &R, stop > 0.01 ? stop : 0.01, COVER_TIMED_GRACE, NULL,
                            NULL, &signo);
  int k = __atomic_load_n(&R.sh->ready, __ATOMIC_ACQUIRE);
  if (k) {
    *o = R.sh->out[k - 1];
  } else {
    memset(o, 0, sizeof *o);
    o->status = COVER_NONE;
    if (end == CHILD_CRASHED)
      snprintf(o->why, sizeof o->why, "the covering bound's process died of signal %d", signo);
    else
      snprintf(o->why, sizeof o->why, "no answer within %.2fs", p->time_limit);
  }
  child_shared_free(R.sh, sizeof *R.sh);
  return o->status;
}
