/* compare.c -- all methods side by side. */
#include "compare.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "milp.h"
#include "rounding.h"
#include "seeds.h"
#include "util.h"

typedef struct cmp_method {
  int bit;
  const char *name;
} cmp_method;

static const cmp_method cmp_methods[] = {
    {CMP_CP, "cp"},
    {CMP_MILP, "milp"},
    {CMP_LP, "lp-rounding"},
    {CMP_CHECKPOINT_ALL, "checkpoint-all"},
    {CMP_CHEN_SQRTN_AP, "chen-sqrtn"},
    {CMP_CHEN_GREEDY_AP, "chen-greedy"},
    {CMP_CHEN_SQRTN_LIN, "chen-sqrtn-linearized"},
    {CMP_CHEN_GREEDY_LIN, "chen-greedy-linearized"},
    {CMP_ECHO, "echo"},
};
#define CMP_NMETHODS (sizeof cmp_methods / sizeof *cmp_methods)

int cmp_methods_parse(const char *list, char *err, size_t errlen) {
  char *copy = util_strdup(list);
  int mask = 0;
  for (char *tok = strtok(copy, ","); tok; tok = strtok(NULL, ",")) {
    int bit = 0;
    if (!strcmp(tok, "all"))
      bit = CMP_ALL;
    else if (!strcmp(tok, "baselines"))
      bit = CMP_CHECKPOINT_ALL | CMP_CHEN_SQRTN_AP | CMP_CHEN_GREEDY_AP |
            CMP_CHEN_SQRTN_LIN | CMP_CHEN_GREEDY_LIN | CMP_ECHO;
    for (size_t i = 0; i < CMP_NMETHODS && !bit; i++)
      if (!strcmp(tok, cmp_methods[i].name)) bit = cmp_methods[i].bit;
    if (!bit) {
      util_err(err, errlen, 0,
               "unknown method '%s' (cp, milp, lp-rounding, checkpoint-all, "
               "chen-sqrtn, chen-greedy, chen-sqrtn-linearized, "
               "chen-greedy-linearized, echo, baselines, all)",
               tok);
      free(copy);
      return -1;
    }
    mask |= bit;
  }
  free(copy);
  return mask;
}

void cmp_params_init(cmp_params *p) {
  *p = (cmp_params){.time_limit = REMAT_TIME_LIMIT, .seed = 1, .methods = CMP_ALL,
                    .default_copies = 2, .verbose = 1, .heuristics = 1};
}

/* What every method's parameters x get from the comparison: the budget,
 * the time limit and the stop flag. */
#define CMP_COMMON(x) ((x).budget = M, (x).time_limit = p->time_limit, (x).stop = p->stop)

/* Run one method into r; returns the command's exit code class. */
static int cmp_one(const remat_graph *g, int bit, int64_t M, const cmp_params *p,
                   remat_result *r) {
  if (bit == CMP_CP) {
    remat_solve_params sp;
    remat_solve_params_init(&sp);
    CMP_COMMON(sp);
    sp.threads = p->threads;
    sp.seed = p->seed;
    sp.copies = p->copies;
    sp.default_copies = p->default_copies;
    sp.heuristics = p->heuristics;
    sp.free_order = p->free_order;
    sp.keep_copies = p->keep_copies;
    sp.fzn_solver = p->fzn_solver;
    sp.verbose = 0;
    return remat_solve(g, &sp, r);
  }
  if (bit == CMP_MILP) {
    milp_params mp;
    milp_params_init(&mp);
    CMP_COMMON(mp);
    mp.threads = p->threads;
    mp.seeds = p->heuristics ? seeds_milp : NULL;
    mp.seed = p->seed;
    mp.verbose = 0;
    return milp_solve(g, &mp, r, NULL);
  }
  if (bit == CMP_LP) {
    round_params rp;
    round_params_init(&rp);
    CMP_COMMON(rp);
    rp.verbose = 0;
    return round_solve(g, &rp, r, NULL);
  }
  base_params bp;
  base_params_init(&bp);
  bp.budget = M;
  bp.deadline = deadline_limit(util_now(), p->time_limit);
  bp.stop = p->stop;
  bp.method = bit == CMP_CHECKPOINT_ALL ? BASE_CHECKPOINT_ALL
              : bit == CMP_ECHO                                       ? BASE_ECHO
              : bit == CMP_CHEN_SQRTN_AP || bit == CMP_CHEN_SQRTN_LIN
                  ? BASE_CHEN_SQRTN
                  : BASE_CHEN_GREEDY;
  bp.candidates =
      bit == CMP_CHEN_SQRTN_LIN || bit == CMP_CHEN_GREEDY_LIN ? BASE_CAND_LINEARIZED : BASE_CAND_AP;
  int rc = base_run(g, &bp, r, NULL);
  if (rc == REMAT_OK) rc = base_conclude(r, bp.method);
  return rc;
}

