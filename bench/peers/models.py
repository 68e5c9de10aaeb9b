"""bench/peers, model level: PyTorch's own memory savers beside
remat.torch.wrap, each point a real training step (forward, loss, backward,
SGD step): the allocator's measured peak (remat.torch.measure) and the
median step time.

Peers (--methods, any subset):
  ckpt-block   torch.utils.checkpoint around every block (non-reentrant)
  ckpt-seq     checkpoint_sequential over the chain of blocks, sqrt(n)
               segments (Chen et al.'s rule)
  sac          selective activation checkpointing per block: matmuls and
               convolutions saved, the rest recomputed
  compile      torch.compile with torch._functorch.config
               .activation_memory_budget swept, per knapsack solver
               (dp, greedy, ilp; ilp needs scipy; --solvers), by default
               on the aot_eager_decomp_partition backend: the min-cut
               partitioner with the budget, no Inductor code generation
               (on the CPU that would need minutes of C++ compilation per
               point); --compile-backend inductor for the fused kernels
  remat        remat.torch.wrap at budgets (fractions of the plain peak
               remat predicts)
  remat-compile  remat.torch.policy at the same budgets: remat's plan as
               selective-checkpointing tags, compiled on the compile
               backend (--compile-backend inductor: remat's choice of what
               to keep on Inductor's kernels)
"Blocks" are the elements of the model's nn.Sequential and nn.ModuleList
containers that have submodules of their own (ResNet's BasicBlocks, a
transformer's layers).

Runs in the project's PyTorch environment (requirements/test.txt), not in
bench/peers/venv:

    python bench/peers/models.py --quick --out bench/out/peers_models

Writes OUT/results.json (the rows), OUT/table.md (the rows and the
headline: per peer point, remat's fastest step at or below its measured
peak) and OUT/peers-MODEL.svg per model (step time against measured peak,
one curve per method through its Pareto front, the points off the front
hollow).
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import os
import sys
import time
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "torch"))

import common  # noqa: E402,F401  (puts the repository's python/ first)
from common import MiB, Trainer, short_error  # noqa: E402
from svg import line_chart  # noqa: E402

import torch  # noqa: E402
from torch import nn  # noqa: E402
from torch.utils.checkpoint import (CheckpointPolicy, checkpoint,  # noqa: E402
                                    checkpoint_sequential,
                                    create_selective_checkpoint_contexts)

import remat.torch as rt  # noqa: E402
from remat.torch import zoo  # noqa: E402

QUICK_MODELS = ["gpt_4l", "resnet18"]
MODELS = ["gpt_4l", "resnet18", "vit_small", "mobilenet_v2", "convnext_small",
          "swin_small", "unet", "efficientnet_b0"]
COMPILE_BUDGETS = [1.0, 0.7, 0.5, 0.3, 0.1]
QUICK_COMPILE_BUDGETS = [1.0, 0.5, 0.1]
SOLVERS = ["dp", "greedy", "ilp"]
REMAT_BUDGETS = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3]
QUICK_REMAT_BUDGETS = [0.8, 0.6, 0.4]


def blocks(model: nn.Module) -> list[nn.Module]:
    """The elements of nn.Sequential / nn.ModuleList containers that have
    submodules of their own, outermost containers first, in order."""
    out: list[nn.Module] = []
    seen: set[int] = set()

    def visit(m: nn.Module) -> None:
        if isinstance(m, (nn.Sequential, nn.ModuleList)):
            inner = [c for c in m.children() if any(True for _ in c.children())]
            if inner:
                for c in m.children():
                    if any(True for _ in c.children()) and id(c) not in seen:
                        seen.add(id(c))
                        out.append(c)
                return
        for c in m.children():
            visit(c)

    visit(model)
    return out


def _checkpointed(block: nn.Module, context_fn: Optional[Callable] = None) -> None:
    inner = block.forward
    kw = {"context_fn": context_fn} if context_fn else {}
    block.forward = functools.partial(checkpoint, inner, use_reentrant=False, **kw)


SAVE = {torch.ops.aten.mm.default, torch.ops.aten.addmm.default,
        torch.ops.aten.bmm.default, torch.ops.aten.baddbmm.default,
        torch.ops.aten.convolution.default,
        torch.ops.aten._scaled_dot_product_efficient_attention.default,
        torch.ops.aten._scaled_dot_product_flash_attention.default}


def _sac_policy(ctx: Any, op: Any, *args: Any, **kwargs: Any) -> CheckpointPolicy:
    return (CheckpointPolicy.MUST_SAVE if op in SAVE
            else CheckpointPolicy.PREFER_RECOMPUTE)


def _check_chain(model: nn.Module, bl: list[nn.Module], inputs: Sequence[Any]) -> None:
    """Raise ValueError unless one forward pass runs the blocks once each, in
    order, each on the previous block's output (what checkpoint_sequential
    assumes; a U-Net's skips and merges are not that)."""
    seen: list[tuple[int, Any, Any]] = []
    hooks = [b.register_forward_hook(
        lambda mod, args, out, i=i: seen.append((i, args[0] if args else None, out)))
        for i, b in enumerate(bl)]
    try:
        with torch.no_grad():
            model(*inputs)
    finally:
        for h in hooks:
            h.remove()
    if [i for i, _, _ in seen] != list(range(len(bl))):
        raise ValueError("checkpoint_sequential: the blocks do not run once each in order "
                         f"(ran {[i for i, _, _ in seen][:12]})")
    for (i, _, out), (j, arg, _) in zip(seen, seen[1:]):
        if arg is not out:
            raise ValueError(f"checkpoint_sequential: block {j} does not read block {i}'s "
                             "output alone (the blocks are not one chain)")


