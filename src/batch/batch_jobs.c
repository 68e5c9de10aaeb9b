/* batch_jobs.c -- the batch's job list (see batch_jobs.h). */
#include "batch_jobs.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "budget.h"
#include "grow.h"
#include "remat.h"
#include "options.h"
#include "util.h"

/* ------------------------------------------------------------ words */

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

char *batch_join_words(char *const *w, int n) {
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
  d->time_limit = REMAT_TIME_LIMIT;
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

/* Split a budget list (budget_split: items and ranges) and check each
 * item; *out gets them all, or none on an error. */
static int batch_split_budgets(const char *list, char ***out, int *n,
                               char *err, size_t errlen) {
  char **items = util_malloc(BUDGET_MAX_ITEMS * sizeof *items), *storage;
  int k = budget_split(list, items, BUDGET_MAX_ITEMS, &storage, err, errlen);
  int rc = k < 0 ? REMAT_EUSAGE : 0;
  for (int i = 0; i < k && !rc; i++)
    if (batch_check_budget(items[i], err, errlen)) rc = REMAT_EUSAGE;
  for (int i = 0; i < k && !rc; i++) batch_strv_push(out, n, items[i]);
  free(storage);
  free(items);
  return rc;
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
  GROW(L->job, L->cap, L->n + 1, 16);
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

double batch_job_seconds(const batch_job *j) {
  for (int i = 0; i < j->nopt; i++)
    if (!strcmp(j->opt[i], "--lp-bound")) return 2 * j->time_limit;
  return j->time_limit;
}

char *batch_job_file(const char *jobdir, const batch_job *j, const char *ext) {
  util_buf x = {0};
  util_buf_printf(&x, "%s/%s%s", jobdir, j->name, ext);
  return x.s;
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
