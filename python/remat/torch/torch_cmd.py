"""remat-torch export | run: the command line."""

import os
import shutil
import statistics
import subprocess
import sys
import time

from ..errors import BridgeError
from ..cliutil import Parser, log, parse_shape, run_main, shape_text

USAGE = """\
remat-torch export MODEL --input SHAPE [--batch N] [--train] [-o graph.json]
                   [--durations profile|flops] [--repeat N] [--seed N]
                   [--threads N] [--quiet]
remat-torch run MODEL graph.json SCHEDULE.json... [--input SHAPE] [--batch N]
                [--train] [--seed N] [--repeat N] [--rtol X] [--threads N]
                [--quiet]

MODEL: a torchvision model name (resnet18) or FILE.py:FACTORY.
SHAPE: the input's sizes without the batch, e.g. 3x224x224.
"""


def _parser(cmd):
    p = Parser(prog=f"remat-torch {cmd}", add_help=True, usage=USAGE)
    p.add_argument("model", metavar="MODEL")
    if cmd == "run":
        p.add_argument("graph", metavar="graph.json")
        p.add_argument("schedules", metavar="SCHEDULE.json", nargs="+")
    p.add_argument("--input", dest="shape", required=(cmd == "export"))
    p.add_argument("--batch", type=int, default=None)
    p.add_argument("--train", action="store_true", default=None)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--repeat", type=int,
                   default=3 if cmd == "export" else 1)
    p.add_argument("--quiet", "-q", action="store_true")
    if cmd == "export":
        p.add_argument("-o", dest="output", default="-")
        p.add_argument("--durations", choices=("profile", "flops"),
                       default="profile")
    else:
        p.add_argument("--rtol", type=float, default=1e-5)
    return p


def _setup_torch(args):
    if args.threads < 1:
        raise BridgeError(f"--threads {args.threads}: must be positive")
    if args.repeat < 1:
        raise BridgeError(f"--repeat {args.repeat}: must be positive")
    import torch
    torch.set_num_threads(args.threads)


def _graph_name(spec):
    base = spec.name.rpartition(":")[2] if ":" in spec.name else spec.name
    mode = "train" if spec.train else "infer"
    shape = "x".join(str(s) for s in spec.shape)
    return f"{base}_{mode}_b{spec.batch}_{shape}"


def _graph_nodes(spec, trace, an, durations):
    """The native graph's nodes (dicts, in trace order) and edges."""
    from .trace import op_name
    groups = an.ordered()
    new_id = {g.index: i for i, g in enumerate(groups)}
    nodes = []
    for i, g in enumerate(groups):
        node = {"id": i, "duration": durations[g.index],
                "memory": g.memory}
        if spec.train:
            node["backward"] = trace.position[g.anchor] >= trace.loss_index
        node["label"] = g.anchor.name
        node["op"] = op_name(g.anchor)
        others = [m.name for m in g.members if m is not g.anchor]
        if others:
            node["members"] = others
        node["shape"] = g.shapes
        nodes.append(node)
    edges = sorted((new_id[u], new_id[v]) for u, v in an.edges())
    return nodes, edges


