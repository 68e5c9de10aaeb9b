/* cmdutil.h -- helpers shared by the cmd_*.c subcommands: loading graphs,
 * budgets and copies with the tool's error conventions. */
#ifndef REMAT_CMDUTIL_H
#define REMAT_CMDUTIL_H

#include <stdio.h>

#include "cli.h"
#include "remat.h"

/* Load a graph or print the error and return NULL (exit code 2). */
remat_graph *cmdu_graph(const char *cmd, const char *path);

/* cmdu_graph for the commands that solve: also refuses a graph whose
 * durations could overflow a schedule's total
 * (remat_graph_max_duration). */
remat_graph *cmdu_solver_graph(const char *cmd, const char *path);

/* Parse one budget for g; prints the error and returns -1 on failure. */
int cmdu_budget(const char *cmd, const char *text, const remat_graph *g,
                int64_t *budget);

/* --copies N|FILE into a per-node array (NULL when not given): *uniform
 * receives N for a number.  Returns 0 or 2 after printing the error. */
int cmdu_copies(const char *cmd, const char *arg, const remat_graph *g,
                int **copies, int *uniform);

/* Require exactly `want` positional arguments, at most one of them "-"
 * (standard input). */
int cmdu_positional(const char *cmd, const cli_opts *o, int want,
                    const char *usage);

/* At most one positional argument is "-" (standard input): 0, else a
 * message and 2. */
int cmdu_one_stdin(const char *cmd, const cli_opts *o);

/* Where the summary line goes: stderr when -o - puts the JSON result on
 * standard output, else stdout. */
FILE *cmdu_summary_stream(const cli_opts *o);

/* Fill solve parameters from the options. */
void cmdu_solve_params(const cli_opts *o, remat_solve_params *p);

#endif
