/* heur.c -- constructive heuristics on the stage axis (schedules as event
 * sets, plan.h).
 *
 * greedy:  while the peak exceeds M, take the peak step and the values live
 *          across it that are not read there; for each, the moves "drop it
 *          after its last use before the peak and recompute it just before
 *          its next reader" (recomputing, recursively, inputs that would
 *          otherwise have to stay live across the peak) and "... recompute
 *          it after the peak as late as all its inputs are still live" (no
 *          chain, the value held a little longer); apply the move that
 *          removes the most memory excess per unit of added duration, or,
 *          when none does, the one that relieves the peak step most without
 *          raising the peak.
 * prune:   drop recomputations that are not needed, most expensive first.
 * lns:     ruin and recreate: remove a few recomputations, repair with the
 *          greedy, prune, keep the result when it is not worse; stop after
 *          a stall as long as the search so far.
 *
 * Every function here that takes (H, s) expects H->E to track s
 * (plan_track) and leaves it so: the moves it makes and undoes go through
 * plan_move, and its lists of copies per node answer "the latest copy of
 * p before this point" by binary search instead of a walk back over the
 * steps.  The greedy's candidate moves are each evaluated in full by a
 * scratch evaluator (plan_run: one pass over the steps and the edges; on
 * sparse graphs that is cheaper than a plan_move in and out, whose memory
 * updates span the values' whole lifetimes). */
#include "heur.h"

#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "model.h"
#include "plan.h"
#include "util.h"

void heur_params_init(heur_params *p) {
  memset(p, 0, sizeof *p);
  p->deadline = deadline_in(1.0);
  worker_io_init(&p->io);
}

typedef struct heur {
  const remat_graph *g;
  const heur_params *p;
  int n;
  int64_t M;
  plan_eval E;    /* tracks the schedule being worked on */
  plan_eval S;    /* scratch: evaluates candidate moves in full */
  uint64_t rng;
  deadline deadline;
} heur;

static uint64_t heur_rand(heur *H) { return util_xorshift(&H->rng); }

/* Out of time, stopped, or halted (in the solve: a proof came, e.g. the
 * covering bound's, while the heuristics run). */
static int heur_out_of_time(const heur *H) {
  return deadline_passed(H->deadline) || worker_halted(&H->p->io);
}

static int heur_copies_ok(const heur *H, int v, int extra) {
  const int *c = H->p->copies;
  return !c || !c[v] || H->E.ncopy[v] + extra <= c[v];
}

/* ---------------------------------------------------------------- greedy */

#define HEUR_MAXMOVE 16
/* at most two moves per live value (at the next reader, or earlier) */
#define HEUR_MOVES(H) (2 * (H)->n)

typedef struct move {
  int nkey;
  int key[HEUR_MAXMOVE];
} move;

static int move_has(const move *mv, int key) {
  for (int i = 0; i < mv->nkey; i++)
    if (mv->key[i] == key) return 1;
  return 0;
}

/* Insert mv's recomputations (those not in s yet: in is set to how many,
 * and they are moved to the front of mv) and undo them. */
static int heur_apply(heur *H, plan *s, move *mv) {
  int in = 0;
  for (int k = 0; k < mv->nkey; k++) {
    int key = mv->key[k];
    if (plan_has(s, key)) continue;
    plan_move(&H->E, s, 0, key);
    mv->key[k] = mv->key[in];
    mv->key[in++] = key;
  }
  return in;
}

static void heur_undo(heur *H, plan *s, const move *mv, int in) {
  for (int k = in - 1; k >= 0; k--) plan_move(&H->E, s, mv->key[k], 0);
}

/* Add the recomputation of u at event ev to mv, and recursively those of
 * inputs whose live copy does not reach ev and was computed before the
 * peak step jp (keeping them would hold memory across the peak), as far
 * back as HEUR_MAXMOVE recomputations reach: dropping a block's input
 * and rebuilding it can take the chain back to the graph's first nodes. */
