/* unit_child.c -- child processes (child.h): a command's stdout and stderr
 * in pipes or a log file, a program that does not exist, the stop policy
 * on a whole process group (SIGTERM ignored: SIGKILL after the grace),
 * no wait on pipes a grandchild holds after the leader ended, the rest of
 * a group killed when its leader ends, and forked functions (done, killed,
 * crashed, stopped at once, and a yield passed on to a child's child). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

#include "child.h"
#include "sig.h"
#include "util.h"

typedef struct captured {
  util_buf out, err;
} captured;

static void capture(void *ctx, int stream, const char *buf, size_t n) {
  captured *k = ctx;
  util_buf *b = stream == 1 ? &k->out : &k->err;
  for (size_t i = 0; i < n; i++) util_buf_putc(b, buf[i]);
}

static const char *text(const util_buf *b) { return b->s ? b->s : ""; }

/* Run sh -c SCRIPT with captured output until it ends (stop it after
 * stop_after seconds when >= 0); returns the seconds it took. */
static double run_sh(const char *script, double stop_after, double grace,
                     child *c, captured *k) {
  char *argv[] = {"sh", "-c", (char *)script, NULL};
  child_cmd o;
  child_cmd_init(&o);
  o.capture = 1;
  char err[256];
  assert_int_equal(child_spawn(c, argv, &o, err, sizeof err), 0);
  assert_true(c->pid > 0);
  double t0 = util_now();
  while (!child_poll(c, grace, 20, capture, k))
    if (stop_after >= 0 && util_now() - t0 >= stop_after) child_stop(c);
  assert_int_equal(c->pid, -1);
  return util_now() - t0;
}

/* 1 while pid is a live process (not a zombie). */
static int alive(long pid) {
  char path[64], buf[512];
  snprintf(path, sizeof path, "/proc/%ld/stat", pid);
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = 0;
  char *p = strrchr(buf, ')');
  return p && p[1] == ' ' && p[2] != 'Z' && p[2] != 'X';
}

/* A grandchild's pid, printed first by the script; waits (up to 2 s) for
 * a zombie to be reaped by init when `gone` is expected. */
static int gone_soon(long pid) {
  for (int i = 0; i < 200 && alive(pid); i++) child_nap();
  return !alive(pid);
}

static void test_capture(void **state) {
  (void)state;
  child c;
  captured k = {{0}, {0}};
  run_sh("echo out; echo err >&2; exit 3", -1, 1, &c, &k);
  assert_true(WIFEXITED(c.status));
  assert_int_equal(WEXITSTATUS(c.status), 3);
  assert_string_equal(text(&k.out), "out\n");
  assert_string_equal(text(&k.err), "err\n");
  assert_true(c.asked < 0);
  assert_int_equal(c.killed, 0);
  util_buf_free(&k.out);
  util_buf_free(&k.err);
}

static void test_missing_program(void **state) {
  (void)state;
  char *argv[] = {"/nonexistent/solver", "-a", NULL};
  child_cmd o;
  child_cmd_init(&o);
  o.capture = 1;
  child c;
  char err[256];
  assert_int_equal(child_spawn(&c, argv, &o, err, sizeof err), -1);
  assert_string_equal(err, "cannot run /nonexistent/solver: No such file or directory");
  assert_int_equal(c.pid, -1);
  char *argv2[] = {"no-such-program-remat-test", NULL};
  assert_int_equal(child_spawn(&c, argv2, &o, err, sizeof err), -1);
  assert_string_equal(err, "cannot run no-such-program-remat-test: No such file or directory");
}

