"""GPT-style decoder training graphs for bench/transformers/run.sh.

The zoo's GPT decoder (python/remat/torch/zoo.py: pre-norm blocks, causal
attention, dropout, weight tying; d_model 64, 4 heads, 32 tokens, vocab
128, batch 2) at each depth given, traced with its loss and backward
(remat.torch.export.build, ATen level) and written as native JSON.  The
parameter gradients are counted apart, as the parameters are (grads
"fixed", Checkmate's convention): at this size they outweigh the
activations, and a budget below them fits nothing.

    python bench/transformers/gen.py OUTDIR LAYERS... [--durations flops|profile]

Durations "flops" (the default) are the same on every run and every
machine; "profile" measures each operation (noisy on a shared machine)."""
import argparse
import os
import sys
import time

import torch
import torch.nn.functional as F

from remat.graphfile import write_graph
from remat.torch import zoo
from remat.torch.export import build
from remat.torch.trace import StepSpec


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("layers", type=int, nargs="+")
    ap.add_argument("--durations", choices=("flops", "profile"), default="flops")
    args = ap.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    torch.set_num_threads(1)
    for n in args.layers:
        torch.manual_seed(0)
        model = zoo.gpt(n_layers=n).train()
        g = torch.Generator().manual_seed(1)
        x = torch.randint(0, 128, (zoo.BATCH, 32), generator=g)
        y = torch.randint(0, 128, (zoo.BATCH, 32), generator=g)

        def loss_fn(out, target):
            return F.cross_entropy(out.flatten(0, 1), target.flatten())

        spec = StepSpec(model, (x,), True, loss_fn, (y,), name=f"gpt_{n}l")
        t0 = time.perf_counter()
        built = build(spec, args.durations, 1, grads="fixed")
        graph = built.graph
        meta = {k: v for k, v in graph.items() if k not in ("nodes", "edges", "order")}
        meta.update({"name": f"gpt_{n}l_train_b{zoo.BATCH}_32", "layers": n, "grads": "fixed",
                     "torch": torch.__version__, "durations": args.durations})
        path = os.path.join(args.outdir, f"gpt_{n}l.json")
        write_graph(path, meta, graph["nodes"], graph["edges"], graph["order"])
        print(f"gen.py: {path}: {len(graph['nodes'])} nodes, {len(graph['edges'])} edges,"
              f" {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
