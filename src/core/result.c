/* result.c -- best-schedule bookkeeping, JSON output and input. */
#include "result.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "grow.h"
#include "reader.h"
#include "sim.h"
#include "util.h"

const char *remat_status_name(int status) {
  switch (status) {
  case REMAT_STATUS_OPTIMAL: return "optimal";
  case REMAT_STATUS_FEASIBLE: return "feasible";
  case REMAT_STATUS_OVER_BUDGET: return "over-budget";
  case REMAT_STATUS_ERROR: return "error";
  default: return "infeasible";
  }
}

const char *remat_covers_name(int covers) {
  switch (covers) {
  case REMAT_COVERS_STAGES_COPIES: return "stages-copies";
  case REMAT_COVERS_STAGES: return "stages";
  case REMAT_COVERS_FIRSTS_COPIES: return "input-order-firsts-copies";
  case REMAT_COVERS_FIRSTS: return "input-order-firsts";
  case REMAT_COVERS_ANY_ORDER: return "any-order";
  case REMAT_COVERS_ANY_ORDER_COPIES: return "any-order-copies";
  default: return NULL;
  }
}

void remat_result_init(remat_result *r, const remat_graph *g, int64_t budget,
                       const char *method) {
  memset(r, 0, sizeof *r);
  snprintf(r->method, sizeof r->method, "%s", method);
  r->budget = budget;
  r->topo_peak = remat_topo_peak(g);
  r->min_peak = remat_graph_min_peak(g);
  r->base_duration = remat_graph_base_duration(g);
  r->status = REMAT_STATUS_INFEASIBLE;
  r->t_first_fit = -1;
  r->mem_quantum = r->dur_quantum = 1;
}

double remat_tdi(int64_t base_duration, double duration) {
  if (base_duration <= 0) return 0.0;
  double base = (double)base_duration;
  return 100.0 * (duration - base) / base;
}

int remat_result_precheck(remat_result *r, const remat_graph *g) {
  if (r->budget < 0)
    return util_err(r->message, sizeof r->message, REMAT_EUSAGE,
                    "the budget must not be negative");
  if (remat_graph_max_duration(g) < 0)
    return util_err(r->message, sizeof r->message, REMAT_EUSAGE, "%s",
                    GRAPH_DURATIONS_TOO_LARGE);
  if (r->budget >= r->min_peak) return REMAT_OK;
  r->status = REMAT_STATUS_INFEASIBLE;
  r->proof_covers = REMAT_COVERS_ANY_ORDER;
  return util_err(r->message, sizeof r->message, REMAT_ENOFIT,
                  "infeasible: budget %lld is below %lld, the memory node %s "
                  "needs with its inputs (max over v of m_v + sum of its "
                  "predecessors' m_u)",
                  (long long)r->budget, (long long)r->min_peak,
                  g->id[graph_min_peak_node(g)]);
}

void remat_result_free(remat_result *r) {
  UTIL_FREE(r->seq, r->trace, r->bound_trace, r->copies);
  r->seq = NULL;
  r->trace = NULL;
  r->bound_trace = NULL;
  r->nbound_trace = r->cap_bound_trace = 0;
  r->copies = NULL;
}

void result_raise_bound(remat_result *r, double lb, double seconds) {
  if (r->has_bound && lb <= r->bound) return;
  r->has_bound = 1;
  r->bound = lb;
  remat_bound_point point = {seconds, lb};
  PUSH(r->bound_trace, r->nbound_trace, r->cap_bound_trace, 8, point);
}

void result_infeasible(remat_result *r, int covers, const char *by, const char *why) {
  const char *model;
  switch (covers) {
  case REMAT_COVERS_STAGES:
    model = "no schedule on the input order's stages fits %lld, with any number of "
            "recomputations (the stage model; other sequences may fit)";
    break;
  case REMAT_COVERS_FIRSTS_COPIES:
    model = "no sequence whose first computations follow the input order fits %lld "
            "with at most C_v computations of each node";
    break;
  case REMAT_COVERS_ANY_ORDER:
    model = "no sequence fits %lld, in any order and with any number of recomputations";
    break;
  case REMAT_COVERS_ANY_ORDER_COPIES:
    model = "no sequence in free order with at most C_v copies per node fits %lld";
    break;
  default:
    covers = REMAT_COVERS_STAGES_COPIES;
    model = "no schedule with at most C_v copies per node on the input order's stages "
            "fits %lld (the stage model; other sequences may fit)";
  }
  r->status = REMAT_STATUS_INFEASIBLE;
  r->proof_covers = covers;
  char what[256];
  snprintf(what, sizeof what, model, (long long)r->budget);
  snprintf(r->message, sizeof r->message, "proven infeasible%s%s%s: %s%s%s; best peak %lld",
           by ? " (by " : "", by ? by : "", by ? ")" : "", what, why ? ": " : "", why ? why : "",
           (long long)r->peak);
}

