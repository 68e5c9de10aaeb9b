/* options.h -- every command-line option in one table (CLI_OPTIONS): the
 * commands it applies to and the values it takes; and the one parser for
 * them.  remat's command lines (src/cli) and the options of a batch job
 * (a manifest line, batch.c) both go through cli_next, so that an option
 * is checked in one place, with one message format for a bad value:
 *
 *   --time-limit must be a number in (0, 1e9], not 'nan'
 *
 * The table lives in the core wing so that batch.c, below the CLI, can
 * use it; the commands themselves are in src/cli (cmd.h). */
#ifndef REMAT_OPTIONS_H
#define REMAT_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

#include "remat.h"

/* Commands, as bits so that an option can list the commands it applies
 * to.  CMD_JOB is no command: it marks the options one batch job (a line
 * of a manifest) may carry. */
enum {
  CMD_SOLVE = 0x0001,
  CMD_EMIT = 0x0002,
  CMD_EVAL = 0x0004,
  CMD_GEN = 0x0008,
  CMD_MILP = 0x0010,
  CMD_BASELINE = 0x0020,
  CMD_COMPARE = 0x0040,
  CMD_BATCH = 0x0080,
  CMD_TUNE = 0x0100,
  CMD_PLOT = 0x0200,
  CMD_INFO = 0x0400,
  CMD_ORDER = 0x0800,
  CMD_JOB = 0x1000,
};
#define CMD_ALL (CMD_JOB - 1) /* every command (not CMD_JOB) */
#define CMD_SOLVERS (CMD_SOLVE | CMD_MILP | CMD_BASELINE | CMD_COMPARE | CMD_BATCH | CMD_TUNE)

/* C_v's maximum, as in graph files (reader.c). */
#define CLI_MAX_COPIES 1000000
/* gen --nodes' maximum. */
#define CLI_MAX_NODES 1000000

#define CLI_STR_(x) #x
#define CLI_STR(x) CLI_STR_(x)

/* O(field, long name, short name, type, default, metavar, commands,
 *   values, help)
 *
 * type and values (the parser checks every value against them):
 *   FLAG    no value (values NULL)
 *   INT     an integer in the interval `values`: "[lo, hi]"
 *   REAL    a number in the interval `values`; "(" and ")" exclude the
 *           bound, "[" and "]" include it: "(0, 1e9]" (so nan, inf and
 *           0 are refused)
 *   TEXT    any string (values NULL)
 *   ONEOF   one of the words of `values`: "auto|random|none"
 *   LISTOF  a comma list of the words of `values`
 *   NFILE   an integer in the interval `values`, or else a file name
 *   NLIST   an integer in the interval, a comma list of such integers, or
 *           else a file name
 * FLAG is an int (0/1), INT a long, REAL a double, the others a string.
 * Rows may share a long name when their commands differ (--method is one
 * method for baseline, a list for compare); field names are unique. */
