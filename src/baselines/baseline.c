/* baseline.c -- checkpoint-all, Chen sqrt(n) and Chen greedy on
 * articulation points or the input order (Checkmate App. B). */
#include "baseline.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "echo.h"
#include "grow.h"
#include "util.h"

static const char *const base_methods[BASE_NMETHODS] = {
    "checkpoint-all", "chen-sqrtn", "chen-greedy", "echo"};
static const char *const base_cands[BASE_NCAND] = {"ap", "linearized"};

const char *base_method_name(int method) {
  return method >= 0 && method < BASE_NMETHODS ? base_methods[method] : "?";
}

const char *base_candidates_name(int candidates) {
  return candidates >= 0 && candidates < BASE_NCAND ? base_cands[candidates]
                                                    : "?";
}

int base_method_parse(const char *s) {
  for (int i = 0; s && i < BASE_NMETHODS; i++)
    if (!strcmp(s, base_methods[i])) return i;
  return -1;
}

int base_candidates_parse(const char *s) {
  for (int i = 0; s && i < BASE_NCAND; i++)
    if (!strcmp(s, base_cands[i])) return i;
  return -1;
}

void base_params_init(base_params *p) {
  memset(p, 0, sizeof *p);
  p->method = BASE_CHEN_GREEDY;
  p->candidates = BASE_CAND_AP;
  p->max_evals = 64;
  p->deadline = DEADLINE_NONE;
}

void base_info_free(base_info *info) {
  free(info->checkpoints);
  memset(info, 0, sizeof *info);
}

static int base_forward(const remat_graph *g, int v) {
  return !g->backward || !g->backward[v];
}

/* ------------------------------------------------------------------ */
/* Candidates                                                          */
/* ------------------------------------------------------------------ */

/* Undirected adjacency (CSR) of the forward graph plus a virtual input
 * (index F) tied to the first and a virtual output (F + 1) tied to the last
 * forward node; local index k stands for node fwd[k]. */
typedef struct base_ugraph {
  int nv;
  int *off, *adj;
} base_ugraph;

static void base_ugraph_build(const remat_graph *g, const int *fwd, int F,
                              const int *local, base_ugraph *u) {
  int nv = F + 2;
  int *deg = util_calloc((size_t)nv, sizeof *deg);
  for (int k = 0; k < F; k++) {
    int v = fwd[k];
    for (int p = g->succ_off[v]; p < g->succ_off[v + 1]; p++)
      if (local[g->succ[p]] >= 0) {
        deg[k]++;
        deg[local[g->succ[p]]]++;
      }
  }
  deg[0]++, deg[F]++, deg[F - 1]++, deg[F + 1]++;
  u->nv = nv;
  u->off = util_malloc(((size_t)nv + 1) * sizeof *u->off);
  u->off[0] = 0;
  for (int k = 0; k < nv; k++) u->off[k + 1] = u->off[k] + deg[k];
  u->adj = util_malloc((size_t)(u->off[nv] ? u->off[nv] : 1) * sizeof *u->adj);
  for (int k = 0; k < nv; k++) deg[k] = u->off[k];
  for (int k = 0; k < F; k++) {
    int v = fwd[k];
    for (int p = g->succ_off[v]; p < g->succ_off[v + 1]; p++) {
      int w = local[g->succ[p]];
      if (w < 0) continue;
      u->adj[deg[k]++] = w;
      u->adj[deg[w]++] = k;
    }
  }
  u->adj[deg[F]++] = 0, u->adj[deg[0]++] = F;
  u->adj[deg[F + 1]++] = F - 1, u->adj[deg[F - 1]++] = F + 1;
  free(deg);
}

