"""Checkmate's MILP as remat writes it (remat milp --write-mps), solved by
the open solvers a user would reach for, HiGHS (highspy) and SCIP
(pyscipopt), with no MIP start; the best solution is written as 'name value'
lines and read back by remat milp --read-solution, which rebuilds and
re-simulates the schedule.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from typing import Any, Optional

from convert import gap_percent, mps_objective_scale, solution_lines


def _highs(mps: str, time_limit: float, threads: int, seed: int) -> dict[str, Any]:
    import highspy
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("time_limit", max(time_limit, 0.01))
    h.setOptionValue("threads", threads)
    h.setOptionValue("random_seed", seed)
    t0 = time.monotonic()
    h.readModel(mps)
    best: list[float] = []

    def improved(callback_type, message, data_out, data_in, user_data):
        best.append(time.monotonic() - t0)

    h.setCallback(improved, None)
    h.startCallback(highspy.cb.HighsCallbackType.kCallbackMipImprovingSolution)
    h.run()
    status = h.modelStatusToString(h.getModelStatus())
    info = h.getInfo()
    has = info.primal_solution_status == 2  # kSolutionStatusFeasible
    out = {"solver_status": status, "has_solution": bool(has),
           "time_s": time.monotonic() - t0,
           "time_to_best_s": best[-1] if best else None,
           "dual_bound": info.mip_dual_bound,
           "proven": h.getModelStatus() == highspy.HighsModelStatus.kOptimal,
           "infeasible": h.getModelStatus() == highspy.HighsModelStatus.kInfeasible}
    if has:
        lp = h.getLp()
        out["solution"] = solution_lines(zip(lp.col_names_, h.getSolution().col_value))
    return out


def _scip(mps: str, time_limit: float, threads: int, seed: int) -> dict[str, Any]:
    import pyscipopt
    m = pyscipopt.Model()
    m.hideOutput()
    t0 = time.monotonic()
    m.readProblem(mps)
    m.setParam("limits/time", max(time_limit, 0.01))
    m.setParam("randomization/randomseedshift", seed)
    # SCIP's default build solves on one thread; concurrent solving is an
    # option of its own that most builds lack
    m.optimize()
    status = m.getStatus()
    out = {"solver_status": status, "has_solution": m.getNSols() > 0,
           "time_s": time.monotonic() - t0, "time_to_best_s": None,
           "dual_bound": m.getDualbound(), "proven": status == "optimal",
           "infeasible": status == "infeasible", "threads": 1}
    if m.getNSols():
        sol = m.getBestSol()
        out["time_to_best_s"] = m.getSolTime(sol)
        out["solution"] = solution_lines((v.name, m.getSolVal(sol, v))
                                         for v in m.getVars())
    return out


SOLVERS = {"highs": _highs, "scip": _scip}


def solve(remat: str, graph: str, budget: Any, solver: str, workdir: str,
          time_limit: float = 60.0, threads: int = 2, seed: int = 0) -> dict[str, Any]:
    """Write the MILP, solve it with `solver` within time_limit (writing
    the MPS counts), read the solution back.  Returns status, the remat
    result file of the read-back schedule (result_file), lower bound, times."""
    t0 = time.monotonic()
    os.makedirs(workdir, exist_ok=True)
    mps = os.path.join(workdir, "model.mps")
    p = subprocess.run([remat, "milp", graph, "--budget", str(budget),
                        "--write-mps", mps, "-q"], capture_output=True, text=True)
    out: dict[str, Any] = {"method": f"milp-{solver}", "result_file": None,
                           "lower_bound": None}
    if p.returncode != 0:
        # remat refuses the budget itself (below max_v m_v + inputs): say so
        out["status"] = "infeasible" if p.returncode == 3 else "error"
        out["message"] = p.stderr.strip().splitlines()[-1] if p.stderr else ""
        out["time_s"] = round(time.monotonic() - t0, 3)
        return out
    with open(mps) as f:
        head = "".join(next(f) for _ in range(8))
    base, unit = mps_objective_scale(head)
    start = time.monotonic() - t0
    r = SOLVERS[solver](mps, time_limit - start, threads, seed)
    out["solver_status"] = r["solver_status"]
    out["time_s"] = round(time.monotonic() - t0, 3)
    if r["time_to_best_s"] is not None:
        out["time_to_best_s"] = round(start + r["time_to_best_s"], 3)
    if r["dual_bound"] is not None and abs(r["dual_bound"]) < 1e300:
        out["lower_bound"] = base + unit * max(0, int(-(-(r["dual_bound"] - 1e-6) // 1)))
    if not r["has_solution"]:
        out["status"] = "infeasible" if r["infeasible"] else "no-solution"
        return out
    sol = os.path.join(workdir, "solution.txt")
    with open(sol, "w") as f:
        f.write(r["solution"])
    res = os.path.join(workdir, "result.json")
    p = subprocess.run([remat, "milp", graph, "--budget", str(budget),
                        "--read-solution", sol, "-o", res, "-q"],
                       capture_output=True, text=True)
    if not os.path.exists(res) or p.returncode not in (0, 3):
        out["status"] = "invalid"
        out["message"] = (p.stderr.strip().splitlines() or ["?"])[-1]
        return out
    with open(res) as f:
        doc = json.load(f)
    out["result_file"] = res
    out["status"] = "optimal" if r["proven"] else "feasible"
    if out["lower_bound"] is not None:
        out["gap_percent"] = gap_percent(doc.get("duration", 0), out["lower_bound"])
    return out
