/* cmd_batch.c -- remat batch: many solves, each a child process (this very
 * binary, "remat solve ... -q -o JOBDIR/NAME.json"), N at a time, so that a
 * crash or a hang in one job cannot take the batch down.  Each job's
 * record is appended to a JSONL file as it ends (--resume skips the jobs
 * whose last record is final); at the end a CSV and a Markdown summary.
 * --emit-jobs prints the commands instead of running them; --merge builds
 * the same summary from per-job result files.  The job list, records and
 * summaries are batch.c.
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
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "batch.h"
#include "cmd.h"
#include "progress.h"
#include "sig.h"
#include "util.h"

#define BATCH_GRACE 30.0 /* seconds past its time limit before a job is stopped */
#define BATCH_KILL 10.0  /* seconds after SIGTERM before SIGKILL */

typedef struct run_slot {
  int job; /* index into the job list, -1 if free */
  pid_t pid;
  double start, deadline, kill_at;
  int timed_out, interrupted;
} run_slot;

typedef struct batch_run {
  const cli_opts *o;
  const char *cmd;
  batch_list jobs;
  batch_recs recs;
  char *results, *prefix, *jobdir;
  run_slot *slot;
  int nslot, running;
  int *todo, ntodo, itodo;
  int done, failed, skipped;
  double work_sum;
  int work_n;
  int stopping;
  prog pr;
} batch_run;

/* ------------------------------------------------------------ paths */

static char *cb_strip(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  if (n > k && !strcmp(s + n - k, suffix)) n -= k;
  return util_strndup(s, n);
}

static char *cb_cat(const char *a, const char *b) {
  util_buf x = {0};
  util_buf_printf(&x, "%s%s", a, b);
  return x.s;
}

/* Results, summary prefix and job directory from -o / --results. */
static void cb_paths(batch_run *B, const char *fallback) {
  const cli_opts *o = B->o;
  char *out = NULL;
  if (o->output) {
    char *t = cb_strip(o->output, ".csv");
    out = cb_strip(t, ".md");
    free(t);
  }
  if (o->results)
    B->results = util_strdup(o->results);
  else
    B->results = out ? cb_cat(out, ".jsonl") : util_strdup(fallback);
  char *stem = cb_strip(B->results, ".jsonl");
  B->prefix = out ? out : util_strdup(stem);
  B->jobdir = cb_cat(stem, ".jobs");
  free(stem);
}

static char *cb_job_file(const batch_run *B, const batch_job *j,
                         const char *ext) {
  util_buf x = {0};
  util_buf_printf(&x, "%s/%s%s", B->jobdir, j->name, ext);
  return x.s;
}

static void cb_now_iso(char *buf, size_t len) {
  time_t t = time(NULL);
  struct tm tm;
  gmtime_r(&t, &tm);
  strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
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
  char *w[16], seed[32];
  int n = 0;
  if (o->copies) w[n++] = "--copies", w[n++] = (char *)o->copies;
  if (o->seed_set) {
    snprintf(seed, sizeof seed, "%ld", o->seed);
    w[n++] = "--seed", w[n++] = seed;
  }
  if (o->lns_set) w[n++] = "--lns", w[n++] = (char *)o->lns;
  if (o->no_heuristic) w[n++] = "--no-heuristic";
  if (o->lp_bound) w[n++] = "--lp-bound";
  if (o->fzn_solver) w[n++] = "--fzn-solver", w[n++] = (char *)o->fzn_solver;
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
    char err[1024];
    int bad = 0;
    if (batch_jsonl_load(B->results, &B->recs, &bad, err, sizeof err)) {
      fprintf(stderr, "remat %s: %s\n", B->cmd, err);
      return 2;
    }
    if (bad)
      fprintf(stderr, "remat %s: %s: ignored %d unreadable line%s\n", B->cmd,
              B->results, bad, bad == 1 ? "" : "s");
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
    char *res = cb_job_file(B, j, ".json"), *info = cb_job_file(B, j, ".job");
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

/* A job's whole time: its limit, twice with --lp-bound (the LP gets the
 * limit again after the solve). */
static double cb_job_limit(const batch_job *j) {
  for (int i = 0; i < j->nopt; i++)
    if (!strcmp(j->opt[i], "--lp-bound")) return 2 * j->time_limit;
  return j->time_limit;
}

/* Fork and exec one job; the child gets its own process group (a Ctrl-C
 * at the terminal reaches the batch only, which passes on SIGTERM) and
 * SIGTERM when the batch dies. */
static int cb_launch(batch_run *B, run_slot *s, int job) {
  const batch_job *j = &B->jobs.job[job];
  char *res = cb_job_file(B, j, ".json"), *log = cb_job_file(B, j, ".log");
  char *info = cb_job_file(B, j, ".job"), err[1024];
  unlink(res);
  if (batch_job_write_info(j, info, err, sizeof err))
    fprintf(stderr, "remat %s: %s\n", B->cmd, err);
  int argc;
  char **argv = batch_job_argv(j, "remat", res, &argc);
  pid_t parent = getpid();
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent) _exit(127);
    int in = open("/dev/null", O_RDONLY);
    int out = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in >= 0) dup2(in, 0);
    if (out >= 0) {
      dup2(out, 1);
      dup2(out, 2);
    }
    execv("/proc/self/exe", argv);
    static const char msg[] = "remat solve: cannot run /proc/self/exe\n";
    ssize_t rc = write(2, msg, sizeof msg - 1);
    (void)rc;
    _exit(127);
  }
  batch_words_free(argv, argc);
  free(res);
  free(log);
  free(info);
  if (pid < 0) {
    fprintf(stderr, "remat %s: cannot fork: %s\n", B->cmd, strerror(errno));
    return -1;
  }
  setpgid(pid, pid);
  double now = util_now();
  *s = (run_slot){job, pid, now, now + cb_job_limit(j) + BATCH_GRACE, 0, 0, 0};
  B->running++;
  return 0;
}