/* A row from a result, re-simulating its schedule. */
static int cmp_fill(const remat_graph *g, const remat_result *r, cmp_row *row,
                    char *err, size_t errlen) {
  row->ran = 1;
  row->status = r->status;
  row->time = r->t_total;
  snprintf(row->note, sizeof row->note, "%s", r->message);
  if (r->seq) {
    remat_sim s;
    if (remat_simulate(g, r->seq, r->len, &s, NULL) || s.peak != r->peak ||
        s.duration != r->duration)
      return util_err(err, errlen, -1, "%s: its schedule does not re-simulate",
                      row->method);
    int64_t base = r->base_duration;
    row->has_schedule = 1;
    row->peak = s.peak;
    row->duration = s.duration;
    row->tdi = remat_tdi(base, (double)s.duration);
    row->within = s.peak <= r->budget;
    row->time_to_best = r->t_best;
  }
  if (r->has_bound && r->base_duration) {
    row->has_bound = 1;
    row->bound_tdi = remat_tdi(r->base_duration, r->bound);
  }
  return 0;
}

int cmp_run(const remat_graph *g, const int64_t *budgets, int nbudgets,
            const cmp_params *p, cmp_row **rows, char *err, size_t errlen) {
  *rows = util_calloc((size_t)nbudgets * CMP_NMETHODS, sizeof **rows);
  int n = 0;
  for (int b = 0; b < nbudgets; b++)
    for (size_t m = 0; m < CMP_NMETHODS; m++) {
      if (!(p->methods & cmp_methods[m].bit)) continue;
      if (p->stop && *p->stop) return n;
      cmp_row *row = &(*rows)[n++];
      snprintf(row->method, sizeof row->method, "%s", cmp_methods[m].name);
      row->budget = budgets[b];
      row->free_order = cmp_methods[m].bit == CMP_CP && p->free_order;
      remat_result r;
      remat_result_init(&r, g, budgets[b], cmp_methods[m].name);
      if (p->verbose)
        fprintf(stderr, "remat compare: %s at budget %lld ...\n", row->method,
                (long long)budgets[b]);
      double t0 = util_now();
      int rc = cmp_one(g, cmp_methods[m].bit, budgets[b], p, &r);
      if (!r.t_total) r.t_total = util_now() - t0;
      if (rc == REMAT_EINTERNAL) {
        util_err(err, errlen, 0, "%s at budget %lld: %s", row->method,
                 (long long)budgets[b], r.message);
        remat_result_free(&r);
        return -1;
      }
      if (rc == REMAT_EUSAGE) { /* e.g. the MILP is too large */
        snprintf(row->note, sizeof row->note, "%s", r.message);
        row->time = r.t_total;
      } else if (cmp_fill(g, &r, row, err, errlen)) {
        remat_result_free(&r);
        return -1;
      }
      remat_result_free(&r);
    }
  return n;
}

/* ------------------------------------------------------------- output */

static void cmp_cell_tdi(char *buf, size_t len, const cmp_row *r) {
  if (r->has_schedule)
    snprintf(buf, len, "%.2f", r->tdi);
  else
    snprintf(buf, len, "-");
}

static void cmp_cell_bound(char *buf, size_t len, const cmp_row *r) {
  if (r->has_bound)
    snprintf(buf, len, "%.2f", r->bound_tdi);
  else
    snprintf(buf, len, "-");
}

static const char *cmp_status(const cmp_row *r) {
  return r->ran ? remat_status_name(r->status) : "not run";
}

static const char *cmp_order(const cmp_row *r) { return r->free_order ? "free" : "input"; }

/* A note for a Markdown cell (no pipes, no newlines). */
static void cmp_md_note(FILE *f, const char *s) {
  for (; *s; s++) fputc(*s == '|' || *s == '\n' ? ' ' : *s, f);
}

