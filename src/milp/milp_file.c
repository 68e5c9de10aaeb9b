/* milp_file.c -- the MILP as an MPS or CPLEX LP file (milp_file.h). */
#include "milp_file.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Names of every row and column, from the model's tags. */
typedef struct mf_names {
  char **row, **col;
  int nrows, ncols;
} mf_names;

static char *mf_dup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = util_malloc(n);
  memcpy(d, s, n);
  return d;
}

static void mf_names_init(mf_names *N, const milp_model *md) {
  N->nrows = md->lp.nrows;
  N->ncols = md->lp.ncols;
  milp_tag *rt = util_malloc((size_t)(md->lp.nrows ? md->lp.nrows : 1) * sizeof *rt);
  int nf = md->lp.ncols - md->f_base;
  milp_tag *ft = util_malloc((size_t)(nf ? nf : 1) * sizeof *ft);
  milp_tags(md, rt, ft);
  char buf[96];
  N->row = util_malloc((size_t)(md->lp.nrows ? md->lp.nrows : 1) * sizeof *N->row);
  for (int r = 0; r < md->lp.nrows; r++) {
    milp_tag_name(&rt[r], buf, sizeof buf);
    N->row[r] = mf_dup(buf);
  }
  N->col = util_malloc((size_t)(md->lp.ncols ? md->lp.ncols : 1) * sizeof *N->col);
  for (int j = 0; j < md->lp.ncols; j++) {
    milp_col_name(md, ft, j, buf, sizeof buf);
    N->col[j] = mf_dup(buf);
  }
  free(rt);
  free(ft);
}

static void mf_names_free(mf_names *N) {
  for (int r = 0; r < N->nrows; r++) free(N->row[r]);
  for (int j = 0; j < N->ncols; j++) free(N->col[j]);
  free(N->row);
  free(N->col);
}

/* A number as written: whole numbers without a point, others exactly. */
static void mf_num(char *buf, size_t len, double v) {
  if (v == (double)(long long)v && v > -9e15 && v < 9e15)
    snprintf(buf, len, "%lld", (long long)v);
  else
    snprintf(buf, len, "%.17g", v);
}

/* The header, each line after `lead` (MPS "*", LP "\"). */
static void mf_header(const milp_model *md, FILE *f, const char *lead) {
  const remat_graph *g = md->g;
  fprintf(f, "%s remat %s: Checkmate's MILP (Jain et al., MLSys 2020, problem (9)), as "
             "remat milp solves it\n", lead, REMAT_VERSION);
  fprintf(f, "%s graph %s%s%s: %d nodes, %d edges; budget %lld bytes\n", lead, g->name,
          g->path ? " from " : "", g->path ? g->path : "", g->n, g->n_edges,
          (long long)md->budget);
  if (md->mem_exact)
    fprintf(f, "%s memory: sizes in units of %lld bytes (their GCD: exact); U <= %.0f = "
               "floor(budget / unit)\n", lead, (long long)md->mem_q, md->cap);
  else
    fprintf(f, "%s memory: sizes in units of %lld bytes rounded DOWN (a relaxation: every "
               "schedule within the budget is a solution, a solution may pass the budget); "
               "U <= %.0f = floor(budget / unit)\n", lead, (long long)md->mem_q, md->cap);
  fprintf(f, "%s objective: recomputed durations in units of %lld; duration = %lld + %lld x "
             "objective\n", lead, (long long)md->dur_q,
          (long long)remat_graph_base_duration(g), (long long)md->dur_q);
  fprintf(f, "%s copies: %s\n", lead,
          md->copies ? "at most C_v computations of node v (rows COPIES_v)"
                     : "any number of recomputations");
  fprintf(f, "%s stages t and nodes i are positions in the input order (0-based):\n", lead);
  fprintf(f, "%s   R_t_i  binary, node i (i < t) is recomputed in stage t (stage t computes "
             "node t)\n", lead);
  fprintf(f, "%s   S_t_i  binary, node i (i < t) is in memory at the start of stage t\n", lead);
  fprintf(f, "%s   U_t_k  memory while node k runs in stage t\n", lead);
  fprintf(f, "%s   FREE_t_i_k  node i is freed right after node k in stage t\n", lead);
  for (int v = 0; v < g->n; v++) fprintf(f, "%s node %d: %s\n", lead, v, g->id[v]);
}

