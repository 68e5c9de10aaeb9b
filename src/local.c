/* local.c -- simulated annealing over recomputation sets. */
#include "local.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "sched.h"
#include "util.h"

void ls_params_init(ls_params *p) {
  memset(p, 0, sizeof *p);
  p->time_limit = 1;
  p->seed = 1;
}

#define LS_UNDO 64

typedef struct ls {
  const remat_graph *g;
  const ls_params *p;
  int n;
  int64_t M;
  sev bufs[2];
  sev *E;      /* evaluation of the current schedule */
  sev *T;      /* scratch evaluation of a trial */
  uint64_t rng;
  /* undo log of the current move */
  int added[LS_UNDO], nadded, removed[LS_UNDO], nremoved;
  int *rec;
  int rec_cap;
} ls;

static uint64_t ls_rand(ls *L) {
  uint64_t x = L->rng;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return L->rng = x;
}

static int ls_below(ls *L, int n) {
  return n <= 1 ? 0 : (int)(ls_rand(L) % (uint64_t)n);
}

static double ls_unit(ls *L) {
  return (double)(ls_rand(L) >> 11) * (1.0 / 9007199254740992.0);
}

static int ls_copies_ok(const ls *L, int v) {
  const int *c = L->p->copies;
  return !c || !c[v] || L->E->ncopy[v] + 1 <= c[v];
}

static void ls_add(ls *L, sch *s, int key) {
  if (L->nadded < LS_UNDO && sch_insert(s, key)) L->added[L->nadded++] = key;
}

static void ls_del(ls *L, sch *s, int key) {
  if (L->nremoved < LS_UNDO && sch_erase(s, key)) L->removed[L->nremoved++] = key;
}

static void ls_undo(ls *L, sch *s) {
  for (int i = 0; i < L->nadded; i++) sch_erase(s, L->added[i]);
  for (int i = 0; i < L->nremoved; i++) sch_insert(s, L->removed[i]);
  L->nadded = L->nremoved = 0;
}

/* Recompute u at event ev and, recursively, inputs whose copy does not
 * reach ev and was computed before step jp.  Uses the evaluation of s
 * (taken before the move). */
static void ls_recompute(ls *L, sch *s, int u, int ev, int jp, int depth) {
  if (sch_has(s, ev) || !ls_copies_ok(L, u)) return;
  const remat_graph *g = L->g;
  const int *seq = L->E->seq, *lastuse = L->E->lastuse;
  int pos = sch_find(s, ev), stage = model_stage(ev);
  int limit = s->key[jp];
  ls_add(L, s, ev);
  if (depth >= 3) return;
  for (int k = g->pred_off[u]; k < g->pred_off[u + 1]; k++) {
    int p = g->pred[k], pev = model_event(stage, p + 1);
    if (sch_has(s, pev)) continue;
    /* the latest copy of p before the new step (indices of the old s) */
    int a = pos - 1;
    while (a >= 0 && seq[a] != p) a--;
    if (a < 0 || lastuse[a] >= pos || a > jp || pev <= limit) continue;
    ls_recompute(L, s, p, pev, jp, depth + 1);
  }
}

/* A step to relieve: a random overloaded step, else one near the peak. */
static int ls_pick_step(ls *L) {
  const sev *E = L->E;
  int64_t thr = E->over ? L->M : E->peak - (E->peak >> 6);
  int chosen = E->peak_step, seen = 0;
  for (int j = 0; j < E->len; j++)
    if (E->mem[j] > thr || (!E->over && E->mem[j] >= thr))
      if (ls_below(L, ++seen) == 0) chosen = j;
  return chosen;
}

/* Move: free a value live across a chosen step by recomputing it before
 * its next reader. */
static int ls_move_add(ls *L, sch *s) {
  const remat_graph *g = L->g;
  const sev *E = L->E;
  int jp = ls_pick_step(L), z = E->seq[jp];
  /* candidates: copies a < jp live across jp and not read at jp */
  int cand = -1, seen = 0;
  for (int a = 0; a < jp; a++) {
    if (E->lastuse[a] <= jp) continue;
    int u = E->seq[a];
    if (sev_is_pred(g, u, z)) {
      int b = a + 1;
      while (b < jp && E->seq[b] != u) b++;
      if (b == jp) continue; /* read at jp */
    }
    if (!ls_copies_ok(L, u)) continue;
    /* weight by size: pick proportionally via repeated sampling */
    if (ls_below(L, ++seen) == 0) cand = a;
  }
  if (cand < 0) return 0;
  int u = E->seq[cand];
  int r = jp + 1;
  while (r <= E->lastuse[cand] && !sev_is_pred(g, u, E->seq[r])) r++;
  if (r > E->lastuse[cand]) return 0;
  int lo = model_stage(s->key[jp]), hi = model_stage(s->key[r]);
  int stage = hi;
  if (hi > lo && ls_below(L, 4) == 0) stage = lo + 1 + ls_below(L, hi - lo);
  int ev = model_event(stage, u + 1);
  if (ev <= s->key[jp] || stage < u + 2) return 0;
  ls_recompute(L, s, u, ev, jp, 0);
  return L->nadded > 0;
}

static int ls_collect(ls *L, const sch *s) {
  if (L->rec_cap < s->len) {
    L->rec_cap = 2 * s->len;
    L->rec = util_realloc(L->rec, (size_t)L->rec_cap * sizeof *L->rec);
  }
  int nr = 0;
  for (int i = 0; i < s->len; i++)
    if (!sch_is_first(s->key[i])) L->rec[nr++] = s->key[i];
  return nr;
}

