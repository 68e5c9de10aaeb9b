/* batch.h -- batch solving, everything but the processes: the job list
 * (graph files, directories and manifests x budgets), job ids and file
 * names, the JSONL results file (append, reload, resume), turning a
 * per-job result JSON into a re-checked record, classifying how a job
 * ended, and the CSV / Markdown summaries.  The process runner is
 * cmd_batch.c.
 *
 * A job is "remat solve GRAPH --budget B [OPTS]" run with its own time
 * limit and thread count.  Its id is exactly that text without the time
 * limit and the threads (resource settings: changing them does not make a
 * finished job run again), options in canonical long form, e.g.
 *   "graphs/vgg.json --budget 0.8 --copies 3"
 *
 * Inputs (batch_add_input): a directory gives every *.json in it (sorted by
 * name, not recursive); a file ending in .json is a graph; a file ending in
 * .txt or .jobs is a manifest; any other file is a manifest unless its
 * first non-blank character is '{' or '['.  A manifest has one job per
 * line, "GRAPH [BUDGET[,BUDGET...]] [OPTIONS]"; '#' starts a comment (at
 * the start of a word); words may be quoted with '' or "".  Without
 * BUDGET the line takes the --budget list.  Relative paths in a manifest
 * (GRAPH, a --copies file) are relative to the manifest's directory.
 * Options allowed in a manifest: --copies/-c, --time-limit/-t, --threads,
 * --seed, --lns, --no-heuristic, --fzn-solver. */
#ifndef REMAT_BATCH_H
#define REMAT_BATCH_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "remat.h"

/* ------------------------------------------------------------ jobs */

typedef struct batch_rec batch_rec; /* a JSONL record, below */

typedef struct batch_job {
  char *graph;       /* graph file */
  char *budget;      /* budget text as given ("0.9", "90%", "12GiB") */
  char **opt;        /* solve options, canonical ("--copies", "3", ...) */
  int nopt;
  double time_limit; /* seconds */
  int threads;       /* solver threads */
  char *id;          /* "GRAPH --budget B [OPTS]" */
  char *name;        /* file stem for the job's files: STEM_BUDGET_HASH */
  char *where;       /* "manifest.txt:3", or NULL for a command-line input */
} batch_job;

typedef struct batch_list {
  batch_job *job;
  int n, cap;
} batch_list;

/* What a job gets unless its manifest line says otherwise. */
typedef struct batch_defaults {
  char **budget;     /* the --budget list */
  int nbudget;
  double time_limit; /* --time-limit (60) */
  int threads;       /* --threads (1) */
  char **opt;        /* global solve options, canonical (may be NULL) */
  int nopt;
} batch_defaults;

void batch_defaults_init(batch_defaults *d);
void batch_defaults_free(batch_defaults *d);

/* Split a comma-separated budget list ("0.9,0.8") into d->budget.  Each
 * must parse as a budget.  Returns 0 or REMAT_EUSAGE with a message. */
int batch_set_budgets(batch_defaults *d, const char *list, char *err,
                      size_t errlen);

/* Check and canonicalise solve options (words as on a command line):
 * appends them to *opt / *nopt in long form ("--copies", "3"), except
 * --time-limit and --threads, which go to *time_limit / *threads.
 * base_dir (may be NULL) prefixes a relative --copies file.  Returns 0 or
 * REMAT_EUSAGE with a message. */
int batch_parse_options(char **word, int nword, const char *base_dir,
                        char ***opt, int *nopt, double *time_limit,
                        int *threads, char *err, size_t errlen);

/* Split one manifest line into words (quotes, '#' comments).  Returns the
 * number of words (0 for a blank or comment line) or -1 on an unclosed
 * quote.  *word is allocated (free with batch_words_free). */
int batch_split_words(const char *line, char ***word);
void batch_words_free(char **word, int n);

/* The job id ("GRAPH --budget B OPTS") and the file stem
 * ("STEM_BUDGET_XXXXXXXX", the hex being a hash of the id). */
char *batch_job_id(const char *graph, const char *budget, char *const *opt,
                   int nopt);