def export(argv):
    args = _parser("export").parse_args(argv)
    shape = parse_shape(args.shape)
    _setup_torch(args)
    import torch
    from .models import ModelSpec
    spec = ModelSpec(args.model, shape, args.batch or 1, bool(args.train),
                     args.seed or 0)
    from .durations import FlopCounter, group_durations, profile
    from .executor import simulate
    from ..graphfile import write_graph
    from .memory import analyse
    from .trace import trace_model

    t0 = time.perf_counter()
    trace = trace_model(spec)
    t1 = time.perf_counter()
    log(args, f"remat-torch: traced {spec.description()}: "
              f"{len(trace.nodes)} fx nodes in {t1 - t0:.1f} s")
    flops = FlopCounter()
    flat, _ = spec.flat_inputs()
    an = analyse(trace, flat, flops)
    t2 = time.perf_counter()
    if args.durations == "profile":
        per_node = profile(trace, spec, args.repeat)
        unit = f"ns of CPU time, median of {args.repeat} runs"
    else:
        per_node = flops.flops
        unit = "FLOP (estimate)"
    durations = group_durations(an, per_node)
    t3 = time.perf_counter()

    nodes, edges = _graph_nodes(spec, trace, an, durations)
    if not nodes:
        raise BridgeError(f"{spec.name} computes nothing from its input")
    order = list(range(len(nodes)))
    fixed = an.fixed_bytes
    meta = {
        "format": "remat",
        "name": _graph_name(spec),
        "source": "remat-torch",
        "model": spec.name,
        "input": list(spec.shape),
        "batch": spec.batch,
        "train": spec.train,
        "seed": spec.seed,
        "durations": args.durations,
        "duration_unit": unit,
        "threads": args.threads,
        "torch": torch.__version__,
        "param_bytes": spec.fixed_bytes()[0],
        "grad_bytes": an.grad_bytes,
        "buffer_bytes": spec.fixed_bytes()[1],
        "input_bytes": fixed.get("input", 0),
        "target_bytes": fixed.get("target", 0),
        "constant_bytes": fixed.get("constant", 0),
        "fx_nodes": len(trace.nodes),
        "fixed_aliases": [n.name for n in an.fixed_aliases],
    }
    write_graph(args.output, meta, nodes, edges, order)

    preds = [[] for _ in nodes]
    for u, v in edges:
        preds[v].append(u)
    _, _, peak = simulate(preds, [n["memory"] for n in nodes],
                          order, order)
    where = "" if args.output == "-" else f"; wrote {args.output}"
    log(args, f"remat-torch: {len(nodes)} nodes, {len(edges)} edges, "
              f"input-order peak {peak} B; parameters {meta['param_bytes']} B"
              f", gradients {meta['grad_bytes']} B{where} (analysis "
              f"{t2 - t1:.1f} s, durations {t3 - t2:.1f} s)")
    return 0


def _option(key, given, stored, path, render=str):
    """An option of run: given on the command line (it must agree with the
    graph file's) or the graph file's."""
    if given is None:
        return stored
    if stored is not None and given != stored:
        raise BridgeError(f"{key} {render(given)} differs from {path}'s "
                          f"{render(stored)}")
    return given


def _remat_binary():
    """remat: $REMAT, next to the entry script (installed), the source
    tree's build/ (scripts/../build), PATH."""
    here = os.path.dirname(os.path.realpath(sys.argv[0]))
    for cand in (os.environ.get("REMAT"), os.path.join(here, "remat"),
                 os.path.join(os.path.dirname(here), "build", "remat"),
                 shutil.which("remat")):
        if cand and os.path.isfile(cand) and os.access(cand, os.X_OK):
            return cand
    return None


def _remat_peak(graph_path, sched_path):
    """The peak remat eval reports for a schedule, or None."""
    binary = _remat_binary()
    if binary is None:
        return None
    try:
        out = subprocess.run([binary, "eval", graph_path, sched_path],
                             capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.SubprocessError):
        return None
    for line in out.stdout.splitlines():
        if line.startswith("peak:"):
            return int(line.split()[1])
    return None


