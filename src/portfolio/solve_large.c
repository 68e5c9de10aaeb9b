/* solve_large.c -- remat_solve beyond the stage model (solve_large.h). */
#include "solve_large.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "bounds.h"
#include "chain.h"
#include "model.h"
#include "repeat.h"
#include "result.h"
#include "seeds.h"
#include "seg_search.h"
#include "shares.h"
#include "sim.h"
#include "util.h"

typedef struct large_ctx {
  best *B;
  const int *perm;
} large_ctx;

/* A schedule of the renumbered graph, offered in B's numbering when it
 * keeps to C_v. */
static void large_offer(const large_ctx *L, const int *seq, int len, const char *what) {
  best *B = L->B;
  int *back = util_malloc((size_t)(len ? len : 1) * sizeof *back);
  for (int i = 0; i < len; i++) back[i] = L->perm ? L->perm[seq[i]] : seq[i];
  if (sim_within_copies(B->g, back, len, B->r->copies) &&
      best_offer(B, back, len, 2, what) < 0)
    best_error(B, "the %s search produced an invalid schedule", what);
  free(back);
}

static int large_report(void *ctx, const int *seq, int len, const char *name) {
  const large_ctx *L = ctx;
  large_offer(L, seq, len, name);
  return best_stopped(L->B);
}

/* The repeated blocks composed (chain.h), on a training graph that has
 * them. */
static void large_chain(best *B, const large_ctx *L, const remat_graph *on) {
  if (!on->backward || B->p->hierarchy == REMAT_HIER_OFF) return;
  repeat_params rp;
  repeat_params_init(&rp);
  repeat_out rep;
  repeat_find(on, &rp, &rep);
  if (rep.nblocks) {
    int *lim = util_malloc((size_t)on->n * sizeof *lim);
    for (int i = 0; i < on->n; i++) lim[i] = B->r->copies[L->perm ? L->perm[i] : i];
    chain_out c;
    deadline d = deadline_in(best_left(B) * time_share(SHARE_LARGE_CHAIN));
    if (chain_compose(on, &rep, B->p->budget, lim, d, &c))
      best_error(B, "%s", "the repeated blocks: a schedule failed re-simulation");
    else if (c.seq)
      large_offer(L, c.seq, c.len, "chain");
    best_verbose(B, "repeated blocks: %d blocks of %d kinds, %d groups, %d dropped, %d in part, "
                 "%d schedules", rep.nblocks, rep.nkinds, c.groups, c.dropped, c.partial, c.evals);
    free(c.seq);
    free(lim);
  }
  repeat_out_free(&rep);
}

void large_segments(best *B, const remat_graph *on, const int *perm) {
  large_ctx L = {.B = B, .perm = perm};
  large_chain(B, &L, on);
  if (best_stopped(B)) return;
  remat_result b;
  remat_result_init(&b, on, B->p->budget, "baseline");
  double seconds = best_left(B) * time_share(SHARE_FREE_BASELINES);
  int rc = base_best(on, B->p->budget, 0, deadline_limit(util_now(), seconds), B->p->stop, &b);
  if (rc == REMAT_EINTERNAL) best_error(B, "%s", "a baseline failed re-simulation");
  if (rc == REMAT_OK && b.seq) large_offer(&L, b.seq, b.len, "baseline");
  remat_result_free(&b);
  if (best_stopped(B)) return;
  seg_params sp;
  seg_params_init(&sp);
  sp.budget = B->p->budget;
  sp.deadline = deadline_in(best_left(B));
  sp.io.report = large_report;
  sp.io.ctx = &L;
  sp.io.stop = B->p->stop;
  sp.io.seed = B->p->seed;
  seg_out so;
  if (seg_run(on, &sp, &so))
    best_error(B, "%s", "the segment search: a schedule failed re-simulation");
  best_verbose(B, "segment search: %lld checkpoint sets, %d of %d forward nodes recomputed",
               so.evals, so.dropped, so.forward);
}

/* Seconds left at the end that make it an early one. */
#define LARGE_EARLY 1.0

