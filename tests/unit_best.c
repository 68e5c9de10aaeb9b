/* unit_best.c -- the portfolio's shared best schedule (best.c): offers keep
 * the better schedule and refuse one outside the model (C_v) or invalid,
 * or raise C_v to a better one's copies where asked;
 * copies come with their version; the worker_io over it (best_io) offers
 * in the worker's phase, records an invalid schedule as an internal error,
 * polls only new versions, and stops a phase-1 worker once something
 * fits; a schedule at the lower bound is proven optimal, one below it
 * (or beside a proof that nothing fits) is an internal error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "best.h"
#include "graph.h"

/* A chain 0 -> 1 -> 2 -> 3 -> 4 where 4 reads 0 again; sizes 4, 4, 4, 1,
 * 1.  The input order holds 0 across the chain (peak 12 at step 2);
 * recomputing 0 for 4 frees it after 1 (peak 8). */
static remat_graph *chain_graph(void) {
  int64_t w[5] = {5, 1, 1, 1, 1}, m[5] = {4, 4, 4, 1, 1};
  int src[5] = {0, 1, 2, 3, 0}, dst[5] = {1, 2, 3, 4, 4};
  return graph_from_arrays(5, w, m, 5, src, dst, "chain");
}

typedef struct fixture {
  remat_graph *g;
  remat_solve_params p;
  remat_result r;
  best B;
  volatile int stop;
} fixture;

/* B over g at budget M with C_v = copies for every node. */
static fixture *fx_new(int64_t M, int copies) {
  fixture *F = calloc(1, sizeof *F);
  F->g = chain_graph();
  remat_solve_params_init(&F->p);
  F->p.budget = M;
  F->p.verbose = 0;
  F->p.stop = &F->stop;
  remat_result_init(&F->r, F->g, M, "cp");
  F->r.budget = M;
  F->r.copies = malloc((size_t)F->g->n * sizeof *F->r.copies);
  for (int v = 0; v < F->g->n; v++) F->r.copies[v] = copies;
  best_init(&F->B, F->g, &F->p, &F->r);
  return F;
}

static void fx_free(fixture *F) {
  best_free(&F->B);
  remat_result_free(&F->r);
  remat_graph_free(F->g);
  free(F);
}

static const int topo[5] = {0, 1, 2, 3, 4};
static const int remat0[6] = {0, 1, 2, 3, 0, 4};

/* remat0 simulated on the chain */
static remat_sim remat0_sim(void) {
  remat_sim s;
  remat_graph *g = chain_graph();
  assert_int_equal(remat_simulate(g, remat0, 6, &s, NULL), 0);
  remat_graph_free(g);
  return s;
}

/* B over the chain at remat0's peak, a budget only the recomputation
 * meets, with C_v = 2; remat0's simulation in *s2 unless s2 is NULL. */
static fixture *fx_remat0(remat_sim *s2) {
  remat_sim s = remat0_sim();
  if (s2) *s2 = s;
  return fx_new(s.peak, 2);
}

static void test_best_offer_keeps_better(void **state) {
  (void)state;
  remat_sim s1, s2;
  remat_graph *g = chain_graph();
  assert_int_equal(remat_simulate(g, topo, 5, &s1, NULL), 0);
  assert_int_equal(remat_simulate(g, remat0, 6, &s2, NULL), 0);
  remat_graph_free(g);
  assert_true(s2.peak < s1.peak);
  /* a budget only the recomputation meets */
  fixture *F = fx_new(s2.peak, 2);
  best *B = &F->B;
  assert_int_equal(best_offer(B, topo, 5, 0, "input order"), 1);
  assert_int_equal(B->version, 1);
  assert_false(B->fits);
  assert_int_equal(best_offer(B, remat0, 6, 1, "phase 1"), 1);
  assert_int_equal(B->version, 2);
  assert_true(B->fits);
  assert_int_equal(F->r.peak, s2.peak);
  assert_int_equal(F->r.duration, s2.duration);
  /* the worse one again: not taken, no new version */
  assert_int_equal(best_offer(B, topo, 5, 2, "phase 2"), 0);
  assert_int_equal(B->version, 2);
  assert_int_equal(F->r.len, 6);
  int len;
  long version;
  int *seq = best_copy(B, &len, &version);
  assert_non_null(seq);
  assert_int_equal(len, 6);
  assert_int_equal(version, 2);
  assert_memory_equal(seq, remat0, sizeof remat0);
  free(seq);
  fx_free(F);
}

