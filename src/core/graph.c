/* graph.c -- graph validation and normalisation. */
#include "graph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "idmap.h"
#include "util.h"

void graph_raw_init(graph_raw *r, int n) {
  memset(r, 0, sizeof *r);
  r->n = n;
  r->id = util_calloc((size_t)n, sizeof *r->id);
  r->label = util_calloc((size_t)n, sizeof *r->label);
  r->op = util_calloc((size_t)n, sizeof *r->op);
  r->w = util_calloc((size_t)n, sizeof *r->w);
  r->m = util_calloc((size_t)n, sizeof *r->m);
  r->copies = util_calloc((size_t)n, sizeof *r->copies);
  r->ids_numeric = 1;
}

void graph_raw_add_edge(graph_raw *r, int src, int dst) {
  GROW_ALL(r->cap_e, r->ne + 1, 64, r->src, r->dst);
  r->src[r->ne] = src;
  r->dst[r->ne] = dst;
  r->ne++;
}

void graph_raw_free(graph_raw *r) {
  if (r->id)
    for (int i = 0; i < r->n; i++) free(r->id[i]);
  if (r->label)
    for (int i = 0; i < r->n; i++) free(r->label[i]);
  if (r->op)
    for (int i = 0; i < r->n; i++) free(r->op[i]);
  UTIL_FREE(r->op, r->id, r->label, r->w, r->m, r->copies, r->src, r->dst,
            r->order, r->name);
  memset(r, 0, sizeof *r);
}

void remat_graph_free(remat_graph *g) {
  if (!g) return;
  for (int i = 0; i < g->n; i++) {
    free(g->id[i]);
    free(g->label[i]);
    if (g->op) free(g->op[i]);
  }
  UTIL_FREE(g->id, g->label, g->op, g->w, g->m, g->copies, g->file_index,
            g->pred_off, g->pred, g->succ_off, g->succ, g->name, g->path,
            g->backward);
  if (g->index) {
    idmap_free(g->index);
    free(g->index);
  }
  free(g);
}

/* CSR adjacency over file indices, deduplicated, sorted ascending. */
typedef struct adj {
  int *off, *to;
} adj;

static int graph_cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

static void graph_adj_build(adj *a, int n, int ne, const int *from,
                            const int *to) {
  a->off = util_calloc((size_t)n + 1, sizeof *a->off);
  for (int e = 0; e < ne; e++) a->off[from[e] + 1]++;
  for (int i = 0; i < n; i++) a->off[i + 1] += a->off[i];
  int *fill = util_malloc((size_t)n * sizeof *fill);
  memcpy(fill, a->off, (size_t)n * sizeof *fill);
  a->to = util_malloc((size_t)(ne ? ne : 1) * sizeof *a->to);
  for (int e = 0; e < ne; e++) a->to[fill[from[e]]++] = to[e];
  /* sort and deduplicate each list in place, then compact */
  int k = 0;
  for (int i = 0; i < n; i++) {
    int b = a->off[i], end = a->off[i + 1];
    qsort(a->to + b, (size_t)(end - b), sizeof *a->to, graph_cmp_int);
    a->off[i] = k;
    for (int j = b; j < end; j++)
      if (j == b || a->to[j] != a->to[j - 1]) a->to[k++] = a->to[j];
  }
  a->off[n] = k;
  free(fill);
}

static void graph_adj_free(adj *a) {
  free(a->off);
  free(a->to);
}

/* Find a cycle with an iterative DFS; writes "a -> b -> ... -> a". */
static void graph_describe_cycle(const graph_raw *r, const adj *succ,
                                 char *buf, size_t len) {
  int n = r->n;
  char *color = util_calloc((size_t)n, 1);
  int *parent = util_malloc((size_t)n * sizeof *parent);
  int *stack = util_malloc((size_t)n * sizeof *stack);
  int *it = util_malloc((size_t)n * sizeof *it);
  int from = -1, to = -1;
  for (int s = 0; s < n && from < 0; s++) {
    if (color[s]) continue;
    int sp = 0;
    stack[sp++] = s;
    color[s] = 1;
    it[s] = succ->off[s];
    parent[s] = -1;
    while (sp && from < 0) {
      int u = stack[sp - 1];
      if (it[u] == succ->off[u + 1]) {
        color[u] = 2;
        sp--;
        continue;
      }
      int v = succ->to[it[u]++];
      if (color[v] == 1) {
        from = u;
        to = v;
      } else if (!color[v]) {
        color[v] = 1;
        parent[v] = u;
        it[v] = succ->off[v];
        stack[sp++] = v;
      }
    }
  }
  /* cycle: to -> ... -> from -> to */
  int cnt = 0;
  for (int x = from; x != to && x >= 0; x = parent[x]) stack[cnt++] = x;
  size_t k = 0;
  k += (size_t)snprintf(buf + k, len - k, "%s", r->id[to]);
  for (int i = cnt - 1; i >= 0 && k < len; i--)
    k += (size_t)snprintf(buf + k, len - k, " -> %s", r->id[stack[i]]);
  if (k < len) snprintf(buf + k, len - k, " -> %s", r->id[to]);
  UTIL_FREE(color, parent, stack, it);
}

