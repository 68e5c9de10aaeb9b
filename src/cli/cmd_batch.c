/* cmd_batch.c -- remat batch: many solves, each a child process (this very
 * binary, "remat solve ... -q -o JOBDIR/NAME.json"), N at a time, so that a
 * crash or a hang in one job cannot take the batch down.  Each job's
 * record is appended to a JSONL file as it ends (--resume skips the jobs
 * whose last record is final); at the end a CSV and a Markdown summary.
 * --emit-jobs prints the commands instead of running them; --merge builds
 * the same summary from per-job result files.  --slurm submits the jobs
 * as one Slurm array instead and waits for it (--no-wait: submits only);
 * --cancel RUN cancels a run's arrays.  The job list, records,
 * summaries, the process pool, --merge and Slurm are src/batch/
 * (batch.h).
 *
 * Files: results FILE (--results; default PREFIX.jsonl with -o PREFIX,
 * else remat-batch.jsonl), summaries PREFIX.csv and PREFIX.md (PREFIX: -o,
 * else the results file without .jsonl), per-job files in RESULTS.jobs/
 * (NAME.json the result, NAME.log the solver's output, NAME.job the job).
 *
 * Exit codes: 0 every job has a schedule within budget, 3 some job has
 * none but none failed, 4 some job failed (bad input, crash, timeout
 * without schedule), 2 bad usage, 130 interrupted. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch.h"
#include "cmd.h"
#include "util.h"

typedef struct batch_run {
  const cli_opts *o;
  const char *cmd;
  batch_list jobs;
  batch_recs recs;
  char *results, *prefix, *jobdir;
  int *todo, ntodo;
  int failed, skipped;
} batch_run;

/* ------------------------------------------------------------ paths */

/* Results, summary prefix and job directory from -o / --results. */
static void cb_paths(batch_run *B, const char *fallback) {
  const cli_opts *o = B->o;
  char *out = NULL;
  if (o->output) {
    char *t = util_strip_suffix(o->output, ".csv");
    out = util_strip_suffix(t, ".md");
    free(t);
  }
  if (o->results)
    B->results = util_strdup(o->results);
  else
    B->results = out ? util_cat(out, ".jsonl") : util_strdup(fallback);
  char *stem = util_strip_suffix(B->results, ".jsonl");
  B->prefix = out ? out : util_strdup(stem);
  B->jobdir = util_cat(stem, ".jobs");
  free(stem);
}

/* ---------------------------------------------------------- options */

/* The global solve options (canonical) and defaults from the command line. */
static int cb_defaults(const cli_opts *o, const char *cmd, batch_defaults *d) {
  char err[1024];
  batch_defaults_init(d);
  d->time_limit = o->time_limit;
  d->threads = o->threads_set ? (int)o->threads : 1;
  if (o->budget && batch_set_budgets(d, o->budget, err, sizeof err)) {
    fprintf(stderr, "remat %s: %s\n", cmd, err);
    return 2;
  }
  /* the command line's job options (the option table's CMD_JOB rows),
   * through the jobs' own parser */
  char *w[64], buf[8192];
  int n = cli_words(o, CMD_BATCH, CMD_JOB, w, 64, buf, sizeof buf);
  if (n < 0) {
    fprintf(stderr, "remat %s: the job options are too long\n", cmd);
    return 2;
  }
  double tl = d->time_limit;
  int th = d->threads;
  if (batch_parse_options(w, n, NULL, &d->opt, &d->nopt, &tl, &th, err,
                          sizeof err)) {
    fprintf(stderr, "remat %s: %s\n", cmd, err);
    return 2;
  }
  return 0;
}

