/* unit_plan.c -- the stage-axis schedules (plan.c): plan_run equals the
 * simulator, and plan_move's incremental evaluation equals plan_run. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "graph.h"
#include "model.h"
#include "oracle.h"
#include "plan.h"

static void test_sched_matches_simulator(void **state) {
  (void)state;
  for (uint64_t seed = 1; seed <= 20; seed++) {
    remat_graph *g = oracle_dag(8, 35, 9, 9, seed);
    plan s = {0};
    plan_init_topo(&s, g->n);
    uint64_t r = seed;
    for (int k = 0; k < 6; k++) { /* random recomputations */
      int t = 2 + (int)(oracle_rand(&r) % (uint64_t)(g->n - 1));
      int u = (int)(oracle_rand(&r) % (uint64_t)(t - 1));
      plan_insert(&s, model_event(t, u + 1));
    }
    plan_eval E;
    plan_eval_init(&E, g, 1000);
    plan_run(&E, &s);
    remat_sim sim;
    int64_t mem[64];
    assert_int_equal(remat_simulate(g, E.seq, E.len, &sim, mem), 0);
    assert_true(sim.peak == E.peak && sim.duration == E.duration);
    for (int j = 0; j < E.len; j++) assert_true(mem[j] == E.mem[j]);
    plan back = {0};
    assert_int_equal(plan_from_seq(&back, E.seq, E.len, g->n), 0);
    assert_int_equal(back.len, s.len);
    assert_memory_equal(back.key, s.key, (size_t)s.len * sizeof *s.key);
    plan_free(&back);
    plan_eval_free(&E);
    plan_free(&s);
    remat_graph_free(g);
  }
}

/* E (kept by plan_move) equals a fresh plan_run of s. */
static void assert_same_eval(plan_eval *E, const plan *s) {
  plan_eval F;
  plan_eval_init(&F, E->g, E->M);
  plan_run(&F, s);
  assert_int_equal(E->len, F.len);
  assert_memory_equal(E->seq, F.seq, (size_t)F.len * sizeof *F.seq);
  assert_memory_equal(E->lastuse, F.lastuse, (size_t)F.len * sizeof *F.lastuse);
  assert_memory_equal(E->mem, F.mem, (size_t)F.len * sizeof *F.mem);
  assert_int_equal(E->nrec, F.nrec);
  assert_memory_equal(E->rec, F.rec, (size_t)F.nrec * sizeof *F.rec);
  assert_memory_equal(E->ncopy, F.ncopy, (size_t)E->g->n * sizeof *F.ncopy);
  assert_true(E->duration == F.duration && E->peak == F.peak && E->excess == F.excess);
  assert_int_equal(plan_peak_step(E), F.peak_step);
  assert_int_equal(E->over, F.over);
  plan_eval_free(&F);
}

/* Random insertions, erasures and shifts of recomputations, undone half
 * the time as the annealing does: the incremental evaluation matches a
 * full one after every move, and plan_next_reader and plan_copy_before
 * match scans. */
static void test_plan_move_matches_run(void **state) {
  (void)state;
  for (uint64_t seed = 1; seed <= 40; seed++) {
    int n = 3 + (int)(seed % 23);
    remat_graph *g = oracle_dag(n, 10 + (int)(seed * 7 % 60), 9, 9, seed);
    uint64_t r = seed * 977;
    plan s = {0};
    plan_init_topo(&s, g->n);
    plan_eval E;
    plan_eval_init(&E, g, 12);
    plan_track(&E, &s);
    for (int t = 0; t < 300; t++) {
      int out = 0, in = 0;
      if (E.nrec && oracle_rand(&r) % 3 == 0) out = s.key[E.rec[oracle_rand(&r) % (uint64_t)E.nrec]];
      if (oracle_rand(&r) % 4) {
        int k = 2 + (int)(oracle_rand(&r) % (uint64_t)(n - 1));
        int u = (int)(oracle_rand(&r) % (uint64_t)(k - 1));
        in = model_event(k, u + 1);
      }
      plan before = {0};
      plan_copy(&before, &s);
      int had_in = in && plan_has(&s, in);
      plan_move(&E, &s, out, in);
      assert_same_eval(&E, &s);
      for (int j = 0; j < E.len; j++) { /* the next reader of step j's value */
        int v = E.seq[j], lim = E.lastuse[j], x = j + 1;
        while (x < lim && !graph_is_pred(g, v, E.seq[x])) x++;
        if (lim > j) assert_int_equal(plan_next_reader(&E, &s, v, s.key[j], lim), x);
        for (int k = g->pred_off[v]; k < g->pred_off[v + 1]; k++) {
          int p = g->pred[k], a = j - 1; /* the copy of p that step j reads */
          while (a >= 0 && E.seq[a] != p) a--;
          assert_true(a >= 0);
          assert_int_equal(plan_copy_before(&E, p, s.key[j]), s.key[a]);
        }
        assert_int_equal(plan_copy_before(&E, v, s.key[j]) == 0, /* first copy? */
                         s.key[j] == model_first_start(v));
      }
      if (oracle_rand(&r) & 1) { /* undo */
        plan_move(&E, &s, had_in ? 0 : in, out);
        assert_int_equal(s.len, before.len);
        assert_memory_equal(s.key, before.key, (size_t)s.len * sizeof *s.key);
        assert_same_eval(&E, &s);
      }
      plan_free(&before);
    }
    plan_eval_free(&E);
    plan_free(&s);
    remat_graph_free(g);
  }
}

UNIT_TESTS(test_sched_matches_simulator, test_plan_move_matches_run)
