/* cp_nbh.h -- the CP worker's neighbourhoods: for large-neighbourhood
 * search in the in-process Gecode backend, which model variables to fix
 * at each restart.
 *
 * A neighbourhood relaxes a set of nodes: every variable of their copies,
 * and the ends of their predecessors' copies.  In phase 2 (minimise the
 * duration) a neighbourhood can only improve if it frees a recomputation,
 * so each one is anchored on a random active recomputation c of a node u:
 * u itself, plus nodes picked from
 *   GAP     values live between u's previous copy's end and c (the memory
 *           that removing c would have to find),
 *   WINDOW  consecutive positions around the stage of c,
 *   PEAK    values live at the memory peak,
 *   RANDOM  anywhere.
 * In phase 1 (minimise the peak) the anchor is the peak event.  The size
 * adapts to the success rate, kinds are drawn by their success, and every
 * few restarts the search runs complete, so small models are proven
 * optimal. */
#ifndef REMAT_CP_NBH_H
#define REMAT_CP_NBH_H

#include <stdint.h>

#include "fzn.h"
#include "model.h"

enum { NBH_GAP, NBH_WINDOW, NBH_PEAK, NBH_RANDOM, NBH_KINDS };

typedef struct nbh {
  const model *md;
  const fzn_layout *layout;
  int mode;                   /* REMAT_LNS_* */
  uint64_t rng;
  const long long *solutions; /* solution counter kept by the caller */
  long long seen;             /* counter at the previous call */
  int last_kind;              /* neighbourhood used at the previous call */
  double size;                /* fraction of nodes relaxed */
  long long calls;
  long long tries[NBH_KINDS], wins[NBH_KINDS];
  int *var_a, *var_s, *var_e; /* layout index per copy, -1 if none */
  int *nodes;                 /* scratch */
  unsigned char *mark;        /* scratch, per node */
  int64_t *profile;           /* scratch, per event */
} nbh;

void nbh_init(nbh *L, const model *md, const fzn_layout *layout, int mode,
              unsigned seed, const long long *solutions);
void nbh_free(nbh *L);

/* The gz_neighbourhood_fn (ctx = nbh*). */
int nbh_neighbourhood(void *ctx, long long restart, int n, int *values,
                      int have_solution, unsigned char *fix);

#endif
