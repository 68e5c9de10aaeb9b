/* batch_check.c -- a finished batch job's result re-checked into a
 * record, and how the job ended (see batch_check.h). */
#include "batch_check.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "result.h"
#include "util.h"

static int batch_bad(batch_rec *r, const char *status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int batch_bad(batch_rec *r, const char *status, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  batch_rec_set(&r->status, status);
  batch_rec_set(&r->reason, msg);
  return -1;
}

static int batch_known_status(const char *s) {
  static const char *const known[] = {"optimal", "feasible", "over-budget",
                                      "infeasible", NULL};
  for (const char *const *k = known; s && *k; k++)
    if (!strcmp(s, *k)) return 1;
  return 0;
}

/* Re-simulate the result's schedule (if any) and check its claims. */
static int batch_check_schedule(batch_rec *r, const result_file *f,
                                const remat_graph *g) {
  const json_t *arr = json_object_get(f->root, "sequence");
  if (!arr || json_is_null(arr)) return 0;
  if (!f->sequence)
    return batch_bad(r, "error", "%s: \"sequence\" is not an array", f->path);
  int len, *seq;
  char err[1024];
  if (result_file_sequence(f, g, &seq, &len, err, sizeof err))
    return batch_bad(r, "error", "%s", err);
  remat_sim s;
  int bad = remat_simulate(g, seq, len, &s, NULL);
  free(seq);
  if (bad)
    return batch_bad(r, "error", "%s: the schedule does not re-simulate: %s",
                     f->path, s.error);
  if (f->peak != s.peak || f->duration != s.duration)
    return batch_bad(r, "error",
                     "%s: claims peak %lld, duration %lld; re-simulated %lld, "
                     "%lld",
                     f->path, (long long)f->peak, (long long)f->duration,
                     (long long)s.peak, (long long)s.duration);
  r->has_schedule = 1;
  r->peak = s.peak;
  r->duration = s.duration;
  r->tdi = remat_tdi(remat_graph_base_duration(g), (double)s.duration);
  return 0;
}

static int batch_fill(batch_rec *r, const result_file *f,
                      const remat_graph *g, const char *path) {
  r->n = g->n;
  r->topo_peak = remat_topo_peak(g);
  r->budget_bytes = f->budget;
  batch_rec_set(&r->name, g->name);
  batch_rec_set(&r->result, path);
  r->time_s = f->time_s;
  r->time_to_best_s = f->time_to_best_s;
  r->has_bound = f->has_bound;
  r->bound_tdi = f->bound_tdi;
  if (f->status && !strcmp(f->status, "error"))
    return batch_bad(r, "error", "%s: %s", f->path,
                     f->message ? f->message : "the solve ended in an error");
  if (!batch_known_status(f->status))
    return batch_bad(r, "error", "%s: no valid \"status\"", f->path);
  if (r->budget_bytes <= 0)
    return batch_bad(r, "error", "%s: no valid \"budget\"", f->path);
  int64_t want;
  char berr[256];
  if (r->budget &&
      !remat_budget_parse(r->budget, r->topo_peak, &want, berr, sizeof berr) &&
      want != r->budget_bytes)
    return batch_bad(r, "error", "%s: solved for budget %lld, not %s (%lld)",
                     f->path, (long long)r->budget_bytes, r->budget,
                     (long long)want);
  if (batch_check_schedule(r, f, g)) return -1;
  if (f->message && !batch_status_fits(f->status))
    batch_rec_set(&r->reason, f->message);
  int fits = r->has_schedule && r->peak <= r->budget_bytes;
  if (fits != batch_status_fits(f->status))
    return batch_bad(r, "error", "%s: status %s but the schedule is %s",
                     f->path, f->status,
                     fits ? "within budget" : "not within budget");
  batch_rec_set(&r->status, f->status);
  return 0;
}

int batch_rec_from_result(batch_rec *r, const char *result_path,
                          const remat_graph *g, int *interrupted) {
  if (interrupted) *interrupted = 0;
  result_file f;
  char err[1024];
  int rc = -1;
  remat_graph *own = NULL;
  if (result_file_load(result_path, &f, err, sizeof err)) {
    batch_bad(r, "error", "%s", err);
    goto out;
  }
  if (!json_is_object(f.root)) {
    batch_bad(r, "error", "%s: not a result file (a JSON object)", f.path);
    goto out;
  }
  if (interrupted) *interrupted = f.interrupted;
  if (!g) {
    const char *gf = r->graph ? r->graph : f.graph_file;
    if (!gf) {
      batch_bad(r, "error", "%s: no \"graph_file\"", f.path);
      goto out;
    }
    if (!r->graph) batch_rec_set(&r->graph, gf);
    own = remat_graph_read(r->graph, err, sizeof err);
    if (!own) {
      batch_bad(r, "failed", "%s", err);
      goto out;
    }
    g = own;
  }
  rc = batch_fill(r, &f, g, result_path);
out:
  remat_graph_free(own);
  result_file_free(&f);
  return rc;
}

/* The last non-blank line of a log, without a "remat solve: " prefix. */
static char *batch_log_reason(const char *log) {
  if (!log) return NULL;
  const char *end = log + strlen(log);
  while (end > log && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
    end--;
  if (end == log) return NULL;
  const char *start = end;
  while (start > log && start[-1] != '\n') start--;
  static const char prefix[] = "remat solve: ";
  if ((size_t)(end - start) > sizeof prefix - 1 &&
      !strncmp(start, prefix, sizeof prefix - 1))
    start += sizeof prefix - 1;
  return util_strndup(start, (size_t)(end - start));
}

void batch_classify(batch_rec *r, const batch_exit *e, const char *result_path,
                    const remat_graph *g, const char *log) {
  r->exit_code = e->exited ? e->code : -1;
  r->signal = e->exited ? 0 : e->signal;
  struct stat st;
  int have_file = result_path && !stat(result_path, &st);
  if (e->interrupted) {
    if (have_file) batch_rec_from_result(r, result_path, g, NULL);
    batch_bad(r, "interrupted", "the batch was interrupted (redone on --resume)");
    return;
  }
  if (e->exited && (e->code == 0 || e->code == 3) && !e->timed_out) {
    if (batch_rec_from_result(r, result_path, g, NULL)) return;
    if ((e->code == 0) != batch_status_fits(r->status))
      batch_bad(r, "error", "exit code %d but status %s", e->code, r->status);
    return;
  }
  if (e->timed_out) {
    if (have_file && !batch_rec_from_result(r, result_path, g, NULL) &&
        r->has_schedule) {
      batch_rec_set(&r->reason, "overran its time limit: stopped, best "
                                "schedule kept");
      return;
    }
    r->has_schedule = 0;
    batch_bad(r, "timeout", "overran its time limit without a schedule: killed");
    return;
  }
  char *why = batch_log_reason(log);
  if (e->exited && e->code == 2)
    batch_bad(r, "failed", "%s", why ? why : "bad input (exit code 2)");
  else if (e->exited)
    batch_bad(r, "error", "exit code %d%s%s", e->code, why ? ": " : "",
              why ? why : "");
  else
    batch_bad(r, "crashed", "killed by signal %d (%s)", e->signal,
              strsignal(e->signal));
  free(why);
}
