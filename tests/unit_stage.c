/* unit_stage.c -- the stage matrices (stage.c): R from S on a chain and a
 * diamond, sequences and back, and on random R Checkmate's memory
 * accounting against the simulator, before and after pruning. */
#include "testutil.h"

#include <stdlib.h>

#include "graph.h"
#include "remat.h"
#include "stage.h"
#include "tiny.h"


/* S and R for n stages, S keeping the nk cells (t, i) in kept[]. */
static void stage_pair(stage_mat *S, stage_mat *R, int n, const int (*kept)[2], int nk) {
  stage_mat_init(S, n);
  stage_mat_init(R, n);
  for (int k = 0; k < nk; k++) stage_set(S, kept[k][0], kept[k][1], 1);
}

/* solve_r_opt on a chain 0 -> 1 -> 2 -> 3 with hand-made S. */
static void test_r_opt_chain(void **state) {
  (void)state;
  remat_graph *g = chain(4);
  stage_mat S, R;
  /* everything kept while needed: R = I */
  stage_pair(&S, &R, 4, (const int[][2]){{1, 0}, {2, 1}, {3, 2}}, 3);
  stage_r_opt(g, &S, &R);
  for (int t = 0; t < 4; t++)
    for (int i = 0; i <= t; i++) assert_int_equal(stage_get(&R, t, i), i == t);
  /* nothing kept: stage t recomputes 0..t-1 */
  stage_mat_clear(&S);
  stage_r_opt(g, &S, &R);
  for (int t = 0; t < 4; t++)
    for (int i = 0; i <= t; i++) assert_int_equal(stage_get(&R, t, i), 1);
  /* only 0 kept (S[t,0] = 1 for t >= 1): stage t recomputes 1..t-1 */
  for (int t = 1; t < 4; t++) stage_set(&S, t, 0, 1);
  stage_r_opt(g, &S, &R);
  for (int t = 1; t < 4; t++) {
    assert_int_equal(stage_get(&R, t, 0), 0);
    for (int i = 1; i <= t; i++) assert_int_equal(stage_get(&R, t, i), 1);
  }
  /* S[3,1] = 1 but S[2,1] = 0: (1c) makes stage 2 recompute 1, which
   * needs 0 (kept) */
  stage_mat_clear(&S);
  stage_set(&S, 1, 0, 1);
  stage_set(&S, 2, 0, 1);
  stage_set(&S, 3, 1, 1);
  stage_set(&S, 2, 1, 0);
  stage_r_opt(g, &S, &R);
  assert_int_equal(stage_get(&R, 2, 1), 1);
  assert_int_equal(stage_get(&R, 2, 0), 0);
  assert_int_equal(stage_get(&R, 3, 1), 0); /* kept */
  assert_int_equal(stage_get(&R, 3, 2), 1); /* 2 is not kept: recomputed */
  stage_mat_free(&S);
  stage_mat_free(&R);
  remat_graph_free(g);
}

/* A diamond 0 -> {1, 2} -> 3: S keeps 1 only; stage 3 needs 2, which needs
 * 0, not kept either: both are recomputed, in order. */
static void test_r_opt_diamond(void **state) {
  (void)state;
  int64_t w[4] = {1, 2, 3, 4}, m[4] = {1, 1, 1, 1};
  int src[4] = {0, 0, 1, 2}, dst[4] = {1, 2, 3, 3};
  remat_graph *g = graph_from_arrays(4, w, m, 4, src, dst, "diamond");
  stage_mat S, R;
  stage_pair(&S, &R, 4, (const int[][2]){{1, 0}, {2, 0}, {2, 1}, {3, 1}}, 4);
  stage_r_opt(g, &S, &R);
  int *seq, len = stage_sequence(&R, &seq);
  int want[] = {0, 1, 2, 0, 2, 3};
  assert_int_equal(len, 6);
  assert_memory_equal(seq, want, sizeof want);
  assert_int_equal(stage_duration(g, &R), 1 + 2 + 3 + 1 + 3 + 4);
  /* round trip */
  stage_mat R2;
  stage_mat_init(&R2, 4);
  assert_int_equal(stage_from_sequence(seq, len, &R2), 0);
  assert_memory_equal(R.a, R2.a, 16);
  int bad[] = {0, 2, 1, 3}; /* not the input order */
  assert_int_equal(stage_from_sequence(bad, 4, &R2), -1);
  int bad2[] = {0, 1, 0, 0, 2, 3}; /* 0 twice in one stage */
  assert_int_equal(stage_from_sequence(bad2, 6, &R2), -1);
  free(seq);
  stage_mat_free(&S);
  stage_mat_free(&R);
  stage_mat_free(&R2);
  remat_graph_free(g);
}

/* Random R: after pruning, the canonical S satisfies (1b)/(1c) and
 * Checkmate's accounting equals the simulator step by step; without
 * pruning it is never below the simulated peak. */
static void checkmate_accounting(const remat_graph *g) {
  int n = g->n;
  stage_mat R, S;
  stage_mat_init(&R, n);
  stage_mat_init(&S, n);
  for (int t = 0; t < n; t++) {
    stage_set(&R, t, t, 1);
    for (int i = 0; i < t; i++) stage_set(&R, t, i, rng_int(0, 3) == 0);
  }
  int *seq, len = stage_sequence(&R, &seq);
  remat_sim sim;
  assert_int_equal(remat_simulate(g, seq, len, &sim, NULL), 0);
  stage_canonical_s(g, &R, &S);
  assert_true(stage_checkmate_peak(g, &R, &S, NULL) >= sim.peak);
  free(seq);
  int64_t dur0 = stage_duration(g, &R);
  stage_prune(g, &R);
  assert_true(stage_duration(g, &R) <= dur0);
  stage_canonical_s(g, &R, &S);
  for (int t = 0; t < n; t++) /* (1b), (1c) */
    for (int v = 0; v <= t; v++) {
      if (t + 1 < n && v < t)
        assert_true(stage_get(&S, t + 1, v) <=
                    stage_get(&S, t, v) + stage_get(&R, t, v));
      if (!stage_get(&R, t, v)) continue;
      for (int k = g->pred_off[v]; k < g->pred_off[v + 1]; k++)
        assert_true(stage_get(&R, t, g->pred[k]) ||
                    stage_get(&S, t, g->pred[k]));
    }
  len = stage_sequence(&R, &seq);
  int64_t *m1 = malloc(sizeof(int64_t) * (size_t)len);
  int64_t *m2 = malloc(sizeof(int64_t) * (size_t)len);
  assert_int_equal(remat_simulate(g, seq, len, &sim, m1), 0);
  int64_t peak = stage_checkmate_peak(g, &R, &S, m2);
  assert_int_equal(peak, sim.peak);
  assert_memory_equal(m1, m2, sizeof(int64_t) * (size_t)len);
  assert_true(sim.peak <= peak);
  free(m1);
  free(m2);
  free(seq);
  stage_mat_free(&R);
  stage_mat_free(&S);
}

TINY_TEST(test_checkmate_accounting, checkmate_accounting, 7, 400, 2, 9, 10, 70)

UNIT_TESTS(test_r_opt_chain, test_r_opt_diamond, test_checkmate_accounting)