def apply_peer(model: nn.Module, method: str,
               inputs: Optional[Sequence[Any]] = None) -> nn.Module:
    """The model with the peer applied in place (checkpointing peers);
    ckpt-seq checks on inputs (when given) that the blocks form one chain."""
    bl = blocks(model)
    if not bl:
        raise ValueError("no blocks found (no nn.Sequential / nn.ModuleList "
                         "of composite modules)")
    if method == "ckpt-block":
        for b in bl:
            _checkpointed(b)
    elif method == "sac":
        ctx = functools.partial(create_selective_checkpoint_contexts, _sac_policy)
        for b in bl:
            _checkpointed(b, ctx)
    elif method == "ckpt-seq":
        if inputs is not None:
            _check_chain(model, bl, inputs)
        # the blocks must form one chain x -> block(x) -> ...: the first
        # block runs the whole chain under checkpoint_sequential, the others
        # pass their input through
        seq = nn.Sequential(*bl)
        segments = max(1, round(math.sqrt(len(bl))))
        fwd = [b.forward for b in bl]
        chain = nn.Sequential(*[_Call(f) for f in fwd])
        bl[0].forward = lambda x: checkpoint_sequential(
            chain, segments, x, use_reentrant=False)
        for b in bl[1:]:
            b.forward = lambda x: x
        del seq
    else:
        raise ValueError(method)
    return model


class _Call(nn.Module):
    def __init__(self, fn: Callable) -> None:
        super().__init__()
        self.fn = fn

    def forward(self, x: Any) -> Any:
        return self.fn(x)


def _point(name: str, method: str, knob: Any, build: Callable[[zoo.Setup], nn.Module],
           device: str, reps: int, loss0: Optional[float],
           patch: Optional[dict] = None) -> dict[str, Any]:
    row: dict[str, Any] = {"model": name, "method": method, "knob": knob}
    s = zoo.setup(name, seed=0, device=device)
    cm = (torch._functorch.config.patch(**patch) if patch
          else _nullcontext())
    try:
        with cm:
            torch._dynamo.reset()
            t0 = time.perf_counter()
            m = build(s)
            tr = Trainer(m, list(s.model.parameters()), s.inputs,
                         None if method == "remat" else s.loss_fn)
            loss = tr.step(seed=0).item()  # warm-up (and compilation)
            row["setup_s"] = time.perf_counter() - t0
            if loss0 is not None:
                row["loss0_diff"] = abs(loss - loss0)
            meas = tr.measured(device, seed=1)
            row.update(peak=meas.peak_bytes, time=tr.median_time(reps, seed=2))
            if method.startswith("remat"):
                row.update(predicted=getattr(m.plan, "peak", None),
                           tdi=getattr(m.plan, "tdi", None),
                           status=str(getattr(m.plan, "status", "")))
            if hasattr(m, "tags"):
                row.update(matched=m.tags.matched, unmatched=m.tags.unmatched)
    except Exception as e:  # an infeasible budget or a peer's failure is a row
        row["error"] = _error(e)
    return row


def _error(e: BaseException) -> str:
    """short_error, with the cause where the first line only says that a
    compiler backend raised."""
    lines = [x for x in str(e).strip().splitlines() if x.strip()]
    if len(lines) > 1 and lines[0].rstrip().endswith("raised:"):
        return f"{type(e).__name__}: {lines[1].strip()}"[:300]
    return short_error(e)


class _nullcontext:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *a: Any) -> None:
        return None


