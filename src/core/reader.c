/* reader.c -- reading graphs from JSON (networkx node-link and native). */
#include "reader.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "idmap.h"
#include "util.h"


void reader_json_error(const json_error_t *je, const char *path, char *err,
                       size_t errlen) {
  const char *text = je->text;
  if (strstr(text, "too big integer"))
    util_err(err, errlen, REMAT_EUSAGE,
             "%s:%d:%d: integer does not fit in 64 bits (%s)", path,
             je->line, je->column, text);
  else
    util_err(err, errlen, REMAT_EUSAGE, "%s:%d:%d: JSON syntax error: %s",
             path, je->line, je->column, text);
}

int reader_id_string(const json_t *v, char *buf, size_t len) {
  if (json_is_integer(v)) {
    snprintf(buf, len, "%lld", (long long)json_integer_value(v));
    return 0;
  }
  if (json_is_string(v)) {
    size_t n = json_string_length(v);
    if (n >= len || memchr(json_string_value(v), 0, n)) return -1;
    memcpy(buf, json_string_value(v), n + 1);
    return 0;
  }
  return -1;
}

int reader_int_field(const json_t *obj, const char *key, int64_t *out,
                     const char *where, char *err, size_t errlen) {
  const json_t *v = json_object_get(obj, key);
  if (!v) return 1;
  if (json_is_integer(v)) {
    long long x = json_integer_value(v);
    if (x < 0)
      return util_err(err, errlen, -1, "%s: \"%s\" is negative (%lld)", where,
                      key, x);
    *out = (int64_t)x;
    return 0;
  }
  if (json_is_real(v)) {
    double d = json_real_value(v);
    if (d < 0)
      return util_err(err, errlen, -1, "%s: \"%s\" is negative (%g)", where,
                      key, d);
    if (d != floor(d) || d > 9007199254740992.0)
      return util_err(err, errlen, -1,
                      "%s: \"%s\" must be an integer, not %g", where, key, d);
    *out = (int64_t)d;
    return 0;
  }
  return util_err(err, errlen, -1,
                  "%s: \"%s\" must be a non-negative integer", where, key);
}

/* Field names of one input dialect. */
typedef struct dialect {
  const char *format;
  const char *id, *dur, *mem;
  const char *esrc, *edst; /* object edge keys; NULL: [src, dst] arrays */
} dialect;

static const dialect reader_dialect_a = {"networkx-a", "id", "cost_cpu",
                                         "cost_ram", "source", "target"};
static const dialect reader_dialect_b = {"networkx-b", "name", "duration",
                                         "out_cost", "0", "1"};
static const dialect reader_dialect_native = {"native", "id", "duration",
                                              "memory", NULL, NULL};

/* Pick the dialect from the document's shape. */
static const dialect *reader_detect(const json_t *root, const json_t *nodes,
                                    const json_t *edges) {
  const json_t *n0 = json_array_get(nodes, 0);
  const json_t *e0 = edges ? json_array_get(edges, 0) : NULL;
  int nx = json_object_get(root, "links") || json_is_object(e0);
  if (!nx && !json_is_array(e0) && n0) /* no edges: decide by node keys */
    nx = json_object_get(n0, "cost_ram") || json_object_get(n0, "out_cost");
  if (!nx) return &reader_dialect_native;
  if (n0 && (json_object_get(n0, "cost_ram") || json_object_get(n0, "cost_cpu")))
    return &reader_dialect_a;
  if (n0 && !json_object_get(n0, "id")) return &reader_dialect_b;
  return &reader_dialect_a;
}

