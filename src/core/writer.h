/* writer.h -- writing graphs in remat's native JSON format (docs/formats.md),
 * which reader.c reads back: a write -> read round trip gives the same
 * nodes (ids, durations, sizes, copies, backward flags, labels), edges,
 * order and name. */
#ifndef REMAT_WRITER_H
#define REMAT_WRITER_H

#include <stdio.h>

#include "remat.h"

/* Write g as
 *   {"format": "remat", "name": ..., "nodes": [{"id": ..., "duration": w,
 *    "memory": m[, "copies": C][, "backward": bool][, "label": "..."]},
 *    ...],
 *    "edges": [[src, dst], ...], "order": [ids...]}
 * ("copies" where g->copies[v] > 0, "backward" on every node when
 * g->backward is set, "label" where there is one), one node per line,
 * nodes in g's order (node 0 first), ids as JSON
 * integers when g->ids_numeric, else as strings.  Returns 0, or
 * REMAT_EUSAGE if writing to f failed (or a string is not UTF-8). */
int writer_graph_json(const remat_graph *g, FILE *f);

#endif
