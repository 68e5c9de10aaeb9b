/* fzn.c -- FlatZinc and MiniZinc-data writers for the stage model. */
#include "fzn.h"

#include <stdlib.h>
#include <string.h>

#include "fzn_free.h"
#include "graph.h"

void fzn_params_init(fzn_params *p) {
  memset(p, 0, sizeof *p);
  p->lns_percent = 80;
  p->restart_scale = 100;
}

/* Largest event at which copy c could still be read. */
static int fzn_end_max(const model *md, int v) {
  int last = graph_last_succ(md->g, v);
  return last < 0 ? model_first_start(v) : model_later_max(md, last);
}

/* Lower bound of e for copy 0 when v has one copy: its consumers' first
 * events all read it. */
static int fzn_end_min(const model *md, int c) {
  int v = md->node[c];
  if (c != md->first[v] || md->first[v + 1] - md->first[v] > 1)
    return c == md->first[v] ? model_first_start(v) : model_later_min(v) ;
  int last = graph_last_succ(md->g, v);
  return last < 0 ? model_first_start(v) : model_first_start(last);
}

static int fzn_is_first(const model *md, int c) {
  return c == md->first[md->node[c]];
}

/* Print the start of copy c: a variable name or a constant (a first copy
 * on the stage axis). */
static void fzn_start(util_buf *b, const model *md, int c) {
  if (fzn_is_first(md, c) && !md->free_order)
    util_buf_printf(b, "%d", model_first_start(md->node[c]));
  else
    util_buf_printf(b, "s%d", c);
}

static void fzn_decls(const model *md, util_buf *b) {
  for (int c = 0; c < md->ncopy; c++) {
    int v = md->node[c];
    int emin = fzn_end_min(md, c), emax = fzn_end_max(md, v);
    int smin = model_first_start(v);
    if (!fzn_is_first(md, c)) {
      smin = model_later_min(v);
      util_buf_printf(b, "var {");
      for (int k = v + 2; k <= md->n; k++)
        util_buf_printf(b, k == v + 2 ? "%d" : ",%d", model_event(k, v + 1));
      util_buf_printf(b, ",%d}: s%d;\n", model_park(md, c), c);
      util_buf_printf(b, "var bool: a%d;\nvar 0..1: x%d;\n", c, c);
      emax = model_park(md, c);
    }
    if (emax < emin) emax = emin;
    util_buf_printf(b, "var %d..%d: e%d;\n", emin, emax, c);
    util_buf_printf(b, "var 1..%d: d%d;\n", emax - smin + 1, c);
  }
}

/* Interval shape: d = e - s + 1; inactive copies parked (s = e = their
 * slot past the horizon); copies ordered and not overlapping. */
static void fzn_intervals(const model *md, util_buf *b) {
  for (int c = 0; c < md->ncopy; c++) {
    int v = md->node[c];
    if (fzn_is_first(md, c)) {
      util_buf_printf(b, "constraint int_lin_eq([1,-1],[d%d,e%d],%d);\n", c, c,
                      1 - model_first_start(v));
      continue;
    }
    int smax = model_later_max(md, v), park = model_park(md, c);
    util_buf_printf(b, "constraint bool2int(a%d,x%d);\n", c, c);
    util_buf_printf(b, "constraint int_lin_eq([1,-1,1],[d%d,e%d,s%d],1);\n", c, c,
                    c);
    /* inactive: s = park (its largest value); active: s <= smax */
    util_buf_printf(b, "constraint int_lin_le([-1,%d],[s%d,x%d],%d);\n", -park,
                    c, c, -park);
    util_buf_printf(b, "constraint int_lin_le([1,%d],[s%d,x%d],%d);\n",
                    park - smax, c, c, park);
    /* inactive: e = s (e <= s + H x, and e >= s from d >= 1) */
    util_buf_printf(b, "constraint int_lin_le([1,-1,%d],[e%d,s%d,x%d],0);\n",
                    -park, c, c, c);
    /* ordered, not overlapping: a_i -> a_{i-1} and e_{i-1} < s_i */
    if (!fzn_is_first(md, c - 1))
      util_buf_printf(b, "constraint bool_clause([a%d],[a%d]);\n", c - 1, c);
    util_buf_printf(b, "constraint int_lin_le_imp([1,-1],[e%d,s%d],-1,a%d);\n",
                    c - 1, c, c);
  }
}

