/* unit_gen.c -- tests of the graph generators (gen.c). */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "graph.h"

/* ------------------------------------------------------------ helpers */

/* Every edge goes forward (u < v) and the CSR lists agree. */
static void check_topological(const remat_graph *g) {
  assert_non_null(g);
  int ne = 0;
  for (int u = 0; u < g->n; u++)
    for (int j = g->succ_off[u]; j < g->succ_off[u + 1]; j++) {
      assert_true(u < g->succ[j]);
      ne++;
    }
  assert_int_equal(ne, g->n_edges);
  for (int v = 0; v < g->n; v++)
    for (int j = g->pred_off[v]; j < g->pred_off[v + 1]; j++)
      assert_true(g->pred[j] < v);
  for (int v = 0; v < g->n; v++) {
    char id[32];
    snprintf(id, sizeof id, "%d", v);
    assert_string_equal(g->id[v], id);
  }
  assert_true(g->ids_numeric);
}

static int has_edge(const remat_graph *g, int u, int v) {
  for (int j = g->succ_off[u]; j < g->succ_off[u + 1]; j++)
    if (g->succ[j] == v) return 1;
  return 0;
}

/* The node labelled `label`, or -1. */
static int find_label(const remat_graph *g, const char *label) {
  for (int v = 0; v < g->n; v++)
    if (g->label[v] && !strcmp(g->label[v], label)) return v;
  return -1;
}

/* Longest-path layer of every node (the generator's layers). */
static int *layers_of(const remat_graph *g) {
  int *l = calloc((size_t)g->n, sizeof *l);
  for (int v = 0; v < g->n; v++)
    for (int j = g->pred_off[v]; j < g->pred_off[v + 1]; j++)
      if (l[g->pred[j]] + 1 > l[v]) l[v] = l[g->pred[j]] + 1;
  return l;
}

/* -------------------------------------------------------- layered DAGs */

static void check_layered(const remat_graph *g) {
  check_topological(g);
  int n = g->n, sources = 0, sinks = 0;
  for (int v = 0; v < n; v++) {
    sources += graph_npred(g, v) == 0;
    sinks += graph_nsucc(g, v) == 0;
    assert_true(g->m[v] % 10 == 0 && g->m[v] >= 10 && g->m[v] <= 10000);
    assert_true(g->w[v] >= 0 && g->w[v] <= 999);
  }
  assert_int_equal(sources, 1);
  assert_int_equal(sinks, 1);
  assert_int_equal(graph_npred(g, 0), 0);
  assert_int_equal(graph_nsucc(g, n - 1), 0);
  assert_int_equal(g->w[0], 0);
  assert_int_equal(g->w[n - 1], 0);
  /* every node is reachable from the source and reaches the sink */
  char *fwd = calloc((size_t)n, 1), *bwd = calloc((size_t)n, 1);
  fwd[0] = bwd[n - 1] = 1;
  for (int u = 0; u < n; u++)
    for (int j = g->succ_off[u]; j < g->succ_off[u + 1]; j++)
      if (fwd[u]) fwd[g->succ[j]] = 1;
  for (int v = n - 1; v >= 0; v--)
    for (int j = g->pred_off[v]; j < g->pred_off[v + 1]; j++)
      if (bwd[v]) bwd[g->pred[j]] = 1;
  for (int v = 0; v < n; v++) assert_true(fwd[v] && bwd[v]);
  free(fwd);
  free(bwd);
}

static void test_layered_shape(void **state) {
  (void)state;
  int sizes[] = {3, 4, 5, 10, 30, 100, 250};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
    for (uint64_t seed = 1; seed <= 4; seed++) {
      remat_graph *g = gen_layered(sizes[i], seed);
      assert_int_equal(g->n, sizes[i]);
      check_layered(g);
      assert_string_equal(g->format, "native");
      assert_null(g->path);
      assert_null(g->backward);
      remat_graph_free(g);
    }
  assert_null(gen_layered(2, 1));
  assert_null(gen_layered(-5, 1));
}

