/* cmd.h -- the subcommands (one cmd_*.c file each). */
#ifndef REMAT_CMD_H
#define REMAT_CMD_H

typedef struct cmd_def {
  const char *name;
  int bit; /* CMD_* */
  int (*run)(const char *name, int argc, char **argv);
  const char *usage;
  const char *summary;
} cmd_def;

int cmd_solve(const char *name, int argc, char **argv);
int cmd_emit(const char *name, int argc, char **argv);
int cmd_eval(const char *name, int argc, char **argv);
int cmd_info(const char *name, int argc, char **argv);
int cmd_gen(const char *name, int argc, char **argv);
int cmd_milp(const char *name, int argc, char **argv);
int cmd_baseline(const char *name, int argc, char **argv);
int cmd_compare(const char *name, int argc, char **argv);
int cmd_batch(const char *name, int argc, char **argv);
int cmd_tune(const char *name, int argc, char **argv);
int cmd_plot(const char *name, int argc, char **argv);
int cmd_order(const char *name, int argc, char **argv);

/* The command table (main.c). */
extern const cmd_def cmd_table[];
const cmd_def *cmd_find(const char *name);
/* Print "usage: ..." and the options of a command. */
void cmd_help(const cmd_def *c);

#endif
