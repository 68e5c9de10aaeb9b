/* unit_worker.c -- the portfolio's workers over the shared best (best.h):
 * on tiny graphs with a known optimum (brute force over every
 * stage-structured schedule, C_v high enough to allow them all), the
 * annealing worker and the window worker reach it from the input order
 * through their worker_io, the CP worker proves it, and the seeds start
 * with the input order, which is optimal when it fits. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "best.h"
#include "oracle.h"
#include "seeds.h"
#include "worker_anneal.h"
#include "worker_cp.h"
#include "worker_window.h"

typedef struct fixture {
  remat_graph *g;
  remat_solve_params p;
  remat_result r;
  best B;
  cp_worker C; /* owns the model */
  int64_t optimum;
} fixture;

/* Graph `seed` (n nodes) at the highest of three budgets between its
 * lowest peak and the input order's where the optimum recomputes
 * something; NULL when there is none. */
static fixture *fx_new(uint64_t seed, int n, double time_limit) {
  fixture *F = calloc(1, sizeof *F);
  F->g = oracle_dag(n, 40, 9, 9, seed);
  int64_t lo = remat_graph_min_peak(F->g), hi = remat_topo_peak(F->g), M = -1;
  for (int k = 3; k > 0 && M < 0; k--) {
    int64_t b = lo + (hi - lo) * k / 4, min_peak;
    int64_t best = oracle_best(F->g, b, &min_peak);
    if (best > remat_graph_base_duration(F->g)) M = b, F->optimum = best;
  }
  if (M < 0) {
    remat_graph_free(F->g);
    free(F);
    return NULL;
  }
  remat_solve_params_init(&F->p);
  F->p.budget = M;
  F->p.default_copies = n; /* any stage-structured schedule */
  F->p.time_limit = time_limit;
  F->p.verbose = 0;
  remat_result_init(&F->r, F->g, M, "cp");
  F->r.budget = M;
  best_init(&F->B, F->g, &F->p, &F->r);
  char err[256];
  assert_int_equal(cpw_init(&F->C, &F->B, NULL, err, sizeof err), 0);
  const model *md = &F->C.md;
  F->r.copies = malloc((size_t)n * sizeof *F->r.copies);
  for (int v = 0; v < n; v++) F->r.copies[v] = md->first[v + 1] - md->first[v];
  return F;
}

static void fx_free(fixture *F) {
  cpw_free(&F->C);
  best_free(&F->B);
  remat_result_free(&F->r);
  remat_graph_free(F->g);
  free(F);
}

/* The next fixture on a 6-node graph from *seed on (its clock starts
 * now: create it just before its worker runs). */
static fixture *fx_next(uint64_t *seed, double time_limit) {
  for (; *seed < 900; (*seed)++) {
    fixture *F = fx_new(*seed, 6, time_limit);
    if (F) {
      (*seed)++;
      return F;
    }
  }
  fail_msg("no 6-node graph needs a recomputation");
  return NULL;
}

static void test_seeds_input_order(void **state) {
  (void)state;
  uint64_t seed = 701;
  fixture *F = fx_next(&seed, 5);
  best *B = &F->B;
  assert_int_equal(seeds_input_order(B), 0); /* above the budget */
  assert_false(B->proven);
  assert_int_equal(F->r.len, F->g->n);
  assert_int_equal(F->r.trace[0].phase, 0);
  fx_free(F);
  /* at the input order's peak it fits: optimal at once */
  remat_graph *g = oracle_dag(6, 40, 9, 9, 701);
  remat_solve_params p;
  remat_solve_params_init(&p);
  p.budget = remat_topo_peak(g);
  p.verbose = 0;
  remat_result r;
  remat_result_init(&r, g, p.budget, "cp");
  r.copies = malloc(6 * sizeof *r.copies);
  for (int v = 0; v < 6; v++) r.copies[v] = 1;
  best B2;
  best_init(&B2, g, &p, &r);
  assert_int_equal(seeds_input_order(&B2), 1);
  assert_true(B2.proven);
  assert_int_equal(r.duration, remat_graph_base_duration(g));
  best_free(&B2);
  remat_result_free(&r);
  remat_graph_free(g);
}

/* Runs worker (the i-th run of it) on four fixtures with a time limit of
 * time_limit s each, from the input order; it must reach a schedule
 * within budget without an internal error. */
static void each_fixture(double time_limit,
                         void (*worker)(fixture *F, best *B, int i)) {
  uint64_t seed = 701;
  for (int i = 0; i < 4; i++) {
    fixture *F = fx_next(&seed, time_limit);
    best *B = &F->B;
    seeds_input_order(B);
    worker(F, B, i);
    assert_true(B->fits);
    assert_false(B->internal);
    fx_free(F);
  }
}

/* The annealing worker reaches the optimum; its schedules came in through
 * the worker_io, in phase 1 while nothing fitted. */
static void anneal_optimum(fixture *F, best *B, int i) {
  anneal_worker A;
  aw_init(&A, B, F->r.copies, 1 + (unsigned)i);
  aw_run(&A, 0.3, 0);
  aw_free(&A);
  assert_int_equal(F->r.duration, F->optimum);
  assert_true(F->r.ntrace > 1);
  assert_int_equal(F->r.trace[1].phase, 1);
}

static void window_optimum(fixture *F, best *B, int i) {
  window_worker W;
  ww_init(&W, B, &F->C.md, 3 + (unsigned)i, deadline_after(B->t0, 1.0));
  ww_run(&W);
  if (F->r.duration != F->optimum)
    fail_msg("graph %d: window worker %lld, optimum %lld", i, (long long)F->r.duration,
             (long long)F->optimum);
}

static void cp_proves_optimum(fixture *F, best *B, int i) {
  (void)i;
  cpw_run(&F->C);
  assert_true(B->proven);
  assert_true(B->done);
  assert_int_equal(F->r.duration, F->optimum);
}

UNIT_TEST_OF(test_anneal_worker_optimum, each_fixture(5, anneal_optimum))

UNIT_TEST_OF(test_window_worker_optimum, each_fixture(1, window_optimum))

UNIT_TEST_OF(test_cp_worker_proves_optimum, each_fixture(10, cp_proves_optimum))

UNIT_TESTS(test_seeds_input_order, test_anneal_worker_optimum,
           test_window_worker_optimum, test_cp_worker_proves_optimum)
