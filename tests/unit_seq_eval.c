/* unit_seq_eval.c -- the evaluation of sequences in free order
 * (seq_eval.h): sqe_full equals the simulator, and sqe_move's incremental
 * evaluation equals sqe_full of the sequence it builds, valid or not, over
 * random moves taken half the time (the index following the move or
 * rebuilt), with copy limits, at sizes near 10^12. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "oracle.h"
#include "seq_eval.h"
#include "sim.h"

/* c's sequence without step i, with v before step at (as sqe_move). */
static void build(const sqe_ev *c, sqe_ev *t, int i, int at, int v) {
  sqe_ev_reserve(t, c->len + 1);
  int len = 0;
  for (int j = 0; j <= c->len; j++) {
    if (j == at) t->seq[len++] = v;
    if (j < c->len && j != i) t->seq[len++] = c->seq[j];
  }
  t->len = len;
}

static void assert_same(const sqe_ev *a, const sqe_ev *b) {
  assert_int_equal(a->len, b->len);
  assert_memory_equal(a->seq, b->seq, (size_t)a->len * sizeof *a->seq);
  assert_memory_equal(a->lastuse, b->lastuse, (size_t)a->len * sizeof *a->lastuse);
  assert_memory_equal(a->mem, b->mem, (size_t)a->len * sizeof *a->mem);
  assert_true(a->dur == b->dur && a->peak == b->peak && a->excess == b->excess);
  assert_int_equal(a->over, b->over);
}

static void run_moves(uint64_t seed, int64_t scale) {
  int n = 2 + (int)(seed % 19);
  remat_graph *g = oracle_dag(n, 15 + (int)(seed * 7 % 60), 9, 9, seed);
  for (int v = 0; v < n; v++) {
    g->m[v] *= scale;
    g->w[v] *= scale;
  }
  uint64_t r = seed * 131;
  int *copies = malloc((size_t)n * sizeof *copies);
  for (int v = 0; v < n; v++) copies[v] = (int)(oracle_rand(&r) % 4); /* 0: any */
  int64_t M = (int64_t)(5 + oracle_rand(&r) % 20) * scale;
  sqe E;
  sqe_init(&E, g, seed % 3 ? copies : NULL, M);
  sqe_ev a = {0}, b = {0}, f = {0};
  sqe_ev *cur = &a, *cand = &b;
  sqe_ev_reserve(cur, n);
  for (int v = 0; v < n; v++) cur->seq[v] = v;
  cur->len = n;
  assert_int_equal(sqe_full(&E, cur), 1);
  int valid = 0;
  for (int t = 0; t < 400; t++) {
    int len = cur->len;
    int i = oracle_rand(&r) % 3 ? (int)(oracle_rand(&r) % (uint64_t)len) : -1;
    int at = oracle_rand(&r) % 3 ? (int)(oracle_rand(&r) % (uint64_t)(len + 1)) : -1;
    int v = (int)(oracle_rand(&r) % (uint64_t)n);
    if (oracle_rand(&r) % 2 && i >= 0) v = cur->seq[i]; /* a shift */
    int ok = sqe_move(&E, cur, cand, i, at, v);
    build(cur, &f, i, at, at >= 0 ? v : -1);
    int want = sqe_full(&E, &f);
    assert_int_equal(ok, want);
    if (!ok) continue;
    valid++;
    assert_same(cand, &f);
    remat_sim sim;
    int64_t *mem = malloc((size_t)f.len * sizeof *mem);
    assert_int_equal(remat_simulate(g, f.seq, f.len, &sim, mem), 0);
    assert_true(sim.peak == f.peak && sim.duration == f.dur);
    assert_memory_equal(mem, f.mem, (size_t)f.len * sizeof *mem);
    free(mem);
    if (oracle_rand(&r) & 1) { /* taken */
      sqe_ev *x = cur;
      if (oracle_rand(&r) % 8) sqe_take(&E, cur, cand); /* else rebuilt */
      cur = cand;
      cand = x;
    }
  }
  assert_true(valid > 0);
  sqe_ev_free(&a);
  sqe_ev_free(&b);
  sqe_ev_free(&f);
  sqe_free(&E);
  free(copies);
  remat_graph_free(g);
}

static void test_move_matches_full(void **state) {
  (void)state;
  for (uint64_t seed = 1; seed <= 300; seed++) run_moves(seed, 1);
}

static void test_move_large_sizes(void **state) {
  (void)state;
  for (uint64_t seed = 301; seed <= 360; seed++) run_moves(seed, 100000000000LL);
}

UNIT_TESTS(test_move_matches_full, test_move_large_sizes)
