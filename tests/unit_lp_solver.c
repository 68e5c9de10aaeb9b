/* unit_lp_solver.c -- the one driver of CBC and Clp (lp_solver.h) on
 * problems small enough to solve by hand: a MIP's optimum and its LP
 * relaxation's, an infeasible MIP whose relaxation is feasible, a cutoff
 * that leaves no solution, a MIP start (preprocessing on) that keeps the
 * optimum, the progress callback called with its own context, and the
 * stop callback ending a search that would run far longer. */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "testutil.h"

#include "lp.h"
#include "lp_solver.h"

/* max 5a + 4b + 3c (min of the negation) subject to 2a + 3b + c <= 5,
 * 4a + b + 2c <= 11, 3a + 4b + 2c <= 8, a, b, c in [0, 2]: the optimum
 * is 13 at (2, 0, 1), integral, for the MIP and for its LP relaxation
 * alike (Chvatal's first example, whose optimal vertex is integral). */
static void small(lp_model *L, int integer) {
  lp_alloc(L, 3, 3, 9);
  const double a[3][3] = {{2, 4, 3}, {3, 1, 4}, {1, 2, 2}}; /* by column */
  const double obj[3] = {-5, -4, -3}, ub[3] = {5, 11, 8};
  int z = 0;
  for (int j = 0; j < 3; j++) {
    L->start[j] = z;
    for (int i = 0; i < 3; i++) L->index[z] = i, L->value[z++] = a[j][i];
    L->collb[j] = 0;
    L->colub[j] = 2;
    L->obj[j] = obj[j];
    L->integer[j] = (char)integer;
  }
  L->start[3] = z;
  for (int i = 0; i < 3; i++) L->rowlb[i] = -DBL_MAX, L->rowub[i] = ub[i];
}

static void test_mip_and_lp(void **state) {
  (void)state;
  lp_model L;
  small(&L, 1);
  assert_int_equal(lp_nint(&L), 3);
  double x[3];
  cbc_result r;
  assert_true(cbc_run(&L, NULL, NULL, x, &r));
  assert_true(r.optimal && r.in_time && r.finished && !r.infeasible);
  assert_true(fabs(r.obj + 13) < 1e-6);
  assert_true(fabs(x[0] - 2) < 1e-6 && fabs(x[1]) < 1e-6 && fabs(x[2] - 1) < 1e-6);
  clp_result c;
  assert_int_equal(clp_run(&L, 0, CLP_DUAL, x, &c), 0);
  assert_true(c.in_time);
  assert_true(fabs(c.obj + 13) < 1e-6);
  assert_int_equal(clp_run(&L, 5, CLP_AUTO, NULL, &c), 0);
  assert_true(fabs(c.obj + 13) < 1e-6);
  lp_free(&L);
  assert_null(L.start);
}

/* 2x + 2y = 3 with x, y integers: infeasible, its LP (x + y = 1.5) not. */
static void test_infeasible(void **state) {
  (void)state;
  lp_model L;
  lp_alloc(&L, 2, 1, 2);
  for (int j = 0; j < 2; j++) {
    L.start[j] = j;
    L.index[j] = 0;
    L.value[j] = 2;
    L.colub[j] = 5;
    L.obj[j] = 1;
    L.integer[j] = 1;
  }
  L.start[2] = 2;
  L.rowlb[0] = L.rowub[0] = 3;
  cbc_result r;
  assert_false(cbc_run(&L, NULL, NULL, NULL, &r));
  assert_true(r.infeasible && r.in_time && !r.optimal);
  clp_result c;
  assert_int_equal(clp_run(&L, 0, CLP_AUTO, NULL, &c), 0);
  assert_true(fabs(c.obj - 1.5) < 1e-6);
  lp_free(&L);
}

/* A cutoff below the optimum leaves nothing; a MIP start at the optimum
 * (preprocessing on) keeps it. */
static void test_cutoff_and_start(void **state) {
  (void)state;
  lp_model L;
  small(&L, 1);
  cbc_limits lim;
  cbc_limits_init(&lim);
  lim.seconds = 30;
  lim.cutoff = -13.5;
  cbc_result r;
  assert_false(cbc_run(&L, &lim, NULL, NULL, &r));
  assert_true(r.infeasible && r.in_time);
  cbc_limits_init(&lim);
  lim.seconds = 30;
  int col[3] = {0, 1, 2};
  double val[3] = {2, 0, 1}, x[3];
  lim.nstart = 3, lim.start_col = col, lim.start_val = val;
  assert_true(cbc_run(&L, &lim, NULL, x, &r));
  assert_true(r.optimal && fabs(r.obj + 13) < 1e-6);
  lp_free(&L);
}

/* Market split (Cornuejols and Dawande): sum_j a_ij x_j = b_i, binaries,
 * with random a_ij in 0..99 and b_i half their sum: branch and bound
 * takes very long on 4 rows of 30 columns, so only the stop ends it. */
typedef struct calls {
  int progress, stops;
  const void *self;
  int wrong;
} calls;

static void on_progress(void *ctx, double inc, double bnd, int nodes) {
  calls *c = ctx;
  (void)inc, (void)bnd, (void)nodes;
  if (c->self != c) c->wrong = 1;
  c->progress++;
}

static int on_stop(void *ctx) {
  calls *c = ctx;
  if (c->self != c) c->wrong = 1;
  return ++c->stops > 50;
}

static void test_stop(void **state) {
  (void)state;
  enum { R = 4, C = 30 };
  lp_model L;
  lp_alloc(&L, C + 2 * R, R, (long long)R * C + 2 * R);
  unsigned s = 12345;
  double sum[R] = {0};
  int z = 0;
  for (int j = 0; j < C; j++) {
    L.start[j] = z;
    for (int i = 0; i < R; i++) {
      s = s * 1103515245u + 12345u;
      double a = (double)((s >> 16) % 100);
      L.index[z] = i, L.value[z++] = a;
      sum[i] += a;
    }
    L.colub[j] = 1;
    L.integer[j] = 1;
  }
  for (int i = 0; i < R; i++) /* slack and surplus, at a cost */
    for (int k = 0; k < 2; k++) {
      int j = C + 2 * i + k;
      L.start[j] = z;
      L.index[z] = i, L.value[z++] = k ? -1 : 1;
      L.colub[j] = 1e9;
      L.obj[j] = 1;
    }
  L.start[C + 2 * R] = z;
  for (int i = 0; i < R; i++) L.rowlb[i] = L.rowub[i] = floor(sum[i] / 2);
  calls c = {0};
  c.self = &c;
  cbc_callbacks cb = {.ctx = &c, .progress = on_progress, .stop = on_stop};
  cbc_limits lim;
  cbc_limits_init(&lim);
  lim.seconds = 120, lim.log = 1, lim.out = CBC_OUT_NULL; /* progress needs log 1 */
  cbc_result r;
  cbc_run(&L, &lim, &cb, NULL, &r);
  assert_false(c.wrong);
  assert_true(c.stops > 50);
  assert_true(r.stopped);
  assert_true(c.progress > 0);
  lp_free(&L);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_mip_and_lp), cmocka_unit_test(test_infeasible),
      cmocka_unit_test(test_cutoff_and_start), cmocka_unit_test(test_stop)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
