/* fuzz.h -- shared by the fuzz targets (tests/fuzz/fuzz_*.c): each defines
 * LLVMFuzzerTestOneInput for one reader, runs what a command runs next on
 * what it accepted, and aborts (fuzz_require) when an invariant breaks.
 * Built with clang's libFuzzer by `make fuzz`; replay.c runs the same
 * function over the committed corpora and crash inputs in `make check`. */
#ifndef REMAT_FUZZ_H
#define REMAT_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define fuzz_require(cond)                                                     \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__, __LINE__,     \
              #cond);                                                          \
      abort();                                                                 \
    }                                                                          \
  } while (0)

/* The input as a NUL-terminated string (freed by the caller). */
static inline char *fuzz_text(const uint8_t *data, size_t size) {
  char *s = malloc(size + 1);
  if (!s) abort();
  memcpy(s, data, size);
  s[size] = 0;
  return s;
}

/* The input in a fresh file /tmp/remat-fuzz-NAME-XXXXXX, its name in
 * path: 0, or -1 if it could not be written whole (then no file is left).
 * The caller unlinks it. */
static inline int fuzz_file(const uint8_t *data, size_t size, const char *name,
                            char path[64]) {
  snprintf(path, 64, "/tmp/remat-fuzz-%s-XXXXXX", name);
  int fd = mkstemp(path);
  if (fd < 0) return -1;
  int wrote = write(fd, data, size) == (ssize_t)size;
  close(fd);
  if (wrote) return 0;
  unlink(path);
  return -1;
}

#endif
