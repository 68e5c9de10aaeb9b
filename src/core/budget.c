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

/* A decimal number as written, "digits[.digits]": its integer digits
 * without leading zeros and its fraction digits without trailing zeros
 * (neither changes the value), so any number of digits is exact. */
typedef struct budget_num {
  const char *ip, *fp; /* integer and fraction digits */
  size_t ni, nf;
  size_t written_nf; /* fraction digits as written ("2.0": 1) */
} budget_num;

static int budget_decimal(const char *s, const char **end, budget_num *x) {
  const char *p = s;
  x->ip = p;
  while (isdigit((unsigned char)*p)) p++;
  x->ni = (size_t)(p - x->ip);
  x->fp = p;
  x->nf = 0;
  if (*p == '.') {
    x->fp = ++p;
    while (isdigit((unsigned char)*p)) p++;
    x->nf = (size_t)(p - x->fp);
  }
  if (!x->ni && !x->nf) return -1;
  *end = p;
  x->written_nf = x->nf;
  while (x->ni && *x->ip == '0') x->ip++, x->ni--;
  while (x->nf && x->fp[x->nf - 1] == '0') x->nf--;
  return 0;
}

/* The value of the integer digits, or -1 past INT64_MAX. */
static int64_t budget_integer(const budget_num *x) {
  if (x->ni > 19) return -1;
  unsigned __int128 v = 0;
  for (size_t i = 0; i < x->ni; i++) v = v * 10 + (unsigned)(x->ip[i] - '0');
  return v > INT64_MAX ? -1 : (int64_t)v;
}

/* Digit k (0: the first) after the decimal point of x / 10^shift. */
static int budget_frac_digit(const budget_num *x, size_t shift, size_t k) {
  if (k < shift) { /* one of the integer digits moved past the point */
    size_t back = shift - k; /* 1: the last integer digit */
    return back <= x->ni ? x->ip[x->ni - back] - '0' : 0;
  }
  k -= shift;
  return k < x->nf ? x->fp[k] - '0' : 0;
}

/* floor(m * frac(x / 10^shift)) exactly, for 0 <= m < 2^63, with every
 * fraction digit: from the last digit d_k up, F_k = m d_k + floor(F_{k+1}
 * / 10) is floor(m (d_k + 0.d_{k+1}...)), since floor(floor(t) / 10) =
 * floor(t / 10); the answer is floor(F_0 / 10).  F stays below 10 m, so
 * 128 bits never overflow. */
static int64_t budget_frac_times(const budget_num *x, size_t shift,
                                 int64_t m) {
  size_t n = shift + x->nf;
  unsigned __int128 f = 0;
  for (size_t k = n; k-- > 0;)
    f = (unsigned __int128)m * (unsigned)budget_frac_digit(x, shift, k) + f / 10;
  return (int64_t)(f / 10);
}

/* x / 10^shift compared with 1: -1 below (and above 0), 0 equal, 1 above;
 * -2 for zero. */
static int budget_vs_one(const budget_num *x, size_t shift) {
  if (!x->ni && !x->nf) return -2;
  if (x->ni <= shift) return -1;       /* no integer part */
  if (x->ni > shift + 1) return 1;     /* at least 10 */
  if (x->ip[0] != '1' || x->nf) return 1; /* x->ip[0] is not 0 */
  for (size_t i = 1; i < x->ni; i++)
    if (x->ip[i] != '0') return 1;
  return 0;
}

/* floor(f * topo_peak) for the fraction f = x / 10^shift in (0, 1].
 * Below 2^53 in double precision, as the reference (and the paper's code)
 * computes it, so budgets match theirs to the byte (f is at most 1, so the
 * product fits); beyond that a double cannot hold the peak, and the floor
 * is exact. */
static int64_t budget_fraction(const char *s, const budget_num *x,
                               size_t shift, int64_t topo_peak) {
  if (topo_peak < (INT64_C(1) << 53)) {
    double f = strtod(s, NULL) / (shift ? 100.0 : 1.0);
    return (int64_t)floor(f * (double)topo_peak);
  }
  if (!budget_vs_one(x, shift)) return topo_peak;
  return budget_frac_times(x, shift, topo_peak);
}

/* value x (bytes in units of `factor`): floor(x * factor), or -1 past
 * INT64_MAX. */
static int64_t budget_size(const budget_num *x, int64_t factor) {
  int64_t i = budget_integer(x);
  if (i < 0) return -1;
  __int128 v = (__int128)i * factor + budget_frac_times(x, 0, factor);
  return v > INT64_MAX ? -1 : (int64_t)v;
}

int remat_budget_parse(const char *text, int64_t topo_peak, int64_t *budget,
                       char *err, size_t errlen) {
  const char *s = text;
  while (isspace((unsigned char)*s)) s++;
  if (*s == '-')
    return util_err(err, errlen, REMAT_EUSAGE,
                    "budget '%s' must be positive", text);
  budget_num x;
  const char *rest;
  if (budget_decimal(s, &rest, &x))
    return util_err(err, errlen, REMAT_EUSAGE,
                    "cannot parse budget '%s' (use 0.9, 90%%, 41687 or "
                    "12GiB)",
                    text);
  while (isspace((unsigned char)*rest)) rest++;
  if (*rest == '%' || !*rest) {
    /* a percentage, a fraction, or a plain integer size */
    int pct = *rest == '%';
    if (pct && rest[1])
      return util_err(err, errlen, REMAT_EUSAGE,
                      "cannot parse budget '%s'", text);
    if (!pct && !x.written_nf && budget_vs_one(&x, 0) > 0) {
      /* an absolute size in bytes */
      int64_t v = budget_integer(&x);
      if (v < 0)
        return util_err(err, errlen, REMAT_EUSAGE,
                        "budget '%s' does not fit in 64 bits", text);
      *budget = v;
      return 0;
    }
    size_t shift = pct ? 2 : 0;
    int vs = budget_vs_one(&x, shift);
    if (vs == -2 || vs > 0)
      return util_err(err, errlen, REMAT_EUSAGE,
                      "budget '%s': a fraction must be in (0, 1] and a "
                      "percentage in (0, 100]; absolute sizes are integers "
                      "or carry a unit (12GiB)",
                      text);
    /* may be 0 on a graph with a tiny peak: the methods' precheck then
     * reports it infeasible (remat_result_precheck) */
    *budget = budget_fraction(s, &x, shift, topo_peak);
    return 0;
  }
  char u[8];
  size_t k = 0;
  while (*rest && !isspace((unsigned char)*rest) && k + 1 < sizeof u)
    u[k++] = *rest++;
  u[k] = 0;
  while (isspace((unsigned char)*rest)) rest++;
  if (*rest)
    return util_err(err, errlen, REMAT_EUSAGE,
                    "cannot parse budget '%s'", text);
  for (size_t i = 0; i < sizeof budget_units / sizeof *budget_units; i++) {
    if (strcasecmp(u, budget_units[i].name)) continue;
    int64_t v = budget_size(&x, budget_units[i].factor);
    if (v < 0)
      return util_err(err, errlen, REMAT_EUSAGE,
                      "budget '%s' does not fit in 64 bits", text);
    if (v == 0)
      return util_err(err, errlen, REMAT_EUSAGE,
                      "budget '%s' must be positive", text);
    *budget = v;
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
