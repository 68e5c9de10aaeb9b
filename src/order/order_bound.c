/* order_bound.c -- the ancestor and closure bounds (order_bound.h).
 *
 * A batch is up to 64 nodes v_0..v_63; bit i of dm[u] says u is in D_{v_i}
 * (one pass in topological order), bit i of am[u] says u is in A_{v_i}
 * (one pass backwards).  From the masks, per node of the batch: a_v, and
 * two upper bounds on c_v from the down-closed sets A_v and V - D_v
 * (F of each, plus m_v); the cut is solved only when both upper bounds
 * exceed the bound so far.
 *
 * The cut for v: a node x_u per free u (in S: source side), a node y_u per
 * u whose successors may all end up in S (y_u on the source side: u is
 * dead).  Costs: x_u -> t (m_u) for a free u with a successor in D_v (live
 * if in S); x_u -> y_u (m_u) for a free u with only free successors (live
 * if in S and not dead), s -> y_u (m_u) for u in A_v with such successors;
 * y_u -> x_w (infinite) for each free successor w (dead only when w is in
 * S); x_w -> x_u (infinite) for a free edge u -> w (S down-closed).  Every
 * finite capacity is a distinct node's size, so the cut fits in 64 bits. */
#include "order_bound.h"

#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "grow.h"
#include "order_flow.h"
#include "order_walk.h"
#include "util.h"

void order_bound_params_init(order_bound_params *p) {
  memset(p, 0, sizeof *p);
  p->deadline = DEADLINE_NONE;
  p->closure = 1;
}

typedef struct order_bound_batch {
  const remat_graph *g;
  int nb, v[64];
  uint64_t *dm, *am, *self;
  int64_t a[64], up_anc[64], up_rest[64];
  order_flow f;
  int *xid, *yid;
} order_bound_batch;

static void order_bound_batch_init(order_bound_batch *b, const remat_graph *g) {
  size_t n = (size_t)(g->n ? g->n : 1);
  memset(b, 0, sizeof *b);
  b->g = g;
  b->dm = util_malloc(n * sizeof *b->dm);
  b->am = util_malloc(n * sizeof *b->am);
  b->self = util_calloc(n, sizeof *b->self);
  b->xid = util_malloc(n * sizeof *b->xid);
  b->yid = util_malloc(n * sizeof *b->yid);
  order_flow_init(&b->f);
}

static void order_bound_batch_free(order_bound_batch *b) {
  UTIL_FREE(b->dm, b->am, b->self, b->xid, b->yid);
  order_flow_free(&b->f);
}

/* Add m to sums[i] for every bit i of bits. */
static void order_bound_add(int64_t *sums, uint64_t bits, int64_t m) {
  while (bits) {
    sums[__builtin_ctzll(bits)] += m;
    bits &= bits - 1;
  }
}

/* Masks and the sums a_v, F(A_v) + m_v, F(V - D_v) + m_v of the batch. */
static void order_bound_masks(order_bound_batch *b) {
  const remat_graph *g = b->g;
  int n = g->n;
  uint64_t valid = b->nb == 64 ? ~0ULL : (1ULL << b->nb) - 1;
  for (int i = 0; i < b->nb; i++) b->self[b->v[i]] |= 1ULL << i;
  for (int u = 0; u < n; u++) {
    uint64_t d = b->self[u];
    for (int k = g->pred_off[u]; k < g->pred_off[u + 1]; k++)
      d |= b->dm[g->pred[k]];
    b->dm[u] = d;
  }
  for (int u = n - 1; u >= 0; u--) {
    uint64_t a = 0;
    for (int k = g->succ_off[u]; k < g->succ_off[u + 1]; k++)
      a |= b->am[g->succ[k]] | b->self[g->succ[k]];
    b->am[u] = a;
  }
  for (int i = 0; i < b->nb; i++) {
    b->self[b->v[i]] = 0;
    b->a[i] = b->up_anc[i] = b->up_rest[i] = g->m[b->v[i]];
  }
  for (int u = 0; u < n; u++) {
    uint64_t sd = 0, sna = 0;
    for (int k = g->succ_off[u]; k < g->succ_off[u + 1]; k++) {
      sd |= b->dm[g->succ[k]];
      sna |= ~b->am[g->succ[k]];
    }
    int64_t m = g->m[u];
    order_bound_add(b->a, b->am[u] & sd, m);
    order_bound_add(b->up_anc, b->am[u] & sna & valid, m);
    order_bound_add(b->up_rest, ~b->dm[u] & sd & valid, m);
  }
}

/* The closure problem of batch member i (masks built): min over S of the
 * sum of cap[u] over u in S with a successor outside S, cap_in[u] instead
 * for the inputs of v (NULL: cap). */
