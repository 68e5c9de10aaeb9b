/* unit_demand.c -- schedules by recomputation on demand (demand.h): on
 * random DAGs of up to 6 nodes (sizes near 10^12, durations near 10^9 on
 * half of them), at budgets from the stage model's least peak to the
 * input order's, every schedule the walk returns re-simulates within the
 * budget, lies on the input order's stages, keeps C_v and is no shorter
 * than the exhaustive optimum; at the input order's peak (C_v not 1) it is
 * the input order; the lookahead is never longer than the best of three
 * walks, and shorter on generated U-Nets.  On layers whose dropout masks
 * come from random states of C_v = 1 the states are held and the masks
 * computed again.  It gives up where no step fits, on a deadline and on a
 * stop. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "demand.h"
#include "gen.h"
#include "oracle.h"
#include "sim.h"

/* The walk at M with copies (NULL: any) and exponent e (-1: demand_best,
 * -2: demand_pilot): NULL, or a checked schedule; *dur its duration. */
static int *walk(const remat_graph *g, int64_t M, const int *copies, double e, int *len,
                 int64_t *dur) {
  demand_params p;
  demand_params_init(&p);
  p.budget = M;
  p.copies = copies;
  p.deadline = deadline_in(10);
  if (e >= 0) p.exponent = e;
  int *seq = e >= 0   ? demand_schedule(g, &p, len)
             : e > -2 ? demand_best(g, &p, len)
                      : demand_pilot(g, &p, len);
  if (!seq) return NULL;
  remat_sim s;
  assert_int_equal(remat_simulate(g, seq, *len, &s, NULL), 0);
  assert_true(s.peak <= M);
  assert_true(sim_on_stages(seq, *len));
  if (copies) { /* 0: any number */
    int *cnt = calloc((size_t)g->n, sizeof *cnt);
    for (int i = 0; i < *len; i++) cnt[seq[i]]++;
    for (int v = 0; v < g->n; v++) assert_true(!copies[v] || cnt[v] <= copies[v]);
    free(cnt);
  }
  *dur = s.duration;
  return seq;
}

static void test_demand_exhaustive(void **state) {
  (void)state;
  int cases = 0, feasible = 0, found = 0, found_best = 0, optimal = 0, recomputing = 0;
  int optimal_pilot = 0, shorter_pilot = 0;
  int ones[8];
  for (uint64_t seed = 1; seed <= 400; seed++) {
    remat_graph *g = oracle_mixed_dag(seed * 7919, 6);
    int n = g->n;
    /* C_v = 1 on every third node on odd seeds */
    for (int v = 0; v < n; v++) ones[v] = seed % 2 && v % 3 == 1 ? 1 : 0;
    const int *copies = seed % 2 ? ones : NULL;
    int64_t lo, hi = remat_topo_peak(g), base = 0;
    for (int v = 0; v < n; v++) base += g->w[v];
    oracle_best_copies(g, hi, copies, &lo);
    for (int b = 0; b <= 4; b++) { /* near the least peak, and the input order's */
      int64_t M = b < 4 ? lo + (hi - lo) * b / 8 : hi;
      int64_t best = oracle_best_copies(g, M, copies, NULL);
      int len, len2, len3;
      int64_t dur = -1, dur2 = -1, dur3 = -1;
      int *seq = walk(g, M, copies, 1.0, &len, &dur);
      int *seq2 = walk(g, M, copies, -1, &len2, &dur2);
      int *seq3 = walk(g, M, copies, -2, &len3, &dur3);
      if (seq) assert_true(best >= 0 && dur >= best);
      if (seq2) assert_true(best >= 0 && dur2 >= best);
      if (seq3) assert_true(best >= 0 && dur3 >= best);
      if (seq && seq2) assert_true(dur2 <= dur); /* the best of three */
      if (seq2) { /* the lookahead starts from the best of three */
        assert_non_null(seq3);
        assert_true(dur3 <= dur2);
        shorter_pilot += dur3 < dur2;
      }
      if (M == hi && !copies) { /* nothing to evict: the input order (a
                                   value of C_v = 1 is held longer) */
        assert_non_null(seq);
        assert_int_equal(len, n);
        assert_int_equal(dur, base);
      }
      cases++;
      feasible += best >= 0;
      found += seq != NULL;
      found_best += seq2 != NULL;
      optimal += seq2 && dur2 == best;
      optimal_pilot += seq3 && dur3 == best;
      recomputing += seq2 && len2 > n;
      free(seq);
      free(seq2);
      free(seq3);
    }
    remat_graph_free(g);
  }
  fprintf(stderr, "  %d cases, %d feasible; the walk (exponent 1) on %d, the best of three on %d, "
          "%d optimal, %d recomputing; the lookahead %d optimal, %d shorter\n", cases, feasible,
          found, found_best, optimal, recomputing, optimal_pilot, shorter_pilot);
  assert_true(found_best >= found);
  assert_true(found_best * 10 >= feasible * 9);
  assert_true(recomputing >= 100); /* the evictions are exercised */
}

/* k layers: a random state r_j (C_v = 1, size 1, duration 0), a mask
 * q_j = f(r_j, x_{j-1}) and x_j = f(x_{j-1}, q_j) (size 8 each); then
 * the backward, y_j reading y_{j+1}, q_j and x_{j-1}, last layer first.
 * The input order holds every mask; below that, the masks are computed
 * again in the backward pass from their states, which the walk holds. */
