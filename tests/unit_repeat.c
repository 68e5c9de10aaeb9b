/* unit_repeat.c -- repeated structure (repeat.h): a chain of k identical
 * blocks is found as k copies of one kind, each block's nodes together;
 * changing one block's size leaves that block out and keeps the others;
 * durations within the tolerance still agree, beyond it they do not; two
 * kinds of blocks one after the other are two kinds; a training graph
 * (forward blocks and their backward blocks in reverse) pairs each
 * forward block with its backward block; a random graph has nothing. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "blocks.h"
#include "graph.h"
#include "repeat.h"
#include "tiny.h"

/* One block: a (reads the block before's d, or the source), b and c read
 * a, d reads b and c. */
#define BLOCK 4
static const int64_t block_w[BLOCK] = {100, 200, 300, 50};
static const int64_t block_m[BLOCK] = {4, 3, 5, 2};

/* A source, then k blocks (kinds[j] 0 or 1: kind 1 has b and c swapped in
 * size), block j's b's size times mscale[j] and its durations times
 * wscale[j] (NULL: 1). */
static remat_graph *chain_of_blocks(int k, const int *kinds, const int64_t *mscale,
                                    const double *wscale) {
  int n = 1 + BLOCK * k, ne = 0;
  int64_t *w = malloc((size_t)n * sizeof *w), *m = malloc((size_t)n * sizeof *m);
  int *src = malloc((size_t)5 * k * sizeof *src), *dst = malloc((size_t)5 * k * sizeof *dst);
  w[0] = 10;
  m[0] = block_m[BLOCK - 1]; /* what every block reads is of one size */
  for (int j = 0; j < k; j++) {
    int a = 1 + BLOCK * j;
    for (int i = 0; i < BLOCK; i++) {
      int from = kinds && kinds[j] && (i == 1 || i == 2) ? 3 - i : i;
      w[a + i] = (int64_t)((double)block_w[from] * (wscale ? wscale[j] : 1.0));
      m[a + i] = block_m[from] * (mscale && i == 1 ? mscale[j] : 1);
    }
    int e[5][2] = {{j ? a - 1 : 0, a}, {a, a + 1}, {a, a + 2}, {a + 1, a + 3}, {a + 2, a + 3}};
    for (int t = 0; t < 5; t++) src[ne] = e[t][0], dst[ne++] = e[t][1];
  }
  remat_graph *g = graph_from_arrays(n, w, m, ne, src, dst, "blocks");
  free(w), free(m), free(src), free(dst);
  return g;
}

static repeat_out find(const remat_graph *g, double tol) {
  repeat_params p;
  repeat_params_init(&p);
  p.dur_tol = tol;
  repeat_out r;
  assert_int_equal(repeat_find(g, &p, &r), 0);
  return r;
}

/* Block j's four nodes are one block of kind `kind` (-1: in none). */
static void assert_block(const repeat_out *r, int j, int kind) {
  int a = 1 + BLOCK * j, b = r->block_of[a];
  for (int i = 1; i < BLOCK; i++) assert_int_equal(r->block_of[a + i], b);
  if (kind < 0) {
    assert_int_equal(b, -1);
    return;
  }
  assert_true(b >= 0);
  assert_int_equal(r->kind[b], kind);
  assert_int_equal(r->size[b], BLOCK);
  assert_int_equal(r->first[b], a);
}

static void test_chain(void **state) {
  (void)state;
  for (int k = 2; k <= 12; k += 5) {
    remat_graph *g = chain_of_blocks(k, NULL, NULL, NULL);
    repeat_out r = find(g, 0.05);
    assert_int_equal(r.nkinds, 1);
    assert_int_equal(r.copies[0], k);
    assert_int_equal(r.nblocks, k);
    assert_int_equal(r.covered, BLOCK * k);
    assert_int_equal(r.block_of[0], -1);
    for (int j = 0; j < k; j++) assert_block(&r, j, 0);
    repeat_out_free(&r);
    remat_graph_free(g);
  }
}