/* Kahn's algorithm, smallest file index first.  Returns the number of
 * nodes ordered (n unless there is a cycle). */
static int graph_kahn(const graph_raw *r, const adj *succ, int *out) {
  int n = r->n;
  int *indeg = util_calloc((size_t)n, sizeof *indeg);
  for (int u = 0; u < n; u++)
    for (int j = succ->off[u]; j < succ->off[u + 1]; j++) indeg[succ->to[j]]++;
  /* binary min-heap of ready nodes */
  int *heap = util_malloc((size_t)n * sizeof *heap);
  int hn = 0, k = 0;
  for (int v = 0; v < n; v++)
    if (!indeg[v]) heap[hn++] = v; /* already a heap: ascending */
  while (hn) {
    int u = heap[0];
    heap[0] = heap[--hn];
    for (int i = 0;;) {
      int l = 2 * i + 1, s = i;
      if (l < hn && heap[l] < heap[s]) s = l;
      if (l + 1 < hn && heap[l + 1] < heap[s]) s = l + 1;
      if (s == i) break;
      int t = heap[i];
      heap[i] = heap[s];
      heap[s] = t;
      i = s;
    }
    out[k++] = u;
    for (int j = succ->off[u]; j < succ->off[u + 1]; j++) {
      int v = succ->to[j];
      if (--indeg[v] == 0) {
        int i = hn++;
        heap[i] = v;
        while (i && heap[(i - 1) / 2] > heap[i]) {
          int t = heap[i];
          heap[i] = heap[(i - 1) / 2];
          heap[(i - 1) / 2] = t;
          i = (i - 1) / 2;
        }
      }
    }
  }
  free(indeg);
  free(heap);
  return k;
}

/* Check that r->order is a permutation and topological. */
static int graph_check_order(const graph_raw *r, const adj *pred,
                             const char *path, char *err, size_t errlen) {
  int n = r->n;
  if (r->norder != n)
    return util_err(err, errlen, REMAT_EUSAGE,
                    "%s: the order lists %d nodes but the graph has %d",
                    path, r->norder, n);
  int *pos = util_malloc((size_t)n * sizeof *pos);
  for (int i = 0; i < n; i++) pos[i] = -1;
  int rc = 0;
  for (int k = 0; k < n && !rc; k++) {
    int v = r->order[k];
    if (pos[v] >= 0)
      rc = util_err(err, errlen, REMAT_EUSAGE,
                    "%s: the order lists node %s twice", path, r->id[v]);
    pos[v] = k;
  }
  for (int v = 0; v < n && !rc; v++)
    for (int j = pred->off[v]; j < pred->off[v + 1] && !rc; j++) {
      int u = pred->to[j];
      if (pos[u] > pos[v])
        rc = util_err(err, errlen, REMAT_EUSAGE,
                      "%s: the order is not a topological order: node %s "
                      "comes before its predecessor %s",
                      path, r->id[v], r->id[u]);
    }
  free(pos);
  return rc;
}