void result_infeasible_pebble(remat_result *r, const remat_graph *g, int v) {
  char why[160];
  snprintf(why, sizeof why, "not even node %.64s%s%.64s%s can be computed within it",
           g->id[v], g->label && g->label[v] ? " (" : "", g->label && g->label[v] ? g->label[v] : "",
           g->label && g->label[v] ? ")" : "");
  result_infeasible(r, REMAT_COVERS_ANY_ORDER, "the pebbling bound", why);
}

static int result_better(const remat_result *r, const remat_sim *s) {
  if (!r->seq) return 1;
  int fits = s->peak <= r->budget, best_fits = r->peak <= r->budget;
  if (fits != best_fits) return fits;
  if (fits)
    return s->duration < r->duration ||
           (s->duration == r->duration && s->peak < r->peak);
  return s->peak < r->peak || (s->peak == r->peak && s->duration < r->duration);
}

int remat_result_offer(remat_result *r, const remat_graph *g, const int *seq,
                       int len, int phase, double seconds) {
  remat_sim s;
  if (remat_simulate(g, seq, len, &s, NULL)) return -1;
  if (!result_better(r, &s)) return 0;
  free(r->seq);
  r->seq = util_malloc((size_t)(len ? len : 1) * sizeof *r->seq);
  memcpy(r->seq, seq, (size_t)len * sizeof *seq);
  r->len = len;
  r->peak = s.peak;
  r->duration = s.duration;
  r->recomputations = s.recomputations;
  r->tdi = remat_tdi(r->base_duration, (double)s.duration);
  r->t_best = seconds;
  if (s.peak <= r->budget && r->t_first_fit < 0) r->t_first_fit = seconds;
  remat_trace step = {seconds, phase, s.peak, s.duration};
  PUSH(r->trace, r->ntrace, r->cap_trace, 16, step);
  return 1;
}

json_t *result_node_id(const remat_graph *g, int v) {
  if (g->ids_numeric) return json_integer(strtoll(g->id[v], NULL, 10));
  return json_string(g->id[v]);
}

/* A lower bound as a JSON integer, rounded down (a real with ten digits
 * can round it above the schedule it bounds). */
static json_t *result_bound(double b) {
  double f = floor(b);
  if (f >= -9.2e18 && f <= 9.2e18) return json_integer((json_int_t)f);
  return json_real(f);
}

static json_t *result_round(double x, double unit) {
  return json_real((double)(long long)(x / unit + (x >= 0 ? 0.5 : -0.5)) * unit);
}

