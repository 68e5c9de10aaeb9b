/* order_descent.c -- lower the peak of an order by a descent over
 * thresholds (order_descent.h). */
#include "order_descent.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* The late-acceptance history's length, and how far from a step above T
 * a targeted move looks. */
#define ODESC_HISTORY 1000
#define ODESC_NEAR 24
/* Moves without reaching T after which T rises halfway to the peak; the
 * run ends after ODESC_RAISES rises in a row without reaching it (later
 * ones rarely do). */
#define ODESC_STUCK 20000
#define ODESC_RAISES 3

void odesc_params_init(odesc_params *p) {
  *p = (odesc_params){.deadline = deadline_in(1.0), .seed = 1, .step = 1.0 / 16};
}

typedef struct odesc {
  const remat_graph *g;
  int n;
  int64_t T;         /* the threshold */
  int *order, *pos;
  int64_t *delta;
  int *over, nover;  /* the steps above T of the last evaluation */
  int64_t peak;      /* of the last evaluation */
} odesc;

/* The memory above T summed over the steps; memory at a step as
 * remat_simulate counts it for an order: the values computed before and
 * read at or after the step, plus the step's own output. */
static int64_t odesc_eval(odesc *X) {
  const remat_graph *g = X->g;
  int n = X->n;
  int64_t *delta = X->delta;
  memset(delta, 0, ((size_t)n + 1) * sizeof *delta);
  for (int i = 0; i < n; i++) {
    int v = X->order[i], last = i;
    for (int k = g->succ_off[v]; k < g->succ_off[v + 1]; k++)
      if (X->pos[g->succ[k]] > last) last = X->pos[g->succ[k]];
    if (last > i) {
      delta[i + 1] += g->m[v];
      delta[last + 1] -= g->m[v];
    }
  }
  int64_t cur = 0, excess = 0;
  X->peak = 0;
  X->nover = 0;
  for (int j = 0; j < n; j++) {
    cur += delta[j];
    int64_t here = cur + g->m[X->order[j]];
    if (here > X->peak) X->peak = here;
    if (here > X->T) {
      excess += here - X->T;
      X->over[X->nover++] = j;
    }
  }
  return excess;
}

/* Move the node at position i to position j, shifting those between. */
static void odesc_move(odesc *X, int i, int j) {
  int v = X->order[i];
  int step = i < j ? 1 : -1;
  for (int k = i; k != j; k += step) {
    X->order[k] = X->order[k + step];
    X->pos[X->order[k]] = k;
  }
  X->order[j] = v;
  X->pos[v] = j;
}

/* The positions the node at i may take: after its last predecessor,
 * before its first successor. */
static void odesc_window(const odesc *X, int i, int *lo, int *hi) {
  const remat_graph *g = X->g;
  int v = X->order[i];
  *lo = 0;
  *hi = X->n - 1;
  for (int k = g->pred_off[v]; k < g->pred_off[v + 1]; k++)
    if (X->pos[g->pred[k]] + 1 > *lo) *lo = X->pos[g->pred[k]] + 1;
  for (int k = g->succ_off[v]; k < g->succ_off[v + 1]; k++)
    if (X->pos[g->succ[k]] - 1 < *hi) *hi = X->pos[g->succ[k]] - 1;
}

static void odesc_alloc(odesc *X, const remat_graph *g, const int *order) {
  size_t nn = (size_t)(g->n ? g->n : 1);
  memset(X, 0, sizeof *X);
  X->g = g;
  X->n = g->n;
  X->T = INT64_MAX;
  X->order = util_malloc(nn * sizeof *X->order);
  X->pos = util_malloc(nn * sizeof *X->pos);
  X->over = util_malloc(nn * sizeof *X->over);
  X->delta = util_malloc((nn + 1) * sizeof *X->delta);
  memcpy(X->order, order, (size_t)g->n * sizeof *order);
  for (int i = 0; i < g->n; i++) X->pos[X->order[i]] = i;
}

static void odesc_free(odesc *X) {
  UTIL_FREE(X->order, X->pos, X->over, X->delta);
}

int64_t odesc_peak(const remat_graph *g, const int *order) {
  odesc X;
  odesc_alloc(&X, g, order);
  odesc_eval(&X);
  int64_t peak = X.peak;
  odesc_free(&X);
  return peak;
}

/* The next threshold below `peak`: `share` of the way to `lower`. */
static int64_t odesc_next(int64_t peak, int64_t lower, double share) {
  int64_t step = (int64_t)((double)(peak - lower) * share);
  return peak - (step > 0 ? step : 1);
}

int64_t odesc_run(const remat_graph *g, int *order, const odesc_params *p) {
  int n = g->n;
  odesc X;
  odesc_alloc(&X, g, order);
  odesc_eval(&X);
  int64_t best = X.peak;
  X.T = odesc_next(best, p->lower, p->step);
  int64_t cur = odesc_eval(&X);
  int64_t hist[ODESC_HISTORY];
  for (int k = 0; k < ODESC_HISTORY; k++) hist[k] = cur;
  uint64_t rng = 0x9e3779b97f4a7c15ull ^ ((uint64_t)p->seed * 0x2545f4914f6cdd1dull);
  if (!rng) rng = 1;
  long long since = 0;
  int raises = 0;
  for (long long it = 0; n > 1 && best > p->lower && best > p->target; it++) {
    if ((it & 255) == 0 && (deadline_passed(p->deadline) || (p->stop && *p->stop))) break;
    int i;
    if (X.nover && util_below(&rng, 2)) {
      i = X.over[util_below(&rng, X.nover)] + util_below(&rng, 2 * ODESC_NEAR + 1) - ODESC_NEAR;
      if (i < 0) i = 0;
      if (i >= n) i = n - 1;
    } else {
      i = util_below(&rng, n);
    }
    if (++since > ODESC_STUCK) { /* stuck: an easier T, or the end */
      since = 0;
      if (X.T >= best - 1 || ++raises > ODESC_RAISES) break;
      X.T += (best - X.T) / 2;
      cur = odesc_eval(&X);
      for (int k = 0; k < ODESC_HISTORY; k++) hist[k] = cur;
      continue;
    }
    int lo, hi;
    odesc_window(&X, i, &lo, &hi);
    if (hi <= lo) continue;
    int j = lo + util_below(&rng, hi - lo);
    if (j >= i) j++;
    odesc_move(&X, i, j);
    int64_t c = odesc_eval(&X);
    int h = (int)(it % ODESC_HISTORY);
    if (c <= cur || c <= hist[h]) {
      cur = c;
      if (c == 0) { /* at or below T: a better order, and a lower T */
        best = X.peak;
        memcpy(order, X.order, (size_t)n * sizeof *order);
        X.T = odesc_next(best, p->lower, p->step);
        since = raises = 0;
        cur = odesc_eval(&X);
        for (int k = 0; k < ODESC_HISTORY; k++) hist[k] = cur;
      }
    } else {
      odesc_move(&X, j, i);
    }
    hist[h] = cur;
  }
  odesc_free(&X);
  return best;
}
