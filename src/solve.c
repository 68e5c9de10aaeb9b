/* solve.c -- the two-phase CP driver (remat_solve).
 *
 *   0. bounds and seeds: the budget against max_v (m_v + inputs); the input
 *      order; the C heuristics; a caller's warm start;
 *   1. phase 1 (only if nothing fits yet): minimise max(peak, M) from the
 *      lowest-peak schedule known, stop at the first schedule within M;
 *   2. phase 2: peak <= M, minimise the duration from the best schedule.
 * Every solver solution is decoded, re-simulated and offered to the result;
 * a decoded schedule that disagrees with the solver is an internal error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "decode.h"
#include "extsolver.h"
#include "fzn.h"
#include "gecode.h"
#include "graph.h"
#include "heur.h"
#include "lns.h"
#include "local.h"
#include "model.h"
#include "progress.h"
#include "sublns.h"
#include "remat.h"
#include "util.h"

void remat_solve_params_init(remat_solve_params *p) {
  memset(p, 0, sizeof *p);
  p->default_copies = 2;
  p->time_limit = 60;
  p->seed = 1;
  p->heuristics = 1;
  p->lns = REMAT_LNS_AUTO;
  p->verbose = 1;
}

typedef struct solve_ctx {
  const remat_graph *g;
  const remat_solve_params *p;
  remat_result *r;
  model md;
  fzn_layout layout;
  model_sol x;
  lns lns;
  prog pr;
  double t0;
  long long solutions; /* solutions of the current phase */
  int fits;            /* the best schedule is within budget */
  int internal;        /* an internal error happened */
  char errmsg[512];
} solve_ctx;

static double solve_elapsed(const solve_ctx *S) { return util_now() - S->t0; }

static double solve_left(const solve_ctx *S) {
  double left = S->p->time_limit - solve_elapsed(S);
  return left > 0 ? left : 0;
}

static int solve_stopped(const solve_ctx *S) {
  return S->p->stop && *S->p->stop;
}

static void solve_report(solve_ctx *S, int phase, const char *what) {
  const remat_result *r = S->r;
  prog_line(&S->pr, "[%7.2fs] %-9s peak %lld (%.1f%% of budget)  TDI %.2f%%%s",
            solve_elapsed(S), what, (long long)r->peak,
            100.0 * (double)r->peak / (double)r->budget, r->tdi,
            r->recomputations ? "" : "  no recomputation");
  (void)phase;
}

/* Offer a schedule to the result; report an improvement. */
static int solve_offer(solve_ctx *S, const int *seq, int len, int phase,
                       const char *what) {
  int rc = remat_result_offer(S->r, S->g, seq, len, phase, solve_elapsed(S));
  if (rc > 0) {
    S->fits = S->r->peak <= S->r->budget;
    solve_report(S, phase, what);
  }
  return rc;
}

static int solve_heur_found(void *ctx, const int *seq, int len,
                            const char *name) {
  solve_ctx *S = ctx;
  if (solve_offer(S, seq, len, 0, name) < 0) {
    S->internal = 1;
    snprintf(S->errmsg, sizeof S->errmsg,
             "heuristic %s produced an invalid schedule", name);
    return 1;
  }
  return solve_stopped(S);
}

/* The solver's solution callback: decode, check, offer. */
static int solve_on_solution(void *ctx, const char *text) {
  solve_ctx *S = ctx;
  const model *md = &S->md;
  long long obj;
  char err[256];
  S->solutions++;
  if (decode_solution(md, text, &S->x, &obj, err, sizeof err)) {
    S->internal = 1;
    snprintf(S->errmsg, sizeof S->errmsg, "cannot decode the solver's solution: %s", err);
    return 1;
  }
  int *seq, len;
  model_decode(md, &S->x, &seq, &len);
  remat_sim sim;
  int bad = remat_simulate(S->g, seq, len, &sim, NULL);
  int64_t claimed_cap = md->phase == 1 ? obj : md->cap;
  if (!bad && sim.peak > (int64_t)claimed_cap * md->mem_q) bad = 1;
  if (!bad && md->dur_exact) { /* the model's duration is the simulator's */
    int64_t extra = 0;
    for (int c = 0; c < md->ncopy; c++)
      if (S->x.a[c] && c != md->first[md->node[c]]) extra += md->dur[md->node[c]];
    if (sim.duration != S->r->base_duration + extra * md->dur_q) bad = 1;
  }
  if (bad) {
    S->internal = 1;
    snprintf(S->errmsg, sizeof S->errmsg,
             "phase %d solution does not re-simulate (%s; peak %lld vs "
             "capacity %lld)",
             md->phase, sim.valid ? "numbers differ" : sim.error,
             (long long)sim.peak, (long long)claimed_cap * md->mem_q);
    free(seq);
    return 1;
  }
  solve_offer(S, seq, len, md->phase, md->phase == 1 ? "phase 1" : "phase 2");
  free(seq);
  if (md->phase == 1 && S->fits) return 1; /* phase 1 is done */
  return solve_stopped(S);
}