static int cb_jobs(batch_run *B, const batch_defaults *d) {
  char err[1024];
  for (int i = 0; i < B->o->npos; i++)
    if (batch_add_input(&B->jobs, B->o->pos[i], d, err, sizeof err)) {
      fprintf(stderr, "remat %s: %s\n", B->cmd, err);
      return 2;
    }
  if (!B->jobs.n) {
    fprintf(stderr, "remat %s: no jobs (no *.json graphs in the inputs)\n",
            B->cmd);
    return 2;
  }
  return 0;
}

/* The jobs to run: all, or with --resume those without a final record. */
static int cb_todo(batch_run *B) {
  B->todo = util_malloc((size_t)B->jobs.n * sizeof *B->todo);
  if (B->o->resume) {
    char err[1024], first[1024];
    int bad = 0;
    if (batch_jsonl_load(B->results, &B->recs, &bad, first, sizeof first, err,
                         sizeof err)) {
      fprintf(stderr, "remat %s: %s\n", B->cmd, err);
      return 2;
    }
    if (bad)
      fprintf(stderr, "remat %s: %s: ignored %d unreadable line%s (%s%s)\n",
              B->cmd, B->results, bad, bad == 1 ? "" : "s",
              bad == 1 ? "" : "the first: ", first);
  }
  for (int i = 0; i < B->jobs.n; i++) {
    const batch_rec *r = batch_recs_find(&B->recs, B->jobs.job[i].id);
    if (r && batch_status_final(r->status)) {
      B->skipped++;
      if (batch_status_failure(r->status)) B->failed++;
    } else {
      B->todo[B->ntodo++] = i;
    }
  }
  return 0;
}

/* mkdir -p */
static int cb_mkdir(const char *dir, const char *cmd) {
  char *p = util_strdup(dir);
  int rc = 0;
  for (char *s = p + 1;; s++) {
    if (*s && *s != '/') continue;
    char c = *s;
    *s = 0;
    if (mkdir(p, 0755) && errno != EEXIST) {
      fprintf(stderr, "remat %s: cannot create %s: %s\n", cmd, p,
              strerror(errno));
      rc = 2;
      break;
    }
    *s = c;
    if (!c) break;
  }
  free(p);
  return rc;
}

/* --------------------------------------------------------- emit jobs */

static void cb_exe(char *buf, size_t len) {
  ssize_t k = readlink("/proc/self/exe", buf, len - 1);
  if (k <= 0) k = snprintf(buf, len, "remat");
  buf[k] = 0;
}

static int cb_emit(batch_run *B) {
  char exe[PATH_MAX], err[1024];
  cb_exe(exe, sizeof exe);
  for (int t = 0; t < B->ntodo; t++) {
    const batch_job *j = &B->jobs.job[B->todo[t]];
    char *res = batch_job_file(B->jobdir, j, ".json");
    char *info = batch_job_file(B->jobdir, j, ".job");
    if (batch_job_write_info(j, info, err, sizeof err))
      fprintf(stderr, "remat %s: %s\n", B->cmd, err);
    char *line = batch_job_command(j, exe, res);
    printf("%s\n", line);
    free(line);
    free(res);
    free(info);
  }
  return 0;
}

/* ------------------------------------------------------------ running */

static int cb_run(batch_run *B) {
  batch_pool_params p;
  batch_pool_params_init(&p);
  p.jobs = &B->jobs;
  p.todo = B->todo;
  p.ntodo = B->ntodo;
  p.slots = (int)(B->o->jobs > 0 ? B->o->jobs : util_ncpus());
  p.results = B->results;
  p.jobdir = B->jobdir;
  p.cmd = B->cmd;
  p.quiet = B->o->quiet;
  p.skipped = B->skipped;
  p.failed = B->failed;
  return batch_pool_run(&p, &B->recs);
}

/* -------------------------------------------------------------- slurm */

static int cb_slurm_load(batch_run *B, bsl_run *run) {
  char err[1024];
  if (!bsl_run_load(B->jobdir, run, err, sizeof err)) return 0;
  fprintf(stderr, "remat %s: %s\n", B->cmd, err);
  return 2;
}

