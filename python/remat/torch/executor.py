"""Running a traced step along a remat schedule.

The schedule is a sequence of graph nodes; a node appearing again is a
recomputation.  Step j runs the fx operations of its node (in trace order)
on the latest copies of its inputs, then drops every copy whose last
reader in the schedule is step j, and its own output at once if nothing
reads it: README "The memory model".  Training splits the schedule at the
grad_out node: the steps before it are the forward call, the steps from
it on the backward call, which starts from the incoming gradients.

Side effects happen once.  Every read of a buffer that functionalize's
copy_ updates sees its value from before the step (a copy taken at the
start); the update writes the real buffer the first time it runs.  Batch
norm updates its running statistics in the real buffers the first time it
runs, and a throwaway copy when recomputed.

Randomness: random operations first run in the order the plain model
draws them (export chains them), so they draw the plain model's numbers;
the generator's state before that first run is kept by their rng_state
node, and a recomputation runs from it again (then puts the generator
back), so it draws the same numbers.

A call without a meter runs each part of the schedule as Python written
for it once (codegen.py: one line per operation and per value dropped); a
call with one runs the same decisions step by step and feeds the meter.
"""

from __future__ import annotations

import operator
from typing import Any, Callable, Optional, Sequence

import torch

from ..errors import BridgeError
from .codegen import segment
from .export import Built
from .fxeval import evaluate, storage_key, tensors_of
from .trace import hidden_writes, written_args


class Program:
    """A schedule (graph node ids) bound to a Built step: the sequence of
    node indices, when each copy is dropped, and where the backward
    starts (``split``; len(seq) for inference)."""

    def __init__(self, built: Built, schedule: Sequence[Any]) -> None:
        graph = built.graph
        nodes = graph["nodes"]
        index = {str(n["id"]): i for i, n in enumerate(nodes)}
        self.ids = [n["id"] for n in nodes]
        try:
            self.seq = [index[str(v)] for v in schedule]
        except KeyError as e:
            raise BridgeError(f"the schedule names unknown node {e.args[0]}")
        preds: list[list[int]] = [[] for _ in nodes]
        for u, v in graph["edges"]:
            preds[index[str(v)]].append(index[str(u)])
        latest = [-1] * len(nodes)
        self.lastuse = [-1] * len(self.seq)
        for j, v in enumerate(self.seq):
            for u in preds[v]:
                i = latest[u]
                if i < 0:
                    raise BridgeError(
                        f"the schedule computes node {self.ids[v]} at step "
                        f"{j + 1} before its input {self.ids[u]}")
                self.lastuse[i] = max(self.lastuse[i], j)
            latest[v] = j
        missing = [self.ids[v] for v in range(len(nodes)) if latest[v] < 0]
        if missing:
            raise BridgeError(f"the schedule never computes node "
                              f"{missing[0]} ({len(missing)} nodes missing)")
        self.free_at: list[list[int]] = [[] for _ in self.seq]
        for i, j in enumerate(self.lastuse):
            self.free_at[max(i, j)].append(i)
        self.split = len(self.seq)
        if built.grad_out is not None:
            steps = [j for j, v in enumerate(self.seq) if v == built.grad_out]
            # grad_out again (not expected: it lives until the sink) only
            # binds the incoming gradients again
            self.split = steps[0]
        self.recomputations = len(self.seq) - len(nodes)


class Call:
    """The state of one step between its forward and backward calls."""

    def __init__(self) -> None:
        self.env: dict[torch.fx.Node, Any] = {}
        self.holder: dict[int, int] = {}    # node -> step of its live copy
        self.done: set[torch.fx.Node] = set()
        self.rng: dict[torch.fx.Node, Any] = {}
        self.results: dict[torch.fx.Node, Any] = {}
        self.real: dict[torch.fx.Node, torch.Tensor] = {}  # written inputs
        self.meter: Optional[Meter] = None
        self.grad_outs: list[torch.Tensor] = []
        # outputs of the latest run of an operation, for the nodes that
        # hold them (split off it), until those run
        self.pending: dict[torch.fx.Node, Any] = {}


