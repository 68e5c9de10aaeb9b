/* batch_jobs.h -- the batch's job list: inputs (graph files, directories
 * and manifests) x budgets, the options a job may take, job ids and file
 * names, the solve command of a job and its side file.
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
 * BUDGET the line takes the --budget list.  A budget list is budget_split's
 * (budget.h): items and ranges FROM:TO:STEP.  Relative paths in a manifest
 * (GRAPH, a --copies file) are relative to the manifest's directory.
 * Options allowed in a manifest: --copies/-c, --time-limit/-t, --threads,
 * --seed, --lns, --no-heuristic, --fzn-solver, --lp-bound. */
#ifndef REMAT_BATCH_JOBS_H
#define REMAT_BATCH_JOBS_H

#include <stddef.h>

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

/* Split a budget list ("0.9,0.8", "1.0:0.5:0.1") into d->budget.  Each
 * item must parse as a budget.  Returns 0 or REMAT_EUSAGE with a
 * message. */
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

/* A word quoted for a POSIX shell when it needs it (allocated). */
char *batch_shell_quote(const char *s);
/* Words joined by spaces, each shell-quoted when needed (allocated). */
char *batch_join_words(char *const *w, int n);

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

/* The files of a directory whose names end in suffix, sorted; *n receives
 * the count.  NULL (and a message) if the directory cannot be read. */
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

/* A job's whole time: its limit, twice with --lp-bound (the LP gets the
 * limit again after the solve). */
double batch_job_seconds(const batch_job *j);

/* A job's file in jobdir: JOBDIR/NAME.EXT (ext with its dot; allocated):
 * .json its result, .log the solver's output, .job its side file. */
char *batch_job_file(const char *jobdir, const batch_job *j, const char *ext);

/* The job's side file (JOBDIR/NAME.job: id, graph, budget, options, time
 * limit, threads as JSON), so that --merge can name the job of a result
 * file (batch_job_read_info in batch_records.h reads it back). */
int batch_job_write_info(const batch_job *j, const char *path, char *err,
                         size_t errlen);

#endif
