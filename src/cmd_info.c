/* cmd_info.c -- remat info: graph statistics and the standard budgets. */
#include <math.h>
#include <stdio.h>

#include "cmd.h"
#include "cmdutil.h"

int cmd_info(const char *name, int argc, char **argv) {
  cli_opts o;
  int rc = cli_parse(CMD_INFO, name, argc, argv, &o);
  if (rc || o.help) {
    if (!rc) cmd_help(cmd_find(name));
    cli_free(&o);
    return rc;
  }
  if ((rc = cmdu_positional(name, &o, 1, cmd_find(name)->usage))) goto out;
  remat_graph *g = cmdu_graph(name, o.pos[0]);
  if (!g) {
    rc = 2;
    goto out;
  }
  int64_t topo = remat_topo_peak(g), b9, b8;
  char e[64];
  remat_budget_parse("0.9", topo, &b9, e, sizeof e);
  remat_budget_parse("0.8", topo, &b8, e, sizeof e);
  char hs[32];
  remat_format_size(topo, hs, sizeof hs);
  printf("graph: %s\nformat: %s\nnodes: %d\nedges: %d\ntopo_peak: %lld (%s)\n"
         "min_peak: %lld\nbudget_0.9: %lld\nbudget_0.8: %lld\n"
         "base_duration: %lld\n",
         g->name, g->format, g->n, g->n_edges, (long long)topo, hs,
         (long long)remat_graph_min_peak(g), (long long)b9, (long long)b8,
         (long long)remat_graph_base_duration(g));
  remat_graph_free(g);
out:
  cli_free(&o);
  return rc;
}
