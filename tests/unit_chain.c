/* unit_chain.c -- the repeated blocks composed into a schedule (chain.h)
 * on training graphs of identical layers (blocks.h): within a budget below
 * the input order's peak it finds a schedule, valid and within budget when
 * re-simulated, on the input order's stages, that recomputes; the more
 * budget, the shorter (never longer); at the input order's peak the input
 * order itself; below what dropping every group reaches, nothing; a graph
 * without backward flags has no chain.  On layers whose saved value is
 * made from a forward-only value of its size, only dropping both frees
 * anything: the search drops them together, at sizes near 10^12 and
 * durations near 10^9 too. */
#include <stdlib.h>

#include "testutil.h"

#include "blocks.h"
#include "chain.h"
#include "repeat.h"

static const int64_t lw[4] = {30, 5, 12, 40}, lm[4] = {16, 8, 8, 4};

static chain_out compose(const remat_graph *g, int64_t M, const int *copies) {
  repeat_params p;
  repeat_params_init(&p);
  repeat_out rep;
  assert_int_equal(repeat_find(g, &p, &rep), 0);
  chain_out c;
  assert_int_equal(chain_compose(g, &rep, M, copies, DEADLINE_NONE, &c), 0);
  repeat_out_free(&rep);
  return c;
}

/* First computations in index order, each stage's recomputations
 * ascending and below it. */
static int on_stages(const int *seq, int len) {
  int t = 0, last = -1;
  for (int i = 0; i < len; i++) {
    if (seq[i] == t) t++, last = -1;
    else if (seq[i] < t && seq[i] > last) last = seq[i];
    else return 0;
  }
  return 1;
}

static void test_chain_fits(void **state) {
  (void)state;
  remat_graph *g = training_layers(12, 4, lw, lm);
  int64_t topo = remat_topo_peak(g), prev = -1;
  for (int pct = 50; pct <= 90; pct += 20) {
    int64_t M = topo * pct / 100;
    chain_out c = compose(g, M, NULL);
    assert_int_equal(c.kind, 0);
    assert_true(c.blocks >= 10);
    assert_non_null(c.seq);
    remat_sim s;
    assert_int_equal(remat_simulate(g, c.seq, c.len, &s, NULL), 0);
    assert_true(s.peak <= M);
    assert_int_equal(s.peak, c.peak);
    assert_int_equal(s.duration, c.duration);
    assert_true(s.recomputations > 0);
    assert_true(on_stages(c.seq, c.len));
    assert_true(c.dropped + c.partial > 0 && c.groups >= c.dropped + c.partial);
    if (prev >= 0) assert_true(c.duration <= prev);
    prev = c.duration;
    free(c.seq);
  }
  chain_out c = compose(g, topo, NULL); /* the input order fits */
  assert_non_null(c.seq);
  assert_int_equal(c.dropped, 0);
  assert_int_equal(c.len, g->n);
  assert_int_equal(c.duration, remat_graph_base_duration(g));
  free(c.seq);
  c = compose(g, remat_graph_min_peak(g), NULL); /* below what any option reaches */
  assert_null(c.seq);
  assert_true(c.evals > 0);
  remat_graph_free(g);
}

/* With C_v = 2 no node is computed more than twice; with C_v = 1 nothing
 * is recomputed, and half the peak is out of reach. */
static void test_chain_copies(void **state) {
  (void)state;
  remat_graph *g = training_layers(12, 4, lw, lm);
  int *copies = malloc((size_t)g->n * sizeof *copies), *count = calloc((size_t)g->n, sizeof *count);
  for (int v = 0; v < g->n; v++) copies[v] = 2;
  int64_t M = remat_topo_peak(g) * 6 / 10;
  chain_out c = compose(g, M, copies);
  assert_non_null(c.seq);
  assert_true(c.peak <= M);
  for (int i = 0; i < c.len; i++) assert_true(++count[c.seq[i]] <= 2);
  free(c.seq);
  for (int v = 0; v < g->n; v++) copies[v] = 1;
  c = compose(g, M, copies);
  assert_null(c.seq);
  free(copies);
  free(count);
  remat_graph_free(g);
}

static void test_chain_pairs(void **state) {
  (void)state;
  static const int64_t scale[][2] = {{1, 1}, {250000000000, 50000000}};
  for (int s = 0; s < 2; s++) {
    remat_graph *g = dropout_layers(8, scale[s][0], scale[s][1]);
    int64_t M = remat_topo_peak(g) * 6 / 10;
    chain_out c = compose(g, M, NULL);
    assert_non_null(c.seq);
    remat_sim r;
    assert_int_equal(remat_simulate(g, c.seq, c.len, &r, NULL), 0);
    assert_true(r.peak <= M);
    assert_int_equal(r.duration, c.duration);
    int *count = calloc((size_t)g->n, sizeof *count), both = 0;
    for (int i = 0; i < c.len; i++) count[c.seq[i]]++;
    for (int j = 0; j < 8; j++) {
      int b = 3 * j + 1, d = b + 1;
      assert_int_equal(count[b], count[d]); /* dropped together or not at all */
      both += count[d] == 2;
    }
    assert_true(both > 0);
    free(count);
    free(c.seq);
    remat_graph_free(g);
  }
}

static void test_no_backward(void **state) {
  (void)state;
  remat_graph *g = training_layers(6, 4, lw, lm);
  free(g->backward);
  g->backward = NULL;
  chain_out c = compose(g, remat_topo_peak(g) / 2, NULL);
  assert_int_equal(c.kind, -1);
  assert_null(c.seq);
  remat_graph_free(g);
}

UNIT_TESTS(test_chain_fits, test_chain_copies, test_chain_pairs, test_no_backward)