/* Tarjan's articulation points, iteratively, from one root. */
static void base_tarjan_from(const base_ugraph *u, int root, int *time,
                             int *disc, int *low, int *parent, int *it,
                             int *stack, unsigned char *is_ap) {
  int sp = 0, children = 0;
  stack[sp++] = root;
  parent[root] = -1;
  disc[root] = low[root] = (*time)++;
  it[root] = u->off[root];
  while (sp) {
    int v = stack[sp - 1];
    if (it[v] < u->off[v + 1]) {
      int w = u->adj[it[v]++];
      if (disc[w] < 0) {
        parent[w] = v;
        disc[w] = low[w] = (*time)++;
        it[w] = u->off[w];
        stack[sp++] = w;
        if (v == root) children++;
      } else if (w != parent[v] && disc[w] < low[v]) {
        low[v] = disc[w];
      }
    } else {
      sp--;
      int p = parent[v];
      if (p >= 0) {
        if (low[v] < low[p]) low[p] = low[v];
        if (p != root && low[v] >= disc[p]) is_ap[p] = 1;
      }
    }
  }
  if (children > 1) is_ap[root] = 1;
}

/* Articulation points of every component, starting at the virtual input. */
static void base_tarjan(const base_ugraph *u, unsigned char *is_ap) {
  int nv = u->nv, time = 0;
  int *disc = util_malloc((size_t)nv * sizeof *disc);
  int *low = util_malloc((size_t)nv * sizeof *low);
  int *parent = util_malloc((size_t)nv * sizeof *parent);
  int *it = util_malloc((size_t)nv * sizeof *it);
  int *stack = util_malloc((size_t)nv * sizeof *stack);
  for (int v = 0; v < nv; v++) disc[v] = -1;
  base_tarjan_from(u, nv - 2, &time, disc, low, parent, it, stack, is_ap);
  for (int v = 0; v < nv; v++)
    if (disc[v] < 0)
      base_tarjan_from(u, v, &time, disc, low, parent, it, stack, is_ap);
  UTIL_FREE(disc, low, parent, it, stack);
}

static int base_forward_nodes(const remat_graph *g, int *fwd, int *local) {
  int F = 0;
  for (int v = 0; v < g->n; v++) {
    local[v] = -1;
    if (base_forward(g, v)) {
      local[v] = F;
      fwd[F++] = v;
    }
  }
  return F;
}

int base_candidates(const remat_graph *g, int kind, int **out) {
  int n = g->n;
  int *fwd = util_malloc((size_t)(n ? n : 1) * sizeof *fwd);
  int *local = util_malloc((size_t)(n ? n : 1) * sizeof *local);
  int F = base_forward_nodes(g, fwd, local), nc = 0;
  if (kind == BASE_CAND_LINEARIZED || F == 0) {
    nc = F;
  } else {
    base_ugraph u;
    base_ugraph_build(g, fwd, F, local, &u);
    unsigned char *is_ap = util_calloc((size_t)F + 2, 1);
    base_tarjan(&u, is_ap);
    for (int k = 0; k < F; k++)
      if (is_ap[k]) fwd[nc++] = fwd[k];
    free(is_ap);
    free(u.off);
    free(u.adj);
  }
  free(local);
  *out = fwd;
  return nc;
}

/* ------------------------------------------------------------------ */
/* Checkpoint set -> S -> R -> schedule                                */
/* ------------------------------------------------------------------ */

/* S is never built as a matrix (n x n bytes is 400 MB at 20,000 nodes): a
 * value's stored stages are at most two intervals, S(t, i) is computed
 * from them, and R follows stage by stage from the stages where S starts
 * again (1c) and the inputs missing from S (1b). */
typedef struct base_ctx {
  const remat_graph *g;
  int *seg, *end, *first, *lastuse;
  unsigned char *is_ck; /* 1: a checkpoint; 2: stored like one (kept) */
  int keep_crossing;    /* base_params.keep_crossing */
  int *kept_until;      /* a kept value's last stage stored */
  int last_fwd;
  int *seed_off, *seed; /* per stage t, the i with S[t+1,i] and not S[t,i] */
  int *mark, *stack;    /* closure of one stage, stamped with t + 1 */
  volatile int *stop;   /* give up a schedule when set or past deadline */
  deadline deadline;
} base_ctx;

