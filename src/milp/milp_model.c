/* milp_model.c -- Checkmate's MILP as a model in memory: building it,
 * decoding a solution, and its LP relaxation with Clp (milp_model.h). */
#include "milp_model.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "child.h"
#include "lp_solver.h"
#include "util.h"

/* ------------------------------------------------------------------ */
/* Building                                                            */
/* ------------------------------------------------------------------ */

/* Two passes over the same generator: the first counts the entries of
 * every column, the second writes them (rows are generated in increasing
 * order, so each column's entries come out sorted). */
typedef struct milp_bld {
  milp_model *md;
  int fill;  /* 0: counting, 1: writing, 2: tags only (milp_tags) */
  int row;   /* rows so far */
  int *cur;  /* counting: entries per column; writing: next slot */
  int *fidx; /* FREE column of each predecessor slot in this stage, -1 */
  int fcol;  /* next FREE column */
  milp_tag *rtag, *ftag; /* tags only: of the rows, of the FREE columns */
} milp_bld;

/* A row of kind MILP_ROW_* with indices t, a, c, d (milp_tag). */
static int milp_row(milp_bld *b, double lb, double ub, int kind, int t, int a, int c, int d) {
  if (b->fill == 1) {
    b->md->lp.rowlb[b->row] = lb;
    b->md->lp.rowub[b->row] = ub;
  } else if (b->fill == 2) {
    b->rtag[b->row] = (milp_tag){kind, t, a, c, d};
  }
  return b->row++;
}

static void milp_put(milp_bld *b, int row, int col, double v) {
  if (v == 0 || b->fill == 2) return;
  if (!b->fill) {
    b->cur[col]++;
    return;
  }
  int p = b->cur[col]++;
  b->md->lp.index[p] = row;
  b->md->lp.value[p] = v;
}

static void milp_col(milp_bld *b, int col, double lb, double ub, double obj) {
  if (b->fill != 1) return;
  b->md->lp.collb[col] = lb;
  b->md->lp.colub[col] = ub;
  b->md->lp.obj[col] = obj;
}

/* Is there an edge i -> j?  (successors are sorted) */
static int milp_edge(const remat_graph *g, int i, int j) {
  int lo = g->succ_off[i], hi = g->succ_off[i + 1];
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (g->succ[mid] == j) return 1;
    if (g->succ[mid] < j)
      lo = mid + 1;
    else
      hi = mid;
  }
  return 0;
}

/* FREE[t,(i,k)] has no column when it is 0 (t is a later user of i) or
 * useless (k = t: the stage ends there, no later U reads it). */
static int milp_free_fixed(const remat_graph *g, int t, int i, int k) {
  return k == t || milp_edge(g, i, t);
}

/* m_v in units of mem_q: rounded down in the relaxation, up in the
 * restriction (equal when exact). */
static double milp_mem(const milp_model *md, int v) {
  int64_t m = md->g->m[v], q = md->mem_q;
  return (double)(md->mem_up ? m / q + (m % q != 0) : m / q);
}

/* (1b) R[t,v] <= R[t,u] + S[t,u] and (1c) S[t+1,i] <= S[t,i] + R[t,i]. */
static void milp_stage_logic(milp_bld *b, int t) {
  const milp_model *md = b->md;
  const remat_graph *g = md->g;
  for (int v = 0; v <= t; v++)
    for (int p = g->pred_off[v]; p < g->pred_off[v + 1]; p++) {
      int u = g->pred[p], row;
      if (v == t) {
        row = milp_row(b, 1, DBL_MAX, MILP_ROW_DEP, t, v, u, 0);
      } else {
        row = milp_row(b, -DBL_MAX, 0, MILP_ROW_DEP, t, v, u, 0);
        milp_put(b, row, milp_col_r(t, v), 1);
      }
      milp_put(b, row, milp_col_r(t, u), v == t ? 1 : -1);
      milp_put(b, row, milp_col_s(md, t, u), v == t ? 1 : -1);
    }
  if (t >= 1 && t + 1 < md->n)
    for (int i = 0; i < t; i++) {
      int row = milp_row(b, -DBL_MAX, 0, MILP_ROW_KEEP, t + 1, i, 0, 0);
      milp_put(b, row, milp_col_s(md, t, i), -1);
      milp_put(b, row, milp_col_r(t, i), -1);
      milp_put(b, row, milp_col_s(md, t + 1, i), 1);
    }
}

