/* repeat.c -- repeated structure (repeat.h). */
#include "repeat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

void repeat_params_init(repeat_params *p) {
  *p = (repeat_params){.dur_tol = 0.05, .candidates = 8};
}

/* splitmix64's finaliser: a 64-bit mix. */
static uint64_t rp_mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/* h followed by x (order matters). */
static uint64_t rp_add(uint64_t h, uint64_t x) { return rp_mix(h ^ rp_mix(x)); }

static uint64_t rp_str(const char *s) {
  uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
  for (; s && *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
  return h;
}

static int64_t rp_bucket(int64_t w, double tol) {
  if (tol <= 0 || w <= 0) return w;
  return (int64_t)floor(log((double)w) / log1p(tol));
}

typedef struct rp {
  const remat_graph *g;
  const repeat_params *p;
  uint64_t *cls, *sig;
  int *pass, *pos; /* per node: its pass (0 forward, 1 backward), place in it */
  int *seq[2], len[2];
  int *block_of;
  int nblocks, capblocks;
  int *bfirst; /* per block: its first place in its pass ... */
  int *bpass;  /* ... that pass ... */
  int *blen;   /* ... and its length there */
} rp;

static void rp_signatures(rp *R) {
  const remat_graph *g = R->g;
  for (int v = 0; v < g->n; v++) {
    int64_t b = rp_bucket(g->w[v], R->p->dur_tol);
    uint64_t h = rp_add(rp_str(g->op ? g->op[v] : NULL), (uint64_t)g->m[v]);
    h = rp_add(rp_add(h, (uint64_t)b), (uint64_t)R->pass[v]);
    R->cls[v] = rp_add(h, (uint64_t)(g->pred_off[v + 1] - g->pred_off[v]));
  }
  for (int v = 0; v < g->n; v++) {
    uint64_t h = R->cls[v];
    for (int j = g->pred_off[v]; j < g->pred_off[v + 1]; j++) {
      int u = g->pred[j];
      if (R->pass[u] == R->pass[v])
        h = rp_add(h, (uint64_t)(R->pos[v] - R->pos[u]));
      else
        h = rp_add(h, (uint64_t)g->m[u] ^ 0x5bd1e995u);
    }
    R->sig[v] = h;
  }
}

/* A map from 64-bit keys to ints (open addressing, linear probing). */
typedef struct rp_map {
  size_t cap;
  uint64_t *key;
  int *val; /* -1: empty */
} rp_map;

static void rp_map_init(rp_map *M, int most) {
  M->cap = 16;
  while (M->cap < 2 * (size_t)most) M->cap <<= 1;
  M->key = util_malloc(M->cap * sizeof *M->key);
  M->val = util_malloc(M->cap * sizeof *M->val);
  for (size_t k = 0; k < M->cap; k++) M->val[k] = -1;
}

/* The slot of key: its value is -1 when the key is new. */
static size_t rp_map_slot(const rp_map *M, uint64_t key) {
  size_t k = (size_t)rp_mix(key) & (M->cap - 1);
  while (M->val[k] >= 0 && M->key[k] != key) k = (k + 1) & (M->cap - 1);
  return k;
}

static void rp_map_free(rp_map *M) { UTIL_FREE(M->key, M->val); }

/* The distance from each place to the last earlier place with the same
 * signature, counted per distance (hist[d], d < len). */
static void rp_distances(const rp *R, const int *S, int len, int *hist) {
  rp_map M;
  rp_map_init(&M, len);
  for (int i = 0; i < len; i++) {
    uint64_t s = R->sig[S[i]];
    size_t k = rp_map_slot(&M, s);
    if (M.val[k] >= 0) hist[i - M.val[k]]++;
    M.key[k] = s;
    M.val[k] = i;
  }
  rp_map_free(&M);
}

/* A stretch [s, e) of a pass that repeats with period p: (e - s) / p
 * blocks from s. */
typedef struct rp_run {
  int p, s, e;
} rp_run;

static int rp_cmp_run(const void *a, const void *b) {
  const rp_run *x = a, *y = b;
  long long cx = (x->e - x->s) / x->p * (long long)x->p, cy = (y->e - y->s) / y->p * (long long)y->p;
  if (cx != cy) return cx > cy ? -1 : 1;
  if (x->p != y->p) return x->p < y->p ? -1 : 1;
  return x->s < y->s ? -1 : x->s > y->s;
}

static int rp_cmp_desc(const void *a, const void *b) {
  const int *x = a, *y = b; /* (count, distance) pairs: most frequent first */
  if (x[0] != y[0]) return x[0] > y[0] ? -1 : 1;
  return x[1] < y[1] ? -1 : x[1] > y[1];
}

static void rp_block(rp *R, int pass, int first, int len) {
  if (R->nblocks == R->capblocks) {
    R->capblocks = R->capblocks ? 2 * R->capblocks : 16;
    R->bfirst = util_realloc(R->bfirst, (size_t)R->capblocks * sizeof *R->bfirst);
    R->bpass = util_realloc(R->bpass, (size_t)R->capblocks * sizeof *R->bpass);
    R->blen = util_realloc(R->blen, (size_t)R->capblocks * sizeof *R->blen);
  }
  R->bfirst[R->nblocks] = first;
  R->bpass[R->nblocks] = pass;
  R->blen[R->nblocks] = len;
  for (int i = first; i < first + len; i++) R->block_of[R->seq[pass][i]] = R->nblocks;
  R->nblocks++;
}

/* The backward blocks' phase: where the forward block that the backward
 * nodes read from (the last in the forward pass of their forward inputs'
 * blocks) changes,
 * the most often (mod p) over the stretch x; `phase` when they never
 * read a forward block. */
static int rp_backward_phase(const rp *R, const int *S, const rp_run *x, int phase) {
  const remat_graph *g = R->g;
  int p = x->p, *votes = util_calloc((size_t)p, sizeof *votes), last = -1, best = -1;
  for (int i = x->s; i < x->e; i++) {
    int v = S[i], f = -1;
    for (int j = g->pred_off[v]; j < g->pred_off[v + 1]; j++) {
      int b = R->block_of[g->pred[j]];
      if (R->pass[g->pred[j]] == 0 && b >= 0 && (f < 0 || R->bfirst[b] > R->bfirst[f])) f = b;
    }
    if (f < 0) continue;
    if (last >= 0 && f != last) votes[i % p]++;
    last = f;
  }
  for (int k = 0; k < p; k++)
    if (votes[k] && (best < 0 || votes[k] > votes[best])) best = k;
  free(votes);
  return best >= 0 ? best : phase;
}

/* The runs of one pass: the candidate periods' maximal periodic stretches,
 * taken greedily by the nodes they cover, each split into blocks. */
static void rp_pass(rp *R, int pass) {
  const int *S = R->seq[pass];
  int len = R->len[pass];
  if (len < 2) return;
  int *hist = util_calloc((size_t)len, sizeof *hist);
  rp_distances(R, S, len, hist);
  int nd = 0;
  int *pairs = util_malloc(2 * (size_t)len * sizeof *pairs);
  for (int d = 1; d < len; d++)
    if (hist[d] > 0) {
      pairs[2 * nd] = hist[d];
      pairs[2 * nd + 1] = d;
      nd++;
    }
  if (nd) qsort(pairs, (size_t)nd, 2 * sizeof *pairs, rp_cmp_desc);
  if (nd > R->p->candidates) nd = R->p->candidates;
  rp_run *runs = NULL;
  int nruns = 0, cap = 0;
  for (int c = 0; c < nd; c++) {
    int p = pairs[2 * c + 1], first = nruns, earliest = -1;
    for (int i = 0; i + p < len;) {
      if (R->sig[S[i]] != R->sig[S[i + p]]) {
        i++;
        continue;
      }
      int s = i;
      while (i + p < len && R->sig[S[i]] == R->sig[S[i + p]]) i++;
      if (nruns == cap) runs = util_realloc(runs, (size_t)(cap = cap ? 2 * cap : 16) * sizeof *runs);
      runs[nruns] = (rp_run){p, s, i + p}; /* [s, i + p) repeats with period p */
      if (earliest < 0 && i - s >= p) earliest = nruns;
      nruns++;
    }
    /* the blocks of one period start where the first stretch of two
     * periods or more starts (mod p): a block that differs breaks the
     * stretch, and the one after it starts anywhere in a block */
    int phase = earliest >= 0 ? runs[earliest].s % p : 0, kept = first;
    if (pass == 1 && earliest >= 0) phase = rp_backward_phase(R, S, &runs[earliest], phase);
    for (int r = first; r < nruns; r++) {
      rp_run x = runs[r];
      x.s += ((phase - x.s % p) + p) % p;
      if (x.e - x.s >= 2 * p) runs[kept++] = x;
    }
    nruns = kept;
  }
  if (nruns) qsort(runs, (size_t)nruns, sizeof *runs, rp_cmp_run);
  unsigned char *used = util_calloc((size_t)len, 1);
  for (int k = 0; k < nruns; k++) {
    const rp_run *r = &runs[k];
    int copies = (r->e - r->s) / r->p, end = r->s + r->p * copies, free_ = 1;
    for (int i = r->s; i < end && free_; i++) free_ = !used[i];
    if (!free_) continue;
    memset(used + r->s, 1, (size_t)(end - r->s));
    for (int j = 0; j < copies; j++) rp_block(R, pass, r->s + j * r->p, r->p);
  }
  free(used);
  free(runs);
  free(pairs);
  free(hist);
}

/* A backward block joins the forward block most of its nodes' forward
 * inputs come from, when that one has no backward block yet. */
static void rp_pair(rp *R) {
  const remat_graph *g = R->g;
  int nb = R->nblocks;
  int *joined = util_malloc((size_t)(nb ? nb : 1) * sizeof *joined);
  int *count = util_calloc((size_t)(nb ? nb : 1), sizeof *count);
  int *touched = util_malloc((size_t)(g->n ? g->n : 1) * sizeof *touched);
  for (int b = 0; b < nb; b++) joined[b] = -1;
  for (int b = 0; b < nb; b++) {
    if (R->bpass[b] != 1) continue;
    int nt = 0, best = -1;
    for (int i = R->bfirst[b]; i < R->bfirst[b] + R->blen[b]; i++) {
      int v = R->seq[1][i];
      for (int j = g->pred_off[v]; j < g->pred_off[v + 1]; j++) {
        int f = R->block_of[g->pred[j]];
        if (f < 0 || R->bpass[f] != 0) continue;
        if (!count[f]++) touched[nt++] = f;
        if (best < 0 || count[f] > count[best] || (count[f] == count[best] && f < best)) best = f;
      }
    }
    for (int t = 0; t < nt; t++) count[touched[t]] = 0;
    if (best >= 0 && joined[best] < 0) {
      joined[best] = b;
      for (int i = R->bfirst[b]; i < R->bfirst[b] + R->blen[b]; i++)
        R->block_of[R->seq[1][i]] = best;
    }
  }
  free(joined);
  free(count);
  free(touched);
}

/* Blocks renumbered by their lowest node, their canonical hashes, kinds. */
static void rp_kinds(rp *R, repeat_out *out) {
  const remat_graph *g = R->g;
  int n = g->n, nb = R->nblocks;
  int *renum = util_malloc((size_t)(nb ? nb : 1) * sizeof *renum);
  for (int b = 0; b < nb; b++) renum[b] = -1;
  int k = 0;
  for (int v = 0; v < n; v++)
    if (R->block_of[v] >= 0 && renum[R->block_of[v]] < 0) renum[R->block_of[v]] = k++;
  nb = k;
  uint64_t *h = util_malloc((size_t)(nb ? nb : 1) * sizeof *h);
  int *size = util_calloc((size_t)(nb ? nb : 1), sizeof *size);
  int *loc = util_malloc((size_t)(n ? n : 1) * sizeof *loc);
  for (int b = 0; b < nb; b++) h[b] = 0x243f6a8885a308d3ull;
  for (int v = 0; v < n; v++) {
    int b = R->block_of[v] >= 0 ? renum[R->block_of[v]] : -1;
    R->block_of[v] = b;
    if (b < 0) continue;
    loc[v] = size[b]++;
    uint64_t x = rp_add(R->cls[v], (uint64_t)(g->pred_off[v + 1] - g->pred_off[v]));
    for (int j = g->pred_off[v]; j < g->pred_off[v + 1]; j++) {
      int u = g->pred[j];
      x = R->block_of[u] == b ? rp_add(x, (uint64_t)loc[u] << 1)
                              : rp_add(x, ((uint64_t)g->m[u] << 1) | 1);
    }
    h[b] = rp_add(h[b], x);
  }
  /* kinds: equal hashes, numbered by first block; singletons dropped */
  int *kind = util_malloc((size_t)(nb ? nb : 1) * sizeof *kind);
  int *copies = util_calloc((size_t)(nb ? nb : 1), sizeof *copies);
  uint64_t *kh = util_malloc((size_t)(nb ? nb : 1) * sizeof *kh);
  int nk = 0;
  rp_map M;
  rp_map_init(&M, nb);
  for (int b = 0; b < nb; b++) {
    size_t slot = rp_map_slot(&M, h[b]);
    if (M.val[slot] < 0) {
      M.key[slot] = kh[nk] = h[b];
      M.val[slot] = nk++;
    }
    kind[b] = M.val[slot];
    copies[kind[b]]++;
  }
  rp_map_free(&M);
  int *knew = util_malloc((size_t)(nk ? nk : 1) * sizeof *knew), *bnew = renum;
  int nk2 = 0, nb2 = 0;
  for (int q = 0; q < nk; q++) knew[q] = -1;
  out->first = util_malloc((size_t)(nb ? nb : 1) * sizeof *out->first);
  out->size = util_malloc((size_t)(nb ? nb : 1) * sizeof *out->size);
  out->kind = util_malloc((size_t)(nb ? nb : 1) * sizeof *out->kind);
  out->copies = util_malloc((size_t)(nk ? nk : 1) * sizeof *out->copies);
  out->hash = util_malloc((size_t)(nk ? nk : 1) * sizeof *out->hash);
  for (int b = 0; b < nb; b++) {
    bnew[b] = -1;
    if (copies[kind[b]] < 2) continue;
    if (knew[kind[b]] < 0) {
      out->copies[nk2] = copies[kind[b]];
      out->hash[nk2] = kh[kind[b]];
      knew[kind[b]] = nk2++;
    }
    out->kind[nb2] = knew[kind[b]];
    out->size[nb2] = size[b];
    out->first[nb2] = -1;
    bnew[b] = nb2++;
  }
  out->covered = 0;
  for (int v = 0; v < n; v++) {
    int b = R->block_of[v] >= 0 ? bnew[R->block_of[v]] : -1;
    R->block_of[v] = b;
    if (b < 0) continue;
    out->covered++;
    if (out->first[b] < 0) out->first[b] = v;
  }
  out->nblocks = nb2;
  out->nkinds = nk2;
  UTIL_FREE(renum, h, size, loc, kind, copies, kh, knew);
}

int repeat_find(const remat_graph *g, const repeat_params *p, repeat_out *out) {
  int n = g->n;
  size_t sz = (size_t)(n ? n : 1);
  memset(out, 0, sizeof *out);
  out->n = n;
  rp R = {.g = g, .p = p};
  R.cls = util_malloc(sz * sizeof *R.cls);
  R.sig = util_malloc(sz * sizeof *R.sig);
  R.pass = util_malloc(sz * sizeof *R.pass);
  R.pos = util_malloc(sz * sizeof *R.pos);
  R.block_of = util_malloc(sz * sizeof *R.block_of);
  for (int k = 0; k < 2; k++) R.seq[k] = util_malloc(sz * sizeof *R.seq[k]);
  for (int v = 0; v < n; v++) {
    int k = g->backward && g->backward[v] ? 1 : 0;
    R.pass[v] = k;
    R.pos[v] = R.len[k];
    R.seq[k][R.len[k]++] = v;
    R.block_of[v] = -1;
  }
  rp_signatures(&R);
  rp_pass(&R, 0);
  rp_pass(&R, 1);
  rp_pair(&R);
  rp_kinds(&R, out);
  out->block_of = R.block_of;
  UTIL_FREE(R.cls, R.sig, R.pass, R.pos, R.seq[0], R.seq[1], R.bfirst, R.bpass, R.blen);
  return 0;
}

void repeat_out_free(repeat_out *out) {
  UTIL_FREE(out->block_of, out->kind, out->size, out->first, out->copies, out->hash);
  memset(out, 0, sizeof *out);
}
