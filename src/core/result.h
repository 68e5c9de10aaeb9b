/* result.h -- results: the best-schedule bookkeeping shared by all methods
 * (remat_result_* in remat.h), JSON output, reading schedules back, and the
 * one-line summary. */
#ifndef REMAT_RESULT_H
#define REMAT_RESULT_H

#include <jansson.h>
#include <stdio.h>

#include "remat.h"

/* The result as a JSON object (the documented output format). */
json_t *result_to_json(const remat_result *r, const remat_graph *g);

/* Write result_to_json plus `extra` fields (may be NULL; its keys are
 * merged in) to path.  Returns 0 or REMAT_EUSAGE with a message. */
int result_write_json(const remat_result *r, const remat_graph *g,
                      json_t *extra, const char *path, char *err,
                      size_t errlen);

/* Load a JSON file ("-": standard input, named <stdin> in messages);
 * NULL with a message (file:line:col for syntax errors) on failure. */
json_t *result_json_load(const char *path, char *err, size_t errlen);

/* The schedule in root (loaded from path): an object with "sequence"
 * (node ids) or a bare array of ids.  *seq is allocated.  Returns 0 or
 * REMAT_EUSAGE. */
int result_sequence_from_json(const json_t *root, const char *path,
                              const remat_graph *g, int **seq, int *len,
                              char *err, size_t errlen);

/* result_json_load, then result_sequence_from_json. */
int result_read_sequence(const char *path, const remat_graph *g, int **seq,
                         int *len, char *err, size_t errlen);

/* JSON value of node v's id (an integer when the input used integers). */
json_t *result_node_id(const remat_graph *g, int v);

/* "budget 41687  peak 40820  TDI 0.80%  optimal  9.3s" */
void result_summary(FILE *f, const remat_result *r);

/* "lower bound: duration D  TDI T%  gap G%" when r has a bound (the gap
 * when a schedule fits); nothing otherwise. */
void result_bound_line(FILE *f, const remat_result *r);

/* Append the trace as CSV rows: graph,budget,method,seconds,phase,peak,
 * duration,tdi. */
int result_append_trace_csv(const remat_result *r, const remat_graph *g,
                            const char *path);

#endif
