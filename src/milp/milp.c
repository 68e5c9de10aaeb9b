/* milp.c -- Checkmate's MILP solved with CBC (milp.h): the start
 * schedules, CBC in a child process, its callbacks (progress, the stop),
 * decoding and checking its solutions. */
#include "milp.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "child.h"
#include "lp_solver.h"
#include "graph.h"
#include "progress.h"
#include "result.h"
#include "util.h"

void milp_params_init(milp_params *p) {
  memset(p, 0, sizeof *p);
  p->time_limit = REMAT_TIME_LIMIT;
  p->verbose = 1;
  p->seed = 1;
}

typedef struct milp_run {
  const remat_graph *g;
  const milp_params *p;
  remat_result *r;
  milp_stats *st;
  milp_model md;    /* the model, sizes rounded down when not exact: its
                       infeasibility, optimum and bounds are proofs */
  milp_model md_up; /* sizes rounded up (built for phase 1 when md is not
                       exact): its solutions fit, it proves nothing */
  const milp_model *cur; /* the model CBC runs on */
  int phase; /* 1: until a first schedule within budget, 2: the rest */
  prog pr;
  double t0;
  double incumbent; /* objective units, INFINITY: none logged yet */
  double bound;     /* objective units, -INFINITY: none logged yet */
  double dbound;    /* phase 2's bound on the duration, -INFINITY: none */
  double t_inc;     /* when CBC logged its incumbent */
  int stopped;      /* a callback saw the stop flag */
  int internal;
  char errmsg[480];
} milp_run;

static double milp_elapsed(const milp_run *M) { return util_now() - M->t0; }

int milp_stopped(const milp_params *p) {
  return (p->stop && *p->stop) || (p->halt && p->halt(p->halt_ctx)) || child_stopping();
}

static int milp_stop_requested(const milp_run *M) { return milp_stopped(M->p); }

static int milp_halt(void *ctx) { return milp_stop_requested(ctx); }

/* An objective value for people: the TDI it stands for. */
static void milp_value(const milp_run *M, double obj, char *buf, size_t len) {
  int64_t base = M->r->base_duration;
  if (obj > 1e40 || obj < -1e40)
    snprintf(buf, len, "none");
  else
    snprintf(buf, len, "TDI %.3f%%",
             remat_tdi(base, (double)base + obj * (double)M->md.dur_q));
}

static void milp_progress(milp_run *M, double inc, double bnd, int nodes) {
  int new_inc = inc < 1e40 && inc < M->incumbent - 1e-9 * fabs(inc) - 1e-9;
  if (new_inc) M->t_inc = milp_elapsed(M);
  if (inc < M->incumbent) M->incumbent = inc;
  if (bnd > M->bound && bnd < 1e40) M->bound = bnd;
  char i[48], b[48];
  milp_value(M, M->incumbent, i, sizeof i);
  milp_value(M, M->bound, b, sizeof b);
  if (new_inc)
    prog_line(&M->pr, "[%7.2fs] CBC phase %d incumbent %s  bound %s",
              milp_elapsed(M), M->phase, i, b);
  else
    prog_status(&M->pr,
                "[%7.2fs] CBC phase %d  incumbent %s  bound %s  nodes %d",
                milp_elapsed(M), M->phase, i, b, nodes);
}

/* CBC's log as it goes (lp_solver.h calls one at a time). */
static void milp_on_progress(void *ctx, double inc, double bnd, int nodes) {
  milp_run *M = ctx;
  if (milp_stop_requested(M)) M->stopped = 1;
  if (!M->stopped) milp_progress(M, inc, bnd, nodes < 0 ? 0 : nodes);
}

/* The best schedule so far as CBC's MIP start if it fits (pruned R,
 * canonical S): its entries in *idx, *val; returns how many (0: none). */
static int milp_mipstart(milp_run *M, int **idx, double **val) {
  const remat_result *r = M->r;
  const remat_graph *g = M->g;
  *idx = NULL;
  *val = NULL;
  if (!r->seq || r->peak > r->budget) return 0;
  int n = g->n, ok = 0, k = 0;
  stage_mat R, S;
  stage_mat_init(&R, n);
  stage_mat_init(&S, n);
  if (!stage_from_sequence(r->seq, r->len, &R)) {
    stage_prune(g, &R);
    stage_canonical_s(g, &R, &S);
    ok = stage_checkmate_peak(g, &R, &S, NULL) <= r->budget;
  }
  if (ok) {
    int cnt = M->md.u_base ? M->md.u_base : 1; /* R and S */
    *idx = util_malloc((size_t)cnt * sizeof **idx);
    *val = util_malloc((size_t)cnt * sizeof **val);
    for (int t = 1; t < n; t++)
      for (int i = 0; i < t; i++) {
        (*idx)[k] = milp_col_r(t, i), (*val)[k++] = stage_get(&R, t, i);
        (*idx)[k] = milp_col_s(&M->md, t, i), (*val)[k++] = stage_get(&S, t, i);
      }
  }
  stage_mat_free(&R);
  stage_mat_free(&S);
  return k;
}

