/* shares.h -- the portfolio's time shares, each named once: its value, the
 * range it may take (a share is a fraction of a time, so within [0, 1];
 * tests/unit_shares.c checks every value against its range), and what it
 * is a share of.  Seconds that cap or floor a share stay beside their use.
 *
 * A share of "the limit" multiplies the solve's time limit; of "the time
 * left", what is left of it when the step starts. */
#ifndef REMAT_SHARES_H
#define REMAT_SHARES_H

/* X(NAME, value, min, max, "of what, for what") */
#define TIME_SHARES(X)                                                                   \
  X(PEBBLE, 0.05, 0, 1, "the limit: the pebbling proof (bounds.c)")                      \
  X(ORDER_COST, 0.05, 0, 1, "the time left: the order cost bound (bounds.c)")            \
  X(COVER, 0.25, 0, 1, "the limit: the covering bound's plain problem (bounds.c)")       \
  X(COVER_SHORT, 0.5, 0, 1, "the limit, when its COVER share is under 1 s, at most 1 s") \
  X(COVER_ANY, 0.25, 0, 1, "the time left: the covering bound over every order")         \
  X(WINDOW_YIELD, 0.05, 0, 1, "the limit: the window bound's child before it may yield") \
  X(SEEDS_BASELINES, 0.05, 0, 1, "the limit: Chen's and Echo's baselines (seeds.c)")     \
  X(SEEDS_HEUR, 0.05, 0, 1, "the limit: the C heuristics (seeds.c)")                     \
  X(SEEDS_HEUR_FLOOR, 0.3, 0, 1, "the limit: the heuristics at least (up to 2 s)")       \
  X(SEEDS_ROUND, 0.05, 0, 1, "the limit: Checkmate's LP rounding as a seed")             \
  X(SEEDS_ROUND_FLOOR, 0.4, 0, 1, "the limit: the rounding at least (up to 2 s)")        \
  X(SEEDS_POLISH, 0.05, 0, 1, "the limit: the polish of a rounded schedule")             \
  X(SEEDS_PROBE, 0.05, 0, 1, "the limit: the copies probe (seeds.h), at most")           \
  X(SEEDS_PILOT, 0.2, 0, 1, "the copies probe's time: the walk's lookahead, at most")     \
  X(SEEDS_CHAIN, 0.05, 0, 1, "the limit: the chain of repeated blocks (seeds.c), at most") \
  X(SEEDS_CHAIN_ON, 0.25, 0, 1, "the limit: that chain with --hierarchy on, at most")   \
  X(MILP_ROUND, 0.1, 0, 1, "the limit: the MILP's LP-rounding seed (seeds_milp)")        \
  X(ALONE_ANNEAL, 0.5, 0, 1, "the time left: a lone worker's annealing, at most")        \
  X(ALONE_SLICE, 0.25, 0, 1, "the time left: a lone worker's CP slice")                  \
  X(ALONE_SLICE_UNFIT, 0.6, 0, 1, "the time left: that slice while nothing fits")        \
  X(MILP_IN_CP, 0.5, 0, 1, "the CP worker's time: Checkmate's MILP beside it")           \
  X(MILP_IN_CP_UNFIT, 0.8, 0, 1, "the CP worker's time: the MILP while nothing fits")    \
  X(LARGE_CHAIN, 0.25, 0, 1, "the time left: the repeated blocks beyond the stage model") \
  X(LARGE_CLOSURE, 0.75, 0, 1, "the time left: the closure bound's child beyond it")     \
  X(FREE_BASELINES, 0.05, 0, 1, "the time left: the baselines beyond the stage model")   \
  X(FREE_ORDER, 0.25, 0, 1, "the time left: free order's order search")                  \
  X(FREE_EXACT, 0.5, 0, 1, "the time left: free order's exact search")                   \
  X(FREE_CP, 0.5, 0, 1, "the time left: free order's CP on small graphs")                \
  X(PEBBLE_PATHS, 0.25, 0, 1, "the time left: free order's schedule from the pebbling paths") \
  X(FREE_SEQ, 0.5, 0, 1, "the time left: free order's joint annealing")                  \
  X(FREE_DESCENT, 0.3, 0, 1, "the stage-axis search's time: the order descent first")    \
  X(FREE_TRY_DESCENT, 0.15, 0, 1, "the time left: a joint-annealing try's descent")      \
  X(ORDER_HINT, 0.03, 0, 1, "the limit: the free order's hint after an input-order solve")

typedef enum share_id {
#define SHARE_ID(name, value, min, max, what) SHARE_##name,
  TIME_SHARES(SHARE_ID)
#undef SHARE_ID
      SHARE_COUNT
} share_id;

typedef struct share_def {
  const char *name;
  double value, min, max;
  const char *what;
} share_def;

/* The table's row of a share. */
static inline const share_def *share_row(share_id id) {
  static const share_def rows[SHARE_COUNT] = {
#define SHARE_ROW(name, value, min, max, what) {#name, value, min, max, what},
      TIME_SHARES(SHARE_ROW)
#undef SHARE_ROW
  };
  return &rows[id];
}

/* A share's value. */
static inline double time_share(share_id id) { return share_row(id)->value; }

#endif
