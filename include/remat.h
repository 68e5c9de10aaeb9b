/* remat.h -- public interface of the remat library.
 *
 * remat computes tensor-rematerialization schedules: given a computation
 * graph (a DAG whose nodes have a duration w_v and an output size m_v) and a
 * memory budget M, it finds an execution sequence, recomputing some nodes,
 * whose peak memory fits M and whose total duration is as small as possible.
 *
 * Conventions (GLPK style):
 *   - every parameter struct has an init function that fills in defaults;
 *   - functions return 0 on success and a nonzero REMAT_E* code on failure,
 *     writing a one-line human-readable message into a caller buffer;
 *   - sizes and durations are 64-bit integers everywhere.
 *
 * Memory model (the Moccasin paper's, docs/method.md): a schedule is a
 * sequence of node indices, a repeated node is a recomputation.  Each step
 * reads, for every predecessor, its latest earlier copy.  Memory at step j is
 * the sizes of all earlier copies that still have a reader at step j or
 * later, plus the output computed at step j.  Peak = max over steps,
 * duration = sum of the durations of all steps.
 */
#ifndef REMAT_H
#define REMAT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define REMAT_VERSION "0.1.0"

/* Exit codes of the command-line tool, also used as error classes. */
enum {
  REMAT_OK = 0,         /* a schedule within budget */
  REMAT_EUSAGE = 2,     /* bad usage or bad input */
  REMAT_ENOFIT = 3,     /* nothing within budget (proven or out of time) */
  REMAT_EINTERNAL = 4,  /* internal error (a bug) */
};

/* ------------------------------------------------------------------ */
/* Graphs                                                              */
/* ------------------------------------------------------------------ */

/* A computation graph, normalised on load: node i is the i-th node of the
 * input topological order, so every edge (u, v) has u < v.  The ids and
 * attributes of the input are kept for output. */
typedef struct remat_graph {
  int n;             /* number of nodes */
  int n_edges;       /* number of edges */
  char **id;         /* id[i]: the node's id as written in the input */
  int ids_numeric;   /* all ids were JSON integers (write them back as such) */
  char **label;      /* label[i]: a display name, or NULL */
  char **op;         /* op[i]: the operator kind an importer recorded
                        ("aten.convolution", "Conv"), or NULL */
  int64_t *w;        /* w[i]: duration (>= 0) */
  int64_t *m;        /* m[i]: output size (>= 0) */
  int *copies;       /* copies[i]: C_v from the input file, 0 if not given */
  int *file_index;   /* file_index[i]: the node's position in the input file */
  int *pred_off;     /* predecessors of i: pred[pred_off[i] .. pred_off[i+1]) */
  int *pred;         /*   (ascending) */
  int *succ_off;     /* successors of i: succ[succ_off[i] .. succ_off[i+1]) */
  int *succ;         /*   (ascending) */
  char *name;        /* graph name (from the file, or the file's base name) */
  char *path;        /* file the graph was read from, or NULL */
  const char *format;/* "networkx-a", "networkx-b" or "native" */
  void *index;       /* private: id -> node lookup */
  unsigned char *backward; /* backward[i]: 1 for a backward-pass node (the
                              "backward" flag of Checkmate graphs), NULL when
                              the input has no forward/backward split */
} remat_graph;

/* Read a graph from a JSON file: networkx node-link JSON (both dialects of
 * the Moccasin benchmark graphs) or remat's native format (docs/formats.md).
 * On error returns NULL and writes "FILE[:LINE:COL]: message" to err.
 * The path "-" reads standard input ("<stdin>" in messages; the graph's
 * path is then NULL and its name, when the document gives none, "stdin"). */
remat_graph *remat_graph_read(const char *path, char *err, size_t errlen);

/* Same from a memory buffer; `path` is only used in messages. */
remat_graph *remat_graph_read_buffer(const char *buf, size_t len,
                                     const char *path, char *err,
                                     size_t errlen);

void remat_graph_free(remat_graph *g);

/* Index of the node whose id is `id`, or -1. */
int remat_graph_find(const remat_graph *g, const char *id);

/* Sum of all node durations (the duration of the input order). */
int64_t remat_graph_base_duration(const remat_graph *g);

/* The longest total duration a schedule on the input order's stages can
 * have (each node v computed at most once in each of the n - v stages
 * from its own on: the sum over v of (n - v) w_v, v in input order), or
 * -1 if that passes 64 bits.  The solvers refuse graphs where it does, so
 * that no sum of durations they form can overflow. */
