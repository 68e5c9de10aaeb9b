/* window_model.c -- the window sub-model (window_model.h). */
#include "window_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gecode.h"
#include "graph.h"
#include "grow.h"

/* A copy of a variable node inside the window. */
typedef struct win_copy {
  int node;
  int slot;   /* free slot index, or -1 for a fixed start */
  int start;  /* fixed start clipped to T0 (memory), or unused */
  int real;   /* fixed start itself (precedence) */
  int emin;   /* least end */
  int id;     /* variable suffix: e<id>, d<id> */
  int init_a, init_s, init_e; /* the current schedule, for the warm start */
} win_copy;

typedef struct win_bld {
  win *W;
  const model *md;
  const remat_graph *g;
  unsigned char *var, *cross;
  win_copy *cp;
  int ncp, capcp;
  int *first_cp, *next_cp; /* per node: linked list of its copies */
  util_buf decl, cons;
  int nb;
  struct wrun { int start, len; int64_t load; } *run; /* fixed load, by runs */
  int nrun;
} win_bld;

static int win_park(const win_bld *B, int slot) { return B->W->t1 + 1 + slot; }

static int win_add(win_bld *B, int node, int slot, int start, int real, int emin) {
  GROW_ALL(B->capcp, B->ncp + 1, 64, B->cp, B->next_cp);
  int k = B->ncp++;
  B->cp[k] = (win_copy){node, slot, start, real, emin, k, 1, start, emin};
  B->next_cp[k] = B->first_cp[node];
  B->first_cp[node] = k;
  return k;
}

/* Print the start of copy k (clipped). */
static void win_s(util_buf *b, const win_bld *B, int k) {
  const win_copy *c = &B->cp[k];
  if (c->slot < 0)
    util_buf_printf(b, "%d", c->start);
  else
    util_buf_printf(b, "s%d", k);
}
/* Variable nodes: R and its predecessors. */
static void win_variables(win_bld *B, const unsigned char *R) {
  const remat_graph *g = B->g;
  for (int v = 0; v < g->n; v++)
    if (R[v]) {
      B->var[v] = 1;
      for (int j = g->pred_off[v]; j < g->pred_off[v + 1]; j++) B->var[g->pred[j]] = 1;
    }
}

/* Walk the current schedule: copies of variable nodes meeting the window,
 * R's recomputations in it (to be replaced), the fixed nodes' load. */
static void win_scan(win_bld *B, const plan *s, const plan_eval *E, const unsigned char *R,
                    int64_t *load, int *others) {
  win *W = B->W;
  for (int i = 0; i < E->len; i++) {
    int u = E->seq[i], ts = s->key[i], te = s->key[E->lastuse[i]];
    int inside = te >= W->t0 && ts <= W->t1;
    if (R[u] && ts >= W->t0 && ts <= W->t1 && !plan_is_first(ts)) {
      W->old_end[W->nold] = te > W->t1 ? W->t1 : te;
      W->old_key[W->nold++] = ts; /* replaced by free slots */
      W->bound += B->md->dur[u];
      if (te > W->t1) B->cross[u] = 1;
      continue;
    }
    others[u]++;
    if (!inside) continue;
    int lo = ts < W->t0 ? W->t0 : ts, hi = te > W->t1 ? W->t1 : te;
    if (!B->var[u]) {
      load[lo - W->t0] += B->md->mem[u];
      load[hi - W->t0 + 1] -= B->md->mem[u];
      continue;
    }
    if (te > W->t1) B->cross[u] = 1;
    /* a copy entering from the left stays live until T0 */
    int k = win_add(B, u, -1, lo, ts, lo);
    B->cp[k].init_e = hi;
  }
}

/* Free slots of R's nodes: C_v minus their other copies. */
static void win_slots(win_bld *B, const unsigned char *R, const int *others) {
  const model *md = B->md;
  win *W = B->W;
  for (int u = 0; u < md->n; u++) {
    if (!R[u]) continue;
    int lo = W->k0 > u + 2 ? W->k0 : u + 2;
    if (lo > W->k1) continue;
    int room = md->first[u + 1] - md->first[u] - others[u];
    if (room > W->k1 - lo + 1) room = W->k1 - lo + 1; /* one per stage at most */
    int next = 0; /* the node's current recomputations, in time order */
    for (int j = 0; j < room; j++) {
      int k = win_add(B, u, W->nfree, 0, 0, model_event(lo, u + 1));
      win_copy *c = &B->cp[k];
      while (next < W->nold && plan_node(W->old_key[next]) != u) next++;
      if (next < W->nold) {
        c->init_a = 1;
        c->init_s = W->old_key[next];
        c->init_e = W->old_end[next];
        next++;
      } else {
        c->init_a = 0;
        c->init_s = c->init_e = win_park(B, W->nfree);
      }
      W->slot_node[W->nfree++] = u;
    }
  }
}

