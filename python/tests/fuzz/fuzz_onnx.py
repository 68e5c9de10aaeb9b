"""Fuzz target: the ONNX reader, remat.onnx.loads (atheris).

One input is the bytes of an ONNX model, or, after a first byte 0xFF
(where no model starts: wire type 7 does not exist), the bytes
onnx_builder.py makes a small random model from (structured mode, which
reaches shape inference and the onnxruntime run far more often).  The
reader parses and checks the model, fixes a symbolic batch (retrying with
batch 2 where the model asks for one), infers its shapes and may run it
once with onnxruntime; it must return a graph or raise BridgeError: any
other exception, or a crash, is a bug.

    mkdir -p build/fuzz-onnx
    PYTHONPATH=python python python/tests/fuzz/fuzz_onnx.py build/fuzz-onnx \\
        python/tests/fuzz/corpus/onnx -max_total_time=300 -rss_limit_mb=4096

Inputs that fail go to python/tests/fuzz/crashes/onnx/; test_onnx_fuzz.py
replays the corpus and the crashes with pytest.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

# imported by main() under atheris' instrumentation, else on first use
reader: Any = None
errors: Any = None

STRUCTURED = 0xFF
# a structured model with more nodes that grow tensors than this is read
# without the run (Tile on Tile could ask for terabytes)
MAX_GROWTH = 2

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


def model_bytes(data: bytes) -> tuple[bytes, bool]:
    """(the model the fuzzer input stands for, whether it may be run)."""
    if data[:1] != bytes([STRUCTURED]):
        return data, _small_inputs(data)
    import atheris
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from onnx_builder import build
    model, growth = build(atheris.FuzzedDataProvider(data[1:]))
    return model, growth <= MAX_GROWTH


def read(data: bytes) -> dict | None:
    """The reader on data: the graph, or None where it raised BridgeError
    (any other exception propagates)."""
    if reader is None:
        _import()
    data, run = model_bytes(data)
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
