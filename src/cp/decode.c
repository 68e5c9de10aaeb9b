/* decode.c -- FlatZinc solution text to model values.  The text comes
 * from a solver, possibly an external program: every value is checked
 * against its variable's domain before it is used. */
#include "decode.h"

#include <errno.h>
#include <stdint.h>
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

/* An integer in [lo, hi] at p (true and false are 1 and 0); *end follows
 * it.  -1 when there is none or it is out of range. */
static int decode_int(const char *p, const char **end, long long lo,
                      long long hi, long long *v) {
  if (!strncmp(p, "true", 4)) {
    *v = 1;
    *end = p + 4;
  } else if (!strncmp(p, "false", 5)) {
    *v = 0;
    *end = p + 5;
  } else {
    char *e;
    errno = 0;
    *v = strtoll(p, &e, 10);
    if (e == p || errno) return -1;
    *end = e;
  }
  return *v < lo || *v > hi ? -1 : 0;
}

static int decode_array(const char *text, const char *name, int *out, int k,
                        long long lo, long long hi) {
  const char *p = decode_find(text, name);
  if (!p) return -1;
  p = strchr(p, '[');
  if (!p) return -1;
  p++;
  for (int i = 0; i < k; i++) {
    long long v;
    while (*p == ' ' || *p == ',') p++;
    if (decode_int(p, &p, lo, hi, &v)) return -1;
    out[i] = (int)v;
  }
  while (*p == ' ') p++;
  return *p == ']' ? 0 : -1;
}

/* The largest value of OBJ: the scaled durations of every later copy. */
static long long decode_obj_max(const model *md) {
  long long total = 0;
  for (int c = 0; c < md->ncopy; c++)
    if (c != md->first[md->node[c]]) total += md->dur[md->node[c]];
  return total;
}

int decode_solution(const model *md, const char *text, model_sol *x,
                    long long *obj, char *err, size_t errlen) {
  static const char *names[3] = {"S", "E", "A"};
  int *dst[3] = {x->s, x->e, x->a};
  /* events, then the parking slots past the horizon (model_park) */
  long long last = (long long)md->horizon + md->ncopy;
  long long lo[3] = {1, 1, 0}, hi[3] = {last, last, 1};
  for (int i = 0; i < 3; i++)
    if (decode_array(text, names[i], dst[i], md->ncopy, lo[i], hi[i]))
      return util_err(err, errlen, -1,
                      "solver output has no valid array %s of %d values in "
                      "%lld..%lld",
                      names[i], md->ncopy, lo[i], hi[i]);
  const char *name = md->phase == 1 ? "PEAK" : "OBJ";
  /* PEAK times the memory quantum must stay a 64-bit size */
  long long max = md->phase == 1 ? md->ub_peak : decode_obj_max(md);
  if (md->phase == 1 && md->mem_q > 0 && max > INT64_MAX / md->mem_q)
    max = INT64_MAX / md->mem_q;
  const char *o = decode_find(text, name);
  const char *end;
  *obj = -1;
  if (!o && md->phase == 1)
    return util_err(err, errlen, -1, "solver output has no PEAK value");
  if (o && (decode_int(o, &end, 0, max, obj) || (*end != ';' && *end != '\n' && *end)))
    return util_err(err, errlen, -1,
                    "solver output: %s is not an integer in 0..%lld", name,
                    max);
  return 0;
}
