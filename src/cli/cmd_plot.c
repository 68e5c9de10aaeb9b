/* cmd_plot.c -- remat plot intervals|memory|progress|tradeoff: SVG
 * pictures of schedules, solves and budget sweeps (the drawing is in
 * src/plot/).
 *
 *   remat plot intervals GRAPH SCHEDULE -o FILE.svg [--budget B]
 *   remat plot memory GRAPH SCHEDULE... -o FILE.svg [--budget B]
 *   remat plot progress RESULT... -o FILE.svg
 *   remat plot tradeoff RESULTS.jsonl|COMPARE.json... -o FILE.svg
 *
 * A SCHEDULE is a JSON file with a "sequence" (any result file), or the
 * word `topo` for the input order.  The budget is --budget, else the first
 * schedule file's "budget" field.  Without -o the SVG goes to stdout.  The
 * SVG is built in memory and written only when everything is valid. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmdutil.h"
#include "plot.h"
#include "result.h"
#include "sim.h"
#include "util.h"

/* One schedule given on the command line. */
typedef struct plotc_sched {
  int *seq;
  int len;
  char *label;
  int64_t budget; /* the file's "budget" field, -1 if none */
} plotc_sched;

/* ------------------------------------------------------------ output */

/* Write buf to o->output (or stdout). */
static int plotc_output(const char *cmd, const cli_opts *o, const char *buf,
                        size_t len) {
  FILE *f = util_out_open(o->output);
  if (!f) {
    fprintf(stderr, "remat %s: cannot write %s: %s\n", cmd, o->output,
            strerror(errno));
    return 2;
  }
  int bad = fwrite(buf, 1, len, f) != len;
  bad |= util_out_close(f);
  if (bad) {
    fprintf(stderr, "remat %s: cannot write %s\n", cmd,
            o->output ? o->output : "to stdout");
    return 2;
  }
  return 0;
}

/* Start an in-memory SVG. */
static FILE *plotc_mem(char **buf, size_t *len) {
  *buf = NULL;
  *len = 0;
  FILE *f = open_memstream(buf, len);
  if (!f) {
    fprintf(stderr, "remat plot: out of memory\n");
    exit(REMAT_EINTERNAL);
  }
  return f;
}

/* Finish the in-memory SVG of a plot_* call that returned rc and write it
 * out on success. */
static int plotc_finish(const char *cmd, const cli_opts *o, FILE *mf,
                        char **buf, size_t *len, int rc, const char *err) {
  fclose(mf); /* sets *buf and *len */
  if (rc)
    fprintf(stderr, "remat %s: %s\n", cmd, err);
  else
    rc = plotc_output(cmd, o, *buf, *len);
  free(*buf);
  return rc ? (rc == REMAT_EINTERNAL ? rc : 2) : 0;
}

/* --------------------------------------------------------- schedules */

/* Load one schedule (a file, - for standard input, or `topo`) and check
 * it against g. */
static int plotc_sched_load(const char *cmd, const remat_graph *g,
                            const char *arg, plotc_sched *s) {
  memset(s, 0, sizeof *s);
  s->budget = -1;
  if (!strcmp(arg, "topo")) {
    s->seq = sim_topo_sequence(g);
    s->len = g->n;
    s->label = util_strdup("input order");
    return 0;
  }
  char err[1024], method[64], label[1024];
  result_file f;
  if (result_file_load(arg, &f, err, sizeof err) ||
      result_file_sequence(&f, g, &s->seq, &s->len, err, sizeof err)) {
    fprintf(stderr, "remat %s: %s\n", cmd, err);
    result_file_free(&f);
    return 2;
  }
  s->budget = f.budget;
  snprintf(method, sizeof method, "%s", f.method ? f.method : "");
  result_file_free(&f);
  remat_sim sim;
  if (remat_simulate(g, s->seq, s->len, &sim, NULL)) {
    fprintf(stderr, "remat %s: %s: invalid schedule for %s: %s\n", cmd,
            util_shown_path(arg), g->name, sim.error);
    return 2;
  }
  char *stem = strcmp(arg, "-") ? util_stem(arg) : util_strdup(method[0] ? method : "stdin");
  if (method[0] && strcmp(method, stem))
    snprintf(label, sizeof label, "%s (%s)", stem, method);
  else
    snprintf(label, sizeof label, "%s", stem);
  free(stem);
  s->label = util_strdup(label);
  return 0;
}

static void plotc_sched_free(plotc_sched *s, int n) {
  for (int i = 0; i < n; i++) {
    free(s[i].seq);
    free(s[i].label);
  }
  free(s);
}

/* The budget: --budget, else the first schedule file's. */
static int plotc_budget(const char *cmd, const cli_opts *o,
                        const remat_graph *g, const plotc_sched *s, int n,
                        int64_t *budget) {
  *budget = -1;
  if (o->budget) return cmdu_budget(cmd, o->budget, g, budget) ? 2 : 0;
  for (int i = 0; i < n && *budget < 0; i++) *budget = s[i].budget;
  return 0;
}

