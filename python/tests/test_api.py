"""remat's Python API against the command line and against exhaustive
search: the same schedules and messages as `remat solve`, optima on tiny
graphs, budgets, errors, Ctrl-C, 64-bit sizes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import remat
from remat.cli import binary

from brute import brute_force

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
GRAPHS = Path(os.environ.get("REMAT_GRAPHS", ROOT.parent / "shared" / "graphs"))


def cli(*args: str) -> subprocess.CompletedProcess:
    """The remat executable the package installed, on these arguments."""
    return subprocess.run([str(binary()), *args], capture_output=True,
                          text=True, timeout=300)


def cli_error(*args: str) -> str:
    """The message `remat solve ARGS` prints, without its prefix."""
    out = cli("solve", *args, "-q")
    assert out.returncode in (2, 3), out
    line = out.stderr.strip().splitlines()[-1]
    assert line.startswith("remat solve: ")
    return line[len("remat solve: "):]


def chain(n: int, size: int = 10, dur: int = 1) -> dict:
    """A training chain: forward f0..f(n-1), backward b(n-1)..b0, b_i
    reading f_i and b_(i+1) (Chen's and Checkmate's linear network)."""
    nodes = [{"id": f"f{i}", "duration": dur, "memory": size}
             for i in range(n)]
    nodes += [{"id": f"b{i}", "duration": dur, "memory": size}
              for i in reversed(range(n))]
    edges = [[f"f{i}", f"f{i + 1}"] for i in range(n - 1)]
    edges += [[f"f{n - 1}", f"b{n - 1}"]]
    edges += [[f"f{i}", f"b{i}"] for i in range(n - 1)]
    edges += [[f"b{i + 1}", f"b{i}"] for i in range(n - 1)]
    return {"format": "remat", "name": f"chain{n}", "nodes": nodes,
            "edges": edges}


def diamond() -> dict:
    """a -> b, a -> c, b -> d, c -> d, a -> d, with b expensive: the
    budget forces a choice between keeping a and recomputing it."""
    nodes = [{"id": "a", "duration": 1, "memory": 4},
             {"id": "b", "duration": 5, "memory": 3},
             {"id": "c", "duration": 2, "memory": 3},
             {"id": "x", "duration": 1, "memory": 2},
             {"id": "d", "duration": 1, "memory": 1}]
    edges = [["a", "b"], ["a", "c"], ["b", "x"], ["c", "x"], ["x", "d"],
             ["a", "d"]]
    return {"format": "remat", "name": "diamond", "nodes": nodes,
            "edges": edges}


@pytest.mark.parametrize("budget", [0.6, 0.75, 1.0])
def test_solve_equals_cli_on_bundled_graph(tmp_path: Path, budget: float) -> None:
    path = EXAMPLES / "layered_30.json"
    out = tmp_path / "r.json"
    run = cli("solve", str(path), "--budget", str(budget), "--threads", "1",
              "--seed", "1", "--time-limit", "20", "-q", "-o", str(out))
    assert run.returncode in (0, 3), run.stderr
    want = json.loads(out.read_text())
    g = remat.load_graph(path)
    try:
        got = remat.solve(g, budget, time_limit=20, threads=1, seed=1)
    except remat.InfeasibleError as e:
        got = e.result
    assert got.status == want["status"]
    assert got.schedule == want["sequence"]
    assert got.peak == want["peak"] and got.duration == want["duration"]
    assert got.bound == want.get("lower_bound")


@pytest.mark.skipif(not (GRAPHS / "ResNet50_train_nx.json").is_file(),
                    reason="the published graphs are not there (REMAT_GRAPHS)")
@pytest.mark.parametrize("budget", [0.9, 0.8])
def test_solve_equals_cli_on_published_graph(tmp_path: Path, budget: float) -> None:
    path = GRAPHS / "ResNet50_train_nx.json"
    out = tmp_path / "r.json"
    run = cli("solve", str(path), "--budget", str(budget), "--threads", "1",
              "--seed", "1", "--time-limit", "30", "-q", "-o", str(out))
    assert run.returncode == 0, run.stderr
    want = json.loads(out.read_text())
    got = remat.solve(remat.load_graph(path), budget, time_limit=30,
                      threads=1, seed=1)
    assert (got.status, got.tdi, got.schedule) == (
        want["status"], want["tdi_percent"], want["sequence"])
    assert got.proof_covers == want.get("proof_covers")


@pytest.mark.parametrize("budget", [9, 10, 11, 13])
def test_optimal_equals_brute_force(budget: int) -> None:
    g = remat.load_graph(diamond())
    want = brute_force(g, budget, g.n + 2)
    if want is None:
        with pytest.raises(remat.InfeasibleError):
            remat.solve(g, budget, time_limit=10, threads=1)
        return
    r = remat.solve(g, budget, time_limit=10, threads=1, copies=3)
    assert r.status == "optimal"
    assert r.duration == want
    assert r.peak <= budget


def test_other_order_is_the_free_orders() -> None:
    # two branches from s, interleaved in the input order: on its stages
    # the optimum recomputes (TDI 60 %); another order needs nothing
    nodes = [{"id": "s", "duration": 1, "memory": 1}]
    for i, (dur, mem) in enumerate([(2, 10), (3, 10), (4, 2)], 1):
        nodes += [{"id": f"{b}{i}", "duration": dur, "memory": mem}
                  for b in "ab"]
    nodes.append({"id": "j", "duration": 1, "memory": 1})
    edges = [["s", "a1"], ["s", "b1"], ["a3", "j"], ["b3", "j"]]
    edges += [[f"{b}{i}", f"{b}{i + 1}"] for b in "ab" for i in (1, 2)]
    g = remat.load_graph({"format": "remat", "name": "two", "nodes": nodes,
                          "edges": edges})
    fixed = remat.solve(g, 0.8, time_limit=10, threads=1)
    assert (fixed.status, fixed.order, fixed.recomputations) == (
        "optimal", "input", 5)
    assert fixed.other_order == {"peak": 22, "duration": 20,
                                 "tdi_percent": 0.0}
    free = remat.solve(g, 0.8, time_limit=10, threads=1, free_order=True)
    assert free.other_order is None
    assert (free.status, free.duration) == ("optimal", 20)
    fits = remat.solve(g, 1.0, time_limit=10, threads=1)
    assert fits.recomputations == 0 and fits.other_order is None


def test_simulate_by_hand() -> None:
    g = remat.load_graph(diamond())
    s = remat.simulate(g, ["a", "b", "c", "x", "d"])
    # after each step: a; a b; a b c; a x (+b, c read by x); a x d
    assert s.memory == [4, 7, 10, 12, 7]
    assert (s.peak, s.peak_step, s.duration, s.recomputations) == (12, 3, 10, 0)
    s = remat.simulate(g, ["a", "b", "c", "x", "a", "d"])
    assert s.recomputations == 1 and s.duration == 11
    with pytest.raises(remat.RematError, match="invalid schedule"):
        remat.simulate(g, ["b", "a"])
    with pytest.raises(remat.RematError, match="unknown node id 'zz'"):
        remat.simulate(g, ["zz"])


def test_budget_forms() -> None:
    g = remat.load_graph(EXAMPLES / "layered_30.json")
    peak = g.topo_peak
    assert g.budget(0.7) == g.budget("70%") == g.budget("0.7") == int(0.7 * peak)
    assert g.budget("1KiB") == 1024 and g.budget(41687) == 41687
    for bad in ("abc", "-1", "70%%"):
        with pytest.raises(remat.RematError) as e:
            remat.solve(g, bad)
        assert str(e.value) == cli_error(str(EXAMPLES / "layered_30.json"),
                                         "--budget", bad)
    with pytest.raises(remat.RematError, match="expected a fraction"):
        g.budget(None)  # type: ignore[arg-type]


def test_infeasible_carries_the_bound() -> None:
    path = EXAMPLES / "layered_30.json"
    g = remat.load_graph(path)
    with pytest.raises(remat.InfeasibleError) as e:
        remat.solve(g, 100, time_limit=5)
    assert e.value.bound == g.min_peak > 100
    assert str(e.value) == cli_error(str(path), "--budget", "100")
    assert e.value.result.status == "infeasible"


def test_graph_errors_are_the_readers(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"nodes": [{"id": "a"}]}')
    for path in (bad, tmp_path / "missing.json"):
        with pytest.raises(remat.RematError) as e:
            remat.load_graph(path)
        assert str(e.value) == cli_error(str(path), "--budget", "0.5")
    with pytest.raises(remat.RematError, match="expected a path or a dict"):
        remat.load_graph(42)  # type: ignore[arg-type]
    with pytest.raises(remat.RematError, match="cycle"):
        remat.load_graph({"nodes": [{"id": 0, "duration": 1, "memory": 1},
                                    {"id": 1, "duration": 1, "memory": 1}],
                          "edges": [[0, 1], [1, 0]]})


def test_bad_arguments() -> None:
    g = remat.load_graph(chain(5))
    for kwargs, msg in [({"threads": -1}, "threads -1"),
                        ({"time_limit": 0}, "time_limit 0"),
                        ({"lns": "x"}, "lns 'x'"),
                        ({"hierarchy": "yes"}, "hierarchy 'yes'"),
                        ({"copies": 0}, "copies 0"),
                        ({"copies": {3: 0}}, "copies of 3"),
                        ({"copies": {"nope": 2}}, "unknown node id 'nope'")]:
        with pytest.raises(remat.RematError, match=msg):
            remat.solve(g, 0.8, **kwargs)
    with pytest.raises(remat.RematError,
                       match=r"unknown baseline 'foo' \(checkpoint-all"):
        remat.baseline(g, 0.8, "foo")


def test_baseline_equals_cli(tmp_path: Path) -> None:
    path = EXAMPLES / "chain_train_12.json"
    for method in remat.METHODS:
        out = tmp_path / f"{method}.json"
        run = cli("baseline", str(path), "--budget", "0.7", "--method",
                  method, "-q", "-o", str(out))
        want = json.loads(out.read_text())
        g = remat.load_graph(path)
        try:
            got = remat.baseline(g, 0.7, method)
            assert run.returncode == 0
        except remat.InfeasibleError as e:
            assert run.returncode == 3
            got = e.result
        assert (got.status, got.schedule, got.peak) == (
            want["status"], want["sequence"], want["peak"])


def test_copies_one_forbids_recomputation() -> None:
    g = remat.load_graph(chain(8))
    free = remat.solve(g, 0.6, time_limit=10, threads=1)
    assert free.recomputations and free.within_budget
    with pytest.raises(remat.InfeasibleError):
        remat.solve(g, 0.6, time_limit=10, threads=1, copies=1,
                    strict_copies=True)
    # the graph's own "copies" are read as the CLI reads them
    once = chain(8)
    for node in once["nodes"]:
        node["copies"] = 1
    with pytest.raises(remat.InfeasibleError):
        remat.solve(remat.load_graph(once), 0.6, time_limit=10, threads=1,
                    strict_copies=True)
    first = chain(8)
    first["nodes"][0]["copies"] = 1
    r = remat.solve(remat.load_graph(first), 0.7, time_limit=10, threads=1)
    assert r.schedule.count("f0") == 1 and r.recomputations


def test_own_copies_are_a_ceiling(tmp_path: Path) -> None:
    """A mapping cannot raise a node's own "copies": the CLI's error for
    a copies file, word for word."""
    first = chain(8)
    first["nodes"][0]["copies"] = 1
    path = tmp_path / "first.json"
    path.write_text(json.dumps(first))
    with pytest.raises(remat.RematError) as e:
        remat.solve(remat.load_graph(first), 0.7, time_limit=10, threads=1,
                    copies={"f0": 2})
    (tmp_path / "c.json").write_text('{"f0": 2}')
    msg = cli_error(str(path), "--budget", "0.7", "--copies",
                    str(tmp_path / "c.json"))
    assert msg == f"{tmp_path / 'c.json'}:1:2: node f0 is computed at most 1 time (its \"copies\" in the graph), not 2"
    assert str(e.value) == "copies of 'f0': " + msg.split(": ", 1)[1]


def test_sizes_near_a_terabyte() -> None:
    """Sizes near 10^12 and durations near 10^9: the 64-bit path."""
    d = chain(12, size=10**12 + 7, dur=10**9 - 1)
    g = remat.load_graph(d)
    assert g.topo_peak > 10**13
    r = remat.solve(g, 0.5, time_limit=10, threads=1)
    assert r.peak <= r.budget == int(0.5 * g.topo_peak)
    s = remat.simulate(g, r.schedule)
    assert (s.peak, s.duration) == (r.peak, r.duration)
    assert r.duration > g.base_duration > 10**9


def test_ctrl_c_keeps_the_best(tmp_path: Path) -> None:
    """SIGINT during a long solve: it returns soon, with a schedule."""
    script = tmp_path / "solve.py"
    # as in an interactive Python: a background job's SIGINT is ignored
    script.write_text(
        "import json, signal, sys, remat\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "g = remat.load_graph(sys.argv[1])\n"
        "print('started', flush=True)\n"
        "r = remat.solve(g, 0.7, time_limit=120, threads=1)\n"
        "print(json.dumps([r.interrupted, r.within_budget, r.status]))\n")
    proc = subprocess.Popen([sys.executable, str(script),
                             str(EXAMPLES / "layered_120.json")],
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "started"
    time.sleep(3)
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 0
    assert time.monotonic() - t0 < 30
    interrupted, within, status = json.loads(out.strip().splitlines()[-1])
    assert within, out and status in ("feasible", "optimal")
    assert interrupted or status == "optimal"


def test_remat_command_is_installed() -> None:
    run = cli("--version")
    assert run.returncode == 0 and run.stdout.startswith("remat ")
