/* gecode.h -- C interface to Gecode's FlatZinc interpreter (libgecodeflatzinc).
 *
 * gz_solve() parses a FlatZinc model from memory and searches it the way
 * fzn-gecode does (same branchers, same solution text), but under the
 * caller's control: a wall-clock limit, a stop flag, a callback for every
 * solution and, for restart-based search, a callback that chooses the
 * large-neighbourhood-search (LNS) neighbourhood at every restart.
 *
 * Implemented in gecode.cpp (C++17); everything here is plain C.
 */
#ifndef REMAT_GECODE_H
#define REMAT_GECODE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gz_status {
  GZ_UNKNOWN = 0, /* stopped (time limit, stop flag) without a solution */
  GZ_SATISFIED,   /* stopped with at least one solution, not proven optimal */
  GZ_OPTIMAL,     /* search completed: the best solution is proven optimal;
                     for satisfaction models: a solution was found (the
                     search stops at the first one, as fzn-gecode does) */
  GZ_UNSAT,       /* search completed without a solution */
  GZ_ERROR        /* parse error, Gecode exception, bad arguments */
} gz_status;

/* Search statistics (Gecode's Search::Statistics of the whole search). */
typedef struct gz_stats {
  long long nodes, fails, restarts;
  long long propagations; /* includes the propagation at the root */
  long long solutions;    /* solutions reported (callback calls) */
  int depth;              /* peak depth of the search stack */
  double seconds;         /* wall time of gz_solve, parsing included */
} gz_stats;

/* Called for every solution (each one improves on the previous for
 * optimisation models) with exactly the text fzn-gecode prints for it: the
 * "name = value;\n" lines of the model's output annotations, without the
 * "----------" separator.  Return nonzero to stop the search. */
typedef int (*gz_solution_fn)(void *ctx, const char *text);

/* Answers of a neighbourhood callback. */
enum {
  GZ_NBH_DEFAULT = 0,  /* do what Gecode's FlatZincSpace::slave does */
  GZ_NBH_FIX = 1,      /* fix the variables marked in fix[] (incomplete) */
  GZ_NBH_COMPLETE = 2  /* fix nothing, search completely */
};

/* Neighbourhood decision, called before every restart's search, including
 * the first one (restart == 0).
 *   n       number of LNS variables: the int variables of the model's
 *           relax_and_reconstruct annotation, in order (0 without one);
 *   values  the LNS variables' values in the last solution found
 *           (have_solution = 1), or else the annotation's initial values
 *           (have_solution = 0), or NULL if there are neither;
 *   fix     n zeroed flags; set fix[i] = 1 to fix variable i to values[i].
 * Return GZ_NBH_FIX to fix as marked (that search is incomplete),
 * GZ_NBH_COMPLETE to fix nothing and search completely (if that search
 * ends without reaching its restart cutoff, the whole search is complete:
 * optimality or unsatisfiability is proven) or GZ_NBH_DEFAULT.
 * Notes: the search of restart 0 has a cutoff of 0 failures (as in
 * fzn-gecode), so it ends at its first failure or first solution; after
 * every solution the search restarts (restart numbers count these too);
 * the callback runs on the thread that called gz_solve. */
enum { GZ_RESTART_FROM_MODEL = -1, GZ_RESTART_NONE = 0, GZ_RESTART_CONSTANT,
       GZ_RESTART_LINEAR, GZ_RESTART_LUBY, GZ_RESTART_GEOMETRIC };
typedef int (*gz_neighbourhood_fn)(void *ctx, long long restart, int n,
                                   const int *values, int have_solution,
                                   unsigned char *fix);

typedef struct gz_params {
  double time_limit;      /* wall-clock seconds, <= 0: none */
  int threads;            /* search threads, 0 = all cores (default 1) */
  unsigned seed;          /* random seed (branching and Gecode's LNS) */
  int restart;            /* GZ_RESTART_*; FROM_MODEL (default) uses the
                             restart_* solve annotations */
  double restart_base;    /* geometric base, default 1.5 */
  unsigned restart_scale; /* cutoff scale in failures, default 250 */
  volatile int *stop;     /* if not NULL: stop as soon as *stop != 0 */
  gz_solution_fn on_solution;
  void *ctx;
  gz_neighbourhood_fn neighbourhood; /* NULL: Gecode's own LNS behaviour */
  void *nbh_ctx;
} gz_params;

/* Defaults: no time limit, 1 thread, seed 0, restarts from the model,
 * base 1.5, scale 250, no stop flag, no callbacks. */
void gz_params_init(gz_params *p);

/* Parse the FlatZinc text fzn[0..len) and solve it.  Restart-based search
 * is used when the restart mode (from p->restart or the model) is not none,
 * or when p->neighbourhood is set or the model has a relax_and_reconstruct
 * annotation (then Luby restarts with p->restart_scale unless a mode is
 * given).  p may be NULL (defaults), stats may be NULL.  On GZ_ERROR a
 * message is written to err (if err and errlen are nonzero).  Never throws,
 * never exits, never writes to stdout (Gecode may warn on stderr about
 * unsupported search annotations). */
gz_status gz_solve(const char *fzn, size_t len, const gz_params *p,
                   gz_stats *stats, char *err, size_t errlen);

/* Gecode's version string, e.g. "6.2.0". */
const char *gz_version(void);

#ifdef __cplusplus
}
#endif

#endif
