/* unit_heur.c -- the greedy and its improvements (heur.c): on random
 * graphs every schedule reported re-simulates, keeps the copy limits and
 * improves on the one before; the budget is reached on most instances; a
 * block whose shortcut must be dropped and rebuilt from the graph's first
 * node is fitted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "heur.h"
#include "oracle.h"

typedef report_seen seen;

static int check_heur(void *ctx, const int *seq, int len, const char *name) {
  seen *S = ctx;
  assert_true(!strcmp(name, "greedy") || !strcmp(name, "exchange") ||
              !strcmp(name, "heuristic"));
  remat_sim sim;
  int fits = report_simulate(S, seq, len, &sim);
  /* the greedy's first schedule may miss the budget (and is then the only
   * one); each later one fits and is shorter */
  if (S->reports) assert_true(S->fits && fits && sim.duration < S->last_dur);
  else if (!fits) assert_string_equal(name, "greedy");
  report_count(S, fits, &sim);
  return 0;
}

/* Random graphs of 10 to 60 nodes, three budgets, C_v = 2 or unlimited:
 * the heuristics' schedules valid, within the copy limits, improving; the
 * budget reached on most instances. */
static void test_heur_validity(void **state) {
  (void)state;
  int cases = 0, reached = 0;
  for (uint64_t seed = 1; seed <= 30; seed++) {
    int n = 10 + (int)(seed * 17 % 51);
    remat_graph *g = oracle_dag(n, 8 + (int)(seed % 20), 99, 50, 700 + seed);
    int *copies = malloc((size_t)n * sizeof *copies);
    for (int v = 0; v < n; v++) copies[v] = 2;
    int64_t lo = remat_graph_min_peak(g), hi = remat_topo_peak(g);
    for (int b = 1; b <= 3; b++) {
      seen S;
      memset(&S, 0, sizeof S);
      S.g = g;
      S.M = lo + (hi - lo) * b / 4;
      S.copies = seed & 1 ? copies : NULL;
      heur_params p;
      heur_params_init(&p);
      p.budget = S.M;
      p.copies = S.copies;
      p.deadline = deadline_in(0.05);
      p.io.seed = (unsigned)seed;
      p.io.report = check_heur;
      p.io.ctx = &S;
      int found = heur_run(g, &p);
      assert_int_equal(found, S.reports);
      assert_true(S.reports > 0);
      cases++;
      reached += S.fits;
    }
    free(copies);
    remat_graph_free(g);
  }
  fprintf(stderr, "  %d cases, %d within budget\n", cases, reached);
  assert_true(reached * 4 >= cases * 3);
}

/* A stem chain c0 -> c1 -> c2, then a block: a shortcut s0 -> s1 and a
 * wide branch b0 -> b1 -> b2 -> b3, joined by out = s1 + b3 (an inference
 * network's residual block).  The input order holds s1 across b1 and b2
 * (9); within 8 the shortcut must be dropped and rebuilt after b3, which
 * recomputes the whole chain c0, c1, c2, s0, s1 (the stem's output is
 * gone by then): five recomputations, each read by the next. */
static void test_heur_rebuild_chain(void **state) {
  (void)state;
  enum { N = 10 };
  const int64_t w[N] = {5, 5, 5, 2, 2, 9, 9, 9, 9, 1};
  const int64_t m[N] = {3, 3, 3, 1, 1, 4, 4, 4, 1, 1};
  const int src[] = {0, 1, 2, 3, 2, 5, 6, 7, 4, 8};
  const int dst[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 9};
  remat_graph *g = graph_from_arrays(N, w, m, 10, src, dst, "rebuild");
  assert_int_equal(remat_topo_peak(g), 9);
  int copies[N];
  for (int v = 0; v < N; v++) copies[v] = 2;
  seen S;
  memset(&S, 0, sizeof S);
  S.g = g;
  S.M = 8;
  S.copies = copies;
  heur_params p;
  heur_params_init(&p);
  p.budget = S.M;
  p.copies = copies;
  p.deadline = deadline_in(1);
  p.io.report = check_heur;
  p.io.ctx = &S;
  heur_run(g, &p);
  assert_true(S.fits);
  /* the optimum: the five recomputations, nothing else fits */
  assert_int_equal(S.last_dur, 2 * (5 + 5 + 5 + 2 + 2) + 4 * 9 + 1);
  remat_graph_free(g);
}

UNIT_TESTS(test_heur_validity, test_heur_rebuild_chain)
