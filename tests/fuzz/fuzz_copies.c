/* fuzz_copies.c -- a copies file (--copies FILE, what tune-copies writes)
 * for a fixed graph: the reader accepts only C_v in [1, CLI_MAX_COPIES]
 * for nodes of the graph, every failure has a message, and the copies it
 * accepts go into the next step a solve takes, the stage model's event
 * count; node b's own "copies" 1 is never raised.  Also the scanner that finds a key's line and column again
 * (jsonpos.h), on the raw bytes: a position inside them or none. */
#include "fuzz.h"

#include "copies.h"
#include "graph.h"
#include "jsonpos.h"
#include "options.h"
#include "remat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static remat_graph *g;
  if (!g) {
    static const char text[] =
        "{\"nodes\": [{\"id\": \"a\", \"duration\": 3, \"memory\": 4},"
        "{\"id\": \"b\", \"duration\": 2, \"memory\": 5, \"copies\": 1},"
        "{\"id\": 7, \"duration\": 1, \"memory\": 1}],"
        "\"edges\": [[\"a\", \"b\"], [\"b\", 7], [\"a\", 7]]}";
    char err[256];
    g = remat_graph_read_buffer(text, sizeof text - 1, "g.json", err, sizeof err);
    if (!g) abort();
  }
  int line, col;
  if (jpos_key((const char *)data, size, "copies", "a", &line, &col) == 0)
    fuzz_require(line >= 1 && col >= 1 && (size_t)line <= size && (size_t)col <= size);
  char path[64];
  if (fuzz_file(data, size, "copies", path)) return 0;
  int c[3] = {2, 1, 2}; /* b's own, as remat solve starts from it */
  char err[1024] = "";
  if (copies_file_read(path, g, c, err, sizeof err) == 0) {
    int64_t events = 0;
    for (int v = 0; v < g->n; v++) {
      fuzz_require(c[v] >= 1 && c[v] <= CLI_MAX_COPIES);
      events += c[v];
    }
    fuzz_require(c[1] == 1); /* a node's own C_v is a ceiling */
    fuzz_require(events >= g->n);
  } else {
    fuzz_require(err[0] != 0);
  }
  unlink(path);
  return 0;
}
