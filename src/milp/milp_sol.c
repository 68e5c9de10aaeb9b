/* milp_sol.c -- solution files of the MILP (milp_sol.h). */
#include "milp_sol.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "stage.h"
#include "util.h"

int milp_schedule_x(const milp_model *md, const int *seq, int len, double *x) {
  int n = md->n, rc = -1;
  stage_mat R, S;
  stage_mat_init(&R, n);
  stage_mat_init(&S, n);
  memset(x, 0, (size_t)md->lp.ncols * sizeof *x);
  if (!stage_from_sequence(seq, len, &R)) {
    stage_canonical_s(md->g, &R, &S);
    for (int t = 1; t < n; t++)
      for (int i = 0; i < t; i++) {
        x[milp_col_r(t, i)] = stage_get(&R, t, i);
        x[milp_col_s(md, t, i)] = stage_get(&S, t, i);
      }
    rc = 0;
  }
  stage_mat_free(&R);
  stage_mat_free(&S);
  return rc;
}

int milp_write_solution(const milp_model *md, const double *x, FILE *f) {
  fprintf(f, "# remat: R and S of a schedule of %s at budget %lld (columns not listed are 0)\n",
          md->g->name, (long long)md->budget);
  char name[64];
  for (int j = 0; j < md->lp.ncols; j++)
    if (md->lp.integer[j] && x[j] > 0.5) { /* R and S */
      milp_col_name(md, NULL, j, name, sizeof name);
      fprintf(f, "%s 1\n", name);
    }
  return ferror(f) ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* Reading                                                             */
/* ------------------------------------------------------------------ */

/* A FREE column by (t, i, k), for the lookup. */
typedef struct ms_free {
  int t, i, k, col;
} ms_free;

static int ms_free_cmp(const void *a, const void *b) {
  const ms_free *x = a, *y = b;
  if (x->t != y->t) return x->t < y->t ? -1 : 1;
  if (x->i != y->i) return x->i < y->i ? -1 : 1;
  return x->k < y->k ? -1 : x->k > y->k;
}

typedef struct ms_reader {
  const milp_model *md;
  const char *path; /* as shown */
  FILE *f;
  char *line;
  size_t cap;
  long lineno;
  double *x;
  unsigned char *seen;
  ms_free *frees; /* sorted */
  int nfree;
  long values;    /* columns read */
  char *err;
  size_t errlen;
} ms_reader;

static int ms_fail(ms_reader *X, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int ms_fail(ms_reader *X, const char *fmt, ...) {
  char what[300];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  return util_err(X->err, X->errlen, REMAT_EUSAGE, "%s:%ld: %s", X->path, X->lineno, what);
}

/* The next line without its end (NULL at the end of the file). */
static char *ms_next(ms_reader *X) {
  ssize_t k = getline(&X->line, &X->cap, X->f);
  if (k < 0) return NULL;
  X->lineno++;
  while (k > 0 && (X->line[k - 1] == '\n' || X->line[k - 1] == '\r')) X->line[--k] = 0;
  return X->line;
}

static int ms_blank(const char *s) {
  while (isspace((unsigned char)*s)) s++;
  return !*s;
}

/* "PREFIX_a_b[_c]" with exactly `want` indices into v[]; 1 if it matches. */
static int ms_indices(const char *name, const char *prefix, int want, int *v) {
  size_t lp = strlen(prefix);
  if (strncmp(name, prefix, lp)) return 0;
  const char *s = name + lp;
  for (int k = 0; k < want; k++) {
    if (*s++ != '_' || !isdigit((unsigned char)*s)) return 0;
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (errno || x > 1000000000L) return 0;
    v[k] = (int)x;
    s = end;
  }
  return *s == 0;
}

/* The column of a name, -1 when it is none of md's. */
static int ms_column(const ms_reader *X, const char *name) {
  const milp_model *md = X->md;
  int v[3], n = md->n;
  if (ms_indices(name, "R", 2, v)) return v[0] < n && v[1] < v[0] ? milp_col_r(v[0], v[1]) : -1;
  if (ms_indices(name, "S", 2, v))
    return v[0] < n && v[1] < v[0] ? milp_col_s(md, v[0], v[1]) : -1;
  if (ms_indices(name, "U", 2, v))
    return v[0] < n && v[1] <= v[0] ? milp_col_u(md, v[0], v[1]) : -1;
  if (ms_indices(name, "FREE", 3, v)) {
    ms_free key = {v[0], v[1], v[2], 0};
    const ms_free *f = bsearch(&key, X->frees, (size_t)X->nfree, sizeof key, ms_free_cmp);
    return f ? f->col : -1;
  }
  return -1;
}

/* One column's value. */
static int ms_value(ms_reader *X, const char *name, const char *num) {
  int j = ms_column(X, name);
  if (j < 0) return ms_fail(X, "%s is not a column of this model", name);
  char *end;
  errno = 0;
  double v = strtod(num, &end);
  if (end == num || *end || errno == ERANGE || !isfinite(v))
    return ms_fail(X, "the value of %s is not a number: '%s'", name, num);
  if (X->seen[j]) return ms_fail(X, "%s is given twice", name);
  if (X->md->lp.integer[j] && (fabs(v - round(v)) > 1e-4 || v < -1e-4 || v > 1 + 1e-4))
    return ms_fail(X, "%s is binary, but its value is %s", name, num);
  X->seen[j] = 1;
  X->x[j] = v;
  X->values++;
  return 0;
}

/* Split s into at most `most` whitespace-separated tokens; the count. */
static int ms_tokens(char *s, char **tok, int most) {
  int k = 0;
  char *save = NULL;
  for (char *p = strtok_r(s, " \t", &save); p; p = strtok_r(NULL, " \t", &save)) {
    if (k == most) return most + 1;
    tok[k++] = p;
  }
  return k;
}

/* CBC: "Status - objective value V", then "[**] index name value dj". */
static int ms_cbc(ms_reader *X) {
  char *s;
  while ((s = ms_next(X))) {
    if (ms_blank(s)) continue;
    char *tok[6];
    int k = ms_tokens(s, tok, 5), o = k > 0 && !strcmp(tok[0], "**");
    if (k - o != 4) return ms_fail(X, "expected 'index name value reduced-cost'");
    char *end;
    strtol(tok[o], &end, 10);
    if (*end || end == tok[o])
      return ms_fail(X, "expected a column index, not '%s'", tok[o]);
    if (ms_value(X, tok[o + 1], tok[o + 2])) return REMAT_EUSAGE;
  }
  return 0;
}

/* HiGHS: "Model status" / status / "# Primal solution values" /
 * Feasible|Infeasible|None / "Objective V" / "# Columns N" / N lines. */
static int ms_highs(ms_reader *X, char *status, size_t slen) {
  char *s = ms_next(X);
  if (!s) return ms_fail(X, "the file ends after 'Model status'");
  snprintf(status, slen, "%s", s);
  while ((s = ms_next(X)) && strncmp(s, "# Primal solution values", 24)) {
  }
  if (!s) return ms_fail(X, "no '# Primal solution values' section");
  if (!(s = ms_next(X))) return ms_fail(X, "the file ends in the primal solution");
  if (!strcmp(s, "None")) return ms_fail(X, "HiGHS wrote no primal solution (status %s)", status);
  long ncols = -1;
  while ((s = ms_next(X))) {
    if (!strncmp(s, "# Columns ", 10)) {
      char *end;
      ncols = strtol(s + 10, &end, 10);
      if (*end || ncols < 0) return ms_fail(X, "bad column count '%s'", s + 10);
      break;
    }
  }
  if (ncols < 0) return ms_fail(X, "no '# Columns' line");
  for (long c = 0; c < ncols; c++) {
    if (!(s = ms_next(X)))
      return ms_fail(X, "the file ends before the %ld columns it announces", ncols);
    char *tok[3];
    if (ms_tokens(s, tok, 2) != 2) return ms_fail(X, "expected 'name value'");
    if (ms_value(X, tok[0], tok[1])) return REMAT_EUSAGE;
  }
  return 0;
}

/* SCIP: "solution status: S" / "objective value: V" / "name value
 * (obj:c)" lines; plain: "name value" lines and # comments. */
static int ms_pairs(ms_reader *X, int scip) {
  char *s;
  while ((s = ms_next(X))) {
    if (ms_blank(s) || s[0] == '#') continue;
    if (scip && !strncmp(s, "objective value:", 16)) continue;
    char *tok[4];
    int k = ms_tokens(s, tok, 3);
    if (!(k == 2 || (scip && k == 3 && !strncmp(tok[2], "(obj:", 5))))
      return ms_fail(X, "expected 'name value%s'", scip ? " [(obj:c)]" : "");
    if (ms_value(X, tok[0], tok[1])) return REMAT_EUSAGE;
  }
  return 0;
}

static int ms_read(ms_reader *X, char *status, size_t slen) {
  char *s;
  while ((s = ms_next(X)) && ms_blank(s)) {
  }
  if (!s) return ms_fail(X, "empty solution file");
  char *ov = strstr(s, " - objective value");
  if (!strncmp(s, "Model status", 12)) return ms_highs(X, status, slen);
  if (!strncmp(s, "solution status:", 16)) {
    const char *w = s + 16;
    while (*w == ' ') w++;
    snprintf(status, slen, "%s", w);
    return ms_pairs(X, 1);
  }
  if (ov) {
    snprintf(status, slen, "%.*s", (int)(ov - s), s);
    return ms_cbc(X);
  }
  rewind(X->f); /* a plain list: its first line is a pair or a comment */
  X->lineno = 0;
  return ms_pairs(X, 0);
}

int milp_read_solution(const milp_model *md, const char *path, double *x, char *status,
                       size_t statuslen, char *err, size_t errlen) {
  ms_reader X;
  memset(&X, 0, sizeof X);
  X.md = md;
  X.path = util_shown_path(path);
  X.x = x;
  X.err = err;
  X.errlen = errlen;
  status[0] = 0;
  X.f = fopen(path, "r");
  if (!X.f)
    return util_err(err, errlen, REMAT_EUSAGE, "cannot read %s: %s", X.path, strerror(errno));
  memset(x, 0, (size_t)md->lp.ncols * sizeof *x);
  X.seen = util_calloc((size_t)md->lp.ncols + 1, 1);
  X.nfree = md->lp.ncols - md->f_base;
  milp_tag *ft = util_malloc((size_t)(X.nfree ? X.nfree : 1) * sizeof *ft);
  milp_tag *rt = util_malloc((size_t)(md->lp.nrows ? md->lp.nrows : 1) * sizeof *rt);
  milp_tags(md, rt, ft);
  X.frees = util_malloc((size_t)(X.nfree ? X.nfree : 1) * sizeof *X.frees);
  for (int q = 0; q < X.nfree; q++)
    X.frees[q] = (ms_free){ft[q].t, ft[q].a, ft[q].c, md->f_base + q};
  qsort(X.frees, (size_t)X.nfree, sizeof *X.frees, ms_free_cmp);
  free(ft);
  free(rt);
  int rc = ms_read(&X, status, statuslen);
  if (!rc && ferror(X.f))
    rc = util_err(err, errlen, REMAT_EUSAGE, "cannot read %s: %s", X.path, strerror(errno));
  fclose(X.f);
  free(X.line);
  free(X.seen);
  free(X.frees);
  return rc;
}