/* A free copy's start: the event of one of its stages lo..k1 in the
 * window (win_slots makes slots only where lo <= k1), or its park slot.  Not a set domain (var {..}: s): Gecode 6.2's
 * FlatZinc parser leaks the list of every set literal, and the window
 * search parses thousands of sub-models (bench/RESULTS.md#large-graphs).
 * An element constraint over an index gives s the same domain once
 * propagated (and the same search: s is branched on, q follows). */
static void win_start_domain(win_bld *B, int k, int lo, int park) {
  const win_copy *c = &B->cp[k];
  util_buf_printf(&B->decl, "var %d..%d: s%d;\nvar 1..%d: q%d :: var_is_introduced;\n",
                  model_event(lo, c->node + 1), park, k, B->W->k1 - lo + 2, k);
  util_buf_printf(&B->cons, "constraint array_int_element(q%d,[", k);
  for (int st = lo; st <= B->W->k1; st++)
    util_buf_printf(&B->cons, "%d,", model_event(st, c->node + 1));
  util_buf_printf(&B->cons, "%d],s%d);\n", park, k);
}

static void win_decls(win_bld *B) {
  win *W = B->W;
  for (int k = 0; k < B->ncp; k++) {
    const win_copy *c = &B->cp[k];
    if (c->slot >= 0) {
      int park = win_park(B, c->slot);
      int lo = W->k0 > c->node + 2 ? W->k0 : c->node + 2;
      win_start_domain(B, k, lo, park);
      util_buf_printf(&B->decl, "var bool: a%d;\nvar 0..1: x%d;\n", k, k);
      util_buf_printf(&B->decl, "var %d..%d: e%d;\nvar 1..%d: d%d;\n", c->emin, park, k,
                      park - c->emin + 1, k);
      /* d = e - s + 1; inactive: parked with e = s; active: e <= T1 */
      util_buf_printf(&B->cons, "constraint bool2int(a%d,x%d);\n", k, k);
      util_buf_printf(&B->cons, "constraint int_lin_eq([1,-1,1],[d%d,e%d,s%d],1);\n", k,
                      k, k);
      util_buf_printf(&B->cons, "constraint int_lin_le([-1,%d],[s%d,x%d],%d);\n", -park, k,
                      k, -park);
      util_buf_printf(&B->cons, "constraint int_lin_le([1,%d],[e%d,x%d],%d);\n",
                      park - W->t1, k, k, park);
      util_buf_printf(&B->cons, "constraint int_lin_le([1,-1,%d],[e%d,s%d,x%d],0);\n",
                      -park, k, k, k);
    } else {
      util_buf_printf(&B->decl, "var %d..%d: e%d;\nvar 1..%d: d%d;\n", c->emin, W->t1, k,
                      W->t1 - c->start + 1, k);
      util_buf_printf(&B->cons, "constraint int_lin_eq([1,-1],[d%d,e%d],%d);\n", k, k,
                      1 - c->start);
    }
  }
}

/* Free slots of one node in order: a_j -> a_{j-1}, s_{j-1} < s_j. */
static void win_symmetry(win_bld *B) {
  for (int k = 0; k < B->ncp; k++) {
    const win_copy *c = &B->cp[k];
    if (c->slot < 0) continue;
    for (int p = B->next_cp[k]; p >= 0; p = B->next_cp[p])
      if (B->cp[p].slot >= 0) { /* the previous slot of the same node */
        util_buf_printf(&B->cons, "constraint bool_clause([a%d],[a%d]);\n", p, k);
        util_buf_printf(&B->cons, "constraint int_lin_le_imp([1,-1],[s%d,s%d],-1,a%d);\n",
                        p, k, k);
        break;
      }
  }
}

/* "Some active copy of u starts before t and is live at t" for a fixed
 * time t (tvar NULL) or a free slot's start. */
