/* util.c -- small shared helpers. */
#define _POSIX_C_SOURCE 200809L
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void util_oom(void) {
  fputs("remat: out of memory\n", stderr);
  exit(4);
}

void *util_malloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) util_oom();
  return p;
}

void *util_calloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p) util_oom();
  return p;
}

void *util_realloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) util_oom();
  return q;
}

char *util_strdup(const char *s) { return util_strndup(s, strlen(s)); }

char *util_strndup(const char *s, size_t n) {
  char *r = util_malloc(n + 1);
  memcpy(r, s, n);
  r[n] = 0;
  return r;
}

double util_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

char *util_read_file(const char *path, size_t *len) {
  int std = strcmp(path, "-") == 0;
  FILE *f = std ? stdin : fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = util_malloc(cap);
  for (;;) {
    if (n + 1 >= cap) buf = util_realloc(buf, cap *= 2);
    size_t got = fread(buf + n, 1, cap - n - 1, f);
    n += got;
    if (got == 0) break;
  }
  int bad = ferror(f);
  int saved = errno;
  if (!std) fclose(f);
  if (bad) {
    free(buf);
    errno = saved ? saved : EIO;
    return NULL;
  }
  buf[n] = 0;
  if (len) *len = n;
  return buf;
}

int util_err(char *err, size_t errlen, int code, const char *fmt, ...) {
  if (err && errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
  }
  return code;
}

static void util_buf_reserve(util_buf *b, size_t extra) {
  if (b->len + extra + 1 <= b->cap) return;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < b->len + extra + 1) cap *= 2;
  b->s = util_realloc(b->s, cap);
  b->cap = cap;
}

void util_buf_printf(util_buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) {
    va_end(ap2);
    return;
  }
  util_buf_reserve(b, (size_t)n);
  vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  b->len += (size_t)n;
}

void util_buf_puts(util_buf *b, const char *s) {
  size_t n = strlen(s);
  util_buf_reserve(b, n);
  memcpy(b->s + b->len, s, n + 1);
  b->len += n;
}

void util_buf_putc(util_buf *b, char c) {
  util_buf_reserve(b, 1);
  b->s[b->len++] = c;
  b->s[b->len] = 0;
}

char *util_strip_suffix(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  if (n > k && !strcmp(s + n - k, suffix)) n -= k;
  return util_strndup(s, n);
}

char *util_cat(const char *a, const char *b) {
  util_buf x = {0};
  util_buf_printf(&x, "%s%s", a, b);
  return x.s;
}

void util_free_each(void *const *p, size_t n) {
  for (size_t i = 0; i < n; i++) free(p[i]);
}

void util_buf_free(util_buf *b) {
  free(b->s);
  b->s = NULL;
  b->len = b->cap = 0;
}

int util_ratio_cmp(const void *a, const void *b) {
  const util_ratio_key *x = a, *y = b;
  if (x->ratio != y->ratio) return x->ratio < y->ratio ? -1 : 1;
  return x->i < y->i ? -1 : x->i > y->i;
}

int64_t util_gcd(int64_t a, int64_t b) {
  while (b) {
    int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

int util_ncpus(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : (int)n;
}

int util_is_stdout(const char *path) { return !path || !strcmp(path, "-"); }

FILE *util_out_open(const char *path) {
  return util_is_stdout(path) ? stdout : fopen(path, "w");
}

int util_out_close(FILE *f) {
  int bad = ferror(f);
  if (f == stdout) return fflush(f) != 0 || bad;
  return fclose(f) != 0 || bad;
}

const char *util_shown_path(const char *path) {
  return strcmp(path, "-") ? path : "<stdin>";
}

char *util_stem(const char *path) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  size_t n = strlen(base);
  if (n > 5 && strcmp(base + n - 5, ".json") == 0) n -= 5;
  return util_strndup(base, n);
}

void util_csv_field(FILE *f, const char *s) {
  if (!strpbrk(s, ",\"\n\r")) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"') fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}
