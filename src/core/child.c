/* child.c -- child processes and their stop policy (see child.h). */
#include "child.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
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

static void child_sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000 * 1000};
  nanosleep(&ts, NULL);
}

void child_nap(void) { child_sleep_ms(10); }

static void child_clear(child *c) {
  memset(c, 0, sizeof *c);
  c->pid = -1;
  c->out = c->err = -1;
  c->asked = c->ended = -1;
}

/* ------------------------------------------------------- stop policy */

static void child_signal(const child *c, int signo) {
  kill(c->group ? -c->pid : c->pid, signo);
}

void child_stop(child *c) {
  if (c->pid < 0 || c->asked >= 0) return;
  child_signal(c, SIGTERM);
  c->asked = util_now();
}

/* Has the leader ended?  Looked at without reaping it: a zombie keeps its
 * pid, and so its process group's id, from being used again until then. */
static int child_exited(child *c) {
  siginfo_t info;
  memset(&info, 0, sizeof info);
  if (!waitid(P_PID, (id_t)c->pid, &info, WEXITED | WNOHANG | WNOWAIT))
    return info.si_pid != 0;
  if (errno == EINTR) return 0;
  c->group = 0; /* reaped elsewhere: its group's id may be reused; no kill */
  return 1;
}

static void child_close(int *fd) {
  if (*fd >= 0) close(*fd);
  *fd = -1;
}

/* Read what the open pipes hold, waiting up to wait_ms for the first
 * bytes; a pipe at its end is closed.  Returns the bytes read. */
static size_t child_pump(child *c, int wait_ms, child_sink sink, void *ctx) {
  struct pollfd fds[2] = {{c->out, POLLIN, 0}, {c->err, POLLIN, 0}};
  if (c->out < 0 && c->err < 0) {
    if (wait_ms > 0) child_sleep_ms(wait_ms);
    return 0;
  }
  int rc = poll(fds, 2, wait_ms); /* negative fds are skipped */
  if (rc <= 0) return 0;
  size_t total = 0;
  for (int i = 0; i < 2; i++) {
    int *fd = i ? &c->err : &c->out;
    if (*fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    char buf[65536];
    ssize_t n = read(*fd, buf, sizeof buf);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) {
      child_close(fd);
      continue;
    }
    if (sink) sink(ctx, i + 1, buf, (size_t)n);
    total += (size_t)n;
  }
  return total;
}

/* The leader has ended: take what the pipes still hold (a bounded amount:
 * a grandchild may write forever), close them, kill what is left of the
 * group, reap the leader. */
static void child_finish(child *c, child_sink sink, void *ctx) {
  for (int round = 0; round < 64 && child_pump(c, 0, sink, ctx); round++) {
  }
  child_close(&c->out);
  child_close(&c->err);
  if (c->group) child_signal(c, SIGKILL);
  int status = 0;
  while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR) {
  }
  c->status = status;
  c->pid = -1;
}

int child_poll(child *c, double grace, int wait_ms, child_sink sink,
               void *ctx) {
  if (c->pid < 0) return 1;
  child_pump(c, wait_ms, sink, ctx);
  double now = util_now();
  if (c->ended < 0 && child_exited(c)) c->ended = now;
  int piped = c->out >= 0 || c->err >= 0;
  if (c->asked >= 0 && !c->killed && now - c->asked >= grace &&
      (c->ended < 0 || (piped && c->group))) {
    child_signal(c, SIGKILL);
    c->killed = 1;
  }
  if (c->ended < 0 || (piped && now - c->ended < grace)) return 0;
  child_finish(c, sink, ctx);
  return 1;
}

/* -------------------------------------------------- forked functions */

static int child_own_nice(void) {
  errno = 0;
  int nice = getpriority(PRIO_PROCESS, 0);
  return errno ? 0 : nice;
}

/* SIGINT and SIGTERM are held from before the fork until the child has
 * its own handlers: a stop sent at once (a deadline already passed) would
 * otherwise run the parent's handler in the child, which prints the
 * parent's "interrupted" line, and the child would never see the
 * request. */
