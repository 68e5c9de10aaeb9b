/* order_flow.c -- Dinic's maximum flow (order_flow.h): breadth-first
 * levels, then blocking flows along an explicit path with current-arc
 * pointers. */
#include "order_flow.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "util.h"

void order_flow_init(order_flow *f) { memset(f, 0, sizeof *f); }

void order_flow_free(order_flow *f) {
  UTIL_FREE(f->head, f->next, f->to, f->res, f->level, f->it, f->queue,
            f->path);
  memset(f, 0, sizeof *f);
}

void order_flow_reset(order_flow *f, int n) {
  if (n > f->cap_n) {
    f->cap_n = n;
    size_t b = (size_t)n * sizeof(int);
    f->head = util_realloc(f->head, b);
    f->level = util_realloc(f->level, b);
    f->it = util_realloc(f->it, b);
    f->queue = util_realloc(f->queue, b);
    f->path = util_realloc(f->path, b);
  }
  f->n = n;
  f->m = 0;
  for (int u = 0; u < n; u++) f->head[u] = -1;
}

static void order_flow_half(order_flow *f, int a, int b, int64_t cap) {
  GROW_ALL(f->cap_m, f->m + 1, 64, f->next, f->to, f->res);
  int e = f->m++;
  f->to[e] = b;
  f->res[e] = cap;
  f->next[e] = f->head[a];
  f->head[a] = e;
}

void order_flow_arc(order_flow *f, int a, int b, int64_t cap) {
  order_flow_half(f, a, b, cap);
  order_flow_half(f, b, a, 0);
}

/* Levels from s over arcs with residual capacity; 1 if t is reached. */
static int order_flow_bfs(order_flow *f, int s, int t) {
  for (int u = 0; u < f->n; u++) f->level[u] = -1;
  int qh = 0, qt = 0;
  f->level[s] = 0;
  f->queue[qt++] = s;
  while (qh < qt) {
    int u = f->queue[qh++];
    for (int e = f->head[u]; e >= 0; e = f->next[e])
      if (f->res[e] > 0 && f->level[f->to[e]] < 0) {
        f->level[f->to[e]] = f->level[u] + 1;
        f->queue[qt++] = f->to[e];
      }
  }
  return f->level[t] >= 0;
}

/* One blocking flow on the level graph; returns the flow pushed, or
 * ORDER_FLOW_INF for an infinite path. */
static int64_t order_flow_block(order_flow *f, int s, int t) {
  int64_t total = 0;
  int depth = 0, u = s;
  for (int v = 0; v < f->n; v++) f->it[v] = f->head[v];
  for (;;) {
    if (u == t) {
      int64_t b = ORDER_FLOW_INF;
      int cut = 0;
      for (int k = 0; k < depth; k++)
        if (f->res[f->path[k]] < b) {
          b = f->res[f->path[k]];
          cut = k;
        }
      if (b == ORDER_FLOW_INF) return ORDER_FLOW_INF;
      for (int k = 0; k < depth; k++) {
        f->res[f->path[k]] -= b;
        f->res[f->path[k] ^ 1] += b;
      }
      total += b;
      depth = cut; /* back to the tail of the first saturated arc */
      u = depth ? f->to[f->path[depth - 1]] : s;
      continue;
    }
    int e = f->it[u];
    while (e >= 0 && !(f->res[e] > 0 && f->level[f->to[e]] == f->level[u] + 1))
      e = f->next[e];
    f->it[u] = e;
    if (e >= 0) {
      f->path[depth++] = e;
      u = f->to[e];
    } else {
      f->level[u] = -1; /* a dead end for this phase */
      if (!depth) break;
      u = f->to[f->path[--depth] ^ 1];
      f->it[u] = f->next[f->it[u]];
    }
  }
  return total;
}

int64_t order_flow_max(order_flow *f, int s, int t) {
  int64_t total = 0;
  if (s == t) return 0;
  while (order_flow_bfs(f, s, t)) {
    int64_t b = order_flow_block(f, s, t);
    if (b == ORDER_FLOW_INF) return ORDER_FLOW_INF;
    total += b;
  }
  return total;
}
