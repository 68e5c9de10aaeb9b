/* solver_end.c: when an end of CBC or Clp counts as a proof (solver_end.h). */
#include "solver_end.h"

int solver_end_in_time(double took, double limit, int threads) {
  return took * (threads > 1 ? threads : 1) < SOLVER_END_SHARE * limit;
}
