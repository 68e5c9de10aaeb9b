/* seeds.c -- the first schedules (seeds.h). */
#include "seeds.h"
#include "shares.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anneal.h"
#include "baseline.h"
#include "chain.h"
#include "demand.h"
#include "echo.h"
#include "graph.h"
#include "heur.h"
#include "pebble.h"
#include "progress.h"
#include "repeat.h"
#include "rounding.h"
#include "sim.h"
#include "util.h"

int *seeds_caller_copies(const remat_graph *g, const remat_solve_params *p) {
  int *c = util_malloc((size_t)(g->n ? g->n : 1) * sizeof *c);
  for (int v = 0; v < g->n; v++)
    c[v] = p->copies && p->copies[v] > 0 ? p->copies[v] : p->default_copies;
  return c;
}

int seeds_input_order(best *B) {
  int n = B->g->n;
  int *topo = util_malloc((size_t)(n ? n : 1) * sizeof *topo);
  for (int v = 0; v < n; v++) topo[v] = v;
  best_offer(B, topo, n, 0, "input order");
  free(topo);
  if (B->fits) B->proven = 1;
  return B->fits;
}

/* The heuristics' share of the time: 5%, but at least what the greedy
 * needs on large graphs (up to 2 s) unless the time limit is tiny. */
static double seeds_heur_time(double time_limit) {
  double share = time_limit * time_share(SHARE_SEEDS_HEUR), floor_ = time_limit * time_share(SHARE_SEEDS_HEUR_FLOOR);
  if (floor_ > 2) floor_ = 2;
  return share > floor_ ? share : floor_;
}

/* Does the baseline r give a schedule within the budget, on the stages? */
static int seeds_base_fits(const remat_result *r) {
  return r->seq && r->peak <= r->budget && sim_on_stages(r->seq, r->len);
}

/* The baselines' results, k = 0 .. SEEDS_BASES - 1: NULL where that one
 * did not run. */
#define SEEDS_BASES 5
static const remat_result *seeds_base_at(const seeds_base *S, int k) {
  const remat_result *rs[SEEDS_BASES] = {&S->chen, &S->echo, S->rounded ? &S->round : NULL,
                                         S->probed ? &S->probe : NULL,
                                         S->chained ? &S->chain : NULL};
  return rs[k];
}

static int seeds_base_any_fits(const seeds_base *S, const remat_solve_params *p) {
  int fits = 0;
  for (int k = 0; k < SEEDS_BASES && !p->keep_copies && S->ran; k++)
    fits |= seeds_base_at(S, k) && seeds_base_fits(seeds_base_at(S, k));
  return fits;
}

/* LP rounding (round_seed) on graphs of at most SEEDS_ROUND_NODES nodes:
 * Checkmate's LP grows with n^2, and beyond them its rounding seldom fits
 * in the seconds it gets.  Its time: 5% of the limit, but at least
 * SEEDS_ROUND_FLOOR seconds (a 60-node graph's LPs take about one), or
 * 40% of a limit shorter than 5 s: it runs only where every baseline and
 * the greedy stay above the budget, where the search after it seldom
 * fits either.  The polish's: 5%. */
#define SEEDS_ROUND_NODES 80
#define SEEDS_ROUND_FLOOR 2.0

static double seeds_round_time(double time_limit) {
  double share = time_limit * time_share(SHARE_SEEDS_ROUND), floor_ = time_limit * time_share(SHARE_SEEDS_ROUND_FLOOR);
  if (floor_ > SEEDS_ROUND_FLOOR) floor_ = SEEDS_ROUND_FLOOR;
  return share > floor_ ? share : floor_;
}

/* Does the greedy (heur.h) reach the budget with the caller's C_v?  (It
 * stops at its first schedule that fits, or returns at once with none.) */
static int seeds_stop_report(void *ctx, const int *seq, int len, const char *name) {
  (void)ctx, (void)seq, (void)len, (void)name;
  return 1;
}

static int seeds_greedy_fits(const remat_graph *g, const remat_solve_params *p, const int *c) {
  heur_params hp;
  heur_params_init(&hp);
  hp.budget = p->budget;
  hp.copies = c;
  hp.deadline = deadline_in(p->time_limit * time_share(SHARE_SEEDS_HEUR));
  hp.io.stop = p->stop;
  hp.io.report = seeds_stop_report;
  heur_stats hs = {0};
  hp.stats = &hs;
  heur_run(g, &hp);
  return hs.greedy_fits;
}