char *batch_job_name(const char *graph, const char *budget, const char *id);

/* Add one job (copies the strings).  A job whose id is already in the list
 * is not added again; returns 1 if added, 0 if a duplicate. */
int batch_add_job(batch_list *L, const char *graph, const char *budget,
                  char *const *opt, int nopt, double time_limit, int threads,
                  const char *where);

/* Parse a manifest held in text (path names it in messages and gives the
 * base directory).  Returns 0 or REMAT_EUSAGE with "PATH:LINE: message". */
int batch_parse_manifest(const char *text, const char *path,
                         const batch_defaults *d, batch_list *L, char *err,
                         size_t errlen);

/* 1 if the file is a manifest by the rule above (text: its contents, may
 * be NULL for "unknown"). */
int batch_is_manifest(const char *path, const char *text);

/* Add the jobs of one command-line input (graph file, directory or
 * manifest).  Returns 0 or REMAT_EUSAGE with a message. */
int batch_add_input(batch_list *L, const char *arg, const batch_defaults *d,
                    char *err, size_t errlen);

/* The *.json files of a directory, sorted; *n receives the count.  NULL
 * (and a message) if the directory cannot be read. */
char **batch_list_dir(const char *dir, const char *suffix, int *n, char *err,
                      size_t errlen);

void batch_list_free(batch_list *L);

/* The job's solve command: exe solve GRAPH --budget B --time-limit T
 * --threads N -q -o RESULT OPTS (NULL-terminated; free with
 * batch_words_free(argv, *argc)), and the same as one shell-quoted line. */
char **batch_job_argv(const batch_job *j, const char *exe,
                      const char *result_path, int *argc);
char *batch_job_command(const batch_job *j, const char *exe,
                        const char *result_path);

/* A word quoted for a POSIX shell when it needs it (allocated). */
char *batch_shell_quote(const char *s);

/* The job's side file (JOBDIR/NAME.job: id, graph, budget, options, time
 * limit, threads as JSON), so that --merge can name the job of a result
 * file.  read_info fills r's id, graph, budget and options; 0 or -1. */
int batch_job_write_info(const batch_job *j, const char *path, char *err,
                         size_t errlen);
int batch_job_read_info(const char *path, batch_rec *r);

/* ------------------------------------------------------- records */

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
/* Load every record of a JSONL file (a missing file gives none).  Lines
 * that do not parse are counted in *bad (a line cut short by a kill).
 * Returns 0 or REMAT_EUSAGE. */
int batch_jsonl_load(const char *path, batch_recs *R, int *bad, char *err,
                     size_t errlen);

/* Read a result JSON as written by "remat solve -o", re-simulate its
 * schedule against its graph (g, or its "graph_file" when g is NULL) and
 * fill r's result fields (n, budget_bytes, topo_peak, peak, duration, tdi,
 * times, status, result path).  *interrupted (may be NULL) receives the
 * result's "interrupted" flag.  On any problem r->status becomes "error"
 * (or "failed" if the graph cannot be read) with a reason, and -1 is
 * returned. */
int batch_rec_from_result(batch_rec *r, const char *result_path,
                          const remat_graph *g, int *interrupted);

/* How a job's process ended. */
typedef struct batch_exit {
  int exited;      /* exited normally with `code` */
  int code;
  int signal;      /* killed by this signal */
  int timed_out;   /* the batch killed it for overrunning its time limit */
  int interrupted; /* the batch stopped it (Ctrl-C) */
} batch_exit;

/* Classify a finished job: fills r's status, exit code, signal, reason and
 * (when the result file holds a schedule) its re-checked numbers.  log is
 * the job's stderr (may be NULL): its last line is the reason of a bad
 * input. */
void batch_classify(batch_rec *r, const batch_exit *e, const char *result_path,
                    const remat_graph *g, const char *log);

/* The batch's exit code over its rows: 0 every job has a schedule within
 * budget, 3 some have none but no job failed, 4 some job failed. */
int batch_exit_code(const batch_rec *const *row, int n);

/* ------------------------------------------------------ summaries */

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
