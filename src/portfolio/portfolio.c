/* portfolio.c -- the stage-axis portfolio (remat_solve in the input
 * order's stages; solve.c chooses it):
 *
 *   bounds  the budget against max_v (remat_result_precheck), the
 *           baselines (Chen's, Echo's and, on small graphs where they and
 *           the greedy stay above M, Checkmate's LP rounded with any
 *           number of copies: seeds.h), the CP model with C_v copies per
 *           node (raised where a baseline that fits needs more), the
 *           order cost bound (every sequence), the covering bound in a
 *           child (bounds.h), the window bound in another once the seeds
 *           ran;
 *   seeds   the input order (optimal when it fits), a caller's warm start,
 *           the baselines that fit, the C heuristics (seeds.h);
 *   phase 1 (only while nothing fits) minimise max(peak, M) from the
 *           lowest-peak schedule known, until a schedule fits M;
 *   phase 2 peak <= M, minimise the duration from the best schedule;
 *   end     the status and its message from what was proven, the LP bound
 *           (--lp-bound).
 * The phases run in workers that share the best schedule (best.h) and
 * adopt each other's improvements:
 *   - the CP worker (worker_cp.h) searches the whole model with Gecode; on
 *     small models its complete searches prove optimality or
 *     infeasibility, and on small graphs it gives a slice of its time to
 *     Checkmate's MILP in a child process (worker_milp.h);
 *   - the window worker (worker_window.h) runs the window search: many
 *     small sub-models, fast on large graphs;
 *   - the annealing worker (worker_anneal.h) moves recomputations around
 *     with a penalty on memory over budget: it reaches the budget and
 *     finds short schedules fast, but proves nothing.
 * Worker 0 is the CP on small models (at most SOLVE_SMALL copies) and a
 * window worker on larger ones; each further thread (--threads, default
 * all cores) adds an annealing worker, then a window worker, by turns,
 * each with its own seed.  Alone, worker 0 takes turns (solve_alone).
 * Without heuristics (--no-heuristic) nothing anneals. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "best.h"
#include "bounds.h"
#include "gecode.h"
#include "graph.h"
#include "portfolio.h"
#include "remat.h"
#include "result.h"
#include "seeds.h"
#include "shares.h"
#include "util.h"
#include "worker_anneal.h"
#include "worker_cp.h"
#include "worker_window.h"

/* Models with at most this many copies get the CP worker. */
#define SOLVE_SMALL 1000
/* A lone worker first anneals until no new best came for this long (and
 * for longer than the annealing took to find the last one), then gives
 * the CP (or the window search) its slice of the time left (shares.h),
 * then anneals again; the CP gets the larger slice when the annealing
 * found nothing within budget: the complete searches (the CP and, on
 * small graphs, Checkmate's MILP beside it) then find the first schedules
 * or prove that none exists, where a stalled annealing seldom gets
 * further. */
#define SOLVE_STALL 0.2

/* One solve: the shared best, the baselines' schedules and the CP worker,
 * which owns the model. */
typedef struct solve {
  best B;
  seeds_base base;
  cp_worker C;
} solve;

/* The budget checks, the baselines and the CP model (its C_v are the
 * result's copies).  Returns REMAT_OK or the result's error. */
static int solve_bounds(solve *S) {
  best *B = &S->B;
  remat_result *r = B->r;
  const remat_graph *g = B->g;
  char err[256];
  r->budget = B->p->budget;
  int rc = remat_result_precheck(r, g);
  if (rc) return rc;
  seeds_base_run(&S->base, g, B->p, 1);
  int raised;
  int *copies = seeds_base_copies(&S->base, g, B->p, &raised);
  if (S->base.rounded)
    best_verbose(B, "LP rounding with any number of copies: %.2fs, %s; C_v raised for %d nodes",
                 S->base.round_seconds,
                 S->base.round.seq && S->base.round.peak <= B->p->budget ? "within budget"
                                                                         : "above the budget",
                 raised);
  if (S->base.probed)
    best_verbose(B, "copies probe: %.2fs, %s", S->base.probe_seconds,
                 !S->base.probe.seq                     ? "nothing"
                 : S->base.probe.peak <= B->p->budget ? "within budget"
                                                        : "above the budget");
  best_copies_raised(B, raised, BEST_BY_SEEDS);
  rc = cpw_init(&S->C, B, copies, err, sizeof err);
  free(copies);
  if (rc) {
    snprintf(r->message, sizeof r->message, "%s", err);
    return REMAT_EUSAGE;
  }
  const model *md = &S->C.md;
  r->mem_quantum = md->mem_q;
  r->dur_quantum = md->dur_q;
  r->copies = util_malloc((size_t)g->n * sizeof *r->copies);
  for (int v = 0; v < g->n; v++) r->copies[v] = md->first[v + 1] - md->first[v];
  return REMAT_OK;
}

