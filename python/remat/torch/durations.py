"""Node durations: measured CPU time or a FLOP estimate.

profile: the trace is run in its own order `repeat` times on fresh inputs
and each operation's process CPU time is taken (time.process_time_ns
around the call, so the time other processes take on a shared machine does
not count; on a GPU the wall time around the synchronised call); a remat
node's duration is the sum over its operations of their medians, in
nanoseconds, at least 1.

flops: multiply-adds count two (convolutions and their backward, matrix
products), any other operation the elements it reads or writes, whichever
is more; views count nothing.  At least 1 per remat node.
"""

import statistics

from .fxeval import run_in_order, tensors_of
from .trace import op_name


def _numel(value):
    return sum(t.numel() for t in tensors_of(value))


def _conv_macs(out_numel, weight):
    # each output element takes (C_in / groups) * prod(kernel) products
    return out_numel * (weight.numel() // max(1, weight.shape[0]))


def flop_estimate(node, env, value):
    """FLOPs of one fx node evaluated to value (its inputs are in env)."""
    op = op_name(node)
    args = [env[a] if hasattr(a, "op") else a for a in node.args]
    if op == "getitem":
        return 0
    if op == "aten.convolution":
        out = tensors_of(value)[0]
        bias = out.numel() if args[2] is not None else 0
        return 2 * _conv_macs(out.numel(), args[1]) + bias
    if op == "aten.convolution_backward":
        grad_out, weight = args[0], args[2]
        mask = args[-1] if isinstance(args[-1], (list, tuple)) else (1, 1, 1)
        macs = _conv_macs(grad_out.numel(), weight)
        return (2 * macs * (bool(mask[0]) + bool(mask[1]))
                + (grad_out.numel() if mask[2] else 0))
    if op in ("aten.mm", "aten.addmm", "aten.bmm", "aten.baddbmm"):
        a, b = (args[0], args[1]) if op in ("aten.mm", "aten.bmm") \
            else (args[1], args[2])
        out = tensors_of(value)[0]
        k = a.shape[-1]
        return 2 * out.numel() * k + (out.numel() if op.startswith(
            ("aten.addmm", "aten.baddbmm")) else 0)
    reads = sum(_numel(env[a]) for a in node.all_input_nodes)
    return max(reads, _numel(value))


class FlopCounter:
    """A visitor for analyse(): the FLOP estimate of every fx node."""

    def __init__(self):
        self.flops = {}

    def __call__(self, node, env, value, dt):
        if node.op == "call_function":
            self.flops[node] = flop_estimate(node, env, value)


def profile(trace, make_flat, repeat):
    """Median process CPU time (ns) of every fx node over repeat runs of
    the trace on make_flat()'s inputs.  On a GPU, each operation is
    synchronised, so the time is the kernel's too."""
    import torch
    samples = {}
    sync = torch.cuda.synchronize if any(
        t.is_cuda for t in make_flat() if isinstance(t, torch.Tensor)) \
        else None

    def visit(node, env, value, dt):
        samples.setdefault(node, []).append(dt)

    for _ in range(repeat):
        run_in_order(trace, make_flat(), visit, sync)
    return {n: int(statistics.median(v)) for n, v in samples.items()}


def group_durations(analysis, per_node):
    """Sum a per-fx-node measure over each group; at least 1."""
    out = {}
    for g in analysis.groups:
        out[g.index] = max(1, sum(per_node.get(m, 0) for m in g.members))
    return out