static void test_perturbed_size(void **state) {
  (void)state;
  int k = 9;
  int64_t mscale[9] = {1, 1, 1, 1, 3, 1, 1, 1, 1};
  remat_graph *g = chain_of_blocks(k, NULL, mscale, NULL);
  repeat_out r = find(g, 0.05);
  assert_int_equal(r.nkinds, 1);
  assert_int_equal(r.copies[0], k - 1);
  for (int j = 0; j < k; j++) assert_block(&r, j, j == 4 ? -1 : 0);
  repeat_out_free(&r);
  remat_graph_free(g);
}

static void test_duration_tolerance(void **state) {
  (void)state;
  int k = 6;
  /* 0.5 % longer: within 5 % (and in the same bucket: 100, 200, 300, 50
   * and 100, 201, 301, 50 share floor(log w / log 1.05)) */
  double wscale[6] = {1, 1, 1.005, 1, 1, 1};
  remat_graph *g = chain_of_blocks(k, NULL, NULL, wscale);
  repeat_out r = find(g, 0.05);
  assert_int_equal(r.nkinds, 1);
  assert_int_equal(r.copies[0], k);
  repeat_out_free(&r);
  r = find(g, 0); /* exact durations: block 2 differs */
  assert_int_equal(r.copies[0], k - 1);
  assert_block(&r, 2, -1);
  repeat_out_free(&r);
  remat_graph_free(g);
  wscale[2] = 1.5; /* beyond the tolerance */
  g = chain_of_blocks(k, NULL, NULL, wscale);
  r = find(g, 0.05);
  assert_int_equal(r.copies[0], k - 1);
  assert_block(&r, 2, -1);
  repeat_out_free(&r);
  remat_graph_free(g);
}

static void test_two_kinds(void **state) {
  (void)state;
  int kinds[8] = {0, 0, 0, 0, 1, 1, 1, 1};
  remat_graph *g = chain_of_blocks(8, kinds, NULL, NULL);
  repeat_out r = find(g, 0.05);
  assert_int_equal(r.nkinds, 2);
  assert_int_equal(r.copies[0], 4);
  assert_int_equal(r.copies[1], 4);
  assert_true(r.hash[0] != r.hash[1]);
  for (int j = 0; j < 8; j++) assert_block(&r, j, kinds[j]);
  repeat_out_free(&r);
  remat_graph_free(g);
}

/* A training chain of k identical layers (blocks.h): each forward layer
 * and its backward nodes are one block. */
static void test_training(void **state) {
  (void)state;
  int k = 7, width = 3;
  const int64_t w[3] = {30, 5, 12}, m[3] = {16, 8, 8};
  remat_graph *g = training_layers(k, width, w, m);
  repeat_out r = find(g, 0.05);
  assert_int_equal(r.nkinds, 1);
  assert_true(r.copies[0] >= k - 2);
  for (int b = 0; b < r.nblocks; b++) assert_int_equal(r.size[b], 2 * width);
  for (int j = 0; j < k; j++) { /* forward layer j and its backward together */
    int f = 1 + width * j, t = 1 + width * k + width * (k - 1 - j);
    int b = r.block_of[f];
    if (b < 0) continue;
    for (int i = 0; i < width; i++) {
      assert_int_equal(r.block_of[f + i], b);
      assert_int_equal(r.block_of[t + i], b);
    }
  }
  repeat_out_free(&r);
  remat_graph_free(g);
}

static void test_random_nothing(void **state) {
  (void)state;
  for (int s = 0; s < 20; s++) {
    remat_graph *g = tiny_dag(12, 30, 1000);
    repeat_out r = find(g, 0);
    assert_int_equal(r.nblocks, 0);
    assert_int_equal(r.covered, 0);
    for (int v = 0; v < g->n; v++) assert_int_equal(r.block_of[v], -1);
    repeat_out_free(&r);
    remat_graph_free(g);
  }
}

UNIT_TESTS(test_chain, test_perturbed_size, test_duration_tolerance, test_two_kinds,
           test_training, test_random_nothing)