json_t *result_to_json(const remat_result *r, const remat_graph *g) {
  json_t *o = json_object();
  json_object_set_new(o, "graph", json_string(g->name));
  if (g->path) json_object_set_new(o, "graph_file", json_string(g->path));
  json_object_set_new(o, "n", json_integer(g->n));
  json_object_set_new(o, "edges", json_integer(g->n_edges));
  json_object_set_new(o, "method", json_string(r->method));
  json_object_set_new(o, "order", json_string(r->free_order ? "free" : "input"));
  json_object_set_new(o, "budget", json_integer(r->budget));
  json_object_set_new(o, "topo_peak", json_integer(r->topo_peak));
  json_object_set_new(o, "min_peak", json_integer(r->min_peak));
  json_object_set_new(o, "base_duration", json_integer(r->base_duration));
  json_object_set_new(o, "status", json_string(remat_status_name(r->status)));
  if (r->message[0]) json_object_set_new(o, "message", json_string(r->message));
  json_object_set_new(o, "within_budget",
                      json_boolean(r->seq && r->peak <= r->budget));
  if (r->seq) {
    json_object_set_new(o, "peak", json_integer(r->peak));
    json_object_set_new(o, "duration", json_integer(r->duration));
    json_object_set_new(o, "tdi_percent", json_real(r->tdi));
    json_object_set_new(o, "recomputations", json_integer(r->recomputations));
    json_t *seq = json_array();
    for (int i = 0; i < r->len; i++)
      json_array_append_new(seq, result_node_id(g, r->seq[i]));
    json_object_set_new(o, "sequence", seq);
  } else {
    json_object_set_new(o, "peak", json_null());
    json_object_set_new(o, "duration", json_null());
    json_object_set_new(o, "tdi_percent", json_null());
    json_object_set_new(o, "sequence", json_null());
  }
  if (r->copies) {
    json_t *c = json_object();
    for (int v = 0; v < g->n; v++)
      json_object_set_new(c, g->id[v], json_integer(r->copies[v]));
    json_object_set_new(o, "copies", c);
  }
  json_object_set_new(o, "time_s", result_round(r->t_total, 1e-3));
  json_object_set_new(o, "time_to_best_s",
                      r->seq ? result_round(r->t_best, 1e-3) : json_null());
  json_object_set_new(o, "time_to_first_fit_s",
                      r->t_first_fit >= 0 ? result_round(r->t_first_fit, 1e-3)
                                          : json_null());
  json_t *ph = json_object();
  json_object_set_new(ph, "heuristics", result_round(r->t_phase[0], 1e-3));
  json_object_set_new(ph, "phase1", result_round(r->t_phase[1], 1e-3));
  json_object_set_new(ph, "phase2", result_round(r->t_phase[2], 1e-3));
  json_object_set_new(o, "phase_times_s", ph);
  if (r->has_bound) {
    json_object_set_new(o, "lower_bound", result_bound(r->bound));
    double lb_tdi = remat_tdi(r->base_duration, floor(r->bound));
    json_object_set_new(o, "lower_bound_tdi_percent", json_real(lb_tdi));
    /* a gap only makes sense for a schedule within budget */
    if (r->seq && r->duration > 0 && r->peak <= r->budget)
      json_object_set_new(
          o, "gap_percent",
          json_real(100.0 * ((double)r->duration - floor(r->bound)) / (double)r->duration));
  }
  json_t *tr = json_array();
  for (int i = 0; i < r->ntrace; i++) {
    const remat_trace *t = &r->trace[i];
    json_array_append_new(tr, json_pack("[f,i,I,I]", t->seconds, t->phase,
                                        (json_int_t)t->peak,
                                        (json_int_t)t->duration));
  }
  json_object_set_new(o, "trace", tr);
  if (r->nbound_trace) {
    json_t *bt = json_array();
    for (int i = 0; i < r->nbound_trace; i++)
      json_array_append_new(bt, json_pack("[f,f]", r->bound_trace[i].seconds,
                                          r->bound_trace[i].bound));
    json_object_set_new(o, "bound_trace", bt);
  }
  json_t *st = json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:I}", "nodes",
                         (json_int_t)r->nodes, "fails", (json_int_t)r->fails,
                         "restarts", (json_int_t)r->restarts, "solutions",
                         (json_int_t)r->solutions, "propagations",
                         (json_int_t)r->propagations, "memory_quantum",
                         (json_int_t)r->mem_quantum, "duration_quantum",
                         (json_int_t)r->dur_quantum);
  json_object_set_new(o, "solver_stats", st);
  const char *pc = remat_covers_name(r->proof_covers), *bc = remat_covers_name(r->bound_covers);
  if (pc && (r->status == REMAT_STATUS_OPTIMAL || r->status == REMAT_STATUS_INFEASIBLE))
    json_object_set_new(o, "proof_covers", json_string(pc));
  if (bc && r->has_bound) json_object_set_new(o, "lower_bound_covers", json_string(bc));
  if (r->other_order_duration)
    json_object_set_new(
        o, "other_order",
        json_pack("{s:I,s:I,s:f}", "peak", (json_int_t)r->other_order_peak, "duration",
                  (json_int_t)r->other_order_duration, "tdi_percent",
                  remat_tdi(r->base_duration, (double)r->other_order_duration)));
  if (r->interrupted) json_object_set_new(o, "interrupted", json_true());
  json_object_set_new(o, "remat_version", json_string(REMAT_VERSION));
  return o;
}

int result_write_json(const remat_result *r, const remat_graph *g,
                      json_t *extra, const char *path, char *err,
                      size_t errlen) {
  json_t *o = result_to_json(r, g);
  if (extra) json_object_update(o, extra);
  size_t flags = JSON_INDENT(1) | RESULT_JSON_REALS;
  int rc;
  if (util_is_stdout(path)) {
    rc = json_dumpf(o, stdout, flags);
    if (!rc) rc = fputc('\n', stdout) == EOF || fflush(stdout);
  } else {
    rc = json_dump_file(o, path, flags);
  }
  json_decref(o);
  if (rc)
    return util_err(err, errlen, REMAT_EUSAGE, "cannot write %s: %s",
                    util_is_stdout(path) ? "standard output" : path,
                    strerror(errno));
  return 0;
}

/* ---------------------------------------------------- reading back */

