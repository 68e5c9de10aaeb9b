/* solve.c -- the two-phase CP driver (remat_solve).
 *
 *   0. bounds and seeds: the budget against max_v (m_v + inputs); the input
 *      order; the C heuristics (heur.c); a caller's warm start;
 *   1. phase 1 (only while nothing fits): minimise max(peak, M) from the
 *      lowest-peak schedule known, until a schedule fits M;
 *   2. phase 2: peak <= M, minimise the duration from the best schedule.
 * The phases run in workers sharing the best schedule:
 *   - the CP worker searches the whole model with Gecode (restarts,
 *     large-neighbourhood search chosen in lns.c); on small models its
 *     complete searches prove optimality or infeasibility; on small
 *     graphs, after a one-second slice, it waits for Checkmate's MILP
 *     (with C_v rows, in a child process), which finds a first schedule
 *     or proves that none fits, then proves the best one optimal, often
 *     far sooner (cp_milp);
 *   - the window worker runs window LNS (sublns.c): many small sub-models,
 *     fast on large graphs;
 *   - the annealing worker (anneal.c) moves recomputations around with a
 *     penalty on memory over budget: it reaches the budget and finds short
 *     schedules fast, but proves nothing.
 * Worker 0 is the CP on small models (at most SOLVE_SMALL copies) and a
 * window worker on larger ones; each further thread (--threads, default
 * all cores) adds an annealing worker, then a window worker, by turns,
 * each with its own seed.  Alone, worker 0 takes turns (solve_alone).
 * Without heuristics (--no-heuristic) nothing anneals.  Workers adopt each
 * other's improvements.  Every solver
 * solution is decoded, re-simulated and offered to the result; a decoded
 * schedule that disagrees with the solver is an internal error. */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "anneal.h"
#include "baseline.h"
#include "child.h"
#include "cover.h"
#include "decode.h"
#include "extsolver.h"
#include "fzn.h"
#include "gecode.h"
#include "graph.h"
#include "heur.h"
#include "lns.h"
#include "milp.h"
#include "model.h"
#include "progress.h"
#include "remat.h"
#include "sim.h"
#include "sublns.h"
#include "util.h"

/* Models with at most this many copies get the CP worker. */
#define SOLVE_SMALL 1000
#define SOLVE_MAX_WORKERS 16
/* A lone worker first anneals until no new best came for this long (and
 * for longer than the annealing took to find the last one), ... */
#define SOLVE_STALL 0.2
/* ... then gives the CP this share of the time left, then anneals again. */
#define SOLVE_SLICE 0.25
/* The CP worker gives Checkmate's MILP this share of its time on graphs
 * of at most this many nodes and MILP nonzeros (cp_milp) ... */
#define SOLVE_MILP_SHARE 0.5
#define SOLVE_MILP_NODES 200
#define SOLVE_MILP_NONZEROS 1000000
/* ... after this many seconds of the CP alone (cp_run); and when the CP
 * proves that nothing fits, waits this much longer for the MILP to say
 * whether more copies would help. */
#define SOLVE_CP_FIRST 1.0
#define SOLVE_ANY_WAIT 2.0

void remat_solve_params_init(remat_solve_params *p) {
  memset(p, 0, sizeof *p);
  p->default_copies = 2;
  p->time_limit = 60;
  p->seed = 1;
  p->heuristics = 1;
  p->lns = REMAT_LNS_AUTO;
  p->verbose = 1;
}

/* ------------------------------------------------------- shared state */

typedef struct shared {
  const remat_graph *g;
  const remat_solve_params *p;
  remat_result *r;
  pthread_mutex_t mu;
  prog pr;
  double t0;
  _Atomic int fits;      /* the best schedule is within budget */
  _Atomic long version;  /* bumped at every improvement */
  _Atomic int done;      /* a worker proved the result: stop the others */
  int proven;            /* optimal (fits) or infeasible (does not) */
  int milp_proof;        /* proven by the MILP: infeasible 1 with any
                            number of copies, 2 with C_v but a schedule
                            with milp_copies fits, 3 with C_v; 4 optimal */
  int milp_copies;
  struct cover_box *cov; /* the covering bound's child writes here (NULL:
                            not started; solve_cover_start) */
  child cov_child;
  _Atomic int cov_taken; /* its answer was read (sh_cover) */
  int cover_proof;       /* proven by the covering bound: 1 nothing fits
                            with C_v, 2 the best schedule is optimal */
  int internal;          /* an internal error happened */
  char errmsg[512];
  char unproven[256];    /* why the external solver ended by itself
                            without a proof (ext_solve), or "" */
} shared;

static double sh_elapsed(const shared *S) { return util_now() - S->t0; }

/* Seconds left until `end` (elapsed time) or the time limit. */
static double sh_left_by(const shared *S, double end) {
  if (end > S->p->time_limit) end = S->p->time_limit;
  double left = end - sh_elapsed(S);
  return left > 0 ? left : 0;
}

static double sh_left(const shared *S) { return sh_left_by(S, S->p->time_limit); }

/* The covering bound (cover.h), solved in a child process from the start
 * (CBC's root LP does not always look at the clock, child.h): its answer
 * is read by whichever thread next asks whether to stop (sh_stopped). */
typedef struct cover_box {
  cover_out out;
  int ready; /* set (release) after out is written */
} cover_box;


/* Keep the higher of r's lower bound and lb (covering bound, LP). */
static void solve_raise_bound(remat_result *r, double lb) {
  if (r->has_bound && lb <= r->bound) return;
  r->has_bound = 1;
  r->bound = lb;
}

/* With S->mu held: the best schedule fits and is at the lower bound. */
static void sh_at_bound(shared *S) {
  const remat_result *r = S->r;
  if (S->proven || !S->fits || !r->has_bound || (double)r->duration > r->bound) return;
  S->proven = 1;
  S->cover_proof = 2;
  S->done = 1;
  prog_line(&S->pr, "[%7.2fs] optimal   TDI %.3f%% is the covering bound", sh_elapsed(S),
            r->tdi);
}

