/* worker_milp.c -- Checkmate's MILP inside the solve (worker_milp.h). */
#include "worker_milp.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "milp.h"
#include "shares.h"
#include "sim.h"
#include "util.h"

/* The MILP gets its share of the CP worker's time (shares.h) on graphs of
 * at most this many nodes and MILP nonzeros (the larger one when nothing
 * fits as it starts: its first schedule, then its proof from there, need
 * two CBC runs) ... */
#define MW_NODES 200
#define MW_NONZEROS 1000000
/* ... and, when the CP proves that nothing fits, this much longer to say
 * whether more copies would help. */
#define MW_ANY_WAIT 2.0

/* Shared with the child. */
struct milp_worker_out {
  /* child -> parent */
  _Atomic int done;      /* the child has written everything */
  _Atomic int fit_ready; /* A found a schedule within budget: seq, len */
  int rc, status, len;   /* A's outcome */
  int any;               /* after A's proof, without the C_v rows: 0 not
                            run, 1 proven infeasible, 2 a schedule fits */
  int any_copies;        /* the most copies of a node in that one */
  int optimal;           /* B proved its schedule optimal: opt, opt_len */
  int opt_len;
  char message[256];
  /* parent -> child */
  _Atomic int parent_fits; /* stop A */
  _Atomic int start_ready; /* start, start_len: the parent's best */
  int start_len;
  int buf[]; /* seq, opt, start: cap entries each */
};

void mw_init(milp_worker *M, best *B) {
  memset(M, 0, sizeof *M);
  M->B = B;
}

/* (The MILP's sizes are scaled so that CBC's tolerances cannot cut off a
 * schedule: milp_model.h.) */
static int mw_wanted(const best *B) {
  const remat_solve_params *p = B->p;
  return !p->fzn_solver && !p->free_order && B->g->n <= MW_NODES;
}

int mw_due(const milp_worker *M) { return M->out || (!M->ran && mw_wanted(M->B)); }

static int *mw_seq(milp_worker *M, int k) { return M->out->buf + (size_t)k * M->cap; }

static int mw_parent_fits(void *ctx) {
  milp_worker_out *o = ctx;
  return o->parent_fits;
}

static void mw_params(milp_worker *M, milp_params *mp, const int *copies, double limit) {
  const best *B = M->B;
  milp_params_init(mp);
  mp->budget = B->p->budget;
  mp->time_limit = limit;
  mp->threads = 1;
  mp->verbose = 0;
  mp->stop = B->p->stop;
  mp->max_nonzeros = MW_NONZEROS;
  mp->copies = copies;
}

/* A with (copies) or without (NULL) the C_v rows; stops when the parent
 * has a schedule within budget. */
static int mw_first(milp_worker *M, const int *copies, double limit, remat_result *r) {
  const best *B = M->B;
  milp_params mp;
  mw_params(M, &mp, copies, limit);
  mp.first_fit = 1;
  mp.halt = mw_parent_fits;
  mp.halt_ctx = M->out;
  remat_result_init(r, B->g, B->p->budget, "milp");
  return milp_solve(B->g, &mp, r, NULL);
}

/* A, in the child.  Returns 1 when B should follow. */
static int mw_child_a(milp_worker *M, double t0) {
  const best *B = M->B;
  milp_worker_out *o = M->out;
  remat_result r;
  o->rc = mw_first(M, B->r->copies, M->limit, &r);
  o->status = r.status;
  snprintf(o->message, sizeof o->message, "%.255s", r.message);
  int fits = o->rc == REMAT_OK && r.seq && r.len <= M->cap;
  if (fits) {
    memcpy(mw_seq(M, 0), r.seq, (size_t)r.len * sizeof *r.seq);
    o->len = r.len;
    o->fit_ready = 1;
  }
  remat_result_free(&r);
  double left = M->limit - (util_now() - t0);
  if (o->rc == REMAT_ENOFIT && o->status == REMAT_STATUS_INFEASIBLE && !o->parent_fits) {
    if (left > 0.1 && !child_stopping()) {
      int rc = mw_first(M, NULL, left, &r);
      if (rc == REMAT_ENOFIT && r.status == REMAT_STATUS_INFEASIBLE) o->any = 1;
      if (rc == REMAT_OK && r.seq) {
        o->any_copies = sim_most_copies(B->g, r.seq, r.len);
        o->any = 2;
      }
      remat_result_free(&r);
    }
    return 0;
  }
  return fits || o->parent_fits;
}

/* B, in the child: wait for the parent's best, then CBC from it. */
static void mw_child_b(milp_worker *M, double t0) {
  const best *B = M->B;
  milp_worker_out *o = M->out;
  while (!o->start_ready && !child_stopping() && util_now() - t0 < M->limit) child_nap();
  double left = M->limit - (util_now() - t0);
  if (!o->start_ready || child_stopping() || left <= 0.1) return;
  milp_params mp;
  mw_params(M, &mp, B->r->copies, left);
  mp.start = mw_seq(M, 2);
  mp.start_len = o->start_len;
  remat_result r;
  remat_result_init(&r, B->g, B->p->budget, "milp");
  int rc = milp_solve(B->g, &mp, &r, NULL);
  if (rc == REMAT_OK && r.status == REMAT_STATUS_OPTIMAL && r.seq && r.len <= M->cap) {
    memcpy(mw_seq(M, 1), r.seq, (size_t)r.len * sizeof *r.seq);
    o->opt_len = r.len;
    o->optimal = 1;
  }
  remat_result_free(&r);
}

