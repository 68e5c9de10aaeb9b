"""The ATen-level trace of one training (or inference) step.

Two passes of make_fx (torch.fx.experimental.proxy_tensor), both on real
tensors:

1. the step itself: the forward under autograd, then torch.autograd.grad
   of its differentiable outputs against incoming output gradients (the
   ``grad_out`` inputs).  make_fx records every ATen operation dispatched
   below autograd, so the backward operations, and the tensors they read,
   are the ones autograd really runs.  In-place operations stay in place.
2. that graph again under torch.func.functionalize: in-place operations on
   activations become out-of-place ones, and updates of inputs (buffers)
   become copy_ nodes at the end.

The flat inputs of the traced function are, in order: the parameters that
take a gradient ("param"), the module's other parameters and buffers
("state"), the model's inputs and the loss's targets ("input"), then one
incoming gradient per differentiable output ("grad_out", training only).

A forward whose operations depend on tensor values (Python control flow on
a tensor, .item(), ...) cannot be traced: make_fx refuses to read a value,
and the model is refused with a BridgeError naming the problem.
"""

from __future__ import annotations

import contextlib
import operator
from typing import Any, Callable, Iterator, Optional, Sequence

import torch
from torch.fx.experimental.proxy_tensor import make_fx
from torch.func import functional_call, functionalize
from torch.utils._pytree import tree_flatten

from ..cliutil import first_line
from ..errors import BridgeError

DATA_DEPENDENT = "get value out of a tracing tensor"
DATA_DEPENDENT_END = ", so no fixed graph describes it"


def op_name(node: torch.fx.Node) -> str:
    """'aten.convolution' for an ATen call, 'getitem' for tuple indexing."""
    target = node.target
    if isinstance(target, torch._ops.OpOverload):
        return str(target.overloadpacket)
    if target is operator.getitem:
        return "getitem"
    return getattr(target, "__name__", str(target))


def _schema(node: torch.fx.Node) -> Any:
    target = node.target
    if isinstance(target, torch._ops.OpOverload):
        return target._schema
    return None


def _arg(node: torch.fx.Node, i: int, name: str) -> Any:
    if i < len(node.args):
        return node.args[i]
    return node.kwargs.get(name)


def written_args(node: torch.fx.Node) -> list[torch.fx.Node]:
    """The fx nodes an operation writes in place, by its schema."""
    schema = _schema(node)
    if schema is None:
        return []
    out = []
    for i, a in enumerate(schema.arguments):
        if a.alias_info is not None and a.alias_info.is_write:
            v = _arg(node, i, a.name)
            if isinstance(v, torch.fx.Node):
                out.append(v)
    return out


# The batch norms update their running statistics (arguments 3 and 4) in
# place when training although their schemas do not say so, so
# functionalize leaves them alone.
HIDDEN_WRITES = {"aten.native_batch_norm": (3, 4),
                 "aten.cudnn_batch_norm": (3, 4),
                 "aten.miopen_batch_norm": (3, 4)}


def hidden_writes(node: torch.fx.Node) -> tuple[int, ...]:
    """Argument positions an operation writes without its schema saying so."""
    if node.op != "call_function":
        return ()
    positions = HIDDEN_WRITES.get(op_name(node), ())
    if not positions or not _arg(node, 5, "training"):
        return ()
    return tuple(p for p in positions
                 if isinstance(_arg(node, p, ""), torch.fx.Node))


def is_random(node: torch.fx.Node) -> bool:
    """Operations that draw from the random generator (dropout's bernoulli,
    rand, randn, the fused attentions' dropout, ...): taking a Generator,
    or tagged nondeterministic_seeded, except where the tag is not a draw:
    an operation given the draw's seed and offset (the fused attentions'
    backward replays its forward's dropout from them), and one whose
    dropout_p is 0 (the fused attentions draw only for a dropout)."""
    schema = _schema(node)
    if schema is None:
        return False
    names = [a.name for a in schema.arguments]
    if any("Generator" in str(a.type) for a in schema.arguments):
        return True
    tags = getattr(node.target, "tags", ()) or ()
    if not any(str(t).endswith("nondeterministic_seeded") for t in tags):
        return False
    if "philox_seed" in names and "philox_offset" in names:
        return False
    if "dropout_p" in names:
        p = _arg(node, names.index("dropout_p"), "dropout_p")
        if isinstance(p, (int, float)) and p == 0:
            return False
    return True


