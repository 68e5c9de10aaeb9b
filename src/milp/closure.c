/* closure.c -- the closure bound (closure.h) with Clp. */
#include "closure.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "child.h"
#include "cover_lp.h"
#include "graph.h"
#include "util.h"

/* The memory row's right-hand side is 1 (sizes divided by M - m_k),
 * loosened by this much: the quotients' rounding never cuts off a
 * schedule that fits (a looser row keeps the problem a relaxation). */
#define CLOSURE_ROW_SLACK 1e-9

/* The steps' problems, each built over the nodes it needs. */
struct closure {
  const remat_graph *g;
  const cover_params *p;
  int n;
  int *col;      /* col[u]: u's index i among the columns (a_u is column
                    2i, r_u column 2i + 1), or -1 */
  int *node;     /* node[i]: the node of index i */
  char *state;   /* per node: CL_* */
  int *row;      /* row[u]: u's first row (r_u - a_u), its inputs' rows
                    after it; -1 where r_u is fixed at 0 */
  int *count;    /* entries per column */
  int *tr, *tc;  /* the entries as built, row by row: row, column */
  double *tv;    /* and value */
  int pick[CLOSURE_STAGES], np; /* the steps, the highest loads first */
  int joint;     /* marking for the steps together: k's inputs may be
                    computed again after k too */
  int64_t lpv[CLOSURE_STAGES];  /* each step's LP value, -1 when it has
                                   none or its solution is whole */
  int64_t joint_lp; /* the steps together: its LP value where its
                       solution is not whole, else -1 */
};
typedef struct closure cl;

enum {
  CL_OUT = 0,   /* not needed at step k */
  CL_FREE = 1,  /* needed to recompute another: held, recomputed or neither */
  CL_NEEDED = 2,/* read after k: held or recomputed */
  CL_INPUT = 3  /* read by k: held */
};

static int cl_may_recompute(const cl *C, int u) {
  const int *c = C->p->copies;
  return (C->joint || C->state[u] != CL_INPUT) && !(c && c[u] == 1);
}

/* Which nodes before k the problem of step k needs, descending (readers
 * come after what they read): those read after k or by k, and the inputs
 * of those that may be recomputed.  Returns their number. */
static int cl_mark(cl *C, int k) {
  const remat_graph *g = C->g;
  int cnt = 0;
  for (int u = 0; u < k; u++) C->state[u] = CL_OUT;
  for (int q = g->pred_off[k]; q < g->pred_off[k + 1]; q++) C->state[g->pred[q]] = CL_INPUT;
  for (int u = k - 1; u >= 0; u--) {
    if (C->state[u] == CL_OUT && graph_last_succ(g, u) > k) C->state[u] = CL_NEEDED;
    if (C->state[u] == CL_OUT)
      for (int q = g->succ_off[u]; q < g->succ_off[u + 1]; q++) {
        int v = g->succ[q];
        if (v < k && C->state[v] != CL_OUT && cl_may_recompute(C, v)) {
          C->state[u] = CL_FREE;
          break;
        }
      }
    cnt += C->state[u] != CL_OUT;
  }
  return cnt;
}

/* Build step k's problem over the ncol nodes cl_mark kept, R = M - m_k
 * (C's entry arrays hold 4 per node and 2 per edge). */
