/* batch_pool.c -- running a batch's jobs as child processes (see
 * batch_pool.h). */
#include "batch_pool.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "batch_check.h"
#include "batch_summary.h"
#include "child.h"
#include "progress.h"
#include "sig.h"
#include "util.h"

typedef struct pool_slot {
  int job;         /* index into the job list, -1 if free */
  child c;
  double deadline; /* stop it then: its limit plus BATCH_GRACE */
  int timed_out, interrupted;
} pool_slot;

typedef struct pool {
  const batch_pool_params *p;
  batch_recs *R;
  pool_slot *slot;
  int running, itodo;
  int done, failed;
  double work_sum; /* wall time of the finished jobs */
  int work_n;
  prog pr;
} pool;

void batch_pool_params_init(batch_pool_params *p) {
  memset(p, 0, sizeof *p);
  p->exe = "/proc/self/exe";
  p->slots = 1;
  p->cmd = "batch";
}

static void pool_now_iso(char *buf, size_t len) {
  time_t t = time(NULL);
  struct tm tm;
  gmtime_r(&t, &tm);
  strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Start one job in a free slot. */
static int pool_launch(pool *P, pool_slot *s, int job) {
  const batch_pool_params *p = P->p;
  const batch_job *j = &p->jobs->job[job];
  char *res = batch_job_file(p->jobdir, j, ".json");
  char *log = batch_job_file(p->jobdir, j, ".log");
  char *info = batch_job_file(p->jobdir, j, ".job"), err[1024];
  unlink(res);
  if (batch_job_write_info(j, info, err, sizeof err))
    fprintf(stderr, "remat %s: %s\n", p->cmd, err);
  int argc;
  char **argv = batch_job_argv(j, "remat", res, &argc);
  child_cmd o;
  child_cmd_init(&o);
  o.path = p->exe;
  o.log = log;
  o.null_stdin = 1;
  o.death_signal = SIGTERM; /* its solve stops and keeps its best */
  int rc = child_spawn(&s->c, argv, &o, err, sizeof err);
  batch_words_free(argv, argc);
  free(res);
  free(log);
  free(info);
  if (rc) {
    fprintf(stderr, "remat %s: %s\n", p->cmd, err);
    return -1;
  }
  s->job = job;
  s->deadline = s->c.t0 + batch_job_seconds(j) + BATCH_GRACE;
  s->timed_out = s->interrupted = 0;
  P->running++;
  return 0;
}

static void pool_fmt_eta(double s, char *buf, size_t len) {
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
static double pool_eta(const pool *P) {
  const batch_pool_params *p = P->p;
  double now = util_now(), work = 0, per = 0;
  int pending = p->ntodo - P->itodo;
  for (int i = 0; i < p->slots; i++) {
    const pool_slot *s = &P->slot[i];
    if (s->job < 0) continue;
    double left = batch_job_seconds(&p->jobs->job[s->job]) - (now - s->c.t0);
    work += left > 0 ? left : 0;
  }
  if (P->work_n)
    per = P->work_sum / P->work_n;
  else if (pending)
    per = batch_job_seconds(&p->jobs->job[p->todo[P->itodo]]);
  work += per * pending;
  return work / p->slots;
}

static void pool_status(pool *P) {
  char eta[32];
  pool_fmt_eta(pool_eta(P), eta, sizeof eta);
  prog_status(&P->pr, "batch: %d/%d done, %d failed, %d running, ETA %s",
              P->done + P->p->skipped, P->p->jobs->n, P->failed, P->running,
              eta);
}

static void pool_report(pool *P, const batch_job *j, const batch_rec *r) {
  char eta[32], what[256];
  pool_fmt_eta(pool_eta(P), eta, sizeof eta);
  char *stem = batch_graph_stem(j->graph);
  if (r->has_schedule)
    snprintf(what, sizeof what, "peak %lld  TDI %.2f%%", (long long)r->peak,
             r->tdi);
  else
    snprintf(what, sizeof what, "%.200s", r->reason ? r->reason : "no schedule");
  prog_line(&P->pr,
            "[%d/%d] %s --budget %s%s%s: %s  %s  %.1fs  (%d failed, ETA %s)",
            P->done + P->p->skipped, P->p->jobs->n, stem, j->budget,
            j->nopt ? " " : "", r->options ? r->options : "", r->status, what,
            r->wall_s, P->failed, eta);
  free(stem);
}

/* A job ended: classify, append its record, report. */
static void pool_finish(pool *P, pool_slot *s) {
  const batch_pool_params *p = P->p;
  const batch_job *j = &p->jobs->job[s->job];
  char *res = batch_job_file(p->jobdir, j, ".json");
  char *logp = batch_job_file(p->jobdir, j, ".log");
  size_t len;
  char *log = util_read_file(logp, &len);
  int st = s->c.status;
  batch_exit e = {WIFEXITED(st), WIFEXITED(st) ? WEXITSTATUS(st) : 0,
                  WIFSIGNALED(st) ? WTERMSIG(st) : 0, s->timed_out,
                  s->interrupted};
  batch_rec r;
  batch_rec_init(&r);
  batch_rec_from_job(&r, j);
  batch_classify(&r, &e, res, NULL, log);
  r.wall_s = util_now() - s->c.t0;
  char iso[32], err[1024];
  pool_now_iso(iso, sizeof iso);
  batch_rec_set(&r.ended, iso);
  if (batch_jsonl_append(p->results, &r, err, sizeof err))
    fprintf(stderr, "remat %s: %s\n", p->cmd, err);
  P->running--;
  if (!s->interrupted) {
    P->done++;
    P->work_sum += r.wall_s;
    P->work_n++;
  }
  if (batch_status_failure(r.status)) P->failed++;
  pool_report(P, j, &r);
  batch_recs_take(P->R, &r);
  s->job = -1;
  free(log);
  free(res);
  free(logp);
}

/* Stop the jobs past their deadline, or all of them (stop); reap the
 * jobs that ended. */
static void pool_police(pool *P, int stop) {
  double now = util_now();
  for (int i = 0; i < P->p->slots; i++) {
    pool_slot *s = &P->slot[i];
    if (s->job < 0) continue;
    if (stop && !s->interrupted && s->c.asked < 0) {
      s->interrupted = 1;
      child_stop(&s->c);
    } else if (s->c.asked < 0 && now > s->deadline) {
      s->timed_out = 1;
      child_stop(&s->c);
    }
    if (child_poll(&s->c, BATCH_KILL, 0, NULL, NULL)) pool_finish(P, s);
  }
}

int batch_pool_run(const batch_pool_params *p, batch_recs *R) {
  pool P;
  memset(&P, 0, sizeof P);
  P.p = p;
  P.R = R;
  P.failed = p->failed;
  P.slot = util_malloc((size_t)p->slots * sizeof *P.slot);
  for (int i = 0; i < p->slots; i++) P.slot[i].job = -1;
  prog_init(&P.pr, p->quiet ? 0 : 1);
  if (p->skipped)
    prog_line(&P.pr, "resuming: %d of %d jobs already done, %d to run",
              p->skipped, p->jobs->n, p->ntodo);
  volatile int *stop = sig_install();
  int launch_failed = 0, stopping = 0;
  while (P.itodo < p->ntodo || P.running) {
    if (*stop) stopping = 1;
    pool_police(&P, stopping);
    for (int i = 0; i < p->slots && !stopping && !launch_failed; i++)
      if (P.slot[i].job < 0 && P.itodo < p->ntodo) {
        if (pool_launch(&P, &P.slot[i], p->todo[P.itodo]))
          launch_failed = 1;
        else
          P.itodo++;
      }
    if (launch_failed && !P.running) break;
    pool_status(&P);
    if (stopping && !P.running) break;
    struct timespec ts = {0, 50 * 1000 * 1000};
    nanosleep(&ts, NULL);
  }
  prog_done(&P.pr);
  sig_restore();
  free(P.slot);
  return stopping ? 130 : launch_failed ? 4 : 0;
}