static int heur_close(heur *H, const plan *s, move *mv, int u, int ev, int jp) {
  if (mv->nkey >= HEUR_MAXMOVE || plan_has(s, ev) || move_has(mv, ev)) return -1;
  if (!heur_copies_ok(H, u, 1)) return -1;
  mv->key[mv->nkey++] = ev;
  const remat_graph *g = H->g;
  const int *lastuse = H->E.lastuse;
  int pos = plan_find(s, ev); /* the new step would sit before pos */
  int stage = model_stage(ev);
  for (int k = g->pred_off[u]; k < g->pred_off[u + 1]; k++) {
    int p = g->pred[k];
    int pev = model_event(stage, p + 1);
    if (move_has(mv, pev)) continue;
    int ap = plan_copy_before(&H->E, p, ev);
    if (!ap) return -1; /* cannot happen for a valid schedule */
    int a = plan_find(s, ap);
    if (lastuse[a] >= pos) continue; /* still live there */
    if (a > jp || pev <= s->key[jp]) continue; /* extend */
    /* if p cannot be recomputed its copy stays live; the evaluation
     * decides whether the move is still worth it */
    (void)heur_close(H, s, mv, p, pev, jp);
  }
  return 0;
}

/* The latest slot of u after step jp and before step r at which every
 * input of u still has a live copy (read at or after that event), or 0. */
static int heur_early_event(const heur *H, const plan *s, int u, int jp, int r) {
  const remat_graph *g = H->g;
  const int *lastuse = H->E.lastuse;
  int limit = s->key[r] - 1, after = s->key[jp];
  for (int k = g->pred_off[u]; k < g->pred_off[u + 1]; k++) {
    int ap = plan_copy_before(&H->E, g->pred[k], s->key[r]);
    if (!ap) return 0;
    int a = plan_find(s, ap);
    if (lastuse[a] <= jp) return 0;
    if (s->key[lastuse[a]] < limit) limit = s->key[lastuse[a]];
    if (s->key[a] > after) after = s->key[a]; /* that copy must exist then */
  }
  int st = model_stage(limit);
  if (model_event(st, u + 1) > limit) st--;
  if (st < u + 2) return 0;
  int ev = model_event(st, u + 1);
  return ev > after ? ev : 0;
}

/* Every candidate move costs a pass over the schedule and its edges; a
 * step evaluates moves worth at most HEUR_WORK of those (all of them up
 * to a few thousand nodes; on the largest graphs HEUR_EVAL_MIN: the ones
 * that free the most memory per unit of added duration;
 * bench/RESULTS.md#large-graphs).  Building a
 * move (heur_close) is cheap but not free either: beyond HEUR_BUILD times
 * that many, only the values that free the most memory per unit of their
 * own duration get one. */
#define HEUR_WORK 20000000
#define HEUR_EVAL_MIN 64
#define HEUR_BUILD 4

static int heur_eval_cap(const heur *H) {
  int64_t pass = (int64_t)H->E.len + H->g->pred_off[H->g->n] + 1;
  return HEUR_WORK / pass > HEUR_EVAL_MIN ? (int)(HEUR_WORK / pass) : HEUR_EVAL_MIN;
}

/* A duration added to every move's cost (so that free moves still rank
 * by the memory they free). */
static int64_t heur_unit(const heur *H) {
  return 1 + remat_graph_base_duration(H->g) / H->g->n / 50;
}

static int heur_cmp_desc(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x < y) - (x > y);
}

/* Keep the k (< n) items of items[0..n) (each size bytes) with the best
 * scores, in their order; returns how many were kept. */
static int heur_keep_best(void *items, size_t size, const double *score, int n, int k) {
  double *sorted = util_malloc((size_t)n * sizeof *sorted);
  memcpy(sorted, score, (size_t)n * sizeof *sorted);
  qsort(sorted, (size_t)n, sizeof *sorted, heur_cmp_desc);
  double cut = sorted[k - 1];
  free(sorted);
  char *it = items;
  int kept = 0;
  for (int i = 0; i < n && kept < k; i++) /* kept <= i */
    if (score[i] >= cut) memmove(it + (size_t)kept++ * size, it + (size_t)i * size, size);
  return kept;
}

/* The steps whose values are live across jp, not read there and not at
 * their copy limit, at most HEUR_BUILD x heur_eval_cap of them (in
 * order); returns how many. */
