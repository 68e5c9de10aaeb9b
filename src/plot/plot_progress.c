/* plot_progress.c -- the solve progress picture: TDI against solve time,
 * like the Moccasin paper's Figure 5. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "plot_draw.h"
#include "svg.h"
#include "util.h"

/* ------------------------------------------------------------ progress */


typedef struct plot_prog {
  const plot_run *runs;
  int nr;
  int same_graph, same_budget;
  int any_over;   /* some trace point is over budget */
  int clamped;    /* some trace point is earlier than PLOT_TMIN */
  svg_axis x, y;
  double left, top;
  char **legend;
} plot_prog;


static double plot_point_tdi(const remat_result *r, const remat_trace *t) {
  return plot_tdi(t->duration, r->base_duration);
}

static int plot_fits(const remat_result *r, const remat_trace *t) {
  return t->peak <= r->budget;
}

static double plot_run_end(const remat_result *r) {
  double end = r->t_total;
  for (int k = 0; k < r->ntrace; k++)
    if (r->trace[k].seconds > end) end = r->trace[k].seconds;
  return end;
}

static void plot_prog_common(plot_prog *p) {
  p->same_graph = p->same_budget = 1;
  for (int i = 0; i < p->nr; i++) {
    const plot_run *a = &p->runs[i], *b = &p->runs[0];
    if (strcmp(a->graph ? a->graph : "", b->graph ? b->graph : ""))
      p->same_graph = 0;
    if (a->result->budget != b->result->budget) p->same_budget = 0;
    for (int k = 0; k < a->result->ntrace; k++)
      if (!plot_fits(a->result, &a->result->trace[k])) p->any_over = 1;
  }
}

static void plot_prog_axes(plot_prog *p) {
  double tmin = INFINITY, tmax = 0, ymax = 0, ymin = 0;
  for (int i = 0; i < p->nr; i++) {
    const remat_result *r = p->runs[i].result;
    for (int k = 0; k < r->ntrace; k++) {
      tmin = fmin(tmin, r->trace[k].seconds);
      if (r->trace[k].seconds < PLOT_TMIN) p->clamped = 1;
      ymax = fmax(ymax, plot_point_tdi(r, &r->trace[k]));
      ymin = fmin(ymin, plot_point_tdi(r, &r->trace[k]));
    }
    tmax = fmax(tmax, plot_run_end(r));
  }
  /* no trace point (nothing was ever found): tmin is still infinite */
  if (!(tmin >= PLOT_TMIN) || !isfinite(tmin)) tmin = PLOT_TMIN;
  if (!(tmax > tmin)) tmax = tmin * 10;
  p->y = svg_axis_make(ymin, ymax > ymin ? ymax * 1.05 : ymin + 1, 0, -PLOT_H,
                       0, SVG_UNIT_PERCENT);
  svg_axis_nice(&p->y, 36, 1);
  p->left = PLOT_PAD + 22 + svg_axis_label_width(&p->y) + 12;
  p->top = PLOT_PAD + PLOT_TITLE_H + 8;
  p->y.p0 = p->top + PLOT_H;
  p->y.p1 = p->top;
  p->x = svg_axis_make(tmin, tmax, p->left, p->left + PLOT_W, 1,
                       SVG_UNIT_SECONDS);
  svg_axis_nice(&p->x, 40, 1);
}

/* The best within-budget TDI so far as a step curve. */
static void plot_prog_curve(svg *s, const plot_prog *p, int i) {
  const remat_result *r = p->runs[i].result;
  svg_poly_begin(s, "progress", svg_color(i));
  svg_attr(s, "data-method", r->method);
  svg_attr_int(s, "data-budget", r->budget);
  double best = INFINITY;
  for (int k = 0; k < r->ntrace; k++) {
    const remat_trace *t = &r->trace[k];
    double tdi = plot_point_tdi(r, t);
    if (!plot_fits(r, t) || tdi >= best) continue;
    double x = svg_map(&p->x, t->seconds);
    if (best < INFINITY) svg_poly_point(s, x, svg_map(&p->y, best));
    svg_poly_point(s, x, svg_map(&p->y, tdi));
    best = tdi;
  }
  if (best < INFINITY)
    svg_poly_point(s, svg_map(&p->x, plot_run_end(r)), svg_map(&p->y, best));
  svg_poly_end(s);
}


static void plot_prog_points(svg *s, const plot_prog *p, int i) {
  const remat_result *r = p->runs[i].result;
  double best = INFINITY;
  for (int k = 0; k < r->ntrace; k++) {
    const remat_trace *t = &r->trace[k];
    double tdi = plot_point_tdi(r, t);
    double x = svg_map(&p->x, t->seconds), y = svg_map(&p->y, tdi);
    if (!plot_fits(r, t)) {
      plot_marker(s, x, y, 2.6, "over-budget", svg_color(i), 1);
    } else if (tdi < best) {
      plot_marker(s, x, y, 3.2, "improvement", svg_color(i), 0);
      best = tdi;
    } else {
      plot_marker(s, x, y, 2, "within-budget", svg_color(i), 0);
    }
  }
}

