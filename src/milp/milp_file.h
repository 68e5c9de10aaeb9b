/* milp_file.h -- Checkmate's MILP (milp_model.h) as a file for other
 * solvers (MPS, CPLEX LP).
 *
 * The model files hold exactly the model remat milp solves (its memory
 * quantum, its C_v rows when given), with names that say stage and node:
 * columns R_t_i, S_t_i (binary), U_t_k, FREE_t_i_k (continuous) and rows
 * DEP_t_v_u, KEEP_t_i, FREER_/FREES_t_i_k, FREEJ_t_i_k_j, MEM_t_k,
 * COPIES_i (milp_model.h: milp_tag); stages t and nodes i are 0-based
 * positions in the input order.  A comment header gives the graph, the
 * budget, the scaling (memory and duration quanta) and the objective's
 * offset: duration = base + quantum x objective.
 * Their solutions are read back by milp_sol.h. */
#ifndef REMAT_MILP_FILE_H
#define REMAT_MILP_FILE_H

#include <stdio.h>

#include "milp_model.h"

/* Write md in free MPS / CPLEX LP format.  Returns 0, or -1 on a write
 * error (errno set). */
int milp_write_mps(const milp_model *md, FILE *f);
int milp_write_lp(const milp_model *md, FILE *f);

#endif
