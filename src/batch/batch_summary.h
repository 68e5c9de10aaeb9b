/* batch_summary.h -- the batch's summaries: CSV and Markdown, one row per
 * job. */
#ifndef REMAT_BATCH_SUMMARY_H
#define REMAT_BATCH_SUMMARY_H

#include <stdio.h>

#include "batch_records.h"

/* CSV: graph,n,budget,budget_bytes,status,peak,tdi_percent,
 * time_to_best_s,time_s,lower_bound_tdi_percent (one row per job). */
void batch_write_csv(FILE *f, const batch_rec *const *row, int n);
/* Markdown: the same table, then the counts by status and the failures
 * with their reasons. */
void batch_write_md(FILE *f, const batch_rec *const *row, int n,
                    const char *title);

/* The graph column: the file's base name without ".json". */
char *batch_graph_stem(const char *graph);

#endif
