/* model.c -- copies, domains and scaling of the stage-axis CP model. */
#include "model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "util.h"

int model_stage(int event) {
  if (event <= 1) return 1;
  /* the root of k(k+1)/2 = event, then at most a step either way for the
   * rounding of the square root */
  int k = (int)ceil((sqrt(8.0 * (double)event + 1.0) - 1.0) / 2.0);
  while (k > 1 && (int64_t)(k - 1) * k / 2 >= event) k--;
  while ((int64_t)k * (k + 1) / 2 < event) k++;
  return k;
}

/* Smallest quantum q (a multiple of the gcd) with sum(weight * ceil or
 * round(x / q)) <= limit. */
static int64_t model_quantum(const int64_t *x, const int *weight, int n,
                             int round_up, int64_t limit, int *exact) {
  int64_t g = 0;
  for (int i = 0; i < n; i++) g = util_gcd(g, x[i]);
  if (g == 0) g = 1;
  __int128 total = 0;
  for (int i = 0; i < n; i++) total += (__int128)weight[i] * (x[i] / g);
  int64_t k = 1;
  if (total > limit) k = (int64_t)(total / limit) + 1;
  for (;; k++) {
    int64_t q = g * k;
    __int128 s = 0;
    for (int i = 0; i < n; i++)
      s += (__int128)weight[i] *
           (round_up ? (x[i] + q - 1) / q : (x[i] + q / 2) / q);
    if (s <= limit) {
      *exact = k == 1;
      return q;
    }
  }
}

/* The largest memory total (and so capacity) that keeps the memory
 * cumulative within Gecode's limits (MODEL_MEM_MIN). */
static int64_t model_mem_limit(model *md) {
  __int128 width = 0;
  for (int c = 0; c < md->ncopy; c++) {
    int v = md->node[c];
    if (md->free_order)
      width += model_park(md, c);
    else
      width += c == md->first[v] ? 1 : model_park(md, c) - model_later_min(v) + 1;
  }
  __int128 most = ((__int128)1 << 62) / (width * md->ncopy);
  if (most >= MODEL_LIMIT) return MODEL_LIMIT;
  if (most >= MODEL_MEM_MIN) return (int64_t)most;
  md->too_wide = 1;
  return MODEL_LIMIT;
}

static int model_scaled(int64_t x, int64_t q, int round_up) {
  return (int)(round_up ? (x + q - 1) / q : (x + q / 2) / q);
}

void model_copies(model *md, const int *copies, int default_copies, int most_copies) {
  const remat_graph *g = md->g;
  int n = md->n;
  md->first = util_malloc(((size_t)n + 1) * sizeof *md->first);
  md->ncopy = 0;
  for (int v = 0; v < n; v++) {
    int cv = copies && copies[v] > 0 ? copies[v] : default_copies;
    if (cv < 1) cv = 1;
    if (cv > most_copies - (md->free_order ? 0 : v)) /* stage: v+1 .. n */
      cv = most_copies - (md->free_order ? 0 : v);
    if (graph_nsucc(g, v) == 0) cv = 1; /* a recomputed sink is never read */
    md->first[v] = md->ncopy;
    md->ncopy += cv;
  }
  md->first[n] = md->ncopy;
  md->node = util_malloc((size_t)md->ncopy * sizeof *md->node);
  for (int v = 0; v < n; v++)
    for (int i = md->first[v]; i < md->first[v + 1]; i++) md->node[i] = v;
}