/* FREE columns of stage t and their upper bounds. */
static void milp_stage_free(milp_bld *b, int t) {
  const milp_model *md = b->md;
  const remat_graph *g = md->g;
  for (int k = 0; k <= t; k++)
    for (int p = g->pred_off[k]; p < g->pred_off[k + 1]; p++) {
      int i = g->pred[p];
      b->fidx[p] = -1;
      if (milp_free_fixed(g, t, i, k)) continue;
      int f = b->fidx[p] = b->fcol++;
      milp_col(b, f, 0, 1, 0);
      if (b->fill == 2) b->ftag[f - md->f_base] = (milp_tag){MILP_COL_FREE, t, i, k, 0};
      int row = milp_row(b, -DBL_MAX, 0, MILP_ROW_FREE_R, t, i, k, 0); /* k < t */
      milp_put(b, row, milp_col_r(t, k), -1);
      milp_put(b, row, f, 1);
      if (t + 1 < md->n) {
        row = milp_row(b, -DBL_MAX, 1, MILP_ROW_FREE_S, t, i, k, 0);
        milp_put(b, row, f, 1);
        milp_put(b, row, milp_col_s(md, t + 1, i), 1);
      }
      for (int q = g->succ_off[i]; q < g->succ_off[i + 1]; q++) {
        int j = g->succ[q];
        if (j <= k) continue;
        if (j >= t) break;
        row = milp_row(b, -DBL_MAX, 1, MILP_ROW_FREE_J, t, i, k, j);
        milp_put(b, row, milp_col_r(t, j), 1);
        milp_put(b, row, f, 1);
      }
    }
}

/* The memory recurrence of stage t. */
static void milp_stage_memory(milp_bld *b, int t) {
  const milp_model *md = b->md;
  const remat_graph *g = md->g;
  double m0 = milp_mem(md, 0);
  int row = milp_row(b, t == 0 ? m0 : 0, t == 0 ? m0 : 0, MILP_ROW_MEM, t, 0, 0, 0);
  for (int i = 0; i < t; i++)
    milp_put(b, row, milp_col_s(md, t, i), -milp_mem(md, i));
  if (t >= 1) milp_put(b, row, milp_col_r(t, 0), -m0);
  milp_put(b, row, milp_col_u(md, t, 0), 1);
  for (int k = 1; k <= t; k++) {
    double mk = milp_mem(md, k);
    row = milp_row(b, k == t ? mk : 0, k == t ? mk : 0, MILP_ROW_MEM, t, k, 0, 0);
    for (int p = g->pred_off[k - 1]; p < g->pred_off[k]; p++)
      if (b->fidx[p] >= 0)
        milp_put(b, row, b->fidx[p], milp_mem(md, g->pred[p]));
    if (k < t) milp_put(b, row, milp_col_r(t, k), -mk);
    milp_put(b, row, milp_col_u(md, t, k - 1), -1);
    milp_put(b, row, milp_col_u(md, t, k), 1);
  }
}

/* Bounds and objective of R, S and U. */
static void milp_columns(milp_bld *b) {
  const milp_model *md = b->md;
  const remat_graph *g = md->g;
  for (int t = 1; t < md->n; t++)
    for (int i = 0; i < t; i++) {
      double ub = g->succ_off[i] == g->succ_off[i + 1] ? 0 : 1; /* sink */
      milp_col(b, milp_col_r(t, i), 0, ub, (double)(g->w[i] / md->dur_q));
      milp_col(b, milp_col_s(md, t, i), 0, ub, 0);
    }
  for (int t = 0; t < md->n; t++)
    for (int k = 0; k <= t; k++)
      milp_col(b, milp_col_u(md, t, k), 0, md->cap, 0);
}

/* At most copies[i] computations of i: sum over t > i of R[t,i] is at
 * most copies[i] - 1 (the rows come last, so every column's entries stay
 * sorted by row). */