static void base_ctx_init(base_ctx *c, const remat_graph *g) {
  int n = g->n;
  size_t sz = (size_t)(n ? n : 1) + 1;
  c->g = g;
  c->seg = util_malloc(sz * sizeof *c->seg);
  c->end = util_malloc(sz * sizeof *c->end);
  c->first = util_malloc(sz * sizeof *c->first);
  c->lastuse = util_malloc(sz * sizeof *c->lastuse);
  c->is_ck = util_malloc(sz);
  c->kept_until = util_malloc(sz * sizeof *c->kept_until);
  c->seed_off = util_malloc((sz + 1) * sizeof *c->seed_off);
  c->seed = util_malloc(sz * sizeof *c->seed);
  c->mark = util_calloc(sz, sizeof *c->mark);
  c->stack = util_malloc(sz * sizeof *c->stack);
  c->last_fwd = -1;
  c->keep_crossing = 0;
  c->stop = NULL;
  c->deadline = DEADLINE_NONE;
  for (int v = 0; v < n; v++) {
    int deg = g->succ_off[v + 1] - g->succ_off[v];
    c->lastuse[v] = deg ? g->succ[g->succ_off[v + 1] - 1] : v;
    if (base_forward(g, v)) c->last_fwd = v;
  }
}

static void base_ctx_free(base_ctx *c) {
  UTIL_FREE(c->seg, c->end, c->first, c->lastuse, c->is_ck, c->kept_until, c->seed_off,
            c->seed, c->mark, c->stack);
}

/* Segment of every forward node, segment ends and first later readers. */
static void base_segments(base_ctx *c, const int *ck, int nck) {
  const remat_graph *g = c->g;
  int n = g->n, s = 0;
  memset(c->is_ck, 0, (size_t)n);
  for (int k = 0; k < nck; k++) c->is_ck[ck[k]] = 1;
  for (int k = 0; k <= nck; k++) {
    c->end[k] = k < nck ? ck[k] : c->last_fwd + 1;
    c->first[k] = INT_MAX;
  }
  for (int v = 0; v < n; v++) {
    while (s < nck && ck[s] <= v) s++;
    c->seg[v] = s;
  }
  /* a forward value the graph file allows one computation (C_v = 1; on
   * exported training graphs the random-number states, which form a chain
   * through every layer, each dropout reading the last state) is kept:
   * stored like a checkpoint, a segment's end or not, until the last stage
   * that may recompute a reader of it (a forward reader may be recomputed
   * up to its own last reader's stage, and so on), so it is never computed
   * again.  Dropped, such a chain brought every segment back in the
   * forward pass and the segments saved nothing.  Graphs without C_v are
   * scheduled as Checkmate's App. B says */
  for (int v = 0; v < n; v++)
    if (base_forward(g, v) && g->copies && g->copies[v] == 1) c->is_ck[v] = 2;
  /* with keep_crossing, so is a value a later segment's forward pass
   * reads (not its checkpoint): dropped, its segment would come back for
   * that reader and stay until the backward pass */
  for (int v = 0; v < n && c->keep_crossing; v++) {
    if (!base_forward(g, v) || c->is_ck[v]) continue;
    for (int p = g->succ_off[v]; p < g->succ_off[v + 1]; p++) {
      int j = g->succ[p];
      if (base_forward(g, j) && c->is_ck[j] != 1 && c->seg[j] > c->seg[v]) {
        c->is_ck[v] = 2;
        break;
      }
    }
  }
  for (int v = n - 1; v >= 0; v--) {
    c->kept_until[v] = c->lastuse[v];
    for (int p = g->succ_off[v]; p < g->succ_off[v + 1]; p++) {
      int j = g->succ[p];
      if (base_forward(g, j) && c->kept_until[j] > c->kept_until[v])
        c->kept_until[v] = c->kept_until[j];
    }
  }
  for (int v = 0; v < n; v++) {
    if (!base_forward(g, v) || c->is_ck[v]) continue;
    int sv = c->seg[v];
    for (int p = g->succ_off[v]; p < g->succ_off[v + 1]; p++) {
      int j = g->succ[p];
      if (j > c->end[sv]) {
        if (j < c->first[sv]) c->first[sv] = j;
        break; /* ascending: the first one is the smallest */
      }
    }
  }
}

