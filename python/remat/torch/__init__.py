"""remat.torch: export PyTorch and ONNX models as remat graphs and run
remat schedules on PyTorch models.

One concern per module:
  cli        the entry points' shared error handling and option parsing
  models     MODEL names, input shapes, seeds, the training loss
  trace      the ATen-level fx trace (make_fx over functionalize)
  fxeval     evaluating fx nodes and the tensors and storages they hold
  memory     grouping fx nodes into remat nodes (views and aliases folded
             into their base), node sizes, fixed memory
  durations  per-op CPU time (median of several runs) or a FLOP estimate
  graphfile  the native graph JSON written and read back, schedules
  executor   running a traced model along a remat schedule
  torch_cmd  remat-torch export | run
  onnx_cmd   remat-onnx
"""


from ..errors import BridgeError, CheckFailed  # noqa: F401
from .measure import Measurement, measure  # noqa: E402,F401
