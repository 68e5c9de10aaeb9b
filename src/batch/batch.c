/* batch.c -- batch jobs, the JSONL results file, re-checked records and
 * the summaries (see batch.h).  No processes here: cmd_batch.c runs them. */
#include "batch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "options.h"
#include "reader.h"
#include "util.h"

/* ------------------------------------------------------------ helpers */

static int batch_ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && !strcmp(s + n - k, suffix);
}

/* dir/name, or name when dir is NULL, empty or name is absolute. */
static char *batch_join(const char *dir, const char *name) {
  if (!dir || !*dir || name[0] == '/') return util_strdup(name);
  util_buf b = {0};
  util_buf_puts(&b, dir);
  if (!batch_ends_with(dir, "/")) util_buf_putc(&b, '/');
  util_buf_puts(&b, name);
  return b.s;
}

/* The directory part of a path ("" for a bare name). */
static char *batch_dirname(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash) return util_strdup("");
  if (slash == path) return util_strdup("/");
  return util_strndup(path, (size_t)(slash - path));
}

static void batch_strv_push(char ***v, int *n, const char *s) {
  *v = util_realloc(*v, (size_t)(*n + 2) * sizeof **v);
  (*v)[(*n)++] = util_strdup(s);
  (*v)[*n] = NULL;
}

void batch_words_free(char **word, int n) {
  if (!word) return;
  for (int i = 0; i < n; i++) free(word[i]);
  free(word);
}

static char **batch_strv_copy(char *const *v, int n) {
  char **c = util_malloc((size_t)(n + 1) * sizeof *c);
  for (int i = 0; i < n; i++) c[i] = util_strdup(v[i]);
  c[n] = NULL;
  return c;
}

void batch_rec_set(char **field, const char *value) {
  free(*field);
  *field = value ? util_strdup(value) : NULL;
}

/* A word that a POSIX shell reads back as itself. */
static int batch_shell_safe(const char *s) {
  if (!*s) return 0;
  for (const char *p = s; *p; p++)
    if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                "0123456789_-+=./,:@%^",
                *p))
      return 0;
  return 1;
}

char *batch_shell_quote(const char *s) {
  if (batch_shell_safe(s)) return util_strdup(s);
  util_buf b = {0};
  util_buf_putc(&b, '\'');
  for (const char *p = s; *p; p++) {
    if (*p == '\'')
      util_buf_puts(&b, "'\\''");
    else
      util_buf_putc(&b, *p);
  }
  util_buf_putc(&b, '\'');
  return b.s;
}

/* Words joined by spaces, each shell-quoted when needed. */
static char *batch_join_words(char *const *w, int n) {
  util_buf b = {0};
  util_buf_puts(&b, "");
  for (int i = 0; i < n; i++) {
    char *q = batch_shell_quote(w[i]);
    if (i) util_buf_putc(&b, ' ');
    util_buf_puts(&b, q);
    free(q);
  }
  return b.s;
}

/* ---------------------------------------------------------- defaults */

void batch_defaults_init(batch_defaults *d) {
  memset(d, 0, sizeof *d);
  d->time_limit = 60;
  d->threads = 1;
}

void batch_defaults_free(batch_defaults *d) {
  batch_words_free(d->budget, d->nbudget);
  batch_words_free(d->opt, d->nopt);
  memset(d, 0, sizeof *d);
}

/* A budget's syntax (its value depends on the graph). */
static int batch_check_budget(const char *text, char *err, size_t errlen) {
  int64_t b;
  return remat_budget_parse(text, INT64_C(1) << 40, &b, err, errlen);
}

/* Split "0.9,0.8" and check each. */
static int batch_split_budgets(const char *list, char ***out, int *n,
                               char *err, size_t errlen) {
  const char *p = list;
  for (;;) {
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    char *one = util_strndup(p, len);
    if (!*one || batch_check_budget(one, err, errlen)) {
      if (!*one) util_err(err, errlen, 0, "empty budget in '%s'", list);
      free(one);
      return REMAT_EUSAGE;
    }
    batch_strv_push(out, n, one);
    free(one);
    if (!comma) return 0;
    p = comma + 1;
  }
}