/* S[t,i]: i is stored from its own stage to its last reader, except that
 * a forward non-checkpoint is dropped after its segment's end until the
 * segment's first later reader (Checkmate App. B), and a kept value
 * (is_ck 2, base_segments) is stored to kept_until. */
static int base_s(const base_ctx *c, int t, int i) {
  if (c->is_ck[i] == 2) return t > i && t <= c->kept_until[i];
  if (t <= i || t > c->lastuse[i]) return 0;
  if (!base_forward(c->g, i) || c->is_ck[i]) return 1;
  int s = c->seg[i];
  return t <= c->end[s] || t >= c->first[s];
}

/* The stages t > i where S[.,i] starts again: only at a segment's first
 * later reader. */
static void base_seeds(base_ctx *c) {
  int n = c->g->n;
  memset(c->seed_off, 0, ((size_t)n + 2) * sizeof *c->seed_off);
  for (int pass = 0; pass < 2; pass++) {
    for (int i = 0; i < n; i++) {
      if (!base_forward(c->g, i) || c->is_ck[i]) continue;
      int f = c->first[c->seg[i]];
      if (f == INT_MAX || f > c->lastuse[i] || f - 1 <= i || base_s(c, f - 1, i))
        continue;
      if (pass == 0)
        c->seed_off[f]++; /* counts of stage t = f - 1 at t + 1 */
      else
        c->seed[c->seed_off[f - 1]++] = i;
    }
    if (pass == 0) /* seed_off[t]: where stage t starts */
      for (int t = 0; t < n; t++) c->seed_off[t + 1] += c->seed_off[t];
  }
  /* filling moved each stage's start to the next one's: shift back */
  for (int t = n; t > 0; t--) c->seed_off[t] = c->seed_off[t - 1];
  c->seed_off[0] = 0;
}

static int base_cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* Stage t of R: t itself, its seeds, and recursively every input not in
 * S[t]; appended to out in index order.  Returns the new length. */
static int base_stage(base_ctx *c, int t, int *out, int len) {
  const remat_graph *g = c->g;
  int top = 0, from = len;
  c->mark[t] = t + 1;
  c->stack[top++] = t;
  for (int k = c->seed_off[t]; k < c->seed_off[t + 1]; k++)
    if (c->mark[c->seed[k]] != t + 1) {
      c->mark[c->seed[k]] = t + 1;
      c->stack[top++] = c->seed[k];
    }
  while (top > 0) {
    int v = c->stack[--top];
    out[len++] = v;
    for (int k = g->pred_off[v]; k < g->pred_off[v + 1]; k++) {
      int u = g->pred[k];
      if (c->mark[u] == t + 1 || base_s(c, t, u)) continue;
      c->mark[u] = t + 1;
      c->stack[top++] = u;
    }
  }
  qsort(out + from, (size_t)(len - from), sizeof *out, base_cmp_int);
  return len;
}

/* Stop set, or past the deadline. */
static int base_expired(volatile int *stop, deadline d) {
  return (stop && *stop) || deadline_passed(d);
}

static int base_ctx_stopped(const base_ctx *c) {
  return base_expired(c->stop, c->deadline);
}

/* The schedule of checkpoint set ck into *seq (allocated); its length, or
 * -1 (nothing allocated) when stopped. */
static int base_ctx_schedule(base_ctx *c, const int *ck, int nck, int **seq) {
  int n = c->g->n, len = 0, cap = 2 * n + 16;
  base_segments(c, ck, nck);
  base_seeds(c);
  for (int v = 0; v < n; v++) c->mark[v] = 0;
  int *s = util_malloc((size_t)cap * sizeof *s);
  for (int t = 0; t < n; t++) {
    GROW(s, cap, len + t + 1, 1); /* a stage holds at most t + 1 nodes */
    len = base_stage(c, t, s, len);
    if ((t & 1023) == 1023 && base_ctx_stopped(c)) {
      free(s);
      return -1;
    }
  }
  *seq = s;
  return len;
}

