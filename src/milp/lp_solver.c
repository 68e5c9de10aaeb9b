/* lp_solver.c -- the one driver of CBC and Clp (lp_solver.h). */
#include "lp_solver.h"

#include <Cbc_C_Interface.h>
#include <Clp_C_Interface.h>
#include <fcntl.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

int solver_end_in_time(double took, double limit, int threads) {
  return took * (threads > 1 ? threads : 1) < SOLVER_END_SHARE * limit;
}

void cbc_limits_init(cbc_limits *lim) {
  memset(lim, 0, sizeof *lim);
  lim->seconds = CBC_NO_LIMIT;
  lim->threads = 1;
  lim->allowable_gap = 1e-9;
  lim->cutoff = INFINITY;
}

/* ------------------------------------------------------------------ */
/* The runs in progress                                                */
/* ------------------------------------------------------------------ */

/* One CBC run: its model and the caller's callbacks. */
typedef struct cbc_call {
  Cbc_Model *m;
  const cbc_callbacks *cb;
  int log;          /* the log level asked for */
  atomic_flag lock; /* CBC may call back from several threads */
  atomic_int stopped;
} cbc_call;

/* CBC's message callback is given the model and no user pointer (its cut
 * callback has one): the runs in progress in this process are listed
 * here, so that a message finds its run by the model. */
#define CBC_CALLS 64
static _Atomic(cbc_call *) cbc_calls[CBC_CALLS];

static int cbc_enlist(cbc_call *C) {
  for (int i = 0; i < CBC_CALLS; i++) {
    cbc_call *none = NULL;
    if (atomic_compare_exchange_strong(&cbc_calls[i], &none, C)) return i;
  }
  return -1; /* no room: the run goes without progress */
}

static cbc_call *cbc_find(const Cbc_Model *m) {
  for (int i = 0; i < CBC_CALLS; i++) {
    cbc_call *C = atomic_load(&cbc_calls[i]);
    if (C && C->m == m) return C;
  }
  return NULL;
}

static void cbc_lock(cbc_call *C) {
  while (atomic_flag_test_and_set(&C->lock)) {
  }
}

static void cbc_unlock(cbc_call *C) { atomic_flag_clear(&C->lock); }

/* CBC's log lines that carry an incumbent or a bound. */
static void cbc_on_message(Cbc_Model *model, int msgno, int nd, const double *d, int ni,
                           const int *iv, int nc, char **cv) {
  (void)nc, (void)cv;
  cbc_call *C = cbc_find(model);
  if (!C || !C->cb->progress) return;
  double inc = INFINITY, bnd = -INFINITY;
  int nodes = -1;
  switch (msgno) {
  case 4:
  case 12:
  case 16:
  case 24:
  case 33: /* new integer solutions */
    if (nd >= 1) inc = d[0];
    break;
  case 10: /* After %d nodes, %d on tree, %g best solution, best possible %g */
    if (nd >= 2) inc = d[0], bnd = d[1];
    if (ni >= 1) nodes = iv[0];
    break;
  case 5: /* Partial search - best objective %g (best possible %g) */
    if (nd >= 2) inc = d[0], bnd = d[1];
    break;
  case 13: /* At root node, %d cuts changed objective from %g to %g */
    if (nd >= 2) bnd = d[1];
    break;
  default:
    return;
  }
  cbc_lock(C);
  C->cb->progress(C->cb->ctx, inc, bnd, nodes);
  cbc_unlock(C);
}

/* The stop (lp_solver.h), and the log level put back. */
static void cbc_on_cuts(void *osi, void *cuts, void *appdata) {
  cbc_call *C = appdata;
  if (!C->cb->stop(C->cb->ctx)) {
    cbc_lock(C);
    if (Cbc_getLogLevel(C->m) < C->log) Cbc_setLogLevel(C->m, C->log);
    cbc_unlock(C);
    return;
  }
  atomic_store(&C->stopped, 1);
  if (Osi_getNumCols(osi) < 1) return;
  int col = 0;
  double one = 1;
  OsiCuts_addRowCut(cuts, 1, &col, &one, 'G', Osi_getColUpper(osi)[0] + 1);
}

/* ------------------------------------------------------------------ */
/* CBC                                                                 */
/* ------------------------------------------------------------------ */

static void cbc_setp(Cbc_Model *m, const char *name, const char *fmt, double v) {
  char buf[64];
  snprintf(buf, sizeof buf, fmt, v);
  Cbc_setParameter(m, name, buf);
}

