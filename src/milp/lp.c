/* lp.c -- a linear or mixed-integer program in memory (lp.h). */
#include "lp.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

void lp_alloc(lp_model *L, int ncols, int nrows, long long nnz) {
  memset(L, 0, sizeof *L);
  L->ncols = ncols;
  L->nrows = nrows;
  L->nnz = nnz;
  size_t c = (size_t)ncols + 1, r = (size_t)nrows + 1, z = (size_t)(nnz > 0 ? nnz : 1);
  L->start = util_calloc(c, sizeof *L->start);
  L->index = util_calloc(z, sizeof *L->index);
  L->value = util_calloc(z, sizeof *L->value);
  L->collb = util_calloc(c, sizeof *L->collb);
  L->colub = util_calloc(c, sizeof *L->colub);
  L->obj = util_calloc(c, sizeof *L->obj);
  L->integer = util_calloc(c, sizeof *L->integer);
  L->rowlb = util_calloc(r, sizeof *L->rowlb);
  L->rowub = util_calloc(r, sizeof *L->rowub);
}

void lp_free(lp_model *L) {
  UTIL_FREE(L->start, L->index, L->value, L->collb, L->colub, L->obj, L->integer, L->rowlb,
            L->rowub);
  memset(L, 0, sizeof *L);
}

int lp_nint(const lp_model *L) {
  int k = 0;
  for (int j = 0; j < L->ncols; j++) k += L->integer[j] != 0;
  return k;
}