class Meter:
    """The executor's own accounting: bytes of the distinct storages of
    the live copies, leaving out fixed memory (parameters, buffers,
    inputs, constants and their views), after each step's operations."""

    def __init__(self, fixed: set[Any]) -> None:
        self.fixed = fixed
        self.live: dict[Any, int] = {}
        self.copy_keys: dict[int, set[Any]] = {}
        self.bytes = 0
        self.memory: list[int] = []

    def add(self, j: int, values: Sequence[Any],
            others: Sequence[Any] = ()) -> None:
        """Step j made values; those in others belong to other nodes."""
        skip = {storage_key(t) for v in others for t in tensors_of(v)}
        keys = set()
        for value in values:
            for t in tensors_of(value):
                k = storage_key(t)
                if k is not None and k not in self.fixed and k not in skip:
                    keys.add(k)
        self.copy_keys[j] = keys
        for k in keys:
            self.live[k] = self.live.get(k, 0) + 1
            if self.live[k] == 1:
                self.bytes += k[1]
        self.memory.append(self.bytes)

    def drop(self, i: int) -> None:
        for k in self.copy_keys.pop(i, ()):
            self.live[k] -= 1
            if self.live[k] == 0:
                del self.live[k]
                self.bytes -= k[1]


def _takes_generator(node: torch.fx.Node) -> bool:
    schema = getattr(node.target, "_schema", None)
    return schema is not None and any(
        a.name == "generator" and a.kwarg_only for a in schema.arguments)


def _rng_state(device: torch.device) -> Any:
    """The state of the generator random operations on device draw from."""
    if device.type == "cuda":
        return torch.cuda.get_rng_state(device)
    return torch.get_rng_state()