static void milp_internal(milp_run *M, const char *msg) {
  if (M->internal) return;
  M->internal = 1;
  snprintf(M->errmsg, sizeof M->errmsg, "%s", msg);
}

/* Decode CBC's solution, check it against the model, offer it (and its
 * pruned form). */
static void milp_take(milp_run *M, const double *x, double obj) {
  const remat_graph *g = M->g;
  int n = g->n;
  stage_mat R, S;
  stage_mat_init(&R, n);
  stage_mat_init(&S, n);
  milp_decode_r(&M->md, x, &R);
  milp_decode_s(&M->md, x, &S);
  int *seq, len = stage_sequence(&R, &seq);
  remat_sim sim;
  char msg[480];
  if (remat_simulate(g, seq, len, &sim, NULL)) {
    snprintf(msg, sizeof msg, "the MILP's schedule is invalid: %s", sim.error);
    milp_internal(M, msg);
  } else {
    int64_t cm = stage_checkmate_peak(g, &R, &S, NULL);
    double claimed = milp_duration(&M->md, obj); /* exact: obj is whole */
    if (sim.peak > cm) {
      snprintf(msg, sizeof msg,
               "the MILP's memory (%lld) is below the "
               "simulated peak (%lld)",
               (long long)cm, (long long)sim.peak);
      milp_internal(M, msg);
    } else if ((double)sim.duration != claimed) {
      snprintf(msg, sizeof msg,
               "the MILP's objective (%.0f) differs from "
               "the simulated duration (%lld)",
               claimed, (long long)sim.duration);
      milp_internal(M, msg);
    }
    double t = milp_elapsed(M);
    if (M->incumbent < 1e40 &&
        fabs(obj - M->incumbent) <= 1e-6 * fabs(obj) + 1e-6)
      t = M->t_inc; /* when CBC found it, not when it returned */
    remat_result_offer(M->r, g, seq, len, M->phase, t);
    if (stage_prune(g, &R)) {
      free(seq);
      len = stage_sequence(&R, &seq);
      remat_result_offer(M->r, g, seq, len, M->phase, t);
    }
  }
  free(seq);
  stage_mat_free(&R);
  stage_mat_free(&S);
}

void milp_best_line(prog *pr, double t, const remat_result *r, const char *what) {
  prog_line(pr, "[%7.2fs] %-11s peak %lld (%.1f%% of budget)  TDI %.3f%%", t, what,
            (long long)r->peak, 100.0 * (double)r->peak / (double)r->budget, r->tdi);
}

static void milp_offer(milp_run *M, const int *seq, int len, const char *what) {
  if (remat_result_offer(M->r, M->g, seq, len, 0, milp_elapsed(M)) > 0)
    milp_best_line(&M->pr, milp_elapsed(M), M->r, what);
}

/* The input order: optimal when it fits. */
static int milp_input_order(milp_run *M) {
  int *topo = util_malloc((size_t)(M->g->n ? M->g->n : 1) * sizeof *topo);
  for (int v = 0; v < M->g->n; v++) topo[v] = v;
  milp_offer(M, topo, M->g->n, "input order");
  free(topo);
  return M->r->peak <= M->r->budget;
}

/* What one CBC run ended with. */
typedef struct milp_end {
  int optimal, infeasible, have_sol;
  double obj; /* the solution's objective (its R rounded), in quanta */
} milp_end;

/* The model the proofs speak of: the stages, with the C_v rows or not. */
static int milp_covers(const milp_run *M) {
  return M->p->copies ? REMAT_COVERS_STAGES_COPIES : REMAT_COVERS_STAGES;
}

/* Status, bound and message once CBC is done.  e is the last run's end;
 * only runs on M->md (its sizes rounded down when not exact) prove. */
