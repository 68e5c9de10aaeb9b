/* testutil.h -- common includes and fixtures of the cmocka unit tests. */
#ifndef REMAT_TESTUTIL_H
#define REMAT_TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "remat.h"

/* remat_solve's parameters of a quiet run with budget M, a time limit of
 * seconds and threads Gecode threads (0: all cores); the rest at their
 * defaults. */
static inline remat_solve_params solve_params(int64_t M, double seconds,
                                              int threads) {
  remat_solve_params p;
  remat_solve_params_init(&p);
  p.budget = M;
  p.time_limit = seconds;
  p.threads = threads;
  p.verbose = 0;
  return p;
}

/* UNIT_TESTS(test_a, test_b, ...) defines main(): runs the listed tests
 * (functions void f(void **state)) as one cmocka group named "tests",
 * each test under its own name.  UNIT_TESTS_WITH(setup, teardown, test_a,
 * ...) the same with group fixtures (setup or teardown may be NULL). */
typedef void unit_test_fn(void **state);

#define UNIT_TESTS(...) UNIT_TESTS_WITH(NULL, NULL, __VA_ARGS__)
#define UNIT_TESTS_WITH(setup, teardown, ...)                                  \
  int main(void) {                                                             \
    unit_test_fn *const fns[] = {__VA_ARGS__, NULL};                           \
    return unit_run(#__VA_ARGS__, fns, setup, teardown);                       \
  }

/* UNIT_TEST_OF(test_a, check(1)) defines the test test_a as the one
 * statement given: a check shared by several tests, with its arguments. */
#define UNIT_TEST_OF(name, call)                                               \
  static void name(void **state) {                                             \
    (void)state;                                                               \
    call;                                                                      \
  }

/* names: the functions' names, separated by commas and white space */
static inline int unit_run(const char *names, unit_test_fn *const *fns,
                           CMFixtureFunction setup,
                           CMFixtureFunction teardown) {
  enum { MAX_TESTS = 64 };
  static char buf[4096];
  struct CMUnitTest t[MAX_TESTS];
  size_t n = 0, len = strlen(names);
  if (len >= sizeof buf) abort();
  memcpy(buf, names, len + 1);
  for (char *p = strtok(buf, ", \t\n"); p; p = strtok(NULL, ", \t\n")) {
    if (n == MAX_TESTS || !fns[n]) abort();
    t[n] = (struct CMUnitTest){p, fns[n], NULL, NULL, NULL};
    n++;
  }
  if (fns[n]) abort();
  return _cmocka_run_group_tests("tests", t, n, setup, teardown);
}

/* chain a -> b -> c plus a -> c */
static inline remat_graph *small_graph(void) {
  int64_t w[3] = {2, 3, 5}, m[3] = {10, 20, 30};
  int src[3] = {0, 1, 0}, dst[3] = {1, 2, 2};
  return graph_from_arrays(3, w, m, 3, src, dst, "small");
}

#ifdef UNIT_TMPDIR
#include "util.h"

/* With UNIT_TMPDIR defined as a name ("unit_batch") before this header:
 * a scratch directory /tmp/NAME.XXXXXX per run, tmpdir, made by the group
 * fixture tmpdir_setup and removed with its contents by tmpdir_teardown;
 * tpath(NAME) is a file in it (freed by the caller); write_text(PATH,
 * TEXT) writes a file. */
static char tmpdir[256];

static int tmpdir_setup(void **state) {
  (void)state;
  snprintf(tmpdir, sizeof tmpdir, "/tmp/%s.XXXXXX", UNIT_TMPDIR);
  return mkdtemp(tmpdir) ? 0 : -1;
}

static int tmpdir_teardown(void **state) {
  (void)state;
  char cmd[512];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  return system(cmd) == 0 ? 0 : -1;
}

static char *tpath(const char *name) {
  util_buf b = {0};
  util_buf_printf(&b, "%s/%s", tmpdir, name);
  return b.s;
}

static inline void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}
#endif

/* the diamond of lib.sh (t_diamond) as JSON: topo peak 16, duration 17 */
#define DIAMOND_JSON                                                           \
    "{\"name\": \"diamond\", \"nodes\": [{\"id\": \"in\", \"duration\": 3, " \
    "\"memory\": 4}, {\"id\": \"a\", \"duration\": 2, \"memory\": 5}, {\"id\": " \
    "\"b\", \"duration\": 4, \"memory\": 2}, {\"id\": \"c\", \"duration\": 1, " \
    "\"memory\": 3}, {\"id\": \"d\", \"duration\": 5, \"memory\": 4}, {\"id\": " \
    "\"out\", \"duration\": 2, \"memory\": 1}], \"edges\": [[\"in\", \"a\"], " \
    "[\"in\", \"b\"], [\"a\", \"c\"], [\"b\", \"c\"], [\"in\", \"d\"], [\"c\", " \
    "\"d\"], [\"d\", \"out\"], [\"a\", \"out\"]]}"

