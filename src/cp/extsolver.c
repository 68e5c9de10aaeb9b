/* extsolver.c -- external FlatZinc solvers as child processes. */
#define _POSIX_C_SOURCE 200809L
#include "extsolver.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "child.h"
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
  char first[64];     /* the first line of output, for messages */
  int solutions, complete, unsat, unknown, stop_asked;
} ext_run;

static void ext_line(ext_run *r, const char *line) {
  if (!r->first[0] && line[0]) snprintf(r->first, sizeof r->first, "%s", line);
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

static void ext_sink(void *ctx, int stream, const char *buf, size_t n) {
  if (stream == 1)
    ext_feed(ctx, buf, n);
  else
    ext_err_feed(ctx, buf, n);
}

/* The last non-blank line of the solver's stderr ("" if none). */
static const char *ext_err_line(ext_run *r) {
  char *s = r->errtail;
  size_t n = strlen(s);
  while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' '))
    s[--n] = 0;
  char *nl = strrchr(s, '\n');
  return nl ? nl + 1 : s;
}

/* The status of a solver that ended by itself (not stopped by remat). */
static gz_status ext_ended(ext_run *r, const char *name, int status, char *err,
                           size_t errlen) {
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    const char *why = ext_err_line(r);
    util_err(err, errlen, 0, "%s failed (%s %d)%s%s", name,
             WIFEXITED(status) ? "exit code" : "signal",
             WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
             *why ? ": " : "", why);
    return GZ_ERROR;
  }
  if (r->unsat) return GZ_UNSAT;
  if (r->complete && r->solutions) return GZ_OPTIMAL;
  if (r->solutions || r->unknown) {
    util_err(err, errlen, 0,
             "the external solver %s ended without a proof after %d "
             "solution%s",
             name, r->solutions, r->solutions == 1 ? "" : "s");
    return r->solutions ? GZ_SATISFIED : GZ_UNKNOWN;
  }
  if (r->first[0])
    util_err(err, errlen, 0,
             "the external solver %s printed no solution and no status line "
             "(its output starts with '%s')",
             name, r->first);
  else
    util_err(err, errlen, 0, "the external solver %s ended without any output",
             name);
  return GZ_ERROR;
}

gz_status ext_solve(const char *fzn_path, const ext_params *p, gz_stats *stats,
                    char *err, size_t errlen) {
  if (errlen) err[0] = 0;
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
  child_cmd o;
  child_cmd_init(&o);
  o.capture = 1;
  o.null_stdin = 1;
  o.death_signal = SIGKILL;
  child c;
  double t0 = util_now(), last_tick = t0;
  if (child_spawn(&c, argv, &o, err, errlen)) {
    free(cmd);
    return GZ_ERROR;
  }
  ext_run r;
  memset(&r, 0, sizeof r);
  r.p = p;
  while (!child_poll(&c, EXT_GRACE, 100, ext_sink, &r)) {
    double now = util_now();
    if (p->on_tick && now - last_tick >= 0.2) {
      p->on_tick(p->ctx);
      last_tick = now;
    }
    if (r.stop_asked || (p->stop && *p->stop) ||
        deadline_passed(p->deadline))
      child_stop(&c);
  }
  if (r.line.len) ext_line(&r, r.line.s); /* unterminated last line */
  if (stats) {
    memset(stats, 0, sizeof *stats);
    stats->solutions = r.solutions;
    stats->seconds = util_now() - t0;
  }
  gz_status st;
  if (c.asked < 0)
    st = ext_ended(&r, argv[0], c.status, err, errlen);
  else if (r.unsat)
    st = GZ_UNSAT;
  else if (r.complete && r.solutions)
    st = GZ_OPTIMAL;
  else
    st = r.solutions ? GZ_SATISFIED : GZ_UNKNOWN;
  util_buf_free(&r.sol);
  util_buf_free(&r.line);
  free(cmd);
  return st;
}