void child_start(child *c, void (*fn)(void *ctx), void *ctx) {
  child_clear(c);
  fflush(NULL);
  c->t0 = util_now();
  c->nice = child_own_nice();
  sigset_t stops, old;
  sigemptyset(&stops);
  sigaddset(&stops, SIGINT);
  sigaddset(&stops, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stops, &old);
  c->pid = fork();
  if (c->pid == 0) {
    child_setup();
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    fn(ctx);
    _exit(0); /* no atexit handlers, no leak check: the parent goes on */
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (c->pid < 0) fn(ctx);
}

int child_yield(child *c) {
  if (c->pid <= 0 || c->ended >= 0) return -1;
  if (setpriority(PRIO_PROCESS, (id_t)c->pid, 19)) return -1;
  c->nice = 19;
  return 0;
}

/* A process that was given a lower priority (child_yield) while waiting
 * for its own child passes it on. */
static void child_follow_nice(child *c) {
  int nice = child_own_nice();
  if (nice > c->nice && !setpriority(PRIO_PROCESS, (id_t)c->pid, nice)) c->nice = nice;
}

child_end child_wait(child *c, double seconds, double grace,
                     int (*halt)(void *hctx), void *hctx, int *signo) {
  if (signo) *signo = 0;
  if (c->pid < 0) return CHILD_INPROC;
  while (!child_poll(c, grace, 0, NULL, NULL)) {
    if (c->asked < 0 &&
        (util_now() - c->t0 >= seconds || (halt && halt(hctx))))
      child_stop(c);
    else
      child_nap();
    child_follow_nice(c);
  }
  int status = c->status;
  if (WIFEXITED(status) && !c->killed) return CHILD_DONE;
  if (WIFSIGNALED(status) && !c->killed && WTERMSIG(status) != SIGTERM) {
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

/* --------------------------------------------------- exec'd commands */

void child_cmd_init(child_cmd *o) { memset(o, 0, sizeof *o); }

/* In the forked child, before exec: async-signal-safe calls only. */
static void child_exec(char *const *argv, const child_cmd *o, pid_t parent,
                       int in, int out, int err, int report) {
  setpgid(0, 0);
#ifdef __linux__
  if (o->death_signal) {
    prctl(PR_SET_PDEATHSIG, o->death_signal);
    if (getppid() != parent) _exit(127); /* remat died before that */
  }
#else
  (void)parent;
#endif
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  if (in >= 0) dup2(in, 0);
  if (out >= 0) dup2(out, 1);
  if (err >= 0) dup2(err, 2);
  if (o->path)
    execv(o->path, argv);
  else
    execvp(argv[0], argv);
  int e = errno;
  ssize_t rc = write(report, &e, sizeof e);
  (void)rc;
  _exit(127);
}

int child_spawn(child *c, char *const *argv, const child_cmd *o, char *err,
                size_t errlen) {
  child_clear(c);
  const char *what = o->path ? o->path : argv[0];
  int po[2] = {-1, -1}, pe[2] = {-1, -1}, ps[2] = {-1, -1}, in = -1, log = -1;
  int rc = 0;
  if (o->capture && (pipe2(po, O_CLOEXEC) || pipe2(pe, O_CLOEXEC)))
    rc = util_err(err, errlen, -1, "cannot run %s: %s", what, strerror(errno));
  if (!rc && !o->capture && o->log &&
      (log = open(o->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) < 0)
    rc = util_err(err, errlen, -1, "cannot write %s: %s", o->log,
                  strerror(errno));
  if (!rc && o->null_stdin && (in = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0)
    rc = util_err(err, errlen, -1, "cannot open /dev/null: %s", strerror(errno));
  if (!rc && pipe2(ps, O_CLOEXEC))
    rc = util_err(err, errlen, -1, "cannot run %s: %s", what, strerror(errno));
  pid_t pid = -1;
  if (!rc) {
    pid_t parent = getpid();
    pid = fork();
    if (pid == 0)
      child_exec(argv, o, parent, in, o->capture ? po[1] : log,
                 o->capture ? pe[1] : log, ps[1]);
    if (pid < 0)
      rc = util_err(err, errlen, -1, "cannot run %s: %s", what,
                    strerror(errno));
  }
  child_close(&po[1]);
  child_close(&pe[1]);
  child_close(&ps[1]);
  child_close(&in);
  child_close(&log);
  if (pid > 0) {
    setpgid(pid, pid); /* also here: signals may follow before the child runs */
    int e = 0;
    ssize_t n;
    while ((n = read(ps[0], &e, sizeof e)) < 0 && errno == EINTR) {
    }
    if (n == (ssize_t)sizeof e) { /* exec failed */
      while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
      }
      rc = util_err(err, errlen, -1, "cannot run %s: %s", what, strerror(e));
    }
  }
  child_close(&ps[0]);
  if (rc) {
    child_close(&po[0]);
    child_close(&pe[0]);
    return -1;
  }
  c->pid = pid;
  c->t0 = util_now();
  c->group = 1;
  c->out = po[0];
  c->err = pe[0];
  return 0;
}
