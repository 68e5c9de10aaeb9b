/* best.h -- the portfolio's shared best schedule (portfolio.c).
 *
 * Every worker offers its schedules here and adopts the others'
 * improvements: the best schedule is the result being built (r), with a
 * version bumped at every improvement and the flags the workers stop on
 * (fits, proven, done).  The module also holds what the conclusion needs
 * to know about proofs (by the MILP, by the covering bound), the first
 * internal error, and the answers of the covering bound and of the
 * window bound (bounds.h starts their children; an answer is taken by
 * whichever thread next asks whether to stop).  Progress lines go through here, one at a time. */
#ifndef REMAT_BEST_H
#define REMAT_BEST_H

#include <pthread.h>

#include "child.h"
#include "cover.h"
#include "deadline.h"
#include "gecode.h"
#include "progress.h"
#include "wbound.h"
#include "remat.h"
#include "worker.h"

/* How the covering bound over every order is named (progress, messages). */
#define BEST_COVER_ANY_BY "covering bound over every order"

/* The covering bound's answer, written by its child (bounds.h). */
#define BEST_COVER_ANSWERS 4096 /* cover_solve's answers kept (cover.h):
                                   the problems', the steps proven below
                                   the schedule (each at least 1/64 of
                                   the gap, COVLP_MAX_PART: fewer than
                                   2,800 for 63-bit durations) and,
                                   built lazily, the steps' LP's rounds;
                                   later ones are dropped */
typedef struct best_cover {
  cover_out out[BEST_COVER_ANSWERS]; /* the plain problem's, then the
                                        stronger ones' LP and end */
  int ready;        /* how many of out are written (release after each) */
  long long incumbent; /* the best schedule's increase when it fits, -1:
                          none (atomic; written by the parent) */
} best_cover;

/* The window bound's answers, written by its child (bounds.h). */
typedef struct best_window {
  long long increase; /* its best bound on the duration increase (atomic
                         store), 0 at first */
  long long incumbent; /* the best schedule's increase when it fits, -1:
                          none (atomic; written by the parent) */
  wbound_status status;
  int rounds;
  double seconds;
  int ready; /* set (release) after status is written */
  int any;   /* when status is WBOUND_INFEASIBLE: 1 if no schedule fits
                with any number of copies either */
  int any_ready; /* set (release) after any is written */
} best_window;

/* What the solve has proven, and by what: the conclusion reads it
 * (portfolio.c, solve_free.c). */
typedef struct best_proofs {
  int milp;              /* proven by the MILP: infeasible 1 with any
                            number of copies, 2 with C_v but a schedule
                            with milp_copies fits, 3 with C_v; 4 optimal */
  int milp_copies;
  int cover;             /* proven by a lower bound (covering or window):
                            nothing fits with C_v */
  double cover_lb;       /* the covering bound's lower bound (-1: none) */
  double order_lb;       /* the order cost bound's, or the covering bound
                            over every order's: over every sequence with
                            any number of copies (-1: none) */
  const char *order_by;  /* which of them order_lb is */
  int bound;             /* proven optimal: the best schedule is at the
                            lower bound */
  int64_t rounded_q;     /* the CP's optimum is proven for durations
                            rounded to multiples of this (0: not) */
  int window;            /* nothing fits (cover) by the window bound: 1
                            with C_v copies, 2 with any number */
  int pebble_node;       /* nothing fits in any order with any number of
                            copies: no sequence computes this node within
                            M (pebble.h; -1: no such proof) */
  const char *bound_by;  /* which bound r->bound is ("covering bound") */
} best_proofs;

/* The bounds' helper processes (bounds.h) and what the parent took of
 * their answers. */
typedef struct best_children {
  best_cover *cov;       /* the covering bound's child writes here (NULL:
                            not started) */
  int cov_any;           /* ... the covering bound over every order
                            (bounds_cover_any_start): its bounds hold for
                            every sequence, like proof.order_lb */
  double cov_limit;      /* its child's time limit (seconds from its start) */
  child cov_child;
  _Atomic int cov_taken; /* how many of its answers were read (best_take_cover) */
  best_window *win;      /* the window bound's child writes here (NULL:
                            not started) */
  child win_child;
  long long win_seen;    /* the last of its bounds taken (0 at first) */
  long long win_yield_ms; /* from B->t0, when best_take_window next
                            asks whether the child should yield its core
                            (best.c, with __atomic builtins; 0: not
                            asked yet, -1: never again) */
  int win_taken;         /* its final answer was read */
} best_children;

typedef struct best {
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
  best_proofs proof;     /* what is proven, and by what */
  best_children children; /* the bounds' helper processes */
  int raise_copies;      /* best_offer raises C_v (where it is 2 or more) to
                            the copies of a schedule within budget and
                            shorter than the best instead of refusing it
                            (free order's joint annealing) */
  int internal;          /* an internal error happened */
  char errmsg[512];
  char unproven[256];    /* why the external solver ended by itself
                            without a proof (ext_solve), or "" */
} best;

/* Start the clock; progress at p->verbose. */
void best_init(best *B, const remat_graph *g, const remat_solve_params *p, remat_result *r);
void best_free(best *B);

/* Seconds since best_init. */
double best_elapsed(const best *B);

/* The best schedule's duration increase when it fits, -1 when none does:
 * what the bounds' children are told (bounds.h). */
long long best_increase(const best *B);

