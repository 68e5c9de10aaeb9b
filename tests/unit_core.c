/* unit_core.c -- readers, simulator, budgets, the stage model, the
 * FlatZinc writer and the decoder. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#include "decode.h"
#include "extsolver.h"
#include "fzn.h"
#include "gecode.h"
#include "graph.h"
#include "model.h"
#include "oracle.h"
#include "remat.h"
#include "sim.h"
#include "util.h"

static remat_graph *read_str(const char *json, char *err, size_t len) {
  return remat_graph_read_buffer(json, strlen(json), "t.json", err, len);
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
  char err[256];
  remat_graph *g = read_str(dialect_a, err, sizeof err);
  assert_non_null(g);
  assert_string_equal(g->format, "networkx-a");
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
  char err[256];
  remat_graph *g = read_str(dialect_b, err, sizeof err);
  assert_non_null(g);
  assert_string_equal(g->format, "networkx-b");
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
  char err[256];
  remat_graph *g = read_str(
      "{\"name\": \"n\", \"nodes\": [{\"id\": \"a\", \"duration\": 1, \"memory\": 2,"
      " \"copies\": 3}, {\"id\": \"b\", \"duration\": 4, \"memory\": 5}],"
      " \"edges\": [[\"a\", \"b\"]], \"order\": [\"a\", \"b\"]}",
      err, sizeof err);
  assert_non_null(g);
  assert_string_equal(g->format, "native");
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

/* ---------------------------------------------------------- simulator */

/* chain a -> b -> c plus a -> c */
static remat_graph *small_graph(void) {
  int64_t w[3] = {2, 3, 5}, m[3] = {10, 20, 30};
  int src[3] = {0, 1, 0}, dst[3] = {1, 2, 2};
  return graph_from_arrays(3, w, m, 3, src, dst, "small");
}

static void test_sim_basic(void **state) {
  (void)state;
  remat_graph *g = small_graph();
  int seq[3] = {0, 1, 2};
  remat_sim s;
  int64_t mem[4];
  assert_int_equal(remat_simulate(g, seq, 3, &s, mem), 0);
  assert_true(mem[0] == 10 && mem[1] == 30 && mem[2] == 60);
  assert_true(s.peak == 60 && s.duration == 10 && s.peak_step == 2);
  assert_int_equal(s.recomputations, 0);
  /* recompute a before c: a's first copy dies after b */
  int seq2[4] = {0, 1, 0, 2};
  assert_int_equal(remat_simulate(g, seq2, 4, &s, mem), 0);
  assert_true(mem[1] == 30 && mem[2] == 30 && mem[3] == 60);
  assert_true(s.duration == 12 && s.recomputations == 1);
  remat_graph_free(g);
}

static void test_sim_invalid(void **state) {
  (void)state;
  remat_graph *g = small_graph();
  remat_sim s;
  int seq[2] = {1, 2};
  assert_int_equal(remat_simulate(g, seq, 2, &s, NULL), REMAT_EUSAGE);
  assert_false(s.valid);
  assert_non_null(strstr(s.error, "needs 0"));
  int seq2[2] = {0, 1};
  assert_int_equal(remat_simulate(g, seq2, 2, &s, NULL), REMAT_EUSAGE);
  assert_non_null(strstr(s.error, "never computed"));
  remat_graph_free(g);
}

/* ------------------------------------------------------------- budgets */

