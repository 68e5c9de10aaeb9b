/* unit_plot.c -- the SVG pictures (plot.c): one bar per copy at the right
 * steps, memory curves equal to the simulator's, progress curves
 * monotone. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "plot.h"
#include "remat.h"

/* Nodes a&b -> <c> -> d"q -> e', and a&b -> e' (ids that need escaping).
 * Memory 3, 1, 2, 4; durations 5, 1, 2, 3. */
static const char graph_json[] =
    "{\"nodes\":["
    "{\"id\":\"a&b\",\"duration\":5,\"memory\":3},"
    "{\"id\":\"<c>\",\"duration\":1,\"memory\":1},"
    "{\"id\":\"d\\\"q\",\"duration\":2,\"memory\":2},"
    "{\"id\":\"e'\",\"duration\":3,\"memory\":4}],"
    "\"edges\":[[\"a&b\",\"<c>\"],[\"<c>\",\"d\\\"q\"],[\"d\\\"q\",\"e'\"],"
    "[\"a&b\",\"e'\"]]}";

/* 0 1 2 0 3: node 0 is recomputed for node 3. */
static const int sched[] = {0, 1, 2, 0, 3};
#define SCHED_LEN 5

static remat_graph *test_graph(void) {
  char err[256];
  remat_graph *g =
      remat_graph_read_buffer(graph_json, strlen(graph_json), "t.json", err,
                              sizeof err);
  if (!g) fail_msg("%s", err);
  return g;
}

/* ------------------------------------------------------- SVG scanning */

/* Run a plot into a string. */
typedef int (*plot_fn)(FILE *f, void *ctx, char *err, size_t errlen);

static char *render(plot_fn fn, void *ctx, int *rc) {
  char err[512] = "";
  memout mo;
  *rc = fn(memout_open(&mo), ctx, err, sizeof err);
  return memout_close(&mo);
}

/* The next element <tag ...> after p whose class attribute is exactly cls;
 * *end receives the end of its start tag. */
static const char *find_elem(const char *p, const char *tag, const char *cls,
                             const char **end) {
  char open[32], want[64];
  snprintf(open, sizeof open, "<%s ", tag);
  snprintf(want, sizeof want, " class=\"%s\"", cls);
  while ((p = strstr(p, open))) {
    const char *e = strchr(p, '>');
    assert_non_null(e);
    const char *c = strstr(p, want);
    if (c && c < e) {
      *end = e;
      return p;
    }
    p = e;
  }
  return NULL;
}

static int count_elems(const char *svg, const char *tag, const char *cls) {
  int n = 0;
  const char *e;
  for (const char *p = svg; (p = find_elem(p, tag, cls, &e)); p = e) n++;
  return n;
}

/* Attribute `name` of the element [p, end) as a string (into buf). */
static int attr_str(const char *p, const char *end, const char *name,
                    char *buf, size_t len) {
  char want[64];
  snprintf(want, sizeof want, " %s=\"", name);
  const char *a = strstr(p, want);
  if (!a || a > end) return -1;
  a += strlen(want);
  const char *q = strchr(a, '"');
  snprintf(buf, len, "%.*s", (int)(q - a), a);
  return 0;
}

static double attr_num(const char *p, const char *end, const char *name) {
  char buf[128];
  if (attr_str(p, end, name, buf, sizeof buf))
    fail_msg("no attribute %s", name);
  return strtod(buf, NULL);
}

/* The points of a polyline into xs, ys (allocated); returns the count. */
static int poly_points(const char *p, const char *end, double **xs,
                       double **ys) {
  const char *a = strstr(p, " points=\"");
  assert_true(a && a < end);
  a += 9;
  int n = 0, cap = 16;
  *xs = malloc(cap * sizeof **xs);
  *ys = malloc(cap * sizeof **ys);
  while (*a != '"') {
    char *q;
    double x = strtod(a, &q);
    assert_int_equal(*q, ',');
    double y = strtod(q + 1, &q);
    if (n == cap) {
      cap *= 2;
      *xs = realloc(*xs, cap * sizeof **xs);
      *ys = realloc(*ys, cap * sizeof **ys);
    }
    (*xs)[n] = x;
    (*ys)[n++] = y;
    a = q;
    while (*a == ' ' || *a == '\n') a++;
  }
  return n;
}

