/* fuzz_graph.c -- the graph reader (every format: native, both networkx
 * dialects), then what `remat info` and the solvers do first with a graph:
 * its bounds, the input order simulated, and a write -> read round trip. */
#include "fuzz.h"

#include "graph.h"
#include "remat.h"
#include "sim.h"
#include "writer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char err[1024] = "";
  remat_graph *g =
      remat_graph_read_buffer((const char *)data, size, "fuzz.json", err, sizeof err);
  if (!g) {
    fuzz_require(err[0] != 0);
    fuzz_require(strncmp(err, "fuzz.json", 9) == 0);
    return 0;
  }
  fuzz_require(g->n > 0);
  int64_t topo = remat_topo_peak(g), lo = remat_graph_min_peak(g);
  fuzz_require(lo <= topo);
  (void)remat_graph_max_duration(g);
  int *seq = sim_topo_sequence(g);
  remat_sim s;
  fuzz_require(remat_simulate(g, seq, g->n, &s, NULL) == 0);
  fuzz_require(s.peak == topo && s.duration == remat_graph_base_duration(g));
  free(seq);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  int wrc = writer_graph_json(g, f);
  fclose(f);
  if (wrc == 0) {
    remat_graph *h = remat_graph_read_buffer(buf, len, "round-trip", err, sizeof err);
    fuzz_require(h != NULL);
    fuzz_require(h->n == g->n && h->n_edges == g->n_edges);
    for (int v = 0; v < g->n; v++)
      fuzz_require(h->w[v] == g->w[v] && h->m[v] == g->m[v] && !strcmp(h->id[v], g->id[v]));
    remat_graph_free(h);
  }
  free(buf);
  remat_graph_free(g);
  return 0;
}