static void test_log_file(void **state) {
  (void)state;
  char dir[] = "/tmp/remat-child-XXXXXX";
  assert_non_null(mkdtemp(dir));
  char log[128];
  snprintf(log, sizeof log, "%s/job.log", dir);
  char *argv[] = {"remat-as-sh", "-c", "cat; echo done; echo oops >&2; exit 2", NULL};
  child_cmd o;
  child_cmd_init(&o);
  o.path = "/bin/sh"; /* argv[0] is only a name */
  o.log = log;
  o.null_stdin = 1;   /* else cat would wait for the test's stdin */
  child c;
  char err[256];
  assert_int_equal(child_spawn(&c, argv, &o, err, sizeof err), 0);
  while (!child_poll(&c, 1, 10, NULL, NULL)) {
  }
  assert_int_equal(WEXITSTATUS(c.status), 2);
  size_t len;
  char *got = util_read_file(log, &len);
  assert_non_null(got);
  assert_string_equal(got, "done\noops\n");
  free(got);
  unlink(log);
  o.log = "/nonexistent/dir/job.log";
  assert_int_equal(child_spawn(&c, argv, &o, err, sizeof err), -1);
  assert_string_equal(err, "cannot write /nonexistent/dir/job.log: No such file or directory");
  rmdir(dir);
}

/* SIGTERM ignored by a script and by the child it started: both are
 * killed `grace` after the stop, the whole group at once. */
static void test_stop_deaf_group(void **state) {
  (void)state;
  child c;
  captured k = {{0}, {0}};
  double t = run_sh("trap '' TERM; sleep 30 & echo $!; while ! wait; do :; done",
                    0.3, 0.5, &c, &k);
  assert_true(t < 3.0);
  assert_int_equal(c.killed, 1);
  assert_true(WIFSIGNALED(c.status) && WTERMSIG(c.status) == SIGKILL);
  long grandchild = strtol(text(&k.out), NULL, 10);
  assert_true(grandchild > 0);
  assert_true(gone_soon(grandchild));
  util_buf_free(&k.out);
  util_buf_free(&k.err);
}

/* A script that ends on SIGTERM is not killed. */
static void test_stop_term(void **state) {
  (void)state;
  child c;
  captured k = {{0}, {0}};
  double t = run_sh("sleep 30", 0.2, 5, &c, &k);
  assert_true(t < 3.0);
  assert_int_equal(c.killed, 0);
  assert_true(WIFSIGNALED(c.status) && WTERMSIG(c.status) == SIGTERM);
}

/* The leader ends by itself; a child left in its group holds the pipes:
 * remat waits `grace`, then kills it. */
static void test_leftover_killed(void **state) {
  (void)state;
  child c;
  captured k = {{0}, {0}};
  double t = run_sh("sleep 30 & echo $!; exit 0", -1, 0.5, &c, &k);
  assert_true(t >= 0.4 && t < 3.0);
  assert_true(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0);
  long left = strtol(text(&k.out), NULL, 10);
  assert_true(left > 0);
  assert_true(gone_soon(left));
  util_buf_free(&k.out);
}

/* A grandchild in a session of its own holds the pipes: remat cannot
 * kill it, and stops waiting for it after the grace. */
static void test_escaped_pipe(void **state) {
  (void)state;
  child c;
  captured k = {{0}, {0}};
  double t = run_sh("setsid sleep 30 & echo $!; exit 0", -1, 0.5, &c, &k);
  assert_true(t < 3.0);
  long escaped = strtol(text(&k.out), NULL, 10);
  assert_true(escaped > 0);
  kill((pid_t)escaped, SIGKILL); /* this test started it */
  util_buf_free(&k.out);
}

static void fn_return(void *ctx) { (void)ctx; }
static void fn_sleep(void *ctx) {
  (void)ctx;
  signal(SIGTERM, SIG_IGN); /* deaf: only SIGKILL ends it */
  sleep(30);
}
static void fn_crash(void *ctx) {
  (void)ctx;
  signal(SIGABRT, SIG_DFL);
  raise(SIGABRT); /* not SIGSEGV: ASan catches that one */
}

