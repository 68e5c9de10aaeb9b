"""remat.solve, remat.baseline and remat.simulate: the C library's solver,
baselines and simulator.

A solve runs in a thread of its own while the calling thread waits, so
that Ctrl-C (KeyboardInterrupt) reaches Python: the first one asks the
solve to stop and keep its best schedule, as the command line does (the
result then has ``interrupted`` set); a second one stops the helper
processes at once (REMAT_HALT) and still returns the best so far.
"""

from __future__ import annotations

import ctypes
import threading
from typing import Callable, Mapping, Optional, Sequence, Union

from . import _lib
from ._lib import lib
from .errors import InfeasibleError, InternalError, RematError
from .graph import Budget, Graph, NodeId
from .result import Result, Simulation

Copies = Union[None, int, Mapping[NodeId, int]]

METHODS = ("checkpoint-all", "chen-sqrtn", "chen-greedy", "echo")


def _run_interruptible(call: Callable[[], int],
                       stop: "ctypes.c_int") -> int:
    """call() in a thread; Ctrl-C in the caller sets stop (1, then
    REMAT_HALT) and waits for call to return."""
    out: list[int] = []
    done = threading.Event()

    def run() -> None:
        try:
            out.append(call())
        finally:
            done.set()

    worker = threading.Thread(target=run, name="remat-solve", daemon=True)
    worker.start()
    # Event.wait, not Thread.join: a KeyboardInterrupt inside join can
    # leave the thread looking finished while it runs on.
    while not done.is_set():
        try:
            done.wait(0.05)
        except KeyboardInterrupt:
            stop.value = _lib.REMAT_HALT if stop.value else 1
    worker.join()
    if not out:
        raise InternalError("the solve ended without a result")
    return out[0]


def _finish(graph: Graph, r: int, rc: int) -> Result:
    """The result document of r (freed here), or the exception for rc."""
    try:
        result = Result.from_json(
            _lib.take_string(lib.remat_result_json(r, graph._ptr)))
    finally:
        lib.remat_result_delete(r)
    if rc == _lib.REMAT_EUSAGE:
        raise RematError(result.message)
    if rc == _lib.REMAT_EINTERNAL:
        raise InternalError(result.message or "internal error")
    if rc == _lib.REMAT_ENOFIT and not result.interrupted:
        raise InfeasibleError(
            result.message or f"no schedule within the budget "
            f"{result.budget} was found ({result.status})",
            result=result, bound=result.min_peak)
    return result


def _copies_array(graph: Graph, copies: Copies,
                  params: _lib.SolveParams) -> "ctypes.Array":
    """C_v: the graph's own (its nodes' "copies", 0 where not given: the
    default 2), changed for every node (an int: the default where the
    graph gives none, as --copies N) or per node id.  A node's own copies
    are a ceiling (the C library keeps to it whatever it is given); a
    mapping that asks for more is an error, as `--copies FILE` is."""
    g = graph._ptr.contents
    own = (ctypes.c_int * max(graph.n, 1))(*(g.copies[i]
                                              for i in range(graph.n)))
    if copies is None:
        return own
    if isinstance(copies, int) and not isinstance(copies, bool):
        if not 1 <= copies <= 1000000:
            raise RematError(f"copies {copies}: expected 1..1000000")
        params.default_copies = copies
        return own
    if not isinstance(copies, Mapping):
        raise RematError("copies: expected an int or a mapping from node "
                         "id to int")
    arr = own
    for node, c in copies.items():
        if isinstance(c, bool) or not isinstance(c, int) or not 1 <= c <= 1000000:
            raise RematError(f"copies of {node!r}: {c!r}: expected "
                             "1..1000000")
        i = graph.index(node)
        if 0 < own[i] < c:
            times = "time" if own[i] == 1 else "times"
            raise RematError(f"copies of {node!r}: node {node} is computed at "
                             f"most {own[i]} {times} (its \"copies\" in the "
                             f"graph), not {c}")
        arr[i] = c
    return arr