static void cl_build(cl *C, int k, int ncol, double R, covlp *L) {
  const remat_graph *g = C->g;
  int i = 0, nrows = 0;
  long long nz = 0;
  for (int u = 0; u < k; u++) {
    C->col[u] = -1;
    if (C->state[u] == CL_OUT) continue;
    C->col[u] = i;
    C->node[i++] = u;
  }
  memset(C->count, 0, (size_t)(2 * ncol) * sizeof *C->count);
#define CL_ENTRY(r, c, v) (C->tr[nz] = (r), C->tc[nz] = (c), C->tv[nz] = (v), C->count[c]++, nz++)
  for (int j = 0; j < ncol; j++) {
    int u = C->node[j];
    C->row[u] = -1;
    if (!cl_may_recompute(C, u)) continue;
    C->row[u] = nrows;
    CL_ENTRY(nrows, 2 * j, -1.0); /* r_u - a_u <= 0 */
    CL_ENTRY(nrows, 2 * j + 1, 1.0);
    nrows++;
    for (int q = g->pred_off[u]; q < g->pred_off[u + 1]; q++) { /* r_u - a_p <= 0 */
      CL_ENTRY(nrows, 2 * C->col[g->pred[q]], -1.0);
      CL_ENTRY(nrows, 2 * j + 1, 1.0);
      nrows++;
    }
  }
  for (int j = 0; j < ncol; j++) { /* the memory row, last */
    double s = (double)g->m[C->node[j]] / R;
    CL_ENTRY(nrows, 2 * j, s);
    CL_ENTRY(nrows, 2 * j + 1, -s);
  }
#undef CL_ENTRY
  nrows++;
  covlp_alloc(L, 2 * ncol, nrows, nz);
  lp_model *M = &L->lp;
  M->start[0] = 0;
  for (int c = 0; c < 2 * ncol; c++) M->start[c + 1] = M->start[c] + C->count[c];
  /* rows were made in ascending order: each column's entries come out
   * ascending */
  for (int c = 0; c < 2 * ncol; c++) C->count[c] = M->start[c];
  for (long long e = 0; e < nz; e++) {
    int p = C->count[C->tc[e]]++;
    M->index[p] = C->tr[e];
    M->value[p] = C->tv[e];
  }
  for (int r = 0; r < nrows; r++) {
    M->rowlb[r] = -DBL_MAX;
    M->rowub[r] = 0;
  }
  M->rowub[nrows - 1] = 1 + CLOSURE_ROW_SLACK;
  for (int j = 0; j < ncol; j++) {
    int u = C->node[j];
    M->collb[2 * j] = C->state[u] >= CL_NEEDED ? 1 : 0;
    M->colub[2 * j] = 1;
    M->collb[2 * j + 1] = 0;
    M->colub[2 * j + 1] = cl_may_recompute(C, u) ? 1 : 0;
    L->cost[2 * j + 1] = g->w[u];
  }
  covlp_scale(L);
}

/* Up to CLOSURE_STAGES steps of highest load above M, highest first.
 * Returns their number. */
static int cl_stages(const cl *C, const int64_t *load, int *pick) {
  int np = 0, most = C->p->closure_steps;
  if (most <= 0 || most > CLOSURE_STAGES) most = CLOSURE_STAGES;
  for (int k = 0; k < C->n; k++) {
    if (load[k] <= C->p->budget) continue;
    int at = np < most ? np++ : most;
    if (at == most && load[k] <= load[pick[at - 1]]) continue;
    if (at == most) at--;
    while (at > 0 && load[pick[at - 1]] < load[k]) {
      pick[at] = pick[at - 1];
      at--;
    }
    pick[at] = k;
  }
  return np;
}

/* Step k's problem (cl_mark, cl_build) into L; 0 when it has none (k
 * and its inputs alone pass M, or nothing before k is needed). */
static int cl_problem(cl *C, int k, covlp *L) {
  const remat_graph *g = C->g;
  int64_t held = g->m[k]; /* k and its inputs are in memory */
  for (int q = g->pred_off[k]; q < g->pred_off[k + 1]; q++) held += g->m[g->pred[q]];
  if (held > C->p->budget) return 0; /* nothing fits: the covering bound says so */
  int ncol = cl_mark(C, k);
  if (ncol == 0) return 0;
  cl_build(C, k, ncol, (double)(C->p->budget - g->m[k]), L);
  return 1;
}

/* When x, the LP solution of step k's problem L, is whole and within M
 * in the graph's own sizes (the memory row is scaled, and Clp's
 * tolerances on it pass values near 10^12 bytes over), the step's
 * integer optimum: x's cost, exact (the LP's value rounded up allows for
 * Clp's tolerances and may be below it); else -1. */
