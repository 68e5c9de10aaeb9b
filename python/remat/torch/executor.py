"""Running a traced model along a remat schedule.

The schedule is a sequence of remat nodes; a node appearing again is a
recomputation.  Step j runs the fx operations of its node (in trace order)
on the latest copies of its inputs, then frees every copy whose last
reader in the schedule is step j, and its own output at once if nothing
reads it.  That is docs/method.md, "The memory model": memory at step j = the
copies made before j that a step >= j still reads, plus the output made at
step j.

The memory measured is that of the tensors the executor holds: the
distinct storages referenced by the live copies (a storage shared by
several copies counts once), leaving out fixed memory (parameters, state,
input, target, constants and their views) and parameter gradients.  It is
measured after each step's operations, before anything is freed.

Side effects happen once.  Updates of fixed memory (the buffers' copy_ at
the end of a functionalised trace, batch norm's running statistics) go to
shadow copies of the buffers, so every operation reads the values the
plain model read, and a recomputed batch norm updates a throwaway clone.

Randomness: a run in the trace's own order, seeded like the plain model,
records the random generator's state before each random operation; the
scheduled run restores that state before every execution of it, first or
recomputed, so dropout masks are the plain model's on every copy.
"""

import time

import torch

from ..errors import BridgeError
from .fxeval import evaluate, storage_key, tensors_of
from .memory import FIXED
from .models import loss_of, output_tensors, seed_all
from .trace import hidden_writes, op_name, written_args


class Plan:
    """The graph file's remat nodes bound to a fresh trace's fx nodes."""

    def __init__(self, trace, graph, path):
        self.trace = trace
        by_name = {n.name: n for n in trace.nodes}
        nodes = graph["nodes"]

        def mismatch(detail):
            return BridgeError(
                f"{path} does not match the trace of "
                f"{trace.spec.description()}: {detail} (export the graph "
                "again with the same model and options)")

        self.members, self.memory = [], []
        group_of = {n: FIXED for n in trace.nodes
                    if n.op in ("placeholder", "get_attr")}
        for i, gnode in enumerate(nodes):
            names = [gnode["label"]] + list(gnode.get("members", []))
            fx = []
            for name in names:
                n = by_name.get(name)
                if n is None:
                    raise mismatch(f"node {gnode['id']}: no fx node {name!r}")
                if n in group_of:
                    raise mismatch(f"fx node {name!r} is in two nodes")
                group_of[n] = i
                fx.append(n)
            if gnode.get("op") not in (None, op_name(fx[0])):
                raise mismatch(f"node {gnode['id']} ({gnode['label']}) is "
                               f"{gnode.get('op')} in the file, "
                               f"{op_name(fx[0])} in the trace")
            fx.sort(key=trace.position.__getitem__)
            self.members.append(fx)
            self.memory.append(int(gnode["memory"]))
        self.fixed_aliases = []
        for name in graph.get("fixed_aliases", []):
            n = by_name.get(name)
            if n is None or n in group_of:
                raise mismatch(f"fixed alias {name!r}")
            group_of[n] = FIXED
            self.fixed_aliases.append(n)
        missing = [n.name for n in trace.nodes if n not in group_of]
        if missing:
            raise mismatch(f"fx node {missing[0]!r} is in no node")
        self.fixed_aliases.sort(key=trace.position.__getitem__)
        self.group_of = group_of

        ids = {str(n["id"]): i for i, n in enumerate(nodes)}
        file_edges = set()
        for e in graph["edges"]:
            if (not isinstance(e, list) or len(e) != 2
                    or str(e[0]) not in ids or str(e[1]) not in ids):
                raise BridgeError(f"{path}: bad edge {e!r}")
            file_edges.add((ids[str(e[0])], ids[str(e[1])]))
        edges = set()
        for i, fx in enumerate(self.members):
            for m in fx:
                for a in m.all_input_nodes:
                    r = group_of[a]
                    if r != FIXED and r != i:
                        edges.add((r, i))
        if edges != file_edges:
            diff = sorted(edges ^ file_edges)[0]
            raise mismatch(f"edge {nodes[diff[0]]['id']} -> "
                           f"{nodes[diff[1]]['id']} differs")
        self.preds = [[] for _ in nodes]
        for u, v in sorted(edges):
            self.preds[v].append(u)
        self.ids = [n["id"] for n in nodes]


