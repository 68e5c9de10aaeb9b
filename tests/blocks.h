/* blocks.h -- training graphs of k identical layers, for the tests of the
 * repeated blocks (repeat.h) and their chain (chain.h).
 *
 * Node 0 is the input; layer j's forward nodes are 1 + width j + i
 * (i = 0 .. width - 1), a chain (each reads the one before it, node 0 for
 * the first); then the backward nodes, the last layer's first, each
 * layer's from its last forward node to its first: the backward node of
 * forward node i reads the backward node before it (the last forward node
 * for the very first) and forward nodes i and i - 1 (the node before the
 * layer for i = 0).  Forward node i takes w[i] and m[i]; its backward node
 * 2 w[i] and m[i].
 *
 * dropout_layers: saved values made from forward-only values of their
 * size, as a dropout's mask from its random draw (below). */
#ifndef REMAT_TEST_BLOCKS_H
#define REMAT_TEST_BLOCKS_H

#include <stdlib.h>
#include <string.h>

#include "graph.h"

static inline remat_graph *training_layers(int k, int width, const int64_t *w, const int64_t *m) {
  int n = 1 + 2 * width * k, ne = 0;
  int64_t *nw = malloc((size_t)n * sizeof *nw), *nm = malloc((size_t)n * sizeof *nm);
  int *src = malloc((size_t)4 * n * sizeof *src), *dst = malloc((size_t)4 * n * sizeof *dst);
  unsigned char *bw = calloc((size_t)n, 1);
  nw[0] = 1;
  nm[0] = m[width - 1];
  for (int v = 1; v <= width * k; v++) {
    nw[v] = w[(v - 1) % width];
    nm[v] = m[(v - 1) % width];
    src[ne] = v - 1, dst[ne++] = v;
  }
  int b = 1 + width * k;
  for (int j = k - 1; j >= 0; j--)
    for (int i = width - 1; i >= 0; i--, b++) {
      int f = 1 + width * j + i;
      nw[b] = 2 * w[i];
      nm[b] = m[i];
      bw[b] = 1;
      src[ne] = b - 1, dst[ne++] = b;
      src[ne] = f, dst[ne++] = b;
      if (f - 1 != b - 1) src[ne] = f - 1, dst[ne++] = b;
    }
  remat_graph *g = graph_from_arrays(n, nw, nm, ne, src, dst, "layers");
  g->backward = bw;
  free(nw), free(nm), free(src), free(dst);
  return g;
}

/* k layers: b_j = f(h_{j-1}) read only by d_j = f(b_j), h_j = f(h_{j-1},
 * d_j); the backward node of layer j reads the one before it, d_j and
 * h_{j-1}.  b and d have the same size, so keeping b for d's recomputation
 * frees nothing. */
static inline remat_graph *dropout_layers(int k, int64_t ms, int64_t ws) {
  int n = 1 + 4 * k, ne = 0;
  int64_t *w = malloc((size_t)n * sizeof *w), *m = malloc((size_t)n * sizeof *m);
  int *src = malloc((size_t)4 * n * sizeof *src), *dst = malloc((size_t)4 * n * sizeof *dst);
  unsigned char *bw = calloc((size_t)n, 1);
  w[0] = ws, m[0] = 4 * ms;
  for (int j = 0; j < k; j++) {
    int h0 = j ? 3 * j : 0, b = 3 * j + 1, d = b + 1, h = b + 2;
    w[b] = ws, m[b] = 8 * ms;
    w[d] = ws, m[d] = 8 * ms;
    w[h] = 10 * ws, m[h] = 4 * ms;
    src[ne] = h0, dst[ne++] = b;
    src[ne] = b, dst[ne++] = d;
    src[ne] = h0, dst[ne++] = h;
    src[ne] = d, dst[ne++] = h;
  }
  for (int i = 0; i < k; i++) {
    int y = 1 + 3 * k + i, j = k - 1 - i, h0 = j ? 3 * j : 0, d = 3 * j + 2;
    w[y] = 2 * ws, m[y] = 4 * ms, bw[y] = 1;
    src[ne] = y - 1, dst[ne++] = y;
    src[ne] = d, dst[ne++] = y;
    if (h0 != y - 1) src[ne] = h0, dst[ne++] = y;
  }
  remat_graph *g = graph_from_arrays(n, w, m, ne, src, dst, "dropout");
  g->backward = bw;
  free(w), free(m), free(src), free(dst);
  return g;
}

#endif