static int milp_conclude(milp_run *M, milp_end e) {
  remat_result *r = M->r;
  int fits = r->seq && r->peak <= r->budget, stopped = M->stopped;
  if (fits && e.infeasible && !stopped)
    milp_internal(M, "CBC reports the MILP infeasible, but a schedule fits");
  /* every schedule here is one of the model's (the seeds run only without
   * C_v rows; a caller's start keeps to them: milp.h) and the model's
   * sizes are rounded down (a relaxation): a bound or an optimum above
   * one that fits is wrong */
  if (fits && (M->dbound > (double)r->duration ||
               (e.optimal && !stopped && milp_duration(&M->md, e.obj) > (double)r->duration))) {
    char msg[192];
    snprintf(msg, sizeof msg,
             "CBC's bound (duration >= %.0f) is above a schedule within budget (duration "
             "%lld)",
             fmax(M->dbound, e.optimal ? milp_duration(&M->md, e.obj) : -INFINITY),
             (long long)r->duration);
    milp_internal(M, msg);
  }
  if (M->dbound > -1e40) {
    r->has_bound = 1;
    r->bound = M->dbound;
    r->bound_covers = milp_covers(M);
  }
  if (fits) {
    /* proven: CBC completed and the best schedule is as short as its
     * optimum (a whole number of quanta) */
    int proven = e.optimal && !stopped && e.have_sol &&
                 (double)r->duration <= milp_duration(&M->md, e.obj);
    r->status = proven ? REMAT_STATUS_OPTIMAL : REMAT_STATUS_FEASIBLE;
    if (proven) {
      r->has_bound = 1;
      r->bound = (double)r->duration;
      r->proof_covers = r->bound_covers = milp_covers(M);
    }
    return REMAT_OK;
  }
  if (e.infeasible && !stopped) {
    result_infeasible(r, milp_covers(M), NULL, NULL);
    r->has_bound = 0; /* CBC's last bound on the way: no schedule has it */
  } else {
    r->status = REMAT_STATUS_OVER_BUDGET;
    char why[160] = "";
    if (!M->md.mem_exact && !stopped)
      snprintf(why, sizeof why,
               " (the MILP counts sizes in units of %lld; its schedules "
               "may pass the budget by less than a unit per value)",
               (long long)M->md.mem_q);
    snprintf(r->message, sizeof r->message,
             "%s: no schedule within %lld found; best peak %lld (%.1f%% of "
             "budget)%s",
             stopped ? "interrupted" : "out of time", (long long)r->budget,
             (long long)r->peak, 100.0 * (double)r->peak / (double)r->budget, why);
  }
  return REMAT_ENOFIT;
}

/* What one CBC run (in a child process) hands back. */
typedef struct milp_cbc_out {
  int done;
  milp_end e;
  int stopped, nodes, status, secondary;
  double incumbent, bound, t_inc, best_possible;
  double x[]; /* ncols */
} milp_cbc_out;

typedef struct milp_cbc_job {
  milp_run *M;
  milp_cbc_out *out;
  int nstart; /* the MIP start's entries */
  int *idx;
  double *val;
} milp_cbc_job;

/* The CBC run itself (see milp_cbc_run). */
static void milp_cbc_child(void *arg) {
  milp_cbc_job *J = arg;
  milp_run *M = J->M;
  milp_cbc_out *o = J->out;
  cbc_limits lim;
  cbc_limits_init(&lim);
  double left = M->p->time_limit - milp_elapsed(M);
  lim.seconds = left > CBC_MIN_SECONDS ? left : CBC_MIN_SECONDS;
  lim.threads = M->p->threads > 0 ? M->p->threads : util_ncpus();
  lim.ratio_gap = M->p->rel_gap;
  lim.keep_clock = 1;
  lim.log = 1;
  lim.out = M->p->verbose > 1 ? CBC_OUT_STDERR : CBC_OUT_NULL;
  lim.nstart = J->nstart;
  lim.start_col = J->idx;
  lim.start_val = J->val;
  if (M->phase == 1) lim.max_solutions = 1;
  cbc_callbacks cb = {.ctx = M, .progress = milp_on_progress, .stop = milp_halt};
  M->incumbent = INFINITY;
  M->bound = -INFINITY;
  cbc_result r;
  int have = cbc_run(&M->cur->lp, &lim, &cb, o->x, &r);
  prog_done(&M->pr);
  /* a proof only from a run that ended in time (lp_solver.h) */
  o->e.optimal = r.in_time && r.optimal && !(M->phase == 1 && r.secondary == 6); /* solutions */
  o->e.infeasible = r.in_time && r.infeasible;
  o->e.have_sol = have;
  /* the objective of the rounded solution, exactly (CBC's own carries its
   * integrality tolerance times the durations) */
  o->e.obj = have ? (double)milp_objective_units(M->cur, o->x) : INFINITY;
  o->stopped = M->stopped || r.stopped || milp_stop_requested(M);
  o->best_possible = r.best_possible;
  o->nodes = (int)r.nodes;
  o->status = r.status;
  o->secondary = r.secondary;
  o->incumbent = M->incumbent;
  o->bound = M->bound;
  o->t_inc = M->t_inc;
  o->done = 1;
}

