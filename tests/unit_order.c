/* unit_order.c -- the order wing: orders without recomputation of least
 * peak and the bounds on it, against brute force over every topological
 * order of small random DAGs (a dynamic program over all node subsets,
 * itself checked against plain enumeration of the orders). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "graph.h"
#include "order.h"
#include "order_bound.h"
#include "order_dfs.h"
#include "order_exact.h"
#include "order_flow.h"
#include "order_heur.h"
#include "order_memo.h"
#include "order_walk.h"
#include "order_window.h"
#include "remat.h"
#include "util.h"

/* ---------------------------------------------------------------- brute force */

/* F(S): sizes of members of S with a successor outside S. */
static int64_t bf_live(const remat_graph *g, unsigned S) {
  int64_t f = 0;
  for (int u = 0; u < g->n; u++) {
    if (!(S >> u & 1)) continue;
    for (int k = g->succ_off[u]; k < g->succ_off[u + 1]; k++)
      if (!(S >> g->succ[k] & 1)) {
        f += g->m[u];
        break;
      }
  }
  return f;
}

static int bf_closed(const remat_graph *g, unsigned S) {
  for (int v = 0; v < g->n; v++)
    if (S >> v & 1)
      for (int k = g->pred_off[v]; k < g->pred_off[v + 1]; k++)
        if (!(S >> g->pred[k] & 1)) return 0;
  return 1;
}

/* Least peak over all orders: best[S] over down-closed S, the last node
 * of S taken in every possible way. */
static int64_t bf_min_peak(const remat_graph *g) {
  unsigned full = (1u << g->n) - 1;
  int64_t *best = malloc(((size_t)full + 1) * sizeof *best);
  best[0] = 0;
  for (unsigned S = 1; S <= full; S++) {
    best[S] = INT64_MAX;
    if (!bf_closed(g, S)) continue;
    for (int v = 0; v < g->n; v++) {
      if (!(S >> v & 1)) continue;
      unsigned T = S & ~(1u << v);
      if (!bf_closed(g, T) || best[T] == INT64_MAX) continue;
      int64_t step = bf_live(g, T) + g->m[v];
      int64_t pk = step > best[T] ? step : best[T];
      if (pk < best[S]) best[S] = pk;
    }
  }
  int64_t r = best[full];
  free(best);
  return r;
}

/* Least memory at v's step over all orders: over down-closed S holding
 * v's predecessors, not v. */
static int64_t bf_min_at(const remat_graph *g, int v) {
  int64_t lo = INT64_MAX;
  for (unsigned S = 0; S < (1u << g->n); S++) {
    if (S >> v & 1 || !bf_closed(g, S) || !bf_closed(g, S | 1u << v)) continue;
    int64_t x = bf_live(g, S) + g->m[v];
    if (x < lo) lo = x;
  }
  return lo;
}

/* Plain enumeration of every topological order (small n). */
static void bf_enum(const remat_graph *g, int *ord, int k, unsigned S,
                    int64_t *lo) {
  if (k == g->n) {
    int64_t pk = order_walk_peak(g, ord, NULL);
    if (pk < *lo) *lo = pk;
    return;
  }
  for (int v = 0; v < g->n; v++)
    if (!(S >> v & 1) && bf_closed(g, S | 1u << v)) {
      ord[k] = v;
      bf_enum(g, ord, k + 1, S | 1u << v, lo);
    }
}

/* A random DAG on n nodes (edges i -> j, i < j, with probability pct %);
 * sizes up to maxm (0 included), durations small. */
static remat_graph *rand_dag(uint64_t *rng, int n, int pct, int64_t maxm) {
  int64_t w[256], m[256];
  int src[8192], dst[8192], ne = 0;
  for (int v = 0; v < n; v++) {
    w[v] = 1 + (int64_t)(util_xorshift(rng) % 9);
    m[v] = (int64_t)(util_xorshift(rng) % (uint64_t)(maxm + 1));
  }
  for (int j = 1; j < n; j++)
    for (int i = 0; i < j; i++)
      if ((int)(util_xorshift(rng) % 100) < pct) {
        src[ne] = i;
        dst[ne++] = j;
      }
  return graph_from_arrays(n, w, m, ne, src, dst, "rand");
}

static int64_t rand_maxm(int seed) {
  switch (seed % 3) {
  case 0: return 10;
  case 1: return 1000;
  default: return 1000000000000LL; /* near 10^12: sums past 32 bits */
  }
}

