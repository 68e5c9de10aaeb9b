/* cmd_compare.c -- remat compare: CP, MILP, LP rounding and the baselines
 * on the same instances, as one table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "budget.h"
#include "cmd.h"
#include "cmdutil.h"
#include "compare.h"
#include "sig.h"
#include "util.h"

#define CMD_COMPARE_MAX_BUDGETS 32

int cmd_compare(const char *name, int argc, char **argv) {
  cli_opts o;
  int rc = cli_parse(CMD_COMPARE, name, argc, argv, &o);
  if (rc || o.help) {
    if (!rc) cmd_help(cmd_find(name));
    cli_free(&o);
    return rc;
  }
  remat_graph *g = NULL;
  int *copies = NULL;
  char *storage = NULL;
  cmp_row *rows = NULL;
  if ((rc = cmdu_positional(name, &o, 1, cmd_find(name)->usage))) goto out;
  cmp_params p;
  cmp_params_init(&p);
  char err[512];
  if (o.method && (p.methods = cmp_methods_parse(o.method, err, sizeof err)) < 0) {
    fprintf(stderr, "remat %s: %s\n", name, err);
    rc = 2;
    goto out;
  }
  if (strcmp(o.format, "md") && strcmp(o.format, "csv") && strcmp(o.format, "json")) {
    fprintf(stderr, "remat %s: --format must be md, csv or json\n", name);
    rc = 2;
    goto out;
  }
  if (!(g = cmdu_solver_graph(name, o.pos[0]))) {
    rc = 2;
    goto out;
  }
  char *items[CMD_COMPARE_MAX_BUDGETS];
  int64_t budgets[CMD_COMPARE_MAX_BUDGETS];
  if (!o.budget) {
    fprintf(stderr, "remat %s: --budget needs one or more budgets (e.g. 0.9,0.8)\n", name);
    rc = 2;
    goto out;
  }
  int nb = budget_split(o.budget, items, CMD_COMPARE_MAX_BUDGETS, &storage, err, sizeof err);
  if (nb < 0) {
    fprintf(stderr, "remat %s: %s\n", name, err);
    rc = 2;
    goto out;
  }
  for (int i = 0; i < nb; i++)
    if (cmdu_budget(name, items[i], g, &budgets[i])) {
      rc = 2;
      goto out;
    }
  int uniform = 0;
  if ((rc = cmdu_copies(name, o.copies, g, &copies, &uniform))) goto out;
  if (uniform) p.default_copies = uniform;
  p.copies = copies ? copies : g->copies;
  p.time_limit = o.time_limit;
  p.threads = (int)o.threads;
  p.seed = (unsigned)o.seed;
  p.verbose = !o.quiet;
  p.heuristics = !o.no_heuristic;
  p.stop = sig_install();
  int n = cmp_run(g, budgets, nb, &p, &rows, err, sizeof err);
  sig_restore();
  if (n < 0) {
    fprintf(stderr, "remat %s: internal error: %s\n", name, err);
    rc = 4;
    goto out;
  }
  FILE *f = util_out_open(o.output);
  if (!f || (cmp_write(f, g, rows, n, o.format), util_out_close(f))) {
    fprintf(stderr, "remat %s: cannot write %s\n", name,
            util_is_stdout(o.output) ? "standard output" : o.output);
    rc = 2;
    goto out;
  }
out:
  free(rows);
  free(storage);
  free(copies);
  remat_graph_free(g);
  cli_free(&o);
  return rc;
}