/* Seconds the CBC child gets past the time limit (or the stop) to stop by
 * itself and hand over its incumbent; in phase 1, where it has none (it
 * ends at its first), just enough to exit cleanly. */
#define MILP_GRACE 2.0
#define MILP_GRACE1 0.2

/* One CBC run; phase 1 stops at the first solution.  Without a MIP start
 * (phase 1) CBC runs without its preprocessing (lp_solver.h), and phase 2
 * starts again from phase 1's first schedule, with it.  CBC runs in a
 * child process (child.h): its root LP ignores the clock and the stop
 * callback, so the child is stopped at the time limit (or the stop flag)
 * and killed MILP_GRACE seconds later. */
static milp_end milp_cbc_run(milp_run *M, const milp_model *mm) {
  milp_end e = {0, 0, 0, INFINITY};
  M->cur = mm;
  double t = util_now();
  milp_cbc_job J = {M, NULL, 0, NULL, NULL};
  J.nstart = milp_mipstart(M, &J.idx, &J.val);
  int warm = J.nstart > 0;
  if (M->st) M->st->warm_start |= warm;
  prog_line(&M->pr,
            "[%7.2fs] CBC phase %d on %d columns (%d integer), %d rows, "
            "%lld nonzeros%s",
            milp_elapsed(M), M->phase, mm->lp.ncols, lp_nint(&mm->lp), mm->lp.nrows, mm->lp.nnz,
            warm ? "; warm start"
            : mm->mem_up ? "; sizes rounded up, no preprocessing, stop at the first schedule"
                         : "; no preprocessing, stop at the first schedule");
  size_t bytes = sizeof(milp_cbc_out) + (size_t)M->md.lp.ncols * sizeof(double);
  milp_cbc_out *o = child_shared(bytes);
  J.out = o;
  double left = M->p->time_limit - milp_elapsed(M);
  int signo = 0;
  child_end how = child_run(milp_cbc_child, &J, left > 0 ? left : 0,
                            M->phase == 1 ? MILP_GRACE1 : MILP_GRACE, milp_halt, M, &signo);
  free(J.idx);
  free(J.val);
  if (o->done) {
    e = o->e;
    if (mm->mem_up) e.optimal = e.infeasible = 0; /* a restriction proves nothing */
    M->incumbent = o->incumbent;
    M->bound = o->bound;
    M->t_inc = o->t_inc;
    /* the child also stops at the deadline, when SIGTERM reaches it; only
     * a stop asked of this process is an interruption */
    if (o->stopped && milp_stop_requested(M)) M->stopped = 1;
    /* CBC's final bound; after an interrupt the last one it logged (its
     * own closes on the incumbent) */
    double bp = M->stopped ? M->bound : o->best_possible;
    if (bp > -1e40 && bp < 1e40 && M->cur == &M->md) {
      double db = milp_bound_duration(&M->md, bp);
      if (db > M->dbound) M->dbound = db;
    }
    M->r->nodes += o->nodes;
    if (M->st) {
      M->st->cbc_status = o->status;
      M->st->cbc_secondary = o->secondary;
    }
    if (e.have_sol) milp_take(M, o->x, e.obj);
  } else {
    if (milp_stop_requested(M)) M->stopped = 1;
    if (how == CHILD_CRASHED)
      prog_line(&M->pr, "[%7.2fs] CBC died of signal %d; keeping the best schedule so far",
                milp_elapsed(M), signo);
    else
      prog_line(&M->pr, "[%7.2fs] CBC %s: stopped", milp_elapsed(M),
                M->stopped ? "did not stop when asked" : "ran past the time limit (in its root LP)");
  }
  child_shared_free(o, bytes);
  M->r->t_phase[M->phase] += util_now() - t;
  return e;
}

static int milp_time_left(const milp_run *M) {
  return milp_elapsed(M) < M->p->time_limit - 0.01;
}

static int milp_fits(const milp_run *M) { return M->r->seq && M->r->peak <= M->r->budget; }

/* Phase 1 when the sizes are rounded: first with sizes rounded up, whose
 * first solution fits; when that finds none, on the relaxation, which
 * proves infeasibility (its solution may not fit). */