static void test_budget_parse(void **state) {
  (void)state;
  char err[256];
  int64_t b;
  static const struct {
    const char *text;
    int64_t topo, want;
  } ok[] = {
      {"0.9", 46319, 41687},     {"90%", 46319, 41687},
      {"0.8", 46319, 37055},     {"41687", 46319, 41687},
      {"12GiB", 1, 12884901888LL}, {"11.3GB", 1, 11300000000LL},
      {"512MiB", 1, 536870912},  {"1.5 KiB", 1, 1536},
      {"1", 777, 777},           {"100%", 777, 777},
      {"0.9", 38059356160LL, 34253420544LL},
      /* beyond 2^53 the floor is exact: 0.7 * 25263477133203963 =
         17684433993242774.1 (a double product gives ...772 or ...774) */
      {"0.7", 25263477133203963LL, 17684433993242774LL},
      {"70%", 25263477133203963LL, 17684433993242774LL},
      {"1", 25263477133203963LL, 25263477133203963LL},
      {"0.5", INT64_MAX, INT64_MAX / 2},
  };
  for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
    if (remat_budget_parse(ok[i].text, ok[i].topo, &b, err, sizeof err))
      fail_msg("'%s': %s", ok[i].text, err);
    if (b != ok[i].want)
      fail_msg("'%s': got %lld want %lld", ok[i].text, (long long)b,
               (long long)ok[i].want);
  }
  static const char *bad[] = {"", "abc", "-3", "1.5", "0", "120%", "3 parsecs",
                              "99999999999999999999"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    if (!remat_budget_parse(bad[i], 1000, &b, err, sizeof err))
      fail_msg("'%s' should be rejected", bad[i]);
  char buf[32];
  remat_format_size(34253420544LL, buf, sizeof buf);
  assert_string_equal(buf, "31.9 GiB");
}

/* --------------------------------------------------------------- model */

static void test_model_events(void **state) {
  (void)state;
  /* stage k has events k(k-1)/2 + 1 .. k(k+1)/2 */
  for (int k = 1; k < 200; k++)
    for (int p = 1; p <= k; p++) assert_int_equal(model_stage(model_event(k, p)), k);
  /* the ends of every stage whose events fit 32 bits (the square root's
   * rounding must not move an event to a neighbouring stage) */
  for (int k = 1; k <= 65535; k++) {
    assert_int_equal(model_stage(model_event(k, 1)), k);
    assert_int_equal(model_stage(model_event(k, k)), k);
  }
  assert_int_equal(model_first_start(0), 1);
  assert_int_equal(model_first_start(3), 10);
}

/* model_peak's sweep over sorted endpoints equals a load array over the
 * horizon, on random intervals (shared endpoints, touching intervals,
 * inactive and out-of-range copies included). */
static void test_model_peak_sweep(void **state) {
  (void)state;
  remat_graph *g = small_graph();
  model md;
  char err[256];
  assert_int_equal(model_build(&md, g, 2, 60, NULL, 2, err, sizeof err), 0);
  model_sol x;
  model_sol_alloc(&md, &x);
  uint64_t r = 5;
  for (int rep = 0; rep < 2000; rep++) {
    int64_t load[16] = {0}; /* events 1..horizon (10) */
    assert_true(md.horizon <= 13);
    for (int c = 0; c < md.ncopy; c++) {
      x.a[c] = util_below(&r, 4) != 0;
      x.s[c] = 1 + util_below(&r, md.horizon + 1);
      x.e[c] = x.s[c] - 1 + util_below(&r, 4);
      if (x.a[c] && x.s[c] <= x.e[c] && x.e[c] <= md.horizon)
        for (int t = x.s[c]; t <= x.e[c]; t++) load[t] += md.mem[md.node[c]];
    }
    int64_t peak = 0;
    for (int t = 1; t <= md.horizon; t++)
      if (load[t] > peak) peak = load[t];
    assert_true(model_peak(&md, &x) == peak);
  }
  model_sol_free(&x);
  model_free(&md);
  remat_graph_free(g);
}

