"""The `remat` command of the Python package: the C command line tool
built with the package (_native/remat), run with the same arguments."""

from __future__ import annotations

import os
import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent


def binary() -> Path:
    """The remat executable: $REMAT_BIN, the package's own, or the source
    tree's build/pic/remat."""
    env = os.environ.get("REMAT_BIN")
    for path in ([Path(env)] if env else
                 [_HERE / "_native" / "remat",
                  _HERE.parent.parent / "build" / "pic" / "remat"]):
        if path.is_file() and os.access(path, os.X_OK):
            return path
    sys.stderr.write("remat: the remat executable is not built (`pip "
                     "install .` builds it; in the source tree, `make "
                     "pylib`)\n")
    raise SystemExit(2)


def main() -> None:
    """Replace this process with the C tool."""
    path = binary()
    os.execv(path, [str(path)] + sys.argv[1:])
