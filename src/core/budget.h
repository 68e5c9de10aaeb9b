/* budget.h -- budget parsing and size formatting (remat_budget_parse and
 * remat_format_size in remat.h), plus budget lists ("0.9,0.8"). */
#ifndef REMAT_BUDGET_H
#define REMAT_BUDGET_H

#include "remat.h"

/* Split "0.9,0.8" into at most `max` items (each a pointer into a freshly
 * allocated copy returned through *storage).  Returns the count, or -1. */
int budget_split(const char *list, char **items, int max, char **storage);

#endif
