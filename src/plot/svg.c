/* svg.c -- the SVG writer: document, shapes, escaping, palette, axes. */
#include "svg.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------ document */

static const char svg_css[] =
    "text { fill: #222; }\n"
    ".title { font-size: 14px; font-weight: bold; }\n"
    ".subtitle { fill: #555; }\n"
    ".axis-line, .tick { stroke: #444; stroke-width: 1; }\n"
    ".tick-label { font-size: 10px; fill: #333; }\n"
    ".axis-title { font-size: 11px; fill: #222; }\n"
    ".grid { stroke: #e6e6e6; stroke-width: 1; }\n"
    ".plot-area { fill: none; stroke: #bbb; stroke-width: 1; }\n"
    ".legend { font-size: 11px; }\n"
    ".legend-line { stroke-width: 2.5; }\n";

void svg_begin(svg *s, FILE *f, double width, double height,
               const char *title, const char *css) {
  s->f = f;
  s->width = width;
  s->height = height;
  s->npoints = 0;
  fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
  fputs("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"", f);
  fputs(" width=\"", f);
  svg_num(f, width);
  fputs("\" height=\"", f);
  svg_num(f, height);
  fputs("\" viewBox=\"0 0 ", f);
  svg_num(f, width);
  fputc(' ', f);
  svg_num(f, height);
  fputs("\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\""
        " font-size=\"11\">\n",
        f);
  fputs("<title>", f);
  svg_escape(f, title ? title : "");
  fputs("</title>\n<style><![CDATA[\n", f);
  fputs(svg_css, f);
  if (css) fputs(css, f);
  fputs("]]></style>\n", f);
  svg_rect(s, 0, 0, width, height, "background", "#ffffff");
}

int svg_end(svg *s) {
  fputs("</svg>\n", s->f);
  fflush(s->f);
  return ferror(s->f) ? -1 : 0;
}

void svg_group_begin(svg *s, const char *cls) {
  fputs("<g", s->f);
  if (cls) svg_attr(s, "class", cls);
  fputs(">\n", s->f);
}

void svg_group_end(svg *s) { fputs("</g>\n", s->f); }

/* ---------------------------------------------------- escaping, numbers */

/* Length of the valid UTF-8 sequence starting at p (1-4), 0 if invalid. */
static int svg_utf8_len(const unsigned char *p) {
  int n = p[0] >= 0xf0 && p[0] <= 0xf4   ? 4
          : p[0] >= 0xe0                 ? 3
          : p[0] >= 0xc2 && p[0] <= 0xdf ? 2
                                         : 0;
  for (int i = 1; i < n; i++)
    if ((p[i] & 0xc0) != 0x80) return 0;
  if (n == 3 && p[0] == 0xe0 && p[1] < 0xa0) return 0; /* overlong */
  if (n == 3 && p[0] == 0xed && p[1] >= 0xa0) return 0; /* surrogate */
  if (n == 4 && p[0] == 0xf0 && p[1] < 0x90) return 0;  /* overlong */
  if (n == 4 && p[0] == 0xf4 && p[1] >= 0x90) return 0; /* > U+10FFFF */
  return n;
}

void svg_escape(FILE *f, const char *text) {
  const unsigned char *p = (const unsigned char *)text;
  while (*p) {
    int n = 1;
    switch (*p) {
    case '&': fputs("&amp;", f); break;
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '"': fputs("&quot;", f); break;
    case '\'': fputs("&apos;", f); break;
    default:
      if (*p >= 0x80 && (n = svg_utf8_len(p)) > 0) {
        fwrite(p, 1, (size_t)n, f);
      } else if (*p >= 0x80) {
        fputc('?', f);
        n = 1;
      } else if (*p < 0x20 && *p != '\t' && *p != '\n') {
        fputc('?', f);
      } else {
        fputc(*p, f);
      }
    }
    p += n;
  }
}

void svg_num(FILE *f, double v) {
  if (!isfinite(v)) v = 0;
  char buf[64];
  snprintf(buf, sizeof buf, "%.2f", v);
  char *dot = strchr(buf, '.');
  if (dot) {
    char *end = buf + strlen(buf) - 1;
    while (end > dot && *end == '0') *end-- = 0;
    if (end == dot) *end = 0;
  }
  fputs(strcmp(buf, "-0") ? buf : "0", f);
}

double svg_text_width(const char *text, double font) {
  double n = 0;
  for (const unsigned char *p = (const unsigned char *)text; *p; p++)
    if ((*p & 0xc0) != 0x80) n++; /* count UTF-8 code points */
  return n * 0.58 * font;
}

/* ------------------------------------------------------------- elements */

void svg_open(svg *s, const char *tag) { fprintf(s->f, "<%s", tag); }

void svg_attr(svg *s, const char *name, const char *value) {
  fprintf(s->f, " %s=\"", name);
  svg_escape(s->f, value);
  fputc('"', s->f);
}

void svg_attr_num(svg *s, const char *name, double v) {
  fprintf(s->f, " %s=\"", name);
  svg_num(s->f, v);
  fputc('"', s->f);
}

void svg_attr_int(svg *s, const char *name, int64_t v) {
  fprintf(s->f, " %s=\"%lld\"", name, (long long)v);
}

void svg_close(svg *s) { fputs("/>\n", s->f); }

static void svg_style_attrs(svg *s, const char *cls, const char *paint,
                            const char *paint_attr) {
  if (cls) svg_attr(s, "class", cls);
  if (paint) svg_attr(s, paint_attr, paint);
}

void svg_rect_open(svg *s, double x, double y, double w, double h,
                   const char *cls, const char *fill) {
  svg_open(s, "rect");
  svg_attr_num(s, "x", x);
  svg_attr_num(s, "y", y);
  svg_attr_num(s, "width", w > 0 ? w : 0);
  svg_attr_num(s, "height", h > 0 ? h : 0);
  svg_style_attrs(s, cls, fill, "fill");
}

void svg_rect(svg *s, double x, double y, double w, double h, const char *cls,
              const char *fill) {
  svg_rect_open(s, x, y, w, h, cls, fill);
  svg_close(s);
}

void svg_line(svg *s, double x1, double y1, double x2, double y2,
              const char *cls, const char *stroke) {
  svg_open(s, "line");
  svg_attr_num(s, "x1", x1);
  svg_attr_num(s, "y1", y1);
  svg_attr_num(s, "x2", x2);
  svg_attr_num(s, "y2", y2);
  svg_style_attrs(s, cls, stroke, "stroke");
  svg_close(s);
}

void svg_poly_begin(svg *s, const char *cls, const char *stroke) {
  svg_open(s, "polyline");
  svg_attr(s, "fill", "none");
  svg_style_attrs(s, cls, stroke, "stroke");
  s->npoints = 0;
}

void svg_poly_point(svg *s, double x, double y) {
  if (!s->npoints)
    fputs(" points=\"", s->f);
  else
    fputc(s->npoints % 8 ? ' ' : '\n', s->f);
  svg_num(s->f, x);
  fputc(',', s->f);
  svg_num(s->f, y);
  s->npoints++;
}

void svg_poly_end(svg *s) {
  fputs(s->npoints ? "\"" : " points=\"\"", s->f);
  svg_close(s);
  s->npoints = 0;
}

void svg_text(svg *s, double x, double y, const char *anchor,
              const char *cls, double rotate, const char *text) {
  svg_open(s, "text");
  svg_attr_num(s, "x", x);
  svg_attr_num(s, "y", y);
  if (anchor && strcmp(anchor, "start")) svg_attr(s, "text-anchor", anchor);
  if (cls) svg_attr(s, "class", cls);
  if (rotate != 0) {
    fputs(" transform=\"rotate(", s->f);
    svg_num(s->f, rotate);
    fputc(' ', s->f);
    svg_num(s->f, x);
    fputc(' ', s->f);
    svg_num(s->f, y);
    fputs(")\"", s->f);
  }
  fputc('>', s->f);
  svg_escape(s->f, text);
  fputs("</text>\n", s->f);
}

/* -------------------------------------------------------------- palette */

/* Okabe-Ito's colour-blind safe colours (yellow left out: too light on
 * white), then a few darker ones. */
static const char *const svg_palette[] = {
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00",
    "#56B4E9", "#882255", "#555555", "#117733", "#332288",
};
#define SVG_NPALETTE ((int)(sizeof svg_palette / sizeof *svg_palette))

const char *svg_color(int i) {
  if (i < 0) i = -i;
  return svg_palette[i % SVG_NPALETTE];
}

/* ---------------------------------------------------------------- axes */

svg_axis svg_axis_make(double lo, double hi, double p0, double p1, int log,
                       int unit) {
  svg_axis a;
  memset(&a, 0, sizeof a);
  if (log) {
    if (!(lo > 0)) lo = 1e-3;
    if (!(hi > lo)) hi = lo * 10;
  } else if (!(hi > lo)) {
    hi = lo + 1;
  }
  a.lo = lo;
  a.hi = hi;
  a.p0 = p0;
  a.p1 = p1;
  a.log = log;
  a.unit = unit;
  a.step = log ? 10 : (hi - lo);
  return a;
}

double svg_map(const svg_axis *a, double v) {
  v += a->offset;
  double t;
  if (a->log) {
    if (v < a->lo) v = a->lo;
    if (v > a->hi) v = a->hi;
    t = (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo));
  } else {
    t = (v - a->lo) / (a->hi - a->lo);
  }
  return a->p0 + t * (a->p1 - a->p0);
}

