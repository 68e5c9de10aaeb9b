"""Replays the ONNX reader's fuzz corpus and its past crashes
(python/tests/fuzz/fuzz_onnx.py): on each input the reader returns a graph
or raises BridgeError, nothing else."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")

FUZZ = Path(__file__).resolve().parent / "fuzz"
INPUTS = sorted(p for d in ("corpus/onnx", "crashes/onnx")
                for p in (FUZZ / d).glob("*") if p.is_file())


def _target():
    spec = importlib.util.spec_from_file_location("fuzz_onnx",
                                                  FUZZ / "fuzz_onnx.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("path", INPUTS,
                         ids=lambda p: p.parent.name + "/" + p.name)
def test_replay(path: Path) -> None:
    target = _target()
    target.one_input(path.read_bytes())    # BridgeError is caught there


def test_corpus() -> None:
    """The seed corpus: valid models read, broken ones are refused."""
    target = _target()
    corpus = sorted((FUZZ / "corpus" / "onnx").glob("*.onnx"))
    assert len(corpus) >= 10
    for p in corpus:
        assert p.stat().st_size < 20 * 1024, p
        g = target.read(p.read_bytes())
        assert (g is not None) == p.name.startswith("valid_"), p.name
