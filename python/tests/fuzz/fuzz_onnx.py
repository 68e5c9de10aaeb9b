"""Fuzz target: the ONNX reader, remat.onnx.loads (atheris).

One input is the bytes of an ONNX model.  The reader parses and checks it,
fixes a symbolic batch (retrying with batch 2 where the model asks for
one), infers its shapes and may run it once with onnxruntime; it must
return a graph or raise BridgeError: any other exception, or a crash, is a
bug.

    mkdir -p build/fuzz-onnx
    PYTHONPATH=python python python/tests/fuzz/fuzz_onnx.py build/fuzz-onnx \\
        python/tests/fuzz/corpus/onnx -max_total_time=300 -rss_limit_mb=4096

Inputs that fail go to python/tests/fuzz/crashes/onnx/; test_onnx_fuzz.py
replays the corpus and the crashes with pytest.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

# imported by main() under atheris' instrumentation, else on first use
reader: Any = None
errors: Any = None

# models whose inputs are bigger than this are not run: a fuzzed dimension
# of 2^40 would only measure the machine's memory
MAX_INPUT_ELEMENTS = 1 << 20


def _import() -> None:
    global reader, errors
    reader = importlib.import_module("remat.onnx.reader")
    errors = importlib.import_module("remat.errors")


def _small_inputs(data: bytes) -> bool:
    """Whether every graph input of the model in data is small enough to
    run (unparseable data passes: the reader reports it)."""
    import onnx
    try:
        m = onnx.load_model_from_string(data)
    except Exception:
        return True
    for vi in m.graph.input:
        n = 1
        for d in vi.type.tensor_type.shape.dim:
            n *= max(1, d.dim_value if d.HasField("dim_value") else 2)
        if n > MAX_INPUT_ELEMENTS:
            return False
    return True


def read(data: bytes) -> dict | None:
    """The reader on data: the graph, or None where it raised BridgeError
    (any other exception propagates)."""
    if reader is None:
        _import()
    run = _small_inputs(data)
    try:
        return reader.loads(data, "fuzz.onnx", run=run)
    except errors.BridgeError as e:
        if "give --batch N" not in str(e):
            return None
    try:
        return reader.loads(data, "fuzz.onnx", batch=2, run=run)
    except errors.BridgeError:
        return None


def one_input(data: bytes) -> None:
    """Run the reader on one fuzzer input and check what it returns."""
    g = read(data)
    if g is None:
        return
    n = len(g["nodes"])
    assert g["order"] == list(range(n))
    for node in g["nodes"]:
        assert type(node["memory"]) is int and node["memory"] >= 0
        assert type(node["duration"]) is int and node["duration"] >= 1
    for u, v in g["edges"]:
        assert 0 <= u < v < n


def main() -> None:
    import atheris
    with atheris.instrument_imports(include=["remat.onnx"]):
        _import()
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
