/* copies.h -- the copies file: C_v per node, {"node id": C_v, ...} or
 * {"copies": {...}} (what `remat tune-copies -o` writes). */
#ifndef REMAT_COPIES_H
#define REMAT_COPIES_H

#include <stddef.h>

#include "remat.h"

/* Read path ("-": standard input) and set c[v] for every node it names
 * (the others keep their value).  Returns 0, or REMAT_EUSAGE with a
 * message: "cannot read PATH: ...", "PATH:LINE:COL: JSON syntax error:
 * ...", "PATH: expected a JSON object {node id: copies}", "PATH: unknown
 * node id X", "PATH: copies of node X must be an integer in [1, N], not
 * V" (N: CLI_MAX_COPIES) or "PATH: node X is computed at most K time(s) (its
 * "copies" in the graph), not V" (a node's own C_v is a ceiling,
 * graph_copies_cap).  c may be partly set after a failure. */
int copies_file_read(const char *path, const remat_graph *g, int *c, char *err,
                     size_t errlen);

#endif
