/* batch_check.h -- how a batch job ended: its result file (result.h's
 * reader) re-simulated against its graph into a record, and its exit
 * code, signal and log classified into a status. */
#ifndef REMAT_BATCH_CHECK_H
#define REMAT_BATCH_CHECK_H

#include "batch_records.h"
#include "remat.h"

/* Read a result JSON as written by "remat solve -o", re-simulate its
 * schedule against its graph (g, or r->graph, or the result's
 * "graph_file" when g is NULL) and fill r's result fields (n,
 * budget_bytes, topo_peak, peak, duration, tdi, times, status, result
 * path).  *interrupted (may be NULL) receives the result's "interrupted"
 * flag.  On any problem r->status becomes "error" (or "failed" if the
 * graph cannot be read) with a reason naming the file (PATH:LINE:COL for
 * a JSON syntax error), and -1 is returned. */
int batch_rec_from_result(batch_rec *r, const char *result_path,
                          const remat_graph *g, int *interrupted);

/* How a job's process ended. */
typedef struct batch_exit {
  int exited;      /* exited normally with `code` */
  int code;
  int signal;      /* killed by this signal */
  int timed_out;   /* the batch stopped it for overrunning its time limit */
  int interrupted; /* the batch stopped it (Ctrl-C) */
} batch_exit;

/* Classify a finished job: fills r's status, exit code, signal, reason and
 * (when the result file holds a schedule) its re-checked numbers.  log is
 * the job's stderr (may be NULL): its last line is the reason of a bad
 * input. */
void batch_classify(batch_rec *r, const batch_exit *e, const char *result_path,
                    const remat_graph *g, const char *log);

#endif