/* Precedence: every active copy of v starts strictly after the start and
 * no later than the end of an active copy of each predecessor u. */
static void fzn_precedence(const model *md, util_buf *decl, util_buf *b) {
  const remat_graph *g = md->g;
  int nb = 0;
  util_buf clause = {0};
  for (int v = 0; v < md->n; v++)
    for (int k = g->pred_off[v]; k < g->pred_off[v + 1]; k++) {
      int u = g->pred[k];
      int cu = md->first[u + 1] - md->first[u];
      for (int cv = md->first[v]; cv < md->first[v + 1]; cv++) {
        int vfirst = fzn_is_first(md, cv);
        int sv = model_first_start(v);
        if (cu == 1) { /* the only copy of u covers s_v */
          if (vfirst) continue; /* folded into e's domain */
          util_buf_printf(b,
                          "constraint int_lin_le_imp([1,-1],[s%d,e%d],0,a%d);\n",
                          cv, md->first[u], cv);
          continue;
        }
        clause.len = 0;
        if (clause.s) clause.s[0] = 0;
        for (int cu_i = md->first[u]; cu_i < md->first[u + 1]; cu_i++) {
          int bv = nb++;
          util_buf_printf(decl, "var bool: b%d :: var_is_introduced;\n", bv);
          util_buf_printf(&clause, clause.len ? ",b%d" : "b%d", bv);
          if (!fzn_is_first(md, cu_i)) {
            util_buf_printf(b, "constraint bool_clause([a%d],[b%d]);\n", cu_i,
                            bv);
            if (vfirst)
              util_buf_printf(b, "constraint int_lin_le_imp([1],[s%d],%d,b%d);\n",
                              cu_i, sv - 1, bv);
            else
              util_buf_printf(b,
                              "constraint int_lin_le_imp([1,-1],[s%d,s%d],-1,b%d);\n",
                              cu_i, cv, bv);
          }
          if (vfirst)
            util_buf_printf(b, "constraint int_lin_le_imp([-1],[e%d],%d,b%d);\n",
                            cu_i, -sv, bv);
          else
            util_buf_printf(b,
                            "constraint int_lin_le_imp([1,-1],[s%d,e%d],0,b%d);\n",
                            cv, cu_i, bv);
        }
        if (vfirst)
          util_buf_printf(b, "constraint bool_clause([%s],[]);\n", clause.s);
        else
          util_buf_printf(b, "constraint bool_clause([%s],[a%d]);\n", clause.s,
                          cv);
      }
    }
  util_buf_free(&clause);
}

static void fzn_list(util_buf *b, const model *md, char kind) {
  util_buf_putc(b, '[');
  for (int c = 0; c < md->ncopy; c++) {
    if (c) util_buf_putc(b, ',');
    int first = fzn_is_first(md, c);
    switch (kind) {
    case 's': fzn_start(b, md, c); break;
    case 'x': util_buf_printf(b, first ? "1" : "x%d", c); break;
    default: util_buf_printf(b, "%c%d", kind, c);
    }
  }
  util_buf_putc(b, ']');
}

static void fzn_memory(const model *md, util_buf *b) {
  util_buf_puts(b, "constraint cumulatives(");
  fzn_list(b, md, 's');
  util_buf_putc(b, ',');
  fzn_list(b, md, 'd');
  util_buf_puts(b, ",[");
  for (int c = 0; c < md->ncopy; c++)
    util_buf_printf(b, c ? ",%d" : "%d", md->mem[md->node[c]]);
  if (md->phase == 1)
    util_buf_puts(b, "],PEAK);\n");
  else
    util_buf_printf(b, "],%d);\n", md->cap);
}

static void fzn_objective(const model *md, util_buf *decl, util_buf *b) {
  if (md->phase == 1) return; /* PEAK itself */
  int64_t total = 0;
  int any = 0;
  util_buf coef = {0}, vars = {0};
  for (int c = 0; c < md->ncopy; c++) {
    if (fzn_is_first(md, c)) continue;
    int w = md->dur[md->node[c]];
    total += w;
    util_buf_printf(&coef, "%d,", w);
    util_buf_printf(&vars, "x%d,", c);
    any = 1;
  }
  util_buf_printf(decl, "var 0..%lld: OBJ :: output_var;\n", (long long)total);
  if (any)
    util_buf_printf(b, "constraint int_lin_eq([%s-1],[%sOBJ],0);\n", coef.s,
                    vars.s);
  else
    util_buf_puts(b, "constraint int_eq(OBJ,0);\n");
  util_buf_free(&coef);
  util_buf_free(&vars);
}

