/* idmap.h -- string -> index hash map (open addressing) for node ids. */
#ifndef REMAT_IDMAP_H
#define REMAT_IDMAP_H

typedef struct idmap {
  int cap;          /* power of two */
  int count;
  const char **key; /* borrowed */
  int *val;
} idmap;

void idmap_init(idmap *m, int expected);
void idmap_free(idmap *m);
/* Insert; returns the existing value if the key is present, else -1. */
int idmap_put(idmap *m, const char *key, int val);
/* Look up; -1 if absent. */
int idmap_get(const idmap *m, const char *key);

#endif
