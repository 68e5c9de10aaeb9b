/* unit_cover.c -- the covering bound (cover.h) against brute force: on
 * random DAGs of at most 6 nodes, at budgets across their range and with
 * C_v = 1, 2 and n, the bound never exceeds the best duration increase of
 * any stage-structured schedule within the copies, a proof of
 * infeasibility is never wrong, and both are often exact (else the test
 * could pass with a bound of 0); the inputs' rows at sizes up to 10^12
 * and durations up to 10^9, with heavy-tailed sizes, where they raise the
 * bound (and never above the optimum), and on a 12-node layered graph
 * where they reach the MILP's proven optimum; the recomputing steps'
 * rows (cover_steps.h) likewise, and on layered graphs where they reach
 * the MILP's optimum (one of them above it when the rows counted the
 * inputs kept: the case that showed the rows wrong); CBC's steps below a
 * schedule (COVLP_LP_PROVE) never above the optimum when told of
 * schedules above it, and up to it on a layered graph; and the deadline
 * of the child process the bound runs in within remat solve. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "testutil.h"

#include "child.h"
#include "cover.h"
#include "gen.h"
#include "oracle.h"
#include "remat.h"
#include "sim.h"
#include "util.h"

typedef struct tally {
  int total, wrong, paying, exact, infeasible, proved;
} tally;

static void check(const remat_graph *g, int64_t M, int c, tally *t) {
  int64_t base = 0;
  for (int v = 0; v < g->n; v++) base += g->w[v];
  int *copies = malloc((size_t)g->n * sizeof *copies);
  for (int v = 0; v < g->n; v++) copies[v] = c;
  int64_t best = oracle_best_copies(g, M, copies, NULL);
  cover_params p;
  cover_params_init(&p);
  p.budget = M;
  p.copies = copies;
  cover_out o;
  cover_status st = cover_solve(g, &p, &o);
  t->total++;
  t->infeasible += best < 0;
  int ok;
  if (st == COVER_INFEASIBLE) {
    ok = best < 0;
    t->proved += ok;
  } else {
    ok = st == COVER_OPTIMAL && o.increase >= 0 && (best < 0 || o.increase <= best - base);
    int pays = best > base; /* the optimum recomputes something */
    t->paying += pays;
    t->exact += ok && pays && o.increase == best - base;
  }
  if (!ok) {
    t->wrong++;
    fprintf(stderr, "  n=%d M=%lld C=%d: brute force increase %lld, cover %s %lld\n", g->n,
            (long long)M, c, best < 0 ? -1LL : (long long)(best - base),
            cover_status_name(st), (long long)o.increase);
  }
  free(copies);
}

static void test_cover_against_brute_force(void **state) {
  (void)state;
  tally t = {0};
  for (int i = 0; i < 150; i++) {
    int n = 3 + i % 4;
    remat_graph *g = oracle_dag(n, 35 + 10 * (i % 3), 9, 9, 5000 + (uint64_t)i);
    int64_t lo = remat_graph_min_peak(g), hi = remat_topo_peak(g);
    int64_t budgets[4] = {lo, lo + (hi - lo) / 3, lo + 2 * (hi - lo) / 3, hi};
    int cs[3] = {1, 2, n};
    for (int k = 0; k < 4; k++)
      for (int j = 0; j < 3; j++) check(g, budgets[k], cs[j], &t);
    remat_graph_free(g);
  }
  fprintf(stderr, "  %d instances: %d of the %d that must recompute have an exact bound; %d of %d infeasible proved\n",
          t.total, t.exact, t.paying, t.proved, t.infeasible);
  if (t.wrong) fail_msg("%d of %d bounds above the optimum or wrong proofs", t.wrong, t.total);
  assert_true(t.paying >= 100);
  assert_true(t.exact >= t.paying / 2);
  assert_true(t.proved >= t.infeasible / 2);
}

/* A chain a -> b -> c -> d -> e with a long edge a -> e: at the budget
 * max_v = 7 (e with its inputs a and d), c and d (load 10 each) need a
 * out of memory between b and e, so a is recomputed once (duration 7). */
