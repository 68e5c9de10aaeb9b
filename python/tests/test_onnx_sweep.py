"""Every torchvision classification model through torch.onnx.export and
remat-onnx: both exporters (TorchScript, dynamo), the opsets asked for.

Slow (an hour on two cores), so pytest skips it unless REMAT_ONNX_SWEEP=1;
as a script it writes one JSON line per (model, exporter, opset) and a
Markdown table at the end:

    PYTHONPATH=python python python/tests/test_onnx_sweep.py \\
        --opsets 18,14 --exporters torchscript,dynamo --out sweep.jsonl

Each model is read by the remat-onnx command in a child process (a crash
of a native library there is a failed row, not a lost sweep), and its graph
by `remat info` when build/remat (or $REMAT_BIN) exists.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REMAT = Path(os.environ.get("REMAT_BIN", ROOT / "build" / "remat"))

# over 140 M parameters: exported last, as they take the most memory
LARGE = ["vgg11", "vgg11_bn", "vgg13", "vgg13_bn", "vgg16", "vgg16_bn",
         "vgg19", "vgg19_bn", "regnet_y_32gf", "convnext_large", "vit_l_32",
         "vit_l_16", "regnet_y_128gf", "vit_h_14"]


def model_names() -> list[str]:
    """torchvision's classification models, the largest last."""
    import torchvision
    names = torchvision.models.list_models(module=torchvision.models)
    return ([n for n in names if n not in LARGE] +
            [n for n in LARGE if n in names])


def build(name: str, batch: int):
    """(model, example input) at a small size the exporters accept."""
    import torch
    import torchvision
    kwargs: dict = {}
    size = 64
    if name.startswith("vit_"):
        size = 56 if name.endswith("_14") else 64
        kwargs["image_size"] = size
    elif name == "maxvit_t" or name.startswith(("alexnet", "vgg")):
        size = 224      # a fixed window grid; adaptive pools of factor size
    elif name == "inception_v3":
        size = 96
        kwargs["aux_logits"] = False
        kwargs["init_weights"] = False
    elif name == "googlenet":
        kwargs["aux_logits"] = False
        kwargs["init_weights"] = False
    model = torchvision.models.get_model(name, weights=None, **kwargs).eval()
    return model, torch.randn(batch, 3, size, size)


def export(model, x, path: str, exporter: str, opset: int) -> None:
    """torch.onnx.export with the given exporter, static shapes."""
    import torch
    # not under torch.no_grad(): there nn.MultiheadAttention takes its fast
    # path, an op the TorchScript exporter cannot write
    torch.onnx.export(model, (x,), path, opset_version=opset,
                      dynamo=(exporter == "dynamo"), verbose=False)


def read(path: str, out: str) -> tuple[bool, str]:
    """remat-onnx on path in a child process: (ok, its message)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "python"))
    p = subprocess.run([sys.executable, "-m", "remat.onnx.cli", path,
                        "-o", out], capture_output=True, text=True, env=env)
    msg = (p.stderr.strip().splitlines() or [""])[-1]
    if p.returncode != 0:
        return False, f"exit {p.returncode}: {msg}"
    if REMAT.exists():
        q = subprocess.run([str(REMAT), "info", out], capture_output=True,
                           text=True)
        if q.returncode != 0:
            return False, f"remat info: {q.stderr.strip()}"
    return True, msg


def sweep(names, exporters, opsets, batch, out_path) -> list[dict]:
    import logging
    import warnings
    import torch
    warnings.filterwarnings("ignore")
    logging.disable(logging.WARNING)
    torch.set_num_threads(1)
    rows = []
    with tempfile.TemporaryDirectory() as tmp, open(out_path, "a") as out:
        for name in names:
            try:
                model, x = build(name, batch)
            except Exception as e:
                model, x = None, f"{type(e).__name__}: {e}"
            for exporter in exporters:
                for opset in opsets:
                    row = {"model": name, "exporter": exporter,
                           "opset": opset, "batch": batch}
                    f = os.path.join(tmp, f"{name}.onnx")
                    t = time.time()
                    try:
                        if model is None:
                            raise RuntimeError(x)
                        export(model, x, f, exporter, opset)
                        row["export"] = "ok"
                    except Exception as e:
                        row["export"] = (f"{type(e).__name__}: "
                                         f"{str(e).strip()[:300]}")
                    row["export_s"] = round(time.time() - t, 1)
                    if row["export"] == "ok":
                        t = time.time()
                        ok, msg = read(f, os.path.join(tmp, "g.json"))
                        row["read"] = "ok" if ok else msg
                        if ok:
                            with open(os.path.join(tmp, "g.json")) as g:
                                doc = json.load(g)
                            row["file_opset"] = doc["opset"]
                            row["nodes"] = len(doc["nodes"])
                            row["measured"] = doc["measured_sizes"]
                        row["message"] = msg
                        row["read_s"] = round(time.time() - t, 1)
                    for p in Path(tmp).iterdir():
                        p.unlink()
                    rows.append(row)
                    out.write(json.dumps(row) + "\n")
                    out.flush()
                    print(json.dumps(row), flush=True)
            del model
    return rows


def table(rows: list[dict]) -> str:
    """A Markdown table: one row per model, one column per exporter and
    opset ('read', 'export fails', or 'FAILS')."""
    cols = sorted({(r["exporter"], r["opset"]) for r in rows})
    lines = ["| model | " + " | ".join(f"{e} {o}" for e, o in cols) + " |",
             "|---|" + "---|" * len(cols)]
    by = {(r["model"], r["exporter"], r["opset"]): r for r in rows}
    for m in dict.fromkeys(r["model"] for r in rows):
        cells = []
        for e, o in cols:
            r = by.get((m, e, o))
            cells.append("" if r is None else
                         "export fails" if r["export"] != "ok" else
                         "read" if r.get("read") == "ok" else "FAILS")
        lines.append(f"| {m} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


@pytest.mark.skipif(os.environ.get("REMAT_ONNX_SWEEP") != "1",
                    reason="slow: set REMAT_ONNX_SWEEP=1")
def test_sweep(tmp_path):
    rows = sweep(model_names(), ["torchscript", "dynamo"], [18], 2,
                 tmp_path / "sweep.jsonl")
    bad = [r for r in rows if r["export"] == "ok" and r["read"] != "ok"]
    assert not bad, table(rows)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--models", default="", help="comma-separated names")
    p.add_argument("--exporters", default="torchscript,dynamo")
    p.add_argument("--opsets", default="18")
    p.add_argument("--batch", type=int, default=2)
    p.add_argument("--out", default="onnx_sweep.jsonl")
    a = p.parse_args()
    names = a.models.split(",") if a.models else model_names()
    rows = sweep(names, a.exporters.split(","),
                 [int(o) for o in a.opsets.split(",")], a.batch, a.out)
    print(table(rows))


if __name__ == "__main__":
    main()