int batch_set_budgets(batch_defaults *d, const char *list, char *err,
                      size_t errlen) {
  return batch_split_budgets(list, &d->budget, &d->nbudget, err, errlen);
}

/* ----------------------------------------------------------- options */

/* Remove an earlier "--NAME [value]" from the list (the later one wins). */
static void batch_opt_remove(char **opt, int *nopt, const char *name,
                             int has_value) {
  for (int i = 0; i < *nopt; i++) {
    if (strcmp(opt[i], name)) continue;
    int k = has_value && i + 1 < *nopt ? 2 : 1;
    for (int j = i; j < i + k; j++) free(opt[j]);
    memmove(opt + i, opt + i + k, (size_t)(*nopt - i - k + 1) * sizeof *opt);
    *nopt -= k;
    return;
  }
}

int batch_parse_options(char **word, int nword, const char *base_dir,
                        char ***opt, int *nopt, double *time_limit,
                        int *threads, char *err, size_t errlen) {
  /* the option table's CMD_JOB options, parsed and checked by its parser */
  cli_scan s;
  cli_scan_init(&s, CMD_JOB, nword, word);
  cli_item it;
  int rc;
  while ((rc = cli_next(&s, &it, err, errlen)) == 1 && it.opt) {
    if (CLI_IS(it.opt, time_limit)) {
      *time_limit = it.d;
      continue;
    }
    if (CLI_IS(it.opt, threads)) {
      *threads = (int)it.i;
      continue;
    }
    char name[64];
    snprintf(name, sizeof name, "--%s", it.opt->lname);
    batch_opt_remove(*opt, nopt, name, it.value != NULL);
    batch_strv_push(opt, nopt, name);
    if (CLI_IS(it.opt, copies) && !it.number) { /* a file */
      char *path = batch_join(base_dir, it.value);
      batch_strv_push(opt, nopt, path);
      free(path);
    } else if (it.value) {
      batch_strv_push(opt, nopt, it.value);
    }
  }
  if (rc != 1 && rc != CLI_UNKNOWN) return rc ? REMAT_EUSAGE : 0;
  char names[512];
  cli_names(CMD_JOB, names, sizeof names);
  if (rc == 1) /* a positional word */
    return util_err(err, errlen, REMAT_EUSAGE,
                    "unexpected word '%s' (a job takes %s)", it.value, names);
  return util_err(err, errlen, REMAT_EUSAGE,
                  "unknown or batch-level option '%.*s' (a job takes %s)",
                  it.len, it.value, names);
}

/* --------------------------------------------------------- manifests */

int batch_split_words(const char *line, char ***word) {
  int n = 0;
  *word = NULL;
  const char *p = line;
  util_buf b = {0};
  for (;;) {
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
    if (!*p || *p == '#') break;
    b.len = 0;
    util_buf_puts(&b, "");
    while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n') {
      if (*p == '\'' || *p == '"') {
        char q = *p++;
        while (*p && *p != q) {
          if (q == '"' && *p == '\\' && (p[1] == '"' || p[1] == '\\')) p++;
          util_buf_putc(&b, *p++);
        }
        if (*p != q) {
          util_buf_free(&b);
          batch_words_free(*word, n);
          *word = NULL;
          return -1;
        }
        p++;
      } else {
        util_buf_putc(&b, *p++);
      }
    }
    batch_strv_push(word, &n, b.s);
  }
  util_buf_free(&b);
  return n;
}

static uint32_t batch_hash(const char *s) {
  uint32_t h = 2166136261u; /* FNV-1a */
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}

char *batch_job_id(const char *graph, const char *budget, char *const *opt,
                   int nopt) {
  char *g = batch_shell_quote(graph), *b = batch_shell_quote(budget);
  char *o = batch_join_words(opt, nopt);
  util_buf id = {0};
  util_buf_printf(&id, "%s --budget %s%s%s", g, b, nopt ? " " : "", o);
  free(g);
  free(b);
  free(o);
  return id.s;
}

static void batch_sanitize(char *s) {
  for (; *s; s++)
    if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                "0123456789.-",
                *s))
      *s = '_';
}