#define CLI_OPTIONS                                                            \
  O(budget, "budget", 'b', TEXT, NULL, "B",                                   \
    CMD_SOLVERS | CMD_EMIT | CMD_EVAL | CMD_PLOT | CMD_INFO, NULL,            \
    "memory budget: fraction 0.9, percentage 90%, size 41687 / 12GiB / "      \
    "11.3GB; compare, batch: lists 0.9,0.8")                                  \
  O(output, "output", 'o', TEXT, NULL, "FILE", CMD_ALL, NULL,                 \
    "write the result (JSON, FlatZinc, SVG, table...) to FILE")               \
  O(time_limit, "time-limit", 't', REAL, REMAT_TIME_LIMIT, "S",              \
    CMD_SOLVERS | CMD_INFO | CMD_ORDER | CMD_JOB, "(0, 1e9]",                             \
    "time limit in seconds for the whole solve (batch: per job)")            \
  O(threads, "threads", 0, INT, 0, "N",                                       \
    CMD_SOLVE | CMD_MILP | CMD_COMPARE | CMD_BATCH | CMD_TUNE | CMD_JOB,      \
    "[0, " CLI_STR(REMAT_MAX_THREADS) "]",                                    \
    "solver threads (0 = all cores; batch: per job, default 1)")             \
  O(seed, "seed", 0, INT, 1, "N",                                             \
    (CMD_SOLVERS & ~CMD_BASELINE) | CMD_GEN | CMD_ORDER | CMD_JOB,            \
    "[0, 4294967295]", "random seed (milp: its C heuristics')")              \
  O(copies, "copies", 'c', NFILE, NULL, "N|FILE",                             \
    CMD_SOLVE | CMD_EMIT | CMD_MILP | CMD_COMPARE | CMD_BATCH | CMD_INFO |    \
    CMD_JOB, "[1, " CLI_STR(CLI_MAX_COPIES) "]",                              \
    "copies C_v per node: one number, or a JSON file {id: C_v}; a node's "   \
    "own \"copies\" in the graph are a ceiling (a file may lower them; "    \
    "milp: nodes neither limits, any number)")                               \
  O(tune_copies, "copies", 'c', NLIST, NULL, "N|LIST|FILE", CMD_TUNE,         \
    "[1, " CLI_STR(CLI_MAX_COPIES) "]",                                       \
    "C_v to start from (one number, or a JSON file {id: C_v}), or uniform "  \
    "values to sweep (1,2,3)")                                                \
  O(phase, "phase", 0, INT, 1, "1|2", CMD_EMIT, "[1, 2]",                     \
    "emit: which phase's model (1: min max(peak, M), 2: min duration)")      \
  O(dzn, "dzn", 0, FLAG, 0, NULL, CMD_EMIT, NULL,                             \
    "emit: write MiniZinc data for models/moccasin.mzn instead of FlatZinc") \
  O(fzn_solver, "fzn-solver", 0, TEXT, NULL, "CMD",                           \
    CMD_SOLVE | CMD_EMIT | CMD_COMPARE | CMD_BATCH | CMD_TUNE | CMD_JOB,      \
    NULL,                                                                     \
    "solve with an external FlatZinc executable (e.g. fzn-gecode) instead "  \
    "of in-process Gecode")                                                   \
  O(quiet, "quiet", 'q', FLAG, 0, NULL, CMD_ALL, NULL,                        \
    "no progress on stderr")                                                  \
  O(verbose, "verbose", 'v', FLAG, 0, NULL, CMD_ALL, NULL,                    \
    "more detail on stderr")                                                  \
  O(method, "method", 'm', ONEOF, NULL, "M", CMD_BASELINE,                    \
    "checkpoint-all|chen-sqrtn|chen-greedy|echo", "the baseline")                  \
  O(methods, "method", 'm', LISTOF, NULL, "LIST", CMD_COMPARE,                \
    "cp|milp|lp-rounding|checkpoint-all|chen-sqrtn|chen-greedy|"              \
    "chen-sqrtn-linearized|chen-greedy-linearized|echo|baselines|all",             \
    "the methods to run (default all)")                                       \
  O(candidates, "candidates", 0, ONEOF, "ap", "ap|linearized",                \
    CMD_BASELINE, "ap|linearized",                                            \
    "baseline checkpoint candidates: articulation points or the input "      \
    "order")                                                                  \
  O(relax, "relax", 0, FLAG, 0, NULL, CMD_MILP, NULL,                         \
    "solve the LP relaxation and round it (Checkmate's two-phase rounding)") \
  O(eps, "eps", 0, REAL, 0.1, "E", CMD_MILP, "[0, 1)",                        \
    "milp --relax: round the LP solved at (1 - E) x budget")                  \
  O(write_mps, "write-mps", 0, TEXT, NULL, "FILE", CMD_MILP, NULL,           \
    "milp: write the MILP remat solves (free MPS, names R_t_i, S_t_i...) "   \
    "and stop")                                                               \
  O(write_lp, "write-lp", 0, TEXT, NULL, "FILE", CMD_MILP, NULL,             \
    "milp: write the MILP in CPLEX LP format and stop")                       \
  O(read_solution, "read-solution", 0, TEXT, NULL, "FILE", CMD_MILP, NULL,   \
    "milp: the schedule of a solver's solution of that MILP (CBC, HiGHS, "    \
    "SCIP .sol or 'name value' lines), re-simulated")                        \
  O(write_solution, "write-solution", 0, TEXT, NULL, "FILE", CMD_MILP, NULL, \
    "milp: also write the best schedule as 'name value' lines of R and S")  \
  O(format, "format", 'f', ONEOF, "md", "md|csv|json", CMD_COMPARE,           \
    "md|csv|json", "table format")                                            \
  O(jobs, "jobs", 'j', INT, 1, "N", CMD_BATCH, "[0, 4096]",                   \
    "batch: solves run at once (0 = one per core)")                          \
  O(resume, "resume", 0, FLAG, 0, NULL, CMD_BATCH, NULL,                      \
    "batch: skip jobs already in the results file")                          \
  O(emit_jobs, "emit-jobs", 0, FLAG, 0, NULL, CMD_BATCH, NULL,                \
    "batch: print one command per job (GNU parallel, Slurm arrays)")         \
  O(merge, "merge", 0, FLAG, 0, NULL, CMD_BATCH, NULL,                        \
    "batch: merge per-job result files into one summary")                    \
  O(results, "results", 0, TEXT, NULL, "FILE", CMD_BATCH, NULL,               \
    "batch: the JSONL results file (default remat-batch.jsonl)")             \
  O(slurm, "slurm", 0, FLAG, 0, NULL, CMD_BATCH, NULL,                        \
    "batch: submit the jobs as one Slurm array (sbatch), wait, merge")       \
  O(slurm_opt, "slurm-opt", 0, TEXT, NULL, "OPTS", CMD_BATCH, NULL,           \
    "batch --slurm: more sbatch options, one string (\"--partition=X "       \
    "--time=30\")")                                                            \
  O(no_wait, "no-wait", 0, FLAG, 0, NULL, CMD_BATCH, NULL,                    \
    "batch --slurm: submit and exit (collect with --merge or --resume)")     \
  O(cancel, "cancel", 0, FLAG, 0, NULL, CMD_BATCH, NULL,                      \
    "batch --cancel RUN: scancel a Slurm run's arrays (RUN: its -o PREFIX, " \
    "results file or .jobs directory) and record their tasks")               \
  O(no_heuristic, "no-heuristic", 0, FLAG, 0, NULL,                           \
    CMD_SOLVE | CMD_MILP | CMD_COMPARE | CMD_BATCH | CMD_TUNE | CMD_JOB,      \
    NULL,                                                                     \
    "solve: CP only; milp: CBC alone (no C heuristics, baselines or "        \
    "annealing as MIP start)")                                                \
  O(free_order, "free-order", 0, FLAG, 0, NULL,                               \
    CMD_SOLVE | CMD_EMIT | CMD_COMPARE | CMD_BATCH | CMD_TUNE | CMD_JOB, NULL, \
    "search every topological order, not only the input order's stages "    \
    "(solve, batch, compare, tune-copies; emit: the free-order model)")      \
  O(strict_copies, "strict-copies", 0, FLAG, 0, NULL,                         \
    CMD_SOLVE | CMD_COMPARE | CMD_BATCH | CMD_TUNE | CMD_JOB, NULL,           \
    "C_v is a hard limit: never raised to a baseline's copies (solve, "       \
    "batch, compare, tune-copies)")                                           \
  O(lp_bound, "lp-bound", 0, FLAG, 0, NULL, CMD_SOLVE | CMD_BATCH | CMD_JOB,  \
    NULL,                                                                     \
    "solve, batch: then Checkmate's LP relaxation (up to --time-limit more) " \
    "as lower bound")                                                         \
  O(lns, "lns", 0, ONEOF, "auto", "auto|random|none",                         \
    CMD_SOLVE | CMD_BATCH | CMD_TUNE | CMD_JOB, "auto|random|none",           \
    "solve: large-neighbourhood search neighbourhoods")                      \
  O(hierarchy, "hierarchy", 0, ONEOF, "auto", "auto|on|off",                   \
    CMD_SOLVE | CMD_BATCH | CMD_TUNE | CMD_JOB, "auto|on|off",               \
    "solve: repeated blocks composed (auto: training graphs that have them)") \
  O(nodes, "nodes", 'n', INT, 50, "N", CMD_GEN,                             \
    "[1, " CLI_STR(CLI_MAX_NODES) "]",               \
    "gen: layered: nodes (50, at least 3); training: forward layers (50); "  \
    "unet: depth (4)")                                                        \
  O(trace_csv, "trace-csv", 0, TEXT, NULL, "FILE", CMD_SOLVE | CMD_MILP,      \
    NULL, "append the improvement trace as CSV rows")                        \
  O(help, "help", 'h', FLAG, 0, NULL, CMD_ALL, NULL, "show help")

