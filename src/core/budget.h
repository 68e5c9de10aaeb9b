/* budget.h -- budget parsing and size formatting (remat_budget_parse and
 * remat_format_size in remat.h), plus budget lists ("0.9,0.8",
 * "1.0:0.5:0.1"). */
#ifndef REMAT_BUDGET_H
#define REMAT_BUDGET_H

#include "remat.h"

/* The most items a budget list may have (budget_split's max). */
#define BUDGET_MAX_ITEMS 1000

/* Split a budget list into at most `max` items, each a pointer into one
 * allocated block returned through *storage (free it; NULL on failure).
 * The list is comma-separated items (blanks around them ignored), each a
 * budget as given ("0.9", "90%", "12GiB": checked by the caller) or a
 * range FROM:TO:STEP: FROM, FROM -/+ STEP, ... towards TO, TO included
 * when a step reaches it.  STEP is positive (the direction is FROM's to
 * TO's); the three share their unit (none, %, or a size unit such as
 * GiB); they are computed exactly in decimal and written in the shortest
 * decimal form ("1.0:0.3:0.05" gives 1, 0.95, ..., 0.3).  Returns the
 * count (at least 1), or -1 with a message: an empty list or item, a
 * range that is not three numbers with one unit, a STEP that is not
 * positive, more than `max` items. */
int budget_split(const char *list, char **items, int max, char **storage,
                 char *err, size_t errlen);

#endif