int base_schedule(const remat_graph *g, const int *checkpoints, int ncheck, int keep_crossing,
                  int **seq) {
  base_ctx c;
  base_ctx_init(&c, g);
  c.keep_crossing = keep_crossing;
  int len = base_ctx_schedule(&c, checkpoints, ncheck, seq);
  base_ctx_free(&c);
  return len;
}

/* ------------------------------------------------------------------ */
/* Methods                                                             */
/* ------------------------------------------------------------------ */

typedef struct base_run_ctx {
  base_ctx bc;
  const base_params *p;
  remat_result *r;
  base_info *info;
  int have; /* a best schedule of this run exists */
  int64_t peak, duration;
  int internal;
  double t0; /* start of the run, for trace times */
  int *ck;   /* scratch checkpoint list */
} base_run_ctx;

static int base_better(const base_run_ctx *x, const remat_sim *s) {
  if (!x->have) return 1;
  int64_t M = x->p->budget;
  int fits = s->peak <= M, best_fits = x->peak <= M;
  if (fits != best_fits) return fits;
  if (fits)
    return s->duration < x->duration ||
           (s->duration == x->duration && s->peak < x->peak);
  return s->peak < x->peak || (s->peak == x->peak && s->duration < x->duration);
}

/* Schedule a checkpoint set, offer it, remember it if it is this run's
 * best.  Returns 1 if it is this run's best so far. */
static int base_try(base_run_ctx *x, const int *ck, int nck, int64_t b) {
  const remat_graph *g = x->bc.g;
  int *seq;
  int len = base_ctx_schedule(&x->bc, ck, nck, &seq);
  if (len < 0) return 0;
  remat_sim s;
  int better = 0;
  if (x->info) x->info->evaluated++;
  if (remat_simulate(g, seq, len, &s, NULL)) {
    x->internal = 1;
  } else {
    remat_result_offer(x->r, g, seq, len, x->p->phase, util_now() - x->t0);
    if (base_better(x, &s)) {
      better = 1;
      x->have = 1;
      x->peak = s.peak;
      x->duration = s.duration;
      if (x->info) {
        free(x->info->checkpoints);
        x->info->checkpoints =
            util_malloc((size_t)(nck ? nck : 1) * sizeof *x->info->checkpoints);
        memcpy(x->info->checkpoints, ck, (size_t)nck * sizeof *ck);
        x->info->ncheckpoints = nck;
        x->info->segment_budget = b;
      }
    }
  }
  free(seq);
  return better;
}

static void base_checkpoint_all(base_run_ctx *x) {
  const remat_graph *g = x->bc.g;
  int nck = 0;
  for (int v = 0; v < g->n; v++)
    if (base_forward(g, v)) x->ck[nck++] = v;
  base_try(x, x->ck, nck, -1);
}

static void base_sqrtn(base_run_ctx *x, const int *cand, int nc) {
  int k = (int)sqrt((double)nc), nck = 0;
  while ((int64_t)(k + 1) * (k + 1) <= nc) k++; /* exact floor */
  while ((int64_t)k * k > nc) k--;
  for (int i = 0; k > 0 && i < nc; i++)
    if ((i + 1) % k == 0) x->ck[nck++] = cand[i];
  base_try(x, x->ck, nck, -1);
}

/* Chen's greedy for segment budget b: the checkpoints into x->ck; returns
 * their count and in *next the smallest b' > b giving another set
 * (INT64_MAX when there are no checkpoints). */
static int base_greedy_set(base_run_ctx *x, const unsigned char *is_cand,
                           int64_t b, int64_t *next) {
  const remat_graph *g = x->bc.g;
  int64_t temp = 0, nb = INT64_MAX;
  int nck = 0;
  for (int v = 0; v < g->n; v++) {
    if (!base_forward(g, v)) continue;
    temp += g->m[v];
    if (is_cand[v] && temp > b) {
      x->ck[nck++] = v;
      if (temp < nb) nb = temp;
      temp = 0;
    }
  }
  *next = nb;
  return nck;
}

#define BASE_MAX_BREAKPOINTS 4096
#define BASE_TAIL 64

