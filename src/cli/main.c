/* main.c -- remat's command-line entry point: dispatch to subcommands. */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "gecode.h"
#include "remat.h"

/* name, bit, run, positional min and max, one may be "-", usage, summary,
 * more help */
const cmd_def cmd_table[] = {
    {"solve", CMD_SOLVE, cmd_solve, 1, 1, 1, "GRAPH --budget B [options]",
     "two-phase CP schedule (Moccasin on Gecode) within the budget", NULL},
    {"milp", CMD_MILP, cmd_milp, 1, 1, 1, "GRAPH --budget B [--relax] [options]",
     "Checkmate MILP on CBC (or its LP relaxation and rounding)", NULL},
    {"baseline", CMD_BASELINE, cmd_baseline, 1, 1, 1,
     "GRAPH --budget B --method M [--candidates ap|linearized]",
     "checkpoint-all, Chen sqrt(n), Chen greedy", NULL},
    {"compare", CMD_COMPARE, cmd_compare, 1, 1, 1,
     "GRAPH --budget 0.9,0.8 [options]",
     "all methods side by side (a Table 3 like table)", NULL},
    {"batch", CMD_BATCH, cmd_batch, 0, -1, 0,
     CMD_BATCH_USAGE, "solve many graphs, resumable", NULL},
    {"tune-copies", CMD_TUNE, cmd_tune, 1, 1, 1,
     "GRAPH --budget B [--copies 1,2,3|FILE]", "choose C_v per node", NULL},
    {"emit", CMD_EMIT, cmd_emit, 1, 1, 1,
     "GRAPH --budget B [--phase 1|2] [--dzn] [-o FILE]",
     "write the FlatZinc (or MiniZinc data) the solver gets", NULL},
    {"order", CMD_ORDER, cmd_order, 1, 1, 1, "GRAPH [--time-limit S] [-o FILE]",
     "a minimum-peak order without recomputation, and a lower bound", NULL},
    {"eval", CMD_EVAL, cmd_eval, 2, 2, 1, "GRAPH SCHEDULE.json [--budget B]",
     "re-simulate a schedule: validity, peak, duration, TDI", NULL},
    {"info", CMD_INFO, cmd_info, 1, 1, 1, "GRAPH [--budget B [--copies N|FILE]]",
     "graph statistics and budgets; with a budget, a lower bound on the TDI",
     NULL},
    {"gen", CMD_GEN, cmd_gen, 1, 1, 1,
     "layered|training|unet [--nodes N] [--seed S] -o FILE",
     "generate random graphs", NULL},
    {"plot", CMD_PLOT, cmd_plot, 0, -1, 1,
     "intervals|memory|progress|tradeoff GRAPH|RESULT... -o FILE.svg",
     "SVG pictures of schedules and solves",
     "\n  remat plot intervals GRAPH SCHEDULE [--budget B] -o FILE.svg\n"
     "  remat plot memory GRAPH SCHEDULE... [--budget B] -o FILE.svg\n"
     "  remat plot progress RESULT.json... -o FILE.svg\n"
     "\nSCHEDULE: a JSON file with a \"sequence\" of node ids, or `topo` for "
     "the input order.\n"
     "memory: the x axis is the step, or each schedule's progress (0-100%) "
     "when their lengths differ.\n"
     "The budget is --budget, else the first schedule file's \"budget\".  "
     "Without -o the SVG goes to stdout.\n"},
    {NULL, 0, NULL, 0, 0, 0, NULL, NULL, NULL},
};

const cmd_def *cmd_find(const char *name) {
  for (const cmd_def *c = cmd_table; c->name; c++)
    if (!strcmp(c->name, name)) return c;
  return NULL;
}

void cmd_help(const cmd_def *c) {
  printf("usage: remat %s %s\n%s\n\noptions:\n", c->name, c->usage, c->summary);
  cli_print_options(stdout, c->bit);
  if (c->more) fputs(c->more, stdout);
}

/* The positional arguments' count, and at most one "-" where that is
 * standard input: 0, else a message and 2. */
static int main_positional(const cmd_def *c, const cli_opts *o) {
  if (o->npos < c->pos_min || (c->pos_max >= 0 && o->npos > c->pos_max)) {
    fprintf(stderr, "remat %s: %s arguments\nusage: remat %s %s\n", c->name,
            o->npos < c->pos_min ? "missing" : "too many", c->name, c->usage);
    return 2;
  }
  int std = 0;
  for (int i = 0; i < o->npos; i++) std += strcmp(o->pos[i], "-") == 0;
  if (!c->one_stdin || std <= 1) return 0;
  fprintf(stderr, "remat %s: only one argument can be - (standard input)\n",
          c->name);
  return 2;
}

/* Parse, --help, the positional arguments, then the command. */
static int main_run(const cmd_def *c, int argc, char **argv) {
  cli_opts o;
  char err[1024];
  int rc = cli_parse(c->bit, c->name, argc, argv, &o, err, sizeof err);
  if (rc)
    fprintf(stderr, "remat %s: %s\n", c->name, err);
  else if (o.help)
    cmd_help(c);
  else if (!(rc = main_positional(c, &o)))
    rc = c->run(c->name, &o);
  cli_free(&o);
  return rc;
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
  return main_run(c, argc - 2, argv + 2);
}
