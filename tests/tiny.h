/* tiny.h -- test helpers of the MILP, stage-matrix, rounding and baseline
 * tests: a seeded generator, tiny random DAGs and chains, a brute force
 * over the stage-structured schedules (with a cap on copies), and a check
 * that a result re-simulates to its numbers. */
#ifndef REMAT_TEST_TINY_H
#define REMAT_TEST_TINY_H

#include <stdint.h>
#include <stdlib.h>

#include "graph.h"
#include "remat.h"
#include "testutil.h"

static uint64_t rng_state;

static inline uint64_t rng_next(void) { /* splitmix64 */
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static inline int rng_int(int lo, int hi) { /* inclusive */
  return lo + (int)(rng_next() % (uint64_t)(hi - lo + 1));
}

/* A random DAG on n nodes: each pair u < v an edge with probability pct,
 * every node but 0 gets at least one predecessor. */
static inline remat_graph *tiny_dag(int n, int pct, int wmax) {
  int64_t w[16], m[16];
  int src[128], dst[128], ne = 0;
  for (int v = 0; v < n; v++) {
    w[v] = rng_int(0, wmax);
    m[v] = rng_int(1, 9);
    int has = 0;
    for (int u = 0; u < v; u++)
      if (rng_int(1, 100) <= pct) {
        src[ne] = u, dst[ne++] = v;
        has = 1;
      }
    if (v > 0 && !has) src[ne] = rng_int(0, v - 1), dst[ne++] = v;
  }
  return graph_from_arrays(n, w, m, ne, src, dst, "tiny");
}

/* tiny_dag on nlo..nhi nodes with a pct drawn from plo..phi, in that
 * order, durations 0..9. */
static inline remat_graph *tiny_rand(int nlo, int nhi, int plo, int phi) {
  int n = rng_int(nlo, nhi);
  return tiny_dag(n, rng_int(plo, phi), 9);
}

/* The sizes of tiny_rand's graphs: nlo..nhi nodes, plo..phi % edges. */
typedef struct tiny_family {
  int nlo, nhi, plo, phi;
} tiny_family;

/* Runs check on count graphs of family f drawn one after another from
 * rng_state = seed on; each is freed after. */
static inline void each_tiny(uint64_t seed, int count, tiny_family f,
                             void (*check)(const remat_graph *g)) {
  rng_state = seed;
  for (int rep = 0; rep < count; rep++) {
    remat_graph *g = tiny_rand(f.nlo, f.nhi, f.plo, f.phi);
    check(g);
    remat_graph_free(g);
  }
}

/* Defines the test `name`: check on count graphs of family {nlo, nhi,
 * plo, phi} from seed on (each_tiny). */
#define TINY_TEST(name, check, seed, count, nlo, nhi, plo, phi)                \
  UNIT_TEST_OF(name, each_tiny(seed, count, (tiny_family){nlo, nhi, plo, phi}, check))

static inline remat_graph *chain(int n) { /* a chain with unit sizes */
  int64_t w[16], m[16];
  int src[16], dst[16];
  for (int v = 0; v < n; v++) w[v] = 1, m[v] = 1;
  for (int v = 1; v < n; v++) src[v - 1] = v - 1, dst[v - 1] = v;
  return graph_from_arrays(n, w, m, n - 1, src, dst, "chain");
}

/* Brute force over all stage-structured schedules: stage t recomputes any
 * subset of {0..t-1}; only those computing no node v more than caps[v]
 * times where caps and caps[v] > 0, else more than cap times where cap >
 * 0.  best[k]: the least duration with peak <= budgets[k] (-1: none);
 * *min_peak: the least peak of all. */
static inline void brute_force_caps(const remat_graph *g, const int64_t *budgets, int nb,
                                    int cap, const int *caps, int64_t *best,
                                    int64_t *min_peak) {
  int n = g->n, bits = n * (n - 1) / 2;
  int *seq = malloc(sizeof(int) * (size_t)(n + bits + 1));
  for (int k = 0; k < nb; k++) best[k] = -1;
  *min_peak = INT64_MAX;
  for (long mask = 0; mask < (1L << bits); mask++) {
    int len = 0, b = 0, cnt[16] = {0}, over = 0;
    for (int t = 0; t < n; t++) {
      for (int i = 0; i < t; i++, b++)
        if (mask >> b & 1) seq[len++] = i;
      seq[len++] = t;
    }
    for (int i = 0; i < len; i++) {
      int c = caps && caps[seq[i]] > 0 ? caps[seq[i]] : cap;
      over |= c > 0 && ++cnt[seq[i]] > c;
    }
    if (over) continue;
    remat_sim s;
    assert_int_equal(remat_simulate(g, seq, len, &s, NULL), 0);
    if (s.peak < *min_peak) *min_peak = s.peak;
    for (int k = 0; k < nb; k++)
      if (s.peak <= budgets[k] && (best[k] < 0 || s.duration < best[k]))
        best[k] = s.duration;
  }
  free(seq);
}

static inline void brute_force_cap(const remat_graph *g, const int64_t *budgets,
                                   int nb, int cap, int64_t *best, int64_t *min_peak) {
  brute_force_caps(g, budgets, nb, cap, NULL, best, min_peak);
}

static inline void brute_force(const remat_graph *g, const int64_t *budgets,
                               int nb, int64_t *best, int64_t *min_peak) {
  brute_force_cap(g, budgets, nb, 0, best, min_peak);
}

/* The result's schedule re-simulates to its numbers. */
static inline void check_result(const remat_graph *g, const remat_result *r) {
  if (!r->seq) return;
  remat_sim s;
  assert_int_equal(remat_simulate(g, r->seq, r->len, &s, NULL), 0);
  assert_int_equal(s.peak, r->peak);
  assert_int_equal(s.duration, r->duration);
}
#endif
