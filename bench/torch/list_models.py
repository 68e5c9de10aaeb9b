"""bench/torch/list_models: every torchvision classification model up to
--max-params parameters, wrapped at one budget and trained --steps SGD
steps beside the plain model; lists the ones that fail, with the reason.

Each model runs in a child process of its own (a crash or a hang costs that
model only, --timeout seconds at most): built with random weights and its
stock 1000 classes, batch --batch (2), a 3 x SIZE x SIZE input (SIZE 64, or
the smallest the architecture takes), in train mode; the loss is cross
entropy of its (first) output against seeded random targets, part of the
plan (or, --loss-outside, taken outside the wrapped module as in a plain
training loop).  A model passes when remat.torch.wrap plans it, the loss
and every gradient equal the plain model's at every step (relative to each
tensor's scale, 1e-5), and the measured peak of the wrapped step is below
the plain step's.

Writes OUT/list_models.jsonl (one line per model, as it finishes: a rerun
with --resume skips those) and OUT/list_models.md (the table, failures
first).

    python bench/torch/list_models.py --out /tmp/tv            # all
    python bench/torch/list_models.py --out /tmp/tv --limit 3  # a smoke run
    python bench/torch/list_models.py --out /tmp/tv224 --size 224 --steps 3 \
        --loss-outside --models resnet34,swin_t       # as a user would
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import warnings
from typing import Any, Optional

import common  # noqa: F401  (sets sys.path to the repository's python/)
from common import MiB, first_tensor, grad_diffs, max_rel_diff, short_error

import torch
import torch.nn.functional as F

warnings.filterwarnings("ignore", category=FutureWarning,
                        module="torchvision")  # GoogLeNet/Inception's init

RTOL = 1e-5
# Input sizes the architectures need above 64 (Inception's auxiliary head,
# in training, its 299; MaxViT's window partitions at every stage).
MIN_SIZE = {"inception_v3": 299, "maxvit_t": 224}


def classification_models() -> list[str]:
    """torchvision's classification models (not detection, segmentation,
    video, optical flow or quantized ones)."""
    import torchvision
    return sorted(torchvision.models.list_models(module=torchvision.models))


def param_count(name: str) -> int:
    """Parameters of the stock model: from its weights' metadata (nothing
    is downloaded), else counted on the meta device, else on the CPU."""
    import torchvision
    try:
        meta = torchvision.models.get_model_weights(name).DEFAULT.meta
        return int(meta["num_params"])
    except (KeyError, AttributeError, ValueError):
        pass
    try:
        with torch.device("meta"):
            model = torchvision.models.get_model(name, weights=None)
    except (NotImplementedError, RuntimeError):
        model = torchvision.models.get_model(name, weights=None)
    return sum(p.numel() for p in model.parameters())


def _build(name: str, size: int) -> torch.nn.Module:
    import torchvision
    kwargs: dict[str, Any] = {"weights": None}
    if name.startswith("vit_"):
        kwargs["image_size"] = size
    return torchvision.models.get_model(name, **kwargs).train()


def one(name: str, size: int, budget: float, time_limit: float,
        batch: int = 2, steps: int = 1,
        loss_outside: bool = False) -> dict[str, Any]:
    """Plan, train `steps` SGD steps beside the plain model and compare
    (in the child process); loss_outside: the loss taken outside the
    wrapped module, as in a plain training loop (not in the plan)."""
    import remat.torch as rt
    from remat.torch.measure import measure

    row: dict[str, Any] = {"model": name, "size": size}
    g = torch.Generator().manual_seed(1)
    x = torch.randn(batch, 3, size, size, generator=g)
    y = torch.randint(0, 1000, (batch,), generator=g)

    def loss_fn(out: Any) -> torch.Tensor:
        return F.cross_entropy(first_tensor(out), y)

    torch.manual_seed(0)
    plain = _build(name, size)
    torch.manual_seed(0)
    model = _build(name, size)
    stage = "wrap"
    try:
        t0 = time.perf_counter()
        w = rt.wrap(model, (x,), budget, time_limit=time_limit,
                    loss_fn=None if loss_outside else loss_fn)
        row["plan_s"] = round(time.perf_counter() - t0, 1)
        plan = w.plan
        row.update(predicted=plan.peak, budget_bytes=plan.budget,
                   tdi=plan.tdi, status=plan.status)

        def wrapped_loss() -> torch.Tensor:
            return loss_fn(w(x)) if loss_outside else w(x)

        stage = "step"
        opts = [torch.optim.SGD(m.parameters(), lr=0.01)
                for m in (plain, model)]
        row["loss_diff"] = row["grad_diff"] = 0.0
        for k in range(steps):
            torch.manual_seed(5 + k)
            lp = loss_fn(plain(x))
            lp.backward()
            torch.manual_seed(5 + k)
            lw = wrapped_loss()
            lw.backward()
            row["loss_diff"] = max(row["loss_diff"], max_rel_diff(lw, lp))
            diffs = grad_diffs(plain, model)
            worst = max(diffs, key=diffs.__getitem__) if diffs else ""
            if diffs.get(worst, 0.0) >= row["grad_diff"]:
                row["grad_diff"] = diffs.get(worst, 0.0)
                row["grad_worst"] = worst
            for opt in opts:
                opt.step()
                opt.zero_grad(set_to_none=True)
        stage = "measure"
        torch.manual_seed(6)
        row["plain_peak"] = measure(lambda: loss_fn(plain(x)).backward(),
                                    "cpu").peak_bytes
        torch.manual_seed(6)
        row["peak"] = measure(lambda: wrapped_loss().backward(),
                              "cpu").peak_bytes
    except Exception as e:
        row["error"] = f"{stage}: {short_error(e)}"
        return row
    why = []
    if row["loss_diff"] > RTOL:
        why.append(f"loss differs by {row['loss_diff']:.1e}")
    if row["grad_diff"] > RTOL:
        why.append(f"{row['grad_worst']}.grad differs by {row['grad_diff']:.1e}")
    if row["peak"] >= row["plain_peak"]:
        why.append("measured peak not below the plain model's")
    if why:
        row["error"] = "; ".join(why)
    return row


def _child(name: str, a: argparse.Namespace) -> dict[str, Any]:
    size = max(a.size, MIN_SIZE.get(name, 0))
    cmd = [sys.executable, os.path.abspath(__file__), "--one", name,
           "--size", str(size), "--budget", str(a.budget),
           "--time-limit", str(a.time_limit), "--batch", str(a.batch),
           "--steps", str(a.steps)] + (["--loss-outside"]
                                       if a.loss_outside else [])
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=a.timeout)
    except subprocess.TimeoutExpired:
        return {"model": name, "size": size,
                "error": f"timeout: more than {a.timeout} s"}
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith("{")]
    if p.returncode != 0 or not lines:
        tail = (p.stderr.strip().splitlines() or ["no output"])[-1]
        return {"model": name, "size": size,
                "error": f"crashed (exit {p.returncode}): {tail[:300]}"}
    row = json.loads(lines[-1])
    row["wall_s"] = round(time.perf_counter() - t0, 1)
    return row


def _mib(x: Optional[float]) -> str:
    return "" if x is None else f"{x / MiB:.2f}"


def table(rows: list[dict[str, Any]]) -> str:
    """The Markdown table, failures first."""
    rows = sorted(rows, key=lambda r: ("error" not in r, r["model"]))
    out = ["| model | M params | input | status | plain peak MiB | wrapped "
           "peak MiB | predicted MiB | TDI % | grad diff | s | failure |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        tdi = "" if r.get("tdi") is None else f"{r['tdi']:.1f}"
        gd = "" if r.get("grad_diff") is None else f"{r['grad_diff']:.1e}"
        out.append(
            f"| {r['model']} | {r.get('params', 0) / 1e6:.1f} | "
            f"{r.get('size', '')} | {r.get('status', '')} | "
            f"{_mib(r.get('plain_peak'))} | {_mib(r.get('peak'))} | "
            f"{_mib(r.get('predicted'))} | {tdi} | {gd} | "
            f"{r.get('wall_s', '')} | "
            f"{r.get('error', '').replace('|', '/')} |")
    return "\n".join(out) + "\n"


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", help="output folder")
    ap.add_argument("--max-params", type=float, default=100e6)
    ap.add_argument("--size", type=int, default=64)
    ap.add_argument("--budget", type=float, default=0.6)
    ap.add_argument("--batch", type=int, default=2)
    ap.add_argument("--steps", type=int, default=1,
                    help="SGD steps compared with the plain model's")
    ap.add_argument("--loss-outside", action="store_true",
                    help="the loss outside the wrapped module (not planned)")
    ap.add_argument("--time-limit", type=float, default=10)
    ap.add_argument("--timeout", type=float, default=900,
                    help="seconds per model")
    ap.add_argument("--models", help="comma-separated names (default: all)")
    ap.add_argument("--limit", type=int, help="the N smallest models only")
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.one:
        torch.set_num_threads(1)  # OpenMP's spinning threads on shared cores
        print(json.dumps(one(a.one, a.size, a.budget, a.time_limit,
                             a.batch, a.steps, a.loss_outside)))
        return 0
    if not a.out:
        ap.error("--out is required")
    os.makedirs(a.out, exist_ok=True)
    names = a.models.split(",") if a.models else classification_models()
    sized = sorted((param_count(n), n) for n in names)
    todo = [(c, n) for c, n in sized if c <= a.max_params]
    skipped = [n for c, n in sized if c > a.max_params]
    if a.limit:
        todo = todo[:a.limit]
    path = os.path.join(a.out, "list_models.jsonl")
    done: dict[str, dict[str, Any]] = {}
    if a.resume and os.path.exists(path):
        with open(path) as f:
            done = {r["model"]: r for r in map(json.loads, f)}
    with open(path, "a" if a.resume else "w") as f:
        for count, name in todo:
            if name in done:
                continue
            row = _child(name, a)
            row["params"] = count
            done[name] = row
            f.write(json.dumps(row) + "\n")
            f.flush()
            print(f"{name}: {row.get('error') or 'ok'} "
                  f"({row.get('wall_s', '')} s)", flush=True)
    rows = [done[n] for _, n in todo if n in done]
    failed = [r for r in rows if "error" in r]
    with open(os.path.join(a.out, "list_models.md"), "w") as f:
        f.write(f"torch {torch.__version__}, budget {a.budget}, batch "
                f"{a.batch}, {a.steps} SGD step(s), loss "
                f"{'outside' if a.loss_outside else 'in'} the plan, "
                f"{len(rows)} models up to {a.max_params / 1e6:.0f} M "
                f"parameters, {len(failed)} failed; above the limit: "
                f"{', '.join(skipped) or 'none'}.\n\n")
        f.write(table(rows))
    print(f"{len(rows) - len(failed)} of {len(rows)} passed; wrote "
          f"{a.out}/list_models.md")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
