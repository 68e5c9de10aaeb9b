/* unit_extsolver.c -- an external FlatZinc solver's output is untrusted:
 * the decoder's range checks (PEAK past 64 bits once scaled, negative,
 * values out of their domains), and ext_solve's statuses for scripts that
 * stand in for a solver (a proof, one solution then exit 0, UNKNOWN,
 * UNSATISFIABLE, exit code 1, garbage, a solver deaf to SIGTERM at the
 * time limit). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define UNIT_TMPDIR "remat-ext"
#include "small_model.h"
#include "testutil.h"

#include "decode.h"
#include "extsolver.h"
#include "graph.h"
#include "model_any.h"
#include "util.h"

/* The FlatZinc solution text of the input order, with PEAK = peak (phase
 * 1) or OBJ = peak (phase 2). */
static char *solution_text(const model *md, const char *peak) {
  model_sol x;
  model_sol_alloc(md, &x);
  int seq[3] = {0, 1, 2};
  assert_int_equal(model_encode(md, seq, 3, &x), 0);
  util_buf b = {0};
  const char *names[3] = {"S", "E", "A"};
  int *v[3] = {x.s, x.e, x.a};
  for (int i = 0; i < 3; i++) {
    util_buf_printf(&b, "%s = array1d(1..%d, [", names[i], md->ncopy);
    for (int c = 0; c < md->ncopy; c++)
      util_buf_printf(&b, c ? ", %d" : "%d", v[i][c]);
    util_buf_puts(&b, "]);\n");
  }
  util_buf_printf(&b, "%s = %s;\n", md->phase == 1 ? "PEAK" : "OBJ", peak);
  model_sol_free(&x);
  return b.s;
}

static void test_decode_ranges(void **state) {
  (void)state;
  model md;
  model_sol x;
  remat_graph *g = small_model(&md, &x, 1, 50);
  char err[256];
  long long obj;
  char top[32];
  snprintf(top, sizeof top, "%d", md.ub_peak);
  char *ok = solution_text(&md, top);
  assert_int_equal(decode_solution(&md, ok, &x, &obj, err, sizeof err), 0);
  assert_int_equal(obj, md.ub_peak);
  free(ok);
  char want[128];
  snprintf(want, sizeof want, "solver output: PEAK is not an integer in 0..%d",
           md.ub_peak);
  const char *bad[] = {"9223372036854775807", "99999999999999999999999", "-3",
                       "1x", "x"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char *t = solution_text(&md, bad[i]);
    assert_int_equal(decode_solution(&md, t, &x, &obj, err, sizeof err), -1);
    assert_string_equal(err, want);
    free(t);
  }
  /* no PEAK at all (phase 1 needs it) */
  char *t = solution_text(&md, top);
  *strstr(t, "PEAK = ") = 0;
  assert_int_equal(decode_solution(&md, t, &x, &obj, err, sizeof err), -1);
  assert_string_equal(err, "solver output has no PEAK value");
  free(t);
  /* a start past the parking slots, an A of 2 */
  t = solution_text(&md, top);
  char *s = strstr(t, "S = array1d(1..");
  s = strchr(s, '[') + 1;
  char *bad_a = util_strdup(t);
  util_buf b = {0};
  util_buf_printf(&b, "%.*s2147483647%s", (int)(s - t), t, strchr(s, ','));
  assert_int_equal(decode_solution(&md, b.s, &x, &obj, err, sizeof err), -1);
  snprintf(want, sizeof want,
           "solver output has no valid array S of %d values in 1..%lld",
           md.ncopy, (long long)md.horizon + md.ncopy);
  assert_string_equal(err, want);
  util_buf_free(&b);
  char *a = strstr(bad_a, "A = array1d(1..");
  a = strchr(a, '[') + 1;
  *a = '2';
  assert_int_equal(decode_solution(&md, bad_a, &x, &obj, err, sizeof err), -1);
  snprintf(want, sizeof want,
           "solver output has no valid array A of %d values in 0..1", md.ncopy);
  assert_string_equal(err, want);
  free(bad_a);
  free(t);
  model_sol_free(&x);
  model_free(&md);
  /* phase 2: OBJ within 0..the later copies' durations */
  assert_int_equal(model_build(&md, g, 2, 50, NULL, 2, err, sizeof err), 0);
  model_sol_alloc(&md, &x);
  t = solution_text(&md, "0");
  assert_int_equal(decode_solution(&md, t, &x, &obj, err, sizeof err), 0);
  free(t);
  t = solution_text(&md, "1000000");
  assert_int_equal(decode_solution(&md, t, &x, &obj, err, sizeof err), -1);
  assert_non_null(strstr(err, "OBJ is not an integer in 0.."));
  free(t);
  small_model_free(g, &md, &x);
}

