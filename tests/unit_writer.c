/* unit_writer.c -- the native JSON writer (writer.c): write then read
 * gives the same graph and writing again the same text; string ids,
 * copies, escapes and the order survive; a write error is reported. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "graph.h"
#include "writer.h"

static char *write_text(const remat_graph *g, size_t *len) {
  memout mo;
  assert_int_equal(writer_graph_json(g, memout_open(&mo)), 0);
  char *buf = memout_close(&mo);
  *len = mo.len;
  return buf;
}

/* write -> read gives the same graph; writing again gives the same text */
static void check_round_trip(const remat_graph *g) {
  size_t len, len2;
  char *text = write_text(g, &len);
  char err[512];
  remat_graph *h = remat_graph_read_buffer(text, len, "mem.json", err,
                                           sizeof err);
  if (!h) fail_msg("%s\n%s", err, text);
  assert_true(same_graph(g, h));
  assert_string_equal(h->format, "native");
  assert_string_equal(h->name, g->name);
  assert_int_equal(h->ids_numeric, g->ids_numeric);
  assert_int_equal(!h->backward, !g->backward);
  for (int v = 0; v < g->n; v++) {
    assert_int_equal(h->copies[v], g->copies[v]);
    if (g->backward) assert_int_equal(h->backward[v], g->backward[v]);
    assert_int_equal(h->file_index[v], v);
    if (g->label[v])
      assert_string_equal(h->label[v], g->label[v]);
    else
      assert_null(h->label[v]);
  }
  assert_int_equal(memcmp(g->pred, h->pred, (size_t)g->n_edges * sizeof *g->pred), 0);
  char *text2 = write_text(h, &len2);
  assert_int_equal(len, len2);
  assert_string_equal(text, text2);
  free(text);
  free(text2);
  remat_graph_free(h);
}

static void test_writer_round_trip(void **state) {
  (void)state;
  remat_graph *gs[] = {gen_layered(60, 2), gen_training(5, 1),
                       gen_unet(2, 1), gen_random_dag(1, 0, 1),
                       gen_random_dag(9, 40, 3)};
  for (size_t i = 0; i < sizeof gs / sizeof *gs; i++) {
    check_round_trip(gs[i]);
    remat_graph_free(gs[i]);
  }
}

/* String ids, copies, labels with escapes, an order that differs from the
 * file order and a large size survive the round trip. */
static void test_writer_strings(void **state) {
  (void)state;
  static const char *src =
      "{\"name\": \"t \\\"q\\\"\", \"nodes\": ["
      "{\"id\": \"b\", \"duration\": 3, \"memory\": 9007199254740993,"
      " \"backward\": true},"
      "{\"id\": \"a\", \"duration\": 0, \"memory\": 1, \"copies\": 3,"
      " \"label\": \"x\\ny \\u00e9\", \"backward\": false},"
      "{\"id\": \"7\", \"duration\": 5, \"memory\": 2, \"backward\": false}],"
      "\"edges\": [[\"a\", \"b\"], [\"a\", \"7\"], [\"7\", \"b\"]],"
      "\"order\": [\"a\", \"7\", \"b\"]}";
  char err[512];
  remat_graph *g = remat_graph_read_buffer(src, strlen(src), "s.json", err,
                                           sizeof err);
  if (!g) fail_msg("%s", err);
  assert_false(g->ids_numeric);
  assert_string_equal(g->id[0], "a");
  assert_string_equal(g->id[2], "b");
  assert_non_null(g->backward);
  assert_true(!g->backward[0] && !g->backward[1] && g->backward[2]);
  check_round_trip(g);
  size_t len;
  char *text = write_text(g, &len);
  assert_non_null(strstr(text, "\"id\": \"7\""));
  assert_non_null(strstr(text, "\"copies\": 3"));
  assert_non_null(strstr(text, "\"backward\": true"));
  assert_non_null(strstr(text, "\"format\": \"remat\""));
  free(text);
  remat_graph_free(g);
}

static void test_writer_error(void **state) {
  (void)state;
  remat_graph *g = gen_training(2, 1);
  FILE *f = fopen("/dev/full", "w");
  if (f) {
    setvbuf(f, NULL, _IONBF, 0);
    assert_int_equal(writer_graph_json(g, f), REMAT_EUSAGE);
    fclose(f);
  }
  remat_graph_free(g);
}

UNIT_TESTS(test_writer_round_trip, test_writer_strings, test_writer_error)
