/* rounding.c -- the LP relaxation of Checkmate's MILP and its two-phase
 * deterministic rounding. */
#include "rounding.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "milp_model.h"
#include "progress.h"
#include "result.h"
#include "sim.h"
#include "stage.h"
#include "util.h"

static const double round_default_thresholds[] = {0.1, 0.2, 0.3, 0.4, 0.5,
                                                  0.6, 0.7, 0.8, 0.9};

void round_params_init(round_params *p) {
  memset(p, 0, sizeof *p);
  p->eps = 0.1;
  p->time_limit = REMAT_TIME_LIMIT;
  p->verbose = 1;
}

static void round_s(const remat_graph *g, const double *s, double theta,
                    stage_mat *S) {
  int n = g->n;
  stage_mat_clear(S);
  for (int t = 1; t < n; t++)
    for (int i = 0; i < t; i++)
      if (s[(size_t)t * n + i] >= theta) stage_set(S, t, i, 1);
}

/* R for S, where a node the graph gives "copies" 1 (computed once, such
 * as a random generator's state) is held from its stage to the last stage
 * that computes one of its readers in R: holding it adds no computation,
 * so the readers' stages stay and one more R settles it. */
static void round_r(const remat_graph *g, stage_mat *S, stage_mat *R) {
  for (int again = 1; again;) {
    again = 0;
    stage_r_opt(g, S, R);
    for (int i = 0; i < g->n && g->copies; i++) {
      if (g->copies[i] != 1) continue;
      int last = i;
      for (int q = g->succ_off[i]; q < g->succ_off[i + 1]; q++)
        for (int t = g->n - 1, j = g->succ[q]; t > last; t--)
          if (t >= j && stage_get(R, t, j)) {
            last = t;
            break;
          }
      for (int t = i + 1; t <= last; t++)
        if (!stage_get(S, t, i)) stage_set(S, t, i, 1), again = 1;
    }
  }
}

typedef struct round_run {
  const remat_graph *g;
  const round_params *p;
  remat_result *r;
  round_stats *st;
  int phase; /* trace phase of the offers */
  prog pr;
  double t0;       /* for trace times and messages */
  double deadline; /* util_now() at which the LPs must stop */
  int internal;
  char errmsg[256];
} round_run;

/* A run from t0 (0: now) with p->time_limit from now. */
static round_run round_begin(const remat_graph *g, const round_params *p, remat_result *r,
                             double t0) {
  double now = util_now();
  round_run X = {.g = g, .p = p, .r = r, .t0 = t0 > 0 ? t0 : now,
                 .deadline = now + p->time_limit};
  prog_init(&X.pr, p->verbose);
  return X;
}

static double round_elapsed(const round_run *X) { return util_now() - X->t0; }

static int round_stopped(const round_run *X) {
  return X->p->stop && *X->p->stop;
}

static void round_report(round_run *X, const char *what) {
  const remat_result *r = X->r;
  prog_line(&X->pr, "[%7.2fs] %-14s peak %lld (%.1f%% of budget)  TDI %.3f%%",
            round_elapsed(X), what, (long long)r->peak,
            100.0 * (double)r->peak / (double)r->budget, r->tdi);
}

/* Offer a schedule; returns 1 if it became the best.  One that computes a
 * node more often than the graph's own C_v of 2 or more allows is left
 * (round_r holds only those of 1). */
static int round_offer(round_run *X, const int *seq, int len, int phase,
                       const char *what) {
  int *own = graph_copies_or(X->g, 0), within = !own || sim_within_copies(X->g, seq, len, own);
  free(own);
  if (!within) return 0;
  int rc = remat_result_offer(X->r, X->g, seq, len, phase, round_elapsed(X));
  if (rc < 0 && !X->internal) {
    X->internal = 1;
    snprintf(X->errmsg, sizeof X->errmsg, "%s produced an invalid schedule",
             what);
  }
  if (rc > 0) round_report(X, what);
  return rc > 0;
}

/* Round one LP solution at every threshold. */
static void round_sweep(round_run *X, const double *s, int from_eps) {
  const round_params *p = X->p;
  const double *th = p->thresholds ? p->thresholds : round_default_thresholds;
  int nth = p->thresholds ? p->nthresholds : 9;
  stage_mat S, R;
  stage_mat_init(&S, X->g->n);
  stage_mat_init(&R, X->g->n);
  for (int k = 0; k < nth && !round_stopped(X); k++) {
    char what[48];
    snprintf(what, sizeof what, "%s %.2f", from_eps ? "eps-LP" : "LP", th[k]);
    round_s(X->g, s, th[k], &S);
    round_r(X->g, &S, &R);
    for (int pass = 0; pass < 2; pass++) { /* as rounded, then pruned */
      if (pass && !stage_prune(X->g, &R)) break;
      int *seq, len = stage_sequence(&R, &seq);
      if (X->st) X->st->schedules++;
      if (round_offer(X, seq, len, X->phase, what) && X->st) {
        X->st->threshold = th[k];
        X->st->from_eps_lp = from_eps;
      }
      free(seq);
    }
  }
  stage_mat_free(&S);
  stage_mat_free(&R);
}

