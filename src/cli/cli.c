/* cli.c -- the option table's parser and help printer. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

enum { T_B, T_I, T_D, T_S };

typedef struct cli_def {
  const char *lname;
  char sname;
  int type;
  const char *meta;
  int cmds;
  const char *help;
  size_t off, set_off;
} cli_def;

static const cli_def cli_defs[] = {
#define O(field, lname, sname, type, def, meta, cmds, help)            \
  {lname, sname, T_##type, meta, cmds, help, offsetof(cli_opts, field), \
   offsetof(cli_opts, field##_set)},
    CLI_OPTIONS
#undef O
};
#define CLI_NDEFS (sizeof cli_defs / sizeof *cli_defs)

static void cli_defaults(cli_opts *o) {
  memset(o, 0, sizeof *o);
#define O(field, lname, sname, type, def, meta, cmds, help) o->field = def;
  CLI_OPTIONS
#undef O
}

static int cli_set(const cli_def *d, const char *name, const char *arg,
                   cli_opts *o, const char *cmdname) {
  char *base = (char *)o;
  char *end;
  errno = 0;
  switch (d->type) {
  case T_I: {
    long v = strtol(arg, &end, 10);
    if (errno || end == arg || *end) {
      fprintf(stderr, "remat %s: --%s needs an integer, not '%s'\n", cmdname,
              name, arg);
      return 2;
    }
    *(long *)(base + d->off) = v;
    break;
  }
  case T_D: {
    double v = strtod(arg, &end);
    if (errno || end == arg || *end) {
      fprintf(stderr, "remat %s: --%s needs a number, not '%s'\n", cmdname,
              name, arg);
      return 2;
    }
    *(double *)(base + d->off) = v;
    break;
  }
  case T_S:
    *(const char **)(base + d->off) = arg;
    break;
  default:
    *(int *)(base + d->off) = 1;
  }
  *(int *)(base + d->set_off) = 1;
  return 0;
}

static const cli_def *cli_find(const char *lname, size_t len, char sname) {
  for (size_t i = 0; i < CLI_NDEFS; i++) {
    const cli_def *d = &cli_defs[i];
    if (sname ? d->sname == sname
              : (strlen(d->lname) == len && !strncmp(d->lname, lname, len)))
      return d;
  }
  return NULL;
}

int cli_parse(int cmd, const char *name, int argc, char **argv,
              cli_opts *o) {
  cli_defaults(o);
  o->pos = util_calloc((size_t)argc + 1, sizeof *o->pos);
  int only_pos = 0;
  for (int i = 0; i < argc; i++) {
    char *a = argv[i];
    if (only_pos || a[0] != '-' || !a[1]) {
      o->pos[o->npos++] = a;
      continue;
    }
    if (!strcmp(a, "--")) {
      only_pos = 1;
      continue;
    }
    const cli_def *d;
    const char *val = NULL;
    char shown[64];
    if (a[1] == '-') {
      const char *eq = strchr(a + 2, '=');
      size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
      d = cli_find(a + 2, len, 0);
      if (eq) val = eq + 1;
      snprintf(shown, sizeof shown, "%.*s", (int)len, a + 2);
    } else {
      d = a[2] ? NULL : cli_find(NULL, 0, a[1]);
      snprintf(shown, sizeof shown, "%s", a);
    }
    if (!d || !(d->cmds & cmd)) {
      fprintf(stderr, "remat %s: unknown option %s%s (see remat %s --help)\n",
              name, a[1] == '-' ? "--" : "", shown, name);
      return 2;
    }
    if (d->type == T_B) {
      if (val) {
        fprintf(stderr, "remat %s: --%s takes no value\n", name, d->lname);
        return 2;
      }
      cli_set(d, d->lname, "1", o, name);
      continue;
    }
    if (!val) {
      if (i + 1 >= argc) {
        fprintf(stderr, "remat %s: --%s needs a value (%s)\n", name, d->lname,
                d->meta);
        return 2;
      }
      val = argv[++i];
    }
    if (cli_set(d, d->lname, val, o, name)) return 2;
  }
  return 0;
}

void cli_print_options(FILE *f, int cmd) {
  for (size_t i = 0; i < CLI_NDEFS; i++) {
    const cli_def *d = &cli_defs[i];
    if (!(d->cmds & cmd)) continue;
    char left[64];
    if (d->sname)
      snprintf(left, sizeof left, "-%c, --%s%s%s", d->sname, d->lname,
               d->meta ? " " : "", d->meta ? d->meta : "");
    else
      snprintf(left, sizeof left, "    --%s%s%s", d->lname, d->meta ? " " : "",
               d->meta ? d->meta : "");
    fprintf(f, "  %-26s %s\n", left, d->help);
  }
}

void cli_free(cli_opts *o) {
  free(o->pos);
  o->pos = NULL;
}
