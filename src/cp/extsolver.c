/* extsolver.c -- external FlatZinc solvers as child processes. */
#define _POSIX_C_SOURCE 200809L
#include "extsolver.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

#define EXT_MAX_ARGS 64

/* Split at blanks; no quoting beyond that. */
static int ext_split(char *cmd, char **argv) {
  int n = 0;
  for (char *t = strtok(cmd, " \t"); t && n < EXT_MAX_ARGS - 3;
       t = strtok(NULL, " \t"))
    argv[n++] = t;
  return n;
}

typedef struct ext_run {
  const ext_params *p;
  util_buf sol;       /* current solution text */
  util_buf line;      /* partial line */
  char errtail[2048]; /* last stderr bytes */
  size_t errlen;
  int solutions, complete, unsat, unknown, stop_asked;
} ext_run;

static void ext_line(ext_run *r, const char *line) {
  if (!strcmp(line, "----------")) {
    r->solutions++;
    if (r->p->on_solution &&
        r->p->on_solution(r->p->ctx, r->sol.s ? r->sol.s : ""))
      r->stop_asked = 1;
    r->sol.len = 0;
    if (r->sol.s) r->sol.s[0] = 0;
  } else if (!strcmp(line, "==========")) {
    r->complete = 1;
  } else if (!strcmp(line, "=====UNSATISFIABLE=====")) {
    r->unsat = 1;
  } else if (!strncmp(line, "=====", 5)) {
    r->unknown = 1;
  } else if (line[0] != '%') {
    util_buf_puts(&r->sol, line);
    util_buf_putc(&r->sol, '\n');
  }
}

static void ext_feed(ext_run *r, const char *buf, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (buf[i] == '\n') {
      ext_line(r, r->line.s ? r->line.s : "");
      r->line.len = 0;
      if (r->line.s) r->line.s[0] = 0;
    } else {
      util_buf_putc(&r->line, buf[i]);
    }
  }
}

static void ext_err_feed(ext_run *r, const char *buf, size_t n) {
  size_t cap = sizeof r->errtail - 1;
  if (n >= cap) {
    memcpy(r->errtail, buf + n - cap, cap);
    r->errlen = cap;
  } else {
    if (r->errlen + n > cap) {
      size_t drop = r->errlen + n - cap;
      memmove(r->errtail, r->errtail + drop, r->errlen - drop);
      r->errlen -= drop;
    }
    memcpy(r->errtail + r->errlen, buf, n);
    r->errlen += n;
  }
  r->errtail[r->errlen] = 0;
}

static pid_t ext_spawn(char **argv, int *out_fd, int *err_fd) {
  int po[2], pe[2];
  if (pipe(po)) return -1;
  if (pipe(pe)) {
    close(po[0]);
    close(po[1]);
    return -1;
  }
  pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0); /* our Ctrl-C handling stops it, not the terminal's */
    dup2(po[1], 1);
    dup2(pe[1], 2);
    close(po[0]);
    close(po[1]);
    close(pe[0]);
    close(pe[1]);
    execvp(argv[0], argv);
    fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  close(po[1]);
  close(pe[1]);
  if (pid < 0) {
    close(po[0]);
    close(pe[0]);
    return -1;
  }
  *out_fd = po[0];
  *err_fd = pe[0];
  return pid;
}

gz_status ext_solve(const char *fzn_path, const ext_params *p, gz_stats *stats,
                    char *err, size_t errlen) {
  char *cmd = util_strdup(p->cmd);
  char *argv[EXT_MAX_ARGS];
  int argc = ext_split(cmd, argv);
  if (!argc) {
    free(cmd);
    util_err(err, errlen, 0, "empty --fzn-solver command");
    return GZ_ERROR;
  }
  argv[argc++] = "-a";
  argv[argc++] = (char *)fzn_path;
  argv[argc] = NULL;
  int ofd, efd;
  double t0 = util_now();
  pid_t pid = ext_spawn(argv, &ofd, &efd);
  if (pid < 0) {
    free(cmd);
    util_err(err, errlen, 0, "cannot start %s: %s", argv[0], strerror(errno));
    return GZ_ERROR;
  }
  ext_run r;
  memset(&r, 0, sizeof r);
  r.p = p;
  int open_fds = 2, killed = 0;
  double kill_at = 0, last_tick = t0;
  struct pollfd fds[2] = {{ofd, POLLIN, 0}, {efd, POLLIN, 0}};
  while (open_fds) {
    int rc = poll(fds, 2, 100);
    if (rc < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; i++) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      char buf[65536];
      ssize_t n = read(fds[i].fd, buf, sizeof buf);
      if (n <= 0) {
        close(fds[i].fd);
        fds[i].fd = -1;
        open_fds--;
      } else if (i == 0) {
        ext_feed(&r, buf, (size_t)n);
      } else {
        ext_err_feed(&r, buf, (size_t)n);
      }
    }
    double now = util_now();
    if (p->on_tick && now - last_tick >= 0.2) {
      p->on_tick(p->ctx);
      last_tick = now;
    }
    int want_stop = r.stop_asked || (p->stop && *p->stop) ||
                    (p->time_limit > 0 && now - t0 >= p->time_limit);
    if (want_stop && !killed) {
      kill(pid, SIGTERM);
      killed = 1;
      kill_at = now + 1.0;
    } else if (killed == 1 && now >= kill_at) {
      kill(pid, SIGKILL);
      killed = 2;
    }
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (r.line.len) ext_line(&r, r.line.s); /* unterminated last line */
  if (stats) {
    memset(stats, 0, sizeof *stats);
    stats->solutions = r.solutions;
    stats->seconds = util_now() - t0;
  }
  gz_status st;
  if (r.unsat)
    st = GZ_UNSAT;
  else if (r.complete && r.solutions)
    st = GZ_OPTIMAL;
  else if (r.solutions)
    st = GZ_SATISFIED;
  else if (!killed && (!WIFEXITED(status) || WEXITSTATUS(status) != 0)) {
    char *tail = r.errtail;
    while (*tail == '\n') tail++;
    util_err(err, errlen, 0, "%s failed (%s %d)%s%s", argv[0],
             WIFEXITED(status) ? "exit code" : "signal",
             WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
             *tail ? ": " : "", tail);
    st = GZ_ERROR;
  } else
    st = GZ_UNKNOWN;
  util_buf_free(&r.sol);
  util_buf_free(&r.line);
  free(cmd);
  return st;
}
