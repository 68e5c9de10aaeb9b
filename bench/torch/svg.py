"""A line chart as a standalone SVG file, written by hand (no plotting
library): one polyline with markers per series, linear axes with ticks, a
legend."""

from __future__ import annotations

import math
from html import escape
from typing import Sequence

W, H = 760, 520
LEFT, RIGHT, TOP, BOTTOM = 70, 190, 40, 60
COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
           "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939"]


def _ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    """Round tick values covering [lo, hi]."""
    if hi <= lo:
        hi = lo + 1.0
    raw = (hi - lo) / n
    mag = 10 ** math.floor(math.log10(raw))
    step = min((m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw),
               default=10 * mag)
    ticks = [round(math.floor(lo / step) * step, 10)]
    while ticks[-1] < hi - step * 1e-9:
        ticks.append(round(ticks[-1] + step, 10))
    return ticks


def line_chart(series: Sequence[tuple[str, Sequence[tuple[float, float]]]],
               title: str, xlabel: str, ylabel: str,
               marks: Sequence[tuple[float, float, str]] = (),
               hollow: Sequence[Sequence[tuple[float, float]]] = ()) -> str:
    """The SVG text of a chart of `series` (name, [(x, y), ...]); `marks`
    are labelled reference points (x, y, label), drawn as open squares;
    hollow[i], where given, are more points of series i drawn as open
    circles in its colour, off its line."""
    points = ([p for _, pts in series for p in pts] + [(x, y) for x, y, _ in marks]
              + [p for pts in hollow for p in pts])
    if not points:
        points = [(0.0, 0.0), (1.0, 1.0)]
    xs = _ticks(min(p[0] for p in points), max(p[0] for p in points))
    ys = _ticks(min(p[1] for p in points), max(p[1] for p in points))
    x0, x1, y0, y1 = xs[0], xs[-1], ys[0], ys[-1]
    pw, ph = W - LEFT - RIGHT, H - TOP - BOTTOM

    def sx(x: float) -> float:
        return LEFT + (x - x0) / ((x1 - x0) or 1) * pw

    def sy(y: float) -> float:
        return TOP + ph - (y - y0) / ((y1 - y0) or 1) * ph

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
           f'viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{LEFT + pw / 2}" y="22" text-anchor="middle" '
           f'font-size="15">{escape(title)}</text>']
    for t in xs:
        out.append(f'<line x1="{sx(t):.1f}" y1="{TOP}" x2="{sx(t):.1f}" '
                   f'y2="{TOP + ph}" stroke="#e6e6e6"/>')
        out.append(f'<text x="{sx(t):.1f}" y="{TOP + ph + 18}" '
                   f'text-anchor="middle">{t:g}</text>')
    for t in ys:
        out.append(f'<line x1="{LEFT}" y1="{sy(t):.1f}" x2="{LEFT + pw}" '
                   f'y2="{sy(t):.1f}" stroke="#e6e6e6"/>')
        out.append(f'<text x="{LEFT - 8}" y="{sy(t) + 4:.1f}" '
                   f'text-anchor="end">{t:g}</text>')
    out.append(f'<rect x="{LEFT}" y="{TOP}" width="{pw}" height="{ph}" '
               'fill="none" stroke="black"/>')
    out.append(f'<text x="{LEFT + pw / 2}" y="{H - 18}" '
               f'text-anchor="middle">{escape(xlabel)}</text>')
    out.append(f'<text transform="translate(18 {TOP + ph / 2}) rotate(-90)" '
               f'text-anchor="middle">{escape(ylabel)}</text>')
    for i, (name, pts) in enumerate(series):
        colour = COLOURS[i % len(COLOURS)]
        path = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in pts)
        if len(pts) > 1:
            out.append(f'<polyline points="{path}" fill="none" '
                       f'stroke="{colour}" stroke-width="1.8"/>')
        r = 3 if len(pts) > 1 else 5  # a lone point stands out
        for x, y in pts:
            out.append(f'<circle cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="{r}" '
                       f'fill="{colour}"/>')
        for x, y in (hollow[i] if i < len(hollow) else ()):
            out.append(f'<circle cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="3.5" '
                       f'fill="white" stroke="{colour}" stroke-width="1.5"/>')
        ly = TOP + 10 + 18 * i
        out.append(f'<line x1="{LEFT + pw + 12}" y1="{ly}" x2="{LEFT + pw + 32}" '
                   f'y2="{ly}" stroke="{colour}" stroke-width="2"/>')
        out.append(f'<text x="{LEFT + pw + 38}" y="{ly + 4}">{escape(name)}</text>')
    for x, y, label in marks:
        out.append(f'<rect x="{sx(x) - 4:.1f}" y="{sy(y) - 4:.1f}" width="8" '
                   'height="8" fill="none" stroke="black"/>')
        out.append(f'<text x="{sx(x) + 7:.1f}" y="{sy(y) - 6:.1f}">'
                   f'{escape(label)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
