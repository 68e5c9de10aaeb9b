"""bench/peers: remat beside the peers a user would pick instead, on the same
graphs, budgets, time limit and cores.

Methods (--methods, any subset, each runnable alone):
  remat            remat solve (its whole portfolio)
  moccasin-cpsat   Moccasin's model on OR-Tools CP-SAT (moccasin_cpsat.py)
  milp-highs       Checkmate's MILP (remat milp --write-mps) on HiGHS
  milp-scip        the same MILP on SCIP
  milp-cbc         remat milp: the same MILP on CBC, with remat's MIP start
Every schedule is re-simulated by `remat eval`; one it rejects is the
method's failure ("invalid"), never dropped.

The peers run in their own virtual environment, bench/peers/venv, made
from the pinned bench/peers/requirements.txt on the first run; remat's
Python package is taken from the source tree (python/, with the library
`make pylib` builds).  Each method runs as a child process, killed a
minute after its time limit if it overruns.

    python3 bench/peers/run.py --quick                       # a few minutes
    python3 bench/peers/run.py --budgets 0.9,0.8 --time-limit 60 \
        --out bench/out/peers                                # the 9 graphs
    python3 bench/peers/run.py --methods moccasin-cpsat \
        --graphs $REMAT_GRAPHS/random_layered_n100.json --budgets 0.8
    python3 bench/peers/run.py --gen-layered 500 --out bench/out/peers2
    REMAT_PY=path/to/torch-venv/bin/python python3 bench/peers/run.py \
        --torch-graphs --out bench/out/peers2            # budgets 0.7,0.5

Graphs not among the published ones are made in OUT/graphs (kept there and
reused): --gen-layered N[:SEED] by `remat gen layered` (seed 1 unless
given; RL G3, n500, is not published), --torch-graphs by remat's PyTorch
exporter run with the Python of --torch-python (default $REMAT_PY, which
needs torch and torchvision): the training step (forward, loss, backward)
of ResNet-50 and ViT-B/16 on one 3x224x224 image and of the zoo's 12-layer
GPT-style decoder (bench/transformers/gen.py), FLOP durations (the same on
every run), the parameter gradients counted apart as the parameters
(`--grads fixed`, Checkmate's convention).

Writes OUT/rows.jsonl (one record per run, appended; --resume skips the
runs already there) and OUT/table.md.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
VENV = HERE / "venv"
REMAT = ROOT / "build" / "remat"
LIB = ROOT / "build" / "pic" / "libremat.so"
METHODS = ["remat", "moccasin-cpsat", "milp-highs", "milp-scip", "milp-cbc"]
MILP_MAX_NODES = 500
# Moccasin's Table 3 rows whose best came within 70 s (16 cores): graph,
# budget, the paper's TDI % and seconds; --table3 runs Moccasin on CP-SAT
# on each with ten times the paper's time
TABLE3 = [("random_layered_n100.json", "0.9", 0.8, 9.3),
          ("random_layered_n100.json", "0.8", 2.3, 9.5),
          ("fcn_8_vgg_train_nx.json", "0.9", 0.0, 3.1),
          ("fcn_8_vgg_train_nx.json", "0.8", 0.1, 3.1),
          ("ResNet50_train_nx.json", "0.9", 0.2, 65.2),
          ("ResNet50_train_nx.json", "0.8", 0.3, 69.3)]
PACKAGES = ["ortools", "highspy", "pyscipopt", "pulp"]
_TV = ["--input", "3x224x224", "--batch", "1", "--train", "--durations",
       "flops", "--grads", "fixed", "--seed", "0", "-q", "-o", "{path}"]
_EXPORT = ["-c", "from remat.torch.torch_cmd import console; console()", "export"]
# --torch-graphs: the file in OUT/graphs and the torch Python's arguments
# that write it ({path}: that file, {dir}: its folder)
TORCH_GRAPHS = [
    ("resnet50_train.json", [*_EXPORT, "resnet50", *_TV]),
    ("vit_b_16_train.json", [*_EXPORT, "vit_b_16", *_TV]),
    ("gpt_12l.json", [str(ROOT / "bench" / "transformers" / "gen.py"), "{dir}", "12"]),
]


def _venv_python() -> Path:
    return VENV / "bin" / "python"


def ensure_venv() -> None:
    """Create bench/peers/venv from requirements.txt (once) and re-run
    this script inside it."""
    if Path(sys.prefix).resolve() == VENV.resolve():
        return
    stamp = VENV / ".installed"
    req = HERE / "requirements.txt"
    if not stamp.exists() or stamp.stat().st_mtime < req.stat().st_mtime:
        print(f"bench/peers: creating {VENV} from {req.name}", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(VENV)], check=True)
        subprocess.run([str(_venv_python()), "-m", "pip", "install", "-q",
                        "-r", str(req)], check=True)
        stamp.touch()
    os.execv(str(_venv_python()), [str(_venv_python()), __file__, *sys.argv[1:]])


def ensure_remat() -> None:
    missing = [p for p in (REMAT, LIB) if not p.exists()]
    if missing:
        sys.exit("bench/peers: missing " + ", ".join(map(str, missing))
                 + " (run `make` and `make pylib` at the repository root)")


def _child_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "python"), str(HERE)])
    env["REMAT_LIB"] = str(LIB)
    return env


# ------------------------------------------------------------ one run


def _result_file_row(path: str, rc: int) -> dict[str, Any]:
    with open(path) as f:
        d = json.load(f)
    return {"status": d.get("status"), "time_s": d.get("time_s"),
            "time_to_best_s": d.get("time_to_best_s"),
            "lower_bound": d.get("lower_bound"),
            "gap_percent": d.get("gap_percent"),
            "proof_covers": d.get("proof_covers"),
            "result_file": path if d.get("sequence") else None,
            "message": d.get("message"), "exit": rc}


def run_remat(cmd: str, graph: str, budget: str, tl: float, threads: int,
              seed: int, work: str) -> dict[str, Any]:
    os.makedirs(work, exist_ok=True)
    res = os.path.join(work, "result.json")
    args = [str(REMAT), cmd, graph, "--budget", budget, "--time-limit", str(tl),
            "--threads", str(threads), "--seed", str(seed), "-o", res, "-q"]
    p = subprocess.run(args, capture_output=True, text=True, timeout=tl + 120)
    if not os.path.exists(res):
        msg = (p.stderr.strip().splitlines() or ["?"])[-1]
        status = ("infeasible" if "infeasible" in msg else
                  "not-run" if p.returncode == 2 else "no-solution")
        return {"status": status, "message": msg, "exit": p.returncode}
    row = _result_file_row(res, p.returncode)
    if row["status"] == "over-budget":
        row["status"] = "no-solution"
    return row


def run_one(method: str, graph: str, budget: str, tl: float, threads: int,
            seed: int, work: str) -> dict[str, Any]:
    """One method on one graph and budget, in this process."""
    if method == "remat":
        return run_remat("solve", graph, budget, tl, threads, seed, work)
    if method == "milp-cbc":
        return run_remat("milp", graph, budget, tl, threads, seed, work)
    if method == "moccasin-cpsat":
        import moccasin_cpsat
        r = moccasin_cpsat.solve(graph, budget, time_limit=tl, workers=threads,
                                 seed=seed)
        if r.get("sequence") is not None:
            os.makedirs(work, exist_ok=True)
            path = os.path.join(work, "sequence.json")
            with open(path, "w") as f:
                json.dump(r.pop("sequence"), f)
            r["result_file"] = path
        return r
    if method in ("milp-highs", "milp-scip"):
        import milp_open
        import remat
        n = remat.load_graph(graph).n
        if n > MILP_MAX_NODES:
            # T = n stages: about 3n^2 + n|E| columns; n = 1000 writes an
            # MPS file past a gigabyte
            return {"status": "not-run", "message": f"n = {n} > {MILP_MAX_NODES}, the "
                    "bench's limit (n = 1000 writes an MPS file past a gigabyte)"}
        return milp_open.solve(str(REMAT), graph, budget, method[5:], work,
                               time_limit=tl, threads=threads, seed=seed)
    raise SystemExit(f"unknown method {method!r} (one of {', '.join(METHODS)})")


def run_child(method: str, graph: str, budget: str, tl: float, threads: int,
              seed: int, work: str) -> dict[str, Any]:
    """run_one in a child process; its verdict by remat eval."""
    import convert
    t0 = time.monotonic()
    cmd = [sys.executable, __file__, "--one", method, graph, budget,
           "--time-limit", str(tl), "--threads", str(threads), "--seed",
           str(seed), "--work", work]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=tl + 60, env=_child_env())
        lines = p.stdout.strip().splitlines()
        if p.returncode != 0 or not lines:
            row = {"status": "error",
                   "message": (p.stderr.strip().splitlines() or ["?"])[-1]}
        else:
            row = json.loads(lines[-1])
    except subprocess.TimeoutExpired:
        row = {"status": "error", "message": f"still running {tl + 60:.0f} s in"}
    row["wall_s"] = round(time.monotonic() - t0, 3)
    if row.get("result_file"):
        v = convert.remat_eval(str(REMAT), graph, row["result_file"], budget)
        row["eval"] = v
        if not v["valid"]:
            row["status"] = "invalid"
        elif not v["within_budget"]:
            row["status"] = "over-budget"
        elif row.get("lower_bound") is not None and row.get("gap_percent") is None:
            row["gap_percent"] = convert.gap_percent(v["duration"], row["lower_bound"])
    return row


# ------------------------------------------------------------ tables


def _cell(r: dict[str, Any]) -> str:
    st = r.get("status")
    v = r.get("eval") or {}
    if st in ("optimal", "feasible") and v.get("valid"):
        t = r.get("time_to_best_s")
        tt = f"{t:.1f} s" if isinstance(t, (int, float)) else "?"
        if st == "optimal":
            proof = "opt"
        elif r.get("gap_percent") is not None:
            proof = f"gap {r['gap_percent']:.2f}%"
        else:
            proof = "no bound"
        return f"{v['tdi_percent']:.2f} ({tt}, {proof})"
    return st or "?"


def write_table(rows: list[dict[str, Any]], path: Path) -> None:
    methods = [m for m in METHODS if any(r["method"] == m for r in rows)]
    keys: list[tuple[str, str]] = []
    cells: dict[tuple[str, str, str], str] = {}
    for r in rows:
        k = (r["graph"], r["budget"])
        if k not in keys:
            keys.append(k)
        cells[(*k, r["method"])] = _cell(r)
    head = "| graph | budget | " + " | ".join(methods) + " |"
    lines = [head, "|" + "---|" * (len(methods) + 2)]
    for g, b in keys:
        lines.append(f"| {g} | {b} | " + " | ".join(
            cells.get((g, b, m), "") for m in methods) + " |")
    path.write_text("\n".join(lines) + "\n")


def versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version
    out = {}
    for p in PACKAGES:
        try:
            out[p] = version(p)
        except PackageNotFoundError:
            out[p] = "not installed"
    p = subprocess.run([str(REMAT), "--version"], capture_output=True, text=True)
    text = (p.stdout or p.stderr).strip().splitlines()
    out["remat"] = text[0] if text else "?"
    return out


def table3(args: argparse.Namespace) -> None:
    """Each TABLE3 row: Moccasin on CP-SAT with 10x the paper's time; the
    time at which it first reached the paper's TDI (rounded as the paper
    rounds, to 0.1), from its trace of improvements."""
    gdir = Path(os.environ.get("REMAT_GRAPHS", ROOT.parent / "shared" / "graphs"))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    lines = ["| graph | budget | paper TDI % | paper s | limit s | TDI % | best at s "
             "| status | reached paper's TDI at s | CPU s |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    only = {Path(x).name for x in args.graphs or []}
    for f, b, tdi, secs in TABLE3:
        if (only and f not in only) or b not in args.budgets.split(","):
            continue
        g = str(gdir / f)
        r = run_child("moccasin-cpsat", g, b, 10 * secs, args.threads, args.seed,
                      str(out / "work" / f"{Path(f).stem}_{b}"))
        r.update(graph=Path(f).stem, budget=b, paper_tdi=tdi, paper_s=secs)
        with open(out / "table3.jsonl", "a") as fh:
            fh.write(json.dumps(r) + "\n")
        base = (r.get("eval") or {}).get("base_duration")
        reached = None
        for t, dur in r.get("trace") or []:
            if base and round(100.0 * (dur - base) / base, 1) <= tdi:
                reached = t
                break
        v = r.get("eval") or {}
        if reached is None and v.get("valid") and round(v["tdi_percent"], 1) <= tdi:
            reached = r.get("time_to_best_s")
        lines.append(
            f"| {r['graph']} | {b} | {tdi} | {secs} | {10 * secs:.0f} | "
            f"{v.get('tdi_percent', float('nan')):.3f} | {r.get('time_to_best_s')} | "
            f"{r.get('status')} | {'-' if reached is None else f'{reached:.1f}'} | "
            f"{r.get('cpu_s')} |")
        print(lines[-1], file=sys.stderr, flush=True)
    (out / "table3.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


# ------------------------------------------------------------ main


def _graphs(args: argparse.Namespace) -> list[str]:
    src = args.graphs or [os.environ.get("REMAT_GRAPHS",
                                         str(ROOT.parent / "shared" / "graphs"))]
    out = []
    for s in src:
        p = Path(s)
        out += sorted(str(q) for q in p.glob("*.json")) if p.is_dir() else [str(p)]
    return out


def gen_layered(specs: str, gdir: Path) -> list[str]:
    """--gen-layered N[:SEED],...: `remat gen layered` graphs in gdir."""
    out = []
    for spec in specs.split(","):
        n, _, seed = spec.partition(":")
        seed = seed or "1"
        path = gdir / f"layered_n{n}_s{seed}.json"
        if not path.exists():
            gdir.mkdir(parents=True, exist_ok=True)
            subprocess.run([str(REMAT), "gen", "layered", "--nodes", n, "--seed",
                            seed, "-q", "-o", str(path)], check=True)
        out.append(str(path))
    return out


def torch_graphs(python: str | None, gdir: Path) -> list[str]:
    """TORCH_GRAPHS in gdir, each exported by the torch Python unless there."""
    out = []
    for name, argv in TORCH_GRAPHS:
        path = gdir / name
        if not path.exists():
            if not python:
                sys.exit("bench/peers: --torch-graphs needs a Python with torch "
                         "and torchvision (--torch-python or $REMAT_PY)")
            gdir.mkdir(parents=True, exist_ok=True)
            env = dict(os.environ, PYTHONPATH=str(ROOT / "python"),
                       REMAT_LIB=str(LIB))
            print(f"bench/peers: exporting {path}", file=sys.stderr, flush=True)
            subprocess.run([python, *(a.format(path=path, dir=gdir) for a in argv)],
                           check=True, env=env, cwd=str(ROOT))
        out.append(str(path))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--graphs", nargs="*", help="graph files or folders "
                    "(default: $REMAT_GRAPHS, else ../shared/graphs)")
    ap.add_argument("--budgets", help="fractions of the input order's "
                    "peak (0.9,0.8; 0.7,0.5 with --torch-graphs)")
    ap.add_argument("--methods", default=",".join(METHODS))
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=str(ROOT / "bench" / "out" / "peers"))
    ap.add_argument("--quick", action="store_true",
                    help="two small graphs at 0.9, 10 s each")
    ap.add_argument("--resume", action="store_true",
                    help="skip the runs already in OUT/rows.jsonl")
    ap.add_argument("--gen-layered", metavar="N[:SEED],...",
                    help="`remat gen layered` graphs, made in OUT/graphs (instead "
                    "of the published ones; added to --graphs or --torch-graphs)")
    ap.add_argument("--torch-graphs", action="store_true",
                    help="the PyTorch training graphs (ResNet-50, ViT-B/16, "
                    "12-layer GPT decoder; exported into OUT/graphs) instead of --graphs")
    ap.add_argument("--torch-python", default=os.environ.get("REMAT_PY"),
                    help="the Python with torch that exports them ($REMAT_PY)")
    ap.add_argument("--table3", action="store_true",
                    help="Moccasin on CP-SAT on Table 3's rows (those of --graphs' "
                    "files and --budgets), 10x the paper's time")
    ap.add_argument("--one", nargs=3, metavar=("METHOD", "GRAPH", "BUDGET"),
                    help=argparse.SUPPRESS)
    ap.add_argument("--work", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.budgets is None:
        args.budgets = "0.7,0.5" if args.torch_graphs else "0.9,0.8"
    ensure_venv()
    ensure_remat()
    if args.one:
        m, g, b = args.one
        print(json.dumps(run_one(m, g, b, args.time_limit, args.threads,
                                 args.seed, args.work)))
        return
    if args.table3:
        table3(args)
        return
    methods = args.methods.split(",")
    for m in methods:
        if m not in METHODS:
            sys.exit(f"bench/peers: unknown method {m!r} (one of {', '.join(METHODS)})")
    out = Path(args.out)
    graphs, budgets, tl = _graphs(args), args.budgets.split(","), args.time_limit
    if args.torch_graphs:
        graphs = torch_graphs(args.torch_python, out / "graphs")
    if args.gen_layered:
        made = gen_layered(args.gen_layered, out / "graphs")
        graphs = (graphs if args.graphs or args.torch_graphs else []) + made
    if args.quick:
        gdir = Path(os.environ.get("REMAT_GRAPHS", ROOT.parent / "shared" / "graphs"))
        graphs = [str(gdir / "random_layered_n100.json"),
                  str(gdir / "fcn_8_vgg_train_nx.json")]
        budgets, tl = ["0.9"], min(tl, 10.0)
    out.mkdir(parents=True, exist_ok=True)
    rows_path = out / "rows.jsonl"
    done = set()
    rows: list[dict[str, Any]] = []
    if args.resume and rows_path.exists():
        rows = [json.loads(x) for x in rows_path.read_text().splitlines() if x]
        done = {(r["graph_file"], r["budget"], r["method"]) for r in rows}
    meta = {"versions": versions(), "time_limit": tl, "threads": args.threads,
            "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    (out / "meta.json").write_text(json.dumps(meta, indent=1) + "\n")
    for g in graphs:
        name = Path(g).stem
        for b in budgets:
            for m in methods:
                if (g, b, m) in done:
                    continue
                work = str(out / "work" / f"{name}_{b}_{m}")
                r = run_child(m, g, b, tl, args.threads, args.seed, work)
                r.update(graph=name, graph_file=g, budget=b, method=m,
                         time_limit=tl, threads=args.threads)
                rows.append(r)
                with open(rows_path, "a") as f:
                    f.write(json.dumps(r) + "\n")
                print(f"{name} {b} {m}: {_cell(r)}  [{r['wall_s']:.1f} s]",
                      file=sys.stderr, flush=True)
                write_table(rows, out / "table.md")
    write_table(rows, out / "table.md")
    print((out / "table.md").read_text())


if __name__ == "__main__":
    main()