/* What a schedule report callback has seen: the budget M and copy limits
 * (NULL: any number) it checks against, the reports so far, whether the
 * last one fits M, its peak and duration; with report_keep, the last
 * schedule itself (freed by the caller). */
typedef struct report_seen {
  const remat_graph *g;
  int64_t M;
  const int *copies;
  int reports, fits;
  int64_t last_peak, last_dur;
  int *last, last_len;
} report_seen;

/* Nothing seen yet, checking against g, M and copies. */
static inline void report_seen_start(report_seen *S, const remat_graph *g,
                                     int64_t M, const int *copies) {
  memset(S, 0, sizeof *S);
  S->g = g;
  S->M = M;
  S->copies = copies;
}

/* Simulates a reported schedule into sim, asserting that it is valid and
 * computes every node v at least once and at most S->copies[v] times;
 * whether it fits S->M. */
static inline int report_simulate(const report_seen *S, const int *seq,
                                  int len, remat_sim *sim) {
  assert_int_equal(remat_simulate(S->g, seq, len, sim, NULL), 0);
  if (S->copies) {
    int *cnt = calloc((size_t)S->g->n, sizeof *cnt);
    for (int j = 0; j < len; j++) cnt[seq[j]]++;
    for (int v = 0; v < S->g->n; v++)
      assert_true(cnt[v] >= 1 && cnt[v] <= S->copies[v]);
    free(cnt);
  }
  return sim->peak <= S->M;
}

/* Asserts that a report improves on the one before (if any): once one
 * fits, every later one fits and is shorter; until then each one fits or
 * has a lower peak. */
static inline void report_improves(const report_seen *S, int fits,
                                   const remat_sim *sim) {
  if (!S->reports) return;
  if (S->fits)
    assert_true(fits && sim->duration < S->last_dur);
  else
    assert_true(fits || sim->peak < S->last_peak);
}

/* Counts a report that simulated to sim. */
static inline void report_count(report_seen *S, int fits,
                                const remat_sim *sim) {
  S->reports++;
  S->fits = fits;
  S->last_peak = sim->peak;
  S->last_dur = sim->duration;
}

/* The checks of a report named want from a search whose every report
 * improves on the one before: valid, within the copy limits, improving
 * (report_improves), then counted; whether it fits S->M. */
static inline int report_check(report_seen *S, const char *name,
                               const char *want, const int *seq, int len) {
  assert_string_equal(name, want);
  remat_sim sim;
  int fits = report_simulate(S, seq, len, &sim);
  report_improves(S, fits, &sim);
  report_count(S, fits, &sim);
  return fits;
}

/* Keeps a copy of the reported schedule in S->last. */
static inline void report_keep(report_seen *S, const int *seq, int len) {
  free(S->last);
  S->last = malloc((size_t)len * sizeof *S->last);
  memcpy(S->last, seq, (size_t)len * sizeof *seq);
  S->last_len = len;
}

/* Output caught in memory: FILE *f = memout_open(&mo), then
 * memout_close(&mo) is what was written (NUL-terminated, mo.len bytes;
 * freed by the caller). */
typedef struct memout {
  FILE *f;
  char *buf;
  size_t len;
} memout;

static inline FILE *memout_open(memout *mo) {
  mo->buf = NULL;
  mo->len = 0;
  mo->f = open_memstream(&mo->buf, &mo->len);
  assert_non_null(mo->f);
  return mo->f;
}

static inline char *memout_close(memout *mo) {
  fclose(mo->f);
  return mo->buf;
}

/* Same nodes, attributes and edges. */
static inline int same_graph(const remat_graph *a, const remat_graph *b) {
  if (a->n != b->n || a->n_edges != b->n_edges) return 0;
  for (int v = 0; v < a->n; v++)
    if (a->w[v] != b->w[v] || a->m[v] != b->m[v] ||
        strcmp(a->id[v], b->id[v]) || a->succ_off[v] != b->succ_off[v])
      return 0;
  return !memcmp(a->succ, b->succ, (size_t)a->n_edges * sizeof *a->succ);
}

#endif