/* With S->mu held: take the child's answer. */
static void sh_cover_take(shared *S) {
  const cover_out *o = &S->cov->out;
  remat_result *r = S->r;
  if (o->status == COVER_INFEASIBLE && !S->fits) {
    S->proven = 1;
    S->cover_proof = 1;
    S->done = 1;
  } else if (o->status == COVER_OPTIMAL || o->status == COVER_BOUND) {
    double lb = (double)(r->base_duration + o->increase);
    solve_raise_bound(r, lb);
    prog_line(&S->pr, "[%7.2fs] bound     TDI >= %.3f%% (covering bound%s)", sh_elapsed(S),
              remat_tdi(S->r->base_duration, lb), o->status == COVER_BOUND ? ", out of time" : "");
    sh_at_bound(S);
  }
}

static void sh_cover(shared *S) {
  if (!S->cov || S->cov_taken || !__atomic_load_n(&S->cov->ready, __ATOMIC_ACQUIRE)) return;
  pthread_mutex_lock(&S->mu);
  if (!S->cov_taken) {
    S->cov_taken = 1;
    sh_cover_take(S);
  }
  pthread_mutex_unlock(&S->mu);
}

static int sh_stopped(shared *S) {
  sh_cover(S);
  return S->done || S->internal || (S->p->stop && *S->p->stop);
}

static void sh_error(shared *S, const char *fmt, const char *detail) {
  pthread_mutex_lock(&S->mu);
  if (!S->internal) {
    S->internal = 1;
    snprintf(S->errmsg, sizeof S->errmsg, fmt, detail);
  }
  pthread_mutex_unlock(&S->mu);
}

/* The search ended with a proof that nothing fits (the MILP may still
 * say whether more copies would help: cp_milp_poll). */
static int sh_nothing_fits(const shared *S) {
  return S->done && S->proven && !S->fits && !S->internal && !(S->p->stop && *S->p->stop);
}

/* Offer a schedule to the result; report an improvement.  One that
 * computes a node more than C_v times is outside the model: -1, like an
 * invalid one. */
static int sh_offer(shared *S, const int *seq, int len, int phase, const char *what) {
  if (!sim_within_copies(S->g, seq, len, S->r->copies)) return -1;
  pthread_mutex_lock(&S->mu);
  int rc = remat_result_offer(S->r, S->g, seq, len, phase, sh_elapsed(S));
  if (rc > 0) {
    const remat_result *r = S->r;
    S->fits = r->peak <= r->budget;
    S->version++;
    prog_line(&S->pr, "[%7.2fs] %-9s peak %lld (%.1f%% of budget)  TDI %.2f%%%s",
              sh_elapsed(S), what, (long long)r->peak,
              100.0 * (double)r->peak / (double)r->budget, r->tdi,
              r->recomputations ? "" : "  no recomputation");
    sh_at_bound(S);
  }
  pthread_mutex_unlock(&S->mu);
  return rc;
}

/* A copy of the best schedule (NULL if none), with its version. */
static int *sh_best(shared *S, int *len, long *version) {
  pthread_mutex_lock(&S->mu);
  int *seq = NULL;
  *len = 0;
  if (S->r->seq) {
    *len = S->r->len;
    seq = util_malloc((size_t)(*len ? *len : 1) * sizeof *seq);
    memcpy(seq, S->r->seq, (size_t)*len * sizeof *seq);
  }
  if (version) *version = S->version;
  pthread_mutex_unlock(&S->mu);
  return seq;
}

static void sh_status(shared *S, int phase, const char *what, long long n) {
  pthread_mutex_lock(&S->mu);
  const remat_result *r = S->r;
  if (r->seq)
    prog_status(&S->pr, "[%7.2fs] phase %d  best peak %lld  TDI %.2f%%  %s %lld",
                sh_elapsed(S), phase, (long long)r->peak, r->tdi, what, n);
  pthread_mutex_unlock(&S->mu);
}

static void sh_stats(shared *S, const gz_stats *st) {
  pthread_mutex_lock(&S->mu);
  remat_result *r = S->r;
  r->nodes += st->nodes;
  r->fails += st->fails;
  r->restarts += st->searches;
  r->solutions += st->solutions;
  r->propagations += st->propagations;
  pthread_mutex_unlock(&S->mu);
}

