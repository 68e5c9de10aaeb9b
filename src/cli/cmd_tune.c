/* cmd_tune.c -- remat tune-copies: choose C_v per node by repeated solves
 * (tune.c), print a table of the settings tried, write the best map as
 * JSON {id: C_v} (loadable by --copies).
 *
 *   --copies FILE   start from that map (graph's own "copies", else 1)
 *   --copies N      start from C_v = N everywhere
 *   --copies 1,2,3  sweep these uniform values instead
 *   -o FILE         the best map (default best_copies.json) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmdutil.h"
#include "result.h"
#include "sig.h"
#include "tune.h"
#include "util.h"

static void ct_on_round(void *ctx, const tune_round *row) {
  (void)ctx;
  tune_print_row(stdout, row);
}

/* "1,2,3" into a list (the option table checked it), or nothing for a
 * single value or a file. */
static void ct_sweep(const char *arg, int **vals, int *n) {
  *vals = NULL;
  *n = 0;
  if (!arg || !strchr(arg, ',')) return;
  for (const char *p = arg;; p++) {
    char *end;
    long v = strtol(p, &end, 10);
    *vals = util_realloc(*vals, (size_t)(*n + 1) * sizeof **vals);
    (*vals)[(*n)++] = (int)v;
    if (!*end) return;
    p = end;
  }
}

/* The start map: --copies FILE or N over the graph's own "copies", else 1. */
static int ct_start(const char *cmd, const cli_opts *o, const remat_graph *g,
                    int **start) {
  int *map = NULL, uniform = 0;
  if (cmdu_copies(cmd, o->tune_copies, g, &map, &uniform)) return 2;
  int *c = util_malloc((size_t)g->n * sizeof *c);
  for (int v = 0; v < g->n; v++) {
    c[v] = uniform ? uniform : map && map[v] > 0 ? map[v]
                              : g->copies[v] > 0 ? g->copies[v] : 1;
  }
  free(map);
  *start = c;
  return 0;
}

static int ct_run(const char *name, const cli_opts *o, remat_graph *g) {
  tune_params tp;
  tune_params_init(&tp);
  cmdu_solve_params(o, &tp.solve);
  tp.solve.verbose = o->verbose ? 1 : 0;
  tp.time_limit = o->time_limit;
  if (cmdu_budget(name, o->budget, g, &tp.solve.budget)) return 2;
  int *sweep, nsweep, *start = NULL;
  ct_sweep(o->tune_copies, &sweep, &nsweep);
  if (!sweep && ct_start(name, o, g, &start)) return 2;
  tp.sweep = sweep;
  tp.nsweep = nsweep;
  tp.start = start;
  tp.on_round = ct_on_round;
  tp.solve.stop = sig_install();
  printf("tune-copies %s: budget %lld, %s, %.0fs\n", g->name,
         (long long)tp.solve.budget,
         sweep ? "uniform sweep" : "adaptive (raise C_v where it pays)",
         tp.time_limit);
  tune_print_header(stdout);
  tune_result res;
  int rc = tune_run(g, &tp, &res);
  sig_restore();
  if (rc == REMAT_EUSAGE || rc == REMAT_EINTERNAL) {
    fprintf(stderr, "remat %s: %s\n", name, res.best.message);
  } else if (res.best_round < 0) {
    fprintf(stderr, "remat %s: no schedule%s%s\n", name,
            res.best.message[0] ? ": " : "", res.best.message);
  } else {
    const tune_round *b = &res.rounds[res.best_round];
    const char *out = o->output ? o->output : "best_copies.json";
    char err[512];
    printf("best: round %d, %d node%s with C_v > 1, total %lld: ", b->round,
           b->raised, b->raised == 1 ? "" : "s", b->total);
    result_summary(stdout, &res.best);
    if (tune_write_map(g, res.copies, out, err, sizeof err)) {
      fprintf(stderr, "remat %s: %s\n", name, err);
      rc = 2;
    } else {
      printf("map: %s\n", out);
    }
  }
  tune_result_free(&res);
  free(sweep);
  free(start);
  return rc;
}

int cmd_tune(const char *name, const cli_opts *o) {
  remat_graph *g = cmdu_solver_graph(name, o->pos[0]);
  if (!g) return 2;
  int rc = ct_run(name, o, g);
  remat_graph_free(g);
  return rc;
}