double svg_nice_step(double raw) {
  if (!(raw > 0) || !isfinite(raw)) return 1;
  double e = pow(10, floor(log10(raw)));
  double f = raw / e;
  double m = f <= 1 + 1e-9 ? 1 : f <= 2 + 1e-9 ? 2 : f <= 5 + 1e-9 ? 5 : 10;
  return m * e;
}

double svg_byte_unit(double v) {
  double u = 1;
  v = fabs(v);
  for (int k = 0; k < 5 && v >= u * 1024; k++) u *= 1024;
  return u;
}

/* The step for a data range when ticks must be min_px apart. */
static double svg_axis_step(const svg_axis *a, double min_px) {
  double px = fabs(a->p1 - a->p0);
  double raw = px > 0 ? min_px * (a->hi - a->lo) / px : a->hi - a->lo;
  double step;
  if (a->unit == SVG_UNIT_BYTES) {
    double u = svg_byte_unit(fmax(fabs(a->lo), fabs(a->hi)));
    step = u * svg_nice_step(raw / u);
  } else {
    step = svg_nice_step(raw);
  }
  if (a->integer && step < 1) step = 1;
  return step;
}

static void svg_axis_nice_log(svg_axis *a, int extend) {
  if (extend) {
    a->lo = pow(10, floor(log10(a->lo) + 1e-9));
    a->hi = pow(10, ceil(log10(a->hi) - 1e-9));
    if (!(a->hi > a->lo)) a->hi = a->lo * 10;
  }
  a->step = 10;
}