static int heur_live(heur *H, int jp, int *live) {
  const remat_graph *g = H->g;
  const int *seq = H->E.seq, *lastuse = H->E.lastuse;
  int z = seq[jp], nl = 0;
  /* a copy live across jp is u's latest before jp (a newer one would take
   * its readers), so when z reads u it reads this copy, which then cannot
   * go; nor can one whose node has all its copies */
  for (int a = 0; a < jp; a++)
    if (lastuse[a] > jp && !graph_is_pred(g, seq[a], z) && heur_copies_ok(H, seq[a], 1))
      live[nl++] = a;
  int lim = HEUR_BUILD * heur_eval_cap(H);
  if (nl <= lim) return nl;
  int64_t unit = heur_unit(H);
  double *score = util_malloc((size_t)nl * sizeof *score);
  for (int i = 0; i < nl; i++)
    score[i] = (double)g->m[seq[live[i]]] / (double)(g->w[seq[live[i]]] + unit);
  int k = heur_keep_best(live, sizeof *live, score, nl, lim);
  free(score);
  return k;
}

/* Moves that free a value across step jp. */
static int heur_moves(heur *H, const plan *s, int jp, move *out, int max) {
  const int *seq = H->E.seq, *lastuse = H->E.lastuse;
  int *live = util_malloc((size_t)(jp + 1) * sizeof *live);
  int nl = heur_live(H, jp, live), nm = 0;
  for (int i = 0; i < nl && nm < max; i++) {
    int a = live[i], u = seq[a];
    if ((i & 255) == 0 && heur_out_of_time(H)) break;
    /* at u's first reader after jp */
    int r = plan_next_reader(&H->E, s, u, s->key[jp], lastuse[a]);
    int ev = model_event(model_stage(s->key[r]), u + 1);
    if (ev <= s->key[jp]) continue;
    move mv = {0};
    if (!heur_close(H, s, &mv, u, ev, jp)) out[nm++] = mv;
    /* or earlier, while all of u's inputs are still live: no chain, u held
     * a little longer */
    int early = heur_early_event(H, s, u, jp, r);
    if (early > 0 && early < ev && nm < max && !plan_has(s, early) &&
        heur_copies_ok(H, u, 1)) {
      move me = {0};
      me.key[me.nkey++] = early;
      out[nm++] = me;
    }
  }
  free(live);
  return nm;
}

static int64_t heur_move_cost(const heur *H, const move *mv) {
  int64_t c = 0;
  for (int k = 0; k < mv->nkey; k++) c += H->g->w[plan_node(mv->key[k])];
  return c;
}

/* The moves worth evaluating (at most heur_eval_cap, in order). */
static int heur_shortlist(heur *H, move *moves, int nm, int64_t unit) {
  int cap = heur_eval_cap(H);
  if (nm <= cap) return nm;
  double *score = util_malloc((size_t)nm * sizeof *score);
  for (int i = 0; i < nm; i++)
    score[i] = (double)H->g->m[plan_node(moves[i].key[0])] /
               (double)(heur_move_cost(H, &moves[i]) + unit);
  int k = heur_keep_best(moves, sizeof *moves, score, nm, cap);
  free(score);
  return k;
}

/* Apply the best move at the peak; returns 0 if none lowers the excess. */
static int heur_step(heur *H, plan *s, move *moves, int maxmoves, int randomise) {
  int64_t excess0 = H->E.excess, dur0 = H->E.duration;
  int jp = plan_peak_step(&H->E);
  int64_t unit = heur_unit(H);
  int nm = heur_shortlist(H, moves, heur_moves(H, s, jp, moves, maxmoves), unit);
  int best = -1, fallback = -1;
  double best_score = 0;
  int64_t peak0 = H->E.peak, fb_peak = peak0, fb_excess = 0;
  int key_jp = s->key[jp];
  for (int i = 0; i < nm && !heur_out_of_time(H); i++) {
    const move *m = &moves[i];
    for (int k = 0; k < m->nkey; k++) plan_insert(s, m->key[k]);
    plan_run(&H->S, s);
    int64_t peak = H->S.peak, excess = H->S.excess, dur = H->S.duration;
    int64_t at_jp = H->S.mem[plan_find(s, key_jp)];
    for (int k = 0; k < m->nkey; k++) plan_erase(s, m->key[k]);
    /* fallback: relieve the peak step without raising the peak; the
     * lowest peak, then the least excess */
    if (peak <= peak0 && at_jp < peak0 &&
        (fallback < 0 || peak < fb_peak || (peak == fb_peak && excess < fb_excess))) {
      fallback = i;
      fb_peak = peak;
      fb_excess = excess;
    }
    int64_t gain = excess0 - excess;
    if (gain <= 0) continue;
    double score = (double)gain / (double)(dur - dur0 + unit);
    if (randomise) score *= 0.5 + (double)(heur_rand(H) % 1000) / 1000.0;
    if (best < 0 || score > best_score) {
      best = i;
      best_score = score;
    }
  }
  /* no move lowers the excess: one that lowers the peak still helps */
  if (best < 0) best = fallback;
  if (best < 0) return 0;
  heur_apply(H, s, &moves[best]);
  return 1;
}

