/* svg.h -- a tiny SVG writer with plain fprintf: the document, groups,
 * shapes, escaped text, a colour palette, and linear / log axes with "nice"
 * ticks (1-2-5 steps, binary byte units, decades of seconds).
 *
 * Coordinates are pixels, y grows downwards (SVG's convention).  Every
 * string that reaches the document (text, attribute values) is escaped, so
 * node ids and labels may hold any characters.  Write errors are sticky:
 * svg_end reports them. */
#ifndef REMAT_SVG_H
#define REMAT_SVG_H

#include <stdint.h>
#include <stdio.h>

/* Font size of ordinary text (pixels); titles are larger. */
#define SVG_FONT 11.0
#define SVG_FONT_TITLE 14.0

typedef struct svg {
  FILE *f;
  double width, height;
  int npoints; /* points written to the open polyline */
} svg;

/* ------------------------------------------------------------ document */

/* Start a document of width x height pixels on f: XML prologue, <svg>,
 * the shared style sheet (plus `css`, may be NULL), a <title> and a white
 * background. */
void svg_begin(svg *s, FILE *f, double width, double height,
               const char *title, const char *css);

/* Close the document.  Returns 0, or -1 if writing failed. */
int svg_end(svg *s);

/* <g class="cls"> (cls may be NULL) and </g>. */
void svg_group_begin(svg *s, const char *cls);
void svg_group_end(svg *s);

/* ---------------------------------------------------- escaping, numbers */

/* Write text with &, <, >, " and ' escaped; control characters other than
 * tab and newline, which XML forbids, and bytes that are not valid UTF-8
 * become '?'. */
void svg_escape(FILE *f, const char *text);

/* Write a coordinate: at most two decimals, no trailing zeros. */
void svg_num(FILE *f, double v);

/* Approximate width in pixels of text at a font size (sans-serif). */
double svg_text_width(const char *text, double font);

/* ------------------------------------------------------------- elements */

/* Low level: "<tag", attributes, then svg_close ("/>") or svg_close_open
 * (">", for elements with content). */
void svg_open(svg *s, const char *tag);
void svg_attr(svg *s, const char *name, const char *value); /* escaped */
void svg_attr_num(svg *s, const char *name, double v);
void svg_attr_int(svg *s, const char *name, int64_t v);
void svg_close(svg *s);

/* Shapes.  cls (CSS class) and colour (fill for rects, stroke for lines)
 * may be NULL.  The *_open variants leave the element open for more
 * svg_attr calls; finish with svg_close. */
void svg_rect_open(svg *s, double x, double y, double w, double h,
                   const char *cls, const char *fill);
void svg_rect(svg *s, double x, double y, double w, double h, const char *cls,
              const char *fill);
void svg_line(svg *s, double x1, double y1, double x2, double y2,
              const char *cls, const char *stroke);

/* A polyline: svg_poly_begin (leaves the tag open for attributes), then
 * points, then svg_poly_end. */
void svg_poly_begin(svg *s, const char *cls, const char *stroke);
void svg_poly_point(svg *s, double x, double y);
void svg_poly_end(svg *s);

/* Text; anchor is "start", "middle" or "end"; rotate (degrees, 0 for none)
 * turns it about its anchor point. */
void svg_text(svg *s, double x, double y, const char *anchor,
              const char *cls, double rotate, const char *text);

/* -------------------------------------------------------------- palette */

/* The i-th colour of a palette of distinguishable colours (cycles). */
const char *svg_color(int i);

/* ---------------------------------------------------------------- axes */

enum {
  SVG_UNIT_NUMBER = 0, /* plain numbers (steps, counts) */
  SVG_UNIT_BYTES,      /* B, KiB, MiB, GiB, TiB */
  SVG_UNIT_PERCENT,    /* "5%" */
  SVG_UNIT_SECONDS,    /* "0.1 s" on linear axes, "0.1" on log axes */
};

typedef struct svg_axis {
  double lo, hi; /* data range (log axes: lo > 0) */
  double p0, p1; /* pixels lo and hi map to */
  int log;       /* base-10 logarithmic */
  int unit;      /* SVG_UNIT_* */
  int integer;   /* ticks only at integers (steps) */
  double step;   /* tick step chosen by svg_axis_nice (linear axes) */
  double offset; /* added to a value before mapping (0.5: cell centres) */
} svg_axis;

/* A linear or log axis over [lo, hi] drawn from pixel p0 to p1. */
svg_axis svg_axis_make(double lo, double hi, double p0, double p1, int log,
                       int unit);

/* Pixel of a data value (clamped to the axis range on log axes). */
double svg_map(const svg_axis *a, double v);

/* The smallest 1, 2 or 5 times a power of ten that is >= raw (> 0). */
double svg_nice_step(double raw);

/* The binary unit (1, 1024, 1024^2, ...) in which v is written. */
double svg_byte_unit(double v);

/* Choose a tick step so that ticks are at least min_px apart and, if
 * `extend`, round lo down and hi up to whole steps (log axes: decades). */
void svg_axis_nice(svg_axis *a, double min_px, int extend);

/* The tick values of an axis (after svg_axis_nice): up to cap of them.
 * Log axes tick at decades.  Returns the count. */
int svg_axis_ticks(const svg_axis *a, double *ticks, int cap);

/* The label of tick value v ("20 KiB", "0.01", "5%", "1500"). */
void svg_tick_label(const svg_axis *a, double v, char *buf, size_t len);

/* Draw a horizontal axis at pixel row y: line, ticks, labels and the axis
 * title below.  If grid_top < y, vertical grid lines reach up to it. */
void svg_axis_x(svg *s, const svg_axis *a, double y, double grid_top,
                const char *title);

/* Draw a vertical axis at pixel column x: line, ticks, labels (right
 * aligned, left of x) and the axis title rotated left of them.  If
 * grid_right > x, horizontal grid lines reach it. */
void svg_axis_y(svg *s, const svg_axis *a, double x, double grid_right,
                const char *title);

/* Width of the widest tick label of a vertical axis (for margins). */
double svg_axis_label_width(const svg_axis *a);

/* ---------------------------------------------------------------- legend */

/* One legend entry at (x, y) (the text's baseline): a swatch of `color`,
 * drawn as a line when `line` else as a box, then the text.  Returns the
 * entry's width. */
double svg_legend_entry(svg *s, double x, double y, const char *color,
                        int line, const char *cls, const char *text);

#endif
