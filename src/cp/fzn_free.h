/* fzn_free.h -- the free-order model's parts of the FlatZinc text
 * (fzn_free.c); fzn_write (fzn.c) puts them between the declarations and
 * the body it shares with the stage model. */
#ifndef REMAT_FZN_FREE_H
#define REMAT_FZN_FREE_H

#include "model.h"
#include "util.h"

/* The free-order model's declarations (to b), and its constraints (to
 * cons, with the declarations they need to decl). */
void fzn_free_decls(const model *md, util_buf *b);
void fzn_free_constraints(const model *md, util_buf *decl, util_buf *cons);

#endif
