/* worker_cp.c -- the portfolio's CP worker (worker_cp.h). */
#include "worker_cp.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bounds.h"
#include "decode.h"
#include "extsolver.h"
#include "gecode.h"
#include "model_any.h"
#include "sim.h"
#include "util.h"

/* On graphs small enough for the MILP, the CP runs alone for this many
 * seconds before it gives the MILP its share (cpw_run). */
#define CPW_FIRST 1.0

int cpw_init(cp_worker *W, best *B, const int *copies, char *err, size_t errlen) {
  const remat_solve_params *p = B->p;
  memset(W, 0, sizeof *W);
  W->B = B;
  W->end = best_deadline(B);
  mw_init(&W->milp, B);
  if (!copies) copies = p->copies;
  if (model_build_any(&W->md, p->free_order, B->g, 1, p->budget, copies,
                      p->default_copies, err, errlen))
    return 1;
  model_sol_alloc(&W->md, &W->x);
  return 0;
}

void cpw_free(cp_worker *W) {
  model_sol_free(&W->x);
  model_free(&W->md);
}

/* The solver's solution callback: decode, check, offer. */
static int cpw_on_solution(void *ctx, const char *text) {
  cp_worker *W = ctx;
  best *B = W->B;
  const model *md = &W->md;
  long long obj;
  char err[256];
  W->solutions++;
  if (decode_solution(md, text, &W->x, &obj, err, sizeof err)) {
    best_error(B, "cannot decode the solver's solution: %s", err);
    return 1;
  }
  int *seq, len;
  model_decode(md, &W->x, &seq, &len);
  remat_sim sim;
  int bad = remat_simulate(B->g, seq, len, &sim, NULL);
  int64_t cap = md->phase == 1 ? obj : md->cap;
  if (!bad && sim.peak > cap * md->mem_q) bad = 1;
  if (!bad && md->dur_exact) { /* the model's duration is the simulator's */
    int64_t extra = 0;
    for (int c = 0; c < md->ncopy; c++)
      if (W->x.a[c] && c != md->first[md->node[c]]) extra += md->dur[md->node[c]];
    if (sim.duration != B->r->base_duration + extra * md->dur_q) bad = 1;
  }
  if (bad) {
    char detail[300];
    snprintf(detail, sizeof detail, "phase %d: %s; peak %lld vs capacity %lld", md->phase,
             sim.valid ? "numbers differ" : sim.error, (long long)sim.peak,
             (long long)(cap * md->mem_q));
    best_error(B, "a solution does not re-simulate (%s)", detail);
    free(seq);
    return 1;
  }
  if (md->phase == 2 && obj < W->obj2) W->obj2 = obj;
  if (best_offer(B, seq, len, md->phase, md->phase == 1 ? "phase 1" : "phase 2") > 0)
    W->seen = B->version;
  free(seq);
  if (md->phase == 1 && B->fits) return 1; /* phase 1 is done */
  return best_stopped(B);
}

/* Adopt a better schedule found by another worker: write its values. */
static int cpw_adopt(cp_worker *W, int *values) {
  best *B = W->B;
  if (B->version == W->seen || !values) return 0;
  int len;
  long version;
  int *seq = best_copy(B, &len, &version);
  W->seen = version;
  int ok = seq && !model_encode(&W->md, seq, len, &W->x);
  if (ok && W->md.phase == 2 && !B->fits) ok = 0;
  if (ok) fzn_layout_values(&W->layout, &W->x, values);
  free(seq);
  return ok;
}

/* Gecode's neighbourhood callback: another worker's better schedule at a
 * restart, else cp_nbh's choice. */
static int cpw_nbh(void *ctx, long long restart, int n, int *values, int have_solution,
                   unsigned char *fix) {
  cp_worker *W = ctx;
  best *B = W->B;
  if (best_stopped(B) || (W->md.phase == 1 && B->fits)) W->stop = 1;
  best_status(B, W->md.phase, "searches", restart);
  if (restart > 0 && cpw_adopt(W, values)) {
    memset(fix, 1, (size_t)n);
    return GZ_NBH_FIX;
  }
  return nbh_neighbourhood(&W->nbh, restart, n, values, have_solution, fix);
}

static void cpw_tick(void *ctx) {
  cp_worker *W = ctx;
  best_status(W->B, W->md.phase, "seconds", (long long)best_elapsed(W->B));
}

/* Run the external solver on a temporary file. */
static gz_status cpw_external(cp_worker *W, const util_buf *fzn, gz_stats *st, char *err,
                              size_t errlen) {
  best *B = W->B;
  char path[] = "/tmp/remat-XXXXXX.fzn";
  int fd = mkstemps(path, 4);
  if (fd < 0) {
    util_err(err, errlen, 0, "cannot create a temporary file");
    return GZ_ERROR;
  }
  FILE *f = fdopen(fd, "w");
  fwrite(fzn->s, 1, fzn->len, f);
  fclose(f);
  ext_params ep = {B->p->fzn_solver, best_deadline(B), B->p->stop, cpw_on_solution, W,
                   cpw_tick};
  gz_status status = ext_solve(path, &ep, st, err, errlen);
  unlink(path);
  return status;
}