static void mw_child(void *ctx) {
  milp_worker *M = ctx;
  milp_worker_out *o = M->out;
  double t0 = util_now();
  if (o->parent_fits || mw_child_a(M, t0)) mw_child_b(M, t0);
  o->done = 1;
}

void mw_start(milp_worker *M, deadline end) {
  best *B = M->B;
  if (M->out || M->ran || !mw_wanted(B)) return;
  if (best_stopped(B) && !best_nothing_fits(B)) return;
  M->ran = 1;
  size_t n = (size_t)B->g->n;
  M->cap = (int)(n * (n + 1) / 2 + n); /* Checkmate: stage t computes nodes <= t */
  M->bytes = sizeof(milp_worker_out) + 3 * (size_t)M->cap * sizeof(int);
  M->out = child_shared(M->bytes);
  M->out->parent_fits = B->fits;
  share_id share = B->fits ? SHARE_MILP_IN_CP : SHARE_MILP_IN_CP_UNFIT;
  M->limit = best_left_by(B, end) * time_share(share);
  M->t0 = best_elapsed(B);
  child_start(&M->ch, mw_child, M);
}

/* While the parent waits: take A's schedule; once something fits, stop A
 * and hand over the best schedule; stop the child on a stop. */
static int mw_poll(void *ctx) {
  milp_worker *M = ctx;
  best *B = M->B;
  milp_worker_out *o = M->out;
  if (o->fit_ready && !M->taken) {
    M->taken = 1;
    if (best_offer(B, mw_seq(M, 0), o->len, 1, "MILP") < 0)
      best_error(B, "%s produced an invalid schedule", "the MILP");
  }
  if (B->fits && !o->start_ready) {
    int len;
    int *seq = best_copy(B, &len, NULL);
    if (seq && len <= M->cap) {
      memcpy(mw_seq(M, 2), seq, (size_t)len * sizeof *seq);
      o->start_len = len;
      o->start_ready = 1;
    }
    free(seq);
    o->parent_fits = 1;
  }
  if (best_nothing_fits(B)) {
    /* the CP or the covering bound proved that nothing fits: give the
     * MILP a little longer to say whether more copies would help */
    if (M->any_until <= 0) M->any_until = best_elapsed(B) + MW_ANY_WAIT;
    return best_elapsed(B) > M->any_until;
  }
  return best_stopped(B);
}

/* A's proof that nothing fits. */
static const char *mw_proof(milp_worker *M) {
  best *B = M->B;
  milp_worker_out *o = M->out;
  B->proof.milp = o->any ? o->any : 3;
  B->proof.milp_copies = o->any_copies;
  B->proven = 1;
  B->done = 1;
  return o->any == 1   ? "proven infeasible, with any number of copies"
         : o->any == 2 ? "proven infeasible with C_v copies, not with more"
                       : "proven infeasible with C_v copies";
}

/* B's optimum: the best schedule is optimal when it is as short. */
static const char *mw_optimum(milp_worker *M) {
  best *B = M->B;
  milp_worker_out *o = M->out;
  if (best_offer(B, mw_seq(M, 1), o->opt_len, 2, "MILP") < 0) {
    best_error(B, "%s produced an invalid schedule", "the MILP");
    return "an invalid schedule";
  }
  remat_sim sim;
  remat_simulate(B->g, mw_seq(M, 1), o->opt_len, &sim, NULL); /* valid: offered */
  if (sim.peak > B->p->budget) {
    best_error(B, "%s proved an optimum that does not fit the budget", "Checkmate's MILP");
    return "an optimum that does not fit (an internal error)";
  }
  int rc = best_check_optimum(B, sim.duration, "Checkmate's MILP");
  if (rc < 0) return "an optimum above a schedule within budget (an internal error)";
  if (rc == 0) return "no proof taken";
  B->proof.milp = 4;
  B->proven = 1;
  B->done = 1;
  return "proven optimal";
}

void mw_wait(milp_worker *M, deadline end) {
  best *B = M->B;
  mw_start(M, end); /* when not started before the threads */
  milp_worker_out *o = M->out;
  if (!o) return;
  int signo = 0;
  /* the child stops itself at its limit, CBC at most MILP_GRACE later */
  child_end how = child_wait(&M->ch, M->limit + 3.0, best_child_grace(B, 1.0), mw_poll, M, &signo);
  mw_poll(M); /* A's schedule, if it came last */
  const char *what = best_stopped(B) ? "stopped" : "no answer";
  if (how == CHILD_CRASHED) {
    what = "the child died of a signal";
  } else if (!o->done) {
    what = "stopped";
  } else if (o->rc == REMAT_EINTERNAL) {
    best_error(B, "MILP: %.400s", o->message);
  } else if (o->optimal) {
    what = mw_optimum(M);
  } else if (o->rc == REMAT_ENOFIT && o->status == REMAT_STATUS_INFEASIBLE && !o->parent_fits &&
             !B->fits && !best_interrupted(B) && !B->internal) {
    what = mw_proof(M); /* also after the CP's own proof: says more */
  } else if (o->rc == REMAT_EUSAGE) {
    what = "too large";
  } else if (M->taken) {
    what = "a schedule within budget, no proof of optimality";
  }
  best_verbose(B, "MILP (CBC, C_v rows): %s, %.2fs", what, best_elapsed(B) - M->t0);
  child_shared_free(o, M->bytes);
  M->out = NULL;
}
