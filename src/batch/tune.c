/* tune.c -- per-node C_v tuning by repeated solves (see tune.h). */
#include "tune.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "sim.h"
#include "util.h"

void tune_params_init(tune_params *p) {
  *p = (tune_params){.time_limit = REMAT_TIME_LIMIT, .share = 0.25, .min_round = 1,
                     .patience = 2, .raise_share = 0.1, .max_rounds = 50};
  remat_solve_params_init(&p->solve);
}

void tune_result_free(tune_result *res) {
  free(res->copies);
  remat_result_free(&res->best);
  free(res->rounds);
  memset(res, 0, sizeof *res);
}

/* ------------------------------------------------------- candidates */

/* score[v]: m_v x the number of high-memory steps v's copies are live
 * across (not counting the step that computes it). */
static void tune_scores(const remat_graph *g, const int *seq, int len,
                        int64_t budget, double *score) {
  int64_t *mem = util_malloc((size_t)len * sizeof *mem);
  int *lastuse = util_malloc((size_t)len * sizeof *lastuse);
  int *high = util_calloc((size_t)len + 1, sizeof *high); /* prefix counts */
  remat_sim s;
  remat_simulate(g, seq, len, &s, mem);
  int64_t cap = s.peak < budget ? s.peak : budget;
  sim_lastuse(g, seq, len, lastuse, &s); /* (clears s) */
  double thr = 0.95 * (double)cap;
  for (int j = 0; j < len; j++)
    high[j + 1] = high[j] + ((double)mem[j] >= thr);
  for (int i = 0; i < len; i++) {
    int across = high[lastuse[i] + 1] - high[i + 1]; /* steps i+1..lastuse */
    if (across > 0) score[seq[i]] += (double)g->m[seq[i]] * across;
  }
  free(mem);
  free(lastuse);
  free(high);
}

static const double *tune_sort_key;

static int tune_by_score(const void *a, const void *b) {
  double x = tune_sort_key[*(const int *)a], y = tune_sort_key[*(const int *)b];
  if (x != y) return x > y ? -1 : 1;
  return *(const int *)a - *(const int *)b;
}

int tune_candidates(const remat_graph *g, const int *seq, int len,
                    int64_t budget, const int *copies, int *out) {
  double *score = util_calloc((size_t)g->n, sizeof *score);
  int *uses = util_calloc((size_t)g->n, sizeof *uses);
  tune_scores(g, seq, len, budget, score);
  for (int i = 0; i < len; i++) uses[seq[i]]++;
  /* a node at its own C_v (graph_copies_cap) counts as unused: no raise */
  for (int v = 0; v < g->n && g->copies; v++)
    if (g->copies[v] > 0 && copies[v] >= g->copies[v]) uses[v] = 0;
  int k = 0;
  for (int v = 0; v < g->n; v++)
    if (score[v] > 0 && uses[v] >= copies[v]) out[k++] = v;
  if (!k) { /* the live nodes' saturated inputs */
    double *pscore = util_calloc((size_t)g->n, sizeof *pscore);
    for (int v = 0; v < g->n; v++)
      if (score[v] > 0)
        for (int e = g->pred_off[v]; e < g->pred_off[v + 1]; e++)
          pscore[g->pred[e]] += score[v];
    for (int u = 0; u < g->n; u++)
      if (pscore[u] > 0 && uses[u] >= copies[u]) out[k++] = u;
    memcpy(score, pscore, (size_t)g->n * sizeof *score);
    free(pscore);
  }
  tune_sort_key = score;
  qsort(out, (size_t)k, sizeof *out, tune_by_score);
  tune_sort_key = NULL;
  free(score);
  free(uses);
  return k;
}

/* ------------------------------------------------------------ rounds */

typedef struct tune_ctx {
  const remat_graph *g;
  const tune_params *p;
  tune_result *res;
  double t0;
  int rc;           /* of the best round */
} tune_ctx;

static double tune_left(const tune_ctx *T) {
  double left = T->p->time_limit - (util_now() - T->t0);
  return left > 0 ? left : 0;
}

static int tune_stopped(const tune_ctx *T) {
  return T->p->solve.stop && *T->p->solve.stop;
}