static void plot_prog_legend_text(plot_prog *p, int i) {
  const plot_run *run = &p->runs[i];
  const remat_result *r = run->result;
  char label[512], buf[1024];
  if (run->label) {
    snprintf(label, sizeof label, "%s", run->label);
  } else {
    char b[64] = "";
    if (!p->same_budget) remat_format_size(r->budget, b, sizeof b);
    snprintf(label, sizeof label, "%s%s%s%s%s", r->method,
             !p->same_graph && run->graph ? ", " : "",
             !p->same_graph && run->graph ? run->graph : "",
             p->same_budget ? "" : ", budget ", b);
  }
  double best = INFINITY, when = 0;
  for (int k = 0; k < r->ntrace; k++) {
    double tdi = plot_point_tdi(r, &r->trace[k]);
    if (plot_fits(r, &r->trace[k]) && tdi < best) {
      best = tdi;
      when = r->trace[k].seconds;
    }
  }
  char at[32], end[32];
  plot_secs(when, at, sizeof at);
  plot_secs(plot_run_end(r), end, sizeof end);
  if (best < INFINITY)
    snprintf(buf, sizeof buf, "%s: best TDI %.2f%% at %s (of %s)", label,
             best, at, end);
  else
    snprintf(buf, sizeof buf, "%s: nothing within budget in %s", label, end);
  p->legend[i] = util_strdup(buf);
}

static const char plot_over_text[] =
    "over budget (best peak so far while nothing fits)";

static void plot_prog_legend(svg *s, const plot_prog *p) {
  svg_group_begin(s, "legend");
  double y = PLOT_LEGEND_Y(p->top);
  for (int i = 0; i < p->nr; i++, y += PLOT_LEGEND_H)
    svg_legend_entry(s, p->left, y, svg_color(i), 1, NULL, p->legend[i]);
  if (p->any_over) {
    plot_marker(s, p->left + 10, y - 4, 3, "legend-swatch", "#555555", 1);
    svg_text(s, p->left + 26, y, "start", "legend", 0, plot_over_text);
  }
  svg_group_end(s);
}

static void plot_prog_texts(const plot_prog *p, const plot_opts *o,
                            char *title, size_t tlen, char *sub,
                            size_t slen) {
  snprintf(title, tlen, "%s",
           o->title ? o->title : "Solve progress: TDI against solve time");
  char b[160] = "";
  if (p->nr && p->same_budget) {
    char v[128];
    plot_size_long(p->runs[0].result->budget, v, sizeof v);
    snprintf(b, sizeof b, "budget %s", v);
  }
  const char *gname = p->nr && p->same_graph ? p->runs[0].graph : NULL;
  snprintf(sub, slen, "%s%s%s%scurves: best within-budget TDI so far%s",
           gname ? gname : "", gname && *b ? ", " : "", b,
           gname || *b ? "; " : "",
           p->clamped ? "; times under 1 ms drawn at 1 ms" : "");
}

static void plot_prog_draw(svg *s, const plot_prog *p, const char *title,
                           const char *sub) {
  plot_heading(s, title, sub);
  svg_axis_x(s, &p->x, p->y.p0, p->y.p1, "solve time (s, log scale)");
  svg_axis_y(s, &p->y, p->x.p0, p->x.p1,
             "TDI: total duration increase (%)");
  svg_group_begin(s, "curves");
  for (int i = 0; i < p->nr; i++) plot_prog_curve(s, p, i);
  for (int i = 0; i < p->nr; i++) plot_prog_points(s, p, i);
  svg_group_end(s);
  plot_area(s, &p->x, &p->y);
  plot_prog_legend(s, p);
}

int plot_progress(FILE *f, const plot_run *runs, int nr, const plot_opts *o,
                  char *err, size_t errlen) {
  plot_prog p;
  memset(&p, 0, sizeof p);
  p.runs = runs;
  p.nr = nr;
  p.legend = util_calloc((size_t)nr + 1, sizeof *p.legend);
  plot_prog_common(&p);
  plot_prog_axes(&p);
  double w = p.left + PLOT_W + 1.5 * PLOT_PAD; /* room for the last tick */
  for (int i = 0; i < nr; i++) {
    plot_prog_legend_text(&p, i);
    w = fmax(w, p.left + 26 + svg_text_width(p.legend[i], SVG_FONT) + PLOT_PAD);
  }
  char title[512], sub[1024];
  plot_prog_texts(&p, o, title, sizeof title, sub, sizeof sub);
  w = fmax(w, plot_heading_width(title, sub));
  double h = PLOT_LEGEND_Y(p.top) + (nr - 1 + p.any_over) * PLOT_LEGEND_H +
             PLOT_PAD;
  svg s;
  svg_begin(&s, f, ceil(w), ceil(h), title, plot_css);
  plot_prog_draw(&s, &p, title, sub);
  int rc = plot_finish(&s, err, errlen);
  for (int i = 0; i < nr; i++) free(p.legend[i]);
  free(p.legend);
  return rc;
}
