/* plan.c -- event-set schedules and their fast evaluation. */
#include "plan.h"

#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "util.h"

void plan_init_topo(plan *s, int n) {
  s->cap = n + 16;
  s->key = util_malloc((size_t)s->cap * sizeof *s->key);
  for (int v = 0; v < n; v++) s->key[v] = model_first_start(v);
  s->len = n;
}

void plan_copy(plan *dst, const plan *src) {
  if (dst->cap < src->len) {
    dst->cap = src->cap > src->len ? src->cap : src->len;
    dst->key = util_realloc(dst->key, (size_t)dst->cap * sizeof *dst->key);
  }
  memcpy(dst->key, src->key, (size_t)src->len * sizeof *src->key);
  dst->len = src->len;
}

void plan_free(plan *s) {
  free(s->key);
  s->key = NULL;
  s->len = s->cap = 0;
}

int plan_find(const plan *s, int key) {
  int lo = 0, hi = s->len;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (s->key[mid] < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

int plan_has(const plan *s, int key) {
  int i = plan_find(s, key);
  return i < s->len && s->key[i] == key;
}

int plan_insert(plan *s, int key) {
  int i = plan_find(s, key);
  if (i < s->len && s->key[i] == key) return 0;
  if (s->len == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 64;
    s->key = util_realloc(s->key, (size_t)s->cap * sizeof *s->key);
  }
  memmove(s->key + i + 1, s->key + i, (size_t)(s->len - i) * sizeof *s->key);
  s->key[i] = key;
  s->len++;
  return 1;
}

int plan_erase(plan *s, int key) {
  int i = plan_find(s, key);
  if (i >= s->len || s->key[i] != key) return 0;
  memmove(s->key + i, s->key + i + 1, (size_t)(s->len - i - 1) * sizeof *s->key);
  s->len--;
  return 1;
}

int plan_node(int key) {
  int k = model_stage(key);
  return key - k * (k - 1) / 2 - 1;
}

int plan_is_first(int key) {
  int k = model_stage(key);
  return key == k * (k + 1) / 2;
}

int plan_from_seq(plan *s, const int *seq, int len, int n) {
  s->len = 0;
  int next_first = 0, last_pos = 0;
  for (int j = 0; j < len; j++) {
    int v = seq[j], ev;
    if (v == next_first) {
      ev = model_first_start(v);
      next_first++;
      last_pos = 0;
    } else if (v < next_first && next_first < n && v + 1 > last_pos) {
      ev = model_event(next_first + 1, v + 1);
      last_pos = v + 1;
    } else {
      return -1;
    }
    plan_insert(s, ev);
  }
  return next_first == n ? 0 : -1;
}

void plan_eval_init(plan_eval *E, const remat_graph *g, int64_t M) {
  memset(E, 0, sizeof *E);
  E->g = g;
  E->M = M;
  E->latest = util_malloc((size_t)g->n * sizeof *E->latest);
  E->ncopy = util_malloc((size_t)g->n * sizeof *E->ncopy);
}

void plan_eval_free(plan_eval *E) {
  free(E->seq);
  free(E->lastuse);
  free(E->latest);
  free(E->ncopy);
  free(E->mem);
  free(E->delta);
  memset(E, 0, sizeof *E);
}

static void plan_reserve(plan_eval *E, int len) {
  if (len + 1 <= E->cap) return;
  E->cap = 2 * (len + 1);
  E->seq = util_realloc(E->seq, (size_t)E->cap * sizeof *E->seq);
  E->lastuse = util_realloc(E->lastuse, (size_t)E->cap * sizeof *E->lastuse);
  E->mem = util_realloc(E->mem, (size_t)E->cap * sizeof *E->mem);
  E->delta = util_realloc(E->delta, ((size_t)E->cap + 1) * sizeof *E->delta);
}

void plan_run(plan_eval *E, const plan *s) {
  const remat_graph *g = E->g;
  int len = s->len, n = g->n;
  plan_reserve(E, len);
  E->evals++;
  for (int v = 0; v < n; v++) E->latest[v] = -1;
  memset(E->delta, 0, ((size_t)len + 1) * sizeof *E->delta);
  memset(E->ncopy, 0, (size_t)n * sizeof *E->ncopy);
  int64_t dur = 0;
  for (int j = 0; j < len; j++) {
    int v = plan_node(s->key[j]);
    E->seq[j] = v;
    E->lastuse[j] = j;
    for (int k = g->pred_off[v]; k < g->pred_off[v + 1]; k++)
      E->lastuse[E->latest[g->pred[k]]] = j;
    E->latest[v] = j;
    E->ncopy[v]++;
    dur += g->w[v];
  }
  E->duration = dur;
  for (int i = 0; i < len; i++)
    if (E->lastuse[i] > i) {
      E->delta[i + 1] += g->m[E->seq[i]];
      E->delta[E->lastuse[i] + 1] -= g->m[E->seq[i]];
    }
  int64_t cur = 0, peak = -1, excess = 0;
  int over = 0, ps = 0;
  for (int j = 0; j < len; j++) {
    cur += E->delta[j];
    int64_t here = cur + g->m[E->seq[j]];
    E->mem[j] = here;
    if (here > peak) {
      peak = here;
      ps = j;
    }
    if (here > E->M) {
      excess += here - E->M;
      over++;
    }
  }
  E->len = len;
  E->peak = peak;
  E->peak_step = ps;
  E->excess = excess;
  E->over = over;
}

int plan_is_pred(const remat_graph *g, int u, int v) {
  int lo = g->pred_off[v], hi = g->pred_off[v + 1], end = hi;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (g->pred[mid] < u)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < end && g->pred[lo] == u;
}
