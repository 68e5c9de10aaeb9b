/* plot_tradeoff.c -- the budget/overhead picture, like Checkmate's Figure
 * 5: per method, the TDI of its schedule against the budget (as a share
 * of the input order's peak), and the budgets where no method has a
 * schedule within budget shaded as the infeasible region. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "plot_draw.h"
#include "svg.h"
#include "util.h"

typedef struct plot_trade {
  const plot_curve *c;
  int nc;
  svg_axis x, y;
  double left, top;
  int any_infeasible, any_over, any_optimal;
  char **legend;
} plot_trade;

static int plot_pt_fits(const plot_point *p) {
  return p->status == REMAT_STATUS_OPTIMAL || p->status == REMAT_STATUS_FEASIBLE;
}

static int plot_pt_cmp(const void *a, const void *b) {
  double x = ((const plot_point *)a)->budget, y = ((const plot_point *)b)->budget;
  return (x > y) - (x < y);
}

static int plot_dbl_cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void plot_trade_axes(plot_trade *p) {
  double xlo = INFINITY, xhi = -INFINITY, ymax = 0;
  for (int i = 0; i < p->nc; i++)
    for (int k = 0; k < p->c[i].n; k++) {
      const plot_point *q = &p->c[i].pts[k];
      xlo = fmin(xlo, 100 * q->budget);
      xhi = fmax(xhi, 100 * q->budget);
      if (plot_pt_fits(q)) ymax = fmax(ymax, q->tdi);
      if (q->status == REMAT_STATUS_INFEASIBLE) p->any_infeasible = 1;
      if (q->status == REMAT_STATUS_OVER_BUDGET) p->any_over = 1;
      if (q->status == REMAT_STATUS_OPTIMAL) p->any_optimal = 1;
    }
  if (!(xlo < INFINITY)) xlo = 0, xhi = 100;
  if (!(xhi > xlo)) xlo -= 5, xhi += 5;
  double pad = (xhi - xlo) * 0.03;
  p->y = svg_axis_make(0, ymax > 0 ? ymax * 1.08 : 1, 0, -PLOT_H, 0, SVG_UNIT_PERCENT);
  svg_axis_nice(&p->y, 36, 1);
  p->left = PLOT_PAD + 22 + svg_axis_label_width(&p->y) + 12;
  p->top = PLOT_PAD + PLOT_TITLE_H + 8;
  p->y.p0 = p->top + PLOT_H;
  p->y.p1 = p->top;
  p->x = svg_axis_make(xlo - pad, xhi + pad, p->left, p->left + PLOT_W, 0, SVG_UNIT_PERCENT);
  svg_axis_nice(&p->x, 48, 0);
}

/* Budgets at which no curve has a schedule within budget: shaded bands
 * from halfway to the neighbouring budgets. */
static void plot_trade_zone(svg *s, const plot_trade *p) {
  int total = 0;
  for (int i = 0; i < p->nc; i++) total += p->c[i].n;
  double *b = util_malloc((size_t)(total ? total : 1) * sizeof *b);
  int nb = 0;
  for (int i = 0; i < p->nc; i++)
    for (int k = 0; k < p->c[i].n; k++) b[nb++] = p->c[i].pts[k].budget;
  qsort(b, (size_t)nb, sizeof *b, plot_dbl_cmp);
  svg_group_begin(s, "infeasible-zones");
  for (int j = 0; j < nb; j++) {
    if (j && b[j] == b[j - 1]) continue;
    int fits = 0;
    for (int i = 0; i < p->nc && !fits; i++)
      for (int k = 0; k < p->c[i].n && !fits; k++)
        fits = p->c[i].pts[k].budget == b[j] && plot_pt_fits(&p->c[i].pts[k]);
    if (fits) continue;
    int lo = j, hi = j;
    while (lo > 0 && b[lo - 1] == b[j]) lo--;
    while (hi + 1 < nb && b[hi + 1] == b[j]) hi++;
    double a = lo > 0 ? (b[lo - 1] + b[j]) / 2 : p->x.lo / 100;
    double z = hi + 1 < nb ? (b[hi + 1] + b[j]) / 2 : p->x.hi / 100;
    double x0 = svg_map(&p->x, 100 * a), x1 = svg_map(&p->x, 100 * z);
    svg_rect_open(s, x0, p->top, x1 - x0, PLOT_H, "infeasible-zone", NULL);
    svg_attr_num(s, "data-budget", b[j]);
    svg_close(s);
  }
  svg_group_end(s);
  free(b);
}

