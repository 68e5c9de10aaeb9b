/* plot_draw.h -- what the pictures of `remat plot` share (plot.c,
 * plot_progress.c, plot_tradeoff.c): layout constants in pixels, the
 * style sheet, headings, the plot area's frame, markers and number
 * formats. */
#ifndef REMAT_PLOT_DRAW_H
#define REMAT_PLOT_DRAW_H

#include <stddef.h>
#include <stdint.h>

#include "svg.h"

#define PLOT_PAD 20.0      /* outer margin */
#define PLOT_TITLE_H 44.0  /* title and subtitle lines */
#define PLOT_LEGEND_H 18.0 /* one legend row */
#define PLOT_XAXIS_H 48.0  /* tick labels and axis title below a plot */
/* The first legend row below a plot whose area starts at top. */
#define PLOT_LEGEND_Y(top) ((top) + PLOT_H + PLOT_XAXIS_H + 12)
#define PLOT_W 960.0       /* plot area of the memory, progress and tradeoff pictures */
#define PLOT_H 400.0
#define PLOT_TMIN 0.001 /* progress: earlier times are drawn at 1 ms */

extern const char plot_css[];

double plot_clamp(double v, double lo, double hi);
/* "114.7 KiB (117472 B)", or "3 B" when small. */
void plot_size_long(int64_t v, char *buf, size_t len);
/* At most max code points of text, with an ellipsis when cut. */
void plot_shorten(const char *text, int max, char *buf, size_t len);
void plot_heading(svg *s, const char *title, const char *subtitle);
double plot_heading_width(const char *title, const char *subtitle);
/* The plot area's frame, with its data range for programs reading it. */
void plot_area(svg *s, const svg_axis *x, const svg_axis *y);
double plot_tdi(int64_t duration, int64_t base);
/* Close the document: 0, or REMAT_EINTERNAL with a message. */
int plot_finish(svg *s, char *err, size_t errlen);
/* "< 1 ms", "0.042 s", "3.14 s", "1234 s" */
void plot_secs(double t, char *buf, size_t len);
/* A circle of class cls, filled or hollow. */
void plot_marker(svg *s, double x, double y, double r, const char *cls, const char *color,
                 int hollow);

#endif
