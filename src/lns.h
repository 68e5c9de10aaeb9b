/* lns.h -- large-neighbourhood search for the in-process Gecode backend:
 * which model variables to fix at each restart.  Neighbourhoods relax a set
 * of nodes (all variables of their copies, and the ends of their
 * predecessors' copies): a random set, a window of consecutive positions,
 * the nodes live at the memory peak, or the nodes around a recomputation.
 * The size adapts to the success rate; every few restarts the search runs
 * complete, so small models are proven optimal. */
#ifndef REMAT_LNS_H
#define REMAT_LNS_H

#include <stdint.h>

#include "fzn.h"
#include "model.h"

enum { LNS_RANDOM, LNS_WINDOW, LNS_PEAK, LNS_RECOMP, LNS_KINDS };

typedef struct lns {
  const model *md;
  const fzn_layout *layout;
  int mode;                   /* REMAT_LNS_* */
  uint64_t rng;
  const long long *solutions; /* solution counter kept by the caller */
  long long seen;             /* counter at the previous call */
  int last_kind;              /* neighbourhood used at the previous call */
  double size;                /* fraction of nodes relaxed */
  long long calls;
  long long tries[LNS_KINDS], wins[LNS_KINDS];
  int *var_a, *var_s, *var_e; /* layout index per copy, -1 if none */
  int *nodes;                 /* scratch */
  unsigned char *mark;        /* scratch, per node */
  int64_t *profile;           /* scratch, per event */
} lns;

void lns_init(lns *L, const model *md, const fzn_layout *layout, int mode,
              unsigned seed, const long long *solutions);
void lns_free(lns *L);

/* The gz_neighbourhood_fn (ctx = lns*). */
int lns_neighbourhood(void *ctx, long long restart, int n, const int *values,
                      int have_solution, unsigned char *fix);

#endif
