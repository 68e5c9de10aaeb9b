"""Models and their inputs.

MODEL is a torchvision model name (resnet18, vit_b_16, ...), built with
random weights, or FILE.py:FACTORY, a function of no arguments returning an
nn.Module.  The input is one float32 tensor of shape (batch, *--input),
drawn from N(0, 1); training adds an int64 target vector of length batch.

Everything is seeded from --seed: the weights (torch.manual_seed before the
model is built) and the input and target (their own generator), so that
export and run, in different processes, see the same model and data.
"""

import copy
import importlib.util
import os
import random
import time

import torch
import torch.nn.functional as F
from torch.utils._pytree import tree_flatten

from ..errors import BridgeError
from ..cliutil import first_line, shape_text


def seed_all(seed):
    """Seed every random stream a model may draw from."""
    random.seed(seed)
    torch.manual_seed(seed)
    try:
        import numpy
        numpy.random.seed(seed % 2**32)
    except ImportError:
        pass


def _is_factory(name):
    head, sep, _ = name.rpartition(":")
    return bool(sep) and head.endswith(".py")


def _load_factory(spec):
    path, _, fname = spec.rpartition(":")
    if not os.path.isfile(path):
        raise BridgeError(f"{path}: no such file")
    modname = "remat_user_" + os.path.splitext(os.path.basename(path))[0]
    loader = importlib.util.spec_from_file_location(modname, path)
    module = importlib.util.module_from_spec(loader)
    try:
        loader.loader.exec_module(module)
    except Exception as e:
        raise BridgeError(f"{path}: cannot be loaded: {type(e).__name__}: "
                          f"{first_line(e)}")
    factory = getattr(module, fname, None)
    if not callable(factory):
        raise BridgeError(f"{path} has no function {fname!r}")
    try:
        model = factory()
    except Exception as e:
        raise BridgeError(f"{spec}: the factory failed: {type(e).__name__}: "
                          f"{first_line(e)}")
    if not isinstance(model, torch.nn.Module):
        raise BridgeError(f"{spec}: the factory returned {model!r:.40} "
                          f"({type(model).__name__}), not a torch.nn.Module")
    return model


def _load_torchvision(name, shape):
    import torchvision
    names = torchvision.models.list_models()
    if name not in names:
        raise BridgeError(f"unknown model {name!r}: neither a torchvision "
                          "model name (torchvision.models.list_models()) "
                          "nor FILE.py:FACTORY")
    builder = torchvision.models.get_model_builder(name)
    kwargs = {"weights": None}
    # The vision transformers take their image size as a parameter (the
    # position embedding's length): it follows --input when square.
    if name.startswith("vit_") and len(shape) == 3 and shape[1] == shape[2]:
        kwargs["image_size"] = shape[1]
    try:
        return builder(**kwargs)
    except Exception as e:
        raise BridgeError(f"{name}: cannot be built with input "
                          f"{shape_text(shape)}: {first_line(e)}")


