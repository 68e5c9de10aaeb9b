"""Replays the Python API fuzz target's corpus and its past crashes
(python/tests/fuzz/fuzz_api.py): each input either works or raises
RematError."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("atheris")

FUZZ = Path(__file__).resolve().parent / "fuzz"
INPUTS = sorted(p for d in ("corpus/api", "crashes/api")
                for p in (FUZZ / d).glob("*") if p.is_file())


def _target():
    spec = importlib.util.spec_from_file_location("fuzz_api",
                                                  FUZZ / "fuzz_api.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.one_input


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.parent.name + "/" + p.name)
def test_replay(path: Path) -> None:
    _target()(path.read_bytes())


def test_corpus_is_there() -> None:
    assert len(INPUTS) >= 10
