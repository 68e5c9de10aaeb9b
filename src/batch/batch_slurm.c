/* batch_slurm.c -- a batch's submissions to Slurm (see batch_slurm.h). */
#include "batch_slurm.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch_pool.h"
#include "batch_slurm_query.h"
#include "remat.h"
#include "util.h"

/* ------------------------------------------------------------ the run */

/* JOBDIR/NAME (allocated). */
static char *bsl_path(const char *jobdir, const char *name) {
  util_buf b = {0};
  util_buf_printf(&b, "%s/%s", jobdir, name);
  return b.s;
}

/* The job names of a task list, one per line (up to its tab). */
static int bsl_load_tasks(const char *jobdir, const char *list, bsl_sub *s,
                          char *err, size_t errlen) {
  char *path = bsl_path(jobdir, list), *text;
  size_t len;
  if (!(text = util_read_file(path, &len))) {
    int rc = util_err(err, errlen, REMAT_EUSAGE, "cannot read %s: %s", path,
                      strerror(errno));
    free(path);
    return rc;
  }
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    s->name = util_realloc(s->name, (size_t)(s->n + 1) * sizeof *s->name);
    s->name[s->n++] = util_strndup(line, strcspn(line, "\t"));
  }
  free(text);
  free(path);
  return 0;
}

/* Whether JOBDIR/slurm-JOBID.cancelled exists. */
static int bsl_marked(const char *jobdir, const char *job) {
  char name[64];
  snprintf(name, sizeof name, "slurm-%s.cancelled", job);
  char *path = bsl_path(jobdir, name);
  struct stat st;
  int yes = !stat(path, &st);
  free(path);
  return yes;
}

int bsl_run_load(const char *jobdir, bsl_run *run, char *err, size_t errlen) {
  memset(run, 0, sizeof *run);
  run->jobdir = util_strdup(jobdir);
  char *path = bsl_path(jobdir, "slurm.runs"), *text;
  size_t len;
  int rc = 0;
  if (!(text = util_read_file(path, &len))) {
    free(path);
    return errno == ENOENT ? 0 : util_err(err, errlen, REMAT_EUSAGE,
                                          "cannot read %s/slurm.runs: %s",
                                          jobdir, strerror(errno));
  }
  for (char *p = text; *p && !rc;) {
    char job[32], list[256];
    size_t n = strcspn(p, "\n");
    if (sscanf(p, "%31s %255s", job, list) == 2) {
      run->sub = util_realloc(run->sub, (size_t)(run->nsub + 1) * sizeof *run->sub);
      bsl_sub *s = &run->sub[run->nsub++];
      memset(s, 0, sizeof *s);
      snprintf(s->job, sizeof s->job, "%s", job);
      s->cancelled = bsl_marked(jobdir, job);
      rc = bsl_load_tasks(jobdir, list, s, err, errlen);
    }
    p += n + (p[n] ? 1 : 0);
  }
  free(text);
  free(path);
  return rc;
}

void bsl_run_free(bsl_run *run) {
  for (int i = 0; i < run->nsub; i++)
    batch_words_free(run->sub[i].name, run->sub[i].n);
  free(run->sub);
  free(run->jobdir);
  memset(run, 0, sizeof *run);
}

/* ---------------------------------------------------------- submission */

