/* writer.c -- remat's native JSON format (see writer.h). */
#include "writer.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#define WRITER_FLAGS (JSON_ENCODE_ANY | JSON_PRESERVE_ORDER)
#define WRITER_EDGES_PER_LINE 8
#define WRITER_IDS_PER_LINE 16

/* Node v's id as a JSON value: an integer if the graph's ids were integers
 * (and this one is in canonical form), else a string. */
static json_t *writer_id(const remat_graph *g, int v) {
  const char *s = g->id[v];
  if (g->ids_numeric) {
    char *end, back[32];
    errno = 0;
    long long x = strtoll(s, &end, 10);
    snprintf(back, sizeof back, "%lld", x);
    if (!errno && end != s && !*end && !strcmp(back, s))
      return json_integer((json_int_t)x);
  }
  return json_string(s);
}

/* Dump one value (consumed); returns nonzero on failure. */
static int writer_value(json_t *v, FILE *f) {
  int rc = !v || json_dumpf(v, f, WRITER_FLAGS);
  json_decref(v);
  return rc;
}

static json_t *writer_node(const remat_graph *g, int v) {
  json_t *o = json_object();
  json_object_set_new(o, "id", writer_id(g, v));
  json_object_set_new(o, "duration", json_integer((json_int_t)g->w[v]));
  json_object_set_new(o, "memory", json_integer((json_int_t)g->m[v]));
  if (g->copies && g->copies[v] > 0)
    json_object_set_new(o, "copies", json_integer(g->copies[v]));
  if (g->backward)
    json_object_set_new(o, "backward", json_boolean(g->backward[v]));
  if (g->label && g->label[v])
    json_object_set_new(o, "label", json_string(g->label[v]));
  if (g->op && g->op[v]) json_object_set_new(o, "op", json_string(g->op[v]));
  return o;
}

static int writer_nodes(const remat_graph *g, FILE *f) {
  int rc = fputs("  \"nodes\": [\n", f) < 0;
  for (int v = 0; v < g->n && !rc; v++) {
    rc |= fputs("    ", f) < 0;
    rc |= writer_value(writer_node(g, v), f);
    rc |= fputs(v + 1 < g->n ? ",\n" : "\n", f) < 0;
  }
  return rc | (fputs("  ],\n", f) < 0);
}

static int writer_edges(const remat_graph *g, FILE *f) {
  int rc = fputs("  \"edges\": [", f) < 0, k = 0;
  for (int u = 0; u < g->n && !rc; u++)
    for (int j = g->succ_off[u]; j < g->succ_off[u + 1] && !rc; j++, k++) {
      rc |= fputs(k ? "," : "", f) < 0;
      rc |= fputs(k % WRITER_EDGES_PER_LINE ? " " : "\n    ", f) < 0;
      json_t *e = json_array();
      json_array_append_new(e, writer_id(g, u));
      json_array_append_new(e, writer_id(g, g->succ[j]));
      rc |= writer_value(e, f);
    }
  return rc | (fputs(k ? "\n  ],\n" : "],\n", f) < 0);
}

static int writer_order(const remat_graph *g, FILE *f) {
  int rc = fputs("  \"order\": [", f) < 0;
  for (int v = 0; v < g->n && !rc; v++) {
    rc |= fputs(v ? "," : "", f) < 0;
    rc |= fputs(v % WRITER_IDS_PER_LINE ? " " : "\n    ", f) < 0;
    rc |= writer_value(writer_id(g, v), f);
  }
  return rc | (fputs("\n  ]\n", f) < 0);
}

int writer_graph_json(const remat_graph *g, FILE *f) {
  int rc = fputs("{\n  \"format\": \"remat\",\n", f) < 0;
  if (g->name) {
    rc |= fputs("  \"name\": ", f) < 0;
    rc |= writer_value(json_string(g->name), f);
    rc |= fputs(",\n", f) < 0;
  }
  rc |= writer_nodes(g, f);
  rc |= writer_edges(g, f);
  rc |= writer_order(g, f);
  rc |= fputs("}\n", f) < 0;
  rc |= fflush(f) != 0 || ferror(f);
  return rc ? REMAT_EUSAGE : 0;
}
