"""Peers' outputs turned into remat schedules, and remat's verdict on them.

Nothing here needs a peer installed: make check tests these functions
(python/tests/test_peers_convert.py) on tiny graphs, and bench/peers/run.py
uses them on the peers' real outputs.

- A retention-interval solution (Moccasin's model on CP-SAT): the present
  copies' start events, sorted, are the execution sequence.
- A MILP solution (HiGHS, SCIP): 'name value' lines of the nonzero
  columns, which `remat milp --read-solution` turns into a schedule.
- Every schedule, whatever its source, is re-simulated by `remat eval`; a
  schedule remat's simulator rejects is the peer's failure, reported as
  such with the simulator's message.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
from typing import Any, Iterable, Sequence


class ConversionError(ValueError):
    """A peer's output that does not describe a schedule."""


def stage_event(stage: int, slot: int) -> int:
    """The event of Moccasin's stage time axis (paper, section 2.3): stage j
    holds events j(j+1)/2 + k, k = 0..j; event k of stage j computes the
    k-th node of the input order (k = j: its first computation)."""
    return stage * (stage + 1) // 2 + slot


def intervals_to_sequence(copies: Iterable[tuple[int, Any]]) -> list[Any]:
    """The execution sequence of a retention-interval solution: copies are
    (start event, node id) of the present copies; a node is computed at its
    copy's start, so the sequence is the ids in the order of their starts.
    Two copies starting at the same event are not a sequence: the model
    computes one node per event."""
    ordered = sorted(copies, key=lambda c: c[0])
    for (s0, v0), (s1, v1) in zip(ordered, ordered[1:]):
        if s0 == s1:
            raise ConversionError(
                f"nodes {v0!r} and {v1!r} both start at event {s0}")
    return [v for _, v in ordered]


def _number(x: float) -> str:
    r = round(x)
    return str(int(r)) if math.isclose(x, r, abs_tol=1e-6) else repr(float(x))


def solution_lines(pairs: Iterable[tuple[str, float]]) -> str:
    """A MILP solution as the 'name value' lines remat milp --read-solution
    reads: the nonzero columns, integral values written as integers."""
    out = []
    for name, value in pairs:
        if not isinstance(value, (int, float)) or math.isnan(value):
            raise ConversionError(f"column {name}: value {value!r} is not a number")
        if abs(value) > 1e-9:
            out.append(f"{name} {_number(value)}\n")
    return "".join(out)


_OBJ = re.compile(r"^\* objective: .* duration = (\d+) \+ (\d+) x objective")


def mps_objective_scale(mps_head: str) -> tuple[int, int]:
    """(base, unit) from the comment remat milp --write-mps puts in the
    MPS file's head: duration = base + unit x objective."""
    for line in mps_head.splitlines():
        m = _OBJ.match(line)
        if m:
            return int(m.group(1)), int(m.group(2))
    raise ConversionError("no '* objective: ... duration = B + U x objective' "
                          "line in the MPS head")


def gap_percent(duration: int, lower_bound: int | None) -> float | None:
    """The gap as remat reports it: 100 (duration - bound) / duration."""
    if lower_bound is None or duration <= 0:
        return None
    return 100.0 * max(duration - lower_bound, 0) / duration


def _eval_fields(text: str) -> dict[str, str]:
    fields = {}
    for line in text.splitlines():
        key, sep, value = line.partition(": ")
        if sep:
            fields[key.strip()] = value.strip()
    return fields


def remat_eval(remat: str, graph: str, schedule: Sequence[Any] | str,
               budget: str | int | float, timeout: float = 600) -> dict[str, Any]:
    """remat eval's verdict on a schedule (a list of node ids, or a path to
    a result file): valid, within_budget, peak, duration, tdi_percent,
    recomputations; an invalid schedule gives valid False and the
    simulator's error."""
    if isinstance(schedule, str):
        arg, stdin = schedule, None
    else:
        arg, stdin = "-", json.dumps(list(schedule))
    p = subprocess.run([remat, "eval", graph, arg, "--budget", str(budget)],
                       input=stdin, capture_output=True, text=True,
                       timeout=timeout)
    f = _eval_fields(p.stdout)
    if f.get("valid") != "yes":
        err = f.get("error") or p.stderr.strip().splitlines()[-1:] or ["?"]
        return {"valid": False,
                "error": err if isinstance(err, str) else err[0],
                "exit": p.returncode}
    return {"valid": True, "within_budget": f.get("within_budget") == "yes",
            "peak": int(f["peak"]), "duration": int(f["duration"]),
            "base_duration": int(f["base_duration"]),
            "tdi_percent": float(f["tdi_percent"]),
            "recomputations": int(f["recomputations"]),
            "budget": int(f["budget"]), "exit": p.returncode}
