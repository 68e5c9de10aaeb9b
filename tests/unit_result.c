/* unit_result.c -- the one reader of result files (result_file_*): the
 * fields of a result, a bare schedule, every kind of bad file with its
 * message (file:line:col for syntax errors and truncated files), the
 * schedule as node indices, the trace of a progress plot; the bound line
 * of the solve's summary. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#include "graph.h"
#include "result.h"
#include "util.h"

static char path[64];

static void put(const char *text, size_t len) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  fwrite(text, 1, len, f);
  fclose(f);
}

static void put_s(const char *text) { put(text, strlen(text)); }

static int setup(void **state) {
  (void)state;
  snprintf(path, sizeof path, "/tmp/remat-result-XXXXXX");
  int fd = mkstemp(path);
  if (fd < 0) return -1;
  close(fd);
  return 0;
}

static int teardown(void **state) {
  (void)state;
  unlink(path);
  return 0;
}

/* a -> b -> c */
static remat_graph *chain(void) {
  int64_t w[3] = {1, 2, 3}, m[3] = {4, 5, 6};
  int src[2] = {0, 1}, dst[2] = {1, 2};
  return graph_from_arrays(3, w, m, 2, src, dst, "chain");
}

static void test_fields(void **state) {
  (void)state;
  static const char text[] =
      "{\"graph\": \"chain\", \"graph_file\": \"c.json\", \"method\": \"cp\", "
      "\"budget\": 11, \"base_duration\": 6, \"status\": \"feasible\", "
      "\"message\": \"m\", \"peak\": 11, \"duration\": 6, \"time_s\": 1.5, "
      "\"time_to_best_s\": 0.5, \"lower_bound_tdi_percent\": 2.5, "
      "\"interrupted\": true, \"sequence\": [0, 1, 2], "
      "\"trace\": [[0.1, 0, 15, 6], [0.5, 2, 11, 6]]}";
  put(text, sizeof text - 1);
  result_file f;
  char err[512];
  assert_int_equal(result_file_load(path, &f, err, sizeof err), 0);
  assert_string_equal(f.graph, "chain");
  assert_string_equal(f.graph_file, "c.json");
  assert_string_equal(f.method, "cp");
  assert_string_equal(f.status, "feasible");
  assert_string_equal(f.message, "m");
  assert_true(f.budget == 11 && f.base_duration == 6 && f.peak == 11 && f.duration == 6);
  assert_true(f.time_s == 1.5 && f.time_to_best_s == 0.5);
  assert_true(f.has_bound && f.bound_tdi == 2.5);
  assert_true(f.interrupted);
  remat_graph *g = chain();
  int *seq, len;
  assert_int_equal(result_file_sequence(&f, g, &seq, &len, err, sizeof err), 0);
  assert_true(len == 3 && seq[0] == 0 && seq[2] == 2);
  free(seq);
  remat_result r;
  assert_int_equal(result_file_trace(&f, &r, err, sizeof err), 0);
  assert_string_equal(r.method, "cp");
  assert_true(r.budget == 11 && r.base_duration == 6 && r.t_total == 1.5);
  assert_int_equal(r.ntrace, 2);
  assert_true(r.trace[1].seconds == 0.5 && r.trace[1].phase == 2 && r.trace[1].peak == 11);
  remat_result_free(&r);
  result_file_free(&f);
  /* a bare schedule: only the sequence; nothing else is known */
  put_s("[\"0\", 1, 2]");
  assert_int_equal(result_file_load(path, &f, err, sizeof err), 0);
  assert_null(f.status);
  assert_true(f.budget == -1 && f.peak == -1 && f.time_to_best_s < 0 && !f.has_bound);
  assert_int_equal(result_file_sequence(&f, g, &seq, &len, err, sizeof err), 0);
  assert_int_equal(len, 3);
  free(seq);
  char want[256];
  snprintf(want, sizeof want,
           "%s: not a result file: needs \"trace\", \"base_duration\" and "
           "\"budget\" (write one with remat solve -o)",
           path);
  assert_int_equal(result_file_trace(&f, &r, err, sizeof err), REMAT_EUSAGE);
  assert_string_equal(err, want);
  remat_result_free(&r);
  result_file_free(&f);
  remat_graph_free(g);
}