def _set_rng_state(state: Any, device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.set_rng_state(state, device)
    else:
        torch.set_rng_state(state)


class Executor:
    """Runs a Program's steps on the values of one call."""

    def __init__(self, built: Built, program: Program,
                 device: torch.device) -> None:
        self.built, self.program, self.device = built, program, device
        trace = self.trace = built.trace
        self.members = built.members
        self.sink = built.sink
        # operations that write an input (a buffer), and where
        self.writes: dict[torch.fx.Node, list[int]] = {}
        for n in trace.nodes:
            if n.op != "call_function":
                continue
            written = written_args(n)
            pos = [i for i, a in enumerate(n.args)
                   if isinstance(a, torch.fx.Node) and a in written]
            pos += list(hidden_writes(n))
            pos = [p for p in pos if n.args[p].op == "placeholder"]
            if pos:
                self.writes[n] = pos
        self.written = {n.args[p] for n, ps in self.writes.items()
                        for p in ps}
        # buffers a later operation may read after an update (copy_):
        # reads see a copy of the value from before the step; batch norm's
        # statistics are only read by batch norm itself (before its update)
        # and its backward (which, training, does not use them)
        self.snapshot = {n.args[p] for n, ps in self.writes.items()
                         for p in ps if p not in hidden_writes(n)}
        self.fixed_aliases = [n for n in trace.nodes
                              if n.op == "call_function"
                              and not any(n in m for m in self.members)]
        self.outputs = set(trace.outputs)
        self.grads = {g for g in trace.grads if g is not None}
        self._generator: Optional[torch.Generator] = None
        self._segments: dict[tuple[int, int], Callable[[dict, Call], None]] = {}
        self.fixed_grads = built.graph.get("grads") == "fixed"
        # outputs of an operation that other nodes hold (memory.py's
        # _split_outputs): the operation's own value drops them, so that
        # they live only as long as those nodes' copies
        node_of = {m: i for i, ms in enumerate(self.members) for m in ms}
        self.split: dict[torch.fx.Node, list[torch.fx.Node]] = {}
        for i, ms in enumerate(self.members):
            for m in ms:
                if m.op == "call_function" and m.target is operator.getitem \
                        and node_of.get(m.args[0], i) != i:
                    self.split.setdefault(m.args[0], []).append(m)

    def start(self, flat: Sequence[Any], meter: bool = False) -> Call:
        """A call on the flat inputs (parameters, state, inputs; not the
        output gradients)."""
        call = Call()
        env = call.env
        for ph, value in zip(self.trace.placeholders, flat):
            if ph in self.written:
                call.real[ph] = value
                if ph in self.snapshot:
                    value = value.clone()
            env[ph] = value
        for n in self.trace.nodes:
            if n.op == "get_attr":
                env[n] = self.trace.get_attr(n)
        for n in self.fixed_aliases:
            env[n] = evaluate(n, env)
        if meter:
            fixed = {storage_key(t) for v in env.values()
                     for t in tensors_of(v)}
            fixed |= {storage_key(t) for t in call.real.values()}
            call.meter = Meter(fixed - {None})
        return call

    def forward(self, call: Call) -> list[Any]:
        """Run the steps before the backward: the step's output tensors."""
        self._run(call, 0, self.program.split)
        return [call.results.get(o, call.env.get(o))
                for o in self.trace.outputs]

    def backward(self, call: Call,
                 grad_outs: Sequence[torch.Tensor]) -> list[Any]:
        """Run the rest from the output gradients: one gradient (or None)
        per entry of trace.grads."""
        call.grad_outs = list(grad_outs)
        self._run(call, self.program.split, len(self.program.seq))
        return [None if g is None else call.results.get(g)
                for g in self.trace.grads]

    def _run(self, call: Call, start: int, stop: int) -> None:
        """Steps start..stop-1: as generated straight-line code (codegen.py)
        unless the call has a meter, which this interpretation feeds."""
        if call.meter is None:
            fn = self._segments.get((start, stop))
            if fn is None:
                fn = self._segments[(start, stop)] = segment(self, start, stop)
            fn(call.env, call)
            return
        prog, env, members = self.program, call.env, self.members
        for j in range(start, stop):
            v = prog.seq[j]
            if v == self.built.grad_out:
                self._bind_grad_outs(call)
            self._take_rng(call, v)
            for m in members[v]:
                if m.op == "call_function":
                    self._evaluate(call, m)
                if m in self.outputs or m in self.grads:
                    call.results[m] = env[m]
            call.holder[v] = j
            if call.meter is not None:
                values = [env[m] for m in members[v]]
                values += [call.rng[m] for m in self.built.rng.get(v, ())
                           if m in call.rng]
                others = []
                if self.fixed_grads:
                    others += [env[m] for m in members[v] if m in self.grads]
                call.meter.add(j, values, others)
            for i in prog.free_at[j]:
                self._release(call, i)

    def _bind_grad_outs(self, call: Call) -> None:
        for ph, g in zip(self.trace.grad_out_nodes(), call.grad_outs):
            call.env[ph] = g

    def _take_rng(self, call: Call, v: int) -> None:
        """The generator's state before the first run of node v's random
        operations (v an rng_state node), taken once."""
        for m in self.built.rng.get(v, ()):
            if m not in call.rng:
                call.rng[m] = _rng_state(self.device)

    def _evaluate(self, call: Call, m: torch.fx.Node) -> None:
        env, again = call.env, m in call.done
        replace = None
        if m in self.writes:
            if again and not hidden_writes(m):
                return                       # copy_ into a buffer: done
            replace = {}
            for p in self.writes[m]:
                real = call.real[m.args[p]]
                replace[p] = real.clone() if again else real
        if m in call.rng and again:
            env[m] = self._replay(m, env, replace, call.rng[m])
            return
        if m in call.pending:
            env[m] = call.pending.pop(m)
        else:
            env[m] = evaluate(m, env, replace)
        if m in self.split:
            value = list(env[m])
            for g in self.split[m]:
                # a recomputation's copy of an output already split off
                # is dropped with the operation's temporaries
                if g not in call.done:
                    call.pending[g] = value[g.args[1]]
                value[g.args[1]] = None
            env[m] = tuple(value)
        call.done.add(m)

    def _replay(self, m: torch.fx.Node, env: dict, replace: Any,
                state: Any) -> Any:
        """Run random operation m again from the generator state before its
        first run: on a generator of its own where the operation takes
        one (the global generator is not touched, nothing is allocated),
        else on the global generator, put back afterwards."""
        if _takes_generator(m):
            if self._generator is None:
                self._generator = torch.Generator(device=self.device)
            self._generator.set_state(state)
            return evaluate(m, env, replace, {"generator": self._generator})
        now = _rng_state(self.device)
        _set_rng_state(state, self.device)
        try:
            return evaluate(m, env, replace)
        finally:
            _set_rng_state(now, self.device)

    def _release(self, call: Call, i: int) -> None:
        v = self.program.seq[i]
        if call.meter is not None:
            call.meter.drop(i)
        if call.holder.get(v) == i:
            del call.holder[v]
            for m in self.members[v]:
                call.env.pop(m, None)
            for m in self.built.rng.get(v, ()):
                call.rng.pop(m, None)


def run_whole(ex: Executor, flat: Sequence[Any],
              grad_outs: Sequence[torch.Tensor],
              meter: bool = False) -> tuple[list[Any], list[Any], Call]:
    """Forward then backward in one go (the CLI's check): (outputs,
    gradients, the call, whose meter holds the memory per step)."""
    call = ex.start(flat, meter)
    outs = ex.forward(call)
    grads = ex.backward(call, grad_outs) if ex.built.grad_out is not None \
        else []
    return outs, grads, call