static void test_layered_skip_fraction(void **state) {
  (void)state;
  int sizes[] = {100, 250, 1000};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
    long skip = 0, total = 0;
    for (uint64_t seed = 1; seed <= 5; seed++) {
      remat_graph *g = gen_layered(sizes[i], seed);
      int *l = layers_of(g);
      for (int u = 0; u < g->n; u++)
        for (int j = g->succ_off[u]; j < g->succ_off[u + 1]; j++)
          skip += l[g->succ[j]] - l[u] >= 2;
      total += g->n_edges;
      free(l);
      remat_graph_free(g);
    }
    double f = (double)skip / (double)total;
    assert_true(f >= 0.05 && f <= 0.25);
  }
}

/* Sizes and degrees in the ranges of the published instances. */
static void test_layered_statistics(void **state) {
  (void)state;
  double deg[2] = {0, 0}, mean = 0;
  int ns[2] = {100, 1000}, count = 0;
  for (int k = 0; k < 2; k++)
    for (uint64_t seed = 1; seed <= 4; seed++) {
      remat_graph *g = gen_layered(ns[k], seed);
      deg[k] += (double)g->n_edges / g->n / 4;
      for (int v = 0; v < g->n; v++) mean += (double)g->m[v];
      count += g->n;
      remat_graph_free(g);
    }
  mean /= count;
  assert_true(deg[0] > 1.8 && deg[0] < 3.2);
  assert_true(deg[1] > 4.5 && deg[1] < 7.5);
  assert_true(mean > 1600 && mean < 2400);
}

static void test_layered_deterministic(void **state) {
  (void)state;
  remat_graph *a = gen_layered(120, 7), *b = gen_layered(120, 7);
  remat_graph *c = gen_layered(120, 8);
  assert_true(same_graph(a, b));
  assert_false(same_graph(a, c));
  assert_string_equal(a->name, b->name);
  remat_graph_free(a);
  remat_graph_free(b);
  remat_graph_free(c);
}

/* ----------------------------------------------------- training graphs */

static void test_training(void **state) {
  (void)state;
  for (int L = 1; L <= 12; L += 11) {
    remat_graph *g = gen_training(L, 3);
    check_topological(g);
    assert_int_equal(g->n, 2 * L + 1);
    assert_int_equal(g->n_edges, 4 * L - 1);
    assert_string_equal(g->label[L], "loss");
    assert_int_equal(g->w[L], 0);
    assert_non_null(g->backward);
    for (int v = 0; v < g->n; v++) assert_int_equal(g->backward[v], v >= L);
    assert_true(has_edge(g, L - 1, L) && has_edge(g, L, L + 1));
    for (int i = 0; i < L; i++) {
      int gi = 2 * L - i;
      char lab[32];
      snprintf(lab, sizeof lab, "grad_%d", i);
      assert_string_equal(g->label[gi], lab);
      snprintf(lab, sizeof lab, "fwd_%d", i);
      assert_string_equal(g->label[i], lab);
      assert_int_equal(g->w[gi], 2 * g->w[i]);
      assert_int_equal(g->m[gi], g->m[i]);
      assert_true(g->w[i] >= 10 && g->w[i] <= 1000);
      assert_true(has_edge(g, i, gi));
      if (i) {
        assert_true(has_edge(g, i - 1, i));
        assert_true(has_edge(g, gi, gi + 1)); /* grad(i) -> grad(i-1) */
        assert_true(has_edge(g, i, gi + 1));  /* i -> grad(i-1) */
      }
    }
    remat_graph_free(g);
  }
  assert_null(gen_training(0, 1));
  remat_graph *a = gen_training(8, 1), *b = gen_training(8, 1);
  remat_graph *c = gen_training(8, 2);
  assert_true(same_graph(a, b));
  assert_false(same_graph(a, c));
  remat_graph_free(a);
  remat_graph_free(b);
  remat_graph_free(c);
}

/* --------------------------------------------------------------- U-Net */

