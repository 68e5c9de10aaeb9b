/* unit_budget_parse.c -- remat_budget_parse: exact budgets for fractions,
 * percentages and sizes with any number of digits, and the exact message
 * for every kind of bad budget, including values past 64 bits (which must
 * be refused, not wrapped: make check SANITIZE=1 runs this under UBSan);
 * the published graphs' budgets and remat_format_size. */
#include <stdio.h>
#include <string.h>

#include "testutil.h"

#include "remat.h"

#define MAX INT64_C(9223372036854775807)
#define P53 (INT64_C(1) << 53)
#define P60 (INT64_C(1) << 60)
#define P62 (INT64_C(1) << 62)

/* head, n zeros, tail ("0." 40 zeros "1") */
static const char *zeros(int n, const char *head, const char *tail) {
  static char buf[8][256];
  static int k;
  char *b = buf[k++ % 8];
  snprintf(b, sizeof buf[0], "%s%0*d%s", head, n, 0, tail);
  return b;
}

static void test_budget_ok(void **state) {
  (void)state;
  struct {
    const char *text;
    int64_t topo, want;
  } ok[] = {
      /* fractions: floor(f * topo peak), in doubles below 2^53 as the
       * reference computes them */
      {"0.9", 46319, 41687},
      {"0.8", 46319, 37055},
      {".5", 10, 5},
      {"0.5", 1001, 500},
      {"1", 777, 777},
      {"1.", 777, 777},
      {"1.0", 777, 777},
      {"1.000000000000000000000000000000000000000000", 777, 777},
      {"0.9", 38059356160LL, 34253420544LL},
      /* percentages */
      {"90%", 46319, 41687},
      {"50 %", 1001, 500},
      {"100%", 777, 777},
      {"100.000%", 777, 777},
      /* a fraction that floors to 0 is a budget of 0 (the methods then
       * report it infeasible) */
      {"0.01", 99, 0},
      {"0.0000000000000000000000000000000000000000001", 1000, 0},
      /* below 2^53 a fraction just under 1 rounds to 1 in a double, as in
       * the reference */
      {"0.9999999999999999999999999999999999999999", 1000, 1000},
      /* from 2^53 on the floor is exact, with any number of digits:
       * 0.7 * 25263477133203963 = 17684433993242774.1 */
      {"0.7", 25263477133203963LL, 17684433993242774LL},
      {"70%", 25263477133203963LL, 17684433993242774LL},
      {"0.333", P53 + 1, 2999397351828750LL},
      {"12.5%", P62, P62 / 8},
      {"1", 25263477133203963LL, 25263477133203963LL},
      {"1", MAX, MAX},
      {"100%", MAX, MAX},
      {"0.5", MAX, MAX / 2},
      {"0.1234567890123456789012345678901234567890", MAX, 1138687895536349070LL},
      {"99.99999999999999999999999999999999999999%", MAX, MAX - 1},
      {"0.9999999999999999999999999999999999999999", P60, P60 - 1},
      {"0.0000000000000000000000000000000000000000001", P62, 0},
      /* plain integers of 2 or more are sizes in bytes */
      {"2", 777, 2},
      {"2.", 777, 2},
      {"41687", 46319, 41687},
      {"0042", 1, 42},
      {"9223372036854775807", 1, MAX},
      /* sizes with a unit: floor(value x unit), exact */
      {"12GiB", 1, 12884901888LL},
      {" 12gib ", 1, 12884901888LL},
      {"11.3GB", 1, 11300000000LL},
      {"512MiB", 1, 536870912},
      {"1.5 KiB", 1, 1536},
      {"0.5KiB", 1, 512},
      {"0.0009765625KiB", 1, 1},
      {"9223372036854775807B", 1, MAX},
      {"8388607.99999999999999TiB", 1, MAX},
      {"8388607.9999999999999999999999999999999999999999TiB", 1, MAX},
  };
  char err[512];
  for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
    int64_t b = -7;
    if (remat_budget_parse(ok[i].text, ok[i].topo, &b, err, sizeof err))
      fail_msg("'%s': %s", ok[i].text, err);
    if (b != ok[i].want)
      fail_msg("'%s' of %lld: got %lld want %lld", ok[i].text,
               (long long)ok[i].topo, (long long)b, (long long)ok[i].want);
  }
  /* 40 zeros before the digits, or after the point */
  struct {
    const char *text;
    int64_t topo, want;
  } zs[] = {
      {zeros(40, "", "42"), 1, 42},
      {zeros(40, "", "42MiB"), 1, 42 << 20},
      {zeros(40, "0.", "1"), 1000, 0},
      {zeros(40, "0.", "1"), MAX, 0},
      {zeros(40, "", "1"), MAX, MAX}, /* the fraction 1 */
  };
  for (size_t i = 0; i < sizeof zs / sizeof *zs; i++) {
    int64_t b = -7;
    if (remat_budget_parse(zs[i].text, zs[i].topo, &b, err, sizeof err))
      fail_msg("'%s': %s", zs[i].text, err);
    if (b != zs[i].want)
      fail_msg("'%s': got %lld want %lld", zs[i].text, (long long)b,
               (long long)zs[i].want);
  }
}

