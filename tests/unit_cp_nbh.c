/* unit_cp_nbh.c -- the CP worker's neighbourhoods (cp_nbh.c): which model
 * variables each Gecode restart fixes.  The first restart reproduces the
 * warm start; complete searches where LNS makes no sense (no solution, LNS
 * off, a small model, every few restarts, phase 2 with nothing to
 * recompute); otherwise a neighbourhood frees every variable of a few
 * nodes' copies and the ends of their predecessors' copies, no more than
 * its size allows, around a recomputation in phase 2; the size shrinks
 * after an improvement and grows after a failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "cp_nbh.h"
#include "fzn.h"
#include "gecode.h"
#include "graph.h"
#include "heur.h"
#include "model_any.h"
#include "oracle.h"

typedef struct fixture {
  remat_graph *g;
  model md;
  fzn_layout layout;
  model_sol x;
  int *values;
  unsigned char *fix;
  nbh L;
  long long solutions;
} fixture;

static int keep_last(void *ctx, const int *seq, int len, const char *name) {
  (void)name;
  int **out = ctx;
  free(*out);
  *out = malloc((size_t)(len + 1) * sizeof **out);
  (*out)[0] = len;
  memcpy(*out + 1, seq, (size_t)len * sizeof *seq);
  return 0;
}

/* The model of an n-node graph (C_v = 2) in `phase`, with the values of
 * the greedy's schedule at a budget a third of the way from the lowest
 * peak to the input order's (recompute: the schedule has recomputations)
 * or of the input order. */
static void fx_init(fixture *F, int n, int phase, int recompute, int mode) {
  memset(F, 0, sizeof *F);
  F->g = oracle_dag(n, 10, 9, 9, 4242);
  int64_t lo = remat_graph_min_peak(F->g), hi = remat_topo_peak(F->g);
  int64_t M = lo + (hi - lo) / 3;
  char err[256];
  assert_int_equal(model_build(&F->md, F->g, phase, M, NULL, 2, err, sizeof err), 0);
  int *copies = malloc((size_t)n * sizeof *copies);
  for (int v = 0; v < n; v++) copies[v] = F->md.first[v + 1] - F->md.first[v];
  int *got = NULL;
  if (recompute) {
    heur_params hp;
    heur_params_init(&hp);
    hp.budget = M;
    hp.copies = copies;
    hp.deadline = deadline_in(0.2);
    hp.io.report = keep_last;
    hp.io.ctx = &got;
    heur_run(F->g, &hp);
    assert_non_null(got);
    assert_true(got[0] > n); /* it recomputes */
  } else {
    got = malloc((size_t)(n + 1) * sizeof *got);
    got[0] = n;
    for (int v = 0; v < n; v++) got[v + 1] = v;
  }
  free(copies);
  model_sol_alloc(&F->md, &F->x);
  assert_int_equal(model_encode(&F->md, got + 1, got[0], &F->x), 0);
  free(got);
  fzn_layout_build(&F->md, &F->layout);
  F->values = malloc((size_t)F->layout.nlns * sizeof *F->values);
  fzn_layout_values(&F->layout, &F->x, F->values);
  F->fix = malloc((size_t)F->layout.nlns);
  nbh_init(&F->L, &F->md, &F->layout, mode, 7, &F->solutions);
}

static void fx_free(fixture *F) {
  nbh_free(&F->L);
  free(F->fix);
  free(F->values);
  fzn_layout_free(&F->layout);
  model_sol_free(&F->x);
  model_free(&F->md);
  remat_graph_free(F->g);
}

static int nbh_call(fixture *F, long long restart, int with_values) {
  return nbh_neighbourhood(&F->L, restart, F->layout.nlns, with_values ? F->values : NULL,
                           with_values, F->fix);
}

/* The relaxed nodes of the last neighbourhood: those with a free 'a' or
 * 's' (every node but a sink has a later copy with C_v = 2 here), and the
 * sinks with a free end (a sink is nobody's predecessor).  Checks that a
 * relaxed node has all its copies' variables free, that its
 * predecessors' ends are free, and that nothing else is.  Returns their
 * number. */
static int relaxed_nodes(fixture *F, unsigned char *relaxed) {
  const model *md = &F->md;
  const remat_graph *g = F->g;
  const fzn_layout *l = &F->layout;
  memset(relaxed, 0, (size_t)g->n);
  for (int k = 0; k < l->nlns; k++) {
    int v = md->node[l->copy[k]];
    if (!F->fix[k] && (l->kind[k] != 'e' || graph_nsucc(g, v) == 0)) relaxed[v] = 1;
  }
  unsigned char *end_free = calloc((size_t)md->ncopy, 1);
  int count = 0;
  for (int v = 0; v < g->n; v++) {
    if (!relaxed[v]) continue;
    count++;
    for (int c = md->first[v]; c < md->first[v + 1]; c++) end_free[c] = 1;
    for (int j = g->pred_off[v]; j < g->pred_off[v + 1]; j++) {
      int u = g->pred[j];
      assert_true(graph_nsucc(g, u) > 0);
      for (int c = md->first[u]; c < md->first[u + 1]; c++) end_free[c] = 1;
    }
  }
  for (int k = 0; k < l->nlns; k++) {
    int c = l->copy[k], v = md->node[c];
    if (l->kind[k] == 'e')
      assert_int_equal(F->fix[k], !end_free[c]);
    else
      assert_int_equal(F->fix[k], !relaxed[v]);
  }
  free(end_free);
  return count;
}

