"""remat.torch.wrap: an nn.Module that trains along remat's schedule.

The wrapped module's forward runs the schedule's steps before the output
gradients (grad_out) under no_grad, inside one torch.autograd.Function,
and keeps exactly the values the schedule still reads later: autograd
saves nothing else.  Its backward runs the remaining steps (the ATen
backward operations of the traced joint graph, with the recomputations
where the schedule puts them) from the incoming output gradients and
returns the gradients of the parameters and inputs, which autograd then
accumulates into their ``.grad`` as usual.

The plan (trace, graph, schedule) is made per input signature: the shapes,
dtypes, devices and requires_grad of the inputs, the module's training
mode, and its parameters' dtypes, devices and requires_grad.  A call with a
new signature plans again (``replan=False``: it raises instead).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence, Union

import torch
from torch.utils._pytree import tree_unflatten

from ..errors import BridgeError
from .executor import Call, Executor, Program
from .export import Built, build
from .trace import StepSpec

Budget = Union[int, float, str]


@dataclass
class Plan:
    """One input signature's plan.

    schedule: graph node ids in execution order (a repeated id is a
    recomputation); forward_steps: how many of them the forward call runs.
    peak: remat's predicted peak (bytes above parameters, buffers and
    inputs: activations, output gradients and parameter gradients);
    input_order_peak: the same for the trace's own order (no
    recomputation); budget: in bytes; tdi: the schedule's duration over
    the trace's, in percent.  graph: the native graph solved.
    other_order_tdi: on the trace's order (``free_order=False``), the TDI
    of a schedule in another order that the solve found within the
    budget and shorter (``free_order=True`` plans in every order); None
    if it found none.
    """

    schedule: list[Any]
    forward_steps: int
    peak: int
    budget: int
    input_order_peak: int
    tdi: float
    duration: int
    status: str
    bound: Optional[float]
    recomputations: int
    device: torch.device
    solve_time_s: float
    graph: dict = field(repr=False)
    executor: Executor = field(repr=False, compare=False)
    grad_sources: list = field(repr=False, compare=False,
                               default_factory=list)
    other_order_tdi: Optional[float] = None


def _module_tensors(model: torch.nn.Module
                    ) -> tuple[dict[str, torch.Tensor], list[torch.Tensor]]:
    """One walk of the module tree per call, where named_parameters,
    named_buffers and parameters would walk it once each: every parameter
    and buffer by name, a tied one under each of its names, and the
    distinct parameters in model.parameters()'s order."""
    tensors: dict[str, torch.Tensor] = {}
    params: list[torch.Tensor] = []
    seen: set[int] = set()
    for prefix, mod in model.named_modules():
        dot = prefix + "." if prefix else ""
        for k, p in mod._parameters.items():
            if p is not None:
                tensors.setdefault(dot + k, p)
                if id(p) not in seen:
                    seen.add(id(p))
                    params.append(p)
        for k, b in mod._buffers.items():
            if b is not None:
                tensors.setdefault(dot + k, b)
    return tensors, params


def _signature(model: torch.nn.Module, args: Sequence[Any],
               params: Optional[Sequence[torch.Tensor]] = None) -> tuple:
    def sig(t: torch.Tensor) -> tuple:
        return (tuple(t.shape), t.dtype, t.device, t.requires_grad)
    if params is None:
        params = _module_tensors(model)[1]
    return (model.training, tuple(sig(a) for a in args),
            tuple((p.dtype, p.device, p.requires_grad) for p in params))


def _device(model: torch.nn.Module, args: Sequence[torch.Tensor],
            name: str) -> torch.device:
    """The inputs' device; the model's tensors must all be there."""
    devices = {a.device for a in args}
    if len(devices) > 1:
        raise BridgeError(f"{name}: the inputs are on several devices "
                          f"({', '.join(sorted(map(str, devices)))})")
    device = devices.pop()
    for n, t in list(model.named_parameters()) + list(model.named_buffers()):
        if t.device != device:
            raise BridgeError(
                f"{name}: {n} is on {t.device} but the inputs are on "
                f"{device}: move the model and its inputs to one device")
    return device