void fzn_layout_build(const model *md, fzn_layout *l) {
  l->copy = util_malloc(3 * (size_t)md->ncopy * sizeof *l->copy);
  l->kind = util_malloc(3 * (size_t)md->ncopy);
  int k = 0;
  for (int c = 0; c < md->ncopy; c++) {
    if (!fzn_is_first(md, c)) {
      l->copy[k] = c, l->kind[k++] = 'a';
      l->copy[k] = c, l->kind[k++] = 's';
    } else if (md->free_order) {
      l->copy[k] = c, l->kind[k++] = 's';
    }
    l->copy[k] = c, l->kind[k++] = 'e';
  }
  l->nlns = k;
}

void fzn_layout_values(const fzn_layout *l, const model_sol *x, int *values) {
  for (int k = 0; k < l->nlns; k++) {
    int c = l->copy[k];
    values[k] = l->kind[k] == 'a' ? x->a[c] : l->kind[k] == 's' ? x->s[c] : x->e[c];
  }
}

void fzn_layout_free(fzn_layout *l) {
  free(l->copy);
  free(l->kind);
  l->copy = NULL;
  l->kind = NULL;
  l->nlns = 0;
}

static void fzn_lns_vars(util_buf *b, const fzn_layout *l) {
  for (int k = 0; k < l->nlns; k++)
    util_buf_printf(b, k ? ",%c%d" : "%c%d", l->kind[k] == 'a' ? 'x' : l->kind[k],
                    l->copy[k]);
}

static void fzn_lns_values(util_buf *b, const fzn_layout *l,
                           const model_sol *x) {
  int *vals = util_malloc((size_t)l->nlns * sizeof *vals);
  fzn_layout_values(l, x, vals);
  for (int k = 0; k < l->nlns; k++) util_buf_printf(b, k ? ",%d" : "%d", vals[k]);
  free(vals);
}

static void fzn_solve(const model *md, const fzn_params *p, util_buf *b,
                      const fzn_layout *l) {
  util_buf_puts(b, "solve :: seq_search([int_search(");
  /* activity first (no recomputation first), then starts, then ends */
  util_buf_putc(b, '[');
  int any = 0;
  for (int c = 0; c < md->ncopy; c++)
    if (!fzn_is_first(md, c)) util_buf_printf(b, any++ ? ",x%d" : "x%d", c);
  util_buf_puts(b, "],input_order,indomain_min,complete),int_search([");
  any = 0;
  for (int c = 0; c < md->ncopy; c++)
    if (!fzn_is_first(md, c) || md->free_order)
      util_buf_printf(b, any++ ? ",s%d" : "s%d", c);
  util_buf_puts(b, "],input_order,indomain_min,complete),int_search(");
  fzn_list(b, md, 'e');
  util_buf_puts(b, ",input_order,indomain_min,complete)])");
  if (l->nlns && !p->external) {
    util_buf_puts(b, " :: relax_and_reconstruct([");
    fzn_lns_vars(b, l);
    util_buf_printf(b, "],%d", p->lns_percent);
    if (p->initial) {
      util_buf_puts(b, ",[");
      fzn_lns_values(b, l, p->initial);
      util_buf_putc(b, ']');
    }
    util_buf_putc(b, ')');
  } else if (l->nlns && p->initial) {
    util_buf_puts(b, " :: warm_start([");
    fzn_lns_vars(b, l);
    util_buf_puts(b, "],[");
    fzn_lns_values(b, l, p->initial);
    util_buf_puts(b, "])");
  }
  if (p->restart_scale > 0)
    util_buf_printf(b, " :: restart_luby(%d)", p->restart_scale);
  util_buf_printf(b, " minimize %s;\n", md->phase == 1 ? "PEAK" : "OBJ");
}

