/* fuzz_result.c -- a result file (what eval, plot and batch --merge read):
 * the one result reader (result_file_load), the schedule it holds for a
 * fixed graph, its trace, and the progress picture drawn from it. */
#include "fuzz.h"

#include "graph.h"
#include "plot.h"
#include "remat.h"
#include "result.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static remat_graph *g;
  if (!g) {
    int64_t w[3] = {2, 3, 1000000000}, m[3] = {10, 20, 1000000000000LL};
    int src[2] = {0, 1}, dst[2] = {1, 2};
    g = graph_from_arrays(3, w, m, 2, src, dst, "fuzz");
  }
  char path[64];
  if (fuzz_file(data, size, "result", path)) return 0;
  result_file f;
  char err[1024] = "";
  if (result_file_load(path, &f, err, sizeof err) == 0) {
    int *seq = NULL, len = 0;
    if (result_file_sequence(&f, g, &seq, &len, err, sizeof err) == 0) {
      remat_sim s;
      (void)remat_simulate(g, seq, len, &s, NULL);
      free(seq);
    } else {
      fuzz_require(err[0] != 0);
    }
    remat_result r;
    if (result_file_trace(&f, &r, err, sizeof err) == 0) {
      plot_run run = {&r, f.graph, NULL};
      plot_opts o;
      plot_opts_init(&o);
      FILE *out = fopen("/dev/null", "w");
      fuzz_require(plot_progress(out, &run, 1, &o, err, sizeof err) == 0);
      fclose(out);
      remat_result_free(&r);
    }
  } else {
    fuzz_require(err[0] != 0);
  }
  result_file_free(&f); /* also after a failure */
  unlink(path);
  return 0;
}
