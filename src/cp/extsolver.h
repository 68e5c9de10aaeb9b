/* extsolver.h -- solving a FlatZinc file with an external executable
 * (fzn-gecode, or any FlatZinc solver): run it as a child process
 * (child_spawn: its own process group), read its solutions
 * ("----------"), completion ("==========") and "=====UNSATISFIABLE====="
 * markers, stop it at the time limit (child.h's stop policy, EXT_GRACE).
 *
 * Its output is untrusted: a solver that fails (exit code, signal, no
 * such program), prints neither a solution nor a status line, or ends by
 * itself without proving anything is reported as such, never as a
 * finished search. */
#ifndef REMAT_EXTSOLVER_H
#define REMAT_EXTSOLVER_H

#include "deadline.h"
#include "gecode.h"

/* Seconds between SIGTERM and SIGKILL, and the longest wait for the
 * solver's pipes after it ended. */
#define EXT_GRACE 1.0

typedef struct ext_params {
  const char *cmd;       /* command line, split at blanks ("fzn-gecode -p 2") */
  deadline deadline;     /* when to stop it (DEADLINE_NONE) */
  volatile int *stop;    /* stop when it becomes nonzero */
  gz_solution_fn on_solution;
  void *ctx;
  /* called about every 0.2 s while waiting (progress lines), may be NULL */
  void (*on_tick)(void *ctx);
} ext_params;

/* Returns the status (as for gz_solve); stats->solutions and seconds are
 * filled.  GZ_ERROR: the solver could not run, failed (exit code or
 * signal of its own; its last stderr line in the message) or printed no
 * solution and no status line; err says which.  GZ_SATISFIED or
 * GZ_UNKNOWN after the solver ended by itself without a proof (no
 * "==========", e.g. after its first solution or "=====UNKNOWN====="):
 * err says so ("the external solver CMD ended without a proof after N
 * solutions"); otherwise err is the empty string. */
gz_status ext_solve(const char *fzn_path, const ext_params *p, gz_stats *stats,
                    char *err, size_t errlen);

#endif