def run_model(name: str, methods: list[str], device: str, reps: int,
              compile_budgets: list[float], remat_budgets: list[float],
              time_limit: float, solvers: Sequence[str] = SOLVERS,
              backend: str = "aot_eager_decomp_partition") -> list[dict[str, Any]]:
    rows = []
    plain = _point(name, "plain", None, lambda s: s.model, device, reps, None)
    rows.append(plain)
    loss0 = None
    s = zoo.setup(name, seed=0, device=device)
    torch.manual_seed(0)
    loss0 = s.step_loss().item()

    def emit(r: dict[str, Any]) -> None:
        rows.append(r)
        print(f"{name} {r['method']} {r['knob']}: peak "
              f"{(r.get('peak') or 0) / MiB:.2f} MiB, step "
              f"{(r.get('time') or 0) * 1e3:.1f} ms {r.get('error', '')}",
              file=sys.stderr, flush=True)

    for m in ("ckpt-block", "ckpt-seq", "sac"):
        if m in methods:
            emit(_point(name, m, None, lambda s, m=m: apply_peer(s.model, m, s.inputs),
                        device, reps, loss0))
    if "compile" in methods:
        for solver in solvers:
            for b in compile_budgets:
                emit(_point(name, f"compile-{solver}", b,
                            lambda s: torch.compile(s.model, backend=backend),
                            device, reps, loss0,
                            {"activation_memory_budget": b,
                             "activation_memory_budget_solver": solver}))
    if "remat" in methods:
        for b in remat_budgets:
            emit(_point(name, "remat", b, lambda s, b=b: rt.wrap(
                s.model, s.inputs, b, loss_fn=s.loss_fn, time_limit=time_limit),
                device, reps, loss0))
    if "remat-compile" in methods:
        for b in remat_budgets:
            emit(_point(name, "remat-compile", b, lambda s, b=b: _policy_module(
                s, b, time_limit, backend), device, reps, loss0))
    return rows


def _policy_module(s: zoo.Setup, budget: float, time_limit: float,
                   backend: str) -> nn.Module:
    """remat's plan as tags, compiled; .plan for the row's prediction."""
    p = rt.policy(s.model, s.inputs, budget, loss_fn=s.loss_fn,
                  time_limit=time_limit)
    m = torch.compile(p.module(), backend=backend)
    m.plan = p.plan  # type: ignore[attr-defined]
    m.tags = p.tags  # type: ignore[attr-defined]
    return m


def _knob(r: dict[str, Any]) -> str:
    return "" if r["knob"] is None else f"{r['knob']:g}"


def headline(rows: list[dict[str, Any]]) -> list[str]:
    """Per peer point (and the plain model): remat's least step time among
    its points at or below the peer's measured peak, or that no remat point
    is there; then per model the remat points below every other point."""
    out = []
    rem = [r for r in rows if r["method"].startswith("remat")
           and r.get("peak") is not None]
    others = [r for r in rows if not r["method"].startswith("remat")
              and r.get("peak") is not None]
    for r in others:
        fit = [q for q in rem if q["model"] == r["model"] and q["peak"] <= r["peak"]]
        if fit:
            best = min(fit, key=lambda q: q["time"])
            verdict = (f"{best['time'] * 1e3:.1f} ms at {best['peak'] / MiB:.2f} MiB "
                       f"({best['method']} {_knob(best)}), {best['time'] / r['time']:.2f}x: "
                       + ("faster" if best["time"] <= r["time"] else "**SLOWER**"))
        else:
            verdict = "no remat point at or below"
        out.append(f"| {r['model']} | {r['method']} | {_knob(r)} | "
                   f"{r['peak'] / MiB:.2f} | {r['time'] * 1e3:.1f} | {verdict} |")
    out.append("")
    for model in dict.fromkeys(r["model"] for r in rows):
        low = [r for r in others if r["model"] == model and r["method"] != "plain"]
        if not low:
            continue
        least = min(low, key=lambda r: r["peak"])
        only = [q for q in rem if q["model"] == model and q["peak"] < least["peak"]]
        pts = ", ".join(f"{q['method']} {_knob(q)} ({q['peak'] / MiB:.2f} MiB, "
                        f"{q['time'] * 1e3:.1f} ms)"
                        for q in only) or "none"
        what = f"{least['method']} {_knob(least)}".strip()
        out.append(f"- {model}: only remat fits below the peers' lowest measured "
                   f"peak ({least['peak'] / MiB:.2f} MiB, {what}) at budgets: {pts}")
    return out


def front(points: list[tuple[float, float]]) -> tuple[list[tuple[float, float]],
                                                       list[tuple[float, float]]]:
    """The points on the Pareto front (no other point has a peak as low and
    a time as low, one of them lower), sorted by peak; and the rest."""
    on, off, best = [], [], math.inf
    for p in sorted(points):
        (on if p[1] < best else off).append(p)
        best = min(best, p[1])
    return on, off


