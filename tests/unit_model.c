/* unit_model.c -- the stage model (model.c): events and stages, the
 * peak's sweep against a load array, encoding and decoding schedules,
 * scaled sizes, and Gecode's number limits on a large model. */
#include <stdlib.h>

#include "small_model.h"
#include "testutil.h"

#include "fzn.h"
#include "gecode.h"
#include "graph.h"
#include "model_any.h"
#include "oracle.h"
#include "remat.h"
#include "util.h"

static void test_model_events(void **state) {
  (void)state;
  /* stage k has events k(k-1)/2 + 1 .. k(k+1)/2 */
  for (int k = 1; k < 200; k++)
    for (int p = 1; p <= k; p++) assert_int_equal(model_stage(model_event(k, p)), k);
  /* the ends of every stage whose events fit 32 bits (the square root's
   * rounding must not move an event to a neighbouring stage) */
  for (int k = 1; k <= 65535; k++) {
    assert_int_equal(model_stage(model_event(k, 1)), k);
    assert_int_equal(model_stage(model_event(k, k)), k);
  }
  assert_int_equal(model_first_start(0), 1);
  assert_int_equal(model_first_start(3), 10);
}

/* model_peak's sweep over sorted endpoints equals a load array over the
 * horizon, on random intervals (shared endpoints, touching intervals,
 * inactive and out-of-range copies included). */
static void test_model_peak_sweep(void **state) {
  (void)state;
  model md;
  model_sol x;
  remat_graph *g = small_model(&md, &x, 2, 60);
  uint64_t r = 5;
  for (int rep = 0; rep < 2000; rep++) {
    int64_t load[16] = {0}; /* events 1..horizon (10) */
    assert_true(md.horizon <= 13);
    for (int c = 0; c < md.ncopy; c++) {
      x.a[c] = util_below(&r, 4) != 0;
      x.s[c] = 1 + util_below(&r, md.horizon + 1);
      x.e[c] = x.s[c] - 1 + util_below(&r, 4);
      if (x.a[c] && x.s[c] <= x.e[c] && x.e[c] <= md.horizon)
        for (int t = x.s[c]; t <= x.e[c]; t++) load[t] += md.mem[md.node[c]];
    }
    int64_t peak = 0;
    for (int t = 1; t <= md.horizon; t++)
      if (load[t] > peak) peak = load[t];
    assert_true(model_peak(&md, &x) == peak);
  }
  small_model_free(g, &md, &x);
}

static void test_model_encode_decode(void **state) {
  (void)state;
  model md;
  model_sol x;
  remat_graph *g = small_model(&md, &x, 2, 60);
  /* the sink gets one copy */
  assert_int_equal(md.first[3] - md.first[2], 1);
  int seq[4] = {0, 1, 0, 2};
  char err[256];
  assert_int_equal(model_encode(&md, seq, 4, &x), 0);
  assert_int_equal(model_check(&md, &x, md.cap, err, sizeof err), 0);
  /* scaled peak equals the simulated one (sizes are multiples of 10) */
  assert_true(model_peak(&md, &x) * md.mem_q == 60);
  int *back, len;
  model_decode(&md, &x, &back, &len);
  assert_int_equal(len, 4);
  assert_memory_equal(back, seq, sizeof seq);
  free(back);
  /* stage-structured: a recomputed in stage 2 before b */
  int early[4] = {0, 0, 1, 2};
  assert_int_equal(model_encode(&md, early, 4, &x), 0);
  assert_int_equal(x.s[1], model_event(2, 1));
  /* not stage-structured: a stage recomputes b before a */
  int bad[5] = {0, 1, 1, 0, 2};
  assert_int_equal(model_encode(&md, bad, 5, &x), -1);
  small_model_free(g, &md, &x);
}

static void test_model_scaling(void **state) {
  (void)state;
  /* sizes past 32 bits: divided by their gcd, rounded up beyond that */
  int64_t w[2] = {5000000000LL, 7}, m[2] = {3LL << 40, 1LL << 40};
  int src[1] = {0}, dst[1] = {1};
  remat_graph *g = graph_from_arrays(2, w, m, 1, src, dst, "big");
  model md;
  char err[256];
  assert_int_equal(model_build(&md, g, 1, 4LL << 40, NULL, 2, err, sizeof err), 0);
  assert_true(md.mem_q == 1LL << 40 && md.mem_exact);
  assert_int_equal(md.mem[0], 3);
  assert_int_equal(md.cap, 4);
  model_free(&md);
  remat_graph_free(g);
}

/* The same limit on the full model: a U-shaped graph (node v also read
 * by node n-1-v) with fine-grained sizes, 480 nodes, 959 copies.  Its
 * memory quantum keeps capacity x start widths x tasks within 2^62, and
 * Gecode accepts phase 1 (beyond that it refuses the model: "Number out
 * of limits"). */
static void test_model_limits(void **state) {
  (void)state;
  enum { N = 480 };
  int64_t w[N], m[N];
  int src[2 * N], dst[2 * N], ne = 0;
  uint64_t r = 11;
  for (int v = 0; v < N; v++) {
    w[v] = 1 + (int64_t)(oracle_rand(&r) % 1000);
    m[v] = 100000000 + (int64_t)(oracle_rand(&r) % 3900000000u);
    if (v) src[ne] = v - 1, dst[ne++] = v;
    if (v < N / 2 - 1) src[ne] = v, dst[ne++] = N - 1 - v;
  }
  remat_graph *g = graph_from_arrays(N, w, m, ne, src, dst, "u480");
  model md;
  char err[256];
  int64_t M = remat_topo_peak(g) / 10 * 9;
  assert_int_equal(model_build(&md, g, 1, M, NULL, 2, err, sizeof err), 0);
  assert_false(md.too_wide);
  __int128 width = 0;
  for (int c = 0; c < md.ncopy; c++) {
    int v = md.node[c];
    width += c == md.first[v] ? 1 : model_park(&md, c) - model_later_min(v) + 1;
  }
  assert_true((__int128)md.ub_peak * width * md.ncopy <= (__int128)1 << 62);
  fzn_params fp;
  fzn_params_init(&fp);
  util_buf text = {0};
  fzn_write(&md, &fp, &text, NULL);
  gz_params gp;
  gz_params_init(&gp);
  gp.time_limit = 0.3;
  gz_status st = gz_solve(text.s, text.len, &gp, NULL, err, sizeof err);
  if (st == GZ_ERROR) fail_msg("%s", err);
  util_buf_free(&text);
  model_free(&md);
  remat_graph_free(g);
}

UNIT_TESTS(test_model_events, test_model_peak_sweep, test_model_encode_decode,
           test_model_scaling, test_model_limits)