void svg_axis_nice(svg_axis *a, double min_px, int extend) {
  if (a->log) {
    svg_axis_nice_log(a, extend);
    return;
  }
  double lo = a->lo, hi = a->hi;
  double step = svg_axis_step(a, min_px);
  /* extending the range squeezes the ticks: retry with the new range */
  for (int round = 0; round < 4; round++) {
    if (extend) {
      a->lo = floor(lo / step + 1e-9) * step;
      a->hi = ceil(hi / step - 1e-9) * step;
      if (!(a->hi > a->lo)) a->hi = a->lo + step;
    }
    a->step = step;
    double again = svg_axis_step(a, min_px);
    if (again <= step) break;
    step = again;
  }
}

int svg_axis_ticks(const svg_axis *a, double *ticks, int cap) {
  int n = 0;
  if (!isfinite(a->lo) || !isfinite(a->hi)) return 0; /* no range: no ticks */
  if (a->log) {
    if (!(a->lo > 0)) return 0;
    int k0 = (int)ceil(log10(a->lo) - 1e-9);
    int k1 = (int)floor(log10(a->hi) + 1e-9);
    for (int k = k0; k <= k1 && n < cap; k++) ticks[n++] = pow(10, k);
    return n;
  }
  double step = a->step > 0 ? a->step : a->hi - a->lo;
  double k0 = ceil(a->lo / step - 1e-9), k1 = floor(a->hi / step + 1e-9);
  for (double k = k0; k <= k1 && n < cap; k++) ticks[n++] = k * step;
  return n;
}

static int svg_decimals(double step) {
  if (!(step > 0) || step >= 1) return 0;
  int d = (int)ceil(-log10(step) - 1e-9);
  return d > 9 ? 9 : d;
}

static const char *const svg_byte_names[] = {"B", "KiB", "MiB", "GiB", "TiB",
                                             "PiB"};

static void svg_bytes_label(const svg_axis *a, double v, char *buf,
                            size_t len) {
  double u = svg_byte_unit(fmax(fabs(a->lo), fabs(a->hi)));
  int k = 0;
  for (double x = u; x >= 1024; x /= 1024) k++;
  if (v == 0) {
    snprintf(buf, len, "0");
    return;
  }
  snprintf(buf, len, "%.*f %s", svg_decimals(a->step / u), v / u,
           svg_byte_names[k]);
}

