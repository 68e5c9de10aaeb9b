/* plot.c -- the pictures of one schedule: its retention intervals and its
 * memory per step (with others'), against the budget. */
#include "plot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot_draw.h"
#include "sim.h"
#include "svg.h"
#include "util.h"

#define PLOT_LABEL_MAX 24  /* longest node label shown, in characters */

void plot_opts_init(plot_opts *o) {
  memset(o, 0, sizeof *o);
  o->budget = -1;
  o->x_axis = PLOT_X_AUTO;
}

/* Colours of the intervals picture. */
#define PLOT_FIRST_BAR "#9cc3e6"
#define PLOT_FIRST_MARK "#0062a0"
#define PLOT_RE_BAR "#f5a25d"
#define PLOT_RE_MARK "#c04a00"
#define PLOT_BUDGET "#c00000"

/* ----------------------------------------------------------- intervals */

typedef struct plot_iv {
  const remat_graph *g;
  const int *seq;
  int len;
  int *lastuse;  /* lastuse[j]: last reader of step j's copy */
  int *copy;     /* copy[j]: 0 first computation, k k-th recomputation */
  remat_sim sim;
  double cw, rh; /* cell width, row height */
  double left, top, pw, ph;
  int krow;      /* label every krow-th row */
  double label_w;
} plot_iv;

static void plot_iv_copies(plot_iv *p) {
  int *seen = util_calloc((size_t)p->g->n + 1, sizeof *seen);
  for (int j = 0; j < p->len; j++) p->copy[j] = seen[p->seq[j]]++;
  free(seen);
}

static void plot_iv_layout(plot_iv *p) {
  int n = p->g->n > 0 ? p->g->n : 1, len = p->len > 0 ? p->len : 1;
  p->cw = plot_clamp(1400.0 / len, 1, 36);
  p->rh = plot_clamp(1000.0 / n, 1.5, 22);
  p->krow = (int)svg_nice_step(13.0 / p->rh);
  if (p->krow < 1) p->krow = 1;
  p->label_w = 0;
  for (int v = 0; v < p->g->n; v += p->krow) {
    char buf[128];
    plot_shorten(p->g->id[v], PLOT_LABEL_MAX, buf, sizeof buf);
    p->label_w = fmax(p->label_w, svg_text_width(buf, 10));
  }
  p->left = PLOT_PAD + 18 + p->label_w + 10;
  p->top = PLOT_PAD + PLOT_TITLE_H + PLOT_LEGEND_H + 14;
  p->pw = len * p->cw;
  p->ph = n * p->rh;
}

static double plot_iv_bar_h(const plot_iv *p) {
  return p->rh >= 4 ? p->rh * 0.72 : p->rh;
}

static double plot_iv_row_y(const plot_iv *p, int v) {
  return p->top + v * p->rh + (p->rh - plot_iv_bar_h(p)) / 2;
}

static void plot_iv_bar(svg *s, const plot_iv *p, int j) {
  int v = p->seq[j];
  double x = p->left + j * p->cw;
  double w = (p->lastuse[j] - j + 1) * p->cw;
  svg_rect_open(s, x, plot_iv_row_y(p, v), w, plot_iv_bar_h(p), "interval",
                p->copy[j] ? PLOT_RE_BAR : PLOT_FIRST_BAR);
  svg_attr(s, "data-node", p->g->id[v]);
  svg_attr_int(s, "data-index", v);
  svg_attr_int(s, "data-copy", p->copy[j]);
  svg_attr_int(s, "data-start", j);
  svg_attr_int(s, "data-end", p->lastuse[j]);
  svg_close(s);
}

static void plot_iv_mark(svg *s, const plot_iv *p, int j) {
  int v = p->seq[j];
  const char *cls = p->copy[j] ? "recompute" : "compute";
  const char *col = p->copy[j] ? PLOT_RE_MARK : PLOT_FIRST_MARK;
  double x = p->left + j * p->cw, y = plot_iv_row_y(p, v);
  double h = plot_iv_bar_h(p);
  if (p->cw >= 5 && p->rh >= 5) {
    svg_open(s, "circle");
    svg_attr_num(s, "cx", x + p->cw / 2);
    svg_attr_num(s, "cy", y + h / 2);
    svg_attr_num(s, "r", 0.34 * fmin(p->cw, h));
  } else { /* at least 3 x 3 pixels, so that every compute shows */
    double mw = fmax(p->cw, 3), mh = fmax(h, 3);
    svg_rect_open(s, x + (p->cw - mw) / 2, y + (h - mh) / 2, mw, mh, NULL,
                  NULL);
  }
  svg_attr(s, "class", cls);
  svg_attr(s, "fill", col);
  svg_attr_int(s, "data-step", j);
  svg_close(s);
}