static void win_cover(win_bld *B, int u, int t, int consumer) {
  util_buf clause = {0};
  for (int k = B->first_cp[u]; k >= 0; k = B->next_cp[k]) {
    const win_copy *c = &B->cp[k];
    if (consumer < 0 && c->slot < 0 && c->real >= t) continue; /* too late */
    int bv = B->nb++;
    util_buf_printf(&B->decl, "var bool: b%d :: var_is_introduced;\n", bv);
    util_buf_printf(&clause, clause.len ? ",b%d" : "b%d", bv);
    if (c->slot >= 0) util_buf_printf(&B->cons, "constraint bool_clause([a%d],[b%d]);\n", k, bv);
    if (consumer < 0) {
      if (c->slot >= 0)
        util_buf_printf(&B->cons, "constraint int_lin_le_imp([1],[s%d],%d,b%d);\n", k,
                        t - 1, bv);
      util_buf_printf(&B->cons, "constraint int_lin_le_imp([-1],[e%d],%d,b%d);\n", k, -t,
                      bv);
    } else {
      util_buf_puts(&B->cons, "constraint int_lin_le_imp([1,-1],[");
      if (c->slot < 0)
        util_buf_printf(&B->cons, "%d", c->real);
      else
        util_buf_printf(&B->cons, "s%d", k);
      util_buf_printf(&B->cons, ",s%d],-1,b%d);\n", consumer, bv);
      util_buf_printf(&B->cons, "constraint int_lin_le_imp([1,-1],[s%d,e%d],0,b%d);\n",
                      consumer, k, bv);
    }
  }
  util_buf_printf(&B->cons, "constraint bool_clause([%s],[", clause.s ? clause.s : "");
  if (consumer >= 0) util_buf_printf(&B->cons, "a%d", consumer);
  util_buf_puts(&B->cons, "]);\n");
  util_buf_free(&clause);
}

/* Precedence for every step in the window and every free slot. */
static void win_precedence(win_bld *B, const plan *s, const plan_eval *E, const unsigned char *R) {
  const remat_graph *g = B->g;
  win *W = B->W;
  for (int i = 0; i < E->len; i++) {
    int v = E->seq[i], t = s->key[i];
    if (t < W->t0 || t > W->t1) continue;
    if (R[v] && !plan_is_first(t)) continue; /* replaced by slots */
    for (int j = g->pred_off[v]; j < g->pred_off[v + 1]; j++)
      if (B->var[g->pred[j]]) win_cover(B, g->pred[j], t, -1);
  }
  for (int k = 0; k < B->ncp; k++) {
    if (B->cp[k].slot < 0) continue;
    int v = B->cp[k].node;
    for (int j = g->pred_off[v]; j < g->pred_off[v + 1]; j++) win_cover(B, g->pred[j], 0, k);
  }
  /* nodes read after the window stay live at T1 */
  for (int u = 0; u < g->n; u++)
    if (B->var[u] && B->cross[u]) {
      util_buf clause = {0};
      for (int k = B->first_cp[u]; k >= 0; k = B->next_cp[k]) {
        int bv = B->nb++;
        util_buf_printf(&B->decl, "var bool: b%d :: var_is_introduced;\n", bv);
        util_buf_printf(&clause, clause.len ? ",b%d" : "b%d", bv);
        if (B->cp[k].slot >= 0)
          util_buf_printf(&B->cons, "constraint bool_clause([a%d],[b%d]);\n", k, bv);
        util_buf_printf(&B->cons, "constraint int_lin_le_imp([-1],[e%d],%d,b%d);\n", k,
                        -W->t1, bv);
      }
      util_buf_printf(&B->cons, "constraint bool_clause([%s],[]);\n",
                      clause.s ? clause.s : "");
      util_buf_free(&clause);
    }
}

/* One unary resource per variable node with two or more copies. */
static void win_disjoint(win_bld *B) {
  for (int u = 0; u < B->g->n; u++) {
    int cnt = 0;
    for (int k = B->first_cp[u]; k >= 0; k = B->next_cp[k]) cnt++;
    if (cnt < 2) continue;
    util_buf s = {0}, d = {0}, h = {0};
    for (int k = B->first_cp[u]; k >= 0; k = B->next_cp[k]) {
      util_buf_putc(&s, ',');
      win_s(&s, B, k);
      util_buf_printf(&d, ",d%d", k);
      util_buf_puts(&h, ",1");
    }
    util_buf_printf(&B->cons, "constraint cumulatives([%s],[%s],[%s],1);\n", s.s + 1,
                    d.s + 1, h.s + 1);
    util_buf_free(&s);
    util_buf_free(&d);
    util_buf_free(&h);
  }
}

