/* batch_slurm_rec.c -- records of a batch run through Slurm (see
 * batch_slurm_rec.h). */
#include "batch_slurm_rec.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "batch_check.h"
#include "batch_summary.h"
#include "sig.h"
#include "util.h"

/* ---------------------------------------------------------- one task */

/* JOBDIR/NAME.EXT (allocated). */
static char *bsr_file(const char *jobdir, const char *name, const char *ext) {
  util_buf b = {0};
  util_buf_printf(&b, "%s/%s%s", jobdir, name, ext);
  return b.s;
}

/* NAME.exit: "STATUS SECONDS" as the array's script writes it. */
static int bsr_read_exit(const char *path, int *status, double *secs) {
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  int ok = fscanf(f, "%d %lf", status, secs) == 2;
  fclose(f);
  return ok;
}

static int bsr_is(const char *state, const char *const *set) {
  for (; *set; set++)
    if (!strcmp(state, *set)) return 1;
  return 0;
}

/* The script ended by itself (or nothing knows the task any more). */
static void bsr_ended(batch_rec *r, const bsq_task *t, const char *res,
                      const char *exitp, const char *log, int has_exit,
                      int status) {
  if (!has_exit && !t->state[0]) {
    r->exit_code = -1;
    batch_rec_set(&r->status, "error");
    util_buf b = {0};
    util_buf_printf(&b, "no result file %s (Slurm has no record of task %s)",
                    res, r->slurm_task);
    batch_rec_set(&r->reason, b.s);
    util_buf_free(&b);
    return;
  }
  if (!has_exit || (status > 4 && status < 128)) {
    util_buf b = {0};
    util_buf_printf(&b, "Slurm: %s (exit code %s)%s%s", t->state,
                    t->exit[0] ? t->exit : "?",
                    has_exit ? "" : ", no exit status in ", has_exit ? "" : exitp);
    batch_rec_set(&r->status, "failed");
    batch_rec_set(&r->reason, b.s);
    r->exit_code = has_exit ? status : -1;
    util_buf_free(&b);
    return;
  }
  batch_exit e = {status < 128, status < 128 ? status : 0,
                  status < 128 ? 0 : status - 128, 0, 0};
  batch_classify(r, &e, res, NULL, log);
}

/* Slurm stopped it: its time limit, or remat's scancel. */
static void bsr_stopped(batch_rec *r, const bsq_task *t, const char *res,
                        const char *log, int timed_out) {
  batch_exit e = {0, 0, 0, timed_out, !timed_out};
  batch_classify(r, &e, res, NULL, log);
  if (!timed_out) return;
  util_buf b = {0};
  util_buf_printf(&b, "Slurm: %s (the task's time limit)%s", t->state,
                  r->has_schedule ? ": stopped, best schedule kept"
                                  : " without a schedule");
  batch_rec_set(&r->reason, b.s);
  util_buf_free(&b);
}

/* Killed by Slurm, or cancelled outside remat. */
static void bsr_crashed(batch_rec *r, const bsq_task *t) {
  util_buf b = {0};
  util_buf_printf(&b, "Slurm: %s%s", t->state,
                  strcmp(t->state, "CANCELLED") ? ""
                                                : " (not by remat batch)");
  r->exit_code = -1;
  r->has_schedule = 0;
  batch_rec_set(&r->status, "crashed");
  batch_rec_set(&r->reason, b.s);
  util_buf_free(&b);
}

int bsr_task_record(batch_rec *r, const bsq_task *t, const char *jobdir,
                    const char *name, const char *slurm_task, int cancelled) {
  static const char *const timeouts[] = {"TIMEOUT", "DEADLINE", NULL};
  static const char *const ran[] = {"COMPLETED", "FAILED", "", NULL};
  if (t->state[0] && !bsq_final(t->state)) return 0;
  char *res = bsr_file(jobdir, name, ".json"), *logp = bsr_file(jobdir, name, ".log");
  char *exitp = bsr_file(jobdir, name, ".exit"), *log;
  int status = 0, has_exit = bsr_read_exit(exitp, &status, &r->wall_s), made = 1;
  struct stat st;
  int started = has_exit || !stat(logp, &st);
  int by_remat = cancelled && !strcmp(t->state, "CANCELLED");
  size_t len;
  log = util_read_file(logp, &len);
  batch_rec_set(&r->slurm_task, slurm_task);
  if (by_remat && !started)
    made = 0;
  else if (bsr_is(t->state, ran))
    bsr_ended(r, t, res, exitp, log, has_exit, status);
  else if (by_remat || bsr_is(t->state, timeouts))
    bsr_stopped(r, t, res, log, !by_remat);
  else
    bsr_crashed(r, t);
  free(log);
  UTIL_FREE(res, logp, exitp);
  return made;
}

