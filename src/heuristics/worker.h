/* worker.h -- what every search gets from whoever runs it: the C
 * heuristics (heur.h), the annealing (anneal.h) and the window search
 * (window_search.h) take one worker_io, filled by the portfolio's workers
 * (best.h: best_io), the MILP's start (seeds.h) or a test.
 *
 * A search reports each schedule it finds (its own improvements), may
 * move to a better schedule found elsewhere (poll), stops when asked
 * (stop, halt), and says how far it got every so often (tick).  Every
 * callback is optional. */
#ifndef REMAT_WORKER_H
#define REMAT_WORKER_H

typedef struct worker_io {
  /* a schedule found, named for the progress lines ("greedy", "anneal",
   * "window"...): return nonzero to stop */
  int (*report)(void *ctx, const int *seq, int len, const char *name);
  /* a better schedule found elsewhere: return 1 and an allocated copy
   * (seq[0..len)) to move there, 0 for none */
  int (*poll)(void *ctx, int **seq, int *len);
  /* nonzero to stop (polled like stop) */
  int (*halt)(void *ctx);
  /* progress: count is the search's own unit (moves, windows) */
  void (*tick)(void *ctx, long long count);
  void *ctx;          /* passed to every callback */
  volatile int *stop; /* stop when nonzero (NULL: never) */
  unsigned seed;      /* the search's random seed (1) */
} worker_io;

/* No callbacks, no stop flag, seed 1. */
void worker_io_init(worker_io *io);

/* io->report's answer (0 without one). */
int worker_report(const worker_io *io, const int *seq, int len, const char *name);

/* Stop or halt asked. */
int worker_halted(const worker_io *io);

/* io->poll's answer (0 without one). */
int worker_poll(const worker_io *io, int **seq, int *len);

/* io->tick, if any. */
void worker_tick(const worker_io *io, long long count);

#endif