class _Step(torch.autograd.Function):
    """One step: forward(plan, state, n_params, *params, *inputs) returns
    the step's output tensors; backward returns the gradients of the
    parameters and inputs."""

    @staticmethod
    def forward(ctx: Any, plan: Plan, state: list[torch.Tensor],
                n_params: int, *tensors: torch.Tensor) -> Any:
        ex = plan.executor
        flat = list(tensors[:n_params]) + list(state) + list(tensors[n_params:])
        call = ex.start(flat)
        outs = ex.forward(call)
        call.results.clear()
        # outputs still read later are saved through autograd: kept in the
        # call they would make a reference cycle through their grad_fn
        out_ids = {id(o) for o in outs}
        saved = [(n, v) for n, v in call.env.items()
                 if isinstance(v, torch.Tensor) and id(v) in out_ids]
        for n, _ in saved:
            del call.env[n]
        ctx.save_for_backward(*[v for _, v in saved])
        ctx.saved_nodes = [n for n, _ in saved]
        ctx.call, ctx.plan, ctx.n_params = call, plan, n_params
        ctx.n_inputs = len(tensors) - n_params
        diff = set(ex.trace.diff_outputs)
        ctx.mark_non_differentiable(*[o for k, o in enumerate(outs)
                                      if k not in diff])
        # an output the loss does not use gets None, not zeros: the
        # gradients that only it reaches stay None, as in the plain model
        ctx.set_materialize_grads(False)
        ctx.out_like = [(o.shape, o.dtype, o.device) for o in outs]
        return tuple(outs)

    @staticmethod
    def backward(ctx: Any, *grad_outputs: torch.Tensor) -> Any:
        call: Optional[Call] = ctx.call
        if call is None:
            raise RuntimeError("remat.torch.wrap: the backward of a wrapped "
                               "step runs once (retain_graph is not "
                               "supported)")
        ctx.call = None
        for n, v in zip(ctx.saved_nodes, ctx.saved_tensors):
            call.env[n] = v
        ex = ctx.plan.executor
        diff = ex.trace.diff_outputs
        used = [grad_outputs[k] is not None for k in diff]
        gouts = [g if g is not None else
                 torch.zeros(ctx.out_like[k][0], dtype=ctx.out_like[k][1],
                             device=ctx.out_like[k][2])
                 for k, g in ((k, grad_outputs[k]) for k in diff)]
        grads = ex.backward(call, gouts)
        if not all(used):
            sources = ctx.plan.grad_sources
            grads = [g if any(used[k] for k in sources[i]) else None
                     for i, g in enumerate(grads)]
        spec = ex.trace.spec
        ng = len(spec.grad_names)
        params = grads[:ng] + [None] * (ctx.n_params - ng)
        inputs: list[Optional[torch.Tensor]] = [None] * ctx.n_inputs
        for i, g in zip(spec.grad_inputs, grads[ng:]):
            inputs[i] = g
        return (None, None, None, *params, *inputs)


def _grad_sources(trace: Any) -> list[set[int]]:
    """For each of the trace's gradients, the differentiable outputs whose
    incoming gradients it is computed from (positions in diff_outputs)."""
    reach: dict[torch.fx.Node, set[int]] = {}
    for k, ph in enumerate(trace.grad_out_nodes()):
        reach.setdefault(ph, set()).add(k)
    for n in trace.nodes:                       # in trace order
        for a in n.all_input_nodes:
            if a in reach:
                reach.setdefault(n, set()).update(reach[a])
    return [set() if g is None else reach.get(g, set()) for g in trace.grads]