void model_scale(model *md, model_encoder *encode) {
  const remat_graph *g = md->g;
  int n = md->n;
  /* heights: every copy may be live at once; durations: only later copies
   * enter the objective */
  int *c = util_malloc((size_t)n * sizeof *c);
  int *extra = util_malloc((size_t)n * sizeof *extra);
  for (int v = 0; v < n; v++) {
    c[v] = md->first[v + 1] - md->first[v];
    extra[v] = c[v] - 1;
  }
  int64_t mem_limit = model_mem_limit(md);
  md->mem_q = model_quantum(g->m, c, n, 1, mem_limit, &md->mem_exact);
  md->dur_q = model_quantum(g->w, extra, n, 0, MODEL_LIMIT, &md->dur_exact);
  md->mem = util_malloc((size_t)n * sizeof *md->mem);
  md->dur = util_malloc((size_t)n * sizeof *md->dur);
  for (int v = 0; v < n; v++) {
    md->mem[v] = model_scaled(g->m[v], md->mem_q, 1);
    md->dur[v] = model_scaled(g->w[v], md->dur_q, 0);
  }
  int64_t cap = md->budget / md->mem_q;
  md->cap = cap > mem_limit ? (int)mem_limit : (int)cap;
  int64_t lb = 0;
  for (int v = 0; v < n; v++) {
    int64_t s = md->mem[v];
    for (int j = g->pred_off[v]; j < g->pred_off[v + 1]; j++)
      s += md->mem[g->pred[j]];
    if (s > lb) lb = s;
  }
  md->lb_peak = (int)lb;
  /* scaled peak of the input order: the initial solution of phase 1 */
  model_sol x;
  model_sol_alloc(md, &x);
  int *seq = util_malloc((size_t)n * sizeof *seq);
  for (int v = 0; v < n; v++) seq[v] = v;
  encode(md, seq, n, &x);
  int64_t ub = model_peak(md, &x);
  md->ub_peak = (int)(ub > md->cap ? ub : md->cap);
  if (md->ub_peak < md->lb_peak) md->ub_peak = md->lb_peak;
  free(seq);
  model_sol_free(&x);
  free(extra);
  free(c);
}

int model_build(model *md, const remat_graph *g, int phase, int64_t budget,
                const int *copies, int default_copies, char *err,
                size_t errlen) {
  memset(md, 0, sizeof *md);
  int n = g->n;
  if (n > MODEL_MAX_NODES)
    return util_err(err, errlen, REMAT_EUSAGE,
                    "%d nodes: the stage model supports at most %d (its "
                    "events must fit in 32 bits)",
                    n, MODEL_MAX_NODES);
  *md = (model){.g = g, .n = n, .phase = phase, .budget = budget,
                .horizon = model_event(n, n)};
  model_copies(md, copies, default_copies, n);
  model_scale(md, model_stage_encode);
  return 0;
}

void model_free(model *md) {
  UTIL_FREE(md->lo, md->hi, md->first, md->node, md->mem, md->dur);
  memset(md, 0, sizeof *md);
}

void model_sol_alloc(const model *md, model_sol *x) {
  x->s = util_calloc((size_t)md->ncopy, sizeof *x->s);
  x->e = util_calloc((size_t)md->ncopy, sizeof *x->e);
  x->a = util_calloc((size_t)md->ncopy, sizeof *x->a);
}

void model_sol_free(model_sol *x) {
  free(x->s);
  free(x->e);
  free(x->a);
  x->s = x->e = x->a = NULL;
}

int model_stage_encode(const model *md, const int *seq, int len, model_sol *x) {
  const remat_graph *g = md->g;
  int n = md->n;
  /* inactive defaults */
  for (int v = 0; v < n; v++)
    for (int c = md->first[v]; c < md->first[v + 1]; c++) {
      int first = c == md->first[v];
      x->a[c] = first;
      x->s[c] = first ? model_first_start(v) : model_park(md, c);
      x->e[c] = x->s[c];
    }
  int *used = util_calloc((size_t)n, sizeof *used);
  int *copy_of_step = util_malloc((size_t)(len ? len : 1) * sizeof *copy_of_step);
  int *latest = util_malloc((size_t)n * sizeof *latest); /* copy index */
  for (int v = 0; v < n; v++) latest[v] = -1;
  int next_first = 0, last_pos = 0, rc = 0;
  for (int j = 0; j < len && !rc; j++) {
    int v = seq[j];
    int ev;
    if (v == next_first && !used[v]) {
      ev = model_first_start(v);
      next_first++;
      last_pos = 0;
    } else if (used[v] && next_first < n && v + 1 > last_pos) {
      ev = model_event(next_first + 1, v + 1); /* stage of the next first */
      last_pos = v + 1;
    } else {
      rc = -1; /* not stage-structured for the input order */
      break;
    }
    if (used[v] >= md->first[v + 1] - md->first[v]) {
      rc = -1; /* more copies than C_v */
      break;
    }
    int c = md->first[v] + used[v]++;
    x->a[c] = 1;
    x->s[c] = ev;
    x->e[c] = ev;
    copy_of_step[j] = c;
    for (int k = g->pred_off[v]; k < g->pred_off[v + 1] && !rc; k++) {
      int pc = latest[g->pred[k]];
      if (pc < 0)
        rc = -1; /* invalid sequence */
      else if (ev > x->e[pc])
        x->e[pc] = ev;
    }
    latest[v] = c;
  }
  if (!rc && next_first < n) rc = -1;
  free(used);
  free(copy_of_step);
  free(latest);
  return rc;
}

