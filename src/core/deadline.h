/* deadline.h -- the one clock of every time limit.  A deadline is a time
 * on util_now()'s clock (monotonic seconds) at which work stops;
 * DEADLINE_NONE, the one value for "no limit", never passes.  A limit in
 * seconds becomes a deadline once, where the work it limits starts
 * (deadline_after, deadline_in); what runs inside gets the deadline, or a
 * sooner one for its share (deadline_sooner). */
#ifndef REMAT_DEADLINE_H
#define REMAT_DEADLINE_H

#include <math.h>

#include "util.h"

typedef struct deadline {
  double at; /* util_now() time; HUGE_VAL: none */
} deadline;

#define DEADLINE_NONE ((deadline){HUGE_VAL})
/* Due at once: what stops a search from within. */
#define DEADLINE_PAST ((deadline){-HUGE_VAL})

static inline int deadline_none(deadline d) { return d.at == HUGE_VAL; }

/* `seconds` after t0 (a util_now() time). */
static inline deadline deadline_after(double t0, double seconds) {
  return (deadline){t0 + seconds};
}

/* `seconds` from now. */
static inline deadline deadline_in(double seconds) {
  return deadline_after(util_now(), seconds);
}

/* The public API's time limits (remat.h): seconds after t0, where a limit
 * <= 0 means none. */
static inline deadline deadline_limit(double t0, double seconds) {
  return seconds > 0 ? deadline_after(t0, seconds) : DEADLINE_NONE;
}

static inline int deadline_passed(deadline d) {
  return !deadline_none(d) && util_now() > d.at;
}

/* Seconds until d (negative once passed; HUGE_VAL for none). */
static inline double deadline_left(deadline d) {
  return deadline_none(d) ? HUGE_VAL : d.at - util_now();
}

/* Halfway from t0 to d (none stays none). */
static inline deadline deadline_halfway(double t0, deadline d) {
  return deadline_none(d) ? d : deadline_after(t0, (d.at - t0) / 2);
}

static inline deadline deadline_sooner(deadline a, deadline b) {
  return a.at <= b.at ? a : b;
}

#endif
