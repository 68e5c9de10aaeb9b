/* model.h -- the Moccasin retention-interval model on the stage axis, as
 * data: copies, domains and the 32-bit scaling.  The FlatZinc and MiniZinc
 * writers (fzn.c) and the decoder (decode.c) work from this.
 *
 * Time is the stage axis of the paper's Section 2.3: node i (0-based, in
 * the input order) has position p = i+1; stage k (1-based) has events
 * k(k-1)/2 + j for positions j = 1..k, and node i's first copy is computed
 * at the last event of stage i+1.  Later copies go in later stages, at the
 * node's own position. */
#ifndef REMAT_MODEL_H
#define REMAT_MODEL_H

#include "remat.h"

/* Largest total of scaled heights or durations we hand to Gecode. */
#define MODEL_LIMIT (1 << 30)
/* Gecode's cumulative refuses ("Number out of limits") a capacity times
 * the summed widths of the start domains times the number of tasks past
 * 64 bits.  The memory quantum keeps the model's product within 2^62 when
 * that leaves at least MODEL_MEM_MIN units of memory (every model of up
 * to 1,000 copies); larger models are marked too_wide (windows only). */
#define MODEL_MEM_MIN (1 << 20)
/* The most nodes the stage model takes: its n(n+1)/2 events stay within
 * 32 bits.  Larger graphs are solved without it (solve_large.h). */
#define MODEL_MAX_NODES 60000
/* The free-order model's events and parking slots stay within 32 bits. */
#define MODEL_FREE_MAX (1 << 28)

typedef struct model {
  const remat_graph *g;
  int n;
  int phase;      /* 1: minimise max(peak, M); 2: peak <= M, min duration */
  int ncopy;      /* total number of copies (intervals) */
  int *first;     /* copies of node v: first[v] .. first[v+1]-1 */
  int *node;      /* node of each copy */
  int64_t budget; /* M in bytes */
  int64_t mem_q;  /* memory quantum: height m'_v = ceil(m_v / mem_q) */
  int64_t dur_q;  /* duration quantum: w'_v = round(w_v / dur_q) */
  int mem_exact;  /* mem_q divides every m_v (no rounding) */
  int dur_exact;  /* dur_q divides every w_v */
  int *mem;       /* scaled heights, per node */
  int *dur;       /* scaled durations, per node */
  int cap;        /* scaled budget floor(M / mem_q) */
  int lb_peak;    /* scaled lower bound on any peak */
  int ub_peak;    /* scaled upper bound for phase 1's capacity variable */
  int horizon;    /* last event: n(n+1)/2 (parking slots follow) */
  int too_wide;   /* past Gecode's cumulative limits (MODEL_MEM_MIN) */
  int free_order; /* the free-order model (model_free.c): events 1..ncopy,
                     no stages, no input order */
  int *lo, *hi;   /* free order: the events a node's first copy can take */
} model;

/* Build the model.  copies[v] (or default_copies where copies is NULL or
 * copies[v] is 0) is C_v; sinks and the last node get one copy.  Returns 0,
 * or REMAT_EUSAGE with a message (graph too large for 32-bit events). */
int model_build(model *md, const remat_graph *g, int phase, int64_t budget,
                const int *copies, int default_copies, char *err,
                size_t errlen);
void model_free(model *md);

/* A solution of the model: per copy, start, end, active. */
typedef struct model_sol {
  int *s, *e, *a;
} model_sol;

/* How a model puts a sequence into its values (model_stage_encode,
 * model_free_encode): 0, or -1 when the model cannot hold it. */
typedef int model_encoder(const model *md, const int *seq, int len, model_sol *x);

/* Shared by both models (model.c): the copies per node (C_v from copies,
 * default_copies, at most most_copies, 1 for a sink) into md->first and
 * md->node; then the memory and duration quanta, the scaled heights,
 * durations and capacity, and the peak bounds from an initial solution
 * (the input order, put into the model by its own encoder). */
void model_copies(model *md, const int *copies, int default_copies, int most_copies);
void model_scale(model *md, model_encoder *encode);

/* Event of stage k (1-based) at position p (1-based). */
static inline int model_event(int k, int p) {
  return (int)((int64_t)k * (k - 1) / 2 + p); /* k(k-1) passes 32 bits above 46,341 */
}
/* Stage of an event. */
int model_stage(int event);
/* Fixed start of node v's first copy. */
static inline int model_first_start(int v) { return model_event(v + 1, v + 1); }
/* Start range of a later copy of v when active. */
static inline int model_later_min(int v) { return model_event(v + 2, v + 1); }
static inline int model_later_max(const model *md, int v) {
  return model_event(md->n, v + 1);
}
/* Where an inactive copy c rests: s = e = its own slot past the horizon.
 * (Gecode's cumulative charges a zero-length task at its start, so an
 * inactive copy cannot simply have length 0; parked alone, length 1, it
 * never meets another task.) */
static inline int model_park(const model *md, int c) { return md->horizon + 1 + c; }

void model_sol_alloc(const model *md, model_sol *x);
void model_sol_free(model_sol *x);

/* Encode a schedule into the stage model's values (intervals from each
 * copy's compute to its last reader).  Fails (returns -1) when the
 * sequence is not stage-structured for the input order or needs more
 * copies than C_v.  For either model: model_encode (model_any.h). */
int model_stage_encode(const model *md, const int *seq, int len, model_sol *x);

/* Decode: the active copies sorted by start.  *seq is allocated. */
int model_decode(const model *md, const model_sol *x, int **seq, int *len);

/* Check a solution against the stage model's constraints in scaled units;
 * 0 if fine, else -1 with a message.  For either model: model_check
 * (model_any.h). */
int model_stage_check(const model *md, const model_sol *x, int cap, char *err,
                      size_t errlen);

/* Scaled peak of a model solution (max over events of active heights). */
int64_t model_peak(const model *md, const model_sol *x);

#endif
