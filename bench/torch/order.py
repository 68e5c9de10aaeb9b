"""The traced order against free order: one model wrapped both ways, the
plan's predicted peak beside the allocator's measured one.

    build/venv/bin/python bench/torch/order.py [--budget 0.8] [--batch 4] [--size 112]

Prints one line per order (ResNet-18, loss in the plan, after two warm-up
steps).  bench/RESULTS.md#torch-wrap-measured has a run.
"""

from __future__ import annotations

import argparse

import torch
import torch.nn.functional as F
import torchvision

import remat.torch


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=0.8)
    ap.add_argument("--batch", type=int, default=4)
    ap.add_argument("--size", type=int, default=112)
    a = ap.parse_args()
    torch.manual_seed(0)
    x = torch.randn(a.batch, 3, a.size, a.size)
    y = torch.randint(0, 10, (a.batch,))
    for free in (False, True):
        m = remat.torch.wrap(torchvision.models.resnet18(num_classes=10),
                             (x,), budget=a.budget, loss_fn=F.cross_entropy,
                             targets=(y,), free_order=free, time_limit=20)
        for _ in range(2):
            m.zero_grad()
            m(x, y).backward()
        m.zero_grad()
        got = remat.torch.measure(lambda: m(x, y).backward())
        print(f"free_order={free}: {m.plan.status}, predicted "
              f"{m.plan.peak}, measured {got.peak_bytes} "
              f"({got.peak_bytes / m.plan.peak:.3f}), budget {m.plan.budget}")


if __name__ == "__main__":
    main()