/* The plot area: pixel box and data range. */
typedef struct area {
  double x, y, w, h, xmin, xmax, ymin, ymax;
} area;

static area plot_area_of(const char *svg) {
  const char *e, *p = find_elem(svg, "rect", "plot-area", &e);
  assert_non_null(p);
  area a = {attr_num(p, e, "x"),        attr_num(p, e, "y"),
            attr_num(p, e, "width"),    attr_num(p, e, "height"),
            attr_num(p, e, "data-xmin"), attr_num(p, e, "data-xmax"),
            attr_num(p, e, "data-ymin"), attr_num(p, e, "data-ymax")};
  return a;
}

/* Data value of pixel row y. */
static double area_value(const area *a, double y) {
  return a->ymin + (a->y + a->h - y) / a->h * (a->ymax - a->ymin);
}

/* ----------------------------------------------------------- intervals */

typedef struct iv_ctx {
  remat_graph *g;
  const int *seq;
  int len;
} iv_ctx;

static int run_intervals(FILE *f, void *ctx, char *err, size_t errlen) {
  iv_ctx *c = ctx;
  plot_opts o;
  plot_opts_init(&o);
  o.budget = 8;
  return plot_intervals(f, c->g, c->seq, c->len, &o, err, errlen);
}

static void test_intervals_bars(void **state) {
  (void)state;
  remat_graph *g = test_graph();
  iv_ctx c = {g, sched, SCHED_LEN};
  int rc;
  char *svg = render(run_intervals, &c, &rc);
  assert_int_equal(rc, 0);
  /* copies: step -> [start, end] (last reader, inclusive) */
  static const int want_end[SCHED_LEN] = {1, 2, 4, 4, 4};
  static const int want_copy[SCHED_LEN] = {0, 0, 0, 1, 0};
  assert_int_equal(count_elems(svg, "rect", "interval"), SCHED_LEN);
  double x0 = -1, cw = -1;
  int seen[SCHED_LEN] = {0};
  const char *e;
  for (const char *p = svg; (p = find_elem(p, "rect", "interval", &e)); p = e) {
    int start = (int)attr_num(p, e, "data-start");
    int end = (int)attr_num(p, e, "data-end");
    assert_in_range(start, 0, SCHED_LEN - 1);
    assert_int_equal(end, want_end[start]);
    assert_int_equal((int)attr_num(p, e, "data-copy"), want_copy[start]);
    assert_int_equal((int)attr_num(p, e, "data-index"), sched[start]);
    seen[start]++;
    double x = attr_num(p, e, "x"), w = attr_num(p, e, "width");
    if (cw < 0) { /* the first bar fixes the scale: x = x0 + start * cw */
      cw = w / (end - start + 1);
      x0 = x - start * cw;
    }
    assert_true(fabs(x - (x0 + start * cw)) < 0.02);
    assert_true(fabs(x + w - (x0 + (end + 1) * cw)) < 0.02);
  }
  for (int j = 0; j < SCHED_LEN; j++) assert_int_equal(seen[j], 1);
  assert_int_equal(count_elems(svg, "circle", "compute") +
                       count_elems(svg, "rect", "compute"),
                   4);
  assert_int_equal(count_elems(svg, "circle", "recompute") +
                       count_elems(svg, "rect", "recompute"),
                   1);
  /* ids are escaped */
  assert_non_null(strstr(svg, "data-node=\"a&amp;b\""));
  assert_non_null(strstr(svg, "data-node=\"&lt;c&gt;\""));
  assert_non_null(strstr(svg, "data-node=\"d&quot;q\""));
  assert_non_null(strstr(svg, "data-node=\"e&apos;\""));
  assert_null(strstr(svg, "a&b"));
  assert_null(strstr(svg, "<c>"));
  free(svg);
  remat_graph_free(g);
}