static void test_nbh_complete_searches(void **state) {
  (void)state;
  fixture F;
  fx_init(&F, 40, 2, 1, REMAT_LNS_AUTO);
  assert_true(F.md.ncopy > 64);
  /* no solution yet: complete; with one, the first restart fixes all */
  assert_int_equal(nbh_call(&F, 0, 0), GZ_NBH_COMPLETE);
  memset(F.fix, 0, (size_t)F.layout.nlns);
  assert_int_equal(nbh_call(&F, 0, 1), GZ_NBH_FIX);
  for (int k = 0; k < F.layout.nlns; k++) assert_int_equal(F.fix[k], 1);
  assert_int_equal(nbh_call(&F, 5, 0), GZ_NBH_COMPLETE);
  /* every sixteenth restart (1, 17, 33...) is complete */
  assert_int_equal(nbh_call(&F, 17, 1), GZ_NBH_COMPLETE);
  assert_int_equal(nbh_call(&F, 33, 1), GZ_NBH_COMPLETE);
  assert_int_equal(nbh_call(&F, 2, 1), GZ_NBH_FIX);
  fx_free(&F);
  /* LNS off */
  fx_init(&F, 40, 2, 1, REMAT_LNS_NONE);
  assert_int_equal(nbh_call(&F, 2, 1), GZ_NBH_COMPLETE);
  fx_free(&F);
  /* a small model: just prove it */
  fx_init(&F, 12, 2, 1, REMAT_LNS_AUTO);
  assert_true(F.md.ncopy <= 64);
  assert_int_equal(nbh_call(&F, 2, 1), GZ_NBH_COMPLETE);
  fx_free(&F);
  /* phase 2 with nothing to recompute: nothing to free */
  fx_init(&F, 40, 2, 0, REMAT_LNS_AUTO);
  assert_int_equal(nbh_call(&F, 2, 1), GZ_NBH_COMPLETE);
  fx_free(&F);
}

static void test_nbh_phase2_neighbourhoods(void **state) {
  (void)state;
  fixture F;
  fx_init(&F, 40, 2, 1, REMAT_LNS_AUTO);
  int n = F.g->n;
  unsigned char *relaxed = malloc((size_t)n);
  /* the nodes with an active recomputation */
  unsigned char *recomputed = calloc((size_t)n, 1);
  for (int c = 0; c < F.md.ncopy; c++)
    if (F.x.a[c] && c != F.md.first[F.md.node[c]]) recomputed[F.md.node[c]] = 1;
  long long tries = 0;
  for (long long restart = 2; restart < 200; restart++) {
    int st = nbh_call(&F, restart, 1);
    if (restart % 16 == 1) {
      assert_int_equal(st, GZ_NBH_COMPLETE);
      continue;
    }
    assert_int_equal(st, GZ_NBH_FIX);
    tries++;
    int k = (int)(F.L.size * n + 0.5);
    if (k < 2) k = 2;
    int cnt = relaxed_nodes(&F, relaxed);
    assert_true(cnt >= 1 && cnt <= k);
    /* anchored on a recomputation: one of the relaxed nodes recomputes */
    int anchored = 0;
    for (int v = 0; v < n; v++) anchored |= relaxed[v] && recomputed[v];
    assert_true(anchored);
    /* an improvement every third call: the size follows */
    if (restart % 3 == 0) F.solutions++;
  }
  long long sum = 0;
  for (int i = 0; i < NBH_KINDS; i++) sum += F.L.tries[i];
  assert_int_equal(sum, tries);
  free(relaxed);
  free(recomputed);
  fx_free(&F);
}

static void test_nbh_size_adapts(void **state) {
  (void)state;
  fixture F;
  fx_init(&F, 40, 2, 1, REMAT_LNS_AUTO);
  assert_int_equal(nbh_call(&F, 2, 1), GZ_NBH_FIX);
  double s0 = F.L.size;
  int kind = F.L.last_kind;
  assert_true(kind >= 0 && kind < NBH_KINDS);
  F.solutions++; /* the neighbourhood improved */
  assert_int_equal(nbh_call(&F, 3, 1), GZ_NBH_FIX);
  assert_true(F.L.size < s0);
  assert_int_equal(F.L.wins[kind], 1);
  double s1 = F.L.size;
  assert_int_equal(nbh_call(&F, 4, 1), GZ_NBH_FIX); /* no improvement */
  assert_true(F.L.size > s1);
  /* failures grow it to its cap, never past */
  for (long long r = 5; r < 2000; r++) nbh_call(&F, r, 1);
  assert_true(F.L.size <= 0.6 + 1e-12 && F.L.size > 0.59);
  fx_free(&F);
}

static void test_nbh_phase1(void **state) {
  (void)state;
  fixture F;
  fx_init(&F, 40, 1, 0, REMAT_LNS_AUTO); /* the input order, over budget */
  unsigned char *relaxed = malloc((size_t)F.g->n);
  for (long long restart = 2; restart < 60; restart++) {
    int st = nbh_call(&F, restart, 1);
    if (restart % 16 == 1) continue;
    assert_int_equal(st, GZ_NBH_FIX);
    int k = (int)(F.L.size * F.g->n + 0.5);
    if (k < 2) k = 2;
    int cnt = relaxed_nodes(&F, relaxed);
    assert_true(cnt >= 1 && cnt <= k);
  }
  free(relaxed);
  fx_free(&F);
}

UNIT_TESTS(test_nbh_complete_searches, test_nbh_phase2_neighbourhoods,
           test_nbh_size_adapts, test_nbh_phase1)