static void test_best_offer_refuses_outside_model(void **state) {
  (void)state;
  fixture *F = fx_new(1000, 1); /* C_v = 1: no recomputation */
  best *B = &F->B;
  assert_int_equal(best_offer(B, remat0, 6, 0, "warm start"), -1);
  assert_null(F->r.seq);
  assert_int_equal(B->version, 0);
  const int bad[3] = {0, 2, 1}; /* 2 before its input 1 */
  assert_int_equal(best_offer(B, bad, 3, 0, "bad"), -1);
  assert_int_equal(B->version, 0);
  int len;
  assert_null(best_copy(B, &len, NULL));
  assert_int_equal(len, 0);
  assert_int_equal(best_offer(B, topo, 5, 0, "input order"), 1);
  assert_true(B->fits);
  fx_free(F);
}

/* With raise_copies (free order's joint annealing): a schedule within
 * budget and shorter than the best that computes a node whose C_v is 2
 * more often raises C_v to its copies; one that is not shorter or over
 * budget is left (0), C_v unchanged; C_v = 1 is never raised, and an
 * invalid schedule stays one (-1). */
static void test_best_offer_raises_copies(void **state) {
  (void)state;
  static const int three0[7] = {0, 1, 2, 3, 0, 0, 4}; /* 0 three times */
  static const int bad[7] = {0, 2, 1, 3, 0, 0, 4};    /* 2 before its input */
  fixture *F = fx_remat0(NULL);
  best *B = &F->B;
  assert_int_equal(best_offer(B, three0, 7, 2, "x"), -1); /* not without it */
  B->raise_copies = 1;
  assert_int_equal(best_offer(B, bad, 7, 2, "bad"), -1);
  assert_int_equal(best_offer(B, three0, 7, 2, "joint"), 1);
  assert_true(B->fits);
  assert_int_equal(B->version, 1);
  assert_int_equal(F->r.copies[0], 3);
  for (int v = 1; v < 5; v++) assert_int_equal(F->r.copies[v], 2);
  assert_int_equal(best_offer(B, remat0, 6, 2, "shorter"), 1);
  fx_free(F);

  F = fx_remat0(NULL);
  B = &F->B;
  B->raise_copies = 1;
  assert_int_equal(best_offer(B, remat0, 6, 2, "first"), 1);
  assert_int_equal(best_offer(B, three0, 7, 2, "longer"), 0);
  assert_int_equal(F->r.copies[0], 2);
  assert_int_equal(B->version, 1);
  fx_free(F);

  F = fx_new(7, 2); /* below every schedule's peak */
  B = &F->B;
  B->raise_copies = 1;
  assert_int_equal(best_offer(B, three0, 7, 1, "over"), 0);
  assert_int_equal(F->r.copies[0], 2);
  assert_int_equal(B->version, 0);
  fx_free(F);

  F = fx_new(1000, 1);
  B = &F->B;
  B->raise_copies = 1;
  assert_int_equal(best_offer(B, remat0, 6, 0, "C_v 1"), -1);
  assert_int_equal(F->r.copies[0], 1);
  fx_free(F);
}