static milp_end milp_phase1_rounded(milp_run *M) {
  char err[256];
  milp_end e = {0, 0, 0, INFINITY};
  if (!milp_build_rounded(&M->md_up, M->g, M->p->budget, MILP_INTEGRAL, M->p->copies,
                          LLONG_MAX, 1,
                          err, sizeof err)) {
    e = milp_cbc_run(M, &M->md_up);
    milp_free(&M->md_up);
  }
  if (milp_fits(M) || M->stopped || M->internal || !milp_time_left(M)) return e;
  return milp_cbc_run(M, &M->md);
}

/* Phase 1 (only while no schedule fits): CBC until its first schedule;
 * phase 2: CBC warm-started from the best fitting schedule. */
static int milp_cbc(milp_run *M) {
  milp_end e;
  M->phase = milp_fits(M) ? 2 : 1;
  e = M->phase == 1 && !M->md.mem_exact ? milp_phase1_rounded(M) : milp_cbc_run(M, &M->md);
  if (M->phase == 1 && !e.optimal && M->r->peak <= M->r->budget &&
      !M->stopped && !M->internal && milp_time_left(M) && !M->p->first_fit) {
    M->phase = 2;
    e = milp_cbc_run(M, &M->md);
  }
  return milp_conclude(M, e);
}

/* Build the model (before the seeds, so that a model too large is refused
 * at once).  Returns 0 or REMAT_EUSAGE. */
static int milp_model_build(milp_run *M) {
  char err[256];
  long long most = M->p->max_nonzeros > 0 ? M->p->max_nonzeros : MILP_MAX_NONZEROS;
  if (milp_build_max(&M->md, M->g, M->p->budget, MILP_INTEGRAL, M->p->copies, most, err,
                     sizeof err)) {
    snprintf(M->r->message, sizeof M->r->message, "%s", err);
    return REMAT_EUSAGE;
  }
  if (M->st) {
    M->st->columns = M->md.lp.ncols;
    M->st->rows = M->md.lp.nrows;
    M->st->integer_columns = lp_nint(&M->md.lp);
    M->st->nonzeros = M->md.lp.nnz;
  }
  M->r->mem_quantum = M->md.mem_q;
  M->r->dur_quantum = M->md.dur_q;
  return 0;
}

/* After the budget checks: the input order, the model, the seeds, CBC. */
static int milp_main(milp_run *M) {
  remat_result *r = M->r;
  if (milp_input_order(M)) {
    r->status = REMAT_STATUS_OPTIMAL; /* no recomputation needed */
    r->proof_covers = r->bound_covers = REMAT_COVERS_ANY_ORDER;
    r->has_bound = 1;
    r->bound = (double)r->base_duration;
    return REMAT_OK;
  }
  if (milp_model_build(M)) return REMAT_EUSAGE;
  if (M->p->start) milp_offer(M, M->p->start, M->p->start_len, "start");
  double th = util_now();
  if (M->p->seeds) {
    char err[sizeof M->errmsg];
    if (M->p->seeds(M->g, M->p, r, M->t0, err, sizeof err)) milp_internal(M, err);
  }
  r->t_phase[0] = util_now() - th;
  if (M->internal) return REMAT_EINTERNAL;
  if (milp_stop_requested(M) || !milp_time_left(M)) {
    milp_end none = {0, 0, 0, INFINITY};
    M->stopped = milp_stop_requested(M);
    return milp_conclude(M, none); /* no time left for CBC */
  }
  return milp_cbc(M);
}

int milp_solve(const remat_graph *g, const milp_params *in, remat_result *r,
               milp_stats *st) {
  /* the graph's own C_v are a ceiling whatever the caller asks (g->n:
   * any number) */
  milp_params q = *in;
  const milp_params *p = &q;
  int *own = graph_copies_capped(g, q.copies, g->n);
  if (own) q.copies = own;
  milp_run M = {.g = g, .p = p, .r = r, .st = st, .t0 = util_now(), .incumbent = INFINITY,
                .bound = -INFINITY, .dbound = -INFINITY};
  prog_init(&M.pr, p->verbose);
  if (st) memset(st, 0, sizeof *st);
  int rc = REMAT_OK;
  r->budget = p->budget;
  if (!(rc = remat_result_precheck(r, g))) {
    rc = milp_main(&M);
    milp_free(&M.md);
  }
  r->t_total = milp_elapsed(&M);
  r->interrupted = M.stopped || milp_stop_requested(&M);
  if (M.internal) { /* the schedule is kept, no claim */
    snprintf(r->message, sizeof r->message, "internal error: %s", M.errmsg);
    r->status = REMAT_STATUS_ERROR;
    r->has_bound = 0;
    rc = REMAT_EINTERNAL;
  }
  prog_done(&M.pr);
  free(own);
  return rc;
}
