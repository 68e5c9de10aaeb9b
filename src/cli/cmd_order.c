/* cmd_order.c -- remat order: a minimum-peak order without recomputation
 * (order.h) and a lower bound valid for every order. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "cmdutil.h"
#include "order.h"
#include "progress.h"
#include "result.h"
#include "sig.h"
#include "util.h"

typedef struct cmd_order_prog {
  prog pr;
  double last_line;
} cmd_order_prog;

/* Every event as a line with -v; otherwise the live status line and, on
 * long runs, a line at most every 5 seconds. */
static void cmd_order_event(void *ctx, const order_event *e) {
  cmd_order_prog *P = ctx;
  if (P->pr.level >= 2 || e->seconds - P->last_line >= 5) {
    prog_line(&P->pr, "%-6s peak %lld  lower bound %lld  %.2fs", e->phase,
              (long long)e->peak, (long long)e->lower, e->seconds);
    P->last_line = e->seconds;
  } else {
    prog_status(&P->pr, "%s: peak %lld  lower bound %lld  %.1fs", e->phase,
                (long long)e->peak, (long long)e->lower, e->seconds);
  }
}

static json_t *cmd_order_extra(const order_result *r) {
  json_t *o = json_pack(
      "{s:I,s:I,s:I,s:I,s:b,s:b,s:s,s:f}", "peak", (json_int_t)r->peak,
      "input_peak", (json_int_t)r->input_peak, "lower_bound",
      (json_int_t)r->lower, "closure_bound", (json_int_t)r->bound, "optimal",
      r->optimal, "closure_bound_complete", r->bound_complete, "found_by",
      r->found_by, "peak_ratio",
      r->input_peak ? (double)r->peak / (double)r->input_peak : 1.0);
  if (!r->optimal)
    json_object_set_new(o, "open", json_string(order_open_name(r->open)));
  json_object_set_new(o, "exact_states", json_integer(r->states));
  json_object_set_new(o, "windows", json_integer(r->windows));
  return json_pack("{s:o}", "order", o);
}

static void cmd_order_print(FILE *f, const remat_graph *g, const order_result *r,
                            double cpu, int verbose) {
  fprintf(f, "graph: %s\nnodes: %d\npeak: %lld\ninput_peak: %lld\n"
          "peak_ratio: %.4f\nlower_bound: %lld\n",
          g->name, g->n, (long long)r->peak, (long long)r->input_peak,
          r->input_peak ? (double)r->peak / (double)r->input_peak : 1.0,
          (long long)r->lower);
  if (r->optimal) {
    fprintf(f, "status: optimal\n");
  } else {
    fprintf(f, "status: open (%s)\ngap: %lld (%.2f%%)\n", order_open_name(r->open),
            (long long)(r->peak - r->lower),
            100.0 * (double)(r->peak - r->lower) / (double)r->peak);
  }
  fprintf(f, "time_s: %.2f\ncpu_s: %.2f\n", r->seconds, cpu);
  if (!verbose) return;
  fprintf(f, "closure_bound: %lld%s (%.2fs)\nfound_by: %s (at %.2fs)\n",
          (long long)r->bound, r->bound_complete ? "" : " (cut short)",
          r->t_bound, r->found_by, r->t_best);
  fprintf(f, "heuristics_s: %.2f (beam width %d)\n", r->t_heur, r->beam_width);
  fprintf(f, "exact: %lld sets, %lld forced steps, %lld cut by the bound, "
          "%zu dead sets (%zu MiB), %.2fs\n", r->states, r->forced, r->pruned,
          r->memo_sets, r->memo_bytes >> 20, r->t_exact);
  fprintf(f, "windows: %lld searched, %lld reordered, %lld kicks, %.2fs\n",
          r->windows, r->windows_solved, r->kicks, r->t_window);
}

/* The order as a schedule file (remat eval / plot read it). */
static int cmd_order_write(const char *name, const char *path,
                           const remat_graph *g, const order_result *r) {
  remat_result rr;
  remat_result_init(&rr, g, r->peak, "order");
  int rc = 0;
  if (remat_result_offer(&rr, g, r->order, r->n, 0, r->t_best) < 0) rc = 4;
  rr.status = r->optimal ? REMAT_STATUS_OPTIMAL : REMAT_STATUS_FEASIBLE;
  rr.t_total = r->seconds;
  rr.t_phase[0] = r->seconds;
  rr.interrupted = r->interrupted;
  char err[512];
  json_t *extra = cmd_order_extra(r);
  if (!rc && result_write_json(&rr, g, extra, path, err, sizeof err)) {
    fprintf(stderr, "remat %s: %s\n", name, err);
    rc = 2;
  }
  json_decref(extra);
  remat_result_free(&rr);
  return rc;
}

int cmd_order(const char *name, const cli_opts *o) {
  remat_graph *g = cmdu_graph(name, o->pos[0]);
  if (!g) return 2;
  cmd_order_prog P = {{0}, 0};
  prog_init(&P.pr, o->quiet ? 0 : o->verbose ? 2 : 1);
  order_params p;
  order_params_init(&p);
  p.time_limit = o->time_limit;
  p.seed = (unsigned)o->seed;
  p.progress = cmd_order_event;
  p.progress_ctx = &P;
  p.stop = sig_install();
  order_result r;
  clock_t c0 = clock();
  int rc = order_solve(g, &p, &r);
  double cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;
  sig_restore();
  prog_done(&P.pr);
  if (rc) {
    fprintf(stderr, "remat %s: internal error: the order found failed "
            "re-simulation\n", name);
    rc = 4;
  } else {
    cmd_order_print(cmdu_summary_stream(o), g, &r, cpu, o->verbose);
    if (o->output) rc = cmd_order_write(name, o->output, g, &r);
  }
  order_result_free(&r);
  remat_graph_free(g);
  return rc;
}
