/* batch_records.c -- the batch's records and its JSONL results file (see
 * batch_records.h). */
#include "batch_records.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grow.h"
#include "remat.h"
#include "util.h"

/* ----------------------------------------------------------- records */

void batch_rec_set(char **field, const char *value) {
  free(*field);
  *field = value ? util_strdup(value) : NULL;
}

int batch_job_read_info(const char *path, batch_rec *r) {
  json_t *o = json_load_file(path, 0, NULL);
  const char *id, *graph, *budget, *options = "";
  int rc = -1;
  if (o && !json_unpack(o, "{s:s,s:s,s:s,s?s}", "id", &id, "graph", &graph,
                        "budget", &budget, "options", &options)) {
    batch_rec_set(&r->id, id);
    batch_rec_set(&r->graph, graph);
    batch_rec_set(&r->budget, budget);
    batch_rec_set(&r->options, options);
    rc = 0;
  }
  json_decref(o);
  return rc;
}

static const char *const batch_final_status[] = {
    "optimal", "feasible", "over-budget", "infeasible", "failed",
    "crashed", "timeout",  "error",       "missing",    NULL};

static int batch_in(const char *s, const char *const *set) {
  for (; s && *set; set++)
    if (!strcmp(s, *set)) return 1;
  return 0;
}

int batch_status_final(const char *status) {
  return batch_in(status, batch_final_status);
}

int batch_status_fits(const char *status) {
  static const char *const fits[] = {"optimal", "feasible", NULL};
  return batch_in(status, fits);
}

int batch_status_failure(const char *status) {
  static const char *const bad[] = {"failed", "crashed", "timeout", "error",
                                    "missing", NULL};
  return batch_in(status, bad);
}

void batch_rec_init(batch_rec *r) {
  memset(r, 0, sizeof *r);
  r->n = -1;
  r->budget_bytes = r->topo_peak = -1;
  r->peak = r->duration = -1;
  r->exit_code = -1;
  r->time_to_best_s = -1;
}

void batch_rec_free(batch_rec *r) {
  UTIL_FREE(r->id, r->graph, r->name, r->budget, r->options, r->status,
            r->result, r->reason, r->ended, r->slurm_task);
  batch_rec_init(r);
}

void batch_rec_from_job(batch_rec *r, const batch_job *j) {
  batch_rec_set(&r->id, j->id);
  batch_rec_set(&r->graph, j->graph);
  batch_rec_set(&r->budget, j->budget);
  free(r->options);
  r->options = batch_join_words(j->opt, j->nopt);
}

static json_t *batch_json_str(const char *s) {
  return s ? json_string(s) : json_null();
}

static json_t *batch_json_int(int64_t v) {
  return v >= 0 ? json_integer((json_int_t)v) : json_null();
}

/* Rounded to a millisecond (or 1e-4 for percentages). */
static json_t *batch_json_real(double v, double unit) {
  return json_real(round(v / unit) * unit);
}

