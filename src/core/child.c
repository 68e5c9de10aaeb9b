/* child.c -- a solver call in a forked child, with a deadline. */
#include "child.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "sig.h"
#include "util.h"

static volatile sig_atomic_t child_term;
static int child_in; /* this process is a child of child_start */

int child_stopping(void) { return child_term != 0; }

void *child_shared(size_t bytes) {
  void *p = mmap(NULL, bytes ? bytes : 1, PROT_READ | PROT_WRITE,
                 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) util_oom();
  return p; /* anonymous maps are zeroed */
}

void child_shared_free(void *p, size_t bytes) {
  if (p) munmap(p, bytes ? bytes : 1);
}

static void child_on_signal(int signo) {
  (void)signo;
  child_term = 1;
}

/* In the child: stop on SIGTERM or SIGINT (a terminal's Ctrl-C reaches
 * the whole process group), and die with the parent. */
static void child_setup(void) {
  sig_catch(child_on_signal);
  child_term = 0;
  child_in = 1;
#ifdef __linux__
  prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
}

void child_deadline(double seconds) {
  if (!child_in) return;
  signal(SIGALRM, SIG_DFL); /* its default action ends the process */
  alarm(seconds < 1 ? 1u : (unsigned)ceil(seconds));
}

void child_nap(void) {
  struct timespec ts = {0, 10 * 1000 * 1000}; /* 10 ms */
  nanosleep(&ts, NULL);
}

/* Wait for pid; returns 1 when it has ended (status set). */
static int child_reaped(pid_t pid, int *status) {
  pid_t w = waitpid(pid, status, WNOHANG);
  return w == pid || (w < 0 && errno != EINTR);
}

void child_start(child *c, void (*fn)(void *ctx), void *ctx) {
  fflush(NULL);
  c->t0 = util_now();
  c->pid = fork();
  if (c->pid < 0) {
    fn(ctx);
    return;
  }
  if (c->pid == 0) {
    child_setup();
    fn(ctx);
    _exit(0); /* no atexit handlers, no leak check: the parent goes on */
  }
}

child_end child_wait(child *c, double seconds, double grace,
                     int (*halt)(void *hctx), void *hctx, int *signo) {
  if (signo) *signo = 0;
  if (c->pid < 0) return CHILD_INPROC;
  double asked = -1;
  int status = 0, killed = 0;
  while (!child_reaped(c->pid, &status)) {
    double now = util_now();
    if (asked < 0 && (now - c->t0 >= seconds || (halt && halt(hctx)))) {
      kill(c->pid, SIGTERM);
      asked = now;
    }
    if (asked >= 0 && !killed && now - asked >= grace) {
      kill(c->pid, SIGKILL);
      killed = 1;
    }
    child_nap();
  }
  c->pid = -1;
  if (WIFEXITED(status) && !killed) return CHILD_DONE;
  if (WIFSIGNALED(status) && !killed && WTERMSIG(status) != SIGTERM) {
    if (signo) *signo = WTERMSIG(status);
    return CHILD_CRASHED;
  }
  return CHILD_KILLED;
}

child_end child_run(void (*fn)(void *ctx), void *ctx, double seconds,
                    double grace, int (*halt)(void *hctx), void *hctx,
                    int *signo) {
  child c;
  child_start(&c, fn, ctx);
  return child_wait(&c, seconds, grace, halt, hctx, signo);
}
