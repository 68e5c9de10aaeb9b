/* idmap.c -- string -> index hash map. */
#include "idmap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static uint64_t idmap_hash(const char *s) {
  uint64_t h = 1469598103934665603ull; /* FNV-1a */
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

void idmap_init(idmap *m, int expected) {
  int cap = 16;
  while (cap < 2 * expected + 1) cap *= 2;
  m->cap = cap;
  m->count = 0;
  m->key = util_calloc((size_t)cap, sizeof *m->key);
  m->val = util_calloc((size_t)cap, sizeof *m->val);
}

void idmap_free(idmap *m) {
  free(m->key);
  free(m->val);
  m->key = NULL;
  m->val = NULL;
}

static void idmap_grow(idmap *m) {
  idmap bigger;
  bigger.cap = m->cap * 2;
  bigger.count = 0;
  bigger.key = util_calloc((size_t)bigger.cap, sizeof *bigger.key);
  bigger.val = util_calloc((size_t)bigger.cap, sizeof *bigger.val);
  for (int i = 0; i < m->cap; i++)
    if (m->key[i]) idmap_put(&bigger, m->key[i], m->val[i]);
  idmap_free(m);
  *m = bigger;
}

int idmap_put(idmap *m, const char *key, int val) {
  if (2 * (m->count + 1) > m->cap) idmap_grow(m);
  size_t mask = (size_t)m->cap - 1;
  for (size_t i = idmap_hash(key) & mask;; i = (i + 1) & mask) {
    if (!m->key[i]) {
      m->key[i] = key;
      m->val[i] = val;
      m->count++;
      return -1;
    }
    if (strcmp(m->key[i], key) == 0) return m->val[i];
  }
}

int idmap_get(const idmap *m, const char *key) {
  size_t mask = (size_t)m->cap - 1;
  for (size_t i = idmap_hash(key) & mask;; i = (i + 1) & mask) {
    if (!m->key[i]) return -1;
    if (strcmp(m->key[i], key) == 0) return m->val[i];
  }
}