#define FRACTION                                                            \
  "': a fraction must be in (0, 1] and a percentage in (0, 100]; absolute " \
  "sizes are integers or carry a unit (12GiB)"
#define UNITS "' (B, KB, MB, GB, TB, KiB, MiB, GiB, TiB)"

static void test_budget_bad(void **state) {
  (void)state;
  struct {
    const char *text, *msg;
  } bad[] = {
      {"", "cannot parse budget '' (use 0.9, 90%, 41687 or 12GiB)"},
      {"abc", "cannot parse budget 'abc' (use 0.9, 90%, 41687 or 12GiB)"},
      {".", "cannot parse budget '.' (use 0.9, 90%, 41687 or 12GiB)"},
      {"+3", "cannot parse budget '+3' (use 0.9, 90%, 41687 or 12GiB)"},
      {"-3", "budget '-3' must be positive"},
      {" -0.5", "budget ' -0.5' must be positive"},
      {"0", "budget '0" FRACTION},
      {"0.0", "budget '0.0" FRACTION},
      {"0%", "budget '0%" FRACTION},
      {"1.5", "budget '1.5" FRACTION},
      {"2.0", "budget '2.0" FRACTION},
      {"120%", "budget '120%" FRACTION},
      {"1.0000000000000000000000000000000000000001",
       "budget '1.0000000000000000000000000000000000000001" FRACTION},
      {"100.0000000000000000000001%",
       "budget '100.0000000000000000000001%" FRACTION},
      {"50%%", "cannot parse budget '50%%'"},
      {"12GiB x", "cannot parse budget '12GiB x'"},
      {"9223372036854775808", "budget '9223372036854775808' does not fit in 64 bits"},
      {"99999999999999999999", "budget '99999999999999999999' does not fit in 64 bits"},
      {"9223372036854775808B", "budget '9223372036854775808B' does not fit in 64 bits"},
      {"8388608TiB", "budget '8388608TiB' does not fit in 64 bits"},
      {"8388608.0000000000000000000000000000000000000001TiB",
       "budget '8388608.0000000000000000000000000000000000000001TiB' does not "
       "fit in 64 bits"},
      {"9223372036.854775808GB",
       "budget '9223372036.854775808GB' does not fit in 64 bits"},
      /* a 128-bit product of mantissa and unit would wrap to 5 TiB */
      {"309485009821345068724781061TiB",
       "budget '309485009821345068724781061TiB' does not fit in 64 bits"},
      {"0B", "budget '0B' must be positive"},
      {"0.0009765624KiB", "budget '0.0009765624KiB' must be positive"},
      {"3 parsecs", "budget '3 parsecs': unknown unit 'parsecs" UNITS},
      {"1e9", "budget '1e9': unknown unit 'e9" UNITS},
  };
  char err[512];
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    int64_t b = -7;
    int rc = remat_budget_parse(bad[i].text, 1000, &b, err, sizeof err);
    if (rc != REMAT_EUSAGE) fail_msg("'%s': rc %d, budget %lld", bad[i].text, rc, (long long)b);
    if (strcmp(err, bad[i].msg))
      fail_msg("'%s': got\n  %s\nwant\n  %s", bad[i].text, err, bad[i].msg);
    if (b != -7) fail_msg("'%s': the budget was written", bad[i].text);
  }
  /* below one byte, after 40 zeros */
  const char *tiny = zeros(40, "0.", "1TiB");
  char want[256];
  snprintf(want, sizeof want, "budget '%s' must be positive", tiny);
  int64_t b;
  assert_int_equal(remat_budget_parse(tiny, 1, &b, err, sizeof err), REMAT_EUSAGE);
  assert_string_equal(err, want);
  /* exactly INT64_MAX GB fits; one more byte does not */
  assert_int_equal(remat_budget_parse("9223372036.854775807GB", 1, &b, err,
                                      sizeof err),
                   0);
  assert_true(b == MAX);
}

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

UNIT_TESTS(test_budget_ok, test_budget_bad, test_budget_parse)