/* The model and its parameters; returns the time limit CBC has. */
static double cbc_setup(Cbc_Model *m, const lp_model *L, const cbc_limits *lim) {
  Cbc_loadProblem(m, L->ncols, L->nrows, L->start, L->index, L->value, L->collb, L->colub,
                  L->obj, L->rowlb, L->rowub);
  for (int j = 0; j < L->ncols; j++)
    if (L->integer[j]) Cbc_setInteger(m, j);
  char sec[32];
  double limit = lim->seconds > CBC_MIN_SECONDS ? lim->seconds : CBC_MIN_SECONDS;
  snprintf(sec, sizeof sec, "%.3f", limit);
  cbc_setp(m, "log", "%.0f", lim->log);
  Cbc_setParameter(m, "timeMode", "elapsed");
  Cbc_setParameter(m, "sec", sec);
  if (lim->threads > 1) cbc_setp(m, "threads", "%.0f", lim->threads);
  cbc_setp(m, "ratioGap", "%.17g", lim->ratio_gap);
  cbc_setp(m, "allowableGap", "%.17g", lim->allowable_gap);
  if (lim->keep_clock && L->ncols > CBC_PUMP_MAX_COLS) Cbc_setParameter(m, "feas", "off");
  if (lim->heuristics_off) Cbc_setParameter(m, "heuristicsOnOff", "off");
  if (lim->bare_tree) {
    Cbc_setParameter(m, "cutsOnOff", "off");
    Cbc_setParameter(m, "strongBranching", "0");
    Cbc_setParameter(m, "scaling", "rowsonly");
  }
  if (lim->max_solutions > 0) cbc_setp(m, "maxSolutions", "%.0f", lim->max_solutions);
  if (isfinite(lim->cutoff)) cbc_setp(m, "cutoff", "%.17g", lim->cutoff);
  if (lim->nstart > 0)
    Cbc_setMIPStartI(m, lim->nstart, lim->start_col, lim->start_val);
  else
    Cbc_setParameter(m, "preprocess", "off");
  return atof(sec);
}

/* Cbc_solve with standard output (CBC's log) sent where lim->out says. */
static void cbc_solve_quiet(Cbc_Model *m, int out) {
  if (out == CBC_OUT_KEEP) {
    Cbc_solve(m);
    return;
  }
  fflush(stdout);
  int saved = dup(1);
  int to = out == CBC_OUT_STDERR ? dup(2) : open("/dev/null", O_WRONLY);
  if (saved >= 0 && to >= 0) dup2(to, 1);
  if (to >= 0) close(to);
  Cbc_solve(m);
  fflush(stdout);
  if (saved >= 0) {
    dup2(saved, 1);
    close(saved);
  }
}

int cbc_run(const lp_model *L, const cbc_limits *lim, const cbc_callbacks *cb, double *x,
            cbc_result *res) {
  cbc_limits dflt;
  if (!lim) cbc_limits_init(&dflt), lim = &dflt;
  memset(res, 0, sizeof *res);
  Cbc_Model *m = Cbc_newModel();
  res->seconds = cbc_setup(m, L, lim);
  cbc_call C = {.m = m, .cb = cb, .log = lim->log};
  atomic_flag_clear(&C.lock);
  atomic_init(&C.stopped, 0);
  int slot = -1;
  if (cb && cb->progress && (slot = cbc_enlist(&C)) >= 0) Cbc_registerCallBack(m, cbc_on_message);
  if (cb && cb->stop) Cbc_addCutCallback(m, cbc_on_cuts, "remat-stop", &C);
  double t0 = util_now();
  cbc_solve_quiet(m, lim->out);
  double took = util_now() - t0;
  if (slot >= 0) atomic_store(&cbc_calls[slot], NULL);
  const double *sol = Cbc_bestSolution(m);
  res->status = Cbc_status(m);
  res->secondary = Cbc_secondaryStatus(m);
  res->optimal = Cbc_isProvenOptimal(m);
  res->infeasible = Cbc_isProvenInfeasible(m);
  res->finished = res->status == 0 && !Cbc_isSecondsLimitReached(m) && !Cbc_isAbandoned(m);
  res->in_time = solver_end_in_time(took, res->seconds, lim->threads);
  res->stopped = atomic_load(&C.stopped);
  res->have_x = sol != NULL;
  if (sol && x) memcpy(x, sol, (size_t)L->ncols * sizeof *x);
  res->obj = sol ? Cbc_getObjValue(m) : INFINITY;
  res->best_possible = Cbc_getBestPossibleObjValue(m);
  res->nodes = Cbc_getNodeCount(m);
  Cbc_deleteModel(m);
  return res->have_x;
}

/* ------------------------------------------------------------------ */
/* Clp                                                                 */
/* ------------------------------------------------------------------ */

int clp_run(const lp_model *L, double seconds, int method, double *x, clp_result *res) {
  Clp_Simplex *lp = Clp_newModel();
  Clp_setLogLevel(lp, 0);
  if (seconds > 0) Clp_setMaximumSeconds(lp, seconds);
  Clp_loadProblem(lp, L->ncols, L->nrows, L->start, L->index, L->value, L->collb, L->colub,
                  L->obj, L->rowlb, L->rowub);
  double t0 = util_now();
  if (method == CLP_DUAL)
    Clp_initialDualSolve(lp);
  else
    Clp_initialSolve(lp);
  res->status = Clp_status(lp);
  res->in_time = seconds <= 0 || solver_end_in_time(util_now() - t0, seconds, 1);
  res->obj = res->status == 0 ? Clp_objectiveValue(lp) : 0;
  if (res->status == 0 && x) memcpy(x, Clp_getColSolution(lp), (size_t)L->ncols * sizeof *x);
  Clp_deleteModel(lp);
  return res->status;
}
