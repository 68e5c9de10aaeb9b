"""Replays the ONNX reader's fuzz corpus and its past crashes
(python/tests/fuzz/fuzz_onnx.py): on each input the reader returns a graph
or raises BridgeError, nothing else."""

from __future__ import annotations

from pathlib import Path

import pytest

from fuzz.replay import FUZZ, input_id, inputs, target

pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")

INPUTS = inputs("onnx")


def _target():
    return target("onnx")


@pytest.mark.parametrize("path", INPUTS, ids=input_id)
def test_replay(path: Path) -> None:
    data = path.read_bytes()
    if data[:1] == b"\xff":      # structured: atheris' data provider
        pytest.importorskip("atheris")
    _target().one_input(data)   # BridgeError is caught there


def test_corpus() -> None:
    """The seed corpus: valid models read, broken ones are refused."""
    target = _target()
    corpus = sorted((FUZZ / "corpus" / "onnx").glob("*.onnx"))
    assert len(corpus) >= 10
    for p in corpus:
        assert p.stat().st_size < 20 * 1024, p
        g = target.read(p.read_bytes())
        assert (g is not None) == p.name.startswith("valid_"), p.name