static int reader_nodes(graph_raw *r, const json_t *nodes, const dialect *d,
                        idmap *ix, const char *path, char *err,
                        size_t errlen) {
  size_t i;
  const json_t *node;
  int64_t sum_w = 0, sum_m = 0;
  json_array_foreach(nodes, i, node) {
    char where[4400], id[4096];
    if (!json_is_object(node))
      return util_err(err, errlen, REMAT_EUSAGE,
                      "%s: node %zu is not a JSON object", path, i);
    const json_t *jid = json_object_get(node, d->id);
    if (!jid)
      return util_err(err, errlen, REMAT_EUSAGE,
                      "%s: node %zu has no \"%s\" field", path, i, d->id);
    if (reader_id_string(jid, id, sizeof id))
      return util_err(err, errlen, REMAT_EUSAGE,
                      "%s: node %zu: \"%s\" must be an integer or a string "
                      "(of at most 4095 bytes)",
                      path, i, d->id);
    if (!json_is_integer(jid)) r->ids_numeric = 0;
    r->id[i] = util_strdup(id);
    snprintf(where, sizeof where, "%.256s: node %zu (id %.4000s)", path, i, id);
    if (idmap_put(ix, r->id[i], (int)i) >= 0)
      return util_err(err, errlen, REMAT_EUSAGE, "%s: duplicate node id %s",
                      path, id);
    const char *keys[2] = {d->dur, d->mem};
    int64_t *dst[2] = {&r->w[i], &r->m[i]};
    for (int k = 0; k < 2; k++) {
      int rc = reader_int_field(node, keys[k], dst[k], where, err, errlen);
      if (rc > 0)
        return util_err(err, errlen, REMAT_EUSAGE, "%s: missing \"%s\"",
                        where, keys[k]);
      if (rc < 0) return REMAT_EUSAGE;
    }
    if (r->w[i] > INT64_MAX - sum_w || r->m[i] > INT64_MAX - sum_m)
      return util_err(err, errlen, REMAT_EUSAGE,
                      "%s: the total of durations or sizes exceeds 64 bits",
                      where);
    sum_w += r->w[i];
    sum_m += r->m[i];
    int64_t c = 0;
    int rc = reader_int_field(node, "copies", &c, where, err, errlen);
    if (rc < 0) return REMAT_EUSAGE;
    if (rc == 0 && (c < 1 || c > 1000000))
      return util_err(err, errlen, REMAT_EUSAGE,
                      "%s: \"copies\" must be between 1 and 1000000", where);
    r->copies[i] = (int)c;
    const char *lkey = d == &reader_dialect_a ? "name" : "label";
    const json_t *lab = json_object_get(node, lkey);
    if (json_is_string(lab)) r->label[i] = util_strdup(json_string_value(lab));
    const json_t *op = json_object_get(node, "op");
    if (json_is_string(op)) r->op[i] = util_strdup(json_string_value(op));
  }
  return 0;
}

static int reader_endpoint(const json_t *v, const idmap *ix, int *out,
                           const char *where, const char *path, char *err,
                           size_t errlen) {
  char id[4096];
  if (!v)
    return util_err(err, errlen, REMAT_EUSAGE, "%s: %s has a missing endpoint",
                    path, where);
  if (reader_id_string(v, id, sizeof id))
    return util_err(err, errlen, REMAT_EUSAGE,
                    "%s: %s: endpoints must be node ids", path, where);
  *out = idmap_get(ix, id);
  if (*out < 0)
    return util_err(err, errlen, REMAT_EUSAGE,
                    "%s: %s refers to unknown node %s", path, where, id);
  return 0;
}

static int reader_edges(graph_raw *r, const json_t *edges, const dialect *d,
                        const idmap *ix, const char *path, char *err,
                        size_t errlen) {
  size_t i;
  const json_t *e;
  json_array_foreach(edges, i, e) {
    char where[64];
    snprintf(where, sizeof where, "edge %zu", i);
    const json_t *a, *b;
    if (d->esrc) {
      if (!json_is_object(e))
        return util_err(err, errlen, REMAT_EUSAGE,
                        "%s: edge %zu is not a JSON object", path, i);
      a = json_object_get(e, d->esrc);
      b = json_object_get(e, d->edst);
      if (!a && d == &reader_dialect_a) { /* tolerate the other key style */
        a = json_object_get(e, "0");
        b = json_object_get(e, "1");
      } else if (!a) {
        a = json_object_get(e, "source");
        b = json_object_get(e, "target");
      }
    } else {
      if (!json_is_array(e) || json_array_size(e) != 2)
        return util_err(err, errlen, REMAT_EUSAGE,
                        "%s: edge %zu must be a [source, target] pair", path,
                        i);
      a = json_array_get(e, 0);
      b = json_array_get(e, 1);
    }
    int s, t;
    if (reader_endpoint(a, ix, &s, where, path, err, errlen) ||
        reader_endpoint(b, ix, &t, where, path, err, errlen))
      return REMAT_EUSAGE;
    graph_raw_add_edge(r, s, t);
  }
  return 0;
}

/* graph.order may be a JSON array or a string holding one ("[0, 3, 2]"). */
static int reader_order(graph_raw *r, const json_t *order, const idmap *ix,
                        const char *path, char *err, size_t errlen) {
  json_t *parsed = NULL;
  if (json_is_string(order)) {
    json_error_t je;
    parsed = json_loads(json_string_value(order), 0, &je);
    if (!parsed || !json_is_array(parsed)) {
      json_decref(parsed);
      return util_err(err, errlen, REMAT_EUSAGE,
                      "%s: graph.order is not a list of node ids", path);
    }
    order = parsed;
  }
  if (!json_is_array(order))
    return util_err(err, errlen, REMAT_EUSAGE,
                    "%s: the order must be a list of node ids", path);
  size_t n = json_array_size(order), i;
  r->order = util_malloc((n ? n : 1) * sizeof *r->order);
  r->norder = (int)n;
  const json_t *v;
  int rc = 0;
  json_array_foreach(order, i, v) {
    char id[4096];
    if (reader_id_string(v, id, sizeof id)) {
      rc = util_err(err, errlen, REMAT_EUSAGE,
                    "%s: order entry %zu is not a node id", path, i);
      break;
    }
    r->order[i] = idmap_get(ix, id);
    if (r->order[i] < 0) {
      rc = util_err(err, errlen, REMAT_EUSAGE,
                    "%s: the order names unknown node %s", path, id);
      break;
    }
  }
  json_decref(parsed);
  return rc;
}

