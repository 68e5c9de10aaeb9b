/* stage.h -- Checkmate's stage matrices for T = n frontier-advancing stages,
 * shared by the MILP decoder, the LP rounding and the baselines.
 *
 * Stage t (0-based) recomputes some nodes i < t, in increasing index order,
 * and then computes node t for the first time.  R[t,i] = 1: node i is
 * computed in stage t (R[t,t] = 1 always); S[t,i] = 1 (i < t): node i is
 * resident (checkpointed) at the start of stage t.  Both matrices are
 * lower-triangular and stored densely, one byte per entry (n = 1000 gives
 * 1 MB per matrix).
 *
 * Memory accounting (the MILP's, see milp.h): with the canonical S of R
 * (stage_canonical_s) and no unread recomputation (stage_prune), Checkmate's
 * U[t,k] equals the simulator's memory at the step computing k in stage t,
 * exactly; for any other S satisfying (1b)/(1c) it is never below it. */
#ifndef REMAT_STAGE_H
#define REMAT_STAGE_H

#include <stddef.h>
#include <stdint.h>

#include "remat.h"

typedef struct stage_mat {
  int n;
  unsigned char *a; /* a[t * n + i]; entries with i > t stay 0 */
} stage_mat;

/* An n x n zero matrix. */
void stage_mat_init(stage_mat *m, int n);
void stage_mat_free(stage_mat *m);
void stage_mat_clear(stage_mat *m);

static inline unsigned char *stage_row(const stage_mat *m, int t) {
  return m->a + (size_t)t * (size_t)m->n;
}
static inline int stage_get(const stage_mat *m, int t, int i) {
  return m->a[(size_t)t * (size_t)m->n + (size_t)i];
}
static inline void stage_set(stage_mat *m, int t, int i, int v) {
  m->a[(size_t)t * (size_t)m->n + (size_t)i] = (unsigned char)(v != 0);
}

/* Checkmate's solve_r_opt: the cheapest R for a checkpoint matrix S.
 * R = I; R[t-1,i] = 1 where S[t,i] && !S[t-1,i]; then per stage, for the
 * computed nodes v in decreasing order, R[t,u] = 1 for each predecessor u
 * that is neither computed nor resident.  S entries with i >= t are
 * ignored.  Memory is not considered. */
void stage_r_opt(const remat_graph *g, const stage_mat *S, stage_mat *R);

/* Checkmate's Algorithm 1: the sequence of R (for t, for i <= t with
 * R[t,i] = 1).  *seq is allocated; returns its length. */
int stage_sequence(const stage_mat *R, int **seq);

/* R (initialised with stage_mat_init for n nodes) of a sequence.  Returns
 * 0, or -1 if the sequence is not stage-structured for the input order
 * (every node's first copy in index order, each stage's recomputations in
 * increasing order before its node; R is then undefined). */
int stage_from_sequence(const int *seq, int len, stage_mat *R);

/* The canonical S of R: S[t,i] = 1 iff i < t and the latest copy of i
 * computed before stage t is read in stage t or later. */
void stage_canonical_s(const remat_graph *g, const stage_mat *R, stage_mat *S);

/* Remove the recomputations whose copy nobody reads (repeatedly: removing
 * one can leave its inputs unread).  Never increases the simulated peak and
 * never changes the validity.  Returns the number of entries cleared. */
int stage_prune(const remat_graph *g, stage_mat *R);

/* Sum of w_i over R's entries. */
int64_t stage_duration(const remat_graph *g, const stage_mat *R);

/* Peak of (R, S) under Checkmate's accounting: U[t,-1] = sum of S[t,i] m_i;
 * U[t,k] = U[t,k-1] - freed(t,k-1) + R[t,k] m_k, where i in DEPS[k] is freed
 * after k iff R[t,k], S[t+1,i] = 0 (0 in the last stage) and no later user
 * of i is computed in stage t (the product form of FREE; a node is never
 * freed after its own step, as in the paper).  The peak is the max of
 * U[t,k] over the computed (t,k).  If mem is not NULL it receives U[t,k]
 * at each computed (t,k), in sequence order. */
int64_t stage_checkmate_peak(const remat_graph *g, const stage_mat *R,
                             const stage_mat *S, int64_t *mem);

#endif
