/* main.c -- remat's command-line entry point: dispatch to subcommands. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"
#include "gecode.h"
#include "remat.h"

const cmd_def cmd_table[] = {
    {"solve", CMD_SOLVE, cmd_solve, "GRAPH --budget B [options]",
     "two-phase CP schedule (Moccasin on Gecode) within the budget"},
    {"milp", CMD_MILP, cmd_milp, "GRAPH --budget B [--relax] [options]",
     "Checkmate MILP on CBC (or its LP relaxation and rounding)"},
    {"baseline", CMD_BASELINE, cmd_baseline,
     "GRAPH --budget B --method M [--candidates ap|linearized]",
     "checkpoint-all, Chen sqrt(n), Chen greedy"},
    {"compare", CMD_COMPARE, cmd_compare, "GRAPH --budget 0.9,0.8 [options]",
     "all methods side by side (a Table 3 like table)"},
    {"batch", CMD_BATCH, cmd_batch,
     "GRAPHS|DIRS|MANIFEST... --budget 0.9,0.8 [-j N] [options]",
     "solve many graphs, resumable"},
    {"tune-copies", CMD_TUNE, cmd_tune, "GRAPH --budget B [--copies 1,2,3|FILE]",
     "choose C_v per node"},
    {"emit", CMD_EMIT, cmd_emit, "GRAPH --budget B [--phase 1|2] [--dzn] [-o FILE]",
     "write the FlatZinc (or MiniZinc data) the solver gets"},
    {"order", CMD_ORDER, cmd_order, "GRAPH [--time-limit S] [-o FILE]",
     "a minimum-peak order without recomputation, and a lower bound"},
    {"eval", CMD_EVAL, cmd_eval, "GRAPH SCHEDULE.json [--budget B]",
     "re-simulate a schedule: validity, peak, duration, TDI"},
    {"info", CMD_INFO, cmd_info, "GRAPH [--budget B [--copies N|FILE]]", "graph statistics and budgets; with a budget, a lower bound on the TDI"},
    {"gen", CMD_GEN, cmd_gen, "layered|training|unet [--nodes N] [--seed S] -o FILE",
     "generate random graphs"},
    {"plot", CMD_PLOT, cmd_plot,
     "intervals|memory|progress GRAPH|RESULT... -o FILE.svg",
     "SVG pictures of schedules and solves"},
    {NULL, 0, NULL, NULL, NULL},
};

const cmd_def *cmd_find(const char *name) {
  for (const cmd_def *c = cmd_table; c->name; c++)
    if (!strcmp(c->name, name)) return c;
  return NULL;
}

void cmd_help(const cmd_def *c) {
  printf("usage: remat %s %s\n%s\n\noptions:\n", c->name, c->usage, c->summary);
  cli_print_options(stdout, c->bit);
}

static void main_usage(FILE *f) {
  fprintf(f,
          "remat %s -- tensor-rematerialization schedules\n\n"
          "usage: remat COMMAND [options]\n\ncommands:\n",
          REMAT_VERSION);
  for (const cmd_def *c = cmd_table; c->name; c++)
    fprintf(f, "  %-12s %s\n", c->name, c->summary);
  fprintf(f,
          "\nremat COMMAND --help shows a command's options.  Exit codes: 0 "
          "within budget, 2 bad usage or input,\n3 nothing within budget, 4 "
          "internal error.\n");
}

int main(int argc, char **argv) {
  if (argc < 2) {
    main_usage(stderr);
    return 2;
  }
  const char *name = argv[1];
  if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
    if (argc > 2 && cmd_find(argv[2])) {
      cmd_help(cmd_find(argv[2]));
      return 0;
    }
    main_usage(stdout);
    return 0;
  }
  if (!strcmp(name, "--version") || !strcmp(name, "version")) {
    printf("remat %s (Gecode %s)\n", REMAT_VERSION, gz_version());
    return 0;
  }
  const cmd_def *c = cmd_find(name);
  if (!c) {
    fprintf(stderr, "remat: unknown command '%s'\n\n", name);
    main_usage(stderr);
    return 2;
  }
  return c->run(c->name, argc - 2, argv + 2);
}
