/* closure.c -- the closure bound (closure.h) with Clp. */
#include "closure.h"

#include <float.h>
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

/* One step's problem, built over the nodes it needs. */
typedef struct cl {
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
} cl;

enum {
  CL_OUT = 0,   /* not needed at step k */
  CL_FREE = 1,  /* needed to recompute another: held, recomputed or neither */
  CL_NEEDED = 2,/* read after k: held or recomputed */
  CL_INPUT = 3  /* read by k: held */
};

static int cl_may_recompute(const cl *C, int u) {
  const int *c = C->p->copies;
  return C->state[u] != CL_INPUT && !(c && c[u] == 1);
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

void closure_solve(const remat_graph *g, const cover_params *p, const int64_t *load,
                   double seconds, cover_out *o) {
  double t0 = util_now();
  memset(o, 0, sizeof *o);
  o->status = COVER_NONE;
  o->closure = 1;
  cl C;
  memset(&C, 0, sizeof C);
  C.g = g;
  C.p = p;
  C.n = g->n;
  size_t n = (size_t)(g->n > 0 ? g->n : 1), room = 6 * n + 2 * (size_t)g->n_edges + 2;
  C.col = util_malloc(n * sizeof *C.col);
  C.node = util_malloc(n * sizeof *C.node);
  C.state = util_malloc(n);
  C.row = util_malloc(n * sizeof *C.row);
  C.count = util_malloc(2 * n * sizeof *C.count);
  C.tr = util_malloc(room * sizeof *C.tr);
  C.tc = util_malloc(room * sizeof *C.tc);
  C.tv = util_malloc(room * sizeof *C.tv);
  int pick[CLOSURE_STAGES], np = cl_stages(&C, load, pick), solved = 0;
  for (int s = 0; s < np && !child_stopping(); s++) {
    int k = pick[s];
    double left = seconds - (util_now() - t0);
    if (left <= 0.01) break;
    int64_t held = g->m[k]; /* k and its inputs are in memory */
    for (int q = g->pred_off[k]; q < g->pred_off[k + 1]; q++) held += g->m[g->pred[q]];
    if (held > p->budget) continue; /* nothing fits: the covering bound says so */
    int ncol = cl_mark(&C, k);
    if (ncol == 0) continue;
    covlp L;
    cl_build(&C, k, ncol, (double)(p->budget - g->m[k]), &L);
    double v;
    if (covlp_relax(&L, left, &v) == 0) {
      int64_t inc = covlp_round_up(&L, v);
      if (!solved || inc > o->increase) {
        o->increase = inc;
        o->cols = L.lp.ncols;
        o->rows = L.lp.nrows;
        o->nnz = L.lp.nnz;
      }
      solved = 1;
    }
    covlp_free(&L);
  }
  if (solved) {
    o->status = COVER_BOUND;
    o->lp = 1;
  } else {
    snprintf(o->why, sizeof o->why, "closure bound: no step's LP solved in %.2fs",
             util_now() - t0);
  }
  UTIL_FREE(C.col, C.node, C.state, C.row, C.count, C.tr, C.tc, C.tv);
}
