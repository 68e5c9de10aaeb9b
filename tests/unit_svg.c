/* unit_svg.c -- the SVG writer (svg.c): escaping, nice steps, ticks and
 * their labels on linear and log axes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "svg.h"

static void test_svg_escape(void **state) {
  (void)state;
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  svg_escape(f, "a&b<c>\"d'e\x01 \xc3\xa9 \xff\xc3x\xed\xa0\x80");
  fclose(f);
  /* UTF-8 is kept, invalid bytes and control characters become '?' */
  assert_string_equal(buf, "a&amp;b&lt;c&gt;&quot;d&apos;e? \xc3\xa9 ??x???");
  free(buf);
}

static void test_svg_ticks(void **state) {
  (void)state;
  assert_true(svg_nice_step(3) == 5);
  assert_true(svg_nice_step(1.2) == 2);
  assert_true(fabs(svg_nice_step(0.03) - 0.05) < 1e-12);
  assert_true(svg_nice_step(70) == 100);
  /* bytes: 1-2-5 steps in KiB, labels with the unit */
  svg_axis a = svg_axis_make(0, 150000, 400, 0, 0, SVG_UNIT_BYTES);
  svg_axis_nice(&a, 50, 1);
  assert_true(fmod(a.step, 1024) == 0);
  double t[64];
  int n = svg_axis_ticks(&a, t, 64);
  assert_true(n >= 4 && n <= 9);
  char lab[64];
  svg_tick_label(&a, t[1], lab, sizeof lab);
  assert_non_null(strstr(lab, " KiB"));
  svg_tick_label(&a, 0, lab, sizeof lab);
  assert_string_equal(lab, "0");
  /* seconds, log: decades */
  svg_axis l = svg_axis_make(0.004, 37, 0, 800, 1, SVG_UNIT_SECONDS);
  svg_axis_nice(&l, 40, 1);
  n = svg_axis_ticks(&l, t, 64);
  assert_int_equal(n, 6);
  const char *want[] = {"0.001", "0.01", "0.1", "1", "10", "100"};
  for (int i = 0; i < n; i++) {
    svg_tick_label(&l, t[i], lab, sizeof lab);
    assert_string_equal(lab, want[i]);
  }
}

UNIT_TESTS(test_svg_escape, test_svg_ticks)