/* The C type of each kind of value. */
#define CLI_TYPE_FLAG int
#define CLI_TYPE_INT long
#define CLI_TYPE_REAL double
#define CLI_TYPE_TEXT const char *
#define CLI_TYPE_ONEOF const char *
#define CLI_TYPE_LISTOF const char *
#define CLI_TYPE_NFILE const char *
#define CLI_TYPE_NLIST const char *

enum cli_type {
  CLI_FLAG,
  CLI_INT,
  CLI_REAL,
  CLI_TEXT,
  CLI_ONEOF,
  CLI_LISTOF,
  CLI_NFILE,
  CLI_NLIST
};

/* The options of one command line, defaults where not given. */
typedef struct cli_opts {
#define O(field, lname, sname, type, def, meta, cmds, values, help) \
  CLI_TYPE_##type field;
  CLI_OPTIONS
#undef O
  /* which options were given explicitly */
#define O(field, lname, sname, type, def, meta, cmds, values, help) \
  int field##_set;
  CLI_OPTIONS
#undef O
  int npos;
  char **pos; /* positional arguments (borrowed from argv) */
} cli_opts;

/* One row of the table. */
typedef struct cli_opt {
  const char *lname;
  char sname;
  enum cli_type type;
  const char *meta;
  int cmds;
  const char *values;
  const char *help;
  size_t off; /* offsetof(cli_opts, field) */
} cli_opt;