/* The fixed nodes' load inside the window (a difference array over its
 * events) as runs of equal positive load. */
static void win_runs(win_bld *B, const int64_t *load) {
  const win *W = B->W;
  int len = W->t1 - W->t0 + 1, start = 0, cap = 0;
  int64_t cur = 0, run = 0;
  for (int t = 0; t <= len; t++) {
    cur += t < len ? load[t] : 0;
    int64_t here = t < len ? cur : -1;
    if (here == run) continue;
    if (run > 0) {
      PUSH(B->run, B->nrun, cap, 64, ((struct wrun){W->t0 + start, t - start, run}));
    }
    run = here;
    start = t;
  }
}

/* Memory: the clipped copies plus the fixed load's runs as fixed tasks. */
static void win_memory(win_bld *B, const char *cap) {
  util_buf s = {0}, d = {0}, h = {0};
  for (int k = 0; k < B->ncp; k++) {
    util_buf_putc(&s, ',');
    win_s(&s, B, k);
    util_buf_printf(&d, ",d%d", k);
    util_buf_printf(&h, ",%d", B->md->mem[B->cp[k].node]);
  }
  for (int r = 0; r < B->nrun; r++) {
    util_buf_printf(&s, ",%d", B->run[r].start);
    util_buf_printf(&d, ",%d", B->run[r].len);
    util_buf_printf(&h, ",%lld", (long long)B->run[r].load);
  }
  if (s.len)
    util_buf_printf(&B->cons, "constraint cumulatives([%s],[%s],[%s],%s);\n", s.s + 1,
                    d.s + 1, h.s + 1, cap);
  util_buf_free(&s);
  util_buf_free(&d);
  util_buf_free(&h);
}

/* The precedence clauses' terms of the free slots (win_cover: one per copy
 * of each input): on dense graphs with many copies they run into millions,
 * which Gecode's FlatZinc parser takes seconds to read, past any time limit
 * (bench/RESULTS.md#design-choices). */
#define WIN_MAX_TERMS 200000
static long long win_cover_terms(const win_bld *B) {
  long long n = 0;
  for (int k = 0; k < B->ncp && n <= WIN_MAX_TERMS; k++) {
    if (B->cp[k].slot < 0) continue;
    int v = B->cp[k].node;
    for (int j = B->g->pred_off[v]; j < B->g->pred_off[v + 1]; j++)
      for (int c = B->first_cp[B->g->pred[j]]; c >= 0; c = B->next_cp[c]) n++;
  }
  return n;
}

/* Gecode refuses a cumulative ("Number out of limits") when its capacity
 * times the summed widths of the start domains times the number of tasks
 * passes 64 bits; windows whose memory constraint comes near are left out
 * (W->too_big). */
static int win_too_big(const win_bld *B) {
  const win *W = B->W;
  if (win_cover_terms(B) > WIN_MAX_TERMS) return 1;
  __int128 width = B->nrun;
  for (int k = 0; k < B->ncp; k++) {
    const win_copy *c = &B->cp[k];
    width += c->slot >= 0 ? win_park(B, c->slot) - c->emin + 1 : 1;
  }
  long long cap = B->md->cap;
  if (B->md->phase == 1 && W->bound - 1 > cap) cap = W->bound - 1;
  return (__int128)cap * width * (B->ncp + B->nrun) >= (__int128)1 << 62;
}

/* Phase 1's bound: the current maximum load inside the window. */
static long long win_current_max(const win_bld *B, const plan *s, const plan_eval *E) {
  win *W = B->W;
  int len = W->t1 - W->t0 + 1;
  int64_t *prof = util_calloc((size_t)len + 1, sizeof *prof);
  for (int i = 0; i < E->len; i++) {
    int u = E->seq[i], ts = s->key[i], te = s->key[E->lastuse[i]];
    if (te < W->t0 || ts > W->t1) continue;
    int lo = ts < W->t0 ? W->t0 : ts, hi = te > W->t1 ? W->t1 : te;
    prof[lo - W->t0] += B->md->mem[u];
    prof[hi - W->t0 + 1] -= B->md->mem[u];
  }
  int64_t cur = 0, best = 0;
  for (int t = 0; t < len; t++) {
    cur += prof[t];
    if (cur > best) best = cur;
  }
  free(prof);
  return best;
}