static void milp_copy_rows(milp_bld *b) {
  const milp_model *md = b->md;
  if (!md->copies) return;
  for (int i = 0; i + 1 < md->n; i++) {
    int later = md->copies[i] > 1 ? md->copies[i] - 1 : 0;
    if (later >= md->n - 1 - i) continue; /* no row needed */
    int row = milp_row(b, -DBL_MAX, later, MILP_ROW_COPIES, i, 0, 0, 0);
    for (int t = i + 1; t < md->n; t++) milp_put(b, row, milp_col_r(t, i), 1);
  }
}

static void milp_generate(milp_bld *b) {
  b->row = 0;
  b->fcol = b->md->f_base;
  if (b->fill != 2) milp_columns(b);
  for (int t = 0; t < b->md->n; t++) {
    milp_stage_logic(b, t);
    milp_stage_free(b, t);
    milp_stage_memory(b, t);
  }
  milp_copy_rows(b);
}

static long long milp_count_free(const remat_graph *g) {
  long long nf = 0;
  for (int t = 0; t < g->n; t++)
    for (int k = 0; k <= t; k++)
      for (int p = g->pred_off[k]; p < g->pred_off[k + 1]; p++)
        nf += !milp_free_fixed(g, t, g->pred[p], k);
  return nf;
}

/* The sizes' GCD while the budget in its units stays within
 * MILP_MEM_UNITS, else the smallest multiple of it that brings the budget
 * there (milp_model.h: Scaling). */
static void milp_scale(milp_model *md) {
  const remat_graph *g = md->g;
  int64_t gm = 0, gw = 0;
  for (int v = 0; v < g->n; v++) {
    gm = util_gcd(gm, g->m[v]);
    gw = util_gcd(gw, g->w[v]);
  }
  if (gm == 0) gm = 1;
  int64_t units = md->budget / gm, k = 1;
  if (units > MILP_MEM_UNITS) k = units / MILP_MEM_UNITS + (units % MILP_MEM_UNITS != 0);
  md->mem_q = gm * k;
  md->mem_exact = k == 1;
  if (md->mem_exact) md->mem_up = 0;
  md->dur_q = gw ? gw : 1;
  md->cap = (double)(md->budget / md->mem_q);
}

int milp_build_max(milp_model *md, const remat_graph *g, int64_t budget, int kind,
                   const int *copies, long long max_nnz, char *err, size_t errlen) {
  return milp_build_rounded(md, g, budget, kind, copies, max_nnz, 0, err, errlen);
}

int milp_build_rounded(milp_model *md, const remat_graph *g, int64_t budget, int kind,
                       const int *copies, long long max_nnz, int mem_up, char *err,
                       size_t errlen) {
  memset(md, 0, sizeof *md);
  md->g = g;
  md->mem_up = mem_up;
  md->copies = copies;
  md->n = g->n;
  md->kind = kind;
  md->budget = budget;
  milp_scale(md);
  long long n = g->n, ntri = n * (n - 1) / 2,
            nf = n > 20000 ? 0 : milp_count_free(g);
  long long ncols = 2 * ntri + n * (n + 1) / 2 + nf;
  if (n > 20000 || ncols > INT_MAX / 2 || nf > max_nnz)
    return util_err(err, errlen, REMAT_EUSAGE,
                    "the MILP for %lld nodes is too large (%lld columns)", n,
                    ncols);
  md->lp.ncols = (int)ncols;
  md->s_base = (int)ntri;
  md->u_base = (int)(2 * ntri);
  md->f_base = (int)(2 * ntri + n * (n + 1) / 2);
  milp_bld b = {md, 0, 0, NULL, NULL, 0, NULL, NULL};
  b.cur = util_calloc((size_t)md->lp.ncols + 1, sizeof *b.cur);
  b.fidx = util_malloc((size_t)(g->n_edges ? g->n_edges : 1) * sizeof *b.fidx);
  milp_generate(&b);
  long long nnz = 0;
  for (int j = 0; j < md->lp.ncols; j++) nnz += b.cur[j];
  if (nnz > max_nnz) {
    free(b.cur);
    free(b.fidx);
    return util_err(err, errlen, REMAT_EUSAGE,
                    "the MILP for %lld nodes is too large: %lld columns, %d "
                    "rows, %lld nonzeros (limit %lld)",
                    n, ncols, b.row, nnz, max_nnz);
  }
  lp_alloc(&md->lp, (int)ncols, b.row, nnz);
  for (int j = 0; j < (int)ncols; j++) {
    md->lp.start[j + 1] = md->lp.start[j] + b.cur[j];
    b.cur[j] = md->lp.start[j];
  }
  if (kind == MILP_INTEGRAL) /* R and S */
    for (int j = 0; j < md->u_base; j++) md->lp.integer[j] = 1;
  b.fill = 1;
  milp_generate(&b);
  free(b.cur);
  free(b.fidx);
  return 0;
}

