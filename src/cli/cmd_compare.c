/* cmd_compare.c -- remat compare: CP, MILP, LP rounding and the baselines
 * on the same instances, as one table. */
#include <stdio.h>
#include <stdlib.h>

#include "budget.h"
#include "cmd.h"
#include "cmdutil.h"
#include "compare.h"
#include "sig.h"
#include "util.h"

#define CMD_COMPARE_MAX_BUDGETS 32

int cmd_compare(const char *name, const cli_opts *o) {
  remat_graph *g = NULL;
  int *copies = NULL, rc = 2;
  char *storage = NULL;
  cmp_row *rows = NULL;
  cmp_params p;
  cmp_params_init(&p);
  char err[512];
  /* the option table checked the names */
  if (o->methods) p.methods = cmp_methods_parse(o->methods, err, sizeof err);
  if (!(g = cmdu_solver_graph(name, o->pos[0]))) goto out;
  char *items[CMD_COMPARE_MAX_BUDGETS];
  int64_t budgets[CMD_COMPARE_MAX_BUDGETS];
  if (!o->budget) {
    fprintf(stderr, "remat %s: --budget needs one or more budgets (e.g. 0.9,0.8)\n", name);
    goto out;
  }
  int nb = budget_split(o->budget, items, CMD_COMPARE_MAX_BUDGETS, &storage, err, sizeof err);
  if (nb < 0) {
    fprintf(stderr, "remat %s: %s\n", name, err);
    goto out;
  }
  for (int i = 0; i < nb; i++)
    if (cmdu_budget(name, items[i], g, &budgets[i])) goto out;
  int uniform = 0;
  if (cmdu_copies(name, o->copies, g, &copies, &uniform)) goto out;
  if (uniform) p.default_copies = uniform;
  p.copies = copies ? copies : g->copies;
  p.time_limit = o->time_limit;
  p.threads = (int)o->threads;
  p.seed = (unsigned)o->seed;
  p.verbose = !o->quiet;
  p.heuristics = !o->no_heuristic;
  p.free_order = o->free_order;
  p.keep_copies = o->strict_copies;
  p.fzn_solver = o->fzn_solver;
  p.stop = sig_install();
  int n = cmp_run(g, budgets, nb, &p, &rows, err, sizeof err);
  sig_restore();
  if (n < 0) {
    fprintf(stderr, "remat %s: internal error: %s\n", name, err);
    rc = 4;
    goto out;
  }
  FILE *f = util_out_open(o->output);
  rc = 0;
  if (!f || (cmp_write(f, g, rows, n, o->format), util_out_close(f))) {
    fprintf(stderr, "remat %s: cannot write %s\n", name,
            util_is_stdout(o->output) ? "standard output" : o->output);
    rc = 2;
  }
out:
  free(rows);
  free(storage);
  free(copies);
  remat_graph_free(g);
  return rc;
}