def simulate(preds, memory, ids, seq):
    """The memory model on seq (node indices; preds[v] lists v's inputs):
    (lastuse per step, memory per step, peak).  An input read before it is
    computed, or a node never computed, is an error."""
    latest = [-1] * len(preds)
    lastuse = [-1] * len(seq)
    for j, v in enumerate(seq):
        for u in preds[v]:
            i = latest[u]
            if i < 0:
                raise BridgeError(
                    f"the schedule computes node {ids[v]} at step "
                    f"{j + 1} before its input {ids[u]}")
            lastuse[i] = max(lastuse[i], j)
        latest[v] = j
    missing = [ids[v] for v in range(len(preds)) if latest[v] < 0]
    if missing:
        raise BridgeError(f"the schedule never computes node {missing[0]}"
                          f" ({len(missing)} nodes missing)")
    delta = [0] * (len(seq) + 1)
    for i, v in enumerate(seq):
        if lastuse[i] > i:
            delta[i + 1] += memory[v]
            delta[lastuse[i] + 1] -= memory[v]
    cur, mem = 0, []
    for j, v in enumerate(seq):
        cur += delta[j]
        mem.append(cur + memory[v])
    return lastuse, mem, max(mem)


class RunResult:
    def __init__(self):
        self.outputs = []       # values of trace.outputs
        self.state = []         # the state tensors after the run
        self.memory = []        # measured bytes per step
        self.peak = 0
        self.times = (0.0, 0.0)  # wall and process CPU seconds


