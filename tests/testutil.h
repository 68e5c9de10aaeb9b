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