static void cb_fmt_eta(double s, char *buf, size_t len) {
  if (s < 60)
    snprintf(buf, len, "%.0fs", s);
  else if (s < 3600)
    snprintf(buf, len, "%dm%02ds", (int)(s / 60), (int)s % 60);
  else
    snprintf(buf, len, "%dh%02dm", (int)(s / 3600), (int)(s / 60) % 60);
}

/* Seconds left: the running jobs' time left (to their limits), plus the
 * pending jobs at the mean wall time so far (or their time limits), spread
 * over the slots. */
static double cb_eta(const batch_run *B) {
  double now = util_now(), work = 0, per = 0;
  int pending = B->ntodo - B->itodo;
  for (int i = 0; i < B->nslot; i++) {
    const run_slot *s = &B->slot[i];
    if (s->job < 0) continue;
    double left = cb_job_limit(&B->jobs.job[s->job]) - (now - s->start);
    work += left > 0 ? left : 0;
  }
  if (B->work_n)
    per = B->work_sum / B->work_n;
  else if (pending)
    per = cb_job_limit(&B->jobs.job[B->todo[B->itodo]]);
  work += per * pending;
  return work / B->nslot;
}

static void cb_status(batch_run *B) {
  char eta[32];
  cb_fmt_eta(cb_eta(B), eta, sizeof eta);
  prog_status(&B->pr, "batch: %d/%d done, %d failed, %d running, ETA %s",
              B->done + B->skipped, B->jobs.n, B->failed, B->running, eta);
}

static void cb_report(batch_run *B, const batch_job *j, const batch_rec *r) {
  char eta[32], what[256];
  cb_fmt_eta(cb_eta(B), eta, sizeof eta);
  char *stem = batch_graph_stem(j->graph);
  if (r->has_schedule)
    snprintf(what, sizeof what, "peak %lld  TDI %.2f%%", (long long)r->peak,
             r->tdi);
  else
    snprintf(what, sizeof what, "%.200s", r->reason ? r->reason : "no schedule");
  prog_line(&B->pr, "[%d/%d] %s --budget %s%s%s: %s  %s  %.1fs  (%d failed, ETA %s)",
            B->done + B->skipped, B->jobs.n, stem, j->budget, j->nopt ? " " : "",
            r->options ? r->options : "", r->status, what, r->wall_s, B->failed,
            eta);
  free(stem);
}

/* A job ended: classify, append its record, report. */
static void cb_finish(batch_run *B, run_slot *s, int wstatus) {
  const batch_job *j = &B->jobs.job[s->job];
  char *res = cb_job_file(B, j, ".json"), *logp = cb_job_file(B, j, ".log");
  size_t len;
  char *log = util_read_file(logp, &len);
  batch_exit e = {WIFEXITED(wstatus), WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 0,
                  WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0, s->timed_out,
                  s->interrupted};
  batch_rec r;
  batch_rec_init(&r);
  batch_rec_from_job(&r, j);
  batch_classify(&r, &e, res, NULL, log);
  r.wall_s = util_now() - s->start;
  char iso[32], err[1024];
  cb_now_iso(iso, sizeof iso);
  batch_rec_set(&r.ended, iso);
  if (batch_jsonl_append(B->results, &r, err, sizeof err))
    fprintf(stderr, "remat %s: %s\n", B->cmd, err);
  B->running--;
  if (!s->interrupted) {
    B->done++;
    B->work_sum += r.wall_s;
    B->work_n++;
  }
  if (batch_status_failure(r.status)) B->failed++;
  cb_report(B, j, &r);
  batch_recs_take(&B->recs, &r);
  s->job = -1;
  free(log);
  free(res);
  free(logp);
}