json_t *batch_rec_to_json(const batch_rec *r) {
  json_t *o = json_object();
  json_object_set_new(o, "id", batch_json_str(r->id));
  json_object_set_new(o, "graph", batch_json_str(r->graph));
  json_object_set_new(o, "name", batch_json_str(r->name));
  json_object_set_new(o, "n", r->n >= 0 ? json_integer(r->n) : json_null());
  json_object_set_new(o, "budget", batch_json_str(r->budget));
  json_object_set_new(o, "budget_bytes", batch_json_int(r->budget_bytes));
  json_object_set_new(o, "options", batch_json_str(r->options ? r->options : ""));
  json_object_set_new(o, "status", batch_json_str(r->status));
  json_object_set_new(o, "exit_code", r->exit_code >= 0 ? json_integer(r->exit_code) : json_null());
  if (r->signal) json_object_set_new(o, "signal", json_integer(r->signal));
  json_object_set_new(o, "topo_peak", batch_json_int(r->topo_peak));
  json_object_set_new(o, "peak", batch_json_int(r->has_schedule ? r->peak : -1));
  json_object_set_new(o, "duration", batch_json_int(r->has_schedule ? r->duration : -1));
  json_object_set_new(o, "tdi_percent", r->has_schedule ? batch_json_real(r->tdi, 1e-6) : json_null());
  json_object_set_new(o, "time_s", batch_json_real(r->time_s, 1e-3));
  json_object_set_new(o, "time_to_best_s", r->time_to_best_s >= 0 ? batch_json_real(r->time_to_best_s, 1e-3) : json_null());
  json_object_set_new(o, "lower_bound_tdi_percent", r->has_bound ? batch_json_real(r->bound_tdi, 1e-6) : json_null());
  json_object_set_new(o, "wall_s", batch_json_real(r->wall_s, 1e-3));
  json_object_set_new(o, "result", batch_json_str(r->result));
  if (r->reason) json_object_set_new(o, "reason", json_string(r->reason));
  if (r->ended) json_object_set_new(o, "ended", json_string(r->ended));
  if (r->slurm_task)
    json_object_set_new(o, "slurm_task", json_string(r->slurm_task));
  return o;
}

static void batch_get_str(const json_t *o, const char *key, char **field) {
  const json_t *v = json_object_get(o, key);
  batch_rec_set(field, json_is_string(v) ? json_string_value(v) : NULL);
}

static int64_t batch_get_int(const json_t *o, const char *key) {
  const json_t *v = json_object_get(o, key);
  return json_is_integer(v) ? (int64_t)json_integer_value(v) : -1;
}

static double batch_get_real(const json_t *o, const char *key, double none) {
  const json_t *v = json_object_get(o, key);
  return json_is_number(v) ? json_number_value(v) : none;
}

/* "lower_bound_tdi_percent" (records and result JSON alike), or none. */
static void batch_get_bound(const json_t *o, batch_rec *r) {
  r->has_bound = json_is_number(json_object_get(o, "lower_bound_tdi_percent"));
  r->bound_tdi = batch_get_real(o, "lower_bound_tdi_percent", 0);
}

int batch_rec_from_json(const json_t *o, batch_rec *r) {
  batch_rec_init(r);
  if (!json_is_object(o) || !json_is_string(json_object_get(o, "id")) ||
      !json_is_string(json_object_get(o, "status")))
    return -1;
  batch_get_str(o, "id", &r->id);
  batch_get_str(o, "graph", &r->graph);
  batch_get_str(o, "name", &r->name);
  batch_get_str(o, "budget", &r->budget);
  batch_get_str(o, "options", &r->options);
  batch_get_str(o, "status", &r->status);
  batch_get_str(o, "result", &r->result);
  batch_get_str(o, "reason", &r->reason);
  batch_get_str(o, "ended", &r->ended);
  batch_get_str(o, "slurm_task", &r->slurm_task);
  r->n = (int)batch_get_int(o, "n");
  r->budget_bytes = batch_get_int(o, "budget_bytes");
  r->topo_peak = batch_get_int(o, "topo_peak");
  r->peak = batch_get_int(o, "peak");
  r->duration = batch_get_int(o, "duration");
  r->has_schedule = r->peak >= 0 && json_is_number(json_object_get(o, "tdi_percent"));
  r->tdi = batch_get_real(o, "tdi_percent", 0);
  r->exit_code = (int)batch_get_int(o, "exit_code");
  int64_t sig = batch_get_int(o, "signal");
  r->signal = sig > 0 ? (int)sig : 0;
  r->time_s = batch_get_real(o, "time_s", 0);
  r->time_to_best_s = batch_get_real(o, "time_to_best_s", -1);
  batch_get_bound(o, r);
  r->wall_s = batch_get_real(o, "wall_s", 0);
  return 0;
}

void batch_recs_free(batch_recs *R) {
  for (int i = 0; i < R->n; i++) batch_rec_free(&R->rec[i]);
  free(R->rec);
  memset(R, 0, sizeof *R);
}