static void test_intervals_invalid(void **state) {
  (void)state;
  remat_graph *g = test_graph();
  static const int bad[] = {0, 2, 1, 3}; /* d"q before its input <c> */
  plot_opts o;
  plot_opts_init(&o);
  char err[512] = "";
  memout mo;
  assert_int_equal(
      plot_intervals(memout_open(&mo), g, bad, 4, &o, err, sizeof err),
      REMAT_EUSAGE);
  free(memout_close(&mo));
  assert_non_null(strstr(err, "<c>"));
  assert_int_equal(mo.len, 0); /* nothing written */
  remat_graph_free(g);
}

/* --------------------------------------------------------------- memory */

typedef struct mem_ctx {
  remat_graph *g;
  const plot_schedule *s;
  int ns;
  int64_t budget;
} mem_ctx;

static int run_memory(FILE *f, void *ctx, char *err, size_t errlen) {
  mem_ctx *c = ctx;
  plot_opts o;
  plot_opts_init(&o);
  o.budget = c->budget;
  return plot_memory(f, c->g, c->s, c->ns, &o, err, errlen);
}

static void test_memory_curve(void **state) {
  (void)state;
  remat_graph *g = test_graph();
  int64_t mem[SCHED_LEN];
  remat_sim sim;
  assert_int_equal(remat_simulate(g, sched, SCHED_LEN, &sim, mem), 0);
  plot_schedule s = {"ours", sched, SCHED_LEN};
  mem_ctx c = {g, &s, 1, sim.peak + 1}; /* the schedule fits */
  int rc;
  char *svg = render(run_memory, &c, &rc);
  assert_int_equal(rc, 0);
  area a = plot_area_of(svg);
  assert_true(a.xmin == 0 && a.xmax == SCHED_LEN); /* x axis: steps */
  const char *e, *p = find_elem(svg, "polyline", "memory", &e);
  assert_non_null(p);
  assert_int_equal((int64_t)attr_num(p, e, "data-peak"), sim.peak);
  double *xs, *ys;
  int n = poly_points(p, e, &xs, &ys);
  assert_int_equal(n, 2 * SCHED_LEN);
  double tol = (a.ymax - a.ymin) / a.h * 0.011;
  for (int j = 0; j < SCHED_LEN; j++) {
    /* the step's left and right edge, both at the step's memory */
    assert_true(fabs(ys[2 * j] - ys[2 * j + 1]) < 1e-9);
    assert_true(fabs(area_value(&a, ys[2 * j]) - (double)mem[j]) < tol);
    assert_true(fabs(xs[2 * j] - (a.x + a.w * j / SCHED_LEN)) < 0.011);
    double right = a.x + a.w * (j + 1) / SCHED_LEN;
    assert_true(fabs(xs[2 * j + 1] - right) < 0.011);
  }
  const char *be, *b = find_elem(svg, "line", "budget", &be);
  assert_non_null(b);
  assert_int_equal((int64_t)attr_num(b, be, "data-budget"), c.budget);
  double by = attr_num(b, be, "y1");
  assert_true(fabs(area_value(&a, by) - (double)c.budget) < tol);
  for (int i = 0; i < n; i++) assert_true(ys[i] >= by); /* none above */
  free(xs);
  free(ys);
  free(svg);
  remat_graph_free(g);
}

