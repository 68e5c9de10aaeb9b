/* unit_budget.c -- budgets (budget.c): fractions, percentages, bytes
 * and units, exact past 2^53; rejected texts; sizes printed. */
#include <stdint.h>

#include "testutil.h"

#include "remat.h"

static void test_budget_parse(void **state) {
  (void)state;
  char err[256];
  int64_t b;
  static const struct {
    const char *text;
    int64_t topo, want;
  } ok[] = {
      {"0.9", 46319, 41687},     {"90%", 46319, 41687},
      {"0.8", 46319, 37055},     {"41687", 46319, 41687},
      {"12GiB", 1, 12884901888LL}, {"11.3GB", 1, 11300000000LL},
      {"512MiB", 1, 536870912},  {"1.5 KiB", 1, 1536},
      {"1", 777, 777},           {"100%", 777, 777},
      {"0.9", 38059356160LL, 34253420544LL},
      /* beyond 2^53 the floor is exact: 0.7 * 25263477133203963 =
         17684433993242774.1 (a double product gives ...772 or ...774) */
      {"0.7", 25263477133203963LL, 17684433993242774LL},
      {"70%", 25263477133203963LL, 17684433993242774LL},
      {"1", 25263477133203963LL, 25263477133203963LL},
      {"0.5", INT64_MAX, INT64_MAX / 2},
  };
  for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
    if (remat_budget_parse(ok[i].text, ok[i].topo, &b, err, sizeof err))
      fail_msg("'%s': %s", ok[i].text, err);
    if (b != ok[i].want)
      fail_msg("'%s': got %lld want %lld", ok[i].text, (long long)b,
               (long long)ok[i].want);
  }
  static const char *bad[] = {"", "abc", "-3", "1.5", "0", "120%", "3 parsecs",
                              "99999999999999999999"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    if (!remat_budget_parse(bad[i], 1000, &b, err, sizeof err))
      fail_msg("'%s' should be rejected", bad[i]);
  char buf[32];
  remat_format_size(34253420544LL, buf, sizeof buf);
  assert_string_equal(buf, "31.9 GiB");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_budget_parse),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