/* The status and its message; what the proof and the bound cover: the
 * order cost bound every sequence, the closure bound those whose first
 * computations follow the input order, with C_v. */
static void large_status(best *B) {
  remat_result *r = B->r;
  const remat_graph *g = B->g;
  int any = !r->has_bound || (B->proof.order_lb >= 0 && r->bound <= B->proof.order_lb) ||
            r->duration <= r->base_duration;
  int covers = any ? REMAT_COVERS_ANY_ORDER : REMAT_COVERS_FIRSTS_COPIES;
  if (r->has_bound) r->bound_covers = covers;
  if (B->fits && B->proven) {
    r->status = REMAT_STATUS_OPTIMAL;
    r->has_bound = 1;
    r->bound = (double)r->duration;
    r->proof_covers = r->bound_covers = covers;
    snprintf(r->message, sizeof r->message, "%s",
             !r->recomputations ? "optimal: the input order fits (the base duration)"
             : any ? "optimal over every sequence in any order, with any number of copies "
                     "(the order cost bound)"
                   : "optimal over every sequence whose first computations follow the input "
                     "order, with at most C_v copies (the closure bound)");
  } else if (B->fits) {
    r->status = REMAT_STATUS_FEASIBLE;
    snprintf(r->message, sizeof r->message,
             "%d nodes, beyond the stage model (at most %d): schedules from the baselines "
             "and the segment search on the input order; the lower bound holds for %s, "
             "nothing is proven on the stage model",
             g->n, MODEL_MAX_NODES,
             any ? "every order"
                 : "every sequence whose first computations follow the input order (the "
                   "closure bound)");
  } else if (B->proven && B->proof.pebble_node >= 0) {
    result_infeasible_pebble(r, g, B->proof.pebble_node);
  } else {
    /* the segment search ends early where no checkpoint set of its grid
     * fits: more time would not help then */
    int early = !best_interrupted(B) && best_left(B) > LARGE_EARLY;
    r->status = REMAT_STATUS_OVER_BUDGET;
    snprintf(r->message, sizeof r->message,
             "%s: no schedule within %lld found on the input order (%d nodes, beyond the "
             "stage model: the baselines and the segment search%s); best peak %lld (%.1f%% of "
             "budget); %s or the free order (--free-order) may reach it",
             best_interrupted(B) ? "interrupted"
             : early             ? "ended before the time limit"
                                 : "out of time",
             (long long)B->p->budget, g->n,
             early ? ", which found no checkpoint set within it" : "", (long long)r->peak,
             100.0 * (double)r->peak / (double)B->p->budget,
             early ? "more copies" : "more time, more copies");
  }
}

int solve_large(const remat_graph *g, const remat_solve_params *p, remat_result *r) {
  best S, *B = &S;
  best_init(B, g, p, r);
  r->budget = p->budget;
  int rc = remat_result_precheck(r, g);
  if (!rc) {
    r->copies = seeds_caller_copies(g, p);
    for (int v = 0; v < g->n; v++)
      if (r->copies[v] < 1) r->copies[v] = 1;
    best_verbose(B, "%d nodes: beyond the stage model (at most %d), the segment search",
                 g->n, MODEL_MAX_NODES);
    if (!seeds_input_order(B)) bounds_pebble(B);
    if (!B->fits && !B->done) {
      bounds_order_cost(B, NULL);
      if (!best_stopped(B)) {
        bounds_closure_start(B);
        large_segments(B, g, NULL);
        bounds_cover_end(B);
      }
    }
    if (B->internal) {
      snprintf(r->message, sizeof r->message, "internal error: %.480s", B->errmsg);
      r->status = REMAT_STATUS_ERROR;
      rc = REMAT_EINTERNAL;
    } else {
      large_status(B);
      rc = B->fits ? REMAT_OK : REMAT_ENOFIT;
    }
  }
  prog_done(&B->pr);
  r->t_total = best_elapsed(B);
  r->interrupted = best_interrupted(B);
  best_free(B);
  return rc;
}