int64_t remat_graph_max_duration(const remat_graph *g);

/* max_v (m_v + sum of m_u over its predecessors u): no schedule can have a
 * smaller peak. */
int64_t remat_graph_min_peak(const remat_graph *g);

/* A lower bound on the peak of every schedule whose first computations
 * follow the input order (the stage model) and that computes each node
 * given copies 1 exactly once: max over v of m_v, its predecessors' m_u,
 * and the m_u of every node u given copies 1 that comes before v and has a
 * reader after v (such a u is kept from its computation to its last
 * reader's).  At least remat_graph_min_peak; in a training graph whose
 * gradients are read by a last node, at least their sum. */
int64_t remat_graph_order_min_peak(const remat_graph *g);

/* ------------------------------------------------------------------ */
/* Simulation                                                          */
/* ------------------------------------------------------------------ */

typedef struct remat_sim {
  int valid;          /* 1 if every step's predecessors were computed before */
  int64_t peak;       /* peak memory */
  int64_t duration;   /* total duration */
  int peak_step;      /* first step at which the peak is reached */
  int recomputations; /* steps that compute a node a second or later time */
  char error[256];    /* why the schedule is invalid */
} remat_sim;

/* Re-simulate `seq` (len node indices).  If mem is not NULL it receives the
 * memory at each step (len entries).  Returns 0, or REMAT_EUSAGE if the
 * sequence is invalid (sim->valid = 0 and sim->error says why). */
int remat_simulate(const remat_graph *g, const int *seq, int len,
                   remat_sim *sim, int64_t *mem);

/* Peak of the input topological order without recomputation. */
int64_t remat_topo_peak(const remat_graph *g);

/* ------------------------------------------------------------------ */
/* Budgets                                                             */
/* ------------------------------------------------------------------ */

/* Parse a budget: a fraction of the topological peak ("0.9"), a percentage
 * ("90%"), or an absolute size ("41687", "12GiB", "11.3GB", "512MiB").
 * A fraction f gives floor(f * topo_peak).  Returns 0 and the budget in
 * bytes, or REMAT_EUSAGE with a message. */
int remat_budget_parse(const char *text, int64_t topo_peak, int64_t *budget,
                       char *err, size_t errlen);

/* Format a size with a binary unit ("11.3 GiB"), or plain when small. */
void remat_format_size(int64_t bytes, char *buf, size_t len);


/* ------------------------------------------------------------------ */
/* Results (shared by every method: CP, MILP, rounding, baselines)     */
/* ------------------------------------------------------------------ */

enum {
  REMAT_STATUS_OPTIMAL = 0,   /* within budget, proven optimal (in the model) */
  REMAT_STATUS_FEASIBLE,      /* within budget, not proven optimal */
  REMAT_STATUS_OVER_BUDGET,   /* best schedule found is over budget */
  REMAT_STATUS_INFEASIBLE,    /* proven: nothing within budget (in the model) */
  REMAT_STATUS_ERROR,         /* an internal error ended the search (its
                                 best schedule, if any, is kept) */
};

/* "optimal", "feasible", "over-budget", "infeasible", "error". */
const char *remat_status_name(int status);

/* The schedules a proof (status optimal or infeasible) or a lower bound
 * speaks of.  A claim about a set holds for every subset of it: the stage
 * model's schedules are sequences whose first computations follow the
 * input order, which are sequences in some order. */
enum {
  REMAT_COVERS_NONE = 0,
  REMAT_COVERS_STAGES_COPIES, /* the stage model: the input order's stages
                                 (first computations in the input order,
                                 each stage's recomputations before its
                                 node, in the input order), at most C_v
                                 computations of each node v */
  REMAT_COVERS_STAGES,        /* the stage model, any number of
                                 recomputations */
  REMAT_COVERS_FIRSTS_COPIES, /* every sequence whose first computations
                                 follow the input order, recomputations
                                 anywhere, at most C_v computations of v */
  REMAT_COVERS_FIRSTS,        /* the same, any number of recomputations */
  REMAT_COVERS_ANY_ORDER,     /* every sequence, in any order */
  REMAT_COVERS_ANY_ORDER_COPIES /* every sequence in any order with at
                                   most C_v computations of v (free order) */
};

/* The JSON name of a REMAT_COVERS_* value: "stages-copies", "stages",
 * "input-order-firsts-copies", "input-order-firsts", "any-order",
 * "any-order-copies" (NULL for none). */
const char *remat_covers_name(int covers);

