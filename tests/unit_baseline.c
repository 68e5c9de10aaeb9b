/* unit_baseline.c -- the baselines (baseline.c): Chen's sqrt(n) and
 * greedy on a training chain, segments over a chain of random-number
 * states (C_v = 1, keep_crossing), the sparse S and R equal to the
 * matrices of their definition, articulation points. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>

#include "baseline.h"
#include "gen.h"
#include "graph.h"
#include "remat.h"
#include "sim.h"
#include "stage.h"
#include "tiny.h"

/* Chen's sqrt(n) on a Checkmate-style training chain: checkpoints every
 * floor(sqrt(L))-th forward node, each segment recomputed once. */
static void test_baseline_training_chain(void **state) {
  (void)state;
  int L = 9, n = 2 * L + 1, ne = 0;
  int64_t w[32], m[32];
  int src[64], dst[64];
  for (int v = 0; v < n; v++) w[v] = 1, m[v] = 1;
  for (int i = 1; i < L; i++) src[ne] = i - 1, dst[ne++] = i; /* forward */
  src[ne] = L - 1, dst[ne++] = L;                             /* loss */
  src[ne] = L, dst[ne++] = L + 1;                             /* grad(L-1) */
  for (int i = L - 1; i >= 1; i--) {
    int gi = 2 * L - i, gim1 = 2 * L - (i - 1);
    src[ne] = gi, dst[ne++] = gim1; /* grad(i) -> grad(i-1) */
    src[ne] = i, dst[ne++] = gim1;  /* i -> grad(i-1) */
  }
  for (int i = 0; i < L; i++)
    src[ne] = i, dst[ne++] = 2 * L - i; /* i -> grad(i) */
  remat_graph *g = graph_from_arrays(n, w, m, ne, src, dst, "train");
  g->backward = calloc((size_t)n, 1);
  for (int v = L; v < n; v++) g->backward[v] = 1;
  int *cand, nc = base_candidates(g, BASE_CAND_AP, &cand);
  assert_int_equal(nc, L); /* a chain: every forward node */
  free(cand);
  nc = base_candidates(g, BASE_CAND_LINEARIZED, &cand);
  assert_int_equal(nc, L);
  free(cand);
  int ck[3] = {2, 5, 8}, *seq;
  int len = base_schedule(g, ck, 3, 0, &seq);
  remat_sim s;
  assert_int_equal(remat_simulate(g, seq, len, &s, NULL), 0);
  /* the non-checkpoints of [0,2), [2,5) and [5,8) are recomputed once,
   * right before their backward pass; the last segment [8,9) is kept */
  assert_int_equal(s.recomputations, 2 + 2 + 2);
  assert_true(s.peak < remat_topo_peak(g));
  free(seq);
  remat_result r;
  base_params bp;
  base_params_init(&bp);
  bp.budget = remat_topo_peak(g) - 1;
  bp.method = BASE_CHEN_SQRTN;
  base_info info;
  remat_result_init(&r, g, bp.budget, "chen-sqrtn");
  assert_int_equal(base_run(g, &bp, &r, &info), 0);
  int want[3] = {2, 5, 8};
  assert_int_equal(info.ncheckpoints, 3);
  assert_memory_equal(info.checkpoints, want, sizeof want);
  assert_true(r.peak <= bp.budget);
  base_info_free(&info);
  remat_result_free(&r);
  bp.method = BASE_CHEN_GREEDY;
  remat_result_init(&r, g, bp.budget, "chen-greedy");
  assert_int_equal(base_run(g, &bp, &r, &info), 0);
  assert_true(r.peak <= bp.budget);
  assert_true(info.evaluated >= 2);
  base_info_free(&info);
  remat_result_free(&r);
  remat_graph_free(g);
}

/* Articulation points of a diamond-with-tail: 0 -> {1,2} -> 3 -> 4. */
/* The baselines build S and R stage by stage from S's intervals; check
 * them against the matrices of baseline.h's definition (S entry by entry,
 * then stage_r_opt and stage_sequence) for random checkpoint sets on
 * training graphs (forward/backward split), U-Nets and layered graphs. */
static void dense_baseline(const remat_graph *g, const unsigned char *is_ck,
                           stage_mat *S, stage_mat *R) {
  int n = g->n, last_fwd = -1;
  for (int v = 0; v < n; v++)
    if (!g->backward || !g->backward[v]) last_fwd = v;
  stage_mat_clear(S);
  for (int i = 0; i < n; i++) {
    int fwd = !g->backward || !g->backward[i];
    int last = g->succ_off[i + 1] > g->succ_off[i] ? g->succ[g->succ_off[i + 1] - 1] : i;
    int end = last_fwd + 1, first = n + 1;
    if (fwd && !is_ck[i]) {
      int start = 0; /* the segment [start, end) holding i */
      for (int c = i; c >= 0; c--)
        if (is_ck[c]) {
          start = c;
          break;
        }
      for (int c = i + 1; c <= last_fwd; c++)
        if (is_ck[c]) {
          end = c;
          break;
        }
      for (int v = start; v < end; v++) /* first reader after end */
        if (!is_ck[v] && (!g->backward || !g->backward[v]))
          for (int k = g->succ_off[v]; k < g->succ_off[v + 1]; k++)
            if (g->succ[k] > end && g->succ[k] < first) first = g->succ[k];
    }
    for (int t = i + 1; t <= last; t++)
      if (!fwd || is_ck[i] || t <= end || t >= first) stage_set(S, t, i, 1);
  }
  stage_r_opt(g, S, R);
}

