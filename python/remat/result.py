"""Results: what a solve or a baseline returns, read from the C library's
JSON document (the one `remat solve -o` writes, docs/formats.md)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Optional

from .graph import NodeId


@dataclass
class Result:
    """The outcome of remat.solve or remat.baseline.

    status: "optimal" (proven, for the schedules ``proof_covers`` names),
    "feasible" (within budget, not proven), "over-budget" (the best found
    peaks above the budget), "infeasible" (proven: nothing fits).
    schedule: node ids in execution order (a repeated id is a
    recomputation), None if nothing was found.  peak, duration: of that
    schedule (bytes and duration units, re-simulated by the C simulator).
    tdi: 100 (duration - base_duration) / base_duration.  bound: a lower
    bound on the duration of every schedule in ``bound_covers`` (None if
    none was proven), bound_tdi the same as a TDI.  document: the whole
    JSON document, as the command line writes it.
    """

    status: str
    schedule: Optional[list[NodeId]]
    peak: Optional[int]
    duration: Optional[int]
    tdi: Optional[float]
    budget: int
    topo_peak: int
    min_peak: int
    base_duration: int
    recomputations: Optional[int]
    bound: Optional[float]
    bound_tdi: Optional[float]
    bound_covers: Optional[str]
    proof_covers: Optional[str]
    method: str
    order: str
    message: str
    time_s: float
    time_to_best_s: Optional[float]
    interrupted: bool
    document: dict[str, Any] = field(repr=False)

    @property
    def within_budget(self) -> bool:
        """A schedule whose peak fits the budget was found."""
        return self.peak is not None and self.peak <= self.budget

    @property
    def other_order(self) -> Optional[dict[str, Any]]:
        """A solve on the input order (``order == "input"``): a schedule
        whose first computations come in another order, found within the
        budget and shorter than ``schedule`` (or where ``schedule`` is
        above the budget), as ``{"peak", "duration", "tdi_percent"}``;
        None if none was found.  ``solve(..., free_order=True)`` searches
        every order."""
        return self.document.get("other_order")

    @classmethod
    def from_json(cls, text: str) -> "Result":
        d = json.loads(text)
        return cls(
            status=d["status"], schedule=d.get("sequence"),
            peak=d.get("peak"), duration=d.get("duration"),
            tdi=d.get("tdi_percent"), budget=d["budget"],
            topo_peak=d["topo_peak"], min_peak=d["min_peak"],
            base_duration=d["base_duration"],
            recomputations=d.get("recomputations"),
            bound=d.get("lower_bound"),
            bound_tdi=d.get("lower_bound_tdi_percent"),
            bound_covers=d.get("lower_bound_covers"),
            proof_covers=d.get("proof_covers"), method=d["method"],
            order=d["order"], message=d.get("message", ""),
            time_s=d["time_s"], time_to_best_s=d.get("time_to_best_s"),
            interrupted=bool(d.get("interrupted", False)), document=d)


@dataclass
class Simulation:
    """remat.simulate's re-simulation of a schedule: its peak memory
    (reached first at step peak_step), total duration, recomputations and
    the memory after each step (memory[j], bytes)."""

    peak: int
    duration: int
    peak_step: int
    recomputations: int
    tdi: float
    memory: list[int]
