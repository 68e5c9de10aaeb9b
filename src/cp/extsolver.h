/* extsolver.h -- solving a FlatZinc file with an external executable
 * (fzn-gecode, or any FlatZinc solver): run it as a child process, read its
 * solutions ("----------"), completion ("==========") and
 * "=====UNSATISFIABLE=====" markers, stop it at the time limit. */
#ifndef REMAT_EXTSOLVER_H
#define REMAT_EXTSOLVER_H

#include "gecode.h"

typedef struct ext_params {
  const char *cmd;       /* command line, split at blanks ("fzn-gecode -p 2") */
  double time_limit;     /* seconds, <= 0: none */
  volatile int *stop;    /* stop when it becomes nonzero */
  gz_solution_fn on_solution;
  void *ctx;
  /* called about every 0.2 s while waiting (progress lines), may be NULL */
  void (*on_tick)(void *ctx);
} ext_params;

/* Returns the status (as for gz_solve); stats->solutions and seconds are
 * filled. */
gz_status ext_solve(const char *fzn_path, const ext_params *p, gz_stats *stats,
                    char *err, size_t errlen);

#endif
