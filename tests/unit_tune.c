/* unit_tune.c -- the C_v tuning (tune.c): its candidates and map file on
 * the diamond, a uniform sweep and the adaptive mode reaching the
 * optimum, and a node's own copies kept by the candidates, the maps and
 * remat_solve. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UNIT_TMPDIR "unit_tune"
#include "testutil.h"

#include "graph.h"
#include "remat.h"
#include "sim.h"
#include "tune.h"
#include "util.h"

static void test_tune_helpers(void **state) {
  (void)state;
  char err[256];
  remat_graph *g = remat_graph_read_buffer(
      DIAMOND_JSON, strlen(DIAMOND_JSON), "d.json", err, sizeof err);
  assert_non_null(g);
  int topo[] = {0, 1, 2, 3, 4, 5}, c1[6] = {1, 1, 1, 1, 1, 1};
  int again[] = {0, 1, 2, 3, 0, 4, 5};
  assert_true(sim_within_copies(g, topo, 6, c1));
  assert_false(sim_within_copies(g, again, 7, c1));
  /* budget 13 < peak 16: the values live across the high steps (3 and 4:
   * 14 and 16 >= 0.95 x 13; not counting the step that computes them) are
   * in (4 x 2 steps), a (5 x 2), b (2 x 1, read at step 3), c (3 x 1):
   * scores a 10, in 8, c 3, b 2 */
  int out[6];
  int k = tune_candidates(g, topo, 6, 13, c1, out);
  assert_int_equal(k, 4);
  assert_int_equal(out[0], 1); /* a */
  assert_int_equal(out[1], 0); /* in */
  assert_int_equal(out[2], 3); /* c */
  assert_int_equal(out[3], 2); /* b */
  /* not saturated (C_v = 2, used once): their saturated inputs instead;
   * b's input in is not saturated, c's inputs a (no) and b (yes) */
  int c2[6] = {2, 2, 2, 2, 1, 1};
  k = tune_candidates(g, topo, 6, 13, c2, out);
  assert_int_equal(k, 0);
  int c3[6] = {2, 2, 1, 2, 1, 1};
  k = tune_candidates(g, topo, 6, 13, c3, out);
  assert_int_equal(k, 1);
  assert_int_equal(out[0], 2); /* b: live across step 3 and saturated */
  char *map = tpath("map.json");
  assert_int_equal(tune_write_map(g, c2, map, err, sizeof err), 0);
  size_t len;
  char *text = util_read_file(map, &len);
  assert_non_null(strstr(text, "\"a\": 2"));
  assert_non_null(strstr(text, "\"d\": 1"));
  free(text);
  free(map);
  remat_graph_free(g);
}

/* A uniform sweep over vals[0..1] on the diamond at 13, 4 s, one thread. */
static void sweep_params(tune_params *p, int *vals) {
  tune_params_init(p);
  p->solve.budget = 13;
  p->solve.verbose = 0;
  p->solve.threads = 1;
  p->time_limit = 4;
  p->sweep = vals;
  p->nsweep = 2;
}

static void test_tune_sweep(void **state) {
  (void)state;
  char err[256];
  remat_graph *g = remat_graph_read_buffer(
      DIAMOND_JSON, strlen(DIAMOND_JSON), "d.json", err, sizeof err);
  tune_params p;
  int vals[] = {1, 6};
  sweep_params(&p, vals);
  tune_result res;
  assert_int_equal(tune_run(g, &p, &res), REMAT_OK);
  assert_int_equal(res.nrounds, 2);
  assert_false(res.rounds[0].fits); /* C = 1: no recomputation */
  assert_true(res.rounds[1].fits);
  assert_int_equal(res.best_round, 1);
  assert_int_equal(res.best.peak, 13);
  assert_int_equal(res.best.duration, 22); /* the optimum (e2e_solve.sh) */
  assert_int_equal(res.copies[0], 6);
  tune_result_free(&res);
  /* adaptive from C = 1 reaches the same optimum */
  tune_params_init(&p);
  p.solve.budget = 13;
  p.solve.verbose = 0;
  p.solve.threads = 1;
  p.time_limit = 6;
  assert_int_equal(tune_run(g, &p, &res), REMAT_OK);
  assert_int_equal(res.best.duration, 22);
  assert_true(sim_within_copies(g, res.best.seq, res.best.len, res.copies));
  tune_result_free(&res);
  remat_graph_free(g);
}

/* The diamond with "in" given copies 1 by the graph: its own C_v is a
 * ceiling (graph_copies_cap) for the candidates, the maps and the solves,
 * whose optimum at 13 computes "in" twice: nothing fits. */
static void test_tune_own_copies(void **state) {
  (void)state;
  char err[256];
  remat_graph *g = remat_graph_read_buffer(
      DIAMOND_JSON, strlen(DIAMOND_JSON), "d.json", err, sizeof err);
  g->copies[0] = 1;
  int topo[] = {0, 1, 2, 3, 4, 5}, c1[6] = {1, 1, 1, 1, 1, 1}, out[6];
  assert_int_equal(tune_candidates(g, topo, 6, 13, c1, out), 3); /* a, c, b */
  for (int i = 0; i < 3; i++) assert_int_not_equal(out[i], 0);
  int six[6] = {6, 0, 6, 1, 6, 6};
  int *capped = graph_copies_capped(g, six, 2);
  int want[6] = {1, 2, 6, 1, 6, 6};
  assert_memory_equal(capped, want, sizeof want);
  assert_int_equal(graph_copies_cap(g, six), 1);
  assert_int_equal(six[0], 1);
  free(capped);
  /* the searches that may pass C_v leave a node's own, of 1 or more */
  g->copies[2] = 3;
  int c[6] = {1, 2, 3, 1, 5, 2}, open[6], want_open[6] = {1, 0, 3, 1, 0, 0};
  graph_copies_open(g, c, open);
  assert_memory_equal(open, want_open, sizeof want_open);
  g->copies[2] = 0;
  /* a caller's array above the graph's own: the solve keeps to the own */
  remat_solve_params sp;
  remat_solve_params_init(&sp);
  sp.budget = 13;
  sp.verbose = 0;
  sp.threads = 1;
  sp.time_limit = 4;
  int all6[6] = {6, 6, 6, 6, 6, 6};
  sp.copies = all6;
  remat_result r;
  remat_result_init(&r, g, sp.budget, "cp");
  remat_solve(g, &sp, &r);
  assert_true(r.peak > 13); /* with "in" twice: 13, the optimum */
  int cnt = 0;
  for (int i = 0; r.seq && i < r.len; i++) cnt += r.seq[i] == 0;
  assert_true(cnt <= 1);
  remat_result_free(&r);
  /* a sweep's uniform maps keep "in" at 1: nothing fits, the map says 1 */
  tune_params p;
  int vals[] = {1, 6};
  sweep_params(&p, vals);
  tune_result res;
  tune_run(g, &p, &res);
  assert_int_equal(res.nrounds, 2);
  assert_false(res.rounds[1].fits);
  assert_int_equal(res.copies[0], 1);
  tune_result_free(&res);
  remat_graph_free(g);
}

UNIT_TESTS_WITH(tmpdir_setup, tmpdir_teardown, test_tune_helpers, test_tune_sweep,
                test_tune_own_copies)
