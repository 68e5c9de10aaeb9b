/* lp.h -- a linear or mixed-integer program in memory: the one model type
 * of Checkmate's MILP (milp_model.h), the covering bounds (cover_lp.h)
 * and the window bound (wmodel.h), which lp_solver.h hands to CBC and Clp
 * and milp_file.h writes as MPS and LP files.
 *
 * The problem is
 *     minimise    sum_j obj[j] x[j]
 *     subject to  rowlb[i] <= sum_j A[i,j] x[j] <= rowub[i]   (each row i)
 *                 collb[j] <= x[j] <= colub[j]                 (each column j)
 *                 x[j] whole where integer[j]
 * with A in compressed sparse columns, as Cbc_loadProblem and
 * Clp_loadProblem take it: column j's entries are index[p] (its row) and
 * value[p] for p in start[j] .. start[j+1]-1, rows ascending within a
 * column.  A row without a lower bound has rowlb -DBL_MAX, one without an
 * upper bound rowub DBL_MAX (an equation: the two equal).  The model owns
 * its arrays; what it stands for (which column is which node at which
 * stage, the units of the sizes and durations) is its builder's. */
#ifndef REMAT_LP_H
#define REMAT_LP_H

typedef struct lp_model {
  int ncols, nrows;
  long long nnz;          /* entries of A: start[ncols] */
  int *start;             /* ncols + 1 */
  int *index;             /* nnz: each entry's row */
  double *value;          /* nnz: each entry's coefficient */
  double *collb, *colub;  /* ncols: the columns' bounds */
  double *obj;            /* ncols: the objective (minimised) */
  double *rowlb, *rowub;  /* nrows: the rows' bounds */
  char *integer;          /* ncols flags: the column is integral */
} lp_model;

/* Room for ncols columns, nrows rows and nnz entries, every array zeroed
 * (start too: the builder fills it). */
void lp_alloc(lp_model *L, int ncols, int nrows, long long nnz);

/* Free the arrays (L zeroed; an lp_model of zeros frees nothing). */
void lp_free(lp_model *L);

/* How many columns are integral. */
int lp_nint(const lp_model *L);

#endif