static int64_t order_bound_cut_caps(order_bound_batch *b, int i, const int64_t *cap,
                                    const int64_t *cap_in) {
  const remat_graph *g = b->g;
  uint64_t bit = 1ULL << i;
  int n = g->n, next = 2, v = b->v[i];
  int64_t c = 0;
  if (!cap_in) cap_in = cap;
#define OB_IN_D(u) (b->dm[u] & bit)
#define OB_IN_A(u) (b->am[u] & bit)
#define OB_FREE(u) (!OB_IN_D(u) && !OB_IN_A(u))
  for (int u = 0; u < n; u++) {
    b->xid[u] = b->yid[u] = -1;
    if (OB_FREE(u)) b->xid[u] = next++;
  }
  for (int u = 0; u < n; u++) {
    if (OB_IN_D(u)) continue;
    int has_d = 0, has_free = 0;
    for (int k = g->succ_off[u]; k < g->succ_off[u + 1]; k++) {
      int w = g->succ[k];
      if (OB_IN_D(w)) has_d = 1;
      else if (OB_FREE(w)) has_free = 1;
    }
    if (!has_d && has_free) b->yid[u] = next++;
  }
  order_flow_reset(&b->f, next);
  for (int u = 0; u < n; u++) {
    if (OB_IN_D(u)) continue;
    int has_d = 0, input = 0;
    for (int k = g->succ_off[u]; k < g->succ_off[u + 1]; k++) {
      if (OB_IN_D(g->succ[k])) has_d = 1;
      if (g->succ[k] == v) input = 1;
    }
    int x = OB_IN_A(u) ? 0 : b->xid[u]; /* A_v is in S: the source */
    if (has_d) {
      if (x == 0) c += input ? cap_in[u] : cap[u];
      else order_flow_arc(&b->f, x, 1, cap[u]);
    } else if (b->yid[u] >= 0) {
      order_flow_arc(&b->f, x, b->yid[u], cap[u]);
      for (int k = g->succ_off[u]; k < g->succ_off[u + 1]; k++)
        if (b->xid[g->succ[k]] >= 0)
          order_flow_arc(&b->f, b->yid[u], b->xid[g->succ[k]], ORDER_FLOW_INF);
    }
    if (x)
      for (int k = g->pred_off[u]; k < g->pred_off[u + 1]; k++)
        if (b->xid[g->pred[k]] >= 0)
          order_flow_arc(&b->f, x, b->xid[g->pred[k]], ORDER_FLOW_INF);
  }
#undef OB_IN_D
#undef OB_IN_A
#undef OB_FREE
  return c + order_flow_max(&b->f, 0, 1);
}

/* The closure bound of batch member i (masks built). */
static int64_t order_bound_cut(order_bound_batch *b, int i) {
  return b->g->m[b->v[i]] + order_bound_cut_caps(b, i, b->g->m, NULL);
}

static int order_bound_cmp_desc(const void *x, const void *y, void *ctx) {
  const int64_t *key = ctx;
  int64_t a = key[*(const int *)x], b = key[*(const int *)y];
  if (a != b) return a > b ? -1 : 1;
  return *(const int *)x - *(const int *)y;
}

int *order_bound_by_memory(const remat_graph *g, const int *order, int64_t *at) {
  int n = g->n;
  int *ord = util_malloc((size_t)(n ? n : 1) * sizeof *ord);
  int64_t *mem = util_malloc((size_t)(n ? n : 1) * sizeof *mem);
  for (int i = 0; i < n; i++) ord[i] = order ? order[i] : i;
  order_walk_peak(g, ord, mem);
  for (int i = 0; i < n; i++) at[ord[i]] = mem[i];
  for (int i = 0; i < n; i++) ord[i] = i;
  qsort_r(ord, (size_t)n, sizeof *ord, order_bound_cmp_desc, at);
  free(mem);
  return ord;
}