def solve(graph: Graph, budget: Budget, *, time_limit: float = 60.0,
          threads: int = 0, seed: int = 1, free_order: bool = False,
          copies: Copies = None, strict_copies: bool = False,
          heuristics: bool = True, lns: str = "auto",
          hierarchy: str = "auto", lp_bound: bool = False,
          warm_start: Optional[Sequence[NodeId]] = None,
          verbose: int = 0) -> Result:
    """Find a schedule of graph whose peak fits budget with the least
    total duration: the portfolio of `remat solve` (CP on Gecode,
    heuristics, LNS, annealing and lower bounds), with its defaults.

    budget: a fraction of the input order's peak (0.7), a percentage
    ("70%") or bytes (41687, "1.5GiB").  time_limit: seconds for the whole
    solve.  threads: 0 for every core.  free_order: search every order,
    not only the input order's stages.  copies: C_v, the number of times
    each node may be computed (an int for all, or {id: n}), never above a
    node's own (Graph.copies); strict_copies keeps them as given.
    hierarchy: "auto", "on" or "off", the repeated blocks' composition as
    `remat solve --hierarchy`.  lp_bound: also solve Checkmate's LP relaxation
    for a lower bound.  warm_start: a schedule (ids) to start from.
    verbose: 0 quiet, 1 the CLI's progress lines on stderr, 2 more.

    Returns a Result (status, schedule, peak, duration, tdi, bound and the
    schedules its proof covers).  Raises InfeasibleError (with .bound, the
    smallest peak any schedule needs, and .result) when nothing within
    budget was found, RematError on bad arguments (the CLI's messages).
    Ctrl-C stops the search and returns the best schedule so far.
    """
    p = _lib.SolveParams()
    lib.remat_solve_params_init(ctypes.byref(p))
    p.budget = graph.budget(budget)
    if lns not in _lib.REMAT_LNS:
        raise RematError(f"lns {lns!r}: expected one of auto, random, none")
    if hierarchy not in _lib.REMAT_HIER:
        raise RematError(f"hierarchy {hierarchy!r}: expected one of auto, "
                         "on, off")
    if not isinstance(threads, int) or threads < 0:
        raise RematError(f"threads {threads!r}: expected 0 (every core) "
                         "or more")
    if not time_limit > 0:
        raise RematError(f"time_limit {time_limit!r}: expected seconds > 0")
    p.time_limit, p.threads, p.seed = float(time_limit), threads, seed
    p.free_order, p.keep_copies = int(bool(free_order)), int(strict_copies)
    p.heuristics, p.lns = int(bool(heuristics)), _lib.REMAT_LNS[lns]
    p.hierarchy = _lib.REMAT_HIER[hierarchy]
    p.lp_time = float(time_limit) if lp_bound else 0.0
    p.verbose = int(verbose)
    arr = _copies_array(graph, copies, p)
    p.copies = ctypes.cast(arr, ctypes.POINTER(ctypes.c_int))
    warm = graph.indices(warm_start) if warm_start else None
    if warm is not None:
        p.warm_seq = ctypes.cast(warm, ctypes.POINTER(ctypes.c_int))
        p.warm_len = len(warm)
    stop = ctypes.c_int(0)
    p.stop = ctypes.pointer(stop)
    r = lib.remat_result_new(graph._ptr, p.budget, b"cp")
    rc = _run_interruptible(
        lambda: lib.remat_solve(graph._ptr, ctypes.byref(p), r), stop)
    return _finish(graph, r, rc)


def baseline(graph: Graph, budget: Budget, method: str = "chen-greedy", *,
             candidates: str = "ap", time_limit: float = 0.0) -> Result:
    """One of the baselines of `remat baseline`: "checkpoint-all",
    "chen-sqrtn", "chen-greedy" (Chen et al.'s, as in Checkmate) or
    "echo" (cheap operators recomputed); candidates "ap" (articulation
    points) or "linearized" (every forward node).  Raises InfeasibleError
    when the method's best schedule peaks above the budget (its .result
    holds that schedule)."""
    b = graph.budget(budget)
    r = lib.remat_result_new(graph._ptr, b, method.encode())
    stop = ctypes.c_int(0)
    rc = _run_interruptible(
        lambda: lib.remat_baseline(graph._ptr, method.encode(),
                                   candidates.encode(), float(time_limit),
                                   ctypes.pointer(stop), r), stop)
    return _finish(graph, r, rc)


def simulate(graph: Graph, schedule: Sequence[NodeId]) -> Simulation:
    """Re-simulate a schedule (node ids in execution order) with remat's
    memory model: its peak, duration and the memory after each step.
    Raises RematError if a step reads a node not computed before it."""
    seq = graph.indices(schedule)
    sim = _lib.Sim()
    mem = (ctypes.c_int64 * max(len(seq), 1))()
    if lib.remat_simulate(graph._ptr, seq, len(seq), ctypes.byref(sim), mem):
        raise RematError(f"invalid schedule: {sim.error.decode(errors='replace')}")
    base = graph.base_duration
    tdi = 100.0 * (sim.duration - base) / base if base else 0.0
    return Simulation(peak=sim.peak, duration=sim.duration,
                      peak_step=sim.peak_step,
                      recomputations=sim.recomputations, tdi=tdi,
                      memory=list(mem[:len(seq)]))
