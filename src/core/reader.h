/* reader.h -- graph files: networkx node-link JSON (both dialects of the
 * Moccasin benchmark graphs) and remat's native JSON format.  The public
 * entry points are remat_graph_read() and remat_graph_read_buffer(). */
#ifndef REMAT_READER_H
#define REMAT_READER_H

#include <jansson.h>

#include "remat.h"

/* Canonical string form of a JSON node id (integer or string); writes into
 * buf and returns 0, or returns -1 if the value is neither. */
int reader_id_string(const json_t *v, char *buf, size_t len);

/* Read a non-negative 64-bit integer field (integral reals accepted).
 * Returns 0, 1 if absent, -1 if present but invalid (message in err). */
int reader_int_field(const json_t *obj, const char *key, int64_t *out,
                     const char *where, char *err, size_t errlen);

/* Format a jansson load error as "FILE:LINE:COL: message". */
void reader_json_error(const json_error_t *je, const char *path, char *err,
                       size_t errlen);

#endif
