/* unit_options.c -- the option table (options.h) and its parser: the
 * table's own consistency, defaults, every kind of value at and past its
 * bounds, the commands' filters (CMD_JOB for a batch job), and every
 * error message, exactly. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "options.h"

/* Parse the words of `line` (split at spaces) for cmd; returns the code
 * and leaves the message in err. */
static int parse(int cmd, const char *line, cli_opts *o, char *err,
                 size_t errlen) {
  static char buf[1024];
  static char *argv[64];
  snprintf(buf, sizeof buf, "%s", line);
  int argc = 0;
  for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) argv[argc++] = t;
  err[0] = 0;
  return cli_parse(cmd, "cmd", argc, argv, o, err, errlen);
}

static void test_table(void **state) {
  (void)state;
  char err[512];
  if (cli_table_check(err, sizeof err)) fail_msg("%s", err);
}

static void test_defaults_and_values(void **state) {
  (void)state;
  cli_opts o;
  char err[512];
  assert_int_equal(parse(CMD_SOLVE, "g.json", &o, err, sizeof err), 0);
  assert_true(o.time_limit == 60.0);
  assert_int_equal(o.threads, 0);
  assert_int_equal(o.seed, 1);
  assert_string_equal(o.lns, "auto");
  assert_null(o.budget);
  assert_int_equal(o.time_limit_set, 0);
  assert_int_equal(o.npos, 1);
  assert_string_equal(o.pos[0], "g.json");
  cli_free(&o);

  assert_int_equal(parse(CMD_SOLVE,
                         "-b 0.9 g.json --time-limit=1e9 --threads 16 --seed "
                         "4294967295 -c 3 --lns none -q -- -x",
                         &o, err, sizeof err),
                   0);
  assert_string_equal(o.budget, "0.9");
  assert_true(o.time_limit == 1e9);
  assert_int_equal(o.time_limit_set, 1);
  assert_int_equal(o.threads, 16);
  assert_int_equal(o.seed, 4294967295L);
  assert_string_equal(o.copies, "3");
  assert_string_equal(o.lns, "none");
  assert_int_equal(o.quiet, 1);
  assert_int_equal(o.npos, 2); /* after --, "-x" is an argument */
  assert_string_equal(o.pos[1], "-x");
  cli_free(&o);

  /* the lower ends, and a - argument */
  assert_int_equal(parse(CMD_MILP, "- --time-limit 1e-3 --eps 0 --relax",
                         &o, err, sizeof err),
                   0);
  assert_true(o.time_limit == 1e-3 && o.eps == 0 && o.eps_set && o.relax);
  assert_string_equal(o.pos[0], "-");
  cli_free(&o);
  assert_int_equal(parse(CMD_MILP, "g --eps 0.999999", &o, err, sizeof err), 0);
  cli_free(&o);

  /* rows that share a long name: baseline's --method is one method,
   * compare's a list (field methods) */
  assert_int_equal(parse(CMD_BASELINE, "g -m chen-greedy --candidates linearized",
                         &o, err, sizeof err),
                   0);
  assert_string_equal(o.method, "chen-greedy");
  assert_string_equal(o.candidates, "linearized");
  assert_null(o.methods);
  cli_free(&o);
  assert_int_equal(parse(CMD_COMPARE, "g --method cp,milp,baselines -f json",
                         &o, err, sizeof err),
                   0);
  assert_string_equal(o.methods, "cp,milp,baselines");
  assert_null(o.method);
  assert_string_equal(o.format, "json");
  cli_free(&o);

  /* --copies: a number or a file; tune-copies also a list */
  assert_int_equal(parse(CMD_INFO, "g --copies map.json", &o, err, sizeof err), 0);
  assert_string_equal(o.copies, "map.json");
  cli_free(&o);
  assert_int_equal(parse(CMD_EMIT, "g --copies 3.5", &o, err, sizeof err), 0);
  assert_string_equal(o.copies, "3.5"); /* not an integer: a file */
  cli_free(&o);
  assert_int_equal(parse(CMD_TUNE, "g --copies 1,2,1000000", &o, err, sizeof err), 0);
  assert_string_equal(o.tune_copies, "1,2,1000000");
  assert_null(o.copies);
  cli_free(&o);

  assert_int_equal(parse(CMD_GEN, "layered -n 1000000 --seed 0", &o, err, sizeof err), 0);
  assert_int_equal(o.nodes, 1000000);
  assert_int_equal(o.seed, 0);
  cli_free(&o);
  assert_int_equal(parse(CMD_EMIT, "g --phase 2 --dzn", &o, err, sizeof err), 0);
  assert_int_equal(o.phase, 2);
  cli_free(&o);
  assert_int_equal(parse(CMD_BATCH, "d -j 0 --threads 0", &o, err, sizeof err), 0);
  assert_int_equal(o.jobs, 0);
  assert_int_equal(o.threads_set, 1);
  cli_free(&o);
}

