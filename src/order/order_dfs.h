/* order_dfs.h -- the threshold search shared by the exact search
 * (order_exact.h) and the window search (order_window.h): is there a way
 * to take every allowed node, from the set taken now, with every step's
 * memory at most P?
 *
 * A depth-first search over the down-closed sets with
 *   - forced steps: an allowed available v with F(S) + m_v <= P whose step
 *     does not raise the live memory (F(S + v) <= F(S)) is taken at once:
 *     any completion of S within P can be changed into one starting with v
 *     (taking v earlier lowers the memory of every step it overtakes, as
 *     F(T + v) - F(T) <= F(S + v) - F(S) for T containing S);
 *   - a table of dead sets (order_memo.h): a set from which no completion
 *     stays within P has none within any lower P (for the same start and
 *     allowed nodes);
 *   - a bound per set: each allowed v not taken holds at its step m_v,
 *     its ancestors with a successor in D_v and the taken nodes with a
 *     successor in D_v (order_bound_pairs).
 * Children are tried by the live memory after the step, then the step's
 * cost; the stack is explicit (no recursion). */
#ifndef REMAT_ORDER_DFS_H
#define REMAT_ORDER_DFS_H

#include <stddef.h>
#include <stdint.h>

#include "deadline.h"
#include "order_memo.h"
#include "order_walk.h"
#include "remat.h"

/* How a decision ended early (0: it did not). */
typedef enum order_dfs_why {
  ORDER_DFS_TIME = 1,   /* deadline passed, or the state budget was spent */
  ORDER_DFS_MEMORY,     /* the table of dead sets is full */
  ORDER_DFS_STOP,       /* *stop was set */
} order_dfs_why;

typedef struct order_dfs_frame {
  int v, fbase, ch_lo, ch_hi, ch_i, expanded;
} order_dfs_frame;

typedef struct order_dfs {
  const remat_graph *g;
  int n;
  order_walk w;           /* the current set */
  int *path;              /* path[k]: the k-th node taken */
  const unsigned char *allowed; /* nodes the search may take (NULL: all) */
  int *loc;               /* a node's bit in the table's sets, -1: none */
  uint64_t *bits, hash, *z;
  int64_t *a, *dyn;       /* a_v; sizes of taken nodes live at v's step */
  int *koff, *klist;      /* order_bound_pairs, NULL: no bound per set */
  order_memo memo;
  size_t max_bytes;
  order_dfs_frame *fr;
  int *fstack, nf;
  int *cs, ncs, cap_cs;
  int64_t *ckey, *ckey2;
  int64_t P;
  int goal;               /* nodes taken at success */
  deadline deadline;      /* when to stop (DEADLINE_NONE) */
  long long budget;       /* sets to expand per decision; <= 0: no limit */
  volatile int *stop;
  int64_t noise;          /* > 0: children ranked with a random term in
                             0..noise added (a different path each time) */
  uint64_t rng;
  long long tick, states, forced, pruned;
} order_dfs;

/* Set up on g (the empty set taken, every node allowed); the table of
 * dead sets may hold max_bytes; the bound per set is used when g has at
 * most max_pairs pairs. */
void order_dfs_init(order_dfs *D, const remat_graph *g, size_t max_bytes,
                    size_t max_pairs);
void order_dfs_free(order_dfs *D);

/* Start from the first k nodes of ord taken, with the nodes ord[k..k+len)
 * allowed (their own bits in the table, which is emptied); len = n - k
 * with k = 0 is the whole problem. */
void order_dfs_start(order_dfs *D, const int *ord, int k, int len);

/* Decide threshold P from the start: 1 (the allowed nodes in an order
 * within P are in path[start..goal)), 0 (none), or -order_dfs_why. */
int order_dfs_decide(order_dfs *D, int64_t P);

#endif
