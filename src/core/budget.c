/* budget.c -- parsing budgets: fractions, percentages, absolute sizes. */
#include "budget.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util.h"

typedef struct unit {
  const char *name;
  int64_t factor;
} unit;

static const unit budget_units[] = {
    {"b", 1},
    {"kb", 1000},
    {"mb", 1000000},
    {"gb", 1000000000},
    {"tb", 1000000000000},
    {"kib", 1024},
    {"mib", 1024 * 1024},
    {"gib", 1024 * 1024 * 1024},
    {"tib", 1024LL * 1024 * 1024 * 1024},
};

/* Parse "digits[.digits]" exactly into mantissa / 10^scale. */
static int budget_decimal(const char *s, const char **end, __int128 *mant,
                          int *scale) {
  __int128 v = 0;
  int digits = 0, sc = 0, dot = 0;
  const char *p = s;
  for (; *p; p++) {
    if (*p == '.' && !dot) {
      dot = 1;
      continue;
    }
    if (!isdigit((unsigned char)*p)) break;
    if (digits >= 30) return -1;
    v = v * 10 + (*p - '0');
    digits++;
    if (dot) sc++;
  }
  if (!digits) return -1;
  *mant = v;
  *scale = sc;
  *end = p;
  return 0;
}

/* floor(f * peak).  Below 2^53 in double precision, as the reference (and
   the paper's code) computes it, so budgets match theirs to the byte; beyond
   that a double cannot hold the peak, and the floor is taken exactly from
   the decimal text (mant / 10^scale) in 128-bit integers. */
static int64_t budget_fraction(double f, __int128 mant, int scale,
                               int64_t topo_peak) {
  if (topo_peak < (1LL << 53)) return (int64_t)floor(f * (double)topo_peak);
  if (scale > 18)
    return (int64_t)floorl((long double)f * (long double)topo_peak);
  __int128 den = 1;
  for (int i = 0; i < scale; i++) den *= 10;
  return (int64_t)(mant * topo_peak / den);
}

int remat_budget_parse(const char *text, int64_t topo_peak, int64_t *budget,
                       char *err, size_t errlen) {
  const char *s = text;
  while (isspace((unsigned char)*s)) s++;
  if (*s == '-')
    return util_err(err, errlen, REMAT_EUSAGE,
                    "budget '%s' must be positive", text);
  __int128 mant;
  int scale;
  const char *rest;
  if (budget_decimal(s, &rest, &mant, &scale))
    return util_err(err, errlen, REMAT_EUSAGE,
                    "cannot parse budget '%s' (use 0.9, 90%%, 41687 or "
                    "12GiB)",
                    text);
  while (isspace((unsigned char)*rest)) rest++;
  __int128 pow10 = 1;
  for (int i = 0; i < scale; i++) pow10 *= 10;
  if (*rest == '%' || !*rest) {
    /* a percentage, a fraction, or a plain integer size */
    int pct = *rest == '%';
    if (pct && rest[1])
      return util_err(err, errlen, REMAT_EUSAGE,
                      "cannot parse budget '%s'", text);
    double f = strtod(s, NULL);
    if (pct) f /= 100.0;
    if (!pct && scale == 0 && mant > 1) { /* absolute size in bytes */
      if (mant > INT64_MAX)
        return util_err(err, errlen, REMAT_EUSAGE,
                        "budget '%s' does not fit in 64 bits", text);
      *budget = (int64_t)mant;
      return 0;
    }
    if (!(f > 0) || f > 1.0)
      return util_err(err, errlen, REMAT_EUSAGE,
                      "budget '%s': a fraction must be in (0, 1] and a "
                      "percentage in (0, 100]; absolute sizes are integers "
                      "or carry a unit (12GiB)",
                      text);
    /* may be 0 on a graph with a tiny peak: the methods' precheck then
     * reports it infeasible (remat_result_precheck) */
    *budget = budget_fraction(f, mant, scale + (pct ? 2 : 0), topo_peak);
    return 0;
  }
  char u[8];
  size_t k = 0;
  while (*rest && !isspace((unsigned char)*rest) && k + 1 < sizeof u)
    u[k++] = *rest++;
  u[k] = 0;
  while (isspace((unsigned char)*rest)) rest++;
  for (size_t i = 0; i < sizeof budget_units / sizeof *budget_units; i++) {
    if (strcasecmp(u, budget_units[i].name) || *rest) continue;
    __int128 v = mant * budget_units[i].factor / pow10;
    if (v > INT64_MAX)
      return util_err(err, errlen, REMAT_EUSAGE,
                      "budget '%s' does not fit in 64 bits", text);
    if (v <= 0)
      return util_err(err, errlen, REMAT_EUSAGE,
                      "budget '%s' must be positive", text);
    *budget = (int64_t)v;
    return 0;
  }
  return util_err(err, errlen, REMAT_EUSAGE,
                  "budget '%s': unknown unit '%s' (B, KB, MB, GB, TB, KiB, "
                  "MiB, GiB, TiB)",
                  text, u);
}

void remat_format_size(int64_t bytes, char *buf, size_t len) {
  static const char *names[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  if (bytes < 1024 && bytes > -1024) {
    snprintf(buf, len, "%lld B", (long long)bytes);
    return;
  }
  double v = (double)bytes;
  int k = 0;
  while ((v >= 1024 || v <= -1024) && k < 5) {
    v /= 1024;
    k++;
  }
  snprintf(buf, len, "%.1f %s", v, names[k]);
}

int budget_split(const char *list, char **items, int max, char **storage) {
  char *copy = util_strdup(list);
  *storage = copy;
  int n = 0;
  for (char *tok = strtok(copy, ","); tok; tok = strtok(NULL, ",")) {
    if (n == max) return -1;
    items[n++] = tok;
  }
  return n;
}
