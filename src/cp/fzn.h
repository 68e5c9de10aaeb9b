/* fzn.h -- writing the model as FlatZinc (the exact text the solver gets).
 *
 * Variables per copy c of node v (copy index i in 0..C_v-1):
 *   s<c>  start event (copy 0: the constant first event of v)
 *   e<c>  end event (last event at which the copy is retained)
 *   a<c>  active flag (bool; copy 0 always active), x<c> = bool2int(a<c>)
 *   d<c>  length in the memory cumulative: e - s + 1
 * Inactive later copies are parked: s = e = model_park(c).
 * Output arrays S, E, A (per copy, in copy order) and PEAK (phase 1) or
 * OBJ (phase 2: the duration of the active later copies, scaled).
 */
#ifndef REMAT_FZN_H
#define REMAT_FZN_H

#include "model.h"
#include "util.h"

/* Which model variable each entry of the relax_and_reconstruct array is. */
typedef struct fzn_layout {
  int nlns;
  int *copy;  /* copy index */
  char *kind; /* 'a' (x<c>), 's' or 'e' */
} fzn_layout;

typedef struct fzn_params {
  const model_sol *initial; /* warm start for relax_and_reconstruct, or NULL */
  int lns_percent;          /* fallback LNS: % of variables kept (default 80) */
  int restart_scale;        /* restart_luby scale (default 100); 0: none */
  int external;             /* for an external solver: no relax_and_reconstruct
                               (Gecode's own LNS never completes a search);
                               the warm start goes into warm_start(...) */
} fzn_params;

void fzn_params_init(fzn_params *p);

/* Write the model of md->phase (the stage model, or the free-order model
 * of fzn_free.c).  `layout` (may be NULL) receives the LNS variable
 * layout; free it with fzn_layout_free. */
void fzn_write(const model *md, const fzn_params *p, util_buf *out,
               fzn_layout *layout);

/* For the two writers: the comment line on the model's scaling (budget
 * and quanta), and in phase 1 the PEAK variable (between the capacity or
 * the lower bound and the upper bound). */
void fzn_scaling_comment(const model *md, util_buf *b);
void fzn_peak_var(const model *md, util_buf *b);

/* For the two writers: after the declarations (in out) and the model's
 * own constraints (in cons), the objective, the output arrays, the
 * constraints, memory and the solve item. */
void fzn_body(const model *md, const fzn_params *p, util_buf *out, util_buf *cons,
              fzn_layout *layout);
void fzn_layout_free(fzn_layout *l);

/* The layout of the model's LNS variables (as fzn_write gives it). */
void fzn_layout_build(const model *md, fzn_layout *l);

/* Fill values[] (layout order) from a model solution. */
void fzn_layout_values(const fzn_layout *l, const model_sol *x, int *values);

/* Write MiniZinc data (.dzn) for models/moccasin.mzn. */
void fzn_write_dzn(const model *md, util_buf *out);

#endif
