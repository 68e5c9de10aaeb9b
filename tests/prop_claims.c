/* prop_claims.c -- every claim remat makes on tiny graphs, at every scale,
 * checked against an exhaustive search (exhaustive.h).
 *
 * Random graphs of 2 to 7 nodes with sizes up to 10^12 and durations up
 * to 10^9, quantised (multiples of a round quantum, which the solvers'
 * scaling meets) and not, are written as files and given to the built
 * binary as a user would run it: `remat solve --copies C`, `remat solve
 * --free-order --copies C`, `remat milp`, `remat milp --copies C`, `remat
 * milp --relax` and the baselines, C one number of 1 to 3 or (every fourth
 * case) a copies file with C_v of 1 to 3 per node.  Then:
 *   - a schedule said to fit re-simulates within the budget, and its exit
 *     code is 0; no command exits 4 (an internal error);
 *   - `optimal` is the exhaustive optimum of the model the command solves
 *     (solve: the input order's stages with at most C_v computations of a
 *     node; --free-order: every sequence with at most C_v; milp: the
 *     stages, any number, or C_v with --copies); a schedule is never
 *     shorter, and the schedule of a command given --copies keeps to its
 *     C_v (the result's "copies": the solve raises C_v to a baseline's
 *     where it is 2 or more, never where it is 1);
 *   - `infeasible` holds in the model its message names (C_v copies on the
 *     stages, any number of recomputations on the stages, or every
 *     sequence in free order);
 *   - every lower bound is at or below the optimum of that model;
 *   - the methods never contradict each other (a consequence of the above).
 * A schedule missed within the time limit is counted, not a failure.
 *
 * Usage: REMAT=build/remat prop_claims [--cases N] [--seed S]
 *          [--time-limit T] [--keep DIR] [-v]
 * Exit 0 when no claim is wrong, 1 otherwise (each wrong claim is printed
 * with the command that made it; --keep DIR keeps those graphs). */
#include <errno.h>
#include <stdarg.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exhaustive.h"
#include "graph.h"
#include "oracle.h"
#include "remat.h"
#include "writer.h"

#define PROP_MAXN 48 /* nodes of the largest case */

typedef struct prop {
  const char *remat;
  const char *keep;
  const char *dir;
  double time_limit;
  int verbose;
  long claims, wrong, missed;
} prop;