/* r beats the best so far (fits, then duration, then fewer copies; when
 * nothing fits, the peak). */
static int tune_better(const tune_ctx *T, const remat_result *r,
                       long long total) {
  const tune_result *res = T->res;
  if (!r->seq) return 0;
  if (res->best_round < 0 || !res->best.seq) return 1;
  const remat_result *b = &res->best;
  int fits = r->peak <= r->budget, bfits = b->peak <= b->budget;
  if (fits != bfits) return fits;
  if (fits) {
    if (r->duration != b->duration) return r->duration < b->duration;
    return total < res->rounds[res->best_round].total;
  }
  return r->peak < b->peak;
}

static void tune_count(const tune_ctx *T, const int *c, tune_round *row) {
  row->raised = 0;
  row->total = 0;
  for (int v = 0; v < T->g->n; v++) {
    row->raised += c[v] > 1;
    row->total += c[v];
  }
}

/* One solve with map c for `seconds`; returns 1 if it became the best,
 * 0 if not, -1 on an error (T->rc set). */
static int tune_round_run(tune_ctx *T, const int *c, double seconds,
                          int uniform, int final) {
  const remat_graph *g = T->g;
  tune_result *res = T->res;
  remat_solve_params sp = T->p->solve;
  int *capped = graph_copies_capped(g, c, 1); /* the map as the solve takes it */
  c = capped;
  sp.copies = c;
  sp.time_limit = seconds;
  sp.warm_seq = NULL;
  sp.warm_len = 0;
  if (res->best.seq && sim_within_copies(g, res->best.seq, res->best.len, c)) {
    sp.warm_seq = res->best.seq;
    sp.warm_len = res->best.len;
  }
  remat_result r;
  remat_result_init(&r, g, sp.budget, "cp");
  int rc = remat_solve(g, &sp, &r);
  /* c, raised where the solve raised it for a baseline that fits
   * (docs/method.md, "Copies"): the map must hold the round's schedule.
   * (The solve's own C_v are also lower where no more copies can be used,
   * as for a sink: those stay as asked.) */
  int *used = util_malloc((size_t)(g->n ? g->n : 1) * sizeof *used);
  for (int v = 0; v < g->n; v++) used[v] = r.copies && r.copies[v] > c[v] ? r.copies[v] : c[v];
  tune_round row;
  memset(&row, 0, sizeof row);
  row.round = res->nrounds;
  row.uniform = uniform;
  row.final = final;
  tune_count(T, used, &row);
  row.has_schedule = r.seq != NULL;
  row.fits = r.seq && r.peak <= r.budget;
  row.status = r.status;
  row.tdi = r.tdi;
  row.peak = r.peak;
  row.duration = r.duration;
  row.seconds = r.t_total;
  res->rounds = util_realloc(res->rounds,
                             (size_t)(res->nrounds + 1) * sizeof *res->rounds);
  res->rounds[res->nrounds++] = row;
  if (T->p->on_round) T->p->on_round(T->p->ctx, &row);
  if (rc == REMAT_EUSAGE || rc == REMAT_EINTERNAL) {
    remat_result_free(&res->best);
    res->best = r;
    T->rc = rc;
    free(used);
    free(capped);
    return -1;
  }
  int better = tune_better(T, &r, row.total);
  if (better) {
    remat_result_free(&res->best);
    res->best = r;
    res->best_round = row.round;
    memcpy(res->copies, used, (size_t)g->n * sizeof *used);
    T->rc = rc;
  } else {
    if (res->best_round < 0) { /* keep why nothing came out */
      res->best.status = r.status;
      memcpy(res->best.message, r.message, sizeof r.message);
    }
    remat_result_free(&r);
  }
  free(used);
  free(capped);
  return better;
}

/* The time for the next adaptive round. */
static double tune_slice(const tune_ctx *T) {
  double left = tune_left(T), t = left * T->p->share;
  if (t < T->p->min_round) t = T->p->min_round;
  if (left - t < T->p->min_round) t = left; /* too little for another */
  return t;
}