char *batch_job_name(const char *graph, const char *budget, const char *id) {
  char *stem = util_stem(graph), *b = util_strdup(budget);
  batch_sanitize(stem);
  batch_sanitize(b);
  util_buf n = {0};
  util_buf_printf(&n, "%s_%s_%08x", stem, b, (unsigned)batch_hash(id));
  free(stem);
  free(b);
  return n.s;
}

int batch_add_job(batch_list *L, const char *graph, const char *budget,
                  char *const *opt, int nopt, double time_limit, int threads,
                  const char *where) {
  char *id = batch_job_id(graph, budget, opt, nopt);
  for (int i = 0; i < L->n; i++)
    if (!strcmp(L->job[i].id, id)) {
      free(id);
      return 0;
    }
  if (L->n == L->cap) {
    L->cap = L->cap ? 2 * L->cap : 16;
    L->job = util_realloc(L->job, (size_t)L->cap * sizeof *L->job);
  }
  batch_job *j = &L->job[L->n++];
  j->graph = util_strdup(graph);
  j->budget = util_strdup(budget);
  j->opt = batch_strv_copy(opt, nopt);
  j->nopt = nopt;
  j->time_limit = time_limit;
  j->threads = threads;
  j->id = id;
  j->name = batch_job_name(graph, budget, id);
  j->where = where ? util_strdup(where) : NULL;
  return 1;
}

void batch_list_free(batch_list *L) {
  for (int i = 0; i < L->n; i++) {
    batch_job *j = &L->job[i];
    free(j->graph);
    free(j->budget);
    batch_words_free(j->opt, j->nopt);
    free(j->id);
    free(j->name);
    free(j->where);
  }
  free(L->job);
  memset(L, 0, sizeof *L);
}

char **batch_list_dir(const char *dir, const char *suffix, int *n, char *err,
                      size_t errlen) {
  DIR *d = opendir(dir);
  *n = 0;
  if (!d) {
    util_err(err, errlen, 0, "cannot read directory %s: %s", dir,
             strerror(errno));
    return NULL;
  }
  char **v = NULL;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.' || !batch_ends_with(e->d_name, suffix)) continue;
    char *path = batch_join(dir, e->d_name);
    struct stat st;
    if (!stat(path, &st) && S_ISREG(st.st_mode)) batch_strv_push(&v, n, path);
    free(path);
  }
  closedir(d);
  if (!v) v = util_calloc(1, sizeof *v);
  for (int i = 1; i < *n; i++) /* insertion sort: small lists */
    for (int k = i; k > 0 && strcmp(v[k - 1], v[k]) > 0; k--) {
      char *t = v[k];
      v[k] = v[k - 1];
      v[k - 1] = t;
    }
  return v;
}

/* Jobs for one graph file (or a directory of them) x budgets. */
static int batch_add_graph(batch_list *L, const char *graph, char **budget,
                           int nbudget, char *const *opt, int nopt,
                           double time_limit, int threads, const char *where,
                           char *err, size_t errlen) {
  struct stat st;
  if (!stat(graph, &st) && S_ISDIR(st.st_mode)) {
    int n;
    char **files = batch_list_dir(graph, ".json", &n, err, errlen);
    if (!files) return REMAT_EUSAGE;
    for (int i = 0; i < n; i++)
      for (int b = 0; b < nbudget; b++)
        batch_add_job(L, files[i], budget[b], opt, nopt, time_limit, threads,
                      where);
    batch_words_free(files, n);
    return 0;
  }
  for (int b = 0; b < nbudget; b++)
    batch_add_job(L, graph, budget[b], opt, nopt, time_limit, threads, where);
  return 0;
}

/* One manifest line's words. */
static int batch_manifest_line(char **w, int nw, const char *base,
                               const batch_defaults *d, batch_list *L,
                               const char *where, char *err, size_t errlen) {
  char **budget = NULL;
  int nbudget = 0, k = 1, rc = 0;
  if (nw > 1 && w[1][0] != '-') {
    if (batch_split_budgets(w[1], &budget, &nbudget, err, errlen))
      return REMAT_EUSAGE;
    k = 2;
  }
  char **opt = batch_strv_copy(d->opt, d->nopt);
  int nopt = d->nopt, threads = d->threads;
  double tl = d->time_limit;
  if (!nbudget && !d->nbudget)
    rc = util_err(err, errlen, REMAT_EUSAGE,
                  "no budget (write GRAPH BUDGET, or give --budget)");
  else
    rc = batch_parse_options(w + k, nw - k, base, &opt, &nopt, &tl, &threads,
                             err, errlen);
  if (!rc) {
    char *graph = batch_join(base, w[0]);
    rc = batch_add_graph(L, graph, nbudget ? budget : d->budget,
                         nbudget ? nbudget : d->nbudget, opt, nopt, tl,
                         threads, where, err, errlen);
    free(graph);
  }
  batch_words_free(opt, nopt);
  batch_words_free(budget, nbudget);
  return rc;
}

