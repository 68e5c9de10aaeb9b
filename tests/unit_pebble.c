/* unit_pebble.c -- the pebbling proof (pebble.h): on random DAGs of up to
 * 7 nodes, at budgets from max_v to the input order's peak and at sizes up
 * to 10^12, every proof that nothing fits agrees with the exhaustive
 * search over every sequence (exhaustive.h, free order, up to 4
 * computations of a node), and it finds most of the infeasible budgets; on chains of residual blocks it proves that a block's input
 * cannot be rebuilt below its peak, and finds nothing where the first
 * block's input can be.  The paths' schedule (pebble_schedule) is a valid
 * sequence within M that computes every node and keeps C_v = 1, wherever
 * the exact search finds a path for every node (without C_v = 1 nodes);
 * sinks that read one value share a part. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "exhaustive.h"
#include "oracle.h"
#include "pebble.h"
#include "sim.h"

/* The search from `level` (0: exact; its answers on tiny graphs are
 * complete). */
static pebble_status check_at(const remat_graph *g, int64_t M, int level, int *node) {
  pebble_params p;
  pebble_params_init(&p);
  p.deadline = deadline_in(5);
  p.first_level = level;
  pebble_out o;
  pebble_check(g, M, &p, &o);
  if (o.status == PEBBLE_OPEN && !level) assert_true(o.complete);
  if (node) *node = o.node;
  return o.status;
}

static pebble_status check(const remat_graph *g, int64_t M, int *node) {
  return check_at(g, M, 0, node);
}

/* g with every size times k (and the same durations). */
static remat_graph *scaled(const remat_graph *g, int64_t k) {
  int64_t *m = malloc((size_t)(g->n ? g->n : 1) * sizeof *m);
  for (int v = 0; v < g->n; v++) m[v] = g->m[v] * k;
  remat_graph *h = oracle_renumber(g, g->w, m, "scaled");
  free(m);
  return h;
}

/* The paths' schedule with copies (NULL: any number everywhere): -1, or a
 * valid sequence within M computing every node, C_v = 1 kept; returns
 * its length (-1: none) and the most computations of one node. */
static int schedule_checked(const remat_graph *g, int64_t M, const int *copies, int *most) {
  pebble_params p;
  pebble_params_init(&p);
  p.deadline = deadline_in(5);
  p.schedule_max = 64 * g->n;
  int *seq, len;
  if (pebble_schedule(g, M, copies, &p, &seq, &len)) {
    assert_null(seq);
    return -1;
  }
  remat_sim s;
  assert_int_equal(remat_simulate(g, seq, len, &s, NULL), 0);
  assert_true(s.peak <= M);
  assert_true(len <= p.schedule_max);
  int *cnt = calloc((size_t)g->n, sizeof *cnt);
  for (int i = 0; i < len; i++) cnt[seq[i]]++;
  *most = 0;
  for (int v = 0; v < g->n; v++) {
    assert_true(cnt[v] >= 1);
    if (copies && copies[v] == 1) assert_int_equal(cnt[v], 1);
    if (cnt[v] > *most) *most = cnt[v];
  }
  free(cnt);
  free(seq);
  return len;
}

static void test_pebble_exhaustive(void **state) {
  (void)state;
  int infeasible = 0, proven = 0, cases = 0, relaxed[PEBBLE_LEVELS] = {0}, built = 0, held = 0;
  int cap[EXH_MAXN], ones[EXH_MAXN];
  for (int v = 0; v < EXH_MAXN; v++) cap[v] = 4;
  for (uint64_t seed = 1; seed <= 300; seed++) {
    int n = 4 + (int)(seed % 3);
    remat_graph *g = oracle_dag(n, 30 + (int)(seed % 4) * 15, 9, 20, 4100 + seed);
    /* sizes near 10^12 on every third graph: the same answers */
    remat_graph *h = seed % 3 ? NULL : scaled(g, 999999937LL);
    const remat_graph *on = h ? h : g;
    int64_t lo = remat_graph_min_peak(on), hi = remat_topo_peak(on);
    /* C_v = 1 on every third node that has a reader (held by the paths'
     * schedule) */
    for (int v = 0; v < n; v++) ones[v] = v % 3 == 1 && graph_nsucc(on, v) ? 1 : 4;
    /* near max_v, where nothing may fit */
    for (int b = 0; b <= 3; b++) {
      int64_t M = lo + (hi - lo) * b / 10;
      int64_t best = exh_best(on, M, cap, 0);
      pebble_status st = check(on, M, NULL);
      if (st == PEBBLE_INFEASIBLE) assert_int_equal(best, -1);
      /* the paths' schedule: wherever every node has a path (check():
       * complete), so does every sink, one by one; one of at most 4
       * computations per node is one the exhaustive search finds too */
      int most, len = schedule_checked(on, M, NULL, &most);
      assert_int_equal(len > 0, st == PEBBLE_OPEN);
      if (len > 0 && most <= 4) assert_true(best >= 0);
      built += len > 0;
      held += schedule_checked(on, M, ones, &most) > 0;
      /* each relaxation alone: its proofs hold too */
      for (int k = 1; k < PEBBLE_LEVELS; k++)
        if (check_at(on, M, k, NULL) == PEBBLE_INFEASIBLE) {
          assert_int_equal(best, -1);
          relaxed[k]++;
        }
      infeasible += best < 0;
      proven += st == PEBBLE_INFEASIBLE;
      cases++;
    }
    remat_graph_free(h);
    remat_graph_free(g);
  }
  fprintf(stderr, "  %d cases, %d infeasible, %d of them proven (relaxed searches: %d, %d, %d); "
          "the paths' schedule on %d, %d with C_v = 1 held\n",
          cases, infeasible, proven, relaxed[1], relaxed[2], relaxed[3], built, held);
  assert_true(held > 0);
  assert_true(infeasible > 0);
  assert_true(proven * 10 >= infeasible * 9);
}

