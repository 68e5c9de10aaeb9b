/* fuzz_schedule.c -- a schedule or result file for a fixed graph (what
 * `remat eval` and `remat plot` read): the sequence reader, the simulator
 * and the interval and memory pictures of what it accepts. */
#include "fuzz.h"

#include "graph.h"
#include "plot.h"
#include "remat.h"
#include "result.h"

static remat_graph *fuzz_graph(void) {
  static const char text[] =
      "{\"nodes\": [{\"id\": \"a\", \"duration\": 3, \"memory\": 4},"
      "{\"id\": \"b\", \"duration\": 2, \"memory\": 5},"
      "{\"id\": 7, \"duration\": 1, \"memory\": 1},"
      "{\"id\": \"d\", \"duration\": 1000000000, \"memory\": 1000000000000}],"
      "\"edges\": [[\"a\", \"b\"], [\"b\", 7], [\"a\", 7], [7, \"d\"]]}";
  char err[256];
  remat_graph *g = remat_graph_read_buffer(text, sizeof text - 1, "g.json", err, sizeof err);
  if (!g) abort();
  return g;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static remat_graph *g;
  if (!g) g = fuzz_graph();
  char path[64];
  if (fuzz_file(data, size, "schedule", path)) return 0;
  int *seq = NULL, len = 0;
  char err[1024] = "";
  int rc = result_read_sequence(path, g, &seq, &len, err, sizeof err);
  unlink(path);
  if (rc) {
    fuzz_require(err[0] != 0);
    return 0;
  }
  remat_sim s;
  int64_t *mem = malloc((size_t)(len ? len : 1) * sizeof *mem);
  if (remat_simulate(g, seq, len, &s, mem) == 0) {
    for (int j = 0; j < len; j++) fuzz_require(mem[j] >= 0 && mem[j] <= s.peak);
    plot_opts o;
    plot_opts_init(&o);
    FILE *f = fopen("/dev/null", "w");
    fuzz_require(plot_intervals(f, g, seq, len, &o, err, sizeof err) == 0);
    plot_schedule ps = {"fuzz", seq, len};
    fuzz_require(plot_memory(f, g, &ps, 1, &o, err, sizeof err) == 0);
    fclose(f);
  } else {
    fuzz_require(s.error[0] != 0);
  }
  free(mem);
  free(seq);
  return 0;
}