/* Runs check on count random DAGs of 1 to 10 nodes drawn from a generator
 * seeded with rng: the seed-th has 1 + seed % 10 nodes, edges with
 * probability 10 + 9 * (seed % 7) % and sizes up to rand_maxm(seed); opt
 * is its brute-force minimum peak. */
static void each_small_dag(uint64_t rng, int count,
                           void (*check)(const remat_graph *g, int seed,
                                         int64_t opt)) {
  for (int seed = 0; seed < count; seed++) {
    remat_graph *g =
        rand_dag(&rng, 1 + seed % 10, 10 + 9 * (seed % 7), rand_maxm(seed));
    check(g, seed, bf_min_peak(g));
    remat_graph_free(g);
  }
}

/* ---------------------------------------------------------------- tests */

static void test_dp_matches_enumeration(void **state) {
  (void)state;
  uint64_t rng = 99;
  for (int seed = 0; seed < 60; seed++) {
    int n = 1 + seed % 8, ord[16];
    remat_graph *g = rand_dag(&rng, n, 10 + 7 * (seed % 6), rand_maxm(seed));
    int64_t lo = INT64_MAX;
    bf_enum(g, ord, 0, 0, &lo);
    assert_true(lo == bf_min_peak(g));
    remat_graph_free(g);
  }
}

static void test_walk_peak_matches_simulator(void **state) {
  (void)state;
  uint64_t rng = 5;
  for (int seed = 0; seed < 40; seed++) {
    remat_graph *g = rand_dag(&rng, 2 + seed % 30, 15, rand_maxm(seed));
    int *ord = malloc((size_t)g->n * sizeof *ord);
    uint64_t r2 = (uint64_t)seed + 1;
    int64_t pk = order_heur_greedy(g, (order_heur_rule)(seed % 2),
                                   seed % 3 ? &r2 : NULL, ord);
    assert_true(order_walk_valid(g, ord));
    remat_sim s;
    assert_int_equal(remat_simulate(g, ord, g->n, &s, NULL), 0);
    assert_int_equal(s.recomputations, 0);
    assert_true(s.peak == pk);
    assert_true(order_walk_peak(g, ord, NULL) == pk);
    free(ord);
    remat_graph_free(g);
  }
}

/* order_solve: optimal on every small DAG, the bound never above the
 * minimum, the order re-simulates to its peak. */
static void solve_is_optimal(const remat_graph *g, int seed, int64_t opt) {
  (void)seed;
  order_params p;
  order_params_init(&p);
  p.time_limit = 30;
  order_result r;
  assert_int_equal(order_solve(g, &p, &r), 0);
  assert_true(r.peak == opt);
  assert_true(r.optimal);
  assert_true(r.lower == opt);
  assert_true(r.bound <= opt);
  assert_true(r.input_peak == remat_topo_peak(g));
  remat_sim s;
  assert_int_equal(remat_simulate(g, r.order, g->n, &s, NULL), 0);
  assert_true(s.peak == r.peak && s.recomputations == 0);
  order_result_free(&r);
  /* without the exact search: still a valid order and a valid bound */
  p.exact = 0;
  p.time_limit = 0.02; /* the window search runs to the end when open */
  assert_int_equal(order_solve(g, &p, &r), 0);
  assert_true(r.peak >= opt && r.lower <= opt);
  assert_int_equal(r.optimal, r.peak == r.lower);
  order_result_free(&r);
}

UNIT_TEST_OF(test_solve_against_brute_force, each_small_dag(12345, 300, solve_is_optimal))

/* The per-node bounds: c_v is exactly the least memory at v's step over
 * all orders; a_v is at most c_v; the batch and the single-node versions
 * agree. */
static void bounds_per_node(const remat_graph *g, int seed, int64_t opt) {
  (void)seed;
  int n = g->n;
  int64_t a[16], top = 0;
  order_bound_ancestors(g, a);
  for (int v = 0; v < n; v++) {
    int64_t c = order_bound_closure(g, v), want = bf_min_at(g, v);
    assert_true(c == want);
    assert_true(a[v] <= c);
    if (c > top) top = c;
  }
  order_bound_params bp;
  order_bound_params_init(&bp);
  order_bound_out bo;
  assert_true(order_bound_run(g, &bp, &bo) == top);
  assert_true(bo.complete);
  assert_true(bo.bound <= opt);
  bp.closure = 0;
  int64_t amax = 0;
  for (int v = 0; v < n; v++)
    if (a[v] > amax) amax = a[v];
  if (remat_graph_min_peak(g) > amax) amax = remat_graph_min_peak(g);
  assert_true(order_bound_run(g, &bp, &bo) == amax);
}

