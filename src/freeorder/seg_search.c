/* seg_search.c -- a local search over Chen-style checkpoint sets
 * (seg_search.h). */
#include "seg_search.h"

#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "util.h"

void seg_params_init(seg_params *p) {
  memset(p, 0, sizeof *p);
  p->deadline = deadline_in(1.0);
  worker_io_init(&p->io);
}

typedef struct seg {
  const remat_graph *g;
  const seg_params *p;
  int nc;             /* forward nodes (the candidates) */
  int *cand;          /* ascending */
  int *rank;          /* candidate indices, cheapest per byte first */
  unsigned char *keep;/* keep[i]: cand[i] is a checkpoint */
  int *ck;            /* scratch: the checkpoints, ascending */
  int *kept, *drop;   /* candidate indices kept / dropped ... */
  int *pos;           /* ... and each one's index in its list */
  int nkept, ndrop;
  uint64_t rng;
  deadline deadline;
  int64_t best;       /* the best duration within budget (-1: none) */
  int internal;
  seg_out out;
} seg;

static int seg_halted(const seg *S) {
  return deadline_passed(S->deadline) || worker_halted(&S->p->io);
}


static double seg_ratio(const remat_graph *g, int v) {
  return (double)g->w[v] / (double)(g->m[v] > 0 ? g->m[v] : 1);
}

/* Schedule the current set and re-simulate it: 2 when it fits and is
 * shorter than the best (reported), 1 when it fits, 0 otherwise. */
static int seg_eval(seg *S) {
  int nck = 0;
  for (int i = 0; i < S->nc; i++)
    if (S->keep[i]) S->ck[nck++] = S->cand[i];
  int *seq = NULL;
  int len = base_schedule(S->g, S->ck, nck, 1, &seq);
  if (len < 0) return 0;
  S->out.evals++;
  remat_sim s;
  int better = 0;
  if (remat_simulate(S->g, seq, len, &s, NULL)) {
    S->internal = 1;
  } else if (s.peak <= S->p->budget && S->best >= 0 && s.duration >= S->best) {
    better = 1;
  } else if (s.peak <= S->p->budget) {
    better = 2;
    S->best = s.duration;
    S->out.fits = 1;
    S->out.duration = s.duration;
    S->out.dropped = S->nc - nck;
    if (worker_report(&S->p->io, seq, len, "segments")) S->deadline = DEADLINE_PAST;
  }
  free(seq);
  return better;
}

/* Keep exactly the candidates after the first k of the ranking. */
static void seg_set_prefix(seg *S, int k) {
  for (int j = 0; j < S->nc; j++) S->keep[S->rank[j]] = j >= k;
}

/* The fewest dropped, in rank order, whose schedule fits.  Dropping more
 * frees more of the forward pass's memory but joins the dropped nodes
 * into longer segments, each held whole for its backward pass, so the
 * peak falls and then rises with the count: the first count of a grid of
 * SEG_GRID that fits, then bisection below it.  The set left is the
 * fitting one with the fewest dropped. */
#define SEG_GRID 16
static int seg_drop(seg *S) {
  int lo = 0, fit = -1;
  for (int j = 1; j <= SEG_GRID && fit < 0 && !seg_halted(S); j++) {
    int k = (int)((long long)S->nc * j / SEG_GRID);
    if (k <= lo) continue;
    seg_set_prefix(S, k);
    if (seg_eval(S) > 0) fit = k;
    else lo = k;
  }
  if (fit < 0) return -1;
  while (fit - lo > 1 && !seg_halted(S)) {
    int mid = lo + (fit - lo) / 2;
    seg_set_prefix(S, mid);
    if (seg_eval(S) > 0) fit = mid;
    else lo = mid;
  }
  seg_set_prefix(S, fit);
  return fit;
}