/* One improvement of the best schedule during a solve. */
typedef struct remat_trace {
  double seconds;   /* since the start of the solve */
  int phase;        /* 0 heuristic/baseline, 1 CP phase 1, 2 CP phase 2 / MILP */
  int64_t peak;
  int64_t duration;
} remat_trace;

/* A lower bound on the duration proven during a solve. */
typedef struct remat_bound_point {
  double seconds; /* since the start of the solve */
  double bound;   /* the duration no schedule goes below */
} remat_bound_point;

typedef struct remat_result {
  char method[32];       /* "cp", "milp", "lp-rounding", "chen-sqrtn", ... */
  int64_t budget;        /* M in bytes */
  int64_t topo_peak;     /* peak of the input order */
  int64_t min_peak;      /* max_v (m_v + sum of predecessors' m_u) */
  int64_t base_duration; /* sum of all durations */
  int *seq;              /* best schedule (node indices), NULL if none */
  int len;
  int64_t peak, duration;
  double tdi;            /* 100 (duration - base) / base */
  int recomputations;
  int status;            /* REMAT_STATUS_* */
  char message[512];     /* explanation for the status, may be empty */
  double t_total;        /* seconds */
  double t_best;         /* seconds until the final best schedule */
  double t_first_fit;    /* seconds until the first within-budget schedule, <0 none */
  double t_phase[3];     /* heuristics, phase 1, phase 2 (MILP: [2]) */
  remat_trace *trace;
  int ntrace, cap_trace;
  int has_bound;         /* a lower bound on the duration is known */
  double bound;          /* that bound (duration units; a whole number) */
  int proof_covers;      /* REMAT_COVERS_*: what status optimal or
                            infeasible was proven for */
  int bound_covers;      /* REMAT_COVERS_*: what the bound holds for */
  remat_bound_point *bound_trace; /* each rise of the bound, in order */
  int nbound_trace, cap_bound_trace;
  int *copies;           /* C_v used per node (CP), or NULL */
  int64_t mem_quantum, dur_quantum; /* CP scaling (1 = exact) */
  long long nodes, fails, restarts, solutions, propagations;
  int interrupted;       /* stopped by a signal */
  int free_order;        /* the search covered every order (not only the
                            input order's stages) */
  int64_t other_order_duration; /* a solve on the input order: a schedule in
                            another order found within the budget and
                            shorter than seq (or where seq is above it),
                            its duration and peak (0: none; solve_hint.h) */
  int64_t other_order_peak;
} remat_result;

void remat_result_init(remat_result *r, const remat_graph *g, int64_t budget,
                       const char *method);

/* The total duration increase of a schedule of `duration`:
 * 100 (duration - base) / base, 0 when base is 0. */
double remat_tdi(int64_t base_duration, double duration);

/* The checks every method makes before it searches, with one message each:
 * a negative budget or durations whose stage-axis totals could pass 64 bits
 * (remat_graph_max_duration) are REMAT_EUSAGE; a budget below max_v
 * (remat_graph_min_peak; a budget of 0 included) is REMAT_ENOFIT with
 * status infeasible and a message naming the node.  Otherwise REMAT_OK.
 * r must have been initialised for g with r->budget. */
int remat_result_precheck(remat_result *r, const remat_graph *g);
void remat_result_free(remat_result *r);

/* Offer a schedule: it is re-simulated; if it beats the current best
 * (within budget and shorter, or lower peak while nothing fits), it becomes
 * the best and a trace point is added.  Returns 1 if it became the best, 0
 * if not, -1 if the schedule is invalid (a bug in the caller). */
int remat_result_offer(remat_result *r, const remat_graph *g, const int *seq,
                       int len, int phase, double seconds);

/* ------------------------------------------------------------------ */
/* The CP solver (Moccasin two-phase model on Gecode)                  */
/* ------------------------------------------------------------------ */

enum { REMAT_LNS_AUTO = 0, REMAT_LNS_RANDOM, REMAT_LNS_NONE };
/* The repeated blocks' composition (docs/method.md "Repeated blocks"):
 * AUTO on training graphs with repeated blocks, as one seed among the
 * baselines (first of the searches beyond the stage model); ON the same,
 * with a quarter of the time limit instead of a twentieth on the stage
 * model; OFF never. */
enum { REMAT_HIER_AUTO = 0, REMAT_HIER_ON, REMAT_HIER_OFF };

/* *stop = REMAT_HALT: stop, and the caller needs nothing more than the
 * best so far (its lower bound proven elsewhere, say): the solve's
 * helper processes are killed at once instead of being given time to
 * report.  Any other nonzero value stops it as Ctrl-C does. */