static void tune_adaptive(tune_ctx *T) {
  const remat_graph *g = T->g;
  int n = g->n;
  int *c = util_malloc((size_t)n * sizeof *c), *cand = util_malloc((size_t)n * sizeof *cand);
  for (int v = 0; v < n; v++) c[v] = T->p->start ? T->p->start[v] : 1;
  int stale = 0;
  for (int round = 0; round < T->p->max_rounds; round++) {
    int rc = tune_round_run(T, c, tune_slice(T), 0, 0);
    if (rc < 0 || tune_stopped(T) || tune_left(T) <= 0) goto done;
    stale = rc ? 0 : stale + 1;
    if (stale >= T->p->patience) break;
    const remat_result *b = &T->res->best;
    if (!b->seq) break;
    if (b->status == REMAT_STATUS_OPTIMAL && b->peak <= b->budget &&
        b->duration == b->base_duration)
      goto done; /* nothing to gain */
    int k = tune_candidates(g, b->seq, b->len, b->budget, c, cand);
    if (!k) break;
    if (b->peak <= b->budget) { /* within budget: a few at a time */
      int cap = (int)(T->p->raise_share * n + 0.999);
      if (k > cap) k = cap > 0 ? cap : 1;
    }
    for (int i = 0; i < k; i++) c[cand[i]]++;
  }
  /* the time left goes to the best map */
  if (T->res->best_round >= 0 && tune_left(T) > 0.5 && !tune_stopped(T)) {
    memcpy(c, T->res->copies, (size_t)n * sizeof *c);
    tune_round_run(T, c, tune_left(T), 0, 1);
  }
done:
  free(c);
  free(cand);
}

static void tune_sweep(tune_ctx *T) {
  int n = T->g->n;
  int *c = util_malloc((size_t)n * sizeof *c);
  for (int i = 0; i < T->p->nsweep && !tune_stopped(T); i++) {
    double t = tune_left(T) / (T->p->nsweep - i);
    if (t <= 0) break;
    for (int v = 0; v < n; v++) c[v] = T->p->sweep[i];
    if (tune_round_run(T, c, t, T->p->sweep[i], 0) < 0) break;
  }
  free(c);
}

int tune_run(const remat_graph *g, const tune_params *p, tune_result *res) {
  memset(res, 0, sizeof *res);
  res->best_round = -1;
  res->copies = util_malloc((size_t)g->n * sizeof *res->copies);
  for (int v = 0; v < g->n; v++) res->copies[v] = p->start ? p->start[v] : 1;
  remat_result_init(&res->best, g, p->solve.budget, "cp");
  tune_ctx T = {g, p, res, util_now(), REMAT_ENOFIT};
  if (p->sweep)
    tune_sweep(&T);
  else
    tune_adaptive(&T);
  return T.rc;
}

/* ------------------------------------------------------------ output */

int tune_write_map(const remat_graph *g, const int *copies, const char *path,
                   char *err, size_t errlen) {
  json_t *o = json_object();
  for (int v = 0; v < g->n; v++)
    json_object_set_new(o, g->id[v], json_integer(copies[v]));
  int rc = json_dump_file(o, path, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
  json_decref(o);
  if (rc)
    return util_err(err, errlen, REMAT_EUSAGE, "cannot write %s: %s", path,
                    strerror(errno));
  return 0;
}

void tune_print_header(FILE *f) {
  fprintf(f, "%-7s %8s %9s %12s %14s %9s\n", "round", "C_v>1", "total C",
          "TDI", "peak", "time (s)");
}

void tune_print_row(FILE *f, const tune_round *row) {
  char name[32], tdi[32];
  if (row->final)
    snprintf(name, sizeof name, "%d*", row->round);
  else if (row->uniform)
    snprintf(name, sizeof name, "C=%d", row->uniform);
  else
    snprintf(name, sizeof name, "%d", row->round);
  if (!row->has_schedule)
    snprintf(tdi, sizeof tdi, "no schedule");
  else if (!row->fits)
    snprintf(tdi, sizeof tdi, "over budget");
  else
    snprintf(tdi, sizeof tdi, "%.2f%%", row->tdi);
  char peak[32] = "-";
  if (row->has_schedule) snprintf(peak, sizeof peak, "%lld", (long long)row->peak);
  fprintf(f, "%-7s %8d %9lld %12s %14s %9.2f\n", name, row->raised,
          row->total, tdi, peak, row->seconds);
  fflush(f);
}
