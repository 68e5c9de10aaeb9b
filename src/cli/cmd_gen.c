/* cmd_gen.c -- remat gen: write a generated graph in the native format. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "cmdutil.h"
#include "gen.h"
#include "writer.h"
#include "util.h"

#define GEN_CMD_UNET_DEPTH 4     /* unet's depth when --nodes is not given */
#define GEN_CMD_LAYERED_MIN 3    /* layered: input, hidden and output */

/* Generate the graph of `kind` (NULL with a message on bad arguments).
 * The option table bounds --nodes; what a kind needs beyond that is
 * checked here, in the table's message format. */
static remat_graph *gen_cmd_make(const char *name, const char *kind,
                                 const cli_opts *o) {
  long n = o->nodes;
  uint64_t seed = (uint64_t)o->seed;
  int unet = !strcmp(kind, "unet"), layered = !strcmp(kind, "layered");
  if (!unet && !layered && strcmp(kind, "training")) {
    fprintf(stderr,
            "remat %s: unknown graph kind '%s' (layered, training or unet)\n",
            name, kind);
    return NULL;
  }
  if (unet && !o->nodes_set) n = GEN_CMD_UNET_DEPTH;
  long lo = layered ? GEN_CMD_LAYERED_MIN : 1;
  if (n < lo || (unet && n > GEN_UNET_MAX_DEPTH)) {
    fprintf(stderr, "remat %s: %s: --nodes%s must be an integer in [%ld, %ld], "
                    "not '%ld'\n",
            name, kind, unet ? " (the depth)" : "", lo,
            unet ? (long)GEN_UNET_MAX_DEPTH : (long)CLI_MAX_NODES, n);
    return NULL;
  }
  if (unet) return gen_unet((int)n, seed);
  return layered ? gen_layered((int)n, seed) : gen_training((int)n, seed);
}

/* Write g to path (stdout when NULL); returns 0 or 2 after a message. */
static int gen_cmd_write(const char *name, const remat_graph *g,
                         const char *path) {
  FILE *f = util_out_open(path);
  if (!f) {
    fprintf(stderr, "remat %s: cannot write %s: %s\n", name, path,
            strerror(errno));
    return 2;
  }
  int rc = writer_graph_json(g, f);
  if (util_out_close(f)) rc = 2;
  if (rc)
    fprintf(stderr, "remat %s: error writing %s\n", name,
            util_is_stdout(path) ? "standard output" : path);
  return rc ? 2 : 0;
}

int cmd_gen(const char *name, const cli_opts *o) {
  remat_graph *g = gen_cmd_make(name, o->pos[0], o);
  if (!g) return 2;
  int rc = gen_cmd_write(name, g, o->output);
  if (!rc && !o->quiet)
    fprintf(stderr, "remat %s: %s: %d nodes, %d edges, topo peak %lld%s%s\n",
            name, g->name, g->n, g->n_edges, (long long)remat_topo_peak(g),
            o->output ? " -> " : "",
            !o->output ? "" : strcmp(o->output, "-") ? o->output : "standard output");
  remat_graph_free(g);
  return rc;
}
