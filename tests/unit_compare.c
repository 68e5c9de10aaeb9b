/* unit_compare.c -- every method side by side (compare.c): on random DAGs
 * of at most 6 nodes, the CP's and the MILP's rows hold the brute-force
 * optimum over stage-structured schedules (or prove that nothing fits), no
 * row beats it, every row's numbers agree with each other, and the three
 * output formats hold one record per row; the method list parser. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "compare.h"
#include "oracle.h"
#include "remat.h"

static const char *const methods[] = {
    "cp",         "milp",        "lp-rounding",           "checkpoint-all",
    "chen-sqrtn", "chen-greedy", "chen-sqrtn-linearized", "chen-greedy-linearized",
    "echo",
};
#define NMETHODS (int)(sizeof methods / sizeof *methods)

/* The rows of one budget against the brute force's best duration (-1:
 * nothing fits). */
static void check_rows(const remat_graph *g, const cmp_row *row, int64_t M,
                       int64_t best) {
  int64_t base = remat_graph_base_duration(g);
  for (int m = 0; m < NMETHODS; m++) {
    const cmp_row *r = &row[m];
    assert_string_equal(r->method, methods[m]);
    assert_true(r->budget == M);
    assert_true(r->ran);
    if (r->has_schedule) {
      assert_int_equal(r->within, r->peak <= M);
      assert_true(r->tdi == remat_tdi(base, (double)r->duration));
      /* nothing within the budget beats the brute force, or exists
       * when it finds nothing */
      if (r->within && (best < 0 || r->duration < best))
        fail_msg("%s at %lld: duration %lld within budget, brute force %lld",
                 r->method, (long long)M, (long long)r->duration, (long long)best);
    }
    if (r->has_bound && best >= 0)
      assert_true(r->bound_tdi <= remat_tdi(base, (double)best) + 1e-9);
  }
  /* the CP (C_v = n) and the MILP are exact on the stage axis */
  for (int m = 0; m < 2; m++) {
    const cmp_row *r = &row[m];
    if (best < 0) {
      if (r->status != REMAT_STATUS_INFEASIBLE)
        fail_msg("%s at %lld: status %s, brute force: nothing fits", r->method,
                 (long long)M, remat_status_name(r->status));
    } else if (r->status != REMAT_STATUS_OPTIMAL || !r->has_schedule ||
               r->duration != best) {
      fail_msg("%s at %lld: status %s duration %lld, brute force %lld", r->method,
               (long long)M, remat_status_name(r->status), (long long)r->duration,
               (long long)best);
    }
  }
  /* checkpoint-all is the input order */
  const cmp_row *all = &row[3];
  assert_true(all->has_schedule && all->peak == remat_topo_peak(g) &&
              all->duration == base);
}

static char *written(const remat_graph *g, const cmp_row *rows, int n,
                     const char *format) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  assert_non_null(f);
  assert_int_equal(cmp_write(f, g, rows, n, format), 0);
  fclose(f);
  return buf;
}

static int count_lines(const char *s) {
  int n = 0;
  for (; *s; s++) n += *s == '\n';
  return n;
}

/* CSV: a header and a line per row; JSON: a record per row with the row's
 * numbers; Markdown: a title, a header, a rule and a line per row. */
static void check_formats(const remat_graph *g, const cmp_row *rows, int n) {
  char *csv = written(g, rows, n, "csv");
  assert_int_equal(count_lines(csv), 1 + n);
  assert_non_null(strstr(csv, "graph,budget,method,tdi_percent,peak,within_budget,"));
  free(csv);
  char *md = written(g, rows, n, "md");
  assert_int_equal(count_lines(md), 4 + n);
  free(md);
  char *text = written(g, rows, n, "json");
  json_error_t jerr;
  json_t *arr = json_loads(text, 0, &jerr);
  if (!arr) fail_msg("JSON: %s", jerr.text);
  assert_int_equal((int)json_array_size(arr), n);
  for (int i = 0; i < n; i++) {
    json_t *o = json_array_get(arr, (size_t)i);
    assert_string_equal(json_string_value(json_object_get(o, "method")), rows[i].method);
    assert_true(json_integer_value(json_object_get(o, "budget")) == rows[i].budget);
    json_t *peak = json_object_get(o, "peak");
    if (rows[i].has_schedule)
      assert_true(json_integer_value(peak) == rows[i].peak);
    else
      assert_true(json_is_null(peak));
  }
  json_decref(arr);
  free(text);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  assert_int_equal(cmp_write(f, g, rows, n, "xml"), -1);
  fclose(f);
  free(buf);
}

