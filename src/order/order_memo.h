/* order_memo.h -- a hash table of node sets (bitsets) with a threshold
 * each: the down-closed sets from which the exact search proved that no
 * order continues with every step at or below the threshold.  Sets are
 * stored in full (no false matches); the table refuses to grow past its
 * byte limit. */
#ifndef REMAT_ORDER_MEMO_H
#define REMAT_ORDER_MEMO_H

#include <stddef.h>
#include <stdint.h>

typedef struct order_memo {
  int words;           /* 64-bit words per set */
  size_t max_bytes;    /* limit on the memory held */
  size_t count;        /* sets stored */
  size_t cap;          /* table slots (a power of two) */
  uint32_t *slot;      /* 0 empty, else entry index + 1 */
  uint64_t *ent;       /* entries: hash, threshold, words of bits */
  size_t cap_ent;
} order_memo;

void order_memo_init(order_memo *t, int nbits, size_t max_bytes);
void order_memo_free(order_memo *t);
/* The threshold stored for the set (hash h), or INT64_MIN when absent. */
int64_t order_memo_get(const order_memo *t, uint64_t h, const uint64_t *bits);
/* Store (or raise) the set's threshold; returns 0, or -1 when the byte
 * limit (or 2^32 - 2 sets) is reached. */
int order_memo_put(order_memo *t, uint64_t h, const uint64_t *bits,
                   int64_t threshold);
/* Bytes held. */
size_t order_memo_bytes(const order_memo *t);

#endif
