/* oracle.h -- test helpers: small random DAGs, a brute-force optimum over
 * all stage-structured schedules (for n <= 7) and the MILP's proven one. */
#ifndef REMAT_TEST_ORACLE_H
#define REMAT_TEST_ORACLE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "milp.h"
#include "remat.h"

static inline uint64_t oracle_rand(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* A graph under construction: durations w[] and sizes m[] of its n
 * nodes and its ne edges src[e] -> dst[e] so far, room for max_edges
 * (oracle_arrays); oracle_build makes the graph and frees the arrays. */
typedef struct oracle_arrays {
  int n, ne;
  int64_t *w, *m;
  int *src, *dst;
} oracle_arrays;

static inline oracle_arrays oracle_arrays_new(int n, int max_edges) {
  oracle_arrays a = {n, 0, NULL, NULL, NULL, NULL};
  a.w = malloc((size_t)(n ? n : 1) * sizeof *a.w);
  a.m = malloc((size_t)(n ? n : 1) * sizeof *a.m);
  a.src = malloc((size_t)(max_edges ? max_edges : 1) * sizeof *a.src);
  a.dst = malloc((size_t)(max_edges ? max_edges : 1) * sizeof *a.dst);
  return a;
}

static inline void oracle_edge(oracle_arrays *a, int u, int v) {
  a->src[a->ne] = u;
  a->dst[a->ne++] = v;
}

static inline remat_graph *oracle_build(oracle_arrays *a, const char *name) {
  remat_graph *g = graph_from_arrays(a->n, a->w, a->m, a->ne, a->src, a->dst, name);
  free(a->w);
  free(a->m);
  free(a->src);
  free(a->dst);
  return g;
}

/* A random DAG on n nodes (edges u<v with probability pct%), every node
 * but the first has a predecessor; durations 0..dmax, sizes 1..mmax. */
static inline remat_graph *oracle_dag(int n, int pct, int dmax, int mmax,
                                      uint64_t seed) {
  oracle_arrays a = oracle_arrays_new(n, n * n);
  for (int v = 0; v < n; v++) {
    a.w[v] = (int64_t)(oracle_rand(&seed) % (uint64_t)(dmax + 1));
    a.m[v] = 1 + (int64_t)(oracle_rand(&seed) % (uint64_t)mmax);
    int has = 0;
    for (int u = 0; u < v; u++)
      if ((int)(oracle_rand(&seed) % 100) < pct) {
        oracle_edge(&a, u, v);
        has = 1;
      }
    if (v && !has) oracle_edge(&a, (int)(oracle_rand(&seed) % (uint64_t)v), v);
  }
  return oracle_build(&a, "oracle");
}

/* The i-th of a family of small random DAGs: lo + i % span nodes, edges
 * with probability 30, 45 or 60 % by turns, durations 0..9, sizes 1..9;
 * seeded with seed0 + i. */
static inline remat_graph *oracle_small(int i, int lo, int span,
                                        uint64_t seed0) {
  return oracle_dag(lo + i % span, 30 + 15 * (i % 3), 9, 9, seed0 + (uint64_t)i);
}

/* A graph with g's edges and the durations w[] and sizes m[] given. */
static inline remat_graph *oracle_renumber(const remat_graph *g, const int64_t *w,
                                           const int64_t *m, const char *name) {
  int n = g->n;
  oracle_arrays a = oracle_arrays_new(n, g->pred_off[n]);
  memcpy(a.w, w, (size_t)n * sizeof *w);
  memcpy(a.m, m, (size_t)n * sizeof *m);
  for (int v = 0; v < n; v++)
    for (int j = g->pred_off[v]; j < g->pred_off[v + 1]; j++) oracle_edge(&a, g->pred[j], v);
  return oracle_build(&a, name);
}

/* Minimum duration over all stage-structured schedules with peak <= M
 * (stage t recomputes any subset of 0..t-1, in order, then computes t)
 * and at most copies[v] computations of each v (NULL: any); -1 if none
 * fits.  Also (min_peak not NULL) the minimum peak over all of them. */
static inline int64_t oracle_best_copies(const remat_graph *g, int64_t M, const int *copies,
                                         int64_t *min_peak) {
  int n = g->n, bits = n * (n - 1) / 2;
  int *seq = malloc((size_t)(bits + n) * sizeof *seq);
  int *cnt = malloc((size_t)(n ? n : 1) * sizeof *cnt);
  int64_t best = -1, least = INT64_MAX;
  for (uint64_t mask = 0; mask < (1ull << bits); mask++) {
    int len = 0, b = 0, over = 0;
    for (int v = 0; v < n; v++) cnt[v] = 1;
    for (int t = 0; t < n; t++) {
      for (int u = 0; u < t; u++, b++)
        if (mask >> b & 1) {
          seq[len++] = u;
          over |= copies && ++cnt[u] > copies[u];
        }
      seq[len++] = t;
    }
    remat_sim s;
    if (over || remat_simulate(g, seq, len, &s, NULL)) continue;
    if (s.peak < least) least = s.peak;
    if (s.peak <= M && (best < 0 || s.duration < best)) best = s.duration;
  }
  free(seq);
  free(cnt);
  if (min_peak) *min_peak = least;
  return best;
}

/* The same with any number of copies. */
static inline int64_t oracle_best(const remat_graph *g, int64_t M, int64_t *min_peak) {
  return oracle_best_copies(g, M, NULL, min_peak);
}

/* A random DAG of 3 to nmax (at most 8) nodes whose sizes
 * mix a few small, medium and large values (so that an input can weigh
 * less than its reader, or more), at byte scale or near 10^12, durations
 * near 10^9 or small. */
static inline remat_graph *oracle_mixed_dag(uint64_t s, int nmax) {
  int n = 3 + (int)(oracle_rand(&s) % (uint64_t)(nmax - 2));
  remat_graph *shape = oracle_dag(n, 25 + (int)(oracle_rand(&s) % 60), 1, 1, s);
  int64_t w[8], m[8];
  int64_t sm = oracle_rand(&s) & 1 ? 100000000000LL : 1;
  int64_t sw = oracle_rand(&s) & 1 ? 100000000LL : 1;
  for (int v = 0; v < n; v++) {
    int r = (int)(oracle_rand(&s) % 4);
    int64_t base = r == 0 ? 1 + (int64_t)(oracle_rand(&s) % 3)
                   : r == 1 ? 5 + (int64_t)(oracle_rand(&s) % 10)
                            : 1 + (int64_t)(oracle_rand(&s) % 40);
    m[v] = base * sm + (sm > 1 ? (int64_t)(oracle_rand(&s) % 1000) : 0);
    w[v] = (int64_t)(oracle_rand(&s) % 10) * sw + (int64_t)(oracle_rand(&s) % 3);
  }
  remat_graph *g = oracle_renumber(shape, w, m, "mixed");
  remat_graph_free(shape);
  return g;
}

/* The MILP's proven optimum of g at M as a duration increase (the stage
 * model with any number of copies; one thread, the MILP's default limit,
 * 60 s); -1 when the MILP did not prove one. */
static inline int64_t oracle_milp_increase(const remat_graph *g, int64_t M) {
  milp_params mp;
  milp_params_init(&mp);
  mp.budget = M;
  mp.threads = 1;
  mp.verbose = 0;
  remat_result r;
  remat_result_init(&r, g, M, "milp");
  milp_solve(g, &mp, &r, NULL);
  int64_t opt = r.status == REMAT_STATUS_OPTIMAL ? r.duration - remat_graph_base_duration(g) : -1;
  remat_result_free(&r);
  return opt;
}

#endif