static void test_best_io(void **state) {
  (void)state;
  fixture *F = fx_remat0(NULL);
  best *B = &F->B;
  best_client c1 = {B, 0, 1, "windows"}, c2 = {B, 0, 2, "windows"};
  worker_io io1 = best_io(&c1, 7), io2 = best_io(&c2, 8);
  assert_int_equal(io1.seed, 7);
  assert_ptr_equal(io1.stop, &F->stop);
  int *seq, len;
  /* nothing yet: version 0 is what both saw */
  assert_int_equal(worker_poll(&io1, &seq, &len), 0);
  assert_int_equal(worker_report(&io1, topo, 5, "window"), 0);
  assert_int_equal(c1.seen, 1);
  assert_int_equal(F->r.trace[F->r.ntrace - 1].phase, 1);
  assert_false(worker_halted(&io1));
  /* phase 2 does not poll a schedule over budget */
  assert_int_equal(worker_poll(&io2, &seq, &len), 0);
  /* the fitting schedule halts the phase-1 worker, not the phase-2 one */
  assert_int_equal(worker_report(&io1, remat0, 6, "window"), 1);
  assert_true(B->fits);
  assert_true(worker_halted(&io1));
  assert_false(worker_halted(&io2));
  assert_int_equal(worker_poll(&io2, &seq, &len), 1);
  assert_int_equal(len, 6);
  assert_int_equal(c2.seen, B->version);
  free(seq);
  assert_int_equal(worker_poll(&io2, &seq, &len), 0); /* nothing newer */
  /* an invalid schedule: an internal error naming it, and a stop */
  const int bad[3] = {0, 2, 1};
  assert_int_equal(worker_report(&io2, bad, 3, "window"), 1);
  assert_true(B->internal);
  assert_string_equal(B->errmsg, "window produced an invalid schedule");
  assert_true(worker_halted(&io2));
  fx_free(F);
  /* a seed's (phase 0) invalid schedule names the heuristic; the stop
   * flag stops everyone */
  F = fx_new(1000, 2);
  best_client c0 = {&F->B, 0, 0, NULL};
  worker_io io0 = best_io(&c0, 1);
  assert_int_equal(worker_report(&io0, bad, 3, "greedy"), 1);
  assert_string_equal(F->B.errmsg, "heuristic greedy produced an invalid schedule");
  fx_free(F);
  F = fx_new(1000, 2);
  best_client ca = {&F->B, 0, BEST_FOLLOW, "moves"};
  worker_io ioa = best_io(&ca, 1);
  assert_false(worker_halted(&ioa));
  F->stop = 1;
  assert_true(worker_halted(&ioa));
  assert_true(best_stopped(&F->B));
  assert_true(best_interrupted(&F->B));
  fx_free(F);
}

/* The annealing's client offers in phase 1 until the best fits, then 2. */
static void test_best_io_follows_phase(void **state) {
  (void)state;
  fixture *F = fx_remat0(NULL);
  best_client c = {&F->B, 0, BEST_FOLLOW, "moves"};
  worker_io io = best_io(&c, 1);
  assert_int_equal(worker_report(&io, topo, 5, "anneal"), 0);
  assert_int_equal(F->r.trace[F->r.ntrace - 1].phase, 1);
  assert_int_equal(worker_report(&io, remat0, 6, "anneal"), 0); /* does not halt */
  assert_int_equal(F->r.trace[F->r.ntrace - 1].phase, 1);
  assert_true(F->B.fits);
  fx_free(F);
}

/* A schedule at the lower bound is optimal: the search is done. */
static void test_best_at_bound(void **state) {
  (void)state;
  remat_sim s2;
  fixture *F = fx_remat0(&s2);
  best *B = &F->B;
  best_raise_bound(B, (double)s2.duration - 1);
  best_raise_bound(B, 1); /* the higher bound stays */
  assert_true(F->r.has_bound);
  assert_true(F->r.bound == (double)s2.duration - 1);
  assert_int_equal(F->r.nbound_trace, 1); /* one rise, with its time */
  assert_true(F->r.bound_trace[0].bound == (double)s2.duration - 1);
  assert_true(F->r.bound_trace[0].seconds >= 0);
  assert_int_equal(best_offer(B, remat0, 6, 1, "phase 1"), 1);
  assert_false(B->proven);
  fx_free(F);
  F = fx_remat0(NULL);
  B = &F->B;
  best_raise_bound(B, (double)s2.duration);
  assert_false(best_stopped(B));
  assert_int_equal(best_offer(B, topo, 5, 1, "phase 1"), 1);
  assert_false(B->proven); /* over budget */
  assert_int_equal(best_offer(B, remat0, 6, 1, "phase 1"), 1);
  assert_true(B->proven);
  assert_int_equal(B->proof.bound, 1);
  assert_true(best_stopped(B));
  assert_false(best_nothing_fits(B));
  fx_free(F);
}

/* A bound above a schedule within budget, or a proof that nothing fits
 * beside one, is a bug: the internal error, no proof, the bound not
 * taken. */
