/* unit_closure.c -- the closure bound (closure.h): on random DAGs of at
 * most 7 nodes, at budgets across their range, with C_v = 1, 2 and n and
 * on half of them sizes near 10^12 and durations near 10^9, never above
 * the best duration increase of any stage schedule within the copies
 * (brute force), and exact on most; on training chains of matrix products
 * and activations (a cheap operation reading an expensive one's output):
 * at the brute-force optimum on one layer (at every scale the same
 * bound), not above the MILP's on three, above the plain covering problem
 * on most budgets, and taken by cover_solve where it is higher.  The LPs
 * alone fell short where the steps' integer problems (CBC) are exact. */
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"

#include "closure.h"
#include "cover.h"
#include "oracle.h"
#include "remat.h"
#include "sim.h"

/* The covering bound's parameters at M with copies (NULL: any), with the
 * closure bound (closure 1) or without, and the covering problems up to
 * `inputs` (0: the plain problem, 1: the inputs' rows, 2: the recomputing
 * steps'). */
static cover_params params_at(int64_t M, const int *copies, int closure, int inputs) {
  cover_params p;
  cover_params_init(&p);
  p.budget = M;
  p.copies = copies;
  p.closure = closure;
  p.inputs = inputs;
  return p;
}

/* How many closure bounds came from the steps together (lp 4). */
static int n_joint;

/* The closure bound of g at M with copies as cover_solve takes it, the
 * steps together's integer problem only where the closure bound leads
 * `above` (the plain covering problem's) by CLOSURE_JOINT_LEAD (-1:
 * always, as closure_solve); -1 when no step's LP gave one. */
static int64_t closure_above(const remat_graph *g, int64_t M, const int *copies,
                             int64_t above) {
  int *seq = malloc((size_t)(g->n ? g->n : 1) * sizeof *seq);
  int64_t *load = malloc((size_t)(g->n ? g->n : 1) * sizeof *load);
  for (int v = 0; v < g->n; v++) seq[v] = v;
  remat_sim sim;
  assert_int_equal(remat_simulate(g, seq, g->n, &sim, load), 0);
  cover_params p = params_at(M, copies, 1, 0);
  cover_out o;
  closure *C = closure_new(g, &p, load);
  closure_lps(C, 10, &o);
  closure_integer(C, 10, 10, above, &o);
  closure_free(C);
  free(seq);
  free(load);
  assert_true(o.closure);
  n_joint += o.status == COVER_BOUND && o.lp == 4;
  return o.status == COVER_BOUND ? o.increase : -1;
}

static int64_t closure_at(const remat_graph *g, int64_t M, const int *copies) {
  return closure_above(g, M, copies, -1);
}

/* The covering problems' bound without the closure bound; -1 when none. */
static int64_t covering_at(const remat_graph *g, int64_t M, const int *copies, int inputs) {
  cover_params p = params_at(M, copies, 0, inputs);
  cover_out o;
  cover_status st = cover_solve(g, &p, &o);
  return st == COVER_OPTIMAL || st == COVER_BOUND ? o.increase : -1;
}

static void test_closure_against_brute_force(void **state) {
  (void)state;
  int total = 0, paying = 0, exact = 0;
  for (int i = 0; i < 80; i++) {
    uint64_t s = 91000 + (uint64_t)i * 7919;
    remat_graph *g = oracle_mixed_dag(s, 7);
    int n = g->n;
    int64_t base = remat_graph_base_duration(g);
    int64_t lo = remat_graph_min_peak(g), hi = remat_topo_peak(g);
    for (int b = 0; b < 4; b++) {
      int64_t M = lo + (hi - lo) * b / 4;
      int cs[3] = {1, 2, n};
      for (int c = 0; c < 3; c++) {
        int copies[7];
        for (int v = 0; v < n; v++) copies[v] = cs[c];
        int64_t best = oracle_best_copies(g, M, copies, NULL);
        int64_t cl = closure_at(g, M, copies);
        total++;
        if (best < 0) continue; /* nothing fits: any bound holds */
        if (cl > best - base)
          fail_msg("graph %d (n=%d) M=%lld C=%d: closure bound %lld above the optimum %lld", i, n,
                   (long long)M, cs[c], (long long)cl, (long long)(best - base));
        if (best == base) continue;
        paying++;
        exact += cl == best - base;
      }
    }
    remat_graph_free(g);
  }
  fprintf(stderr,
          "  %d instances, %d that must recompute: the closure bound exact on %d, "
          "from the steps together on %d\n", total, paying, exact, n_joint);
  assert_true(paying >= 100);
  /* the LPs alone: exact on 28 of 186 */
  assert_true(exact >= paying * 9 / 10);
}

