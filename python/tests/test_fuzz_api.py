"""Replays the Python API fuzz target's corpus and its past crashes
(python/tests/fuzz/fuzz_api.py): each input either works or raises
RematError."""

from __future__ import annotations

from pathlib import Path

import pytest

from fuzz.replay import input_id, inputs, target

pytest.importorskip("atheris")

INPUTS = inputs("api")


@pytest.mark.parametrize("path", INPUTS, ids=input_id)
def test_replay(path: Path) -> None:
    target("api").one_input(path.read_bytes())


def test_corpus_is_there() -> None:
    assert len(INPUTS) >= 10
