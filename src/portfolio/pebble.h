/* pebble.h -- the pebbling proof: a node that no sequence can compute
 * within the budget, in any order and with any number of recomputations.
 *
 * At the step that computes a node, its inputs are live.  Of a set L of
 * values live at some step, take the one whose copy was computed last (x):
 * at that earlier step the rest of L is live too, and so are x's inputs,
 * so that step holds at least m(L + inputs of x), and the same holds for
 * the set L - x + inputs of x at that step.  Going back so from a node's
 * inputs, every sequence that computes the node within M gives a path of
 * node sets down to the empty set whose steps all hold at most M (sets
 * of nodes: two copies of one node count once, which only lowers the
 * sums; a path from a set also exists from each of its subsets).  When
 * no choice of x leads from a node's inputs to the empty set within M,
 * no sequence fits M: the proof covers every order and any number of
 * recomputations (REMAT_COVERS_ANY_ORDER), so more copies cannot help.
 * A path found, read backwards, computes the node from nothing within M
 * and says nothing about the rest of the graph: pebble_schedule builds a
 * whole sequence from the paths of every sink.
 *
 * The search is depth first over the sets (sorted node lists), latest
 * node first, with one table of the sets already settled (a path to the
 * empty set or none) shared by all nodes; a node whose inputs are all in
 * the set leaves it at once (taking it last is never worse).  It gives up
 * past a number of sets or its time limit.  Narrow graphs (the networks'
 * chains, residual and concatenated blocks) keep the sets small; where
 * many small values (masks, indices) multiply them, relaxed searches
 * follow, in which the values of at most a share of M are free (size 0,
 * available without their inputs): fewer sets, and a proof there holds
 * for the graph (paths only get easier).  Wide graphs can exhaust every
 * search without an answer. */
#ifndef REMAT_PEBBLE_H
#define REMAT_PEBBLE_H

#include <stddef.h>
#include <stdint.h>

#include "deadline.h"
#include "remat.h"

typedef struct pebble_params {
  deadline deadline;  /* when to stop (1 s from pebble_params_init) */
  size_t max_sets;    /* sets the table may hold (4,000,000) */
  int first_level;    /* 0: the exact search first; k > 0: start with
                         the k-th relaxation (for the tests) */
  volatile int *stop; /* give up when nonzero (NULL: never) */
  int schedule_max;   /* pebble_schedule: the most steps it may make (0:
                         no cap) */
} pebble_params;

void pebble_params_init(pebble_params *p);

typedef enum pebble_status {
  PEBBLE_OPEN = 0,   /* every node examined can be computed within M, or
                        the search gave up: no proof */
  PEBBLE_INFEASIBLE  /* a node no sequence computes within M */
} pebble_status;

typedef struct pebble_out {
  pebble_status status;
  int node;           /* PEBBLE_INFEASIBLE: that node */
  int complete;       /* PEBBLE_OPEN: the exact search found a path for
                         every node (no proof exists this way) */
  size_t sets;        /* sets the table held */
  double seconds;
} pebble_out;

/* The number of searches: the exact one and the relaxations. */
#define PEBBLE_LEVELS 4

/* Look for a node that no sequence computes within budget. */
void pebble_check(const remat_graph *g, int64_t budget, const pebble_params *p,
                  pebble_out *out);

/* A schedule within budget from the paths (free order; any number of
 * copies where copies[v] >= 2, copies NULL: everywhere): the values of
 * C_v = 1 that some node reads are held from their one computation on
 * (their sizes taken off the budget, free in the search), each computed
 * from nothing along its path in index order, then the sinks in index
 * order, in parts of as many as a path to the union of their inputs
 * allows, each part from nothing (the values of one part are read by none
 * after it: the next part computes its own copies).  The search is the exact
 * one on the lowered budget, a restriction: finding no path proves
 * nothing.  Returns 0 with *seq (the caller frees it; at most
 * p->schedule_max steps), or -1 (*seq NULL). */
int pebble_schedule(const remat_graph *g, int64_t budget, const int *copies,
                    const pebble_params *p, int **seq, int *len);

#endif