int batch_parse_manifest(const char *text, const char *path,
                         const batch_defaults *d, batch_list *L, char *err,
                         size_t errlen) {
  char *base = batch_dirname(path);
  const char *p = text;
  int lineno = 0, rc = 0;
  while (*p && !rc) {
    const char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p) : strlen(p);
    char *line = util_strndup(p, len);
    lineno++;
    char **w;
    int nw = batch_split_words(line, &w);
    char where[512], msg[512];
    snprintf(where, sizeof where, "%s:%d", path, lineno);
    if (nw < 0)
      rc = util_err(err, errlen, REMAT_EUSAGE, "%s: unclosed quote", where);
    else if (nw > 0 &&
             batch_manifest_line(w, nw, base, d, L, where, msg, sizeof msg))
      rc = util_err(err, errlen, REMAT_EUSAGE, "%s: %s", where, msg);
    batch_words_free(w, nw > 0 ? nw : 0);
    free(line);
    p = nl ? nl + 1 : p + len;
  }
  free(base);
  return rc;
}

int batch_is_manifest(const char *path, const char *text) {
  if (batch_ends_with(path, ".json")) return 0;
  if (batch_ends_with(path, ".txt") || batch_ends_with(path, ".jobs")) return 1;
  if (!text) return 0;
  const char *p = text;
  while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
  return *p != '{' && *p != '[';
}

int batch_add_input(batch_list *L, const char *arg, const batch_defaults *d,
                    char *err, size_t errlen) {
  struct stat st;
  if (stat(arg, &st))
    return util_err(err, errlen, REMAT_EUSAGE, "cannot read %s: %s", arg,
                    strerror(errno));
  char *text = NULL;
  if (!S_ISDIR(st.st_mode) && !batch_ends_with(arg, ".json")) {
    size_t len;
    text = util_read_file(arg, &len);
    if (!text)
      return util_err(err, errlen, REMAT_EUSAGE, "cannot read %s: %s", arg,
                      strerror(errno));
  }
  int rc;
  if (text && batch_is_manifest(arg, text)) {
    rc = batch_parse_manifest(text, arg, d, L, err, errlen);
  } else if (!d->nbudget) {
    rc = util_err(err, errlen, REMAT_EUSAGE,
                  "--budget is required for %s (e.g. --budget 0.9,0.8)", arg);
  } else {
    rc = batch_add_graph(L, arg, d->budget, d->nbudget, d->opt, d->nopt,
                         d->time_limit, d->threads, NULL, err, errlen);
  }
  free(text);
  return rc;
}

/* --------------------------------------------------- job side files */

char **batch_job_argv(const batch_job *j, const char *exe,
                      const char *result_path, int *argc) {
  char **v = NULL;
  int n = 0;
  char num[64];
  batch_strv_push(&v, &n, exe);
  batch_strv_push(&v, &n, "solve");
  batch_strv_push(&v, &n, j->graph);
  batch_strv_push(&v, &n, "--budget");
  batch_strv_push(&v, &n, j->budget);
  batch_strv_push(&v, &n, "--time-limit");
  snprintf(num, sizeof num, "%g", j->time_limit);
  batch_strv_push(&v, &n, num);
  batch_strv_push(&v, &n, "--threads");
  snprintf(num, sizeof num, "%d", j->threads);
  batch_strv_push(&v, &n, num);
  batch_strv_push(&v, &n, "-q");
  batch_strv_push(&v, &n, "-o");
  batch_strv_push(&v, &n, result_path);
  for (int i = 0; i < j->nopt; i++) batch_strv_push(&v, &n, j->opt[i]);
  *argc = n;
  return v;
}

