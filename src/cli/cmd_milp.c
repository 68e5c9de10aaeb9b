/* cmd_milp.c -- remat milp: Checkmate's MILP on CBC, or (--relax) its LP
 * relaxation with two-phase rounding. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmdutil.h"
#include "graph.h"
#include "milp.h"
#include "milp_file.h"
#include "milp_sol.h"
#include "result.h"
#include "rounding.h"
#include "seeds.h"
#include "sig.h"
#include "sim.h"
#include "stage.h"

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

/* C_v for the MILP: the graph's own where its nodes give one, then
 * --copies (a number: the other nodes'; a file: the nodes it names), any
 * number elsewhere.  *copies is NULL where nothing is limited. */
static int cmd_milp_copies(const char *name, const cli_opts *o, const remat_graph *g,
                           int **copies) {
  int uniform = 0;
  if (cmdu_copies(name, o->copies, g, copies, &uniform)) return 2;
  if (!*copies) {
    *copies = graph_copies_or(g, uniform);
    return 0;
  }
  for (int v = 0; v < g->n; v++)
    if (!(*copies)[v]) (*copies)[v] = g->n;
  return 0;
}

/* The model remat milp solves, for the file options. */
static int cmd_milp_model(const char *name, const remat_graph *g, int64_t budget,
                          const int *copies, milp_model *md) {
  char err[256];
  if (milp_build_max(md, g, budget, MILP_INTEGRAL, copies, MILP_MAX_NONZEROS, err,
                     sizeof err)) {
    fprintf(stderr, "remat %s: %s\n", name, err);
    return 2;
  }
  return 0;
}

/* --write-mps, --write-lp: the model as files. */
static int cmd_milp_write(const char *name, const cli_opts *o, const milp_model *md) {
  const char *paths[2] = {o->write_mps, o->write_lp};
  for (int k = 0; k < 2; k++) {
    if (!paths[k]) continue;
    FILE *f = fopen(paths[k], "w");
    int bad = !f || (k ? milp_write_lp(md, f) : milp_write_mps(md, f));
    if (f && fclose(f)) bad = 1;
    if (bad) {
      fprintf(stderr, "remat %s: cannot write %s: %s\n", name, paths[k], strerror(errno));
      return 2;
    }
    if (!o->quiet)
      fprintf(stderr, "remat %s: wrote %s: %d columns (%d binary), %d rows, %lld nonzeros\n",
              name, paths[k], md->lp.ncols, lp_nint(&md->lp), md->lp.nrows, md->lp.nnz);
  }
  return 0;
}

/* --read-solution: a solver's solution of the model as a result. */
static int cmd_milp_read(const cli_opts *o, const milp_model *md,
                         remat_result *r, json_t **extra) {
  const remat_graph *g = md->g;
  double *x = malloc((size_t)(md->lp.ncols ? md->lp.ncols : 1) * sizeof *x);
  char status[128], err[600];
  int rc = milp_read_solution(md, o->read_solution, x, status, sizeof status, err, sizeof err);
  remat_result_init(r, g, md->budget, "milp-solution");
  r->mem_quantum = md->mem_q;
  r->dur_quantum = md->dur_q;
  if (rc) {
    snprintf(r->message, sizeof r->message, "%.500s", err);
    free(x);
    return 2;
  }
  long long units = (long long)milp_objective_units(md, x);
  stage_mat R;
  stage_mat_init(&R, g->n);
  milp_decode_r(md, x, &R);
  int *seq, len = stage_sequence(&R, &seq);
  stage_mat_free(&R);
  free(x);
  remat_sim sim;
  if (remat_simulate(g, seq, len, &sim, NULL)) {
    snprintf(r->message, sizeof r->message, "%s: the solution's schedule is invalid: %s",
             o->read_solution, sim.error);
    free(seq);
    return 2;
  }
  remat_result_offer(r, g, seq, len, 0, 0);
  free(seq);
  int fits = r->peak <= r->budget;
  r->status = fits ? REMAT_STATUS_FEASIBLE : REMAT_STATUS_OVER_BUDGET;
  snprintf(r->message, sizeof r->message,
           "the schedule of the solution in %s (solver status '%s', objective %lld); "
           "re-simulated: peak %lld, %s the budget; the solver's claims are not checked",
           o->read_solution, status, units, (long long)r->peak, fits ? "within" : "over");
  *extra = json_pack("{s:{s:s,s:s,s:I}}", "solution", "file", o->read_solution,
                     "solver_status", status, "objective", (json_int_t)units);
  return fits ? 0 : 3;
}

/* --write-solution: the best schedule's R and S. */
static int cmd_milp_write_solution(const char *name, const cli_opts *o, const milp_model *md,
                                   const remat_result *r) {
  double *x = malloc((size_t)(md->lp.ncols ? md->lp.ncols : 1) * sizeof *x);
  int rc = 0;
  if (!r->seq || milp_schedule_x(md, r->seq, r->len, x)) {
    fprintf(stderr, "remat %s: --write-solution: %s\n", name,
            r->seq ? "the best schedule is not on the input order's stages"
                   : "no schedule");
    rc = 2;
  } else {
    FILE *f = fopen(o->write_solution, "w");
    int bad = !f || milp_write_solution(md, x, f);
    if (f && fclose(f)) bad = 1;
    if (bad) {
      fprintf(stderr, "remat %s: cannot write %s: %s\n", name, o->write_solution,
              strerror(errno));
      rc = 2;
    }
  }
  free(x);
  return rc;
}

static int cmd_milp_run(const cli_opts *o, const remat_graph *g, int64_t budget,
                        const int *copies, remat_result *r, json_t **extra) {
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
    p.seed = (unsigned)o->seed;
    p.copies = copies;
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
  int files = o->write_mps || o->write_lp || o->read_solution;
  if (o->relax && (files || o->write_solution || o->copies)) {
    fprintf(stderr, "remat %s: --relax goes without --copies, --write-mps, --write-lp, "
                    "--read-solution and --write-solution\n", name);
    return 2;
  }
  remat_graph *g = cmdu_solver_graph(name, o->pos[0]);
  if (!g) return 2;
  int64_t budget;
  int *copies = NULL, rc = 2;
  milp_model md;
  memset(&md, 0, sizeof md);
  if (cmdu_budget(name, o->budget, g, &budget) || cmd_milp_copies(name, o, g, &copies))
    goto graph;
  if ((files || o->write_solution) && (rc = cmd_milp_model(name, g, budget, copies, &md)))
    goto graph;
  if ((rc = cmd_milp_write(name, o, &md)) || (files && !o->read_solution)) goto graph;
  remat_result r;
  json_t *extra = NULL;
  if (o->read_solution)
    rc = cmd_milp_read(o, &md, &r, &extra);
  else
    rc = cmd_milp_run(o, g, budget, copies, &r, &extra);
  int solved = rc != 2 && rc != 4;
  rc = cmdu_finish(name, o, g, &r, extra, rc);
  if (o->write_solution && solved && cmd_milp_write_solution(name, o, &md, &r)) rc = 2;
  json_decref(extra);
  remat_result_free(&r);
graph:
  milp_free(&md);
  free(copies);
  remat_graph_free(g);
  return rc;
}