/* Checkmate graphs flag each node "backward": keep the flags (by node
 * index) when every node has a boolean one. */
static void reader_backward(remat_graph *g, const json_t *nodes) {
  for (int i = 0; i < g->n; i++)
    if (!json_is_boolean(json_object_get(
            json_array_get(nodes, (size_t)g->file_index[i]), "backward")))
      return;
  g->backward = util_malloc((size_t)(g->n ? g->n : 1));
  for (int i = 0; i < g->n; i++)
    g->backward[i] = json_is_true(json_object_get(
        json_array_get(nodes, (size_t)g->file_index[i]), "backward"));
}

static remat_graph *reader_doc(const json_t *root, const char *path,
                               char *err, size_t errlen) {
  if (!json_is_object(root)) {
    util_err(err, errlen, REMAT_EUSAGE,
             "%s: expected a JSON object with \"nodes\"", path);
    return NULL;
  }
  const json_t *nodes = json_object_get(root, "nodes");
  if (!json_is_array(nodes)) {
    util_err(err, errlen, REMAT_EUSAGE, "%s: missing \"nodes\" array", path);
    return NULL;
  }
  const json_t *edges = json_object_get(root, "links");
  if (!edges) edges = json_object_get(root, "edges");
  if (edges && !json_is_array(edges)) {
    util_err(err, errlen, REMAT_EUSAGE, "%s: \"%s\" must be an array", path,
             json_object_get(root, "links") ? "links" : "edges");
    return NULL;
  }
  const dialect *d = reader_detect(root, nodes, edges);
  int n = (int)json_array_size(nodes);
  graph_raw r;
  graph_raw_init(&r, n);
  r.format = d->format;
  idmap ix;
  idmap_init(&ix, n);
  remat_graph *g = NULL;
  if (reader_nodes(&r, nodes, d, &ix, path, err, errlen)) goto done;
  if (edges && reader_edges(&r, edges, d, &ix, path, err, errlen)) goto done;
  const json_t *graph = json_object_get(root, "graph");
  const json_t *order = json_object_get(root, "order");
  if (!order && json_is_object(graph)) order = json_object_get(graph, "order");
  if (order && !json_is_null(order) &&
      reader_order(&r, order, &ix, path, err, errlen))
    goto done;
  const json_t *name = json_object_get(root, "name");
  if (!json_is_string(name) && json_is_object(graph))
    name = json_object_get(graph, "name");
  if (json_is_string(name)) r.name = util_strdup(json_string_value(name));
  g = graph_build(&r, path, err, errlen);
  if (g && g->n) reader_backward(g, nodes);
done:
  idmap_free(&ix);
  graph_raw_free(&r);
  return g;
}

remat_graph *remat_graph_read_buffer(const char *buf, size_t len,
                                     const char *path, char *err,
                                     size_t errlen) {
  json_error_t je;
  json_t *root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
  if (!root) {
    reader_json_error(&je, path, err, errlen);
    return NULL;
  }
  remat_graph *g = reader_doc(root, path, err, errlen);
  json_decref(root);
  return g;
}

/* A graph read from standard input is named "<stdin>" in messages and
 * "stdin" when the document has no name; it has no path to read again. */
static void reader_from_stdin(remat_graph *g) {
  free(g->path);
  g->path = NULL;
  if (strcmp(g->name, util_shown_path("-")) != 0) return;
  free(g->name);
  g->name = util_strdup("stdin");
}

remat_graph *remat_graph_read(const char *path, char *err, size_t errlen) {
  size_t len;
  int std = strcmp(path, "-") == 0;
  const char *shown = util_shown_path(path);
  char *buf = util_read_file(path, &len);
  if (!buf) {
    util_err(err, errlen, REMAT_EUSAGE, "cannot read %s: %s", shown,
             strerror(errno));
    return NULL;
  }
  remat_graph *g = remat_graph_read_buffer(buf, len, shown, err, errlen);
  free(buf);
  if (g && std) reader_from_stdin(g);
  return g;
}