/* While neither baseline fits: when the greedy does not either, Checkmate's
 * LP rounded with any number of copies (round_seed, round_polish), whose
 * schedule then raises C_v like a baseline's (seeds_base_raise); not
 * where every C_v is 1 (never raised). */
static void seeds_base_round(seeds_base *S, const remat_graph *g, const remat_solve_params *p) {
  if (p->keep_copies || g->n > SEEDS_ROUND_NODES || seeds_base_any_fits(S, p) ||
      (p->stop && *p->stop))
    return;
  int *c = seeds_caller_copies(g, p), raisable = 0;
  for (int v = 0; v < g->n; v++) raisable |= c[v] >= 2;
  int skip = !raisable || seeds_greedy_fits(g, p, c);
  free(c);
  if (skip) return;
  double t0 = util_now();
  S->rounded = 1;
  S->round_seconds = 0;
  remat_result_init(&S->round, g, p->budget, "lp-rounding");
  int rc = round_seed(g, p->budget, t0, seeds_round_time(p->time_limit), p->stop, 0, &S->round);
  if (!rc && S->round.seq && S->round.peak <= p->budget)
    round_polish(g, t0, p->time_limit * time_share(SHARE_SEEDS_POLISH), p->stop, &S->round);
  if (rc) { /* a schedule that fails re-simulation is left out */
    free(S->round.seq);
    S->round.seq = NULL;
  }
  S->round_seconds = util_now() - t0;
}

/* The copies probe: annealing runs from the greedy's schedule (both with
 * any number of copies where c[v] >= 2; where the greedy's is above the
 * budget, every other run from the walk on demand's), each until it stalls
 * (SEEDS_PROBE_STALL seconds without a new best, and longer than it took
 * to find the last): the first for SEEDS_PROBE_GLANCE seconds; when its
 * best fits and computes some node more than c[v] times, more runs with
 * their own seeds follow for the rest of the probe's time (a run often
 * stays in the basin of its first schedule, and the best of several
 * leaves it).  Where more copies bring nothing, the probe ends after one
 * short run. */
#define SEEDS_PROBE_GLANCE 0.1
#define SEEDS_PROBE_STALL 1.0
/* Beyond this many nodes the annealing makes too few moves per second
 * for a glance to tell anything (it ran 3 s for a 0.1 s glance on a
 * 10,001-node training graph): no probe. */
#define SEEDS_PROBE_NODES 2000

typedef struct seeds_probe_run {
  const remat_graph *g;
  remat_result *r;
  double t0;
  int invalid;
  int first; /* stop at the first report (the greedy's schedule) */
} seeds_probe_run;

static int seeds_probe_report(void *ctx, const int *seq, int len, const char *name) {
  (void)name;
  seeds_probe_run *X = ctx;
  if (remat_result_offer(X->r, X->g, seq, len, 0, util_now() - X->t0) < 0) X->invalid = 1;
  return X->invalid || X->first;
}

/* Does r (of a graph of n nodes) fit and compute some node more than
 * c[v] times? */
static int seeds_probe_beyond(const remat_result *r, int n, const int *c) {
  if (!r->seq || r->peak > r->budget) return 0;
  int *cnt = util_calloc((size_t)(n ? n : 1), sizeof *cnt), beyond = 0;
  for (int i = 0; i < r->len; i++) beyond |= ++cnt[r->seq[i]] > c[r->seq[i]];
  free(cnt);
  return beyond;
}