UNIT_TEST_OF(test_bounds_per_node, each_small_dag(777, 150, bounds_per_node))

/* order_bound_pairs: u and v incomparable, u with a successor in D_v. */
static void test_bound_pairs(void **state) {
  (void)state;
  uint64_t rng = 31;
  for (int seed = 0; seed < 40; seed++) {
    int n = 2 + seed % 20;
    remat_graph *g = rand_dag(&rng, n, 20, 50);
    /* reach[u][v]: v reachable from u (u itself included) */
    unsigned char reach[32][32];
    memset(reach, 0, sizeof reach);
    for (int u = n - 1; u >= 0; u--) {
      reach[u][u] = 1;
      for (int k = g->succ_off[u]; k < g->succ_off[u + 1]; k++)
        for (int v = 0; v < n; v++) reach[u][v] |= reach[g->succ[k]][v];
    }
    int64_t a[32];
    int *off, *list;
    assert_int_equal(order_bound_pairs(g, a, 100000, &off, &list), 0);
    for (int u = 0; u < n; u++) {
      unsigned char want[32] = {0};
      int cnt = 0;
      for (int v = 0; v < n; v++) {
        if (reach[u][v] || reach[v][u]) continue;
        for (int k = g->succ_off[u]; k < g->succ_off[u + 1]; k++)
          if (reach[v][g->succ[k]]) want[v] = 1;
        cnt += want[v];
      }
      assert_int_equal(off[u + 1] - off[u], cnt);
      for (int k = off[u]; k < off[u + 1]; k++) assert_true(want[list[k]]);
    }
    int total = off[n];
    free(off);
    free(list);
    if (total > 0) /* a limit below the count is refused */
      assert_int_equal(order_bound_pairs(g, a, (size_t)total - 1, &off, &list), -1);
    remat_graph_free(g);
  }
}

/* The exact search alone (no bound given, from the input order) proves
 * the minimum: the forced steps, the table and the bound per set never
 * cut an optimal order. */
static void exact_alone(const remat_graph *g, int seed, int64_t opt) {
  int n = g->n;
  int ord[16];
  for (int i = 0; i < n; i++) ord[i] = i;
  order_exact_params ep;
  order_exact_params_init(&ep);
  ep.max_pairs = seed % 2 ? 100000 : 0; /* with and without the bound */
  order_exact_out eo;
  order_exact_run(g, &ep, ord, &eo);
  assert_true(eo.proven);
  assert_true(eo.peak == opt && eo.lower == opt);
  assert_true(order_walk_valid(g, ord));
  assert_true(order_walk_peak(g, ord, NULL) == opt);
}

UNIT_TEST_OF(test_exact_alone, each_small_dag(4242, 300, exact_alone))

/* A window: the least max over its steps, over every order of its nodes,
 * decided by order_dfs at that value (yes) and one below (no). */
static int64_t bf_window(const remat_graph *g, const int *ord, int lo,
                         int len) {
  unsigned pre = 0, win = 0;
  for (int i = 0; i < lo; i++) pre |= 1u << ord[i];
  for (int i = 0; i < len; i++) win |= 1u << ord[lo + i];
  /* DP over subsets of the window */
  unsigned full = win;
  int64_t *b = malloc(((size_t)1 << g->n) * sizeof *b);
  for (unsigned S = 0; S < (1u << g->n); S++) b[S] = INT64_MAX;
  b[pre] = 0;
  for (unsigned X = 0; X <= full; X = ((X | ~full) + 1) & full) {
    unsigned S = pre | X;
    if (!X || !bf_closed(g, S)) {
      if (X == full) break;
      continue;
    }
    for (int v = 0; v < g->n; v++) {
      if (!(X >> v & 1)) continue;
      unsigned T = S & ~(1u << v);
      if (b[T] == INT64_MAX || !bf_closed(g, T)) continue;
      int64_t step = bf_live(g, T) + g->m[v];
      int64_t pk = step > b[T] ? step : b[T];
      if (pk < b[S]) b[S] = pk;
    }
    if (X == full) break;
  }
  int64_t r = b[pre | full];
  free(b);
  return r;
}

