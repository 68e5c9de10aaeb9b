/* plot_draw.c -- what the pictures of `remat plot` share: the style
 * sheet, headings, the plot area's frame, markers, number formats. */
#include "plot_draw.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "remat.h"
#include "util.h"

const char plot_css[] =
    ".budget { stroke: #c00000; stroke-width: 1.5; stroke-dasharray: 6 4; }\n"
    ".budget-label { fill: #c00000; }\n"
    ".over-budget-zone { fill: #fdf0ee; }\n"
    ".infeasible-zone { fill: #f3f3f3; }\n"
    ".peak-line { stroke: #777; stroke-width: 1; stroke-dasharray: 3 3; }\n"
    ".peak-label { font-size: 10px; fill: #555; }\n"
    ".over-budget { opacity: 0.6; }\n"
    ".memory { stroke-width: 1.4; stroke-linejoin: round; }\n"
    ".progress { stroke-width: 2; stroke-linejoin: round; }\n"
    ".lower-bound { stroke-width: 1.5; stroke-dasharray: 5 3; }\n"
    ".tradeoff { stroke-width: 2; stroke-linejoin: round; }\n"
    ".row-grid { stroke: #eeeeee; stroke-width: 1; }\n";

/* ------------------------------------------------------------- helpers */

double plot_clamp(double v, double lo, double hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

/* "114.7 KiB (117472 B)", or "3 B" when small. */
void plot_size_long(int64_t v, char *buf, size_t len) {
  char s[40];
  remat_format_size(v, s, sizeof s);
  if (v >= 1024 || v <= -1024)
    snprintf(buf, len, "%s (%lld B)", s, (long long)v);
  else
    snprintf(buf, len, "%s", s);
}

/* At most max code points of text, with an ellipsis when cut. */
void plot_shorten(const char *text, int max, char *buf, size_t len) {
  size_t i = 0;
  int chars = 0;
  while (text[i]) {
    if (((unsigned char)text[i] & 0xc0) != 0x80 && chars++ == max - 1) break;
    i++;
  }
  if (!text[i] || len < 4) {
    snprintf(buf, len, "%s", text);
    return;
  }
  if (i > len - 4) i = len - 4;
  while (i > 0 && ((unsigned char)text[i] & 0xc0) == 0x80) i--;
  snprintf(buf, len, "%.*s\xe2\x80\xa6", (int)i, text);
}

void plot_heading(svg *s, const char *title, const char *subtitle) {
  svg_text(s, PLOT_PAD, PLOT_PAD + 12, "start", "title", 0, title);
  if (subtitle && *subtitle)
    svg_text(s, PLOT_PAD, PLOT_PAD + 30, "start", "subtitle", 0, subtitle);
}

double plot_heading_width(const char *title, const char *subtitle) {
  double w = svg_text_width(title, SVG_FONT_TITLE) * 1.08;
  double ws = subtitle ? svg_text_width(subtitle, SVG_FONT) : 0;
  return 2 * PLOT_PAD + (w > ws ? w : ws);
}

/* The plot area's frame, with its data range for programs reading it. */
void plot_area(svg *s, const svg_axis *x, const svg_axis *y) {
  double left = fmin(x->p0, x->p1), top = fmin(y->p0, y->p1);
  svg_rect_open(s, left, top, fabs(x->p1 - x->p0), fabs(y->p1 - y->p0),
                "plot-area", NULL);
  svg_attr_num(s, "data-xmin", x->lo);
  svg_attr_num(s, "data-xmax", x->hi);
  svg_attr_num(s, "data-ymin", y->lo);
  svg_attr_num(s, "data-ymax", y->hi);
  svg_close(s);
}

double plot_tdi(int64_t duration, int64_t base) {
  return remat_tdi(base, (double)duration);
}

int plot_finish(svg *s, char *err, size_t errlen) {
  if (svg_end(s))
    return util_err(err, errlen, REMAT_EINTERNAL, "cannot write the SVG");
  return 0;
}


/* "< 1 ms", "0.042 s", "3.14 s", "1234 s" */
void plot_secs(double t, char *buf, size_t len) {
  if (t < PLOT_TMIN)
    snprintf(buf, len, "< 1 ms");
  else if (t < 1)
    snprintf(buf, len, "%.3f s", t);
  else if (t < 100)
    snprintf(buf, len, "%.2f s", t);
  else
    snprintf(buf, len, "%.0f s", t);
}

void plot_marker(svg *s, double x, double y, double r, const char *cls,
                        const char *color, int hollow) {
  svg_open(s, "circle");
  svg_attr(s, "class", cls);
  svg_attr_num(s, "cx", x);
  svg_attr_num(s, "cy", y);
  svg_attr_num(s, "r", r);
  svg_attr(s, "fill", hollow ? "#ffffff" : color);
  if (hollow) {
    svg_attr(s, "stroke", color);
    svg_attr_num(s, "stroke-width", 1.2);
  }
  svg_close(s);
}