int seeds_probe(const remat_graph *g, const remat_solve_params *p, const int *c, double seconds,
                remat_result *r) {
  int n = g->n, raisable = 0;
  int *any = util_malloc((size_t)(n ? n : 1) * sizeof *any);
  graph_copies_open(g, c, any);
  for (int v = 0; v < n; v++) raisable |= c[v] >= 2 && !any[v];
  if (n > SEEDS_PROBE_NODES) raisable = 0;
  double t0 = util_now();
  remat_result start;
  remat_result_init(&start, g, p->budget, "greedy");
  seeds_probe_run G = {g, &start, t0, 0, 1}, X = {g, r, t0, 0, 0};
  if (raisable) {
    heur_params hp;
    heur_params_init(&hp);
    hp.budget = p->budget;
    hp.copies = any;
    hp.deadline = deadline_in(seconds);
    hp.io.report = seeds_probe_report;
    hp.io.ctx = &G;
    hp.io.stop = p->stop;
    hp.io.seed = p->seed;
    heur_run(g, &hp);
    X.invalid = G.invalid;
  }
  /* the walk on demand (demand.h), offered as it is, and where the greedy
   * is stuck above the budget the start of every other run; then the walk
   * with its lookahead */
  remat_result walk;
  remat_result_init(&walk, g, p->budget, "demand");
  if (raisable && !X.invalid) {
    demand_params dp;
    demand_params_init(&dp);
    dp.budget = p->budget;
    dp.copies = any;
    dp.deadline = deadline_in(seconds);
    dp.stop = p->stop;
    int len, *seq = demand_best(g, &dp, &len);
    if (seq && (remat_result_offer(&walk, g, seq, len, 0, util_now() - t0) < 0 ||
                remat_result_offer(r, g, seq, len, 0, util_now() - t0) < 0))
      X.invalid = 1;
    free(seq);
    /* offered, not annealed from: the annealing gets further from the
     * walk's own schedule (RESULTS.md#demand-lookahead) */
    dp.deadline = deadline_in(seconds * time_share(SHARE_SEEDS_PILOT));
    seq = X.invalid ? NULL : demand_pilot(g, &dp, &len);
    if (seq && remat_result_offer(r, g, seq, len, 0, util_now() - t0) < 0) X.invalid = 1;
    free(seq);
  }
  for (int k = 0; raisable && !X.invalid; k++) {
    double left = seconds - (util_now() - t0);
    if (k == 0 && left > SEEDS_PROBE_GLANCE) left = SEEDS_PROBE_GLANCE;
    if (left < 0.01 || (p->stop && *p->stop)) break;
    const remat_result *from =
        k % 2 && start.peak > p->budget && walk.seq && walk.peak <= p->budget ? &walk : &start;
    anneal_params ap;
    anneal_params_init(&ap);
    ap.budget = p->budget;
    ap.copies = any;
    ap.deadline = deadline_in(left);
    ap.stall = SEEDS_PROBE_STALL;
    ap.io.report = seeds_probe_report;
    ap.io.ctx = &X;
    ap.io.stop = p->stop;
    ap.io.seed = p->seed + 7919u * (unsigned)k;
    anneal_run(g, from->seq, from->len, &ap);
    if (!seeds_probe_beyond(r, n, c)) break;
  }
  remat_result_free(&walk);
  remat_result_free(&start);
  free(any);
  if (X.invalid) { /* a schedule that fails re-simulation is left out */
    free(r->seq);
    r->seq = NULL;
  }
  return X.invalid;
}

/* The copies probe on the input order's stages (seeds_probe), unless
 * C_v is kept. */
static void seeds_base_probe(seeds_base *S, const remat_graph *g, const remat_solve_params *p) {
  if (p->keep_copies || g->n > SEEDS_PROBE_NODES || (p->stop && *p->stop))
    return;
  double t0 = util_now();
  S->probed = 1;
  remat_result_init(&S->probe, g, p->budget, "anneal");
  int *c = seeds_caller_copies(g, p);
  seeds_probe(g, p, c, p->time_limit * time_share(SHARE_SEEDS_PROBE), &S->probe);
  free(c);
  S->probe_seconds = util_now() - t0;
}

/* The chain of repeated blocks composed (chain.h) on training graphs,
 * with any number of copies where C_v is 2 or more: a baseline like
 * Chen's. */
static void seeds_base_chain(seeds_base *S, const remat_graph *g, const remat_solve_params *p) {
  if (!g->backward || p->hierarchy == REMAT_HIER_OFF) return;
  repeat_params rp;
  repeat_params_init(&rp);
  repeat_out rep;
  repeat_find(g, &rp, &rep);
  chain_out c;
  deadline d = deadline_in(p->time_limit * time_share(p->hierarchy == REMAT_HIER_ON
                                                         ? SHARE_SEEDS_CHAIN_ON
                                                         : SHARE_SEEDS_CHAIN));
  int *lim = seeds_caller_copies(g, p); /* C_v = 1 holds; 2 or more is raised */
  for (int v = 0; v < g->n; v++)
    if (lim[v] >= 2) lim[v] = INT_MAX;
  if (rep.nblocks && !chain_compose(g, &rep, p->budget, lim, d, &c) && c.seq) {
    S->chained = 1;
    remat_result_init(&S->chain, g, p->budget, "chain");
    remat_result_offer(&S->chain, g, c.seq, c.len, 0, 0);
  }
  if (rep.nblocks) free(c.seq);
  free(lim);
  repeat_out_free(&rep);
}

