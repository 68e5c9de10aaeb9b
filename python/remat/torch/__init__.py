"""remat.torch: PyTorch 2 models trained within a memory budget, and their
steps exported as remat graphs.

    wrapped = remat.torch.wrap(model, (x,), budget=0.6)
    loss = F.cross_entropy(wrapped(x), y); loss.backward()

One concern per module:
  trace      the ATen-level trace of a step (make_fx of the forward and
             autograd's backward, then functionalize)
  fxeval     evaluating fx nodes and the tensors and storages they hold
  memory     grouping fx nodes into remat nodes (views and aliases folded
             into their base), node sizes, fixed memory
  durations  per-op CPU time (median of several runs) or a FLOP estimate
  export     the native graph of a step: export()
  executor   running a traced step along a remat schedule
  temporaries  the bytes each operation allocates beyond its outputs
  wrap       the nn.Module that trains along the schedule: wrap()
  backend    the same as a torch.compile backend: backend()
  policy     the plan as selective-checkpointing tags, for torch.compile's
             own kernels: policy()
  measure    the allocator's peak of one step: measure()
  models     the command line's MODEL names, inputs, seeds and loss
  torch_cmd  remat-torch export | run
"""

from ..errors import BridgeError, CheckFailed  # noqa: F401
from .backend import backend  # noqa: F401
from .export import export  # noqa: F401
from .measure import Measurement, measure  # noqa: F401
from .policy import Policy, policy  # noqa: F401
from .wrap import Plan, RematModule, wrap  # noqa: F401

__all__ = ["export", "wrap", "backend", "policy", "Policy", "measure",
           "Measurement", "Plan",
           "RematModule", "BridgeError", "CheckFailed"]