static void test_memory_two_lengths(void **state) {
  (void)state;
  remat_graph *g = test_graph();
  static const int topo[] = {0, 1, 2, 3};
  plot_schedule s[2] = {{"input order", topo, 4}, {"ours", sched, SCHED_LEN}};
  mem_ctx c = {g, s, 2, -1};
  int rc;
  char *svg = render(run_memory, &c, &rc);
  assert_int_equal(rc, 0);
  area a = plot_area_of(svg);
  assert_true(a.xmin == 0 && a.xmax == 100); /* progress 0..100% */
  assert_int_equal(count_elems(svg, "polyline", "memory"), 2);
  assert_null(find_elem(svg, "line", "budget", &(const char *){NULL}));
  assert_non_null(strstr(svg, "input order: peak"));
  free(svg);
  /* an invalid schedule is named */
  static const int bad[] = {0, 1, 3};
  s[1] = (plot_schedule){"broken", bad, 3};
  svg = render(run_memory, &c, &rc);
  assert_int_equal(rc, REMAT_EUSAGE);
  free(svg);
  remat_graph_free(g);
}

/* ------------------------------------------------------------- progress */

static int run_progress(FILE *f, void *ctx, char *err, size_t errlen) {
  plot_opts o;
  plot_opts_init(&o);
  return plot_progress(f, ctx, 2, &o, err, errlen);
}

static void add_trace(remat_result *r, double t, int64_t peak, int64_t dur) {
  if (r->ntrace == r->cap_trace) {
    r->cap_trace = r->cap_trace ? 2 * r->cap_trace : 8;
    r->trace = realloc(r->trace, (size_t)r->cap_trace * sizeof *r->trace);
  }
  r->trace[r->ntrace++] = (remat_trace){t, 1, peak, dur};
}

static void test_progress_monotone(void **state) {
  (void)state;
  remat_result r[2];
  memset(r, 0, sizeof r);
  for (int i = 0; i < 2; i++) {
    snprintf(r[i].method, sizeof r[i].method, "%s", i ? "milp" : "cp");
    r[i].budget = 100;
    r[i].base_duration = 1000;
    r[i].t_total = 60;
  }
  add_trace(&r[0], 0.001, 150, 1000); /* over budget */
  add_trace(&r[0], 0.2, 120, 1010);   /* over budget */
  add_trace(&r[0], 0.5, 100, 1200);   /* fits: TDI 20% */
  add_trace(&r[0], 2.0, 90, 1100);    /* 10% */
  add_trace(&r[0], 3.0, 95, 1150);    /* fits but worse: not on the curve */
  add_trace(&r[0], 30.0, 99, 1050);   /* 5% */
  add_trace(&r[1], 5.0, 80, 1300);
  add_trace(&r[1], 40.0, 80, 1080);
  plot_run runs[2] = {{&r[0], "g", NULL}, {&r[1], "g", NULL}};
  int rc;
  char *svg = render(run_progress, runs, &rc);
  assert_int_equal(rc, 0);
  area a = plot_area_of(svg);
  assert_int_equal(count_elems(svg, "polyline", "progress"), 2);
  assert_int_equal(count_elems(svg, "circle", "over-budget"), 2);
  assert_int_equal(count_elems(svg, "circle", "improvement"), 5);
  const char *e;
  int curves = 0;
  for (const char *p = svg; (p = find_elem(p, "polyline", "progress", &e));
       p = e, curves++) {
    double *xs, *ys;
    int n = poly_points(p, e, &xs, &ys);
    assert_true(n >= 2);
    for (int i = 1; i < n; i++) {
      assert_true(xs[i] >= xs[i - 1]); /* time goes forward */
      assert_true(ys[i] >= ys[i - 1]); /* TDI never goes up */
    }
    /* the curve ends at the best TDI, at the end of the solve */
    double last = area_value(&a, ys[n - 1]);
    assert_true(fabs(last - (curves ? 8.0 : 5.0)) < 0.05);
    free(xs);
    free(ys);
  }
  assert_non_null(strstr(svg, "cp: best TDI 5.00%"));
  free(svg);
  free(r[0].trace);
  free(r[1].trace);
}

UNIT_TESTS(test_intervals_bars, test_intervals_invalid, test_memory_curve,
           test_memory_two_lengths, test_progress_monotone)

