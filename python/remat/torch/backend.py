"""remat.torch.backend: remat's schedule as a torch.compile backend.

    compiled = torch.compile(model, backend=remat.torch.backend(budget=0.6))

TorchDynamo hands the backend each graph it captured (a GraphModule whose
inputs are the model's inputs and, in PyTorch 2, its parameters); the
backend returns a function that runs the graph through a RematModule, so
that graph's forward and backward follow remat's schedule as with wrap().
The plan is made at the graph's first call (on real tensors: the example
inputs Dynamo passes may be fake) and again for each new input signature,
as wrap() does.  Graph breaks give several graphs, each planned on its own.
"""

from __future__ import annotations

import inspect

from typing import Any, Callable, Sequence, Union

import torch

from .wrap import RematModule, wrap

Budget = Union[int, float, str]


def backend(budget: Budget, time_limit: float = 30, **options: Any
            ) -> Callable[[torch.fx.GraphModule, Sequence[Any]],
                          Callable[..., Any]]:
    """A torch.compile backend that runs every captured graph along a
    remat schedule within ``budget`` (as in wrap(): a fraction of the
    input order's peak, a percentage or bytes).  options: wrap()'s
    keyword options (durations, repeat, threads, seed, temporaries,
    grads)."""
    # wrap()'s keyword options with its defaults (written there, once)
    opts = {n: p.default for n, p in inspect.signature(wrap).parameters.items()
            if p.kind is p.KEYWORD_ONLY and n != "targets"}
    opts.update(time_limit=time_limit, n_targets=0)
    unknown = set(options) - set(opts)
    if unknown:
        raise TypeError(f"backend: unknown option {sorted(unknown)[0]!r}")
    opts.update(options)

    def compile_graph(gm: torch.fx.GraphModule,
                      example_inputs: Sequence[Any]) -> Callable[..., Any]:
        n_inputs = sum(1 for n in gm.graph.nodes if n.op == "placeholder")
        module = RematModule(gm, budget, None, n_inputs, dict(opts))

        def run(*args: Any) -> Any:
            return module(*args)

        run.remat_module = module  # type: ignore[attr-defined]
        return run

    return compile_graph
