"""remat.torch.policy: remat's plan as a selective-checkpointing policy, so
that torch.compile (Inductor's fused kernels) runs what remat keeps.

    policy = remat.torch.policy(model, (x,), budget=0.5, loss_fn=loss_fn)
    step = torch.compile(policy.module())
    loss_fn(step(x)).backward()

wrap() runs a plan in remat's own executor, one ATen operation at a time.
A compiled step runs fused kernels, and what it keeps for the backward is
the min-cut partitioner's choice, which honours selective checkpointing's
tags: an operation tagged MUST_SAVE keeps its output from the forward to
the backward, one tagged MUST_RECOMPUTE is computed again in the backward
(where it is first read, once the partitioner has put the backward in
autograd's order).  The policy tags every operation of the forward by
remat's plan: saved where the plan keeps its value from the forward to
the backward, recomputed where the plan computes it again there, left to
the partitioner (PREFER_RECOMPUTE) where the backward does not read it.

What this does not carry over: recomputations the plan puts in the
forward, values it computes twice in the backward, the plan's order of
the backward, and its memory accounting (a fused kernel does not
materialise the values inside it; the partitioner keeps a recomputed
value from the backward's first read of it to its last).  So the compiled
step's peak is not the plan's, and not bounded by the budget: the
allocator's measurement is the one to trust (measure()).

Matching the policy's calls to the plan's operations: the policy sees each
ATen operation of the forward as the compiler traces it, which is the
traced step's order with a few differences (functionalization's extra
views in remat's trace, dropout as one ``native_dropout`` where the eager
trace has ``bernoulli_`` and friends).  So an operation is matched by its
name and its occurrence among the operations of that name, and checked by
its output's shape and dtype; a mismatch resynchronises on the next
occurrence with that shape, and an operation left unmatched is left to the
partitioner.  Views take no part: they allocate nothing, and their bases
carry the tags.  ``Tags`` counts the calls matched and unmatched.
"""

from __future__ import annotations

import functools
import warnings
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

import torch
from torch.utils.checkpoint import (CheckpointPolicy, checkpoint,
                                    create_selective_checkpoint_contexts)

from .executor import Executor
from .fxeval import tensors_of
from .trace import is_random, op_name
from .wrap import Budget, Plan, wrap

SAVE = CheckpointPolicy.MUST_SAVE
RECOMPUTE = CheckpointPolicy.MUST_RECOMPUTE
FREE = CheckpointPolicy.PREFER_RECOMPUTE

# how far past the expected occurrence a shape mismatch looks for its
# operation before giving that call to the partitioner
_RESYNC = 4


# views their schemas do not declare as such: _unsafe_view returns a
# view it calls a new tensor, as_strided_ changes a view's strides in place
_VIEWS = ("aten::_unsafe_view", "aten::as_strided_")

_BATCH_NORM = ("_native_batch_norm_legit", "_native_batch_norm_legit_functional",
               "_native_batch_norm_legit_no_training")


def _name(op: str) -> str:
    """'aten.add_.Tensor' and 'aten.add' -> 'add'."""
    return op.replace("aten.", "").split(".")[0].rstrip("_")


def _is_view(op: Any) -> bool:
    """An ATen view (its output aliases an input it does not write):
    it allocates nothing, so its tag is its base's, left to the
    partitioner."""
    schema = getattr(op, "_schema", None)
    if schema is None:
        return False
    if schema.name in _VIEWS:
        return True
    if any(a.alias_info is not None and a.alias_info.is_write
           for a in schema.arguments):
        return False
    return any(r.alias_info is not None for r in schema.returns)


def _shape(value: Any) -> Optional[tuple]:
    """(shape, dtype) of a value's first tensor (a tuple's first)."""
    ts = tensors_of(value)
    return (tuple(ts[0].shape), ts[0].dtype) if ts else None


@dataclass
class Tags:
    """Per operation name, the fx nodes of the forward in trace order,
    each with its tag and its output's (shape, dtype)."""

    nodes: dict[str, list[tuple[CheckpointPolicy, Optional[tuple]]]]
    saved: int
    recomputed: int
    # calls matched and left unmatched (counted here: torch.compile
    # passes copies of a context_fn's plain arguments)
    matched: int = 0
    unmatched: int = 0