static void test_baseline_sparse_equals_dense(void **state) {
  (void)state;
  rng_state = 11;
  int recomputing = 0;
  for (int round = 0; round < 24; round++) {
    remat_graph *g = round % 3 == 0   ? gen_training(5 + round, (uint64_t)round)
                     : round % 3 == 1 ? gen_unet(2 + round % 2, (uint64_t)round)
                                      : gen_layered(30 + 3 * round, (uint64_t)round);
    int n = g->n, *ck = malloc((size_t)n * sizeof *ck), nck = 0;
    unsigned char *is_ck = calloc((size_t)n, 1);
    int pct = (int)(rng_next() % 60);
    for (int v = 0; v < n; v++)
      if ((!g->backward || !g->backward[v]) && (int)(rng_next() % 100) < pct) {
        ck[nck++] = v;
        is_ck[v] = 1;
      }
    stage_mat S, R;
    stage_mat_init(&S, n);
    stage_mat_init(&R, n);
    dense_baseline(g, is_ck, &S, &R);
    int *want, *got;
    int wlen = stage_sequence(&R, &want), glen = base_schedule(g, ck, nck, 0, &got);
    assert_int_equal(glen, wlen);
    assert_memory_equal(got, want, (size_t)wlen * sizeof *got);
    recomputing += wlen > n;
    free(want);
    free(got);
    stage_mat_free(&S);
    stage_mat_free(&R);
    free(ck);
    free(is_ck);
    remat_graph_free(g);
  }
  assert_true(recomputing >= 12); /* the sets do cut segments */
}

static void test_articulation_points(void **state) {
  (void)state;
  int64_t w[5] = {1, 1, 1, 1, 1}, m[5] = {1, 1, 1, 1, 1};
  int src[5] = {0, 0, 1, 2, 3}, dst[5] = {1, 2, 3, 3, 4};
  remat_graph *g = graph_from_arrays(5, w, m, 5, src, dst, "ap");
  int *cand, nc = base_candidates(g, BASE_CAND_AP, &cand);
  int want[3] = {0, 3, 4}; /* 0 and 4 through the virtual input/output */
  assert_int_equal(nc, 3);
  assert_memory_equal(cand, want, sizeof want);
  free(cand);
  remat_graph_free(g);
}


/* A training chain of L layers whose every layer also reads a
 * random-number state, the states a chain of their own (state i reads
 * state i - 1), as exported training graphs are: x_i = f(x_{i-1}, r_i);
 * loss; g_i = b(g_{i+1}, x_i).  With checkpoints every third layer and no
 * C_v, Checkmate's App. B brings every segment back in the forward pass
 * for the next state and keeps it: the peak stays at the input order's;
 * keep_crossing stores the states read across segments and the peak
 * falls.  With C_v = 1 on
 * the states (as the exporter writes them) they are stored either way:
 * never computed twice, and the peak falls. */
static void test_baseline_state_chain(void **state) {
  (void)state;
  enum { L = 9 };
  int n = 3 * L + 1, ne = 0; /* r_i = 2i, x_i = 2i + 1; loss 2L; g_i */
  int64_t w[3 * L + 1], m[3 * L + 1];
  int src[8 * L], dst[8 * L];
  for (int i = 0; i < L; i++) {
    w[2 * i] = 1, m[2 * i] = 1;       /* r_i */
    w[2 * i + 1] = 10, m[2 * i + 1] = 100; /* x_i */
    if (i) src[ne] = 2 * i - 2, dst[ne++] = 2 * i;         /* r_{i-1} -> r_i */
    if (i) src[ne] = 2 * i - 1, dst[ne++] = 2 * i + 1;     /* x_{i-1} -> x_i */
    src[ne] = 2 * i, dst[ne++] = 2 * i + 1;                /* r_i -> x_i */
  }
  w[2 * L] = 1, m[2 * L] = 1;
  src[ne] = 2 * L - 1, dst[ne++] = 2 * L;
  for (int i = L - 1; i >= 0; i--) { /* g_i at 2L + L - i */
    int gi = 3 * L - i;
    w[gi] = 20, m[gi] = 100;
    src[ne] = gi - 1, dst[ne++] = gi;
    src[ne] = 2 * i + 1, dst[ne++] = gi;
  }
  remat_graph *g = graph_from_arrays(n, w, m, ne, src, dst, "states");
  g->backward = calloc((size_t)n, 1);
  for (int v = 2 * L + 1; v < n; v++) g->backward[v] = 1;
  int ck[2] = {7, 13}; /* x_3, x_6 */
  int64_t topo = remat_topo_peak(g);
  for (int cv = 1; cv >= 0; cv--) {
    for (int i = 0; i < L; i++) g->copies[2 * i] = cv; /* 0: not given */
    for (int keep = 0; keep < 2; keep++) {
      int *seq, len = base_schedule(g, ck, 2, keep, &seq);
      remat_sim s;
      assert_int_equal(remat_simulate(g, seq, len, &s, NULL), 0);
      int *count = calloc((size_t)n, sizeof *count), once = 1;
      for (int k = 0; k < len; k++) count[seq[k]]++;
      for (int i = 0; i < L; i++) once &= count[2 * i] == 1;
      fprintf(stderr, "  C_v %s, keep_crossing %d: peak %lld of %lld, states computed once: %s\n",
              cv ? "1" : "any", keep, (long long)s.peak, (long long)topo, once ? "yes" : "no");
      if (cv) assert_true(once);
      if (cv || keep) {
        assert_true(s.recomputations > 0);
        assert_true(s.peak < topo);
      } else {
        assert_int_equal(s.peak, topo);
      }
      free(count);
      free(seq);
    }
  }
  remat_graph_free(g);
}

UNIT_TESTS(test_articulation_points, test_baseline_training_chain, test_baseline_state_chain,
           test_baseline_sparse_equals_dense)