static void test_model_encode_decode(void **state) {
  (void)state;
  remat_graph *g = small_graph();
  model md;
  char err[256];
  assert_int_equal(model_build(&md, g, 2, 60, NULL, 2, err, sizeof err), 0);
  /* the sink gets one copy */
  assert_int_equal(md.first[3] - md.first[2], 1);
  int seq[4] = {0, 1, 0, 2};
  model_sol x;
  model_sol_alloc(&md, &x);
  assert_int_equal(model_encode(&md, seq, 4, &x), 0);
  assert_int_equal(model_check(&md, &x, md.cap, err, sizeof err), 0);
  /* scaled peak equals the simulated one (sizes are multiples of 10) */
  assert_true(model_peak(&md, &x) * md.mem_q == 60);
  int *back, len;
  model_decode(&md, &x, &back, &len);
  assert_int_equal(len, 4);
  assert_memory_equal(back, seq, sizeof seq);
  free(back);
  /* stage-structured: a recomputed in stage 2 before b */
  int early[4] = {0, 0, 1, 2};
  assert_int_equal(model_encode(&md, early, 4, &x), 0);
  assert_int_equal(x.s[1], model_event(2, 1));
  /* not stage-structured: a stage recomputes b before a */
  int bad[5] = {0, 1, 1, 0, 2};
  assert_int_equal(model_encode(&md, bad, 5, &x), -1);
  model_sol_free(&x);
  model_free(&md);
  remat_graph_free(g);
}

static void test_model_scaling(void **state) {
  (void)state;
  /* sizes past 32 bits: divided by their gcd, rounded up beyond that */
  int64_t w[2] = {5000000000LL, 7}, m[2] = {3LL << 40, 1LL << 40};
  int src[1] = {0}, dst[1] = {1};
  remat_graph *g = graph_from_arrays(2, w, m, 1, src, dst, "big");
  model md;
  char err[256];
  assert_int_equal(model_build(&md, g, 1, 4LL << 40, NULL, 2, err, sizeof err), 0);
  assert_true(md.mem_q == 1LL << 40 && md.mem_exact);
  assert_int_equal(md.mem[0], 3);
  assert_int_equal(md.cap, 4);
  model_free(&md);
  remat_graph_free(g);
}

/* ------------------------------------------- FlatZinc writer + decoder */

typedef struct collect {
  const model *md;
  model_sol x;
  long long obj;
  int n;
} collect;

static int collect_solution(void *ctx, const char *text) {
  collect *c = ctx;
  char err[256];
  assert_int_equal(decode_solution(c->md, text, &c->x, &c->obj, err, sizeof err), 0);
  c->n++;
  return 0;
}

/* Solve phase 2 of a random DAG exactly with Gecode; the decoded optimum
 * equals the brute force, and every solution satisfies the model. */
static void test_fzn_roundtrip(void **state) {
  (void)state;
  for (uint64_t seed = 1; seed <= 6; seed++) {
    remat_graph *g = oracle_dag(5, 40, 9, 9, seed);
    int64_t minp, topo = remat_topo_peak(g);
    int64_t M = (remat_graph_min_peak(g) + topo) / 2;
    int64_t best = oracle_best(g, M, &minp);
    model md;
    char err[256];
    assert_int_equal(model_build(&md, g, 2, M, NULL, g->n, err, sizeof err), 0);
    util_buf text = {0};
    fzn_params fp;
    fzn_params_init(&fp);
    fp.external = 1; /* complete search, as an external solver gets it */
    fzn_write(&md, &fp, &text, NULL);
    collect c = {&md, {0}, 0, 0};
    model_sol_alloc(&md, &c.x);
    gz_params gp;
    gz_params_init(&gp);
    gp.on_solution = collect_solution;
    gp.ctx = &c;
    gz_stats st;
    gz_status status = gz_solve(text.s, text.len, &gp, &st, err, sizeof err);
    if (best < 0) {
      assert_int_equal(status, GZ_UNSAT);
    } else {
      assert_int_equal(status, GZ_OPTIMAL);
      assert_int_equal(model_check(&md, &c.x, md.cap, err, sizeof err), 0);
      int *seq, len;
      model_decode(&md, &c.x, &seq, &len);
      remat_sim s;
      assert_int_equal(remat_simulate(g, seq, len, &s, NULL), 0);
      assert_true(s.peak <= M);
      if (s.duration != best)
        fail_msg("seed %d: CP duration %lld, brute force %lld (M %lld)",
                 (int)seed, (long long)s.duration, (long long)best,
                 (long long)M);
      assert_true(c.obj == best - remat_graph_base_duration(g));
      free(seq);
    }
    model_sol_free(&c.x);
    util_buf_free(&text);
    model_free(&md);
    remat_graph_free(g);
  }
}