static void test_dfs_window_against_brute_force(void **state) {
  (void)state;
  uint64_t rng = 2024;
  for (int seed = 0; seed < 120; seed++) {
    int n = 3 + seed % 9;
    remat_graph *g = rand_dag(&rng, n, 15 + 5 * (seed % 8), rand_maxm(seed));
    int ord[16];
    order_heur_greedy(g, ORDER_HEUR_FREE, NULL, ord);
    int lo = (int)(util_xorshift(&rng) % (uint64_t)(n - 1));
    int len = 1 + (int)(util_xorshift(&rng) % (uint64_t)(n - lo));
    int64_t want = bf_window(g, ord, lo, len);
    unsigned char allowed[16] = {0};
    for (int i = 0; i < len; i++) allowed[ord[lo + i]] = 1;
    order_dfs D;
    order_dfs_init(&D, g, (size_t)1 << 20, seed % 2 ? 100000 : 0);
    D.allowed = allowed;
    order_dfs_start(&D, ord, lo, len);
    assert_int_equal(order_dfs_decide(&D, want), 1);
    /* the window reordered: valid, the prefix kept, its steps within */
    int got[16];
    memcpy(got, ord, sizeof got);
    memcpy(got + lo, D.path + lo, (size_t)len * sizeof *got);
    assert_true(order_walk_valid(g, got));
    int64_t mem[16];
    order_walk_peak(g, got, mem);
    for (int i = lo; i < lo + len; i++) assert_true(mem[i] <= want);
    if (want > 0) assert_int_equal(order_dfs_decide(&D, want - 1), 0);
    order_dfs_free(&D);
    remat_graph_free(g);
  }
}

/* The window search never returns a worse or invalid order. */
static void test_window_search(void **state) {
  (void)state;
  uint64_t rng = 8;
  for (int seed = 0; seed < 12; seed++) {
    remat_graph *g = rand_dag(&rng, 20 + 10 * seed, 8, rand_maxm(seed));
    int *ord = malloc((size_t)g->n * sizeof *ord);
    for (int i = 0; i < g->n; i++) ord[i] = i;
    int64_t start = order_walk_peak(g, ord, NULL);
    order_dfs D;
    order_dfs_init(&D, g, (size_t)16 << 20, 100000);
    order_window_params wp;
    order_window_params_init(&wp);
    wp.deadline = deadline_in(0.2);
    wp.seed = (uint64_t)seed + 1;
    order_window_out wo;
    int64_t pk = order_window_run(g, &D, &wp, ord, &wo);
    assert_true(pk <= start);
    assert_true(order_walk_valid(g, ord));
    assert_true(order_walk_peak(g, ord, NULL) == pk);
    if (g->n <= 20) assert_true(pk >= bf_min_peak(g));
    order_dfs_free(&D);
    free(ord);
    remat_graph_free(g);
  }
}

/* Known answers: a chain holds two neighbours at a time; a complete
 * binary in-tree of height h with unit sizes needs h + 2. */
static void test_chain_and_tree(void **state) {
  (void)state;
  int64_t w[64], m[64];
  int src[64], dst[64];
  int64_t sz[8] = {5, 1, 9, 2, 2, 7, 1000000000000LL, 3};
  for (int i = 0; i < 8; i++) {
    w[i] = 1;
    m[i] = sz[i];
    if (i) {
      src[i - 1] = i - 1;
      dst[i - 1] = i;
    }
  }
  remat_graph *g = graph_from_arrays(8, w, m, 7, src, dst, "chain");
  order_params p;
  order_params_init(&p);
  order_result r;
  assert_int_equal(order_solve(g, &p, &r), 0);
  assert_true(r.peak == 1000000000007LL && r.optimal);
  order_result_free(&r);
  remat_graph_free(g);
  for (int h = 1; h <= 4; h++) {
    /* heap numbering reversed: node i's parent is (i - 1) / 2, the root
     * is computed last */
    int n = (1 << (h + 1)) - 1, ne = 0;
    for (int i = 0; i < n; i++) {
      w[i] = 1;
      m[i] = 1;
    }
    for (int i = 1; i < n; i++) {
      src[ne] = n - 1 - i;
      dst[ne++] = n - 1 - (i - 1) / 2;
    }
    g = graph_from_arrays(n, w, m, ne, src, dst, "tree");
    assert_int_equal(order_solve(g, &p, &r), 0);
    assert_true(r.peak == h + 2);
    assert_true(r.optimal);
    order_result_free(&r);
    remat_graph_free(g);
  }
}

