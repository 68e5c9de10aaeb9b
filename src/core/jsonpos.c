/* jsonpos.c -- where a key is in a JSON text (jsonpos.h).  A scanner of
 * its own: it skips values without building them and counts lines and
 * columns; keys with escapes are decoded by jansson to be compared. */
#include "jsonpos.h"

#include <jansson.h>
#include <string.h>

typedef struct jpos {
  const char *s;
  size_t n, i;
  int line, col;
} jpos;

/* JSON nests at most this deep (jansson's own limit is 2048). */
#define JPOS_MAX_DEPTH 2048

static int jpos_more(const jpos *p) { return p->i < p->n; }

static void jpos_step(jpos *p) {
  if (p->s[p->i] == '\n') {
    p->line++;
    p->col = 1;
  } else {
    p->col++;
  }
  p->i++;
}

static void jpos_blank(jpos *p) {
  while (jpos_more(p) && (p->s[p->i] == ' ' || p->s[p->i] == '\t' || p->s[p->i] == '\r' ||
                          p->s[p->i] == '\n'))
    jpos_step(p);
}

/* A string at p (its quote): skipped; *esc set when it has escapes. */
static int jpos_string(jpos *p, int *esc) {
  *esc = 0;
  jpos_step(p);
  while (jpos_more(p)) {
    char c = p->s[p->i];
    jpos_step(p);
    if (c == '"') return 0;
    if (c == '\\') {
      *esc = 1;
      if (!jpos_more(p)) return -1;
      jpos_step(p);
    }
  }
  return -1;
}

static int jpos_is(const jpos *p, char c) { return jpos_more(p) && p->s[p->i] == c; }

/* Does the string text[a..b) (quotes included) say key? */
static int jpos_same(const char *text, size_t a, size_t b, int esc, const char *key) {
  if (!esc) return b - a - 2 == strlen(key) && !memcmp(text + a + 1, key, b - a - 2);
  json_t *v = json_loadb(text + a, b - a, JSON_DECODE_ANY, NULL);
  int same = json_is_string(v) && !strcmp(json_string_value(v), key);
  json_decref(v);
  return same;
}

static int jpos_value(jpos *p, int depth);

/* The members of the object at p: stops at the value of `key` (returns
 * 1, with its key's position in *line, *col) or after the object (0). */
static int jpos_members(jpos *p, const char *key, int depth, int *line, int *col) {
  jpos_step(p); /* { */
  for (;;) {
    jpos_blank(p);
    if (jpos_is(p, '}')) {
      jpos_step(p);
      return 0;
    }
    if (!jpos_is(p, '"')) return -1;
    int kl = p->line, kc = p->col, esc;
    size_t a = p->i;
    if (jpos_string(p, &esc)) return -1;
    int found = key && jpos_same(p->s, a, p->i, esc, key);
    jpos_blank(p);
    if (!jpos_is(p, ':')) return -1;
    jpos_step(p);
    jpos_blank(p);
    if (found) {
      *line = kl, *col = kc;
      return 1;
    }
    if (jpos_value(p, depth + 1)) return -1;
    jpos_blank(p);
    if (jpos_is(p, ',')) jpos_step(p);
  }
}

/* Skip the value at p. */
static int jpos_value(jpos *p, int depth) {
  if (depth > JPOS_MAX_DEPTH) return -1;
  jpos_blank(p);
  if (!jpos_more(p)) return -1;
  int esc, line, col;
  switch (p->s[p->i]) {
  case '"': return jpos_string(p, &esc);
  case '{': return jpos_members(p, NULL, depth, &line, &col) == 0 ? 0 : -1;
  case '[':
    jpos_step(p);
    for (;;) {
      jpos_blank(p);
      if (jpos_is(p, ']')) {
        jpos_step(p);
        return 0;
      }
      if (jpos_value(p, depth + 1)) return -1;
      jpos_blank(p);
      if (jpos_is(p, ',')) jpos_step(p);
    }
  default: /* a number or a literal */
    if (strchr(",]}", p->s[p->i])) return -1;
    while (jpos_more(p) && p->s[p->i] && !strchr(",]} \t\r\n", p->s[p->i])) jpos_step(p);
    return 0;
  }
}

int jpos_key(const char *text, size_t len, const char *member, const char *key, int *line,
             int *col) {
  jpos p = {text, len, 0, 1, 1};
  jpos_blank(&p);
  if (!jpos_is(&p, '{')) return -1;
  jpos root = p;
  int l, c;
  if (member && jpos_members(&p, member, 0, &l, &c) == 1 && jpos_is(&p, '{'))
    return jpos_members(&p, key, 1, line, col) == 1 ? 0 : -1;
  return jpos_members(&root, key, 0, line, col) == 1 ? 0 : -1;
}