char *batch_job_command(const batch_job *j, const char *exe,
                        const char *result_path) {
  int argc;
  char **argv = batch_job_argv(j, exe, result_path, &argc);
  char *cmd = batch_join_words(argv, argc);
  batch_words_free(argv, argc);
  return cmd;
}

int batch_job_write_info(const batch_job *j, const char *path, char *err,
                         size_t errlen) {
  char *opts = batch_join_words(j->opt, j->nopt);
  json_t *o = json_pack("{s:s,s:s,s:s,s:s,s:f,s:i}", "id", j->id, "graph",
                        j->graph, "budget", j->budget, "options", opts,
                        "time_limit", j->time_limit, "threads", j->threads);
  free(opts);
  int rc = json_dump_file(o, path, JSON_COMPACT);
  json_decref(o);
  if (rc)
    return util_err(err, errlen, REMAT_EUSAGE, "cannot write %s: %s", path,
                    strerror(errno));
  return 0;
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

/* ----------------------------------------------------------- records */

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
  free(r->id);
  free(r->graph);
  free(r->name);
  free(r->budget);
  free(r->options);
  free(r->status);
  free(r->result);
  free(r->reason);
  free(r->ended);
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
  if (R->n == R->cap) {
    R->cap = R->cap ? 2 * R->cap : 16;
    R->rec = util_realloc(R->rec, (size_t)R->cap * sizeof *R->rec);
  }
  R->rec[R->n++] = *r;
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

int batch_jsonl_load(const char *path, batch_recs *R, int *bad, char *err,
                     size_t errlen) {
  size_t len;
  *bad = 0;
  char *text = util_read_file(path, &len);
  if (!text) {
    if (errno == ENOENT) return 0;
    return util_err(err, errlen, REMAT_EUSAGE, "cannot read %s: %s", path,
                    strerror(errno));
  }
  char *p = text;
  while (*p) {
    char *nl = strchr(p, '\n');
    if (nl) *nl = 0;
    char *q = p;
    while (*q == ' ' || *q == '\t' || *q == '\r') q++;
    if (*q) {
      json_t *o = json_loads(p, 0, NULL);
      batch_rec r;
      if (o && !batch_rec_from_json(o, &r))
        batch_recs_take(R, &r);
      else
        (*bad)++;
      json_decref(o);
    }
    if (!nl) break;
    p = nl + 1;
  }
  free(text);
  return 0;
}

/* ------------------------------------------------ re-checked results */

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

/* The "sequence" array as node indices; NULL on an unknown id. */
static int *batch_sequence(const json_t *arr, const remat_graph *g, int *len) {
  size_t n = json_array_size(arr), i;
  int *seq = util_malloc((n ? n : 1) * sizeof *seq);
  const json_t *v;
  json_array_foreach(arr, i, v) {
    char id[4096];
    int k = reader_id_string(v, id, sizeof id) ? -1 : remat_graph_find(g, id);
    if (k < 0) {
      free(seq);
      return NULL;
    }
    seq[i] = k;
  }
  *len = (int)n;
  return seq;
}

/* Re-simulate the result's schedule and check its claims. */
static int batch_check_schedule(batch_rec *r, const json_t *o,
                                const remat_graph *g, const char *path) {
  const json_t *arr = json_object_get(o, "sequence");
  if (json_is_null(arr) || !arr) return 0;
  if (!json_is_array(arr))
    return batch_bad(r, "error", "%s: \"sequence\" is not an array", path);
  int len, *seq = batch_sequence(arr, g, &len);
  if (!seq)
    return batch_bad(r, "error", "%s: the sequence names a node not in %s",
                     path, g->name);
  remat_sim s;
  int bad = remat_simulate(g, seq, len, &s, NULL);
  free(seq);
  if (bad)
    return batch_bad(r, "error", "%s: the schedule does not re-simulate: %s",
                     path, s.error);
  int64_t peak = batch_get_int(o, "peak"), dur = batch_get_int(o, "duration");
  if (peak != s.peak || dur != s.duration)
    return batch_bad(r, "error",
                     "%s: claims peak %lld, duration %lld; re-simulated %lld, "
                     "%lld",
                     path, (long long)peak, (long long)dur, (long long)s.peak,
                     (long long)s.duration);
  int64_t base = remat_graph_base_duration(g);
  r->has_schedule = 1;
  r->peak = s.peak;
  r->duration = s.duration;
  r->tdi = remat_tdi(base, (double)s.duration);
  return 0;
}

static int batch_fill_from_json(batch_rec *r, const json_t *o,
                                const remat_graph *g, const char *path) {
  const char *status = json_string_value(json_object_get(o, "status"));
  static const char *const known[] = {"optimal", "feasible", "over-budget",
                                      "infeasible", NULL};
  r->n = g->n;
  r->topo_peak = remat_topo_peak(g);
  r->budget_bytes = batch_get_int(o, "budget");
  batch_rec_set(&r->name, g->name);
  batch_rec_set(&r->result, path);
  r->time_s = batch_get_real(o, "time_s", 0);
  r->time_to_best_s = batch_get_real(o, "time_to_best_s", -1);
  batch_get_bound(o, r);
  if (!batch_in(status, known))
    return batch_bad(r, "error", "%s: no valid \"status\"", path);
  if (r->budget_bytes <= 0)
    return batch_bad(r, "error", "%s: no valid \"budget\"", path);
  int64_t want;
  char berr[256];
  if (r->budget &&
      !remat_budget_parse(r->budget, r->topo_peak, &want, berr, sizeof berr) &&
      want != r->budget_bytes)
    return batch_bad(r, "error", "%s: solved for budget %lld, not %s (%lld)",
                     path, (long long)r->budget_bytes, r->budget,
                     (long long)want);
  if (batch_check_schedule(r, o, g, path)) return -1;
  const char *msg = json_string_value(json_object_get(o, "message"));
  if (msg && !batch_status_fits(status)) batch_rec_set(&r->reason, msg);
  int fits = r->has_schedule && r->peak <= r->budget_bytes;
  if (fits != batch_status_fits(status))
    return batch_bad(r, "error", "%s: status %s but the schedule is %s", path,
                     status, fits ? "within budget" : "not within budget");
  batch_rec_set(&r->status, status);
  return 0;
}

int batch_rec_from_result(batch_rec *r, const char *result_path,
                          const remat_graph *g, int *interrupted) {
  json_error_t je;
  if (interrupted) *interrupted = 0;
  json_t *o = json_load_file(result_path, 0, &je);
  if (!json_is_object(o)) {
    json_decref(o);
    return batch_bad(r, "error", "cannot read result %s: %s", result_path,
                     o ? "not a JSON object" : je.text);
  }
  remat_graph *own = NULL;
  if (!g) {
    const char *gf = r->graph;
    if (!gf) gf = json_string_value(json_object_get(o, "graph_file"));
    if (!gf) {
      json_decref(o);
      return batch_bad(r, "error", "%s: no \"graph_file\"", result_path);
    }
    if (!r->graph) batch_rec_set(&r->graph, gf);
    char err[1024];
    own = remat_graph_read(gf, err, sizeof err);
    if (!own) {
      json_decref(o);
      return batch_bad(r, "failed", "%s", err);
    }
    g = own;
  }
  int rc = batch_fill_from_json(r, o, g, result_path);
  if (interrupted) *interrupted = json_is_true(json_object_get(o, "interrupted"));
  remat_graph_free(own);
  json_decref(o);
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

int batch_exit_code(const batch_rec *const *row, int n) {
  int rc = 0;
  for (int i = 0; i < n; i++) {
    const char *s = row[i] ? row[i]->status : NULL;
    if (batch_status_failure(s)) return REMAT_EINTERNAL;
    if (!batch_status_fits(s)) rc = REMAT_ENOFIT;
  }
  return rc;
}

/* ---------------------------------------------------------- summaries */

char *batch_graph_stem(const char *graph) {
  return util_stem(graph ? graph : "?");
}

void batch_write_csv(FILE *f, const batch_rec *const *row, int n) {
  fprintf(f, "graph,n,budget,budget_bytes,status,peak,tdi_percent,"
             "time_to_best_s,time_s,lower_bound_tdi_percent\n");
  for (int i = 0; i < n; i++) {
    const batch_rec *r = row[i];
    char *stem = batch_graph_stem(r->graph);
    util_csv_field(f, stem);
    free(stem);
    if (r->n >= 0) fprintf(f, ",%d,", r->n);
    else fputs(",,", f);
    util_csv_field(f, r->budget ? r->budget : "");
    fputc(',', f);
    if (r->budget_bytes >= 0) fprintf(f, "%lld", (long long)r->budget_bytes);
    fputc(',', f);
    util_csv_field(f, r->status ? r->status : "");
    if (r->has_schedule)
      fprintf(f, ",%lld,%.4f", (long long)r->peak, r->tdi);
    else
      fputs(",,", f);
    if (r->time_to_best_s >= 0) fprintf(f, ",%.3f", r->time_to_best_s);
    else fputc(',', f);
    if (r->status && strcmp(r->status, "pending") && r->result)
      fprintf(f, ",%.3f", r->time_s);
    else
      fputc(',', f);
    if (r->has_bound) fprintf(f, ",%.4f\n", r->bound_tdi);
    else fputs(",\n", f);
  }
}

/* Markdown-safe text (pipes escaped). */
static void batch_md_text(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == '|') fputc('\\', f);
    fputc(*s == '\n' ? ' ' : *s, f);
  }
}