/* Whether row d is the option stored in `field` of cli_opts. */
#define CLI_IS(d, field) ((d)->off == offsetof(cli_opts, field))

/* ------------------------------------------------------------ parsing */

/* A parse in steps: words (argv after the command name, or a manifest
 * line's options) one option or positional argument at a time. */
typedef struct cli_scan {
  int cmd; /* a CMD_* bit: only its options are known */
  int nword;
  char **word;
  int i;        /* the next word */
  int only_pos; /* after "--" */
} cli_scan;

/* One step: an option with its checked value, or a positional word. */
typedef struct cli_item {
  const cli_opt *opt; /* NULL for a positional word */
  const char *value;  /* the value as given (NULL for a flag), the
                         positional word, or the unknown option (below) */
  int len;            /* an unknown option: how much of value to show */
  long i;             /* INT: the value */
  double d;           /* REAL: the value */
  int number;         /* NFILE, NLIST: the value is numbers, not a file */
} cli_item;

#define CLI_UNKNOWN (-1)

void cli_scan_init(cli_scan *s, int cmd, int nword, char **word);

/* The next item: 1 with *it filled; 0 after the last word; CLI_UNKNOWN
 * for a word that is no option of s->cmd (it->value, of which the first
 * it->len bytes are shown in messages: "--name" without "=value"); 2 with a message in err for a
 * missing or bad value ("--seed needs a value (N)", "--quiet takes no
 * value", "--lns must be auto, random or none, not 'big'"). */
int cli_next(cli_scan *s, cli_item *it, char *err, size_t errlen);

/* Parse a command line (argv after the command name) for command `cmd`
 * (a CMD_* bit; `name` for the message of an unknown option).  Returns 0,
 * or 2 with a message in err. */
int cli_parse(int cmd, const char *name, int argc, char **argv,
              cli_opts *o, char *err, size_t errlen);

void cli_free(cli_opts *o);

/* ------------------------------------------------------------- the rest */

/* The row of cmd's option `lname` (NULL if none). */
const cli_opt *cli_option(int cmd, const char *lname);

/* What d accepts, as in its messages: "a number in (0, 1e9]", "auto,
 * random or none" (empty for FLAG and TEXT). */
void cli_describe(const cli_opt *d, char *buf, size_t len);

/* The long names of the options of cmd, "--copies, --time-limit, ...". */
void cli_names(int cmd, char *buf, size_t len);

/* The options given in o (parsed for command `cmd`) that also apply to
 * `to`, written back as words: "--seed", "7", "--free-order", ... (a
 * batch command line's options for its jobs: to = CMD_JOB).  At most max
 * words, their text in buf.  Returns the number of words, or -1 when they
 * do not fit. */
int cli_words(const cli_opts *o, int cmd, int to, char **word, int max, char *buf,
              size_t buflen);

/* Print the options that apply to `cmd`, with the values they take. */
void cli_print_options(FILE *f, int cmd);

/* The table's own consistency (intervals that parse, defaults inside
 * them, no long or short name twice for one command): 0, or -1 with a
 * message in err.  For the tests. */
int cli_table_check(char *err, size_t errlen);

#endif