static const char *result_str(const json_t *o, const char *key) {
  const json_t *v = json_object_get(o, key);
  return json_is_string(v) ? json_string_value(v) : NULL;
}

static int64_t result_int(const json_t *o, const char *key) {
  const json_t *v = json_object_get(o, key);
  return json_is_integer(v) ? (int64_t)json_integer_value(v) : -1;
}

static double result_real(const json_t *o, const char *key, double none) {
  const json_t *v = json_object_get(o, key);
  return json_is_number(v) ? json_number_value(v) : none;
}

int result_file_load(const char *path, result_file *f, char *err,
                     size_t errlen) {
  memset(f, 0, sizeof *f);
  f->budget = f->base_duration = f->peak = f->duration = -1;
  f->time_to_best_s = -1;
  f->path = util_strdup(util_shown_path(path));
  size_t len;
  char *text = util_read_file(path, &len);
  if (!text)
    return util_err(err, errlen, REMAT_EUSAGE, "cannot read %s: %s", f->path,
                    strerror(errno));
  json_error_t je;
  f->root = json_loadb(text, len, JSON_DECODE_ANY, &je);
  free(text);
  if (!f->root) {
    reader_json_error(&je, f->path, err, errlen);
    return REMAT_EUSAGE;
  }
  const json_t *o = f->root;
  if (json_is_array(o)) {
    f->sequence = o;
    return 0;
  }
  if (!json_is_object(o))
    return util_err(err, errlen, REMAT_EUSAGE,
                    "%s: expected a result (a JSON object) or a schedule (an "
                    "array of node ids)",
                    f->path);
  f->graph = result_str(o, "graph");
  f->graph_file = result_str(o, "graph_file");
  f->method = result_str(o, "method");
  f->status = result_str(o, "status");
  f->message = result_str(o, "message");
  f->budget = result_int(o, "budget");
  f->base_duration = result_int(o, "base_duration");
  f->peak = result_int(o, "peak");
  f->duration = result_int(o, "duration");
  f->time_s = result_real(o, "time_s", 0);
  f->time_to_best_s = result_real(o, "time_to_best_s", -1);
  f->has_bound = json_is_number(json_object_get(o, "lower_bound_tdi_percent"));
  f->bound_tdi = result_real(o, "lower_bound_tdi_percent", 0);
  f->interrupted = json_is_true(json_object_get(o, "interrupted"));
  const json_t *seq = json_object_get(o, "sequence");
  f->sequence = json_is_array(seq) ? seq : NULL;
  return 0;
}

void result_file_free(result_file *f) {
  json_decref(f->root);
  free(f->path);
  memset(f, 0, sizeof *f);
}

int result_file_sequence(const result_file *f, const remat_graph *g,
                         int **seq, int *len, char *err, size_t errlen) {
  *seq = NULL;
  *len = 0;
  const json_t *arr = f->sequence;
  if (!arr && f->status) /* a result that ended without a schedule: why */
    return util_err(err, errlen, REMAT_EUSAGE, "%s: the result has no schedule (%s%s)", f->path,
                    f->message ? "" : "status ", f->message ? f->message : f->status);
  if (!arr)
    return util_err(err, errlen, REMAT_EUSAGE,
                    "%s: expected a \"sequence\" array of node ids", f->path);
  size_t n = json_array_size(arr), i;
  int *s = util_malloc((n ? n : 1) * sizeof *s);
  const json_t *v;
  json_array_foreach(arr, i, v) {
    char id[4096];
    int k = -1;
    if (!reader_id_string(v, id, sizeof id)) k = remat_graph_find(g, id);
    if (k < 0) {
      free(s);
      return util_err(err, errlen, REMAT_EUSAGE,
                      "%s: sequence entry %zu is not a node of %s", f->path, i,
                      g->name);
    }
    s[i] = k;
  }
  *seq = s;
  *len = (int)n;
  return 0;
}

static int result_trace_point(const json_t *p, remat_trace *t) {
  if (!json_is_array(p) || json_array_size(p) < 4) return -1;
  const json_t *sec = json_array_get(p, 0), *ph = json_array_get(p, 1),
               *pk = json_array_get(p, 2), *du = json_array_get(p, 3);
  if (!json_is_number(sec) || !json_is_integer(pk) || !json_is_integer(du))
    return -1;
  t->seconds = json_number_value(sec);
  t->phase = json_is_integer(ph) ? (int)json_integer_value(ph) : 0;
  t->peak = json_integer_value(pk);
  t->duration = json_integer_value(du);
  return 0;
}

