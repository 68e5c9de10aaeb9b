"""bench/peers/models.py's verdicts on hand-made rows: the Pareto front each
method's curve follows, and the headline (remat's fastest point at or below
each peer's measured peak; the budgets where only remat fits)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench" / "peers"))
import models  # noqa: E402

M = 1 << 20


def _row(method: str, knob: object, peak_mib: float, ms: float) -> dict:
    return {"model": "m", "method": method, "knob": knob,
            "peak": peak_mib * M, "time": ms / 1e3}


def test_front_keeps_points_no_other_beats() -> None:
    on, off = models.front([(3, 4), (1, 5), (4, 1), (2, 3), (2, 6)])
    assert on == [(1, 5), (2, 3), (4, 1)]
    assert off == [(2, 6), (3, 4)]


def test_headline_fastest_remat_at_or_below_each_peer() -> None:
    rows = [_row("plain", None, 10, 50),
            _row("sac", None, 6, 80),
            _row("compile-dp", 0.5, 4.5, 70),
            _row("remat", 0.6, 6, 60),  # equal peak counts as "at or below"
            _row("remat", 0.4, 5, 55),
            _row("remat", 0.2, 4, 90),
            _row("remat", 0.1, 3, 120),
            _row("remat-compile", 0.3, 4.2, 85),  # remat's too (Inductor)
            {"model": "m", "method": "ckpt-seq", "knob": None, "error": "x"}]
    lines = models.headline(rows)
    assert lines[0] == ("| m | plain |  | 10.00 | 50.0 | 55.0 ms at 5.00 MiB "
                        "(remat 0.4), 1.10x: **SLOWER** |")
    assert lines[1] == ("| m | sac |  | 6.00 | 80.0 | 55.0 ms at 5.00 MiB "
                        "(remat 0.4), 0.69x: faster |")
    assert lines[2] == ("| m | compile-dp | 0.5 | 4.50 | 70.0 | 85.0 ms at "
                        "4.20 MiB (remat-compile 0.3), 1.21x: **SLOWER** |")
    assert lines[4] == ("- m: only remat fits below the peers' lowest measured "
                        "peak (4.50 MiB, compile-dp 0.5) at budgets: "
                        "remat 0.2 (4.00 MiB, 90.0 ms), remat 0.1 (3.00 MiB, "
                        "120.0 ms), remat-compile 0.3 (4.20 MiB, 85.0 ms)")
    assert len(lines) == 5


def test_headline_no_remat_point_low_enough() -> None:
    lines = models.headline([_row("sac", None, 4, 80), _row("remat", 0.5, 5, 60)])
    assert lines[0].endswith("| no remat point at or below |")
    assert lines[2].endswith("at budgets: none")


def test_ckpt_seq_needs_one_chain_of_blocks() -> None:
    # a U-Net's blocks meet at skips and merges: checkpoint_sequential would
    # run them as a chain, so the harness says why instead of failing inside
    s = models.zoo.setup("unet", seed=0, device="cpu")
    with pytest.raises(ValueError, match=r"^checkpoint_sequential: block 1 does "
                       r"not read block 0's output alone"):
        models.apply_peer(s.model, "ckpt-seq", s.inputs)
    s = models.zoo.setup("gpt_4l", seed=0, device="cpu")
    m = models.apply_peer(s.model, "ckpt-seq", s.inputs)
    assert m is s.model
