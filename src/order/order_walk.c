/* order_walk.c -- the incremental down-closed set (order_walk.h). */
#include "order_walk.h"

#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "util.h"

static void order_walk_avail_add(order_walk *w, int v) {
  w->apos[v] = w->navail;
  w->avail[w->navail++] = v;
}

static void order_walk_avail_del(order_walk *w, int v) {
  int i = w->apos[v], last = w->avail[--w->navail];
  w->avail[i] = last;
  w->apos[last] = i;
  w->apos[v] = -1;
}

void order_walk_reset(order_walk *w) {
  const remat_graph *g = w->g;
  w->k = 0;
  w->live = 0;
  w->navail = 0;
  memset(w->taken, 0, (size_t)w->n);
  for (int v = 0; v < w->n; v++) {
    w->rem[v] = graph_nsucc(g, v);
    w->need[v] = graph_npred(g, v);
    w->apos[v] = -1;
    if (!w->need[v]) order_walk_avail_add(w, v);
  }
}

void order_walk_init(order_walk *w, const remat_graph *g) {
  size_t n = (size_t)(g->n ? g->n : 1);
  w->g = g;
  w->n = g->n;
  w->rem = util_malloc(n * sizeof *w->rem);
  w->need = util_malloc(n * sizeof *w->need);
  w->taken = util_malloc(n);
  w->avail = util_malloc(n * sizeof *w->avail);
  w->apos = util_malloc(n * sizeof *w->apos);
  order_walk_reset(w);
}

void order_walk_free(order_walk *w) {
  UTIL_FREE(w->rem, w->need, w->taken, w->avail, w->apos);
  memset(w, 0, sizeof *w);
}

int64_t order_walk_delta(const order_walk *w, int v) {
  const remat_graph *g = w->g;
  int64_t d = graph_nsucc(g, v) ? g->m[v] : 0;
  for (int k = g->pred_off[v]; k < g->pred_off[v + 1]; k++)
    if (w->rem[g->pred[k]] == 1) d -= g->m[g->pred[k]];
  return d;
}

void order_walk_take(order_walk *w, int v) {
  const remat_graph *g = w->g;
  order_walk_avail_del(w, v);
  w->taken[v] = 1;
  w->k++;
  if (graph_nsucc(g, v)) w->live += g->m[v];
  for (int k = g->pred_off[v]; k < g->pred_off[v + 1]; k++)
    if (--w->rem[g->pred[k]] == 0) w->live -= g->m[g->pred[k]];
  for (int k = g->succ_off[v]; k < g->succ_off[v + 1]; k++)
    if (--w->need[g->succ[k]] == 0) order_walk_avail_add(w, g->succ[k]);
}

void order_walk_undo(order_walk *w, int v) {
  const remat_graph *g = w->g;
  for (int k = g->succ_off[v + 1] - 1; k >= g->succ_off[v]; k--)
    if (w->need[g->succ[k]]++ == 0) order_walk_avail_del(w, g->succ[k]);
  for (int k = g->pred_off[v]; k < g->pred_off[v + 1]; k++)
    if (w->rem[g->pred[k]]++ == 0) w->live += g->m[g->pred[k]];
  if (graph_nsucc(g, v)) w->live -= g->m[v];
  w->k--;
  w->taken[v] = 0;
  order_walk_avail_add(w, v);
}

int64_t order_walk_peak(const remat_graph *g, const int *ord, int64_t *mem) {
  int n = g->n;
  if (!n) return 0;
  int *pos = util_malloc((size_t)n * sizeof *pos);
  int64_t *delta = util_calloc((size_t)n + 1, sizeof *delta);
  for (int i = 0; i < n; i++) pos[ord[i]] = i;
  for (int v = 0; v < n; v++) {
    int last = -1;
    for (int k = g->succ_off[v]; k < g->succ_off[v + 1]; k++)
      if (pos[g->succ[k]] > last) last = pos[g->succ[k]];
    if (last > pos[v]) {
      delta[pos[v] + 1] += g->m[v];
      delta[last + 1] -= g->m[v];
    }
  }
  int64_t cur = 0, peak = 0;
  for (int i = 0; i < n; i++) {
    cur += delta[i];
    int64_t here = cur + g->m[ord[i]];
    if (mem) mem[i] = here;
    if (here > peak) peak = here;
  }
  free(pos);
  free(delta);
  return peak;
}

int order_walk_valid(const remat_graph *g, const int *ord) {
  int n = g->n, ok = 1;
  int *pos = util_malloc((size_t)(n ? n : 1) * sizeof *pos);
  for (int v = 0; v < n; v++) pos[v] = -1;
  for (int i = 0; i < n && ok; i++) {
    if (ord[i] < 0 || ord[i] >= n || pos[ord[i]] >= 0) ok = 0;
    else pos[ord[i]] = i;
  }
  for (int v = 0; v < n && ok; v++)
    for (int k = g->pred_off[v]; k < g->pred_off[v + 1]; k++)
      if (pos[g->pred[k]] > pos[v]) ok = 0;
  free(pos);
  return ok;
}