class RematModule(torch.nn.Module):
    """A module that runs ``module`` along remat schedules (see wrap).

    ``module`` is the wrapped module itself (its parameters are this
    module's); ``plan`` the plan of the latest call; ``plans`` every plan
    made, by input signature.
    """

    def __init__(self, module: torch.nn.Module, budget: Budget,
                 loss_fn: Optional[Callable[..., Any]], n_inputs: int,
                 options: dict[str, Any]) -> None:
        super().__init__()
        self.module = module
        self.budget, self.loss_fn, self.n_inputs = budget, loss_fn, n_inputs
        self.options = options
        self.plans: dict[tuple, Plan] = {}
        self._last: Optional[Plan] = None

    @property
    def plan(self) -> Optional[Plan]:
        return self._last

    def _name(self) -> str:
        return type(self.module).__name__

    def _plain(self, args: Sequence[Any]) -> Any:
        out = self.module(*args[:self.n_inputs])
        if self.loss_fn is not None:
            out = self.loss_fn(out, *args[self.n_inputs:])
        return out

    def make_plan(self, args: Sequence[torch.Tensor]) -> Plan:
        """Trace, solve and bind a plan for these arguments."""
        opts = self.options
        device = _device(self.module, args, self._name())
        spec = StepSpec(self.module, args[:self.n_inputs], True,
                        self.loss_fn, args[self.n_inputs:],
                        name=self._name())
        built = build(spec, opts["durations"], opts["repeat"],
                      opts["temporaries"], opts["grads"])
        import remat
        g = remat.load_graph(built.graph)
        t0 = time.perf_counter()
        least = g.min_peak if opts["free_order"] else g.order_min_peak
        budget = _budget_bytes(self.budget, g.topo_peak, least)
        try:
            r = remat.solve(g, budget, time_limit=opts["time_limit"],
                            threads=opts["threads"], seed=opts["seed"],
                            free_order=opts["free_order"])
        except remat.InfeasibleError as e:
            raise _explained(e, built) from None
        solve_time = time.perf_counter() - t0
        if r.schedule is None:
            raise remat.InfeasibleError(
                f"no schedule of {self._name()} fits budget {r.budget} "
                f"({r.status})", r, r.min_peak)
        program = Program(built, r.schedule)
        _forget_examples(built)
        return Plan(schedule=list(r.schedule), forward_steps=program.split,
                    peak=int(r.peak), budget=int(r.budget),
                    input_order_peak=int(r.topo_peak), tdi=float(r.tdi),
                    duration=int(r.duration), status=r.status,
                    bound=r.bound, recomputations=program.recomputations,
                    device=device, solve_time_s=solve_time,
                    graph=built.graph,
                    executor=Executor(built, program, device),
                    grad_sources=_grad_sources(built.trace),
                    other_order_tdi=(r.other_order or {}).get("tdi_percent"))

    def forward(self, *args: Any) -> Any:
        if not torch.is_grad_enabled():
            return self._plain(args)
        if len(args) != self.n_inputs + self._n_targets():
            raise BridgeError(
                f"{self._name()}: called with {len(args)} arguments, "
                f"planned for {self.n_inputs + self._n_targets()}")
        if not all(isinstance(a, torch.Tensor) for a in args):
            raise BridgeError(f"{self._name()}: every argument must be a "
                              "tensor")
        tensors, distinct = _module_tensors(self.module)
        key = _signature(self.module, args, distinct)
        plan = self.plans.get(key)
        if plan is None:
            plan = self._new_plan(args, key)
        self._last = plan
        ex = plan.executor
        spec = ex.trace.spec
        params = [tensors[n] for n in spec.grad_names]
        state = [tensors[n] for n in spec.state_names]
        outs = _Step.apply(plan, state, len(params), *params, *args)
        leaves = list(ex.trace.out_leaves)
        it = iter(outs)
        leaves = [next(it) if leaf is None else leaf for leaf in leaves]
        return tree_unflatten(leaves, ex.trace.out_spec)

    def _n_targets(self) -> int:
        return self.options["n_targets"]

    def _new_plan(self, args: Sequence[torch.Tensor], key: tuple) -> Plan:
        if self.plans and not self.options["replan"]:
            old = next(iter(self.plans))
            device = _device(self.module, args, self._name())
            planned = self.plans[old].device
            if device != planned:
                raise BridgeError(
                    f"{self._name()}: the plan was made for {planned}, "
                    f"the model and inputs are on {device} (replan=True "
                    "plans again)")
            shapes = [tuple(a.shape) for a in args]
            want = [s[0] for s in old[1]]
            raise BridgeError(
                f"{self._name()}: inputs {shapes} differ from the plan's "
                f"{want} (or their dtype, requires_grad, or the module's "
                "training mode; replan=True plans again)")
        plan = self.make_plan(args)
        self.plans[key] = plan
        return plan


def _floor(built: Built) -> int:
    """The bytes alive when the backward returns, whatever the schedule:
    the parameters' gradients, the outputs and the output gradient (the
    sink's inputs); 0 without a sink (grads "fixed")."""
    if built.sink is None:
        return 0
    graph = built.graph
    sink = graph["nodes"][built.sink]["id"]
    return sum(graph["nodes"][u]["memory"] for u, v in graph["edges"]
               if v == sink)


def _budget_bytes(budget: Budget, topo_peak: int, floor: int) -> int:
    """The plan's budget in bytes.  A size bounds the whole step's peak.  A
    fraction or percentage f (one that scales with the peak it is of) is
    of the memory a schedule can save: floor + f (topo_peak - floor), with
    the floor no schedule goes below (the graph's order_min_peak: the
    gradients, outputs and output gradient alive when the backward
    returns, and each step's own inputs, outputs and temporaries beside
    what is computed once and kept), so that 0.6 asks for 40 % less of it,
    as torch's activation_memory_budget does."""
    import remat
    b = remat.parse_budget(budget, topo_peak)
    relative = remat.parse_budget(budget, 2 * topo_peak) != b
    if not relative or topo_peak <= 0:
        return b
    if topo_peak <= floor:      # nothing a schedule can save
        return topo_peak
    return floor + (b * (topo_peak - floor)) // topo_peak