/* The in-process backend and an external fzn-gecode agree on the same
 * FlatZinc file. */
static void test_backends_agree(void **state) {
  (void)state;
  for (uint64_t seed = 11; seed <= 14; seed++) {
    remat_graph *g = oracle_dag(6, 40, 9, 9, seed);
    int64_t M = (remat_graph_min_peak(g) * 2 + remat_topo_peak(g)) / 3;
    model md;
    char err[1024];
    assert_int_equal(model_build(&md, g, 2, M, NULL, 3, err, sizeof err), 0);
    util_buf text = {0};
    fzn_params fp;
    fzn_params_init(&fp);
    fp.external = 1;
    fzn_write(&md, &fp, &text, NULL);
    char path[] = "/tmp/remat-test-XXXXXX.fzn";
    int fd = mkstemps(path, 4);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fwrite(text.s, 1, text.len, f);
    fclose(f);
    size_t len;
    char *again = util_read_file(path, &len);
    collect a = {&md, {0}, -1, 0}, b = {&md, {0}, -1, 0};
    model_sol_alloc(&md, &a.x);
    model_sol_alloc(&md, &b.x);
    gz_params gp;
    gz_params_init(&gp);
    gp.on_solution = collect_solution;
    gp.ctx = &a;
    gz_status s1 = gz_solve(again, len, &gp, NULL, err, sizeof err);
    ext_params ep = {"fzn-gecode", 20, NULL, collect_solution, &b, NULL};
    gz_status s2 = ext_solve(path, &ep, NULL, err, sizeof err);
    if (s1 != s2 || a.obj != b.obj)
      fail_msg("seed %d: in-process status %d obj %lld, fzn-gecode status %d "
               "obj %lld (%s)",
               (int)seed, s1, a.obj, s2, b.obj, err);
    unlink(path);
    free(again);
    model_sol_free(&a.x);
    model_sol_free(&b.x);
    util_buf_free(&text);
    model_free(&md);
    remat_graph_free(g);
  }
}

static void test_decode_errors(void **state) {
  (void)state;
  remat_graph *g = small_graph();
  model md;
  char err[256];
  model_build(&md, g, 2, 60, NULL, 2, err, sizeof err);
  model_sol x;
  model_sol_alloc(&md, &x);
  long long obj;
  assert_int_equal(decode_solution(&md, "S = array1d(1..2, [1, 3]);\n", &x, &obj,
                                   err, sizeof err),
                   -1);
  assert_non_null(strstr(err, "array S"));
  model_sol_free(&x);
  model_free(&md);
  remat_graph_free(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_reader_dialect_a),
      cmocka_unit_test(test_reader_dialect_b_order),
      cmocka_unit_test(test_reader_native),
      cmocka_unit_test(test_reader_errors),
      cmocka_unit_test(test_reader_shared_graphs),
      cmocka_unit_test(test_sim_basic),
      cmocka_unit_test(test_sim_invalid),
      cmocka_unit_test(test_budget_parse),
      cmocka_unit_test(test_model_events),
      cmocka_unit_test(test_model_peak_sweep),
      cmocka_unit_test(test_model_encode_decode),
      cmocka_unit_test(test_model_scaling),
      cmocka_unit_test(test_fzn_roundtrip),
      cmocka_unit_test(test_backends_agree),
      cmocka_unit_test(test_decode_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
