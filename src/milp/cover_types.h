/* cover_types.h -- what the covering bounds (cover.h) take and give:
 * the parameters, the answer and how it ended.  A header of its own so
 * that the problems' builders and solvers (cover_lp.h, cover_steps.h)
 * and cover.c, which drives them, all include it and not each other. */
#ifndef REMAT_COVER_TYPES_H
#define REMAT_COVER_TYPES_H

#include <stdint.h>

/* Problems with more matrix entries than this are not built. */
#define COVER_MAX_NONZEROS 4000000LL

/* The inputs' rows (cover.c, cover_free.c): shares of an input below
 * COVER_MIN_SHARE are left out (they hardly count), and so are the steps
 * whose excess is below 1 / COVER_MAX_RATIO of m_u or m_p: their rows
 * keep coefficients within CBC's reach (leaving rows out only weakens the
 * bound). */
#define COVER_MIN_SHARE 0.01
#define COVER_MAX_RATIO 1e6

/* The inputs' rows take the heaviest inputs first: pick[0..np) sorted by
 * memory m (descending; stable, ties keep their order). */
static inline void cover_heaviest_first(const int64_t *m, int *pick, int np) {
  for (int x = 1; x < np; x++)
    for (int y = x; y > 0 && m[pick[y]] > m[pick[y - 1]]; y--) {
      int t = pick[y];
      pick[y] = pick[y - 1];
      pick[y - 1] = t;
    }
}

/* How cover_solve ended. */
typedef enum cover_status {
  COVER_OPTIMAL = 0,    /* the covering problem's optimum: the bound */
  COVER_BOUND = 1,      /* a bound short of an optimum: CBC's at its time
                           limit, an LP's value (cover_out.lp), or the
                           closure bound's (closure.h) */
  COVER_INFEASIBLE = 2, /* no schedule on the stage axis fits M with C_v */
  COVER_NONE = 3        /* no bound (too large, or CBC failed) */
} cover_status;

typedef struct cover_out {
  cover_status status;
  int64_t increase; /* lower bound on duration - sum of all durations */
  int lp;           /* COVER_BOUND: the LP relaxation's value (1), CBC's
                       bound at its time limit (0), a value below which
                       CBC proved nothing lies (2: cover_lp.h), or the
                       closure bound's integer optimum at one step (3)
                       or over several steps at once (4) */
  int closure;      /* the bound is the closure bound's (closure.h) */
  int cols, rows;   /* gaps, overloaded stages (the closure bound: its
                       best step's columns and rows) */
  long long nnz;
  char why[96]; /* COVER_NONE: why there is no bound */
} cover_out;

typedef struct cover_params {
  int64_t budget;    /* M in bytes */
  const int *copies; /* C_v per node (first copy included; 0: any) or NULL */
  double time_limit; /* seconds for CBC (a bound is kept when it runs out) */
  int inputs;        /* 0: the plain problem; 1 (the default): then with
                        the inputs' rows; 2: then with the recomputing
                        steps' rows too (cover_steps.h; remat solve's
                        covering child) */
  /* called with the answer so far before each stronger problem is built
   * (when one will be: the answer a bound and time left), and with a
   * stronger problem's LP bound before CBC works on it (it may be below
   * the answer so far); NULL: not called */
  void (*plain_done)(void *ctx, const cover_out *o);
  void *ctx;
  /* the recomputing steps' problem with its rows generated lazily
   * (cover_steps.h): 0 only where the whole problem passes
   * COVER_STEPS_MAX_NONZEROS, 1 always (tests) */
  int steps_lazy;
  /* seconds from the start the recomputing steps' problem may run to,
   * whole (CBC) or lazy (its LP's bound rises round by round; each
   * higher one goes to plain_done); 0: the time_limit */
  double steps_time_limit;
  /* the best schedule's duration increase so far, -1 while none fits
   * (called with ctx; NULL: none known): CBC on the recomputing steps'
   * problem, built whole, then proves bounds between its LP's and it
   * step by step (COVLP_LP_PROVE, cover_lp.h) */
  int64_t (*incumbent_now)(void *ctx);
  /* 1: the covering bound over every order instead (cover_free.h), which
   * takes budget, copies and time_limit only */
  int any_order;
  /* 1 (the default): the closure bound (closure.h) before the covering
   * problems, kept where higher; 0: the covering problems alone */
  int closure;
  /* the closure bound's steps, the highest loads first (0: CLOSURE_STAGES) */
  int closure_steps;
} cover_params;

/* o holds a bound (the problem's optimum, or CBC's or the LP's bound). */
static inline int cover_answered(const cover_out *o) {
  return o->status == COVER_OPTIMAL || o->status == COVER_BOUND;
}

/* Keep x in o when it says more: a proof that nothing fits, or a bound
 * above o's (any bound when o has none, an optimum at o's bound); nothing
 * after o's proof.
 * Returns whether x was taken. */
static inline int cover_take(cover_out *o, const cover_out *x) {
  if (o->status == COVER_INFEASIBLE) return 0;
  if (x->status != COVER_INFEASIBLE &&
      !(cover_answered(x) &&
        (!cover_answered(o) || x->increase > o->increase ||
         (x->increase == o->increase && x->status == COVER_OPTIMAL))))
    return 0;
  *o = *x;
  return 1;
}

#endif
