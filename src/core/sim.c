/* sim.c -- exact re-simulation of schedules under the Moccasin memory
 * model: each step reads the latest earlier copy of every predecessor; a
 * copy is live from its own step to its last reader; memory at a step is
 * the live earlier copies plus the output being computed. */
#include "sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static void sim_clear(remat_sim *s) {
  memset(s, 0, sizeof *s);
  s->valid = 1;
}

int sim_lastuse(const remat_graph *g, const int *seq, int len, int *lastuse,
                remat_sim *sim) {
  sim_clear(sim);
  int *latest = util_malloc((size_t)g->n * sizeof *latest);
  for (int v = 0; v < g->n; v++) latest[v] = -1;
  int rc = 0, computed = 0;
  for (int j = 0; j < len && !rc; j++) {
    int v = seq[j];
    if (v < 0 || v >= g->n) {
      rc = util_err(sim->error, sizeof sim->error, REMAT_EUSAGE,
                    "step %d: no node with index %d", j, v);
      break;
    }
    lastuse[j] = j;
    for (int k = g->pred_off[v]; k < g->pred_off[v + 1]; k++) {
      int u = g->pred[k], i = latest[u];
      if (i < 0) {
        rc = util_err(sim->error, sizeof sim->error, REMAT_EUSAGE,
                      "step %d: node %s needs %s, which was not computed "
                      "before",
                      j, g->id[v], g->id[u]);
        break;
      }
      lastuse[i] = j; /* j increases, so this is the max */
    }
    if (latest[v] < 0)
      computed++;
    else
      sim->recomputations++;
    latest[v] = j;
  }
  if (!rc && computed < g->n) {
    int v = 0;
    while (latest[v] >= 0) v++;
    rc = util_err(sim->error, sizeof sim->error, REMAT_EUSAGE,
                  "%d node%s never computed (first: %s)", g->n - computed,
                  g->n - computed == 1 ? " is" : "s are", g->id[v]);
  }
  free(latest);
  if (rc) sim->valid = 0;
  return rc;
}

int remat_simulate(const remat_graph *g, const int *seq, int len,
                   remat_sim *sim, int64_t *mem) {
  int *lastuse = util_malloc((size_t)(len ? len : 1) * sizeof *lastuse);
  int rc = sim_lastuse(g, seq, len, lastuse, sim);
  if (rc) {
    free(lastuse);
    return rc;
  }
  /* delta[j]: change of retained memory at the start of step j */
  int64_t *delta = util_calloc((size_t)len + 1, sizeof *delta);
  for (int i = 0; i < len; i++)
    if (lastuse[i] > i) {
      delta[i + 1] += g->m[seq[i]];
      delta[lastuse[i] + 1] -= g->m[seq[i]];
    }
  int64_t cur = 0;
  sim->peak = 0;
  sim->duration = 0;
  sim->peak_step = 0;
  for (int j = 0; j < len; j++) {
    cur += delta[j];
    int64_t here = cur + g->m[seq[j]];
    if (mem) mem[j] = here;
    if (here > sim->peak) {
      sim->peak = here;
      sim->peak_step = j;
    }
    if (g->w[seq[j]] > INT64_MAX - sim->duration) { /* durations are >= 0 */
      sim->valid = 0;
      free(delta);
      free(lastuse);
      return util_err(sim->error, sizeof sim->error, REMAT_EUSAGE,
                      "the total duration passes 2^63 - 1 at step %d (durations "
                      "too large: scale them down)", j);
    }
    sim->duration += g->w[seq[j]];
  }
  free(delta);
  free(lastuse);
  return 0;
}

int *sim_topo_sequence(const remat_graph *g) {
  int *seq = util_malloc((size_t)g->n * sizeof *seq);
  for (int i = 0; i < g->n; i++) seq[i] = i;
  return seq;
}

/* Computations of each node in seq (entries outside 0..n-1 skipped);
 * stops early, returning that node, once a node passes copies[v] (copies
 * may be NULL); else -1.  *most: the largest count seen. */
static int sim_count_copies(const remat_graph *g, const int *seq, int len,
                            const int *copies, int *most) {
  int *cnt = util_calloc((size_t)(g->n ? g->n : 1), sizeof *cnt), over = -1;
  *most = 0;
  for (int i = 0; i < len && over < 0; i++) {
    int v = seq[i];
    if (v < 0 || v >= g->n) continue;
    if (++cnt[v] > *most) *most = cnt[v];
    if (copies && cnt[v] > copies[v]) over = v;
  }
  free(cnt);
  return over;
}

int sim_over_copies(const remat_graph *g, const int *seq, int len, const int *copies) {
  int most;
  return sim_count_copies(g, seq, len, copies, &most);
}

int sim_within_copies(const remat_graph *g, const int *seq, int len,
                      const int *copies) {
  return sim_over_copies(g, seq, len, copies) < 0;
}

int sim_raise_copies(const remat_graph *g, const int *seq, int len, int *copies) {
  int n = g->n, raised = 0;
  int *cnt = util_calloc((size_t)(n ? n : 1), sizeof *cnt);
  for (int i = 0; i < len; i++)
    if (seq[i] >= 0 && seq[i] < n) cnt[seq[i]]++;
  for (int v = 0; v < n; v++)
    if (copies[v] >= 2 && cnt[v] > copies[v] && !(g->copies && g->copies[v] > 0)) {
      copies[v] = cnt[v];
      raised++;
    }
  free(cnt);
  return raised;
}

int sim_most_copies(const remat_graph *g, const int *seq, int len) {
  int most;
  sim_count_copies(g, seq, len, NULL, &most);
  return most;
}

int64_t *sim_topo_loads(const remat_graph *g) {
  int *seq = sim_topo_sequence(g);
  int64_t *load = util_malloc((size_t)(g->n ? g->n : 1) * sizeof *load);
  remat_sim s;
  remat_simulate(g, seq, g->n, &s, load); /* valid: a topological order */
  free(seq);
  return load;
}

int64_t remat_topo_peak(const remat_graph *g) {
  int *seq = sim_topo_sequence(g);
  remat_sim s;
  remat_simulate(g, seq, g->n, &s, NULL);
  free(seq);
  return s.peak;
}

double sim_duration_approx(const remat_graph *g, const int *seq, int len) {
  double d = 0;
  for (int i = 0; i < len; i++) d += (double)g->w[seq[i]];
  return d;
}

int sim_on_stages(const int *seq, int len) {
  int t = 0, last = -1;
  for (int i = 0; i < len; i++) {
    if (seq[i] == t) {
      t++;
      last = -1;
    } else if (seq[i] < t && seq[i] > last) {
      last = seq[i];
    } else {
      return 0;
    }
  }
  return 1;
}
