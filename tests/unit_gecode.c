/* unit_gecode.c -- tests of the C API over Gecode's FlatZinc library.
 * Expected texts and statistics were checked against `fzn-gecode -a -s`
 * (Gecode 6.2.0) on the same models. */
#include "testutil.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "gecode.h"

/* min 3x+2y s.t. x+y >= 7: unique optimum x=1, y=6, obj=15. */
static const char *MIN_FZN =
    "var 1..10: x :: output_var;\n"
    "var 1..10: y :: output_var;\n"
    "var 0..100: obj :: output_var;\n"
    "constraint int_lin_le([-1,-1],[x,y],-7);\n"
    "constraint int_lin_eq([3,2,-1],[x,y,obj],0);\n"
    "solve minimize obj;\n";

static const char *UNSAT_FZN =
    "var 1..10: x :: output_var;\n"
    "var 1..10: y :: output_var;\n"
    "constraint int_lin_le([-1,-1],[x,y],-25);\n"
    "solve satisfy;\n";

/* 1001 improving solutions x = 0, 1, ..., 1000. */
static const char *MANY_FZN =
    "var 0..1000: x :: output_var;\n"
    "solve :: int_search([x], input_order, indomain_min, complete) "
    "maximize x;\n";

/* min 3x1+5x2+2x3+4x4 s.t. sum >= 10: optimum x1=1, x3=9, obj=21. */
static const char *LNS_FZN =
    "var 0..9: x1 :: output_var;\n"
    "var 0..9: x2 :: output_var;\n"
    "var 0..9: x3 :: output_var;\n"
    "var 0..9: x4 :: output_var;\n"
    "var 0..200: obj :: output_var;\n"
    "constraint int_lin_le([-1,-1,-1,-1],[x1,x2,x3,x4],-10);\n"
    "constraint int_lin_eq([3,5,2,4,-1],[x1,x2,x3,x4,obj],0);\n"
    "solve :: relax_and_reconstruct([x1,x2,x3,x4],70,[2,3,4,1]) "
    ":: restart_luby(50) minimize obj;\n";

static const char *ARRAY_FZN =
    "var 1..3: a1;\n"
    "var 1..3: a2;\n"
    "var 1..3: a3;\n"
    "array [1..3] of var int: A :: output_array([1..3]) = [a1,a2,a3];\n"
    "var bool: b :: output_var;\n"
    "constraint all_different_int([a1,a2,a3]);\n"
    "constraint int_lt(a2,a1);\n"
    "constraint int_lt(a3,a2);\n"
    "solve satisfy;\n";

/* Pigeonhole, 12 pigeons in 11 holes with pairwise int_ne: unsatisfiable
 * but far too hard to prove in a second (all_different_int is not: its
 * propagator sees it at once). */
static void pigeon_fzn(char *buf, size_t cap) {
  size_t k = 0;
  for (int i = 0; i < 12; i++)
    k += (size_t)snprintf(buf + k, cap - k, "var 1..11: p%d :: output_var;\n", i);
  for (int i = 0; i < 12; i++)
    for (int j = i + 1; j < 12; j++)
      k += (size_t)snprintf(buf + k, cap - k, "constraint int_ne(p%d,p%d);\n", i, j);
  snprintf(buf + k, cap - k, "solve satisfy;\n");
}

/* Solution recorder. */
typedef struct sols {
  int n;
  int stop_after; /* return nonzero after this many solutions (0: never) */
  char first[512], last[512];
} sols;

static int on_sol(void *ctx, const char *text) {
  sols *s = ctx;
  if (s->n == 0) snprintf(s->first, sizeof s->first, "%s", text);
  snprintf(s->last, sizeof s->last, "%s", text);
  s->n++;
  return s->stop_after > 0 && s->n >= s->stop_after;
}

