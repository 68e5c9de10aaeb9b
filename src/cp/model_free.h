/* model_free.h -- the free-order model of the paper's Sections 2.1-2.2
 * (model_free.c), on the data of model.h: events 1..K, K the number of
 * copies, one computation per event at most, any copy of any node at any
 * event that its inputs allow; the first copy of each node active, the
 * others optional and ordered. */
#ifndef REMAT_MODEL_FREE_H
#define REMAT_MODEL_FREE_H

#include "model.h"

/* Build the free-order model.  C_v, scaling and phases as model_build.
 * Returns 0 or REMAT_EUSAGE with a message. */
int model_build_free(model *md, const remat_graph *g, int phase, int64_t budget,
                     const int *copies, int default_copies, char *err,
                     size_t errlen);

/* Encode a schedule into the free-order model's values (step j at event
 * j + 1); -1 when it is longer than the events or needs more copies than
 * C_v. */
int model_free_encode(const model *md, const int *seq, int len, model_sol *x);

/* Check a solution against the free-order model's constraints in scaled
 * units; 0 if fine, else -1 with a message. */
int model_free_check(const model *md, const model_sol *x, int cap, char *err,
                     size_t errlen);

#endif
