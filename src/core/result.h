/* result.h -- results: the best-schedule bookkeeping shared by all methods
 * (remat_result_* in remat.h), JSON output, reading result files and
 * schedules back, and the one-line summary. */
#ifndef REMAT_RESULT_H
#define REMAT_RESULT_H

#include <jansson.h>
#include <stdio.h>

#include "remat.h"

/* The digits a result's reals are written with (TDIs, seconds). */
#define RESULT_JSON_REALS JSON_REAL_PRECISION(10)

/* The result as a JSON object (the documented output format). */
json_t *result_to_json(const remat_result *r, const remat_graph *g);

/* Write result_to_json plus `extra` fields (may be NULL; its keys are
 * merged in) to path.  Returns 0 or REMAT_EUSAGE with a message. */
int result_write_json(const remat_result *r, const remat_graph *g,
                      json_t *extra, const char *path, char *err,
                      size_t errlen);

/* A result file read back: what "remat solve|milp|baseline -o" writes,
 * or any schedule (an object with a "sequence", or a bare array of node
 * ids).  The one reader of result JSON (eval, plot, batch): a field the
 * file lacks or holds with another type is NULL, -1 (numbers) or 0
 * (flags).  The strings point into root. */
typedef struct result_file {
  json_t *root;             /* the document (an object or an array) */
  char *path;               /* as named in messages ("<stdin>" for -) */
  const char *graph;        /* "graph": the graph's name */
  const char *graph_file;   /* "graph_file" */
  const char *method;
  const char *status;       /* remat_status_name's words, as written */
  const char *message;
  int64_t budget;           /* bytes */
  int64_t base_duration;
  int64_t peak, duration;   /* claimed by the file (re-simulate them) */
  double time_s;            /* 0 when absent */
  double time_to_best_s;    /* < 0: none */
  int has_bound;            /* "lower_bound_tdi_percent" is a number */
  double bound_tdi;         /* that bound, percent */
  int interrupted;          /* "interrupted": true */
  const json_t *sequence;   /* the schedule's array of ids, NULL: none */
} result_file;

/* Read path ("-": standard input).  Returns 0, or REMAT_EUSAGE with a
 * message: "PATH:LINE:COL: JSON syntax error: ..." (a truncated file
 * included), "cannot read PATH: ...", or PATH and why the document is
 * neither an object nor an array.  Free with result_file_free (also after
 * a failure). */
int result_file_load(const char *path, result_file *f, char *err,
                     size_t errlen);
void result_file_free(result_file *f);

/* The schedule as node indices of g (*seq allocated).  Returns 0, or
 * REMAT_EUSAGE when there is no "sequence" array or an entry is not a
 * node of g. */
int result_file_sequence(const result_file *f, const remat_graph *g,
                         int **seq, int *len, char *err, size_t errlen);

/* What a progress plot needs, into r (zeroed first; free with
 * remat_result_free): method (else the file's stem), budget,
 * base_duration, time and the "trace".  Returns 0, or REMAT_EUSAGE when
 * the file is not a result (no trace, base_duration or budget) or a trace
 * entry is not [seconds, phase, peak, duration] (r then holds nothing). */
int result_file_trace(const result_file *f, remat_result *r, char *err,
                      size_t errlen);

/* result_file_load, then result_file_sequence. */
int result_read_sequence(const char *path, const remat_graph *g, int **seq,
                         int *len, char *err, size_t errlen);

/* JSON value of node v's id (an integer when the input used integers). */
json_t *result_node_id(const remat_graph *g, int v);

/* "budget 41687  peak 40820  TDI 0.80%  optimal  9.3s" */
void result_summary(FILE *f, const remat_result *r);

/* Keep the higher of r's lower bound and lb; a rise goes into r's bound
 * trace at `seconds`. */
void result_raise_bound(remat_result *r, double lb, double seconds);

/* Status infeasible, proven for the model `covers` names (a
 * REMAT_COVERS_* value: STAGES, STAGES_COPIES, FIRSTS_COPIES, ANY_ORDER
 * or ANY_ORDER_COPIES) by `by` ("Checkmate's MILP"; NULL: not named),
 * with `why` (NULL: none) after it; the message says what the proof
 * covers, the budget and the best peak found.  The one wording of every
 * infeasibility proof. */
void result_infeasible(remat_result *r, int covers, const char *by, const char *why);

/* result_infeasible for the pebbling proof (pebble.h): no sequence in any
 * order, with any number of recomputations, computes node v within the
 * budget (the message names v). */
void result_infeasible_pebble(remat_result *r, const remat_graph *g, int v);

/* "lower bound: duration D  TDI T%  gap G%" when r has a bound (the gap
 * when a schedule fits, followed by "(N time units)" when it is not zero
 * but prints as 0.000 %); nothing otherwise. */
void result_bound_line(FILE *f, const remat_result *r);

/* "other order: peak P  TDI T%  (...)" when a solve on the input order
 * found a better schedule in another order (r->other_order_duration:
 * solve_hint.h); nothing otherwise. */
void result_other_order_line(FILE *f, const remat_result *r);

/* Append the trace as CSV rows: graph,budget,method,seconds,phase,peak,
 * duration,tdi. */
int result_append_trace_csv(const remat_result *r, const remat_graph *g,
                            const char *path);

#endif
