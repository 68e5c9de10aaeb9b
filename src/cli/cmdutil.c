/* cmdutil.c -- shared subcommand helpers. */
#include "cmdutil.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "copies.h"
#include "graph.h"
#include "result.h"
#include "util.h"

remat_graph *cmdu_graph(const char *cmd, const char *path) {
  char err[1024];
  remat_graph *g = remat_graph_read(path, err, sizeof err);
  if (!g) fprintf(stderr, "remat %s: %s\n", cmd, err);
  return g;
}

remat_graph *cmdu_solver_graph(const char *cmd, const char *path) {
  remat_graph *g = cmdu_graph(cmd, path);
  if (!g || remat_graph_max_duration(g) >= 0) return g;
  fprintf(stderr, "remat %s: %s: " GRAPH_DURATIONS_TOO_LARGE "\n", cmd,
          util_shown_path(path));
  remat_graph_free(g);
  return NULL;
}

int cmdu_budget(const char *cmd, const char *text, const remat_graph *g,
                int64_t *budget) {
  char err[512];
  if (!text) {
    fprintf(stderr, "remat %s: --budget is required (e.g. --budget 0.9)\n", cmd);
    return -1;
  }
  if (remat_budget_parse(text, remat_topo_peak(g), budget, err, sizeof err)) {
    fprintf(stderr, "remat %s: %s\n", cmd, err);
    return -1;
  }
  return 0;
}

int cmdu_copies(const char *cmd, const char *arg, const remat_graph *g,
                int **copies, int *uniform) {
  *copies = NULL;
  if (!arg) return 0;
  char *end;
  long n = strtol(arg, &end, 10);
  if (end != arg && !*end) { /* in range: the option table checked it */
    *uniform = (int)n;
    return 0;
  }
  int *c = util_calloc((size_t)g->n, sizeof *c);
  for (int v = 0; v < g->n; v++) c[v] = g->copies[v];
  char err[1024];
  if (copies_file_read(arg, g, c, err, sizeof err)) {
    fprintf(stderr, "remat %s: %s\n", cmd, err);
    free(c);
    return 2;
  }
  *copies = c;
  return 0;
}

int cmdu_finish(const char *cmd, const cli_opts *o, const remat_graph *g,
                const remat_result *r, json_t *extra, int rc) {
  if (rc == 2) {
    fprintf(stderr, "remat %s: %s\n", cmd, r->message);
    return rc;
  }
  FILE *sum = cmdu_summary_stream(o);
  result_summary(sum, r);
  result_bound_line(sum, r);
  result_other_order_line(sum, r);
  if (r->message[0] && rc != 0) fprintf(stderr, "remat %s: %s\n", cmd, r->message);
  char err[512];
  if (o->output && result_write_json(r, g, extra, o->output, err, sizeof err)) {
    fprintf(stderr, "remat %s: %s\n", cmd, err);
    if (!rc) rc = 2;
  }
  if (o->trace_csv) result_append_trace_csv(r, g, o->trace_csv);
  return rc;
}

void cmdu_solve_params(const cli_opts *o, remat_solve_params *p) {
  remat_solve_params_init(p);
  p->time_limit = o->time_limit;
  p->threads = (int)o->threads;
  p->seed = (unsigned)o->seed;
  p->fzn_solver = o->fzn_solver;
  p->heuristics = !o->no_heuristic;
  p->free_order = o->free_order;
  p->keep_copies = o->strict_copies;
  p->lp_time = o->lp_bound ? o->time_limit : 0;
  p->lns = !strcmp(o->lns, "random") ? REMAT_LNS_RANDOM
           : !strcmp(o->lns, "none") ? REMAT_LNS_NONE
                                     : REMAT_LNS_AUTO;
  p->hierarchy = !strcmp(o->hierarchy, "on") ? REMAT_HIER_ON
                 : !strcmp(o->hierarchy, "off") ? REMAT_HIER_OFF
                                                : REMAT_HIER_AUTO;
  p->verbose = o->quiet ? 0 : o->verbose ? 2 : 1;
}

FILE *cmdu_summary_stream(const cli_opts *o) {
  return o->output && !strcmp(o->output, "-") ? stderr : stdout;
}
