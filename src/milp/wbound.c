/* wbound.c -- the window model's solve loop (wbound.h). */
#include "wbound.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "child.h"
#include "grow.h"
#include "lp_solver.h"
#include "sim.h"
#include "util.h"
#include "wmodel.h"

/* Over-budget steps examined per round. */
#define WB_STEPS 64

void wbound_params_init(wbound_params *p) {
  memset(p, 0, sizeof *p);
  p->incumbent = -1;
  p->time_limit = 10;
  p->depth = 1;
  p->margin = 3;
}

void wbound_out_free(wbound_out *o) {
  free(o->seq);
  o->seq = NULL;
  o->len = 0;
}

const char *wbound_status_name(wbound_status s) {
  switch (s) {
  case WBOUND_OPTIMAL:
    return "optimal";
  case WBOUND_BOUND:
    return "bound";
  case WBOUND_INFEASIBLE:
    return "infeasible";
  default:
    return "none";
  }
}

/* ------------------------------------------------------------------ */
/* CBC in a child process                                              */
/* ------------------------------------------------------------------ */

/* What the child hands back. */
typedef struct wb_cbc_out {
  int done, infeasible, optimal, have_x;
  int finished; /* CBC ended its search (not on its time limit) */
  int rooted;   /* CBC logged a bound after its root LP */
  double obj, best_possible;
  double logged; /* the best bound CBC logged (-INFINITY: none), kept
                    when the child is stopped before it returns */
  long long nodes;
  double x[];
} wb_cbc_out;

typedef struct wb_cbc_job {
  const wmodel *W;
  double cutoff; /* objective units; INFINITY: none */
  double seconds;
  wb_cbc_out *out;
} wb_cbc_job;

/* CBC's bound as it logs it: kept when the child is stopped before CBC
 * returns, and a sign that its root LP ended. */
static void wb_on_progress(void *ctx, double incumbent, double bound, int nodes) {
  (void)incumbent, (void)nodes;
  wb_cbc_out *o = ctx;
  if (bound > -1e40 && bound < 1e40) {
    o->rooted = 1;
    if (bound > o->logged) o->logged = bound;
  }
}

static void wb_cbc_child(void *arg) {
  wb_cbc_job *J = arg;
  const wmodel *W = J->W;
  wb_cbc_out *o = J->out;
  cbc_limits lim;
  cbc_limits_init(&lim);
  lim.seconds = J->seconds > 0.05 ? J->seconds : 0.05;
  lim.log = 1;
  lim.out = CBC_OUT_NULL;
  /* the proof is what matters, not solutions: CBC's heuristics (the
   * feasibility pump's sub-searches ignore the clock) are left out */
  lim.heuristics_off = 1;
  lim.allowable_gap = 0.5; /* whole units */
  lim.cutoff = J->cutoff;
  cbc_callbacks cb = {.ctx = o, .progress = wb_on_progress};
  cbc_result r;
  cbc_run(&W->lp, &lim, &cb, o->x, &r);
  /* CBC also calls a model infeasible when its time limit cuts the first
   * LPs short: an answer counts only from a search that ended by itself,
   * well before the limit (lp_solver.h; CBC on one thread here) */
  o->finished = r.finished && r.in_time;
  o->infeasible = o->finished && r.infeasible;
  o->optimal = o->finished && r.optimal;
  o->have_x = r.have_x;
  o->obj = r.obj;
  /* a search stopped before its root LP ended has no bound */
  o->best_possible = o->finished || o->rooted ? r.best_possible : -INFINITY;
  o->nodes = r.nodes;
  o->done = 1;
}

/* ------------------------------------------------------------------ */
/* The loop                                                            */
/* ------------------------------------------------------------------ */

typedef struct wb_run {
  const remat_graph *g;
  const wbound_params *p;
  wbound_out *o;
  double t0;
  int n, a, b;
  wm_rows lazy;
  int *xu, *xt, nx, xcap; /* values added to the sets: u up to stage xt */
  int64_t bound;          /* duration units */
  int64_t inc;            /* the incumbent's increase, -1: none */
} wb_run;