/* A stem s, then k residual blocks: e_i = expand(x_{i-1}) (size 4),
 * p_i = project(e_i) (1), x_i = x_{i-1} + p_i (1).  The input order peaks
 * at 6 (e_i, p_i and the held x_{i-1}); every step needs at most 5 with
 * its inputs.  Within 5 the first block's input, the stem, can be rebuilt
 * after p_1; the second block's input x_1 cannot: rebuilding it passes
 * through e_1 and p_1 with p_2 held. */
static remat_graph *blocks(int k, int64_t unit) {
  oracle_arrays a = oracle_arrays_new(1 + 3 * k, 4 * k);
  a.w[0] = 1;
  a.m[0] = unit;
  for (int i = 0; i < k; i++) {
    int x = 3 * i, e = x + 1, p = x + 2, y = x + 3;
    a.w[e] = a.w[p] = a.w[y] = 1;
    a.m[e] = 4 * unit;
    a.m[p] = a.m[y] = unit;
    oracle_edge(&a, x, e);
    oracle_edge(&a, e, p);
    oracle_edge(&a, x, y);
    oracle_edge(&a, p, y);
  }
  return oracle_build(&a, "blocks");
}

static void test_pebble_blocks(void **state) {
  (void)state;
  const int64_t units[] = {1, 1000000000000LL};
  for (int u = 0; u < 2; u++) {
    int64_t U = units[u];
    remat_graph *one = blocks(1, U), *two = blocks(2, U), *many = blocks(40, U);
    assert_int_equal(remat_topo_peak(two), 6 * U);
    assert_int_equal(remat_graph_min_peak(two), 5 * U);
    assert_int_equal(check(one, 5 * U, NULL), PEBBLE_OPEN);
    assert_int_equal(exh_best(one, 5 * U, NULL, 0), 4 + 1);
    int node;
    assert_int_equal(check(two, 5 * U, &node), PEBBLE_INFEASIBLE);
    assert_int_equal(node, 6); /* x_2 */
    assert_int_equal(exh_best(two, 5 * U, NULL, 0), -1);
    assert_int_equal(check(two, 6 * U, NULL), PEBBLE_OPEN);
    assert_int_equal(check(many, 5 * U, NULL), PEBBLE_INFEASIBLE);
    assert_int_equal(check(many, 6 * U, NULL), PEBBLE_OPEN);
    remat_graph_free(one);
    remat_graph_free(two);
    remat_graph_free(many);
  }
}

/* Out of time or of table space: no claim. */
static void test_pebble_gives_up(void **state) {
  (void)state;
  remat_graph *g = blocks(40, 1);
  pebble_params p;
  pebble_params_init(&p);
  p.max_sets = 3;
  pebble_out o;
  pebble_check(g, 5, &p, &o);
  assert_int_equal(o.status, PEBBLE_OPEN);
  assert_false(o.complete);
  assert_true(o.sets <= 3 * PEBBLE_LEVELS); /* each search within the cap */
  remat_graph_free(g);
}

/* The paths' schedule on the residual blocks: the first block's input
 * rebuilt within 5, the second's not, at sizes near 10^12 too; two sinks
 * that read one value are one part (a chain a, b, c, then s1 and s2 both
 * reading c: 5 steps, where a part each would rebuild the chain). */
static void test_pebble_schedule(void **state) {
  (void)state;
  oracle_arrays a = oracle_arrays_new(5, 4);
  for (int v = 0; v < 5; v++) {
    a.w[v] = 1;
    a.m[v] = 1000000000000LL;
  }
  oracle_edge(&a, 0, 1);
  oracle_edge(&a, 1, 2);
  oracle_edge(&a, 2, 3);
  oracle_edge(&a, 2, 4);
  remat_graph *fork = oracle_build(&a, "fork");
  int most;
  assert_int_equal(schedule_checked(fork, 2000000000000LL, NULL, &most), 5);
  assert_int_equal(most, 1);
  remat_graph_free(fork);
  const int64_t units[] = {1, 1000000000000LL};
  for (int u = 0; u < 2; u++) {
    remat_graph *one = blocks(1, units[u]), *two = blocks(2, units[u]);
    int most;
    assert_true(schedule_checked(one, 5 * units[u], NULL, &most) > 0);
    assert_int_equal(schedule_checked(two, 5 * units[u], NULL, &most), -1);
    assert_true(schedule_checked(two, 6 * units[u], NULL, &most) > 0);
    remat_graph_free(one);
    remat_graph_free(two);
  }
}

UNIT_TESTS(test_pebble_exhaustive, test_pebble_blocks, test_pebble_gives_up,
           test_pebble_schedule)