static int model_cmp_start(const void *a, const void *b) {
  const int *x = a, *y = b;
  return (x[0] > y[0]) - (x[0] < y[0]);
}

int model_decode(const model *md, const model_sol *x, int **seq, int *len) {
  int k = 0;
  int *pairs = util_malloc(2 * (size_t)md->ncopy * sizeof *pairs);
  for (int c = 0; c < md->ncopy; c++)
    if (x->a[c]) {
      pairs[2 * k] = x->s[c];
      pairs[2 * k + 1] = md->node[c];
      k++;
    }
  qsort(pairs, (size_t)k, 2 * sizeof *pairs, model_cmp_start);
  *seq = util_malloc((size_t)(k ? k : 1) * sizeof **seq);
  for (int i = 0; i < k; i++) (*seq)[i] = pairs[2 * i + 1];
  *len = k;
  free(pairs);
  return 0;
}

/* A change of the load at event t (model_peak). */
typedef struct model_step {
  int t;
  int64_t d;
} model_step;

static int model_step_cmp(const void *a, const void *b) {
  int x = ((const model_step *)a)->t, y = ((const model_step *)b)->t;
  return (x > y) - (x < y);
}

/* The peak load: a sweep over the active copies' starts and ends, sorted
 * (not an array over the horizon: n(n+1)/2 events, 1.6 GB at 20,000
 * nodes). */
int64_t model_peak(const model *md, const model_sol *x) {
  model_step *st = util_malloc(2 * ((size_t)md->ncopy + 1) * sizeof *st);
  int k = 0;
  for (int c = 0; c < md->ncopy; c++)
    if (x->a[c] && x->s[c] >= 1 && x->e[c] <= md->horizon &&
        x->s[c] <= x->e[c]) {
      st[k++] = (model_step){x->s[c], md->mem[md->node[c]]};
      st[k++] = (model_step){x->e[c] + 1, -md->mem[md->node[c]]};
    }
  qsort(st, (size_t)k, sizeof *st, model_step_cmp);
  int64_t cur = 0, peak = 0;
  for (int i = 0; i < k; i++) {
    cur += st[i].d;
    if ((i + 1 == k || st[i + 1].t != st[i].t) && cur > peak) peak = cur;
  }
  free(st);
  return peak;
}

int model_stage_check(const model *md, const model_sol *x, int cap, char *err,
                      size_t errlen) {
  const remat_graph *g = md->g;
  for (int v = 0; v < md->n; v++)
    for (int c = md->first[v]; c < md->first[v + 1]; c++) {
      int i = c - md->first[v];
      if (i == 0 && (!x->a[c] || x->s[c] != model_first_start(v)))
        return util_err(err, errlen, -1, "node %d: first copy misplaced", v);
      if (!x->a[c]) {
        if (x->s[c] != model_park(md, c) || x->e[c] != x->s[c])
          return util_err(err, errlen, -1, "copy %d: inactive, not parked", c);
        continue;
      }
      if (x->s[c] > x->e[c] || x->e[c] > md->horizon)
        return util_err(err, errlen, -1, "copy %d: bad interval", c);
      if (i > 0 && x->a[c]) {
        int k = model_stage(x->s[c]);
        if (model_event(k, v + 1) != x->s[c] || k < v + 2)
          return util_err(err, errlen, -1, "copy %d: start off its slot", c);
        if (!x->a[c - 1] || x->e[c - 1] >= x->s[c])
          return util_err(err, errlen, -1, "copy %d: copies out of order", c);
      }
      if (!x->a[c]) continue;
      for (int k = g->pred_off[v]; k < g->pred_off[v + 1]; k++) {
        int u = g->pred[k], ok = 0;
        for (int d = md->first[u]; d < md->first[u + 1] && !ok; d++)
          ok = x->a[d] && x->s[d] < x->s[c] && x->e[d] >= x->s[c];
        if (!ok)
          return util_err(err, errlen, -1,
                          "copy %d of node %d: predecessor %d not live", c, v,
                          u);
      }
    }
  int64_t peak = model_peak(md, x);
  if (peak > cap)
    return util_err(err, errlen, -1, "scaled peak %lld over capacity %d",
                    (long long)peak, cap);
  return 0;
}