void seeds_base_run(seeds_base *S, const remat_graph *g, const remat_solve_params *p,
                    int probe) {
  memset(S, 0, sizeof *S);
  /* nothing to seed: the input order fits, or the durations' sums could
   * pass 64 bits (the solve refuses such graphs first) */
  if (!p->heuristics || remat_graph_max_duration(g) < 0 || remat_topo_peak(g) <= p->budget)
    return;
  double t0 = util_now();
  S->ran = 1;
  remat_result_init(&S->chen, g, p->budget, "baseline");
  remat_result_init(&S->echo, g, p->budget, "echo");
  /* a schedule that fails re-simulation is left out (not offered) */
  double seconds = p->time_limit * time_share(SHARE_SEEDS_BASELINES);
  if (base_best(g, p->budget, 0, deadline_limit(util_now(), seconds), p->stop, &S->chen) !=
      REMAT_OK) {
    free(S->chen.seq);
    S->chen.seq = NULL;
  }
  echo_params ep;
  echo_params_init(&ep);
  ep.budget = p->budget;
  ep.deadline = deadline_limit(util_now(), seconds);
  ep.stop = p->stop;
  if (echo_run(g, &ep, &S->echo) != REMAT_OK) {
    free(S->echo.seq);
    S->echo.seq = NULL;
  }
  seeds_base_round(S, g, p);
  if (probe) seeds_base_probe(S, g, p);
  seeds_base_chain(S, g, p);
  S->seconds = util_now() - t0;
}

int seeds_base_raise(const seeds_base *S, const remat_graph *g, const remat_solve_params *p,
                     int *c) {
  if (!seeds_base_any_fits(S, p)) return 0;
  int n = g->n, raised = 0;
  int *was = util_malloc((size_t)(n ? n : 1) * sizeof *was);
  memcpy(was, c, (size_t)n * sizeof *was);
  for (int k = 0; k < SEEDS_BASES; k++) {
    const remat_result *r = seeds_base_at(S, k);
    if (r && seeds_base_fits(r)) sim_raise_copies(g, r->seq, r->len, c);
  }
  for (int v = 0; v < n; v++) raised += c[v] > was[v];
  free(was);
  return raised;
}

int *seeds_base_copies(const seeds_base *S, const remat_graph *g, const remat_solve_params *p,
                       int *raised) {
  if (raised) *raised = 0;
  if (!seeds_base_any_fits(S, p)) return NULL;
  int *c = seeds_caller_copies(g, p);
  int k = seeds_base_raise(S, g, p, c);
  if (raised) *raised = k;
  return c;
}

void seeds_base_free(seeds_base *S) {
  if (!S->ran) return;
  remat_result_free(&S->chen);
  remat_result_free(&S->echo);
  if (S->rounded) remat_result_free(&S->round);
  if (S->probed) remat_result_free(&S->probe);
  if (S->chained) remat_result_free(&S->chain);
  S->ran = S->rounded = S->probed = S->chained = 0;
}

void seeds_base_offer(best *B, const seeds_base *S, int stages) {
  const char *names[SEEDS_BASES] = {"baseline", "echo", "lp-rounding", "probe", "chain"};
  for (int k = 0; k < SEEDS_BASES && S->ran; k++) {
    const remat_result *r = seeds_base_at(S, k);
    if (!r) continue;
    int fits = stages ? seeds_base_fits(r) : r->seq && r->peak <= r->budget;
    if (fits && best_offer(B, r->seq, r->len, 0, names[k]) < 0)
      best_verbose(B, "%s: computes a node more than C_v times: not used", names[k]);
  }
}

/* The heuristics' report in seeds_solve: run with any number of copies
 * where C_v is 2 or more, they offer only the schedules within C_v. */
typedef struct seeds_within {
  best_client c;
  worker_io io;
} seeds_within;

static int seeds_within_report(void *ctx, const int *seq, int len, const char *name) {
  seeds_within *W = ctx;
  if (!sim_within_copies(W->c.B->g, seq, len, W->c.B->r->copies)) return 0;
  return W->io.report(W->io.ctx, seq, len, name);
}