static void test_unet(void **state) {
  (void)state;
  for (int d = 1; d <= GEN_UNET_MAX_DEPTH; d++) {
    remat_graph *g = gen_unet(d, 5);
    check_topological(g);
    int nf = 4 * d + 2;
    assert_int_equal(g->n, 8 * d + 5);
    assert_string_equal(g->label[nf], "loss");
    assert_string_equal(g->label[nf - 1], "out");
    assert_non_null(g->backward);
    for (int v = 0; v < g->n; v++) assert_int_equal(g->backward[v], v >= nf);
    for (int i = 0; i < nf; i++) {
      int gi = 2 * nf - i;
      char lab[80];
      snprintf(lab, sizeof lab, "grad_%s", g->label[i]);
      assert_string_equal(g->label[gi], lab);
      assert_int_equal(g->w[gi], 2 * g->w[i]);
      assert_int_equal(g->m[gi], g->m[i]);
      assert_true(has_edge(g, i, gi));
      /* the Checkmate rule for every forward edge */
      for (int j = g->succ_off[i]; j < g->succ_off[i + 1]; j++) {
        int v = g->succ[j];
        if (v >= nf) continue;
        assert_true(has_edge(g, 2 * nf - v, gi));
        assert_true(has_edge(g, v, gi));
      }
    }
    /* skip connections and sizes halving with depth */
    for (int k = 0; k < d; k++) {
      char e[32], dec[32];
      snprintf(e, sizeof e, "enc_%d", k);
      snprintf(dec, sizeof dec, "dec_%d", k);
      int ve = find_label(g, e), vd = find_label(g, dec);
      assert_true(ve >= 0 && vd >= 0 && has_edge(g, ve, vd));
      assert_int_equal(g->m[ve], g->m[vd]);
      if (k + 1 < d && g->m[ve] >= 40) {
        snprintf(e, sizeof e, "enc_%d", k + 1);
        int64_t next = g->m[find_label(g, e)];
        assert_true(2 * next <= g->m[ve] && 2 * next + 10 >= g->m[ve]);
      }
    }
    remat_graph_free(g);
  }
  assert_null(gen_unet(0, 1));
  assert_null(gen_unet(GEN_UNET_MAX_DEPTH + 1, 1));
}

/* ---------------------------------------------------------- random DAGs */

static void test_random_dag(void **state) {
  (void)state;
  int ps[] = {0, 10, 30, 100};
  for (int n = 1; n <= 12; n++)
    for (size_t k = 0; k < sizeof ps / sizeof *ps; k++)
      for (uint64_t seed = 1; seed <= 3; seed++) {
        remat_graph *g = gen_random_dag(n, ps[k], seed);
        check_topological(g);
        assert_int_equal(g->n, n);
        for (int v = 0; v < n; v++) {
          assert_true(g->w[v] >= 0 && g->w[v] <= 20);
          assert_true(g->m[v] >= 1 && g->m[v] <= 20);
          if (n > 1) assert_true(graph_npred(g, v) + graph_nsucc(g, v) > 0);
        }
        /* weakly connected */
        int *comp = malloc((size_t)n * sizeof *comp);
        for (int v = 0; v < n; v++) comp[v] = v;
        for (int changed = 1; changed;) {
          changed = 0;
          for (int u = 0; u < n; u++)
            for (int j = g->succ_off[u]; j < g->succ_off[u + 1]; j++) {
              int v = g->succ[j], c = comp[u] < comp[v] ? comp[u] : comp[v];
              if (comp[u] != c || comp[v] != c) changed = 1;
              comp[u] = comp[v] = c;
            }
        }
        for (int v = 0; v < n; v++) assert_int_equal(comp[v], 0);
        free(comp);
        if (ps[k] == 100) assert_int_equal(g->n_edges, n * (n - 1) / 2);
        remat_graph_free(g);
      }
  assert_null(gen_random_dag(0, 10, 1));
  assert_null(gen_random_dag(5, 101, 1));
  remat_graph *a = gen_random_dag(10, 30, 9), *b = gen_random_dag(10, 30, 9);
  assert_true(same_graph(a, b));
  remat_graph_free(a);
  remat_graph_free(b);
}

UNIT_TESTS(test_layered_shape, test_layered_skip_fraction,
           test_layered_statistics, test_layered_deterministic, test_training,
           test_unet, test_random_dag)

