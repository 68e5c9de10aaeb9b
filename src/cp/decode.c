/* decode.c -- FlatZinc solution text to model values. */
#include "decode.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Find "NAME = " at the start of a line. */
static const char *decode_find(const char *text, const char *name) {
  size_t n = strlen(name);
  for (const char *p = text; p && *p;) {
    if (!strncmp(p, name, n) && !strncmp(p + n, " = ", 3)) return p + n + 3;
    p = strchr(p, '\n');
    if (p) p++;
  }
  return NULL;
}

static int decode_array(const char *text, const char *name, int *out, int k) {
  const char *p = decode_find(text, name);
  if (!p) return -1;
  p = strchr(p, '[');
  if (!p) return -1;
  p++;
  for (int i = 0; i < k; i++) {
    char *end;
    while (*p == ' ' || *p == ',') p++;
    if (!strncmp(p, "true", 4)) {
      out[i] = 1;
      p += 4;
      continue;
    }
    if (!strncmp(p, "false", 5)) {
      out[i] = 0;
      p += 5;
      continue;
    }
    long v = strtol(p, &end, 10);
    if (end == p) return -1;
    out[i] = (int)v;
    p = end;
  }
  while (*p == ' ') p++;
  return *p == ']' ? 0 : -1;
}

int decode_solution(const model *md, const char *text, model_sol *x,
                    long long *obj, char *err, size_t errlen) {
  static const char *names[3] = {"S", "E", "A"};
  int *dst[3] = {x->s, x->e, x->a};
  for (int i = 0; i < 3; i++)
    if (decode_array(text, names[i], dst[i], md->ncopy))
      return util_err(err, errlen, -1,
                      "solver output has no valid array %s of %d values",
                      names[i], md->ncopy);
  const char *o = decode_find(text, md->phase == 1 ? "PEAK" : "OBJ");
  *obj = o ? strtoll(o, NULL, 10) : -1;
  return 0;
}