/* A row's sense for MPS: E, L, G (lb, ub as built; never both infinite). */
static char mf_sense(double lb, double ub) {
  if (lb == ub) return 'E';
  if (lb <= -DBL_MAX) return 'L';
  return 'G';
}

/* L in free MPS format with names N (the model's header written). */
static void mf_mps(const lp_model *L, const mf_names *N, FILE *f) {
  char a[64];
  fprintf(f, "NAME remat\nROWS\n N OBJ\n");
  for (int r = 0; r < L->nrows; r++)
    fprintf(f, " %c %s\n", mf_sense(L->rowlb[r], L->rowub[r]), N->row[r]);
  fprintf(f, "COLUMNS\n");
  int in = 0; /* within integer markers */
  for (int j = 0; j < L->ncols; j++) {
    if (!L->integer[j] != !in)
      fprintf(f, "    MARKER 'MARKER' '%s'\n", in ? "INTEND" : "INTORG"), in = !in;
    int any = 0;
    if (L->obj[j] != 0) {
      mf_num(a, sizeof a, L->obj[j]);
      fprintf(f, "    %s OBJ %s\n", N->col[j], a);
      any = 1;
    }
    for (int p = L->start[j]; p < L->start[j + 1]; p++) {
      mf_num(a, sizeof a, L->value[p]);
      fprintf(f, "    %s %s %s\n", N->col[j], N->row[L->index[p]], a);
      any = 1;
    }
    if (!any) fprintf(f, "    %s OBJ 0\n", N->col[j]);
  }
  if (in) fprintf(f, "    MARKER 'MARKER' 'INTEND'\n");
  fprintf(f, "RHS\n");
  for (int r = 0; r < L->nrows; r++) {
    char s = mf_sense(L->rowlb[r], L->rowub[r]);
    double v = s == 'G' ? L->rowlb[r] : L->rowub[r];
    if (v == 0) continue;
    mf_num(a, sizeof a, v);
    fprintf(f, "    RHS %s %s\n", N->row[r], a);
  }
  int ranges = 0;
  for (int r = 0; r < L->nrows; r++) {
    double lb = L->rowlb[r], ub = L->rowub[r];
    if (lb == ub || lb <= -DBL_MAX || ub >= DBL_MAX) continue;
    if (!ranges++) fprintf(f, "RANGES\n");
    mf_num(a, sizeof a, ub - lb);
    fprintf(f, "    RNG %s %s\n", N->row[r], a);
  }
  fprintf(f, "BOUNDS\n");
  for (int j = 0; j < L->ncols; j++) {
    mf_num(a, sizeof a, L->colub[j]);
    if (L->colub[j] == L->collb[j])
      fprintf(f, " FX BND %s %s\n", N->col[j], a);
    else if (L->integer[j] && L->colub[j] == 1)
      fprintf(f, " BV BND %s\n", N->col[j]);
    else
      fprintf(f, " UP BND %s %s\n", N->col[j], a);
  }
  fprintf(f, "ENDATA\n");
}

int milp_write_mps(const milp_model *md, FILE *f) {
  mf_names N;
  mf_names_init(&N, md);
  mf_header(md, f, "*");
  mf_mps(&md->lp, &N, f);
  mf_names_free(&N);
  return ferror(f) ? -1 : 0;
}

/* The matrix by rows, for the LP format. */
typedef struct mf_rows {
  int *start, *col;
  double *val;
} mf_rows;

static void mf_rows_init(mf_rows *R, const lp_model *L) {
  R->start = util_calloc((size_t)L->nrows + 2, sizeof *R->start);
  long long nnz = L->start[L->ncols];
  R->col = util_malloc((size_t)(nnz ? nnz : 1) * sizeof *R->col);
  R->val = util_malloc((size_t)(nnz ? nnz : 1) * sizeof *R->val);
  for (long long p = 0; p < nnz; p++) R->start[L->index[p] + 2]++;
  for (int r = 0; r < L->nrows; r++) R->start[r + 2] += R->start[r + 1];
  for (int j = 0; j < L->ncols; j++)
    for (int p = L->start[j]; p < L->start[j + 1]; p++) {
      int q = R->start[L->index[p] + 1]++;
      R->col[q] = j;
      R->val[q] = L->value[p];
    }
}

