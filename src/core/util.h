/* util.h -- small shared helpers: allocation, strings, clocks, messages. */
#ifndef REMAT_UTIL_H
#define REMAT_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* "remat: out of memory" on stderr, exit 4 (what the allocators below do
 * when they fail). */
void util_oom(void);
void *util_malloc(size_t n);
void *util_calloc(size_t n, size_t size);
void *util_realloc(void *p, size_t n);
char *util_strdup(const char *s);
char *util_strndup(const char *s, size_t n);
/* s without the suffix if it ends with it; a and b joined (both allocated). */
char *util_strip_suffix(const char *s, const char *suffix);
char *util_cat(const char *a, const char *b);

/* free() each of n pointers (NULL ones are skipped by free itself), and the
 * macro that frees a list of a struct's arrays in one statement. */
void util_free_each(void *const *p, size_t n);
#define UTIL_FREE(...)                                                        \
  util_free_each((void *const[]){__VA_ARGS__},                                \
                 sizeof((void *const[]){__VA_ARGS__}) / sizeof(void *))

/* Wall-clock seconds since an arbitrary fixed point. */
double util_now(void);

/* Read a whole file ("-": standard input); returns NULL and sets errno on
 * failure. */
char *util_read_file(const char *path, size_t *len);

/* How messages name a file: "<stdin>" for "-", else path itself. */
const char *util_shown_path(const char *path);

/* snprintf into err if err is not NULL; always returns `code`. */
int util_err(char *err, size_t errlen, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Growable string buffer. */
typedef struct util_buf {
  char *s;
  size_t len, cap;
} util_buf;

void util_buf_printf(util_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void util_buf_puts(util_buf *b, const char *s);
void util_buf_putc(util_buf *b, char c);
void util_buf_free(util_buf *b);

/* Greatest common divisor of non-negative values (gcd(0, x) = x). */
int64_t util_gcd(int64_t a, int64_t b);

/* An item ranked by a ratio (duration per byte, say): qsort with
 * util_ratio_cmp orders by ratio, then by index, so that ties keep a
 * fixed order. */
typedef struct util_ratio_key {
  double ratio;
  int i;
} util_ratio_key;
int util_ratio_cmp(const void *a, const void *b);

/* xorshift64: the next value of the generator whose state (nonzero) is
 * *state; and a value in 0..n-1 from it (0 when n <= 1). */
static inline uint64_t util_xorshift(uint64_t *state) {
  uint64_t x = *state;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return *state = x;
}

static inline int util_below(uint64_t *state, int n) {
  return n <= 1 ? 0 : (int)(util_xorshift(state) % (uint64_t)n);
}

/* Number of online processors, at least 1. */
int util_ncpus(void);

/* Base name of a path without directory and without a ".json" suffix,
 * freshly allocated. */
char *util_stem(const char *path);

/* Output files: NULL or "-" is standard output.  util_out_open returns
 * NULL (errno set) when the file cannot be created; util_out_close
 * flushes standard output or closes a file and returns nonzero on a write
 * error. */
int util_is_stdout(const char *path);
FILE *util_out_open(const char *path);
int util_out_close(FILE *f);

/* Write s to f as one CSV field (RFC 4180): quoted, with inner quotes
 * doubled, when it holds a comma, a quote or a line break. */
void util_csv_field(FILE *f, const char *s);

#endif