/* LeakSanitizer (SANITIZE=1 builds only): two known leaks inside Gecode
 * 6.2.0 itself, not in gecode.cpp:
 *  - Gecode::branch: a branching posted with a print (or filter) function
 *    keeps it in a SharedData that is never released, because
 *    ViewValBrancher::dispose (kernel/branch/view-val.hpp) does not call
 *    p.dispose() (nor ViewBrancher::dispose f.dispose()).  FlatZinc's
 *    createBranchers passes a print function to every branch() call:
 *    48 bytes per branching per gz_solve.
 *  - libgecodeflatzinc.so: a FlatZinc::Error while the parser posts the
 *    constraints (unknown constraint, type error) propagates out of
 *    FlatZinc::parse past its cleanup and leaks the flex scanner and parser
 *    state (about 17 KB); test_parse_error provokes it on purpose.  The
 *    frames of that stripped library have no names under ASan's default
 *    fast unwinder, hence the module-wide pattern. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) {
  return "leak:Gecode::branch\nleak:libgecodeflatzinc.so\n";
}

/* p: the defaults, solutions recorded in s (cleared) */
static void recording(gz_params *p, sols *s) {
  gz_params_init(p);
  memset(s, 0, sizeof *s);
  p->on_solution = on_sol;
  p->ctx = s;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static gz_status solve(const char *fzn, gz_params *p, gz_stats *st, char *err,
                       size_t errlen) {
  return gz_solve(fzn, strlen(fzn), p, st, err, errlen);
}

static void test_version(void **state) {
  (void)state;
  assert_string_equal(gz_version(), "6.2.0");
}

static void test_minimize(void **state) {
  (void)state;
  gz_params p;
  sols s;
  recording(&p, &s);
  gz_stats st;
  char err[256];
  assert_int_equal(solve(MIN_FZN, &p, &st, err, sizeof err), GZ_OPTIMAL);
  /* Same solutions and statistics as fzn-gecode -a -s. */
  assert_int_equal(s.n, 2);
  assert_string_equal(s.first, "obj = 20;\nx = 6;\ny = 1;\n");
  assert_string_equal(s.last, "obj = 15;\nx = 1;\ny = 6;\n");
  assert_int_equal(st.solutions, 2);
  assert_int_equal(st.nodes, 7);
  assert_int_equal(st.fails, 2);
  assert_int_equal(st.propagations, 15);
  assert_int_equal(st.restarts, 0);
  assert_int_equal(st.depth, 2);
  assert_true(st.seconds >= 0.0 && st.seconds < 5.0);
}

static void test_minimize_variants(void **state) {
  (void)state;
  /* NULL params and stats. */
  assert_int_equal(solve(MIN_FZN, NULL, NULL, NULL, 0), GZ_OPTIMAL);
  /* All cores (parallel BAB) and Luby restarts: still proven optimal
   * (without LNS every restart is a complete search). */
  for (int v = 0; v < 3; v++) {
    gz_params p;
    sols s;
    recording(&p, &s);
    if (v != 1) p.threads = 0;
    if (v != 0) { p.restart = GZ_RESTART_LUBY; p.restart_scale = 1; }
    gz_stats st;
    assert_int_equal(solve(MIN_FZN, &p, &st, NULL, 0), GZ_OPTIMAL);
    assert_string_equal(s.last, "obj = 15;\nx = 1;\ny = 6;\n");
    assert_int_equal(st.solutions, s.n);
    if (v != 0) assert_true(st.restarts >= 1);
  }
}

static void test_unsat(void **state) {
  (void)state;
  gz_params p;
  sols s;
  recording(&p, &s);
  gz_stats st;
  assert_int_equal(solve(UNSAT_FZN, &p, &st, NULL, 0), GZ_UNSAT);
  assert_int_equal(s.n, 0);
  assert_int_equal(st.solutions, 0);
  assert_int_equal(st.fails, 1); /* fzn-gecode: failures=1, nodes=0 */
  assert_int_equal(st.nodes, 0);
  /* The same with restarts requested (failed root: plain engine). */
  p.restart = GZ_RESTART_CONSTANT;
  assert_int_equal(solve(UNSAT_FZN, &p, &st, NULL, 0), GZ_UNSAT);
  assert_int_equal(s.n, 0);
}

static void test_time_limit(void **state) {
  (void)state;
  static char fzn[8192];
  pigeon_fzn(fzn, sizeof fzn);
  for (int restarts = 0; restarts < 2; restarts++) {
    gz_params p;
    sols s;
    recording(&p, &s);
    p.time_limit = 0.3;
    if (restarts) p.restart = GZ_RESTART_LUBY;
    gz_stats st;
    double t0 = now();
    assert_int_equal(solve(fzn, &p, &st, NULL, 0), GZ_UNKNOWN);
    double dt = now() - t0;
    assert_true(dt >= 0.29 && dt < 1.5);
    assert_true(st.seconds >= 0.29 && st.seconds < 1.5);
    assert_int_equal(s.n, 0);
    assert_true(st.nodes > 1000);
    if (restarts) assert_true(st.restarts > 1);
  }
}

static void test_stop_flag(void **state) {
  (void)state;
  static char fzn[8192];
  pigeon_fzn(fzn, sizeof fzn);
  volatile int flag = 1;
  gz_params p;
  gz_params_init(&p);
  p.stop = &flag;
  p.time_limit = 10.0;
  gz_stats st;
  double t0 = now();
  assert_int_equal(solve(fzn, &p, &st, NULL, 0), GZ_UNKNOWN);
  assert_true(now() - t0 < 1.0);
  /* A clear flag does not stop anything. */
  flag = 0;
  assert_int_equal(solve(MIN_FZN, &p, &st, NULL, 0), GZ_OPTIMAL);
}

static void test_callback_stop(void **state) {
  (void)state;
  gz_params p;
  sols s;
  recording(&p, &s);
  s.stop_after = 1;
  gz_stats st;
  assert_int_equal(solve(MANY_FZN, &p, &st, NULL, 0), GZ_SATISFIED);
  assert_int_equal(s.n, 1);
  assert_int_equal(st.solutions, 1);
  assert_string_equal(s.last, "x = 0;\n");
  /* Without stopping: all 1001 improving solutions, like fzn-gecode -a. */
  sols all = {0};
  p.ctx = &all;
  assert_int_equal(solve(MANY_FZN, &p, &st, NULL, 0), GZ_OPTIMAL);
  assert_int_equal(all.n, 1001);
  assert_string_equal(all.last, "x = 1000;\n");
}

static void test_parse_error(void **state) {
  (void)state;
  char err[256];
  const char *bad = "var 1..3: x; solve satisfy"; /* missing ';' */
  gz_stats st;
  assert_int_equal(solve(bad, NULL, &st, err, sizeof err), GZ_ERROR);
  assert_true(strlen(err) > 0);
  assert_non_null(strstr(err, "syntax error"));
  /* Unknown constraint: reported by the parser as well. */
  const char *unk = "var 1..3: x; constraint no_such_thing(x); solve satisfy;";
  assert_int_equal(solve(unk, NULL, &st, err, sizeof err), GZ_ERROR);
  assert_non_null(strstr(err, "no_such_thing"));
  /* A tiny buffer is truncated, not overrun. */
  char small[8];
  assert_int_equal(solve(bad, NULL, NULL, small, sizeof small), GZ_ERROR);
  assert_int_equal(strlen(small), sizeof small - 1);
  assert_int_equal(gz_solve(NULL, 0, NULL, NULL, err, sizeof err), GZ_ERROR);
}

static void test_output_array(void **state) {
  (void)state;
  gz_params p;
  sols s;
  recording(&p, &s);
  /* Satisfaction: the first solution is enough (fzn-gecode without -a). */
  assert_int_equal(solve(ARRAY_FZN, &p, NULL, NULL, 0), GZ_OPTIMAL);
  assert_int_equal(s.n, 1);
  assert_string_equal(s.last, "A = array1d(1..3, [3, 2, 1]);\nb = false;\n");
}

/* Neighbourhood recorder / policy. */
typedef struct nbh {
  sols *s;
  int calls, bad, fixed_calls;
  long long first_restart, last_restart;
  int first_n, first_have, first_values[4], first_had_values;
} nbh;

static int nbh_cb(void *ctx, long long restart, int n, int *values,
                  int have_solution, unsigned char *fix) {
  nbh *c = ctx;
  if (c->calls++ == 0) {
    c->first_restart = restart;
    c->first_n = n;
    c->first_have = have_solution;
    c->first_had_values = values != NULL;
    for (int i = 0; values && i < n && i < 4; i++) c->first_values[i] = values[i];
    for (int i = 0; i < n; i++) fix[i] = 1; /* start from the initial solution */
    return GZ_NBH_FIX;
  }
  if (restart < c->last_restart) c->bad++;
  c->last_restart = restart;
  /* The first solution exists from restart 0 on, so every later call must
   * see it and its values must be those of the last reported solution. */
  if (n != 4 || !have_solution || values == NULL) {
    c->bad++;
    return GZ_NBH_DEFAULT;
  }
  char want[128];
  snprintf(want, sizeof want, "x1 = %d;\nx2 = %d;\nx3 = %d;\nx4 = %d;\n",
           values[0], values[1], values[2], values[3]);
  if (strstr(c->s->last, want) == NULL) c->bad++;
  if (c->calls <= 4) { /* a few LNS steps keeping x2 and x4 */
    fix[1] = fix[3] = 1;
    c->fixed_calls++;
    return GZ_NBH_FIX;
  }
  return GZ_NBH_COMPLETE;
}

static void test_neighbourhood(void **state) {
  (void)state;
  gz_params p;
  sols s;
  recording(&p, &s);
  nbh c = {0};
  c.s = &s;
  p.neighbourhood = nbh_cb;
  p.nbh_ctx = &c;
  p.time_limit = 10.0; /* safety net only */
  gz_stats st;
  char err[256];
  assert_int_equal(solve(LNS_FZN, &p, &st, err, sizeof err), GZ_OPTIMAL);
  assert_int_equal(c.first_restart, 0);
  assert_int_equal(c.first_n, 4);
  assert_int_equal(c.first_have, 0);
  assert_true(c.first_had_values);
  assert_int_equal(c.first_values[0], 2);
  assert_int_equal(c.first_values[1], 3);
  assert_int_equal(c.first_values[2], 4);
  assert_int_equal(c.first_values[3], 1);
  /* Everything fixed at restart 0: the first solution is the initial one. */
  assert_string_equal(s.first, "obj = 33;\nx1 = 2;\nx2 = 3;\nx3 = 4;\nx4 = 1;\n");
  assert_string_equal(s.last, "obj = 21;\nx1 = 1;\nx2 = 0;\nx3 = 9;\nx4 = 0;\n");
  assert_int_equal(c.bad, 0);
  assert_int_equal(c.fixed_calls, 3);
  assert_true(c.calls >= 5);
  assert_true(st.restarts >= 4);
  assert_int_equal(st.searches, c.calls);
  assert_int_equal(st.solutions, s.n);
}

/* Fixes everything to the given values at the first search (infeasible in
 * lns0 below), then searches completely unless always_fix. */
typedef struct fixer { int calls, always_fix; } fixer;
static int fix_cb(void *ctx, long long restart, int n, int *values,
                  int have_solution, unsigned char *fix) {
  fixer *f = ctx;
  (void)values;
  (void)have_solution;
  f->calls++;
  if (restart == 0 || f->always_fix) {
    for (int i = 0; i < n; i++) fix[i] = 1;
    return GZ_NBH_FIX;
  }
  return GZ_NBH_COMPLETE;
}

/* p: neighbourhoods from fix_cb with f, threads and a time limit */
static void fixing(gz_params *p, fixer *f, int threads, double time_limit) {
  p->neighbourhood = fix_cb;
  p->nbh_ctx = f;
  p->threads = threads;
  p->time_limit = time_limit;
}

static void test_neighbourhood_infeasible_start(void **state) {
  (void)state;
  /* Initial values 0,0,0,0 violate the sum.  RBS ignores what slave()
   * says about the first search; so must a parallel engine, else it
   * exhausts that fixed search and reports UNSAT. */
  char fzn[1024];
  snprintf(fzn, sizeof fzn, "%s", LNS_FZN);
  char *init = strstr(fzn, "[2,3,4,1]");
  assert_non_null(init);
  memcpy(init, "[0,0,0,0]", 9);
  for (int threads = 1; threads <= 2; threads++) {
    gz_params p;
    sols s;
    recording(&p, &s);
    fixer f = {0};
    fixing(&p, &f, threads, 10.0);
    gz_stats st;
    assert_int_equal(solve(fzn, &p, &st, NULL, 0), GZ_OPTIMAL);
    assert_non_null(strstr(s.last, "obj = 21;"));
    assert_true(f.calls >= 2);
    /* Always fixing to an infeasible point: runs into the time limit. */
    sols s2 = {0};
    p.ctx = &s2;
    f.always_fix = 1;
    p.time_limit = 0.3;
    double t0 = now();
    assert_int_equal(solve(fzn, &p, &st, NULL, 0), GZ_UNKNOWN);
    assert_true(now() - t0 < 1.5);
    assert_int_equal(s2.n, 0);
  }
}

static void test_stop_at_restart(void **state) {
  (void)state;
  /* After the first solution every neighbourhood fixes all variables to it
   * and fails at once.  A parallel engine never looks at the stop object
   * then; the time limit must still end the search. */
  for (int threads = 1; threads <= 2; threads++) {
    gz_params p;
    sols s;
    recording(&p, &s);
    fixer f = {0, 1};
    fixing(&p, &f, threads, 0.3);
    gz_stats st;
    double t0 = now();
    assert_int_equal(solve(LNS_FZN, &p, &st, NULL, 0), GZ_SATISFIED);
    assert_true(now() - t0 < 1.5);
    assert_int_equal(s.n, 1);
    assert_string_equal(s.last, "obj = 33;\nx1 = 2;\nx2 = 3;\nx3 = 4;\nx4 = 1;\n");
    assert_int_equal(st.searches, f.calls);
    print_message("threads=%d: %lld searches in %.2f s\n", threads,
                  st.searches, st.seconds);
  }
}

static void test_gecode_lns(void **state) {
  (void)state;
  /* Gecode's own LNS (no callback) never proves optimality: it runs until
   * the time limit, then reports SATISFIED with the best solution. */
  gz_params p;
  sols s;
  recording(&p, &s);
  p.time_limit = 0.3;
  gz_stats st;
  assert_int_equal(solve(LNS_FZN, &p, &st, NULL, 0), GZ_SATISFIED);
  assert_true(s.n >= 1);
  assert_non_null(strstr(s.last, "obj = 21;"));
  print_message("gecode LNS: %lld searches in %.2f s (%.0f/s), %lld nodes, "
                "%lld Gecode restarts\n",
                st.searches, st.seconds, (double)st.searches / st.seconds,
                st.nodes, st.restarts);
  /* Gecode counts only cutoffs and solutions as restarts; neighbourhoods
   * that are exhausted without reaching the cutoff are not counted. */
  assert_true(st.searches > 1000);
  assert_true(st.restarts >= s.n && st.restarts < st.searches);
}

UNIT_TESTS(test_version, test_minimize, test_minimize_variants, test_unsat,
           test_time_limit, test_stop_flag, test_callback_stop,
           test_parse_error, test_output_array, test_neighbourhood,
           test_neighbourhood_infeasible_start, test_stop_at_restart,
           test_gecode_lns)