/* The breakpoints b_0 = -1 < b_1 < ... of the greedy's step function, each
 * giving a different checkpoint set.  After BASE_MAX_BREAKPOINTS of them,
 * BASE_TAIL values evenly spread up to the total size stand for the rest.
 * bs has room for BASE_MAX_BREAKPOINTS + BASE_TAIL values. */
static int base_breakpoints(base_run_ctx *x, const unsigned char *is_cand,
                            int64_t *bs) {
  int nb = 0;
  int64_t b = -1, next;
  for (;;) {
    bs[nb++] = b;
    if (!base_greedy_set(x, is_cand, b, &next)) return nb;
    b = next;
    if (nb == BASE_MAX_BREAKPOINTS) break;
  }
  int64_t total = 0;
  for (int v = 0; v < x->bc.g->n; v++) total += x->bc.g->m[v];
  for (int k = 0; k < BASE_TAIL && b < total; k++) {
    bs[nb++] = b;
    b += (total - b) / (BASE_TAIL - k) + 1;
  }
  return nb;
}

static int base_eval_b(base_run_ctx *x, const unsigned char *is_cand,
                       int64_t b) {
  int64_t next;
  int nck = base_greedy_set(x, is_cand, b, &next);
  return base_try(x, x->ck, nck, b);
}

/* Evaluate up to `budget` indices evenly in [lo, hi], skipping done ones;
 * returns the index of this run's best among them, or -1. */
static int base_sweep(base_run_ctx *x, const unsigned char *is_cand,
                      const int64_t *bs, unsigned char *done, int lo, int hi,
                      int budget, int *best) {
  int span = hi - lo + 1, count = span < budget ? span : budget;
  for (int j = 0; j < count && !base_ctx_stopped(&x->bc); j++) {
    int idx =
        count == 1 ? lo : lo + (int)((int64_t)j * (span - 1) / (count - 1));
    if (done[idx]) continue;
    done[idx] = 1;
    if (base_eval_b(x, is_cand, bs[idx])) *best = idx;
  }
  return *best;
}

static void base_greedy(base_run_ctx *x, const int *cand, int nc) {
  const remat_graph *g = x->bc.g;
  unsigned char *is_cand = util_calloc((size_t)(g->n ? g->n : 1), 1);
  for (int i = 0; i < nc; i++) is_cand[cand[i]] = 1;
  int64_t *bs = util_malloc((BASE_MAX_BREAKPOINTS + BASE_TAIL) * sizeof *bs);
  int nb = base_breakpoints(x, is_cand, bs);
  unsigned char *done = util_calloc((size_t)nb, 1);
  int evals = x->p->max_evals > 2 ? x->p->max_evals : 2, best = -1;
  if (nb <= evals) {
    base_sweep(x, is_cand, bs, done, 0, nb - 1, nb, &best);
  } else { /* spread half, then refine between the best's neighbours */
    int first = evals / 2, step = (nb - 1) / (first - 1) + 1;
    base_sweep(x, is_cand, bs, done, 0, nb - 1, first, &best);
    if (best >= 0) {
      int lo = best - step < 0 ? 0 : best - step;
      int hi = best + step >= nb ? nb - 1 : best + step;
      base_sweep(x, is_cand, bs, done, lo, hi, evals - first, &best);
    }
  }
  free(done);
  free(bs);
  free(is_cand);
}