static void batch_md_row(FILE *f, const batch_rec *r) {
  char *stem = batch_graph_stem(r->graph);
  fputs("| ", f);
  batch_md_text(f, stem);
  free(stem);
  if (r->n >= 0) fprintf(f, " | %d | ", r->n);
  else fputs(" |  | ", f);
  if (r->budget) batch_md_text(f, r->budget);
  if (r->budget_bytes >= 0 &&
      (!r->budget || strtoll(r->budget, NULL, 10) != r->budget_bytes ||
       strpbrk(r->budget, ".%")))
    fprintf(f, r->budget ? " (%lld)" : "%lld", (long long)r->budget_bytes);
  fprintf(f, " | %s | ", r->status ? r->status : "");
  if (r->has_schedule)
    fprintf(f, "%lld | %.2f | ", (long long)r->peak, r->tdi);
  else
    fputs(" |  | ", f);
  if (r->time_to_best_s >= 0) fprintf(f, "%.2f", r->time_to_best_s);
  fputs(" | ", f);
  if (r->result) fprintf(f, "%.2f", r->time_s);
  fputs(" | ", f);
  if (r->has_bound) fprintf(f, "%.2f", r->bound_tdi);
  fputs(" |\n", f);
}

void batch_write_md(FILE *f, const batch_rec *const *row, int n,
                    const char *title) {
  fprintf(f, "# %s\n\n", title);
  fprintf(f, "| graph | n | budget | status | peak | TDI %% | time to best (s) "
             "| time (s) | lower bound TDI %% |\n");
  fprintf(f, "|---|--:|---|---|--:|--:|--:|--:|--:|\n");
  for (int i = 0; i < n; i++) batch_md_row(f, row[i]);
  static const char *const order[] = {"optimal", "feasible", "over-budget",
                                      "infeasible", "failed", "crashed",
                                      "timeout", "error", "missing",
                                      "interrupted", "pending", NULL};
  fprintf(f, "\n%d job%s:", n, n == 1 ? "" : "s");
  int first = 1;
  for (const char *const *s = order; *s; s++) {
    int k = 0;
    for (int i = 0; i < n; i++) k += row[i]->status && !strcmp(row[i]->status, *s);
    if (k) fprintf(f, "%s %d %s", first ? "" : ",", k, *s);
    if (k) first = 0;
  }
  fputs(".\n", f);
  int nfail = 0;
  for (int i = 0; i < n; i++) {
    const batch_rec *r = row[i];
    if (!batch_status_failure(r->status)) continue;
    if (!nfail++) fputs("\n## Failures\n\n", f);
    fputs("- `", f);
    fputs(r->id ? r->id : "?", f);
    fprintf(f, "`: %s", r->status);
    if (r->reason) {
      fputs(": ", f);
      batch_md_text(f, r->reason);
    }
    fputc('\n', f);
  }
}