static run_slot *cb_slot_of(batch_run *B, pid_t pid) {
  for (int i = 0; i < B->nslot; i++)
    if (B->slot[i].job >= 0 && B->slot[i].pid == pid) return &B->slot[i];
  return NULL;
}

static void cb_reap(batch_run *B) {
  int st;
  pid_t pid;
  while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
    run_slot *s = cb_slot_of(B, pid);
    if (s) cb_finish(B, s, st);
  }
}

/* Time limits overrun, and the Ctrl-C hand-over. */
static void cb_police(batch_run *B, int stop) {
  double now = util_now();
  for (int i = 0; i < B->nslot; i++) {
    run_slot *s = &B->slot[i];
    if (s->job < 0) continue;
    if (stop && !s->interrupted && !s->kill_at) {
      s->interrupted = 1;
      kill(s->pid, SIGTERM);
      s->kill_at = now + BATCH_KILL;
    } else if (!s->kill_at && now > s->deadline) {
      s->timed_out = 1;
      kill(s->pid, SIGTERM);
      s->kill_at = now + BATCH_KILL;
    } else if (s->kill_at && now > s->kill_at) {
      kill(s->pid, SIGKILL);
      s->kill_at = now + 3600;
    }
  }
}

static int cb_run(batch_run *B) {
  B->nslot = (int)(B->o->jobs > 0 ? B->o->jobs : util_ncpus());
  B->slot = util_malloc((size_t)B->nslot * sizeof *B->slot);
  for (int i = 0; i < B->nslot; i++) B->slot[i].job = -1;
  prog_init(&B->pr, B->o->quiet ? 0 : 1);
  if (B->skipped)
    prog_line(&B->pr, "resuming: %d of %d jobs already done, %d to run",
              B->skipped, B->jobs.n, B->ntodo);
  volatile int *stop = sig_install();
  int launch_failed = 0;
  while (B->itodo < B->ntodo || B->running) {
    if (*stop) B->stopping = 1;
    cb_police(B, B->stopping);
    for (int i = 0; i < B->nslot && !B->stopping && !launch_failed; i++)
      if (B->slot[i].job < 0 && B->itodo < B->ntodo) {
        if (cb_launch(B, &B->slot[i], B->todo[B->itodo])) launch_failed = 1;
        else B->itodo++;
      }
    if (launch_failed && !B->running) break;
    cb_reap(B);
    cb_status(B);
    if (B->stopping && !B->running) break;
    struct timespec ts = {0, 50 * 1000 * 1000};
    nanosleep(&ts, NULL);
  }
  prog_done(&B->pr);
  sig_restore();
  return B->stopping ? 130 : launch_failed ? 4 : 0;
}

/* --------------------------------------------------------- summaries */