int base_run(const remat_graph *g, const base_params *p, remat_result *r,
             base_info *info) {
  base_run_ctx x = {.p = p, .r = r, .info = info, .t0 = p->t0 > 0 ? p->t0 : util_now()};
  if (info) {
    memset(info, 0, sizeof *info);
    info->segment_budget = -1;
  }
  base_ctx_init(&x.bc, g);
  x.bc.keep_crossing = p->keep_crossing;
  x.bc.stop = p->stop;
  x.bc.deadline = p->deadline;
  x.ck = util_malloc((size_t)(g->n ? g->n : 1) * sizeof *x.ck);
  if (p->method == BASE_ECHO) { /* no checkpoint sets: echo.c */
    free(x.ck);
    base_ctx_free(&x.bc);
    echo_params ep;
    echo_params_init(&ep);
    ep.budget = p->budget;
    ep.t0 = x.t0;
    ep.deadline = p->deadline;
    ep.stop = p->stop;
    ep.phase = p->phase;
    return echo_run(g, &ep, r);
  }
  int *cand = NULL, nc = 0;
  if (p->method != BASE_CHECKPOINT_ALL) {
    nc = base_candidates(g, p->candidates, &cand);
    if (info) info->ncandidates = nc;
  }
  if (g->n > 0) {
    if (p->method == BASE_CHECKPOINT_ALL)
      base_checkpoint_all(&x);
    else if (p->method == BASE_CHEN_SQRTN)
      base_sqrtn(&x, cand, nc);
    else
      base_greedy(&x, cand, nc);
  }
  free(cand);
  free(x.ck);
  base_ctx_free(&x.bc);
  return x.internal ? REMAT_EINTERNAL : REMAT_OK;
}

int base_best(const remat_graph *g, int64_t budget, double t0, deadline d,
              volatile int *stop, remat_result *r) {
  base_params p;
  base_params_init(&p);
  p.budget = budget;
  p.max_evals = 24;
  p.t0 = t0 > 0 ? t0 : util_now();
  p.stop = stop;
  p.deadline = d;
  p.method = BASE_CHECKPOINT_ALL;
  int rc = base_run(g, &p, r, NULL);
  for (int k = 0; k < 2; k++)
    for (int c = 0; c < BASE_NCAND; c++)
      for (int m = BASE_CHEN_SQRTN; m <= BASE_CHEN_GREEDY; m++) {
        if (base_expired(stop, d)) return rc;
        p.keep_crossing = k;
        p.candidates = c;
        p.method = m;
        if (base_run(g, &p, r, NULL)) rc = REMAT_EINTERNAL;
      }
  return rc;
}

int base_conclude(remat_result *r, int method) {
  if (r->seq && r->peak <= r->budget) {
    /* no recomputation at all is optimal */
    r->status =
        r->recomputations ? REMAT_STATUS_FEASIBLE : REMAT_STATUS_OPTIMAL;
    if (!r->recomputations) r->proof_covers = REMAT_COVERS_ANY_ORDER;
    return REMAT_OK;
  }
  r->status = REMAT_STATUS_OVER_BUDGET;
  snprintf(r->message, sizeof r->message,
           "%s cannot reach the budget %lld: best peak %lld (%.1f%% of budget)",
           base_method_name(method), (long long)r->budget,
           r->seq ? (long long)r->peak : -1LL,
           r->seq ? 100.0 * (double)r->peak / (double)r->budget : 0.0);
  return REMAT_ENOFIT;
}

int base_solve(const remat_graph *g, base_params *p, remat_result *r,
               base_info *info) {
  p->t0 = util_now();
  int rc = base_run(g, p, r, info);
  r->t_total = util_now() - p->t0;
  r->t_phase[0] = r->t_total;
  if (!rc) return base_conclude(r, p->method);
  snprintf(r->message, sizeof r->message,
           "internal error: a baseline schedule failed re-simulation");
  return REMAT_EINTERNAL;
}

int remat_baseline(const remat_graph *g, const char *method,
                   const char *candidates, double time_limit,
                   volatile int *stop, remat_result *r) {
  base_params p;
  base_params_init(&p);
  p.budget = r->budget;
  p.method = method ? base_method_parse(method) : -1;
  p.candidates = base_candidates_parse(candidates ? candidates : "ap");
  if (p.method < 0 || p.candidates < 0) {
    snprintf(r->message, sizeof r->message,
             p.method < 0 ? "unknown baseline '%s' "
                            "(checkpoint-all|chen-sqrtn|chen-greedy|echo)"
                          : "unknown candidates '%s' (ap|linearized)",
             p.method < 0 ? (method ? method : "(null)") : candidates);
    return REMAT_EUSAGE;
  }
  p.deadline = deadline_limit(util_now(), time_limit);
  p.stop = stop;
  return base_solve(g, &p, r, NULL);
}