static void cb_slurm_params(const batch_run *B, bsr_params *p) {
  memset(p, 0, sizeof *p);
  p->results = B->results;
  p->cmd = B->cmd;
  p->quiet = B->o->quiet;
}

/* Before a submission: the earlier submissions' finished tasks into the
 * results file (--resume counts them); none of their tasks may still be
 * queued or running, since the new tasks would write the same files. */
static int cb_slurm_sync(batch_run *B) {
  bsl_run run;
  bsr_params p;
  bsr_count c;
  if (cb_slurm_load(B, &run)) return 2;
  cb_slurm_params(B, &p);
  bsr_collect(&run, &p, &B->recs, &c, NULL);
  bsl_run_free(&run);
  if (!c.running && !c.queued) return 0;
  int open = c.running + c.queued;
  fprintf(stderr,
          "remat %s: %d task%s of this run %s still queued or running in "
          "Slurm: wait for %s (remat %s --merge %s), or cancel %s (remat "
          "%s --cancel %s)\n",
          B->cmd, open, open == 1 ? "" : "s", open == 1 ? "is" : "are",
          open == 1 ? "it" : "them", B->cmd, B->jobdir,
          open == 1 ? "it" : "them", B->cmd, B->results);
  return 2;
}

/* Submit the jobs to do as one array; wait for it unless --no-wait. */
static int cb_slurm(batch_run *B) {
  char exe[PATH_MAX], job[32], err[1024];
  if (!B->ntodo) return 0;
  cb_exe(exe, sizeof exe);
  bsl_submit s = {&B->jobs, B->todo, B->ntodo, B->jobdir, exe,
                  B->o->jobs_set ? (int)B->o->jobs : 0, B->o->slurm_opt};
  if (bsl_submit_array(&s, job, sizeof job, err, sizeof err)) {
    fprintf(stderr, "remat %s: %s\n", B->cmd, err);
    return 4;
  }
  if (!B->o->quiet)
    fprintf(stderr, "remat: submitted Slurm array %s: %d task%s%s\n", job,
            B->ntodo, B->ntodo == 1 ? "" : "s",
            B->skipped ? " (the jobs without a final record)" : "");
  if (B->o->no_wait) {
    printf("%s\n", job);
    return 0;
  }
  bsl_run run;
  bsr_params p;
  if (cb_slurm_load(B, &run)) return 2;
  cb_slurm_params(B, &p);
  int rc = bsr_wait(&run, &p, &B->recs);
  bsl_run_free(&run);
  return rc;
}

/* RUN of --cancel RUN: a results file (X.jsonl), its job directory
 * (X.jobs) or the -o prefix X. */
static void cb_run_paths(batch_run *B, const char *arg) {
  char *t = util_strip_suffix(arg, "/"), *stem = util_strip_suffix(t, ".jobs");
  char *u = util_strip_suffix(stem, ".jsonl");
  B->results = util_cat(u, ".jsonl");
  B->jobdir = util_cat(u, ".jobs");
  B->prefix = u;
  free(t);
  free(stem);
}

/* scancel the run's submissions that have open tasks. */
static int cb_cancel_open(batch_run *B, bsl_run *run) {
  bsr_params p;
  bsr_count c;
  char err[1024];
  cb_slurm_params(B, &p);
  bsr_collect(run, &p, &B->recs, &c, NULL);
  for (int s = 0; s < run->nsub; s++)
    if (run->sub[s].open && bsl_cancel(B->jobdir, &run->sub[s], err, sizeof err)) {
      fprintf(stderr, "remat %s: %s\n", B->cmd, err);
      return 4;
    }
  int open = c.running + c.queued;
  if (!B->o->quiet)
    fprintf(stderr, "remat: cancelled %d open task%s of %s\n", open,
            open == 1 ? "" : "s", B->jobdir);
  return 0;
}