static int cb_write_summary(const char *cmd, const char *prefix,
                            const batch_rec *const *row, int n,
                            const char *title) {
  char *csv = cb_cat(prefix, ".csv"), *md = cb_cat(prefix, ".md");
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

static int cb_rec_cmp(const void *a, const void *b) {
  const batch_rec *x = a, *y = b;
  int c = strcmp(x->graph ? x->graph : "", y->graph ? y->graph : "");
  if (c) return c;
  if (x->budget_bytes >= 0 && y->budget_bytes >= 0) {
    if (x->budget_bytes != y->budget_bytes)
      return x->budget_bytes > y->budget_bytes ? -1 : 1;
  } else { /* unknown sizes: the budget texts as numbers */
    double bx = x->budget ? strtod(x->budget, NULL) : 0;
    double by = y->budget ? strtod(y->budget, NULL) : 0;
    if (bx != by) return bx > by ? -1 : 1;
  }
  return strcmp(x->id ? x->id : "", y->id ? y->id : "");
}

/* One result file (and its NAME.job side file if any). */
static void cb_merge_file(batch_recs *R, const char *path) {
  batch_rec r;
  batch_rec_init(&r);
  char *stem = cb_strip(path, ".json"), *info = cb_cat(stem, ".job");
  int has_info = !batch_job_read_info(info, &r);
  int intr = 0;
  batch_rec_from_result(&r, path, NULL, &intr);
  if (!r.result) batch_rec_set(&r.result, path);
  if (intr && batch_status_final(r.status) && !r.reason)
    batch_rec_set(&r.reason, "the solve was interrupted (best schedule kept)");
  if (!has_info && r.graph) { /* no side file: the budget in bytes */
    char b[32];
    snprintf(b, sizeof b, "%lld", (long long)r.budget_bytes);
    batch_rec_set(&r.budget, b);
    char *id = batch_job_id(r.graph, b, NULL, 0);
    batch_rec_set(&r.id, id);
    free(id);
    batch_rec_set(&r.options, "");
  }
  if (!r.id) batch_rec_set(&r.id, path);
  batch_recs_take(R, &r);
  free(stem);
  free(info);
}

/* A NAME.job without NAME.json: the job did not write a result. */
static void cb_merge_orphan(batch_recs *R, const char *info) {
  char *stem = cb_strip(info, ".job"), *res = cb_cat(stem, ".json");
  char *logp = cb_cat(stem, ".log");
  struct stat st;
  if (!stat(res, &st)) goto out;
  batch_rec r;
  batch_rec_init(&r);
  if (batch_job_read_info(info, &r)) goto out;
  size_t len;
  char *log = util_read_file(logp, &len);
  if (log && strstr(log, "remat solve: ")) {
    batch_exit e = {1, 2, 0, 0, 0};
    batch_classify(&r, &e, NULL, NULL, log);
    r.exit_code = -1;
  } else {
    batch_rec_set(&r.status, "missing");
    batch_rec_set(&r.reason, "no result file (not run, or stopped before "
                             "writing one)");
  }
  free(log);
  batch_recs_take(R, &r);
out:
  free(stem);
  free(res);
  free(logp);
}

static int cb_merge_collect(batch_run *B) {
  char err[1024];
  for (int i = 0; i < B->o->npos; i++) {
    const char *arg = B->o->pos[i];
    struct stat st;
    if (stat(arg, &st)) {
      fprintf(stderr, "remat %s: cannot read %s: %s\n", B->cmd, arg,
              strerror(errno));
      return 2;
    }
    if (!S_ISDIR(st.st_mode)) {
      cb_merge_file(&B->recs, arg);
      continue;
    }
    int n, k;
    char **files = batch_list_dir(arg, ".json", &n, err, sizeof err);
    char **infos = files ? batch_list_dir(arg, ".job", &k, err, sizeof err) : NULL;
    if (!files || !infos) {
      fprintf(stderr, "remat %s: %s\n", B->cmd, err);
      batch_words_free(files, n);
      return 2;
    }
    for (int f = 0; f < n; f++) cb_merge_file(&B->recs, files[f]);
    for (int f = 0; f < k; f++) cb_merge_orphan(&B->recs, infos[f]);
    batch_words_free(files, n);
    batch_words_free(infos, k);
  }
  if (!B->recs.n) {
    fprintf(stderr, "remat %s: no result files to merge\n", B->cmd);
    return 2;
  }
  return 0;
}

static int cb_merge(batch_run *B) {
  if (!B->o->npos) {
    fprintf(stderr, "remat %s: --merge needs result files or directories\n",
            B->cmd);
    return 2;
  }
  cb_paths(B, "remat-merge.jsonl");
  int rc = cb_merge_collect(B);
  if (rc) return rc;
  qsort(B->recs.rec, (size_t)B->recs.n, sizeof *B->recs.rec, cb_rec_cmp);
  char err[1024];
  unlink(B->results);
  const batch_rec **row = util_malloc((size_t)B->recs.n * sizeof *row);
  for (int i = 0; i < B->recs.n; i++) {
    row[i] = &B->recs.rec[i];
    if (!rc && batch_jsonl_append(B->results, row[i], err, sizeof err)) {
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
  free(B->results);
  free(B->prefix);
  free(B->jobdir);
  free(B->slot);
  free(B->todo);
}

static int cb_main(batch_run *B) {
  const cli_opts *o = B->o;
  if (o->merge) return cb_merge(B);
  if (!o->npos) {
    fprintf(stderr, "remat %s: missing arguments\nusage: remat %s %s\n",
            B->cmd, B->cmd, cmd_find(B->cmd)->usage);
    return 2;
  }
  batch_defaults d;
  int rc = cb_defaults(o, B->cmd, &d);
  if (!rc) rc = cb_jobs(B, &d);
  batch_defaults_free(&d);
  if (rc) return rc;
  cb_paths(B, "remat-batch.jsonl");
  if ((rc = cb_mkdir(B->jobdir, B->cmd)) || (rc = cb_todo(B))) return rc;
  if (o->emit_jobs) return cb_emit(B);
  int run_rc = cb_run(B);
  return cb_summary(B, run_rc);
}

int cmd_batch(const char *name, const cli_opts *o) {
  if (o->merge && (o->emit_jobs || o->resume)) {
    fprintf(stderr, "remat %s: --merge takes neither --emit-jobs nor --resume\n",
            name);
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