@contextlib.contextmanager
def preserved_rng(device: torch.device):
    """Run a block without moving the random generators (CPU, and the
    device's when it is a GPU): tracing and profiling draw numbers that
    the plain model's next step must draw again."""
    cpu = torch.get_rng_state()
    gpu = None
    if device.type == "cuda":
        gpu = torch.cuda.get_rng_state(device)
    try:
        yield
    finally:
        torch.set_rng_state(cpu)
        if gpu is not None:
            torch.cuda.set_rng_state(gpu, device)


class StepSpec:
    """What is traced: a module, its example inputs, and the loss.

    The traced function calls ``module(*inputs)`` with the given parameters
    and buffers, then, if ``loss_fn`` is given, ``loss_fn(output,
    *targets)``; its output is what the step returns.  ``train``: the
    backward is traced too, from one incoming gradient per differentiable
    output.
    """

    def __init__(self, module: torch.nn.Module, inputs: Sequence[Any],
                 train: bool = True,
                 loss_fn: Optional[Callable[..., Any]] = None,
                 targets: Sequence[Any] = (),
                 name: Optional[str] = None,
                 description: Optional[str] = None) -> None:
        self.module, self.train, self.loss_fn = module, train, loss_fn
        self.inputs, self.targets = tuple(inputs), tuple(targets)
        self.name = name or type(module).__name__
        self.description = description or self.name
        named = list(module.named_parameters())
        self.grad_names = [n for n, p in named if p.requires_grad and train]
        gset = set(self.grad_names)
        self.state_names = [n for n, _ in named if n not in gset]
        self.state_names += [n for n, _ in module.named_buffers()]
        args = self.inputs + self.targets
        # inputs that take a gradient: floating tensors that require one
        self.grad_inputs = [i for i, a in enumerate(self.inputs)
                            if train and isinstance(a, torch.Tensor)
                            and a.requires_grad]
        self.tensor_args = [i for i, a in enumerate(args)
                            if isinstance(a, torch.Tensor)]

    def tensors(self) -> tuple[list[torch.Tensor], list[torch.Tensor]]:
        """The module's (grad parameters, state tensors) in trace order."""
        d = dict(self.module.named_parameters())
        d.update(dict(self.module.named_buffers()))
        return ([d[n] for n in self.grad_names],
                [d[n] for n in self.state_names])

    def call(self, tensors: dict[str, torch.Tensor],
             args: Sequence[Any]) -> Any:
        """The step's output for the given parameters/buffers and args."""
        n = len(self.inputs)
        out = functional_call(self.module, tensors, tuple(args[:n]))
        if self.loss_fn is not None:
            out = self.loss_fn(out, *args[n:])
        return out


class Trace:
    """A step's functional fx graph at the ATen level.

    nodes          live fx nodes in trace order (placeholders first)
    placeholders   one per flat input; kinds gives param|state|input|grad_out
    outputs        the fx nodes of the step's tensor outputs (flat)
    grads          one fx node (or None: no gradient) per parameter in
                   spec.grad_names, then per input in spec.grad_inputs
    out_spec       the output's pytree structure; out_leaves the example
                   output's leaves (non-tensor leaves are returned as is)
    diff_outputs   positions in outputs of the differentiable ones (one
                   grad_out placeholder each, in that order)
    random         fx nodes that draw random numbers
    """

    def __init__(self, spec: StepSpec, gm: torch.fx.GraphModule,
                 kinds: list[str], n_outputs: int, grad_mask: list[bool],
                 out_spec: Any, out_leaves: list[Any],
                 diff_outputs: list[int]) -> None:
        self.spec, self.gm = spec, gm
        graph = gm.graph
        out_node = next(n for n in graph.nodes if n.op == "output")
        outs = list(out_node.args[0])
        self.outputs = outs[:n_outputs]
        grads = iter(outs[n_outputs:])
        self.grads = [next(grads) if m else None for m in grad_mask]
        self._eliminate_dead_code(graph, out_node)
        self.nodes = [n for n in graph.nodes if n.op != "output"]
        self.placeholders = [n for n in self.nodes if n.op == "placeholder"]
        if len(kinds) != len(self.placeholders):
            raise RuntimeError("the trace's inputs do not match the step's")
        self.kinds = dict(zip(self.placeholders, kinds))
        self.position = {n: i for i, n in enumerate(self.nodes)}
        self.random = {n for n in self.nodes if is_random(n)}
        self.out_spec, self.out_leaves = out_spec, out_leaves
        self.diff_outputs = diff_outputs

    @staticmethod
    def _eliminate_dead_code(graph: torch.fx.Graph,
                             out_node: torch.fx.Node) -> None:
        """Drop nodes neither the outputs nor a side effect needs.  A
        random operation is one: it advances its generator, so the plain
        model's later draws depend on it even where nothing reads it (an
        auxiliary head's dropout, the loss taking the main output)."""
        keep, stack = set(), [out_node]
        for n in graph.nodes:
            if n.op == "call_function" and (written_args(n)
                                            or hidden_writes(n)
                                            or is_random(n)):
                stack.append(n)
        while stack:
            n = stack.pop()
            if n in keep:
                continue
            keep.add(n)
            stack.extend(n.all_input_nodes)
        for n in reversed(list(graph.nodes)):
            if n not in keep and n.op != "placeholder":
                graph.erase_node(n)

    def get_attr(self, node: torch.fx.Node) -> Any:
        value: Any = self.gm
        for part in node.target.split("."):
            value = getattr(value, part)
        return value

    def grad_out_nodes(self) -> list[torch.fx.Node]:
        return [p for p in self.placeholders if self.kinds[p] == "grad_out"]