/* A training chain of `layers` layers: x (duration 100 sw, size 4 sm);
 * per layer a matrix product (100 sw, 8 sm) and an activation reading it
 * (sw, 8 sm); a loss (sw, sm); per layer, last first, the activation's
 * gradient (sw, 8 sm: reading the gradient after it and the activation's
 * output) and the product's (200 sw, 4 sm: reading that and the layer's
 * input).  The products' outputs are read by the activations alone. */
static int chain_into(oracle_arrays *a, int v, int from, int layers, int64_t sm, int64_t sw) {
  int act[8], in[8];
  a->w[v] = 100 * sw;
  a->m[v] = 4 * sm;
  if (from >= 0) oracle_edge(a, from, v);
  int prev = v++;
  for (int l = 0; l < layers; l++) {
    in[l] = prev;
    a->w[v] = 100 * sw;
    a->m[v] = 8 * sm;
    oracle_edge(a, prev, v);
    v++;
    a->w[v] = sw;
    a->m[v] = 8 * sm;
    oracle_edge(a, v - 1, v);
    act[l] = prev = v++;
  }
  a->w[v] = sw;
  a->m[v] = sm;
  oracle_edge(a, prev, v);
  int grad = v++;
  for (int l = layers - 1; l >= 0; l--) {
    a->w[v] = sw; /* the activation's gradient */
    a->m[v] = 8 * sm;
    oracle_edge(a, grad, v);
    oracle_edge(a, act[l], v);
    v++;
    a->w[v] = 200 * sw; /* the product's */
    a->m[v] = 4 * sm;
    oracle_edge(a, v - 1, v);
    oracle_edge(a, in[l], v);
    grad = v++;
  }
  return v;
}

static remat_graph *chain(int layers, int64_t sm, int64_t sw) {
  int n = 4 * layers + 2;
  oracle_arrays a = oracle_arrays_new(n, 3 * n);
  chain_into(&a, 0, -1, layers, sm, sw);
  return oracle_build(&a, "chain");
}

/* Two one-layer chains one after the other in the input order, apart
 * (the first's values are all dead when the second starts). */
static remat_graph *chain_pair(int64_t sm, int64_t sw) {
  oracle_arrays a = oracle_arrays_new(12, 36);
  chain_into(&a, chain_into(&a, 0, -1, 1, sm, sw), -1, 1, sm, sw);
  return oracle_build(&a, "pair");
}

/* One layer (6 nodes) against brute force, at every budget from the
 * least peak up, plain and scaled to sizes near 10^12 and durations
 * near 10^9: at the optimum on every budget (the LP's value alone falls
 * below where half a product fits). */
static void test_chain_one_layer(void **state) {
  (void)state;
  int64_t scales[2][2] = {{1, 1}, {100000000000LL, 5000000}};
  int exact = 0, paying = 0;
  int64_t plain[8];
  for (int s = 0; s < 2; s++) {
    remat_graph *g = chain(1, scales[s][0], scales[s][1]);
    int64_t base = remat_graph_base_duration(g), lo = remat_graph_min_peak(g),
            hi = remat_topo_peak(g);
    int i = 0;
    for (int64_t M = lo; M < hi; M += scales[s][0]) {
      int64_t best = oracle_best(g, M, NULL);
      if (best < 0 || best == base) continue;
      int64_t cl = closure_at(g, M, NULL);
      assert_true(cl <= best - base);
      paying++;
      exact += cl == best - base;
      /* the same bound at every scale */
      if (s == 0 && i < 8) plain[i++] = cl;
      else if (i < 8) assert_int_equal(cl, plain[i++] * scales[s][1]);
    }
    remat_graph_free(g);
  }
  fprintf(stderr, "  one layer: %d budgets that must recompute, closure exact on %d\n", paying,
          exact);
  assert_true(paying >= 8);
  assert_int_equal(exact, paying);
}