static int solve_nbh(void *ctx, long long restart, int n, const int *values,
                     int have_solution, unsigned char *fix) {
  solve_ctx *S = ctx;
  const remat_result *r = S->r;
  if (r->seq)
    prog_status(&S->pr, "[%7.2fs] phase %d  best peak %lld  TDI %.2f%%  restarts %lld",
                solve_elapsed(S), S->md.phase, (long long)r->peak, r->tdi, restart);
  return lns_neighbourhood(&S->lns, restart, n, values, have_solution, fix);
}

static void solve_tick(void *ctx) {
  solve_ctx *S = ctx;
  const remat_result *r = S->r;
  if (r->seq)
    prog_status(&S->pr, "[%7.2fs] phase %d  best peak %lld  TDI %.2f%%",
                solve_elapsed(S), S->md.phase, (long long)r->peak, r->tdi);
}

/* Run the external solver on a temporary file. */
static gz_status solve_external(solve_ctx *S, const util_buf *fzn,
                                gz_stats *st, char *err, size_t errlen) {
  char path[] = "/tmp/remat-XXXXXX.fzn";
  int fd = mkstemps(path, 4);
  if (fd < 0) {
    util_err(err, errlen, 0, "cannot create a temporary file");
    return GZ_ERROR;
  }
  FILE *f = fdopen(fd, "w");
  fwrite(fzn->s, 1, fzn->len, f);
  fclose(f);
  ext_params ep = {S->p->fzn_solver, solve_left(S), S->p->stop,
                   solve_on_solution, S, solve_tick};
  gz_status status = ext_solve(path, &ep, st, err, errlen);
  unlink(path);
  return status;
}

/* Reduced-model LNS for large models (whole-model restarts get slow). */
static int solve_use_sub(const solve_ctx *S, const model_sol *initial) {
  if (!initial || S->p->fzn_solver || S->p->lns == REMAT_LNS_NONE) return 0;
  const char *env = getenv("REMAT_SUB");
  if (env) return atoi(env);
  return S->md.ncopy > 400;
}

static void solve_sub_tick(void *ctx, long long steps) {
  solve_ctx *S = ctx;
  const remat_result *r = S->r;
  if (r->seq)
    prog_status(&S->pr, "[%7.2fs] phase %d  best peak %lld  TDI %.2f%%  neighbourhoods %lld",
                solve_elapsed(S), S->md.phase, (long long)r->peak, r->tdi, steps);
}

static gz_status solve_phase_sub(solve_ctx *S) {
  model *md = &S->md;
  sublns_params sp;
  sublns_params_init(&sp);
  sp.time_limit = solve_left(S);
  sp.stop = S->p->stop;
  sp.seed = S->p->seed + (unsigned)md->phase;
  sp.found = solve_heur_found;
  sp.ctx = S;
  sp.on_tick = solve_sub_tick;
  gz_stats st;
  char err[1024] = "";
  /* phase 2 starts from the best schedule, phase 1 from the lowest peak */
  gz_status status = sublns_run(md, S->r->seq, S->r->len, &sp, &st, err, sizeof err);
  prog_done(&S->pr);
  if (status == GZ_ERROR && !S->internal) {
    S->internal = 1;
    snprintf(S->errmsg, sizeof S->errmsg, "solver error in phase %d: %.400s",
             md->phase, err);
  }
  remat_result *r = S->r;
  r->nodes += st.nodes;
  r->fails += st.fails;
  r->restarts += st.searches;
  r->solutions += st.solutions;
  r->propagations += st.propagations;
  if (S->p->verbose > 1)
    prog_line(&S->pr, "phase %d: window LNS, %lld windows, %lld solutions, %lld "
                      "nodes, %.2fs",
              md->phase, st.searches, st.solutions, st.nodes, st.seconds);
  /* GZ_OPTIMAL: phase 2 has no recomputation left (the base duration is a
   * lower bound), or phase 1 reached the budget */
  return status;
}

