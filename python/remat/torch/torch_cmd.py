"""remat-torch export | run: the command line."""

import statistics
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


def _step_spec(spec):
    """The traced step of a ModelSpec: the model on its input and, when
    training, the loss against its target."""
    from .models import loss_of
    from .trace import StepSpec
    return StepSpec(spec.module, (spec.x,), spec.train,
                    loss_of if spec.train else None,
                    (spec.y,) if spec.train else (), name=spec.name,
                    description=spec.description())


def export(argv):
    args = _parser("export").parse_args(argv)
    shape = parse_shape(args.shape)
    _setup_torch(args)
    import remat
    from .models import ModelSpec
    spec = ModelSpec(args.model, shape, args.batch or 1, bool(args.train),
                     args.seed or 0)
    from .export import build
    from ..graphfile import write_graph

    t0 = time.perf_counter()
    built = build(_step_spec(spec), args.durations, args.repeat)
    t1 = time.perf_counter()
    graph = built.graph
    log(args, f"remat-torch: traced {spec.description()}: "
              f"{graph['fx_nodes']} fx nodes, graph in {t1 - t0:.1f} s")
    meta = {k: v for k, v in graph.items()
            if k not in ("nodes", "edges", "order")}
    meta.update({"name": _graph_name(spec), "model": spec.name,
                 "input": list(spec.shape), "batch": spec.batch,
                 "seed": spec.seed, "threads": args.threads})
    write_graph(args.output, meta, graph["nodes"], graph["edges"],
                graph["order"])
    peak = remat.load_graph(graph).topo_peak
    where = "" if args.output == "-" else f"; wrote {args.output}"
    log(args, f"remat-torch: {len(graph['nodes'])} nodes, "
              f"{len(graph['edges'])} edges, input-order peak {peak} B; "
              f"parameters {meta['param_bytes']} B, gradients "
              f"{meta['grad_bytes']} B{where}")
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


def _check_structure(built, graph, path, spec):
    """The file's nodes (label, members, op, memory) and edges must be the
    fresh trace's."""
    def mismatch(detail):
        return BridgeError(
            f"{path} does not match the trace of {spec.description()}: "
            f"{detail} (export the graph again with the same model and "
            "options)")

    mine, theirs = built.graph["nodes"], graph["nodes"]
    if len(mine) != len(theirs):
        raise mismatch(f"{len(theirs)} nodes in the file, {len(mine)} in "
                       "the trace")
    for a, b in zip(mine, theirs):
        for key in ("label", "op", "memory"):
            if a.get(key) != b.get(key):
                raise mismatch(f"node {b['id']}: {key} {b.get(key)!r} in "
                               f"the file, {a.get(key)!r} in the trace")
        if list(a.get("members", [])) != list(b.get("members", [])):
            raise mismatch(f"node {b['id']}: members differ")
        if a["id"] != b["id"]:
            raise mismatch(f"node ids differ ({b['id']} for {a['id']})")
    edges = {tuple(e) for e in built.graph["edges"]}
    file_edges = set()
    for e in graph["edges"]:
        if not isinstance(e, list) or len(e) != 2:
            raise BridgeError(f"{path}: bad edge {e!r}")
        file_edges.add(tuple(e))
    if edges != file_edges:
        diff = sorted(edges ^ file_edges, key=str)[0]
        raise mismatch(f"edge {diff[0]} -> {diff[1]} differs")