static void test_cover_chain_exact(void **state) {
  (void)state;
  int64_t w[5] = {7, 1, 1, 1, 1}, m[5] = {5, 1, 4, 1, 1};
  int src[5] = {0, 1, 2, 3, 0}, dst[5] = {1, 2, 3, 4, 4};
  remat_graph *g = graph_from_arrays(5, w, m, 5, src, dst, "chain");
  assert_int_equal(remat_graph_min_peak(g), 7);
  cover_params p;
  cover_params_init(&p);
  cover_out o;
  p.budget = remat_topo_peak(g); /* fits: nothing to pay */
  assert_int_equal(cover_solve(g, &p, &o), COVER_OPTIMAL);
  assert_int_equal(o.increase, 0);
  p.budget = 7;
  assert_int_equal(cover_solve(g, &p, &o), COVER_OPTIMAL);
  assert_int_equal(o.increase, 7);
  assert_int_equal(o.rows, 2);
  assert_int_equal(o.cols, 1);
  int two[5] = {2, 2, 2, 2, 2};
  assert_int_equal(oracle_best_copies(g, 7, two, NULL), 11 + 7);
  int one[5] = {1, 1, 1, 1, 1};
  p.copies = one; /* no recomputation allowed */
  assert_int_equal(cover_solve(g, &p, &o), COVER_INFEASIBLE);
  remat_graph_free(g);
}

/* cover_solve's answers on the way (cover_params.plain_done), and the
 * best schedule's increase it is told (cover_params.incumbent_now). */
typedef struct answers {
  int n, lp, proofs; /* answers, LP values, bounds CBC proved below */
  int64_t lp_max, incumbent;
} answers;

static void on_answer(void *ctx, const cover_out *o) {
  answers *a = ctx;
  a->n++;
  if (!o->lp) return;
  assert_int_equal(o->status, COVER_BOUND); /* a bound, not an optimum */
  if (o->lp == 2) {
    a->proofs++;
    return;
  }
  a->lp++;
  if (o->increase > a->lp_max) a->lp_max = o->increase;
}

static int64_t incumbent(void *ctx) { return ((answers *)ctx)->incumbent; }

static void test_inputs_against_brute_force(void **state) {
  (void)state;
  int total = 0, wrong = 0, raised = 0, exact = 0, lazy_raised = 0, proofs = 0;
  for (int i = 0; i < 600; i++) {
    uint64_t s = 7000 + (uint64_t)i * 1000003;
    remat_graph *g = oracle_mixed_dag(s, 6);
    int n = g->n;
    int64_t base = remat_graph_base_duration(g);
    int64_t lo = remat_graph_min_peak(g), hi = remat_topo_peak(g);
    for (int b = 0; b < 4; b++) {
      int64_t M = lo + (int64_t)((double)(hi - lo) * (double)(oracle_rand(&s) % 1001) / 1000.0);
      int copies[6], kind = (int)(oracle_rand(&s) % 3);
      for (int v = 0; v < n; v++)
        copies[v] = kind == 0 ? 1 + (int)(oracle_rand(&s) % 3) : kind == 1 ? 2 : n;
      int64_t best = oracle_best_copies(g, M, copies, NULL);
      /* levels 0, 1, 2, and 2 with the steps' problem built lazily; 2
       * told of schedules 1.5 and 3 times the optimum's increase (CBC
       * then proves bounds below them: steps above the optimum too) */
      cover_out o[6];
      cover_status st[6];
      for (int inputs = 0; inputs < 6; inputs++) {
        if (inputs >= 4 && best < 0) {
          st[inputs] = COVER_INFEASIBLE;
          continue;
        }
        cover_params p;
        cover_params_init(&p);
        p.budget = M;
        p.copies = copies;
        p.inputs = inputs < 3 ? inputs : 2;
        p.closure = 0; /* the covering problems' own bounds (unit_closure) */
        p.steps_lazy = inputs == 3;
        answers a = {0};
        if (inputs >= 4) {
          a.incumbent = inputs == 4 ? (best - base) * 3 / 2 + 1 : 3 * (best - base) + 7;
          p.incumbent_now = incumbent;
          p.plain_done = on_answer;
          p.ctx = &a;
        }
        st[inputs] = cover_solve(g, &p, &o[inputs]);
        proofs += a.proofs > 0;
      }
      total++;
      lazy_raised += st[3] == COVER_BOUND && st[1] == COVER_OPTIMAL && o[3].increase > o[1].increase;
      for (int in = 1; in < 6; in++) {
        /* built lazily, the steps' LP gives a bound (no optimum), and
         * CBC's steps below a schedule may end at one */
        int bounded = st[in] == COVER_OPTIMAL || (in >= 3 && st[in] == COVER_BOUND);
        int ok = st[in] == COVER_INFEASIBLE ? best < 0
                                            : bounded &&
                                                  (best < 0 || o[in].increase <= best - base);
        if (!ok) {
          wrong++;
          fprintf(stderr, "  graph %d budget %lld: brute force %lld, level %d %s %lld\n", i,
                  (long long)M, best < 0 ? -1LL : (long long)(best - base), in,
                  cover_status_name(st[in]), (long long)o[in].increase);
        }
      }
      if (st[0] == COVER_OPTIMAL && st[1] == COVER_OPTIMAL && o[1].increase > o[0].increase) {
        raised++;
        exact += best >= 0 && o[1].increase == best - base;
      }
    }
    remat_graph_free(g);
  }
  fprintf(stderr,
          "  %d instances: the inputs' rows raise %d bounds, %d of them to the optimum; the "
          "steps' LP built lazily raises %d above the inputs' rows; CBC proved bounds below "
          "a schedule in %d runs\n",
          total, raised, exact, lazy_raised, proofs);
  if (wrong) fail_msg("%d of %d bounds above the optimum or wrong proofs", wrong, total);
  assert_true(raised >= 15);
  assert_true(exact >= raised / 2);
  assert_true(lazy_raised >= 3);
  assert_true(proofs >= 10);
}

