/* grow.h -- growing arrays.  A capacity doubles, from a first size when
 * it is 0, until it holds what is asked; the array (or the arrays that
 * share one count and one capacity) is then reallocated to it.
 *
 *   PUSH(a, n, cap, first, x)   append x to a[0..n), n and cap fields or
 *                               variables;
 *   GROW(a, cap, need, first)   room for need elements in a;
 *   GROW_ALL(cap, need, first, a, b, ...)
 *                               the same for up to six parallel arrays;
 *   GROW_CAP(cap, need, first)  only raise cap (nonzero when it grew), for
 *                               arrays that take more than cap elements. */
#ifndef REMAT_GROW_H
#define REMAT_GROW_H

#include <stddef.h>

#include "util.h"

/* The capacity that holds need elements: cap (first when 0) doubled. */
static inline size_t grow_cap(size_t cap, size_t need, size_t first) {
  size_t c = cap ? cap : first;
  while (c < need) c *= 2;
  return c;
}

/* Nonzero, with cap raised, when need elements pass the capacity cap. */
#define GROW_CAP(cap, need, first)                                             \
  ((size_t)(need) > (size_t)(cap)                                              \
       ? ((cap) = grow_cap((size_t)(cap), (size_t)(need), (size_t)(first)), 1) \
       : 0)

/* Reallocate the array a to cap elements. */
#define GROW_RESIZE(a, cap) ((a) = util_realloc((a), (size_t)(cap) * sizeof *(a)))

#define GROW(a, cap, need, first)                                              \
  do {                                                                         \
    if (GROW_CAP(cap, need, first)) GROW_RESIZE(a, cap);                       \
  } while (0)

/* GROW_ALL: GROW_RESIZE each of its arrays, counted by GROW_NTH. */
#define GROW_NTH(_1, _2, _3, _4, _5, _6, name, ...) name
#define GROW_RESIZE1(cap, a) GROW_RESIZE(a, cap)
#define GROW_RESIZE2(cap, a, ...) (GROW_RESIZE(a, cap), GROW_RESIZE1(cap, __VA_ARGS__))
#define GROW_RESIZE3(cap, a, ...) (GROW_RESIZE(a, cap), GROW_RESIZE2(cap, __VA_ARGS__))
#define GROW_RESIZE4(cap, a, ...) (GROW_RESIZE(a, cap), GROW_RESIZE3(cap, __VA_ARGS__))
#define GROW_RESIZE5(cap, a, ...) (GROW_RESIZE(a, cap), GROW_RESIZE4(cap, __VA_ARGS__))
#define GROW_RESIZE6(cap, a, ...) (GROW_RESIZE(a, cap), GROW_RESIZE5(cap, __VA_ARGS__))
#define GROW_ALL(cap, need, first, ...)                                        \
  do {                                                                         \
    if (GROW_CAP(cap, need, first))                                            \
      GROW_NTH(__VA_ARGS__, GROW_RESIZE6, GROW_RESIZE5, GROW_RESIZE4,          \
               GROW_RESIZE3, GROW_RESIZE2, GROW_RESIZE1, _)(cap, __VA_ARGS__); \
  } while (0)

#define PUSH(a, n, cap, first, x)                                              \
  do {                                                                         \
    GROW(a, cap, (size_t)(n) + 1, first);                                      \
    (a)[(n)++] = (x);                                                          \
  } while (0)

#endif