static void test_errors(void **state) {
  (void)state;
  result_file f;
  char err[512], want[512];
  struct {
    const char *text;
    size_t len;
    const char *msg; /* after "PATH" */
  } bad[] = {
      {"{\"budget\": 16,\n \"status\": \"opt", 30, ":2:15: JSON syntax error: "},
      {"", 0, ":1:0: JSON syntax error: "},
      {"{\"a\": 1}\n{", 10, ":2:1: JSON syntax error: "},
      {"{\"a\":\0 1}", 9, ":1:6: JSON syntax error: "},
      {"5", 1, ": expected a result (a JSON object) or a schedule (an array of node ids)"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    put(bad[i].text, bad[i].len);
    assert_int_equal(result_file_load(path, &f, err, sizeof err), REMAT_EUSAGE);
    snprintf(want, sizeof want, "%s%s", path, bad[i].msg);
    if (strncmp(err, want, strlen(want)))
      fail_msg("case %zu: '%s', expected '%s...'", i, err, want);
    result_file_free(&f);
  }
  assert_int_equal(result_file_load("/nonexistent/r.json", &f, err, sizeof err),
                   REMAT_EUSAGE);
  assert_string_equal(err, "cannot read /nonexistent/r.json: No such file or directory");
  result_file_free(&f);
  /* schedules that are not one of g's */
  remat_graph *g = chain();
  int *seq, len;
  static const char *const bad_seq[][2] = {
      {"{\"sequence\": [0, 7]}", "sequence entry 1 is not a node of chain"},
      {"{\"sequence\": null}", "expected a \"sequence\" array of node ids"},
      {"{\"status\": \"infeasible\", \"message\": \"nothing fits\", \"sequence\": null}",
       "the result has no schedule (nothing fits)"},
      {"{\"status\": \"over-budget\"}", "the result has no schedule (status over-budget)"},
  };
  for (int i = 0; i < 4; i++) {
    put_s(bad_seq[i][0]);
    assert_int_equal(result_file_load(path, &f, err, sizeof err), 0);
    assert_int_equal(result_file_sequence(&f, g, &seq, &len, err, sizeof err),
                     REMAT_EUSAGE);
    snprintf(want, sizeof want, "%s: %s", path, bad_seq[i][1]);
    assert_string_equal(err, want);
    result_file_free(&f);
  }
  put_s("{\"budget\": 1, \"base_duration\": 2, \"trace\": [[0.1, 0, 3]]}");
  assert_int_equal(result_file_load(path, &f, err, sizeof err), 0);
  remat_result r;
  assert_int_equal(result_file_trace(&f, &r, err, sizeof err), REMAT_EUSAGE);
  snprintf(want, sizeof want,
           "%s: trace entry 0 is not [seconds, phase, peak, duration]", path);
  assert_string_equal(err, want);
  remat_result_free(&r);
  result_file_free(&f);
  remat_graph_free(g);
}

/* The bound line: the gap in percent, and in time units where the percent
 * prints as 0.000. */
static void bound_line(const remat_result *r, char *out, size_t cap) {
  FILE *f = fopen(path, "w+");
  assert_non_null(f);
  result_bound_line(f, r);
  rewind(f);
  size_t n = fread(out, 1, cap - 1, f);
  out[n] = 0;
  fclose(f);
}

static void test_bound_line(void **state) {
  (void)state;
  remat_graph *g = chain();
  remat_result r;
  remat_result_init(&r, g, 11, "cp");
  int seq[3] = {0, 1, 2};
  r.seq = seq;
  r.len = 3;
  r.peak = 11;
  r.has_bound = 1;
  r.base_duration = 79000000;
  r.duration = 79824625;
  r.bound = 79824617;
  char line[256];
  bound_line(&r, line, sizeof line);
  assert_string_equal(line, "lower bound: duration 79824617  TDI 1.044%  gap 0.000% (8 time units)\n");
  r.bound = 79824624;
  bound_line(&r, line, sizeof line);
  assert_string_equal(line, "lower bound: duration 79824624  TDI 1.044%  gap 0.000% (1 time unit)\n");
  r.bound = 79824625;
  bound_line(&r, line, sizeof line);
  assert_string_equal(line, "lower bound: duration 79824625  TDI 1.044%  gap 0.000%\n");
  r.duration = 100;
  r.base_duration = 90;
  r.bound = 95;
  bound_line(&r, line, sizeof line);
  assert_string_equal(line, "lower bound: duration 95  TDI 5.556%  gap 5.000%\n");
  r.peak = 12; /* over budget: no gap */
  bound_line(&r, line, sizeof line);
  assert_string_equal(line, "lower bound: duration 95  TDI 5.556%\n");
  r.seq = NULL;
  remat_result_free(&r);
  remat_graph_free(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_fields, setup, teardown),
      cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
      cmocka_unit_test_setup_teardown(test_bound_line, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