/* Node ids left of every krow-th row, with faint guide lines. */
static void plot_iv_rows(svg *s, const plot_iv *p) {
  svg_group_begin(s, "axis y-axis");
  for (int v = 0; v < p->g->n; v += p->krow) {
    double y = p->top + (v + 0.5) * p->rh;
    char buf[128];
    plot_shorten(p->g->id[v], PLOT_LABEL_MAX, buf, sizeof buf);
    svg_line(s, p->left, y, p->left + p->pw, y, "row-grid", NULL);
    svg_line(s, p->left - 4, y, p->left, y, "tick", NULL);
    svg_text(s, p->left - 7, y + 3.5, "end", "tick-label", 0, buf);
  }
  svg_line(s, p->left, p->top, p->left, p->top + p->ph, "axis-line", NULL);
  svg_text(s, p->left - 7 - p->label_w - 10, p->top + p->ph / 2, "middle",
           "axis-title", -90, "node (input order)");
  svg_group_end(s);
}

static void plot_iv_peak(svg *s, const plot_iv *p) {
  if (p->len <= 0) return;
  double x = p->left + (p->sim.peak_step + 0.5) * p->cw;
  svg_line(s, x, p->top - 4, x, p->top + p->ph, "peak-line", NULL);
  svg_text(s, x, p->top - 7, "middle", "peak-label", 0, "peak");
}

typedef struct plot_key {
  const char *color, *cls, *text;
} plot_key;

static const plot_key plot_iv_keys[] = {
    {PLOT_FIRST_MARK, "compute", "first computation"},
    {PLOT_RE_MARK, "recompute", "recomputation"},
    {PLOT_FIRST_BAR, NULL, "output held (first copy)"},
    {PLOT_RE_BAR, NULL, "output held (recomputed copy)"},
};
#define PLOT_IV_NKEYS ((int)(sizeof plot_iv_keys / sizeof *plot_iv_keys))

/* Draws the legend in one row if s is not NULL; returns its width. */
static double plot_iv_legend(svg *s, double x, double y) {
  double x0 = x;
  for (int i = 0; i < PLOT_IV_NKEYS; i++) {
    const plot_key *k = &plot_iv_keys[i];
    if (s)
      svg_legend_entry(s, x, y, k->color, 0, k->cls ? "legend-swatch" : NULL,
                       k->text);
    x += 26 + svg_text_width(k->text, SVG_FONT) + 14;
  }
  return x - x0 - 14;
}

/* The user's title, or the graph's name and what the picture shows. */
static void plot_title(const plot_opts *o, const remat_graph *g, const char *what,
                       char *title, size_t tlen) {
  if (o->title)
    snprintf(title, tlen, "%s", o->title);
  else
    snprintf(title, tlen, "%s: %s", g->name, what);
}

/* "budget <size in words><after>", or none when there is no budget. */
static void plot_budget_words(int64_t budget, const char *none, const char *after,
                              char *buf, size_t len) {
  char b[128];
  if (budget < 0) {
    snprintf(buf, len, "%s", none);
    return;
  }
  plot_size_long(budget, b, sizeof b);
  snprintf(buf, len, "budget %s%s", b, after);
}

static void plot_iv_texts(const plot_iv *p, const plot_opts *o, char *title,
                          size_t tlen, char *sub, size_t slen) {
  plot_title(o, p->g, "retention intervals", title, tlen);
  char peak[40], budget[160];
  remat_format_size(p->sim.peak, peak, sizeof peak);
  plot_budget_words(o->budget, "", ", ", budget, sizeof budget);
  snprintf(sub, slen,
           "%s%d nodes, %d steps, %d recomputation%s, peak %s, TDI %.2f%%",
           budget, p->g->n, p->len, p->sim.recomputations,
           p->sim.recomputations == 1 ? "" : "s", peak,
           plot_tdi(p->sim.duration, remat_graph_base_duration(p->g)));
}

