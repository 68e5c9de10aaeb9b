/* batch_merge.h -- "remat batch --merge": records from per-job result
 * files (as written by "remat solve -o", e.g. by jobs run elsewhere from
 * --emit-jobs), each re-checked against its graph (batch_check.h) and
 * named by its NAME.job side file when there is one (else by its graph
 * and its budget in bytes); a NAME.job without its NAME.json is recorded
 * as failed (its log ends in "remat solve: ...") or missing. */
#ifndef REMAT_BATCH_MERGE_H
#define REMAT_BATCH_MERGE_H

#include <stddef.h>

#include "batch_records.h"

/* Add the records of inputs (result files, or directories of NAME.json
 * and NAME.job files) to R.  Returns 0, or REMAT_EUSAGE with a message
 * when an input cannot be read or there is no result at all. */
int batch_merge_collect(char *const *inputs, int n, batch_recs *R, char *err,
                        size_t errlen);

/* Sort by graph file, then budget (largest first), then id. */
void batch_merge_sort(batch_recs *R);

#endif
