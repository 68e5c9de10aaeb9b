/* unit_oracle.c -- the CP solver against brute force: on random DAGs of at
 * most 6 nodes and several budgets, `remat_solve` with C_v = n proves the
 * optimum that enumerating every stage-structured schedule finds, or
 * proves that nothing fits (all cores, CP only, and one worker). */
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"

#include "oracle.h"
#include "remat.h"

static int check_instance(const remat_graph *g, int64_t M, int heuristics, int threads) {
  int64_t minp;
  int64_t best = oracle_best(g, M, &minp);
  remat_solve_params p = solve_params(M, 20, threads);
  p.default_copies = g->n;
  p.heuristics = heuristics;
  remat_result r;
  remat_result_init(&r, g, M, "cp");
  int rc = remat_solve(g, &p, &r);
  int ok;
  if (best < 0) {
    ok = rc == REMAT_ENOFIT && r.status == REMAT_STATUS_INFEASIBLE;
  } else {
    ok = rc == REMAT_OK && r.status == REMAT_STATUS_OPTIMAL &&
         r.duration == best && r.peak <= M;
  }
  if (!ok)
    fprintf(stderr,
            "  n=%d M=%lld: brute force %lld, solve rc %d status %s duration "
            "%lld peak %lld (%s)\n",
            g->n, (long long)M, (long long)best, rc, remat_status_name(r.status),
            (long long)r.duration, (long long)r.peak, r.message);
  remat_result_free(&r);
  return ok;
}

static void run(int heuristics, int threads, int graphs) {
  int bad = 0, total = 0;
  for (int i = 0; i < graphs; i++) {
    int n = 3 + i % 4; /* 3..6 nodes */
    remat_graph *g = oracle_dag(n, 35 + 10 * (i % 3), 9, 9, 1000 + (uint64_t)i);
    int64_t lo = remat_graph_min_peak(g), hi = remat_topo_peak(g);
    /* budgets across the range, one below the bound, one unreachable */
    int64_t budgets[5] = {lo - 1, lo, lo + (hi - lo) / 3, lo + 2 * (hi - lo) / 3, hi};
    for (int k = 0; k < 5; k++) {
      if (budgets[k] <= 0) continue;
      total++;
      bad += !check_instance(g, budgets[k], heuristics, threads);
    }
    remat_graph_free(g);
  }
  if (bad) fail_msg("%d of %d instances disagree with brute force", bad, total);
}

static void test_oracle_with_heuristics(void **state) {
  (void)state;
  run(1, 0, 24);
}

/* One worker takes turns between annealing and the CP (solve_alone): the
 * CP's slices still prove the optimum. */
static void test_oracle_one_worker(void **state) {
  (void)state;
  run(1, 1, 8);
}

static void test_oracle_cp_only(void **state) {
  (void)state;
  run(0, 0, 24);
}

UNIT_TESTS(test_oracle_with_heuristics, test_oracle_cp_only,
           test_oracle_one_worker)
