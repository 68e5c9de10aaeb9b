"""remat: tensor-rematerialization schedules.

Given a computation graph (nodes with a duration and an output size) and a
memory budget, remat finds an execution order, recomputing some nodes,
whose peak memory fits the budget with the least total duration.  This
package calls remat's C library for everything: reading graphs, the
solver portfolio, the baselines and the simulator.

    import remat
    g = remat.load_graph("ResNet50_train_nx.json")
    r = remat.solve(g, 0.8, time_limit=30)
    print(r.status, r.tdi, r.peak <= r.budget, r.bound)

remat.torch (PyTorch 2) and remat.onnx are imported on their own.
"""

from .errors import (BridgeError, CheckFailed, InfeasibleError,
                     InternalError, RematError)
from .graph import Graph, load_graph, parse_budget
from .result import Result, Simulation
from .solver import METHODS, baseline, simulate, solve

__version__ = "0.1.0"

__all__ = ["Graph", "Result", "Simulation", "RematError", "BridgeError",
           "CheckFailed", "InfeasibleError", "InternalError", "METHODS",
           "load_graph", "parse_budget", "solve", "baseline", "simulate", "__version__"]