/* The array's script: see batch_slurm.h. */
static int bsl_write_script(const char *path, const char *jobdir,
                            const char *tasks) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  char *dir = batch_shell_quote(jobdir), *list = batch_shell_quote(tasks);
  fprintf(f,
          "#!/bin/sh\n"
          "# A task of \"remat batch --slurm\": the job on line\n"
          "# $SLURM_ARRAY_TASK_ID of the task list (NAME<tab>COMMAND); the\n"
          "# command's output goes to DIR/NAME.log, then \"STATUS SECONDS\" to\n"
          "# DIR/NAME.exit.  A requeued task starts afresh.  Slurm's SIGTERM\n"
          "# (time limit, scancel) reaches every process of the task: this\n"
          "# script waits for the solve to write its best schedule, so that\n"
          "# the task ends only after its result file is complete.\n"
          "dir=%s\n"
          "line=$(sed -n \"${SLURM_ARRAY_TASK_ID}p\" \"$dir\"/%s)\n"
          "name=${line%%%%\t*}\n"
          "[ -n \"$name\" ] || { echo \"no task $SLURM_ARRAY_TASK_ID\" >&2; exit 2; }\n"
          "rm -f \"$dir/$name.json\" \"$dir/$name.exit\"\n"
          "t0=$(date +%%s)\n"
          "trap : TERM\n"
          "sh -c \"exec ${line#*\t}\" >\"$dir/$name.log\" 2>&1 &\n"
          "pid=$!\n"
          "wait $pid\n"
          "rc=$?\n"
          "while kill -0 $pid 2>/dev/null; do wait $pid; rc=$?; done\n"
          "echo \"$rc $(($(date +%%s) - t0))\" >\"$dir/$name.exit.tmp\"\n"
          "mv -f \"$dir/$name.exit.tmp\" \"$dir/$name.exit\"\n"
          "exit $rc\n",
          dir, list);
  free(dir);
  free(list);
  return util_out_close(f) ? -1 : 0;
}

/* The task list: "NAME<TAB>COMMAND" per job; the jobs' side files
 * written, their earlier outputs removed. */
static int bsl_write_tasks(const bsl_submit *s, const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  static const char *const ext[] = {".json", ".log", ".exit"};
  for (int t = 0; t < s->ntodo; t++) {
    const batch_job *j = &s->jobs->job[s->todo[t]];
    char *res = batch_job_file(s->jobdir, j, ".json");
    char *info = batch_job_file(s->jobdir, j, ".job"), err[1024];
    for (int k = 0; k < 3; k++) {
      char *old = batch_job_file(s->jobdir, j, ext[k]);
      unlink(old);
      free(old);
    }
    if (batch_job_write_info(j, info, err, sizeof err))
      fprintf(stderr, "remat batch: %s\n", err);
    char *cmd = batch_job_command(j, s->exe, res);
    fprintf(f, "%s\t%s\n", j->name, cmd);
    free(cmd);
    free(res);
    free(info);
  }
  return util_out_close(f) ? -1 : 0;
}

