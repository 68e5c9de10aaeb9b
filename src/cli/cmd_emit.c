/* cmd_emit.c -- remat emit: write the FlatZinc model (or MiniZinc data)
 * exactly as the solver gets it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmdutil.h"
#include "fzn.h"
#include "model_any.h"
#include "util.h"

int cmd_emit(const char *name, const cli_opts *o) {
  remat_graph *g = cmdu_solver_graph(name, o->pos[0]);
  if (!g) return 2;
  int64_t budget;
  int *copies = NULL, uniform = 2, rc = 0;
  if (cmdu_budget(name, o->budget, g, &budget) ||
      cmdu_copies(name, o->copies, g, &copies, &uniform)) {
    rc = 2;
    goto graph;
  }
  model md;
  char err[512];
  if (model_build_any(&md, o->free_order, g, (int)o->phase, budget,
                      copies ? copies : g->copies, uniform, err, sizeof err)) {
    fprintf(stderr, "remat %s: %s\n", name, err);
    rc = 2;
    goto copies;
  }
  if (md.too_wide && !o->dzn)
    fprintf(stderr,
            "remat %s: warning: %d copies: the memory cumulative is past Gecode's limits "
            "(capacity x start-domain widths x tasks over 64 bits); fzn-gecode will "
            "reject this model (remat solve uses window sub-models at this size)\n",
            name, md.ncopy);
  util_buf text = {0};
  if (o->dzn) {
    fzn_write_dzn(&md, &text);
  } else {
    /* phase 1 starts from the input order, as remat solve does */
    fzn_params fp;
    fzn_params_init(&fp);
    fp.external = o->fzn_solver != NULL; /* what an external solver gets */
    model_sol x;
    model_sol_alloc(&md, &x);
    int *seq = util_malloc((size_t)g->n * sizeof *seq);
    for (int v = 0; v < g->n; v++) seq[v] = v;
    if (md.phase == 1 && !model_encode(&md, seq, g->n, &x)) fp.initial = &x;
    fzn_write(&md, &fp, &text, NULL);
    free(seq);
    model_sol_free(&x);
  }
  FILE *f = util_out_open(o->output);
  if (!f || (fwrite(text.s, 1, text.len, f), util_out_close(f))) {
    fprintf(stderr, "remat %s: cannot write %s\n", name,
            util_is_stdout(o->output) ? "standard output" : o->output);
    rc = 2;
  }
  util_buf_free(&text);
  model_free(&md);
copies:
  free(copies);
graph:
  remat_graph_free(g);
  return rc;
}
