/* compare.h -- every method on the same instances, one after another with
 * the same time limit: the CP (remat_solve), the Checkmate MILP, its LP
 * relaxation with two-phase rounding, and the baselines; a table like the
 * Moccasin paper's Table 2/3.  Every row's schedule is re-simulated before
 * it is reported. */
#ifndef REMAT_COMPARE_H
#define REMAT_COMPARE_H

#include <stdio.h>

#include "remat.h"

/* Methods (bits of cmp_params.methods). */
enum {
  CMP_CP = 0x001,
  CMP_MILP = 0x002,
  CMP_LP = 0x004,
  CMP_CHECKPOINT_ALL = 0x008,
  CMP_CHEN_SQRTN_AP = 0x010,
  CMP_CHEN_GREEDY_AP = 0x020,
  CMP_CHEN_SQRTN_LIN = 0x040,
  CMP_CHEN_GREEDY_LIN = 0x080,
  CMP_ECHO = 0x100,
  CMP_ALL = 0x1ff,
};

/* Parse "cp,milp,lp-rounding,baselines,chen-greedy,..." into a mask;
 * -1 (and a message) if a name is unknown. */
int cmp_methods_parse(const char *list, char *err, size_t errlen);

typedef struct cmp_params {
  double time_limit;   /* per method and budget (60) */
  int threads;         /* 0: all cores */
  unsigned seed;
  int methods;         /* CMP_* mask (CMP_ALL) */
  const int *copies;   /* C_v for the CP (NULL: default_copies) */
  int default_copies;  /* (2) */
  int verbose;         /* progress on stderr (1) */
  int heuristics;      /* CP: the C heuristics and the annealing; MILP: its
                          MIP start from them (1) */
  int free_order;      /* CP: in free order (remat_solve_params) (0) */
  int keep_copies;     /* CP: C_v as given, never raised (remat_solve_params)
                          (0) */
  const char *fzn_solver; /* CP: an external FlatZinc executable
                             (remat_solve_params), NULL: Gecode */
  volatile int *stop;
} cmp_params;

void cmp_params_init(cmp_params *p);

typedef struct cmp_row {
  char method[40];
  int64_t budget;
  int ran;             /* 0: skipped (e.g. the MILP is too large) */
  char note[512];      /* why it was skipped, or a remark */
  int has_schedule;
  int64_t peak, duration;
  double tdi;
  int within;
  double time_to_best; /* seconds */
  double time;         /* seconds */
  int status;          /* REMAT_STATUS_* */
  int has_bound;
  double bound_tdi;    /* lower bound on the TDI, percent */
  int free_order;      /* the method searched every topological order (the
                          CP with --free-order); the others keep the input
                          order, and their bounds hold for it only */
} cmp_row;

/* Run the methods of p on g at each budget; *rows is allocated.  Returns
 * the number of rows, or -1 on an internal error (message in err). */
int cmp_run(const remat_graph *g, const int64_t *budgets, int nbudgets,
            const cmp_params *p, cmp_row **rows, char *err, size_t errlen);

/* Write the table: "md", "csv" or "json".  Returns 0 or -1 (bad format). */
int cmp_write(FILE *f, const remat_graph *g, const cmp_row *rows, int nrows,
              const char *format);

#endif
