/* copies.c -- reading a copies file. */
#include "copies.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "jsonpos.h"
#include "options.h"
#include "reader.h"
#include "util.h"

/* "FILE:LINE:COL" of the key in the text, or "FILE" where it cannot be
 * found. */
static void copies_where(const char *shown, const char *buf, size_t len, const char *key,
                         char *where, size_t wlen) {
  int line, col;
  if (jpos_key(buf, len, "copies", key, &line, &col) == 0)
    snprintf(where, wlen, "%s:%d:%d", shown, line, col);
  else
    snprintf(where, wlen, "%s", shown);
}

/* One node's C_v from the map, when it is one: an integer in [1,
 * CLI_MAX_COPIES]. */
static int copies_ok(const json_t *val, int *c) {
  json_int_t v = json_is_integer(val) ? json_integer_value(val) : 0;
  if (v < 1 || v > CLI_MAX_COPIES) return 0;
  *c = (int)v;
  return 1;
}

int copies_file_read(const char *path, const remat_graph *g, int *c, char *err,
                     size_t errlen) {
  const char *shown = util_shown_path(path);
  size_t len;
  char *buf = util_read_file(path, &len);
  if (!buf)
    return util_err(err, errlen, REMAT_EUSAGE, "cannot read %s: %s", shown,
                    strerror(errno));
  json_error_t je;
  json_t *root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
  if (!root) {
    free(buf);
    reader_json_error(&je, shown, err, errlen);
    return REMAT_EUSAGE;
  }
  json_t *map = json_object_get(root, "copies");
  if (!map) map = root;
  int rc = 0;
  if (!json_is_object(map))
    rc = util_err(err, errlen, REMAT_EUSAGE,
                  "%s: expected a JSON object {node id: copies}", shown);
  const char *key;
  json_t *val;
  char where[1024];
  if (!rc)
    json_object_foreach(map, key, val) {
      int v = remat_graph_find(g, key), own = v >= 0 && g->copies ? g->copies[v] : 0;
      if (v >= 0 && copies_ok(val, &c[v]) && (own <= 0 || c[v] <= own)) continue;
      copies_where(shown, buf, len, key, where, sizeof where);
      if (v < 0) {
        rc = util_err(err, errlen, REMAT_EUSAGE, "%s: unknown node id %s", where, key);
      } else if (own > 0 && c[v] > own) {
        rc = util_err(err, errlen, REMAT_EUSAGE,
                      "%s: node %s is computed at most %d time%s (its \"copies\" in the graph), "
                      "not %d", where, key, own, own == 1 ? "" : "s", c[v]);
      } else {
        char *text = json_dumps(val, JSON_ENCODE_ANY);
        rc = util_err(err, errlen, REMAT_EUSAGE,
                      "%s: copies of node %s must be an integer in [1, %d], not %s", where, key,
                      CLI_MAX_COPIES, text ? text : "?");
        free(text);
      }
      break;
    }
  free(buf);
  json_decref(root);
  return rc;
}
