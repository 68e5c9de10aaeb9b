"""What the torch benchmarks share: the training step, its timing and
measured peak, a plain run against a wrapped one, and the wrapped model's
plan read back as plain numbers.

A training step is: forward, the loss, backward, one SGD step; the
gradients are set to None before it (outside the measured step), so every
step allocates its gradients afresh, plain or wrapped alike.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable, Optional

os.environ.setdefault("KINETO_LOG_LEVEL", "5")  # the profiler's chatter

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if os.path.isdir(os.path.join(ROOT, "python", "remat")):
    sys.path.insert(0, os.path.join(ROOT, "python"))

import torch  # noqa: E402
from torch import nn  # noqa: E402

from remat.torch import zoo  # noqa: E402
from remat.torch.measure import Measurement, measure  # noqa: E402

LR = 0.01
MiB = 2 ** 20

# The benchmarks' own set-ups, beside the zoo's: sizes for a GPU, too slow
# for the CPU tests that walk the zoo.  gpt2_small: GPT-2 small's shape (12
# layers, width 768, 12 heads, 1,024 positions, 50,257 tokens; about 124
# million parameters), batch zoo.BATCH.
zoo.ENTRIES.setdefault("gpt2_small", zoo.ZooEntry(
    "GPT", lambda: zoo.gpt(n_layers=12, d_model=768, n_heads=12,
                           seq_len=1024, vocab=50257),
    (1024,), kind="tokens", classes=50257, slow=True))


def first_tensor(out: Any) -> torch.Tensor:
    """The first tensor of a model's output (Inception's and GoogLeNet's
    training outputs are named tuples with the logits first)."""
    if isinstance(out, torch.Tensor):
        return out
    if isinstance(out, dict):
        out = list(out.values())
    for item in out:
        return first_tensor(item)
    raise TypeError(f"no tensor in the model's output {type(out).__name__}")


class Trainer:
    """One model (plain or wrapped) with its SGD optimizer over `params`;
    loss_fn None: the model returns the loss itself (a model wrapped with
    its loss_fn)."""

    def __init__(self, model: nn.Module, params: list[nn.Parameter],
                 inputs: tuple[torch.Tensor, ...],
                 loss_fn: Optional[Callable[[Any], torch.Tensor]]) -> None:
        self.model, self.inputs, self.loss_fn = model, inputs, loss_fn
        self.opt = torch.optim.SGD(params, lr=LR)

    def step(self, seed: int = 0) -> torch.Tensor:
        """Forward, loss, backward, SGD step under torch.manual_seed(seed);
        returns the loss (detached)."""
        torch.manual_seed(seed)
        out = self.model(*self.inputs)
        loss = out if self.loss_fn is None else self.loss_fn(first_tensor(out))
        loss.backward()
        self.opt.step()
        return loss.detach()

    def measured(self, device: Any, seed: int = 0) -> Measurement:
        """One step under measure(), gradients set to None before it."""
        self.opt.zero_grad(set_to_none=True)
        return measure(lambda: self.step(seed), device)

    def median_time(self, reps: int, seed: int = 0) -> float:
        """The median wall time of `reps` steps, no profiler running."""
        times = []
        for _ in range(reps):
            self.opt.zero_grad(set_to_none=True)
            if torch.cuda.is_available():
                torch.cuda.synchronize()
            t0 = time.perf_counter()
            self.step(seed)
            if torch.cuda.is_available():
                torch.cuda.synchronize()
            times.append(time.perf_counter() - t0)
        return statistics.median(times)


def _first_attr(obj: Any, names: tuple[str, ...]) -> Optional[Any]:
    for name in names:
        value = getattr(obj, name, None)
        if value is not None:
            return value
    return None


@dataclass
class PlanInfo:
    """The numbers of a wrapped model's plan: predicted peak and budget in
    bytes, TDI in percent, the solver's status."""

    peak: Optional[float]
    budget: Optional[float]
    tdi: Optional[float]
    status: str


def plan_info(wrapped: nn.Module) -> PlanInfo:
    """Read `wrapped.plan` (remat.torch.wrap's result) into a PlanInfo."""
    plan = getattr(wrapped, "plan", None)
    if plan is None:
        return PlanInfo(None, None, None, "no plan")
    peak = _first_attr(plan, ("peak", "peak_bytes", "predicted_peak"))
    budget = _first_attr(plan, ("budget", "budget_bytes"))
    tdi = _first_attr(plan, ("tdi", "TDI", "tdi_percent"))
    status = _first_attr(plan, ("status",))
    return PlanInfo(peak, budget, tdi, str(status or ""))


def max_rel_diff(a: torch.Tensor, b: torch.Tensor) -> float:
    """max |a - b| over max |b|: a difference relative to the tensor's scale
    (0 when both are zero)."""
    a, b = a.detach().double(), b.detach().double()
    scale = b.abs().max().item()
    diff = (a - b).abs().max().item() if a.numel() else 0.0
    return diff / scale if scale else diff


def grad_diffs(plain: nn.Module, other: nn.Module) -> dict[str, float]:
    """max_rel_diff of every parameter gradient, by parameter name
    (inf where one side has a gradient and the other has none)."""
    out = {}
    others = dict(other.named_parameters())
    for name, p in plain.named_parameters():
        q = others[name]
        if p.grad is None or q.grad is None:
            out[name] = 0.0 if p.grad is None and q.grad is None else float("inf")
        else:
            out[name] = max_rel_diff(q.grad, p.grad)
    return out


def short_error(e: BaseException) -> str:
    """Exception type and the first line of its message."""
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0] if text else ''}"[:300]
