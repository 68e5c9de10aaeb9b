"""Moccasin's retention-interval model on OR-Tools CP-SAT, written from the
paper (Bartan et al., ICML 2023, sections 2 to 2.4), not from its code.

Each node v has C_v = 2 retention intervals (copies) [s, e), fewer where
the graph's node gives its own (a random generator's state: 1): the node is
computed at event s and its output held until e.  Copy 1 is mandatory,
copy i+1 present only with copy i and starting at or after copy i's end
(constraints (2), (3), (7)).  Events follow the paper's stages (2.3): for
the input topological order v_0..v_{n-1}, stage j holds events
j(j+1)/2 + k for k = 0..j, its last event computes v_j (the first copy's
start, fixed) and event k of a later stage may recompute v_k, so the starts
of different nodes never coincide (constraint (6) holds by construction).

- Memory (4): a cumulative over the optional intervals, demand m_v, capacity
  the budget (phase 2) or a variable M_var (phase 1).
- Precedence (5): for every edge (u, v) and copy j of v, a reservoir with
  level +1 at s_u^i + 1 and -1 at e_u^i for each present copy i of u, and
  -1 at s_v^j, +1 at s_v^j + 1 if copy j is present, the level kept at 0 or
  above: some present copy of u has s_u^i < s_v^j < e_u^i, i.e. u's output
  is held while v is computed.
- Phase 1 (2.4) minimises max(M_var, M) from the input order (a hint);
  phase 2 minimises the total duration with capacity M, its hint the phase-1
  solution.  Both run on the same CP-SAT parameters; the time limit is
  shared, phase 2 getting what phase 1 left.

Sizes and durations are divided by their GCDs (exact).  Memory is counted
on [s, e), which holds an output while its readers run, as remat's
simulator does: the decoded sequence's true peak is at most the model's.
"""

from __future__ import annotations

import math
import resource
import time
from functools import reduce
from typing import Any, Optional

from ortools.sat.python import cp_model

import remat

from convert import intervals_to_sequence
from convert import stage_event as _event


class _Progress(cp_model.CpSolverSolutionCallback):
    """Records when each improving phase-2 solution was found."""

    def __init__(self, t0: float) -> None:
        super().__init__()
        self.t0 = t0
        self.trace: list[tuple[float, float]] = []

    def on_solution_callback(self) -> None:
        self.trace.append((time.monotonic() - self.t0, self.ObjectiveValue()))