/* When the solve ends: its time limit after best_init. */
deadline best_deadline(const best *B);

/* Seconds left until `end` or the solve's deadline, whichever comes
 * first (0 once passed). */
double best_left_by(const best *B, deadline end);

/* Seconds left until the time limit. */
double best_left(const best *B);

/* Offer a schedule (trace phase `phase`); an improvement bumps the
 * version and prints a line naming `what`.  Returns remat_result_offer's
 * answer; a schedule that computes a node more than C_v times is outside
 * the model: -1, like an invalid one, unless B->raise_copies and only
 * nodes whose C_v is 2 or more pass it: then it is taken when it is
 * valid, within budget and shorter than the best, C_v raised to its
 * copies, and else left (0). */
int best_offer(best *B, const int *seq, int len, int phase, const char *what);

/* A copy of the best schedule (NULL if none) and its length; its version
 * in *version (may be NULL). */
int *best_copy(best *B, int *len, long *version);

/* Take the covering bound's answer if it came (once): a proof that
 * nothing fits, or a lower bound, which proves the best schedule optimal
 * when it is there. */
void best_take_cover(best *B);

/* Take the window bound's new bounds and its final answer: a proof that
 * nothing fits with C_v, or lower bounds, which prove the best schedule
 * optimal when it is there. */
void best_take_window(best *B);

/* The window bound's child yields its core (child_yield) to the workers
 * and the covering bound's child once a schedule fits, the covering
 * bound is above the window bound and the window bound has run for 5 %
 * of the time limit (at least 2 s): on two cores the two children share
 * one, and the covering bound's steps then get most of it
 * (bench/RESULTS.md#cover-steps-scaling-yield).  Checked at most once a
 * second, from
 * best_take_window. */

/* A lower bound lb on the duration found in the caller's thread (`by`
 * names it): raised, printed, and a proof when the best schedule is at it. */
void best_take_bound(best *B, double lb, const char *by);

/* Stop: a proof (done), an internal error or the caller's stop flag.
 * Takes the covering and window bounds' answers when they came. */
int best_stopped(best *B);

/* The search ended with a proof that nothing fits. */
int best_nothing_fits(const best *B);

/* The caller's stop flag is set. */
int best_interrupted(const best *B);

/* How long a helper process that was asked to stop may take to report
 * (child.h's grace): `grace`, or 0 once nothing it says counts (the best
 * is proven, or the caller halted the solve: REMAT_HALT). */
double best_child_grace(const best *B, double grace);

/* Record the first internal error: fmt with one %s (detail). */
void best_error(best *B, const char *fmt, const char *detail);

/* The status line: phase, best peak and TDI, a count (what: its unit). */
void best_status(best *B, int phase, const char *what, long long n);

/* Add a solver run's statistics to the result. */
void best_stats(best *B, const gz_stats *st);

/* The line (at the default level) saying that C_v was raised on n > 0
 * nodes to their copies in `whose` schedule within budget ("a baseline's
 * or the copies probe's": seeds.h; "the joint annealing's"): a user who
 * gave C_v learns that the claims speak of the raised C_v. */
void best_copies_raised(best *B, int n, const char *whose);

/* Between the two, best_offer raises C_v (B->raise_copies): begin returns
 * the C_v before (allocated); end counts the nodes raised, says so
 * (best_copies_raised, whose) and frees it. */
int *best_raise_begin(best *B);
void best_raise_end(best *B, int *was, const char *whose);
#define BEST_BY_SEEDS "a baseline's or the copies probe's"

/* A line at -v (verbose 2). */
void best_verbose(best *B, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A proven optimum of duration dur (by names the method, for the
 * message), its schedule within budget offered before: 1 when the best
 * schedule is as short (the proof stands); a schedule within budget
 * shorter than dur is a bug in the proof, recorded as the internal error:
 * -1; else 0.  Takes B->mu. */
int best_check_optimum(best *B, int64_t dur, const char *by);

/* Keep the higher of the result's lower bound and lb (with the time, in
 * its bound trace); 0.  A bound above a schedule within budget is not
 * taken: it is a bug, recorded as the internal error; -1.  With B->mu
 * held, or no worker running. */
int best_raise_bound(best *B, double lb);

/* The CP proved its optimum for durations rounded to multiples of q; lb is
 * the bound that gives (bounds_rounded): raise the bound, stop the search
 * (done), and the best schedule is optimal when it is at the bound. */
void best_cp_rounded(best *B, double lb, int64_t q);

/* A worker's view of the shared best, behind a worker_io (best_io). */
typedef struct best_client {
  best *B;
  long seen;        /* the version it last adopted or produced */
  int phase;        /* its trace phase: 0 seeds, 1 or 2, or BEST_FOLLOW */
  const char *unit; /* what its tick counts ("moves", "windows") */
} best_client;

/* The phase of a worker that works on both (the annealing): 2 once the
 * best schedule fits, 1 before. */
#define BEST_FOLLOW (-1)

/* A worker_io over c, with the caller's stop flag and `seed`:
 *   report  offers in c's phase; an invalid schedule is an internal error
 *           ("heuristic NAME produced..." for seeds); stops on
 *           best_stopped and, in phase 1, once the best fits;
 *   poll    the best schedule when its version is new (in phase 2 only
 *           when it fits);
 *   halt    best_stopped, and in phase 1 once the best fits;
 *   tick    the status line. */
worker_io best_io(best_client *c, unsigned seed);

#endif
