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
  long long nodes, fails;
  long long restarts;     /* Gecode's count: cutoffs reached + solutions
                             found; a restart after an incomplete search
                             that ran out of nodes is not counted, and with
                             threads > 1 it is inflated (every worker's
                             cutoff check counts); see searches */
  long long propagations; /* includes the propagation at the root */
  long long solutions;    /* solutions reported (callback calls) */
  int depth;              /* peak depth of the search stack */
  double seconds;         /* wall time of gz_solve, parsing included */
  long long searches;     /* searches started by restart-based search, i.e.
                             every restart + 1 (0 without restarts) */
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
 * the first one.
 *   restart index of this search: 0 for the first, then 1, 2, ... (this is
 *           gz_stats.searches - 1, not Gecode's restart count);
 *   n       number of LNS variables: the int variables of the model's
 *           relax_and_reconstruct annotation, in order (0 without one);
 *   values  the LNS variables' values in the last solution found
 *           (have_solution = 1), or else the annotation's initial values
 *           (have_solution = 0), or NULL if there are neither;
 *   fix     n zeroed flags; set fix[i] = 1 to fix variable i to values[i].
 * The callback may overwrite values[] (a copy) to fix variables to another
 * assignment, e.g. to move the search to a solution found elsewhere.
 * Return GZ_NBH_FIX to fix as marked (that search is incomplete; with
 * values == NULL nothing is fixed), GZ_NBH_COMPLETE to fix nothing and
 * search completely (if that search ends without reaching its restart
 * cutoff, the whole search is complete: optimality or unsatisfiability is
 * proven) or GZ_NBH_DEFAULT (Gecode keeps a random ~70% of the LNS
 * variables, but only once its own restart count is nonzero; before that
 * and without relax_and_reconstruct it searches completely).
 * Notes: a new search starts after every solution, after every search
 * that reached its cutoff and after every incomplete search that ran out
 * of nodes.  The cutoff sequence is, as in fzn-gecode, 0 failures first
 * and then the restart sequence; Gecode's append makes the first two
 * cutoffs 0, so the first two cutoff periods end at their first failure
 * (a search that follows a solution keeps the current cutoff).  The
 * callback runs on the thread that called gz_solve, also with threads > 1,
 * and is not called any more once the time limit or stop flag is due. */
typedef int (*gz_neighbourhood_fn)(void *ctx, long long restart, int n,
                                   int *values, int have_solution,
                                   unsigned char *fix);

/* Restart modes (gz_params.restart); the cutoff sequences count failures:
 * constant: scale, scale, ...; linear: scale, 2 scale, ...; luby: scale
 * times the Luby sequence; geometric: scale * base^i. */
enum { GZ_RESTART_FROM_MODEL = -1, GZ_RESTART_NONE = 0, GZ_RESTART_CONSTANT,
       GZ_RESTART_LINEAR, GZ_RESTART_LUBY, GZ_RESTART_GEOMETRIC };

typedef struct gz_params {
  double time_limit;      /* wall-clock seconds from the call of gz_solve
                             (parsing included), <= 0: none (so a caller
                             with no time left must not call at all) */
  int threads;            /* search threads, 0 = all cores (default 1).
                             Restarts are slow with threads > 1 (a few
                             ms each, ~1 us with 1 thread): use 1 for LNS */
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

/* Parse the FlatZinc text fzn[0..len) and solve it: branching as in
 * fzn-gecode (search annotations honoured), BAB for minimize/maximize, DFS
 * for satisfy.  Restart-based search (RBS) is used when the restart mode
 * (p->restart, or the model's restart_* annotation) is not none, or when
 * p->neighbourhood is set or the model has a relax_and_reconstruct
 * annotation (then Luby restarts with p->restart_scale unless a mode is
 * given).  The time limit and stop flag are checked during search and at
 * every restart, not while parsing.  p may be NULL (defaults), stats may be
 * NULL.  On GZ_ERROR a message (parser or Gecode error) is written to err
 * if err and errlen are nonzero.  Never throws, never exits, never writes
 * to stdout (Gecode may warn on stderr about unsupported search
 * annotations).  No global state of its own: concurrent calls from
 * several threads work, but let one call finish first, since Gecode's
 * kernel initialises a global mutex lazily without synchronisation
 * (ThreadSanitizer reports a race in Kernel::SharedMemory::m() otherwise). */
gz_status gz_solve(const char *fzn, size_t len, const gz_params *p,
                   gz_stats *stats, char *err, size_t errlen);

/* Solve a trivial model once, so that Gecode's lazily initialised globals
 * exist before several threads call gz_solve at the same time. */
void gz_warmup(void);

/* Gecode's version string, e.g. "6.2.0". */
const char *gz_version(void);

#ifdef __cplusplus
}
#endif

#endif
