/* fzn_free.c -- the free-order model (model_free.c) as FlatZinc.
 *
 * Variables as in the stage model (fzn.h, which calls this file), but every copy's start is a
 * variable: first copies over the events their node's longest paths allow
 * (md->lo, md->hi), later ones over the events after that or their parking
 * slot.  Constraints: the interval shape and the order of a node's copies
 * as in the stage model; all starts different (one computation per event;
 * inactive copies rest at distinct slots); each edge's first copies in
 * order (implied, it helps propagation); precedence as a disjunction over
 * the predecessor's copies; one cumulative for memory. */
#include "fzn_free.h"

#include <stdlib.h>

#include "graph.h"

static int fzn_free_first(const model *md, int c) { return c == md->first[md->node[c]]; }

void fzn_free_decls(const model *md, util_buf *b) {
  int K = md->horizon;
  for (int c = 0; c < md->ncopy; c++) {
    int v = md->node[c];
    if (fzn_free_first(md, c)) {
      util_buf_printf(b, "var %d..%d: s%d;\n", md->lo[v], md->hi[v], c);
      util_buf_printf(b, "var %d..%d: e%d;\n", md->lo[v], K, c);
      util_buf_printf(b, "var 1..%d: d%d;\n", K - md->lo[v] + 1, c);
    } else {
      int park = model_park(md, c), lo = md->lo[v] + 1;
      if (lo > K) lo = park; /* no room after the first copy */
      util_buf_printf(b, "var %d..%d: s%d;\n", lo, park, c);
      util_buf_printf(b, "var bool: a%d;\nvar 0..1: x%d;\n", c, c);
      util_buf_printf(b, "var %d..%d: e%d;\n", lo, park, c);
      util_buf_printf(b, "var 1..%d: d%d;\n", park, c);
    }
  }
}

static void fzn_free_intervals(const model *md, util_buf *b) {
  int K = md->horizon;
  for (int c = 0; c < md->ncopy; c++) {
    util_buf_printf(b, "constraint int_lin_eq([1,-1,1],[d%d,e%d,s%d],1);\n", c, c, c);
    if (fzn_free_first(md, c)) continue;
    int park = model_park(md, c);
    util_buf_printf(b, "constraint bool2int(a%d,x%d);\n", c, c);
    /* inactive: s = park; active: s <= K and e <= K */
    util_buf_printf(b, "constraint int_lin_le([-1,%d],[s%d,x%d],%d);\n", -park, c, c, -park);
    util_buf_printf(b, "constraint int_lin_le([1,%d],[s%d,x%d],%d);\n", park - K, c, c, park);
    util_buf_printf(b, "constraint int_lin_le([1,%d],[e%d,x%d],%d);\n", park - K, c, c, park);
    /* inactive: e = s */
    util_buf_printf(b, "constraint int_lin_le([1,-1,%d],[e%d,s%d,x%d],0);\n", -park, c, c, c);
    /* ordered, not overlapping: a_i -> a_{i-1} and e_{i-1} < s_i */
    if (!fzn_free_first(md, c - 1))
      util_buf_printf(b, "constraint bool_clause([a%d],[a%d]);\n", c - 1, c);
    util_buf_printf(b, "constraint int_lin_le_imp([1,-1],[e%d,s%d],-1,a%d);\n", c - 1, c, c);
  }
  util_buf_puts(b, "constraint all_different_int([");
  for (int c = 0; c < md->ncopy; c++) util_buf_printf(b, c ? ",s%d" : "s%d", c);
  util_buf_puts(b, "]);\n");
}

/* Precedence: each active copy cv of v reads an active copy of u that
 * started before it and is still held at its start. */
static void fzn_free_precedence(const model *md, util_buf *decl, util_buf *b) {
  const remat_graph *g = md->g;
  int nb = 0;
  util_buf clause = {0};
  for (int v = 0; v < md->n; v++)
    for (int k = g->pred_off[v]; k < g->pred_off[v + 1]; k++) {
      int u = g->pred[k], fu = md->first[u];
      util_buf_printf(b, "constraint int_lin_le([1,-1],[s%d,s%d],-1);\n", fu, md->first[v]);
      int cu = md->first[u + 1] - fu;
      for (int cv = md->first[v]; cv < md->first[v + 1]; cv++) {
        int vfirst = fzn_free_first(md, cv);
        if (cu == 1) { /* the only copy of u covers s_v */
          if (vfirst) {
            util_buf_printf(b, "constraint int_lin_le([1,-1],[s%d,e%d],0);\n", cv, fu);
          } else {
            util_buf_printf(b, "constraint int_lin_le_imp([1,-1],[s%d,s%d],-1,a%d);\n", fu,
                            cv, cv);
            util_buf_printf(b, "constraint int_lin_le_imp([1,-1],[s%d,e%d],0,a%d);\n", cv,
                            fu, cv);
          }
          continue;
        }
        clause.len = 0;
        if (clause.s) clause.s[0] = 0;
        for (int ci = fu; ci < md->first[u + 1]; ci++) {
          int bv = nb++;
          util_buf_printf(decl, "var bool: b%d :: var_is_introduced;\n", bv);
          util_buf_printf(&clause, clause.len ? ",b%d" : "b%d", bv);
          if (!fzn_free_first(md, ci))
            util_buf_printf(b, "constraint bool_clause([a%d],[b%d]);\n", ci, bv);
          util_buf_printf(b, "constraint int_lin_le_imp([1,-1],[s%d,s%d],-1,b%d);\n", ci, cv,
                          bv);
          util_buf_printf(b, "constraint int_lin_le_imp([1,-1],[s%d,e%d],0,b%d);\n", cv, ci,
                          bv);
        }
        if (vfirst)
          util_buf_printf(b, "constraint bool_clause([%s],[]);\n", clause.s);
        else
          util_buf_printf(b, "constraint bool_clause([%s],[a%d]);\n", clause.s, cv);
      }
    }
  util_buf_free(&clause);
}

void fzn_free_constraints(const model *md, util_buf *decl, util_buf *cons) {
  fzn_free_intervals(md, cons);
  fzn_free_precedence(md, decl, cons);
}
