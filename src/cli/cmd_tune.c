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

/* "1,2,3" into a list (at least two values, or one with a comma). */
static int ct_sweep(const char *arg, int **vals, int *n) {
  *vals = NULL;
  *n = 0;
  if (!strchr(arg, ',')) return 0;
  const char *p = arg;
  for (;;) {
    char *end;
    long v = strtol(p, &end, 10);
    if (end == p || v < 1 || v > 1000000 || (*end && *end != ',')) {
      free(*vals);
      *vals = NULL;
      return -1;
    }
    *vals = util_realloc(*vals, (size_t)(*n + 1) * sizeof **vals);
    (*vals)[(*n)++] = (int)v;
    if (!*end) return 0;
    p = end + 1;
  }
}

/* The start map: --copies FILE or N over the graph's own "copies", else 1. */
static int ct_start(const char *cmd, const cli_opts *o, const remat_graph *g,
                    int **start) {
  int *map = NULL, uniform = 0;
  if (cmdu_copies(cmd, o->copies, g, &map, &uniform)) return 2;
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
  int *sweep = NULL, nsweep = 0, *start = NULL;
  if (o->copies && ct_sweep(o->copies, &sweep, &nsweep)) {
    fprintf(stderr, "remat %s: --copies: a list of integers >= 1 (1,2,3), "
                    "not '%s'\n", name, o->copies);
    return 2;
  }
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

int cmd_tune(const char *name, int argc, char **argv) {
  cli_opts o;
  int rc = cli_parse(CMD_TUNE, name, argc, argv, &o);
  if (rc || o.help) {
    if (!rc) cmd_help(cmd_find(name));
    cli_free(&o);
    return rc;
  }
  if ((rc = cmdu_positional(name, &o, 1, cmd_find(name)->usage))) goto out;
  if (strcmp(o.lns, "auto") && strcmp(o.lns, "random") && strcmp(o.lns, "none")) {
    fprintf(stderr, "remat %s: --lns must be auto, random or none\n", name);
    rc = 2;
    goto out;
  }
  remat_graph *g = cmdu_solver_graph(name, o.pos[0]);
  if (!g) {
    rc = 2;
    goto out;
  }
  rc = ct_run(name, &o, g);
  remat_graph_free(g);
out:
  cli_free(&o);
  return rc;
}
