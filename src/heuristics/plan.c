/* plan.c -- event-set schedules and their fast evaluation. */
#include "plan.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
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

/* Index of the first element >= x of the ascending a[0..n). */
static int plan_lower(const int *a, int n, int x) {
  int lo = 0, hi = n;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (a[mid] < x)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

int plan_find(const plan *s, int key) { return plan_lower(s->key, s->len, key); }

int plan_has(const plan *s, int key) {
  int i = plan_find(s, key);
  return i < s->len && s->key[i] == key;
}

int plan_insert(plan *s, int key) {
  int i = plan_find(s, key);
  if (i < s->len && s->key[i] == key) return 0;
  GROW(s->key, s->cap, s->len + 1, 64);
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

int plan_node(int key) { return key - model_event(model_stage(key), 1); }

int plan_is_first(int key) {
  int k = model_stage(key);
  return key == model_event(k, k);
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
  UTIL_FREE(E->seq, E->lastuse, E->latest, E->ncopy, E->mem, E->delta, E->rec);
  if (E->cp)
    for (int v = 0; v < E->g->n; v++) free(E->cp[v]);
  free(E->cp);
  free(E->cpn);
  free(E->cpcap);
  memset(E, 0, sizeof *E);
}

static void plan_profile(plan_eval *E);
static void plan_scan(plan_eval *E);

static void plan_reserve(plan_eval *E, int len) {
  if (len + 1 <= E->cap) return;
  E->cap = 2 * (len + 1);
  E->seq = util_realloc(E->seq, (size_t)E->cap * sizeof *E->seq);
  E->lastuse = util_realloc(E->lastuse, (size_t)E->cap * sizeof *E->lastuse);
  E->mem = util_realloc(E->mem, (size_t)E->cap * sizeof *E->mem);
  E->delta = util_realloc(E->delta, ((size_t)E->cap + 1) * sizeof *E->delta);
  E->rec = util_realloc(E->rec, (size_t)E->cap * sizeof *E->rec);
}

void plan_run(plan_eval *E, const plan *s) {
  const remat_graph *g = E->g;
  int len = s->len, n = g->n;
  plan_reserve(E, len);
  E->evals++;
  for (int v = 0; v < n; v++) E->latest[v] = -1;
  memset(E->ncopy, 0, (size_t)n * sizeof *E->ncopy);
  int64_t dur = 0;
  int k = 1, first = model_event(1, 1), nrec = 0; /* the stage of key[j] */
  for (int j = 0; j < len; j++) {
    while (s->key[j] > first) { /* keys ascend */
      k++;
      first = model_event(k, k);
    }
    int v = s->key[j] - model_event(k, 1);
    if (s->key[j] != first) E->rec[nrec++] = j;
    E->seq[j] = v;
    E->lastuse[j] = j;
    for (int k = g->pred_off[v]; k < g->pred_off[v + 1]; k++)
      E->lastuse[E->latest[g->pred[k]]] = j;
    E->latest[v] = j;
    E->ncopy[v]++;
    dur += g->w[v];
  }
  E->duration = dur;
  E->nrec = nrec;
  E->len = len;
  plan_profile(E);
}

/* Memory per step from the lifetimes; then peak, excess, steps over. */
static void plan_profile(plan_eval *E) {
  const remat_graph *g = E->g;
  int len = E->len;
  memset(E->delta, 0, ((size_t)len + 1) * sizeof *E->delta);
  for (int i = 0; i < len; i++)
    if (E->lastuse[i] > i) {
      E->delta[i + 1] += g->m[E->seq[i]];
      E->delta[E->lastuse[i] + 1] -= g->m[E->seq[i]];
    }
  int64_t cur = 0;
  for (int j = 0; j < len; j++) {
    cur += E->delta[j];
    E->mem[j] = cur + g->m[E->seq[j]];
  }
  plan_scan(E);
  plan_peak_step(E);
}

/* ------------------------------------------------ incremental evaluation */

/* Index in the sorted list of v's events of the first one >= key. */
static int plan_cp_find(const plan_eval *E, int v, int key) {
  return plan_lower(E->cp[v], E->cpn[v], key);
}

static void plan_cp_add(plan_eval *E, int v, int key) {
  GROW(E->cp[v], E->cpcap[v], E->cpn[v] + 1, 2);
  int i = plan_cp_find(E, v, key);
  memmove(E->cp[v] + i + 1, E->cp[v] + i, (size_t)(E->cpn[v] - i) * sizeof **E->cp);
  E->cp[v][i] = key;
  E->cpn[v]++;
}

static void plan_cp_del(plan_eval *E, int v, int key) {
  int i = plan_cp_find(E, v, key);
  memmove(E->cp[v] + i, E->cp[v] + i + 1, (size_t)(E->cpn[v] - i - 1) * sizeof **E->cp);
  E->cpn[v]--;
}

/* The event of v's latest copy before key, or 0. */
int plan_copy_before(const plan_eval *E, int v, int key) {
  int i = plan_cp_find(E, v, key);
  return i > 0 ? E->cp[v][i - 1] : 0;
}

/* v's first event after key, or INT_MAX. */
static int plan_cp_after(const plan_eval *E, int v, int key) {
  int i = plan_cp_find(E, v, key + 1);
  return i < E->cpn[v] ? E->cp[v][i] : INT_MAX;
}

/* The last use of v's copy computed at event a (step i) whose next copy
 * is at event b: the step of its last reader in (a, b), or i. */
static int plan_last_reader(const plan_eval *E, const plan *s, int v, int a, int b, int i) {
  const remat_graph *g = E->g;
  int last = a;
  for (int k = g->succ_off[v]; k < g->succ_off[v + 1]; k++) {
    int r = plan_copy_before(E, g->succ[k], b);
    if (r > last) last = r;
  }
  return last == a ? i : plan_find(s, last);
}

int plan_next_reader(const plan_eval *E, const plan *s, int v, int key, int lim) {
  const remat_graph *g = E->g;
  int best = s->key[lim];
  for (int k = g->succ_off[v]; k < g->succ_off[v + 1]; k++) {
    int c = plan_cp_after(E, g->succ[k], key);
    if (c < best) best = c;
  }
  return plan_find(s, best);
}

void plan_track(plan_eval *E, const plan *s) {
  int n = E->g->n;
  if (!E->cp) {
    E->cp = util_calloc((size_t)n, sizeof *E->cp);
    E->cpn = util_calloc((size_t)n, sizeof *E->cpn);
    E->cpcap = util_calloc((size_t)n, sizeof *E->cpcap);
  }
  plan_run(E, s);
  for (int v = 0; v < n; v++) {
    if (E->cpcap[v] < E->ncopy[v]) {
      E->cpcap[v] = E->ncopy[v] + 1;
      E->cp[v] = util_realloc(E->cp[v], (size_t)E->cpcap[v] * sizeof **E->cp);
    }
    E->cpn[v] = 0;
  }
  for (int j = 0; j < s->len; j++) E->cp[E->seq[j]][E->cpn[E->seq[j]]++] = s->key[j];
}

/* Index in rec of the first step >= i. */
static int plan_rec_find(const plan_eval *E, int i) { return plan_lower(E->rec, E->nrec, i); }

/* Step a's value now lives until step to instead of lastuse[a]. */
static void plan_span(plan_eval *E, int a, int to) {
  int from = E->lastuse[a];
  int64_t m = E->g->m[E->seq[a]];
  if (to > from)
    for (int j = from + 1; j <= to; j++) E->mem[j] += m;
  else
    for (int j = to + 1; j <= from; j++) E->mem[j] -= m;
  E->lastuse[a] = to;
}

/* Peak, excess and steps over the budget, from mem (the step of the peak
 * is left to plan_peak_step).  The hottest loop of the annealing: cloned
 * for AVX2 where the machine has it (64-bit compares vectorise there;
 * bench/RESULTS.md#anneal-avx2). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx2", "default")))
#endif
static void plan_scan(plan_eval *E) {
  const int64_t *mem = E->mem, M = E->M;
  int len = E->len;
  int64_t peak = -1, excess = 0, over = 0;
  for (int j = 0; j < len; j++) {
    int64_t d = mem[j] - M;
    peak = mem[j] > peak ? mem[j] : peak;
    excess += d > 0 ? d : 0;
    over += d > 0;
  }
  E->peak = peak;
  E->peak_step = -1;
  E->excess = excess;
  E->over = (int)over;
}

int plan_peak_step(plan_eval *E) {
  if (E->peak_step < 0) {
    int ps = 0;
    while (ps < E->len - 1 && E->mem[ps] != E->peak) ps++;
    E->peak_step = ps;
  }
  return E->peak_step;
}

/* The recomputation of u at event key (step i) goes: u's previous copy
 * takes its readers, the predecessors' copies it was the last to read
 * end at their previous reader; then the step leaves the arrays. */
static void plan_inc_erase(plan_eval *E, plan *s, int key) {
  const remat_graph *g = E->g;
  int i = plan_find(s, key);
  if (i >= s->len || s->key[i] != key || plan_is_first(key)) return;
  int u = E->seq[i], lu = E->lastuse[i];
  plan_cp_del(E, u, key);
  plan_span(E, i, i);
  if (lu > i) plan_span(E, plan_find(s, plan_copy_before(E, u, key)), lu);
  for (int k = g->pred_off[u]; k < g->pred_off[u + 1]; k++) {
    int v = g->pred[k], a = plan_copy_before(E, v, key);
    if (!a) continue;
    int q = plan_find(s, a);
    if (E->lastuse[q] == i) plan_span(E, q, plan_last_reader(E, s, v, a, plan_cp_after(E, v, a), q));
  }
  plan_erase(s, key);
  int len = E->len - 1;
  memmove(E->seq + i, E->seq + i + 1, (size_t)(len - i) * sizeof *E->seq);
  memmove(E->lastuse + i, E->lastuse + i + 1, (size_t)(len - i) * sizeof *E->lastuse);
  memmove(E->mem + i, E->mem + i + 1, (size_t)(len - i) * sizeof *E->mem);
  for (int j = 0; j < i; j++) E->lastuse[j] -= E->lastuse[j] > i;
  for (int j = i; j < len; j++) E->lastuse[j]--;
  E->len = len;
  int r = plan_rec_find(E, i);
  memmove(E->rec + r, E->rec + r + 1, (size_t)(E->nrec - r - 1) * sizeof *E->rec);
  E->nrec--;
  for (int t = r; t < E->nrec; t++) E->rec[t]--;
  E->ncopy[u]--;
  E->duration -= g->w[u];
}

/* A recomputation of u at event key comes in as step i, holding what is
 * live across that point; it takes the later readers of u's previous copy
 * and reads each predecessor's latest copy. */
static void plan_inc_insert(plan_eval *E, plan *s, int key) {
  const remat_graph *g = E->g;
  if (plan_has(s, key) || plan_is_first(key)) return;
  int u = plan_node(key), len = E->len;
  plan_reserve(E, len + 1);
  int i = plan_find(s, key);
  int64_t live = i < len ? E->mem[i] - g->m[E->seq[i]] : 0;
  plan_insert(s, key);
  plan_cp_add(E, u, key);
  memmove(E->seq + i + 1, E->seq + i, (size_t)(len - i) * sizeof *E->seq);
  memmove(E->lastuse + i + 1, E->lastuse + i, (size_t)(len - i) * sizeof *E->lastuse);
  memmove(E->mem + i + 1, E->mem + i, (size_t)(len - i) * sizeof *E->mem);
  for (int j = 0; j < i; j++) E->lastuse[j] += E->lastuse[j] >= i;
  for (int j = i + 1; j <= len; j++) E->lastuse[j]++;
  E->len = ++len;
  E->seq[i] = u;
  E->lastuse[i] = i;
  E->mem[i] = live + g->m[u];
  int prev = plan_copy_before(E, u, key);
  plan_span(E, i, plan_last_reader(E, s, u, key, plan_cp_after(E, u, key), i));
  if (prev) {
    int p = plan_find(s, prev);
    plan_span(E, p, plan_last_reader(E, s, u, prev, key, p));
  }
  for (int k = g->pred_off[u]; k < g->pred_off[u + 1]; k++) {
    int a = plan_copy_before(E, g->pred[k], key);
    if (!a) continue;
    int q = plan_find(s, a);
    if (E->lastuse[q] < i) plan_span(E, q, i);
  }
  int r = plan_rec_find(E, i);
  for (int t = r; t < E->nrec; t++) E->rec[t]++;
  memmove(E->rec + r + 1, E->rec + r, (size_t)(E->nrec - r) * sizeof *E->rec);
  E->rec[r] = i;
  E->nrec++;
  E->ncopy[u]++;
  E->duration += g->w[u];
}

void plan_move(plan_eval *E, plan *s, int out, int in) {
  if (out) plan_inc_erase(E, s, out);
  if (in) plan_inc_insert(E, s, in);
  E->evals++;
  plan_scan(E);
}

int plan_pick_step(const int64_t *mem, int len, int over, int64_t M,
                   uint64_t *rng) {
  if (over > 0) {
    int k = util_below(rng, over);
    for (int j = 0; j < len; j++)
      if (mem[j] > M && k-- == 0) return j;
  }
  int best = util_below(rng, len);
  for (int t = 0; t < 3; t++) {
    int j = util_below(rng, len);
    if (mem[j] > mem[best]) best = j;
  }
  return best;
}