remat_graph *graph_build(graph_raw *r, const char *path, char *err,
                         size_t errlen) {
  int n = r->n;
  if (n <= 0) {
    util_err(err, errlen, REMAT_EUSAGE, "%s: the graph has no nodes", path);
    return NULL;
  }
  for (int e = 0; e < r->ne; e++)
    if (r->src[e] == r->dst[e]) {
      util_err(err, errlen, REMAT_EUSAGE,
               "%s: edge %d is a self-loop on node %s", path, e,
               r->id[r->src[e]]);
      return NULL;
    }
  adj succ, pred;
  graph_adj_build(&succ, n, r->ne, r->src, r->dst);
  graph_adj_build(&pred, n, r->ne, r->dst, r->src);
  int *order = util_malloc((size_t)n * sizeof *order);
  int k = graph_kahn(r, &succ, order);
  remat_graph *g = NULL;
  if (k < n) {
    char cyc[512];
    graph_describe_cycle(r, &succ, cyc, sizeof cyc);
    util_err(err, errlen, REMAT_EUSAGE, "%s: the graph has a cycle: %s",
             path, cyc);
    goto done;
  }
  if (r->order) {
    if (graph_check_order(r, &pred, path, err, errlen)) goto done;
    memcpy(order, r->order, (size_t)n * sizeof *order);
  }
  g = util_calloc(1, sizeof *g);
  g->n = n;
  int *pos = util_malloc((size_t)n * sizeof *pos);
  for (int i = 0; i < n; i++) pos[order[i]] = i;
  g->id = util_malloc((size_t)n * sizeof *g->id);
  g->label = util_malloc((size_t)n * sizeof *g->label);
  g->op = util_malloc((size_t)n * sizeof *g->op);
  g->w = util_malloc((size_t)n * sizeof *g->w);
  g->m = util_malloc((size_t)n * sizeof *g->m);
  g->copies = util_malloc((size_t)n * sizeof *g->copies);
  g->file_index = util_malloc((size_t)n * sizeof *g->file_index);
  for (int i = 0; i < n; i++) {
    int f = order[i];
    g->id[i] = r->id[f];
    r->id[f] = NULL;
    g->label[i] = r->label[f];
    r->label[f] = NULL;
    g->op[i] = r->op ? r->op[f] : NULL;
    if (r->op) r->op[f] = NULL;
    g->w[i] = r->w[f];
    g->m[i] = r->m[f];
    g->copies[i] = r->copies[f];
    g->file_index[i] = f;
  }
  /* relabelled CSR lists */
  int ne = succ.off[n];
  g->n_edges = ne;
  int *src = util_malloc((size_t)(ne ? ne : 1) * sizeof *src);
  int *dst = util_malloc((size_t)(ne ? ne : 1) * sizeof *dst);
  int e = 0;
  for (int u = 0; u < n; u++)
    for (int j = succ.off[u]; j < succ.off[u + 1]; j++) {
      src[e] = pos[u];
      dst[e] = pos[succ.to[j]];
      e++;
    }
  adj s2, p2;
  graph_adj_build(&s2, n, ne, src, dst);
  graph_adj_build(&p2, n, ne, dst, src);
  g->succ_off = s2.off;
  g->succ = s2.to;
  g->pred_off = p2.off;
  g->pred = p2.to;
  g->ids_numeric = r->ids_numeric;
  g->name = r->name ? r->name : util_stem(path);
  r->name = NULL;
  g->path = util_strdup(path);
  g->format = r->format;
  idmap *ix = util_malloc(sizeof *ix);
  idmap_init(ix, n);
  for (int i = 0; i < n; i++) idmap_put(ix, g->id[i], i);
  g->index = ix;
  free(src);
  free(dst);
  free(pos);
done:
  free(order);
  graph_adj_free(&succ);
  graph_adj_free(&pred);
  return g;
}

remat_graph *graph_from_arrays(int n, const int64_t *w, const int64_t *m,
                               int ne, const int *src, const int *dst,
                               const char *name) {
  graph_raw r;
  graph_raw_init(&r, n);
  for (int i = 0; i < n; i++) {
    char buf[32];
    snprintf(buf, sizeof buf, "%d", i);
    r.id[i] = util_strdup(buf);
    r.w[i] = w[i];
    r.m[i] = m[i];
  }
  for (int e = 0; e < ne; e++) graph_raw_add_edge(&r, src[e], dst[e]);
  r.order = util_malloc((size_t)n * sizeof *r.order);
  for (int i = 0; i < n; i++) r.order[i] = i;
  r.norder = n;
  r.name = util_strdup(name ? name : "graph");
  r.format = "native";
  char err[256];
  remat_graph *g = graph_build(&r, r.name, err, sizeof err);
  if (g) {
    free(g->path);
    g->path = NULL;
  }
  graph_raw_free(&r);
  return g;
}

int remat_graph_find(const remat_graph *g, const char *id) {
  return idmap_get(g->index, id);
}

int64_t remat_graph_base_duration(const remat_graph *g) {
  int64_t s = 0;
  for (int i = 0; i < g->n; i++) s += g->w[i];
  return s;
}

int64_t remat_graph_max_duration(const remat_graph *g) {
  int64_t s = 0;
  for (int v = 0; v < g->n; v++) {
    int64_t k = g->n - v, w = g->w[v]; /* w >= 0 */
    if (w > (INT64_MAX - s) / k) return -1;
    s += k * w;
  }
  return s;
}

/* m_v + the sizes of v's predecessors (sums of sizes fit in 64 bits). */
static int64_t graph_need(const remat_graph *g, int v) {
  int64_t s = g->m[v];
  for (int j = g->pred_off[v]; j < g->pred_off[v + 1]; j++) s += g->m[g->pred[j]];
  return s;
}

int graph_min_peak_node(const remat_graph *g) {
  int best = 0;
  int64_t most = g->n ? graph_need(g, 0) : 0;
  for (int v = 1; v < g->n; v++) {
    int64_t s = graph_need(g, v);
    if (s > most) {
      most = s;
      best = v;
    }
  }
  return best;
}

int64_t remat_graph_min_peak(const remat_graph *g) {
  return g->n ? graph_need(g, graph_min_peak_node(g)) : 0;
}

