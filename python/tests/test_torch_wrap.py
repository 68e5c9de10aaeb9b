"""remat.torch.export and remat.torch.wrap on tiny models: the wrapped
model trains like the plain one (loss, every gradient, the parameters and
buffers after three SGD steps, relative 1e-5) while following a schedule
solved at 0.6 of the input order's peak.

Batch 2 and small inputs, shaped so that activations outweigh the
gradients (which live until the backward returns and bound every
schedule's peak from below)."""

from __future__ import annotations

import copy
import math

import pytest

torch = pytest.importorskip("torch")
nn = torch.nn
F = torch.nn.functional

import remat  # noqa: E402
import remat.torch as rt  # noqa: E402
from remat.errors import BridgeError  # noqa: E402

RTOL = 1e-5
SOLVE = {"time_limit": 3, "threads": 1, "durations": "flops"}


class TokenMLP(nn.Module):
    """Linear layers over the last dimension of (2, 64, 16) inputs, with
    an in-place ReLU, dropout and a long skip."""

    def __init__(self, d: int = 16, layers: int = 6) -> None:
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(d, d) for _ in range(layers))
        self.drop = nn.Dropout(0.2)
        self.head = nn.Linear(d, 5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        skip = None
        for i, layer in enumerate(self.layers):
            x = F.relu_(layer(x))
            if i == 1:
                skip = x
                x = self.drop(x)
        return self.head((x + skip).mean(1))


class SmallCNN(nn.Module):
    """A convolution with batch norm and in-place ReLU, four more such
    blocks, dropout and a long residual: (2, 3, 16, 16) inputs."""

    def __init__(self, c: int = 8, n: int = 4) -> None:
        super().__init__()
        self.c1, self.b1 = nn.Conv2d(3, c, 3, padding=1), nn.BatchNorm2d(c)
        self.blocks = nn.ModuleList(
            nn.Sequential(nn.Conv2d(c, c, 3, padding=1, bias=False),
                          nn.BatchNorm2d(c), nn.ReLU(inplace=True))
            for _ in range(n))
        self.drop = nn.Dropout(0.3)
        self.fc = nn.Linear(c, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = F.relu(self.b1(self.c1(x)), inplace=True)
        y = x
        for block in self.blocks:
            y = block(y)
        y = self.drop(y) + x
        return self.fc(y.mean((2, 3)))


class GPTBlock(nn.Module):
    """A GPT-style decoder: token and position embeddings, one pre-norm
    block (causal self-attention with the mask as a buffer, filled in
    place, dropout on the attention weights), the output head tied to the
    token embedding.  Input: (2, 32) token ids."""

    def __init__(self, vocab: int = 11, d: int = 16, heads: int = 2,
                 t: int = 32) -> None:
        super().__init__()
        self.heads = heads
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(torch.randn(t, d) * 0.1)
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.mlp = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(),
                                 nn.Linear(2 * d, d))
        self.drop = nn.Dropout(0.1)
        self.head = nn.Linear(d, vocab, bias=False)
        self.head.weight = self.tok.weight
        self.register_buffer("mask", torch.tril(torch.ones(t, t)).bool())

    def forward(self, idx: torch.Tensor) -> torch.Tensor:
        b, t = idx.shape
        x = self.tok(idx) + self.pos[:t]
        q, k, v = self.qkv(self.ln1(x)).split(x.shape[-1], dim=2)
        q, k, v = (z.view(b, t, self.heads, -1).transpose(1, 2)
                   for z in (q, k, v))
        att = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        att.masked_fill_(~self.mask[:t, :t], float("-inf"))
        att = self.drop(att.softmax(-1))
        y = (att @ v).transpose(1, 2).reshape(b, t, -1)
        x = x + self.proj(y)
        x = x + self.mlp(self.ln2(x))
        return self.head(x)


def _mlp() -> tuple[nn.Module, torch.Tensor, torch.Tensor]:
    return TokenMLP(), torch.randn(2, 64, 16), torch.tensor([1, 4])


def _cnn() -> tuple[nn.Module, torch.Tensor, torch.Tensor]:
    return SmallCNN(), torch.randn(2, 3, 16, 16), torch.tensor([3, 7])


def _gpt() -> tuple[nn.Module, torch.Tensor, torch.Tensor]:
    idx = torch.randint(0, 11, (2, 32))
    return GPTBlock(), idx, torch.randint(0, 11, (2, 32))


def _loss(out: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return F.cross_entropy(out.reshape(-1, out.shape[-1]), y.reshape(-1))


MODELS = {"mlp": _mlp, "cnn": _cnn, "gpt": _gpt}


def rel(a: torch.Tensor, b: torch.Tensor) -> float:
    """max |a - b| / max |b|."""
    d = (a.double() - b.double()).abs().max().item()
    s = b.double().abs().max().item()
    return d / s if s > 0 else d


def make(name: str, device: str = "cpu", **kw):
    torch.manual_seed(0)
    model, x, y = MODELS[name]()
    model, x, y = model.to(device).train(), x.to(device), y.to(device)
    plain = copy.deepcopy(model)
    wrapped = rt.wrap(model, (x,), kw.pop("budget", 0.6), **SOLVE, **kw)
    return model, plain, wrapped, x, y


def train_side_by_side(wrapped, plain, x, y, steps=3):
    """Three SGD steps of both, seeded alike: the largest relative
    differences (loss, gradient)."""
    opt_w = torch.optim.SGD(wrapped.parameters(), lr=0.1, momentum=0.9)
    opt_p = torch.optim.SGD(plain.parameters(), lr=0.1, momentum=0.9)
    worst_loss = worst_grad = 0.0
    for step in range(steps):
        losses, grads = [], []
        for m, opt in ((wrapped, opt_w), (plain, opt_p)):
            torch.manual_seed(100 + step)
            opt.zero_grad()
            loss = _loss(m(x), y)
            loss.backward()
            losses.append(loss.detach())
            grads.append([p.grad for p in m.parameters()])
            opt.step()
        worst_loss = max(worst_loss, rel(losses[0], losses[1]))
        for a, b in zip(*grads):
            assert (a is None) == (b is None)
            if a is not None:
                worst_grad = max(worst_grad, rel(a, b))
    return worst_loss, worst_grad


@pytest.mark.parametrize("name", sorted(MODELS))
def test_wrap_trains_like_the_plain_model(name):
    model, plain, wrapped, x, y = make(name)
    plan = wrapped.plan
    assert plan.peak <= plan.budget < plan.input_order_peak
    assert plan.recomputations > 0
    assert 0 < plan.forward_steps < len(plan.schedule)
    # another order's schedule, where the solve found one, is shorter
    assert plan.other_order_tdi is None or (
        0 <= plan.other_order_tdi <= plan.tdi - 0.1), plan.other_order_tdi
    # the parameters are shared, not copied
    assert all(a is b for a, b in zip(wrapped.parameters(),
                                      model.parameters()))
    worst_loss, worst_grad = train_side_by_side(wrapped, plain, x, y)
    assert worst_loss <= RTOL and worst_grad <= RTOL, (worst_loss,
                                                       worst_grad)
    for (n, a), b in zip(model.state_dict().items(),
                         plain.state_dict().values()):
        if a.is_floating_point():
            assert rel(a, b) <= RTOL, n
        else:
            assert torch.equal(a, b), n       # num_batches_tracked: 3


def test_export_graph():
    torch.manual_seed(0)
    model, x, _ = _cnn()
    g = rt.export(model.train(), (x,), durations="flops")
    nodes = g["nodes"]
    assert [n["id"] for n in nodes] == g["order"] == list(range(len(nodes)))
    for n in nodes:
        assert {"id", "duration", "memory", "op", "label",
                "shape", "backward"} <= set(n)
    ops = [n["op"] for n in nodes]
    assert ops.count("grad_out") == 1 and ops[-1] == "sink"
    gout = nodes[ops.index("grad_out")]
    assert gout["copies"] == 1 and gout["memory"] == 2 * 10 * 4
    assert sum(1 for o in ops if o == "aten.native_batch_norm") == 5
    assert any(n["backward"] for n in nodes)
    assert not nodes[0]["backward"]
    graph = remat.load_graph(g)
    assert graph.topo_peak > graph.min_peak > 0
    # the module's buffers and the random generator are left as they were
    assert int(model.b1.num_batches_tracked) == 0
    assert float(model.b1.running_mean.abs().sum()) == 0.0
    # inference: the forward alone
    gi = rt.export(model.eval(), (x,), train=False, durations="flops")
    assert all(n["op"] not in ("grad_out", "sink") for n in gi["nodes"])


def test_loss_fn_in_the_plan():
    torch.manual_seed(0)
    model, x, y = _cnn()
    plain = copy.deepcopy(model)
    wrapped = rt.wrap(model, (x,), 0.7, loss_fn=F.cross_entropy,
                      targets=(y,), **SOLVE)
    torch.manual_seed(5)
    loss = wrapped(x, y)
    loss.backward()
    torch.manual_seed(5)
    ref = F.cross_entropy(plain(x), y)
    ref.backward()
    assert rel(loss.detach(), ref.detach()) <= RTOL
    for a, b in zip(model.parameters(), plain.parameters()):
        assert rel(a.grad, b.grad) <= RTOL


def test_input_gradient():
    torch.manual_seed(0)
    model, x, y = _mlp()
    plain = copy.deepcopy(model).eval()
    model.eval()
    x1 = x.clone().requires_grad_()
    x2 = x.clone().requires_grad_()
    wrapped = rt.wrap(model, (x1,), 0.8, **SOLVE)
    _loss(wrapped(x1), y).backward()
    _loss(plain(x2), y).backward()
    assert rel(x1.grad, x2.grad) <= RTOL


def test_new_shape_plans_again():
    model, plain, wrapped, x, y = make("mlp")
    first = wrapped.plan
    x2 = torch.randn(2, 48, 16)
    torch.manual_seed(1)
    _loss(wrapped(x2), y).backward()
    assert wrapped.plan is not first and len(wrapped.plans) == 2
    torch.manual_seed(1)
    _loss(plain(x2), y).backward()
    for a, b in zip(model.parameters(), plain.parameters()):
        assert rel(a.grad, b.grad) <= RTOL
    strict = rt.wrap(model, (x,), 0.6, replan=False, **SOLVE)
    with pytest.raises(BridgeError, match="differ from the plan's"):
        strict(x2)


def test_device_mismatch():
    model, _, wrapped, x, y = make("mlp")
    with pytest.raises(BridgeError, match="is on cpu but the inputs are on"):
        wrapped(x.to("meta"))


def test_no_grad_runs_the_plain_model():
    model, plain, wrapped, x, _ = make("cnn")
    model.eval()
    plain.eval()
    with torch.no_grad():
        assert rel(wrapped(x), plain(x)) <= RTOL


def test_fraction_is_of_what_a_schedule_can_save():
    """0.6 is 60 % of the way from the least peak of the traced order to
    the plain one, so a fraction never asks for less than some schedule
    needs; bytes are the whole peak; nothing to save gives the plain
    peak."""
    from remat.torch.wrap import _budget_bytes
    model, plain, wrapped, x, y = make("gpt")
    plan = wrapped.plan
    least = remat.load_graph(plan.graph).order_min_peak
    top = plan.input_order_peak
    assert 0 < least < top
    assert plan.budget == least + (int(0.6 * top) * (top - least)) // top
    assert _budget_bytes("60%", top, least) == plan.budget
    assert _budget_bytes(1 << 20, top, least) == 1 << 20
    assert _budget_bytes("1KiB", top, least) == 1024
    assert _budget_bytes(0.6, 1000, 1000) == 1000
    assert _budget_bytes(0.5, 1000, 600) == 800


def test_unused_output_leaves_its_gradients_none():
    """An output the loss ignores (an auxiliary head, as GoogLeNet's in
    training): the parameters only it reaches get no gradient, as in the
    plain model, and the others the plain model's."""
    class TwoHeads(nn.Module):
        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(nn.Linear(16, 32), nn.ReLU(),
                                      nn.Linear(32, 32), nn.ReLU())
            self.main, self.aux = nn.Linear(32, 4), nn.Linear(32, 4)

        def forward(self, x):
            h = self.body(x)
            return self.main(h), self.aux(h)

    torch.manual_seed(0)
    model, x = TwoHeads(), torch.randn(8, 16)
    plain = copy.deepcopy(model)
    wrapped = rt.wrap(model, (x,), 0.6, **SOLVE)
    wrapped(x)[0].square().mean().backward()
    plain(x)[0].square().mean().backward()
    assert model.aux.weight.grad is None and plain.aux.weight.grad is None
    for (n, a), b in zip(model.named_parameters(), plain.parameters()):
        if b.grad is not None:
            assert rel(a.grad, b.grad) <= RTOL, n


def test_dead_dropout_still_draws():
    """A dropout whose output the planned loss never reads (an auxiliary
    head's, the loss taking the main output) still advances the generator
    as in the plain model, so the main head's dropout draws the same
    mask."""
    class AuxDropout(nn.Module):
        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(nn.Linear(16, 32), nn.ReLU())
            self.aux = nn.Sequential(nn.Dropout(0.5), nn.Linear(32, 4))
            self.main = nn.Sequential(nn.Dropout(0.5), nn.Linear(32, 4))

        def forward(self, x):
            h = self.body(x)
            aux = self.aux(h)               # drawn first, as GoogLeNet's
            return self.main(h), aux

    torch.manual_seed(0)
    model, x = AuxDropout().train(), torch.randn(8, 16)
    plain = copy.deepcopy(model)

    def loss_fn(out):
        return out[0].square().mean()

    wrapped = rt.wrap(model, (x,), 0.6, loss_fn=loss_fn, **SOLVE)
    torch.manual_seed(3)
    lw = wrapped(x)
    lw.backward()
    torch.manual_seed(3)
    lp = loss_fn(plain(x))
    lp.backward()
    assert rel(lw, lp) <= RTOL
    assert rel(model.body[0].weight.grad, plain.body[0].weight.grad) <= RTOL


def test_infeasible_budget():
    torch.manual_seed(0)
    model, x, _ = _mlp()
    with pytest.raises(remat.InfeasibleError) as e:
        rt.wrap(model, (x,), 1000, **SOLVE)
    assert e.value.bound is not None and e.value.bound > 1000


def test_data_dependent_control_flow():
    class Branchy(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(4, 4)

        def forward(self, x):
            y = self.lin(x)
            return y * 2 if y.sum() > 0 else y

    with pytest.raises(BridgeError, match="cannot be traced: its forward "
                                          "depends on the values"):
        rt.wrap(Branchy(), (torch.randn(2, 4),), 0.6, **SOLVE)


CUDA = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA")


@pytest.mark.parametrize("name,device", [
    ("gpt", "cpu"), ("cnn", "cpu"),
    pytest.param("gpt", "cuda", marks=CUDA),
    pytest.param("cnn", "cuda", marks=CUDA)])
def test_measured_peak(name, device):
    """The allocator's peak of a wrapped step (remat.torch.measure) is
    below the plain model's, within the budget and within 5 % of the
    prediction (the plan counts the operations' temporaries, and on CUDA
    each storage in the allocator's 512-byte blocks).  On CUDA these tiny
    models' many small tensors (biases' gradients among them) take a whole
    block each, which leaves less to save: below the plain peak, not below
    0.8 of it."""
    model, plain, wrapped, x, y = make(name, device)

    def step(m):
        def run():
            _loss(m(x), y).backward()
        return run

    got = {}
    for m in (wrapped, plain):
        step(m)()                       # warm-up
        for p in m.parameters():
            p.grad = None
        got[m] = rt.measure(step(m), device)
    w, p = got[wrapped], got[plain]
    plan = wrapped.plan
    saved = 0.8 if device == "cpu" else 1.0
    assert w.peak_bytes < saved * p.peak_bytes, (w.peak_bytes, p.peak_bytes)
    assert abs(w.peak_bytes - plan.peak) <= 0.05 * plan.peak, (
        w.peak_bytes, plan.peak)
    assert w.peak_bytes <= 1.05 * plan.budget


@CUDA
def test_cuda():
    torch.manual_seed(0)
    model, x, y = _cnn()
    model, x, y = model.cuda().train(), x.cuda(), y.cuda()
    plain = copy.deepcopy(model)
    wrapped = rt.wrap(model, (x,), 0.7, **SOLVE)
    worst_loss, worst_grad = train_side_by_side(wrapped, plain, x, y)
    assert worst_loss <= RTOL and worst_grad <= RTOL
    with pytest.raises(BridgeError):
        wrapped(x.cpu())


def test_compile_backend():
    torch.manual_seed(0)
    model, x, y = _mlp()
    plain = copy.deepcopy(model)
    opts = dict(SOLVE)
    compiled = torch.compile(model, backend=rt.backend(0.6, **opts),
                             dynamic=False)
    for step in range(2):
        torch.manual_seed(step)
        _loss(compiled(x), y).backward()
        torch.manual_seed(step)
        _loss(plain(x), y).backward()
        for a, b in zip(model.parameters(), plain.parameters()):
            assert rel(a.grad, b.grad) <= RTOL


def test_export_fixed_gradients():
    torch.manual_seed(0)
    model, x, _ = _cnn()
    live = rt.export(model, (x,), durations="flops")
    fixed = rt.export(model, (x,), durations="flops", grads="fixed")
    assert fixed["grads"] == "fixed" and live["grads"] == "live"
    assert not any(n["op"] == "sink" for n in fixed["nodes"])
    total = sum(n["memory"] for n in fixed["nodes"])
    assert total < sum(n["memory"] for n in live["nodes"])
    assert remat.load_graph(fixed).topo_peak < remat.load_graph(
        live).topo_peak


@pytest.mark.parametrize("target,args,random", [
    # the fused attentions draw for their dropout alone; their backward
    # replays the forward's draw from the seed and offset it is given
    ("_scaled_dot_product_efficient_attention", (None, None, None, None, True, 0.0), False),
    ("_scaled_dot_product_efficient_attention", (None, None, None, None, True, 0.1), True),
    ("_scaled_dot_product_flash_attention_for_cpu", (None, None, None, 0.0), False),
    ("_scaled_dot_product_efficient_attention_backward", (None,) * 13, False),
    ("_scaled_dot_product_cudnn_attention_backward", (None,) * 16, False),
    ("native_dropout", (None, 0.5, True), True),
    ("bernoulli", (None,), True),
    ("mm", (None, None), False),
])
def test_is_random(target, args, random):
    from remat.torch.trace import is_random
    op = getattr(torch.ops.aten, target).default
    g = torch.fx.Graph()
    node = g.call_function(op, args)
    assert is_random(node) is random


def test_cuda_sizes_round_to_the_allocators_blocks():
    from remat.torch.export import _bytes, _granule

    class Group:
        keys = [(1000, 1), (2000, 512), (3000, 513), (4000, 10 ** 12 + 1)]
    none = lambda grp: set()  # noqa: E731
    assert _granule(torch.device("cpu")) == 1
    assert _granule(torch.device("cuda", 0)) == 512
    assert _bytes(Group, none, 1) == 1 + 512 + 513 + 10 ** 12 + 1
    assert _bytes(Group, none, 512) == 512 + 512 + 1024 + 10 ** 12 + 512
    assert _bytes(Group, lambda grp: {(3000, 513)}, 512) == (
        512 + 512 + 10 ** 12 + 512)


@pytest.mark.parametrize("name,budget", [("gpt", 0.3), ("cnn", 0.3),
                                         ("mlp", 0.5)])
def test_generated_code_runs_as_the_interpreter(name, budget):
    """The executor's straight-line code (codegen.py, calls without a
    meter) and its step-by-step interpretation (calls with one) compute
    the same outputs and gradients, bit for bit, and hold the same values
    after the forward call and at the end: recomputations, dropout's
    replayed draws and batch norm's buffer updates included."""
    model, plain, wrapped, x, y = make(name, budget=budget)
    ex = wrapped.plan.executor
    spec = ex.trace.spec
    assert wrapped.plan.recomputations > 0
    tensors = dict(model.named_parameters())
    tensors.update(dict(model.named_buffers()))
    runs = []
    for meter in (True, False):
        flat = [tensors[n].detach().clone()
                for n in spec.grad_names + spec.state_names] + [x]
        torch.manual_seed(7)
        call = ex.start(flat, meter)
        outs = ex.forward(call)
        held = (set(call.env), set(call.rng))
        gouts = [torch.ones_like(outs[k]) for k in ex.trace.diff_outputs]
        grads = ex.backward(call, gouts)
        runs.append((outs, grads, held, (set(call.env), set(call.rng)),
                     flat))
    (o1, g1, h1, e1, f1), (o2, g2, h2, e2, f2) = runs
    assert all(torch.equal(a, b) for a, b in zip(o1, o2))
    assert len(g1) == len(g2) and all(
        (a is None and b is None) or torch.equal(a, b) for a, b in zip(g1, g2))
    assert h1 == h2 and e1 == e2
    assert all(torch.equal(a, b) for a, b in zip(f1, f2)
               if isinstance(a, torch.Tensor))


def test_generated_code_leaves_dicts_to_the_executor():
    """An argument the generated code does not write out (a dict) keeps
    the executor's own evaluation of that operation."""
    from remat.torch.codegen import _Names, _Unwritten, _call
    g = torch.fx.Graph()
    x = g.placeholder("x")
    ok = g.call_function(torch.ops.aten.mul.Tensor, (x, x))
    bad = g.call_function(torch.ops.aten.mul.Tensor, (x, {"k": x}))
    names = _Names()
    src = _call(ok, names)
    fn, args = src[:-1].split("(")
    assert names.env[fn] is torch.ops.aten.mul.Tensor
    assert [names.env[a.strip()[4:-1]] for a in args.split(",")] == [x, x]
    with pytest.raises(_Unwritten):
        _call(bad, names)


@pytest.mark.parametrize("name", ["gpt", "resnet18"])
def test_module_tensors_as_torch_names_them(name):
    """wrap's one walk of the module tree finds what named_parameters and
    named_buffers do (GPT ties its head to its embedding), and the
    distinct parameters in parameters()'s order."""
    from remat.torch import zoo
    from remat.torch.wrap import _module_tensors
    m = zoo.setup(name, seed=0).model
    tensors, distinct = _module_tensors(m)
    want = dict(m.named_parameters(remove_duplicate=False))
    want.update(m.named_buffers(remove_duplicate=False))
    assert tensors.keys() == want.keys()
    assert all(tensors[k] is want[k] for k in want)
    assert [id(p) for p in distinct] == [id(p) for p in m.parameters()]
