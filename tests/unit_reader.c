/* unit_reader.c -- the graph readers: both networkx dialects and the
 * native format, the catalogue of malformed inputs, and the published
 * graphs (sizes, input-order peaks and budgets) when REMAT_GRAPHS has them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "graph.h"
#include "jsonpos.h"
#include "remat.h"

static remat_graph *read_str(const char *json, char *err, size_t len) {
  return remat_graph_read_buffer(json, strlen(json), "t.json", err, len);
}

/* json read without error as a graph of the given format. */
static remat_graph *read_ok(const char *json, const char *format) {
  char err[256];
  remat_graph *g = read_str(json, err, sizeof err);
  if (!g) fail_msg("%s", err);
  assert_string_equal(g->format, format);
  return g;
}

/* dialect A: Checkmate graphs (ids, cost_cpu, cost_ram, source/target) */
static const char *dialect_a =
    "{\"directed\": true, \"multigraph\": false, \"graph\": {\"name\": \"A\"},"
    " \"nodes\": [{\"name\": \"conv\", \"backward\": false, \"cost_cpu\": "
    "13985906688, \"cost_ram\": 5000000000, \"id\": 0},"
    " {\"name\": \"relu\", \"backward\": false, \"cost_cpu\": 7, \"cost_ram\": 3, \"id\": 1},"
    " {\"name\": \"grad\", \"backward\": true, \"cost_cpu\": 9, \"cost_ram\": 4, \"id\": 2}],"
    " \"links\": [{\"source\": 0, \"target\": 1}, {\"source\": 1, \"target\": 2},"
    " {\"source\": 0, \"target\": 2}]}";

/* dialect B: random layered graphs (name is the id, "0"/"1" links, order
 * as a string; ids are not topological) */
static const char *dialect_b =
    "{\"directed\": true, \"multigraph\": false, \"graph\": {\"name\": \"B\", "
    "\"order\": \"[0, 2, 1]\"}, \"nodes\": [{\"out_cost\": 10, \"param_cost\": 0, "
    "\"duration\": 0, \"name\": 0}, {\"out_cost\": 30, \"param_cost\": 0, "
    "\"duration\": 0, \"name\": 1}, {\"out_cost\": 20, \"param_cost\": 0, "
    "\"duration\": 5, \"name\": 2}], \"links\": [{\"0\": 0, \"1\": 2}, "
    "{\"0\": 2, \"1\": 1}, {\"0\": 0, \"1\": 1}]}";

static void test_reader_dialect_a(void **state) {
  (void)state;
  remat_graph *g = read_ok(dialect_a, "networkx-a");
  assert_int_equal(g->n, 3);
  assert_int_equal(g->n_edges, 3);
  assert_true(g->w[0] == 13985906688LL);
  assert_true(g->m[0] == 5000000000LL);
  assert_string_equal(g->label[1], "relu");
  assert_true(g->ids_numeric);
  assert_int_equal(remat_graph_find(g, "2"), 2);
  /* 0 -> 2 and 1 -> 2: node 2 needs 5e9 + 3 + 4 */
  assert_true(remat_graph_min_peak(g) == 5000000007LL);
  remat_graph_free(g);
}

static void test_reader_dialect_b_order(void **state) {
  (void)state;
  remat_graph *g = read_ok(dialect_b, "networkx-b");
  /* internal order follows graph.order: ids 0, 2, 1 */
  assert_string_equal(g->id[0], "0");
  assert_string_equal(g->id[1], "2");
  assert_string_equal(g->id[2], "1");
  assert_true(g->w[1] == 5);
  assert_true(g->m[2] == 30);
  for (int v = 0; v < g->n; v++)
    for (int j = g->pred_off[v]; j < g->pred_off[v + 1]; j++)
      assert_true(g->pred[j] < v);
  /* topo peak: step 2 (id 1) holds 10 + 20 + 30 */
  assert_true(remat_topo_peak(g) == 60);
  remat_graph_free(g);
}

static void test_reader_native(void **state) {
  (void)state;
  remat_graph *g = read_ok(
      "{\"name\": \"n\", \"nodes\": [{\"id\": \"a\", \"duration\": 1, \"memory\": 2,"
      " \"copies\": 3}, {\"id\": \"b\", \"duration\": 4, \"memory\": 5}],"
      " \"edges\": [[\"a\", \"b\"]], \"order\": [\"a\", \"b\"]}",
      "native");
  assert_false(g->ids_numeric);
  assert_int_equal(g->copies[0], 3);
  assert_int_equal(g->copies[1], 0);
  assert_string_equal(g->name, "n");
  remat_graph_free(g);
}

typedef struct bad_case {
  const char *json, *expect;
} bad_case;

