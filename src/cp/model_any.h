/* model_any.h -- either CP model: the one place that chooses between the
 * stage-axis model (model.h) and the free-order model (model_free.h), by
 * the order a caller asks for or the one a built model has. */
#ifndef REMAT_MODEL_ANY_H
#define REMAT_MODEL_ANY_H

#include "model.h"
#include "model_free.h"

/* Build the free-order model when free_order, else the stage model. */
static inline int model_build_any(model *md, int free_order, const remat_graph *g,
                                  int phase, int64_t budget, const int *copies,
                                  int default_copies, char *err, size_t errlen) {
  return (free_order ? model_build_free : model_build)(md, g, phase, budget, copies,
                                                       default_copies, err, errlen);
}

/* Encode a schedule into either model's values (model_stage_encode,
 * model_free_encode): 0, or -1 when the model cannot hold it. */
static inline int model_encode(const model *md, const int *seq, int len, model_sol *x) {
  return (md->free_order ? model_free_encode : model_stage_encode)(md, seq, len, x);
}

/* Check a solution against either model's constraints in scaled units: 0
 * if fine, else -1 with a message (used by tests and as an internal
 * check). */
static inline int model_check(const model *md, const model_sol *x, int cap, char *err,
                              size_t errlen) {
  return (md->free_order ? model_free_check : model_stage_check)(md, x, cap, err, errlen);
}

#endif