int64_t order_bound_run(const remat_graph *g, const order_bound_params *p,
                        order_bound_out *out) {
  double t0 = util_now();
  int n = g->n;
  memset(out, 0, sizeof *out);
  out->node = n ? graph_min_peak_node(g) : -1;
  out->bound = remat_graph_min_peak(g);
  if (!n) {
    out->complete = 1;
    return 0;
  }
  /* memory at each node's step in the known order: c_v is at most that */
  int64_t *up = util_malloc((size_t)n * sizeof *up);
  int *cand = order_bound_by_memory(g, p->order, up);
  order_bound_batch b;
  order_bound_batch_init(&b, g);
  int idx = 0, stopped = 0;
  while (idx < n && up[cand[idx]] > out->bound && !stopped) {
    if ((p->stop && *p->stop) || deadline_passed(p->deadline)) {
      stopped = 1;
      break;
    }
    b.nb = 0;
    while (idx < n && b.nb < 64 && up[cand[idx]] > out->bound)
      b.v[b.nb++] = cand[idx++];
    order_bound_masks(&b);
    out->evaluated += b.nb;
    for (int i = 0; i < b.nb; i++) {
      int v = b.v[i];
      if (b.a[i] > out->bound) {
        out->bound = b.a[i];
        out->node = v;
      }
      if (!p->closure) continue;
      int64_t hi = up[v];
      if (b.up_anc[i] < hi) hi = b.up_anc[i];
      if (b.up_rest[i] < hi) hi = b.up_rest[i];
      if (hi <= out->bound || hi == b.a[i] || stopped) continue;
      if ((p->stop && *p->stop) || deadline_passed(p->deadline)) {
        stopped = 1; /* the ancestor bounds of the batch still count */
        continue;
      }
      int64_t c = order_bound_cut(&b, i);
      out->flows++;
      if (c > out->bound) {
        out->bound = c;
        out->node = v;
      }
    }
  }
  out->complete = !stopped;
  order_bound_batch_free(&b);
  free(cand);
  free(up);
  out->seconds = util_now() - t0;
  return out->bound;
}

void order_bound_ancestors(const remat_graph *g, int64_t *a) {
  order_bound_batch b;
  order_bound_batch_init(&b, g);
  for (int v0 = 0; v0 < g->n; v0 += 64) {
    b.nb = 0;
    for (int v = v0; v < g->n && b.nb < 64; v++) b.v[b.nb++] = v;
    order_bound_masks(&b);
    for (int i = 0; i < b.nb; i++) a[b.v[i]] = b.a[i];
  }
  order_bound_batch_free(&b);
}

int order_bound_pairs(const remat_graph *g, int64_t *a, size_t max_pairs,
                      int **off, int **list) {
  int n = g->n;
  size_t np = 0, cap = 0;
  int *pu = NULL, *pv = NULL;
  if (((double)n / 64 + 1) * ((double)n + g->n_edges) > 16.0 * (double)max_pairs)
    return -1;
  order_bound_batch b;
  order_bound_batch_init(&b, g);
  for (int v0 = 0; v0 < n && np <= max_pairs; v0 += 64) {
    b.nb = 0;
    for (int v = v0; v < n && b.nb < 64; v++) b.v[b.nb++] = v;
    order_bound_masks(&b);
    for (int i = 0; i < b.nb; i++) a[b.v[i]] = b.a[i];
    uint64_t valid = b.nb == 64 ? ~0ULL : (1ULL << b.nb) - 1;
    for (int u = 0; u < n && np <= max_pairs; u++) {
      uint64_t sd = 0;
      for (int k = g->succ_off[u]; k < g->succ_off[u + 1]; k++)
        sd |= b.dm[g->succ[k]];
      for (uint64_t bits = sd & ~b.dm[u] & ~b.am[u] & valid; bits;
           bits &= bits - 1) {
        GROW_ALL(cap, np + 1, 1024, pu, pv);
        pu[np] = u;
        pv[np++] = b.v[__builtin_ctzll(bits)];
      }
    }
  }
  order_bound_batch_free(&b);
  if (np > max_pairs) {
    free(pu);
    free(pv);
    return -1;
  }
  *off = util_calloc((size_t)n + 1, sizeof **off);
  *list = util_malloc((np ? np : 1) * sizeof **list);
  for (size_t k = 0; k < np; k++) (*off)[pu[k] + 1]++;
  for (int u = 0; u < n; u++) (*off)[u + 1] += (*off)[u];
  int *fill = util_malloc(((size_t)n + 1) * sizeof *fill);
  memcpy(fill, *off, ((size_t)n + 1) * sizeof *fill);
  for (size_t k = 0; k < np; k++) (*list)[fill[pu[k]]++] = pv[k];
  free(fill);
  free(pu);
  free(pv);
  return 0;
}

int64_t order_bound_closure(const remat_graph *g, int v) {
  order_bound_batch b;
  order_bound_batch_init(&b, g);
  b.nb = 1;
  b.v[0] = v;
  order_bound_masks(&b);
  int64_t c = order_bound_cut(&b, 0);
  order_bound_batch_free(&b);
  return c;
}

struct order_closure {
  order_bound_batch b;
};

order_closure *order_closure_new(const remat_graph *g, int v) {
  order_closure *c = util_malloc(sizeof *c);
  order_bound_batch_init(&c->b, g);
  c->b.nb = 1;
  c->b.v[0] = v;
  order_bound_masks(&c->b);
  return c;
}

int64_t order_closure_cut(order_closure *c, const int64_t *cap, const int64_t *cap_in) {
  return order_bound_cut_caps(&c->b, 0, cap, cap_in);
}

void order_closure_free(order_closure *c) {
  if (!c) return;
  order_bound_batch_free(&c->b);
  free(c);
}