static void test_best_wrong_bound(void **state) {
  (void)state;
  remat_sim s2;
  fixture *F = fx_remat0(&s2);
  best *B = &F->B;
  assert_int_equal(best_offer(B, remat0, 6, 1, "phase 1"), 1);
  assert_int_equal(best_raise_bound(B, (double)s2.duration), 0);
  assert_int_equal(best_raise_bound(B, (double)s2.duration + 1), -1);
  assert_true(B->internal);
  assert_non_null(strstr(B->errmsg, "above a schedule within budget"));
  assert_true(F->r.bound == (double)s2.duration);
  fx_free(F);
  /* the bound first, the schedule below it after */
  F = fx_remat0(NULL);
  B = &F->B;
  assert_int_equal(best_raise_bound(B, (double)s2.duration + 1), 0);
  assert_int_equal(best_offer(B, remat0, 6, 1, "phase 1"), 1);
  assert_false(B->proven);
  assert_true(B->internal);
  assert_true(best_stopped(B));
  fx_free(F);
  /* the covering bound's proof that nothing fits, a schedule at hand */
  F = fx_remat0(NULL);
  B = &F->B;
  static best_cover cov; /* large: BEST_COVER_ANSWERS slots */
  memset(&cov, 0, sizeof cov);
  cov.out[0].status = COVER_INFEASIBLE;
  cov.ready = 1;
  B->children.cov = &cov;
  assert_int_equal(best_offer(B, remat0, 6, 1, "phase 1"), 1);
  best_take_cover(B);
  assert_false(B->proven);
  assert_true(B->internal);
  assert_non_null(strstr(B->errmsg, "covering bound proved that nothing fits"));
  B->children.cov = NULL;
  fx_free(F);
  /* a proven optimum (the MILP's) at the best schedule stands; one above
   * it is the internal error */
  F = fx_remat0(NULL);
  B = &F->B;
  assert_int_equal(best_check_optimum(B, s2.duration, "the MILP"), 0); /* nothing fits */
  assert_int_equal(best_offer(B, remat0, 6, 1, "phase 1"), 1);
  assert_int_equal(best_check_optimum(B, s2.duration, "the MILP"), 1);
  assert_false(B->internal);
  assert_int_equal(best_check_optimum(B, s2.duration + 1, "the MILP"), -1);
  assert_true(B->internal);
  assert_non_null(strstr(B->errmsg, "the MILP proved an optimum (duration"));
  assert_non_null(strstr(B->errmsg, "above a schedule within budget"));
  fx_free(F);
}

/* The covering child's answers in turn: a stronger problem's LP value
 * below the bound so far lowers neither the bound nor cover_lb (what an
 * optimum's proof covers: portfolio.c). */
static void test_best_cover_answers(void **state) {
  (void)state;
  fixture *F = fx_remat0(NULL);
  best *B = &F->B;
  static best_cover cov; /* large: BEST_COVER_ANSWERS slots */
  memset(&cov, 0, sizeof cov);
  cov.out[0].status = COVER_OPTIMAL;
  cov.out[0].increase = 3;
  cov.out[1].status = COVER_BOUND;
  cov.out[1].increase = 2;
  cov.out[1].lp = 1;
  cov.ready = 2;
  B->children.cov = &cov;
  best_take_cover(B);
  double lb = (double)(F->r.base_duration + 3);
  assert_true(F->r.bound == lb);
  assert_true(B->proof.cover_lb == lb);
  assert_false(B->internal);
  B->children.cov = NULL;
  fx_free(F);
}

static void test_best_time(void **state) {
  (void)state;
  fixture *F = fx_new(1000, 2);
  F->p.time_limit = 100;
  assert_true(best_left(&F->B) > 99 && best_left(&F->B) <= 100);
  deadline in10 = deadline_in(10);
  assert_true(best_left_by(&F->B, in10) > 9 && best_left_by(&F->B, in10) <= 10);
  assert_true(best_left_by(&F->B, deadline_in(1000)) <= 100); /* the time limit first */
  assert_true(best_left_by(&F->B, deadline_in(-5)) == 0);
  assert_true(best_left_by(&F->B, DEADLINE_NONE) <= 100);
  fx_free(F);
}

/* A helper process asked to stop gets its grace to report, unless nothing
 * it says counts: the best is proven, or the caller halted the solve. */
static void test_best_child_grace(void **state) {
  (void)state;
  fixture *F = fx_new(1000, 2);
  assert_true(best_child_grace(&F->B, 1.0) == 1.0);
  F->stop = 1; /* Ctrl-C: the best so far, and what the helpers still say */
  assert_true(best_child_grace(&F->B, 1.0) == 1.0);
  F->stop = REMAT_HALT;
  assert_true(best_child_grace(&F->B, 1.0) == 0);
  F->stop = 0;
  F->B.proven = 1;
  assert_true(best_child_grace(&F->B, 0.1) == 0);
  fx_free(F);
}

UNIT_TESTS(test_best_offer_keeps_better, test_best_offer_refuses_outside_model,
           test_best_offer_raises_copies, test_best_io, test_best_io_follows_phase,
           test_best_at_bound, test_best_wrong_bound, test_best_cover_answers, test_best_time,
           test_best_child_grace)
