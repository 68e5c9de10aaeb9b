/* echo.c -- an Echo-style baseline (Zheng et al., ISCA 2020): recompute
 * only cheap operators (element-wise, normalisation, reshapes: never a
 * convolution or a matrix product), where that frees memory across the
 * peak.
 *
 * Echo itself has no budget: it mirrors the cheap subgraphs between
 * compute-heavy operators and keeps a recomputation when what it releases
 * outweighs what it allocates.  Here the same rule meets a budget: from
 * the input order, while the peak is above M, each cheap value held across
 * the peak step (not read there) is tried recomputed just before its next
 * reader after the peak, alone or together with the cheap inputs whose
 * copies would otherwise be held until then (Echo's subgraph); every
 * trial is re-simulated and the one that lowers the peak most (then the
 * number of steps at it, then the duration) is kept.  Heavy operators'
 * outputs stay stored (their readers simply read them later).  Which
 * operators are cheap comes from the graph's op kinds (the importers
 * record them); without them, the nodes whose duration per byte of output
 * is at most the median count as cheap.  On graphs with a forward/backward
 * split only forward nodes are recomputed. */
#include "echo.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "util.h"

void echo_params_init(echo_params *p) {
  memset(p, 0, sizeof *p);
  p->max_depth = 4;
  p->deadline = DEADLINE_NONE;
}

/* Heavy operator kinds (substrings of the lower-cased op). */
static const char *echo_heavy[] = {"conv", "mm", "matmul", "linear", "gemm", "einsum",
                                   "attention", "lstm", "gru", "rnn"};

int echo_op_is_heavy(const char *op) {
  char low[64];
  size_t k = 0;
  for (; op[k] && k + 1 < sizeof low; k++) low[k] = (char)tolower((unsigned char)op[k]);
  low[k] = 0;
  for (size_t i = 0; i < sizeof echo_heavy / sizeof *echo_heavy; i++)
    if (strstr(low, echo_heavy[i])) return 1;
  return 0;
}

static int echo_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

unsigned char *echo_cheap(const remat_graph *g) {
  int n = g->n, have_ops = 0;
  unsigned char *cheap = util_calloc((size_t)n, 1);
  for (int v = 0; v < n; v++) have_ops |= g->op && g->op[v];
  if (have_ops) {
    for (int v = 0; v < n; v++) cheap[v] = !(g->op[v] && echo_op_is_heavy(g->op[v]));
  } else {
    double *r = util_malloc((size_t)(n ? n : 1) * sizeof *r);
    int k = 0;
    for (int v = 0; v < n; v++)
      if (g->m[v] > 0) r[k++] = (double)g->w[v] / (double)g->m[v];
    qsort(r, (size_t)k, sizeof *r, echo_cmp_double);
    double median = k ? r[(k - 1) / 2] : 0;
    for (int v = 0; v < n; v++)
      cheap[v] = g->m[v] > 0 && (double)g->w[v] / (double)g->m[v] <= median;
    free(r);
  }
  for (int v = 0; v < n; v++) {
    if (g->succ_off[v] == g->succ_off[v + 1]) cheap[v] = 0; /* a sink is never read */
    if (g->backward && g->backward[v]) cheap[v] = 0;
  }
  return cheap;
}

/* The search's state: the schedule and its simulation. */
typedef struct echo {
  const remat_graph *g;
  const echo_params *p;
  const unsigned char *cheap;
  int *seq, len, cap;
  int *lastuse, *trial, *chain, *latest;
  int64_t *mem;
  unsigned char *mark;
} echo;

/* The time is up or the caller stopped: a round keeps its best trial so
 * far (on large graphs one round takes seconds). */
static int echo_expired(const echo *E) {
  return (E->p->stop && *E->p->stop) || deadline_passed(E->p->deadline);
}

/* Peak, steps at the peak and duration of s[0..len); -1 if invalid. */
static int echo_eval(echo *E, const int *s, int len, int64_t *peak, int *at_peak,
                     int64_t *duration) {
  remat_sim sim;
  if (remat_simulate(E->g, s, len, &sim, E->mem)) return -1;
  *peak = sim.peak;
  *duration = sim.duration;
  *at_peak = 0;
  for (int j = 0; j < len; j++) *at_peak += E->mem[j] == sim.peak;
  return 0;
}

/* The cheap inputs of v (recursively, up to the depth limit) whose latest
 * copy before step r was computed before step `since`, i.e. is held from
 * before the peak: recomputing them at r frees them across the peak too.
 * Appended to E->chain in an order whose inputs come first. */
static int echo_chain(echo *E, int v, int r, int since, int depth, int k) {
  const remat_graph *g = E->g;
  if (depth >= E->p->max_depth) return k;
  for (int j = g->pred_off[v]; j < g->pred_off[v + 1]; j++) {
    int u = g->pred[j];
    if (!E->cheap[u] || E->mark[u] || E->latest[u] < 0 || E->latest[u] >= since) continue;
    E->mark[u] = 1;
    k = echo_chain(E, u, r, since, depth + 1, k);
    E->chain[k++] = u;
  }
  return k;
}

/* The schedule with nodes chain[0..k) then v inserted before step r. */
static int echo_build(echo *E, int r, int k) {
  int t = 0;
  for (int i = 0; i < r; i++) E->trial[t++] = E->seq[i];
  for (int i = 0; i < k; i++) E->trial[t++] = E->chain[i];
  for (int i = r; i < E->len; i++) E->trial[t++] = E->seq[i];
  return t;
}