/* Two one-layer chains in sequence, plain and at sizes near 10^12 and
 * durations near 10^9: each chain's peak step needs its own
 * recomputations and neither step's values are alive at the other's, so
 * the steps together charge both (twice one chain's bound, its optimum),
 * where any single step sees one: the MILP's optimum. */
static void test_chain_pair(void **state) {
  (void)state;
  int64_t scales[2][2] = {{1, 1}, {100000000000LL, 5000000}};
  int twice = 0, joint = 0;
  for (int s = 0; s < 2; s++) {
    remat_graph *one = chain(1, scales[s][0], scales[s][1]);
    remat_graph *two = chain_pair(scales[s][0], scales[s][1]);
    int64_t lo = remat_graph_min_peak(one), hi = remat_topo_peak(one);
    for (int64_t M = lo; M < hi; M += scales[s][0]) {
      int64_t c1 = closure_at(one, M, NULL);
      if (c1 <= 0) continue;
      int before = n_joint;
      int64_t c2 = closure_at(two, M, NULL);
      assert_int_equal(c2, 2 * c1);
      if (s == 0) assert_int_equal(c2, oracle_milp_increase(two, M));
      joint += n_joint > before;
      twice++;
    }
    remat_graph_free(one);
    remat_graph_free(two);
  }
  fprintf(stderr, "  two chains: twice one chain's bound at %d budgets, %d of them an integer "
          "optimum over the steps\n", twice, joint);
  assert_true(twice >= 8);
  assert_true(joint >= 6);
}

/* Chains of 2 to 4 layers at budgets across their range: the closure
 * bound above the plain covering problem, which takes an activation's
 * recomputation for its own duration though it reads a product no
 * longer kept; on three layers not above the MILP's proven optimum; and
 * cover_solve (closure on, inputs 0) gives the higher of the two. */
static void test_chain_layers(void **state) {
  (void)state;
  int above = 0, total = 0;
  for (int layers = 2; layers <= 4; layers++) {
    remat_graph *g = chain(layers, 1, 1);
    int64_t lo = remat_graph_min_peak(g), hi = remat_topo_peak(g);
    for (int f = 2; f <= 8; f += 2) {
      int64_t M = lo + (hi - lo) * f / 10;
      int64_t cl = closure_at(g, M, NULL), plain = covering_at(g, M, NULL, 0);
      int64_t taken = closure_above(g, M, NULL, plain);
      cover_params p = params_at(M, NULL, 1, 0);
      cover_out o;
      cover_solve(g, &p, &o);
      assert_true(taken <= cl);
      assert_int_equal(o.increase, taken > plain ? taken : plain);
      assert_int_equal(o.closure, taken > plain);
      if (taken > plain) assert_string_equal(cover_bound_name(&o), "closure bound");
      total++;
      above += cl > plain;
      if (layers == 3 && f == 4) {
        int64_t opt = oracle_milp_increase(g, M);
        assert_true(opt >= 0);
        fprintf(stderr, "  three layers at M=%lld: MILP optimum %lld, closure %lld, plain "
                "covering %lld\n", (long long)M, (long long)opt, (long long)cl,
                (long long)plain);
        assert_true(cl <= opt);
        assert_true(3 * cl >= 2 * opt); /* the LPs alone: 139 */
      }
    }
    remat_graph_free(g);
  }
  fprintf(stderr, "  chains: closure above the plain covering problem on %d of %d\n", above,
          total);
  assert_true(above >= total * 3 / 4);
}

UNIT_TESTS(test_closure_against_brute_force, test_chain_one_layer, test_chain_pair,
           test_chain_layers)