/* The MILP's proven optimum (oracle.h), which it must find. */
static int64_t milp_optimum(const remat_graph *g, int64_t M) {
  int64_t opt = oracle_milp_increase(g, M);
  assert_true(opt >= 0);
  return opt;
}

/* gen layered --nodes n --seed seed, and p for it at pct % of its input
 * order's peak (p->budget). */
static remat_graph *layered_at(int n, uint64_t seed, int pct, cover_params *p) {
  remat_graph *g = gen_layered(n, seed);
  cover_params_init(p);
  p->budget = remat_topo_peak(g) * pct / 100;
  return g;
}

/* gen layered --nodes 12 --seed 100 at 80 % of its input order's peak:
 * the plain covering problem frees the stages with values whose inputs
 * died before; with the inputs' rows the bound is the MILP's optimum
 * (the covering problems alone: the closure bound's integer problems
 * reach it too). */
static void test_inputs_reach_milp(void **state) {
  (void)state;
  cover_params p;
  remat_graph *g = layered_at(12, 100, 80, &p);
  p.closure = 0;
  int64_t M = p.budget;
  cover_out with, without;
  assert_int_equal(cover_solve(g, &p, &with), COVER_OPTIMAL);
  p.inputs = 0;
  assert_int_equal(cover_solve(g, &p, &without), COVER_OPTIMAL);
  int64_t opt = milp_optimum(g, M);
  assert_int_equal(with.increase, opt);
  assert_true(without.increase < opt);
  remat_graph_free(g);
}

/* The recomputing steps' rows reach the MILP's optimum where the inputs'
 * rows do not (gen layered 13 nodes, seed 10, at 0.9: 809 and 1154);
 * on 18 nodes, seed 10, at 0.9 they reach it too (283), where rows that
 * also counted the inputs kept through the stage (E) claimed 288. */