/* Repair s until it fits M; returns 1 if it does. */
static int heur_greedy(heur *H, plan *s, int randomise) {
  move *moves = util_malloc((size_t)HEUR_MOVES(H) * sizeof *moves);
  int ok = 0;
  for (;;) {
    if (H->E.peak <= H->M) {
      ok = 1;
      break;
    }
    if (heur_out_of_time(H) || !heur_step(H, s, moves, HEUR_MOVES(H), randomise)) break;
  }
  free(moves);
  return ok;
}

/* ----------------------------------------------------------- improvement */

/* The recomputations of s (their events), most expensive first; *nr gets
 * their number.  The caller frees the array. */
static int *heur_recs_by_cost(const heur *H, const plan *s, int *nr) {
  int *rec = util_malloc((size_t)(s->len ? s->len : 1) * sizeof *rec);
  *nr = 0;
  for (int i = 0; i < s->len; i++)
    if (!plan_is_first(s->key[i])) rec[(*nr)++] = s->key[i];
  for (int i = 1; i < *nr; i++) { /* insertion sort by duration */
    int key = rec[i], j = i;
    while (j > 0 && H->g->w[plan_node(rec[j - 1])] < H->g->w[plan_node(key)]) {
      rec[j] = rec[j - 1];
      j--;
    }
    rec[j] = key;
  }
  return rec;
}

/* Remove recomputations that are not needed, most expensive first. */
static void heur_prune(heur *H, plan *s) {
  int nr;
  int *rec = heur_recs_by_cost(H, s, &nr);
  for (int i = 0; i < nr; i++) {
    plan_move(&H->E, s, rec[i], 0);
    if (H->E.peak > H->M) plan_move(&H->E, s, 0, rec[i]);
  }
  free(rec);
}

/* Exchange: remove one recomputation and clear the overload it leaves
 * with recomputations that cost less in all (a depth-limited,
 * cost-bounded search over the greedy's moves at the first overloaded
 * step). */
#define HEUR_XDEPTH 3
#define HEUR_XWIDTH 24

static int heur_first_over(const heur *H) {
  for (int j = 0; j < H->E.len; j++)
    if (H->E.mem[j] > H->M) return j;
  return -1;
}

static int heur_repair(heur *H, plan *s, int64_t max_dur, int depth,
                       move *buf) {
  if (H->E.duration > max_dur) return 0;
  if (H->E.peak <= H->M) return 1;
  if (depth == HEUR_XDEPTH || heur_out_of_time(H)) return 0;
  int64_t dur = H->E.duration;
  int j = heur_first_over(H);
  move *mv = buf + (size_t)depth * (size_t)HEUR_MOVES(H);
  int nm = heur_moves(H, s, j, mv, HEUR_MOVES(H));
  /* cheapest first, within the cost bound */
  int64_t cost[HEUR_XWIDTH];
  int order[HEUR_XWIDTH], k = 0;
  for (int i = 0; i < nm; i++) {
    int64_t c = heur_move_cost(H, &mv[i]);
    if (dur + c > max_dur) continue;
    if (k == HEUR_XWIDTH && c >= cost[k - 1]) continue; /* full, dearer */
    int p = k < HEUR_XWIDTH ? k++ : HEUR_XWIDTH - 1;
    while (p > 0 && cost[p - 1] > c) {
      cost[p] = cost[p - 1];
      order[p] = order[p - 1];
      p--;
    }
    cost[p] = c;
    order[p] = i;
  }
  for (int i = 0; i < k; i++) {
    move *m = &mv[order[i]];
    int in = heur_apply(H, s, m);
    if (heur_repair(H, s, max_dur, depth + 1, buf)) return 1;
    heur_undo(H, s, m, in);
  }
  return 0;
}

/* One pass over the recomputations, most expensive first; returns the
 * number of successful exchanges. */