void seeds_solve(best *B, const seeds_base *S) {
  const remat_solve_params *p = B->p;
  double th = util_now();
  /* a warm start off the input order's stages, or that computes a node
   * more than C_v times (or is invalid), is not taken: every search of
   * the portfolio starts from the best, which must be a schedule of the
   * model */
  if (p->warm_seq && (!sim_on_stages(p->warm_seq, p->warm_len) ||
                      best_offer(B, p->warm_seq, p->warm_len, 0, "warm start") < 0))
    best_verbose(B, "warm start: not a schedule of the model (the stages, C_v): not used");
  if (S) seeds_base_offer(B, S, 1);
  if (p->heuristics) {
    seeds_within W = {.c = {B, 0, 0, NULL}};
    W.io = best_io(&W.c, p->seed);
    int n = B->g->n, *any = util_malloc((size_t)(n ? n : 1) * sizeof *any);
    graph_copies_open(B->g, B->r->copies, any);
    heur_params hp;
    heur_params_init(&hp);
    hp.budget = p->budget;
    hp.copies = any;
    hp.deadline = deadline_in(seeds_heur_time(p->time_limit));
    hp.io = W.io;
    hp.io.report = seeds_within_report;
    hp.io.ctx = &W;
    heur_stats hs = {0};
    hp.stats = &hs;
    heur_run(B->g, &hp);
    free(any);
    best_verbose(B,
                 "heuristics: greedy %.3fs (%s), %d exchange passes, %lld ruin-and-recreate, %.2fs",
                 hs.t_greedy, hs.greedy_fits ? "within budget" : "stuck above the budget",
                 hs.exchanges, hs.lns_iters, hs.t_total);
  }
  B->r->t_phase[0] = util_now() - th + (S ? S->seconds : 0);
}

/* ---------------------------------------------------------- the MILP's */

typedef struct seeds_run {
  const remat_graph *g;
  const milp_params *p;
  remat_result *r;
  char *err; /* the first error (empty: none) */
  size_t errlen;
  double t0;
  prog pr;
} seeds_run;

static void seeds_error(seeds_run *X, const char *msg) {
  if (!X->err[0]) snprintf(X->err, X->errlen, "%s", msg);
}

static int seeds_report(void *ctx, const int *seq, int len, const char *name) {
  seeds_run *X = ctx;
  int rc = remat_result_offer(X->r, X->g, seq, len, 0, util_now() - X->t0);
  if (rc < 0) {
    char msg[128];
    snprintf(msg, sizeof msg, "heuristic %s produced an invalid schedule", name);
    seeds_error(X, msg);
    return 1;
  }
  if (rc > 0) milp_best_line(&X->pr, util_now() - X->t0, X->r, name);
  return milp_stopped(X->p);
}

/* With C_v (p->copies), a schedule from a seed that does not keep to them
 * (the baselines, the LP rounding) is made in s and offered when it keeps
 * to them; without, in r itself. */
static remat_result *seeds_into(const seeds_run *X, remat_result *s, const char *name) {
  if (!X->p->copies) return X->r;
  remat_result_init(s, X->g, X->p->budget, name);
  return s;
}

static void seeds_take(seeds_run *X, remat_result *s, remat_result *into) {
  if (into == X->r) return;
  if (s->seq && sim_within_copies(X->g, s->seq, s->len, X->p->copies))
    seeds_report(X, s->seq, s->len, s->method);
  remat_result_free(s);
}