void batch_recs_take(batch_recs *R, batch_rec *r) {
  PUSH(R->rec, R->n, R->cap, 16, *r);
  batch_rec_init(r);
}

const batch_rec *batch_recs_find(const batch_recs *R, const char *id) {
  for (int i = R->n - 1; i >= 0; i--)
    if (R->rec[i].id && !strcmp(R->rec[i].id, id)) return &R->rec[i];
  return NULL;
}

int batch_jsonl_append(const char *path, const batch_rec *r, char *err,
                       size_t errlen) {
  json_t *o = batch_rec_to_json(r);
  char *line = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(12));
  json_decref(o);
  size_t len = strlen(line);
  line = util_realloc(line, len + 2);
  line[len++] = '\n';
  line[len] = 0;
  int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  int rc = 0;
  if (fd < 0) {
    rc = util_err(err, errlen, REMAT_EUSAGE, "cannot write %s: %s", path,
                  strerror(errno));
  } else {
    size_t off = 0;
    while (off < len) {
      ssize_t k = write(fd, line + off, len - off);
      if (k < 0 && errno == EINTR) continue;
      if (k <= 0) {
        rc = util_err(err, errlen, REMAT_EUSAGE, "cannot write %s: %s", path,
                      strerror(errno));
        break;
      }
      off += (size_t)k;
    }
    close(fd);
  }
  free(line);
  return rc;
}

/* One line of a JSONL file as a record; -1 with why (PATH:LINE[:COL]: ...)
 * when it is not one. */
static int batch_jsonl_line(const char *p, size_t len, const char *path,
                            int lineno, batch_rec *r, char *why,
                            size_t whylen) {
  if (memchr(p, 0, len))
    return util_err(why, whylen, -1, "%s:%d: a NUL byte in the line", path,
                    lineno);
  json_error_t je;
  json_t *o = json_loadb(p, len, 0, &je);
  if (!o)
    return util_err(why, whylen, -1, "%s:%d:%d: JSON syntax error: %s", path,
                    lineno, je.column, je.text);
  int rc = batch_rec_from_json(o, r);
  json_decref(o);
  if (rc)
    return util_err(why, whylen, -1,
                    "%s:%d: not a batch record (no \"id\" or \"status\")",
                    path, lineno);
  return 0;
}

int batch_jsonl_load(const char *path, batch_recs *R, int *bad,
                     char *first_bad, size_t first_len, char *err,
                     size_t errlen) {
  size_t len;
  *bad = 0;
  if (first_bad && first_len) first_bad[0] = 0;
  char *text = util_read_file(path, &len);
  if (!text) {
    if (errno == ENOENT) return 0;
    return util_err(err, errlen, REMAT_EUSAGE, "cannot read %s: %s", path,
                    strerror(errno));
  }
  const char *p = text, *end = text + len;
  for (int lineno = 1; p < end; lineno++) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
    size_t k = 0;
    while (k < n && (p[k] == ' ' || p[k] == '\t' || p[k] == '\r')) k++;
    if (k < n) {
      batch_rec r;
      char why[1024];
      batch_rec_init(&r);
      if (!batch_jsonl_line(p, n, path, lineno, &r, why, sizeof why)) {
        batch_recs_take(R, &r);
      } else {
        if (!(*bad)++ && first_bad && first_len)
          snprintf(first_bad, first_len, "%s", why);
        batch_rec_free(&r);
      }
    }
    p += n + 1;
  }
  free(text);
  return 0;
}


int batch_exit_code(const batch_rec *const *row, int n) {
  int rc = 0;
  for (int i = 0; i < n; i++) {
    const char *s = row[i] ? row[i]->status : NULL;
    if (batch_status_failure(s)) return REMAT_EINTERNAL;
    if (!batch_status_fits(s)) rc = REMAT_ENOFIT;
  }
  return rc;
}