def chart(rows: list[dict[str, Any]], model: str) -> str:
    """The model's SVG: median step time against measured peak, one curve
    per method through its Pareto front."""
    series, hollow = [], []
    for method in dict.fromkeys(r["method"] for r in rows if r["model"] == model):
        pts = [(r["peak"] / MiB, r["time"] * 1e3) for r in rows
               if r["model"] == model and r["method"] == method
               and r.get("peak") is not None]
        if pts:
            on, off = front(pts)
            series.append((method, on))
            hollow.append(off)
    return line_chart(series, f"{model}: training step time against measured peak"
                      " (hollow: off the front)",
                      "measured peak (MiB)", "median step time (ms)",
                      hollow=hollow)


def table(rows: list[dict[str, Any]]) -> str:
    head = "| model | method | knob | measured peak MiB | step ms | TDI % (remat's plan) | note |"
    out = [head, "|---|---|---|---|---|---|---|"]
    for r in rows:
        peak = "" if r.get("peak") is None else f"{r['peak'] / MiB:.2f}"
        t = "" if r.get("time") is None else f"{r['time'] * 1e3:.1f}"
        tdi = "" if r.get("tdi") is None else f"{r['tdi']:.1f}"
        note = (r.get("error") or "")[:100].replace("|", "/")
        out.append(f"| {r['model']} | {r['method']} | "
                   f"{_knob(r)} | {peak} | {t} | {tdi} | {note} |")
    out += ["", "| model | peer | knob | peer peak MiB | peer step ms | remat's fastest at or below that peak, time / peer's |",
            "|---|---|---|---|---|---|"] + headline(rows)
    return "\n".join(out) + "\n"


def _fractions(text: Optional[str], default: list[float]) -> list[float]:
    return [float(x) for x in text.split(",")] if text else default


def write(out: Path, rows: list[dict[str, Any]]) -> None:
    """OUT/results.json, OUT/table.md and one OUT/peers-MODEL.svg per model."""
    (out / "results.json").write_text(json.dumps(rows, indent=1) + "\n")
    (out / "table.md").write_text(table(rows))
    for model in dict.fromkeys(r["model"] for r in rows):
        (out / f"peers-{model}.svg").write_text(chart(rows, model))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--models", default=None,
                    help="comma-separated zoo names (default: "
                    f"{','.join(MODELS)}; --quick: {','.join(QUICK_MODELS)})")
    ap.add_argument("--methods", default="ckpt-block,ckpt-seq,sac,compile,remat")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--time-limit", type=float, default=30.0)
    ap.add_argument("--threads", type=int, default=1,
                    help="intra-op CPU threads (default 1: steady timings "
                    "on a shared machine; 0: torch's default)")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--remat-budgets", default=None,
                    help="comma-separated wrap() budgets (default: "
                    f"{REMAT_BUDGETS}; --quick: {QUICK_REMAT_BUDGETS})")
    ap.add_argument("--compile-budgets", default=None,
                    help="comma-separated activation_memory_budget values "
                    f"(default: {COMPILE_BUDGETS}; --quick: {QUICK_COMPILE_BUDGETS})")
    ap.add_argument("--solvers", default=",".join(SOLVERS),
                    help="comma-separated knapsack solvers of compile "
                    f"(default: {','.join(SOLVERS)})")
    ap.add_argument("--compile-backend", default="aot_eager_decomp_partition",
                    help="torch.compile's backend (default: the partitioner "
                    "alone; inductor generates code, minutes a point on a CPU)")
    ap.add_argument("--no-layout-optimization", action="store_true",
                    help="torch._inductor.config.layout_optimization = False: "
                    "Inductor keeps the convolutions' layouts instead of "
                    "copying their weights and inputs to channels-last")
    ap.add_argument("--out", default=str(HERE.parents[1] / "bench" / "out" / "peers_models"))
    ap.add_argument("--table-only", action="store_true",
                    help="rewrite OUT/table.md and the SVGs from OUT/results.json")
    args = ap.parse_args()
    out = Path(args.out)
    if args.table_only:
        rows = json.loads((out / "results.json").read_text())
        write(out, rows)
        print(table(rows))
        return
    if args.threads > 0:
        torch.set_num_threads(args.threads)
    if args.no_layout_optimization:
        import torch._inductor.config as inductor_config
        inductor_config.layout_optimization = False
    models = (args.models.split(",") if args.models
              else QUICK_MODELS if args.quick else MODELS)
    compile_budgets = _fractions(args.compile_budgets, QUICK_COMPILE_BUDGETS
                                 if args.quick else COMPILE_BUDGETS)
    remat_budgets = _fractions(args.remat_budgets, QUICK_REMAT_BUDGETS
                               if args.quick else REMAT_BUDGETS)
    out.mkdir(parents=True, exist_ok=True)
    rows: list[dict[str, Any]] = []
    for name in models:
        rows += run_model(name, args.methods.split(","), args.device, args.reps,
                          compile_budgets, remat_budgets, args.time_limit,
                          args.solvers.split(","), args.compile_backend)
        write(out, rows)
    print(table(rows))


if __name__ == "__main__":
    main()
