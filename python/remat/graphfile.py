"""remat's native graph format (docs/formats.md), written and read back,
and schedules (a result file of remat solve, or a bare JSON array of ids).

Written like remat's own writer: top-level fields first, one node per line,
eight edges per line, the order explicitly.  Nodes carry, beside id,
duration and memory, the fields remat's reader ignores: op, label (the fx
name), members (the other fx nodes folded into the node), shape.
"""

import json
import sys

from .errors import BridgeError


def _dump(value):
    return json.dumps(value, separators=(", ", ": "))


def write_graph(path, meta, nodes, edges, order):
    """Write meta (top-level fields), nodes (dicts), edges ([u, v] ids)
    and order (ids) to path ('-': standard output)."""
    lines = ["{"]
    for k, v in meta.items():
        lines.append(f' {_dump(k)}: {_dump(v)},')
    lines.append(' "nodes": [')
    lines.append(",\n".join("  " + _dump(n) for n in nodes))
    lines.append(" ],")
    lines.append(' "edges": [')
    rows = [", ".join(_dump(list(e)) for e in edges[i:i + 8])
            for i in range(0, len(edges), 8)]
    lines.append(",\n".join("  " + r for r in rows))
    lines.append(" ],")
    lines.append(' "order": [')
    rows = [", ".join(_dump(v) for v in order[i:i + 16])
            for i in range(0, len(order), 16)]
    lines.append(",\n".join("  " + r for r in rows))
    lines.append(" ]")
    lines.append("}")
    text = "\n".join(lines) + "\n"
    if path == "-":
        sys.stdout.write(text)
        return
    try:
        with open(path, "w") as f:
            f.write(text)
    except OSError as e:
        raise BridgeError(f"{path}: cannot write: {e.strerror}")


def _load_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except OSError as e:
        raise BridgeError(f"{path}: cannot read: {e.strerror}")
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        where = (f":{e.lineno}:{e.colno}"
                 if isinstance(e, json.JSONDecodeError) else "")
        raise BridgeError(f"{path}{where}: not valid JSON")


def read_graph(path, source):
    """A graph written by remat-torch (source 'remat-torch')."""
    g = _load_json(path)
    if not isinstance(g, dict) or g.get("source") != source:
        raise BridgeError(f"{path}: not a graph written by {source} export")
    for key in ("nodes", "edges", "order"):
        if not isinstance(g.get(key), list):
            raise BridgeError(f"{path}: no {key!r} list")
    for i, n in enumerate(g["nodes"]):
        if not isinstance(n, dict) or not all(
                k in n for k in ("id", "label", "memory", "duration")):
            raise BridgeError(f"{path}: node {i} lacks id, label, memory "
                              "or duration")
    return g


def read_schedule(path, graph):
    """(sequence of node indices, info) from a result file or an array.
    info holds the file's peak, budget and within_budget when present."""
    s = _load_json(path)
    info = {}
    if isinstance(s, dict):
        info = {k: s[k] for k in ("peak", "budget", "within_budget",
                                  "method", "status") if k in s}
        msg, status = s.get("message"), s.get("status")
        why = (msg if isinstance(msg, str) and msg else
               f"status {status}" if isinstance(status, str) and status else None)
        s = s.get("sequence")
        if s is None and why:
            # a result that ended without a schedule: say why, as remat
            # does (result.c, result_file_sequence)
            raise BridgeError(f"{path}: the result has no schedule ({why})")
    if not isinstance(s, list) or not s:
        raise BridgeError(f"{path}: no schedule (a JSON array of node ids, "
                          "or an object with a \"sequence\" array)")
    index = {}
    for i, n in enumerate(graph["nodes"]):
        index[str(n["id"])] = i
    seq = []
    for v in s:
        if isinstance(v, bool) or not isinstance(v, (int, str)) \
                or str(v) not in index:
            raise BridgeError(f"{path}: the schedule names unknown node "
                              f"{json.dumps(v)}")
        seq.append(index[str(v)])
    return seq, info
