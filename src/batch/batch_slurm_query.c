/* batch_slurm_query.c -- Slurm's view of an array's tasks (see
 * batch_slurm_query.h). */
#include "batch_slurm_query.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "child.h"
#include "util.h"

/* ------------------------------------------------------------ commands */

typedef struct bsq_sink {
  util_buf out, err;
} bsq_sink;

static void bsq_collect(void *ctx, int stream, const char *buf, size_t n) {
  bsq_sink *s = ctx;
  util_buf *b = stream == 1 ? &s->out : &s->err;
  for (size_t i = 0; i < n; i++) util_buf_putc(b, buf[i]);
}

static char *bsq_take(util_buf *b) {
  util_buf_puts(b, "");
  return b->s;
}

int bsq_run(char *const *argv, double seconds, char **out, char **err) {
  child c;
  child_cmd o;
  child_cmd_init(&o);
  o.capture = 1;
  o.null_stdin = 1;
  bsq_sink s = {{0}, {0}};
  char msg[1024];
  int rc;
  if (child_spawn(&c, argv, &o, msg, sizeof msg)) {
    util_buf_puts(&s.err, msg);
    rc = 127;
  } else {
    int stopped = 0;
    while (!child_poll(&c, 5, 50, bsq_collect, &s))
      if (!stopped && util_now() - c.t0 > seconds) {
        child_stop(&c);
        stopped = 1;
      }
    int st = c.status;
    rc = stopped ? 124 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  }
  if (out) *out = bsq_take(&s.out);
  else util_buf_free(&s.out);
  if (err) *err = bsq_take(&s.err);
  else util_buf_free(&s.err);
  return rc;
}

/* ------------------------------------------------------------- states */

void bsq_array_init(bsq_array *a, const char *job, int n) {
  memset(a, 0, sizeof *a);
  snprintf(a->job, sizeof a->job, "%s", job);
  a->n = n;
  a->task = util_calloc((size_t)(n > 0 ? n : 1), sizeof *a->task);
}

void bsq_array_free(bsq_array *a) {
  free(a->task);
  memset(a, 0, sizeof *a);
}

int bsq_final(const char *state) {
  static const char *const fin[] = {"COMPLETED", "FAILED",     "TIMEOUT",
                                    "CANCELLED", "NODE_FAIL",  "PREEMPTED",
                                    "OUT_OF_MEMORY", "BOOT_FAIL", "DEADLINE",
                                    NULL};
  for (const char *const *f = fin; *f; f++)
    if (!strcmp(state, *f)) return 1;
  return 0;
}

/* Copy the first word of src (n bytes at most) into dst. */
static void bsq_word(char *dst, size_t cap, const char *src, size_t n) {
  size_t k = 0;
  while (k < n && src[k] && src[k] != ' ' && src[k] != '\n') k++;
  snprintf(dst, cap, "%.*s", (int)k, src);
}

/* Set task `id` (text, 1-based) unless it is known already. */
static void bsq_set(bsq_array *a, const char *id, const char *state,
                    size_t slen, const char *exit, size_t elen,
                    const char *from, int override) {
  char *end;
  long i = strtol(id, &end, 10);
  if (end == id || i < 1 || i > a->n) return;
  bsq_task *t = &a->task[i - 1];
  if (t->state[0] && !override) return;
  bsq_word(t->state, sizeof t->state, state, slen);
  bsq_word(t->exit, sizeof t->exit, exit ? exit : "", exit ? elen : 0);
  snprintf(t->from, sizeof t->from, "%s", from);
}

/* Lines of "TASK|STATE[|EXIT]" (squeue's %K|%T, sacct's JobID|State|
 * ExitCode with JobID "JOB_TASK"); lines of other jobs or of pending
 * ranges ("JOB_[3-9]") are skipped. */
