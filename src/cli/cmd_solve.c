/* cmd_solve.c -- remat solve: the two-phase CP scheduler from the command
 * line. */
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"
#include "cmdutil.h"
#include "sig.h"

int cmd_solve(const char *name, const cli_opts *o) {
  remat_graph *g = cmdu_solver_graph(name, o->pos[0]);
  if (!g) return 2;
  remat_solve_params p;
  cmdu_solve_params(o, &p);
  int *copies = NULL, uniform = 0, rc = 2;
  if (cmdu_budget(name, o->budget, g, &p.budget) ||
      cmdu_copies(name, o->copies, g, &copies, &uniform))
    goto out;
  if (uniform) p.default_copies = uniform;
  p.copies = copies ? copies : g->copies;
  p.stop = sig_install();
  remat_result r;
  remat_result_init(&r, g, p.budget, "cp");
  rc = remat_solve(g, &p, &r);
  sig_restore();
  rc = cmdu_finish(name, o, g, &r, NULL, rc);
  remat_result_free(&r);
out:
  free(copies);
  remat_graph_free(g);
  return rc;
}