int64_t remat_graph_order_min_peak(const remat_graph *g) {
  int n = g->n;
  /* kept[v]: the sum of m_u over the nodes u given copies 1 with
   * u < v < last reader of u, from differences at u + 1 and the reader */
  int64_t *diff = util_calloc((size_t)n + 1, sizeof *diff), kept = 0, most = 0;
  for (int u = 0; u < n; u++) {
    int last = graph_last_succ(g, u);
    if (g->copies && g->copies[u] == 1 && last > u + 1) {
      diff[u + 1] += g->m[u];
      diff[last] -= g->m[u];
    }
  }
  for (int v = 0; v < n; v++) {
    kept += diff[v];
    int64_t s = graph_need(g, v) + kept;
    /* a kept predecessor is already in graph_need */
    for (int j = g->pred_off[v]; j < g->pred_off[v + 1]; j++) {
      int u = g->pred[j];
      if (g->copies && g->copies[u] == 1 && v < graph_last_succ(g, u))
        s -= g->m[u];
    }
    if (s > most) most = s;
  }
  free(diff);
  return most;
}

int graph_last_succ(const remat_graph *g, int v) {
  int a = g->succ_off[v], b = g->succ_off[v + 1];
  return a == b ? -1 : g->succ[b - 1];
}

int graph_gives_copies(const remat_graph *g) {
  for (int v = 0; v < g->n && g->copies; v++)
    if (g->copies[v] > 0) return 1;
  return 0;
}

int graph_copies_cap(const remat_graph *g, int *c) {
  int lowered = 0;
  for (int v = 0; v < g->n && g->copies; v++) {
    int own = g->copies[v];
    if (own > 0 && (c[v] <= 0 || c[v] > own)) {
      c[v] = own;
      lowered++;
    }
  }
  return lowered;
}

int *graph_copies_capped(const remat_graph *g, const int *c, int others) {
  if (!c && !graph_gives_copies(g)) return NULL;
  int *out = util_malloc((size_t)(g->n ? g->n : 1) * sizeof *out);
  for (int v = 0; v < g->n; v++) out[v] = c && c[v] > 0 ? c[v] : others;
  graph_copies_cap(g, out);
  return out;
}

void graph_copies_open(const remat_graph *g, const int *c, int *out) {
  for (int v = 0; v < g->n; v++)
    out[v] = c[v] >= 2 && !(g->copies && g->copies[v] > 0) ? 0 : c[v];
}

int *graph_copies_or(const remat_graph *g, int others) {
  if (others <= 0 && !graph_gives_copies(g)) return NULL;
  int *c = util_malloc((size_t)(g->n ? g->n : 1) * sizeof *c);
  for (int v = 0; v < g->n; v++)
    c[v] = g->copies && g->copies[v] > 0 ? g->copies[v] : others > 0 ? others : g->n;
  return c;
}

int graph_order_unique(const remat_graph *g) {
  /* predecessors are ascending: node v - 1, when it is one, is the last */
  for (int v = 1; v < g->n; v++)
    if (!graph_npred(g, v) || g->pred[g->pred_off[v + 1] - 1] != v - 1) return 0;
  return 1;
}

remat_graph *graph_permute(const remat_graph *g, const int *order, char *err,
                           size_t errlen) {
  int n = g->n;
  graph_raw r;
  graph_raw_init(&r, n);
  for (int v = 0; v < n; v++) {
    r.id[v] = util_strdup(g->id[v]);
    r.label[v] = g->label[v] ? util_strdup(g->label[v]) : NULL;
    r.op[v] = g->op && g->op[v] ? util_strdup(g->op[v]) : NULL;
    r.w[v] = g->w[v];
    r.m[v] = g->m[v];
    r.copies[v] = g->copies[v];
  }
  for (int v = 0; v < n; v++)
    for (int j = g->succ_off[v]; j < g->succ_off[v + 1]; j++)
      graph_raw_add_edge(&r, v, g->succ[j]);
  r.order = util_malloc((size_t)n * sizeof *r.order);
  memcpy(r.order, order, (size_t)n * sizeof *order);
  r.norder = n;
  r.ids_numeric = g->ids_numeric;
  r.name = util_strdup(g->name ? g->name : "graph");
  r.format = g->format;
  remat_graph *h = graph_build(&r, g->name ? g->name : "graph", err, errlen);
  graph_raw_free(&r);
  if (!h) return NULL;
  for (int i = 0; i < n; i++) h->file_index[i] = g->file_index[order[i]];
  free(h->path);
  h->path = g->path ? util_strdup(g->path) : NULL;
  if (g->backward) {
    h->backward = util_malloc((size_t)n);
    for (int i = 0; i < n; i++) h->backward[i] = g->backward[order[i]];
  }
  return h;
}