/* intervals and memory: GRAPH SCHEDULE... */
static int plotc_schedules(const char *cmd, const cli_opts *o, int kind_mem) {
  remat_graph *g = cmdu_graph(cmd, o->pos[1]);
  if (!g) return 2;
  int ns = o->npos - 2, rc = 0, loaded = 0;
  plotc_sched *s = util_calloc((size_t)ns, sizeof *s);
  for (; loaded < ns && !rc; loaded++)
    rc = plotc_sched_load(cmd, g, o->pos[2 + loaded], &s[loaded]);
  plot_opts po;
  plot_opts_init(&po);
  if (!rc) rc = plotc_budget(cmd, o, g, s, ns, &po.budget);
  if (!rc) {
    char err[1024], *buf;
    size_t len;
    FILE *mf = plotc_mem(&buf, &len);
    if (kind_mem) {
      plot_schedule *ps = util_calloc((size_t)ns, sizeof *ps);
      for (int i = 0; i < ns; i++)
        ps[i] = (plot_schedule){s[i].label, s[i].seq, s[i].len};
      rc = plot_memory(mf, g, ps, ns, &po, err, sizeof err);
      free(ps);
    } else {
      rc = plot_intervals(mf, g, s[0].seq, s[0].len, &po, err, sizeof err);
    }
    rc = plotc_finish(cmd, o, mf, &buf, &len, rc, err);
  }
  plotc_sched_free(s, loaded);
  remat_graph_free(g);
  return rc;
}

/* ----------------------------------------------------------- results */

/* Read a result file's method, budget, base_duration, trace and time,
 * and its graph's name (NULL if none). */
static int plotc_result_read(const char *path, remat_result *r, char **graph,
                             char *err, size_t errlen) {
  memset(r, 0, sizeof *r);
  *graph = NULL;
  result_file f;
  int rc = result_file_load(path, &f, err, errlen);
  if (!rc && !json_is_object(f.root))
    rc = util_err(err, errlen, 2, "%s: not a JSON object", f.path);
  if (!rc) rc = result_file_trace(&f, r, err, errlen) ? 2 : 0;
  if (!rc && f.graph) *graph = util_strdup(f.graph);
  result_file_free(&f);
  return rc ? 2 : 0;
}

static int plotc_progress(const char *cmd, const cli_opts *o) {
  if (o->budget) {
    fprintf(stderr, "remat %s: progress takes no --budget (each result file "
                    "has its own)\n", cmd);
    return 2;
  }
  int nr = o->npos - 1, rc = 0, loaded = 0;
  remat_result *res = util_calloc((size_t)nr, sizeof *res);
  char **graphs = util_calloc((size_t)nr, sizeof *graphs);
  plot_run *runs = util_calloc((size_t)nr, sizeof *runs);
  char err[1024];
  for (; loaded < nr && !rc; loaded++) {
    rc = plotc_result_read(o->pos[1 + loaded], &res[loaded], &graphs[loaded],
                           err, sizeof err);
    if (rc) fprintf(stderr, "remat %s: %s\n", cmd, err);
    runs[loaded] = (plot_run){&res[loaded], graphs[loaded], NULL};
  }
  if (!rc) {
    plot_opts po;
    plot_opts_init(&po);
    char *buf;
    size_t len;
    FILE *mf = plotc_mem(&buf, &len);
    rc = plot_progress(mf, runs, nr, &po, err, sizeof err);
    rc = plotc_finish(cmd, o, mf, &buf, &len, rc, err);
  }
  for (int i = 0; i < loaded; i++) {
    remat_result_free(&res[i]);
    free(graphs[i]);
  }
  free(res);
  free(graphs);
  free(runs);
  return rc;
}

/* tradeoff: RESULTS... (cmd_plot_tradeoff.c) */
static int plotc_tradeoff(const char *cmd, const cli_opts *o) {
  if (o->budget) {
    fprintf(stderr, "remat %s: tradeoff takes no --budget (each result has its own)\n", cmd);
    return 2;
  }
  char *buf, err[1024] = "";
  size_t len;
  int drawn;
  FILE *mf = plotc_mem(&buf, &len);
  int rc = cmd_plot_tradeoff(cmd, o, mf, err, sizeof err, &drawn);
  return plotc_finish(cmd, o, mf, &buf, &len, rc, err);
}

/* ------------------------------------------------------------ command */

static int plotc_usage(const char *cmd, const char *kind) {
  if (!strcmp(kind, "intervals"))
    fprintf(stderr, "usage: remat %s intervals GRAPH SCHEDULE.json|topo -o "
                    "FILE.svg [--budget B]\n", cmd);
  else if (!strcmp(kind, "memory"))
    fprintf(stderr, "usage: remat %s memory GRAPH SCHEDULE.json|topo... -o "
                    "FILE.svg [--budget B]\n", cmd);
  else if (!strcmp(kind, "progress"))
    fprintf(stderr, "usage: remat %s progress RESULT.json... -o FILE.svg\n",
            cmd);
  else
    fprintf(stderr, "usage: remat %s tradeoff RESULTS.jsonl|COMPARE.json... -o "
                    "FILE.svg\n", cmd);
  return 2;
}

int cmd_plot(const char *cmd, const cli_opts *o) {
  if (o->npos < 1) {
    fprintf(stderr, "remat %s: which picture? intervals, memory, progress or tradeoff "
                    "(see remat %s --help)\n", cmd, cmd);
    return 2;
  }
  const char *kind = o->pos[0];
  if (!strcmp(kind, "intervals")) {
    if (o->npos != 3) return plotc_usage(cmd, kind);
    return plotc_schedules(cmd, o, 0);
  }
  if (!strcmp(kind, "memory")) {
    if (o->npos < 3) return plotc_usage(cmd, kind);
    return plotc_schedules(cmd, o, 1);
  }
  if (!strcmp(kind, "progress")) {
    if (o->npos < 2) return plotc_usage(cmd, kind);
    return plotc_progress(cmd, o);
  }
  if (!strcmp(kind, "tradeoff")) {
    if (o->npos < 2) return plotc_usage(cmd, kind);
    return plotc_tradeoff(cmd, o);
  }
  fprintf(stderr, "remat %s: unknown picture '%s' (use intervals, memory, "
                  "progress or tradeoff)\n", cmd, kind);
  return 2;
}
