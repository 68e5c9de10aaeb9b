/* fuzz_manifest.c -- a batch manifest (one job per line: GRAPH [BUDGETS]
 * [OPTIONS], comments, quotes): the jobs it gives have a graph, a budget
 * and an id, or the message names the manifest and a line. */
#include "fuzz.h"

#include "batch_jobs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_text(data, size);
  batch_defaults d;
  batch_defaults_init(&d);
  char err[1024] = "";
  if (batch_set_budgets(&d, "0.9,0.8", err, sizeof err)) abort();
  batch_list L = {0};
  if (batch_parse_manifest(text, "jobs.txt", &d, &L, err, sizeof err) == 0) {
    for (int i = 0; i < L.n; i++)
      fuzz_require(L.job[i].graph && L.job[i].budget && L.job[i].id && L.job[i].name);
  } else {
    fuzz_require(strncmp(err, "jobs.txt", 8) == 0);
  }
  batch_list_free(&L);
  batch_defaults_free(&d);
  free(text);
  return 0;
}
