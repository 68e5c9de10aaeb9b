/* cmdutil.c -- shared subcommand helpers. */
#include "cmdutil.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "reader.h"
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

static int cmdu_copies_file(const char *cmd, const char *path,
                            const remat_graph *g, int *c) {
  json_error_t je;
  json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
  if (!root) {
    char err[512];
    if (je.line < 0)
      fprintf(stderr, "remat %s: cannot read %s: %s\n", cmd, path, je.text);
    else {
      reader_json_error(&je, path, err, sizeof err);
      fprintf(stderr, "remat %s: %s\n", cmd, err);
    }
    return 2;
  }
  json_t *map = json_object_get(root, "copies");
  if (!map) map = root;
  int rc = 0;
  if (!json_is_object(map)) {
    fprintf(stderr, "remat %s: %s: expected a JSON object {node id: copies}\n",
            cmd, path);
    rc = 2;
  }
  const char *key;
  json_t *val;
  if (!rc)
    json_object_foreach(map, key, val) {
      int v = remat_graph_find(g, key);
      if (v < 0) {
        fprintf(stderr, "remat %s: %s: unknown node id %s\n", cmd, path, key);
        rc = 2;
        break;
      }
      if (!json_is_integer(val) || json_integer_value(val) < 1 ||
          json_integer_value(val) > 1000000) {
        fprintf(stderr, "remat %s: %s: copies of node %s must be an integer >= 1\n",
                cmd, path, key);
        rc = 2;
        break;
      }
      c[v] = (int)json_integer_value(val);
    }
  json_decref(root);
  return rc;
}

int cmdu_copies(const char *cmd, const char *arg, const remat_graph *g,
                int **copies, int *uniform) {
  *copies = NULL;
  if (!arg) return 0;
  char *end;
  long n = strtol(arg, &end, 10);
  if (end != arg && !*end) {
    if (n < 1 || n > 1000000) {
      fprintf(stderr, "remat %s: --copies must be at least 1\n", cmd);
      return 2;
    }
    *uniform = (int)n;
    return 0;
  }
  int *c = util_calloc((size_t)g->n, sizeof *c);
  for (int v = 0; v < g->n; v++) c[v] = g->copies[v];
  if (cmdu_copies_file(cmd, arg, g, c)) {
    free(c);
    return 2;
  }
  *copies = c;
  return 0;
}

int cmdu_positional(const char *cmd, const cli_opts *o, int want,
                    const char *usage) {
  if (o->npos != want) {
    fprintf(stderr, "remat %s: %s arguments\nusage: remat %s %s\n", cmd,
            o->npos < want ? "missing" : "too many", cmd, usage);
    return 2;
  }
  return cmdu_one_stdin(cmd, o);
}

int cmdu_one_stdin(const char *cmd, const cli_opts *o) {
  int std = 0;
  for (int i = 0; i < o->npos; i++) std += strcmp(o->pos[i], "-") == 0;
  if (std <= 1) return 0;
  fprintf(stderr, "remat %s: only one argument can be - (standard input)\n", cmd);
  return 2;
}

void cmdu_solve_params(const cli_opts *o, remat_solve_params *p) {
  remat_solve_params_init(p);
  p->time_limit = o->time_limit;
  p->threads = (int)o->threads;
  p->seed = (unsigned)o->seed;
  p->fzn_solver = o->fzn_solver;
  p->heuristics = !o->no_heuristic;
  p->lp_time = o->lp_bound ? o->time_limit : 0;
  p->lns = !strcmp(o->lns, "random") ? REMAT_LNS_RANDOM
           : !strcmp(o->lns, "none") ? REMAT_LNS_NONE
                                     : REMAT_LNS_AUTO;
  p->verbose = o->quiet ? 0 : o->verbose ? 2 : 1;
}

FILE *cmdu_summary_stream(const cli_opts *o) {
  return o->output && !strcmp(o->output, "-") ? stderr : stdout;
}