static void test_steps_reach_milp(void **state) {
  (void)state;
  static const int cases[][3] = {{13, 10, 90}, {18, 10, 90}};
  for (int c = 0; c < 2; c++) {
    cover_params p;
    remat_graph *g = layered_at(cases[c][0], (uint64_t)cases[c][1], cases[c][2], &p);
    int64_t M = p.budget;
    p.inputs = 2;
    p.closure = 0;
    answers a = {0};
    p.plain_done = on_answer;
    p.ctx = &a;
    cover_out steps, inputs;
    assert_int_equal(cover_solve(g, &p, &steps), COVER_OPTIMAL);
    assert_false(steps.lp);
    /* the answers on the way: the plain problem's, then each stronger
     * problem's LP value (labelled as such) and the inputs' rows' end */
    assert_int_equal(a.n, 4);
    assert_int_equal(a.lp, 2);
    assert_true(a.lp_max <= steps.increase);
    p.plain_done = NULL;
    /* built lazily: a bound from the LP's rounds, with the inputs' LP
     * alone before them (no CBC), never above the optimum */
    p.steps_lazy = 1;
    cover_out lazy;
    cover_status ls = cover_solve(g, &p, &lazy);
    p.steps_lazy = 0;
    p.inputs = 1;
    assert_int_equal(cover_solve(g, &p, &inputs), COVER_OPTIMAL);
    int64_t opt = milp_optimum(g, M);
    assert_int_equal(steps.increase, opt);
    if (c == 0) assert_true(inputs.increase < opt);
    fprintf(stderr, "  %d nodes: lazily %s %lld, the inputs' rows %lld, optimum %lld\n",
            cases[c][0], cover_status_name(ls), (long long)lazy.increase,
            (long long)inputs.increase, (long long)opt);
    assert_true(ls == COVER_BOUND || ls == COVER_OPTIMAL);
    assert_true(lazy.increase <= opt);
    remat_graph_free(g);
  }
}

/* The rows of the inputs' inputs (cover_steps.h): gen layered 14 nodes,
 * seed 1, and 24 nodes, seed 1, at 0.9, any number of copies: without
 * them the steps' problem ends at 958 and 77, with them at the MILP's
 * optimum, 1462 and 357; built lazily (without them) never above it. */
static void test_inputs_of_inputs_reach_milp(void **state) {
  (void)state;
  static const int cases[][4] = {{14, 1, 90, 1462}, {24, 1, 90, 357}};
  for (int c = 0; c < 2; c++) {
    cover_params p;
    remat_graph *g = layered_at(cases[c][0], (uint64_t)cases[c][1], cases[c][2], &p);
    p.inputs = 2;
    cover_out steps, lazy;
    assert_int_equal(cover_solve(g, &p, &steps), COVER_OPTIMAL);
    p.steps_lazy = 1;
    cover_status ls = cover_solve(g, &p, &lazy);
    int64_t opt = milp_optimum(g, p.budget);
    fprintf(stderr, "  %d nodes: the steps' problem %lld, lazily %s %lld, optimum %lld\n",
            cases[c][0], (long long)steps.increase, cover_status_name(ls),
            (long long)lazy.increase, (long long)opt);
    assert_int_equal(opt, cases[c][3]);
    assert_int_equal(steps.increase, opt);
    assert_true(ls == COVER_BOUND || ls == COVER_OPTIMAL);
    assert_true(lazy.increase <= opt);
    remat_graph_free(g);
  }
}

/* Told of a schedule, CBC proves bounds below it step by step
 * (COVLP_LP_PROVE): on gen layered 24 nodes, seed 1, at 0.9, any number
 * of copies, from the steps' LP up to the optimum, 357, when the schedule
 * is at it, and to the optimum found when the schedule is above it (the
 * covering problems alone: the closure bound's integer problems reach
 * 357 at once). */
static void test_proofs_below_schedule(void **state) {
  (void)state;
  cover_params p;
  remat_graph *g = layered_at(24, 1, 90, &p);
  p.closure = 0;
  p.inputs = 2;
  p.plain_done = on_answer;
  p.incumbent_now = incumbent;
  static const int64_t schedules[] = {357, 358, 500, 5000};
  for (int i = 0; i < 4; i++) {
    answers a = {0};
    a.incumbent = schedules[i];
    p.ctx = &a;
    cover_out o;
    cover_status st = cover_solve(g, &p, &o);
    fprintf(stderr, "  schedule %lld: %s %lld after %d proofs (LP %lld)\n",
            (long long)schedules[i], cover_status_name(st), (long long)o.increase, a.proofs,
            (long long)a.lp_max);
    assert_true(a.lp_max < 357);
    assert_int_equal(o.increase, 357);
    if (i == 0) { /* each step a proof, the last one at the schedule */
      assert_int_equal(st, COVER_BOUND);
      assert_int_equal(o.lp, 2);
    }
    if (i < 2) assert_true(a.proofs >= 1);
  }
  remat_graph_free(g);
}