/* ------------------------------------------------------- ext_solve */

/* An executable script NAME in tmpdir running body; returns its path. */
static char *script(const char *name, const char *body) {
  char *path = tpath(name);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fprintf(f, "#!/bin/sh\n%s\n", body);
  fclose(f);
  chmod(path, 0755);
  return path;
}

static int count_solution(void *ctx, const char *text) {
  (void)text;
  (*(int *)ctx)++;
  return 0;
}

/* Run the script as the solver; *seen counts the solutions passed on. */
static gz_status ext_run_script(const char *name, const char *body,
                                double limit, int *seen, char *err,
                                size_t errlen, char **path) {
  *path = script(name, body);
  *seen = 0;
  deadline d = deadline_limit(util_now(), limit);
  ext_params p = {*path, d, NULL, count_solution, seen, NULL};
  gz_stats st;
  return ext_solve("/dev/null", &p, &st, err, errlen);
}

static void test_ext_statuses(void **state) {
  (void)state;
  char err[512], want[600], *path;
  int seen;
  static const char sol[] = "echo 'PEAK = 3;'; echo ----------; ";
  char body[256];

  /* how a script ends: its status, the message (%s: the script's path),
   * the solutions passed on (-1: not checked); body comes after sol when
   * with_sol */
  static const struct {
    const char *name, *body;
    int with_sol;
    gz_status status;
    const char *msg;
    int solutions;
  } cases[] = {
      {"proof.sh", "echo ==========", 1, GZ_OPTIMAL, "", 1},
      {"one.sh", "exit 0", 1, GZ_SATISFIED,
       "the external solver %s ended without a proof after 1 solution", -1},
      {"unknown.sh", "echo =====UNKNOWN=====", 0, GZ_UNKNOWN,
       "the external solver %s ended without a proof after 0 solutions", -1},
      {"unsat.sh", "echo =====UNSATISFIABLE=====", 0, GZ_UNSAT, "", -1},
      /* a failure wins over the solutions printed before it */
      {"exit1.sh", "echo 'bad model' >&2; exit 1", 1, GZ_ERROR,
       "%s failed (exit code 1): bad model", -1},
      {"garbage.sh", "echo garbage; echo more", 0, GZ_ERROR,
       "the external solver %s printed no solution and no status line (its "
       "output starts with 'garbage')",
       -1},
      {"silent.sh", "exit 0", 0, GZ_ERROR,
       "the external solver %s ended without any output", -1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    snprintf(body, sizeof body, "%s%s", cases[i].with_sol ? sol : "",
             cases[i].body);
    assert_int_equal(ext_run_script(cases[i].name, body, 10, &seen, err,
                                    sizeof err, &path),
                     cases[i].status);
    snprintf(want, sizeof want, cases[i].msg, path);
    assert_string_equal(err, want);
    if (cases[i].solutions >= 0) assert_int_equal(seen, cases[i].solutions);
    free(path);
  }

  /* deaf to SIGTERM, with a child: stopped at the limit, killed after
   * EXT_GRACE, its solution kept, no error */
  snprintf(body, sizeof body, "trap '' TERM; %ssleep 30 & while ! wait; do :; done",
           sol);
  double t0 = util_now();
  assert_int_equal(ext_run_script("deaf.sh", body, 0.3, &seen, err, sizeof err, &path),
                   GZ_SATISFIED);
  assert_true(util_now() - t0 < 0.3 + EXT_GRACE + 2);
  assert_int_equal(seen, 1);
  assert_string_equal(err, "");
  free(path);
}

UNIT_TESTS_WITH(tmpdir_setup, tmpdir_teardown, test_decode_ranges,
                test_ext_statuses)
