"""Fuzz target: the Python API's argument handling (atheris).

One input is a graph document (JSON text) up to its first NUL byte; what
follows is split by atheris' FuzzedDataProvider into a budget (text,
float or int), solve options and a schedule;
load_graph, Graph.budget, solve (a short time limit, tiny graphs only),
baseline and simulate must either work or raise RematError: any other
exception, or a crash of the C library, is a bug.

    mkdir -p build/fuzz-api
    build/venv/bin/python python/tests/fuzz/fuzz_api.py build/fuzz-api \\
        python/tests/fuzz/corpus/api -max_total_time=60

test_fuzz_api.py replays corpus/api and crashes/api in make check.
"""

from __future__ import annotations

import importlib
import json
import sys
from typing import Any

# imported by main() under atheris' instrumentation, else on first use
remat: Any = None

MAX_SOLVE_NODES = 12


def _budget(fdp: Any) -> Any:
    kind = fdp.ConsumeIntInRange(0, 3)
    if kind == 0:
        return fdp.ConsumeUnicodeNoSurrogates(12)
    if kind == 1:
        return fdp.ConsumeFloat()
    if kind == 2:
        return fdp.ConsumeInt(8)
    return fdp.PickValueInList([None, [], {}, True, b"1"])


def _options(fdp: Any, ids: list) -> dict:
    opts: dict = {"time_limit": 0.2, "threads": 1}
    if fdp.ConsumeBool():
        opts["copies"] = (fdp.ConsumeIntInRange(-2, 5) if fdp.ConsumeBool()
                          else {fdp.PickValueInList(ids or [0]):
                                fdp.ConsumeIntInRange(-1, 4)})
    if fdp.ConsumeBool():
        opts["lns"] = fdp.PickValueInList(["auto", "random", "none", "x"])
    if fdp.ConsumeBool():
        opts["free_order"] = True
    if fdp.ConsumeBool():
        opts["threads"] = fdp.ConsumeIntInRange(-1, 2)
    return opts


def one_input(data: bytes) -> None:
    """Run the API on one fuzzer input."""
    global remat
    import atheris  # the data provider
    if remat is None:
        remat = importlib.import_module("remat")
    head, _, tail = data.partition(b"\0")
    fdp = atheris.FuzzedDataProvider(tail)
    text = head.decode("utf-8", errors="replace")
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):
        return
    if not isinstance(doc, dict):
        doc = {"nodes": doc}
    try:
        g = remat.load_graph(doc)
    except remat.RematError:
        return
    budget, opts = _budget(fdp), _options(fdp, g.ids)
    schedule = [fdp.PickValueInList(g.ids) for _ in
                range(fdp.ConsumeIntInRange(0, 3 * g.n))] if g.n else []
    calls = [lambda: g.budget(budget), lambda: remat.simulate(g, schedule),
             lambda: remat.baseline(g, budget, "chen-greedy")]
    if g.n <= MAX_SOLVE_NODES:
        calls.append(lambda: remat.solve(g, budget, **opts))
    for call in calls:
        try:
            call()
        except remat.RematError:
            pass


def main() -> None:
    global remat
    import atheris
    with atheris.instrument_imports(include=["remat"]):
        remat = importlib.import_module("remat")
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