class ModelSpec:
    """A model with its seeded weights, input and (when training) target.

    The module itself is never run: traces call it through functional_call
    on copies of its tensors, and the plain reference run uses a deep copy,
    so every run starts from the same weights and buffers."""

    def __init__(self, name, shape, batch, train, seed=0):
        if batch <= 0:
            raise BridgeError(f"--batch {batch}: must be positive")
        self.name, self.shape, self.batch = name, tuple(shape), batch
        self.train, self.seed = train, seed
        seed_all(seed)
        if _is_factory(name):
            self.module = _load_factory(name)
        else:
            self.module = _load_torchvision(name, self.shape)
        self.module.train(train)
        named = list(self.module.named_parameters())
        # Parameters that take a gradient; frozen parameters and buffers are
        # the module's state (fixed memory, never differentiated).
        self.grad_names = [n for n, p in named if p.requires_grad and train]
        grad_set = set(self.grad_names)
        self.state_names = [n for n, _ in named if n not in grad_set]
        self.state_names += [n for n, _ in self.module.named_buffers()]
        tensors = dict(named)
        tensors.update(dict(self.module.named_buffers()))
        self._pristine = {n: t.detach().clone() for n, t in tensors.items()}
        g = torch.Generator().manual_seed(seed + 1)
        self.x = torch.randn((batch,) + self.shape, generator=g)
        self.y = torch.randint(0, 2**30, (batch,), generator=g)

    def kinds(self):
        """The kind of each flat input: param|state|input|target."""
        return (["param"] * len(self.grad_names)
                + ["state"] * len(self.state_names)
                + ["input"] + (["target"] if self.train else []))

    def fixed_bytes(self):
        """(parameter bytes, buffer bytes) of the module."""
        def total(tensors):
            return sum(t.numel() * t.element_size() for t in tensors)
        return (total(self.module.parameters()),
                total(self.module.buffers()))

    def flat_inputs(self):
        """Fresh copies of the traced function's inputs: the parameters that
        take a gradient, the state, the input, and the target if training.
        Returns (tensors, self.kinds())."""
        tensors = [self._pristine[n].clone()
                   for n in self.grad_names + self.state_names]
        tensors.append(self.x.clone())
        if self.train:
            tensors.append(self.y.clone())
        return tensors, self.kinds()

    def plain_module(self):
        """A deep copy of the module with the pristine weights and buffers."""
        m = copy.deepcopy(self.module)
        with torch.no_grad():
            for n, t in list(m.named_parameters()) + list(m.named_buffers()):
                t.copy_(self._pristine[n])
        m.train(self.train)
        return m

    def description(self):
        mode = "train" if self.train else "inference"
        return (f"{self.name} ({mode}, batch {self.batch}, input "
                f"{shape_text(self.shape)})")


def output_tensors(out):
    """The tensors of a model's output (a tensor, tuple, list, dict...)."""
    leaves, _ = tree_flatten(out)
    return [t for t in leaves if isinstance(t, torch.Tensor)]


def loss_of(out, y):
    """The training loss: cross-entropy against y mod C when the model
    returns one (batch, C) tensor (a classifier), else the sum over its
    floating-point outputs of the mean of their squares."""
    leaves = [t for t in output_tensors(out) if t.is_floating_point()]
    if not leaves:
        raise BridgeError("the model's output has no floating-point tensor "
                          "to take a loss of")
    if len(leaves) == 1 and leaves[0].dim() == 2:
        logits = leaves[0]
        return F.cross_entropy(logits, y % logits.shape[1])
    total = None
    for t in leaves:
        term = t.pow(2).mean()
        total = term if total is None else total + term
    return total


def plain_run(spec):
    """The model itself, seeded: (outputs like Trace.outputs, state after
    the run, (wall, process CPU) seconds).  Training: the loss and then the
    gradients."""
    m = spec.plain_module()
    x, y = spec.x.clone(), spec.y.clone()
    seed_all(spec.seed)
    t0, c0 = time.perf_counter(), time.process_time()
    if spec.train:
        params = dict(m.named_parameters())
        plist = [params[n] for n in spec.grad_names]
        loss = loss_of(m(x), y)
        grads = torch.autograd.grad(loss, plist, allow_unused=True)
        outs = [loss.detach()] + [g if g is not None else torch.zeros_like(p)
                                  for g, p in zip(grads, plist)]
    else:
        with torch.no_grad():
            outs = output_tensors(m(x))
    times = (time.perf_counter() - t0, time.process_time() - c0)
    tensors = dict(m.named_parameters())
    tensors.update(dict(m.named_buffers()))
    state = [tensors[n].detach() for n in spec.state_names]
    return outs, state, times


def relative_error(a, b):
    """max |a - b| / max |b| (max |a - b| when b is 0); inf on a shape or
    type mismatch."""
    if a is None or b is None or a.shape != b.shape:
        return float("inf")
    if not a.is_floating_point():
        return 0.0 if torch.equal(a, b) else float("inf")
    d = (a.double() - b.double()).abs().max().item() if a.numel() else 0.0
    s = b.double().abs().max().item() if b.numel() else 0.0
    return d / s if s > 0 else d