static void bsq_parse_bars(bsq_array *a, const char *text, int sacct) {
  for (const char *p = text; *p;) {
    const char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p) : strlen(p);
    char *line = util_strndup(p, len), *f[3] = {line, NULL, NULL};
    for (int k = 1; k < 3 && f[k - 1]; k++)
      if ((f[k] = strchr(f[k - 1], '|'))) *f[k]++ = 0;
    const char *id = f[0];
    size_t jl = strlen(a->job);
    if (sacct)
      id = !strncmp(id, a->job, jl) && id[jl] == '_' ? id + jl + 1 : "";
    if (f[1] && !strchr(id, '['))
      bsq_set(a, id, f[1], strlen(f[1]), f[2], f[2] ? strlen(f[2]) : 0,
              sacct ? "sacct" : "squeue", 0);
    free(line);
    p += len + (nl ? 1 : 0);
  }
}

static void bsq_squeue(bsq_array *a) {
  char *argv[] = {"squeue", "--noheader", "--array", "--states=all",
                  "--jobs", a->job, "--format=%K|%T", NULL};
  char *out, *err;
  if (!bsq_run(argv, 60, &out, &err)) bsq_parse_bars(a, out, 0);
  else a->gone = strstr(err, "Invalid job id") != NULL;
  free(out);
  free(err);
}

static void bsq_sacct(bsq_array *a) {
  char *argv[] = {"sacct", "--noheader", "--parsable2", "--allocations",
                  "--jobs", a->job, "--format=JobID,State,ExitCode", NULL};
  char *out;
  if (!bsq_run(argv, 60, &out, NULL)) bsq_parse_bars(a, out, 1);
  free(out);
}

/* The value of "KEY=" in a jobcomp line (up to the next blank). */
static const char *bsq_field(const char *line, const char *key, size_t *n) {
  size_t k = strlen(key);
  for (const char *p = line; (p = strstr(p, key)); p += k)
    if (p == line || p[-1] == ' ') {
      p += k;
      *n = strcspn(p, " \n");
      return p;
    }
  return NULL;
}

/* JobCompLoc when JobCompType is jobcomp/filetxt (scontrol show config's
 * "Key = value" lines), else NULL. */
static char *bsq_jobcomp_path(void) {
  char *argv[] = {"scontrol", "show", "config", NULL}, *out, *path = NULL;
  if (!bsq_run(argv, 60, &out, NULL) && strstr(out, "jobcomp/filetxt")) {
    char *p = strstr(out, "\nJobCompLoc");
    if (p && (p = strchr(p, '='))) {
      p += 1 + strspn(p + 1, " ");
      path = util_strndup(p, strcspn(p, "\n"));
    }
  }
  free(out);
  return path;
}

/* The log's lines of this array into b (the last line of a task wins). */
static void bsq_jobcomp_read(bsq_array *b) {
  char *path = bsq_jobcomp_path(), *text;
  size_t len, jn, tn, sn, en;
  if (!path || !(text = util_read_file(path, &len))) {
    free(path);
    return;
  }
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    const char *job = bsq_field(line, "ArrayJobId=", &jn);
    const char *task = bsq_field(line, "ArrayTaskId=", &tn);
    const char *st = bsq_field(line, "JobState=", &sn);
    const char *ex = bsq_field(line, "ExitCode=", &en);
    if (job && task && st && jn == strlen(b->job) && !strncmp(job, b->job, jn))
      bsq_set(b, task, st, sn, ex, ex ? en : 0, "jobcomp", 1);
  }
  free(text);
  free(path);
}

static void bsq_jobcomp(bsq_array *a) {
  bsq_array b;
  bsq_array_init(&b, a->job, a->n);
  bsq_jobcomp_read(&b);
  for (int i = 0; i < a->n; i++)
    if (!a->task[i].state[0]) a->task[i] = b.task[i];
  bsq_array_free(&b);
}

int bsq_query(bsq_array *a) {
  for (int i = 0; i < a->n; i++) memset(&a->task[i], 0, sizeof a->task[i]);
  a->gone = 0;
  void (*source[])(bsq_array *) = {bsq_squeue, bsq_sacct, bsq_jobcomp};
  int unknown = a->n;
  for (int s = 0; s < 3 && unknown; s++) {
    source[s](a);
    unknown = 0;
    for (int i = 0; i < a->n; i++) unknown += !a->task[i].state[0];
  }
  return unknown;
}