static int ls_move_remove(ls *L, sch *s) {
  int nr = ls_collect(L, s);
  if (!nr) return 0;
  ls_del(L, s, L->rec[ls_below(L, nr)]);
  return 1;
}

static int ls_move_shift(ls *L, sch *s) {
  int nr = ls_collect(L, s);
  if (!nr) return 0;
  int key = L->rec[ls_below(L, nr)];
  int u = sch_node(key), k = model_stage(key);
  int d = 1 + ls_below(L, 3);
  int k2 = ls_below(L, 2) ? k + d : k - d;
  if (k2 < u + 2 || k2 > L->n) return 0;
  int key2 = model_event(k2, u + 1);
  if (sch_has(s, key2)) return 0;
  ls_del(L, s, key);
  ls_add(L, s, key2);
  return 1;
}

typedef struct ls_best {
  int64_t dur;  /* best within budget, -1 none */
  int64_t peak; /* lowest peak while nothing fits */
  int found;
} ls_best;

static void ls_report(ls *L, const sch *s, ls_best *b, int *stop) {
  sev_run(L->E, s);
  int fits = L->E->peak <= L->M;
  int better = fits ? (b->dur < 0 || L->E->duration < b->dur)
                    : (b->dur < 0 && L->E->peak < b->peak);
  if (!better) return;
  if (fits)
    b->dur = L->E->duration;
  else
    b->peak = L->E->peak;
  b->found++;
  if (L->p->found && L->p->found(L->p->ctx, L->E->seq, L->E->len, "local search"))
    *stop = 1;
}

int ls_run(const remat_graph *g, const ls_params *p) {
  if (g->n > 60000 || g->n < 2) return 0;
  ls L;
  memset(&L, 0, sizeof L);
  L.g = g;
  L.p = p;
  L.n = g->n;
  L.M = p->budget;
  L.rng = 0x2545F4914F6CDD1Dull ^ ((uint64_t)(p->seed + 1) * 0x9E3779B97F4A7C15ull);
  sev_init(&L.bufs[0], g, p->budget);
  sev_init(&L.bufs[1], g, p->budget);
  L.E = &L.bufs[0];
  L.T = &L.bufs[1];
  sch cur = {0}, best = {0};
  if (!p->start || sch_from_seq(&cur, p->start, p->start_len, g->n)) {
    sch_free(&cur);
    sch_init_topo(&cur, g->n);
  }
  double t0 = util_now(), deadline = t0 + p->time_limit;
  /* scales: an average duration, and the memory of an average value */
  double wavg = (double)remat_graph_base_duration(g) / g->n + 1;
  int64_t msum = 0;
  for (int v = 0; v < g->n; v++) msum += g->m[v];
  double mavg = (double)msum / g->n + 1;
  double lambda = wavg / mavg; /* one average value over one step ~ one duration */
  double T0 = wavg * 0.3, T = T0;
  sev_run(L.E, &cur);
  double f = (double)L.E->duration + lambda * (double)L.E->excess;
  ls_best b = {-1, INT64_MAX, 0};
  int stop = 0;
  ls_report(&L, &cur, &b, &stop);
  sch_copy(&best, &cur);
  long long it = 0, last_imp = 0;
  while (!stop) {
    if ((it & 255) == 0) {
      double now = util_now();
      if (now >= deadline || (p->stop && *p->stop)) break;
      /* cooling over windows; reheat after a long stall */
      double frac = fmod((now - t0) / 5.0, 1.0);
      T = T0 * pow(0.002, frac);
      if (it - last_imp > 200000) {
        sch_copy(&cur, &best);
        sev_run(L.E, &cur);
        f = (double)L.E->duration + lambda * (double)L.E->excess;
        last_imp = it;
      }
    }
    it++;
    L.nadded = L.nremoved = 0;
    int kind = ls_below(&L, 10), moved;
    if (kind < 4 || (L.E->over && kind < 7))
      moved = ls_move_add(&L, &cur);
    else if (kind < 7)
      moved = ls_move_remove(&L, &cur);
    else if (kind < 9)
      moved = ls_move_shift(&L, &cur);
    else {
      moved = ls_move_remove(&L, &cur);
      if (moved) { /* and repair where it overloads */
        sev_run(L.T, &cur);
        if (L.T->over) {
          sev *keep = L.E;
          L.E = L.T;
          L.T = keep;
          ls_move_add(&L, &cur);
          L.T = L.E;
          L.E = keep;
        }
      }
    }
    if (!moved) {
      ls_undo(&L, &cur);
      continue;
    }
    sev_run(L.T, &cur);
    double f2 = (double)L.T->duration + lambda * (double)L.T->excess;
    if (f2 <= f || ls_unit(&L) < exp((f - f2) / T)) {
      sev *keep = L.E; /* accept: the trial's evaluation becomes current */
      L.E = L.T;
      L.T = keep;
      f = f2;
      int fits = L.E->peak <= L.M;
      if ((fits && (b.dur < 0 || L.E->duration < b.dur)) ||
          (!fits && b.dur < 0 && L.E->peak < b.peak)) {
        ls_report(&L, &cur, &b, &stop);
        sch_copy(&best, &cur);
        last_imp = it;
      }
    } else {
      ls_undo(&L, &cur);
    }
    /* lambda: push towards feasibility, relax when feasible */
    if ((it & 63) == 0) {
      if (L.E->over)
        lambda *= 1.05;
      else
        lambda *= 0.99;
      if (lambda < 1e-12) lambda = 1e-12;
      f = (double)L.E->duration + lambda * (double)L.E->excess;
    }
  }
  free(L.rec);
  sch_free(&cur);
  sch_free(&best);
  sev_free(&L.bufs[0]);
  sev_free(&L.bufs[1]);
  return b.found;
}
