/* child.h -- run a solver call in a forked child process, with a deadline.
 *
 * CBC and Clp do not look at the clock everywhere: CBC's root LP (a dual
 * simplex in CbcModel::initialSolve) ignores both its time limit and the
 * cut callback remat stops it with, and on a dense 150-node graph (1.3
 * million rows) it runs for minutes.  Calls that must end on time
 * therefore run in a child: it writes its answer into memory shared with
 * the parent (child_shared) and exits; the parent waits until the
 * deadline or the stop flag, then asks the child to stop (SIGTERM: in the
 * child it sets the flag child_stopping() reads, which the solver's
 * callbacks poll), and kills it when it has not ended `grace` seconds
 * later.  Where fork fails the function runs in this process, as before.
 *
 * Fork only while this process has one thread (child_start, then
 * child_wait once threads run): a child forked while another thread
 * holds an allocator's lock waits for it forever (glibc's malloc guards
 * against that; the sanitizers' allocators do not). */
#ifndef REMAT_CHILD_H
#define REMAT_CHILD_H

#include <stddef.h>
#include <sys/types.h>

/* Zeroed memory shared with a child forked later (exits like util_malloc
 * when it cannot be mapped); free it with child_shared_free and the same
 * size. */
void *child_shared(size_t bytes);
void child_shared_free(void *p, size_t bytes);

/* How child_run ended. */
typedef enum child_end {
  CHILD_DONE = 0,    /* fn returned in the child */
  CHILD_INPROC = 1,  /* fork failed: fn ran in this process */
  CHILD_KILLED = 2,  /* stopped at the deadline or the stop flag, and
                        killed after the grace period: fn did not return */
  CHILD_CRASHED = 3  /* the child died of a signal of its own */
} child_end;

/* A started child. */
typedef struct child {
  pid_t pid; /* -1: fn ran in this process, or the child was reaped */
  double t0; /* when it started (util_now) */
} child;

/* Run fn(ctx) in a child, or here when fork fails. */
void child_start(child *c, void (*fn)(void *ctx), void *ctx);

/* Wait for c: until `seconds` after its start, then SIGTERM, then SIGKILL
 * after `grace` more seconds; halt(hctx) (halt may be NULL), polled every
 * 10 ms, asks it to stop at once the same way.  *signo (may be NULL)
 * receives the signal a crashed child died of. */
child_end child_wait(child *c, double seconds, double grace,
                     int (*halt)(void *hctx), void *hctx, int *signo);

/* child_start, then child_wait. */
child_end child_run(void (*fn)(void *ctx), void *ctx, double seconds,
                    double grace, int (*halt)(void *hctx), void *hctx,
                    int *signo);

/* Nonzero in a child asked to stop. */
int child_stopping(void);

/* In a child of child_start: end it (SIGALRM) `seconds` from now, rounded
 * up to whole seconds, whatever it is doing (CBC's root LP does not look
 * at the clock) - for children nobody waits for until the end.  Nothing
 * when fn runs in this process because fork failed. */
void child_deadline(double seconds);

/* Sleep 10 ms: the polling interval of child_wait (and of a child waiting
 * for its parent). */
void child_nap(void);

#endif
