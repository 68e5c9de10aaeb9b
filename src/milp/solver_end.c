/* solver_end.c: when an end of CBC or Clp counts as a proof (solver_end.h). */
#include "solver_end.h"

int solver_end_in_time(double took, double limit) { return took < 0.5 * limit; }