static int64_t cl_whole_fits(const cl *C, int k, const covlp *L, const double *x) {
  const remat_graph *g = C->g;
  int64_t mem = g->m[k], cost = 0;
  for (int j = 0; j < L->lp.ncols / 2; j++) {
    double a = x[2 * j], r = x[2 * j + 1];
    if (fabs(a - round(a)) > 1e-9 || fabs(r - round(r)) > 1e-9) return -1;
    if (a > 0.5 && r < 0.5) mem += g->m[C->node[j]];
    if (r > 0.5) cost += L->cost[2 * j + 1];
  }
  return mem <= C->p->budget ? cost : -1;
}

/* Take x (step L's bound, lp as cover_out.lp says) into o where higher. */
static void cl_take(cover_out *o, int *solved, int64_t inc, int lp, const covlp *L) {
  if (*solved && inc <= o->increase) return;
  o->increase = inc;
  o->lp = lp;
  o->cols = L->lp.ncols;
  o->rows = L->lp.nrows;
  o->nnz = L->lp.nnz;
  *solved = 1;
}

/* ------------------------------------------------ the steps together */

/* The steps together (closure.h) over the picked steps in input order:
 * per step s and node u it looks at, columns h (2i: held at the step) and
 * r (2i + 1: computed again after it) with i = at[s * n + u] (-1: not
 * looked at).  cl_joint_build returns 0 when there is nothing to join
 * (fewer than two steps with a problem) or the problem has more than
 * CLOSURE_JOINT_COLS columns. */
typedef struct cl_joint {
  int nk, ks[CLOSURE_STAGES];
  int *at;
  char *st;   /* the state of (s, u) */
} cl_joint;