static void plot_iv_draw(svg *s, const plot_iv *p, const char *title,
                         const char *sub) {
  plot_heading(s, title, sub);
  plot_iv_legend(s, PLOT_PAD, PLOT_PAD + PLOT_TITLE_H + 10);
  svg_axis xa = svg_axis_make(-0.5, p->len - 0.5, p->left, p->left + p->pw, 0,
                              SVG_UNIT_NUMBER);
  xa.integer = 1;
  char widest[32];
  snprintf(widest, sizeof widest, "%d", p->len);
  svg_axis_nice(&xa, svg_text_width(widest, 10) + 16, 0);
  svg_axis_x(s, &xa, p->top + p->ph, p->top, "step of the schedule");
  plot_iv_rows(s, p);
  svg_group_begin(s, "intervals");
  for (int j = 0; j < p->len; j++) plot_iv_bar(s, p, j);
  svg_group_end(s);
  svg_group_begin(s, "computes");
  for (int j = 0; j < p->len; j++) plot_iv_mark(s, p, j);
  svg_group_end(s);
  plot_iv_peak(s, p);
  svg_rect(s, p->left, p->top, p->pw, p->ph, "plot-area", NULL);
}

int plot_intervals(FILE *f, const remat_graph *g, const int *seq, int len,
                   const plot_opts *o, char *err, size_t errlen) {
  plot_iv p;
  memset(&p, 0, sizeof p);
  p.g = g;
  p.seq = seq;
  p.len = len;
  p.lastuse = util_malloc((size_t)(len > 0 ? len : 1) * sizeof *p.lastuse);
  p.copy = util_malloc((size_t)(len > 0 ? len : 1) * sizeof *p.copy);
  remat_sim tmp;
  int rc = remat_simulate(g, seq, len, &p.sim, NULL);
  if (rc) {
    rc = util_err(err, errlen, REMAT_EUSAGE, "invalid schedule: %s",
                  p.sim.error);
  } else {
    sim_lastuse(g, seq, len, p.lastuse, &tmp);
    plot_iv_copies(&p);
    plot_iv_layout(&p);
    char title[512], sub[512];
    plot_iv_texts(&p, o, title, sizeof title, sub, sizeof sub);
    double legend_w = plot_iv_legend(NULL, 0, 0);
    double w = fmax(p.left + p.pw, PLOT_PAD + legend_w) + PLOT_PAD;
    w = fmax(w, plot_heading_width(title, sub));
    double h = p.top + p.ph + PLOT_XAXIS_H + PLOT_PAD / 2;
    svg s;
    svg_begin(&s, f, ceil(w), ceil(h), title, plot_css);
    plot_iv_draw(&s, &p, title, sub);
    rc = plot_finish(&s, err, errlen);
  }
  free(p.lastuse);
  free(p.copy);
  return rc;
}

/* -------------------------------------------------------------- memory */

#define PLOT_RIGHT 70.0 /* right margin (the budget line's label) */

typedef struct plot_mem {
  const remat_graph *g;
  const plot_schedule *s;
  int ns;
  int64_t **mem;   /* mem[i][j]: memory of schedule i at step j */
  remat_sim *sim;
  int64_t budget;  /* < 0: none */
  int progress;    /* x axis 0..100% of each schedule */
  svg_axis x, y;
  double left, top;
  char **legend;   /* legend text per schedule */
} plot_mem;

static int plot_mem_simulate(plot_mem *p, char *err, size_t errlen) {
  for (int i = 0; i < p->ns; i++) {
    const plot_schedule *sc = &p->s[i];
    p->mem[i] = util_malloc((size_t)(sc->len > 0 ? sc->len : 1) *
                            sizeof *p->mem[i]);
    if (remat_simulate(p->g, sc->seq, sc->len, &p->sim[i], p->mem[i]))
      return util_err(err, errlen, REMAT_EUSAGE, "%s: invalid schedule: %s",
                      sc->label ? sc->label : "schedule", p->sim[i].error);
  }
  return 0;
}

static int plot_mem_progress_mode(const plot_mem *p, int x_axis) {
  if (x_axis != PLOT_X_AUTO) return x_axis == PLOT_X_PROGRESS;
  for (int i = 1; i < p->ns; i++)
    if (p->s[i].len != p->s[0].len) return 1;
  return 0;
}