int seeds_milp(const remat_graph *g, const milp_params *p, remat_result *r, double t0,
               char *err, size_t errlen) {
  seeds_run X = {.g = g, .p = p, .r = r, .err = err, .errlen = errlen, .t0 = t0};
  prog_init(&X.pr, p->verbose);
  err[0] = 0;
  int ntrace = r->ntrace;
  deadline until = deadline_in(p->time_limit * time_share(SHARE_SEEDS_BASELINES));
  remat_result s;
  remat_result *into = seeds_into(&X, &s, "baselines");
  int rc = base_best(g, p->budget, t0, until, p->stop, into);
  seeds_take(&X, &s, into);
  if (r->ntrace > ntrace && into == r) milp_best_line(&X.pr, util_now() - t0, r, "baselines");
  if (rc) seeds_error(&X, "a baseline schedule failed re-simulation");
  if (!rc) {
    heur_params hp;
    heur_params_init(&hp);
    hp.budget = p->budget;
    hp.copies = p->copies;
    hp.deadline = deadline_in(p->time_limit * time_share(SHARE_SEEDS_HEUR));
    hp.io.report = seeds_report;
    hp.io.ctx = &X;
    hp.io.stop = p->stop;
    hp.io.seed = p->seed;
    heur_run(g, &hp);
  }
  if (r->peak > r->budget && !rc && !milp_stopped(p) && g->n <= SEEDS_PROBE_NODES) {
    /* the copies probe (which reads the budget, the stop flag and the
     * seed of its parameters) with the model's C_v: any number where it
     * is 0 or not given (the probe's 2), the node's own where 1 */
    remat_solve_params sp = {.budget = p->budget, .stop = p->stop, .seed = p->seed};
    int *c = util_malloc((size_t)(g->n ? g->n : 1) * sizeof *c);
    for (int v = 0; v < g->n; v++) c[v] = p->copies && p->copies[v] ? p->copies[v] : 2;
    into = seeds_into(&X, &s, "probe");
    ntrace = r->ntrace;
    rc = seeds_probe(g, &sp, c, p->time_limit * time_share(SHARE_SEEDS_PROBE), into);
    free(c);
    seeds_take(&X, &s, into);
    if (r->ntrace > ntrace && into == r) milp_best_line(&X.pr, util_now() - t0, r, "probe");
    if (rc) seeds_error(&X, "the copies probe produced an invalid schedule");
  }
  if (r->peak > r->budget && !rc && !milp_stopped(p)) {
    ntrace = r->ntrace;
    into = seeds_into(&X, &s, "LP rounding");
    rc = round_seed(g, p->budget, t0, p->time_limit * time_share(SHARE_MILP_ROUND), p->stop,
                    p->verbose, into);
    seeds_take(&X, &s, into);
    if (r->ntrace > ntrace && into == r) milp_best_line(&X.pr, util_now() - t0, r, "LP rounding");
    if (rc) seeds_error(&X, "an LP-rounded schedule failed re-simulation");
  }
  if (!rc && round_polish(g, t0, p->time_limit * time_share(SHARE_SEEDS_POLISH), p->stop, r))
    milp_best_line(&X.pr, util_now() - t0, r, "polished");
  prog_done(&X.pr);
  return err[0] != 0;
}

int *seeds_paths(const remat_graph *g, const remat_solve_params *p, const int *c, double seconds,
                 int *len) {
  pebble_params pp;
  pebble_params_init(&pp);
  pp.deadline = deadline_in(seconds < SEEDS_PATHS_MAX ? seconds : SEEDS_PATHS_MAX);
  pp.stop = p->stop;
  pp.schedule_max = g->n > INT_MAX / SEEDS_PATHS_STEPS ? INT_MAX : SEEDS_PATHS_STEPS * g->n;
  int *seq;
  return pebble_schedule(g, p->budget, c, &pp, &seq, len) ? NULL : seq;
}

int seeds_probe_order(best *B, const remat_graph *on, const int *perm, int **seq, int *len) {
  int n = on->n, fits = 0;
  int *c = util_malloc((size_t)(n ? n : 1) * sizeof *c);
  for (int i = 0; i < n; i++) c[i] = B->r->copies[perm ? perm[i] : i];
  remat_result pr;
  remat_result_init(&pr, on, B->p->budget, "anneal");
  if (seeds_probe(on, B->p, c, B->p->time_limit * time_share(SHARE_SEEDS_PROBE), &pr))
    best_error(B, "the copies probe produced an invalid schedule%s", "");
  if (pr.seq && pr.peak <= B->p->budget) {
    fits = 1;
    int raised = sim_raise_copies(on, pr.seq, pr.len, c);
    pthread_mutex_lock(&B->mu); /* best_offer reads them under it */
    for (int i = 0; i < n; i++) B->r->copies[perm ? perm[i] : i] = c[i];
    pthread_mutex_unlock(&B->mu);
    best_copies_raised(B, raised, BEST_BY_SEEDS);
    *seq = util_malloc((size_t)pr.len * sizeof **seq);
    for (int i = 0; i < pr.len; i++) (*seq)[i] = perm ? perm[pr.seq[i]] : pr.seq[i];
    *len = pr.len;
  }
  remat_result_free(&pr);
  free(c);
  return fits;
}