static int cl_joint_build(cl *C, cl_joint *J, covlp *L) {
  const remat_graph *g = C->g;
  const int *cp = C->p->copies;
  int n = g->n, ncol = 0, nrows = 0;
  long long nz = 0;
  J->nk = 0;
  for (int s = 0; s < C->np; s++) { /* the steps with a problem, ascending */
    int k = C->pick[s];
    int64_t held = g->m[k];
    for (int q = g->pred_off[k]; q < g->pred_off[k + 1]; q++) held += g->m[g->pred[q]];
    if (held > C->p->budget) continue;
    int at = J->nk++;
    while (at > 0 && J->ks[at - 1] > k) J->ks[at] = J->ks[at - 1], at--;
    J->ks[at] = k;
  }
  if (J->nk < 2) return 0;
  J->at = util_malloc((size_t)J->nk * (size_t)n * sizeof *J->at);
  J->st = util_malloc((size_t)J->nk * (size_t)n);
  C->joint = 1;
  for (int s = 0; s < J->nk; s++) {
    int k = J->ks[s];
    cl_mark(C, k);
    for (int u = 0; u < n; u++) {
      size_t su = (size_t)s * (size_t)n + (size_t)u;
      J->st[su] = u < k ? C->state[u] : CL_OUT;
      J->at[su] = J->st[su] == CL_OUT ? -1 : ncol++;
      if (J->at[su] < 0) continue;
      nz += 5; /* the memory row 1, needed 2, coupling 2 */
      nrows += 2;
      if (cl_may_recompute(C, u)) {
        nrows += g->pred_off[u + 1] - g->pred_off[u];
        nz += 3 * (long long)(g->pred_off[u + 1] - g->pred_off[u]);
      }
    }
    nrows++;
  }
  C->joint = 0;
  if (2 * (long long)ncol > CLOSURE_JOINT_COLS) {
    UTIL_FREE(J->at, J->st);
    J->nk = 0;
    return 0;
  }
  int *count = util_calloc((size_t)(2 * ncol + 1), sizeof *count);
  int *tr = util_malloc((size_t)(nz + 1) * sizeof *tr);
  int *tc = util_malloc((size_t)(nz + 1) * sizeof *tc);
  double *tv = util_malloc((size_t)(nz + 1) * sizeof *tv);
  double *lo = util_malloc((size_t)(nrows + 1) * sizeof *lo);
  double *hi = util_malloc((size_t)(nrows + 1) * sizeof *hi);
  int *last = util_malloc((size_t)n * sizeof *last); /* the last step looking at u */
  for (int u = 0; u < n; u++) last[u] = -1;
  long long e = 0;
  int r = 0;
#define CJ_ENTRY(row, c, v) (tr[e] = (row), tc[e] = (c), tv[e] = (v), count[c]++, e++)
  for (int s = 0; s < J->nk; s++) {
    int k = J->ks[s];
    const int *at = J->at + (size_t)s * (size_t)n;
    const char *st = J->st + (size_t)s * (size_t)n;
    double R = (double)(C->p->budget - g->m[k]);
    for (int u = 0; u < k; u++) {
      if (at[u] < 0) continue;
      int h = 2 * at[u], rc = h + 1, may = !(cp && cp[u] == 1);
      if (st[u] == CL_NEEDED) { /* h + r >= 1 */
        CJ_ENTRY(r, h, 1.0);
        CJ_ENTRY(r, rc, 1.0);
        lo[r] = 1, hi[r++] = DBL_MAX;
      }
      if (may) {
        for (int q = g->pred_off[u]; q < g->pred_off[u + 1]; q++) { /* r_u <= h_p + r_p */
          int pc = 2 * at[g->pred[q]];
          CJ_ENTRY(r, rc, 1.0);
          CJ_ENTRY(r, pc, -1.0);
          CJ_ENTRY(r, pc + 1, -1.0);
          lo[r] = -DBL_MAX, hi[r++] = 0;
        }
        if (last[u] >= 0) { /* computed again after k: after the earlier step too */
          CJ_ENTRY(r, rc, 1.0);
          CJ_ENTRY(r, 2 * J->at[(size_t)last[u] * (size_t)n + (size_t)u] + 1, -1.0);
          lo[r] = -DBL_MAX, hi[r++] = 0;
        }
      }
      last[u] = s;
    }
    for (int u = 0; u < k; u++) /* the memory row */
      if (at[u] >= 0) CJ_ENTRY(r, 2 * at[u], (double)g->m[u] / R);
    lo[r] = -DBL_MAX, hi[r++] = 1 + CLOSURE_ROW_SLACK;
  }
#undef CJ_ENTRY
  covlp_alloc(L, 2 * ncol, r, e);
  lp_model *M = &L->lp;
  M->start[0] = 0;
  for (int c = 0; c < 2 * ncol; c++) M->start[c + 1] = M->start[c] + count[c];
  for (int c = 0; c < 2 * ncol; c++) count[c] = M->start[c];
  for (long long x = 0; x < e; x++) { /* rows ascending: columns stay sorted */
    int p = count[tc[x]]++;
    M->index[p] = tr[x];
    M->value[p] = tv[x];
  }
  memcpy(M->rowlb, lo, (size_t)r * sizeof *lo);
  memcpy(M->rowub, hi, (size_t)r * sizeof *hi);
  for (int u = 0; u < n; u++) last[u] = -1;
  for (int s = 0; s < J->nk; s++)
    for (int u = 0; u < J->ks[s]; u++) {
      size_t su = (size_t)s * (size_t)n + (size_t)u;
      if (J->at[su] < 0) continue;
      int h = 2 * J->at[su], may = !(cp && cp[u] == 1);
      M->collb[h] = J->st[su] == CL_INPUT ? 1 : 0;
      M->colub[h] = 1;
      M->collb[h + 1] = 0;
      M->colub[h + 1] = may ? 1 : 0;
      /* charged once, at the first step looking at u */
      L->cost[h + 1] = may && last[u] < 0 ? g->w[u] : 0;
      last[u] = s;
    }
  covlp_scale(L);
  UTIL_FREE(count, tr, tc, tv, lo, hi, last);
  return 1;
}

