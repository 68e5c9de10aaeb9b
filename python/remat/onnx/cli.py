"""remat-onnx: an ONNX model's inference graph as a remat graph file.

    remat-onnx MODEL.onnx [-o graph.json] [--batch N] [--dim NAME=N]
               [--no-run] [--quiet]

The reading itself is remat.onnx.load (reader.py); this module parses the
options, writes the graph (graphfile.write_graph) and turns errors into
one-line messages and exit codes (cliutil.run_main: 2 for a model it cannot
read).
"""

from __future__ import annotations

import sys
from typing import Sequence

from ..cliutil import Parser, log, run_main
from ..errors import BridgeError

USAGE = ("remat-onnx MODEL.onnx [-o graph.json] [--batch N] [--dim NAME=N]"
         " [--no-run] [--quiet]\n")

HELP = USAGE + """
Writes the inference graph of an ONNX model as a remat graph (JSON).
  -o FILE        the graph file (default: standard output)
  --batch N      the size of a symbolic first input dimension
  --dim NAME=N   the size of the symbolic dimension NAME (repeatable)
  --no-run       never run the model with onnxruntime: a size that shape
                 inference leaves unknown is an error
  -q, --quiet    no progress line on standard error
"""


def _dim(text: str) -> tuple[str, int]:
    name, sep, value = text.rpartition("=")
    try:
        n = int(value)
    except ValueError:
        n = 0
    if not sep or not name or n <= 0:
        raise BridgeError(f"--dim {text!r}: expected NAME=N with N a "
                          "positive integer, e.g. --dim height=224")
    return name, n


def export(argv: Sequence[str]) -> int:
    """remat-onnx with its options in argv (no program name)."""
    p = Parser(prog="remat-onnx", usage=USAGE, add_help=False)
    p.add_argument("model", metavar="MODEL.onnx")
    p.add_argument("-o", dest="output", default="-")
    p.add_argument("--batch", type=int, default=None)
    p.add_argument("--dim", action="append", default=[])
    p.add_argument("--no-run", dest="run", action="store_false")
    p.add_argument("--quiet", "-q", action="store_true")
    args = p.parse_args(list(argv))
    if args.batch is not None and args.batch <= 0:
        raise BridgeError(f"--batch {args.batch}: must be positive")
    dims = dict(_dim(d) for d in args.dim)
    from ..graphfile import write_graph
    from .reader import load
    g = load(args.model, batch=args.batch, dims=dims, run=args.run)
    meta = {k: v for k, v in g.items()
            if k not in ("nodes", "edges", "order")}
    write_graph(args.output, meta, g["nodes"], g["edges"], g["order"])
    where = "" if args.output == "-" else f"; wrote {args.output}"
    measured = (f"; {g['measured_sizes']} sizes measured with onnxruntime"
                if g["measured_sizes"] else "")
    log(args, f"remat-onnx: {args.model}: {len(g['nodes'])} nodes, "
              f"{len(g['edges'])} edges; weights {g['param_bytes']} B"
              f"{measured}{where}")
    return 0


def main(argv: Sequence[str]) -> int:
    """Run remat-onnx; returns the exit code."""
    def body(argv: Sequence[str]) -> int:
        if not argv or argv[0] in ("-h", "--help"):
            sys.stdout.write(HELP if argv else USAGE)
            return 0 if argv else 2
        return export(argv)
    return run_main("remat-onnx", body, list(argv))


def console() -> None:
    """The remat-onnx console script."""
    sys.exit(main(sys.argv[1:]))


if __name__ == "__main__":
    console()
