/* testutil.h -- common includes and fixtures of the cmocka unit tests. */
#ifndef REMAT_TESTUTIL_H
#define REMAT_TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "graph.h"

/* chain a -> b -> c plus a -> c */
static inline remat_graph *small_graph(void) {
  int64_t w[3] = {2, 3, 5}, m[3] = {10, 20, 30};
  int src[3] = {0, 1, 0}, dst[3] = {1, 2, 2};
  return graph_from_arrays(3, w, m, 3, src, dst, "small");
}

/* Same nodes, attributes and edges. */
static inline int same_graph(const remat_graph *a, const remat_graph *b) {
  if (a->n != b->n || a->n_edges != b->n_edges) return 0;
  for (int v = 0; v < a->n; v++)
    if (a->w[v] != b->w[v] || a->m[v] != b->m[v] ||
        strcmp(a->id[v], b->id[v]) || a->succ_off[v] != b->succ_off[v])
      return 0;
  return !memcmp(a->succ, b->succ, (size_t)a->n_edges * sizeof *a->succ);
}

#endif
