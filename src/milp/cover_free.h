/* cover_free.h -- the covering bound over every order: a lower bound on
 * the duration increase of every sequence, whatever the order of its
 * first computations (cover_free.c says how), from a covering problem on
 * the lattice of down-closed node sets, solved with CBC.  Where that
 * lattice is small (training graphs: a chain forward and back with
 * narrow branches) it meets the fixed order's covering bound, so that
 * free order proves the same optima. */
#ifndef REMAT_COVER_FREE_H
#define REMAT_COVER_FREE_H

#include "cover_types.h"
#include "remat.h"

/* Graphs with more nodes, or more down-closed sets, get no bound. */
#define COVF_MAX_NODES 4096
#define COVF_MAX_IDEALS 4000

/* The bound for g at p->budget within p->time_limit (CBC; p->copies:
 * C_v rows when not NULL, any number of recomputations otherwise; the
 * other fields are not used).  COVER_OPTIMAL or COVER_BOUND with o->increase,
 * or COVER_NONE with o->why; never COVER_INFEASIBLE (no proof is taken from
 * a problem without solution). */
cover_status cover_free_solve(const remat_graph *g, const cover_params *p, cover_out *o);

#endif
