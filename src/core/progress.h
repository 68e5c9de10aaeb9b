/* progress.h -- progress on stderr: one line per improvement, and a live
 * status line (redrawn in place) when stderr is a terminal. */
#ifndef REMAT_PROGRESS_H
#define REMAT_PROGRESS_H

typedef struct prog {
  int level;        /* 0 quiet, 1 lines, 2 verbose */
  int tty;          /* stderr is a terminal: live status line */
  int shown;        /* a status line is on screen */
  double last;      /* time of the last status redraw */
} prog;

void prog_init(prog *p, int level);
/* A permanent line (replaces any status line). */
void prog_line(prog *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A transient status line; redrawn at most 5 times a second. */
void prog_status(prog *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Remove the status line. */
void prog_done(prog *p);

#endif