static void plot_trade_curve(svg *s, const plot_trade *p, int i) {
  const plot_curve *c = &p->c[i];
  plot_point *pts = util_malloc((size_t)(c->n ? c->n : 1) * sizeof *pts);
  memcpy(pts, c->pts, (size_t)c->n * sizeof *pts);
  qsort(pts, (size_t)c->n, sizeof *pts, plot_pt_cmp);
  svg_poly_begin(s, "tradeoff", svg_color(i));
  svg_attr(s, "data-label", c->label);
  for (int k = 0; k < c->n; k++)
    if (plot_pt_fits(&pts[k]))
      svg_poly_point(s, svg_map(&p->x, 100 * pts[k].budget), svg_map(&p->y, pts[k].tdi));
  svg_poly_end(s);
  for (int k = 0; k < c->n; k++) {
    const plot_point *q = &pts[k];
    double x = svg_map(&p->x, 100 * q->budget);
    double y = plot_pt_fits(q) ? svg_map(&p->y, q->tdi) : p->y.p0;
    const char *cls = remat_status_name(q->status);
    svg_open(s, "circle");
    svg_attr(s, "class", cls);
    svg_attr_num(s, "cx", x);
    svg_attr_num(s, "cy", y);
    svg_attr_num(s, "r", q->status == REMAT_STATUS_OPTIMAL ? 4 : 3);
    int hollow = !plot_pt_fits(q);
    svg_attr(s, "fill", hollow ? "#ffffff" : svg_color(i));
    svg_attr(s, "stroke", svg_color(i));
    svg_attr_num(s, "stroke-width", q->status == REMAT_STATUS_OPTIMAL ? 2 : 1.2);
    svg_attr_num(s, "data-budget", q->budget);
    svg_attr_int(s, "data-budget-bytes", q->budget_bytes);
    if (plot_pt_fits(q)) svg_attr_num(s, "data-tdi", q->tdi);
    if (!isnan(q->bound_tdi)) svg_attr_num(s, "data-lower-bound-tdi", q->bound_tdi);
    svg_close(s);
    if (q->status == REMAT_STATUS_INFEASIBLE) /* a cross on the proven ones */
      svg_line(s, x - 4, y - 4, x + 4, y + 4, "infeasible-mark", svg_color(i));
  }
  free(pts);
}

static void plot_trade_legend_text(plot_trade *p, int i) {
  const plot_curve *c = &p->c[i];
  int fit = 0;
  double lo = INFINITY;
  for (int k = 0; k < c->n; k++)
    if (plot_pt_fits(&c->pts[k])) {
      fit++;
      lo = fmin(lo, c->pts[k].budget);
    }
  char buf[1024];
  if (fit)
    snprintf(buf, sizeof buf, "%s: within budget at %d of %d budgets, down to %.4g%%",
             c->label, fit, c->n, 100 * lo);
  else
    snprintf(buf, sizeof buf, "%s: nothing within budget at %d budgets", c->label, c->n);
  p->legend[i] = util_strdup(buf);
}

static const char plot_trade_keys[] =
    "filled: within budget (thick ring: optimal); hollow on the axis: nothing within "
    "budget (a cross: proven infeasible); grey: no method within budget";

static void plot_trade_draw(svg *s, const plot_trade *p, const char *title,
                            const char *sub) {
  plot_heading(s, title, sub);
  plot_trade_zone(s, p);
  svg_axis_x(s, &p->x, p->y.p0, p->y.p1, "memory budget (% of the input order's peak)");
  svg_axis_y(s, &p->y, p->x.p0, p->x.p1, "TDI: total duration increase (%)");
  svg_group_begin(s, "curves");
  for (int i = 0; i < p->nc; i++) plot_trade_curve(s, p, i);
  svg_group_end(s);
  plot_area(s, &p->x, &p->y);
  svg_group_begin(s, "legend");
  double y = PLOT_LEGEND_Y(p->top);
  for (int i = 0; i < p->nc; i++, y += PLOT_LEGEND_H)
    svg_legend_entry(s, p->left, y, svg_color(i), 1, NULL, p->legend[i]);
  svg_text(s, p->left, y, "start", "legend", 0, plot_trade_keys);
  svg_group_end(s);
}

int plot_tradeoff(FILE *f, const plot_curve *c, int nc, const plot_opts *o, char *err,
                  size_t errlen) {
  plot_trade p;
  memset(&p, 0, sizeof p);
  p.c = c;
  p.nc = nc;
  p.legend = util_calloc((size_t)nc + 1, sizeof *p.legend);
  plot_trade_axes(&p);
  double w = p.left + PLOT_W + 1.5 * PLOT_PAD;
  for (int i = 0; i < nc; i++) {
    plot_trade_legend_text(&p, i);
    w = fmax(w, p.left + 26 + svg_text_width(p.legend[i], SVG_FONT) + PLOT_PAD);
  }
  w = fmax(w, p.left + svg_text_width(plot_trade_keys, SVG_FONT) + PLOT_PAD);
  char title[512];
  snprintf(title, sizeof title, "%s",
           o->title ? o->title : "Budget and overhead: TDI against the memory budget");
  const char *sub = nc && c[0].graph ? c[0].graph : "";
  w = fmax(w, plot_heading_width(title, sub));
  double h = PLOT_LEGEND_Y(p.top) + nc * PLOT_LEGEND_H + PLOT_PAD;
  svg s;
  svg_begin(&s, f, ceil(w), ceil(h), title, plot_css);
  plot_trade_draw(&s, &p, title, sub);
  int rc = plot_finish(&s, err, errlen);
  for (int i = 0; i < nc; i++) free(p.legend[i]);
  free(p.legend);
  return rc;
}