int result_file_trace(const result_file *f, remat_result *r, char *err,
                      size_t errlen) {
  memset(r, 0, sizeof *r);
  const json_t *tr = json_object_get(f->root, "trace");
  if (!json_is_array(tr) || f->base_duration < 0 || f->budget < 0)
    return util_err(err, errlen, REMAT_EUSAGE,
                    "%s: not a result file: needs \"trace\", "
                    "\"base_duration\" and \"budget\" (write one with remat "
                    "solve -o)",
                    f->path);
  char *stem = util_stem(f->path);
  snprintf(r->method, sizeof r->method, "%s", f->method ? f->method : stem);
  free(stem);
  r->budget = f->budget;
  r->base_duration = f->base_duration;
  r->t_total = f->time_s;
  size_t n = json_array_size(tr), i;
  r->trace = util_malloc((n ? n : 1) * sizeof *r->trace);
  r->cap_trace = (int)(n ? n : 1);
  const json_t *p;
  json_array_foreach(tr, i, p) {
    if (result_trace_point(p, &r->trace[r->ntrace])) {
      remat_result_free(r);
      return util_err(err, errlen, REMAT_EUSAGE,
                      "%s: trace entry %zu is not [seconds, phase, peak, "
                      "duration]",
                      f->path, i);
    }
    r->ntrace++;
  }
  const json_t *bt = json_object_get(f->root, "bound_trace");
  json_array_foreach(bt, i, p) { /* optional: [seconds, duration] */
    const json_t *sec = json_array_get(p, 0), *b = json_array_get(p, 1);
    if (!json_is_number(sec) || !json_is_number(b))
      return util_err(err, errlen, REMAT_EUSAGE,
                      "%s: bound_trace entry %zu is not [seconds, duration]", f->path, i);
    result_raise_bound(r, json_number_value(b), json_number_value(sec));
  }
  return 0;
}

int result_read_sequence(const char *path, const remat_graph *g, int **seq,
                         int *len, char *err, size_t errlen) {
  result_file f;
  int rc = result_file_load(path, &f, err, errlen);
  if (!rc) rc = result_file_sequence(&f, g, seq, len, err, errlen);
  result_file_free(&f);
  return rc;
}

void result_summary(FILE *f, const remat_result *r) {
  fprintf(f, "%s: budget %lld  ", r->method, (long long)r->budget);
  if (r->seq)
    fprintf(f, "peak %lld  TDI %.2f%%  recomputations %d  ", (long long)r->peak,
            r->tdi, r->recomputations);
  else
    fprintf(f, "no schedule  ");
  fprintf(f, "%s  %.2fs", remat_status_name(r->status), r->t_total);
  if (r->seq) fprintf(f, " (best at %.2fs)", r->t_best);
  fputc('\n', f);
}

void result_bound_line(FILE *f, const remat_result *r) {
  if (!r->has_bound) return;
  fprintf(f, "lower bound: duration %.0f  TDI %.3f%%", floor(r->bound),
          remat_tdi(r->base_duration, floor(r->bound)));
  if (r->seq && r->peak <= r->budget && r->duration > 0) {
    double gap = 100.0 * ((double)r->duration - r->bound) / (double)r->duration;
    fprintf(f, "  gap %.3f%%", gap);
    /* on long durations a gap of a few time units prints as 0.000 %: the
     * units then tell a user why the schedule is not called optimal */
    long long units = r->duration - (long long)floor(r->bound);
    if (units > 0 && gap < 0.0005)
      fprintf(f, " (%lld time unit%s)", units, units == 1 ? "" : "s");
  }
  fputc('\n', f);
}

void result_other_order_line(FILE *f, const remat_result *r) {
  if (!r->other_order_duration) return;
  fprintf(f, "other order: peak %lld  TDI %.2f%%  (remat solve --free-order searches every order)\n",
          (long long)r->other_order_peak,
          remat_tdi(r->base_duration, (double)r->other_order_duration));
}

int result_append_trace_csv(const remat_result *r, const remat_graph *g,
                            const char *path) {
  FILE *f = fopen(path, "a");
  if (!f) return -1;
  if (ftell(f) == 0)
    fprintf(f, "graph,budget,method,seconds,phase,peak,duration,tdi_percent\n");
  for (int i = 0; i < r->ntrace; i++) {
    const remat_trace *t = &r->trace[i];
    double tdi = remat_tdi(r->base_duration, (double)t->duration);
    util_csv_field(f, g->name);
    fprintf(f, ",%lld,%s,%.3f,%d,%lld,%lld,%.4f\n",
            (long long)r->budget, r->method, t->seconds, t->phase,
            (long long)t->peak, (long long)t->duration, tdi);
  }
  fclose(f);
  return 0;
}
