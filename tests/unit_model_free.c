/* unit_model_free.c -- the free-order model (model_free.c, fzn_free.c):
 * encoding a sequence and checking it, and Gecode's complete search on
 * its FlatZinc against the exhaustive free-order optimum (exhaustive.h)
 * on random DAGs of at most 5 nodes with up to 2 copies per node. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "decode.h"
#include "exhaustive.h"
#include "fzn.h"
#include "gecode.h"
#include "model_any.h"
#include "oracle.h"
#include "sim.h"

/* The last solution's decoded schedule. */
typedef struct best {
  const model *md;
  model_sol x;
  int found;
  char err[256];
} best;

static int on_solution(void *ctx, const char *text) {
  best *B = ctx;
  long long obj;
  if (decode_solution(B->md, text, &B->x, &obj, B->err, sizeof B->err)) return 1;
  B->found = 1;
  return 0;
}

/* Every search complete: no LNS. */
static int complete(void *ctx, long long restart, int n, int *values, int have_solution,
                    unsigned char *fix) {
  (void)ctx, (void)restart, (void)n, (void)values, (void)have_solution, (void)fix;
  return GZ_NBH_COMPLETE;
}

/* Solve phase 2 of the free model completely; the duration of the best
 * schedule (re-simulated), -1 when none fits; fails on a solver error or a
 * solution the model's check or the simulator rejects. */
static int64_t solve_free(const remat_graph *g, int64_t M, int copies) {
  model md;
  char err[256];
  assert_int_equal(model_build_free(&md, g, 2, M, NULL, copies, err, sizeof err), 0);
  assert_true(md.mem_exact && md.dur_exact);
  fzn_params fp;
  fzn_params_init(&fp);
  fp.restart_scale = 0;
  util_buf text = {0};
  fzn_write(&md, &fp, &text, NULL);
  best B = {&md, {0}, 0, ""};
  model_sol_alloc(&md, &B.x);
  gz_params gp;
  gz_params_init(&gp);
  gp.time_limit = 30;
  gp.restart = GZ_RESTART_NONE;
  gp.on_solution = on_solution;
  gp.ctx = &B;
  gp.neighbourhood = complete;
  gz_stats st;
  gz_status rc = gz_solve(text.s, text.len, &gp, &st, err, sizeof err);
  if (rc == GZ_ERROR) fail_msg("gecode: %s", err);
  assert_true(rc == GZ_OPTIMAL || rc == GZ_UNSAT);
  int64_t d = -1;
  if (B.found) {
    char cerr[256];
    if (model_check(&md, &B.x, md.cap, cerr, sizeof cerr)) fail_msg("model check: %s", cerr);
    int *seq, len;
    model_decode(&md, &B.x, &seq, &len);
    remat_sim s;
    assert_int_equal(remat_simulate(g, seq, len, &s, NULL), 0);
    assert_true(s.peak <= M);
    assert_true(sim_within_copies(g, seq, len, (int[]){copies, copies, copies, copies, copies}));
    d = s.duration;
    free(seq);
  }
  model_sol_free(&B.x);
  util_buf_free(&text);
  model_free(&md);
  return d;
}

static void test_free_matches_exhaustive(void **state) {
  (void)state;
  int total = 0;
  for (int i = 0; i < 60; i++) {
    remat_graph *g = oracle_small(i, 2, 4, 500);
    int n = g->n;
    int64_t lo = remat_graph_min_peak(g), hi = remat_topo_peak(g);
    int64_t budgets[4] = {lo - 1, lo, (lo + hi) / 2, hi};
    for (int k = 0; k < 4; k++) {
      if (budgets[k] <= 0) continue;
      int caps[EXH_MAXN] = {2, 2, 2, 2, 2, 2, 2};
      int64_t want = exh_best(g, budgets[k], caps, 0);
      int64_t got = budgets[k] < lo ? -1 : solve_free(g, budgets[k], 2);
      if (want != got)
        fail_msg("graph %d (n=%d) at %lld: exhaustive %lld, free model %lld", i, n,
                 (long long)budgets[k], (long long)want, (long long)got);
      total++;
    }
    remat_graph_free(g);
  }
  assert_true(total > 150);
}

/* A sequence encodes into the model and passes its check; the decoded
 * sequence is the same; a sequence with too many copies or an input not
 * computed before does not encode. */
static void test_free_encode(void **state) {
  (void)state;
  remat_graph *g = oracle_dag(5, 50, 9, 9, 42);
  model md;
  char err[256];
  assert_int_equal(model_build_free(&md, g, 2, remat_topo_peak(g), NULL, 2, err, sizeof err), 0);
  model_sol x;
  model_sol_alloc(&md, &x);
  int seq[] = {0, 1, 2, 0, 3, 4};
  assert_int_equal(model_encode(&md, seq, 6, &x), 0);
  assert_int_equal(model_check(&md, &x, 1 << 30, err, sizeof err), 0);
  int *back, len;
  model_decode(&md, &x, &back, &len);
  assert_int_equal(len, 6);
  assert_memory_equal(back, seq, sizeof seq);
  free(back);
  int three[] = {0, 0, 0, 1, 2, 3, 4};
  assert_int_equal(model_encode(&md, three, 7, &x), -1);
  int early[] = {1, 0, 2, 3, 4};
  assert_int_equal(model_encode(&md, early, 5, &x), -1);
  model_sol_free(&x);
  model_free(&md);
  remat_graph_free(g);
}

UNIT_TESTS(test_free_encode, test_free_matches_exhaustive)