static void test_forked_functions(void **state) {
  (void)state;
  int signo = -1;
  assert_int_equal(child_run(fn_return, NULL, 10, 1, NULL, NULL, &signo), CHILD_DONE);
  assert_int_equal(signo, 0);
  double t0 = util_now();
  assert_int_equal(child_run(fn_sleep, NULL, 0.2, 0.3, NULL, NULL, &signo), CHILD_KILLED);
  assert_true(util_now() - t0 < 3.0);
  assert_int_equal(child_run(fn_crash, NULL, 10, 1, NULL, NULL, &signo), CHILD_CRASHED);
  assert_int_equal(signo, SIGABRT);
}

/* Waits up to 2 s for the stop request; says in *ctx whether it came. */
static void fn_wait_stop(void *ctx) {
  int *saw = ctx;
  double t0 = util_now();
  while (!child_stopping() && util_now() - t0 < 2) child_nap();
  *saw = child_stopping();
}

/* A stop sent at once (its deadline passed before the start) reaches the
 * child's own handler, not remat's (sig.h) inherited across the fork:
 * that one printed "interrupted" in the child, and the child, never told
 * to stop, ran to its kill. */
static void test_stop_at_once(void **state) {
  (void)state;
  sig_install();
  int *saw = child_shared(sizeof *saw);
  for (int i = 0; i < 40; i++) {
    *saw = -1;
    assert_int_equal(child_run(fn_wait_stop, saw, 0, 5, NULL, NULL, NULL), CHILD_DONE);
    assert_int_equal(*saw, 1);
  }
  child_shared_free(saw, sizeof *saw);
  sig_restore();
}

/* What the processes of test_yield saw. */
typedef struct yield_seen {
  int started, go;      /* the grandchild runs; the test has yielded */
  int child, grandchild; /* their nice at the end */
} yield_seen;

/* The grandchild: waits (up to 5 s) until its parent has passed the
 * yield on. */
static void fn_yield_grandchild(void *ctx) {
  yield_seen *y = ctx;
  __atomic_store_n(&y->started, 1, __ATOMIC_RELEASE);
  double t0 = util_now();
  while (!__atomic_load_n(&y->go, __ATOMIC_ACQUIRE) && util_now() - t0 < 5) child_nap();
  while (getpriority(PRIO_PROCESS, 0) < 19 && util_now() - t0 < 5) child_nap();
  y->grandchild = getpriority(PRIO_PROCESS, 0);
}

static void fn_yield_child(void *ctx) {
  yield_seen *y = ctx;
  child_run(fn_yield_grandchild, y, 10, 1, NULL, NULL, NULL);
  y->child = getpriority(PRIO_PROCESS, 0);
}

/* child_yield lowers a forked function's priority, and child_wait in it
 * passes that on to the child it waits for, forked before the yield. */
static void test_yield(void **state) {
  (void)state;
  int own = getpriority(PRIO_PROCESS, 0);
  yield_seen *y = child_shared(sizeof *y);
  y->child = y->grandchild = -100;
  child c;
  child_start(&c, fn_yield_child, y);
  double t0 = util_now();
  while (!__atomic_load_n(&y->started, __ATOMIC_ACQUIRE) && util_now() - t0 < 5) child_nap();
  assert_int_equal(y->started, 1);
  assert_int_equal(child_yield(&c), 0);
  __atomic_store_n(&y->go, 1, __ATOMIC_RELEASE);
  assert_int_equal(child_wait(&c, 10, 1, NULL, NULL, NULL), CHILD_DONE);
  assert_int_equal(y->child, 19);
  assert_int_equal(y->grandchild, 19);
  assert_int_equal(child_yield(&c), -1); /* ended */
  assert_int_equal(getpriority(PRIO_PROCESS, 0), own); /* the caller's is its own */
  child_shared_free(y, sizeof *y);
}

UNIT_TESTS(test_capture, test_missing_program, test_log_file,
           test_stop_deaf_group, test_stop_term, test_leftover_killed,
           test_escaped_pipe, test_forked_functions, test_stop_at_once, test_yield)