/* One phase.  initial: warm start (may be NULL). */
static gz_status solve_phase(solve_ctx *S, int phase, const model_sol *initial) {
  model *md = &S->md;
  md->phase = phase;
  S->solutions = 0;
  if (solve_use_sub(S, initial)) return solve_phase_sub(S);
  fzn_params fp;
  fzn_params_init(&fp);
  fp.initial = initial;
  fp.external = S->p->fzn_solver != NULL;
  util_buf text = {0};
  fzn_write(md, &fp, &text, &S->layout);
  if (S->p->keep_fzn) {
    char path[4096];
    snprintf(path, sizeof path, "%s.phase%d.fzn", S->p->keep_fzn, phase);
    FILE *f = fopen(path, "w");
    if (f) {
      fwrite(text.s, 1, text.len, f);
      fclose(f);
    }
  }
  lns_init(&S->lns, md, &S->layout, S->p->lns, S->p->seed + (unsigned)phase,
           &S->solutions);
  gz_stats st;
  memset(&st, 0, sizeof st);
  char err[1024] = "";
  gz_status status;
  if (S->p->fzn_solver) {
    status = solve_external(S, &text, &st, err, sizeof err);
  } else {
    gz_params gp;
    gz_params_init(&gp);
    gp.time_limit = solve_left(S);
    gp.threads = S->p->threads;
    gp.seed = S->p->seed;
    gp.stop = S->p->stop;
    gp.on_solution = solve_on_solution;
    gp.ctx = S;
    gp.neighbourhood = solve_nbh;
    gp.nbh_ctx = S;
    status = gz_solve(text.s, text.len, &gp, &st, err, sizeof err);
  }
  prog_done(&S->pr);
  if (status == GZ_ERROR && !S->internal) {
    S->internal = 1;
    snprintf(S->errmsg, sizeof S->errmsg, "solver error in phase %d: %.400s",
             phase, err);
  }
  remat_result *r = S->r;
  r->nodes += st.nodes;
  r->fails += st.fails;
  r->restarts += st.restarts;
  r->solutions += st.solutions;
  r->propagations += st.propagations;
  if (S->p->verbose > 1)
    prog_line(&S->pr,
              "phase %d: %s, %lld solutions, %lld nodes, %lld fails, %lld "
              "searches, %.2fs",
              phase,
              status == GZ_OPTIMAL ? "complete" : status == GZ_UNSAT ? "unsatisfiable" : "stopped",
              st.solutions, st.nodes, st.fails, st.searches, st.seconds);
  lns_free(&S->lns);
  fzn_layout_free(&S->layout);
  util_buf_free(&text);
  return status;
}

/* Encode the result's best schedule as a warm start; NULL if it cannot be
 * expressed in the model. */
static const model_sol *solve_warm(solve_ctx *S, model_sol *x) {
  const remat_result *r = S->r;
  if (!r->seq) return NULL;
  if (model_encode(&S->md, r->seq, r->len, x)) {
    if (S->p->verbose > 1)
      prog_line(&S->pr, "the best schedule is not expressible in the model; "
                        "starting cold");
    return NULL;
  }
  return x;
}

static int solve_finish(solve_ctx *S, int rc) {
  remat_result *r = S->r;
  r->t_total = solve_elapsed(S);
  r->interrupted = solve_stopped(S);
  if (S->internal) {
    snprintf(r->message, sizeof r->message, "internal error: %.480s", S->errmsg);
    return REMAT_EINTERNAL;
  }
  return rc;
}

static void solve_copies(solve_ctx *S) {
  remat_result *r = S->r;
  r->copies = util_malloc((size_t)S->g->n * sizeof *r->copies);
  for (int v = 0; v < S->g->n; v++)
    r->copies[v] = S->md.first[v + 1] - S->md.first[v];
}