static void bsl_push(char ***v, int *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void bsl_push(char ***v, int *n, const char *fmt, ...) {
  char buf[4096];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  *v = util_realloc(*v, (size_t)(*n + 2) * sizeof **v);
  (*v)[(*n)++] = util_strdup(buf);
  (*v)[*n] = NULL;
}

/* The array's minutes and CPUs per task (see batch_slurm.h). */
static void bsl_resources(const bsl_submit *s, long *minutes, int *cpus) {
  double sec = 0;
  *cpus = 1;
  for (int t = 0; t < s->ntodo; t++) {
    const batch_job *j = &s->jobs->job[s->todo[t]];
    double js = batch_job_seconds(j) + BATCH_GRACE + BATCH_KILL;
    if (js > sec) sec = js;
    if (j->threads == 0 || *cpus == 0) *cpus = 0;
    else if (j->threads > *cpus) *cpus = j->threads;
  }
  *minutes = (long)ceil(sec / 60);
}

char **bsl_sbatch_argv(const bsl_submit *s, const char *script, int *argc,
                       char *err, size_t errlen) {
  char **w = NULL, **v = NULL;
  int nw = s->opts ? batch_split_words(s->opts, &w) : 0, n = 0, cpus;
  if (nw < 0) {
    util_err(err, errlen, REMAT_EUSAGE, "--slurm-opt: unclosed quote");
    return NULL;
  }
  long minutes;
  bsl_resources(s, &minutes, &cpus);
  bsl_push(&v, &n, "sbatch");
  bsl_push(&v, &n, "--parsable");
  bsl_push(&v, &n, "--job-name=remat-batch");
  if (s->throttle > 0) bsl_push(&v, &n, "--array=1-%d%%%d", s->ntodo, s->throttle);
  else bsl_push(&v, &n, "--array=1-%d", s->ntodo);
  bsl_push(&v, &n, "--output=%s/slurm-%%A_%%a.out", s->jobdir);
  bsl_push(&v, &n, "--time=%ld", minutes);
  if (cpus > 0) bsl_push(&v, &n, "--cpus-per-task=%d", cpus);
  for (int i = 0; i < nw; i++) bsl_push(&v, &n, "%s", w[i]);
  bsl_push(&v, &n, "%s", script);
  batch_words_free(w, nw);
  *argc = n;
  return v;
}

/* Run sbatch; the job id is its output up to ';' (--parsable). */
static int bsl_sbatch(char **argv, char *job, size_t joblen, char *err,
                      size_t errlen) {
  char *out, *msg;
  int rc = bsq_run(argv, 300, &out, &msg);
  size_t k = strspn(out, "0123456789");
  if (!rc && k > 0 && k < joblen) {
    snprintf(job, joblen, "%.*s", (int)k, out);
  } else {
    msg[strcspn(msg, "\n")] = 0;
    rc = util_err(err, errlen, REMAT_EINTERNAL, "sbatch failed (exit %d): %s",
                  rc, *msg ? msg : out);
  }
  free(out);
  free(msg);
  return rc;
}

static int bsl_append_run(const char *jobdir, const char *job,
                          const char *list) {
  char *path = bsl_path(jobdir, "slurm.runs");
  FILE *f = fopen(path, "a");
  free(path);
  if (!f) return -1;
  fprintf(f, "%s %s\n", job, list);
  return util_out_close(f) ? -1 : 0;
}

int bsl_submit_array(const bsl_submit *s, char *job, size_t joblen, char *err,
                     size_t errlen) {
  bsl_run run;
  if (bsl_run_load(s->jobdir, &run, err, errlen)) return REMAT_EINTERNAL;
  char list[64], sh[64];
  snprintf(list, sizeof list, "slurm-%d.tasks", run.nsub + 1);
  snprintf(sh, sizeof sh, "slurm-%d.sh", run.nsub + 1);
  bsl_run_free(&run);
  char *lpath = bsl_path(s->jobdir, list), *spath = bsl_path(s->jobdir, sh);
  int rc = 0, argc = 0;
  char **argv = NULL;
  if (bsl_write_tasks(s, lpath) || bsl_write_script(spath, s->jobdir, list))
    rc = util_err(err, errlen, REMAT_EINTERNAL, "cannot write %s: %s", lpath,
                  strerror(errno));
  else if (!(argv = bsl_sbatch_argv(s, spath, &argc, err, errlen)))
    rc = REMAT_EUSAGE;
  else if (!(rc = bsl_sbatch(argv, job, joblen, err, errlen)) &&
           bsl_append_run(s->jobdir, job, list))
    rc = util_err(err, errlen, REMAT_EINTERNAL,
                  "array %s submitted, but %s/slurm.runs cannot be written: %s",
                  job, s->jobdir, strerror(errno));
  batch_words_free(argv, argc);
  free(lpath);
  free(spath);
  return rc;
}

/* -------------------------------------------------------------- cancel */

int bsl_cancel(const char *jobdir, bsl_sub *sub, char *err, size_t errlen) {
  char name[64];
  snprintf(name, sizeof name, "slurm-%s.cancelled", sub->job);
  char *path = bsl_path(jobdir, name);
  FILE *f = fopen(path, "w");
  free(path);
  if (f) fclose(f);
  sub->cancelled = 1;
  char *argv[] = {"scancel", sub->job, NULL}, *msg;
  int rc = bsq_run(argv, 120, NULL, &msg);
  if (rc) {
    msg[strcspn(msg, "\n")] = 0;
    rc = util_err(err, errlen, REMAT_EINTERNAL, "scancel %s failed: %s",
                  sub->job, msg);
  }
  free(msg);
  return rc;
}