static remat_graph *dropout(int k, int64_t unit, int64_t wunit) {
  int n = 1 + 4 * k;
  oracle_arrays a = oracle_arrays_new(n, 4 * n);
  a.w[0] = wunit;
  a.m[0] = 8 * unit;
  for (int j = 0; j < k; j++) {
    int x0 = j ? 3 * j : 0, r = 3 * j + 1, q = r + 1, x = r + 2;
    a.w[r] = 0, a.m[r] = unit;
    a.w[q] = wunit, a.m[q] = 8 * unit;
    a.w[x] = 10 * wunit, a.m[x] = 8 * unit;
    oracle_edge(&a, r, q);
    oracle_edge(&a, x0, q);
    oracle_edge(&a, x0, x);
    oracle_edge(&a, q, x);
  }
  for (int i = 0; i < k; i++) {
    int y = 1 + 3 * k + i, j = k - 1 - i, x0 = j ? 3 * j : 0, q = 3 * j + 2;
    a.w[y] = 2 * wunit, a.m[y] = 8 * unit;
    oracle_edge(&a, y - 1, y);
    oracle_edge(&a, q, y);
    if (x0 != y - 1) oracle_edge(&a, x0, y);
  }
  return oracle_build(&a, "dropout");
}

static void test_demand_dropout(void **state) {
  (void)state;
  const int64_t units[][2] = {{1, 1}, {1000000000000LL, 1000000000LL}};
  for (int u = 0; u < 2; u++) {
    int k = 10;
    remat_graph *g = dropout(k, units[u][0], units[u][1]);
    int *copies = calloc((size_t)g->n, sizeof *copies);
    for (int j = 0; j < k; j++) copies[3 * j + 1] = 1;
    int64_t hi = remat_topo_peak(g), M = hi / 2;
    int len;
    int64_t dur;
    int *seq = walk(g, M, copies, -1, &len, &dur);
    assert_non_null(seq);
    int *cnt = calloc((size_t)g->n, sizeof *cnt), masks = 0;
    for (int i = 0; i < len; i++) cnt[seq[i]]++;
    for (int j = 0; j < k; j++) {
      assert_int_equal(cnt[3 * j + 1], 1); /* the states, once */
      masks += cnt[3 * j + 2] > 1;
    }
    assert_true(masks > 0);
    free(cnt);
    free(seq);
    free(copies);
    remat_graph_free(g);
  }
}

/* The lookahead on generated U-Nets (depth 2, 21 nodes) and training
 * chains (8 layers, 17 nodes) at 0.3 to 0.7 of the input order's peak:
 * each schedule checked, never longer than the best of three walks,
 * shorter on most U-Nets (every one of the 60 where a walk fits, when
 * written) and on some chains. */
static void test_demand_lookahead(void **state) {
  (void)state;
  int found[2] = {0, 0}, shorter[2] = {0, 0};
  for (uint64_t seed = 1; seed <= 30; seed++)
    for (int kind = 0; kind < 2; kind++) {
      remat_graph *g = kind ? gen_training(8, seed) : gen_unet(2, seed);
      int64_t hi = remat_topo_peak(g);
      for (int b = 3; b <= 7; b++) {
        int len, len2;
        int64_t dur = -1, dur2 = -1;
        int *seq = walk(g, hi * b / 10, NULL, -1, &len, &dur);
        int *seq2 = walk(g, hi * b / 10, NULL, -2, &len2, &dur2);
        if (seq) {
          assert_non_null(seq2);
          assert_true(dur2 <= dur);
          found[kind]++;
          shorter[kind] += dur2 < dur;
        }
        free(seq);
        free(seq2);
      }
      remat_graph_free(g);
    }
  fprintf(stderr, "  U-Nets: %d found, %d shorter; chains: %d found, %d shorter\n", found[0],
          shorter[0], found[1], shorter[1]);
  assert_true(found[0] >= 50 && shorter[0] * 10 >= found[0] * 9);
  assert_true(shorter[1] >= 1);
}

static void test_demand_gives_up(void **state) {
  (void)state;
  /* a -> b -> c, sizes 2: computing b needs 4 */
  oracle_arrays a = oracle_arrays_new(3, 2);
  for (int v = 0; v < 3; v++) a.w[v] = 1, a.m[v] = 2000000000000LL;
  oracle_edge(&a, 0, 1);
  oracle_edge(&a, 1, 2);
  remat_graph *g = oracle_build(&a, "chain");
  int len;
  int64_t dur;
  assert_null(walk(g, 3999999999999LL, NULL, 1.0, &len, &dur)); /* stuck */
  assert_null(walk(g, 1999999999999LL, NULL, -1, &len, &dur));  /* a value above M */
  int *seq = walk(g, 4000000000000LL, NULL, 1.0, &len, &dur);
  assert_non_null(seq);
  assert_int_equal(len, 3);
  free(seq);
  remat_graph_free(g);
  remat_graph *d = dropout(10, 1, 1);
  demand_params p;
  demand_params_init(&p);
  p.budget = remat_topo_peak(d) / 2;
  p.deadline = deadline_in(-1);
  assert_null(demand_schedule(d, &p, &len));
  volatile int stop = 1;
  p.deadline = deadline_in(10);
  p.stop = &stop;
  assert_null(demand_best(d, &p, &len));
  assert_null(demand_pilot(d, &p, &len));
  stop = 0;
  seq = demand_best(d, &p, &len);
  assert_non_null(seq);
  free(seq);
  remat_graph_free(d);
}

UNIT_TESTS(test_demand_exhaustive, test_demand_dropout, test_demand_lookahead,
           test_demand_gives_up)
