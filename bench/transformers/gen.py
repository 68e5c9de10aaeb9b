"""Training graphs for bench/transformers/run.sh: decoders by model, width
and depth, a U-Net and a ResNet-152.

Decoders (python/remat/torch/zoo.py; 32 tokens, vocabulary 128, batch 2):

- ``gpt``: the zoo's GPT (pre-norm blocks, causal attention, dropout,
  weight tying);
- ``llama``: the zoo's Llama (RMSNorm, SwiGLU, rotary embeddings, grouped
  query attention: half as many key/value heads as query heads).

``--width D`` is d_model (a multiple of 32): D / 16 query heads of 16
features each.  Other graphs (no layers given):

- ``unet``: the zoo's U-Net (width 8, depth 3) on 3x64x64 images, a class
  per pixel;
- ``resnet152``: torchvision's ResNet-152 (random weights, 10 classes) on
  3x64x64 images.

Each is traced with its loss (cross entropy against seeded random targets)
and backward (remat.torch.export.build, ATen level) and written as native
JSON.  The parameter gradients are counted apart, as the parameters are
(grads "fixed", Checkmate's convention): at these sizes they outweigh the
activations, and a budget below them fits nothing.

Files: MODEL_LAYERSl.json at width 64 (gpt_24l.json, llama_24l.json),
MODEL_wD_LAYERSl.json at other widths (gpt_w128_24l.json), unet.json,
resnet152.json.

    python bench/transformers/gen.py OUTDIR [LAYERS...] [--model M]
                                     [--width D] [--durations flops|profile]

Durations "flops" (the default) are the same on every run and every
machine; "profile" measures each operation (noisy on a shared machine)."""
from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from remat.graphfile import write_graph
from remat.torch import zoo
from remat.torch.export import build
from remat.torch.trace import StepSpec

DECODERS = ("gpt", "llama")
OTHERS = ("unet", "resnet152")
DEFAULT_WIDTH = 64
HEAD = 16  # features per attention head
TOKENS = 32
VOCAB = 128
IMAGE = (3, 64, 64)


def decoder(model: str, layers: int, width: int) -> nn.Module:
    """The zoo's decoder `model` at `layers` and d_model `width`."""
    heads = width // HEAD
    if model == "gpt":
        return zoo.gpt(n_layers=layers, d_model=width, n_heads=heads,
                       seq_len=TOKENS, vocab=VOCAB)
    return zoo.llama(n_layers=layers, d_model=width, n_heads=heads,
                     n_kv_heads=heads // 2, seq_len=TOKENS, vocab=VOCAB)


def graph_name(model: str, layers: int | None, width: int) -> str:
    """The file's stem: the model, the width unless 64, the depth."""
    if layers is None:
        return model
    w = "" if width == DEFAULT_WIDTH else f"_w{width}"
    return f"{model}{w}_{layers}l"


def _cross_entropy(out: Tensor, target: Tensor) -> Tensor:
    if out.dim() == 3:  # (batch, tokens, vocab) against (batch, tokens)
        return F.cross_entropy(out.flatten(0, 1), target.flatten())
    return F.cross_entropy(out, target)


def spec_for(model: str, layers: int | None, width: int) -> StepSpec:
    """The seeded training step of one graph: weights under seed 0, inputs
    and targets from a generator seeded 1."""
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    net: nn.Module
    if model in DECODERS:
        assert layers is not None
        net = decoder(model, layers, width)
        x = torch.randint(0, VOCAB, (zoo.BATCH, TOKENS), generator=g)
        y = torch.randint(0, VOCAB, (zoo.BATCH, TOKENS), generator=g)
    elif model == "unet":
        net = zoo.UNet()
        x = torch.randn((zoo.BATCH,) + IMAGE, generator=g)
        y = torch.randint(0, 2, (zoo.BATCH,) + IMAGE[1:], generator=g)
    else:
        import torchvision
        net = torchvision.models.resnet152(weights=None,
                                           num_classes=zoo.CLASSES)
        x = torch.randn((zoo.BATCH,) + IMAGE, generator=g)
        y = torch.randint(0, zoo.CLASSES, (zoo.BATCH,), generator=g)
    return StepSpec(net.train(), (x,), True, _cross_entropy, (y,),
                    name=graph_name(model, layers, width))


def _meta(model: str, layers: int | None, width: int, graph: dict,
          durations: str) -> dict[str, Any]:
    meta = {k: v for k, v in graph.items()
            if k not in ("nodes", "edges", "order")}
    stem = graph_name(model, layers, width)
    if model in DECODERS:
        meta.update({"name": f"{stem}_train_b{zoo.BATCH}_{TOKENS}",
                     "layers": layers, "d_model": width})
    else:
        meta["name"] = (f"{stem}_train_b{zoo.BATCH}_"
                        f"{'x'.join(map(str, IMAGE))}")
    meta.update({"model": model, "grads": "fixed", "torch": torch.__version__,
                 "durations": durations})
    return meta


def main() -> int:
    ap = argparse.ArgumentParser(
        description="decoder, U-Net and ResNet-152 training graphs")
    ap.add_argument("outdir")
    ap.add_argument("layers", type=int, nargs="*",
                    help="decoder depths (none for unet and resnet152)")
    ap.add_argument("--model", choices=DECODERS + OTHERS, default="gpt")
    ap.add_argument("--width", type=int, default=DEFAULT_WIDTH,
                    help="d_model of a decoder, a multiple of 32 "
                         f"(default {DEFAULT_WIDTH})")
    ap.add_argument("--durations", choices=("flops", "profile"),
                    default="flops")
    args = ap.parse_intermixed_args()
    if args.model in DECODERS:
        if not args.layers:
            ap.error(f"--model {args.model}: give one or more depths")
        if args.width < 32 or args.width % 32:
            ap.error(f"--width {args.width}: a positive multiple of 32 "
                     f"({HEAD} features per head, an even number of heads)")
        if min(args.layers) < 1:
            ap.error(f"depth {min(args.layers)}: at least 1 layer")
        runs: list[int | None] = list(args.layers)
    else:
        if args.layers:
            ap.error(f"--model {args.model} takes no depths")
        runs = [None]
    os.makedirs(args.outdir, exist_ok=True)
    torch.set_num_threads(1)
    for n in runs:
        t0 = time.perf_counter()
        spec = spec_for(args.model, n, args.width)
        graph = build(spec, args.durations, 1, grads="fixed").graph
        path = os.path.join(args.outdir,
                            graph_name(args.model, n, args.width) + ".json")
        write_graph(path, _meta(args.model, n, args.width, graph,
                                args.durations),
                    graph["nodes"], graph["edges"], graph["order"])
        print(f"gen.py: {path}: {len(graph['nodes'])} nodes, "
              f"{len(graph['edges'])} edges, "
              f"{time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
