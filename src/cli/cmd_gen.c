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

#define GEN_CMD_MAX_NODES 1000000
#define GEN_CMD_UNET_DEPTH 4 /* unet's depth when --nodes is not given */

/* Generate the graph of `kind` (NULL with a message on bad arguments). */
static remat_graph *gen_cmd_make(const char *name, const char *kind,
                                 const cli_opts *o) {
  long n = o->nodes;
  uint64_t seed = (uint64_t)o->seed;
  if (!strcmp(kind, "unet")) {
    if (!o->nodes_set) n = GEN_CMD_UNET_DEPTH;
    if (n < 1 || n > GEN_UNET_MAX_DEPTH) {
      fprintf(stderr, "remat %s: unet: --nodes is the depth, 1..%d\n", name,
              GEN_UNET_MAX_DEPTH);
      return NULL;
    }
    return gen_unet((int)n, seed);
  }
  int layered = !strcmp(kind, "layered");
  if (!layered && strcmp(kind, "training")) {
    fprintf(stderr,
            "remat %s: unknown graph kind '%s' (layered, training or unet)\n",
            name, kind);
    return NULL;
  }
  long lo = layered ? 3 : 1;
  if (n < lo || n > GEN_CMD_MAX_NODES) {
    fprintf(stderr, "remat %s: %s: --nodes must be between %ld and %d\n",
            name, kind, lo, GEN_CMD_MAX_NODES);
    return NULL;
  }
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

int cmd_gen(const char *name, int argc, char **argv) {
  cli_opts o;
  int rc = cli_parse(CMD_GEN, name, argc, argv, &o);
  if (rc || o.help) {
    if (!rc) cmd_help(cmd_find(name));
    cli_free(&o);
    return rc;
  }
  if ((rc = cmdu_positional(name, &o, 1, cmd_find(name)->usage))) goto out;
  remat_graph *g = gen_cmd_make(name, o.pos[0], &o);
  if (!g) {
    rc = 2;
    goto out;
  }
  rc = gen_cmd_write(name, g, o.output);
  if (!rc && !o.quiet)
    fprintf(stderr, "remat %s: %s: %d nodes, %d edges, topo peak %lld%s%s\n",
            name, g->name, g->n, g->n_edges, (long long)remat_topo_peak(g),
            o.output ? " -> " : "",
            !o.output ? "" : strcmp(o.output, "-") ? o.output : "standard output");
  remat_graph_free(g);
out:
  cli_free(&o);
  return rc;
}
