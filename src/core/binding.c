/* binding.c -- what a language binding needs beyond remat.h's structs:
 * results on the heap, a result as the command line's JSON document,
 * and the sizes of the public structs (a binding that mirrors them, such
 * as the Python package's ctypes layer, checks its copies against them). */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "remat.h"
#include "result.h"
#include "util.h"

remat_result *remat_result_new(const remat_graph *g, int64_t budget,
                               const char *method) {
  remat_result *r = util_malloc(sizeof *r);
  remat_result_init(r, g, budget, method);
  return r;
}

void remat_result_delete(remat_result *r) {
  if (!r) return;
  remat_result_free(r);
  free(r);
}

char *remat_result_json(const remat_result *r, const remat_graph *g) {
  json_t *o = result_to_json(r, g);
  char *s = o ? json_dumps(o, JSON_COMPACT | RESULT_JSON_REALS) : NULL;
  json_decref(o);
  return s;
}

void remat_free(void *p) { free(p); }

size_t remat_struct_size(const char *name) {
  static const struct {
    const char *name;
    size_t size;
  } sizes[] = {
      {"remat_graph", sizeof(remat_graph)},
      {"remat_sim", sizeof(remat_sim)},
      {"remat_result", sizeof(remat_result)},
      {"remat_solve_params", sizeof(remat_solve_params)},
  };
  for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++)
    if (!strcmp(name, sizes[k].name)) return sizes[k].size;
  return 0;
}