static void plot_mem_legend_text(plot_mem *p, int i) {
  char peak[64], rel[64] = "", buf[1024];
  const remat_sim *sm = &p->sim[i];
  remat_format_size(sm->peak, peak, sizeof peak);
  if (p->budget > 0)
    snprintf(rel, sizeof rel, " (%.1f%% of budget)",
             100.0 * (double)sm->peak / (double)p->budget);
  snprintf(buf, sizeof buf,
           "%s: peak %s%s, TDI %.2f%%, %d steps, %d recomputation%s",
           p->s[i].label ? p->s[i].label : "schedule", peak, rel,
           plot_tdi(sm->duration, remat_graph_base_duration(p->g)),
           p->s[i].len, sm->recomputations, sm->recomputations == 1 ? "" : "s");
  p->legend[i] = util_strdup(buf);
}

static void plot_mem_axes(plot_mem *p) {
  int64_t top = p->budget > 0 ? p->budget : 0;
  int maxlen = 1;
  for (int i = 0; i < p->ns; i++) {
    if (p->sim[i].peak > top) top = p->sim[i].peak;
    if (p->s[i].len > maxlen) maxlen = p->s[i].len;
  }
  p->y = svg_axis_make(0, top > 0 ? (double)top * 1.04 : 1, 0, -PLOT_H, 0,
                       SVG_UNIT_BYTES);
  svg_axis_nice(&p->y, 36, 1);
  p->left = PLOT_PAD + 22 + svg_axis_label_width(&p->y) + 12;
  p->top = PLOT_PAD + PLOT_TITLE_H + 8;
  p->y.p0 = p->top + PLOT_H;
  p->y.p1 = p->top;
  if (p->progress)
    p->x = svg_axis_make(0, 100, p->left, p->left + PLOT_W, 0,
                         SVG_UNIT_PERCENT);
  else
    p->x = svg_axis_make(0, maxlen, p->left, p->left + PLOT_W, 0,
                         SVG_UNIT_NUMBER);
  p->x.integer = !p->progress;
  svg_axis_nice(&p->x, 64, 0);
}

/* x of the left edge of step j of schedule i. */
static double plot_mem_x(const plot_mem *p, int i, int j) {
  if (!p->progress) return svg_map(&p->x, j);
  int len = p->s[i].len > 0 ? p->s[i].len : 1;
  return svg_map(&p->x, 100.0 * j / len);
}

static void plot_mem_curve(svg *s, const plot_mem *p, int i) {
  const plot_schedule *sc = &p->s[i];
  svg_poly_begin(s, "memory", svg_color(i));
  svg_attr(s, "data-label", sc->label ? sc->label : "");
  svg_attr_int(s, "data-peak", p->sim[i].peak);
  svg_attr_int(s, "data-steps", sc->len);
  for (int j = 0; j < sc->len; j++) {
    double y = svg_map(&p->y, (double)p->mem[i][j]);
    svg_poly_point(s, plot_mem_x(p, i, j), y);
    svg_poly_point(s, plot_mem_x(p, i, j + 1), y);
  }
  svg_poly_end(s);
}

static void plot_mem_peak(svg *s, const plot_mem *p, int i) {
  if (p->s[i].len <= 0) return;
  int j = p->sim[i].peak_step;
  double x = (plot_mem_x(p, i, j) + plot_mem_x(p, i, j + 1)) / 2;
  svg_open(s, "circle");
  svg_attr(s, "class", "peak");
  svg_attr_num(s, "cx", x);
  svg_attr_num(s, "cy", svg_map(&p->y, (double)p->sim[i].peak));
  svg_attr_num(s, "r", 3.5);
  svg_attr(s, "fill", "#ffffff");
  svg_attr(s, "stroke", svg_color(i));
  svg_attr_num(s, "stroke-width", 1.5);
  svg_close(s);
}