static void seg_lists(seg *S) {
  S->nkept = S->ndrop = 0;
  for (int i = 0; i < S->nc; i++) {
    if (S->keep[i]) {
      S->pos[i] = S->nkept;
      S->kept[S->nkept++] = i;
    } else {
      S->pos[i] = S->ndrop;
      S->drop[S->ndrop++] = i;
    }
  }
}

/* Move candidate i between the lists (keep[i] already flipped). */
static void seg_flip(seg *S, int i) {
  int *from = S->keep[i] ? S->drop : S->kept, *to = S->keep[i] ? S->kept : S->drop;
  int *nfrom = S->keep[i] ? &S->ndrop : &S->nkept, *nto = S->keep[i] ? &S->nkept : &S->ndrop;
  int last = from[--*nfrom];
  from[S->pos[i]] = last;
  S->pos[last] = S->pos[i];
  S->pos[i] = *nto;
  to[(*nto)++] = i;
}

static void seg_toggle(seg *S, int i) {
  S->keep[i] = !S->keep[i];
  seg_flip(S, i);
}

/* One swap move (seg_search.h); returns whether it was kept. */
static int seg_swap(seg *S) {
  const remat_graph *g = S->g;
  if (!S->ndrop) return 0;
  int a = S->drop[util_below(&S->rng, S->ndrop)];
  int a2 = S->drop[util_below(&S->rng, S->ndrop)];
  if (g->w[S->cand[a2]] > g->w[S->cand[a]]) a = a2;
  seg_toggle(S, a);
  if (seg_eval(S) == 2) return 1;
  int b = -1;
  for (int t = 0; t < 4 && S->nkept > 1; t++) {
    int c = S->kept[util_below(&S->rng, S->nkept)];
    if (c == a || g->w[S->cand[c]] >= g->w[S->cand[a]]) continue;
    if (b < 0 || seg_ratio(g, S->cand[c]) < seg_ratio(g, S->cand[b])) b = c;
  }
  if (b >= 0) {
    seg_toggle(S, b);
    if (seg_eval(S) == 2) return 1;
    seg_toggle(S, b);
  }
  seg_toggle(S, a);
  return 0;
}

int seg_run(const remat_graph *g, const seg_params *p, seg_out *out) {
  seg S;
  memset(&S, 0, sizeof S);
  S.g = g;
  S.p = p;
  S.best = -1;
  S.deadline = p->deadline;
  S.rng = 0x9e3779b97f4a7c15ull ^ ((uint64_t)p->io.seed * 0x2545f4914f6cdd1dull);
  if (!S.rng) S.rng = 1;
  S.nc = base_candidates(g, BASE_CAND_LINEARIZED, &S.cand);
  S.out.forward = S.nc;
  size_t sz = (size_t)(S.nc ? S.nc : 1);
  S.rank = util_malloc(sz * sizeof *S.rank);
  S.keep = util_calloc(sz, 1);
  S.ck = util_malloc(sz * sizeof *S.ck);
  S.kept = util_malloc(sz * sizeof *S.kept);
  S.drop = util_malloc(sz * sizeof *S.drop);
  S.pos = util_malloc(sz * sizeof *S.pos);
  /* the candidates by duration per byte */
  util_ratio_key *key = util_malloc(sz * sizeof *key);
  for (int i = 0; i < S.nc; i++) key[i] = (util_ratio_key){seg_ratio(g, S.cand[i]), i};
  qsort(key, (size_t)S.nc, sizeof *key, util_ratio_cmp);
  for (int i = 0; i < S.nc; i++) S.rank[i] = key[i].i;
  free(key);
  if (S.nc && seg_drop(&S) >= 0) {
    seg_lists(&S);
    while (!seg_halted(&S) && !S.internal) seg_swap(&S);
  }
  UTIL_FREE(S.cand, S.rank, S.keep, S.ck, S.kept, S.drop, S.pos);
  if (out) *out = S.out;
  return S.internal ? REMAT_EINTERNAL : 0;
}