static double wb_left(const wb_run *R) {
  return R->p->time_limit - (util_now() - R->t0);
}

static int wb_halt(void *ctx) {
  const wb_run *R = ctx;
  return (R->p->stop && *R->p->stop) || child_stopping();
}

static void wb_extra(wb_run *R, int u, int t) {
  for (int i = 0; i < R->nx; i++)
    if (R->xu[i] == u) {
      if (R->xt[i] < t) R->xt[i] = t;
      return;
    }
  GROW_ALL(R->xcap, R->nx + 1, 64, R->xu, R->xt);
  R->xu[R->nx] = u;
  R->xt[R->nx++] = t;
}

/* A bound in objective units (whole numbers: the coefficients are) as a
 * duration increase, rounded down past CBC's tolerances. */
static int64_t wb_units(const wmodel *W, double v) {
  if (!(v > 0) || !isfinite(v)) return 0;
  double u = ceil(v - 1e-9 * v - 1e-6);
  return u > 0 ? (int64_t)u * W->wq : 0;
}

/* The schedule of solution x: stages before a and after b + 1 as in the
 * input order; stage t in a..b recomputes its R, stage b + 1 its Q.
 * stage[i] receives each step's stage. */
static int wb_decode(const wmodel *W, const double *x, int *seq, int *stage) {
  int len = 0;
  for (int t = 0; t < W->n; t++) {
    if (t >= W->a && t <= W->b)
      for (int u = 0; u < t; u++) {
        int c = W->rc[wm_at(W, t, u)];
        if (c >= 0 && x[c] > 0.5) stage[len] = t, seq[len++] = u;
      }
    if (t == W->b + 1)
      for (int u = 0; u < t; u++)
        if (W->qc[u] >= 0 && x[W->qc[u]] > 0.5) stage[len] = t, seq[len++] = u;
    stage[len] = t, seq[len++] = t;
  }
  return len;
}

/* How one decoded schedule ended the round. */
enum { WB_FITS, WB_REFINED, WB_STUCK };

/* One over-budget step j inside the window: a memory row, or the values
 * the model leaves free there.  Returns 1 if the model changed. */
static int wb_refine_step(wb_run *R, const wmodel *W, const double *x, const int *seq,
                          const int *stage, const int *last, int j, unsigned char *live,
                          unsigned char *unc) {
  int n = R->n, t = stage[j], v = seq[j], changed = 0;
  memset(live, 0, (size_t)n);
  memset(unc, 0, (size_t)n);
  for (int i = 0; i < j; i++)
    if (last[i] >= j) live[seq[i]] = 1;
  if (v != t) {
    changed = wm_step_row(W, x, t, v, live, &R->lazy, unc);
  } else {
    for (int u = 0; u < t; u++)
      if (live[u] && !wm_final_has(W, x, t, u)) unc[u] = 1;
  }
  for (int i = 0; i < j; i++) {
    int u = seq[i];
    if (last[i] < j || !unc[u]) continue;
    int upto = stage[last[i]];
    int before = 0;
    for (int k = 0; k < R->nx; k++)
      if (R->xu[k] == u) before = R->xt[k];
    wb_extra(R, u, upto);
    /* it was free somewhere up to its reader: the sets grow */
    changed |= upto > before || !W->in[wm_at(W, t, u)];
    unc[u] = 0;
  }
  return changed;
}

