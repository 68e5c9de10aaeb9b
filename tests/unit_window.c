/* unit_window.c -- the stage-axis schedules (sched.c) and the window
 * sub-model (window.c): on random graphs, random schedules, windows and
 * node sets, every solution of the sub-model applied to the schedule
 * re-simulates within budget, and the current schedule is admitted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "gecode.h"
#include "heur.h"
#include "model.h"
#include "oracle.h"
#include "plan.h"
#include "window.h"

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

typedef struct collect {
  util_buf text;
  int n;
} collect;

static int keep_text(void *ctx, const char *text) {
  collect *c = ctx;
  c->text.len = 0;
  util_buf_puts(&c->text, text);
  c->n++;
  return 0;
}

static int take_first(void *ctx, const int *seq, int len, const char *name) {
  (void)name;
  int **out = ctx;
  if (!*out) {
    *out = malloc((size_t)(len + 1) * sizeof **out);
    (*out)[0] = len;
    memcpy(*out + 1, seq, (size_t)len * sizeof *seq);
  }
  return 1;
}

/* phase 2 (budget M, shorter schedules) or phase 1 (budget below the
 * schedule's peak: lower the load in the window) */
static void window_sound(int phase) {
  int windows = 0, solved = 0;
  for (uint64_t seed = 1; seed <= 25; seed++) {
    remat_graph *g = oracle_dag(12, 30, 9, 9, 100 + seed);
    int64_t M = (remat_graph_min_peak(g) + 2 * remat_topo_peak(g)) / 3;
    /* a schedule within M from the greedy */
    int *got = NULL;
    heur_params hp;
    heur_params_init(&hp);
    hp.budget = M;
    hp.time_limit = 0.05;
    hp.found = take_first;
    hp.ctx = &got;
    heur_run(g, &hp);
    if (!got) {
      remat_graph_free(g);
      continue;
    }
    model md;
    char err[256];
    int64_t MM = phase == 2 ? M : M * 3 / 4;
    assert_int_equal(model_build(&md, g, phase, MM, NULL, 3, err, sizeof err), 0);
    plan s = {0};
    if (plan_from_seq(&s, got + 1, got[0], g->n)) fail_msg("greedy result not stage-structured");
    plan_eval E;
    plan_eval_init(&E, g, M);
    plan_run(&E, &s);
    uint64_t r = seed;
    for (int rep = 0; rep < 4; rep++) {
      int k0 = 1 + (int)(oracle_rand(&r) % (uint64_t)g->n);
      int k1 = k0 + (int)(oracle_rand(&r) % 6);
      unsigned char R[12] = {0};
      for (int v = 0; v < g->n; v++) R[v] = oracle_rand(&r) % 3 == 0;
      util_buf text = {0};
      win W;
      if (!win_build(&W, &md, &s, &E, R, k0, k1, &text)) {
        win_free(&W);
        continue;
      }
      windows++;
      collect c = {{0}, 0};
      gz_params gp;
      gz_params_init(&gp);
      gp.time_limit = 2;
      gp.on_solution = keep_text;
      gp.ctx = &c;
      gz_status st = gz_solve(text.s, text.len, &gp, NULL, err, sizeof err);
      if (st == GZ_ERROR) {
        FILE *f = fopen("/tmp/werr.fzn", "w");
        if (f) {
          fputs(text.s, f);
          fclose(f);
        }
        fail_msg("window model error: %s (model in /tmp/werr.fzn)", err);
      }
      /* the current schedule is admitted (bound + 1), so there is one */
      if ((st != GZ_OPTIMAL && st != GZ_SATISFIED) || !c.n)
        fail_msg("seed %d window %d..%d: status %d, %d solutions", (int)seed, k0, k1, st, c.n);
      plan t = {0};
      plan_copy(&t, &s);
      assert_int_equal(win_apply(&W, c.text.s, &t), 0);
      plan_eval T;
      plan_eval_init(&T, g, M);
      plan_run(&T, &t);
      remat_sim sim;
      assert_int_equal(remat_simulate(g, T.seq, T.len, &sim, NULL), 0);
      if (phase == 2 && sim.peak > M)
        fail_msg("seed %d window %d..%d: peak %lld over budget %lld", (int)seed, k0, k1,
                 (long long)sim.peak, (long long)M);
      if (phase == 2) assert_true(sim.duration <= E.duration);
      if (phase == 1) assert_true(sim.peak <= E.peak); /* outside: unchanged */
      for (int v = 0; v < g->n; v++) assert_true(T.ncopy[v] <= 3 || T.ncopy[v] <= E.ncopy[v]);
      solved++;
      plan_eval_free(&T);
      plan_free(&t);
      util_buf_free(&c.text);
      util_buf_free(&text);
      win_free(&W);
    }
    plan_eval_free(&E);
    plan_free(&s);
    model_free(&md);
    free(got);
    remat_graph_free(g);
  }
  fprintf(stderr, "  phase %d: %d windows, %d solved\n", phase, windows, solved);
  assert_true(windows >= 20);
}

static void test_window_phase2(void **state) {
  (void)state;
  window_sound(2);
}

static void test_window_phase1(void **state) {
  (void)state;
  window_sound(1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sched_matches_simulator),
      cmocka_unit_test(test_window_phase2),
      cmocka_unit_test(test_window_phase1),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