def plan_tags(plan: Plan) -> Tags:
    """The tag of every forward operation of ``plan``'s trace."""
    ex: Executor = plan.executor
    prog = ex.program
    seq, split = prog.seq, prog.split
    forward = set(seq[:split])
    recomputed = forward & set(seq[split:])
    # the copy alive when the backward begins (a node's last forward
    # computation) is read after it: by a backward operation, or by a
    # forward one the plan computes again there
    last = {v: j for j, v in enumerate(seq[:split])}
    read_later = {v for v, j in last.items() if prog.lastuse[j] >= split}
    tag: dict[torch.fx.Node, CheckpointPolicy] = {}
    for v, members in enumerate(ex.members):
        t = (RECOMPUTE if v in recomputed
             else SAVE if v in read_later else FREE)
        for n in members:
            tag[n] = t
    by_name: dict[str, list[tuple[CheckpointPolicy, Optional[tuple]]]] = {}
    for n in ex.trace.nodes:
        if (n.op != "call_function" or op_name(n) == "getitem"
                or _is_view(n.target)):
            continue
        t = tag.get(n, FREE)
        if is_random(n):
            t = _random_tag(n, tag)
        by_name.setdefault(_name(op_name(n)), []).append(
            (t, _shape(n.meta.get("val"))))
    # the eager trace draws dropout's mask with bernoulli_; a compiled
    # forward calls native_dropout, which returns the output and the mask
    if "native_dropout" not in by_name and "bernoulli" in by_name:
        by_name["native_dropout"] = [(t, None)
                                     for t, _ in by_name["bernoulli"]]
    # and batch norm under its functional name
    for legit in _BATCH_NORM:
        if legit not in by_name and "native_batch_norm" in by_name:
            by_name[legit] = by_name["native_batch_norm"]
    saved = sum(1 for ts in by_name.values() for t, _ in ts if t is SAVE)
    again = sum(1 for ts in by_name.values() for t, _ in ts
                if t is RECOMPUTE)
    return Tags(by_name, saved, again)


def _random_tag(node: torch.fx.Node,
                tag: dict[torch.fx.Node, CheckpointPolicy]
                ) -> CheckpointPolicy:
    """A random operation is recomputed where the plan recomputes what
    its draw makes (dropout's mask and the scaled output: its users and
    theirs); otherwise its outputs are saved."""
    near = set(node.users)
    for u in list(near):
        near |= set(u.users)
    if any(tag.get(u) is RECOMPUTE for u in near | {node}):
        return RECOMPUTE
    return SAVE


class _Matcher:
    """One pass over the forward: each call's tag (see the module's
    docstring).  A new one per checkpointed call (torch.compile traces the
    forward more than once)."""

    def __init__(self, tags: Tags) -> None:
        self.tags = tags
        self.next: dict[str, int] = {}

    def _unmatched(self, name: str) -> CheckpointPolicy:
        if not self.tags.unmatched:
            warnings.warn(
                f"remat.torch.policy: the compiled forward's {name} matches "
                "no operation of the plan (called with other inputs than "
                "the planned ones?); such operations are left to the "
                "partitioner (policy.tags.unmatched counts them)",
                stacklevel=2)
        self.tags.unmatched += 1
        return FREE

    def __call__(self, ctx: Any, op: Any, *args: Any,
                 **kwargs: Any) -> CheckpointPolicy:
        if _is_view(op):
            return FREE
        name = _name(str(op))
        known = self.tags.nodes.get(name)
        out = _shape(getattr(ctx, "op_output", None))
        if out is not None and 0 in out[0]:
            return FREE                 # an empty tensor (a reserve)
        i = self.next.get(name, 0)
        if not known or i >= len(known):
            return self._unmatched(name)
        j, end = i, min(len(known), i + _RESYNC)
        if out is not None:
            while j < end and known[j][1] not in (None, out):
                j += 1
            if j == end:
                return self._unmatched(name)
        self.next[name] = j + 1
        self.tags.matched += 1
        return known[j][0]


def _contexts(tags: Tags) -> Any:
    return create_selective_checkpoint_contexts(_Matcher(tags))


@dataclass
class Policy:
    """remat's plan as selective-checkpointing tags (see the module's
    docstring).

    plan: the plan the tags come from (wrap()'s; its peak is remat's
    prediction for remat's executor, not for a compiled step).  tags: per
    operation name, the forward's tags, and the calls matched and left
    unmatched so far (the compiler calls the policy while it traces).
    """

    plan: Plan
    tags: Tags
    model: torch.nn.Module

    @property
    def context_fn(self) -> Callable[[], Any]:
        """For ``torch.utils.checkpoint.checkpoint(..., use_reentrant=False,
        context_fn=policy.context_fn)`` around the planned module's call."""
        return functools.partial(_contexts, self.tags)

    def module(self) -> torch.nn.Module:
        """The model, its call checkpointed with these tags: compile it."""
        return _Checkpointed(self.model, self.context_fn)


class _Checkpointed(torch.nn.Module):
    def __init__(self, module: torch.nn.Module,
                 context_fn: Callable[[], Any]) -> None:
        super().__init__()
        self.module, self.context_fn = module, context_fn

    def forward(self, *args: Any) -> Any:
        if not torch.is_grad_enabled():
            return self.module(*args)
        return checkpoint(self.module, *args, use_reentrant=False,
                          context_fn=self.context_fn)


def policy(model: torch.nn.Module, example_inputs: Sequence[torch.Tensor],
           budget: Budget, loss_fn: Optional[Callable[..., Any]] = None,
           time_limit: float = 30, **options: Any) -> Policy:
    """Plan ``model``'s step as wrap() does (the same arguments and
    options) and return the plan's tags for torch.compile.  The plan's
    budget is for remat's executor: a compiled step with these tags keeps
    what the plan keeps, but its peak is its own (see the module's
    docstring): measure it."""
    wrapped = wrap(model, example_inputs, budget, loss_fn, time_limit,
                   **options)
    plan = wrapped.plan
    assert plan is not None
    return Policy(plan, plan_tags(plan), model)