static void plot_mem_budget(svg *s, const plot_mem *p) {
  if (p->budget < 0) return;
  double y = svg_map(&p->y, (double)p->budget);
  char b[64];
  remat_format_size(p->budget, b, sizeof b);
  svg_open(s, "line");
  svg_attr(s, "class", "budget");
  svg_attr_num(s, "x1", p->x.p0);
  svg_attr_num(s, "y1", y);
  svg_attr_num(s, "x2", p->x.p1);
  svg_attr_num(s, "y2", y);
  svg_attr_int(s, "data-budget", p->budget);
  svg_close(s);
  svg_text(s, p->x.p1 + 6, y - 2, "start", "budget-label", 0, "budget");
  svg_text(s, p->x.p1 + 6, y + 11, "start", "budget-label", 0, b);
}

static void plot_mem_zone(svg *s, const plot_mem *p) {
  if (p->budget < 0 || (double)p->budget >= p->y.hi) return;
  double y = svg_map(&p->y, (double)p->budget);
  svg_rect(s, p->x.p0, p->y.p1, PLOT_W, y - p->y.p1, "over-budget-zone", NULL);
}

static void plot_mem_draw(svg *s, const plot_mem *p, const char *title,
                          const char *sub) {
  plot_heading(s, title, sub);
  plot_mem_zone(s, p);
  svg_axis_x(s, &p->x, p->y.p0, p->y.p1,
             p->progress ? "progress through the schedule (% of its steps)"
                         : "step of the schedule");
  svg_axis_y(s, &p->y, p->x.p0, p->x.p1, "memory in use");
  svg_group_begin(s, "curves");
  for (int i = 0; i < p->ns; i++) plot_mem_curve(s, p, i);
  for (int i = 0; i < p->ns; i++) plot_mem_peak(s, p, i);
  svg_group_end(s);
  plot_mem_budget(s, p);
  plot_area(s, &p->x, &p->y);
  svg_group_begin(s, "legend");
  double y = PLOT_LEGEND_Y(p->top);
  for (int i = 0; i < p->ns; i++, y += PLOT_LEGEND_H)
    svg_legend_entry(s, p->left, y, svg_color(i), 1, NULL, p->legend[i]);
  svg_group_end(s);
}

static void plot_mem_texts(const plot_mem *p, const plot_opts *o, char *title,
                           size_t tlen, char *sub, size_t slen) {
  plot_title(o, p->g, "memory in use per step", title, tlen);
  char b[160];
  plot_budget_words(p->budget, "no budget given", "", b, sizeof b);
  snprintf(sub, slen, "%s%s", b,
           p->progress ? "; schedules of different lengths drawn against "
                         "their progress (0-100%)"
                       : "");
}

static int plot_mem_write(FILE *f, plot_mem *p, const plot_opts *o,
                          char *err, size_t errlen) {
  plot_mem_axes(p);
  double w = p->left + PLOT_W + PLOT_RIGHT;
  for (int i = 0; i < p->ns; i++) {
    plot_mem_legend_text(p, i);
    double lw = svg_text_width(p->legend[i], SVG_FONT);
    w = fmax(w, p->left + 26 + lw + PLOT_PAD);
  }
  char title[512], sub[512];
  plot_mem_texts(p, o, title, sizeof title, sub, sizeof sub);
  w = fmax(w, plot_heading_width(title, sub));
  double h = PLOT_LEGEND_Y(p->top) + (p->ns - 1) * PLOT_LEGEND_H + PLOT_PAD;
  svg s;
  svg_begin(&s, f, ceil(w), ceil(h), title, plot_css);
  plot_mem_draw(&s, p, title, sub);
  return plot_finish(&s, err, errlen);
}

int plot_memory(FILE *f, const remat_graph *g, const plot_schedule *s,
                int ns, const plot_opts *o, char *err, size_t errlen) {
  plot_mem p;
  memset(&p, 0, sizeof p);
  p.g = g;
  p.s = s;
  p.ns = ns;
  p.budget = o->budget;
  p.mem = util_calloc((size_t)ns + 1, sizeof *p.mem);
  p.sim = util_calloc((size_t)ns + 1, sizeof *p.sim);
  p.legend = util_calloc((size_t)ns + 1, sizeof *p.legend);
  int rc = plot_mem_simulate(&p, err, errlen);
  if (!rc) {
    p.progress = plot_mem_progress_mode(&p, o->x_axis);
    rc = plot_mem_write(f, &p, o, err, errlen);
  }
  for (int i = 0; i < ns; i++) {
    free(p.mem[i]);
    free(p.legend[i]);
  }
  free(p.mem);
  free(p.sim);
  free(p.legend);
  return rc;
}

