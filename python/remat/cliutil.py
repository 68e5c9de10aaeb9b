"""Shared plumbing of the entry scripts: one-line error messages and exit
codes (0 success, 2 bad usage or input, 3 a schedule over its budget,
4 internal error or a failed check), never a Python traceback unless
REMAT_DEBUG is set."""

import argparse
import os
import sys
import traceback
import warnings

from .errors import BridgeError, CheckFailed


class Parser(argparse.ArgumentParser):
    """argparse with usage errors as one line and exit code 2."""

    def error(self, message):
        raise BridgeError(message)


def first_line(exc):
    """The first non-empty line of an exception's message."""
    text = str(exc).strip()
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return type(exc).__name__


def run_main(prog, body, argv):
    """Run body(argv) and turn its exceptions into messages and exit codes."""
    debug = bool(os.environ.get("REMAT_DEBUG"))
    if not debug:
        warnings.filterwarnings("ignore")
    try:
        rc = body(argv)
        return 0 if rc is None else rc
    except BridgeError as e:
        if debug:
            traceback.print_exc()
        print(f"{prog}: {e}", file=sys.stderr)
        return 2
    except CheckFailed as e:
        print(f"{prog}: check failed: {e}", file=sys.stderr)
        return 4
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    except MemoryError:
        print(f"{prog}: out of memory", file=sys.stderr)
        return 4
    except Exception as e:  # an internal error: one line, the trace on demand
        if debug:
            traceback.print_exc()
        print(f"{prog}: internal error: {type(e).__name__}: {first_line(e)}"
              " (REMAT_DEBUG=1 shows the traceback)", file=sys.stderr)
        return 4


def parse_shape(text):
    """'3x64x64' -> (3, 64, 64); sizes are positive integers."""
    parts = str(text).lower().split("x")
    try:
        shape = tuple(int(p) for p in parts)
    except ValueError:
        shape = ()
    if not shape or any(s <= 0 for s in shape):
        raise BridgeError(f"--input {text!r}: expected positive sizes "
                          "separated by x, e.g. 3x224x224")
    return shape


def shape_text(shape):
    return "x".join(str(s) for s in shape)


def log(args, message):
    """A progress line on stderr unless --quiet."""
    if not getattr(args, "quiet", False):
        print(message, file=sys.stderr, flush=True)