#define LNS "auto, random or none"
#define METHODS                                                          \
  "cp, milp, lp-rounding, checkpoint-all, chen-sqrtn, chen-greedy, "     \
  "chen-sqrtn-linearized, chen-greedy-linearized, echo, baselines or all"

/* Parsing line for cmd fails (code 2) with exactly the message want. */
static void expect_error(int cmd, const char *line, const char *want) {
  cli_opts o;
  char err[1024];
  int rc = parse(cmd, line, &o, err, sizeof err);
  cli_free(&o);
  if (rc != 2) fail_msg("'%s': rc %d", line, rc);
  if (strcmp(err, want))
    fail_msg("'%s': got\n  %s\nwant\n  %s", line, err, want);
}

static void test_errors(void **state) {
  (void)state;
  /* A value out of range: "RULE, not 'VALUE'" for each of the lines,
   * VALUE being a line's last word (what follows '=' in "--opt=VALUE"). */
  struct {
    int cmd;
    const char *rule, *lines[9];
  } range[] = {
      /* issue 28: these were accepted */
      {CMD_SOLVE, "--time-limit must be a number in (0, 1e9]",
       {"g --time-limit nan", "g --time-limit -1", "g --time-limit 0", "g --time-limit inf",
        "g -t 1000000001", "g -t 1e-400", "g -t soon", "g -t 5s"}},
      {CMD_SOLVE, "--threads must be an integer in [0, 16]",
       {"g --threads 99999999999", "g --threads 17", "g --threads -1", "g --threads 2.5",
        "g --threads 99999999999999999999999"}},
      {CMD_SOLVE, "--seed must be an integer in [0, 4294967295]", {"g --seed 4294967296"}},
      {CMD_SOLVE, "--lns must be " LNS, {"g --lns big", "g --lns="}},
      {CMD_SOLVE, "--copies must be an integer in [1, 1000000] or a file",
       {"g --copies 0", "g --copies -2", "g -c 1000001"}},
      {CMD_TUNE, "--copies must be an integer in [1, 1000000], a comma list of them or a file",
       {"g --copies 1,0", "g --copies 1,,2", "g --copies 1,x"}},
      {CMD_EMIT, "--phase must be an integer in [1, 2]", {"g --phase 3", "g --phase 0"}},
      {CMD_MILP, "--eps must be a number in [0, 1)", {"g --eps 1", "g --eps -0.1"}},
      {CMD_BASELINE, "--method must be checkpoint-all, chen-sqrtn, chen-greedy or echo",
       {"g --method cp"}},
      {CMD_BASELINE, "--candidates must be ap or linearized", {"g --candidates all"}},
      {CMD_COMPARE, "--method must be a comma list of " METHODS,
       {"g --method cp,frob", "g --method cp,"}},
      {CMD_COMPARE, "--format must be md, csv or json", {"g --format xml"}},
      {CMD_BATCH, "--jobs must be an integer in [0, 4096]", {"d -j 4097"}},
      {CMD_GEN, "--nodes must be an integer in [1, 1000000]",
       {"layered --nodes 0", "layered --nodes 1000001"}},
  };
  for (size_t i = 0; i < sizeof range / sizeof *range; i++)
    for (const char *const *line = range[i].lines; *line; line++) {
      const char *value = strrchr(*line, ' ') + 1, *eq = strchr(value, '=');
      char want[1024];
      snprintf(want, sizeof want, "%s, not '%s'", range[i].rule, eq ? eq + 1 : value);
      expect_error(range[i].cmd, *line, want);
    }
  struct {
    int cmd;
    const char *line, *msg;
  } bad[] = {
      /* syntax */
      {CMD_SOLVE, "g --seed", "--seed needs a value (N)"},
      {CMD_SOLVE, "g -t", "--time-limit needs a value (S)"},
      {CMD_SOLVE, "g --quiet=1", "--quiet takes no value"},
      {CMD_SOLVE, "g --frobnicate", "unknown option --frobnicate (see remat cmd --help)"},
      {CMD_SOLVE, "g --frob=3", "unknown option --frob (see remat cmd --help)"},
      {CMD_SOLVE, "g -xyz", "unknown option -xyz (see remat cmd --help)"},
      {CMD_SOLVE, "g -x", "unknown option -x (see remat cmd --help)"},
      /* options of other commands */
      {CMD_SOLVE, "g --phase 1", "unknown option --phase (see remat cmd --help)"},
      {CMD_EVAL, "g s --threads 2", "unknown option --threads (see remat cmd --help)"},
      {CMD_GEN, "layered -j 2", "unknown option -j (see remat cmd --help)"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    expect_error(bad[i].cmd, bad[i].line, bad[i].msg);
}

/* A batch job's options (CMD_JOB), step by step as batch.c reads them. */
static void test_job_scan(void **state) {
  (void)state;
  char *words[] = {"-c", "map.json", "--time-limit=20", "--threads", "2",
                   "--lp-bound", "--lns", "random", "stray", "--jobs", "2"};
  cli_scan s;
  cli_scan_init(&s, CMD_JOB, 11, words);
  cli_item it;
  char err[512];
  assert_int_equal(cli_next(&s, &it, err, sizeof err), 1);
  assert_true(CLI_IS(it.opt, copies));
  assert_string_equal(it.value, "map.json");
  assert_int_equal(it.number, 0); /* a file */
  assert_int_equal(cli_next(&s, &it, err, sizeof err), 1);
  assert_true(CLI_IS(it.opt, time_limit) && it.d == 20);
  assert_int_equal(cli_next(&s, &it, err, sizeof err), 1);
  assert_true(CLI_IS(it.opt, threads) && it.i == 2);
  assert_int_equal(cli_next(&s, &it, err, sizeof err), 1);
  assert_true(CLI_IS(it.opt, lp_bound));
  assert_null(it.value);
  assert_int_equal(cli_next(&s, &it, err, sizeof err), 1);
  assert_true(CLI_IS(it.opt, lns));
  assert_int_equal(cli_next(&s, &it, err, sizeof err), 1);
  assert_null(it.opt); /* a positional word */
  assert_string_equal(it.value, "stray");
  assert_int_equal(cli_next(&s, &it, err, sizeof err), CLI_UNKNOWN);
  assert_int_equal(it.len, 6);
  assert_int_equal(strncmp(it.value, "--jobs", 6), 0);

  /* a job takes only these, and not -q, -o or --budget */
  char names[512];
  cli_names(CMD_JOB, names, sizeof names);
  assert_string_equal(names, "--time-limit, --threads, --seed, --copies, "
                             "--fzn-solver, --no-heuristic, --free-order, "
                             "--strict-copies, --lp-bound, --lns, --hierarchy");
  static const char *not_job[] = {"-q", "-o", "--budget", "--output", "-j"};
  for (size_t k = 0; k < sizeof not_job / sizeof *not_job; k++) {
    char *w[] = {(char *)not_job[k], "x"};
    cli_scan_init(&s, CMD_JOB, 2, w);
    if (cli_next(&s, &it, err, sizeof err) != CLI_UNKNOWN)
      fail_msg("%s is a job's option", not_job[k]);
  }
  char *num[] = {"--copies", "3", "--seed", "x"};
  cli_scan_init(&s, CMD_JOB, 4, num);
  assert_int_equal(cli_next(&s, &it, err, sizeof err), 1);
  assert_int_equal(it.number, 1);
  assert_int_equal(cli_next(&s, &it, err, sizeof err), 2);
  assert_string_equal(err, "--seed must be an integer in [0, 4294967295], not 'x'");
  assert_int_equal(cli_next(&s, &it, err, sizeof err), 0);
}

/* A batch command line's options, written back for its jobs (cli_words):
 * every option a job takes, with its value as parsed, and nothing else;
 * each CMD_JOB row of the table is covered, so that a new one cannot be
 * dropped on the way to the jobs. */
static void test_job_words(void **state) {
  (void)state;
  cli_opts o;
  char err[512];
  assert_int_equal(parse(CMD_BATCH,
                         "d --budget 0.9,0.8 -q --jobs 2 --lns random --free-order -c 3 "
                         "--seed 7 --time-limit 2.5 --threads 2 --fzn-solver fzn-x "
                         "--no-heuristic --strict-copies --lp-bound --hierarchy off -o out",
                         &o, err, sizeof err),
                   0);
  char *w[32], buf[512];
  int n = cli_words(&o, CMD_BATCH, CMD_JOB, w, 32, buf, sizeof buf);
  char line[512] = "";
  for (int i = 0; i < n; i++)
    snprintf(line + strlen(line), sizeof line - strlen(line), "%s%s", i ? " " : "", w[i]);
  assert_string_equal(line, "--time-limit 2.5 --threads 2 --seed 7 --copies 3 "
                            "--fzn-solver fzn-x --no-heuristic --free-order --strict-copies "
                            "--lp-bound --lns random --hierarchy off");
  /* every job option is among them (test_job_scan lists them) */
  char names[512];
  cli_names(CMD_JOB, names, sizeof names);
  for (char *t = strtok(names, ", "); t; t = strtok(NULL, ", "))
    if (!strstr(line, t)) fail_msg("%s is not passed to the jobs", t);
  /* too small a buffer: -1, never a cut word */
  assert_int_equal(cli_words(&o, CMD_BATCH, CMD_JOB, w, 32, buf, 20), -1);
  assert_int_equal(cli_words(&o, CMD_BATCH, CMD_JOB, w, 3, buf, sizeof buf), -1);
  cli_free(&o);
  /* nothing given: no words (the jobs' defaults hold) */
  assert_int_equal(parse(CMD_BATCH, "d --budget 0.9", &o, err, sizeof err), 0);
  assert_int_equal(cli_words(&o, CMD_BATCH, CMD_JOB, w, 32, buf, sizeof buf), 0);
  cli_free(&o);
}

static void test_help(void **state) {
  (void)state;
  char what[512];
  cli_describe(cli_option(CMD_SOLVE, "time-limit"), what, sizeof what);
  assert_string_equal(what, "a number in (0, 1e9]");
  cli_describe(cli_option(CMD_SOLVE, "lns"), what, sizeof what);
  assert_string_equal(what, "auto, random or none");
  cli_describe(cli_option(CMD_SOLVE, "quiet"), what, sizeof what);
  assert_string_equal(what, "");
  assert_null(cli_option(CMD_SOLVE, "phase"));
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  cli_print_options(f, CMD_SOLVE);
  fclose(f);
  assert_non_null(strstr(text, "  -t, --time-limit S         time limit in seconds"));
  assert_non_null(strstr(text, "(batch: per job); a number in (0, 1e9]\n"));
  assert_non_null(strstr(text, "default 1); an integer in [0, 16]\n"));
  /* the words of --lns are in its metavar, not said twice */
  assert_non_null(strstr(text, "--lns auto|random|none solve: "
                               "large-neighbourhood search neighbourhoods\n"));
  assert_null(strstr(text, "--phase"));
  free(text);
}

UNIT_TESTS(test_table, test_defaults_and_values, test_errors, test_job_scan,
           test_job_words, test_help)