int remat_solve(const remat_graph *g, const remat_solve_params *p,
                remat_result *r) {
  solve_ctx S;
  memset(&S, 0, sizeof S);
  S.g = g;
  S.p = p;
  S.r = r;
  S.t0 = util_now();
  prog_init(&S.pr, p->verbose);
  char err[256];
  if (p->budget <= 0) {
    snprintf(r->message, sizeof r->message, "the budget must be positive");
    return REMAT_EUSAGE;
  }
  if (p->budget < r->min_peak) {
    int arg = 0;
    for (int v = 0; v < g->n; v++) {
      int64_t s = g->m[v];
      for (int j = g->pred_off[v]; j < g->pred_off[v + 1]; j++) s += g->m[g->pred[j]];
      if (s == r->min_peak) {
        arg = v;
        break;
      }
    }
    r->status = REMAT_STATUS_INFEASIBLE;
    snprintf(r->message, sizeof r->message,
             "infeasible: budget %lld is below %lld, the memory node %s needs "
             "with its inputs (max over v of m_v + sum of its predecessors' "
             "m_u)",
             (long long)p->budget, (long long)r->min_peak, g->id[arg]);
    return solve_finish(&S, REMAT_ENOFIT);
  }
  if (model_build(&S.md, g, 1, p->budget, p->copies, p->default_copies, err,
                  sizeof err)) {
    snprintf(r->message, sizeof r->message, "%s", err);
    return REMAT_EUSAGE;
  }
  r->mem_quantum = S.md.mem_q;
  r->dur_quantum = S.md.dur_q;
  solve_copies(&S);
  model_sol_alloc(&S.md, &S.x);
  int *topo = util_malloc((size_t)g->n * sizeof *topo);
  for (int v = 0; v < g->n; v++) topo[v] = v;
  solve_offer(&S, topo, g->n, 0, "input order");
  free(topo);
  int rc = REMAT_OK;
  if (S.fits) { /* no recomputation needed: the base duration is optimal */
    r->status = REMAT_STATUS_OPTIMAL;
    r->has_bound = 1;
    r->bound = (double)r->base_duration;
    goto done;
  }
  /* 0. seeds */
  double th = util_now();
  if (p->warm_seq) solve_offer(&S, p->warm_seq, p->warm_len, 0, "warm start");
  if (p->heuristics) {
    heur_params hp;
    heur_params_init(&hp);
    hp.budget = p->budget;
    hp.copies = r->copies;
    hp.time_limit = p->time_limit * 0.05;
    if (getenv("REMAT_HEUR_SHARE")) hp.time_limit = p->time_limit * atof(getenv("REMAT_HEUR_SHARE"));
    hp.stop = p->stop;
    hp.seed = p->seed;
    hp.found = solve_heur_found;
    hp.ctx = &S;
    heur_run(g, &hp);
    if (getenv("REMAT_LS")) {
      ls_params lp;
      ls_params_init(&lp);
      lp.budget = p->budget;
      lp.copies = r->copies;
      lp.time_limit = p->time_limit * atof(getenv("REMAT_LS"));
      lp.stop = p->stop;
      lp.seed = p->seed;
      lp.start = r->seq;
      lp.start_len = r->len;
      lp.found = solve_heur_found;
      lp.ctx = &S;
      ls_run(g, &lp);
    }
  }
  r->t_phase[0] = util_now() - th;
  if (S.internal) goto done;
  /* 1. reach the budget */
  int proven = 0;
  model_sol warm;
  model_sol_alloc(&S.md, &warm);
  if (!S.fits && !solve_stopped(&S) && solve_left(&S) > 0) {
    double t1 = util_now();
    gz_status st = solve_phase(&S, 1, solve_warm(&S, &warm));
    r->t_phase[1] = util_now() - t1;
    if (!S.fits && st == GZ_OPTIMAL && S.md.mem_exact) proven = 1;
    if (!S.fits && st == GZ_UNSAT) proven = 1;
  }
  /* 2. minimise the duration */
  if (S.fits && !S.internal && !solve_stopped(&S) && solve_left(&S) > 0) {
    double t2 = util_now();
    gz_status st = solve_phase(&S, 2, solve_warm(&S, &warm));
    r->t_phase[2] = util_now() - t2;
    /* optimal in the model (the best can only beat that from outside it) */
    if (st == GZ_OPTIMAL) proven = 1;
  }
  model_sol_free(&warm);
  if (S.fits) {
    r->status = proven ? REMAT_STATUS_OPTIMAL : REMAT_STATUS_FEASIBLE;
    if (proven) {
      r->has_bound = 1;
      r->bound = (double)r->duration;
      if (!S.md.dur_exact)
        snprintf(r->message, sizeof r->message,
                 "optimal for durations rounded to multiples of %lld",
                 (long long)S.md.dur_q);
    }
  } else {
    rc = REMAT_ENOFIT;
    if (proven) {
      r->status = REMAT_STATUS_INFEASIBLE;
      snprintf(r->message, sizeof r->message,
               "proven infeasible: no schedule with at most C_v copies per "
               "node on the input order's stages fits %lld; best peak %lld",
               (long long)p->budget, (long long)r->peak);
    } else {
      r->status = REMAT_STATUS_OVER_BUDGET;
      snprintf(r->message, sizeof r->message,
               "out of time: no schedule within %lld found; best peak %lld "
               "(%.1f%% of budget)",
               (long long)p->budget, (long long)r->peak,
               100.0 * (double)r->peak / (double)p->budget);
    }
  }
done:
  model_sol_free(&S.x);
  model_free(&S.md);
  prog_done(&S.pr);
  return solve_finish(&S, rc);
}
