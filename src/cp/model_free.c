/* model_free.c -- the free-order retention-interval model (the paper's
 * Sections 2.1-2.2): events 1..K with K the number of copies, no stages.
 *
 * Each copy c of node v is an interval [s, e] of events, active or not;
 * the first copy of every node is active, later ones are optional, ordered
 * (e of one before s of the next) and parked alone past K when inactive
 * (model_park), as in the stage model.  An active copy starts at the event
 * that computes it; no two active copies start at the same event (one
 * computation per event).  Precedence: every active copy of v starts
 * strictly after the start and no later than the end of an active copy of
 * each predecessor.  Memory and the objective are those of the stage
 * model.  A sequence is a solution with its step j at event j + 1. */
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "model_free.h"
#include "util.h"

/* Longest paths: depth[v] = nodes on the longest path into v (excluding
 * v), height[v] = nodes on the longest path out of v (excluding v).  The
 * first copy of v cannot come before depth[v] other first copies, nor
 * after K - height[v]. */
static void model_free_windows(model *md) {
  const remat_graph *g = md->g;
  int n = md->n;
  int *depth = util_calloc((size_t)n, sizeof *depth);
  int *height = util_calloc((size_t)n, sizeof *height);
  for (int v = 0; v < n; v++) /* node order is topological */
    for (int j = g->pred_off[v]; j < g->pred_off[v + 1]; j++)
      if (depth[g->pred[j]] + 1 > depth[v]) depth[v] = depth[g->pred[j]] + 1;
  for (int v = n - 1; v >= 0; v--)
    for (int j = g->succ_off[v]; j < g->succ_off[v + 1]; j++)
      if (height[g->succ[j]] + 1 > height[v]) height[v] = height[g->succ[j]] + 1;
  md->lo = util_malloc((size_t)n * sizeof *md->lo);
  md->hi = util_malloc((size_t)n * sizeof *md->hi);
  for (int v = 0; v < n; v++) {
    md->lo[v] = depth[v] + 1;
    md->hi[v] = md->horizon - height[v];
  }
  free(depth);
  free(height);
}

int model_build_free(model *md, const remat_graph *g, int phase, int64_t budget,
                     const int *copies, int default_copies, char *err,
                     size_t errlen) {
  int n = g->n;
  *md = (model){.g = g, .n = n, .phase = phase, .budget = budget, .free_order = 1};
  model_copies(md, copies, default_copies, n);
  if (md->ncopy > MODEL_FREE_MAX) { /* events and parking slots in 32 bits */
    int k = md->ncopy;
    model_free(md);
    return util_err(err, errlen, REMAT_EUSAGE,
                    "%d copies: the free-order model supports at most %d", k,
                    MODEL_FREE_MAX);
  }
  md->horizon = md->ncopy;
  model_free_windows(md);
  model_scale(md, model_free_encode);
  return 0;
}

int model_free_encode(const model *md, const int *seq, int len, model_sol *x) {
  const remat_graph *g = md->g;
  int n = md->n;
  for (int v = 0; v < n; v++)
    for (int c = md->first[v]; c < md->first[v + 1]; c++) {
      x->a[c] = 0;
      x->s[c] = x->e[c] = model_park(md, c);
    }
  if (len > md->horizon) return -1;
  int *used = util_calloc((size_t)n, sizeof *used);
  int *latest = util_malloc((size_t)n * sizeof *latest);
  for (int v = 0; v < n; v++) latest[v] = -1;
  int rc = 0;
  for (int j = 0; j < len && !rc; j++) {
    int v = seq[j], ev = j + 1;
    if (v < 0 || v >= n || used[v] >= md->first[v + 1] - md->first[v]) {
      rc = -1; /* not a node, or more copies than C_v */
      break;
    }
    int c = md->first[v] + used[v]++;
    x->a[c] = 1;
    x->s[c] = x->e[c] = ev;
    for (int k = g->pred_off[v]; k < g->pred_off[v + 1] && !rc; k++) {
      int pc = latest[g->pred[k]];
      if (pc < 0)
        rc = -1; /* an input not computed before */
      else if (ev > x->e[pc])
        x->e[pc] = ev;
    }
    latest[v] = c;
  }
  for (int v = 0; v < n && !rc; v++)
    if (!used[v]) rc = -1; /* every node is computed */
  free(used);
  free(latest);
  return rc;
}

int model_free_check(const model *md, const model_sol *x, int cap, char *err,
                     size_t errlen) {
  const remat_graph *g = md->g;
  int K = md->horizon;
  unsigned char *taken = util_calloc((size_t)K + 1, 1);
  int rc = 0;
  for (int v = 0; v < md->n && !rc; v++)
    for (int c = md->first[v]; c < md->first[v + 1] && !rc; c++) {
      int i = c - md->first[v];
      if (i == 0 && !x->a[c]) {
        rc = util_err(err, errlen, -1, "node %d: first copy inactive", v);
      } else if (!x->a[c]) {
        if (x->s[c] != model_park(md, c) || x->e[c] != x->s[c])
          rc = util_err(err, errlen, -1, "copy %d: inactive, not parked", c);
      } else if (x->s[c] < 1 || x->s[c] > x->e[c] || x->e[c] > K) {
        rc = util_err(err, errlen, -1, "copy %d: bad interval", c);
      } else if (taken[x->s[c]]++) {
        rc = util_err(err, errlen, -1, "copy %d: a second computation at event %d", c,
                      x->s[c]);
      } else if (i > 0 && (!x->a[c - 1] || x->e[c - 1] >= x->s[c])) {
        rc = util_err(err, errlen, -1, "copy %d: copies out of order", c);
      }
      if (rc || !x->a[c]) continue;
      for (int k = g->pred_off[v]; k < g->pred_off[v + 1] && !rc; k++) {
        int u = g->pred[k], ok = 0;
        for (int d = md->first[u]; d < md->first[u + 1] && !ok; d++)
          ok = x->a[d] && x->s[d] < x->s[c] && x->e[d] >= x->s[c];
        if (!ok)
          rc = util_err(err, errlen, -1, "copy %d of node %d: predecessor %d not live", c,
                        v, u);
      }
    }
  free(taken);
  if (rc) return rc;
  int64_t peak = model_peak(md, x);
  if (peak > cap)
    return util_err(err, errlen, -1, "scaled peak %lld over capacity %d", (long long)peak,
                    cap);
  return 0;
}
