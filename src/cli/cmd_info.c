/* cmd_info.c -- remat info: graph statistics, the standard budgets and
 * the lower bound on the peak of every order (order_bound.h); with
 * --budget, the pebbling proof (pebble.h), the order cost bound
 * (order_cost.h) and the covering bound (cover.h) at that budget; the
 * repeated blocks (repeat.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"
#include "cmdutil.h"
#include "cover.h"
#include "graph.h"
#include "order_bound.h"
#include "order_cost.h"
#include "pebble.h"
#include "repeat.h"
#include "seeds.h"
#include "util.h"

/* The covering bound's line for p (its budget and copies).  Its scope:
 * sequences whose first computations follow the input order (cover.h),
 * which are all sequences when that order is the only one. */
static void info_cover(const remat_graph *g, const cover_params *p) {
  cover_out out;
  double t = util_now();
  cover_status st = cover_solve_timed(g, p, &out);
  int64_t base = remat_graph_base_duration(g);
  int only = graph_order_unique(g);
  if (st == COVER_INFEASIBLE)
    printf("lower_bound: infeasible (covering bound: no sequence %sfits with these copies)\n",
           only ? "in any order (the input order is the only one) "
                : "whose first computations follow the input order ");
  else if (st == COVER_NONE)
    printf("lower_bound: none (%s)\n", out.why);
  else
    printf("lower_bound: duration %lld  TDI %.4f%% (%s%s, %s, %.2fs)\n",
           (long long)(base + out.increase),
           remat_tdi(base, (double)(base + out.increase)),
           cover_bound_name(&out), cover_bound_how(&out),
           only ? "every order: the input order is the only one" : "input order",
           util_now() - t);
}

/* The covering bound over every order (cover_free.h), with any number of
 * copies: a line where the lattice of down-closed sets is small enough. */
static void info_cover_any(const remat_graph *g, const cover_params *p, double seconds) {
  cover_params q = *p;
  q.any_order = 1;
  q.copies = NULL;
  q.time_limit = seconds;
  cover_out out;
  double t = util_now();
  int64_t base = remat_graph_base_duration(g);
  if (cover_solve_timed(g, &q, &out) == COVER_NONE)
    printf("free_lower_bound: none (%s)\n", out.why);
  else
    printf("free_lower_bound: duration %lld  TDI %.4f%% (covering bound%s, every order, any "
           "copies, %.2fs)\n",
           (long long)(base + out.increase), remat_tdi(base, (double)(base + out.increase)),
           cover_bound_how(&out), util_now() - t);
}

/* The repeated blocks (repeat.h): a summary line, then one line per kind
 * with its blocks' first nodes (the first INFO_BLOCKS of them). */
#define INFO_BLOCKS 8
static void info_repeat(const remat_graph *g) {
  repeat_params p;
  repeat_params_init(&p);
  repeat_out r;
  repeat_find(g, &p, &r);
  printf("repeated_blocks: %d kinds, %d blocks, %d of %d nodes (durations within %g%%)\n",
         r.nkinds, r.nblocks, r.covered, g->n, 100 * p.dur_tol);
  for (int k = 0; k < r.nkinds; k++) {
    int size = 0, shown = 0;
    for (int b = 0; b < r.nblocks; b++)
      if (r.kind[b] == k) size = r.size[b];
    printf("repeated_kind_%d: %d blocks of %d nodes, first nodes", k + 1, r.copies[k], size);
    for (int b = 0; b < r.nblocks; b++)
      if (r.kind[b] == k && shown++ < INFO_BLOCKS) printf(" %s", g->id[r.first[b]]);
    printf("%s\n", shown > INFO_BLOCKS ? " ..." : "");
  }
  repeat_out_free(&r);
}

/* Seconds left of the command's time limit (-t: for the whole command)
 * since t0; the order bound and the pebbling check take at most `quick`
 * of them unless -t is given. */
