/* fuzz_solver_output.c -- what an external FlatZinc solver prints is
 * untrusted input: the decoder (S, E, A arrays and OBJ / PEAK) for a small
 * model, then what the CP worker does with a decoded solution: the model's
 * own check and the decoded schedule re-simulated. */
#include "fuzz.h"

#include "decode.h"
#include "graph.h"
#include "model_any.h"
#include "remat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static remat_graph *g;
  static model md;
  if (!g) {
    int64_t w[4] = {3, 2, 1, 1000000000}, m[4] = {4, 5, 1, 1000000000000LL};
    int src[4] = {0, 1, 0, 2}, dst[4] = {1, 2, 2, 3};
    g = graph_from_arrays(4, w, m, 4, src, dst, "fuzz");
    char err[256];
    if (model_build(&md, g, 2, 1000000000010LL, NULL, 2, err, sizeof err)) abort();
  }
  char *text = fuzz_text(data, size);
  model_sol x;
  model_sol_alloc(&md, &x);
  long long obj = 0;
  char err[512] = "";
  if (decode_solution(&md, text, &x, &obj, err, sizeof err) == 0) {
    char cerr[256];
    if (model_check(&md, &x, md.cap, cerr, sizeof cerr) == 0) {
      int *seq = NULL, len = 0;
      model_decode(&md, &x, &seq, &len);
      remat_sim s;
      (void)remat_simulate(g, seq, len, &s, NULL);
      free(seq);
    }
  } else {
    fuzz_require(err[0] != 0);
  }
  model_sol_free(&x);
  free(text);
  return 0;
}