/* One worker for everything: anneal until it stalls (a first schedule
 * fast), give the CP (or window search) a slice of the time left (small
 * models are proven optimal there; the CP a larger one while nothing
 * fits), then anneal for the rest.  (Taking turns again and again
 * measured worse: each new annealing run needs seconds to get back to its
 * good basins.) */
static void solve_alone(solve *S, window_worker *W, anneal_worker *A, int cp) {
  best *B = &S->B;
  aw_run(A, best_left(B) * time_share(SHARE_ALONE_ANNEAL), SOLVE_STALL);
  share_id slice = cp && !B->fits ? SHARE_ALONE_SLICE_UNFIT : SHARE_ALONE_SLICE;
  double share = time_share(slice);
  deadline end = deadline_in(best_left(B) * share);
  if (cp) {
    S->C.end = end;
    cpw_run(&S->C);
  } else {
    W->end = end;
    ww_run(W);
  }
  if (!best_stopped(B) && best_left(B) > 0.01) aw_run(A, best_left(B), 0);
  aw_free(A);
}

/* Phases 1 and 2: the workers, to the time limit or a proof. */
static void solve_phases(solve *S) {
  best *B = &S->B;
  const remat_solve_params *p = B->p;
  int threads = p->threads > 0 ? p->threads : util_ncpus();
  if (threads > REMAT_MAX_THREADS) threads = REMAT_MAX_THREADS;
  if (p->fzn_solver) threads = 1; /* the external solver is the worker */
  /* worker 0: the CP on small models, else window LNS; the others:
   * annealing and window LNS by turns, with their own seeds */
  int cp = p->fzn_solver || (S->C.md.ncopy <= SOLVE_SMALL && !S->C.md.too_wide);
  window_worker Wd[REMAT_MAX_THREADS];
  anneal_worker Ad[REMAT_MAX_THREADS];
  pthread_t tid[REMAT_MAX_THREADS];
  int spawned[REMAT_MAX_THREADS] = {0};
  for (int k = 0; k < threads; k++) {
    ww_init(&Wd[k], B, &S->C.md, p->seed * 7919u + 1 + 104729u * (unsigned)k,
            best_deadline(B));
    aw_init(&Ad[k], B, B->r->copies, p->seed * 7919u + 17 + 104729u * (unsigned)k);
  }
  if (cp && threads > 1) mw_start(&S->C.milp, S->C.end); /* forks: before any thread */
  if (threads > 1) gz_warmup(); /* Gecode initialises some globals lazily */
  for (int k = 1; k < threads; k++)
    spawned[k] = k % 2 && p->heuristics ? pthread_create(&tid[k], NULL, aw_thread, &Ad[k]) == 0
                       : pthread_create(&tid[k], NULL, ww_thread, &Wd[k]) == 0;
  if (threads == 1 && p->heuristics && !p->fzn_solver)
    solve_alone(S, &Wd[0], &Ad[0], cp);
  else if (cp)
    cpw_run(&S->C);
  else
    ww_run(&Wd[0]);
  for (int k = 1; k < threads; k++) /* they run to the time limit or a proof */
    if (spawned[k]) pthread_join(tid[k], NULL);
}

/* The status and message of a proof that nothing fits: what it covers
 * and which method proved it. */
static void solve_infeasible(const best *B) {
  remat_result *r = B->r;
  if (B->proof.pebble_node >= 0) {
    result_infeasible_pebble(r, B->g, B->proof.pebble_node);
    return;
  }
  const char *by = B->proof.milp == 1 || (B->proof.milp && B->proof.window != 2)
                       ? "Checkmate's MILP"
                   : B->proof.window ? "the window bound"
                   : B->proof.cover  ? "the covering bound"
                                     : NULL;
  if (B->proof.cover && !B->proof.milp && !B->proof.window) {
    result_infeasible(r, REMAT_COVERS_FIRSTS_COPIES, by, NULL);
    return;
  }
  int any = B->proof.milp == 1 || B->proof.window == 2;
  /* the MILP keeps the graph's own C_v with any number elsewhere */
  int own = B->proof.milp == 1 && B->proof.window != 2 && graph_gives_copies(B->g);
  result_infeasible(r, any ? REMAT_COVERS_STAGES : REMAT_COVERS_STAGES_COPIES, by,
                    own ? "the nodes' own \"copies\" in the graph kept" : NULL);
  size_t n = strlen(r->message);
  if (!any && B->proof.milp == 2 && n < sizeof r->message)
    snprintf(r->message + n, sizeof r->message - n,
             "; one with up to %d copies of a node does (--copies %d)", B->proof.milp_copies,
             B->proof.milp_copies);
}

/* The widest set of schedules the best one is proven optimal in: every
 * sequence at the base duration or the order cost bound, the covering
 * bound's when it is there (every sequence when the input order is the
 * only one). */