/* ---------------------------------------------------------- the run */

/* The latest task of each job: its submission and task number. */
typedef struct bsr_latest {
  const char *name;
  int sub, task;
} bsr_latest;

static bsr_latest *bsr_latest_tasks(const bsl_run *run, int *n) {
  bsr_latest *L = NULL;
  *n = 0;
  for (int s = 0; s < run->nsub; s++)
    for (int i = 0; i < run->sub[s].n; i++) {
      const char *name = run->sub[s].name[i];
      int k = 0;
      while (k < *n && strcmp(L[k].name, name)) k++;
      if (k == *n) L = util_realloc(L, (size_t)++*n * sizeof *L);
      L[k] = (bsr_latest){name, s, i + 1};
    }
  return L;
}

static const batch_rec *bsr_find_task(const batch_recs *R, const char *tid) {
  for (int i = R->n - 1; i >= 0; i--)
    if (R->rec[i].slurm_task && !strcmp(R->rec[i].slurm_task, tid))
      return &R->rec[i];
  return NULL;
}

/* The job's fields from its side file (else its name as its id). */
static void bsr_job_fields(batch_rec *r, const char *jobdir, const char *name) {
  char *info = bsr_file(jobdir, name, ".job");
  batch_rec_init(r);
  if (batch_job_read_info(info, r)) batch_rec_set(&r->id, name);
  free(info);
}

