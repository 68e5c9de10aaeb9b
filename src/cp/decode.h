/* decode.h -- reading solver output: FlatZinc solution text ("S =
 * array1d(1..K, [...]);" lines) into model values. */
#ifndef REMAT_DECODE_H
#define REMAT_DECODE_H

#include "model.h"

/* Parse one solution.  *obj receives OBJ (phase 2; -1 when absent) or
 * PEAK (phase 1: required).  Every value must lie in its variable's
 * domain (S and E: 1..horizon + ncopy, A: 0..1, PEAK: 0..ub_peak, so that
 * PEAK times the memory quantum fits in 64 bits, OBJ: 0..the sum of the
 * later copies' scaled durations).  Returns 0, or -1 with a message when
 * the text lacks an array, has the wrong length or a value out of range
 * (the solver may be any external program). */
int decode_solution(const model *md, const char *text, model_sol *x,
                    long long *obj, char *err, size_t errlen);

#endif
