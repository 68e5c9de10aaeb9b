/* order_cost.c -- the recomputation cost bound of every order
 * (order_cost.h).
 *
 * Per node v, L_v is tried at lambdas between the smallest and the
 * largest ratio w_u / m_u: below the smallest every capacity is lambda m_u
 * and L_v grows with lambda (v's step is above M in every order there),
 * above the largest L_v falls (m_v and v's inputs fit M).  L_v is concave,
 * so a golden-section search over log lambda finds its top.
 *
 * Exactness: capacities are min(w_u, lambda m_u) times a power of two K
 * (their sum below 2^62), rounded down with a margin for the doubles'
 * rounding, so the flow over K is at most the true minimum; L_v is then
 * summed in long double and lowered by a margin before it is rounded up to
 * an integer duration (cost_v is one).
 *
 * Pruning: for S the nodes before v in the known order, L_v's terms are
 * at most the LP value of dropping enough of the copies live at v's step
 * there; nodes whose value is at most the bound so far are skipped. */
#include "order_cost.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "order_bound.h"
#include "util.h"

void order_cost_params_init(order_cost_params *p) {
  memset(p, 0, sizeof *p);
  p->deadline = DEADLINE_NONE;
  p->lambdas = 32;
}

typedef struct ocost {
  const remat_graph *g;
  const order_cost_params *p;
  int64_t *cap, *cap_in;
  double t0;
  order_cost_out *out;
} ocost;

static int ocost_stopped(const ocost *C) {
  return (C->p->stop && *C->p->stop) || deadline_passed(C->p->deadline);
}

/* A capacity x times K, rounded down below the true value (x may be up to
 * three roundings above it). */
static int64_t ocost_scaled(double x, double K) {
  double y = floor(x * K * (1.0 - 0x1p-50)) - 1;
  return y > 0 ? (int64_t)y : 0;
}

/* L_v(lambda) lowered by the margin into *L (for the search to compare),
 * rounded up (a valid lower bound on cost_v), or 0 when not positive. */
static int64_t ocost_eval(ocost *C, order_closure *cl, int v, double lambda, long double *Lout) {
  const remat_graph *g = C->g;
  int n = g->n;
  double top = 0;
  for (int u = 0; u < n; u++) {
    double a = lambda * (double)g->m[u], w = (double)g->w[u];
    double c = a < w ? a : w;
    if (c > top) top = c;
  }
  for (int k = g->pred_off[v]; k < g->pred_off[v + 1]; k++) {
    double a = lambda * (double)g->m[g->pred[k]];
    if (a > top) top = a;
  }
  *Lout = 0;
  if (!(top > 0)) return 0;
  int e;
  frexp((0x1p61 / (n + 1.0)) / top, &e);
  double K = ldexp(1.0, e - 1); /* K top <= 2^61 / (n + 1) */
  for (int u = 0; u < n; u++) {
    double a = lambda * (double)g->m[u], w = (double)g->w[u];
    C->cap[u] = ocost_scaled(a < w ? a : w, K);
    C->cap_in[u] = C->cap[u];
  }
  for (int k = g->pred_off[v]; k < g->pred_off[v + 1]; k++) {
    int u = g->pred[k];
    C->cap_in[u] = ocost_scaled(lambda * (double)g->m[u], K);
  }
  int64_t F = order_closure_cut(cl, C->cap, C->cap_in);
  C->out->cuts++;
  long double a = (long double)lambda * (long double)(g->m[v] - C->p->budget);
  long double b = (long double)F / (long double)K;
  long double L = a + b - (fabsl(a) + fabsl(b)) * 0x1p-40L;
  *Lout = L;
  if (!(L > 0)) return 0;
  long double up = ceill(L);
  return up >= 0x1p62L ? (int64_t)1 << 62 : (int64_t)up;
}

/* max over the lambdas tried of L_v (0 without trying when v's closure
 * bound is within M: L_v <= lambda (c_v - M) <= 0 there). */
static int64_t ocost_node(ocost *C, int v, double lo, double hi) {
  order_closure *cl = order_closure_new(C->g, v);
  int64_t best = 0;
  if (C->g->m[v] + order_closure_cut(cl, C->g->m, NULL) <= C->p->budget) {
    order_closure_free(cl);
    return 0;
  }
  C->out->nodes++;
  /* the search compares the values before rounding: rounded ones tie
   * where L_v still rises */
  double a = log(lo), b = log(hi), phi = (sqrt(5.0) - 1) / 2;
  double x1 = b - phi * (b - a), x2 = a + phi * (b - a);
  long double f1, f2, fe;
  int64_t r1 = ocost_eval(C, cl, v, exp(x1), &f1), r2 = ocost_eval(C, cl, v, exp(x2), &f2);
  best = r1 > r2 ? r1 : r2;
  for (int it = 2; it < C->p->lambdas && b - a > 1e-9 && !ocost_stopped(C); it++) {
    int64_t r;
    if (f1 >= f2) {
      b = x2;
      x2 = x1;
      f2 = f1;
      x1 = b - phi * (b - a);
      r = ocost_eval(C, cl, v, exp(x1), &f1);
    } else {
      a = x1;
      x1 = x2;
      f1 = f2;
      x2 = a + phi * (b - a);
      r = ocost_eval(C, cl, v, exp(x2), &f2);
    }
    if (r > best) best = r;
  }
  /* the search never tries the ends; where L_v rises all the way, its top
   * is at the largest ratio */
  int64_t r = ocost_eval(C, cl, v, hi, &fe);
  if (r > best) best = r;
  order_closure_free(cl);
  return best;
}

