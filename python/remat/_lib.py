"""The C library (libremat.so) through ctypes: loading it and the
prototypes and struct mirrors of include/remat.h.

The library is looked up, in order, at $REMAT_LIB, in the package's
_native/ folder (where `pip install .` puts it) and in the source tree's
build/pic/ (what `make pylib` builds).  Each struct mirrored here is
checked against the library's own sizeof (remat_struct_size) on load, so a
header change that the mirror missed fails at import, not in a solve.
"""

from __future__ import annotations

import ctypes
import os
from ctypes import (POINTER, c_char, c_char_p, c_double, c_int, c_int64,
                    c_size_t, c_uint, c_void_p)
from pathlib import Path

from .errors import InternalError

REMAT_OK, REMAT_EUSAGE, REMAT_ENOFIT, REMAT_EINTERNAL = 0, 2, 3, 4
REMAT_LNS = {"auto": 0, "random": 1, "none": 2}
REMAT_HIER = {"auto": 0, "on": 1, "off": 2}
REMAT_HALT = 2
ERRLEN = 1024

_HERE = Path(__file__).resolve().parent


class Graph(ctypes.Structure):
    """struct remat_graph."""

    _fields_ = [
        ("n", c_int), ("n_edges", c_int), ("id", POINTER(c_char_p)),
        ("ids_numeric", c_int), ("label", POINTER(c_char_p)),
        ("op", POINTER(c_char_p)), ("w", POINTER(c_int64)),
        ("m", POINTER(c_int64)), ("copies", POINTER(c_int)),
        ("file_index", POINTER(c_int)), ("pred_off", POINTER(c_int)),
        ("pred", POINTER(c_int)), ("succ_off", POINTER(c_int)),
        ("succ", POINTER(c_int)), ("name", c_char_p), ("path", c_char_p),
        ("format", c_char_p), ("index", c_void_p),
        ("backward", POINTER(ctypes.c_ubyte)),
    ]


class Sim(ctypes.Structure):
    """struct remat_sim."""

    _fields_ = [
        ("valid", c_int), ("peak", c_int64), ("duration", c_int64),
        ("peak_step", c_int), ("recomputations", c_int),
        ("error", c_char * 256),
    ]


IMPROVEMENT = ctypes.CFUNCTYPE(None, c_void_p, POINTER(c_int), c_int)


class SolveParams(ctypes.Structure):
    """struct remat_solve_params."""

    _fields_ = [
        ("budget", c_int64), ("copies", POINTER(c_int)),
        ("default_copies", c_int), ("time_limit", c_double),
        ("threads", c_int), ("seed", c_uint), ("fzn_solver", c_char_p),
        ("heuristics", c_int), ("lns", c_int), ("hierarchy", c_int),
        ("verbose", c_int),
        ("stop", POINTER(c_int)), ("warm_seq", POINTER(c_int)),
        ("warm_len", c_int), ("keep_fzn", c_char_p), ("lp_time", c_double),
        ("free_order", c_int), ("keep_copies", c_int),
        ("order_cost", c_int64), ("on_improvement", IMPROVEMENT),
        ("improvement_ctx", c_void_p),
    ]


_PROTOTYPES = {
    "remat_graph_read": (POINTER(Graph), [c_char_p, c_char_p, c_size_t]),
    "remat_graph_read_buffer": (POINTER(Graph),
                                [c_char_p, c_size_t, c_char_p, c_char_p,
                                 c_size_t]),
    "remat_graph_free": (None, [POINTER(Graph)]),
    "remat_graph_find": (c_int, [POINTER(Graph), c_char_p]),
    "remat_graph_base_duration": (c_int64, [POINTER(Graph)]),
    "remat_graph_max_duration": (c_int64, [POINTER(Graph)]),
    "remat_graph_min_peak": (c_int64, [POINTER(Graph)]),
    "remat_graph_order_min_peak": (c_int64, [POINTER(Graph)]),
    "remat_topo_peak": (c_int64, [POINTER(Graph)]),
    "remat_simulate": (c_int, [POINTER(Graph), POINTER(c_int), c_int,
                               POINTER(Sim), POINTER(c_int64)]),
    "remat_budget_parse": (c_int, [c_char_p, c_int64, POINTER(c_int64),
                                   c_char_p, c_size_t]),
    "remat_solve_params_init": (None, [POINTER(SolveParams)]),
    "remat_solve": (c_int, [POINTER(Graph), POINTER(SolveParams), c_void_p]),
    "remat_baseline": (c_int, [POINTER(Graph), c_char_p, c_char_p, c_double,
                               POINTER(c_int), c_void_p]),
    "remat_result_new": (c_void_p, [POINTER(Graph), c_int64, c_char_p]),
    "remat_result_delete": (None, [c_void_p]),
    "remat_result_json": (c_void_p, [c_void_p, POINTER(Graph)]),
    "remat_free": (None, [c_void_p]),
    "remat_struct_size": (c_size_t, [c_char_p]),
}

_MIRRORS = {"remat_graph": Graph, "remat_sim": Sim,
            "remat_solve_params": SolveParams}


def _candidates() -> list[Path]:
    env = os.environ.get("REMAT_LIB")
    if env:
        return [Path(env)]
    return [_HERE / "_native" / "libremat.so",
            _HERE.parent.parent / "build" / "pic" / "libremat.so"]


def _load() -> ctypes.CDLL:
    tried = _candidates()
    for path in tried:
        if path.is_file():
            lib = ctypes.CDLL(str(path))
            break
    else:
        raise ImportError(
            "remat: the C library is not built: looked for "
            + ", ".join(str(p) for p in tried)
            + " (`pip install .` builds it; in the source tree, `make pylib`)")
    for name, (restype, argtypes) in _PROTOTYPES.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes
    for cname, mirror in _MIRRORS.items():
        size = lib.remat_struct_size(cname.encode())
        if size != ctypes.sizeof(mirror):
            raise ImportError(
                f"remat: {lib._name}'s {cname} has {size} bytes, the Python "
                f"mirror {ctypes.sizeof(mirror)}: rebuild the package")
    return lib


lib = _load()


def take_string(ptr: int | None) -> str:
    """A malloc'd C string returned by the library, as str, released."""
    if not ptr:
        raise InternalError("remat: out of memory")
    try:
        return ctypes.string_at(ptr).decode("utf-8")
    finally:
        lib.remat_free(ptr)
