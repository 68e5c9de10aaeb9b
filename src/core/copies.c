/* copies.c -- reading a copies file. */
#include "copies.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "options.h"
#include "reader.h"
#include "util.h"

/* One node's C_v from the map: 0, or REMAT_EUSAGE with a message. */
static int copies_value(const char *path, const char *key, const json_t *val,
                        int *c, char *err, size_t errlen) {
  json_int_t v = json_is_integer(val) ? json_integer_value(val) : 0;
  if (v >= 1 && v <= CLI_MAX_COPIES) {
    *c = (int)v;
    return 0;
  }
  char *text = json_dumps(val, JSON_ENCODE_ANY);
  util_err(err, errlen, REMAT_EUSAGE,
           "%s: copies of node %s must be an integer in [1, %d], not %s", path,
           key, CLI_MAX_COPIES, text ? text : "?");
  free(text);
  return REMAT_EUSAGE;
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
  free(buf);
  if (!root) {
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
  if (!rc)
    json_object_foreach(map, key, val) {
      int v = remat_graph_find(g, key);
      if (v < 0) {
        rc = util_err(err, errlen, REMAT_EUSAGE, "%s: unknown node id %s", shown,
                      key);
        break;
      }
      if ((rc = copies_value(shown, key, val, &c[v], err, errlen))) break;
    }
  json_decref(root);
  return rc;
}