static uint64_t prop_rand(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static int64_t prop_range(uint64_t *s, int64_t lo, int64_t hi) {
  return lo + (int64_t)(prop_rand(s) % (uint64_t)(hi - lo + 1));
}

/* One of six scales for sizes (m) and durations (w). */
static void prop_values(uint64_t *s, int scale, int64_t *w, int64_t *m) {
  switch (scale) {
  case 0: /* small */
    *m = prop_range(s, 1, 20);
    *w = prop_range(s, 0, 20);
    break;
  case 1: /* up to 10^12 and 10^9, any value */
    *m = prop_range(s, 1, 1000000000000LL);
    *w = prop_range(s, 0, 1000000000LL);
    break;
  case 2: /* quantised: sizes multiples of 10^9, durations of 10 */
    *m = 1000000000LL * prop_range(s, 1, 1000);
    *w = 10 * prop_range(s, 1, 100000000LL);
    break;
  case 3: /* near 2.5 x 10^12, small differences */
    *m = 2500000000000LL + prop_range(s, 0, 1000);
    *w = prop_range(s, 100000000LL, 1000000000LL);
    break;
  case 4: /* mixed: a few huge sizes, the rest small */
    *m = prop_rand(s) % 3 ? prop_range(s, 1, 1000) : prop_range(s, 1, 1000000000000LL);
    *w = prop_range(s, 1, 1000000000LL);
    break;
  default: /* durations quantised to 7, sizes to 10^6 */
    *m = prop_range(s, 1, 1000000);
    *w = 7 * prop_range(s, 1, 1000);
    break;
  }
}

static remat_graph *prop_graph(uint64_t *s, int n, int scale) {
  int64_t w[EXH_MAXN], m[EXH_MAXN];
  int src[EXH_MAXN * EXH_MAXN], dst[EXH_MAXN * EXH_MAXN], ne = 0;
  int pct = (int)prop_range(s, 25, 70);
  for (int v = 0; v < n; v++) {
    prop_values(s, scale, &w[v], &m[v]);
    int has = 0;
    for (int u = 0; u < v; u++)
      if ((int)(prop_rand(s) % 100) < pct) {
        src[ne] = u, dst[ne++] = v;
        has = 1;
      }
    if (v && !has) {
      src[ne] = (int)(prop_rand(s) % (uint64_t)v);
      dst[ne++] = v;
    }
  }
  return graph_from_arrays(n, w, m, ne, src, dst, "prop");
}

/* Run REMAT with args; stdout to DIR/out.json when json, stderr kept in
 * err (at most errlen).  Returns the exit code, or -1 if it died. */
static int prop_run(const prop *P, char *const argv[], char *err, size_t errlen) {
  char errpath[4096];
  snprintf(errpath, sizeof errpath, "%s/err.txt", P->dir);
  pid_t pid = fork();
  if (pid < 0) {
    perror("fork");
    exit(2);
  }
  if (pid == 0) {
    if (!freopen("/dev/null", "w", stdout) || !freopen(errpath, "w", stderr)) _exit(127);
    execv(P->remat, argv);
    _exit(127);
  }
  int st;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  err[0] = 0;
  FILE *f = fopen(errpath, "r");
  if (f) {
    size_t k = fread(err, 1, errlen - 1, f);
    err[k] = 0;
    fclose(f);
  }
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* What a command claimed, and what its schedule is. */
typedef struct claim {
  char cmd[512];
  int rc;
  char status[32];
  char message[600];
  int has_seq;
  int valid;
  int64_t peak, duration; /* re-simulated */
  int stage;              /* the schedule is stage-structured (input order) */
  int copies;             /* the most computations of one node */
  int cnt[PROP_MAXN];     /* computations of each node */
  int past_copies;        /* a node computed more often than the result's
                             "copies" (its C_v, raised or not) allow */
  int has_bound;
  double bound;
  int copies_kept;        /* the command keeps to C_v (solve --copies) */
  int free_order;         /* it searches every order (solve --free-order) */
  char proof_covers[40];  /* the result's "proof_covers" ("": none) */
  char bound_covers[40];  /* its "lower_bound_covers" */
  int bound_real;         /* "lower_bound" is not a JSON integer */
} claim;

/* Stage-structured for the input order 0..n-1: first computations in
 * index order, each stage's recomputations in increasing index order,
 * all of them below the stage's node. */
static int prop_is_stage(const int *seq, int len) {
  int t = 0, last = -1;
  for (int i = 0; i < len; i++) {
    int v = seq[i];
    if (v == t) {
      t++;
      last = -1;
    } else if (v < t && v > last) {
      last = v;
    } else {
      return 0;
    }
  }
  return 1;
}

static int prop_load(const remat_graph *g, const char *path, claim *c, char *why,
                     size_t whylen) {
  json_error_t je;
  json_t *root = json_load_file(path, 0, &je);
  if (!root) {
    snprintf(why, whylen, "no result JSON (%s)", je.text);
    return -1;
  }
  const char *st = json_string_value(json_object_get(root, "status"));
  const char *msg = json_string_value(json_object_get(root, "message"));
  snprintf(c->status, sizeof c->status, "%s", st ? st : "?");
  snprintf(c->message, sizeof c->message, "%s", msg ? msg : "");
  const char *pc = json_string_value(json_object_get(root, "proof_covers"));
  const char *bc = json_string_value(json_object_get(root, "lower_bound_covers"));
  snprintf(c->proof_covers, sizeof c->proof_covers, "%s", pc ? pc : "");
  snprintf(c->bound_covers, sizeof c->bound_covers, "%s", bc ? bc : "");
  json_t *lb = json_object_get(root, "lower_bound");
  c->bound_real = json_is_real(lb);
  c->has_bound = json_is_number(lb);
  c->bound = c->has_bound ? json_number_value(lb) : 0;
  json_t *seq = json_object_get(root, "sequence");
  c->has_seq = json_is_array(seq) && json_array_size(seq) > 0;
  if (c->has_seq) {
    size_t len = json_array_size(seq);
    int *s = malloc(len * sizeof *s);
    int ok = 1;
    for (size_t i = 0; i < len; i++) {
      json_t *x = json_array_get(seq, i);
      char id[32];
      if (json_is_integer(x))
        snprintf(id, sizeof id, "%lld", (long long)json_integer_value(x));
      else
        snprintf(id, sizeof id, "%s", json_string_value(x) ? json_string_value(x) : "");
      s[i] = remat_graph_find(g, id);
      if (s[i] < 0) ok = 0;
    }
    remat_sim sim;
    if (ok && !remat_simulate(g, s, (int)len, &sim, NULL)) {
      c->valid = 1;
      c->peak = sim.peak;
      c->duration = sim.duration;
      c->stage = prop_is_stage(s, (int)len);
      int *cnt = calloc((size_t)g->n, sizeof *cnt);
      for (size_t i = 0; i < len; i++)
        if (++cnt[s[i]] > c->copies) c->copies = cnt[s[i]];
      for (int v = 0; v < g->n && v < PROP_MAXN; v++) c->cnt[v] = cnt[v];
      json_t *cv = json_object_get(root, "copies");
      for (int v = 0; v < g->n && json_is_object(cv); v++) {
        json_t *x = json_object_get(cv, g->id[v]);
        if (json_is_integer(x) && json_integer_value(x) > 0 && cnt[v] > json_integer_value(x))
          c->past_copies = 1;
      }
      free(cnt);
    }
    free(s);
  }
  json_decref(root);
  return 0;
}

static void prop_wrong(prop *P, const char *gpath, const claim *c, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void prop_wrong(prop *P, const char *gpath, const claim *c, const char *fmt, ...) {
  P->wrong++;
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  fprintf(stderr, "WRONG: %s: remat %s: %s\n", gpath, c->cmd, buf);
}

/* Run one command (args after the binary's name, then GRAPH --budget M -q
 * -o FILE) into c.  Returns 0, or -1 (reported) when it left no result. */
static int prop_command(prop *P, const remat_graph *g, const char *gpath, int64_t M,
                        const char *const *args, int nargs, claim *c) {
  char out[4096], budget[32];
  snprintf(out, sizeof out, "%s/result.json", P->dir);
  snprintf(budget, sizeof budget, "%lld", (long long)M);
  const char *argv[32];
  int k = 0;
  argv[k++] = "remat";
  for (int i = 0; i < nargs; i++) argv[k++] = args[i];
  argv[k++] = gpath;
  argv[k++] = "--budget";
  argv[k++] = budget;
  argv[k++] = "-q";
  argv[k++] = "-o";
  argv[k++] = out;
  argv[k] = NULL;
  memset(c, 0, sizeof *c);
  for (int i = 1; i < k - 2; i++) {
    strncat(c->cmd, argv[i], sizeof c->cmd - strlen(c->cmd) - 2);
    strncat(c->cmd, " ", sizeof c->cmd - strlen(c->cmd) - 1);
  }
  unlink(out);
  char err[600], why[256];
  c->rc = prop_run(P, (char *const *)argv, err, sizeof err);
  P->claims++;
  if (prop_load(g, out, c, why, sizeof why)) {
    prop_wrong(P, gpath, c, "exit %d, %s: %s", c->rc, why, err);
    return -1;
  }
  if (P->verbose)
    fprintf(stderr, "  %s-> exit %d %s peak %lld duration %lld bound %.17g\n", c->cmd, c->rc,
            c->status, (long long)c->peak, (long long)c->duration, c->bound);
  return 0;
}

/* What holds for any command: its exit code, its schedule. */
static int prop_check_self(prop *P, const char *gpath, const claim *c, int64_t M) {
  if (c->rc == 4 || c->rc < 0) {
    prop_wrong(P, gpath, c, "exit %d: %s", c->rc, c->message);
    return -1;
  }
  if (c->rc == 2) {
    prop_wrong(P, gpath, c, "exit 2 on a valid graph: %s", c->message);
    return -1;
  }
  if (c->has_seq && !c->valid) {
    prop_wrong(P, gpath, c, "its schedule does not re-simulate");
    return -1;
  }
  if (c->bound_real)
    prop_wrong(P, gpath, c, "lower bound %.17g is not a JSON integer (rounded)", c->bound);
  int fits = c->valid && c->peak <= M;
  if ((c->rc == 0) != fits) {
    prop_wrong(P, gpath, c, "exit %d but the schedule %s the budget", c->rc,
               fits ? "fits" : "does not fit");
    return -1;
  }
  if (!strcmp(c->status, "optimal") && !fits)
    prop_wrong(P, gpath, c, "optimal without a schedule within budget");
  if (c->has_bound && fits && c->bound > (double)c->duration)
    prop_wrong(P, gpath, c, "lower bound %.17g above its own schedule %lld", c->bound,
               (long long)c->duration);
  return 0;
}

/* The models a claim can speak of. */
enum { MODEL_STAGE_C, MODEL_STAGE_ANY, MODEL_FREE_C, NMODELS };
static const char *model_names[NMODELS] = {"the stages with C_v copies",
                                           "the stages with any number of copies",
                                           "free order with C_v copies"};

/* The narrowest model a "proof_covers" or "lower_bound_covers" value
 * includes (-1: none given).  The covering bound's sequences whose first
 * computations follow the input order include the stages. */
static int prop_covers_model(const char *covers, const claim *c) {
  if (!covers[0]) return -1;
  if (!strcmp(covers, "any-order") || !strcmp(covers, "any-order-copies")) return MODEL_FREE_C;
  if (!strcmp(covers, "stages") || !strcmp(covers, "input-order-firsts"))
    return MODEL_STAGE_ANY;
  (void)c;
  return MODEL_STAGE_C;
}

/* The model an `infeasible` names (its "proof_covers", else its message),
 * or a command solves. */
static int prop_infeasible_model(const claim *c) {
  int k = prop_covers_model(c->proof_covers, c);
  if (k >= 0) return k;
  if (strstr(c->message, "free order") || strstr(c->message, "every sequence"))
    return MODEL_FREE_C;
  if (strstr(c->message, "any number of recomputations") || !c->copies_kept)
    return MODEL_STAGE_ANY;
  return MODEL_STAGE_C;
}

static int prop_solved_model(const claim *c) {
  if (c->free_order) return MODEL_FREE_C;
  return c->copies_kept ? MODEL_STAGE_C : MODEL_STAGE_ANY;
}

/* Does every node of d's schedule keep to its C_v (caps, n nodes)? */
static int prop_within(const claim *d, const int *caps, int n) {
  for (int v = 0; v < n; v++)
    if (d->cnt[v] > caps[v]) return 0;
  return 1;
}

/* Does claim d's schedule belong to model k (caps: the C_v of the case)? */
static int prop_in_model(const claim *d, int k, const int *caps, int n) {
  switch (k) {
  case MODEL_STAGE_C: return d->stage && prop_within(d, caps, n);
  case MODEL_STAGE_ANY: return d->stage;
  default: return prop_within(d, caps, n);
  }
}

/* Claims against the best known schedule of each model: the exhaustive
 * optimum (opt[k] >= 0, or -1: none fits; -2: unknown) and every fitting
 * schedule any command produced. */
static void prop_check_claims(prop *P, const char *gpath, claim *cl, int ncl, int64_t M,
                              const int64_t *opt, const int *caps, int n) {
  int64_t best[NMODELS];
  for (int k = 0; k < NMODELS; k++) {
    best[k] = opt[k];
    for (int j = 0; j < ncl; j++) {
      const claim *d = &cl[j];
      if (!d->valid || d->peak > M || !prop_in_model(d, k, caps, n)) continue;
      if (opt[k] == -1)
        prop_wrong(P, gpath, d, "a schedule of %s fits, but the exhaustive search found none",
                   model_names[k]);
      else if (opt[k] >= 0 && d->duration < opt[k])
        prop_wrong(P, gpath, d, "a schedule of %s shorter (%lld) than its optimum %lld",
                   model_names[k], (long long)d->duration, (long long)opt[k]);
      if (best[k] < 0 || d->duration < best[k]) best[k] = d->duration;
    }
  }
  for (int j = 0; j < ncl; j++) {
    const claim *c = &cl[j];
    if (c->rc != 0 && c->rc != 3) continue;
    int k = prop_solved_model(c);
    /* C_v may be raised to a baseline's copies, never where it is 1
     * (docs/method.md, "Copies"); the result's "copies" says where */
    int raised_one = 0;
    for (int v = 0; v < n; v++)
      if (caps[v] == 1 && c->cnt[v] > 1) raised_one = 1;
    if (c->copies_kept && c->valid && (c->past_copies || raised_one))
      prop_wrong(P, gpath, c, "a node computed %d times, more than its C_v", c->copies);
    if (!c->free_order && c->copies_kept && c->valid && !c->stage)
      prop_wrong(P, gpath, c, "its schedule is not on the input order's stages");
    if (!strcmp(c->status, "optimal") && c->valid && c->peak <= M) {
      if (best[k] >= 0 && c->duration > best[k])
        prop_wrong(P, gpath, c, "optimal at %lld, but %s has %lld", (long long)c->duration,
                   model_names[k], (long long)best[k]);
    }
    if (!strcmp(c->status, "infeasible")) {
      int named = prop_infeasible_model(c);
      if (best[named] >= 0)
        prop_wrong(P, gpath, c, "infeasible (%s), but a schedule of duration %lld fits: %s",
                   model_names[named], (long long)best[named], c->message);
    }
    int kb = prop_covers_model(c->bound_covers, c);
    if (kb < 0) kb = k;
    if (c->has_bound && best[kb] >= 0 && c->bound > (double)best[kb])
      prop_wrong(P, gpath, c, "lower bound %.17g above %s's best schedule %lld", c->bound,
                 model_names[kb], (long long)best[kb]);
    if (!strcmp(c->status, "optimal") || !strcmp(c->status, "infeasible")) continue;
    if (opt[k] >= 0 && !(c->valid && c->peak <= M) &&
        !strncmp(c->cmd, "solve", 5))
      P->missed++;
  }
}

/* Write g to a file for the commands; the path in gpath. */
static void prop_write(const prop *P, const remat_graph *g, long index, char *gpath,
                       size_t len) {
  if (P->keep)
    snprintf(gpath, len, "%s/case-%ld.json", P->keep, index);
  else
    snprintf(gpath, len, "%s/graph.json", P->dir);
  FILE *f = fopen(gpath, "w");
  if (!f || writer_graph_json(g, f)) {
    fprintf(stderr, "prop_claims: cannot write %s\n", gpath);
    exit(2);
  }
  fclose(f);
}

/* The --copies argument for caps: one number when every node has the
 * same, else a JSON file of C_v per node next to the graph. */
static void prop_copies_arg(const prop *P, const remat_graph *g, const int *caps, long index,
                            char *arg, size_t len) {
  int same = 1;
  for (int v = 1; v < g->n; v++) same = same && caps[v] == caps[0];
  if (same) {
    snprintf(arg, len, "%d", caps[0]);
    return;
  }
  if (P->keep)
    snprintf(arg, len, "%s/case-%ld.copies.json", P->keep, index);
  else
    snprintf(arg, len, "%s/copies.json", P->dir);
  FILE *f = fopen(arg, "w");
  if (!f) {
    fprintf(stderr, "prop_claims: cannot write %s\n", arg);
    exit(2);
  }
  fprintf(f, "{");
  for (int v = 0; v < g->n; v++) fprintf(f, "%s\"%s\": %d", v ? ", " : "", g->id[v], caps[v]);
  fprintf(f, "}\n");
  fclose(f);
}

/* Per-node C_v: C for every node, or (every fourth case) a random C_v of
 * 1 to 3 per node. */
static void prop_caps(uint64_t *s, long index, int C, int n, int *caps) {
  for (int v = 0; v < n; v++) caps[v] = index % 4 == 3 ? (int)prop_range(s, 1, 3) : C;
}

/* Every command on g at budget M; caps are the C_v (--copies) of solve
 * and milp --copies. */
static void prop_run_all(prop *P, const remat_graph *g, const char *gpath, int64_t M,
                         const int *caps, long index, const int64_t *opt) {
  char copies[4200], tl[32];
  prop_copies_arg(P, g, caps, index, copies, sizeof copies);
  snprintf(tl, sizeof tl, "%g", P->time_limit);
  claim cl[10];
  int ncl = 0;
  const char *solve[] = {"solve", "--copies", copies, "--threads", "1", "--time-limit", tl};
  const char *free_solve[] = {"solve", "--free-order", "--copies", copies,
                              "--threads", "1", "--time-limit", tl};
  const char *milp[] = {"milp", "--threads", "1", "--time-limit", tl};
  const char *milp_c[] = {"milp", "--copies", copies, "--threads", "1", "--time-limit", tl};
  const char *relax[] = {"milp", "--relax", "--time-limit", tl};
  static const char *methods[] = {"checkpoint-all", "chen-sqrtn", "chen-greedy"};
  if (!prop_command(P, g, gpath, M, solve, 7, &cl[ncl])) {
    cl[ncl].copies_kept = 1;
    ncl++;
  }
  if (!prop_command(P, g, gpath, M, free_solve, 8, &cl[ncl])) {
    cl[ncl].copies_kept = 1;
    cl[ncl].free_order = 1;
    ncl++;
  }
  if (!prop_command(P, g, gpath, M, milp, 5, &cl[ncl])) ncl++;
  if (!prop_command(P, g, gpath, M, milp_c, 7, &cl[ncl])) {
    cl[ncl].copies_kept = 1;
    ncl++;
  }
  if (!prop_command(P, g, gpath, M, relax, 4, &cl[ncl])) ncl++;
  for (int i = 0; i < 3; i++) {
    const char *base[] = {"baseline", "--method", methods[i]};
    if (!prop_command(P, g, gpath, M, base, 3, &cl[ncl])) ncl++;
  }
  int good = 0;
  for (int j = 0; j < ncl; j++)
    if (!prop_check_self(P, gpath, &cl[j], M)) cl[good++] = cl[j];
  prop_check_claims(P, gpath, cl, good, M, opt, caps, g->n);
}

/* With --keep, a case's files are kept only when a claim was wrong. */
static void prop_unkeep(const prop *P, long index, long before, const char *gpath) {
  if (!P->keep || P->wrong != before) return;
  unlink(gpath);
  char path[4200];
  snprintf(path, sizeof path, "%s/case-%ld.copies.json", P->keep, index);
  unlink(path);
}

/* Small cases: 2 to 7 nodes, every claim against the exhaustive optima. */
static void prop_case_small(prop *P, uint64_t seed, long index) {
  uint64_t s = seed;
  int n = (int)prop_range(&s, 2, EXH_MAXN);
  int scale = (int)(index % 6);
  int C = (int)prop_range(&s, 1, 3);
  remat_graph *g = prop_graph(&s, n, scale);
  int64_t lo = remat_graph_min_peak(g), hi = remat_topo_peak(g);
  int64_t choices[5] = {lo - 1, lo, prop_range(&s, lo, hi), hi - 1, hi};
  int64_t M = choices[prop_rand(&s) % 5];
  if (M < 0) M = lo;
  char gpath[4096];
  prop_write(P, g, index, gpath, sizeof gpath);
  int caps[EXH_MAXN];
  prop_caps(&s, index, C, n, caps);
  int64_t opt[NMODELS] = {exh_best(g, M, caps, 1), exh_best(g, M, NULL, 1),
                          exh_best(g, M, caps, 0)};
  if (P->verbose)
    fprintf(stderr, "case %ld: n=%d scale %d C=%d M=%lld: stages C %lld, any %lld, free %lld\n",
            index, n, scale, C, (long long)M, (long long)opt[0], (long long)opt[1],
            (long long)opt[2]);
  long before = P->wrong;
  prop_run_all(P, g, gpath, M, caps, index, opt);
  prop_unkeep(P, index, before, gpath);
  remat_graph_free(g);
}

/* A layered graph of n nodes: a few nodes per layer, edges to the next
 * layer and some skipping layers (long-lived values, as in the training
 * and random layered graphs). */
static remat_graph *prop_layered(uint64_t *s, int n, int scale) {
  oracle_arrays a = oracle_arrays_new(n, n * 8);
  int *layer = malloc((size_t)n * sizeof *layer);
  int L = 0, width = 0;
  for (int v = 0; v < n; v++) {
    prop_values(s, scale, &a.w[v], &a.m[v]);
    if (v == 0 || width >= 1 + (int)(prop_rand(s) % 3)) {
      L += v > 0;
      width = 0;
    }
    layer[v] = L;
    width++;
    if (!v) continue;
    int has = 0;
    for (int u = v - 1; u >= 0 && a.ne < n * 8 - 2; u--) {
      int gap = L - layer[u];
      int pct = gap == 1 ? 60 : gap == 0 ? 0 : 8;
      if ((int)(prop_rand(s) % 100) < pct) {
        oracle_edge(&a, u, v);
        has = 1;
      }
    }
    if (!has) oracle_edge(&a, v - 1, v);
  }
  free(layer);
  return oracle_build(&a, "prop");
}

/* Large cases: 15 to 40 nodes, no exhaustive optimum: every claim against
 * the schedules the other commands found. */
static void prop_case_large(prop *P, uint64_t seed, long index) {
  uint64_t s = seed;
  int n = (int)prop_range(&s, 15, 40);
  int scale = 1 + (int)(index % 5);
  int C = (int)prop_range(&s, 1, 3);
  remat_graph *g = prop_layered(&s, n, scale);
  int64_t lo = remat_graph_min_peak(g), hi = remat_topo_peak(g);
  int64_t M = lo + (int64_t)((double)(hi - lo) * (0.3 + 0.6 * (double)(prop_rand(&s) % 1000) / 1000));
  char gpath[4096];
  prop_write(P, g, index, gpath, sizeof gpath);
  int64_t opt[NMODELS] = {-2, -2, -2};
  int caps[PROP_MAXN];
  prop_caps(&s, index, C, n, caps);
  if (P->verbose)
    fprintf(stderr, "case %ld (large): n=%d scale %d C=%d M=%lld\n", index, n, scale, C,
            (long long)M);
  long before = P->wrong;
  prop_run_all(P, g, gpath, M, caps, index, opt);
  prop_unkeep(P, index, before, gpath);
  remat_graph_free(g);
}

int main(int argc, char **argv) {
  prop P = {0};
  P.remat = getenv("REMAT");
  P.time_limit = 3;
  long cases = 60;
  int large = 0;
  uint64_t seed = 1;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--cases") && i + 1 < argc)
      cases = atol(argv[++i]);
    else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
      seed = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--time-limit") && i + 1 < argc)
      P.time_limit = atof(argv[++i]);
    else if (!strcmp(argv[i], "--keep") && i + 1 < argc)
      P.keep = argv[++i];
    else if (!strcmp(argv[i], "--large"))
      large = 1;
    else if (!strcmp(argv[i], "-v"))
      P.verbose = 1;
    else {
      fprintf(stderr,
              "usage: REMAT=build/remat prop_claims [--cases N] [--seed S] [--large] "
              "[--time-limit T] [--keep DIR] [-v]\n");
      return 2;
    }
  }
  if (!P.remat) {
    fprintf(stderr, "prop_claims: set REMAT to the remat binary\n");
    return 2;
  }
  char dir[] = "/tmp/remat-prop-XXXXXX";
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 2;
  }
  P.dir = dir;
  if (P.keep) mkdir(P.keep, 0755);
  for (long i = 0; i < cases; i++) {
    uint64_t s = seed * 1000003u + (uint64_t)i;
    prop_rand(&s);
    if (large)
      prop_case_large(&P, s, i);
    else
      prop_case_small(&P, s, i);
  }
  static const char *files[] = {"graph.json", "result.json", "err.txt", "copies.json"};
  for (int i = 0; i < 4; i++) {
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, files[i]);
    unlink(path);
  }
  rmdir(dir);
  printf("prop_claims%s: %ld cases, %ld claims checked, %ld wrong, %ld solves without a "
         "schedule within the time limit where one fits\n",
         large ? " --large" : "", cases, P.claims, P.wrong, P.missed);
  return P.wrong ? 1 : 0;
}
