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

/* ------------------------------------------------------ budget lists */

/* A range's number: value / 10^scale, then its unit ("", "%", "GiB"). */
typedef struct budget_rnum {
  int64_t value;
  int scale;
  char unit[8];
} budget_rnum;

/* Parse "[blanks]digits[.digits][blanks][unit][blanks]" exactly (at most
 * 18 digits). */
static int budget_rnum_parse(const char *s, size_t len, budget_rnum *x) {
  size_t i = 0, k = 0;
  int digits = 0, dot = 0;
  memset(x, 0, sizeof *x);
  while (i < len && isspace((unsigned char)s[i])) i++;
  for (; i < len; i++) {
    if (s[i] == '.' && !dot) {
      dot = 1;
      continue;
    }
    if (!isdigit((unsigned char)s[i])) break;
    if (++digits > 18) return -1;
    x->value = x->value * 10 + (s[i] - '0');
    if (dot) x->scale++;
  }
  if (!digits) return -1;
  while (i < len && isspace((unsigned char)s[i])) i++;
  while (i < len && !isspace((unsigned char)s[i])) {
    if (k + 1 >= sizeof x->unit || isdigit((unsigned char)s[i]) || s[i] == '.')
      return -1;
    x->unit[k++] = s[i++];
  }
  while (i < len && isspace((unsigned char)s[i])) i++;
  return i == len ? 0 : -1;
}

/* x rescaled to `scale` decimals (scale >= x->scale); -1 past 10^18. */
static int64_t budget_rnum_at(const budget_rnum *x, int scale) {
  int64_t v = x->value;
  for (int i = x->scale; i < scale; i++) {
    if (v > INT64_C(100000000000000000)) return -1;
    v *= 10;
  }
  return v;
}

/* value / 10^scale in the shortest decimal form, then unit. */
static void budget_rnum_print(util_buf *b, int64_t value, int scale,
                             const char *unit) {
  int64_t p = 1;
  for (int i = 0; i < scale; i++) p *= 10;
  int64_t frac = value % p;
  util_buf_printf(b, "%lld", (long long)(value / p));
  if (frac) {
    while (frac % 10 == 0) {
      frac /= 10;
      scale--;
    }
    util_buf_printf(b, ".%0*lld", scale, (long long)frac);
  }
  util_buf_puts(b, unit);
}

/* Append the items of the range text[0..len) (in list) to b (each followed by a NUL
 * byte); *n counts them.  0, or -1 with a message. */
static int budget_range(const char *list, const char *text, size_t len,
                        util_buf *b, int *n, int max, char *err,
                        size_t errlen) {
  budget_rnum x[3];
  const char *p = text;
  for (int i = 0; i < 3; i++) {
    const char *colon = i < 2 ? memchr(p, ':', len - (size_t)(p - text)) : NULL;
    size_t k = colon ? (size_t)(colon - p) : len - (size_t)(p - text);
    size_t lead = 0;
    while (i == 2 && lead < k && isspace((unsigned char)p[lead])) lead++;
    if (i == 2 && lead < k && p[lead] == '-')
      return util_err(err, errlen, -1,
                      "budget range '%.*s': STEP must be positive (the "
                      "direction is FROM's to TO's)",
                      (int)len, text);
    if ((i < 2 && !colon) || budget_rnum_parse(p, k, &x[i]) ||
        (i == 2 && memchr(p, ':', k)))
      return util_err(err, errlen, -1,
                      "budget range '%.*s': expected FROM:TO:STEP, three "
                      "non-negative numbers (e.g. 1.0:0.5:0.1 or 90%%:60%%:10%%)",
                      (int)len, text);
    p += k + 1;
  }
  if (strcasecmp(x[0].unit, x[1].unit) || strcasecmp(x[0].unit, x[2].unit))
    return util_err(err, errlen, -1,
                    "budget range '%.*s': FROM, TO and STEP need the same unit",
                    (int)len, text);
  int scale = x[0].scale;
  for (int i = 1; i < 3; i++)
    if (x[i].scale > scale) scale = x[i].scale;
  int64_t from = budget_rnum_at(&x[0], scale), to = budget_rnum_at(&x[1], scale),
          step = budget_rnum_at(&x[2], scale);
  if (from < 0 || to < 0 || step < 0)
    return util_err(err, errlen, -1,
                    "budget range '%.*s': too many digits", (int)len, text);
  if (step == 0)
    return util_err(err, errlen, -1,
                    "budget range '%.*s': STEP must be positive (the direction "
                    "is FROM's to TO's)",
                    (int)len, text);
  int64_t span = from > to ? from - to : to - from, count = span / step + 1;
  if (count > max - *n)
    return util_err(err, errlen, -1,
                    "budget list '%s' has more than %d items (the range "
                    "'%.*s' alone has %lld)",
                    list, max, (int)len, text, (long long)count);
  for (int64_t i = 0; i < count; i++) {
    int64_t v = from > to ? from - i * step : from + i * step;
    budget_rnum_print(b, v, scale, x[0].unit);
    util_buf_putc(b, 0);
    (*n)++;
  }
  return 0;
}

int budget_split(const char *list, char **items, int max, char **storage,
                 char *err, size_t errlen) {
  util_buf b = {0};
  int n = 0;
  const char *p = list;
  *storage = NULL;
  for (;;) {
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    while (len && isspace((unsigned char)*p)) p++, len--;
    while (len && isspace((unsigned char)p[len - 1])) len--;
    int rc = 0;
    if (!len)
      rc = util_err(err, errlen, -1,
                    "budget list '%s' has an empty item (write items without "
                    "blanks between them, e.g. 0.9,0.8)",
                    list);
    else if (memchr(p, ':', len))
      rc = budget_range(list, p, len, &b, &n, max, err, errlen);
    else if (n == max)
      rc = util_err(err, errlen, -1, "budget list '%s' has more than %d items",
                    list, max);
    else {
      for (size_t i = 0; i < len; i++) util_buf_putc(&b, p[i]);
      util_buf_putc(&b, 0);
      n++;
    }
    if (rc) {
      util_buf_free(&b);
      return -1;
    }
    if (!comma) break;
    p = comma + 1;
  }
  const char *s = b.s;
  for (int i = 0; i < n; i++) {
    items[i] = (char *)s;
    s += strlen(s) + 1;
  }
  *storage = b.s;
  return n;
}
