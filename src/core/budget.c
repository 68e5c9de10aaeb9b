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

/* ------------------------------------------------------ budget lists */

/* A range's number: value / 10^scale, then its unit ("", "%", "GiB"). */
typedef struct budget_num {
  int64_t value;
  int scale;
  char unit[8];
} budget_num;

/* Parse "[blanks]digits[.digits][blanks][unit][blanks]" exactly (at most
 * 18 digits). */
static int budget_num_parse(const char *s, size_t len, budget_num *x) {
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
static int64_t budget_num_at(const budget_num *x, int scale) {
  int64_t v = x->value;
  for (int i = x->scale; i < scale; i++) {
    if (v > INT64_C(100000000000000000)) return -1;
    v *= 10;
  }
  return v;
}

/* value / 10^scale in the shortest decimal form, then unit. */
static void budget_num_print(util_buf *b, int64_t value, int scale,
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
  budget_num x[3];
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
    if ((i < 2 && !colon) || budget_num_parse(p, k, &x[i]) ||
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
  int64_t from = budget_num_at(&x[0], scale), to = budget_num_at(&x[1], scale),
          step = budget_num_at(&x[2], scale);
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
    budget_num_print(b, v, scale, x[0].unit);
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