/* Check solution x: a schedule within budget (*seq, *len), or refine. */
static int wb_check(wb_run *R, const wmodel *W, const double *x, int **seq_out, int *len_out) {
  const remat_graph *g = R->g;
  int n = R->n, cap = n + W->ncols;
  int *seq = util_malloc((size_t)cap * sizeof *seq), *stage = util_malloc((size_t)cap * sizeof *stage);
  int len = wb_decode(W, x, seq, stage);
  int64_t *mem = util_malloc((size_t)len * sizeof *mem);
  int *last = util_malloc((size_t)len * sizeof *last);
  remat_sim sim, lu;
  int rc = WB_STUCK;
  if (remat_simulate(g, seq, len, &sim, mem) || sim_lastuse(g, seq, len, last, &lu)) {
    rc = WB_STUCK; /* not a schedule: cannot happen on the stage axis */
  } else if (sim.peak <= R->p->budget &&
             (!R->p->copies || sim_within_copies(g, seq, len, R->p->copies))) {
    *seq_out = seq;
    *len_out = len;
    seq = NULL;
    rc = WB_FITS;
  } else {
    unsigned char *live = util_malloc((size_t)n), *unc = util_malloc((size_t)n);
    int changed = 0, seen = 0, na = R->a, nb = R->b;
    for (int j = 0; j < len && seen < WB_STEPS; j++) {
      if (mem[j] <= R->p->budget) continue;
      seen++;
      int t = stage[j];
      if (t < R->a) {
        int lo = t - R->p->margin;
        if (lo < 0) lo = 0;
        if (lo < na) na = lo;
      } else if (t > R->b) {
        int hi = t + R->p->margin;
        if (hi > n - 1) hi = n - 1;
        if (hi > nb) nb = hi;
      } else {
        changed |= wb_refine_step(R, W, x, seq, stage, last, j, live, unc);
      }
    }
    if (na != R->a || nb != R->b) changed = 1;
    R->a = na;
    R->b = nb;
    rc = changed ? WB_REFINED : WB_STUCK;
    free(live);
    free(unc);
  }
  UTIL_FREE(seq, stage, mem, last);
  return rc;
}

/* The window's first stage over budget and its last, from the input
 * order's loads; 0 if none is over budget. */
static int wb_window(wb_run *R, int *first, int *lastk) {
  int64_t *load = sim_topo_loads(R->g);
  *first = *lastk = -1;
  for (int k = 0; k < R->n; k++)
    if (load[k] > R->p->budget) {
      if (*first < 0) *first = k;
      *lastk = k;
    }
  free(load);
  return *first >= 0;
}

/* Solve one round's model; fills *res (shared memory of the caller's
 * size).  Returns 0, or -1 when the child gave no answer at all. */
static int wb_round(wb_run *R, const wmodel *W, double cutoff, wb_cbc_out *res) {
  /* CBC stops itself at its limit; the child is killed a little later
   * (its root LP does not look at the clock) */
  wb_cbc_job J = {W, cutoff, wb_left(R) - 0.1, res};
  res->logged = -INFINITY;
  child_run(wb_cbc_child, &J, J.seconds + 0.3, 0.3, wb_halt, R, NULL);
  return res->done ? 0 : -1;
}

static void wb_say(const wb_run *R, const char *fmt, double a1, double a2) {
  if (!R->p->verbose) return;
  fprintf(stderr, "[%7.2fs] window bound: ", util_now() - R->t0);
  fprintf(stderr, fmt, a1, a2);
  fputc('\n', stderr);
}