static double info_left(const cli_opts *o, double t0, double quick) {
  double left = o->time_limit - (util_now() - t0);
  if (!o->time_limit_set && quick < left) left = quick;
  return left > 0.01 ? left : 0.01;
}

/* The covering bound at o->budget with the copies remat solve would use
 * (raised for the baselines that fit: seeds.h; not for the copies probe,
 * whose schedule depends on its run). */
static int info_bound(const char *name, const cli_opts *o, const remat_graph *g, double t0) {
  cover_params p;
  cover_params_init(&p);
  int *map = NULL, uniform = 0;
  if (cmdu_budget(name, o->budget, g, &p.budget) ||
      cmdu_copies(name, o->copies, g, &map, &uniform))
    return 2;
  remat_solve_params sp; /* C_v as remat solve raises it for the baselines */
  remat_solve_params_init(&sp);
  sp.budget = p.budget;
  sp.copies = map ? map : g->copies;
  if (uniform) sp.default_copies = uniform;
  sp.time_limit = info_left(o, t0, o->time_limit);
  seeds_base sb;
  seeds_base_run(&sb, g, &sp, 0);
  int *c = seeds_base_copies(&sb, g, &sp, NULL);
  seeds_base_free(&sb);
  if (!c) c = seeds_caller_copies(g, &sp);
  p.copies = c;
  printf("budget: %lld\n", (long long)p.budget);
  pebble_params pp;
  pebble_params_init(&pp);
  pp.deadline = deadline_in(info_left(o, t0, 2));
  pebble_out po = {.status = PEBBLE_OPEN};
  if (p.budget >= remat_graph_min_peak(g)) {
    pebble_check(g, p.budget, &pp, &po);
    if (po.status == PEBBLE_INFEASIBLE)
      printf("pebbling: infeasible (no sequence in any order, with any number of "
             "recomputations, computes node %s within the budget)\n", g->id[po.node]);
    else
      printf("pebbling: %s\n", po.complete ? "no proof (every node can be computed within the budget)"
                                           : "no proof (cut short)");
  }
  if (p.budget < remat_graph_min_peak(g))
    printf("lower_bound: infeasible (the budget is below min_peak)\n");
  else if (po.status == PEBBLE_INFEASIBLE)
    printf("lower_bound: infeasible (pebbling proof)\n");
  else {
    /* every order, any number of copies (order_cost.h) */
    order_cost_params cp;
    order_cost_params_init(&cp);
    cp.budget = p.budget;
    cp.deadline = deadline_in(info_left(o, t0, 2));
    order_cost_out co;
    order_cost_run(g, &cp, &co);
    int64_t base = remat_graph_base_duration(g);
    printf("order_cost_bound: duration %lld  TDI %.4f%% (every order, any copies%s, %.2fs)\n",
           (long long)(base + co.bound), remat_tdi(base, (double)(base + co.bound)),
           co.complete ? "" : ", cut short", co.seconds);
    /* with -t, half of what is left: its CBC may take all of it, and the
     * input order's bound comes after it */
    info_cover_any(g, &p, info_left(o, t0, 2) / (o->time_limit_set ? 2 : 1));
    p.time_limit = info_left(o, t0, o->time_limit);
    info_cover(g, &p);
  }
  free(c);
  free(map);
  return 0;
}

int cmd_info(const char *name, const cli_opts *o) {
  double t0 = util_now();
  remat_graph *g = cmdu_graph(name, o->pos[0]);
  if (!g) return 2;
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
  /* the peak every order without recomputation reaches (order_bound.h) */
  order_bound_params obp;
  order_bound_params_init(&obp);
  obp.deadline = deadline_in(info_left(o, t0, 2));
  order_bound_out obo;
  order_bound_run(g, &obp, &obo);
  printf("order_lower_bound: %lld%s\n", (long long)obo.bound,
         obo.complete ? "" : " (cut short by the time limit)");
  info_repeat(g);
  int rc = o->budget ? info_bound(name, o, g, t0) : 0;
  remat_graph_free(g);
  return rc;
}
