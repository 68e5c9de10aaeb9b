"""bench/torch: remat.torch.wrap against the plain model, measured.

For each zoo model and each budget (0.9 down to 0.3 by default): the plain
model's measured peak and step time (median of --reps steps) against the
wrapped model's, beside remat's predicted peak and TDI, and the largest
relative difference of one wrapped step's parameter gradients from the
plain model's.  A step is forward,
cross-entropy loss, backward and an SGD step, gradients set to None before
it; peaks come from remat.torch.measure (the allocator's view: the CPU
profiler's memory events, or CUDA's max_memory_allocated), so they include
the gradients the step allocates.

Writes into OUT: table.md (the Markdown table), results.json (every row,
errors included) and steps.svg (measured step time against measured peak,
both relative to the plain model, one curve per model).

    python bench/torch/run.py --out /tmp/bench_torch            # all
    python bench/torch/run.py --out /tmp/bench_torch --quick    # ~1 minute
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any, Optional

import common  # noqa: F401  (sets sys.path to the repository's python/)
from common import (MiB, Trainer, first_tensor, grad_diffs, plan_info,
                    short_error)
from svg import line_chart

import torch

import remat.torch as rt
from remat.torch import zoo

MODELS = ["resnet18", "mobilenet_v2", "efficientnet_b0", "regnet_y_400mf",
          "convnext_small", "vit_small", "swin_small", "shufflenet_v2_x0_5",
          "densenet_small", "gpt", "lstm", "unet"]
QUICK_MODELS = ["gpt", "vit_small", "swin_small"]
BUDGETS = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3]
QUICK_BUDGETS = [0.9, 0.6, 0.3]


def _plain(name: str, device: str, reps: int) -> dict[str, Any]:
    s = zoo.setup(name, seed=0, device=device)
    tr = Trainer(s.model, list(s.model.parameters()), s.inputs, s.loss_fn)
    loss0 = tr.step(seed=0).item()  # also the warm-up
    m = tr.measured(device, seed=1)
    return {"model": name, "family": zoo.ENTRIES[name].family,
            "params": sum(p.numel() for p in s.model.parameters()),
            "loss0": loss0, "peak": m.peak_bytes, "temp": m.temp_bytes,
            "time": tr.median_time(reps, seed=2)}


def _wrapped(name: str, budget: float, device: str, reps: int,
             time_limit: float, loss0: float) -> dict[str, Any]:
    row: dict[str, Any] = {"model": name, "budget": budget}
    s = zoo.setup(name, seed=0, device=device)
    t0 = time.perf_counter()
    try:
        w = rt.wrap(s.model, s.inputs, budget, loss_fn=s.loss_fn,
                    time_limit=time_limit)
    except Exception as e:  # an infeasible budget is a normal outcome
        row.update(error=short_error(e), plan_s=time.perf_counter() - t0)
        return row
    row["plan_s"] = time.perf_counter() - t0
    info = plan_info(w)
    row.update(predicted=info.peak, budget_bytes=info.budget, tdi=info.tdi,
               status=info.status)
    try:
        row["grad_diff"] = _grad_diff(name, device, w, s)
        tr = Trainer(w, list(s.model.parameters()), s.inputs, None)
        row["loss0_diff"] = abs(tr.step(seed=0).item() - loss0)
        m = tr.measured(device, seed=1)
        row.update(peak=m.peak_bytes, temp=m.temp_bytes,
                   time=tr.median_time(reps, seed=2))
    except Exception as e:
        row["error"] = short_error(e)
    return row


def _grad_diff(name: str, device: str, wrapped: torch.nn.Module,
               s: zoo.Setup) -> float:
    """The largest relative difference between a parameter gradient of one
    wrapped step and the plain model's (same weights, inputs and seed);
    the gradients are set to None after it."""
    ref = zoo.setup(name, seed=0, device=device)
    torch.manual_seed(0)
    ref.loss_fn(first_tensor(ref.model(*ref.inputs))).backward()
    torch.manual_seed(0)
    wrapped(*s.inputs).backward()
    worst = max(grad_diffs(ref.model, s.model).values(), default=0.0)
    for p in s.model.parameters():
        p.grad = None
    return worst


def _mib(x: Optional[float]) -> str:
    return "" if x is None else f"{x / MiB:.2f}"


def _sci(x: Optional[float]) -> str:
    return "" if x is None else f"{x:.1e}"


def _ratio(a: Optional[float], b: Optional[float], fmt: str = "{:.3f}") -> str:
    return "" if a is None or not b else fmt.format(a / b)


def table(plain: dict[str, dict[str, Any]], rows: list[dict[str, Any]]) -> str:
    """The Markdown table: one line per model and budget."""
    head = ("| model | budget | plain peak MiB | plain step ms | predicted "
            "peak MiB | measured peak MiB | measured / predicted | measured "
            "/ plain | TDI % | step ms | step / plain | grad rel. diff | plan s "
            "| note |")
    out = [head, "|" + "---|" * (head.count("|") - 1)]
    for r in rows:
        p = plain.get(r["model"], {})
        tdi = "" if r.get("tdi") is None else f"{r['tdi']:.1f}"
        step = "" if r.get("time") is None else f"{r['time'] * 1e3:.1f}"
        # the full message is in results.json
        note = (r.get("error", "") or r.get("status", ""))[:110]
        out.append(
            f"| {r['model']} | {r['budget']:.1f} | {_mib(p.get('peak'))} | "
            f"{p.get('time', 0) * 1e3:.1f} | {_mib(r.get('predicted'))} | "
            f"{_mib(r.get('peak'))} | {_ratio(r.get('peak'), r.get('predicted'))} | "
            f"{_ratio(r.get('peak'), p.get('peak'))} | {tdi} | {step} | "
            f"{_ratio(r.get('time'), p.get('time'), '{:.2f}')} | "
            f"{_sci(r.get('grad_diff'))} | "
            f"{r.get('plan_s', 0):.1f} | {note.replace('|', '/')} |")
    return "\n".join(out) + "\n"


def chart(plain: dict[str, dict[str, Any]], rows: list[dict[str, Any]]) -> str:
    """steps.svg: per model, (peak, time) relative to the plain model's,
    the plain model itself at (1, 1), budgets from loose to tight."""
    series = []
    for name, p in plain.items():
        pts = [(1.0, 1.0)]
        for r in rows:
            if r["model"] == name and r.get("peak") is not None:
                pts.append((r["peak"] / p["peak"], r["time"] / p["time"]))
        series.append((name, pts))
    return line_chart(series, "wrap(): measured step time against measured "
                      "peak (budgets 0.9 to 0.3)", "measured peak / plain "
                      "model's", "step time / plain model's",
                      marks=[(1.0, 1.0, "plain")])


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="output folder")
    ap.add_argument("--quick", action="store_true",
                    help=f"{', '.join(QUICK_MODELS)} at budgets "
                    f"{QUICK_BUDGETS}, one timed step, 5 s plans")
    ap.add_argument("--models", help="comma-separated zoo names")
    ap.add_argument("--budgets", help="comma-separated fractions")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--time-limit", type=float, default=30)
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available()
                    else "cpu")
    ap.add_argument("--threads", type=int, default=1,
                    help="intra-op CPU threads (default 1: steady timings "
                    "on a shared machine; 0: torch's default)")
    a = ap.parse_args(argv)
    if a.threads > 0:
        torch.set_num_threads(a.threads)
    models = QUICK_MODELS if a.quick else MODELS
    budgets = QUICK_BUDGETS if a.quick else BUDGETS
    reps, limit = (1, 5.0) if a.quick else (a.reps, a.time_limit)
    if a.models:
        models = a.models.split(",")
    if a.budgets:
        budgets = [float(b) for b in a.budgets.split(",")]
    if not hasattr(rt, "wrap"):
        ap.error("remat.torch.wrap is missing from this remat")
    os.makedirs(a.out, exist_ok=True)
    plain: dict[str, dict[str, Any]] = {}
    rows: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    for name in models:
        plain[name] = _plain(name, a.device, reps)
        print(f"{name}: plain peak {_mib(plain[name]['peak'])} MiB, step "
              f"{plain[name]['time'] * 1e3:.1f} ms", flush=True)
        for b in budgets:
            r = _wrapped(name, b, a.device, reps, limit, plain[name]["loss0"])
            rows.append(r)
            print(f"  {b:.1f}: predicted {_mib(r.get('predicted'))} MiB, "
                  f"measured {_mib(r.get('peak'))} MiB, TDI {r.get('tdi')}, "
                  f"step {(r.get('time') or 0) * 1e3:.1f} ms "
                  f"{r.get('error', '')}", flush=True)
    with open(os.path.join(a.out, "table.md"), "w") as f:
        f.write(f"Device {a.device}, torch {torch.__version__}, "
                f"{torch.get_num_threads()} threads; plan time limit {limit} s;"
                f" step time median of {reps}; {time.perf_counter() - t0:.0f} s"
                " in all.\n\n")
        f.write(table(plain, rows))
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump({"device": a.device, "torch": torch.__version__,
                   "plain": plain, "rows": rows}, f, indent=1)
    with open(os.path.join(a.out, "steps.svg"), "w") as f:
        f.write(chart(plain, rows))
    print(f"wrote {a.out}/table.md, results.json, steps.svg "
          f"({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
