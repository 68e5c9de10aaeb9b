"""Graphs: reading them through the C reader, node ids, budgets."""

from __future__ import annotations

import ctypes
import json
import os
from typing import Any, Sequence, Union

from ._lib import ERRLEN, lib
from .errors import RematError

NodeId = Union[int, str]
Budget = Union[int, float, str]


class Graph:
    """A computation graph read by remat's C reader (the CLI's own).

    Node i is the i-th node of the input topological order.  ``ids`` are the
    node ids as written in the input (ints when every id was a JSON
    integer).  The graph owns its C object and frees it when collected.
    """

    def __init__(self, ptr: Any, source: str) -> None:
        self._ptr = ptr
        self.source = source
        g = ptr.contents
        self.n: int = g.n
        self.n_edges: int = g.n_edges
        self.name: str = g.name.decode() if g.name else ""
        raw = [g.id[i].decode() for i in range(g.n)]
        self.ids: list[NodeId] = [int(s) for s in raw] if g.ids_numeric else raw
        self._index = {str(v): i for i, v in enumerate(self.ids)}

    def __del__(self) -> None:
        ptr, self._ptr = getattr(self, "_ptr", None), None
        if ptr:
            lib.remat_graph_free(ptr)

    def __repr__(self) -> str:
        return (f"remat.Graph({self.name!r}, n={self.n}, "
                f"edges={self.n_edges})")

    @property
    def durations(self) -> list[int]:
        """w_v per node, in the input order."""
        g = self._ptr.contents
        return [g.w[i] for i in range(self.n)]

    @property
    def sizes(self) -> list[int]:
        """m_v (output size) per node, in the input order."""
        g = self._ptr.contents
        return [g.m[i] for i in range(self.n)]

    @property
    def copies(self) -> list[int]:
        """C_v the graph's own nodes give (their "copies"; 1: computed once,
        such as a random generator's state), 0 where a node gives none."""
        g = self._ptr.contents
        if not g.copies:
            return [0] * self.n
        return [g.copies[i] for i in range(self.n)]

    @property
    def predecessors(self) -> list[list[int]]:
        """Per node (its position in the input order), the positions of
        its inputs."""
        g = self._ptr.contents
        return [[g.pred[k] for k in range(g.pred_off[i], g.pred_off[i + 1])]
                for i in range(self.n)]

    @property
    def topo_peak(self) -> int:
        """Peak memory of the input order without recomputation."""
        return lib.remat_topo_peak(self._ptr)

    @property
    def min_peak(self) -> int:
        """max over v of m_v plus its inputs' sizes: no schedule peaks
        lower."""
        return lib.remat_graph_min_peak(self._ptr)

    @property
    def order_min_peak(self) -> int:
        """No schedule whose first computations follow the input order
        (``free_order=False``) peaks lower: over each node's step, its
        output and inputs plus every node given copies 1 computed before
        it and read after it (kept in between)."""
        return lib.remat_graph_order_min_peak(self._ptr)

    @property
    def base_duration(self) -> int:
        """Sum of all durations (the input order's duration)."""
        return lib.remat_graph_base_duration(self._ptr)

    def index(self, node: NodeId) -> int:
        """The position of the node with this id; RematError if none."""
        i = self._index.get(str(node))
        if i is None:
            raise RematError(f"{self.source}: unknown node id {node!r}")
        return i

    def indices(self, schedule: Sequence[NodeId]) -> "ctypes.Array[ctypes.c_int]":
        """A schedule of ids as the C int array the library reads."""
        return (ctypes.c_int * len(schedule))(*(self.index(v) for v in schedule))

    def budget(self, budget: Budget) -> int:
        """A budget in bytes for this graph (parse_budget against its
        input order's peak)."""
        return parse_budget(budget, self.topo_peak)


def parse_budget(budget: Budget, topo_peak: int) -> int:
    """A budget in bytes, parsed as the CLI parses --budget: a fraction of
    topo_peak (0.7), a percentage ("70%") or a size (41687, "1.5GiB",
    "512MB").  RematError with the CLI's message otherwise."""
    if isinstance(budget, bool) or not isinstance(budget, (int, float, str)):
        raise RematError(
            f"budget {budget!r}: expected a fraction, a percentage or "
            "a size (0.7, '70%', '1.5GiB', 41687)")
    text = repr(budget) if isinstance(budget, float) else str(budget)
    out, err = ctypes.c_int64(), ctypes.create_string_buffer(ERRLEN)
    if lib.remat_budget_parse(text.encode(), topo_peak, ctypes.byref(out),
                              err, ERRLEN):
        raise RematError(err.value.decode(errors="replace"))
    return out.value


def load_graph(source: Union[str, "os.PathLike[str]", dict]) -> Graph:
    """Read a graph: a path to a JSON file in any format the CLI reads
    (networkx node-link, both dialects, or remat's native format, see
    docs/formats.md), or a dict holding such a document.

    Raises RematError with the reader's message ("FILE:LINE:COL: ...")
    on a bad file or document.
    """
    err = ctypes.create_string_buffer(ERRLEN)
    if isinstance(source, dict):
        try:
            text = json.dumps(source, allow_nan=False).encode()
        except (TypeError, ValueError) as e:
            raise RematError(f"<dict>: not a JSON document: {e}") from None
        ptr = lib.remat_graph_read_buffer(text, len(text), b"<dict>", err,
                                          ERRLEN)
        where = "<dict>"
    elif isinstance(source, (str, os.PathLike)):
        where = os.fspath(source)
        ptr = lib.remat_graph_read(os.fsencode(where), err, ERRLEN)
    else:
        raise RematError(
            f"load_graph: expected a path or a dict, not "
            f"{type(source).__name__}")
    if not ptr:
        raise RematError(err.value.decode(errors="replace"))
    return Graph(ptr, where)