static void mf_rows_free(mf_rows *R) {
  free(R->start);
  free(R->col);
  free(R->val);
}

/* Terms "+ 3 x - y", a few to a line. */
static void mf_terms(FILE *f, const mf_names *N, const int *col, const double *val, int k,
                     const char *empty) {
  char a[64];
  if (!k) fprintf(f, " 0 %s", empty);
  for (int q = 0; q < k; q++) {
    double v = val[q];
    if (q && q % 8 == 0) fprintf(f, "\n  ");
    mf_num(a, sizeof a, v < 0 ? -v : v);
    fprintf(f, " %s %s %s", v < 0 ? "-" : q ? "+" : "", a, N->col[col[q]]);
  }
}

/* The objective and the rows in LP format; `empty` names a column for
 * an empty sum (0 x). */
static void mf_lp_rows(const lp_model *L, const mf_names *N, const char *empty, FILE *f) {
  mf_rows R;
  mf_rows_init(&R, L);
  char a[64];
  fprintf(f, "Minimize\n obj:");
  int k = 0;
  int *oc = util_malloc((size_t)(L->ncols ? L->ncols : 1) * sizeof *oc);
  double *ov = util_malloc((size_t)(L->ncols ? L->ncols : 1) * sizeof *ov);
  for (int j = 0; j < L->ncols; j++)
    if (L->obj[j] != 0) oc[k] = j, ov[k++] = L->obj[j];
  mf_terms(f, N, oc, ov, k, empty);
  free(oc);
  free(ov);
  fprintf(f, "\nSubject To\n");
  for (int r = 0; r < L->nrows; r++) {
    double lb = L->rowlb[r], ub = L->rowub[r];
    const int *rc = R.col + R.start[r];
    const double *rv = R.val + R.start[r];
    int rk = R.start[r + 1] - R.start[r];
    if (lb > -DBL_MAX && ub < DBL_MAX && lb != ub) { /* a range (none is built) */
      fprintf(f, " %s_lo:", N->row[r]);
      mf_terms(f, N, rc, rv, rk, empty);
      mf_num(a, sizeof a, lb);
      fprintf(f, " >= %s\n %s_hi:", a, N->row[r]);
      lb = -DBL_MAX;
    } else {
      fprintf(f, " %s:", N->row[r]);
    }
    mf_terms(f, N, rc, rv, rk, empty);
    char s = mf_sense(lb, ub);
    mf_num(a, sizeof a, s == 'G' ? lb : ub);
    fprintf(f, " %s %s\n", s == 'E' ? "=" : s == 'L' ? "<=" : ">=", a);
  }
  mf_rows_free(&R);
}

/* The bounds and the integer columns in LP format. */
static void mf_lp_bounds(const lp_model *L, const mf_names *N, FILE *f) {
  char a[64];
  fprintf(f, "Bounds\n");
  for (int j = 0; j < L->ncols; j++) {
    mf_num(a, sizeof a, L->colub[j]);
    if (L->colub[j] == L->collb[j])
      fprintf(f, " %s = %s\n", N->col[j], a);
    else if (!L->integer[j] || L->colub[j] != 1)
      fprintf(f, " 0 <= %s <= %s\n", N->col[j], a);
  }
  if (lp_nint(L)) {
    fprintf(f, "Binaries\n");
    for (int j = 0; j < L->ncols; j++)
      if (L->integer[j] && L->colub[j] != L->collb[j]) fprintf(f, " %s\n", N->col[j]);
    fprintf(f, "Generals\n");
    for (int j = 0; j < L->ncols; j++)
      if (L->integer[j] && L->colub[j] == L->collb[j]) fprintf(f, " %s\n", N->col[j]);
  }
  fprintf(f, "End\n");
}

int milp_write_lp(const milp_model *md, FILE *f) {
  mf_names N;
  mf_names_init(&N, md);
  mf_header(md, f, "\\");
  mf_lp_rows(&md->lp, &N, N.col[md->u_base], f);
  mf_lp_bounds(&md->lp, &N, f);
  mf_names_free(&N);
  return ferror(f) ? -1 : 0;
}