static int ocost_cmp_ratio(const void *x, const void *y, void *ctx) {
  const remat_graph *g = ctx;
  int a = *(const int *)x, b = *(const int *)y;
  /* w_a / m_a < w_b / m_b, sizes > 0 (as doubles: an order for pruning) */
  double l = (double)g->w[a] * (double)g->m[b], r = (double)g->w[b] * (double)g->m[a];
  if (l != r) return l < r ? -1 : 1;
  return a - b;
}

/* An upper bound on every L_v: S the nodes before v in the known order
 * (pos), where the live copies at v's step are known; max over lambda of
 * L_v's terms for that S is the LP value of the knapsack that drops
 * enough of them (v's inputs excepted), cheapest per byte first.  HUGE_VAL
 * when that S cannot fit. */
static double ocost_upper(ocost *C, int v, const int *pos, const int *last, int *items) {
  const remat_graph *g = C->g;
  int n = g->n, k = 0;
  long double over = (long double)g->m[v] - (long double)C->p->budget;
  for (int u = 0; u < n; u++) {
    if (pos[u] >= pos[v] || last[u] < pos[v]) continue;
    over += (long double)g->m[u];
    int input = 0;
    for (int j = g->succ_off[u]; j < g->succ_off[u + 1]; j++) input |= g->succ[j] == v;
    if (!input && g->m[u] > 0) items[k++] = u;
  }
  qsort_r(items, (size_t)k, sizeof *items, ocost_cmp_ratio, (void *)g);
  long double cost = 0;
  for (int i = 0; i < k && over > 0; i++) {
    int u = items[i];
    long double m = (long double)g->m[u];
    if (m <= over) cost += (long double)g->w[u];
    else cost += (long double)g->w[u] * (over / m);
    over -= m;
  }
  return over > 0 ? HUGE_VAL : (double)cost;
}

int64_t order_cost_run(const remat_graph *g, const order_cost_params *p, order_cost_out *out) {
  int n = g->n;
  memset(out, 0, sizeof *out);
  out->node = -1;
  ocost C = {.g = g, .p = p, .t0 = util_now(), .out = out};
  double lo = 0, hi = 0;
  for (int u = 0; u < n; u++) {
    if (g->m[u] <= 0 || g->w[u] <= 0) continue;
    double r = (double)g->w[u] / (double)g->m[u];
    if (lo == 0 || r < lo) lo = r;
    if (r > hi) hi = r;
  }
  /* some node never fits (max_v above M): not this bound's to say */
  if (!n || lo == 0 || remat_graph_min_peak(g) > p->budget) {
    out->complete = 1;
    out->seconds = util_now() - C.t0;
    return 0;
  }
  int64_t *at = util_malloc((size_t)n * sizeof *at);
  int *ord = order_bound_by_memory(g, p->order, at);
  C.cap = util_malloc((size_t)n * sizeof *C.cap);
  C.cap_in = util_malloc((size_t)n * sizeof *C.cap_in);
  int *pos = util_malloc((size_t)n * sizeof *pos), *last = util_malloc((size_t)n * sizeof *last);
  int *items = util_malloc((size_t)n * sizeof *items);
  for (int i = 0; i < n; i++) pos[p->order ? p->order[i] : i] = i;
  for (int u = 0; u < n; u++) {
    last[u] = pos[u];
    for (int k = g->succ_off[u]; k < g->succ_off[u + 1]; k++)
      if (pos[g->succ[k]] > last[u]) last[u] = pos[g->succ[k]];
  }
  int i = 0;
  for (; i < n && at[ord[i]] > p->budget && !ocost_stopped(&C); i++) {
    int v = ord[i];
    double up = ocost_upper(&C, v, pos, last, items);
    if (up * (1 + 1e-9) + 1 <= (double)out->bound) continue; /* L_v <= the bound */
    int64_t b = ocost_node(&C, v, lo, hi);
    if (b > out->bound) {
      out->bound = b;
      out->node = v;
    }
  }
  out->complete = i == n || at[ord[i]] <= p->budget;
  UTIL_FREE(ord, at, C.cap, C.cap_in, pos, last, items);
  out->seconds = util_now() - C.t0;
  return out->bound;
}
