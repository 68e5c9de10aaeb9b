/* sim.h -- the exact 64-bit memory simulator (remat_simulate in remat.h)
 * and helpers built on it. */
#ifndef REMAT_SIM_H
#define REMAT_SIM_H

#include "remat.h"

/* For each step i, the last step that reads the copy computed at step i
 * (i itself if nobody reads it).  Returns 0, or REMAT_EUSAGE with a message
 * in sim->error when the sequence is invalid. */
int sim_lastuse(const remat_graph *g, const int *seq, int len, int *lastuse,
                remat_sim *sim);

/* The input order 0..n-1 as a freshly allocated sequence. */
int *sim_topo_sequence(const remat_graph *g);
/* The input order's memory at each of its steps (n entries, allocated):
 * m_k plus every u < k with a reader at k or later. */
int64_t *sim_topo_loads(const remat_graph *g);

/* 1 if seq computes every node v at most copies[v] times (entries outside
 * 0..n-1 are the simulator's to reject and are not counted). */
int sim_within_copies(const remat_graph *g, const int *seq, int len,
                      const int *copies);
/* The first node seq computes more than copies[v] times, or -1. */
int sim_over_copies(const remat_graph *g, const int *seq, int len, const int *copies);

/* Raise copies[v] to v's computations in seq where copies[v] is 2 or more
 * (C_v = 1 forbids recomputing: never raised; nor a node's own C_v, a
 * ceiling: graph_copies_cap; entries outside 0..n-1 not counted); returns
 * how many nodes it raised. */
int sim_raise_copies(const remat_graph *g, const int *seq, int len, int *copies);

/* Is seq on the input order's stages (first computations in index order,
 * each stage's recomputations in increasing index order below it)?  The
 * solve's claims speak of that model: a baseline off it (Echo may
 * recompute out of order) is not a seed. */
int sim_on_stages(const int *seq, int len);

/* seq's duration summed in doubles: for comparisons (no overflow). */
double sim_duration_approx(const remat_graph *g, const int *seq, int len);

/* The most times seq computes one node. */
int sim_most_copies(const remat_graph *g, const int *seq, int len);

#endif