/* --cancel RUN: scancel its open arrays, then record their tasks. */
static int cb_cancel(batch_run *B) {
  if (B->o->npos != 1) {
    fprintf(stderr, "remat %s: --cancel takes one run (its -o PREFIX, "
                    "results file or .jobs directory)\n", B->cmd);
    return 2;
  }
  cb_run_paths(B, B->o->pos[0]);
  bsl_run run;
  if (cb_slurm_load(B, &run)) return 2;
  int rc = run.nsub ? cb_cancel_open(B, &run) : 2;
  if (!run.nsub)
    fprintf(stderr, "remat %s: %s: no Slurm submission (no slurm.runs)\n",
            B->cmd, B->jobdir);
  bsr_params p;
  cb_slurm_params(B, &p);
  if (!rc) rc = bsr_wait(&run, &p, &B->recs);
  bsl_run_free(&run);
  return rc == 130 ? 0 : rc;
}

/* --------------------------------------------------------- summaries */

static int cb_write_summary(const char *cmd, const char *prefix,
                            const batch_rec *const *row, int n,
                            const char *title) {
  char *csv = util_cat(prefix, ".csv"), *md = util_cat(prefix, ".md");
  int rc = 0;
  FILE *f = fopen(csv, "w");
  if (f) {
    batch_write_csv(f, row, n);
    fclose(f);
  }
  FILE *g = fopen(md, "w");
  if (g) {
    batch_write_md(g, row, n, title);
    fclose(g);
  }
  if (!f || !g) {
    fprintf(stderr, "remat %s: cannot write %s: %s\n", cmd, !f ? csv : md,
            strerror(errno));
    rc = 2;
  }
  batch_write_md(stdout, row, n, title);
  printf("\nsummary: %s, %s\n", csv, md);
  free(csv);
  free(md);
  return rc;
}

/* One row per job: its last record, or "pending". */
static int cb_summary(batch_run *B, int run_rc) {
  int n = B->jobs.n;
  const batch_rec **row = util_malloc((size_t)n * sizeof *row);
  batch_rec *pending = util_calloc((size_t)n, sizeof *pending);
  for (int i = 0; i < n; i++) {
    row[i] = batch_recs_find(&B->recs, B->jobs.job[i].id);
    if (row[i]) continue;
    batch_rec_init(&pending[i]);
    batch_rec_from_job(&pending[i], &B->jobs.job[i]);
    batch_rec_set(&pending[i].status, "pending");
    row[i] = &pending[i];
  }
  char title[PATH_MAX + 32];
  snprintf(title, sizeof title, "remat batch: %s", B->results);
  int rc = cb_write_summary(B->cmd, B->prefix, row, n, title);
  int code = run_rc ? run_rc : rc ? rc : batch_exit_code(row, n);
  for (int i = 0; i < n; i++) batch_rec_free(&pending[i]);
  free(pending);
  free(row);
  return code;
}

/* -------------------------------------------------------------- merge */

/* --merge DIR where DIR is a Slurm run's job directory: a record for each
 * job's latest task that has ended, "pending" for the others. */
static int cb_merge_slurm(batch_run *B) {
  bsl_run run;
  char err[1024];
  if (B->o->npos != 1 || bsl_run_load(B->o->pos[0], &run, err, sizeof err))
    return 0;
  int slurm = run.nsub > 0;
  if (slurm) {
    bsr_params p = {NULL, B->cmd, 1, 1};
    bsr_count c;
    bsr_collect(&run, &p, &B->recs, &c, NULL);
    if (!B->o->quiet && (c.running || c.queued))
      fprintf(stderr, "remat %s: %d tasks still running, %d queued (pending "
                      "rows)\n", B->cmd, c.running, c.queued);
  }
  bsl_run_free(&run);
  return slurm;
}