static void win_objective(win_bld *B, util_buf *out) {
  win *W = B->W;
  const model *md = B->md;
  if (md->phase == 1) {
    long long hi = W->bound - 1, lo = md->cap;
    if (hi < lo) hi = lo;
    util_buf_printf(&B->decl, "var %lld..%lld: PEAK :: output_var;\n", lo, hi);
    return;
  }
  util_buf coef = {0}, vars = {0};
  for (int k = 0; k < B->ncp; k++)
    if (B->cp[k].slot >= 0) {
      util_buf_printf(&coef, "%d,", md->dur[B->cp[k].node]);
      util_buf_printf(&vars, "x%d,", k);
    }
  long long hi = W->bound - 1;
  util_buf_printf(&B->decl, "var 0..%lld: OBJ :: output_var;\n", hi < 0 ? 0 : hi);
  if (hi < 0) util_buf_puts(&B->cons, "constraint bool_clause([],[]);\n");
  if (coef.s)
    util_buf_printf(&B->cons, "constraint int_lin_eq([%s-1],[%sOBJ],0);\n", coef.s,
                    vars.s);
  else
    util_buf_puts(&B->cons, "constraint int_eq(OBJ,0);\n");
  util_buf_free(&coef);
  util_buf_free(&vars);
  (void)out;
}

/* The free slots' activity and start, one output variable each (WA<j>,
 * WS<j> for slot j).  Gecode 6.2's FlatZinc parser leaks a spec per
 * element of an output array of existing variables, and one per scalar
 * alias declared without a domain (var int: y = x); scalar aliases with
 * a domain leak nothing (see win_start_domain). */
static void win_output(win_bld *B, util_buf *out) {
  for (int k = 0; k < B->ncp; k++) {
    int j = B->cp[k].slot;
    if (j >= 0)
      util_buf_printf(out,
                      "var 0..1: WA%d :: output_var = x%d;\n"
                      "var 0..%d: WS%d :: output_var = s%d;\n",
                      j, k, win_park(B, j), j, k);
  }
}

static void win_solve(win_bld *B, util_buf *out) {
  util_buf xs = {0}, ss = {0}, es = {0};
  for (int k = 0; k < B->ncp; k++) {
    if (B->cp[k].slot >= 0) {
      util_buf_printf(&xs, xs.len ? ",x%d" : "x%d", k);
      util_buf_printf(&ss, ss.len ? ",s%d" : "s%d", k);
    }
    util_buf_printf(&es, es.len ? ",e%d" : "e%d", k);
  }
  /* there is at least one free slot, so xs, ss and es are not empty */
  util_buf_printf(out,
                  "solve :: seq_search([int_search([%s],input_order,indomain_min,complete),"
                  "int_search([%s],input_order,indomain_min,complete),"
                  "int_search([%s],input_order,indomain_min,complete)])",
                  xs.s, ss.s, es.s);
  /* the current schedule, as the first solution (window_model.h) */
  util_buf vals = {0};
  for (int k = 0; k < B->ncp; k++)
    if (B->cp[k].slot >= 0)
      util_buf_printf(&vals, "%d,%d,", B->cp[k].init_a, B->cp[k].init_s);
  for (int k = 0; k < B->ncp; k++)
    util_buf_printf(&vals, k + 1 < B->ncp ? "%d," : "%d", B->cp[k].init_e);
  util_buf_puts(out, " :: relax_and_reconstruct([");
  int first = 1;
  for (int k = 0; k < B->ncp; k++)
    if (B->cp[k].slot >= 0) {
      util_buf_printf(out, first ? "x%d,s%d" : ",x%d,s%d", k, k);
      first = 0;
    }
  for (int k = 0; k < B->ncp; k++) util_buf_printf(out, ",e%d", k);
  util_buf_printf(out, "],100,[%s]) :: restart_luby(1000)", vals.s);
  util_buf_free(&vals);
  util_buf_printf(out, " minimize %s;\n", B->md->phase == 1 ? "PEAK" : "OBJ");
  util_buf_free(&xs);
  util_buf_free(&ss);
  util_buf_free(&es);
}

