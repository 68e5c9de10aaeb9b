/* chain.c -- a chain of identical blocks composed into one schedule
 * (chain.h). */
#include "chain.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "util.h"

typedef struct ch {
  const remat_graph *g;
  int64_t budget;
  int *ord;   /* per node: its block's place in the chain, -1 outside it */
  int *rankof;/* per node: its rank in its block (cheapest per byte first;
                 INT_MAX for the output and outside the chain) */
  int *win;   /* per backward node: its window (its block, or its own) */
  int *last;  /* per node: the window of its latest copy (-1: the first) */
  int *stamp, *need, *stack; /* scratch of ch_schedule */
  int *nrec;  /* per node: its recomputations so far (ch_schedule) */
  const int *copies; /* C_v (NULL: any number) */
  int internal;
  chain_out *out;
} ch;

static int ch_cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* The schedule dropping the t cheapest nodes of the first r blocks: the
 * input order, and before each backward node, the dropped nodes it reads
 * (and their dropped inputs, recursively) whose latest copy is not of its
 * window, recomputed in increasing order (on the input order's stages),
 * each at most C_v - 1 times (then its latest copy serves).
 * Returns its length; *seq is allocated. */
static int ch_schedule(ch *C, int t, int r, int **seq) {
  const remat_graph *g = C->g;
  int len = 0, *s = NULL;
  size_t cap = 0;
#define CH_DROP(u)                                                  \
  (C->ord[u] >= 0 && C->ord[u] < r && C->rankof[u] < t &&           \
   (!C->copies || C->nrec[u] < C->copies[u] - 1))
  for (int v = 0; v < g->n; v++) {
    C->last[v] = -1;
    C->stamp[v] = -1;
    C->nrec[v] = 0;
  }
  for (int v = 0; v < g->n; v++) {
    if (g->backward[v]) {
      int w = C->win[v], nn = 0, top = 0;
      for (int j = g->pred_off[v]; j < g->pred_off[v + 1]; j++) {
        int u = g->pred[j];
        if (!g->backward[u] && CH_DROP(u) && C->last[u] != w && C->stamp[u] != v)
          C->stamp[u] = v, C->stack[top++] = u;
      }
      while (top) {
        int u = C->stack[--top];
        C->need[nn++] = u;
        for (int j = g->pred_off[u]; j < g->pred_off[u + 1]; j++) {
          int x = g->pred[j];
          if (CH_DROP(x) && C->last[x] != w && C->stamp[x] != v)
            C->stamp[x] = v, C->stack[top++] = x;
        }
      }
      if (nn > 1) qsort(C->need, (size_t)nn, sizeof *C->need, ch_cmp_int);
      for (int i = 0; i < nn; i++) {
        PUSH(s, len, cap, (size_t)g->n + 16, C->need[i]);
        C->last[C->need[i]] = w;
        C->nrec[C->need[i]]++;
      }
    }
    PUSH(s, len, cap, (size_t)g->n + 16, v);
  }
#undef CH_DROP
  *seq = s;
  return len;
}

/* Schedule and re-simulate: 1 when it fits (kept when shorter than the
 * best), 0 if not. */
static int ch_eval(ch *C, int t, int r) {
  const remat_graph *g = C->g;
  int *seq = NULL;
  int len = ch_schedule(C, t, r, &seq);
  C->out->evals++;
  remat_sim s;
  int fits = 0;
  if (remat_simulate(g, seq, len, &s, NULL)) {
    C->internal = 1;
  } else if (s.peak <= C->budget) {
    fits = 1;
    if (!C->out->seq || s.duration < C->out->duration) {
      free(C->out->seq);
      C->out->seq = seq;
      C->out->len = len;
      C->out->peak = s.peak;
      C->out->duration = s.duration;
      C->out->dropped = t;
      C->out->recomputed = r;
      seq = NULL;
    }
  }
  free(seq);
  return fits;
}


/* The chain's kind (the most nodes covered), each node's block place and
 * rank; the forward nodes per block (0: the blocks differ in it). */
static int ch_setup(ch *C, const repeat_out *rep) {
  const remat_graph *g = C->g;
  int k = -1;
  long long most = 0;
  int *size = util_calloc((size_t)rep->nkinds + 1, sizeof *size);
  for (int b = 0; b < rep->nblocks; b++) size[rep->kind[b]] = rep->size[b];
  for (int q = 0; q < rep->nkinds; q++)
    if ((long long)rep->copies[q] * size[q] > most) most = (long long)rep->copies[q] * size[q], k = q;
  free(size);
  C->out->kind = k;
  if (k < 0) return 0;
  int *place = util_malloc((size_t)rep->nblocks * sizeof *place), nb = 0;
  for (int b = 0; b < rep->nblocks; b++) place[b] = rep->kind[b] == k ? nb++ : -1;
  C->out->blocks = nb;
  /* each block's forward nodes in ascending order: local index li */
  int *li = util_calloc((size_t)nb, sizeof *li), *local = util_malloc((size_t)g->n * sizeof *local);
  for (int v = 0; v < g->n; v++) {
    int b = rep->block_of[v];
    C->ord[v] = b >= 0 && !g->backward[v] ? place[b] : -1;
    local[v] = C->ord[v] >= 0 ? li[C->ord[v]]++ : -1;
  }
  int nf = nb ? li[0] : 0;
  for (int b = 1; b < nb; b++)
    if (li[b] != nf) nf = 0;
  /* ranks from the first block: its output (last forward node) is kept,
   * and so is a node that a node of another block reads (in any block):
   * its copies would serve, or be recomputed for, several blocks */
  unsigned char *shared = util_calloc((size_t)(nf ? nf : 1), 1);
  for (int v = 0; v < g->n && nf; v++)
    for (int j = g->succ_off[v]; j < g->succ_off[v + 1] && C->ord[v] >= 0; j++) {
      int t = g->succ[j];
      if (rep->block_of[t] != rep->block_of[v]) shared[local[v]] = 1;
    }
  util_ratio_key *key = util_malloc((size_t)(nf ? nf : 1) * sizeof *key);
  int *rank = util_malloc((size_t)(nf ? nf : 1) * sizeof *rank), m = 0;
  for (int v = 0; v < g->n && nf; v++)
    if (C->ord[v] == 0 && local[v] < nf - 1 && !shared[local[v]])
      key[m] = (util_ratio_key){(double)g->w[v] / (double)(g->m[v] > 0 ? g->m[v] : 1), local[v]}, m++;
  if (m > 1) qsort(key, (size_t)m, sizeof *key, util_ratio_cmp);
  for (int i = 0; i < nf; i++) rank[i] = INT_MAX;
  for (int i = 0; i < m; i++) rank[key[i].i] = i;
  for (int v = 0; v < g->n; v++) C->rankof[v] = C->ord[v] >= 0 && nf ? rank[local[v]] : INT_MAX;
  UTIL_FREE(place, li, local, key, rank, shared);
  return nf;
}

int chain_compose(const remat_graph *g, const repeat_out *rep, int64_t budget,
                  const int *copies, deadline d, chain_out *out) {
  memset(out, 0, sizeof *out);
  out->kind = -1;
  if (!g->backward || !rep->nblocks) return 0;
  size_t sz = (size_t)(g->n ? g->n : 1);
  ch C = {.g = g, .budget = budget, .copies = copies, .out = out};
  C.nrec = util_malloc(sz * sizeof *C.nrec);
  C.ord = util_malloc(sz * sizeof *C.ord);
  C.rankof = util_malloc(sz * sizeof *C.rankof);
  C.win = util_malloc(sz * sizeof *C.win);
  C.last = util_malloc(sz * sizeof *C.last);
  C.stamp = util_malloc(sz * sizeof *C.stamp);
  C.need = util_malloc(sz * sizeof *C.need);
  C.stack = util_malloc(sz * sizeof *C.stack);
  for (int v = 0; v < g->n; v++) C.win[v] = rep->block_of[v] >= 0 ? rep->block_of[v] : rep->nblocks + v;
  int nf = ch_setup(&C, rep), nb = out->blocks;
  for (int t = 1; t < nf && !C.internal && !deadline_passed(d); t++) {
    if (!ch_eval(&C, t, nb)) continue; /* not even with every block */
    int lo = 0, hi = nb; /* hi fits; the fewest blocks that fit */
    while (hi - lo > 1 && !C.internal && !deadline_passed(d)) {
      int mid = lo + (hi - lo) / 2;
      if (ch_eval(&C, t, mid)) hi = mid;
      else lo = mid;
    }
  }
  UTIL_FREE(C.ord, C.rankof, C.win, C.last, C.stamp, C.need, C.stack, C.nrec);
  return C.internal ? REMAT_EINTERNAL : 0;
}