static void test_compare_brute_force(void **state) {
  (void)state;
  int infeasible = 0;
  for (uint64_t seed = 1; seed <= 4; seed++) {
    int n = 4 + (int)(seed % 3);
    remat_graph *g = oracle_dag(n, 40, 9, 9, 300 + seed);
    int64_t minp, topo = remat_topo_peak(g);
    oracle_best(g, topo, &minp);
    /* one below every schedule's peak, the least peak, one between */
    int64_t budgets[3] = {minp - 1, minp, (minp + topo) / 2};
    cmp_params p;
    cmp_params_init(&p);
    p.time_limit = 20;
    p.threads = 1;
    p.default_copies = n;
    p.verbose = 0;
    cmp_row *rows;
    char err[256];
    int nrows = cmp_run(g, budgets, 3, &p, &rows, err, sizeof err);
    if (nrows < 0) fail_msg("cmp_run: %s", err);
    assert_int_equal(nrows, 3 * NMETHODS);
    for (int b = 0; b < 3; b++) {
      int64_t mp, best = oracle_best(g, budgets[b], &mp);
      infeasible += best < 0;
      check_rows(g, rows + b * NMETHODS, budgets[b], best);
    }
    check_formats(g, rows, nrows);
    free(rows);
    remat_graph_free(g);
  }
  assert_int_equal(infeasible, 4);
}

static void test_compare_methods_parse(void **state) {
  (void)state;
  char err[256] = "";
  assert_int_equal(cmp_methods_parse("cp,milp", err, sizeof err), CMP_CP | CMP_MILP);
  assert_int_equal(cmp_methods_parse("all", err, sizeof err), CMP_ALL);
  assert_int_equal(cmp_methods_parse("baselines,lp-rounding", err, sizeof err),
                   CMP_ALL & ~(CMP_CP | CMP_MILP));
  assert_int_equal(cmp_methods_parse("chen-greedy-linearized", err, sizeof err),
                   CMP_CHEN_GREEDY_LIN);
  assert_int_equal(cmp_methods_parse("cp,frob", err, sizeof err), -1);
  assert_non_null(strstr(err, "unknown method 'frob'"));
}

/* Only the methods asked for, in the table's order, budget by budget. */
static void test_compare_subset(void **state) {
  (void)state;
  remat_graph *g = oracle_dag(5, 40, 9, 9, 77);
  int64_t budgets[2] = {remat_topo_peak(g), remat_graph_min_peak(g) + 1};
  cmp_params p;
  cmp_params_init(&p);
  p.time_limit = 10;
  p.threads = 1;
  p.verbose = 0;
  p.methods = CMP_CHEN_SQRTN_AP | CMP_CHECKPOINT_ALL;
  cmp_row *rows;
  char err[256];
  assert_int_equal(cmp_run(g, budgets, 2, &p, &rows, err, sizeof err), 4);
  const char *want[] = {"checkpoint-all", "chen-sqrtn", "checkpoint-all", "chen-sqrtn"};
  for (int i = 0; i < 4; i++) {
    assert_string_equal(rows[i].method, want[i]);
    assert_true(rows[i].budget == budgets[i / 2]);
  }
  free(rows);
  remat_graph_free(g);
}

UNIT_TESTS(test_compare_methods_parse, test_compare_subset,
           test_compare_brute_force)