class Executor:
    """Runs a Plan's trace along schedules."""

    def __init__(self, plan):
        self.plan = plan
        trace = self.trace = plan.trace
        self.outputs = set(trace.outputs)
        self.grad_nodes = {o for _, o in trace.grad_outputs()}
        # inputs (placeholders) written by an operation, and where
        self.writes = {}
        for fx in plan.members:
            for n in fx:
                if n.op != "call_function":
                    continue
                written = written_args(n)
                pos = [i for i, a in enumerate(n.args)
                       if isinstance(a, torch.fx.Node) and a in written]
                pos += list(hidden_writes(n))
                pos = [p for p in pos if n.args[p].op == "placeholder"]
                if pos:
                    self.writes[n] = pos

    def _fixed_env(self, flat):
        env = dict(zip(self.trace.placeholders, flat))
        for n in self.trace.nodes:
            if n.op == "get_attr":
                env[n] = self.trace.get_attr(n)
        for n in self.plan.fixed_aliases:
            env[n] = evaluate(n, env)
        return env

    def run(self, seq, lastuse, rng_states, record):
        """Execute seq.  record: store the generator's state before each
        random operation in rng_states; else restore it from there."""
        trace, members = self.trace, self.plan.members
        flat, kinds = trace.spec.flat_inputs()
        env = self._fixed_env(flat)
        fixed_keys = set()
        for value in env.values():
            for t in tensors_of(value):
                fixed_keys.add(storage_key(t))
        # shadows of the fixed tensors that operations write
        shadows = {}
        for n, pos in self.writes.items():
            for p in pos:
                ph = n.args[p]
                if ph not in shadows:
                    shadows[ph] = env[ph].clone()
                    fixed_keys.add(storage_key(shadows[ph]))
        fixed_keys.discard(None)
        done = set()
        results = {}
        live = {}                       # storage key -> number of copies
        live_bytes = 0
        copy_keys = [None] * len(seq)
        holder = {}                     # node -> step of its live copy
        res = RunResult()
        free_at = [[] for _ in seq]
        for i, j in enumerate(lastuse):
            if j > i:
                free_at[j].append(i)

        def release(i):
            nonlocal live_bytes
            v = seq[i]
            for k in copy_keys[i]:
                live[k] -= 1
                if live[k] == 0:
                    del live[k]
                    live_bytes -= k[1]
            copy_keys[i] = None
            if holder.get(v) == i:
                del holder[v]
                for m in members[v]:
                    env.pop(m, None)

        random = trace.random
        if record:
            seed_all(trace.spec.seed)
        t0, c0 = time.perf_counter(), time.process_time()
        for j, v in enumerate(seq):
            if v in holder:
                raise RuntimeError(f"node {self.plan.ids[v]} recomputed "
                                   "while its previous copy is live")
            for m in members[v]:
                if m in random:
                    if record:
                        rng_states[m] = torch.get_rng_state()
                    else:
                        torch.set_rng_state(rng_states[m])
                replace = None
                if m in self.writes:
                    replace = {}
                    for p in self.writes[m]:
                        target = shadows[m.args[p]]
                        if m in done and p in hidden_writes(m):
                            target = target.clone()
                        replace[p] = target
                env[m] = evaluate(m, env, replace)
                done.add(m)
                if m in self.outputs:
                    results[m] = env[m]
            holder[v] = j
            grad_keys = set()
            for m in members[v]:
                if m in self.grad_nodes:
                    grad_keys.update(storage_key(t) for t in tensors_of(env[m]))
            keys = set()
            for m in members[v]:
                for t in tensors_of(env[m]):
                    k = storage_key(t)
                    if k is not None and k not in fixed_keys \
                            and k not in grad_keys:
                        keys.add(k)
            copy_keys[j] = keys
            for k in keys:
                if k in live:
                    live[k] += 1
                else:
                    live[k] = 1
                    live_bytes += k[1]
            res.memory.append(live_bytes)
            for i in free_at[j]:
                release(i)
            if lastuse[j] <= j:
                release(j)
        res.times = (time.perf_counter() - t0, time.process_time() - c0)
        res.peak = max(res.memory)
        res.outputs = [results.get(o) for o in trace.outputs]
        res.state = [shadows.get(ph, flat[i])
                     for i, ph in enumerate(trace.placeholders)
                     if kinds[i] == "state"]
        return res


def plain_run(spec):
    """The model itself, seeded: (outputs like Trace.outputs, state after
    the run, (wall, process CPU) seconds).  Training: the loss and then the
    gradients."""
    m = spec.plain_module()
    x, y = spec.x.clone(), spec.y.clone()
    seed_all(spec.seed)
    t0, c0 = time.perf_counter(), time.process_time()
    if spec.train:
        params = dict(m.named_parameters())
        plist = [params[n] for n in spec.grad_names]
        loss = loss_of(m(x), y)
        grads = torch.autograd.grad(loss, plist, allow_unused=True)
        outs = [loss.detach()] + [g if g is not None else torch.zeros_like(p)
                                  for g, p in zip(grads, plist)]
    else:
        with torch.no_grad():
            outs = output_tensors(m(x))
    times = (time.perf_counter() - t0, time.process_time() - c0)
    tensors = dict(m.named_parameters())
    tensors.update(dict(m.named_buffers()))
    state = [tensors[n].detach() for n in spec.state_names]
    return outs, state, times


def relative_error(a, b):
    """max |a - b| / max |b| (max |a - b| when b is 0); inf on a shape or
    type mismatch."""
    if a is None or b is None or a.shape != b.shape:
        return float("inf")
    if not a.is_floating_point():
        return 0.0 if torch.equal(a, b) else float("inf")
    d = (a.double() - b.double()).abs().max().item() if a.numel() else 0.0
    s = b.double().abs().max().item() if b.numel() else 0.0
    return d / s if s > 0 else d