static int heur_exchange(heur *H, plan *s) {
  int nr;
  int *rec = heur_recs_by_cost(H, s, &nr);
  move *buf = util_malloc((size_t)HEUR_XDEPTH * (size_t)HEUR_MOVES(H) * sizeof *buf);
  int wins = 0;
  for (int i = 0; i < nr && !heur_out_of_time(H); i++) {
    if (!plan_has(s, rec[i])) continue;
    int64_t before = H->E.duration;
    plan_move(&H->E, s, rec[i], 0);
    if (heur_repair(H, s, before - 1, 0, buf))
      wins++;
    else
      plan_move(&H->E, s, 0, rec[i]);
  }
  free(buf);
  free(rec);
  return wins;
}

typedef struct heur_out {
  const worker_io *io;
  int found;
  int stop;
} heur_out;

static void heur_emit(heur *H, const plan *s, heur_out *o, const char *name) {
  o->found++;
  if (worker_report(o->io, H->E.seq, s->len, name)) o->stop = 1;
}

/* Ruin and recreate until the deadline or a long stall; returns the
 * iterations. */
static long long heur_lns(heur *H, plan *best, heur_out *o) {
  plan cur = {0}, trial = {0};
  plan_copy(&cur, best);
  int64_t cur_dur = H->E.duration, best_dur = H->E.duration;
  int *rec = NULL, rec_cap = 0;
  long long since = 0, stale = 0, iters = 0;
  /* stop after a stall as long as the search so far (at least 0.25 s):
   * the solver's workers use the time better */
  double start = util_now(), last = start;
  while (!heur_out_of_time(H) && !o->stop && stale < 20000) {
    double now = util_now(), stall = last - start;
    if (now - last > (stall > 0.25 ? stall : 0.25)) break;
    stale++;
    iters++;
    plan_copy(&trial, &cur);
    if (rec_cap < trial.len) {
      rec_cap = 2 * trial.len;
      rec = util_realloc(rec, (size_t)rec_cap * sizeof *rec);
    }
    int nr = 0;
    for (int i = 0; i < trial.len; i++)
      if (!plan_is_first(trial.key[i])) rec[nr++] = trial.key[i];
    if (!nr) break;
    int k = 1 + (int)(heur_rand(H) % (uint64_t)(nr < 4 ? nr : 4));
    plan_track(&H->E, &trial);
    for (int i = 0; i < k; i++) plan_move(&H->E, &trial, rec[heur_rand(H) % (uint64_t)nr], 0);
    if (!heur_greedy(H, &trial, 1)) continue;
    heur_prune(H, &trial);
    if (H->E.peak > H->M || H->E.duration > cur_dur) continue;
    plan_copy(&cur, &trial);
    cur_dur = H->E.duration;
    if (cur_dur < best_dur) {
      best_dur = cur_dur;
      plan_copy(best, &cur);
      heur_emit(H, best, o, "heuristic");
      since = stale = 0;
      last = util_now();
    }
    if (++since > 2000) { /* back to the best */
      plan_copy(&cur, best);
      cur_dur = best_dur;
      since = 0;
    }
  }
  free(rec);
  plan_free(&cur);
  plan_free(&trial);
  return iters;
}

int heur_run(const remat_graph *g, const heur_params *p) {
  if (g->n > MODEL_MAX_NODES) return 0;
  heur H = {.g = g, .p = p, .n = g->n, .M = p->budget,
            .rng = 0x853c49e6748fea9bull ^ ((uint64_t)p->io.seed << 1),
            .deadline = p->deadline};
  plan_eval_init(&H.E, g, p->budget);
  plan_eval_init(&H.S, g, p->budget);
  plan s = {0};
  plan_init_topo(&s, g->n);
  plan_track(&H.E, &s);
  heur_out o = {&p->io, 0, 0};
  heur_stats st = {0};
  double t0 = util_now();
  st.greedy_fits = heur_greedy(&H, &s, 0);
  st.t_greedy = util_now() - t0;
  if (st.greedy_fits) {
    heur_prune(&H, &s);
    heur_emit(&H, &s, &o, "greedy");
    while (!o.stop && !heur_out_of_time(&H) && heur_exchange(&H, &s) > 0) {
      st.exchanges++;
      heur_emit(&H, &s, &o, "exchange");
    }
    if (!o.stop) st.lns_iters = heur_lns(&H, &s, &o);
  } else {
    heur_emit(&H, &s, &o, "greedy"); /* the lowest peak it reached */
  }
  st.t_total = util_now() - t0;
  if (p->stats) *p->stats = st;
  plan_free(&s);
  plan_eval_free(&H.E);
  plan_eval_free(&H.S);
  return o.found;
}
