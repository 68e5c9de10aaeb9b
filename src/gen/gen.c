/* gen.c -- random graph generators (see gen.h). */
#include "gen.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "grow.h"
#include "util.h"

/* ------------------------------------------------------------------ */
/* Random numbers: splitmix64, so that a seed gives the same graph on  */
/* every platform.                                                     */
/* ------------------------------------------------------------------ */

typedef struct gen_rng {
  uint64_t s;
} gen_rng;

#define GEN_GOLDEN 0x9E3779B97F4A7C15ull

/* Each generator gets its own stream for the same user seed. */
static void gen_seed(gen_rng *r, uint64_t seed, uint64_t kind) {
  r->s = seed ^ (kind * 0xD1B54A32D192ED03ull);
}

static uint64_t gen_next(gen_rng *r) {
  uint64_t z = (r->s += GEN_GOLDEN);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* Uniform in [0, k), k >= 1, without modulo bias. */
static uint64_t gen_below(gen_rng *r, uint64_t k) {
  uint64_t lim = UINT64_MAX - UINT64_MAX % k, x;
  do x = gen_next(r);
  while (x >= lim);
  return x % k;
}

/* Uniform integer in [lo, hi] (lo <= hi). */
static int64_t gen_range(gen_rng *r, int64_t lo, int64_t hi) {
  return lo + (int64_t)gen_below(r, (uint64_t)(hi - lo) + 1);
}

/* Uniform double in [0, 1). */
static double gen_unit(gen_rng *r) {
  return (double)(gen_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

static void gen_shuffle(gen_rng *r, int *a, int n) {
  for (int i = n - 1; i > 0; i--) {
    int j = (int)gen_below(r, (uint64_t)i + 1), t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}

/* ------------------------------------------------------------------ */
/* Edge lists and the final graph                                      */
/* ------------------------------------------------------------------ */

typedef struct gen_edges {
  int n, cap;
  int *src, *dst;
} gen_edges;

static void gen_edge(gen_edges *e, int u, int v) {
  GROW_ALL(e->cap, e->n + 1, 64, e->src, e->dst);
  e->src[e->n] = u;
  e->dst[e->n] = v;
  e->n++;
}

static void gen_edges_free(gen_edges *e) {
  free(e->src);
  free(e->dst);
  memset(e, 0, sizeof *e);
}

/* Node attributes under construction. */
typedef struct gen_nodes {
  int n;
  int64_t *w, *m;
  char **label; /* entries may be NULL */
} gen_nodes;

static void gen_nodes_init(gen_nodes *x, int n) {
  x->n = n;
  x->w = util_calloc((size_t)n, sizeof *x->w);
  x->m = util_calloc((size_t)n, sizeof *x->m);
  x->label = util_calloc((size_t)n, sizeof *x->label);
}

static void gen_nodes_free(gen_nodes *x) {
  for (int i = 0; i < x->n; i++) free(x->label[i]);
  free(x->w);
  free(x->m);
  free(x->label);
  memset(x, 0, sizeof *x);
}

/* "PREFIX_K" freshly allocated. */
static char *gen_label(const char *prefix, int k) {
  char buf[128];
  snprintf(buf, sizeof buf, "%s_%d", prefix, k);
  return util_strdup(buf);
}

/* Build the graph (nodes already in a topological order 0..n-1); the
 * labels move into the graph. */
static remat_graph *gen_build(gen_nodes *x, const gen_edges *e,
                              const char *name) {
  graph_raw r;
  graph_raw_init(&r, x->n);
  for (int i = 0; i < x->n; i++) {
    char buf[32];
    snprintf(buf, sizeof buf, "%d", i);
    r.id[i] = util_strdup(buf);
    r.w[i] = x->w[i];
    r.m[i] = x->m[i];
    r.label[i] = x->label[i];
    x->label[i] = NULL;
  }
  for (int k = 0; k < e->n; k++) graph_raw_add_edge(&r, e->src[k], e->dst[k]);
  r.order = util_malloc((size_t)x->n * sizeof *r.order);
  for (int i = 0; i < x->n; i++) r.order[i] = i;
  r.norder = x->n;
  r.name = util_strdup(name);
  r.format = "native";
  char err[256];
  remat_graph *g = graph_build(&r, name, err, sizeof err);
  if (g) {
    free(g->path);
    g->path = NULL;
  }
  graph_raw_free(&r);
  return g;
}

/* ------------------------------------------------------------------ */
/* Random layered DAGs                                                 */
/* ------------------------------------------------------------------ */

#define GEN_ED_DEN 5        /* extra adjacent-layer edges: probability 1/5 */
#define GEN_SKIP_PCT 14     /* skip edges: 14% of all edges */
#define GEN_WIDTH_SPREAD .75 /* widths in [(1-s) mu, (1+s) mu] */
#define GEN_SIZE_UNITS 790  /* sizes 10 * min(3 x U[1, 790]) */

/* Layer boundaries: layer l holds nodes start[l] .. start[l+1]-1; layer 0
 * is the source, layer *nl-1 the sink. */
static int *gen_layer_starts(gen_rng *r, int n, int *nl) {
  double f = 0.27 + 0.16 * gen_unit(r);
  double mu = 1.1 * sqrt(f * n);
  int lo = (int)floor((1 - GEN_WIDTH_SPREAD) * mu + 0.5);
  int hi = (int)floor((1 + GEN_WIDTH_SPREAD) * mu + 0.5);
  if (lo < 1) lo = 1;
  if (hi < lo) hi = lo;
  int *start = util_malloc(((size_t)n + 2) * sizeof *start);
  int k = 0;
  start[k++] = 0;
  int at = 1, last = n - 1; /* interior nodes 1 .. n-2 */
  while (at < last) {
    int w = (int)gen_range(r, lo, hi);
    if (w > last - at) w = last - at;
    start[k++] = at;
    at += w;
  }
  start[k++] = last;
  start[k] = n;
  *nl = k;
  return start;
}

/* Edges between adjacent layers [a0, a0+a) and [b0, b0+b): every node of
 * the wider layer is matched to one of the narrower (a random surjection,
 * max(a, b) edges), then every other pair with probability 1/GEN_ED_DEN. */
static void gen_adjacent(gen_rng *r, int a0, int a, int b0, int b,
                         gen_edges *e) {
  int big = a > b ? a : b, small = a > b ? b : a;
  int *perm = util_malloc((size_t)big * sizeof *perm);
  for (int i = 0; i < big; i++) perm[i] = i;
  gen_shuffle(r, perm, big);
  char *mark = util_calloc((size_t)a * (size_t)b, 1);
  for (int i = 0; i < big; i++) {
    int j = i < small ? i : (int)gen_below(r, (uint64_t)small);
    int x = a >= b ? perm[i] : j, y = a >= b ? j : perm[i];
    mark[(size_t)x * (size_t)b + (size_t)y] = 1;
    gen_edge(e, a0 + x, b0 + y);
  }
  for (int x = 0; x < a; x++)
    for (int y = 0; y < b; y++)
      if (!mark[(size_t)x * (size_t)b + (size_t)y] &&
          gen_below(r, GEN_ED_DEN) == 0)
        gen_edge(e, a0 + x, b0 + y);
  free(mark);
  free(perm);
}

/* Does u already have a skip edge to v?  (Skip edges of u: a list through
 * next[], heads in head[u].) */
static int gen_has_skip(const gen_edges *e, const int *head, const int *next,
                        int u, int v) {
  for (int k = head[u]; k >= 0; k = next[k])
    if (e->dst[k] == v) return 1;
  return 0;
}

/* Skip edges: a source uniform over the interior nodes that have a layer
 * two or more further before the sink, a target layer uniform among those,
 * a target node uniform in it; until they are GEN_SKIP_PCT% of all edges. */
static void gen_skips(gen_rng *r, const int *start, int nl, gen_edges *e) {
  int n = start[nl];
  if (nl < 5) return; /* needs interior layers 1 and 3 */
  int lo = start[1], hi = start[nl - 3]; /* sources: layers 1 .. nl-4 */
  int want = (int)(((int64_t)e->n * GEN_SKIP_PCT + (100 - GEN_SKIP_PCT) / 2) /
                   (100 - GEN_SKIP_PCT));
  int *layer = util_malloc((size_t)n * sizeof *layer);
  for (int l = 0; l < nl; l++)
    for (int v = start[l]; v < start[l + 1]; v++) layer[v] = l;
  int *head = util_malloc((size_t)n * sizeof *head);
  for (int v = 0; v < n; v++) head[v] = -1;
  int *next = util_malloc(((size_t)e->n + (size_t)want + 1) * sizeof *next);
  long tries = 50L * want + 100;
  for (int added = 0; added < want && tries-- > 0;) {
    int u = (int)gen_range(r, lo, hi - 1);
    int l = (int)gen_range(r, layer[u] + 2, nl - 2);
    int v = (int)gen_range(r, start[l], start[l + 1] - 1);
    if (gen_has_skip(e, head, next, u, v)) continue;
    next[e->n] = head[u];
    head[u] = e->n;
    gen_edge(e, u, v);
    added++;
  }
  free(layer);
  free(head);
  free(next);
}

/* A random topological order (Kahn's algorithm, a uniformly random ready
 * node at each step): order[k] is the k-th node. */
static int *gen_random_topo(gen_rng *r, int n, const gen_edges *e) {
  int *off = util_calloc((size_t)n + 1, sizeof *off);
  int *indeg = util_calloc((size_t)n, sizeof *indeg);
  for (int k = 0; k < e->n; k++) {
    off[e->src[k] + 1]++;
    indeg[e->dst[k]]++;
  }
  for (int v = 0; v < n; v++) off[v + 1] += off[v];
  int *to = util_malloc(((size_t)e->n + 1) * sizeof *to);
  int *fill = util_malloc((size_t)n * sizeof *fill);
  memcpy(fill, off, (size_t)n * sizeof *fill);
  for (int k = 0; k < e->n; k++) to[fill[e->src[k]]++] = e->dst[k];
  int *ready = util_malloc((size_t)n * sizeof *ready);
  int *order = util_malloc((size_t)n * sizeof *order);
  int nr = 0, k = 0;
  for (int v = 0; v < n; v++)
    if (!indeg[v]) ready[nr++] = v;
  while (nr) {
    int i = (int)gen_below(r, (uint64_t)nr), u = ready[i];
    ready[i] = ready[--nr];
    order[k++] = u;
    for (int j = off[u]; j < off[u + 1]; j++)
      if (--indeg[to[j]] == 0) ready[nr++] = to[j];
  }
  UTIL_FREE(off, indeg, to, fill, ready);
  return order;
}

/* Renumber nodes so that node order[k] becomes node k. */
static void gen_renumber(gen_nodes *x, gen_edges *e, const int *order) {
  int n = x->n;
  int *pos = util_malloc((size_t)n * sizeof *pos);
  for (int k = 0; k < n; k++) pos[order[k]] = k;
  int64_t *w = util_malloc((size_t)n * sizeof *w);
  int64_t *m = util_malloc((size_t)n * sizeof *m);
  for (int k = 0; k < n; k++) {
    w[k] = x->w[order[k]];
    m[k] = x->m[order[k]];
  }
  free(x->w);
  free(x->m);
  x->w = w;
  x->m = m;
  for (int k = 0; k < e->n; k++) {
    e->src[k] = pos[e->src[k]];
    e->dst[k] = pos[e->dst[k]];
  }
  free(pos);
}

/* Output size: 10 * the least of three uniform integers in 1..790, a
 * right-skewed Beta(1, 3)-like law (mean ~2000, median ~1630, max 7900). */
static int64_t gen_layered_size(gen_rng *r) {
  int64_t s = GEN_SIZE_UNITS;
  for (int k = 0; k < 3; k++) {
    int64_t x = gen_range(r, 1, GEN_SIZE_UNITS);
    if (x < s) s = x;
  }
  return 10 * s;
}

remat_graph *gen_layered(int n, uint64_t seed) {
  if (n < 3) return NULL;
  gen_rng r;
  gen_seed(&r, seed, 1);
  int nl;
  int *start = gen_layer_starts(&r, n, &nl);
  gen_edges e = {0};
  for (int l = 0; l + 1 < nl; l++)
    gen_adjacent(&r, start[l], start[l + 1] - start[l], start[l + 1],
                 start[l + 2] - start[l + 1], &e);
  gen_skips(&r, start, nl, &e);
  gen_nodes x;
  gen_nodes_init(&x, n);
  for (int v = 0; v < n; v++) {
    x.w[v] = v == 0 || v == n - 1 ? 0 : gen_range(&r, 0, 999);
    x.m[v] = gen_layered_size(&r);
  }
  int *order = gen_random_topo(&r, n, &e);
  gen_renumber(&x, &e, order);
  char name[64];
  snprintf(name, sizeof name, "layered_n%d_s%llu", n,
           (unsigned long long)seed);
  remat_graph *g = gen_build(&x, &e, name);
  free(order);
  free(start);
  gen_nodes_free(&x);
  gen_edges_free(&e);
  return g;
}

/* ------------------------------------------------------------------ */
/* Training graphs (Checkmate's dfgraph_from_keras rule)               */
/* ------------------------------------------------------------------ */

/* A forward graph: nodes 0..n-1 in a topological order, node n-1 its only
 * output; glabel[i] is the label of i's gradient node. */
typedef struct gen_fwd {
  gen_nodes x;
  char **glabel;
  gen_edges e;
} gen_fwd;

static void gen_fwd_init(gen_fwd *f, int n) {
  gen_nodes_init(&f->x, n);
  f->glabel = util_calloc((size_t)n, sizeof *f->glabel);
  memset(&f->e, 0, sizeof f->e);
}

static void gen_fwd_free(gen_fwd *f) {
  for (int i = 0; i < f->x.n; i++) free(f->glabel[i]);
  free(f->glabel);
  gen_nodes_free(&f->x);
  gen_edges_free(&f->e);
}

/* Forward nodes 0..L-1, loss L, grad(i) = 2L - i.  For every forward edge
 * u -> v: u -> v, grad(v) -> grad(u), v -> grad(u); for every forward v:
 * v -> grad(v); and (L-1) -> loss -> grad(L-1).  The loss and the
 * gradients are flagged backward.  The graph is named by fmt; f is
 * freed. */
static remat_graph *gen_backprop(gen_fwd *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static remat_graph *gen_backprop(gen_fwd *f, const char *fmt, ...) {
  char name[64];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(name, sizeof name, fmt, ap);
  va_end(ap);
  int nf = f->x.n, loss = nf, n = 2 * nf + 1;
  gen_nodes x;
  gen_nodes_init(&x, n);
  gen_edges e = {0};
  for (int i = 0; i < nf; i++) {
    int gi = 2 * nf - i;
    x.w[i] = f->x.w[i];
    x.m[i] = f->x.m[i];
    x.w[gi] = 2 * f->x.w[i];
    x.m[gi] = f->x.m[i];
    x.label[i] = f->x.label[i];
    f->x.label[i] = NULL;
    x.label[gi] = f->glabel[i];
    f->glabel[i] = NULL;
    gen_edge(&e, i, gi);
  }
  x.w[loss] = 0;
  x.m[loss] = 10;
  x.label[loss] = util_strdup("loss");
  for (int k = 0; k < f->e.n; k++) {
    int u = f->e.src[k], v = f->e.dst[k];
    gen_edge(&e, u, v);
    gen_edge(&e, 2 * nf - v, 2 * nf - u);
    gen_edge(&e, v, 2 * nf - u);
  }
  gen_edge(&e, nf - 1, loss);
  gen_edge(&e, loss, nf + 1);
  remat_graph *g = gen_build(&x, &e, name);
  if (g) {
    /* the loss and the gradients, as Checkmate flags them */
    g->backward = util_calloc((size_t)n, 1);
    for (int v = loss; v < n; v++) g->backward[v] = 1;
  }
  gen_nodes_free(&x);
  gen_edges_free(&e);
  gen_fwd_free(f);
  return g;
}

remat_graph *gen_training(int layers, uint64_t seed) {
  if (layers < 1) return NULL;
  gen_rng r;
  gen_seed(&r, seed, 2);
  gen_fwd f;
  gen_fwd_init(&f, layers);
  for (int i = 0; i < layers; i++) {
    f.x.w[i] = gen_range(&r, 10, 1000);
    f.x.m[i] = gen_layered_size(&r);
    f.x.label[i] = gen_label("fwd", i);
    f.glabel[i] = gen_label("grad", i);
    if (i) gen_edge(&f.e, i - 1, i);
  }
  return gen_backprop(&f, "training_L%d_s%llu", layers, (unsigned long long)seed);
}

/* ------------------------------------------------------------------ */
/* U-Net                                                               */
/* ------------------------------------------------------------------ */

/* Forward node indices of a U-Net of depth d. */
static int gen_unet_enc(int k) { return 2 * k; }
static int gen_unet_pool(int k) { return 2 * k + 1; }
static int gen_unet_up(int d, int k) { return 2 * d + 1 + 2 * (d - 1 - k); }
static int gen_unet_dec(int d, int k) { return gen_unet_up(d, k) + 1; }

/* Set forward node v: duration about `dur` (jittered +-20%), size
 * 10 * max(1, units), labels NAME_k and grad_NAME_k (k < 0: no suffix). */
static void gen_unet_node(gen_fwd *f, gen_rng *r, int v, const char *what,
                          int k, int64_t dur, int64_t units) {
  int64_t w = dur * gen_range(r, 80, 120) / 100;
  f->x.w[v] = w < 1 ? 1 : w;
  f->x.m[v] = 10 * (units < 1 ? 1 : units);
  char lab[64], glab[80];
  if (k >= 0)
    snprintf(lab, sizeof lab, "%s_%d", what, k);
  else
    snprintf(lab, sizeof lab, "%s", what);
  snprintf(glab, sizeof glab, "grad_%s", lab);
  f->x.label[v] = util_strdup(lab);
  f->glabel[v] = util_strdup(glab);
}

remat_graph *gen_unet(int depth, uint64_t seed) {
  if (depth < 1 || depth > GEN_UNET_MAX_DEPTH) return NULL;
  int d = depth, nf = 4 * d + 2, bott = 2 * d, out = nf - 1;
  gen_rng r;
  gen_seed(&r, seed, 3);
  int64_t a = gen_range(&r, 256, 800); /* level-0 activation, units of 10 */
  int64_t t = gen_range(&r, 100, 500); /* a convolution's duration */
  gen_fwd f;
  gen_fwd_init(&f, nf);
  for (int k = 0; k < d; k++) {
    gen_unet_node(&f, &r, gen_unet_enc(k), "enc", k, t, a >> k);
    gen_unet_node(&f, &r, gen_unet_pool(k), "pool", k, t / 10, a >> (k + 2));
    gen_edge(&f.e, gen_unet_enc(k), gen_unet_pool(k));
    gen_edge(&f.e, gen_unet_pool(k), k + 1 < d ? gen_unet_enc(k + 1) : bott);
  }
  gen_unet_node(&f, &r, bott, "bottleneck", -1, t, a >> d);
  for (int k = d - 1; k >= 0; k--) {
    int up = gen_unet_up(d, k), dec = gen_unet_dec(d, k);
    gen_unet_node(&f, &r, up, "up", k, t / 2, a >> k);
    gen_unet_node(&f, &r, dec, "dec", k, 2 * t, a >> k);
    gen_edge(&f.e, k + 1 < d ? gen_unet_dec(d, k + 1) : bott, up);
    gen_edge(&f.e, up, dec);
    gen_edge(&f.e, gen_unet_enc(k), dec); /* skip connection */
  }
  gen_unet_node(&f, &r, out, "out", -1, t / 8, a >> 4);
  gen_edge(&f.e, gen_unet_dec(d, 0), out);
  return gen_backprop(&f, "unet_d%d_s%llu", depth, (unsigned long long)seed);
}

/* ------------------------------------------------------------------ */
/* Small random DAGs                                                   */
/* ------------------------------------------------------------------ */

static int gen_find(int *parent, int v) {
  while (parent[v] != v) v = parent[v] = parent[parent[v]];
  return v;
}

remat_graph *gen_random_dag(int n, int edge_prob_percent, uint64_t seed) {
  if (n < 1 || edge_prob_percent < 0 || edge_prob_percent > 100) return NULL;
  gen_rng r;
  gen_seed(&r, seed, 4);
  gen_edges e = {0};
  int *parent = util_malloc((size_t)n * sizeof *parent);
  for (int v = 0; v < n; v++) parent[v] = v;
  for (int u = 0; u < n; u++)
    for (int v = u + 1; v < n; v++)
      if ((int)gen_below(&r, 100) < edge_prob_percent) {
        gen_edge(&e, u, v);
        parent[gen_find(parent, u)] = gen_find(parent, v);
      }
  /* nodes 0..v-1 form one component; join v to it if it is apart */
  for (int v = 1; v < n; v++)
    if (gen_find(parent, v) != gen_find(parent, 0)) {
      int u = (int)gen_below(&r, (uint64_t)v);
      gen_edge(&e, u, v);
      parent[gen_find(parent, u)] = gen_find(parent, v);
    }
  gen_nodes x;
  gen_nodes_init(&x, n);
  for (int v = 0; v < n; v++) {
    x.w[v] = gen_range(&r, 0, 20);
    x.m[v] = gen_range(&r, 1, 20);
  }
  char name[64];
  snprintf(name, sizeof name, "random_n%d_p%d_s%llu", n, edge_prob_percent,
           (unsigned long long)seed);
  remat_graph *g = gen_build(&x, &e, name);
  free(parent);
  gen_nodes_free(&x);
  gen_edges_free(&e);
  return g;
}
