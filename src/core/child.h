/* child.h -- child processes, and the one policy that stops them.
 *
 * Two kinds of children:
 *
 * - A function run in a forked child (child_start, child_wait, child_run).
 *   CBC and Clp do not look at the clock everywhere: CBC's root LP (a dual
 *   simplex in CbcModel::initialSolve) ignores both its time limit and the
 *   cut callback remat stops it with, and on a dense 150-node graph (1.3
 *   million rows) it runs for minutes.  Calls that must end on time
 *   therefore run in a child: it writes its answer into memory shared with
 *   the parent (child_shared) and exits.  SIGTERM sets, in the child, the
 *   flag child_stopping() reads, which the solver's callbacks poll.  Where
 *   fork fails the function runs in this process.
 *
 * - A command exec'd in a process group of its own (child_spawn): an
 *   external FlatZinc solver with its stdout and stderr in pipes, a batch
 *   job's `remat solve` with both in a log file.  A terminal's Ctrl-C
 *   reaches remat only, which stops its children itself.
 *
 * The stop policy (child_stop, then child_poll until it returns 1): SIGTERM,
 * and SIGKILL `grace` seconds later if the child has not ended.  A command's
 * whole process group gets both (a wrapper script's own children too), and
 * once its leader has ended remat reads its pipes for at most `grace` more
 * seconds: a grandchild that inherited them (and left the group) cannot
 * keep remat waiting.  When the leader has ended, what is left of its group
 * is killed, so no process outlives the command.
 *
 * Fork only while this process has one thread (child_start, then
 * child_wait once threads run): a child forked while another thread holds
 * an allocator's lock waits for it forever (glibc's malloc guards against
 * that; the sanitizers' allocators do not).  child_spawn may run in any
 * thread: its child calls only async-signal-safe functions before exec. */
#ifndef REMAT_CHILD_H
#define REMAT_CHILD_H

#include <stddef.h>
#include <sys/types.h>

/* Zeroed memory shared with a child forked later (exits like util_malloc
 * when it cannot be mapped); free it with child_shared_free and the same
 * size. */
void *child_shared(size_t bytes);
void child_shared_free(void *p, size_t bytes);

/* A started child: read the fields, change them only through child_*. */
typedef struct child {
  pid_t pid;     /* -1: none (fn ran in this process, or reaped) */
  double t0;     /* when it started (util_now) */
  int group;     /* pid leads a process group: signals go to the group */
  int out, err;  /* read ends of its stdout and stderr pipes, -1: none */
  double asked;  /* when SIGTERM was sent (util_now), < 0: not asked */
  int killed;    /* SIGKILL was sent */
  double ended;  /* when its end was seen, < 0: running */
  int status;    /* its wait status, once child_poll returned 1 */
  int nice;      /* its scheduling priority as last set or inherited */
} child;

/* --------------------------------------------------- forked functions */

/* How child_wait ended. */
typedef enum child_end {
  CHILD_DONE = 0,    /* fn returned in the child */
  CHILD_INPROC = 1,  /* fork failed: fn ran in this process */
  CHILD_KILLED = 2,  /* stopped at the deadline or the stop flag, and
                        killed after the grace period: fn did not return */
  CHILD_CRASHED = 3  /* the child died of a signal of its own */
} child_end;

/* Run fn(ctx) in a child, or here when fork fails. */
void child_start(child *c, void (*fn)(void *ctx), void *ctx);

/* Wait for c: until `seconds` after its start, then the stop policy with
 * `grace`; halt(hctx) (halt may be NULL), polled every 10 ms, starts it at
 * once.  *signo (may be NULL) receives the signal a crashed child died
 * of. */
child_end child_wait(child *c, double seconds, double grace,
                     int (*halt)(void *hctx), void *hctx, int *signo);

/* child_start, then child_wait. */
child_end child_run(void (*fn)(void *ctx), void *ctx, double seconds,
                    double grace, int (*halt)(void *hctx), void *hctx,
                    int *signo);

/* Give c the lowest scheduling priority (nice 19): it runs on what the
 * other processes leave.  child_wait passes a process's own nice on to
 * the child it waits for, so a forked function's children follow it.
 * Returns 0, or -1 (c not running, or the call failed). */
int child_yield(child *c);

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

/* ---------------------------------------------------- exec'd commands */

/* How child_spawn starts a command. */
typedef struct child_cmd {
  const char *path;   /* the file to exec; NULL: argv[0], searched in PATH */
  int capture;        /* stdout and stderr into pipes (c->out, c->err) */
  const char *log;    /* without capture: stdout and stderr to this file
                         (created or truncated); NULL: remat's own */
  int null_stdin;     /* stdin from /dev/null */
  int death_signal;   /* sent to the command when remat (the thread that
                         spawned it) dies; 0: none */
} child_cmd;

/* No capture, no log, remat's stdin, no death signal, argv[0] in PATH. */
void child_cmd_init(child_cmd *o);

/* Start argv (NULL-terminated) as the leader of a new process group.
 * Returns 0, or -1 with a message ("cannot run X: reason") when the pipes,
 * the log, fork or exec fail (then there is no child). */
int child_spawn(child *c, char *const *argv, const child_cmd *o, char *err,
                size_t errlen);

/* Receives what a command writes: stream 1 (stdout) or 2 (stderr). */
typedef void (*child_sink)(void *ctx, int stream, const char *buf, size_t n);

/* Ask c to stop: SIGTERM (to its group for a command), once. */
void child_stop(child *c);

/* One step of the stop policy: read c's pipes for up to wait_ms
 * milliseconds (or sleep that long), passing the bytes to sink(ctx, ...)
 * (sink may be NULL when nothing is captured); SIGKILL `grace` seconds
 * after child_stop.  Returns 1 once c has ended - the leader has exited
 * and its pipes are closed or were read for `grace` seconds after that -
 * with c->status set, the rest of its group killed and the leader reaped
 * (c->pid is then -1); else 0. */
int child_poll(child *c, double grace, int wait_ms, child_sink sink,
               void *ctx);

#endif