int milp_build(milp_model *md, const remat_graph *g, int64_t budget, int kind,
               char *err, size_t errlen) {
  return milp_build_max(md, g, budget, kind, NULL, MILP_MAX_NONZEROS, err, errlen);
}

void milp_tags(const milp_model *md, milp_tag *rows, milp_tag *frees) {
  milp_bld b = {(milp_model *)md, 2, 0, NULL, NULL, 0, rows, frees}; /* writes no field */
  const remat_graph *g = md->g;
  b.fidx = util_malloc((size_t)(g->n_edges ? g->n_edges : 1) * sizeof *b.fidx);
  milp_generate(&b);
  free(b.fidx);
}

/* "KIND_t_a..." with as many indices as the kind has. */
void milp_tag_name(const milp_tag *tg, char *buf, size_t len) {
  switch (tg->kind) {
  case MILP_ROW_DEP: snprintf(buf, len, "DEP_%d_%d_%d", tg->t, tg->a, tg->c); break;
  case MILP_ROW_KEEP: snprintf(buf, len, "KEEP_%d_%d", tg->t, tg->a); break;
  case MILP_ROW_FREE_R: snprintf(buf, len, "FREER_%d_%d_%d", tg->t, tg->a, tg->c); break;
  case MILP_ROW_FREE_S: snprintf(buf, len, "FREES_%d_%d_%d", tg->t, tg->a, tg->c); break;
  case MILP_ROW_FREE_J:
    snprintf(buf, len, "FREEJ_%d_%d_%d_%d", tg->t, tg->a, tg->c, tg->d);
    break;
  case MILP_ROW_MEM: snprintf(buf, len, "MEM_%d_%d", tg->t, tg->a); break;
  case MILP_ROW_COPIES: snprintf(buf, len, "COPIES_%d", tg->t); break;
  default: snprintf(buf, len, "FREE_%d_%d_%d", tg->t, tg->a, tg->c); break;
  }
}

void milp_col_name(const milp_model *md, const milp_tag *frees, int j, char *buf, size_t len) {
  char c = 'R';
  int base = 0;
  if (j >= md->f_base) {
    milp_tag_name(&frees[j - md->f_base], buf, len);
    return;
  }
  if (j >= md->u_base) { /* U[t,k] at u_base + t(t+1)/2 + k */
    long long x = j - md->u_base, t = (long long)((sqrt(8.0 * (double)x + 1) - 1) / 2);
    while (t > 0 && t * (t + 1) / 2 > x) t--;
    while ((t + 1) * (t + 2) / 2 <= x) t++;
    snprintf(buf, len, "U_%lld_%lld", t, x - t * (t + 1) / 2);
    return;
  }
  if (j >= md->s_base) c = 'S', base = md->s_base;
  /* R[t,i], S[t,i] at t(t-1)/2 + i */
  long long x = j - base, t = (long long)((sqrt(8.0 * (double)x + 1) + 1) / 2);
  while (t > 1 && t * (t - 1) / 2 > x) t--;
  while (t * (t + 1) / 2 <= x) t++;
  snprintf(buf, len, "%c_%lld_%lld", c, t, x - t * (t - 1) / 2);
}

void milp_free(milp_model *md) {
  lp_free(&md->lp);
  memset(md, 0, sizeof *md);
}

void milp_decode_r(const milp_model *md, const double *x, stage_mat *R) {
  stage_mat_clear(R);
  for (int t = 0; t < md->n; t++) {
    stage_set(R, t, t, 1);
    for (int i = 0; i < t; i++)
      if (x[milp_col_r(t, i)] > 0.5) stage_set(R, t, i, 1);
  }
}

void milp_decode_s(const milp_model *md, const double *x, stage_mat *S) {
  stage_mat_clear(S);
  for (int t = 1; t < md->n; t++)
    for (int i = 0; i < t; i++)
      if (x[milp_col_s(md, t, i)] > 0.5) stage_set(S, t, i, 1);
}

