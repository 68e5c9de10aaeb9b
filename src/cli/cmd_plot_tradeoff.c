/* cmd_plot_tradeoff.c -- remat plot tradeoff RESULTS... -o FILE.svg: the
 * budget/overhead curves (plot_tradeoff) from batch results (JSONL, as
 * `remat batch` writes them, e.g. over a budget range 1.0:0.3:0.05) and
 * `remat compare --format json` tables, one curve per method (and its
 * options) and graph. */
#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch_records.h"
#include "cmd.h"
#include "grow.h"
#include "plot.h"
#include "result.h"
#include "util.h"

typedef struct tcurve {
  char *label, *graph;
  plot_point *pts;
  int n, cap;
} tcurve;

typedef struct tcurves {
  tcurve *c;
  int n, cap;
} tcurves;

static int tc_status(const char *s) {
  if (!s) return -1;
  if (!strcmp(s, "optimal")) return REMAT_STATUS_OPTIMAL;
  if (!strcmp(s, "feasible")) return REMAT_STATUS_FEASIBLE;
  if (!strcmp(s, "over-budget")) return REMAT_STATUS_OVER_BUDGET;
  if (!strcmp(s, "infeasible")) return REMAT_STATUS_INFEASIBLE;
  return -1; /* failed, crashed, not run...: not a point */
}

static void tc_add(tcurves *T, const char *graph, const char *label, const plot_point *p) {
  tcurve *c = NULL;
  for (int i = 0; i < T->n && !c; i++)
    if (!strcmp(T->c[i].label, label) && !strcmp(T->c[i].graph, graph)) c = &T->c[i];
  if (!c) {
    GROW(T->c, T->cap, T->n + 1, 8);
    c = &T->c[T->n++];
    memset(c, 0, sizeof *c);
    c->label = util_strdup(label);
    c->graph = util_strdup(graph);
  }
  PUSH(c->pts, c->n, c->cap, 16, *p);
}

static double tc_real(const json_t *o, const char *key) {
  const json_t *v = json_object_get(o, key);
  return json_is_number(v) ? json_number_value(v) : NAN;
}

/* A compare table: a JSON array of rows. */
static int tc_compare(tcurves *T, const json_t *arr, const char *path, char *err,
                      size_t errlen) {
  size_t i;
  const json_t *o;
  json_array_foreach(arr, i, o) {
    const char *graph = json_string_value(json_object_get(o, "graph"));
    const char *method = json_string_value(json_object_get(o, "method"));
    const json_t *b = json_object_get(o, "budget"), *tp = json_object_get(o, "topo_peak");
    if (!graph || !method || !json_is_integer(b) || !json_is_integer(tp) ||
        json_integer_value(tp) <= 0)
      return util_err(err, errlen, 2,
                      "%s: row %zu is not a compare row (graph, method, budget, "
                      "topo_peak: remat compare --format json)",
                      path, i);
    int st = tc_status(json_string_value(json_object_get(o, "status")));
    if (st < 0) continue;
    plot_point p = {(double)json_integer_value(b) / (double)json_integer_value(tp),
                    json_integer_value(b), st, tc_real(o, "tdi_percent"),
                    tc_real(o, "lower_bound_tdi_percent")};
    tc_add(T, graph, method, &p);
  }
  return 0;
}

/* A batch's records: method cp, with the job's options in the label. */
static int tc_batch(tcurves *T, const char *path, char *err, size_t errlen) {
  batch_recs R = {0};
  int bad = 0;
  char first[512] = "";
  if (batch_jsonl_load(path, &R, &bad, first, sizeof first, err, errlen)) return 2;
  if (bad) {
    util_err(err, errlen, 2, "%s", first);
    batch_recs_free(&R);
    return 2;
  }
  for (int i = 0; i < R.n; i++) {
    const batch_rec *r = &R.rec[i];
    int st = tc_status(r->status);
    if (st < 0 || r->budget_bytes < 0 || r->topo_peak <= 0) continue;
    char label[512];
    snprintf(label, sizeof label, "cp%s%s", r->options && *r->options ? " " : "",
             r->options ? r->options : "");
    plot_point p = {(double)r->budget_bytes / (double)r->topo_peak, r->budget_bytes, st,
                    r->has_schedule ? r->tdi : NAN, r->has_bound ? r->bound_tdi : NAN};
    tc_add(T, r->name ? r->name : r->graph, label, &p);
  }
  batch_recs_free(&R);
  return 0;
}

/* A file: a JSON array (compare) or JSON lines (batch). */
static int tc_load(tcurves *T, const char *path, char *err, size_t errlen) {
  size_t len;
  char *text = util_read_file(path, &len);
  if (!text) return util_err(err, errlen, 2, "cannot read %s", util_shown_path(path));
  size_t k = 0;
  while (k < len && isspace((unsigned char)text[k])) k++;
  int array = k < len && text[k] == '[';
  free(text);
  if (!array) return tc_batch(T, path, err, errlen);
  result_file f;
  int rc = result_file_load(path, &f, err, errlen) ? 2
                                                    : tc_compare(T, f.root, f.path, err, errlen);
  result_file_free(&f);
  return rc;
}

int cmd_plot_tradeoff(const char *cmd, const cli_opts *o, FILE *mf, char *err, size_t errlen,
                      int *drawn) {
  tcurves T = {0};
  int rc = 0;
  *drawn = 0;
  for (int i = 1; i < o->npos && !rc; i++) rc = tc_load(&T, o->pos[i], err, errlen);
  if (!rc && !T.n)
    rc = util_err(err, errlen, 2, "no results with a budget and a status to draw");
  if (!rc) {
    int graphs = 1;
    for (int i = 1; i < T.n; i++) graphs &= !strcmp(T.c[i].graph, T.c[0].graph);
    plot_curve *pc = util_calloc((size_t)T.n, sizeof *pc);
    char **labels = util_calloc((size_t)T.n, sizeof *labels);
    for (int i = 0; i < T.n; i++) {
      util_buf b = {0};
      util_buf_printf(&b, "%s%s%s", T.c[i].label, graphs ? "" : ", ", graphs ? "" : T.c[i].graph);
      labels[i] = b.s;
      pc[i] = (plot_curve){labels[i], graphs ? T.c[i].graph : NULL, T.c[i].pts, T.c[i].n};
    }
    plot_opts po;
    plot_opts_init(&po);
    rc = plot_tradeoff(mf, pc, T.n, &po, err, errlen);
    *drawn = 1;
    for (int i = 0; i < T.n; i++) free(labels[i]);
    free(labels);
    free(pc);
  }
  for (int i = 0; i < T.n; i++) {
    free(T.c[i].label);
    free(T.c[i].graph);
    free(T.c[i].pts);
  }
  free(T.c);
  (void)cmd;
  return rc;
}
