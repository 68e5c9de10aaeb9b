/* cmd_eval.c -- remat eval: re-simulate any schedule. */
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"
#include "cmdutil.h"
#include "graph.h"
#include "result.h"
#include "sim.h"
#include "util.h"

/* A node computed more often than the graph's own C_v allows (a random
 * generator's state computed again would draw other numbers): 1 with the
 * message in s->error, else 0. */
static int eval_own_copies(const remat_graph *g, const int *seq, int len, remat_sim *s) {
  int *own = graph_copies_or(g, 0);
  int bad = own ? sim_over_copies(g, seq, len, own) : -1;
  if (bad >= 0)
    snprintf(s->error, sizeof s->error,
             "node %s is computed more than %d time%s (its \"copies\" in the graph)",
             g->id[bad], own[bad], own[bad] == 1 ? "" : "s");
  free(own);
  return bad >= 0;
}

int cmd_eval(const char *name, const cli_opts *o) {
  remat_graph *g = cmdu_graph(name, o->pos[0]);
  if (!g) return 2;
  int64_t budget = -1;
  int rc = 0;
  if (o->budget && cmdu_budget(name, o->budget, g, &budget)) {
    rc = 2;
    goto graph;
  }
  int *seq = NULL, len = 0;
  char err[1024];
  if (result_read_sequence(o->pos[1], g, &seq, &len, err, sizeof err)) {
    fprintf(stderr, "remat %s: %s\n", name, err);
    rc = 2;
    goto graph;
  }
  remat_sim s;
  if (remat_simulate(g, seq, len, &s, NULL) || eval_own_copies(g, seq, len, &s)) {
    printf("valid: no\nerror: %s\n", s.error);
    fprintf(stderr, "remat %s: %s: invalid schedule for %s: %s\n", name,
            util_shown_path(o->pos[1]), g->name, s.error);
    rc = 2;
  } else {
    int64_t base = remat_graph_base_duration(g);
    double tdi = remat_tdi(base, (double)s.duration);
    printf("valid: yes\nsteps: %d\nrecomputations: %d\npeak: %lld\n"
           "duration: %lld\nbase_duration: %lld\ntdi_percent: %.4f\n"
           "topo_peak: %lld\n",
           len, s.recomputations, (long long)s.peak, (long long)s.duration,
           (long long)base, tdi, (long long)remat_topo_peak(g));
    if (budget >= 0) {
      printf("budget: %lld\nwithin_budget: %s\n", (long long)budget,
             s.peak <= budget ? "yes" : "no");
      if (s.peak > budget) rc = 3;
    }
  }
  free(seq);
graph:
  remat_graph_free(g);
  return rc;
}