void milp_s_values(const milp_model *md, const double *x, double *s) {
  int n = md->n;
  for (int t = 0; t < n; t++)
    for (int i = 0; i < n; i++)
      s[(size_t)t * n + i] = i < t ? x[milp_col_s(md, t, i)] : 0;
}

int64_t milp_objective_units(const milp_model *md, const double *x) {
  int64_t units = 0;
  for (int t = 1; t < md->n; t++)
    for (int i = 0; i < t; i++)
      if (x[milp_col_r(t, i)] > 0.5) units += md->g->w[i] / md->dur_q;
  return units;
}

double milp_duration(const milp_model *md, double objective) {
  return (double)remat_graph_base_duration(md->g) +
         objective * (double)md->dur_q;
}

double milp_bound_duration(const milp_model *md, double objective) {
  double base = (double)remat_graph_base_duration(md->g);
  if (!(objective > 0)) return base; /* also NaN */
  /* whole units of dur_q; what CBC or Clp report may exceed the exact
   * value by their tolerances */
  double units = ceil(objective - 1e-6 * (objective > 1 ? objective : 1));
  return units > 0 ? base + units * (double)md->dur_q : base;
}

/* ------------------------------------------------------------------ */
/* The LP relaxation with Clp                                          */
/* ------------------------------------------------------------------ */

/* What the LP (in a child process) hands back. */
typedef struct milp_lp_out {
  int done, rc;
  double objective;
  double x[]; /* ncols */
} milp_lp_out;

typedef struct milp_lp_job {
  const milp_model *md;
  double time_limit;
  milp_lp_out *out;
} milp_lp_job;

static void milp_lp_child(void *arg) {
  milp_lp_job *J = arg;
  const milp_model *md = J->md;
  double limit = J->time_limit > 0 ? J->time_limit : 1e-3;
  clp_result res;
  int st = clp_run(&md->lp, limit, CLP_AUTO, J->out->x, &res);
  /* an answer other than optimal may be an interrupted one: out of time
   * unless it came in time (lp_solver.h) */
  if (st != 0 && !res.in_time) st = 3;
  if (st == 0) {
    J->out->objective = res.obj;
    J->out->rc = 0;
  } else {
    J->out->rc = st == 1 ? 1 : st == 3 ? 2 : -1;
  }
  J->out->done = 1;
}

/* Clp's presolve and first factorisation look neither at its time limit
 * (on dense graphs they run well past it) nor at a stop flag: the LP runs
 * in a child that is killed a second after the limit, or half a second
 * after *stop. */
static int milp_flag_set(void *ctx) {
  volatile int *stop = ctx;
  return stop && *stop;
}

int milp_solve_lp(const milp_model *md, double time_limit, volatile int *stop,
                  double *x, double *objective) {
  size_t bytes = sizeof(milp_lp_out) + (size_t)md->lp.ncols * sizeof(double);
  milp_lp_out *o = child_shared(bytes);
  milp_lp_job J = {md, time_limit, o};
  child_run(milp_lp_child, &J, time_limit + 0.5, 0.5, milp_flag_set, (void *)stop, NULL);
  int rc = o->done ? o->rc : 2; /* killed: out of time */
  if (o->done && rc == 0) {
    memcpy(x, o->x, (size_t)md->lp.ncols * sizeof *x);
    *objective = o->objective;
  }
  child_shared_free(o, bytes);
  return rc;
}

int milp_lp_bound(const remat_graph *g, int64_t budget, double time_limit,
                  volatile int *stop, double *duration, char *err,
                  size_t errlen) {
  milp_model md;
  if (milp_build(&md, g, budget, MILP_RELAXED, err, errlen)) return -2;
  double obj = 0;
  double *x = util_malloc((size_t)md.lp.ncols * sizeof *x);
  int st = milp_solve_lp(&md, time_limit, stop, x, &obj);
  if (st == 0) *duration = milp_bound_duration(&md, obj);
  free(x);
  milp_free(&md);
  return st;
}

const char *milp_lp_status_name(int status) {
  switch (status) {
  case 0:
    return "optimal";
  case 1:
    return "infeasible";
  case 2:
    return "out of time";
  case -2:
    return "not solved";
  default:
    return "error";
  }
}