/* gen layered --nodes 12 --seed 7 at 0.9: the inputs' rows problem's
 * optimum is the MILP's (812); CBC with its preprocessing called 1171
 * optimal there, a bound above a schedule (cover_lp.h). */
static void test_inputs_not_above_milp(void **state) {
  (void)state;
  cover_params p;
  remat_graph *g = layered_at(12, 7, 90, &p);
  int64_t M = p.budget;
  cover_out o;
  assert_int_equal(cover_solve(g, &p, &o), COVER_OPTIMAL);
  int64_t opt = milp_optimum(g, M);
  assert_int_equal(opt, 812);
  assert_int_equal(o.increase, opt);
  remat_graph_free(g);
}

/* A proof that nothing fits never rests on the solvers' tolerances: on
 * this 6-node graph (sizes near 10^12) m_1 + m_4 is the budget exactly,
 * so node 3 (and its input 0, read last by 3) is computed again after
 * node 4; the inputs' rows' stage row then has a slack of half a byte
 * over an excess near 4.5 x 10^11 and input 0's 751 bytes, and Clp called
 * that feasible problem infeasible.  The schedule 0 1 2 3 4 0 3 5 fits at
 * exactly the budget (increase w_0 + w_3). */
static void test_no_proof_from_tolerances(void **state) {
  (void)state;
  static const char text[] =
      "{\"nodes\": [{\"id\": 0, \"duration\": 929733001, \"memory\": 751},"
      "{\"id\": 1, \"duration\": 859695446, \"memory\": 602},"
      "{\"id\": 2, \"duration\": 432956187, \"memory\": 888427283441},"
      "{\"id\": 3, \"duration\": 965505588, \"memory\": 447237059463},"
      "{\"id\": 4, \"duration\": 112971697, \"memory\": 956433595932},"
      "{\"id\": 5, \"duration\": 985784252, \"memory\": 256}],"
      "\"edges\": [[0, 1], [0, 2], [0, 3], [1, 3], [1, 4], [3, 5]]}";
  char err[256];
  remat_graph *g = remat_graph_read_buffer(text, sizeof text - 1, "t.json", err, sizeof err);
  assert_non_null(g);
  const int64_t M = 956433596534;
  int seq[] = {0, 1, 2, 3, 4, 0, 3, 5};
  remat_sim sim;
  remat_simulate(g, seq, 8, &sim, NULL);
  assert_true(sim.valid && sim.peak == M);
  int copies[6] = {2, 2, 2, 2, 2, 2};
  for (int any = 0; any < 2; any++)
    for (int inputs = 1; inputs <= 2; inputs++) {
      cover_params p;
      cover_params_init(&p);
      p.budget = M;
      p.copies = any ? NULL : copies;
      p.inputs = inputs;
      cover_out o;
      cover_status st = cover_solve(g, &p, &o);
      assert_true(st == COVER_OPTIMAL || st == COVER_BOUND);
      assert_true(o.increase >= 965505588 && o.increase <= 929733001 + 965505588);
    }
  remat_graph_free(g);
}

/* remat solve does not wait for the covering bound's child: a deadline
 * ends it whatever it does (here: sleeping 20 s), and only a child. */
static void sleeper(void *ctx) {
  (void)ctx;
  child_deadline(1);
  struct timespec ts = {20, 0};
  nanosleep(&ts, NULL);
}

static void test_child_deadline(void **state) {
  (void)state;
  double t0 = util_now();
  int signo = 0;
  child_end how = child_run(sleeper, NULL, 30, 1, NULL, NULL, &signo);
  double t = util_now() - t0;
  if (how == CHILD_INPROC) skip(); /* fork failed: the call slept here */
  assert_int_equal(how, CHILD_CRASHED);
  assert_int_equal(signo, SIGALRM);
  assert_true(t > 0.5 && t < 5);
  child_deadline(0.001); /* not a child: nothing happens */
  struct timespec ts = {1, 500000000};
  nanosleep(&ts, NULL);
}

UNIT_TESTS(test_cover_against_brute_force, test_cover_chain_exact,
           test_inputs_against_brute_force, test_inputs_reach_milp, test_inputs_not_above_milp,
           test_steps_reach_milp, test_inputs_of_inputs_reach_milp, test_proofs_below_schedule,
           test_no_proof_from_tolerances, test_child_deadline)