def run(argv):
    args = _parser("run").parse_args(argv)
    from ..graphfile import read_graph, read_schedule

    graph = read_graph(args.graph, "remat-torch")
    stored_shape = tuple(graph.get("input") or ()) or None
    shape = _option("--input",
                    parse_shape(args.shape) if args.shape else None,
                    stored_shape, args.graph, shape_text)
    if shape is None:
        raise BridgeError("--input is required")
    batch = _option("--batch", args.batch, graph.get("batch"),
                    args.graph) or 1
    train = _option("--train", args.train, graph.get("train"),
                    args.graph, lambda t: "train" if t else "inference")
    seed = _option("--seed", args.seed, graph.get("seed"),
                   args.graph) or 0
    schedules = []
    for path in args.schedules:
        seq, info = read_schedule(path, graph)
        schedules.append((path, seq, info))
    _setup_torch(args)
    from .models import ModelSpec
    spec = ModelSpec(args.model, shape, batch, bool(train), seed)
    from .executor import Executor, Plan, plain_run, relative_error, simulate
    from .trace import trace_model

    t0 = time.perf_counter()
    trace = trace_model(spec)
    plan = Plan(trace, graph, args.graph)
    log(args, f"remat-torch: traced {spec.description()} in "
              f"{time.perf_counter() - t0:.1f} s; {len(plan.members)} nodes "
              "match the graph")
    ids = {str(n["id"]): i for i, n in enumerate(graph["nodes"])}
    order = [ids[str(v)] for v in graph["order"]]
    sims = []
    for path, seq, info in schedules:
        sims.append(simulate(plan.preds, plan.memory, plan.ids, seq))
    in_lastuse, _, in_peak = simulate(plan.preds, plan.memory, plan.ids,
                                      order)

    ref, ref_state, plain_t = plain_run(spec)
    plain_times = [plain_t]
    for _ in range(args.repeat - 1):
        plain_times.append(plain_run(spec)[2])
    ex = Executor(plan)
    rng = {}
    base = ex.run(order, in_lastuse, rng, record=True)
    base_times = [base.times]
    for _ in range(args.repeat - 1):
        base_times.append(ex.run(order, in_lastuse, rng, False).times)

    def check(res):
        """A description of the comparison with the plain model, and
        whether everything matched."""
        errs = [relative_error(a, b) for a, b in zip(res.outputs, ref)]
        serrs = [relative_error(a, b) for a, b in zip(res.state, ref_state)]
        if len(res.outputs) != len(ref) or len(res.state) != len(ref_state):
            errs.append(float("inf"))
        ok = all(e <= args.rtol for e in errs + serrs)
        if spec.train:
            worst = max(errs[1:], default=0.0)
            text = (f"loss rel {errs[0]:.3g}, {len(errs) - 1} parameter "
                    f"gradients max rel {worst:.3g}")
        else:
            text = f"{len(errs)} outputs max rel {max(errs):.3g}"
        if serrs:
            text += (f", {len(serrs)} state tensors max rel "
                     f"{max(serrs):.3g}")
        return ("equal" if ok else "DIFFERENT") + f" ({text})", ok

    base_text, base_ok = check(base)

    def med(samples):
        """Medians of (wall, CPU) samples."""
        return tuple(statistics.median(x[i] for x in samples)
                     for i in (0, 1))

    def timing(samples):
        wall, cpu = med(samples)
        return f"wall {wall:.4f} s, cpu {cpu:.4f} s"

    rc = 0
    print(f"model: {spec.description()}")
    print(f"nodes: {len(plan.members)}")
    print(f"input_order: {base_text}")
    print(f"input_order_peak_measured: {base.peak}")
    print(f"input_order_peak_simulated: {in_peak}")
    print(f"time_plain: {timing(plain_times)}")
    print(f"time_input_order: {timing(base_times)}")
    if not base_ok or base.peak != in_peak:
        rc = 4
    for (path, seq, info), (lastuse, _, sim_peak) in zip(schedules, sims):
        res = ex.run(seq, lastuse, rng, record=False)
        times = [res.times]
        for _ in range(args.repeat - 1):
            times.append(ex.run(seq, lastuse, rng, False).times)
        text, ok = check(res)
        remat_peak = info.get("peak")
        if not isinstance(remat_peak, int):
            remat_peak = _remat_peak(args.graph, path)
        budget = info.get("budget")
        print(f"schedule: {path}")
        print(f"steps: {len(seq)}")
        print(f"recomputations: {len(seq) - len(plan.members)}")
        print(f"outputs: {text}")
        print(f"peak_measured: {res.peak}")
        print(f"peak_simulated: {sim_peak}")
        print(f"peak_remat: {remat_peak if remat_peak is not None else 'n/a'}")
        if isinstance(budget, int):
            print(f"budget: {budget}")
            print(f"within_budget: {'yes' if res.peak <= budget else 'no'}")
        t_in, t_s = med(base_times)[1], med(times)[1]
        print(f"time_schedule: {timing(times)}")
        if t_in > 0:
            print(f"cpu_vs_input_order_percent: "
                  f"{100.0 * (t_s - t_in) / t_in:+.1f}")
        same = res.peak == sim_peak and remat_peak in (None, sim_peak)
        if not ok or not same:
            rc = 4
            why = ("outputs differ from the plain model's" if not ok else
                   f"measured peak {res.peak} != simulated {sim_peak}"
                   f" (remat: {remat_peak})")
            print(f"remat-torch: check failed: {path}: {why}",
                  file=sys.stderr)
        elif isinstance(budget, int) and res.peak > budget and rc == 0:
            rc = 3
    if not base_ok or base.peak != in_peak:
        print("remat-torch: check failed: the input order does not match "
              "the plain model or the memory model", file=sys.stderr)
    return rc


def main(argv):
    def body(argv):
        if not argv or argv[0] in ("-h", "--help", "help"):
            sys.stdout.write(USAGE)
            return 0 if argv else 2
        cmd, rest = argv[0], argv[1:]
        if cmd == "export":
            return export(rest)
        if cmd == "run":
            return run(rest)
        raise BridgeError(f"unknown command {cmd!r} (export or run)")
    return run_main("remat-torch", body, argv)