class Model:
    """The CP model of one graph, budget and C."""

    def __init__(self, graph: remat.Graph, budget: int, copies: int = 2) -> None:
        self.g, self.budget, self.C = graph, budget, copies
        n = graph.n
        self.n = n
        w, m = graph.durations, graph.sizes
        self.mu = reduce(math.gcd, m) or 1
        self.wu = reduce(math.gcd, w) or 1
        self.w = [x // self.wu for x in w]
        self.m = [x // self.mu for x in m]
        preds = graph.predecessors
        succs: list[list[int]] = [[] for _ in range(n)]
        for v in range(n):
            for u in preds[v]:
                succs[u].append(v)
        self.preds, self.succs = preds, succs
        self.own = graph.copies  # the graph's own C_v (0: none)
        self.horizon = _event(n, 0)  # one past the last event

    def build(self, phase: int, hint: Optional[dict] = None) -> None:
        n, C, H = self.n, self.C, self.horizon
        md = self.md = cp_model.CpModel()
        self.s, self.e, self.a = [], [], []
        intervals, demands = [], []
        for v in range(n):
            sv, ev, av = [], [], []
            recompute = [_event(st, v) for st in range(v + 1, n)]
            # the graph's own C_v (a random generator's state: 1) hold
            own = self.own[v]
            for i in range(min(C, own) if own > 0 else C):
                if i == 0:
                    s = md.NewConstant(_event(v, v))
                    a = md.NewConstant(1)
                elif recompute:
                    s = md.NewIntVarFromDomain(
                        cp_model.Domain.FromValues(recompute), f"s{v}_{i}")
                    a = md.NewBoolVar(f"a{v}_{i}")
                else:
                    break  # the last node cannot be recomputed
                if self.succs[v]:
                    e = md.NewIntVar(0, H, f"e{v}_{i}")
                else:
                    e = s + 1  # nothing reads it: held during its own step
                size = md.NewIntVar(1, H, f"d{v}_{i}") if self.succs[v] else 1
                iv = md.NewOptionalIntervalVar(s, size, e, a, f"I{v}_{i}")
                intervals.append(iv)
                demands.append(self.m[v])
                if i > 0:
                    md.AddImplication(a, av[i - 1])
                    md.Add(ev[i - 1] <= s).OnlyEnforceIf(a)
                    # an absent copy sits at its earliest place (symmetry)
                    md.Add(s == recompute[0]).OnlyEnforceIf(a.Not())
                sv.append(s)
                ev.append(e)
                av.append(a)
            self.s.append(sv)
            self.e.append(ev)
            self.a.append(av)
        for v in range(n):
            for u in self.preds[v]:
                for j in range(len(self.s[v])):
                    times, changes, actives = [], [], []
                    for i in range(len(self.s[u])):
                        times += [self.s[u][i] + 1, self.e[u][i]]
                        changes += [1, -1]
                        actives += [self.a[u][i], self.a[u][i]]
                    times += [self.s[v][j], self.s[v][j] + 1]
                    changes += [-1, 1]
                    actives += [self.a[v][j], self.a[v][j]]
                    md.AddReservoirConstraintWithActive(
                        times, changes, actives, 0, len(self.s[u]) + 1)
        cap_budget = self.budget // self.mu
        if phase == 1:
            top = sum(self.m)
            self.mvar = md.NewIntVar(0, top, "M_var")
            tau = md.NewIntVar(cap_budget, max(top, cap_budget), "tau")
            md.Add(tau >= self.mvar)
            md.AddCumulative(intervals, demands, self.mvar)
            md.Minimize(tau)
            self.tau = tau
        else:
            md.AddCumulative(intervals, demands, cap_budget)
            md.Minimize(sum(self.w[v] * self.a[v][i]
                            for v in range(n) for i in range(1, len(self.a[v]))))
        if hint:
            for v in range(n):
                for i in range(1, len(self.a[v])):
                    md.AddHint(self.a[v][i], hint["a"][v][i])
                    md.AddHint(self.s[v][i], hint["s"][v][i])
                for i in range(len(self.e[v])):
                    if self.succs[v]:
                        md.AddHint(self.e[v][i], hint["e"][v][i])

    def input_order_hint(self) -> dict:
        """The input order without recomputation: each output held until its
        last reader has run."""
        n, C = self.n, self.C
        a = [[1] + [0] * (C - 1) for _ in range(n)]
        s = [[_event(v, v)] + [_event(v + 1, v) if v + 1 < n else 0] * (C - 1)
             for v in range(n)]
        e = [[(_event(max(self.succs[v]), max(self.succs[v])) + 1
               if self.succs[v] else _event(v, v) + 1)]
             + [s[v][1] + 1] * (C - 1) for v in range(n)]
        return {"a": a, "s": s, "e": e}

    def values(self, solver: cp_model.CpSolver) -> dict:
        val = solver.Value
        return {"a": [[val(x) for x in r] for r in self.a],
                "s": [[val(x) for x in r] for r in self.s],
                "e": [[val(x) for x in r] for r in self.e]}

    def sequence(self, vals: dict) -> list[Any]:
        ids = self.g.ids
        return intervals_to_sequence(
            (vals["s"][v][i], ids[v])
            for v in range(self.n) for i in range(len(vals["a"][v]))
            if vals["a"][v][i])


def _solver(time_limit: float, workers: int, seed: int) -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(time_limit, 0.01)
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = seed
    return solver


def solve(graph_path: str, budget: Any, time_limit: float = 60.0,
          workers: int = 2, copies: int = 2, seed: int = 0) -> dict[str, Any]:
    """Both phases within time_limit seconds (model building included).
    Returns status ('optimal': proven for the stage model with these
    copies; 'feasible'; 'no-solution'; 'infeasible': phase 1 proved the
    budget out of the model's reach), the sequence of node ids, the phase-2
    solver's lower bound on the duration, times and CP-SAT's statuses."""
    t0, c0 = time.monotonic(), _cpu()
    g = remat.load_graph(graph_path)
    M = g.budget(budget)
    mod = Model(g, M, copies)
    out: dict[str, Any] = {"method": "moccasin-cpsat", "budget": M,
                           "copies": copies, "workers": workers,
                           "sequence": None, "lower_bound": None,
                           "time_to_best_s": None, "phase_times_s": {}}
    mod.build(1, mod.input_order_hint())
    s1 = _solver(time_limit - (time.monotonic() - t0), workers, seed)
    st1 = s1.Solve(mod.md)
    out["phase_times_s"]["phase1"] = round(time.monotonic() - t0, 3)
    out["phase1_status"] = s1.StatusName(st1)
    if st1 not in (cp_model.OPTIMAL, cp_model.FEASIBLE) or \
            s1.Value(mod.tau) > M // mod.mu:
        proven = st1 == cp_model.OPTIMAL or st1 == cp_model.INFEASIBLE
        out["status"] = "infeasible" if proven else "no-solution"
        out["time_s"] = round(time.monotonic() - t0, 3)
        out["cpu_s"] = round(_cpu() - c0, 3)
        return out
    hint = mod.values(s1)
    t1 = time.monotonic()
    mod.build(2, hint)
    s2 = _solver(time_limit - (time.monotonic() - t0), workers, seed)
    cb = _Progress(t0)
    st2 = s2.Solve(mod.md, cb)
    out["phase_times_s"]["phase2"] = round(time.monotonic() - t1, 3)
    out["phase2_status"] = s2.StatusName(st2)
    base = g.base_duration
    if st2 in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        vals = mod.values(s2)
        out["sequence"] = mod.sequence(vals)
        out["status"] = "optimal" if st2 == cp_model.OPTIMAL else "feasible"
        out["time_to_best_s"] = round(cb.trace[-1][0], 3) if cb.trace \
            else out["phase_times_s"]["phase1"]
        out["lower_bound"] = base + mod.wu * math.ceil(s2.BestObjectiveBound() - 1e-6)
        out["trace"] = [[round(t, 3), base + mod.wu * round(o)] for t, o in cb.trace]
    else:
        # phase 1's schedule fits the budget: it is the answer
        out["sequence"] = mod.sequence(hint)
        out["status"] = "feasible"
        out["time_to_best_s"] = out["phase_times_s"]["phase1"]
    out["time_s"] = round(time.monotonic() - t0, 3)
    out["cpu_s"] = round(_cpu() - c0, 3)
    return out


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
