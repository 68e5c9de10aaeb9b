/* order_exact.c -- the exact search (order_exact.h): thresholds decided
 * by order_dfs from the best order's peak minus 1 down. */
#include "order_exact.h"

#include <string.h>

#include "order_dfs.h"
#include "order_walk.h"
#include "util.h"

void order_exact_params_init(order_exact_params *p) {
  memset(p, 0, sizeof *p);
  p->deadline = DEADLINE_NONE;
  p->max_bytes = (size_t)512 << 20;
  p->max_nodes = 20000;
  p->max_pairs = 10000000;
}

int order_exact_run(const remat_graph *g, const order_exact_params *p,
                    int *ord, order_exact_out *out) {
  memset(out, 0, sizeof *out);
  out->peak = order_walk_peak(g, ord, NULL);
  out->lower = p->lower;
  if (out->peak <= out->lower || g->n == 0) {
    out->lower = out->peak;
    out->proven = 1;
    return 0;
  }
  if (g->n > p->max_nodes) {
    out->why = ORDER_EXACT_SIZE;
    return 0;
  }
  order_dfs D;
  order_dfs_init(&D, g, p->max_bytes, p->max_pairs);
  D.deadline = p->deadline;
  D.stop = p->stop;
  out->pair_bound = D.koff != NULL;
  for (int v = 0; v < g->n && D.koff; v++)
    if (D.a[v] > out->lower) out->lower = D.a[v];
  order_dfs_start(&D, ord, 0, g->n);
  while (out->peak > out->lower) {
    out->thresholds++;
    int r = order_dfs_decide(&D, out->peak - 1);
    if (r > 0) {
      memcpy(ord, D.path, (size_t)g->n * sizeof *ord);
      out->peak = order_walk_peak(g, ord, NULL);
      if (p->improved) p->improved(p->ctx, ord, out->peak);
    } else if (r == 0) {
      out->lower = out->peak;
    } else {
      out->why = r == -ORDER_DFS_MEMORY ? ORDER_EXACT_MEMORY
                 : r == -ORDER_DFS_STOP ? ORDER_EXACT_STOP
                                        : ORDER_EXACT_TIME;
      break;
    }
  }
  out->proven = out->peak <= out->lower;
  if (out->proven) out->why = ORDER_EXACT_DONE;
  out->states = D.states;
  out->forced = D.forced;
  out->pruned = D.pruned;
  out->memo_sets = D.memo.count;
  out->memo_bytes = order_memo_bytes(&D.memo);
  order_dfs_free(&D);
  return 0;
}