int win_build(win *W, const model *md, const plan *s, const plan_eval *E,
              const unsigned char *R, int k0, int k1, util_buf *out) {
  const remat_graph *g = md->g;
  memset(W, 0, sizeof *W);
  W->md = md;
  if (k0 < 1) k0 = 1;
  if (k1 > md->n) k1 = md->n;
  W->k0 = k0;
  W->k1 = k1;
  W->t0 = model_event(k0, 1);
  W->t1 = model_event(k1, k1);
  W->slot_node = util_malloc((size_t)md->ncopy * sizeof *W->slot_node);
  W->old_key = util_malloc((size_t)(E->len ? E->len : 1) * sizeof *W->old_key);
  W->old_end = util_malloc((size_t)(E->len ? E->len : 1) * sizeof *W->old_end);
  win_bld B;
  memset(&B, 0, sizeof B);
  B.W = W;
  B.md = md;
  B.g = g;
  B.var = util_calloc((size_t)g->n, 1);
  B.cross = util_calloc((size_t)g->n, 1);
  B.first_cp = util_malloc((size_t)g->n * sizeof *B.first_cp);
  for (int v = 0; v < g->n; v++) B.first_cp[v] = -1;
  int64_t *load = util_calloc((size_t)(W->t1 - W->t0 + 2), sizeof *load);
  int *others = util_calloc((size_t)g->n, sizeof *others);
  win_variables(&B, R);
  win_scan(&B, s, E, R, load, others);
  win_slots(&B, R, others);
  if (md->phase == 1) W->bound = win_current_max(&B, s, E);
  W->bound += 1; /* admit solutions as good as the current one (plateau moves) */
  win_runs(&B, load);
  if (W->nfree && win_too_big(&B)) {
    W->too_big = 1;
    W->nfree = 0;
  }
  if (W->nfree) {
    util_buf_printf(out, "%% remat window sub-model: stages %d..%d, %d free slots\n", k0,
                    k1, W->nfree);
    win_decls(&B);
    win_objective(&B, out);
    win_symmetry(&B);
    win_precedence(&B, s, E, R);
    win_disjoint(&B);
    char cap[32];
    snprintf(cap, sizeof cap, "%d", md->cap);
    win_memory(&B, md->phase == 1 ? "PEAK" : cap);
    util_buf_puts(out, B.decl.s ? B.decl.s : "");
    win_output(&B, out);
    util_buf_puts(out, B.cons.s ? B.cons.s : "");
    win_solve(&B, out);
  }
  UTIL_FREE(load, B.run, others, B.var, B.cross, B.first_cp, B.next_cp, B.cp);
  util_buf_free(&B.decl);
  util_buf_free(&B.cons);
  return W->nfree;
}

/* Read the lines "WA<j> = v;" and "WS<j> = v;" of a solution into a[j]
 * and st[j]; -1 unless every slot has both. */
static int win_read(const char *text, int nfree, int *a, int *st) {
  int found = 0;
  for (const char *p = text; p && *p;) {
    if (p[0] == 'W' && (p[1] == 'A' || p[1] == 'S')) {
      char *end;
      long j = strtol(p + 2, &end, 10);
      if (end > p + 2 && j >= 0 && j < nfree && !strncmp(end, " = ", 3)) {
        const char *q = end + 3;
        long v = strtol(q, &end, 10);
        if (end == q) return -1;
        (p[1] == 'A' ? a : st)[j] = (int)v;
        found++;
      }
    }
    p = strchr(p, '\n');
    if (p) p++;
  }
  return found == 2 * nfree ? 0 : -1;
}

int win_apply(const win *W, const char *text, plan *s) {
  int *a = util_malloc((size_t)(W->nfree ? W->nfree : 1) * sizeof *a);
  int *st = util_malloc((size_t)(W->nfree ? W->nfree : 1) * sizeof *st);
  int rc = 0;
  if (W->nfree && win_read(text, W->nfree, a, st)) rc = -1;
  if (!rc) {
    for (int i = 0; i < W->nold; i++) plan_erase(s, W->old_key[i]);
    for (int j = 0; j < W->nfree; j++)
      if (a[j]) plan_insert(s, st[j]);
  }
  free(a);
  free(st);
  return rc;
}

void win_free(win *W) {
  free(W->slot_node);
  free(W->old_key);
  free(W->old_end);
  memset(W, 0, sizeof *W);
}

int win_neighbourhood(void *ctx, long long restart, int n, int *values,
                      int have_solution, unsigned char *fix) {
  (void)ctx;
  (void)values;
  (void)have_solution;
  if (restart > 0) return GZ_NBH_COMPLETE;
  memset(fix, 1, (size_t)n);
  return GZ_NBH_FIX;
}
