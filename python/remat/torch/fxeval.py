"""Evaluating fx nodes one at a time, and the storages tensors live in.

Two tensors share memory exactly when they share a storage; a storage is
identified by its data pointer while some tensor holds it (its byte count
goes with it, so that empty storages, whose pointer is 0, never match).
"""

import time

import torch
from torch.fx.node import map_arg


def tensors_of(value):
    """The tensors in a node's value (a tensor, or nested tuples/lists)."""
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (tuple, list)):
        out = []
        for v in value:
            out.extend(tensors_of(v))
        return out
    return []


def storage_key(t):
    """(data pointer, bytes) of t's storage; None for an empty storage."""
    s = t.untyped_storage()
    n = s.nbytes()
    return (s.data_ptr(), n) if n else None


def storage_keys(value):
    """The distinct storage keys of a value's tensors."""
    keys = []
    for t in tensors_of(value):
        k = storage_key(t)
        if k is not None and k not in keys:
            keys.append(k)
    return keys


def _bernoulli_into(x, p=0.5, *, generator=None):
    """aten.bernoulli.p as eager dropout runs it: bernoulli_ into a fresh
    tensor like x.  Functionalize turns dropout's in-place draw into the
    functional bernoulli.p, which draws other masks from the same
    generator state (ViT, nn.TransformerEncoderLayer: losses apart from
    the plain model's); this keeps the plain model's masks."""
    return torch.empty_like(x).bernoulli_(p, generator=generator)


# operations run otherwise than their fx target (see each function)
_RUN_AS = {torch.ops.aten.bernoulli.p: _bernoulli_into}


def evaluate(node, env, replace=None, extra=None):
    """Run one call_function node on the values in env.  replace maps
    argument positions to tensors used instead of env's (side effects
    redirected by the executor); extra: keyword arguments added (a
    generator)."""
    if node.op != "call_function":
        raise RuntimeError(f"cannot evaluate fx node {node.name} ({node.op})")
    args = map_arg(node.args, env.__getitem__)
    kwargs = map_arg(node.kwargs, env.__getitem__)
    if extra:
        kwargs = dict(kwargs, **extra)
    if replace:
        args = list(args)
        for i, t in replace.items():
            args[i] = t
    return _RUN_AS.get(node.target, node.target)(*args, **kwargs)


def free_lists(trace):
    """free[i]: the nodes whose last reader in trace order is nodes[i]
    (the outputs and gradients are never freed)."""
    keep = set(trace.outputs) | {g for g in trace.grads if g is not None}
    last = {}
    for i, n in enumerate(trace.nodes):
        for a in n.all_input_nodes:
            last[a] = i
    free = [[] for _ in trace.nodes]
    for a, i in last.items():
        if a not in keep and a.op != "placeholder":
            free[i].append(a)
    return free


def run_in_order(trace, flat, visit=None, sync=None):
    """Evaluate every node in trace order on the flat inputs, freeing each
    value after its last reader.  visit(node, env, value, cpu_ns) is called
    after each node, before anything is freed; cpu_ns is the process CPU
    time the operation took (with sync, e.g. torch.cuda.synchronize: the
    wall time until the device finished it).  Returns the final environment (the outputs
    and the inputs)."""
    env = dict(zip(trace.placeholders, flat))
    free = free_lists(trace)
    clock = time.process_time_ns if sync is None else time.perf_counter_ns
    for i, n in enumerate(trace.nodes):
        if n.op == "placeholder":
            continue
        if n.op == "get_attr":
            value, dt = trace.get_attr(n), 0
        else:
            t0 = clock()
            value = evaluate(n, env)
            if sync is not None:
                sync()
            dt = clock() - t0
        env[n] = value
        if visit is not None:
            visit(n, env, value, dt)
        for a in free[i]:
            del env[a]
    return env
