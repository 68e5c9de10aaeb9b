"""Brute force for the tests: the least duration of any sequence, judged
by remat.simulate (remat's own simulator; no second one here)."""

from __future__ import annotations

import itertools
from typing import Optional

import remat


def brute_force(g: remat.Graph, budget: int, max_len: int) -> Optional[int]:
    """The least duration of any valid sequence of at most max_len steps
    that computes every node and fits budget (remat.simulate judges
    each), or None."""
    best = None
    for length in range(g.n, max_len + 1):
        for seq in itertools.product(g.ids, repeat=length):
            if set(seq) != set(g.ids):
                continue
            try:
                s = remat.simulate(g, list(seq))
            except remat.RematError:
                continue
            if s.peak <= budget and (best is None or s.duration < best):
                best = s.duration
    return best
