/* unit_shares.c -- the portfolio's table of time shares (shares.h): every
 * share within its range, the range within [0, 1], names unique. */
#include <string.h>

#include "testutil.h"

#include "shares.h"

static void test_shares_in_range(void **state) {
  (void)state;
  for (int i = 0; i < SHARE_COUNT; i++) {
    const share_def *d = share_row((share_id)i);
    if (!(0 <= d->min && d->min <= d->value && d->value <= d->max && d->max <= 1))
      fail_msg("share %s: %g outside [%g, %g] or [0, 1]", d->name, d->value, d->min, d->max);
    assert_true(d->what && d->what[0]);
    assert_true(time_share((share_id)i) == d->value);
  }
}

static void test_shares_named_once(void **state) {
  (void)state;
  for (int i = 0; i < SHARE_COUNT; i++)
    for (int j = i + 1; j < SHARE_COUNT; j++)
      assert_true(strcmp(share_row((share_id)i)->name, share_row((share_id)j)->name));
}

UNIT_TESTS(test_shares_in_range, test_shares_named_once)