def _detached_copies(tensors: Sequence[torch.Tensor],
                     grad: bool) -> list[torch.Tensor]:
    out = []
    for t in tensors:
        c = t.detach().clone()
        if grad and c.is_floating_point():
            c.requires_grad_()
        out.append(c)
    return out


def _probe(spec: StepSpec, params: list[torch.Tensor],
           state: list[torch.Tensor], args: list[Any]) -> tuple[Any, ...]:
    """Run the step once (on copies) for its output's structure: (spec,
    leaves, positions of the differentiable tensor leaves)."""
    tensors = dict(zip(spec.grad_names, _detached_copies(params, True)))
    tensors.update(zip(spec.state_names, _detached_copies(state, False)))
    with torch.set_grad_enabled(spec.train):
        out = spec.call(tensors, args)
    leaves, out_spec = tree_flatten(out)
    tensor_pos = [i for i, t in enumerate(leaves)
                  if isinstance(t, torch.Tensor)]
    diff = [k for k, i in enumerate(tensor_pos) if leaves[i].requires_grad]
    return out_spec, leaves, tensor_pos, diff


def trace_step(spec: StepSpec) -> Trace:
    """Trace spec's step; bad models and inputs raise BridgeError.

    A step that reads a value of a buffer it never writes (nn.Transformer
    asks whether its mask is causal) is traced again with such buffers as
    constants: their values are then known while tracing."""
    try:
        return _trace_step(spec, frozenset())
    except BridgeError as e:
        if not str(e).endswith(DATA_DEPENDENT_END):
            raise
        constants = _unwritten_buffers(spec)
        if not constants:
            raise
        with _mask_hints_read():
            return _trace_step(spec, constants)


@contextlib.contextmanager
def _mask_hints_read() -> Iterator[None]:
    """nn.Transformer's layers ask whether their attention mask is the
    causal one (a value read the tracer refuses): read it from the real
    tensor instead.  Only while tracing with constant buffers, where the
    mask is one of them or made from them, so the answer holds for every
    call."""
    from torch.fx.experimental.proxy_tensor import disable_proxy_modes_tracing
    from torch.nn.modules import transformer
    detect = transformer._detect_is_causal_mask

    def read(mask: Any, is_causal: Any = None, size: Any = None) -> bool:
        if is_causal is None and mask is not None:
            with disable_proxy_modes_tracing():
                return detect(mask, None, size)
        return detect(mask, is_causal, size)

    transformer._detect_is_causal_mask = read
    try:
        yield
    finally:
        transformer._detect_is_causal_mask = detect


def _unwritten_buffers(spec: StepSpec) -> frozenset[int]:
    """Positions in spec.state_names of the buffers one run of the step
    (on copies) leaves as they were."""
    params, state = spec.tensors()
    copies = _detached_copies(state, False)
    tensors = dict(zip(spec.grad_names, _detached_copies(params, True)))
    tensors.update(zip(spec.state_names, copies))
    try:
        with preserved_rng(_device_of(params + state)):
            with torch.set_grad_enabled(spec.train):
                spec.call(tensors, list(spec.inputs + spec.targets))
    except Exception:
        return frozenset()
    buffers = {n for n, _ in spec.module.named_buffers()}
    return frozenset(k for k, (n, a, b) in
                     enumerate(zip(spec.state_names, state, copies))
                     if n in buffers and a.shape == b.shape
                     and torch.equal(a, b))


