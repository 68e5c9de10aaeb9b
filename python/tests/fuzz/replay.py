"""What the fuzz replay tests share: a target's inputs (its committed
corpus and its past crashes) and the target module itself."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

FUZZ = Path(__file__).resolve().parent


def inputs(name: str) -> list[Path]:
    """corpus/NAME and crashes/NAME, every file, sorted."""
    return sorted(p for d in (f"corpus/{name}", f"crashes/{name}")
                  for p in (FUZZ / d).glob("*") if p.is_file())


def target(name: str) -> ModuleType:
    """fuzz_NAME.py, loaded from its path (it is no package module)."""
    spec = importlib.util.spec_from_file_location(f"fuzz_{name}",
                                                  FUZZ / f"fuzz_{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def input_id(path: Path) -> str:
    """A replay's test id: FOLDER/FILE."""
    return path.parent.name + "/" + path.name