/* One round: the best trial at the current peak step; 1 if it lowered
 * (peak, steps at peak), 0 if none did. */
static int echo_round(echo *E, int64_t *peak, int *at_peak, int64_t *dur) {
  const remat_graph *g = E->g;
  remat_sim sim;
  if (sim_lastuse(g, E->seq, E->len, E->lastuse, &sim)) return -1;
  int64_t top = -1;
  int pj = 0;
  remat_simulate(g, E->seq, E->len, &sim, E->mem);
  for (int j = 0; j < E->len; j++)
    if (E->mem[j] > top) top = E->mem[j], pj = j;
  int best_len = 0, *best = NULL;
  int64_t bp = *peak, bd = *dur;
  int ba = *at_peak;
  for (int i = 0; i < pj && !echo_expired(E); i++) {
    int v = E->seq[i];
    if (!E->cheap[v] || E->lastuse[i] <= pj) continue; /* not held past the peak */
    /* read at the peak step itself: it must be there */
    int read_at_peak = 0;
    for (int j = g->pred_off[E->seq[pj]]; j < g->pred_off[E->seq[pj] + 1]; j++)
      read_at_peak |= g->pred[j] == v;
    if (read_at_peak) continue;
    /* its next reader after the peak: the first later step reading v */
    int r = -1;
    for (int j = pj + 1; j < E->len && r < 0; j++)
      for (int q = g->pred_off[E->seq[j]]; q < g->pred_off[E->seq[j] + 1]; q++)
        if (g->pred[q] == v) {
          r = j;
          break;
        }
    if (r < 0) continue;
    /* latest copies before r, for the chain */
    for (int u = 0; u < g->n; u++) E->latest[u] = -1, E->mark[u] = 0;
    for (int j = 0; j < r; j++) E->latest[E->seq[j]] = j;
    for (int depth = 0; depth <= 1; depth++) {
      int k = 0;
      if (depth) {
        E->mark[v] = 1;
        k = echo_chain(E, v, r, pj, 0, 0);
        for (int u = 0; u < g->n; u++) E->mark[u] = 0;
        if (!k) break;
      }
      E->chain[k++] = v;
      int t = echo_build(E, r, k);
      int64_t tp, td;
      int ta;
      if (echo_eval(E, E->trial, t, &tp, &ta, &td)) continue;
      if (tp < bp || (tp == bp && (ta < ba || (ta == ba && td < bd)))) {
        bp = tp, ba = ta, bd = td;
        free(best);
        best = util_malloc((size_t)t * sizeof *best);
        memcpy(best, E->trial, (size_t)t * sizeof *best);
        best_len = t;
      }
    }
  }
  if (!best) return 0;
  if (best_len > E->cap) {
    E->cap = 2 * best_len;
    E->seq = util_realloc(E->seq, (size_t)E->cap * sizeof *E->seq);
  }
  memcpy(E->seq, best, (size_t)best_len * sizeof *best);
  E->len = best_len;
  free(best);
  *peak = bp, *at_peak = ba, *dur = bd;
  return 1;
}

int echo_run(const remat_graph *g, const echo_params *p, remat_result *r) {
  int n = g->n;
  double t0 = p->t0 > 0 ? p->t0 : util_now();
  echo E;
  memset(&E, 0, sizeof E);
  E.g = g;
  E.p = p;
  unsigned char *cheap = echo_cheap(g);
  E.cheap = cheap;
  E.cap = 4 * n + 16;
  E.seq = util_malloc((size_t)E.cap * sizeof *E.seq);
  for (int v = 0; v < n; v++) E.seq[v] = v;
  E.len = n;
  E.mark = util_calloc((size_t)n, 1);
  E.latest = util_malloc((size_t)n * sizeof *E.latest);
  E.chain = util_malloc((size_t)(p->max_depth * n + n + 1) * sizeof *E.chain);
  int rc = 0;
  int64_t peak, dur;
  int at_peak;
  E.mem = util_malloc((size_t)E.len * sizeof *E.mem);
  echo_eval(&E, E.seq, E.len, &peak, &at_peak, &dur);
  remat_result_offer(r, g, E.seq, E.len, p->phase, util_now() - t0);
  while (peak > p->budget) {
    if (echo_expired(&E)) break;
    /* room for the trials: the schedule, a chain and the node */
    size_t room = (size_t)E.len + (size_t)p->max_depth * (size_t)n + 2;
    E.trial = util_realloc(E.trial, room * sizeof *E.trial);
    E.lastuse = util_realloc(E.lastuse, room * sizeof *E.lastuse);
    E.mem = util_realloc(E.mem, room * sizeof *E.mem);
    int got = echo_round(&E, &peak, &at_peak, &dur);
    if (got < 0) {
      rc = REMAT_EINTERNAL;
      break;
    }
    if (!got) break;
    if (remat_result_offer(r, g, E.seq, E.len, p->phase, util_now() - t0) < 0) {
      rc = REMAT_EINTERNAL;
      break;
    }
  }
  UTIL_FREE(E.seq, E.trial, E.lastuse, E.mem, E.mark, E.latest, E.chain, cheap);
  return rc;
}
