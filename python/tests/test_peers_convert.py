"""bench/peers' converters (bench/peers/convert.py): peers' outputs into
remat schedules, judged by remat's simulator.  No peer is needed: the
solutions are written as the peers write them, on a graph small enough for
exhaustive search to give the optimum."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import remat
from remat.cli import binary

from brute import brute_force

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench" / "peers"))
import convert  # noqa: E402

# a -> b -> c -> d and a -> d: holding a (4) through b and c peaks at 8;
# recomputing a (duration 1) before d peaks at 7
FORK = {"format": "remat", "name": "fork4",
        "nodes": [{"id": 0, "duration": 1, "memory": 4},
                  {"id": 1, "duration": 5, "memory": 2},
                  {"id": 2, "duration": 5, "memory": 2},
                  {"id": 3, "duration": 1, "memory": 1}],
        "edges": [[0, 1], [1, 2], [2, 3], [0, 3]]}
BUDGET = 7


@pytest.fixture(scope="module")
def fork(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("peers") / "fork4.json"
    path.write_text(json.dumps(FORK))
    return str(path)


def test_fork_optimum_needs_a_recomputation(fork):
    g = remat.load_graph(fork)
    assert g.topo_peak == 8
    assert brute_force(g, BUDGET, 6) == 13
    assert brute_force(g, g.topo_peak, 6) == 12


def test_interval_solution_is_the_optimum(fork):
    # Moccasin's stage axis: node k's first copy at stage k, slot k; a's
    # second copy in stage 3 (d's), slot 0, held until d has run
    ev = convert.stage_event
    copies = [(ev(3, 3), 3), (ev(0, 0), 0), (ev(2, 2), 2), (ev(1, 1), 1),
              (ev(3, 0), 0)]
    seq = convert.intervals_to_sequence(copies)
    assert seq == [0, 1, 2, 0, 3]
    v = convert.remat_eval(str(binary()), fork, seq, BUDGET)
    assert v["valid"] and v["within_budget"]
    assert (v["peak"], v["duration"], v["recomputations"]) == (7, 13, 1)
    assert v["duration"] == brute_force(remat.load_graph(fork), BUDGET, 6)


def test_interval_solution_without_the_recomputation_is_over_budget(fork):
    ev = convert.stage_event
    seq = convert.intervals_to_sequence(
        [(ev(k, k), k) for k in (3, 2, 1, 0)])
    v = convert.remat_eval(str(binary()), fork, seq, BUDGET)
    assert v["valid"] and not v["within_budget"] and v["peak"] == 8
    assert v["exit"] == 3


def test_two_copies_at_one_event_are_no_sequence():
    with pytest.raises(convert.ConversionError,
                       match=r"^nodes 1 and 2 both start at event 4$"):
        convert.intervals_to_sequence([(0, 0), (4, 1), (4, 2)])


def test_invalid_schedule_is_reported_with_the_simulators_message(fork):
    # d before c: the peer's schedule is wrong, and remat eval says why
    v = convert.remat_eval(str(binary()), fork, [0, 1, 3, 2], BUDGET)
    assert v["valid"] is False
    assert v["error"] == "step 2: node 3 needs 2, which was not computed before"
    assert v["exit"] == 2


def _milp(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(binary()), "milp", *args, "-q"],
                          capture_output=True, text=True, timeout=120)


def test_mps_head_gives_the_objectives_scale(fork, tmp_path):
    mps = tmp_path / "fork.mps"
    assert _milp(fork, "--budget", str(BUDGET), "--write-mps", str(mps)).returncode == 0
    head = "".join(mps.read_text().splitlines(True)[:8])
    assert convert.mps_objective_scale(head) == (12, 1)
    with pytest.raises(convert.ConversionError):
        convert.mps_objective_scale("* nothing here\n")


def test_milp_solution_read_back_is_the_optimum(fork, tmp_path):
    # a MILP solver's columns as floats with its tolerance noise, zeros
    # included: R_3_0 (a recomputed in d's stage) and the S columns
    cols = [("R_1_0", 0.0), ("R_3_0", 0.9999999997), ("S_1_0", 1.0000000002),
            ("S_2_1", 1.0), ("S_3_2", 0.99999999), ("S_3_0", -1e-12)]
    text = convert.solution_lines(cols)
    assert text == "R_3_0 1\nS_1_0 1\nS_2_1 1\nS_3_2 1\n"
    sol, res = tmp_path / "sol.txt", tmp_path / "res.json"
    sol.write_text(text)
    p = _milp(fork, "--budget", str(BUDGET), "--read-solution", str(sol),
              "-o", str(res))
    assert p.returncode == 0, p.stderr
    assert json.loads(res.read_text())["sequence"] == [0, 1, 2, 0, 3]
    v = convert.remat_eval(str(binary()), fork, str(res), BUDGET)
    assert (v["valid"], v["within_budget"], v["duration"]) == (True, True, 13)


def test_milp_solution_without_the_recomputation_is_over_budget(fork, tmp_path):
    sol, res = tmp_path / "sol.txt", tmp_path / "res.json"
    sol.write_text(convert.solution_lines([("S_1_0", 1.0), ("S_2_1", 1.0)]))
    p = _milp(fork, "--budget", str(BUDGET), "--read-solution", str(sol),
              "-o", str(res))
    assert p.returncode == 3
    v = convert.remat_eval(str(binary()), fork, str(res), BUDGET)
    assert v["valid"] and not v["within_budget"] and v["peak"] == 8


def test_fractional_milp_value_is_refused(fork, tmp_path):
    sol = tmp_path / "sol.txt"
    sol.write_text(convert.solution_lines([("R_3_0", 0.5)]))
    p = _milp(fork, "--budget", str(BUDGET), "--read-solution", str(sol))
    assert p.returncode == 2
    assert p.stderr.strip().endswith("R_3_0 is binary, but its value is 0.5")


def test_solution_lines_refuse_nan():
    with pytest.raises(convert.ConversionError, match="R_1_0: value nan"):
        convert.solution_lines([("R_1_0", float("nan"))])


def test_gap_as_remat_reports_it():
    assert convert.gap_percent(48146, 48095) == pytest.approx(100 * 51 / 48146)
    assert convert.gap_percent(13, 13) == 0.0
    assert convert.gap_percent(13, None) is None


def test_graph_predecessors_are_input_positions():
    g = remat.load_graph(FORK)
    assert [sorted(p) for p in g.predecessors] == [[], [0], [1], [0, 2]]


def test_graph_own_copies_bind_the_peers(tmp_path):
    # a given "copies": 1 (as the exporter gives a random generator's
    # state): the MILP the open solvers read has its row, and the fork's
    # optimum, which computes a again, is a peer failure for remat eval
    own = json.loads(json.dumps(FORK))
    own["nodes"][0]["copies"] = 1
    path = tmp_path / "own.json"
    path.write_text(json.dumps(own))
    assert remat.load_graph(str(path)).copies == [1, 0, 0, 0]
    assert remat.load_graph(FORK).copies == [0, 0, 0, 0]
    mps = tmp_path / "own.mps"
    assert _milp(str(path), "--budget", str(BUDGET), "--write-mps", str(mps)).returncode == 0
    rows = [ln.split()[-1] for ln in mps.read_text().splitlines() if ln.startswith(" L ")]
    assert "COPIES_0" in rows and "COPIES_1" not in rows
    v = convert.remat_eval(str(binary()), str(path), [0, 1, 2, 0, 3], BUDGET)
    assert v == {"valid": False, "exit": 2,
                 "error": 'node 0 is computed more than 1 time (its "copies" in the graph)'}
    assert convert.remat_eval(str(binary()), str(path), [0, 1, 2, 3], 8)["valid"]