#define REMAT_HALT 2

/* Every method's time limit unless given, in seconds. */
#define REMAT_TIME_LIMIT 60.0
/* The most threads a solve runs (its workers); threads = 0 means all
 * cores, up to that many. */
#define REMAT_MAX_THREADS 16

typedef struct remat_solve_params {
  int64_t budget;          /* M in bytes (required) */
  const int *copies;       /* C_v per node (0 = default), or NULL */
  int default_copies;      /* C_v where not given (2) */
  double time_limit;       /* seconds for the whole solve (60) */
  int threads;             /* Gecode threads, 0 = all cores (0) */
  unsigned seed;           /* (1) */
  const char *fzn_solver;  /* external FlatZinc executable, NULL = Gecode */
  int heuristics;          /* seed with the C heuristics (1) */
  int lns;                 /* REMAT_LNS_* (AUTO) */
  int hierarchy;           /* REMAT_HIER_* (AUTO) */
  int verbose;             /* progress on stderr: 0 none, 1 lines, 2 more */
  volatile int *stop;      /* stop (keeping the best) when nonzero; REMAT_HALT */
  const int *warm_seq;     /* a schedule to start from (e.g. a baseline) */
  int warm_len;
  const char *keep_fzn;    /* if set, write phase k's model to KEEP.phaseK.fzn */
  double lp_time;          /* > 0: after the search, solve Checkmate's LP
                              relaxation (milp.h) for at most this many
                              seconds; its value is the lower bound when the
                              search proved none (0) */
  int free_order;          /* search every order, not only the input
                              order's stages (0) */
  int keep_copies;         /* 1: keep to C_v as given (--strict-copies);
                              0: raise C_v (where it is 2 or more) to the
                              copies of a node in Chen's or Echo's schedule
                              (or the LP rounding's, docs/method.md) when
                              it fits the budget, so that the solve never
                              ends worse than those baselines (0) */
  int64_t order_cost;      /* > 0: a lower bound on the duration that
                              recomputation adds to every sequence in any
                              order, already known (the order cost bound of
                              a caller): the solve takes it instead of
                              computing that bound (0) */
  /* called with every new best schedule (node indices), or NULL */
  void (*on_improvement)(void *ctx, const int *seq, int len);
  void *improvement_ctx;
} remat_solve_params;

void remat_solve_params_init(remat_solve_params *p);

/* Solve.  Fills r (initialise it with remat_result_init first).  Returns
 * REMAT_OK (schedule within budget), REMAT_ENOFIT, REMAT_EUSAGE (bad
 * parameters) or REMAT_EINTERNAL (a decoded schedule failed
 * re-simulation, a solver error). */
int remat_solve(const remat_graph *g, const remat_solve_params *p,
                remat_result *r);

/* ------------------------------------------------------------------ */
/* Baselines                                                           */
/* ------------------------------------------------------------------ */

/* One of Checkmate's baselines or Echo's: method "checkpoint-all",
 * "chen-sqrtn", "chen-greedy" or "echo"; candidates (the checkpoint
 * candidates of Chen's methods) "ap" (articulation points, also for NULL)
 * or "linearized" (every forward node).  time_limit in seconds (<= 0: none);
 * stop as in remat_solve_params (may be NULL).  Fills r (initialised for g
 * with the budget).  Returns REMAT_OK (within budget), REMAT_ENOFIT (the
 * method's best is over budget, r->message says by how much), REMAT_EUSAGE
 * (an unknown name, r->message says so) or REMAT_EINTERNAL. */
int remat_baseline(const remat_graph *g, const char *method,
                   const char *candidates, double time_limit,
                   volatile int *stop, remat_result *r);

/* ------------------------------------------------------------------ */
/* For language bindings                                               */
/* ------------------------------------------------------------------ */

/* A result on the heap, initialised as remat_result_init does. */
remat_result *remat_result_new(const remat_graph *g, int64_t budget,
                               const char *method);
/* remat_result_free, then the struct itself (NULL: nothing). */
void remat_result_delete(remat_result *r);

/* The result as the JSON document `remat solve -o` writes (compact, one
 * line), as a string to release with remat_free; NULL when out of
 * memory. */
char *remat_result_json(const remat_result *r, const remat_graph *g);
void remat_free(void *p);

/* sizeof of a public struct named "remat_graph", "remat_sim",
 * "remat_result" or "remat_solve_params"; 0 for any other name. */
size_t remat_struct_size(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* REMAT_H */
