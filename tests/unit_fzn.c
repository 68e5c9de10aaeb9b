/* unit_fzn.c -- the FlatZinc writer (fzn.c): Gecode's optimum of the
 * written model, decoded, equals the brute force on random DAGs; the
 * in-process backend and an external fzn-gecode agree on the same file. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "testutil.h"

#include "decode.h"
#include "extsolver.h"
#include "fzn.h"
#include "gecode.h"
#include "graph.h"
#include "model_any.h"
#include "oracle.h"
#include "remat.h"
#include "util.h"

typedef struct collect {
  const model *md;
  model_sol x;
  long long obj;
  int n;
} collect;

static int collect_solution(void *ctx, const char *text) {
  collect *c = ctx;
  char err[256];
  assert_int_equal(decode_solution(c->md, text, &c->x, &c->obj, err, sizeof err), 0);
  c->n++;
  return 0;
}

/* Solve phase 2 of a random DAG exactly with Gecode; the decoded optimum
 * equals the brute force, and every solution satisfies the model. */
static void test_fzn_roundtrip(void **state) {
  (void)state;
  for (uint64_t seed = 1; seed <= 6; seed++) {
    remat_graph *g = oracle_dag(5, 40, 9, 9, seed);
    int64_t minp, topo = remat_topo_peak(g);
    int64_t M = (remat_graph_min_peak(g) + topo) / 2;
    int64_t best = oracle_best(g, M, &minp);
    model md;
    char err[256];
    assert_int_equal(model_build(&md, g, 2, M, NULL, g->n, err, sizeof err), 0);
    util_buf text = {0};
    fzn_params fp;
    fzn_params_init(&fp);
    fp.external = 1; /* complete search, as an external solver gets it */
    fzn_write(&md, &fp, &text, NULL);
    collect c = {&md, {0}, 0, 0};
    model_sol_alloc(&md, &c.x);
    gz_params gp;
    gz_params_init(&gp);
    gp.on_solution = collect_solution;
    gp.ctx = &c;
    gz_stats st;
    gz_status status = gz_solve(text.s, text.len, &gp, &st, err, sizeof err);
    if (best < 0) {
      assert_int_equal(status, GZ_UNSAT);
    } else {
      assert_int_equal(status, GZ_OPTIMAL);
      assert_int_equal(model_check(&md, &c.x, md.cap, err, sizeof err), 0);
      int *seq, len;
      model_decode(&md, &c.x, &seq, &len);
      remat_sim s;
      assert_int_equal(remat_simulate(g, seq, len, &s, NULL), 0);
      assert_true(s.peak <= M);
      if (s.duration != best)
        fail_msg("seed %d: CP duration %lld, brute force %lld (M %lld)",
                 (int)seed, (long long)s.duration, (long long)best,
                 (long long)M);
      assert_true(c.obj == best - remat_graph_base_duration(g));
      free(seq);
    }
    model_sol_free(&c.x);
    util_buf_free(&text);
    model_free(&md);
    remat_graph_free(g);
  }
}

/* The in-process backend and an external fzn-gecode agree on the same
 * FlatZinc file. */
static void test_backends_agree(void **state) {
  (void)state;
  for (uint64_t seed = 11; seed <= 14; seed++) {
    remat_graph *g = oracle_dag(6, 40, 9, 9, seed);
    int64_t M = (remat_graph_min_peak(g) * 2 + remat_topo_peak(g)) / 3;
    model md;
    char err[1024];
    assert_int_equal(model_build(&md, g, 2, M, NULL, 3, err, sizeof err), 0);
    util_buf text = {0};
    fzn_params fp;
    fzn_params_init(&fp);
    fp.external = 1;
    fzn_write(&md, &fp, &text, NULL);
    char path[] = "/tmp/remat-test-XXXXXX.fzn";
    int fd = mkstemps(path, 4);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fwrite(text.s, 1, text.len, f);
    fclose(f);
    size_t len;
    char *again = util_read_file(path, &len);
    collect a = {&md, {0}, -1, 0}, b = {&md, {0}, -1, 0};
    model_sol_alloc(&md, &a.x);
    model_sol_alloc(&md, &b.x);
    gz_params gp;
    gz_params_init(&gp);
    gp.on_solution = collect_solution;
    gp.ctx = &a;
    gz_status s1 = gz_solve(again, len, &gp, NULL, err, sizeof err);
    ext_params ep = {"fzn-gecode", deadline_in(20), NULL, collect_solution, &b, NULL};
    gz_status s2 = ext_solve(path, &ep, NULL, err, sizeof err);
    if (s1 != s2 || a.obj != b.obj)
      fail_msg("seed %d: in-process status %d obj %lld, fzn-gecode status %d "
               "obj %lld (%s)",
               (int)seed, s1, a.obj, s2, b.obj, err);
    unlink(path);
    free(again);
    model_sol_free(&a.x);
    model_sol_free(&b.x);
    util_buf_free(&text);
    model_free(&md);
    remat_graph_free(g);
  }
}

UNIT_TESTS(test_fzn_roundtrip, test_backends_agree)