/* --keep-fzn: the phase's FlatZinc, as written. */
static void cpw_keep(const cp_worker *W, const util_buf *text, int phase) {
  const char *keep = W->B->p->keep_fzn;
  if (!keep) return;
  char path[4096];
  snprintf(path, sizeof path, "%s.phase%d.fzn", keep, phase);
  FILE *f = fopen(path, "w");
  if (f) {
    fwrite(text->s, 1, text->len, f);
    fclose(f);
  }
}

/* One phase of the CP worker, from the shared best (or lowest peak). */
static gz_status cpw_phase(cp_worker *W, int phase) {
  best *B = W->B;
  const remat_solve_params *p = B->p;
  model *md = &W->md;
  md->phase = phase;
  int len;
  int *seq = best_copy(B, &len, &W->seen);
  model_sol init;
  model_sol_alloc(md, &init);
  fzn_params fp;
  fzn_params_init(&fp);
  fp.external = p->fzn_solver != NULL;
  if (seq && !model_encode(md, seq, len, &init)) fp.initial = &init;
  free(seq);
  util_buf text = {0};
  fzn_write(md, &fp, &text, &W->layout);
  cpw_keep(W, &text, phase);
  W->solutions = 0;
  W->obj2 = INT64_MAX;
  W->stop = 0;
  nbh_init(&W->nbh, md, &W->layout, p->lns, p->seed + (unsigned)phase, &W->solutions);
  gz_stats st;
  memset(&st, 0, sizeof st);
  char err[1024] = "";
  gz_status status;
  double left = best_left_by(B, W->end);
  if (left <= 0) { /* the time ran out while writing: a limit of 0 is none */
    status = GZ_UNKNOWN;
  } else if (p->fzn_solver) {
    status = cpw_external(W, &text, &st, err, sizeof err);
  } else {
    gz_params gp;
    gz_params_init(&gp);
    gp.time_limit = left;
    gp.threads = 1; /* restarts are what make LNS work; see gecode.h */
    gp.seed = p->seed;
    gp.stop = &W->stop;
    gp.on_solution = cpw_on_solution;
    gp.ctx = W;
    gp.neighbourhood = cpw_nbh;
    gp.nbh_ctx = W;
    status = gz_solve(text.s, text.len, &gp, &st, err, sizeof err);
  }
  if (status == GZ_ERROR)
    best_error(B, "solver error: %s", err);
  else /* the last phase's word (ext_solve's note, or "") */
    snprintf(B->unproven, sizeof B->unproven, "%.255s", err);
  best_stats(B, &st);
  best_verbose(B, "CP phase %d: %s, %lld solutions, %lld nodes, %lld fails, %lld searches, %.2fs",
               phase,
               status == GZ_OPTIMAL ? "complete" : status == GZ_UNSAT ? "unsatisfiable" : "stopped",
               st.solutions, st.nodes, st.fails, st.searches, st.seconds);
  nbh_free(&W->nbh);
  fzn_layout_free(&W->layout);
  util_buf_free(&text);
  model_sol_free(&init);
  return status;
}

/* Phase 1 while nothing fits, then phase 2, until W->end. */
static void cpw_phases(cp_worker *W) {
  best *B = W->B;
  if (W->complete) return;
  if (!B->fits && !best_stopped(B) && best_left_by(B, W->end) > 0) {
    gz_status st = cpw_phase(W, 1);
    /* complete without a fitting schedule: nothing fits (in the model,
     * with exact memory; rounded memory only proves it for the scaled
     * model) */
    if (!B->fits && (st == GZ_UNSAT || st == GZ_OPTIMAL) && !best_interrupted(B)) {
      W->complete = 1;
      if (W->md.mem_exact) {
        B->proven = 1;
        B->done = 1;
      }
    }
  }
  if (B->fits && !best_stopped(B) && best_left_by(B, W->end) > 0) {
    gz_status st = cpw_phase(W, 2);
    if (st == GZ_OPTIMAL) W->complete = 1;
    /* optimal in the model: with exact sizes and durations, a proof; with
     * rounded durations a bound (best_cp_rounded); with rounded sizes
     * nothing (the model leaves out schedules that fit M) */
    if (st == GZ_OPTIMAL && W->md.mem_exact && W->md.dur_exact) {
      B->proven = 1;
      B->done = 1;
    } else if (st == GZ_OPTIMAL && W->md.mem_exact && W->obj2 < INT64_MAX) {
      best_cp_rounded(B, bounds_rounded(B->g, &W->md, W->obj2), W->md.dur_q);
    }
  }
}

void cpw_run(cp_worker *W) {
  if (mw_due(&W->milp)) {
    deadline end = W->end;
    W->end = deadline_sooner(deadline_in(CPW_FIRST), end);
    cpw_phases(W);
    W->end = end;
    mw_wait(&W->milp, W->end); /* also reaps a child started before the threads */
  }
  cpw_phases(W);
}
