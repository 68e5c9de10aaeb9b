/* batch_records.h -- the batch's records: one per finished job, a line of
 * the JSONL results file (appended as jobs end, reloaded to resume or
 * summarise), their statuses and the batch's exit code. */
#ifndef REMAT_BATCH_RECORDS_H
#define REMAT_BATCH_RECORDS_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "batch_jobs.h"

/* One line of the JSONL results file. */
typedef struct batch_rec {
  char *id;          /* the job id */
  char *graph;       /* graph file */
  char *name;        /* graph name (from the file), or NULL */
  char *budget;      /* budget text */
  char *options;     /* the job's options as one string ("" if none) */
  char *status;      /* see batch_status_* below */
  char *result;      /* path of the job's result JSON, or NULL */
  char *reason;      /* why it failed / a note, or NULL */
  int n;             /* nodes, -1 unknown */
  int64_t budget_bytes, topo_peak; /* -1 unknown */
  int has_schedule;
  int64_t peak, duration;          /* of the schedule (valid if has_schedule) */
  double tdi;                      /* percent */
  int exit_code;     /* the solver's exit code, -1 if it did not exit */
  int signal;        /* the signal that ended it, 0 if none */
  double time_s;     /* the solver's own time */
  double time_to_best_s; /* < 0: none */
  int has_bound;         /* a lower bound (solve --lp-bound, or proven) */
  double bound_tdi;      /* the lower bound on the TDI, percent */
  double wall_s;     /* wall-clock time of the job (batch side) */
  char *ended;       /* ISO 8601 UTC time the record was made, or NULL */
  char *slurm_task;  /* "JOBID_TASK" when the job ran as a Slurm array
                        task (at most one record per task), or NULL */
} batch_rec;

/* Statuses: "optimal", "feasible" (a schedule within budget),
 * "over-budget", "infeasible" (nothing within budget: a normal outcome),
 * "failed" (bad input: exit 2), "crashed" (killed by a signal), "timeout"
 * (overran its time limit without a schedule), "error" (internal error or
 * a result that does not re-check), "missing" (merge: no result file),
 * "interrupted" (the batch was stopped: redone on --resume), and in
 * summaries only "pending" (not run yet).  Every status but "interrupted"
 * and "pending" is final. */
int batch_status_final(const char *status);
int batch_status_fits(const char *status);
int batch_status_failure(const char *status);

void batch_rec_init(batch_rec *r);
void batch_rec_free(batch_rec *r);
/* Fill the job fields (id, graph, budget, options) from a job. */
void batch_rec_from_job(batch_rec *r, const batch_job *j);
void batch_rec_set(char **field, const char *value);

/* The job fields of r (id, graph, budget, options) from a job's side file
 * (batch_job_write_info).  Returns 0, or -1 if it cannot be read. */
int batch_job_read_info(const char *path, batch_rec *r);

json_t *batch_rec_to_json(const batch_rec *r);
/* Returns 0, or -1 if the object has no "id" or "status". */
int batch_rec_from_json(const json_t *o, batch_rec *r);

typedef struct batch_recs {
  batch_rec *rec;
  int n, cap;
} batch_recs;

void batch_recs_free(batch_recs *R);
/* Append a copy of r (moves r's strings: r is re-initialised). */
void batch_recs_take(batch_recs *R, batch_rec *r);
/* The last record with this id, or NULL. */
const batch_rec *batch_recs_find(const batch_recs *R, const char *id);

/* Append one record as one line (a single write on an O_APPEND file). */
int batch_jsonl_append(const char *path, const batch_rec *r, char *err,
                       size_t errlen);

/* Load every record of a JSONL file (a missing file gives none), the whole
 * file: a NUL byte does not end it.  A line that is not a record (cut
 * short by a kill, or holding a NUL byte) is skipped and counted in *bad;
 * *first_bad (may be NULL) receives the first one's message,
 * "PATH:LINE: why" (PATH:LINE:COL for a JSON syntax error).  Returns 0 or
 * REMAT_EUSAGE. */
int batch_jsonl_load(const char *path, batch_recs *R, int *bad,
                     char *first_bad, size_t first_len, char *err,
                     size_t errlen);

/* The batch's exit code over its rows: 0 every job has a schedule within
 * budget, 3 some have none but no job failed, 4 some job failed. */
int batch_exit_code(const batch_rec *const *row, int n);

#endif