void fzn_body(const model *md, const fzn_params *p, util_buf *b, util_buf *cons,
              fzn_layout *layout) {
  fzn_objective(md, b, cons);
  util_buf_printf(b, "array [1..%d] of var int: S :: output_array([1..%d]) = ",
                  md->ncopy, md->ncopy);
  fzn_list(b, md, 's');
  util_buf_printf(b, ";\narray [1..%d] of var int: E :: output_array([1..%d]) = ",
                  md->ncopy, md->ncopy);
  fzn_list(b, md, 'e');
  util_buf_printf(b, ";\narray [1..%d] of var int: A :: output_array([1..%d]) = ",
                  md->ncopy, md->ncopy);
  fzn_list(b, md, 'x');
  util_buf_puts(b, ";\n");
  if (cons->s) util_buf_puts(b, cons->s);
  fzn_memory(md, b);
  fzn_layout l = {0};
  fzn_layout_build(md, &l);
  fzn_solve(md, p, b, &l);
  if (layout)
    *layout = l;
  else
    fzn_layout_free(&l);
}

void fzn_scaling_comment(const model *md, util_buf *b) {
  util_buf_printf(b,
                  "%% budget %lld bytes = %d x memory quantum %lld%s; "
                  "duration quantum %lld%s\n",
                  (long long)md->budget, md->cap, (long long)md->mem_q,
                  md->mem_exact ? "" : " (heights rounded up)",
                  (long long)md->dur_q, md->dur_exact ? "" : " (rounded)");
}

void fzn_peak_var(const model *md, util_buf *b) {
  if (md->phase != 1) return;
  int lo = md->cap > md->lb_peak ? md->cap : md->lb_peak;
  int hi = md->ub_peak < lo ? lo : md->ub_peak;
  util_buf_printf(b, "var %d..%d: PEAK :: output_var;\n", lo, hi);
}

void fzn_write(const model *md, const fzn_params *p, util_buf *b,
               fzn_layout *layout) {
  const remat_graph *g = md->g;
  if (md->free_order)
    util_buf_printf(b,
                    "%% remat free-order model (Moccasin, Sections 2.1-2.2), phase %d\n"
                    "%% graph %s: %d nodes, %d edges, %d copies, events 1..%d\n",
                    md->phase, g->name, g->n, g->n_edges, md->ncopy, md->horizon);
  else
    util_buf_printf(b,
                    "%% remat stage model (Moccasin), phase %d\n"
                    "%% graph %s: %d nodes, %d edges, %d copies\n",
                    md->phase, g->name, g->n, g->n_edges, md->ncopy);
  fzn_scaling_comment(md, b);
  if (md->free_order)
    fzn_free_decls(md, b);
  else
    fzn_decls(md, b);
  fzn_peak_var(md, b);
  /* FlatZinc wants every declaration before the first constraint: the
   * constraints go to cons, the auxiliary declarations they need to b */
  util_buf cons = {0};
  if (md->free_order) {
    fzn_free_constraints(md, b, &cons);
  } else {
    fzn_intervals(md, &cons);
    fzn_precedence(md, b, &cons);
  }
  fzn_body(md, p, b, &cons, layout);
  util_buf_free(&cons);
}

void fzn_write_dzn(const model *md, util_buf *b) {
  const remat_graph *g = md->g;
  util_buf_printf(b, "%% remat data for models/%s: graph %s\n",
                  md->free_order ? "moccasin_free.mzn" : "moccasin.mzn", g->name);
  util_buf_printf(b, "n = %d;\nphase = %d;\ncap = %d;\nub_peak = %d;\n", md->n,
                  md->phase, md->cap, md->ub_peak);
  util_buf_puts(b, "copies = [");
  for (int v = 0; v < md->n; v++)
    util_buf_printf(b, v ? ",%d" : "%d", md->first[v + 1] - md->first[v]);
  util_buf_puts(b, "];\nmem = [");
  for (int v = 0; v < md->n; v++) util_buf_printf(b, v ? ",%d" : "%d", md->mem[v]);
  util_buf_puts(b, "];\ndur = [");
  for (int v = 0; v < md->n; v++) util_buf_printf(b, v ? ",%d" : "%d", md->dur[v]);
  util_buf_printf(b, "];\nn_edges = %d;\nesrc = [", g->n_edges);
  int k = 0;
  for (int v = 0; v < md->n; v++)
    for (int j = g->succ_off[v]; j < g->succ_off[v + 1]; j++)
      util_buf_printf(b, k++ ? ",%d" : "%d", v + 1);
  util_buf_puts(b, "];\nedst = [");
  k = 0;
  for (int v = 0; v < md->n; v++)
    for (int j = g->succ_off[v]; j < g->succ_off[v + 1]; j++)
      util_buf_printf(b, k++ ? ",%d" : "%d", g->succ[j] + 1);
  util_buf_puts(b, "];\n");
}