/* Build and solve the LP at `budget`; round it.  Returns the LP status
 * (milp_solve_lp) or -2 when the model could not be built. */
static int round_lp(round_run *X, int64_t budget, int from_eps,
                    double *duration) {
  milp_model md;
  char err[256];
  if (milp_build(&md, X->g, budget, MILP_RELAXED, err, sizeof err)) {
    snprintf(X->r->message, sizeof X->r->message, "%s", err);
    return -2;
  }
  if (X->st) {
    X->st->columns = md.lp.ncols;
    X->st->rows = md.lp.nrows;
    X->st->nonzeros = md.lp.nnz;
  }
  double left = X->deadline - util_now(), obj = 0;
  double *x = util_malloc((size_t)md.lp.ncols * sizeof *x);
  int st = milp_solve_lp(&md, left, X->p->stop, x, &obj);
  if (st == 0) {
    *duration = milp_bound_duration(&md, obj); /* rounded down */
    prog_line(&X->pr, "[%7.2fs] LP at %lld: duration >= %.0f (TDI >= %.3f%%)",
              round_elapsed(X), (long long)budget, *duration,
              remat_tdi(X->r->base_duration, *duration));
    int n = X->g->n;
    double *s = util_malloc((size_t)n * (size_t)n * sizeof *s + 1);
    milp_s_values(&md, x, s);
    round_sweep(X, s, from_eps);
    free(s);
  } else {
    prog_line(&X->pr, "[%7.2fs] LP at %lld: %s", round_elapsed(X),
              (long long)budget, milp_lp_status_name(st));
  }
  free(x);
  milp_free(&md);
  return st;
}

/* Status and message once the roundings are done. */
static int round_conclude(round_run *X, int lp_status) {
  remat_result *r = X->r;
  if (r->seq && r->peak <= r->budget) {
    int proven = r->has_bound && (double)r->duration <= r->bound;
    r->status = proven ? REMAT_STATUS_OPTIMAL : REMAT_STATUS_FEASIBLE;
    if (proven) {
      r->bound = (double)r->duration;
      r->proof_covers = REMAT_COVERS_STAGES;
    }
    return REMAT_OK;
  }
  if (lp_status == 1) {
    result_infeasible(r, REMAT_COVERS_STAGES, "the LP relaxation", NULL);
  } else {
    r->status = REMAT_STATUS_OVER_BUDGET;
    snprintf(r->message, sizeof r->message,
             "%s found no schedule within %lld; best peak %lld (%.1f%% of "
             "budget)",
             lp_status == 2     ? "the LP ran out of time: rounding"
             : round_stopped(X) ? "interrupted: rounding"
                                : "rounding",
             (long long)r->budget, (long long)r->peak,
             100.0 * (double)r->peak / (double)r->budget);
  }
  return REMAT_ENOFIT;
}

static int round_main(round_run *X) {
  const round_params *p = X->p;
  remat_result *r = X->r;
  int *topo = util_malloc((size_t)(X->g->n ? X->g->n : 1) * sizeof *topo);
  for (int v = 0; v < X->g->n; v++) topo[v] = v;
  round_offer(X, topo, X->g->n, 0, "input order");
  free(topo);
  if (r->peak <= r->budget) { /* no recomputation needed */
    r->status = REMAT_STATUS_OPTIMAL;
    r->proof_covers = r->bound_covers = REMAT_COVERS_ANY_ORDER;
    r->has_bound = 1;
    r->bound = (double)r->base_duration;
    return REMAT_OK;
  }
  double t2 = util_now(), lp = 0, lp_eps = 0;
  int st = round_lp(X, p->budget, 0, &lp);
  if (st == -2) return REMAT_EUSAGE;
  if (X->st) X->st->lp_status = st, X->st->lp_duration = lp;
  if (st == 0) {
    r->has_bound = 1;
    r->bound = lp;
    r->bound_covers = REMAT_COVERS_STAGES;
  }
  int64_t mb = (int64_t)floor((1.0 - p->eps) * (double)p->budget);
  if (X->st) X->st->rounding_budget = mb;
  if (st != 1 && p->eps > 0 && mb > 0 && !round_stopped(X) && X->deadline - util_now() > 0.01) {
    int se = round_lp(X, mb, 1, &lp_eps);
    if (X->st) X->st->lp_eps_status = se, X->st->lp_eps_duration = lp_eps;
  }
  r->t_phase[2] = util_now() - t2;
  if (st < 0 && !X->internal) {
    X->internal = 1;
    snprintf(X->errmsg, sizeof X->errmsg, "Clp failed on the LP relaxation");
  }
  return round_conclude(X, st);
}