def _execute(ex, spec, trace):
    """One run of the executor on the pristine weights, seeded like the
    plain model: (outputs like plain_run's, state after, the call,
    (wall, CPU) seconds)."""
    import torch
    from .executor import run_whole
    from .models import seed_all
    flat, _ = spec.flat_inputs()
    gouts = [torch.ones(())] if spec.train else []
    seed_all(spec.seed)
    t0, c0 = time.perf_counter(), time.process_time()
    with torch.no_grad():
        outs, grads, call = run_whole(ex, flat, gouts, meter=True)
    times = (time.perf_counter() - t0, time.process_time() - c0)
    if spec.train:
        n = len(spec.grad_names)
        params = flat[:n]
        outs = outs[:1] + [g if g is not None else torch.zeros_like(p)
                           for g, p in zip(grads, params)]
    kinds = [trace.kinds[ph] for ph in trace.placeholders]
    nstate = len(spec.state_names)
    first = kinds.index("state") if "state" in kinds else 0
    state = flat[first:first + nstate]
    return outs, state, call, times


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
    import remat
    import torch
    from .executor import Executor, Program
    from .export import build
    from .models import ModelSpec
    from .models import plain_run, relative_error

    spec = ModelSpec(args.model, shape, batch, bool(train), seed)
    t0 = time.perf_counter()
    built = build(_step_spec(spec), "flops")
    _check_structure(built, graph, args.graph, spec)
    nodes = graph["nodes"]
    log(args, f"remat-torch: traced {spec.description()} in "
              f"{time.perf_counter() - t0:.1f} s; {len(nodes)} nodes "
              "match the graph")
    g = remat.load_graph(built.graph)
    ids = [n["id"] for n in nodes]
    cpu = torch.device("cpu")

    def program(seq):
        return Program(built, [ids[v] for v in seq])

    order = list(range(len(nodes)))
    programs = [(path, program(seq), info) for path, seq, info in schedules]
    in_peak = remat.simulate(g, order).peak

    ref, ref_state, plain_t = plain_run(spec)
    plain_times = [plain_t]
    for _ in range(args.repeat - 1):
        plain_times.append(plain_run(spec)[2])
    base_ex = Executor(built, program(order), cpu)
    runs = [_execute(base_ex, spec, built.trace)
            for _ in range(args.repeat)]
    base = runs[0]
    base_peak = max(base[2].meter.memory)
    base_times = [r[3] for r in runs]

    def check(outs, state):
        """A description of the comparison with the plain model, and
        whether everything matched."""
        errs = [relative_error(a, b) for a, b in zip(outs, ref)]
        serrs = [relative_error(a, b) for a, b in zip(state, ref_state)]
        if len(outs) != len(ref) or len(state) != len(ref_state):
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

    base_text, base_ok = check(base[0], base[1])

    def med(samples):
        """Medians of (wall, CPU) samples."""
        return tuple(statistics.median(x[i] for x in samples)
                     for i in (0, 1))

    def timing(samples):
        wall, cpu_s = med(samples)
        return f"wall {wall:.4f} s, cpu {cpu_s:.4f} s"

    rc = 0
    print(f"model: {spec.description()}")
    print(f"nodes: {len(nodes)}")
    print(f"input_order: {base_text}")
    print(f"input_order_peak_measured: {base_peak}")
    print(f"input_order_peak_simulated: {in_peak}")
    print(f"time_plain: {timing(plain_times)}")
    print(f"time_input_order: {timing(base_times)}")
    if not base_ok or base_peak != in_peak:
        rc = 4
    for path, prog, info in programs:
        ex = Executor(built, prog, cpu)
        runs = [_execute(ex, spec, built.trace) for _ in range(args.repeat)]
        outs, state, call, _ = runs[0]
        times = [r[3] for r in runs]
        peak = max(call.meter.memory)
        sim_peak = remat.simulate(g, [ids[v] for v in prog.seq]).peak
        text, ok = check(outs, state)
        remat_peak = info.get("peak")
        if not isinstance(remat_peak, int):
            remat_peak = None
        budget = info.get("budget")
        print(f"schedule: {path}")
        print(f"steps: {len(prog.seq)}")
        print(f"recomputations: {prog.recomputations}")
        print(f"outputs: {text}")
        print(f"peak_measured: {peak}")
        print(f"peak_simulated: {sim_peak}")
        print(f"peak_remat: {remat_peak if remat_peak is not None else 'n/a'}")
        if isinstance(budget, int):
            print(f"budget: {budget}")
            print(f"within_budget: {'yes' if peak <= budget else 'no'}")
        t_in, t_s = med(base_times)[1], med(times)[1]
        print(f"time_schedule: {timing(times)}")
        if t_in > 0:
            print(f"cpu_vs_input_order_percent: "
                  f"{100.0 * (t_s - t_in) / t_in:+.1f}")
        same = peak == sim_peak and remat_peak in (None, sim_peak)
        if not ok or not same:
            rc = 4
            why = ("outputs differ from the plain model's" if not ok else
                   f"measured peak {peak} != simulated {sim_peak}"
                   f" (remat: {remat_peak})")
            print(f"remat-torch: check failed: {path}: {why}",
                  file=sys.stderr)
        elif isinstance(budget, int) and peak > budget and rc == 0:
            rc = 3
    if not base_ok or base_peak != in_peak:
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


def console() -> None:
    """The remat-torch console script."""
    sys.exit(main(sys.argv[1:]))