/* x whole and within M at every step, in the graph's own sizes: its
 * cost, exact; else -1 (as cl_whole_fits). */
static int64_t cl_joint_whole(const cl *C, const cl_joint *J, const covlp *L, const double *x) {
  const remat_graph *g = C->g;
  int n = g->n;
  int64_t cost = 0;
  for (int c = 0; c < L->lp.ncols; c++) {
    if (fabs(x[c] - round(x[c])) > 1e-9) return -1;
    if (c % 2 && x[c] > 0.5) cost += L->cost[c];
  }
  for (int s = 0; s < J->nk; s++) {
    int64_t mem = g->m[J->ks[s]];
    for (int u = 0; u < J->ks[s]; u++) {
      int i = J->at[(size_t)s * (size_t)n + (size_t)u];
      if (i >= 0 && x[2 * i] > 0.5) mem += g->m[u];
    }
    if (mem > C->p->budget) return -1;
  }
  return cost;
}

static void cl_joint_free(cl_joint *J) {
  if (J->nk >= 2) UTIL_FREE(J->at, J->st);
}

/* The steps together: their LP (integer 0) or CBC on them (1) within
 * `seconds`; o raised where it says more.  CBC is asked only where the
 * LP's solution is not whole and (closure_integer) the closure bound
 * leads the covering problem's: elsewhere its time is the covering and
 * window bounds' core.  (The LP is no guide: on two one-layer chains one
 * after the other it equals a single step's integer optimum and the
 * integer problem is twice that.) */
static void cl_joint_solve(cl *C, double seconds, int integer, cover_out *o, int *solved) {
  cl_joint J;
  covlp L;
  if (seconds <= 0.01 || !cl_joint_build(C, &J, &L)) return;
  if (!integer) {
    double *x = util_malloc((size_t)L.lp.ncols * sizeof *x), obj;
    if (covlp_relax(&L, seconds, &obj, x) == 0) {
      int64_t exact = cl_joint_whole(C, &J, &L, x), v = covlp_round_up(&L, obj);
      if (exact >= 0) cl_take(o, solved, exact, 4, &L);
      else cl_take(o, solved, v, 1, &L);
      if (exact < 0) C->joint_lp = v;
    }
    free(x);
  } else if (C->joint_lp >= 0 && L.lp.ncols <= CLOSURE_MIP_COLS) {
    memset(L.lp.integer, 1, (size_t)L.lp.ncols);
    cover_out x;
    memset(&x, 0, sizeof x);
    x.status = COVER_NONE;
    covlp_run(&L, seconds, COVLP_CBC, C->p, &x);
    if (x.status == COVER_OPTIMAL) cl_take(o, solved, x.increase, 4, &L);
    else if (x.status == COVER_BOUND) cl_take(o, solved, x.increase, 0, &L);
  }
  covlp_free(&L);
  cl_joint_free(&J);
}

closure *closure_new(const remat_graph *g, const cover_params *p, const int64_t *load) {
  cl *C = util_calloc(1, sizeof *C);
  C->g = g;
  C->p = p;
  C->n = g->n;
  size_t n = (size_t)(g->n > 0 ? g->n : 1), room = 6 * n + 2 * (size_t)g->n_edges + 2;
  C->col = util_malloc(n * sizeof *C->col);
  C->node = util_malloc(n * sizeof *C->node);
  C->state = util_malloc(n);
  C->row = util_malloc(n * sizeof *C->row);
  C->count = util_malloc(2 * n * sizeof *C->count);
  C->tr = util_malloc(room * sizeof *C->tr);
  C->tc = util_malloc(room * sizeof *C->tc);
  C->tv = util_malloc(room * sizeof *C->tv);
  C->np = cl_stages(C, load, C->pick);
  C->joint_lp = -1;
  for (int s = 0; s < C->np; s++) C->lpv[s] = -1;
  return C;
}