static int solve_optimal_covers(const best *B) {
  const remat_result *r = B->r;
  if (r->duration <= r->base_duration) return REMAT_COVERS_ANY_ORDER;
  double order_lb = B->proof.order_lb;
  if (order_lb >= 0 && (double)r->duration <= order_lb) return REMAT_COVERS_ANY_ORDER;
  if (B->proof.cover_lb >= 0 && (double)r->duration <= B->proof.cover_lb)
    return graph_order_unique(B->g) ? REMAT_COVERS_ANY_ORDER_COPIES : REMAT_COVERS_FIRSTS_COPIES;
  return REMAT_COVERS_STAGES_COPIES;
}

/* The phases' times, the status and its message. */
static void solve_status(best *B) {
  remat_result *r = B->r;
  const remat_solve_params *p = B->p;
  double total = best_elapsed(B), seeded = r->t_phase[0];
  double fit = r->t_first_fit >= 0 ? r->t_first_fit : total;
  r->t_phase[1] = fit > seeded ? fit - seeded : 0;
  r->t_phase[2] = r->t_first_fit >= 0 && total > fit && fit >= seeded ? total - fit : 0;
  if (r->t_first_fit >= 0 && fit < seeded) r->t_phase[2] = total - seeded;
  if (B->fits) {
    r->status = B->proven ? REMAT_STATUS_OPTIMAL : REMAT_STATUS_FEASIBLE;
    if (!B->proven && B->unproven[0])
      snprintf(r->message, sizeof r->message, "%s", B->unproven);
    if (B->proven) {
      best_raise_bound(B, (double)r->duration);
      r->has_bound = 1;
      r->bound = (double)r->duration;
      r->proof_covers = solve_optimal_covers(B);
    }
  } else if (B->proven) {
    solve_infeasible(B);
  } else {
    r->status = REMAT_STATUS_OVER_BUDGET;
    int most = 0;
    for (int v = 0; v < B->g->n; v++)
      if (r->copies[v] > most) most = r->copies[v];
    snprintf(r->message, sizeof r->message,
             "%s: no schedule within %lld found with at most %d copies per "
             "node; best peak %lld (%.1f%% of budget); more time or more copies "
             "(--copies %d) may reach it",
             B->unproven[0] ? B->unproven
             : best_interrupted(B) ? "interrupted" : "out of time",
             (long long)p->budget, most, (long long)r->peak,
             100.0 * (double)r->peak / (double)p->budget, 2 * most);
  }
}

/* The status and message, the LP bound; the return code. */
static int solve_conclude(solve *S) {
  best *B = &S->B;
  remat_result *r = B->r;
  if (!B->internal) {
    solve_status(B);
    bounds_lp(B);
  }
  if (B->internal) {
    snprintf(r->message, sizeof r->message, "internal error: %.480s", B->errmsg);
    r->status = REMAT_STATUS_ERROR;
    return REMAT_EINTERNAL;
  }
  /* an optimum's bound holds where its proof does; else the order cost
   * bound's for every sequence, the others' for the stages */
  int any_order = B->proof.order_lb >= 0 && r->bound <= B->proof.order_lb;
  if (r->has_bound)
    r->bound_covers = r->status == REMAT_STATUS_OPTIMAL ? r->proof_covers
                      : any_order                       ? REMAT_COVERS_ANY_ORDER
                                                        : REMAT_COVERS_STAGES_COPIES;
  if (r->status == REMAT_STATUS_FEASIBLE && B->proof.rounded_q)
    /* the CP's proof holds for rounded durations only; the bound is
     * bounds_rounded's, or a higher one */
    snprintf(r->message, sizeof r->message,
             "optimal for durations rounded to multiples of %lld; with the exact "
             "durations at most %.0f above the optimum (lower bound %.0f)",
             (long long)B->proof.rounded_q, (double)r->duration - floor(r->bound),
             floor(r->bound));
  return B->fits ? REMAT_OK : REMAT_ENOFIT;
}

int portfolio_solve(const remat_graph *g, const remat_solve_params *p, remat_result *r) {
  solve S;
  memset(&S.base, 0, sizeof S.base); /* freed even when the checks fail first */
  best *B = &S.B;
  best_init(B, g, p, r);
  int rc = solve_bounds(&S);
  if (!rc) {
    if (!seeds_input_order(B)) bounds_pebble(B); /* else no recomputation is needed */
    if (!B->fits && !B->done) {
      bounds_order_cost(B, NULL);
      bounds_cover_start(B);
      seeds_solve(B, &S.base);
      bounds_window_start(B);
      solve_phases(&S);
      bounds_cover_end(B);
      bounds_window_end(B);
    }
    rc = solve_conclude(&S);
    cpw_free(&S.C);
  }
  seeds_base_free(&S.base);
  prog_done(&B->pr);
  r->t_total = best_elapsed(B);
  r->interrupted = best_interrupted(B);
  best_free(B);
  return rc;
}
