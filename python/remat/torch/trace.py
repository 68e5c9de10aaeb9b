"""The ATen-level trace of a model.

make_fx (torch.fx.experimental.proxy_tensor) runs a function on real
tensors and records every ATen operation it dispatches as an fx graph;
functionalize (functorch) rewrites in-place operations on activations as
out-of-place ones and defers the updates of inputs (buffers) to copy_ nodes
at the end.

Inference traces the model's forward (eval mode, no autograd).  Training
traces one function that runs the forward, the loss and the gradient with
respect to every parameter (functorch.grad_and_value), so the backward
operations, and the tensors they read, are the ones autograd really runs.

A forward whose operations depend on tensor values (Python control flow on
a tensor, .item(), ...) cannot be traced: make_fx refuses to read a value,
and the model is refused with a message.
"""

import contextlib
import functools
import operator

import torch
from torch.fx.experimental.proxy_tensor import make_fx
from torch.nn.utils.stateless import functional_call

import functorch
from functorch.experimental import functionalize

from ..errors import BridgeError
from ..cliutil import first_line
from .models import loss_of, output_tensors

DATA_DEPENDENT = "get value out of a tracing tensor"


def op_name(node):
    """'aten.convolution' for an ATen call, 'getitem' for tuple indexing."""
    target = node.target
    if isinstance(target, torch._ops.OpOverload):
        return str(target.overloadpacket)
    if target is operator.getitem:
        return "getitem"
    return getattr(target, "__name__", str(target))


def _schema(node):
    target = node.target
    if isinstance(target, torch._ops.OpOverload):
        return target._schema
    return None


def _arg(node, i, name):
    if i < len(node.args):
        return node.args[i]
    return node.kwargs.get(name)


def written_args(node):
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


# native_batch_norm updates its running statistics in place although its
# schema does not say so (PyTorch 1.13), so functionalize leaves it alone.
HIDDEN_WRITES = {"aten.native_batch_norm": (3, 4)}


def hidden_writes(node):
    """Argument positions an operation writes without its schema saying so."""
    if node.op != "call_function":
        return ()
    positions = HIDDEN_WRITES.get(op_name(node), ())
    if not positions or not _arg(node, 5, "training"):
        return ()
    return tuple(p for p in positions
                 if isinstance(_arg(node, p, ""), torch.fx.Node))


def is_random(node):
    """Operations that draw from the random generator (dropout's bernoulli,
    rand, randn, ...): tagged nondeterministic_seeded or taking a Generator."""
    schema = _schema(node)
    if schema is None:
        return False
    tags = getattr(node.target, "tags", ()) or ()
    if any(str(t).endswith("nondeterministic_seeded") for t in tags):
        return True
    return any("Generator" in str(a.type) for a in schema.arguments)


class Trace:
    """A model's fx graph at the ATen level.

    nodes          live fx nodes in trace order (placeholders first)
    placeholders   one per flat input (ModelSpec.flat_inputs order)
    kinds          placeholder -> param|state|input|target
    outputs        the returned fx nodes: the model's output tensors
                   (inference) or the loss then one gradient per
                   parameter in spec.grad_names (training)
    loss_index     position in nodes of the loss (training), else None
    """

    def __init__(self, spec, gm):
        self.spec, self.gm = spec, gm
        graph = gm.graph
        out_node = next(n for n in graph.nodes if n.op == "output")
        outs = out_node.args[0]
        if not isinstance(outs, (tuple, list)):
            outs = (outs,)
        self.outputs = [o for o in outs if isinstance(o, torch.fx.Node)]
        self._eliminate_dead_code(graph, out_node)
        self.nodes = [n for n in graph.nodes if n.op != "output"]
        self.placeholders = [n for n in self.nodes if n.op == "placeholder"]
        kinds = spec.kinds()
        if len(kinds) != len(self.placeholders):
            raise RuntimeError("the trace's inputs do not match the model's")
        self.kinds = dict(zip(self.placeholders, kinds))
        self.position = {n: i for i, n in enumerate(self.nodes)}
        self.loss_index = (self.position[self.outputs[0]]
                           if spec.train else None)
        self.random = {n for n in self.nodes if is_random(n)}

    def _eliminate_dead_code(self, graph, out_node):
        """Drop nodes neither the outputs nor a side effect needs."""
        keep, stack = set(), [out_node]
        for n in graph.nodes:
            if n.op == "call_function" and (written_args(n) or hidden_writes(n)):
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

    def get_attr(self, node):
        return functools.reduce(getattr, node.target.split("."), self.gm)

    def grad_outputs(self):
        """(parameter name, fx node) of every gradient (training)."""
        if not self.spec.train:
            return []
        return list(zip(self.spec.grad_names, self.outputs[1:]))


def _traced_function(spec):
    module = spec.module
    gnames, snames = spec.grad_names, spec.state_names
    ng, ns = len(gnames), len(snames)

    if spec.train:
        def f(*flat):
            params = dict(zip(gnames, flat[:ng]))
            state = dict(zip(snames, flat[ng:ng + ns]))
            x, y = flat[ng + ns], flat[ng + ns + 1]

            # the state, input and target are arguments, not captured:
            # functorch refuses in-place updates of captured tensors
            def loss_fn(p, s, x, y):
                d = dict(p)
                d.update(s)
                return loss_of(functional_call(module, d, (x,)), y)

            grads, loss = functorch.grad_and_value(loss_fn)(params, state,
                                                            x, y)
            return (loss,) + tuple(grads[n] for n in gnames)
    else:
        def f(*flat):
            d = dict(zip(snames, flat[:ns]))
            out = functional_call(module, d, (flat[ns],))
            return tuple(output_tensors(out))
    return f


def trace_model(spec):
    """Trace spec's model; bad models and inputs raise BridgeError."""
    if spec.train and not spec.grad_names:
        raise BridgeError(f"{spec.name} has no parameter that takes a "
                          "gradient: nothing to train")
    flat, _ = spec.flat_inputs()
    f = _traced_function(spec)
    guard = contextlib.nullcontext() if spec.train else torch.no_grad()
    try:
        with guard:
            gm = make_fx(functionalize(f))(*flat)
    except BridgeError:
        raise
    except Exception as e:
        if DATA_DEPENDENT in str(e):
            raise BridgeError(
                f"{spec.name} cannot be traced: its forward depends on the "
                "values of tensors (Python control flow on a tensor, .item(), "
                ".tolist(), ...), so no fixed graph describes it")
        raise BridgeError(f"{spec.description()} fails: "
                          f"{type(e).__name__}: {first_line(e)}")
    trace = Trace(spec, gm)
    if not trace.outputs:
        raise BridgeError(f"{spec.name} returns no tensor")
    return trace
