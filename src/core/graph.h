/* graph.h -- building, validating and normalising graphs (remat_graph). */
#ifndef REMAT_GRAPH_H
#define REMAT_GRAPH_H

#include "remat.h"

/* A graph as read from a file, before validation.  Nodes and edges are in
 * file order; edge endpoints and the order are file indices. */
typedef struct graph_raw {
  int n;
  char **id;       /* owned */
  char **label;    /* owned, entries may be NULL */
  char **op;       /* owned, entries may be NULL: operator kinds */
  int64_t *w, *m;
  int *copies;     /* 0 = not given */
  int ne, cap_e;
  int *src, *dst;
  int *order;      /* NULL: derive one (Kahn, smallest file index first) */
  int norder;
  int ids_numeric;
  char *name;      /* owned, may be NULL */
  const char *format;
} graph_raw;

void graph_raw_init(graph_raw *r, int n);
void graph_raw_add_edge(graph_raw *r, int src, int dst);
void graph_raw_free(graph_raw *r);

/* Why the solvers refuse a graph with remat_graph_max_duration(g) < 0. */
#define GRAPH_DURATIONS_TOO_LARGE                                              \
  "durations too large: a schedule with recomputations could take more "      \
  "than 2^63 - 1 in total (the sum over v of w_v times the n - v stages v "   \
  "can be computed in); scale the durations down"

/* Validate (cycles, the order) and normalise into a remat_graph; consumes
 * the raw graph's arrays.  On error returns NULL with "PATH: message". */
remat_graph *graph_build(graph_raw *r, const char *path, char *err,
                         size_t errlen);

/* Number of predecessors / successors. */
static inline int graph_npred(const remat_graph *g, int v) {
  return g->pred_off[v + 1] - g->pred_off[v];
}
static inline int graph_nsucc(const remat_graph *g, int v) {
  return g->succ_off[v + 1] - g->succ_off[v];
}

/* Is u a predecessor of v?  (binary search in v's sorted list; inline:
 * the annealings' reader searches call it once per step they pass) */
static inline int graph_is_pred(const remat_graph *g, int u, int v) {
  int lo = g->pred_off[v], hi = g->pred_off[v + 1];
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (g->pred[mid] < u) lo = mid + 1;
    else hi = mid;
  }
  return lo < g->pred_off[v + 1] && g->pred[lo] == u;
}

/* The first node v (in the input order) at which max_v (m_v + the sizes of
 * its predecessors, remat_graph_min_peak) is reached. */
int graph_min_peak_node(const remat_graph *g);

/* Last successor of v in the order, or -1 for a sink. */
int graph_last_succ(const remat_graph *g, int v);

/* C_v per node: the graph's own where its nodes give one ("copies"; 1: a
 * node computed once, such as a random generator's state taken by the
 * PyTorch exporter), others elsewhere (0: any number, g->n).  A new array,
 * or NULL where others is 0 and no node gives its own. */
int *graph_copies_or(const remat_graph *g, int others);
/* Whether some node of g gives its own C_v ("copies"). */
int graph_gives_copies(const remat_graph *g);

/* A node's own C_v is a ceiling: no caller's C_v raises it (computing a
 * generator's state twice would draw other random numbers).  Lowers c[v]
 * (0: any number) to g's own where g gives one and c[v] is above it or 0;
 * returns how many it lowered. */
int graph_copies_cap(const remat_graph *g, int *c);

/* C_v for a solve: c[v] where given (above 0), else others, capped by
 * graph_copies_cap.  A new array; NULL where c is NULL and g gives none. */
int *graph_copies_capped(const remat_graph *g, const int *c, int others);

/* C_v for the searches that may pass it (the copies probe, the solve's
 * heuristics, free order's joint annealing): out[v] = 0 (any number)
 * where c[v] is 2 or more and g gives v no C_v of its own (a ceiling),
 * else c[v]. */
void graph_copies_open(const remat_graph *g, const int *c, int *out);

/* Whether the input order is g's only topological order: each node reads
 * the one before it.  Then every sequence computes the nodes for the first
 * time in the input order, and a claim for such sequences holds for all. */
int graph_order_unique(const remat_graph *g);

/* The graph g with `order` (a topological order of g's node indices) as
 * its input order: node i of the result is node order[i] of g, with its
 * id, attributes, file position and flags.  NULL with a message when
 * order is not a topological order of g. */
remat_graph *graph_permute(const remat_graph *g, const int *order, char *err,
                           size_t errlen);

/* Build a graph directly from arrays (nodes already in a topological
 * order, edges as index pairs with src < dst); ids are "0".."n-1" unless
 * given.  For generators and tests. */
remat_graph *graph_from_arrays(int n, const int64_t *w, const int64_t *m,
                               int ne, const int *src, const int *dst,
                               const char *name);

#endif
