/* cmd_milp.c -- remat milp: Checkmate's MILP on CBC, or (--relax) its LP
 * relaxation with two-phase rounding. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"
#include "cmdutil.h"
#include "milp.h"
#include "rounding.h"
#include "seeds.h"
#include "sig.h"

static json_t *cmd_milp_extra(const milp_stats *st) {
  return json_pack("{s:{s:i,s:i,s:i,s:I,s:b,s:i,s:i}}", "milp", "columns",
                   st->columns, "rows", st->rows, "integer_columns",
                   st->integer_columns, "nonzeros", (json_int_t)st->nonzeros,
                   "warm_start", st->warm_start, "cbc_status", st->cbc_status,
                   "cbc_secondary_status", st->cbc_secondary);
}

static json_t *cmd_milp_lp_value(int status, double duration) {
  return status == 0 ? json_real(duration) : json_null();
}

static json_t *cmd_milp_round_extra(const round_stats *st, double eps) {
  json_t *lp = json_object();
  json_object_set_new(lp, "columns", json_integer(st->columns));
  json_object_set_new(lp, "rows", json_integer(st->rows));
  json_object_set_new(lp, "nonzeros", json_integer(st->nonzeros));
  json_object_set_new(lp, "status",
                      json_string(milp_lp_status_name(st->lp_status)));
  json_object_set_new(lp, "duration",
                      cmd_milp_lp_value(st->lp_status, st->lp_duration));
  json_object_set_new(lp, "eps", json_real(eps));
  json_object_set_new(lp, "rounding_budget", json_integer(st->rounding_budget));
  json_object_set_new(lp, "eps_status",
                      json_string(milp_lp_status_name(st->lp_eps_status)));
  json_object_set_new(
      lp, "eps_duration",
      cmd_milp_lp_value(st->lp_eps_status, st->lp_eps_duration));
  json_object_set_new(lp, "threshold",
                      st->threshold >= 0 ? json_real(st->threshold)
                                         : json_null());
  json_object_set_new(lp, "from_eps_lp", json_boolean(st->from_eps_lp));
  json_object_set_new(lp, "schedules", json_integer(st->schedules));
  return json_pack("{s:o}", "lp", lp);
}

static int cmd_milp_run(const cli_opts *o, const remat_graph *g, int64_t budget,
                        remat_result *r, json_t **extra) {
  int verbose = o->quiet ? 0 : o->verbose ? 2 : 1;
  volatile int *stop = sig_install();
  int rc;
  if (o->relax) {
    round_params p;
    round_params_init(&p);
    p.budget = budget;
    p.eps = o->eps;
    p.time_limit = o->time_limit;
    p.verbose = verbose;
    p.stop = stop;
    round_stats st;
    remat_result_init(r, g, budget, "lp-rounding");
    rc = round_solve(g, &p, r, &st);
    *extra = cmd_milp_round_extra(&st, o->eps);
  } else {
    milp_params p;
    milp_params_init(&p);
    p.budget = budget;
    p.time_limit = o->time_limit;
    p.threads = (int)o->threads;
    p.seeds = o->no_heuristic ? NULL : seeds_milp;
    p.verbose = verbose;
    p.stop = stop;
    milp_stats st;
    remat_result_init(r, g, budget, "milp");
    rc = milp_solve(g, &p, r, &st);
    *extra = cmd_milp_extra(&st);
  }
  sig_restore();
  return rc;
}

int cmd_milp(const char *name, const cli_opts *o) {
  if (o->eps_set && !o->relax) {
    fprintf(stderr, "remat %s: --eps goes with --relax\n", name);
    return 2;
  }
  remat_graph *g = cmdu_solver_graph(name, o->pos[0]);
  if (!g) return 2;
  int64_t budget;
  int rc = 2;
  if (!cmdu_budget(name, o->budget, g, &budget)) {
    remat_result r;
    json_t *extra = NULL;
    rc = cmd_milp_run(o, g, budget, &r, &extra);
    rc = cmdu_finish(name, o, g, &r, extra, rc);
    json_decref(extra);
    remat_result_free(&r);
  }
  remat_graph_free(g);
  return rc;
}
