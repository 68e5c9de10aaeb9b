/* options.c -- the option table's parser, checker and help printer. */
#include "options.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static const cli_opt cli_table[] = {
#define O(field, lname, sname, type, def, meta, cmds, values, help) \
  {lname, sname, CLI_##type, meta, cmds, values, help, offsetof(cli_opts, field)},
    CLI_OPTIONS
#undef O
};
#define CLI_NOPTS (sizeof cli_table / sizeof *cli_table)

/* Where a row's "given" flag is in cli_opts (the same order as the
 * values). */
static const size_t cli_set_off[] = {
#define O(field, lname, sname, type, def, meta, cmds, values, help) \
  offsetof(cli_opts, field##_set),
    CLI_OPTIONS
#undef O
};

/* ---------------------------------------------------------- intervals */

/* An interval "[lo, hi]", "(lo, hi]", ... */
typedef struct cli_interval {
  double lo, hi;
  int lo_open, hi_open;
} cli_interval;

static int cli_interval_parse(const char *text, cli_interval *r) {
  if (!text || (text[0] != '[' && text[0] != '(')) return -1;
  char *end;
  r->lo_open = text[0] == '(';
  r->lo = strtod(text + 1, &end);
  if (end == text + 1 || *end != ',') return -1;
  const char *p = end + 1;
  while (*p == ' ') p++;
  r->hi = strtod(p, &end);
  if (end == p || (*end != ']' && *end != ')') || end[1]) return -1;
  r->hi_open = *end == ')';
  return r->lo <= r->hi ? 0 : -1;
}

static int cli_inside(const cli_interval *r, double v) {
  return (r->lo_open ? v > r->lo : v >= r->lo) &&
         (r->hi_open ? v < r->hi : v <= r->hi);
}

/* A whole decimal integer (an optional sign, digits, nothing else):
 * 1 with *v, or 0.  A value past a long's range is refused as outside
 * every interval (*v = LONG_MAX). */
static int cli_integer(const char *s, long *v) {
  if (!*s || isspace((unsigned char)*s)) return 0;
  char *end;
  errno = 0;
  long x = strtol(s, &end, 10);
  if (end == s || *end) return 0;
  *v = errno == ERANGE ? (x < 0 ? LONG_MIN : LONG_MAX) : x;
  return 1;
}

/* An integer inside d's interval. */
static int cli_int_ok(const cli_opt *d, long v) {
  cli_interval r;
  if (cli_interval_parse(d->values, &r)) return 0;
  /* the bounds are integers below 2^53, exact in a double */
  return (r.lo_open ? v > (long)r.lo : v >= (long)r.lo) &&
         (r.hi_open ? v < (long)r.hi : v <= (long)r.hi);
}

/* A comma list of integers inside d's interval (no empty item). */
static int cli_int_list_ok(const cli_opt *d, const char *s) {
  char *copy = util_strdup(s), *p = copy;
  int ok = 1;
  for (;;) {
    char *comma = strchr(p, ',');
    if (comma) *comma = 0;
    long v;
    if (!cli_integer(p, &v) || !cli_int_ok(d, v)) ok = 0;
    if (!comma || !ok) break;
    p = comma + 1;
  }
  free(copy);
  return ok;
}

/* ------------------------------------------------------------- words */

/* Whether `word` (len bytes) is one of the words of "a|b|c". */
static int cli_word_in(const char *values, const char *word, size_t len) {
  for (const char *p = values;;) {
    const char *bar = strchr(p, '|');
    size_t n = bar ? (size_t)(bar - p) : strlen(p);
    if (n == len && !strncmp(p, word, len)) return 1;
    if (!bar) return 0;
    p = bar + 1;
  }
}

static int cli_list_ok(const char *values, const char *s) {
  for (const char *p = s;;) {
    const char *comma = strchr(p, ',');
    size_t n = comma ? (size_t)(comma - p) : strlen(p);
    if (!cli_word_in(values, p, n)) return 0;
    if (!comma) return 1;
    p = comma + 1;
  }
}

/* "a|b|c" as "a, b or c". */
static void cli_words_text(const char *values, util_buf *b) {
  for (const char *p = values;;) {
    const char *bar = strchr(p, '|');
    size_t n = bar ? (size_t)(bar - p) : strlen(p);
    util_buf_printf(b, "%.*s", (int)n, p);
    if (!bar) return;
    p = bar + 1;
    util_buf_puts(b, strchr(p, '|') ? ", " : " or ");
  }
}

void cli_describe(const cli_opt *d, char *buf, size_t len) {
  util_buf b = {0};
  util_buf_puts(&b, "");
  switch (d->type) {
  case CLI_INT:
    util_buf_printf(&b, "an integer in %s", d->values);
    break;
  case CLI_REAL:
    util_buf_printf(&b, "a number in %s", d->values);
    break;
  case CLI_ONEOF:
    cli_words_text(d->values, &b);
    break;
  case CLI_LISTOF:
    util_buf_puts(&b, "a comma list of ");
    cli_words_text(d->values, &b);
    break;
  case CLI_NFILE:
    util_buf_printf(&b, "an integer in %s or a file", d->values);
    break;
  case CLI_NLIST:
    util_buf_printf(&b, "an integer in %s, a comma list of them or a file",
                    d->values);
    break;
  default:
    break;
  }
  snprintf(buf, len, "%s", b.s);
  util_buf_free(&b);
}

/* Check `value` against d: 0 with it->i / it->d / it->number, or 2 with
 * "--NAME must be WHAT, not 'VALUE'". */
static int cli_check(const cli_opt *d, const char *value, cli_item *it,
                     char *err, size_t errlen) {
  int ok = 1;
  long v = 0;
  switch (d->type) {
  case CLI_INT:
    ok = cli_integer(value, &v) && cli_int_ok(d, v);
    it->i = v;
    break;
  case CLI_REAL: {
    cli_interval r;
    char *end;
    errno = 0;
    double x = strtod(value, &end);
    ok = end != value && !*end && !isspace((unsigned char)*value) &&
         errno != ERANGE && !cli_interval_parse(d->values, &r) &&
         cli_inside(&r, x);
    it->d = x;
    break;
  }
  case CLI_ONEOF:
    ok = cli_word_in(d->values, value, strlen(value));
    break;
  case CLI_LISTOF:
    ok = cli_list_ok(d->values, value);
    break;
  case CLI_NFILE:
  case CLI_NLIST:
    /* a number (or with NLIST a list) is checked; anything else is a
     * file, read by the command */
    if (d->type == CLI_NLIST && strchr(value, ',')) {
      it->number = 1;
      ok = cli_int_list_ok(d, value);
    } else if (cli_integer(value, &v)) {
      it->number = 1;
      ok = cli_int_ok(d, v);
    }
    break;
  default:
    break;
  }
  if (ok) return 0;
  char what[512];
  cli_describe(d, what, sizeof what);
  return util_err(err, errlen, 2, "--%s must be %s, not '%s'", d->lname, what,
                  value);
}

/* ------------------------------------------------------------- parser */

/* The row for a long name (len bytes) or a short one, among cmd's. */
static const cli_opt *cli_find(int cmd, const char *lname, size_t len,
                               char sname) {
  for (size_t i = 0; i < CLI_NOPTS; i++) {
    const cli_opt *d = &cli_table[i];
    if (!(d->cmds & cmd)) continue;
    if (sname ? d->sname == sname
              : strlen(d->lname) == len && !strncmp(d->lname, lname, len))
      return d;
  }
  return NULL;
}

const cli_opt *cli_option(int cmd, const char *lname) {
  return cli_find(cmd, lname, strlen(lname), 0);
}

void cli_scan_init(cli_scan *s, int cmd, int nword, char **word) {
  memset(s, 0, sizeof *s);
  s->cmd = cmd;
  s->nword = nword;
  s->word = word;
}

int cli_next(cli_scan *s, cli_item *it, char *err, size_t errlen) {
  memset(it, 0, sizeof *it);
  if (s->i >= s->nword) return 0;
  char *a = s->word[s->i++];
  if (!s->only_pos && !strcmp(a, "--")) {
    s->only_pos = 1;
    return cli_next(s, it, err, errlen);
  }
  if (s->only_pos || a[0] != '-' || !a[1]) {
    it->value = a;
    return 1;
  }
  const cli_opt *d;
  const char *val = NULL;
  if (a[1] == '-') {
    const char *eq = strchr(a + 2, '=');
    size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
    d = cli_find(s->cmd, a + 2, len, 0);
    if (eq) val = eq + 1;
    if (!d) {
      it->value = a;
      it->len = (int)(len + 2); /* shown without its value */
      return CLI_UNKNOWN;
    }
  } else {
    d = a[2] ? NULL : cli_find(s->cmd, NULL, 0, a[1]);
    if (!d) {
      it->value = a;
      it->len = (int)strlen(a);
      return CLI_UNKNOWN;
    }
  }
  it->opt = d;
  if (d->type == CLI_FLAG) {
    if (val)
      return util_err(err, errlen, 2, "--%s takes no value", d->lname);
    return 1;
  }
  if (!val) {
    if (s->i >= s->nword)
      return util_err(err, errlen, 2, "--%s needs a value (%s)", d->lname,
                      d->meta);
    val = s->word[s->i++];
  }
  it->value = val;
  return cli_check(d, val, it, err, errlen) ? 2 : 1;
}

static void cli_defaults(cli_opts *o) {
  memset(o, 0, sizeof *o);
#define O(field, lname, sname, type, def, meta, cmds, values, help) \
  o->field = def;
  CLI_OPTIONS
#undef O
}

/* Store a checked option in o. */
static void cli_store(cli_opts *o, const cli_item *it) {
  char *at = (char *)o + it->opt->off;
  switch (it->opt->type) {
  case CLI_FLAG:
    *(int *)at = 1;
    break;
  case CLI_INT:
    *(long *)at = it->i;
    break;
  case CLI_REAL:
    *(double *)at = it->d;
    break;
  default:
    *(const char **)at = it->value;
  }
  *(int *)((char *)o + cli_set_off[it->opt - cli_table]) = 1;
}

int cli_parse(int cmd, const char *name, int argc, char **argv,
              cli_opts *o, char *err, size_t errlen) {
  cli_defaults(o);
  o->pos = util_calloc((size_t)argc + 1, sizeof *o->pos);
  cli_scan s;
  cli_scan_init(&s, cmd, argc, argv);
  cli_item it;
  int rc;
  while ((rc = cli_next(&s, &it, err, errlen)) == 1) {
    if (it.opt)
      cli_store(o, &it);
    else
      o->pos[o->npos++] = (char *)it.value;
  }
  if (rc == CLI_UNKNOWN)
    return util_err(err, errlen, 2, "unknown option %.*s (see remat %s --help)",
                    it.len, it.value, name);
  return rc ? 2 : 0;
}

void cli_free(cli_opts *o) {
  free(o->pos);
  o->pos = NULL;
}

/* --------------------------------------------------------------- help */

void cli_names(int cmd, char *buf, size_t len) {
  util_buf b = {0};
  util_buf_puts(&b, "");
  for (size_t i = 0; i < CLI_NOPTS; i++)
    if (cli_table[i].cmds & cmd)
      util_buf_printf(&b, "%s--%s", b.len ? ", " : "", cli_table[i].lname);
  snprintf(buf, len, "%s", b.s);
  util_buf_free(&b);
}

int cli_words(const cli_opts *o, int cmd, int to, char **word, int max, char *buf,
              size_t buflen) {
  int n = 0;
  size_t used = 0;
  for (size_t i = 0; i < CLI_NOPTS; i++) {
    const cli_opt *d = &cli_table[i];
    if (!(d->cmds & cmd) || !(d->cmds & to) || !*(const int *)((const char *)o + cli_set_off[i]))
      continue;
    const char *at = (const char *)o + d->off;
    char value[64];
    const char *v = value;
    switch (d->type) {
    case CLI_FLAG: v = NULL; break;
    case CLI_INT: snprintf(value, sizeof value, "%ld", *(const long *)at); break;
    case CLI_REAL: snprintf(value, sizeof value, "%.17g", *(const double *)at); break;
    default: v = *(const char *const *)at; break;
    }
    const char *parts[2] = {d->lname, v};
    for (int k = 0; k < 2 && (k == 0 || v); k++) {
      size_t len = strlen(parts[k]) + (k ? 1 : 3);
      if (n >= max || used + len > buflen) return -1;
      word[n++] = buf + used;
      snprintf(buf + used, len, "%s%s", k ? "" : "--", parts[k]);
      used += len;
    }
  }
  return n;
}

void cli_print_options(FILE *f, int cmd) {
  for (size_t i = 0; i < CLI_NOPTS; i++) {
    const cli_opt *d = &cli_table[i];
    if (!(d->cmds & cmd)) continue;
    char left[64], what[512];
    const char *meta = d->meta ? d->meta : "", *sp = d->meta ? " " : "";
    if (d->sname)
      snprintf(left, sizeof left, "-%c, --%s%s%s", d->sname, d->lname, sp, meta);
    else
      snprintf(left, sizeof left, "    --%s%s%s", d->lname, sp, meta);
    cli_describe(d, what, sizeof what);
    /* the words are shown once when the metavar lists them */
    int shown = d->type == CLI_ONEOF && d->meta && !strcmp(d->meta, d->values);
    fprintf(f, "  %-26s %s%s%s\n", left, d->help, what[0] && !shown ? "; " : "",
            shown ? "" : what);
  }
}

/* --------------------------------------------------------------- check */

static int cli_row_check(const cli_opt *d, size_t i, char *err,
                         size_t errlen) {
  cli_interval r;
  int numeric = d->type == CLI_INT || d->type == CLI_REAL ||
                d->type == CLI_NFILE || d->type == CLI_NLIST;
  int words = d->type == CLI_ONEOF || d->type == CLI_LISTOF;
  if (numeric && cli_interval_parse(d->values, &r))
    return util_err(err, errlen, -1, "--%s: bad interval '%s'", d->lname,
                    d->values ? d->values : "(null)");
  if (words && (!d->values || !*d->values || strstr(d->values, "||")))
    return util_err(err, errlen, -1, "--%s: no values", d->lname);
  if (!numeric && !words && d->values)
    return util_err(err, errlen, -1, "--%s: values for a %s", d->lname,
                    d->type == CLI_FLAG ? "flag" : "free text");
  for (size_t k = 0; k < i; k++) {
    const cli_opt *e = &cli_table[k];
    if (!(e->cmds & d->cmds)) continue;
    if (!strcmp(e->lname, d->lname))
      return util_err(err, errlen, -1, "--%s twice for one command", d->lname);
    if (d->sname && e->sname == d->sname)
      return util_err(err, errlen, -1, "-%c twice for one command", d->sname);
  }
  return 0;
}

int cli_table_check(char *err, size_t errlen) {
  for (size_t i = 0; i < CLI_NOPTS; i++)
    if (cli_row_check(&cli_table[i], i, err, errlen)) return -1;
  /* every default passes its own check */
  cli_opts o;
  cli_defaults(&o);
  for (size_t i = 0; i < CLI_NOPTS; i++) {
    const cli_opt *d = &cli_table[i];
    const char *at = (const char *)&o + d->off;
    char text[64], msg[512];
    const char *value = text;
    cli_item it;
    if (d->type == CLI_INT)
      snprintf(text, sizeof text, "%ld", *(const long *)at);
    else if (d->type == CLI_REAL)
      snprintf(text, sizeof text, "%.17g", *(const double *)at);
    else if (d->type != CLI_FLAG)
      value = *(const char *const *)at;
    else
      continue;
    if (value && cli_check(d, value, &it, msg, sizeof msg))
      return util_err(err, errlen, -1, "default: %s", msg);
  }
  return 0;
}