static void test_flow(void **state) {
  (void)state;
  order_flow f;
  order_flow_init(&f);
  /* s=0, t=3: 0->2->1 carries 4 of node 2's 7 on to node 1's arc of 9 */
  order_flow_reset(&f, 4);
  order_flow_arc(&f, 0, 1, 5);
  order_flow_arc(&f, 0, 2, 7);
  order_flow_arc(&f, 1, 3, 9);
  order_flow_arc(&f, 2, 3, 3);
  order_flow_arc(&f, 2, 1, 4);
  assert_true(order_flow_max(&f, 0, 3) == 12); /* = the cut {0}: 5 + 7 */
  /* capacities past 2^32, infinite arcs inside */
  order_flow_reset(&f, 4);
  order_flow_arc(&f, 0, 1, 3000000000000LL);
  order_flow_arc(&f, 1, 2, ORDER_FLOW_INF);
  order_flow_arc(&f, 2, 3, 2000000000001LL);
  assert_true(order_flow_max(&f, 0, 3) == 2000000000001LL);
  order_flow_reset(&f, 2);
  order_flow_arc(&f, 0, 1, ORDER_FLOW_INF);
  assert_true(order_flow_max(&f, 0, 1) == ORDER_FLOW_INF);
  order_flow_free(&f);
}

static void test_memo(void **state) {
  (void)state;
  order_memo t;
  order_memo_init(&t, 130, (size_t)1 << 20);
  uint64_t bits[3] = {0};
  for (int i = 0; i < 5000; i++) {
    bits[0] = (uint64_t)i;
    bits[2] = (uint64_t)i * 3;
    /* a constant hash: every set collides, found by its bits alone */
    assert_int_equal(order_memo_put(&t, i % 7 ? 42 : (uint64_t)i, bits, i), 0);
  }
  for (int i = 0; i < 5000; i += 97) {
    bits[0] = (uint64_t)i;
    bits[2] = (uint64_t)i * 3;
    assert_true(order_memo_get(&t, i % 7 ? 42 : (uint64_t)i, bits) == i);
  }
  bits[0] = 1;
  bits[2] = 4;
  assert_true(order_memo_get(&t, 42, bits) == INT64_MIN);
  /* a threshold only goes up */
  bits[2] = 3;
  assert_int_equal(order_memo_put(&t, 42, bits, 0), 0);
  assert_true(order_memo_get(&t, 42, bits) == 1);
  order_memo_free(&t);
  /* the byte limit is kept */
  order_memo_init(&t, 64, 64 << 10);
  int rc = 0;
  for (int i = 0; i < 100000 && !rc; i++) {
    bits[0] = (uint64_t)i;
    rc = order_memo_put(&t, (uint64_t)i * 0x9e3779b97f4a7c15ULL, bits, 1);
  }
  assert_int_equal(rc, -1);
  assert_true(order_memo_bytes(&t) <= 64 << 10);
  order_memo_free(&t);
}

/* A stop flag set before the run keeps the start order, valid. */
static void test_stop_keeps_an_order(void **state) {
  (void)state;
  uint64_t rng = 3;
  remat_graph *g = rand_dag(&rng, 60, 6, 100);
  volatile int stop = 1;
  order_params p;
  order_params_init(&p);
  p.stop = &stop;
  order_result r;
  assert_int_equal(order_solve(g, &p, &r), 0);
  assert_true(order_walk_valid(g, r.order));
  assert_true(r.peak <= r.input_peak && r.lower <= r.peak);
  if (!r.optimal) assert_int_equal(r.open, ORDER_OPEN_STOP);
  order_result_free(&r);
  remat_graph_free(g);
}

UNIT_TESTS(test_dp_matches_enumeration, test_walk_peak_matches_simulator,
           test_solve_against_brute_force, test_bounds_per_node,
           test_bound_pairs, test_exact_alone,
           test_dfs_window_against_brute_force, test_window_search,
           test_chain_and_tree, test_flow, test_memo, test_stop_keeps_an_order)
