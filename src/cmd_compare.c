/* cmd_compare.c -- placeholder until the command lands. */
#include <stdio.h>

#include "cmd.h"

int cmd_compare(const char *name, int argc, char **argv) {
  (void)argc;
  (void)argv;
  fprintf(stderr, "remat %s: not implemented yet\n", name);
  return 2;
}
