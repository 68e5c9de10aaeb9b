/* unit_budget.c -- budget lists (budget_split): plain items, ranges
 * FROM:TO:STEP both ways with the end included when a step reaches it,
 * exact decimal items in their shortest form, percentages and sizes with
 * units, items and ranges mixed, and every malformed list with its
 * message (empty items, bad ranges, STEP not positive, too many items). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "budget.h"
#include "util.h"

/* The items of list joined by spaces, or "ERROR: message". */
static char *split(const char *list, int max) {
  char *items[64], *storage, err[256];
  util_buf b = {0};
  util_buf_puts(&b, "");
  assert_true(max <= 64);
  int n = budget_split(list, items, max, &storage, err, sizeof err);
  if (n < 0) {
    assert_null(storage);
    util_buf_printf(&b, "ERROR: %s", err);
    return b.s;
  }
  assert_true(n >= 1);
  for (int i = 0; i < n; i++) util_buf_printf(&b, i ? " %s" : "%s", items[i]);
  free(storage);
  return b.s;
}

static void test_budget_lists(void **state) {
  (void)state;
  static const struct {
    const char *list, *want;
  } cases[] = {
      {"0.9", "0.9"},
      {"0.9,0.8", "0.9 0.8"},
      {" 0.9 , 90% ,12GiB", "0.9 90% 12GiB"},
      {"1.0:0.3:0.05", "1 0.95 0.9 0.85 0.8 0.75 0.7 0.65 0.6 0.55 0.5 0.45 0.4 0.35 0.3"},
      {"0.3:0.5:0.1", "0.3 0.4 0.5"},
      {"1.0:0.5:0.2", "1 0.8 0.6"}, /* 0.4 would pass the end */
      {"0.8:0.8:0.1", "0.8"},
      {"0.9,0.8:0.6:0.1", "0.9 0.8 0.7 0.6"},
      {"0.95:0.9:0.025,0.5", "0.95 0.925 0.9 0.5"},
      {"90%:60%:10%", "90% 80% 70% 60%"},
      {"12GiB:8GiB:1.5GiB", "12GiB 10.5GiB 9GiB"},
      {"30000:25000:2500", "30000 27500 25000"},
      {"0.1:0.3:0.1", "0.1 0.2 0.3"}, /* exact: no 0.30000000000000004 */
      {"1:0.1:0.3", "1 0.7 0.4 0.1"},
      {"", "ERROR: budget list '' has an empty item (write items without blanks between them, e.g. 0.9,0.8)"},
      {"0.9,", "ERROR: budget list '0.9,' has an empty item (write items without blanks between them, e.g. 0.9,0.8)"},
      {"0.9,,0.8", "ERROR: budget list '0.9,,0.8' has an empty item (write items without blanks between them, e.g. 0.9,0.8)"},
      {",0.9", "ERROR: budget list ',0.9' has an empty item (write items without blanks between them, e.g. 0.9,0.8)"},
      {"1.0:0.3", "ERROR: budget range '1.0:0.3': expected FROM:TO:STEP, three non-negative numbers (e.g. 1.0:0.5:0.1 or 90%:60%:10%)"},
      {"1.0:0.3:0.1:0.1", "ERROR: budget range '1.0:0.3:0.1:0.1': expected FROM:TO:STEP, three non-negative numbers (e.g. 1.0:0.5:0.1 or 90%:60%:10%)"},
      {"a:0.3:0.1", "ERROR: budget range 'a:0.3:0.1': expected FROM:TO:STEP, three non-negative numbers (e.g. 1.0:0.5:0.1 or 90%:60%:10%)"},
      {"-1:0.3:0.1", "ERROR: budget range '-1:0.3:0.1': expected FROM:TO:STEP, three non-negative numbers (e.g. 1.0:0.5:0.1 or 90%:60%:10%)"},
      {"1.0:0.3:0", "ERROR: budget range '1.0:0.3:0': STEP must be positive (the direction is FROM's to TO's)"},
      {"1.0:0.3:-0.1", "ERROR: budget range '1.0:0.3:-0.1': STEP must be positive (the direction is FROM's to TO's)"},
      {"90%:0.6:10%", "ERROR: budget range '90%:0.6:10%': FROM, TO and STEP need the same unit"},
      {"12GiB:8GB:1GiB", "ERROR: budget range '12GiB:8GB:1GiB': FROM, TO and STEP need the same unit"},
      {"1:0:0.0001", "ERROR: budget list '1:0:0.0001' has more than 64 items (the range '1:0:0.0001' alone has 10001)"},
      {"999999999999999999:1:0.1", "ERROR: budget range '999999999999999999:1:0.1': too many digits"},
      {"1234567890123456789:1:1", "ERROR: budget range '1234567890123456789:1:1': expected FROM:TO:STEP, three non-negative numbers (e.g. 1.0:0.5:0.1 or 90%:60%:10%)"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *got = split(cases[i].list, 64);
    if (strcmp(got, cases[i].want))
      fail_msg("'%s': got '%s', expected '%s'", cases[i].list, got, cases[i].want);
    free(got);
  }
  /* the limit counts plain items and range items together */
  char *got = split("0.9,0.8,0.7", 2);
  assert_string_equal(got, "ERROR: budget list '0.9,0.8,0.7' has more than 2 items");
  free(got);
  got = split("0.9,0.8:0.6:0.1", 3);
  assert_string_equal(got, "ERROR: budget list '0.9,0.8:0.6:0.1' has more than 3 items (the range '0.8:0.6:0.1' alone has 3)");
  free(got);
}

UNIT_TESTS(test_budget_lists)
