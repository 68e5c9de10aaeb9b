/* cmd.h -- the subcommands (one cmd_*.c file each) and their table.  The
 * dispatcher (main.c) parses the options (options.h), answers --help and
 * checks the positional arguments once, from the table; a command starts
 * from the parsed options. */
#ifndef REMAT_CMD_H
#define REMAT_CMD_H

#include <stdio.h>

#include "options.h"

/* Run a command: `name` for messages, o parsed and checked.  Returns the
 * exit code. */
typedef int cmd_fn(const char *name, const cli_opts *o);

typedef struct cmd_def {
  const char *name;
  int bit; /* CMD_* */
  cmd_fn *run;
  int pos_min, pos_max; /* positional arguments; pos_max -1: no limit */
  int one_stdin;        /* at most one of them may be "-" (standard input) */
  const char *usage;
  const char *summary;
  const char *more; /* printed after the options by --help, or NULL */
} cmd_def;

/* remat batch's positional arguments, for the table and for the command
 * itself (--merge takes none, so the table cannot require one). */
#define CMD_BATCH_USAGE "GRAPHS|DIRS|MANIFEST... --budget 0.9,0.8 [-j N] [options]"

cmd_fn cmd_solve, cmd_emit, cmd_eval, cmd_info, cmd_gen, cmd_milp,
    cmd_baseline, cmd_compare, cmd_batch, cmd_tune, cmd_plot, cmd_order;

/* remat plot tradeoff's drawing into mf (cmd_plot_tradeoff.c): 0, or an
 * exit code with a message in err; *drawn when plot_tradeoff ran. */
int cmd_plot_tradeoff(const char *cmd, const cli_opts *o, FILE *mf, char *err, size_t errlen,
                      int *drawn);

/* The command table (main.c). */
extern const cmd_def cmd_table[];
const cmd_def *cmd_find(const char *name);
/* Print "usage: ..." and the options of a command. */
void cmd_help(const cmd_def *c);

#endif
