"""The exceptions of the remat package.

RematError is the base of every error the package raises on purpose; its
message is the one the command line prints (without the "remat CMD: "
prefix).  The command-line entry points turn BridgeError into exit 2 and
CheckFailed into exit 4.
"""

from __future__ import annotations


class RematError(Exception):
    """A problem with the caller's input: bad graph, budget or option (the
    command line's exit 2)."""

    exit_code = 2


class BridgeError(RematError):
    """A problem with a PyTorch or ONNX model the bridge cannot handle: one
    line, exit 2 from remat-torch and remat-onnx."""


class CheckFailed(RematError):
    """A run whose results or memory differ from the plain model's or from
    the memory model (exit 4)."""

    exit_code = 4


class InfeasibleError(RematError):
    """No schedule fits the budget (the command line's exit 3).

    ``result`` is the solve's Result (its best schedule, over budget, if
    any); ``bound`` is the smallest peak proven necessary (the graph's
    min_peak: max over nodes of the node's output plus its inputs) or None.
    """

    exit_code = 3

    def __init__(self, message: str, result: object = None,
                 bound: int | None = None) -> None:
        super().__init__(message)
        self.result = result
        self.bound = bound


class InternalError(RematError):
    """A bug in remat (the command line's exit 4)."""

    exit_code = 4