void closure_free(closure *C) {
  if (!C) return;
  UTIL_FREE(C->col, C->node, C->state, C->row, C->count, C->tr, C->tc, C->tv);
  free(C);
}

void closure_lps(closure *C, double seconds, cover_out *o) {
  double t0 = util_now();
  memset(o, 0, sizeof *o);
  o->status = COVER_NONE;
  o->closure = 1;
  int solved = 0;
  for (int s = 0; s < C->np && !child_stopping(); s++) {
    double left = seconds - (util_now() - t0);
    if (left <= 0.01) break;
    covlp L;
    if (!cl_problem(C, C->pick[s], &L)) continue;
    /* a whole solution within M is the step's integer optimum already */
    double *x = util_malloc((size_t)L.lp.ncols * sizeof *x), obj;
    if (covlp_relax(&L, left, &obj, x) == 0) {
      int64_t v = covlp_round_up(&L, obj), exact = cl_whole_fits(C, C->pick[s], &L, x);
      if (exact >= 0) cl_take(o, &solved, exact, 3, &L);
      else cl_take(o, &solved, v, 1, &L);
      C->lpv[s] = exact >= 0 ? -1 : v;
    }
    free(x);
    covlp_free(&L);
  }
  if (!child_stopping()) cl_joint_solve(C, seconds - (util_now() - t0), 0, o, &solved);
  if (solved)
    o->status = COVER_BOUND;
  else
    snprintf(o->why, sizeof o->why, "closure bound: no step's LP solved in %.2fs",
             util_now() - t0);
}

void closure_integer(closure *C, double seconds, double left, int64_t above, cover_out *o) {
  double t0 = util_now();
  if (left > CLOSURE_MIP_SHARE * seconds) left = CLOSURE_MIP_SHARE * seconds;
  int solved = o->status == COVER_BOUND;
  /* CBC's bound counts whether or not it ends; its word that a step has
   * no solution is not taken */
  for (int t = 0; t < CLOSURE_MIP_STEPS && solved && !child_stopping(); t++) {
    int s = -1;
    for (int x = 0; x < C->np; x++)
      if (C->lpv[x] >= 0 && (s < 0 || C->lpv[x] > C->lpv[s])) s = x;
    if (s < 0) break;
    C->lpv[s] = -1;
    double share = (left - (util_now() - t0)) / (CLOSURE_MIP_STEPS - t);
    if (share <= 0.01) break;
    covlp L;
    if (!cl_problem(C, C->pick[s], &L)) continue;
    if (L.lp.ncols <= CLOSURE_MIP_COLS) {
      memset(L.lp.integer, 1, (size_t)L.lp.ncols);
      cover_out x;
      memset(&x, 0, sizeof x);
      x.status = COVER_NONE;
      covlp_run(&L, share, COVLP_CBC, C->p, &x);
      if (x.status == COVER_OPTIMAL) cl_take(o, &solved, x.increase, 3, &L);
      else if (x.status == COVER_BOUND) cl_take(o, &solved, x.increase, 0, &L);
    }
    covlp_free(&L);
  }
  /* the steps together, in the rest of the integer problems' time,
   * where the closure bound leads the other bound by CLOSURE_JOINT_LEAD */
  if (solved && C->joint_lp >= 0 &&
      (above <= 0 || (double)o->increase >= CLOSURE_JOINT_LEAD * (double)above) &&
      !child_stopping())
    cl_joint_solve(C, left - (util_now() - t0), 1, o, &solved);
}

void closure_solve(const remat_graph *g, const cover_params *p, const int64_t *load,
                   double seconds, cover_out *o) {
  double t0 = util_now();
  closure *C = closure_new(g, p, load);
  closure_lps(C, seconds, o);
  closure_integer(C, seconds, seconds - (util_now() - t0), -1, o);
  closure_free(C);
}
