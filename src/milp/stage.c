/* stage.c -- stage matrices: solve_r_opt, Algorithm 1, canonical
 * checkpoints, pruning and Checkmate's memory accounting. */
#include "stage.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

void stage_mat_init(stage_mat *m, int n) {
  m->n = n;
  size_t cells = (size_t)n * (size_t)n;
  m->a = util_calloc(cells ? cells : 1, 1);
}

void stage_mat_free(stage_mat *m) {
  free(m->a);
  m->a = NULL;
  m->n = 0;
}

void stage_mat_clear(stage_mat *m) {
  memset(m->a, 0, (size_t)m->n * (size_t)m->n);
}

/* S[t,i] with the lower-triangular convention (0 for i >= t). */
static int stage_s(const stage_mat *S, int t, int i) {
  return i < t && stage_get(S, t, i);
}

void stage_r_opt(const remat_graph *g, const stage_mat *S, stage_mat *R) {
  int n = g->n;
  stage_mat_clear(R);
  for (int t = 0; t < n; t++) stage_set(R, t, t, 1);
  /* (1c): S[t+1,i] <= S[t,i] + R[t,i] */
  for (int t = 0; t + 1 < n; t++)
    for (int i = 0; i < t; i++)
      if (stage_s(S, t + 1, i) && !stage_s(S, t, i)) stage_set(R, t, i, 1);
  /* (1b): R[t,v] <= R[t,u] + S[t,u], fixed in reverse order per stage */
  for (int t = 0; t < n; t++) {
    unsigned char *r = stage_row(R, t);
    for (int v = t; v >= 0; v--) {
      if (!r[v]) continue;
      for (int k = g->pred_off[v]; k < g->pred_off[v + 1]; k++) {
        int u = g->pred[k];
        if (!r[u] && !stage_s(S, t, u)) r[u] = 1;
      }
    }
  }
}

int stage_sequence(const stage_mat *R, int **seq) {
  int n = R->n, len = 0;
  for (int t = 0; t < n; t++) {
    const unsigned char *r = stage_row(R, t);
    for (int i = 0; i <= t; i++) len += r[i] != 0;
  }
  int *s = util_malloc((size_t)(len ? len : 1) * sizeof *s);
  int j = 0;
  for (int t = 0; t < n; t++) {
    const unsigned char *r = stage_row(R, t);
    for (int i = 0; i <= t; i++)
      if (r[i]) s[j++] = i;
  }
  *seq = s;
  return len;
}

int stage_from_sequence(const int *seq, int len, stage_mat *R) {
  int n = R->n, next = 0, last = -1;
  stage_mat_clear(R);
  for (int j = 0; j < len; j++) {
    int v = seq[j];
    if (next < n && v == next) { /* first copy: closes stage `next` */
      stage_set(R, next, v, 1);
      next++;
      last = -1;
    } else if (next < n && v >= 0 && v < next && v > last) {
      stage_set(R, next, v, 1); /* recomputation in stage `next` */
      last = v;
    } else {
      return -1;
    }
  }
  return next == n ? 0 : -1;
}

/* Is a user of i (index <= t) computed in stage t? */
static int stage_used_in(const remat_graph *g, const stage_mat *R, int t,
                         int i) {
  const unsigned char *r = stage_row(R, t);
  for (int k = g->succ_off[i]; k < g->succ_off[i + 1]; k++) {
    int j = g->succ[k];
    if (j > t) break; /* ascending */
    if (r[j]) return 1;
  }
  return 0;
}

void stage_canonical_s(const remat_graph *g, const stage_mat *R, stage_mat *S) {
  int n = g->n;
  stage_mat_clear(S);
  for (int i = 0; i < n; i++) {
    if (g->succ_off[i] == g->succ_off[i + 1]) continue; /* a sink */
    int next = 0;                                       /* S[t+1,i] */
    for (int t = n - 1; t > i; t--) {
      int s = !stage_get(R, t, i) && (next || stage_used_in(g, R, t, i));
      stage_set(S, t, i, s);
      next = s;
    }
  }
}

int stage_prune(const remat_graph *g, stage_mat *R) {
  int n = g->n, total = 0, changed;
  stage_mat S;
  stage_mat_init(&S, n);
  do {
    changed = 0;
    stage_canonical_s(g, R, &S);
    for (int t = n - 1; t > 0; t--)
      for (int i = t - 1; i >= 0; i--) {
        if (!stage_get(R, t, i)) continue;
        int read =
            (t + 1 < n && stage_get(&S, t + 1, i)) || stage_used_in(g, R, t, i);
        if (!read) {
          stage_set(R, t, i, 0);
          changed++;
        }
      }
    total += changed;
  } while (changed);
  stage_mat_free(&S);
  return total;
}

int64_t stage_duration(const remat_graph *g, const stage_mat *R) {
  int64_t d = 0;
  for (int t = 0; t < g->n; t++) {
    const unsigned char *r = stage_row(R, t);
    for (int i = 0; i <= t; i++)
      if (r[i]) d += g->w[i];
  }
  return d;
}

int64_t stage_checkmate_peak(const remat_graph *g, const stage_mat *R,
                             const stage_mat *S, int64_t *mem) {
  int n = g->n, j = 0;
  int *lastu = util_malloc((size_t)(n ? n : 1) * sizeof *lastu);
  int64_t peak = 0;
  for (int t = 0; t < n; t++) {
    const unsigned char *r = stage_row(R, t);
    int64_t u = 0;
    for (int i = 0; i < t; i++) {
      lastu[i] = -1;
      if (stage_get(S, t, i)) u += g->m[i];
    }
    lastu[t] = -1;
    for (int v = 0; v <= t; v++) /* last computed user in this stage */
      if (r[v])
        for (int k = g->pred_off[v]; k < g->pred_off[v + 1]; k++)
          lastu[g->pred[k]] = v;
    for (int k = 0; k <= t; k++) {
      if (!r[k]) continue;
      u += g->m[k];
      if (u > peak) peak = u;
      if (mem) mem[j++] = u;
      for (int p = g->pred_off[k]; p < g->pred_off[k + 1]; p++) {
        int i = g->pred[p];
        if (lastu[i] == k && !(t + 1 < n && stage_get(S, t + 1, i)))
          u -= g->m[i];
      }
    }
  }
  free(lastu);
  return peak;
}