static void cmp_write_md(FILE *f, const remat_graph *g, const cmp_row *rows, int n) {
  fprintf(f, "### %s (%d nodes, %d edges)\n\n", g->name, g->n, g->n_edges);
  fprintf(f, "| budget | method | order | TDI %% | peak | within budget | time to best s | "
             "time s | status | lower bound TDI %% | note |\n");
  fprintf(f, "|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (int i = 0; i < n; i++) {
    const cmp_row *r = &rows[i];
    char tdi[32], lb[32], peak[32], best[32];
    cmp_cell_tdi(tdi, sizeof tdi, r);
    cmp_cell_bound(lb, sizeof lb, r);
    snprintf(peak, sizeof peak, r->has_schedule ? "%lld" : "-", (long long)r->peak);
    snprintf(best, sizeof best, r->has_schedule ? "%.2f" : "-", r->time_to_best);
    fprintf(f, "| %lld | %s | %s | %s | %s | %s | %s | %.2f | %s | %s | ",
            (long long)r->budget, r->method, cmp_order(r), tdi, peak,
            r->has_schedule ? (r->within ? "yes" : "no") : "-", best, r->time,
            cmp_status(r), lb);
    cmp_md_note(f, r->note);
    fputs(" |\n", f);
  }
}

static void cmp_write_csv(FILE *f, const remat_graph *g, const cmp_row *rows, int n) {
  fprintf(f, "graph,budget,method,tdi_percent,peak,within_budget,time_to_best_s,"
             "time_s,status,lower_bound_tdi_percent,order\n");
  for (int i = 0; i < n; i++) {
    const cmp_row *r = &rows[i];
    char tdi[32], lb[32];
    cmp_cell_tdi(tdi, sizeof tdi, r);
    cmp_cell_bound(lb, sizeof lb, r);
    util_csv_field(f, g->name);
    fprintf(f, ",%lld,%s,%s,", (long long)r->budget, r->method, r->has_schedule ? tdi : "");
    if (r->has_schedule)
      fprintf(f, "%lld,%s,%.3f,", (long long)r->peak, r->within ? "yes" : "no",
              r->time_to_best);
    else
      fprintf(f, ",,,");
    fprintf(f, "%.3f,%s,%s,%s\n", r->time, cmp_status(r), r->has_bound ? lb : "", cmp_order(r));
  }
}

static void cmp_write_json(FILE *f, const remat_graph *g, const cmp_row *rows, int n) {
  json_t *arr = json_array();
  int64_t topo = remat_topo_peak(g);
  for (int i = 0; i < n; i++) {
    const cmp_row *r = &rows[i];
    json_t *o = json_object();
    json_object_set_new(o, "graph", json_string(g->name));
    json_object_set_new(o, "budget", json_integer(r->budget));
    json_object_set_new(o, "topo_peak", json_integer(topo));
    json_object_set_new(o, "method", json_string(r->method));
    json_object_set_new(o, "order", json_string(cmp_order(r)));
    json_object_set_new(o, "status", json_string(cmp_status(r)));
    json_object_set_new(o, "tdi_percent", r->has_schedule ? json_real(r->tdi) : json_null());
    json_object_set_new(o, "peak", r->has_schedule ? json_integer(r->peak) : json_null());
    json_object_set_new(o, "duration",
                        r->has_schedule ? json_integer(r->duration) : json_null());
    json_object_set_new(o, "within_budget", json_boolean(r->has_schedule && r->within));
    json_object_set_new(o, "time_to_best_s",
                        r->has_schedule ? json_real(r->time_to_best) : json_null());
    json_object_set_new(o, "time_s", json_real(r->time));
    json_object_set_new(o, "lower_bound_tdi_percent",
                        r->has_bound ? json_real(r->bound_tdi) : json_null());
    if (r->note[0]) json_object_set_new(o, "note", json_string(r->note));
    json_array_append_new(arr, o);
  }
  json_dumpf(arr, f, JSON_INDENT(1) | JSON_REAL_PRECISION(8));
  fputc('\n', f);
  json_decref(arr);
}

int cmp_write(FILE *f, const remat_graph *g, const cmp_row *rows, int nrows,
              const char *format) {
  if (!strcmp(format, "md"))
    cmp_write_md(f, g, rows, nrows);
  else if (!strcmp(format, "csv"))
    cmp_write_csv(f, g, rows, nrows);
  else if (!strcmp(format, "json"))
    cmp_write_json(f, g, rows, nrows);
  else
    return -1;
  return 0;
}