void svg_tick_label(const svg_axis *a, double v, char *buf, size_t len) {
  if (!a->log && fabs(v) < a->step * 1e-9) v = 0;
  if (a->log) {
    snprintf(buf, len, "%g%s", v, a->unit == SVG_UNIT_PERCENT ? "%" : "");
    return;
  }
  int d = svg_decimals(a->step);
  switch (a->unit) {
  case SVG_UNIT_BYTES: svg_bytes_label(a, v, buf, len); break;
  case SVG_UNIT_PERCENT: snprintf(buf, len, "%.*f%%", d, v); break;
  case SVG_UNIT_SECONDS: snprintf(buf, len, "%.*f s", d, v); break;
  default: snprintf(buf, len, "%.*f", d, v);
  }
}

double svg_axis_label_width(const svg_axis *a) {
  double ticks[256], w = 0;
  int n = svg_axis_ticks(a, ticks, 256);
  for (int i = 0; i < n; i++) {
    char buf[64];
    svg_tick_label(a, ticks[i], buf, sizeof buf);
    double tw = svg_text_width(buf, 10);
    if (tw > w) w = tw;
  }
  return w;
}

/* Minor ticks of a log axis: 2..9 times each decade. */
static void svg_log_minor(svg *s, const svg_axis *a, double at, int vertical) {
  for (double d = pow(10, floor(log10(a->lo))); d < a->hi; d *= 10)
    for (int m = 2; m <= 9; m++) {
      double v = d * m;
      if (v <= a->lo || v >= a->hi) continue;
      double p = svg_map(a, v);
      if (vertical)
        svg_line(s, at - 3, p, at, p, "tick", NULL);
      else
        svg_line(s, p, at, p, at + 3, "tick", NULL);
    }
}

void svg_axis_x(svg *s, const svg_axis *a, double y, double grid_top,
                const char *title) {
  double ticks[256];
  int n = svg_axis_ticks(a, ticks, 256);
  svg_group_begin(s, "axis x-axis");
  for (int i = 0; i < n && grid_top < y; i++) {
    double px = svg_map(a, ticks[i]);
    svg_line(s, px, grid_top, px, y, "grid", NULL);
  }
  svg_line(s, a->p0, y, a->p1, y, "axis-line", NULL);
  if (a->log) svg_log_minor(s, a, y, 0);
  for (int i = 0; i < n; i++) {
    double px = svg_map(a, ticks[i]);
    char buf[64];
    svg_tick_label(a, ticks[i], buf, sizeof buf);
    svg_line(s, px, y, px, y + 5, "tick", NULL);
    svg_text(s, px, y + 17, "middle", "tick-label", 0, buf);
  }
  if (title)
    svg_text(s, (a->p0 + a->p1) / 2, y + 36, "middle", "axis-title", 0, title);
  svg_group_end(s);
}

void svg_axis_y(svg *s, const svg_axis *a, double x, double grid_right,
                const char *title) {
  double ticks[256];
  int n = svg_axis_ticks(a, ticks, 256);
  svg_group_begin(s, "axis y-axis");
  for (int i = 0; i < n && grid_right > x; i++) {
    double py = svg_map(a, ticks[i]);
    svg_line(s, x, py, grid_right, py, "grid", NULL);
  }
  svg_line(s, x, a->p0, x, a->p1, "axis-line", NULL);
  if (a->log) svg_log_minor(s, a, x, 1);
  for (int i = 0; i < n; i++) {
    double py = svg_map(a, ticks[i]);
    char buf[64];
    svg_tick_label(a, ticks[i], buf, sizeof buf);
    svg_line(s, x - 5, py, x, py, "tick", NULL);
    svg_text(s, x - 8, py + 3.5, "end", "tick-label", 0, buf);
  }
  if (title) {
    double tx = x - 8 - svg_axis_label_width(a) - 10;
    svg_text(s, tx, (a->p0 + a->p1) / 2, "middle", "axis-title", -90, title);
  }
  svg_group_end(s);
}

/* ---------------------------------------------------------------- legend */

double svg_legend_entry(svg *s, double x, double y, const char *color,
                        int line, const char *cls, const char *text) {
  if (line) {
    svg_line(s, x, y - 4, x + 20, y - 4, "legend-line", color);
  } else {
    svg_rect_open(s, x + 4, y - 9, 12, 10, cls, color);
    svg_close(s);
  }
  svg_text(s, x + 26, y, "start", "legend", 0, text);
  return 26 + svg_text_width(text, SVG_FONT);
}
