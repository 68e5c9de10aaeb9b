"""Memory accounting: fx nodes grouped into remat nodes.

One run of the trace in its own order on real tensors decides, for every
fx node, where its output lives:

- placeholders (parameters, state, the inputs and targets) and constants
  are fixed memory: reported, never scheduled, except the incoming output
  gradients, which together form one remat node (the start of the
  backward);
- a view or alias (getitem, view, t, expand, _unsafe_view, ...: every
  output tensor shares a storage with one of its arguments, and it writes
  nothing) joins the group of its base; a view of fixed memory is a fixed
  alias, computed once;
- an operation that writes in place into a fresh activation nothing else
  reads (dropout's bernoulli_ on its empty_like) joins that activation's
  group, which is then computed at the writer's position; a write into a
  tensor that other operations also read is refused;
- every other operation starts a group: a remat node.

A group's memory is the bytes of the storages its operations create
(gradients included: they live until the backward returns them); its
readers are the groups whose operations read any of its tensors.
"""

from ..errors import BridgeError
from .fxeval import run_in_order, storage_key, storage_keys, tensors_of
from .trace import hidden_writes, op_name, written_args

FIXED = -1


class Group:
    """A remat node: its fx nodes in trace order, named by its anchor (the
    last operation that is not a view)."""

    def __init__(self, index, node):
        self.index = index
        self.members = [node]
        self.anchor = node
        self.keys = []          # (storage key) it creates, in order
        self.shapes = []        # shapes of the tensors it creates
        self.flops = 0
        self.cpu_ns = 0

    @property
    def memory(self):
        return sum(k[1] for k in self.keys)


class Analysis:
    """The result of analyse(): groups in remat's input order, edges,
    fixed aliases and fixed memory by kind."""

    def __init__(self, trace):
        self.trace = trace
        self.group_of = {}          # fx node -> group index or FIXED
        self.groups = []
        self.fixed_aliases = []
        self.fixed_bytes = {}       # kind -> bytes
        self.grad_bytes = 0
        self.grad_out = None        # the group of the output gradients

    def ordered(self):
        """Groups in the order their anchors were traced (topological)."""
        pos = self.trace.position
        return sorted(self.groups, key=lambda g: pos[g.anchor])

    def edges(self):
        """(source group, target group) pairs, each once."""
        out = set()
        for g in self.groups:
            for m in g.members:
                for a in m.all_input_nodes:
                    r = self.group_of[a]
                    if r != FIXED and r != g.index:
                        out.add((r, g.index))
        return out


def _writes(node):
    written = list(written_args(node))
    for p in hidden_writes(node):
        written.append(node.args[p])
    return written


def analyse(trace, flat, visit=None):
    """Run the trace once on flat inputs and group its nodes.  visit(node,
    env, value, cpu_ns) is passed on to every evaluated node (durations)."""
    an = Analysis(trace)
    group_of = an.group_of
    fixed_keys = {}

    def new_group(node):
        g = Group(len(an.groups), node)
        an.groups.append(g)
        group_of[node] = g.index
        return g

    for ph, t in zip(trace.placeholders, flat):
        if trace.kinds[ph] == "grad_out":
            if an.grad_out is None:
                an.grad_out = new_group(ph)
            else:
                an.grad_out.members.append(ph)
                group_of[ph] = an.grad_out.index
            for k in storage_keys(t):
                if k not in an.grad_out.keys:
                    an.grad_out.keys.append(k)
                    an.grad_out.shapes.append(list(t.shape))
            continue
        group_of[ph] = FIXED
        for k in storage_keys(t):
            if k not in fixed_keys:
                fixed_keys[k] = trace.kinds[ph]

    def join(g, node):
        g.members.append(node)
        group_of[node] = g.index

    def visit_node(node, env, value, dt):
        if visit is not None:
            visit(node, env, value, dt)
        if node.op == "get_attr":
            group_of[node] = FIXED
            for k in storage_keys(value):
                fixed_keys.setdefault(k, "constant")
            return
        arg_owner = {}
        for a in node.all_input_nodes:
            for k in storage_keys(env[a]):
                arg_owner.setdefault(k, a)
        out_keys = storage_keys(value)
        fresh = [k for k in out_keys if k not in arg_owner]
        written = _writes(node)
        input_roots = {group_of[a] for a in node.all_input_nodes}
        if written:
            roots = {group_of[a] for a in written} - {FIXED}
            if not roots:                    # an update of fixed memory
                g = new_group(node)
            else:
                g = _merge_writer(an, node, roots, written)
        elif out_keys and not fresh:
            roots = {group_of[arg_owner[k]] for k in out_keys}
            if len(roots) == 1 and input_roots <= roots | {FIXED}:
                root = roots.pop()
                if root == FIXED:
                    group_of[node] = FIXED
                    an.fixed_aliases.append(node)
                    return
                join(an.groups[root], node)
                return
            g = new_group(node)
        else:
            g = new_group(node)
        for k in fresh:
            if k not in g.keys:
                g.keys.append(k)
        for t in tensors_of(value):
            k = storage_key(t)
            if k in fresh:
                g.shapes.append(list(t.shape))

    env = run_in_order(trace, flat, visit_node)

    seen = set()
    for o in trace.grads:
        if o is None:
            continue
        for k in storage_keys(env[o]):
            if k not in seen:
                seen.add(k)
                an.grad_bytes += k[1]
    for k, kind in fixed_keys.items():
        an.fixed_bytes[kind] = an.fixed_bytes.get(kind, 0) + k[1]
    return an


def _merge_writer(an, node, roots, written):
    """node writes in place into an activation: it joins that activation's
    group if nothing but the group itself and node reads the group."""
    if len(roots) == 1:
        g = an.groups[next(iter(roots))]
        members = set(g.members)
        readers = {u for m in g.members for u in m.users} - members - {node}
        if not readers:
            g.members.append(node)
            g.anchor = node
            an.group_of[node] = g.index
            return g
    target = next(a for a in written if an.group_of[a] != FIXED)
    raise BridgeError(f"{node.name} ({op_name(node)}) writes in place into "
                      f"{target.name}, which other operations also read: "
                      "the trace cannot be rematerialised")
