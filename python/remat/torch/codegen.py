"""A Program's steps as straight-line Python: the executor without its
interpretation.

Everything the executor decides per step depends on the schedule alone:
which fx operations a step runs, whether an operation runs for the first
time or again, which copies a step drops and whether the copy dropped is
still its node's live one.  ``segment(ex, start, stop)`` decides it once
and writes one Python function for steps start..stop-1 that does what
``Executor._run`` does without a meter: one line per operation
(``env[n] = op(env[a], env[b], ...)``) and one per value dropped.  The
operations whose run depends on more than their arguments keep the
executor's own path (``Executor._evaluate``): those that write an input
(buffer updates), the random ones (a recomputation replays the generator
state), and the multi-output operations split among nodes and their split
outputs.

The fx nodes and constants are bound as the function's globals, so the
source holds no value; it is kept (``__source__``) for reading.
"""

from __future__ import annotations

from typing import Any, Callable

import torch

from .fxeval import _RUN_AS


class _Names:
    """Global names for the objects a generated function uses."""

    def __init__(self) -> None:
        self.env: dict[str, Any] = {}
        self._by_id: dict[int, str] = {}

    def __call__(self, obj: Any, prefix: str) -> str:
        name = self._by_id.get(id(obj))
        if name is None:
            name = f"{prefix}{len(self.env)}"
            self._by_id[id(obj)] = name
            self.env[name] = obj
        return name


class _Unwritten(Exception):
    """An argument this module does not write out (a dict or slice, which
    may hold fx nodes): the operation keeps the executor's path."""


def _arg(value: Any, names: _Names) -> str:
    """Source for one argument: env lookups for fx nodes, tuples and lists
    rebuilt, every other value a global."""
    if isinstance(value, (dict, slice)):
        raise _Unwritten
    if isinstance(value, torch.fx.Node):
        return f"env[{names(value, '_n')}]"
    if isinstance(value, tuple):
        inner = ", ".join(_arg(v, names) for v in value)
        return f"({inner},)" if value else "()"
    if isinstance(value, list):  # fx's immutable_list too
        return "[" + ", ".join(_arg(v, names) for v in value) + "]"
    if isinstance(value, (bool, int)) and not isinstance(value, torch.SymInt):
        return repr(value)
    return names(value, "_c")


def _call(node: torch.fx.Node, names: _Names) -> str:
    fn = names(_RUN_AS.get(node.target, node.target), "_f")
    args = [_arg(a, names) for a in node.args]
    args += [f"{k}={_arg(v, names)}" for k, v in node.kwargs.items()]
    return f"{fn}({', '.join(args)})"


def slow_nodes(ex: Any) -> set[torch.fx.Node]:
    """The fx operations that keep the executor's own path."""
    slow = set(ex.writes)
    for ms in ex.built.rng.values():
        slow.update(ms)
    for m, parts in ex.split.items():
        slow.add(m)
        slow.update(parts)
    return slow


def segment(ex: Any, start: int, stop: int) -> Callable[[dict, Any], None]:
    """``f(env, call)`` running steps start..stop-1 of ex's Program as
    ``Executor._run`` does when the call has no meter."""
    prog, built = ex.program, ex.built
    names = _Names()
    names.env["_ex"] = ex
    slow = slow_nodes(ex)
    keep = ex.outputs | ex.grads
    lines = ["def _segment(env, call):"]
    # the live copy of each node at step j, as the executor's call.holder
    holder: dict[int, int] = {}
    for j in range(stop):
        v = prog.seq[j]
        emit = j >= start
        if emit:
            lines.append(f"    # step {j + 1}: node {prog.ids[v]}")
            if v == built.grad_out:
                lines.append("    _ex._bind_grad_outs(call)")
            if built.rng.get(v):
                lines.append(f"    _ex._take_rng(call, {v})")
            for m in ex.members[v]:
                if m.op == "call_function":
                    n = names(m, "_n")
                    try:
                        line = "" if m in slow else \
                            f"    env[{n}] = {_call(m, names)}"
                    except _Unwritten:
                        line = ""
                    lines.append(line or f"    _ex._evaluate(call, {n})")
                if m in keep:
                    n = names(m, "_n")
                    lines.append(f"    call.results[{n}] = env[{n}]")
        holder[v] = j
        for i in prog.free_at[j]:
            u = prog.seq[i]
            if holder.get(u) != i:
                continue
            del holder[u]
            if not emit:
                continue
            for m in ex.members[u]:
                lines.append(f"    env.pop({names(m, '_n')}, None)")
            for m in built.rng.get(u, ()):
                lines.append(f"    call.rng.pop({names(m, '_n')}, None)")
    if len(lines) == 1:
        lines.append("    pass")
    source = "\n".join(lines) + "\n"
    scope = dict(names.env)
    exec(compile(source, f"<remat step {start + 1}..{stop}>", "exec"), scope)
    fn = scope["_segment"]
    fn.__source__ = source
    return fn