/* The previous stage before t computing i (i itself at the latest). */
static int round_prev_copy(const stage_mat *R, int t, int i) {
  int a = t - 1;
  while (a > i && !stage_get(R, a, i)) a--;
  return a;
}

/* Try dropping the recomputation (t, i); on success R, S, *sim change. */
static int round_polish_move(const remat_graph *g, int64_t budget, int t, int i,
                             stage_mat *R, stage_mat *S, stage_mat *S2,
                             stage_mat *R2, remat_sim *best) {
  int n = g->n, a = round_prev_copy(R, t, i), ok = 0;
  memcpy(S2->a, S->a, (size_t)n * (size_t)n);
  for (int u = a + 1; u <= t; u++) stage_set(S2, u, i, 1);
  stage_r_opt(g, S2, R2);
  stage_prune(g, R2);
  int *seq, len = stage_sequence(R2, &seq);
  remat_sim sim;
  if (!remat_simulate(g, seq, len, &sim, NULL) && sim.peak <= budget &&
      sim.duration < best->duration) {
    memcpy(R->a, R2->a, (size_t)n * (size_t)n);
    stage_canonical_s(g, R, S);
    *best = sim;
    ok = 1;
  }
  free(seq);
  return ok;
}

int round_polish(const remat_graph *g, double t0, double time_limit,
                 volatile int *stop, remat_result *r) {
  if (!r->seq || r->peak > r->budget) return 0;
  int n = g->n, improved = 0;
  double start = util_now();
  if (t0 <= 0) t0 = start;
  stage_mat R, S, S2, R2;
  stage_mat_init(&R, n);
  if (stage_from_sequence(r->seq, r->len, &R)) {
    stage_mat_free(&R);
    return 0;
  }
  stage_mat_init(&S, n);
  stage_mat_init(&S2, n);
  stage_mat_init(&R2, n);
  stage_prune(g, &R);
  stage_canonical_s(g, &R, &S);
  remat_sim best;
  best.duration = r->duration, best.peak = r->peak;
  for (int pass = 1; pass;) {
    pass = 0;
    for (int t = n - 1; t > 0 && !pass; t--)
      for (int i = t - 1; i >= 0 && !pass; i--) {
        if (!stage_get(&R, t, i) || g->w[i] == 0) continue;
        if (util_now() - start > time_limit || (stop && *stop)) goto done;
        pass = round_polish_move(g, r->budget, t, i, &R, &S, &S2, &R2, &best);
      }
    if (pass) {
      int *seq, len = stage_sequence(&R, &seq);
      improved += remat_result_offer(r, g, seq, len, 0, util_now() - t0) > 0;
      free(seq);
    }
  }
done:
  stage_mat_free(&R);
  stage_mat_free(&S);
  stage_mat_free(&S2);
  stage_mat_free(&R2);
  return improved;
}

int round_seed(const remat_graph *g, int64_t budget, double t0,
               double time_limit, volatile int *stop, int verbose,
               remat_result *r) {
  /* the rounding's default thresholds; eps is the loop's own */
  round_params p = {.budget = budget, .time_limit = time_limit, .stop = stop, .verbose = verbose};
  round_run X = round_begin(g, &p, r, t0);
  for (int k = 1; k <= 6 && !(r->seq && r->peak <= budget); k++) {
    double lp, left = X.deadline - util_now();
    int64_t mb = (int64_t)floor((1.0 - 0.1 * k) * (double)budget);
    if (left <= 0 || round_stopped(&X) || mb <= 0) break;
    if (round_lp(&X, mb, 1, &lp) == -2) break; /* too large */
  }
  prog_done(&X.pr);
  return X.internal ? REMAT_EINTERNAL : REMAT_OK;
}

int round_solve(const remat_graph *g, const round_params *p, remat_result *r,
                round_stats *st) {
  round_run X = round_begin(g, p, r, 0);
  X.st = st;
  X.phase = 2;
  if (st) {
    memset(st, 0, sizeof *st);
    st->lp_status = st->lp_eps_status = -2;
    st->threshold = -1;
  }
  int rc;
  r->budget = p->budget;
  if (p->eps < 0 || p->eps >= 1) {
    snprintf(r->message, sizeof r->message, "eps must be in [0, 1)");
    rc = REMAT_EUSAGE;
  } else if (!(rc = remat_result_precheck(r, g))) {
    rc = round_main(&X);
  }
  r->t_total = round_elapsed(&X);
  r->interrupted = round_stopped(&X);
  if (X.internal) {
    snprintf(r->message, sizeof r->message, "internal error: %s", X.errmsg);
    rc = REMAT_EINTERNAL;
  }
  prog_done(&X.pr);
  return rc;
}
