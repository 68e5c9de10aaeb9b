/* cmdutil.h -- helpers shared by the cmd_*.c subcommands: loading graphs,
 * budgets and copies with the tool's error conventions. */
#ifndef REMAT_CMDUTIL_H
#define REMAT_CMDUTIL_H

#include <jansson.h>
#include <stdio.h>

#include "options.h"
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

/* --copies N|FILE (checked by the option table: a number is in range)
 * into a per-node array (NULL when not given or a number): *uniform
 * receives N for a number.  FILE is a JSON object {node id: C_v} or a
 * result file's "copies", "-" for standard input.  Returns 0 or 2 after
 * printing the error (FILE:LINE:COL for JSON syntax). */
int cmdu_copies(const char *cmd, const char *arg, const remat_graph *g,
                int **copies, int *uniform);

/* A method's outcome: the summary line and lower bound (on stdout, or
 * stderr with -o -), its message when it has no schedule within budget,
 * the JSON result (-o, with `extra` fields) and the trace (--trace-csv).
 * rc is the method's exit code; returns it, or 2 when -o cannot be
 * written.  With rc 2 (bad input) only the message is printed. */
int cmdu_finish(const char *cmd, const cli_opts *o, const remat_graph *g,
                const remat_result *r, json_t *extra, int rc);

/* Where the summary line goes: stderr when -o - puts the JSON result on
 * standard output, else stdout. */
FILE *cmdu_summary_stream(const cli_opts *o);

/* Fill solve parameters from the options. */
void cmdu_solve_params(const cli_opts *o, remat_solve_params *p);

#endif
