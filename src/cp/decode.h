/* decode.h -- reading solver output: FlatZinc solution text ("S =
 * array1d(1..K, [...]);" lines) into model values. */
#ifndef REMAT_DECODE_H
#define REMAT_DECODE_H

#include "model.h"

/* Parse one solution.  *obj receives OBJ (phase 2) or PEAK (phase 1).
 * Returns 0, or -1 with a message when the text lacks an array or has the
 * wrong length. */
int decode_solution(const model *md, const char *text, model_sol *x,
                    long long *obj, char *err, size_t errlen);

#endif