static void sh_verbose(shared *S, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sh_verbose(shared *S, const char *fmt, ...) {
  if (S->p->verbose < 2) return;
  char buf[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  pthread_mutex_lock(&S->mu);
  prog_line(&S->pr, "%s", buf);
  pthread_mutex_unlock(&S->mu);
}

/* ---------------------------------------------------------- CP worker */

typedef struct cp_milp_out cp_milp_out;

typedef struct cpw {
  shared *S;
  model md;
  fzn_layout layout;
  model_sol x;
  lns lns;
  long long solutions; /* of the current phase */
  long seen;           /* shared version last adopted or produced */
  volatile int stop;   /* this worker's stop flag */
  double end;          /* stop at this elapsed time */
  /* Checkmate's MILP in a child process (cp_milp) */
  child milp_child;
  struct cp_milp_out *milp_out; /* shared with it; NULL: not started */
  size_t milp_bytes;
  int milp_ran;      /* started once: not again */
  int milp_taken;    /* its first schedule was offered */
  double milp_any_until; /* after the CP's proof of infeasibility: wait
                            for the MILP until then (0: not yet) */
  int milp_cap;      /* entries of each schedule milp_out holds */
  double milp_limit; /* its time limit */
  double milp_t0;    /* elapsed time at its start */
} cpw;

/* The solver's solution callback: decode, check, offer. */
static int cp_on_solution(void *ctx, const char *text) {
  cpw *W = ctx;
  shared *S = W->S;
  const model *md = &W->md;
  long long obj;
  char err[256];
  W->solutions++;
  if (decode_solution(md, text, &W->x, &obj, err, sizeof err)) {
    sh_error(S, "cannot decode the solver's solution: %s", err);
    return 1;
  }
  int *seq, len;
  model_decode(md, &W->x, &seq, &len);
  remat_sim sim;
  int bad = remat_simulate(S->g, seq, len, &sim, NULL);
  int64_t cap = md->phase == 1 ? obj : md->cap;
  if (!bad && sim.peak > cap * md->mem_q) bad = 1;
  if (!bad && md->dur_exact) { /* the model's duration is the simulator's */
    int64_t extra = 0;
    for (int c = 0; c < md->ncopy; c++)
      if (W->x.a[c] && c != md->first[md->node[c]]) extra += md->dur[md->node[c]];
    if (sim.duration != S->r->base_duration + extra * md->dur_q) bad = 1;
  }
  if (bad) {
    char detail[300];
    snprintf(detail, sizeof detail, "phase %d: %s; peak %lld vs capacity %lld", md->phase,
             sim.valid ? "numbers differ" : sim.error, (long long)sim.peak,
             (long long)(cap * md->mem_q));
    sh_error(S, "a solution does not re-simulate (%s)", detail);
    free(seq);
    return 1;
  }
  if (sh_offer(S, seq, len, md->phase, md->phase == 1 ? "phase 1" : "phase 2") > 0)
    W->seen = S->version;
  free(seq);
  if (md->phase == 1 && S->fits) return 1; /* phase 1 is done */
  return sh_stopped(S);
}

/* Adopt a better schedule found by another worker: write its values. */
static int cp_adopt(cpw *W, int n, int *values) {
  shared *S = W->S;
  if (S->version == W->seen || !values) return 0;
  int len;
  long version;
  int *seq = sh_best(S, &len, &version);
  W->seen = version;
  int ok = seq && !model_encode(&W->md, seq, len, &W->x);
  if (ok && W->md.phase == 2 && !S->fits) ok = 0;
  if (ok) fzn_layout_values(&W->layout, &W->x, values);
  free(seq);
  (void)n;
  return ok;
}

static int cp_nbh(void *ctx, long long restart, int n, int *values, int have_solution,
                  unsigned char *fix) {
  cpw *W = ctx;
  shared *S = W->S;
  if (sh_stopped(S) || (W->md.phase == 1 && S->fits)) W->stop = 1;
  sh_status(S, W->md.phase, "searches", restart);
  if (restart > 0 && cp_adopt(W, n, values)) {
    memset(fix, 1, (size_t)n);
    return GZ_NBH_FIX;
  }
  return lns_neighbourhood(&W->lns, restart, n, values, have_solution, fix);
}

static void cp_tick(void *ctx) {
  cpw *W = ctx;
  sh_status(W->S, W->md.phase, "seconds", (long long)sh_elapsed(W->S));
}

/* Run the external solver on a temporary file. */
static gz_status cp_external(cpw *W, const util_buf *fzn, gz_stats *st, char *err,
                             size_t errlen) {
  shared *S = W->S;
  char path[] = "/tmp/remat-XXXXXX.fzn";
  int fd = mkstemps(path, 4);
  if (fd < 0) {
    util_err(err, errlen, 0, "cannot create a temporary file");
    return GZ_ERROR;
  }
  FILE *f = fdopen(fd, "w");
  fwrite(fzn->s, 1, fzn->len, f);
  fclose(f);
  ext_params ep = {S->p->fzn_solver, sh_left(S), S->p->stop, cp_on_solution, W, cp_tick};
  gz_status status = ext_solve(path, &ep, st, err, errlen);
  unlink(path);
  return status;
}

/* One phase of the CP worker, from the shared best (or lowest peak). */
static gz_status cp_phase(cpw *W, int phase) {
  shared *S = W->S;
  model *md = &W->md;
  md->phase = phase;
  int len;
  int *seq = sh_best(S, &len, &W->seen);
  model_sol init;
  model_sol_alloc(md, &init);
  fzn_params fp;
  fzn_params_init(&fp);
  fp.external = S->p->fzn_solver != NULL;
  if (seq && !model_encode(md, seq, len, &init)) fp.initial = &init;
  free(seq);
  util_buf text = {0};
  fzn_write(md, &fp, &text, &W->layout);
  if (S->p->keep_fzn) {
    char path[4096];
    snprintf(path, sizeof path, "%s.phase%d.fzn", S->p->keep_fzn, phase);
    FILE *f = fopen(path, "w");
    if (f) {
      fwrite(text.s, 1, text.len, f);
      fclose(f);
    }
  }
  W->solutions = 0;
  W->stop = 0;
  lns_init(&W->lns, md, &W->layout, S->p->lns, S->p->seed + (unsigned)phase, &W->solutions);
  gz_stats st;
  memset(&st, 0, sizeof st);
  char err[1024] = "";
  gz_status status;
  double left = sh_left_by(S, W->end);
  if (left <= 0) { /* the time ran out while writing: a limit of 0 is none */
    status = GZ_UNKNOWN;
  } else if (S->p->fzn_solver) {
    status = cp_external(W, &text, &st, err, sizeof err);
  } else {
    gz_params gp;
    gz_params_init(&gp);
    gp.time_limit = left;
    gp.threads = 1; /* restarts are what make LNS work; see gecode.h */
    gp.seed = S->p->seed;
    gp.stop = &W->stop;
    gp.on_solution = cp_on_solution;
    gp.ctx = W;
    gp.neighbourhood = cp_nbh;
    gp.nbh_ctx = W;
    status = gz_solve(text.s, text.len, &gp, &st, err, sizeof err);
  }
  if (status == GZ_ERROR) sh_error(S, "solver error: %s", err);
  else /* the last phase's word (ext_solve's note, or "") */
    snprintf(S->unproven, sizeof S->unproven, "%.255s", err);
  sh_stats(S, &st);
  sh_verbose(S, "CP phase %d: %s, %lld solutions, %lld nodes, %lld fails, %lld searches, %.2fs",
             phase,
             status == GZ_OPTIMAL ? "complete" : status == GZ_UNSAT ? "unsatisfiable" : "stopped",
             st.solutions, st.nodes, st.fails, st.searches, st.seconds);
  lns_free(&W->lns);
  fzn_layout_free(&W->layout);
  util_buf_free(&text);
  model_sol_free(&init);
  return status;
}

/* Small graphs: Checkmate's MILP (milp.h) with at most C_v computations
 * of each node, so exactly the CP model's schedules, in a child process.
 * (A) While nothing fits, to its first schedule within budget: CBC
 * settles what Gecode, without nogood learning, rarely does, that no
 * schedule fits at all (a 28-node graph: proven in 0.2 s, where the CP
 * had proven nothing after 10 s); after such a proof the MILP without
 * the C_v rows tells whether more copies would help.  (B) Once a schedule
 * fits, from the best one to a proof of optimality (an 18-node graph:
 * 0.1 s; the CP had not proven it after 5 s).
 *
 * The child is forked before the other workers' threads start
 * (cp_milp_start; a child forked while another thread allocates can
 * hang) and talks with the CP worker, which waits for it (cp_milp),
 * through shared memory: the parent says when it has a schedule within
 * budget (A stops) and hands over its best (B starts from it); the child
 * hands back A's schedule at once and B's optimum at its end. */
static int cp_milp_wanted(const shared *S) {
  const remat_solve_params *p = S->p;
  if (p->fzn_solver || S->g->n > SOLVE_MILP_NODES) return 0;
  /* CBC works in doubles with absolute tolerances: trust its proofs only
   * while the budget in units of the sizes' GCD stays within 32 bits */
  int64_t q = 0;
  for (int v = 0; v < S->g->n; v++) q = util_gcd(q, S->g->m[v]);
  return !(q > 0 && p->budget / q > INT32_MAX);
}

/* Shared with the child. */
struct cp_milp_out {
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

static int *cp_milp_seq(cpw *W, int k) { return W->milp_out->buf + (size_t)k * W->milp_cap; }

static int cp_milp_parent_fits(void *ctx) {
  cp_milp_out *o = ctx;
  return o->parent_fits;
}

static void cp_milp_params(cpw *W, milp_params *mp, const int *copies, double limit) {
  shared *S = W->S;
  milp_params_init(mp);
  mp->budget = S->p->budget;
  mp->time_limit = limit;
  mp->threads = 1;
  mp->verbose = 0;
  mp->stop = S->p->stop;
  mp->warm_start = 0;
  mp->max_nonzeros = SOLVE_MILP_NONZEROS;
  mp->copies = copies;
}

/* A with (copies) or without (NULL) the C_v rows; stops when the parent
 * has a schedule within budget. */
static int cp_milp_first(cpw *W, const int *copies, double limit, remat_result *r) {
  shared *S = W->S;
  milp_params mp;
  cp_milp_params(W, &mp, copies, limit);
  mp.first_fit = 1;
  mp.halt = cp_milp_parent_fits;
  mp.halt_ctx = W->milp_out;
  remat_result_init(r, S->g, S->p->budget, "milp");
  return milp_solve(S->g, &mp, r, NULL);
}

/* A, in the child.  Returns 1 when B should follow. */
static int cp_milp_child_a(cpw *W, double t0) {
  shared *S = W->S;
  cp_milp_out *o = W->milp_out;
  remat_result r;
  o->rc = cp_milp_first(W, S->r->copies, W->milp_limit, &r);
  o->status = r.status;
  snprintf(o->message, sizeof o->message, "%.255s", r.message);
  int fits = o->rc == REMAT_OK && r.seq && r.len <= W->milp_cap;
  if (fits) {
    memcpy(cp_milp_seq(W, 0), r.seq, (size_t)r.len * sizeof *r.seq);
    o->len = r.len;
    o->fit_ready = 1;
  }
  remat_result_free(&r);
  double left = W->milp_limit - (util_now() - t0);
  if (o->rc == REMAT_ENOFIT && o->status == REMAT_STATUS_INFEASIBLE && !o->parent_fits) {
    if (left > 0.1 && !child_stopping()) {
      int rc = cp_milp_first(W, NULL, left, &r);
      if (rc == REMAT_ENOFIT && r.status == REMAT_STATUS_INFEASIBLE) o->any = 1;
      if (rc == REMAT_OK && r.seq) {
        o->any_copies = sim_most_copies(S->g, r.seq, r.len);
        o->any = 2;
      }
      remat_result_free(&r);
    }
    return 0;
  }
  return fits || o->parent_fits;
}

/* B, in the child: wait for the parent's best, then CBC from it. */
static void cp_milp_child_b(cpw *W, double t0) {
  shared *S = W->S;
  cp_milp_out *o = W->milp_out;
  while (!o->start_ready && !child_stopping() && util_now() - t0 < W->milp_limit)
    child_nap();
  double left = W->milp_limit - (util_now() - t0);
  if (!o->start_ready || child_stopping() || left <= 0.1) return;
  milp_params mp;
  cp_milp_params(W, &mp, S->r->copies, left);
  mp.start = cp_milp_seq(W, 2);
  mp.start_len = o->start_len;
  remat_result r;
  remat_result_init(&r, S->g, S->p->budget, "milp");
  int rc = milp_solve(S->g, &mp, &r, NULL);
  if (rc == REMAT_OK && r.status == REMAT_STATUS_OPTIMAL && r.seq && r.len <= W->milp_cap) {
    memcpy(cp_milp_seq(W, 1), r.seq, (size_t)r.len * sizeof *r.seq);
    o->opt_len = r.len;
    o->optimal = 1;
  }
  remat_result_free(&r);
}

static void cp_milp_child(void *ctx) {
  cpw *W = ctx;
  cp_milp_out *o = W->milp_out;
  double t0 = util_now();
  if (o->parent_fits || cp_milp_child_a(W, t0)) cp_milp_child_b(W, t0);
  o->done = 1;
}

/* Start the MILP child, if it is wanted. */
static void cp_milp_start(cpw *W) {
  shared *S = W->S;
  if (W->milp_out || W->milp_ran || !cp_milp_wanted(S)) return;
  if (sh_stopped(S) && !sh_nothing_fits(S)) return;
  W->milp_ran = 1;
  size_t n = (size_t)S->g->n;
  W->milp_cap = (int)(n * (n + 1) / 2 + n); /* Checkmate: stage t computes nodes <= t */
  W->milp_bytes = sizeof(cp_milp_out) + 3 * (size_t)W->milp_cap * sizeof(int);
  W->milp_out = child_shared(W->milp_bytes);
  W->milp_out->parent_fits = S->fits;
  W->milp_limit = sh_left_by(S, W->end) * SOLVE_MILP_SHARE;
  W->milp_t0 = sh_elapsed(S);
  child_start(&W->milp_child, cp_milp_child, W);
}

/* While the parent waits: take A's schedule; once something fits, stop A
 * and hand over the best schedule; stop the child on a stop. */
static int cp_milp_poll(void *ctx) {
  cpw *W = ctx;
  shared *S = W->S;
  cp_milp_out *o = W->milp_out;
  if (o->fit_ready && !W->milp_taken) {
    W->milp_taken = 1;
    if (sh_offer(S, cp_milp_seq(W, 0), o->len, 1, "MILP") < 0)
      sh_error(S, "%s produced an invalid schedule", "the MILP");
  }
  if (S->fits && !o->start_ready) {
    int len;
    int *best = sh_best(S, &len, NULL);
    if (best && len <= W->milp_cap) {
      memcpy(cp_milp_seq(W, 2), best, (size_t)len * sizeof *best);
      o->start_len = len;
      o->start_ready = 1;
    }
    free(best);
    o->parent_fits = 1;
  }
  if (sh_nothing_fits(S)) {
    /* the CP or the covering bound proved that nothing fits: give the
     * MILP a little longer to say whether more copies would help */
    if (W->milp_any_until <= 0) W->milp_any_until = sh_elapsed(S) + SOLVE_ANY_WAIT;
    return sh_elapsed(S) > W->milp_any_until;
  }
  return sh_stopped(S);
}

/* A's proof that nothing fits. */
static const char *cp_milp_proof(cpw *W) {
  shared *S = W->S;
  cp_milp_out *o = W->milp_out;
  S->milp_proof = o->any ? o->any : 3;
  S->milp_copies = o->any_copies;
  S->proven = 1;
  S->done = 1;
  return o->any == 1   ? "proven infeasible, with any number of copies"
         : o->any == 2 ? "proven infeasible with C_v copies, not with more"
                       : "proven infeasible with C_v copies";
}

/* B's optimum: the best schedule is optimal when it is as short. */
static const char *cp_milp_optimum(cpw *W) {
  shared *S = W->S;
  cp_milp_out *o = W->milp_out;
  if (sh_offer(S, cp_milp_seq(W, 1), o->opt_len, 2, "MILP") < 0) {
    sh_error(S, "%s produced an invalid schedule", "the MILP");
    return "an invalid schedule";
  }
  remat_sim sim;
  if (remat_simulate(S->g, cp_milp_seq(W, 1), o->opt_len, &sim, NULL) ||
      !S->fits || S->r->duration < sim.duration)
    return "an optimum above the best schedule (not taken as a proof)";
  S->milp_proof = 4;
  S->proven = 1;
  S->done = 1;
  return "proven optimal";
}

/* Wait for the MILP child, feeding it, and take its results. */
static void cp_milp(cpw *W) {
  shared *S = W->S;
  cp_milp_start(W); /* when not started before the threads */
  cp_milp_out *o = W->milp_out;
  if (!o) return;
  int signo = 0;
  /* the child stops itself at its limit, CBC at most MILP_GRACE later */
  child_end how = child_wait(&W->milp_child, W->milp_limit + 3.0, 1.0, cp_milp_poll, W, &signo);
  cp_milp_poll(W); /* A's schedule, if it came last */
  const char *what = sh_stopped(S) ? "stopped" : "no answer";
  if (how == CHILD_CRASHED) {
    what = "the child died of a signal";
  } else if (!o->done) {
    what = "stopped";
  } else if (o->rc == REMAT_EINTERNAL) {
    sh_error(S, "MILP: %.400s", o->message);
  } else if (o->optimal) {
    what = cp_milp_optimum(W);
  } else if (o->rc == REMAT_ENOFIT && o->status == REMAT_STATUS_INFEASIBLE &&
             !o->parent_fits && !S->fits && !(S->p->stop && *S->p->stop) && !S->internal) {
    what = cp_milp_proof(W); /* also after the CP's own proof: says more */
  } else if (o->rc == REMAT_EUSAGE) {
    what = "too large";
  } else if (W->milp_taken) {
    what = "a schedule within budget, no proof of optimality";
  }
  sh_verbose(S, "MILP (CBC, C_v rows): %s, %.2fs", what, sh_elapsed(S) - W->milp_t0);
  child_shared_free(o, W->milp_bytes);
  W->milp_out = NULL;
}

/* Phase 1 while nothing fits, then phase 2, until W->end. */
static void cp_phases(cpw *W) {
  shared *S = W->S;
  if (!S->fits && !sh_stopped(S) && sh_left_by(S, W->end) > 0) {
    gz_status st = cp_phase(W, 1);
    /* complete without a fitting schedule: nothing fits (in the model,
     * with exact memory; rounded memory only proves it for the scaled
     * model) */
    if (!S->fits && (st == GZ_UNSAT || st == GZ_OPTIMAL) && W->md.mem_exact &&
        !(S->p->stop && *S->p->stop)) {
      S->proven = 1;
      S->done = 1;
    }
  }
  if (S->fits && !sh_stopped(S) && sh_left_by(S, W->end) > 0) {
    gz_status st = cp_phase(W, 2);
    if (st == GZ_OPTIMAL) { /* optimal in the model */
      S->proven = 1;
      S->done = 1;
    }
  }
}

/* On graphs small enough for the MILP: the CP alone for a short slice
 * (its complete searches prove the easiest models at once), then the
 * MILP (cp_milp), then the CP again. */
static void cp_run(cpw *W) {
  shared *S = W->S;
  if (W->milp_out || (!W->milp_ran && cp_milp_wanted(S))) {
    double end = W->end, slice = sh_elapsed(S) + SOLVE_CP_FIRST;
    W->end = slice < end ? slice : end;
    cp_phases(W);
    W->end = end;
    cp_milp(W); /* also reaps a child started before the threads */
  }
  cp_phases(W);
}

/* ------------------------------------------------------ window worker */

typedef struct ww {
  shared *S;
  model md;
  long seen;
  unsigned seed;
  double end; /* stop at this elapsed time */
} ww;

static int ww_found(void *ctx, const int *seq, int len, const char *name) {
  ww *W = ctx;
  shared *S = W->S;
  int rc = sh_offer(S, seq, len, W->md.phase, name);
  if (rc < 0) {
    sh_error(S, "%s produced an invalid schedule", name);
    return 1;
  }
  if (rc > 0) W->seen = S->version;
  return sh_stopped(S) || (W->md.phase == 1 && S->fits);
}

static int ww_poll(void *ctx, int **seq, int *len) {
  ww *W = ctx;
  shared *S = W->S;
  if (S->version == W->seen) return 0;
  if (W->md.phase == 2 && !S->fits) return 0;
  *seq = sh_best(S, len, &W->seen);
  return *seq != NULL;
}

static int ww_halt(void *ctx) {
  ww *W = ctx;
  return sh_stopped(W->S) || (W->md.phase == 1 && W->S->fits);
}

static void ww_tick(void *ctx, long long steps) {
  ww *W = ctx;
  sh_status(W->S, W->md.phase, "windows", steps);
}

static gz_status ww_phase(ww *W, int phase) {
  shared *S = W->S;
  W->md.phase = phase;
  int len;
  int *seq = sh_best(S, &len, &W->seen);
  if (!seq) return GZ_UNKNOWN;
  sublns_params sp;
  sublns_params_init(&sp);
  sp.time_limit = sh_left_by(S, W->end);
  sp.stop = S->p->stop;
  sp.seed = W->seed + (unsigned)phase;
  sp.found = ww_found;
  sp.poll = ww_poll;
  sp.halt = ww_halt;
  sp.ctx = W;
  sp.on_tick = ww_tick;
  gz_stats st;
  char err[1024] = "";
  gz_status status = sublns_run(&W->md, seq, len, &sp, &st, err, sizeof err);
  free(seq);
  if (status == GZ_ERROR) sh_error(S, "window search: %s", err);
  sh_stats(S, &st);
  sh_verbose(S, "window phase %d: %lld windows, %lld solutions, %lld nodes, %.2fs", phase,
             st.searches, st.solutions, st.nodes, st.seconds);
  return status;
}

static void ww_run(ww *W) {
  shared *S = W->S;
  while (!S->fits && !sh_stopped(S) && sh_left_by(S, W->end) > 0.01)
    if (ww_phase(W, 1) != GZ_SATISFIED) break;
  if (S->fits && !sh_stopped(S) && sh_left_by(S, W->end) > 0.01) {
    gz_status st = ww_phase(W, 2);
    if (st == GZ_OPTIMAL) { /* no recomputation left: the base duration */
      S->proven = 1;
      S->done = 1;
    }
  }
}

static void *ww_thread(void *arg) {
  ww_run(arg);
  return NULL;
}

/* ----------------------------------------------------- anneal worker */

typedef struct aw {
  shared *S;
  const int *copies;
  long seen;
  unsigned seed;
  int *start, start_len; /* where its epochs start: the first best it saw */
} aw;

static int aw_found(void *ctx, const int *seq, int len, const char *name) {
  aw *W = ctx;
  shared *S = W->S;
  int rc = sh_offer(S, seq, len, S->fits ? 2 : 1, name);
  if (rc < 0) {
    sh_error(S, "%s produced an invalid schedule", name);
    return 1;
  }
  if (rc > 0) W->seen = S->version;
  return sh_stopped(S);
}

static int aw_poll(void *ctx, int **seq, int *len) {
  aw *W = ctx;
  shared *S = W->S;
  if (S->version == W->seen) return 0;
  *seq = sh_best(S, len, &W->seen);
  return *seq != NULL;
}

static int aw_halt(void *ctx) { return sh_stopped(((aw *)ctx)->S); }

static void aw_tick(void *ctx, long long moves) {
  aw *W = ctx;
  sh_status(W->S, W->S->fits ? 2 : 1, "moves", moves);
}

/* Anneal for at most `seconds` (stall > 0: stop earlier once it stalls,
 * see anneal.h).  Epochs start from the best schedule the worker first saw
 * (the heuristics' schedule); on later runs the current best comes in
 * through the poll. */
static void aw_run(aw *W, double seconds, double stall) {
  shared *S = W->S;
  if (!W->start)
    W->start = sh_best(S, &W->start_len, &W->seen);
  else
    W->seen = -1; /* adopt the current best at once */
  anneal_params ap;
  anneal_params_init(&ap);
  ap.budget = S->p->budget;
  ap.copies = W->copies;
  ap.time_limit = seconds;
  ap.stall = stall;
  ap.stop = S->p->stop;
  ap.seed = W->seed;
  ap.found = aw_found;
  ap.poll = aw_poll;
  ap.halt = aw_halt;
  ap.on_tick = aw_tick;
  ap.ctx = W;
  double t0 = util_now();
  long long moves = anneal_run(S->g, W->start, W->start_len, &ap);
  double dt = util_now() - t0;
  sh_verbose(S, "anneal (seed %u): %lld moves, %.2fs, %.0f moves/s", W->seed, moves, dt,
             dt > 0 ? (double)moves / dt : 0.0);
}

static void *aw_thread(void *arg) {
  aw *W = arg;
  aw_run(W, sh_left(W->S), 0);
  free(W->start);
  W->start = NULL;
  return NULL;
}

/* ------------------------------------------------------------- driver */

static int solve_heur_found(void *ctx, const int *seq, int len, const char *name) {
  shared *S = ctx;
  if (sh_offer(S, seq, len, 0, name) < 0) {
    sh_error(S, "heuristic %s produced an invalid schedule", name);
    return 1;
  }
  return sh_stopped(S);
}

static void solve_seed(shared *S, const int *copies) {
  const remat_solve_params *p = S->p;
  double th = util_now();
  /* a warm start or a baseline that computes a node more than C_v times
   * (or is invalid) is not taken */
  if (p->warm_seq && sh_offer(S, p->warm_seq, p->warm_len, 0, "warm start") < 0)
    sh_verbose(S, "warm start: not a schedule of the model (C_v): not used");
  if (p->heuristics) { /* the best baseline (Checkmate's appendix B) */
    remat_result b;
    remat_result_init(&b, S->g, p->budget, "baseline");
    /* 5% of the time (milliseconds below 1,000 nodes) */
    int rc = base_best(S->g, p->budget, 0, p->time_limit * 0.05, p->stop, &b);
    if (rc == REMAT_OK && b.seq && b.peak <= p->budget &&
        sh_offer(S, b.seq, b.len, 0, "baseline") < 0)
      sh_verbose(S, "baseline: computes a node more than C_v times: not used");
    remat_result_free(&b);
  }
  if (p->heuristics) {
    heur_params hp;
    heur_params_init(&hp);
    hp.budget = p->budget;
    hp.copies = copies;
    /* 5% of the time, but at least what the greedy needs on large graphs
     * (up to 2 s) unless the time limit is tiny */
    double share = p->time_limit * 0.05, floor_ = p->time_limit * 0.3;
    if (floor_ > 2) floor_ = 2;
    hp.time_limit = share > floor_ ? share : floor_;
    hp.stop = p->stop;
    hp.seed = p->seed;
    hp.found = solve_heur_found;
    hp.ctx = S;
    heur_stats hs = {0};
    hp.stats = &hs;
    heur_run(S->g, &hp);
    sh_verbose(S, "heuristics: greedy %.3fs (%s), %d exchange passes, %lld ruin-and-recreate, %.2fs",
               hs.t_greedy, hs.greedy_fits ? "within budget" : "stuck above the budget",
               hs.exchanges, hs.lns_iters, hs.t_total);
  }
  S->r->t_phase[0] = util_now() - th;
}

/* One worker for everything: anneal until it stalls (a first schedule
 * fast), give the CP (or window search) a slice of the time left (small
 * models are proven optimal there), then anneal for the rest.  (Taking
 * turns again and again measured worse: each new annealing run needs
 * seconds to get back to its good basins.) */
static void solve_alone(shared *S, cpw *C, ww *W, aw *A, int cp) {
  aw_run(A, sh_left(S) / 2, SOLVE_STALL);
  double end = sh_elapsed(S) + sh_left(S) * SOLVE_SLICE;
  if (cp) {
    C->end = end;
    cp_run(C);
  } else {
    W->end = end;
    ww_run(W);
  }
  if (!sh_stopped(S) && sh_left(S) > 0.01) aw_run(A, sh_left(S), 0);
  free(A->start);
  A->start = NULL;
}

static void solve_cover_child(void *ctx) {
  shared *S = ctx;
  cover_params cp;
  cover_params_init(&cp);
  cp.budget = S->p->budget;
  cp.copies = S->r->copies;
  /* a tenth of the time (it takes a core from the workers), at least 1 s
   * or half of a shorter limit: about 1 s on 1,000 layered nodes, out of
   * time after 20 s on 3,000 at 0.8 (keeping CBC's bound) */
  double T = S->p->time_limit, t = 0.1 * T;
  if (t < 1) t = 0.5 * T < 1 ? 0.5 * T : 1;
  cp.time_limit = t;
  child_deadline(t + 2); /* whatever CBC does */
  cover_out o;
  cover_solve(S->g, &cp, &o);
  S->cov->out = o;
  __atomic_store_n(&S->cov->ready, 1, __ATOMIC_RELEASE);
}

/* Start the covering bound in a child (a fork: before any thread); not
 * with --no-heuristic, which runs the CP alone. */
static void solve_cover_start(shared *S) {
  if (!S->p->heuristics) return;
  S->cov = child_shared(sizeof *S->cov);
  child_start(&S->cov_child, solve_cover_child, S);
}

/* Stop the child if it still runs; take an answer it gave meanwhile. */
static void solve_cover_end(shared *S) {
  if (!S->cov) return;
  child_wait(&S->cov_child, 0, 0.1, NULL, NULL, NULL);
  sh_cover(S);
  child_shared_free(S->cov, sizeof *S->cov);
  S->cov = NULL;
}

/* The message of a proof that nothing fits (S->milp_proof). */
static void solve_infeasible(const shared *S, char *buf, size_t len) {
  const char *by = S->milp_proof   ? " (by Checkmate's MILP)"
                   : S->cover_proof ? " (by the covering bound)"
                                    : "";
  long long M = S->p->budget, peak = S->r->peak;
  if (S->milp_proof == 1) {
    snprintf(buf, len,
             "proven infeasible%s: no schedule on the input order's stages fits "
             "%lld, with any number of recomputations; best peak %lld",
             by, M, peak);
    return;
  }
  int n = snprintf(buf, len,
                   "proven infeasible%s: no schedule with at most C_v copies per "
                   "node on the input order's stages fits %lld; best peak %lld",
                   by, M, peak);
  if (S->milp_proof == 2 && n > 0 && (size_t)n < len)
    snprintf(buf + n, len - (size_t)n, "; one with up to %d copies of a node does (--copies %d)",
             S->milp_copies, S->milp_copies);
}

static void solve_conclude(shared *S, const model *md) {
  remat_result *r = S->r;
  const remat_solve_params *p = S->p;
  double total = sh_elapsed(S), seeded = r->t_phase[0];
  double fit = r->t_first_fit >= 0 ? r->t_first_fit : total;
  r->t_phase[1] = fit > seeded ? fit - seeded : 0;
  r->t_phase[2] = r->t_first_fit >= 0 && total > fit && fit >= seeded ? total - fit : 0;
  if (r->t_first_fit >= 0 && fit < seeded) r->t_phase[2] = total - seeded;
  if (S->fits) {
    r->status = S->proven ? REMAT_STATUS_OPTIMAL : REMAT_STATUS_FEASIBLE;
    if (!S->proven && S->unproven[0])
      snprintf(r->message, sizeof r->message, "%s", S->unproven);
    if (S->proven) {
      r->has_bound = 1;
      r->bound = (double)r->duration;
      /* the MILP's and the covering bound's proofs are exact */
      if (!md->dur_exact && S->milp_proof != 4 && S->cover_proof != 2)
        snprintf(r->message, sizeof r->message,
                 "optimal for durations rounded to multiples of %lld",
                 (long long)md->dur_q);
    }
  } else if (S->proven) {
    r->status = REMAT_STATUS_INFEASIBLE;
    solve_infeasible(S, r->message, sizeof r->message);
  } else {
    r->status = REMAT_STATUS_OVER_BUDGET;
    int most = 0;
    for (int v = 0; v < S->g->n; v++)
      if (r->copies[v] > most) most = r->copies[v];
    snprintf(r->message, sizeof r->message,
             "%s: no schedule within %lld found with at most %d copies per "
             "node; best peak %lld (%.1f%% of budget); more time or more copies "
             "(--copies %d) may reach it",
             S->unproven[0] ? S->unproven
             : p->stop && *p->stop ? "interrupted" : "out of time",
             (long long)p->budget, most, (long long)r->peak,
             100.0 * (double)r->peak / (double)p->budget, 2 * most);
  }
}

/* --lp-bound: Checkmate's LP relaxation bounds every schedule of the model
 * (milp.h), so its value is a lower bound where the search proved none; a
 * schedule at that bound is optimal. */
static void solve_lp_bound(shared *S) {
  remat_result *r = S->r;
  if (S->proven || S->p->lp_time <= 0 || (S->p->stop && *S->p->stop)) return;
  char err[256];
  double lp = 0, t = sh_elapsed(S);
  int st = milp_lp_bound(S->g, S->p->budget, S->p->lp_time, S->p->stop, &lp, err,
                         sizeof err);
  double base = (double)r->base_duration;
  if (st == 0) {
    double lb = ceil(lp - 1e-6 * (lp > 1 ? lp : 1)); /* durations are integers */
    if (lb < base) lb = base;
    solve_raise_bound(r, lb);
    if (S->fits && (double)r->duration <= lb) r->status = REMAT_STATUS_OPTIMAL;
    prog_line(&S->pr, "[%7.2fs] LP bound  duration >= %.0f (TDI >= %.3f%%) in %.2fs%s",
              sh_elapsed(S), lb, remat_tdi(r->base_duration, lb),
              sh_elapsed(S) - t, r->status == REMAT_STATUS_OPTIMAL ? ": optimal" : "");
  } else if (st == 1 && !S->fits) {
    r->status = REMAT_STATUS_INFEASIBLE;
    snprintf(r->message, sizeof r->message,
             "proven infeasible: the LP relaxation at %lld is infeasible, so no "
             "schedule on the input order's stages fits; best peak %lld",
             (long long)S->p->budget, (long long)r->peak);
  } else {
    prog_line(&S->pr, "[%7.2fs] LP bound  none: %s", sh_elapsed(S),
              st == -2 ? err : milp_lp_status_name(st));
  }
}

int remat_solve(const remat_graph *g, const remat_solve_params *p, remat_result *r) {
  shared S;
  memset(&S, 0, sizeof S);
  S.g = g;
  S.p = p;
  S.r = r;
  S.t0 = util_now();
  pthread_mutex_init(&S.mu, NULL);
  prog_init(&S.pr, p->verbose);
  int rc = REMAT_OK;
  char err[256];
  cpw C;
  memset(&C, 0, sizeof C);
  C.S = &S;
  C.end = p->time_limit;
  r->budget = p->budget;
  if ((rc = remat_result_precheck(r, g))) goto out;
  if (model_build(&C.md, g, 1, p->budget, p->copies, p->default_copies, err, sizeof err)) {
    snprintf(r->message, sizeof r->message, "%s", err);
    rc = REMAT_EUSAGE;
    goto out;
  }
  r->mem_quantum = C.md.mem_q;
  r->dur_quantum = C.md.dur_q;
  r->copies = util_malloc((size_t)g->n * sizeof *r->copies);
  for (int v = 0; v < g->n; v++) r->copies[v] = C.md.first[v + 1] - C.md.first[v];
  model_sol_alloc(&C.md, &C.x);
  int *topo = util_malloc((size_t)g->n * sizeof *topo);
  for (int v = 0; v < g->n; v++) topo[v] = v;
  sh_offer(&S, topo, g->n, 0, "input order");
  free(topo);
  if (S.fits) { /* no recomputation needed: the base duration is optimal */
    S.proven = 1;
  } else {
    solve_cover_start(&S);
    solve_seed(&S, r->copies);
    int threads = p->threads > 0 ? p->threads : util_ncpus();
    if (threads > SOLVE_MAX_WORKERS) threads = SOLVE_MAX_WORKERS;
    if (p->fzn_solver) threads = 1; /* the external solver is the worker */
    /* worker 0: the CP on small models, else window LNS; the others:
     * annealing and window LNS by turns, with their own seeds */
    int cp = p->fzn_solver || (C.md.ncopy <= SOLVE_SMALL && !C.md.too_wide);
    ww Wd[SOLVE_MAX_WORKERS];
    pthread_t tid[SOLVE_MAX_WORKERS];
    int spawned[SOLVE_MAX_WORKERS] = {0};
    for (int k = 0; k < threads; k++) {
      memset(&Wd[k], 0, sizeof Wd[k]);
      Wd[k].S = &S;
      Wd[k].md = C.md; /* shares the arrays; only the phase differs */
      Wd[k].seed = p->seed * 7919u + 1 + 104729u * (unsigned)k;
      Wd[k].end = p->time_limit;
    }
    aw Ad[SOLVE_MAX_WORKERS];
    for (int k = 0; k < threads; k++) {
      memset(&Ad[k], 0, sizeof Ad[k]);
      Ad[k].S = &S;
      Ad[k].copies = r->copies;
      Ad[k].seed = p->seed * 7919u + 17 + 104729u * (unsigned)k;
    }
    if (cp && threads > 1) cp_milp_start(&C); /* forks: before any thread */
    if (threads > 1) gz_warmup(); /* Gecode initialises some globals lazily */
    for (int k = 1; k < threads; k++)
      spawned[k] = k % 2 && p->heuristics ? pthread_create(&tid[k], NULL, aw_thread, &Ad[k]) == 0
                         : pthread_create(&tid[k], NULL, ww_thread, &Wd[k]) == 0;
    if (threads == 1 && p->heuristics && !p->fzn_solver)
      solve_alone(&S, &C, &Wd[0], &Ad[0], cp);
    else if (cp)
      cp_run(&C);
    else
      ww_run(&Wd[0]);
    for (int k = 1; k < threads; k++) /* they run to the time limit or a proof */
      if (spawned[k]) pthread_join(tid[k], NULL);
    solve_cover_end(&S);
  }
  if (S.internal) {
    snprintf(r->message, sizeof r->message, "internal error: %.480s", S.errmsg);
    r->status = REMAT_STATUS_ERROR;
    rc = REMAT_EINTERNAL;
  } else {
    solve_conclude(&S, &C.md);
    solve_lp_bound(&S);
    if (!S.fits) rc = REMAT_ENOFIT;
  }
  model_sol_free(&C.x);
  model_free(&C.md);
out:
  prog_done(&S.pr);
  r->t_total = sh_elapsed(&S);
  r->interrupted = p->stop && *p->stop;
  pthread_mutex_destroy(&S.mu);
  return rc;
}
