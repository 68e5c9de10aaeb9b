"""remat-torch export | run through main(): the graph of a tiny model,
solved with remat.solve, run along the schedule (outputs and gradients
equal to the plain model's, the executor's peak equal to remat's), and
the one-line errors of bad inputs."""

from __future__ import annotations

import json
import os

import pytest

torch = pytest.importorskip("torch")

import remat  # noqa: E402
from remat.torch.torch_cmd import main  # noqa: E402

MODELS = os.path.join(os.path.dirname(__file__), "..", "..", "tests",
                      "torch_models.py")


def test_export_solve_run(tmp_path, capsys):
    g = tmp_path / "g.json"
    rc = main(["export", f"{MODELS}:rescnn", "--input", "3x16x16",
               "--batch", "2", "--train", "--durations", "flops", "-o",
               str(g), "-q"])
    assert rc == 0
    graph = json.loads(g.read_text())
    assert graph["source"] == "remat-torch" and graph["train"] is True
    r = remat.solve(remat.load_graph(graph), 0.7, time_limit=3, threads=1)
    s = tmp_path / "s.json"
    s.write_text(json.dumps(r.schedule))
    rc = main(["run", f"{MODELS}:rescnn", str(g), str(s), "-q"])
    out = capsys.readouterr().out
    assert rc == 0, out
    fields = dict(line.split(": ", 1) for line in out.splitlines())
    assert fields["outputs"].startswith("equal")
    assert fields["peak_measured"] == fields["peak_simulated"] == str(r.peak)


@pytest.mark.parametrize("argv, message", [
    (["export", f"{MODELS}:value_dependent", "--input", "8"],
     "cannot be traced: its forward depends on the values of tensors"),
    (["export", f"{MODELS}:mlp", "--input", "31"],
     "fails: RuntimeError: mat1 and mat2 shapes cannot be multiplied"),
    (["export", f"{MODELS}:mlp", "--input", "3xx"],
     "--input '3xx': expected positive sizes"),
])
def test_bad_inputs(argv, message, capsys):
    assert main(argv + ["-q"]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
