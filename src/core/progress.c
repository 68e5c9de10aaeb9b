/* progress.c -- progress lines and the live status line on stderr. */
#include "progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "util.h"

void prog_init(prog *p, int level) {
  p->level = level;
  p->tty = level > 0 && isatty(2);
  p->shown = 0;
  p->last = 0;
}

static void prog_clear(prog *p) {
  if (p->shown) fputs("\r\033[K", stderr);
  p->shown = 0;
}

void prog_line(prog *p, const char *fmt, ...) {
  if (p->level <= 0) return;
  prog_clear(p);
  va_list ap;
  va_start(ap, fmt);
  fputs("remat: ", stderr);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  fflush(stderr);
}

void prog_status(prog *p, const char *fmt, ...) {
  if (!p->tty) return;
  double now = util_now();
  if (p->shown && now - p->last < 0.2) return;
  p->last = now;
  char buf[160];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\r\033[K%s", buf);
  fflush(stderr);
  p->shown = 1;
}

void prog_done(prog *p) {
  prog_clear(p);
  fflush(stderr);
}
