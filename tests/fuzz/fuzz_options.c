/* fuzz_options.c -- command lines: the input's lines are the words of a
 * command line, parsed for each command by the one option table; a parse
 * either succeeds with every value within its range or fails with a
 * message. */
#include "fuzz.h"

#include "options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_text(data, size);
  char *argv[64];
  int argc = 0;
  for (char *p = text, *line; argc < 63 && (line = strsep(&p, "\n"));) argv[argc++] = line;
  argv[argc] = NULL;
  static const int cmds[] = {CMD_SOLVE, CMD_EMIT, CMD_EVAL, CMD_GEN, CMD_MILP, CMD_BASELINE,
                             CMD_COMPARE, CMD_BATCH, CMD_TUNE, CMD_PLOT, CMD_INFO, CMD_ORDER};
  for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) {
    cli_opts o;
    char err[512] = "";
    if (cli_parse(cmds[i], "fuzz", argc, argv, &o, err, sizeof err) == 0) {
      fuzz_require(o.time_limit > 0 && o.time_limit <= 1e9);
      fuzz_require(o.threads >= 0 && o.threads <= REMAT_MAX_THREADS);
      fuzz_require(o.npos >= 0 && o.npos <= argc);
    } else {
      fuzz_require(err[0] != 0);
    }
    cli_free(&o);
  }
  free(text);
  return 0;
}
