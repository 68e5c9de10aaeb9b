/* cmd_solve.c -- remat solve: the two-phase CP scheduler from the command
 * line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmdutil.h"
#include "result.h"
#include "sig.h"

int cmd_solve(const char *name, int argc, char **argv) {
  cli_opts o;
  int rc = cli_parse(CMD_SOLVE, name, argc, argv, &o);
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
  remat_solve_params p;
  cmdu_solve_params(&o, &p);
  int *copies = NULL, uniform = 0;
  if (cmdu_budget(name, o.budget, g, &p.budget) ||
      cmdu_copies(name, o.copies, g, &copies, &uniform)) {
    rc = 2;
    goto graph;
  }
  if (uniform) p.default_copies = uniform;
  p.copies = copies ? copies : g->copies;
  p.stop = sig_install();
  remat_result r;
  remat_result_init(&r, g, p.budget, "cp");
  rc = remat_solve(g, &p, &r);
  sig_restore();
  if (rc == 2) {
    fprintf(stderr, "remat %s: %s\n", name, r.message);
  } else {
    FILE *sum = cmdu_summary_stream(&o);
    result_summary(sum, &r);
    result_bound_line(sum, &r);
    if (r.message[0] && rc != 0) fprintf(stderr, "remat %s: %s\n", name, r.message);
    char err[512];
    if (o.output && result_write_json(&r, g, NULL, o.output, err, sizeof err)) {
      fprintf(stderr, "remat %s: %s\n", name, err);
      if (!rc) rc = 2;
    }
    if (o.trace_csv) result_append_trace_csv(&r, g, o.trace_csv);
  }
  remat_result_free(&r);
  free(copies);
graph:
  remat_graph_free(g);
out:
  cli_free(&o);
  return rc;
}