static int cb_merge(batch_run *B) {
  if (!B->o->npos) {
    fprintf(stderr, "remat %s: --merge needs result files or directories\n",
            B->cmd);
    return 2;
  }
  cb_paths(B, "remat-merge.jsonl");
  char err[1024];
  int rc = 0;
  if (cb_merge_slurm(B)) {
    rc = B->recs.n ? 0 : 2;
    if (rc) fprintf(stderr, "remat %s: %s: no task to merge\n", B->cmd, B->o->pos[0]);
  } else if (batch_merge_collect(B->o->pos, B->o->npos, &B->recs, err, sizeof err)) {
    fprintf(stderr, "remat %s: %s\n", B->cmd, err);
    return 2;
  }
  batch_merge_sort(&B->recs);
  unlink(B->results);
  const batch_rec **row = util_malloc((size_t)B->recs.n * sizeof *row);
  for (int i = 0; i < B->recs.n; i++) {
    row[i] = &B->recs.rec[i];
    if (!rc && strcmp(row[i]->status, "pending") &&
        batch_jsonl_append(B->results, row[i], err, sizeof err)) {
      fprintf(stderr, "remat %s: %s\n", B->cmd, err);
      rc = 2;
    }
  }
  char title[PATH_MAX + 32];
  snprintf(title, sizeof title, "remat batch --merge: %s", B->results);
  if (!rc) rc = cb_write_summary(B->cmd, B->prefix, row, B->recs.n, title);
  int code = rc ? rc : batch_exit_code(row, B->recs.n);
  free(row);
  return code;
}

/* ------------------------------------------------------------ command */

static void cb_free(batch_run *B) {
  batch_list_free(&B->jobs);
  batch_recs_free(&B->recs);
  UTIL_FREE(B->results, B->prefix, B->jobdir, B->todo);
}

static int cb_main(batch_run *B) {
  const cli_opts *o = B->o;
  if (o->cancel) return cb_cancel(B);
  if (o->merge) return cb_merge(B);
  if (!o->npos) {
    fprintf(stderr, "remat %s: missing arguments\nusage: remat %s %s\n",
            B->cmd, B->cmd, CMD_BATCH_USAGE);
    return 2;
  }
  batch_defaults d;
  int rc = cb_defaults(o, B->cmd, &d);
  if (!rc) rc = cb_jobs(B, &d);
  batch_defaults_free(&d);
  if (rc) return rc;
  cb_paths(B, "remat-batch.jsonl");
  if ((rc = cb_mkdir(B->jobdir, B->cmd))) return rc;
  if (o->slurm && !o->emit_jobs && (rc = cb_slurm_sync(B))) return rc;
  if ((rc = cb_todo(B))) return rc;
  if (o->emit_jobs) return cb_emit(B);
  int run_rc = o->slurm ? cb_slurm(B) : cb_run(B);
  if (o->slurm && o->no_wait) return run_rc;
  return cb_summary(B, run_rc);
}

/* Options that do not go together, or NULL. */
static const char *cb_conflict(const cli_opts *o) {
  if (o->merge && (o->emit_jobs || o->resume || o->slurm))
    return "--merge takes none of --emit-jobs, --resume, --slurm";
  if (o->cancel && (o->merge || o->emit_jobs || o->resume || o->slurm))
    return "--cancel takes none of --merge, --emit-jobs, --resume, --slurm";
  if (o->slurm && o->emit_jobs)
    return "--slurm and --emit-jobs do not go together";
  if (!o->slurm && (o->slurm_opt_set || o->no_wait))
    return "--slurm-opt and --no-wait go with --slurm";
  return NULL;
}

int cmd_batch(const char *name, const cli_opts *o) {
  const char *bad = cb_conflict(o);
  if (bad) {
    fprintf(stderr, "remat %s: %s\n", name, bad);
    return 2;
  }
  batch_run B;
  memset(&B, 0, sizeof B);
  B.o = o;
  B.cmd = name;
  int rc = cb_main(&B);
  cb_free(&B);
  return rc;
}