def _explained(e: Any, built: Built) -> Any:
    """InfeasibleError with what the floor is made of when the gradients
    (all alive when the backward returns) are most of it."""
    import remat
    graph = built.graph
    if built.sink is None:
        return e
    need = _floor(built)
    budget = getattr(e.result, "budget", None)
    if budget is None or budget >= need:
        return e
    return remat.InfeasibleError(
        f"{e}; the gradients, outputs and output gradient, all alive when "
        f"the backward returns, take {need} bytes (gradients "
        f"{graph['grad_bytes']}): no budget below that fits, at any "
        "fraction (a larger batch or input gives remat more to save)",
        e.result, e.bound)


def _forget_examples(built: Built) -> None:
    """Drop the example inputs and outputs the trace holds (the plan must
    not keep them alive); non-tensor output leaves stay as constants."""
    trace = built.trace
    trace.out_leaves = [None if isinstance(t, torch.Tensor) else t
                        for t in trace.out_leaves]
    trace.spec.inputs = tuple(None for _ in trace.spec.inputs)
    trace.spec.targets = tuple(None for _ in trace.spec.targets)


def wrap(model: torch.nn.Module, example_inputs: Sequence[torch.Tensor],
         budget: Budget, loss_fn: Optional[Callable[..., Any]] = None,
         time_limit: float = 30, *, targets: Sequence[torch.Tensor] = (),
         durations: str = "profile", repeat: int = 3, threads: int = 0,
         seed: int = 1, replan: bool = True, free_order: bool = False,
         temporaries: bool = True, grads: str = "live") -> RematModule:
    """A module that trains like ``model`` within a memory budget.

    It shares ``model``'s parameters and buffers (nothing is copied);
    ``wrapped(*inputs)`` returns what ``model(*inputs)`` returns, and
    ``backward()`` from it fills the same ``.grad``s, while the forward
    and backward follow remat's schedule: only what the schedule keeps
    lives until the backward, recomputations run where it puts them.
    Dropout and other random operations draw the plain model's numbers;
    batch-norm statistics update once per step.

    example_inputs: the positional tensor arguments of one call; the plan
    is made for their shapes, dtypes and device, and made again for a call
    with others (replan=False: such a call raises BridgeError).
    budget: bytes (1 << 20, "1.5GiB"): the step's whole peak above the
    parameters, buffers and inputs (activations, temporaries, gradients);
    or a fraction (0.6) or percentage ("60%") of what a schedule can
    save: the plain step's peak P above the floor F that no schedule goes
    below (the gradients, outputs and output gradient alive when the
    backward returns, and the largest step's inputs, outputs and
    temporaries beside what is kept) gives the budget F + 0.6 (P - F).
    loss_fn: ``loss_fn(output, *targets)``, so that the plan includes the
    loss; the wrapped module is then called as ``wrapped(*inputs,
    *targets)`` and returns the loss (``targets``: example targets).
    time_limit, threads, seed: remat.solve's.  free_order: let the
    schedule reorder the traced step too (lower peaks; the fraction is
    then of the peak above the graph's min_peak).  durations: "profile" (CPU
    time per operation, median of ``repeat`` runs) or "flops".
    temporaries: measure each operation's temporaries (the bytes it
    allocates beyond its outputs while it runs) and count them in the
    plan, so that the predicted peak is the allocator's.
    grads: "live" (the parameters' gradients are planned memory: they
    appear during the backward and all live when it returns, so no budget
    is below their total) or "fixed" (left out of the plan and the budget,
    like the parameters: the budget is then about activations, and the
    allocator sees the gradients on top of the prediction).

    The plan of the latest call is ``.plan`` (schedule, predicted peak,
    budget, TDI).  Under torch.no_grad the model runs as it is.  Raises
    BridgeError for a model that cannot be traced and
    remat.InfeasibleError (with .bound) when no schedule fits the budget.
    """
    inputs = tuple(example_inputs) + tuple(targets)
    options = {"time_limit": time_limit, "durations": durations,
               "repeat": repeat, "threads": threads, "seed": seed,
               "replan": replan, "n_targets": len(targets),
               "free_order": free_order,
               "temporaries": temporaries, "grads": grads}
    m = RematModule(model, budget, loss_fn, len(example_inputs), options)
    if not all(isinstance(a, torch.Tensor) for a in inputs):
        raise BridgeError(f"{type(model).__name__}: every example input "
                          "must be a tensor")
    m.plans[_signature(model, inputs)] = plan = m.make_plan(inputs)
    m._last = plan
    return m
