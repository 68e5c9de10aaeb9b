"""Builds the package's native part with the Makefile (`make pylib`: the
C library as libremat.so and the remat executable, from the same sources
as the command line) and puts both in the package's _native/ folder.
Everything else is in pyproject.toml."""

import os
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

ROOT = os.path.dirname(os.path.abspath(__file__))
NATIVE = ("libremat.so", "remat")


class BuildNative(build_py):
    """build_py, then `make pylib` and the copies into remat/_native."""

    def run(self) -> None:
        super().run()
        jobs = str(min(os.cpu_count() or 1, 8))
        if subprocess.run(["make", "-C", ROOT, "-j" + jobs, "pylib"]).returncode:
            raise SystemExit(
                "remat: building the C library failed; it needs Debian's "
                "Gecode, CBC and jansson packages: `make deps` (as root) "
                "installs them")
        dest = os.path.join(self.build_lib, "remat", "_native")
        os.makedirs(dest, exist_ok=True)
        for name in NATIVE:
            shutil.copy2(os.path.join(ROOT, "build", "pic", name), dest)


class NativeDistribution(Distribution):
    """A wheel for this platform (the package carries a compiled library)."""

    def has_ext_modules(self) -> bool:
        return True


setup(cmdclass={"build_py": BuildNative}, distclass=NativeDistribution)