static void bsr_now_iso(char *buf, size_t len) {
  time_t t = time(NULL);
  struct tm tm;
  gmtime_r(&t, &tm);
  strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void bsr_report(prog *pr, const bsr_count *c, const batch_rec *r) {
  char what[256];
  char *stem = batch_graph_stem(r->graph ? r->graph : r->id);
  if (r->has_schedule)
    snprintf(what, sizeof what, "peak %lld  TDI %.2f%%", (long long)r->peak,
             r->tdi);
  else
    snprintf(what, sizeof what, "%.200s", r->reason ? r->reason : "no schedule");
  prog_line(pr, "[%d/%d] %s --budget %s%s%s: %s  %s  (Slurm task %s)",
            c->done, c->jobs, stem, r->budget ? r->budget : "?",
            r->options && *r->options ? " " : "", r->options ? r->options : "",
            r->status, what, r->slurm_task);
  free(stem);
}

/* Append the new records (C) that the results file does not hold yet,
 * under an exclusive lock on it; every one of them goes into R. */
static void bsr_keep(const bsr_params *p, batch_recs *C, batch_recs *R,
                     bsr_count *c, prog *pr) {
  int fd = p->results ? open(p->results, O_RDWR | O_CREAT | O_CLOEXEC, 0644) : -1;
  batch_recs F = {0};
  char err[1024];
  int bad;
  if (fd >= 0 && !flock(fd, LOCK_EX))
    batch_jsonl_load(p->results, &F, &bad, NULL, 0, err, sizeof err);
  for (int i = 0; i < C->n; i++) {
    batch_rec *r = &C->rec[i];
    c->done++;
    if (batch_status_failure(r->status)) c->failed++;
    if (p->results && !bsr_find_task(&F, r->slurm_task) &&
        batch_jsonl_append(p->results, r, err, sizeof err))
      fprintf(stderr, "remat %s: %s\n", p->cmd, err);
    if (pr) bsr_report(pr, c, r);
    batch_recs_take(R, r);
  }
  if (fd >= 0) close(fd); /* and the lock with it */
  batch_recs_free(&F);
}

/* A task not final (or cancelled before it started). */
static void bsr_open(const bsr_params *p, batch_recs *R, bsr_count *c,
                     const bsq_task *t, const char *jobdir, const char *name) {
  if (!strcmp(t->state, "PENDING") || !t->state[0]) c->queued++;
  else if (!bsq_final(t->state)) c->running++;
  if (!p->pending_rows) return;
  batch_rec r;
  bsr_job_fields(&r, jobdir, name);
  batch_rec_set(&r.status, "pending");
  batch_recs_take(R, &r);
}

static void bsr_tid(char *buf, size_t len, const bsl_sub *sub, int task) {
  snprintf(buf, len, "%s_%d", sub->job, task);
}

/* Slurm's view of the submissions that hold a job's latest task without
 * a record (the others are not asked). */
static bsq_array *bsr_query(bsl_run *run, const bsr_latest *L, int n,
                            const batch_recs *R) {
  bsq_array *A = util_calloc((size_t)run->nsub + 1, sizeof *A);
  int *need = util_calloc((size_t)run->nsub + 1, sizeof *need);
  char tid[64];
  for (int k = 0; k < n; k++) {
    bsr_tid(tid, sizeof tid, &run->sub[L[k].sub], L[k].task);
    if (!bsr_find_task(R, tid)) need[L[k].sub] = 1;
  }
  for (int s = 0; s < run->nsub; s++) {
    bsq_array_init(&A[s], run->sub[s].job, run->sub[s].n);
    if (need[s]) bsq_query(&A[s]);
    run->sub[s].open = 0;
  }
  free(need);
  return A;
}

/* One job's latest task: done before (its record is in R), a new record
 * (into C), or open. */
static void bsr_look(bsl_run *run, const bsr_latest *l, const bsq_array *a,
                     const bsr_params *p, batch_recs *R, batch_recs *C,
                     bsr_count *c) {
  bsl_sub *sub = &run->sub[l->sub];
  const bsq_task *t = &a->task[l->task - 1];
  char tid[64], iso[32];
  bsr_tid(tid, sizeof tid, sub, l->task);
  const batch_rec *old = bsr_find_task(R, tid);
  if (old) {
    c->done++;
    c->failed += batch_status_failure(old->status);
    return;
  }
  batch_rec r;
  bsr_job_fields(&r, run->jobdir, l->name);
  if ((!t->state[0] && !a->gone) ||
      !bsr_task_record(&r, t, run->jobdir, l->name, tid, sub->cancelled)) {
    sub->open += !bsq_final(t->state);
    bsr_open(p, R, c, t, run->jobdir, l->name);
    batch_rec_free(&r);
    return;
  }
  bsr_now_iso(iso, sizeof iso);
  batch_rec_set(&r.ended, iso);
  batch_recs_take(C, &r);
}

void bsr_collect(bsl_run *run, const bsr_params *p, batch_recs *R,
                 bsr_count *c, prog *pr) {
  int n;
  bsr_latest *L = bsr_latest_tasks(run, &n);
  bsq_array *A = bsr_query(run, L, n, R);
  batch_recs C = {0};
  memset(c, 0, sizeof *c);
  c->jobs = n;
  for (int k = 0; k < n; k++) bsr_look(run, &L[k], &A[L[k].sub], p, R, &C, c);
  bsr_keep(p, &C, R, c, pr);
  for (int s = 0; s < run->nsub; s++) bsq_array_free(&A[s]);
  free(A);
  free(L);
  batch_recs_free(&C);
}

/* ------------------------------------------------------------ waiting */

/* Sleep `seconds`, waking early when *stop is set. */
static void bsr_sleep(double seconds, const volatile int *stop) {
  for (double t = 0; t < seconds && !*stop; t += 0.1) {
    struct timespec ts = {0, 100 * 1000 * 1000};
    nanosleep(&ts, NULL);
  }
}

static int bsr_cancel_open(bsl_run *run, const char *cmd) {
  int rc = 0;
  char err[1024];
  for (int s = 0; s < run->nsub; s++)
    if (run->sub[s].open && bsl_cancel(run->jobdir, &run->sub[s], err, sizeof err)) {
      fprintf(stderr, "remat %s: %s\n", cmd, err);
      rc = 4;
    }
  return rc;
}

int bsr_wait(bsl_run *run, const bsr_params *p, batch_recs *R) {
  prog pr;
  prog_init(&pr, p->quiet ? 0 : 1);
  volatile int *stop = sig_install();
  double t0 = util_now();
  int stopped = 0, rc = 0;
  for (;;) {
    bsr_count c;
    bsr_collect(run, p, R, &c, &pr);
    if (!c.running && !c.queued) break;
    prog_status(&pr, "slurm: %d/%d done, %d failed, %d running, %d queued",
                c.done, c.jobs, c.failed, c.running, c.queued);
    if (*stop && !stopped) {
      stopped = 1;
      prog_line(&pr, "interrupted: cancelling the array (scancel)");
      rc = bsr_cancel_open(run, p->cmd);
    }
    /* Slurm stops cancelled tasks within seconds: look again soon */
    static const volatile int never = 0;
    double wait = stopped ? 1 : (util_now() - t0) / 10;
    bsr_sleep(wait < 1 ? 1 : wait > 15 ? 15 : wait, stopped ? &never : stop);
  }
  prog_done(&pr);
  sig_restore();
  return rc ? rc : stopped ? 130 : 0;
}