/* One model: build, solve, check.  Returns 1 to go on. */
static int wb_step(wb_run *R) {
  const wbound_params *p = R->p;
  if (p->incumbent_now) {
    int64_t v = p->incumbent_now(p->ctx);
    if (v >= 0 && (R->inc < 0 || v < R->inc)) R->inc = v;
  }
  const int64_t inc = R->inc; /* this round's cutoff */
  wbound_out *o = R->o;
  wmodel W;
  char err[128];
  long long most = p->max_nonzeros > 0 ? p->max_nonzeros : WBOUND_MAX_NONZEROS;
  if (wm_init(&W, R->g, p->budget, p->copies, R->a, R->b, p->depth, WBOUND_MAX_CELLS, err,
              sizeof err)) {
    snprintf(o->why, sizeof o->why, "%s", err);
    return 0;
  }
  for (int i = 0; i < R->nx; i++) wm_add_value(&W, R->xu[i], R->xt[i]);
  wm_columns(&W);
  int go = 0;
  if (wm_build(&W, &R->lazy, most, err, sizeof err)) {
    snprintf(o->why, sizeof o->why, "%s", err);
    wm_free(&W);
    return 0;
  }
  o->a = W.a, o->b = W.b, o->cols = W.ncols, o->rows = W.lp.nrows, o->nnz = W.lp.nnz;
  o->lazy_rows = R->lazy.n;
  /* below the incumbent: at most floor((incumbent - 1) / wq) units */
  double cutoff = INFINITY;
  if (inc > 0) cutoff = (double)((inc - 1) / W.wq) + 0.5;
  size_t bytes = sizeof(wb_cbc_out) + (size_t)(W.ncols ? W.ncols : 1) * sizeof(double);
  wb_cbc_out *res = child_shared(bytes);
  int answered = !wb_round(R, &W, cutoff, res);
  o->rounds++;
  o->nodes += res->nodes;
  if (answered && res->infeasible) {
    if (inc >= 0) { /* nothing below the incumbent */
      o->status = WBOUND_OPTIMAL;
      R->bound = inc;
    } else {
      o->status = WBOUND_INFEASIBLE;
    }
  } else {
    double bp = answered ? res->best_possible : res->logged;
    if (answered && res->optimal && res->have_x) bp = res->obj;
    int64_t lb = wb_units(&W, bp);
    if (lb > R->bound) {
      R->bound = lb;
      if (p->on_bound) p->on_bound(p->ctx, lb);
    }
    o->status = WBOUND_BOUND;
    wb_say(R, "round bound %.0f, %.0f columns", (double)lb, (double)W.ncols);
    if (inc >= 0 && R->bound >= inc) {
      o->status = WBOUND_OPTIMAL;
      R->bound = inc;
    } else if (answered && res->optimal && res->have_x) {
      int *seq = NULL, len = 0, how = wb_check(R, &W, res->x, &seq, &len);
      if (how == WB_FITS) {
        remat_sim sim;
        remat_simulate(R->g, seq, len, &sim, NULL);
        int64_t inc = sim.duration - remat_graph_base_duration(R->g);
        free(o->seq);
        o->seq = seq, o->len = len;
        if (inc <= R->bound) o->status = WBOUND_OPTIMAL, R->bound = inc;
      } else {
        go = how == WB_REFINED && wb_left(R) > 0.05 && !wb_halt(R);
      }
    } else if (!answered || !res->have_x) {
      snprintf(o->why, sizeof o->why, "out of time");
    }
  }
  child_shared_free(res, bytes);
  wm_free(&W);
  return go;
}

wbound_status wbound_solve(const remat_graph *g, const wbound_params *p, wbound_out *o) {
  memset(o, 0, sizeof *o);
  o->status = WBOUND_NONE;
  wb_run R = {.g = g, .p = p, .o = o, .t0 = util_now(), .n = g->n};
  wm_rows_init(&R.lazy);
  int first, lastk;
  if (remat_graph_max_duration(g) < 0) {
    snprintf(o->why, sizeof o->why, "durations too large: sums of them could pass 64 bits");
  } else if (!wb_window(&R, &first, &lastk)) {
    o->status = WBOUND_OPTIMAL; /* the input order fits */
  } else if (p->incumbent == 0) {
    o->status = WBOUND_OPTIMAL;
  } else {
    R.a = first;
    R.b = lastk + p->margin < g->n - 1 ? lastk + p->margin : g->n - 1;
    R.inc = p->incumbent;
    while (wb_step(&R)) {
    }
    o->increase = R.bound;
    if (o->status == WBOUND_BOUND && R.bound == 0 && o->rounds == 0) o->status = WBOUND_NONE;
  }
  if (o->status == WBOUND_INFEASIBLE || o->status == WBOUND_NONE) o->increase = 0;
  wm_rows_free(&R.lazy);
  free(R.xu);
  free(R.xt);
  o->seconds = util_now() - R.t0;
  return o->status;
}
