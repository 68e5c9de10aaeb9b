/* order_memo.c -- the table of dead sets (order_memo.h): open addressing
 * with linear probing over entry indices; entries in one growing array. */
#include "order_memo.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

void order_memo_init(order_memo *t, int nbits, size_t max_bytes) {
  memset(t, 0, sizeof *t);
  t->words = (nbits + 63) / 64;
  t->max_bytes = max_bytes;
  t->cap = 1024;
  t->slot = util_calloc(t->cap, sizeof *t->slot);
}

void order_memo_free(order_memo *t) {
  free(t->slot);
  free(t->ent);
  memset(t, 0, sizeof *t);
}

static size_t order_memo_stride(const order_memo *t) {
  return 2 + (size_t)t->words;
}

size_t order_memo_bytes(const order_memo *t) {
  return t->cap * sizeof *t->slot +
         t->cap_ent * order_memo_stride(t) * sizeof *t->ent;
}

/* The slot holding the set, or the empty slot where it would go. */
static size_t order_memo_find(const order_memo *t, uint64_t h,
                              const uint64_t *bits) {
  size_t mask = t->cap - 1, i = (size_t)(h ^ (h >> 29)) & mask;
  size_t stride = order_memo_stride(t);
  for (;; i = (i + 1) & mask) {
    uint32_t s = t->slot[i];
    if (!s) return i;
    const uint64_t *e = t->ent + (size_t)(s - 1) * stride;
    if (e[0] == h && !memcmp(e + 2, bits, (size_t)t->words * sizeof *bits))
      return i;
  }
}

int64_t order_memo_get(const order_memo *t, uint64_t h, const uint64_t *bits) {
  uint32_t s = t->slot[order_memo_find(t, h, bits)];
  if (!s) return INT64_MIN;
  return (int64_t)t->ent[(size_t)(s - 1) * order_memo_stride(t) + 1];
}

static void order_memo_rehash(order_memo *t) {
  size_t stride = order_memo_stride(t);
  free(t->slot);
  t->cap *= 2;
  t->slot = util_calloc(t->cap, sizeof *t->slot);
  for (size_t k = 0; k < t->count; k++) {
    const uint64_t *e = t->ent + k * stride;
    t->slot[order_memo_find(t, e[0], e + 2)] = (uint32_t)(k + 1);
  }
}

int order_memo_put(order_memo *t, uint64_t h, const uint64_t *bits,
                   int64_t threshold) {
  size_t stride = order_memo_stride(t), i = order_memo_find(t, h, bits);
  if (t->slot[i]) {
    uint64_t *e = t->ent + (size_t)(t->slot[i] - 1) * stride;
    if ((int64_t)e[1] < threshold) e[1] = (uint64_t)threshold;
    return 0;
  }
  if (t->count + 2 >= UINT32_MAX) return -1;
  if (t->count == t->cap_ent) {
    size_t ncap = t->cap_ent ? t->cap_ent + t->cap_ent / 2 : 4096;
    size_t grow = (ncap - t->cap_ent) * stride * sizeof *t->ent;
    if (order_memo_bytes(t) + grow > t->max_bytes) return -1;
    t->ent = util_realloc(t->ent, ncap * stride * sizeof *t->ent);
    t->cap_ent = ncap;
  }
  if (2 * (t->count + 1) > t->cap) {
    if (order_memo_bytes(t) + t->cap * sizeof *t->slot > t->max_bytes)
      return -1;
    order_memo_rehash(t);
    i = order_memo_find(t, h, bits);
  }
  uint64_t *e = t->ent + t->count * stride;
  e[0] = h;
  e[1] = (uint64_t)threshold;
  memcpy(e + 2, bits, (size_t)t->words * sizeof *bits);
  t->slot[i] = (uint32_t)(++t->count);
  return 0;
}