static void test_reader_errors(void **state) {
  (void)state;
  static const bad_case cases[] = {
      {"{\"nodes\": [", "t.json:1:"},
      {"[1, 2]", "expected a JSON object"},
      {"{\"edges\": []}", "missing \"nodes\" array"},
      {"{\"nodes\": [], \"edges\": []}", "the graph has no nodes"},
      {"{\"nodes\": [{\"id\": 0, \"memory\": 1}], \"edges\": []}",
       "missing \"duration\""},
      {"{\"nodes\": [{\"id\": 0, \"duration\": 1.5, \"memory\": 1}], \"edges\": []}",
       "\"duration\" must be an integer"},
      {"{\"nodes\": [{\"id\": 0, \"duration\": -1, \"memory\": 1}], \"edges\": []}",
       "\"duration\" is negative"},
      {"{\"nodes\": [{\"id\": 0, \"duration\": 1, \"memory\": 99999999999999999999}]}",
       "does not fit in 64 bits"},
      {"{\"nodes\": [{\"id\": 0, \"duration\": 1, \"memory\": 1}], \"edges\": [[0, 7]]}",
       "edge 0 refers to unknown node 7"},
      {"{\"nodes\": [{\"id\": 0, \"duration\": 1, \"memory\": 1}, {\"id\": 0, "
       "\"duration\": 1, \"memory\": 1}]}",
       "duplicate node id 0"},
      {"{\"nodes\": [{\"id\": 0, \"duration\": 1, \"memory\": 1}], \"edges\": [[0, 0]]}",
       "self-loop on node 0"},
      {"{\"nodes\": [{\"id\": \"x\", \"duration\": 1, \"memory\": 1}, {\"id\": \"y\","
       " \"duration\": 1, \"memory\": 1}], \"edges\": [[\"x\", \"y\"], [\"y\", \"x\"]]}",
       "cycle: x -> y -> x"},
      {"{\"nodes\": [{\"id\": 0, \"duration\": 1, \"memory\": 1}, {\"id\": 1, "
       "\"duration\": 1, \"memory\": 1}], \"edges\": [[0, 1]], \"order\": [1, 0]}",
       "node 1 comes before its predecessor 0"},
      {"{\"nodes\": [{\"id\": 0, \"duration\": 1, \"memory\": 1}], \"order\": [0, 0]}",
       "lists 2 nodes but the graph has 1"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char err[512] = "";
    remat_graph *g = read_str(cases[i].json, err, sizeof err);
    if (g || !strstr(err, cases[i].expect))
      fail_msg("case %zu: got '%s', want '%s'", i, err, cases[i].expect);
  }
}

static void test_reader_shared_graphs(void **state) {
  (void)state;
  const char *dir = getenv("REMAT_GRAPHS");
  if (!dir) dir = "../shared/graphs";
  static const struct {
    const char *file;
    int n, edges;
    long long topo, b9, b8;
  } known[] = {
      {"random_layered_n100.json", 100, 236, 46319, 41687, 37055},
      {"ResNet50_train_nx.json", 353, 751, 38059356160LL, 34253420544LL,
       30447484928LL},
      {"fcn_8_vgg_train_nx.json", 73, 149, 13484795520LL, 12136315968LL,
       10787836416LL},
  };
  for (size_t i = 0; i < sizeof known / sizeof *known; i++) {
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/%s", dir, known[i].file);
    FILE *f = fopen(path, "r");
    if (!f) {
      fprintf(stderr, "  (skipping %s: not found; set REMAT_GRAPHS)\n", path);
      continue;
    }
    fclose(f);
    remat_graph *g = remat_graph_read(path, err, sizeof err);
    assert_non_null(g);
    assert_int_equal(g->n, known[i].n);
    assert_int_equal(g->n_edges, known[i].edges);
    int64_t topo = remat_topo_peak(g), b;
    assert_true(topo == known[i].topo);
    assert_int_equal(remat_budget_parse("0.9", topo, &b, err, sizeof err), 0);
    assert_true(b == known[i].b9);
    assert_int_equal(remat_budget_parse("80%", topo, &b, err, sizeof err), 0);
    assert_true(b == known[i].b8);
    remat_graph_free(g);
  }
}

/* jpos_key: a member's key found again in the text, with its line and
 * column (from 1, its opening quote): in the top-level object or in the
 * object its member names, through nested values, strings holding
 * braces and quotes, and escaped keys; -1 where it is not there or the
 * text is no object (cut short anywhere: never read past the end). */
static void test_jsonpos(void **state) {
  (void)state;
  int line = 0, col = 0;
  const char *t = "{\"a\": 1, \"b\": [1, {\"a\": 2}, \"}\\\"\"],\n  \"c\": {\"a\": 3}}";
  size_t n = strlen(t);
  assert_int_equal(jpos_key(t, n, NULL, "a", &line, &col), 0);
  assert_int_equal(line, 1);
  assert_int_equal(col, 2);
  assert_int_equal(jpos_key(t, n, "c", "a", &line, &col), 0);
  assert_int_equal(line, 2);
  assert_int_equal(col, 9);
  /* no member "x": the top level's own key */
  assert_int_equal(jpos_key(t, n, "x", "c", &line, &col), 0);
  assert_int_equal(line, 2);
  assert_int_equal(col, 3);
  assert_int_equal(jpos_key(t, n, "c", "b", &line, &col), -1);
  assert_int_equal(jpos_key(t, n, NULL, "z", &line, &col), -1);
  const char *e = "{\"copies\": {\"x\": 1,\n\t\"\\u00e9t\\u00e9\": 0}}";
  assert_int_equal(jpos_key(e, strlen(e), "copies", "\xc3\xa9t\xc3\xa9", &line, &col), 0);
  assert_int_equal(line, 2);
  assert_int_equal(col, 2);
  assert_int_equal(jpos_key("[1]", 3, NULL, "a", &line, &col), -1);
  assert_int_equal(jpos_key("", 0, NULL, "a", &line, &col), -1);
  for (size_t k = 0; k < n; k++) /* cut short: -1 unless "a" came first */
    if (jpos_key(t, k, "c", "a", &line, &col) == 0) assert_true(k >= strlen("{\"a\":"));
}

UNIT_TESTS(test_reader_dialect_a, test_reader_dialect_b_order,
           test_reader_native, test_reader_errors, test_reader_shared_graphs, test_jsonpos)
