/* milp_sol.h -- solutions of Checkmate's MILP (milp_model.h) as files:
 * written from a schedule, read back from other solvers (milp_file.h
 * writes the model they solve).
 *
 * Solution files: CBC's (`cbc m.mps solve solu s.sol`: a status line
 * "Optimal - objective value V", then "index name value reduced-cost"
 * lines), HiGHS' (`highs --solution_file s.sol`: "Model status", ...,
 * "# Columns N", then N "name value" lines), SCIP's ("solution status:",
 * "objective value:", then "name value (obj:c)" lines) and a plain list of
 * "name value" lines with # comments (Gurobi's .sol, milp_write_solution).
 * Only R decides the schedule; S, U and FREE are checked for their names
 * and numbers only.  Columns not listed are 0. */
#ifndef REMAT_MILP_SOL_H
#define REMAT_MILP_SOL_H

#include <stdio.h>

#include "milp_model.h"

/* The R and S columns of a schedule (R as the sequence computes, S the
 * canonical residency of stage.h) in x (md->lp.ncols values, the others 0).
 * Returns 0, or -1 when the sequence is not on the input order's stages
 * (each stage: recomputations of earlier nodes in increasing order, then
 * the stage's node). */
int milp_schedule_x(const milp_model *md, const int *seq, int len, double *x);

/* Write the R and S values of x as "name value" lines (the nonzero ones),
 * after a comment line.  Returns 0 or -1 on a write error. */
int milp_write_solution(const milp_model *md, const double *x, FILE *f);

/* Read a solution file (any of the formats above) into x (md->lp.ncols
 * values).  status receives the solver's word for it ("Optimal",
 * "Infeasible", "" for a plain list).  Returns 0, or REMAT_EUSAGE with
 * "path:line: what" in err: an unknown format, a name that is not a column
 * of md, a number that does not parse, a binary column far from 0 or 1, a
 * column given twice, no solution in the file. */
int milp_read_solution(const milp_model *md, const char *path, double *x, char *status,
                       size_t statuslen, char *err, size_t errlen);

#endif