def _trace_step(spec: StepSpec, constants: frozenset[int]) -> Trace:
    """trace_step with the state tensors at positions ``constants`` read
    as constants (their real values) instead of graph inputs."""
    if spec.train and not spec.grad_names and not spec.grad_inputs:
        raise BridgeError(f"{spec.name} has no parameter that takes a "
                          "gradient: nothing to train")
    params, state = spec.tensors()
    args = list(spec.inputs + spec.targets)
    device = _device_of(params + state + [a for a in args
                                          if isinstance(a, torch.Tensor)])
    ng, ns, na = len(params), len(state), len(args)
    grad_mask: list[bool] = []
    try:
        with preserved_rng(device), _one_meta_mode():
            out_spec, leaves, tensor_pos, diff = _probe(spec, params, state,
                                                        args)
            n_out = len(tensor_pos)

            def step(*flat: Any) -> list[Any]:
                p = list(flat[:ng])
                d = dict(zip(spec.grad_names, p))
                st = [state[k] if k in constants else t
                      for k, t in enumerate(flat[ng:ng + ns])]
                d.update(zip(spec.state_names, st))
                a = list(flat[ng + ns:ng + ns + na])
                gouts = list(flat[ng + ns + na:])
                with torch.set_grad_enabled(spec.train):
                    out = spec.call(d, a)
                    ls, _ = tree_flatten(out)
                    ts = [ls[i] for i in tensor_pos]
                    if not spec.train:
                        return ts
                    wrt = p + [a[i] for i in spec.grad_inputs]
                    gs = torch.autograd.grad([ts[k] for k in diff], wrt,
                                             gouts, allow_unused=True)
                grad_mask[:] = [g is not None for g in gs]
                return ([t.detach() for t in ts]
                        + [g for g in gs if g is not None])

            flat = _detached_copies(params, spec.train)
            flat += _detached_copies(state, False)
            for i, a in enumerate(args):
                if isinstance(a, torch.Tensor):
                    a = a.detach().clone()
                    if i in spec.grad_inputs:
                        a.requires_grad_()
                flat.append(a)
            gouts = []
            if spec.train:
                ts = [leaves[i] for i in tensor_pos]
                gouts = [torch.ones_like(ts[k]) for k in diff]
            gm1 = make_fx(step)(*flat, *gouts)
            plain = [t.detach() if isinstance(t, torch.Tensor) else t
                     for t in flat]
            gm = make_fx(functionalize(gm1, remove="mutations"))(*plain,
                                                                 *gouts)
    except BridgeError:
        raise
    except Exception as e:
        raise _trace_error(spec, e)
    kinds = (["param"] * ng + ["state"] * ns + ["input"] * na
             + ["grad_out"] * len(gouts))
    trace = Trace(spec, gm, kinds, n_out, grad_mask, out_spec, leaves,
                  diff)
    if not trace.outputs:
        raise BridgeError(f"{spec.name} returns no tensor")
    return trace


@contextlib.contextmanager
def _one_meta_mode() -> Iterator[None]:
    """make_fx on real tensors gives each traced value its metadata (the
    node's meta "val") as an empty tensor made under a FakeTensorMode, and
    makes a new mode for each; a mode records the Python stack when made
    (traceback.extract_stack): a large share of the tracing time, and a
    stack summary kept alive per node.  One mode, made here, serves every
    value of the trace: what is recorded (shapes, strides, dtypes) is the
    same.  Where proxy_tensor has no such name, nothing changes."""
    from torch.fx.experimental import proxy_tensor
    from torch._subclasses.fake_tensor import FakeTensorMode
    made = getattr(proxy_tensor, "FakeTensorMode", None)
    if made is not FakeTensorMode:
        yield
        return
    shared = FakeTensorMode(allow_fallback_kernels=True)

    def one(**kwargs: Any) -> FakeTensorMode:
        # extract_val's call; any other (fake or symbolic tracing, which
        # the step does not use) gets a mode of its own as before
        if kwargs == {"allow_fallback_kernels": True}:
            return shared
        return FakeTensorMode(**kwargs)

    proxy_tensor.FakeTensorMode = one
    try:
        yield
    finally:
        proxy_tensor.FakeTensorMode = made


def _device_of(tensors: Sequence[torch.Tensor]) -> torch.device:
    for t in tensors:
        if t.device.type != "cpu":
            return t.device
    return torch.device("cpu")


def _trace_error(spec: StepSpec, e: Exception) -> BridgeError:
    text = str(e)
    if DATA_DEPENDENT in text or "data-dependent" in text:
        return BridgeError(
            f"{spec.name} cannot be traced: its forward depends on the "
            "values of tensors (Python control flow on a tensor, .item(), "
            ".tolist(), ...)" + DATA_DEPENDENT_END)
    return BridgeError(f"{spec.description} fails: "
                       f"{type(e).__name__}: {first_line(e)}")
