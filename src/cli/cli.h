/* cli.h -- the command-line options, all in one table (CLI_OPTIONS), and
 * their parser.  Each subcommand lives in its own cmd_*.c file. */
#ifndef REMAT_CLI_H
#define REMAT_CLI_H

#include <stdio.h>

/* Commands, as bits so that an option can list the commands it applies to. */
enum {
  CMD_SOLVE = 1 << 0,
  CMD_EMIT = 1 << 1,
  CMD_EVAL = 1 << 2,
  CMD_GEN = 1 << 3,
  CMD_MILP = 1 << 4,
  CMD_BASELINE = 1 << 5,
  CMD_COMPARE = 1 << 6,
  CMD_BATCH = 1 << 7,
  CMD_TUNE = 1 << 8,
  CMD_PLOT = 1 << 9,
  CMD_INFO = 1 << 10,
};
#define CMD_SOLVERS (CMD_SOLVE | CMD_MILP | CMD_BASELINE | CMD_COMPARE | CMD_BATCH | CMD_TUNE)
#define CMD_ANY 0x7fffffff

/* O(field, long name, short, type, default, metavar, commands, help)
 * Types: B (flag), I (int), D (double), S (string). */
#define CLI_OPTIONS                                                            \
  O(budget, "budget", 'b', S, NULL, "B", CMD_SOLVERS | CMD_EMIT | CMD_EVAL | CMD_PLOT | CMD_INFO, \
    "memory budget: fraction 0.9, percentage 90%, size 41687 / 12GiB / "      \
    "11.3GB; compare, batch: lists 0.9,0.8")                                  \
  O(output, "output", 'o', S, NULL, "FILE", CMD_ANY,                          \
    "write the result (JSON, FlatZinc, SVG, table...) to FILE")               \
  O(time_limit, "time-limit", 't', D, 60.0, "S", CMD_SOLVERS | CMD_INFO,      \
    "time limit in seconds for the whole solve (batch: per job)")            \
  O(threads, "threads", 0, I, 0, "N",                                         \
    CMD_SOLVE | CMD_MILP | CMD_COMPARE | CMD_BATCH | CMD_TUNE,                \
    "solver threads (0 = all cores; batch: per job, default 1)")             \
  O(seed, "seed", 0, I, 1, "N", CMD_SOLVERS | CMD_GEN, "random seed")         \
  O(copies, "copies", 'c', S, NULL, "N|FILE", CMD_SOLVE | CMD_EMIT | CMD_MILP | CMD_COMPARE | CMD_BATCH | CMD_TUNE | CMD_INFO, \
    "copies C_v per node: one number, or a JSON file {id: C_v} (tune-copies: " \
    "a list 1,2,3 sweeps uniform values; milp: at most C_v computations, "   \
    "nodes not in the file any number)")                                      \
  O(phase, "phase", 0, I, 1, "1|2", CMD_EMIT,                                 \
    "emit: which phase's model (1: min max(peak, M), 2: min duration)")      \
  O(dzn, "dzn", 0, B, 0, NULL, CMD_EMIT,                                      \
    "emit: write MiniZinc data for models/moccasin.mzn instead of FlatZinc") \
  O(fzn_solver, "fzn-solver", 0, S, NULL, "CMD", CMD_SOLVE | CMD_EMIT | CMD_COMPARE | CMD_BATCH | CMD_TUNE, \
    "solve with an external FlatZinc executable (e.g. fzn-gecode) instead "  \
    "of in-process Gecode")                                                   \
  O(quiet, "quiet", 'q', B, 0, NULL, CMD_ANY, "no progress on stderr")        \
  O(verbose, "verbose", 'v', B, 0, NULL, CMD_ANY, "more detail on stderr")   \
  O(method, "method", 'm', S, NULL, "M", CMD_BASELINE | CMD_COMPARE,          \
    "baseline: checkpoint-all | chen-sqrtn | chen-greedy (compare: a list)") \
  O(candidates, "candidates", 0, S, "ap", "ap|linearized", CMD_BASELINE | CMD_COMPARE, \
    "baseline checkpoint candidates: articulation points or the input "      \
    "order")                                                                  \
  O(relax, "relax", 0, B, 0, NULL, CMD_MILP,                                  \
    "solve the LP relaxation and round it (Checkmate's two-phase rounding)") \
  O(eps, "eps", 0, D, 0.1, "E", CMD_MILP,                                     \
    "milp --relax: round the LP solved at (1 - E) x budget")                  \
  O(write_mps, "write-mps", 0, S, NULL, "FILE", CMD_MILP,                     \
    "milp: write the MILP remat solves (free MPS, names R_t_i, S_t_i...) and " \
    "stop")                                                                   \
  O(write_lp, "write-lp", 0, S, NULL, "FILE", CMD_MILP,                       \
    "milp: write the MILP in CPLEX LP format and stop")                       \
  O(read_solution, "read-solution", 0, S, NULL, "FILE", CMD_MILP,             \
    "milp: the schedule of a solver's solution of that MILP (CBC, HiGHS, "    \
    "SCIP .sol or 'name value' lines), re-simulated")                        \
  O(write_solution, "write-solution", 0, S, NULL, "FILE", CMD_MILP,           \
    "milp: also write the best schedule as 'name value' lines of R and S")  \
  O(format, "format", 'f', S, "md", "md|csv|json", CMD_COMPARE,               \
    "table format")                                                           \
  O(jobs, "jobs", 'j', I, 1, "N", CMD_BATCH, "batch: solves run at once")     \
  O(resume, "resume", 0, B, 0, NULL, CMD_BATCH,                               \
    "batch: skip jobs already in the results file")                          \
  O(emit_jobs, "emit-jobs", 0, B, 0, NULL, CMD_BATCH,                         \
    "batch: print one command per job (GNU parallel, Slurm arrays)")         \
  O(merge, "merge", 0, B, 0, NULL, CMD_BATCH,                                 \
    "batch: merge per-job result files into one summary")                    \
  O(results, "results", 0, S, NULL, "FILE", CMD_BATCH,                        \
    "batch: the JSONL results file (default remat-batch.jsonl)")             \
  O(no_heuristic, "no-heuristic", 0, B, 0, NULL, CMD_SOLVE | CMD_MILP | CMD_COMPARE | CMD_BATCH | CMD_TUNE, \
    "solve: CP only; milp: CBC alone (no C heuristics, baselines or annealing as MIP start)")        \
  O(lp_bound, "lp-bound", 0, B, 0, NULL, CMD_SOLVE | CMD_BATCH,               \
    "solve, batch: then Checkmate's LP relaxation (up to --time-limit more) as lower bound") \
  O(lns, "lns", 0, S, "auto", "auto|random|none", CMD_SOLVE | CMD_BATCH | CMD_TUNE, \
    "solve: large-neighbourhood search neighbourhoods")                      \
  O(nodes, "nodes", 'n', I, 50, "N", CMD_GEN, "gen: layered: nodes (50); training: forward layers (50); unet: depth (4)") \
  O(trace_csv, "trace-csv", 0, S, NULL, "FILE", CMD_SOLVE | CMD_MILP,         \
    "append the improvement trace as CSV rows")                              \
  O(help, "help", 'h', B, 0, NULL, CMD_ANY, "show help")

typedef struct cli_opts {
#define B int
#define I long
#define D double
#define S const char *
#define O(field, lname, sname, type, def, meta, cmds, help) type field;
  CLI_OPTIONS
#undef O
#undef B
#undef I
#undef D
#undef S
  /* which options were given explicitly */
#define O(field, lname, sname, type, def, meta, cmds, help) int field##_set;
  CLI_OPTIONS
#undef O
  int npos;
  char **pos; /* positional arguments (borrowed from argv) */
} cli_opts;

/* Parse argv[0..argc) (after the command name) for command `cmd` (a CMD_*
 * bit, `name` for messages).  Returns 0, or 2 after printing a message. */
int cli_parse(int cmd, const char *name, int argc, char **argv, cli_opts *o);

/* Print the options that apply to `cmd`. */
void cli_print_options(FILE *f, int cmd);

void cli_free(cli_opts *o);

#endif
