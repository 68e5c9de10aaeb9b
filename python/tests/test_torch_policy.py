"""remat.torch.policy: remat's plan as selective-checkpointing tags under
torch.compile (the aot_eager backend: the min-cut partitioner that
Inductor uses, with eager kernels, so that gradients compare bit for bit
and the test needs no C++ compiler).

The tiny models of test_torch_wrap (dropout, in-place ops, batch norm, a
tied head, a mask buffer)."""

from __future__ import annotations

import copy

import pytest

torch = pytest.importorskip("torch")

import remat.torch as rt  # noqa: E402
from test_torch_wrap import MODELS, SOLVE, _loss, rel  # noqa: E402

RTOL = 1e-5


def _compiled(name: str, budget: float):
    torch._dynamo.reset()
    torch.manual_seed(0)
    model, x, y = MODELS[name]()
    model.train()
    plain = copy.deepcopy(model)
    p = rt.policy(model, (x,), budget, **SOLVE)
    return p, model, torch.compile(p.module(), backend="aot_eager"), plain, x, y


def _step(m, x, y):
    def run():
        _loss(m(x), y).backward()
    return run


@pytest.mark.parametrize("name", sorted(MODELS))
def test_policy_trains_like_the_plain_model(name):
    """Every operation of the compiled forward is matched to the plan's
    (none left to the partitioner), the plan recomputes something, and
    two steps' gradients equal the plain model's (same dropout draws)."""
    p, model, compiled, plain, x, y = _compiled(name, 0.3)
    worst = 0.0
    for step in range(2):
        for m in (compiled, plain):
            torch.manual_seed(10 + step)
            for q in m.parameters():
                q.grad = None
            _step(m, x, y)()
        worst = max(worst, max(rel(a.grad, b.grad) for a, b in
                               zip(model.parameters(), plain.parameters())))
    assert worst <= RTOL, worst
    assert p.tags.matched > 0 and p.tags.unmatched == 0, (
        p.tags.matched, p.tags.unmatched)
    assert p.tags.recomputed > 0 and p.tags.saved > 0


@pytest.mark.parametrize("name", sorted(MODELS))
def test_policy_saves_memory_under_compile(name):
    """The tags are honoured: the compiled step with them measures
    (allocator) below 0.93 of the same step compiled without them."""
    p, model, compiled, plain, x, y = _compiled(name, 0.6)
    torch._dynamo.reset()
    bare = torch.compile(plain, backend="aot_eager")
    got = []
    for m, params in ((compiled, model), (bare, plain)):
        _step(m, x, y)()                # compile, warm up
        for q in params.parameters():
            q.grad = None
        got.append(rt.measure(_step(m, x, y)).peak_bytes)
    assert got[0] < 0.93 * got[1], got


@pytest.mark.parametrize("name", ["llama", "unet"])
def test_policy_matches_zoo_models(name):
    """Rotary embeddings, grouped-query attention, SwiGLU; a U-Net's
    skips: every operation matched, the gradients the plain model's."""
    from remat.torch import zoo
    torch._dynamo.reset()
    s = zoo.setup(name, seed=0)
    plain = copy.deepcopy(s.model)
    p = rt.policy(s.model, s.inputs, 0.5, loss_fn=s.loss_fn, **SOLVE)
    compiled = torch.compile(p.module(), backend="aot_eager")
    for m in (compiled, plain):
        torch.manual_seed(1)
        s.loss_fn(m(*s.inputs)).backward()
    assert p.tags.unmatched == 0 and p.tags.recomputed > 0
    worst = max(rel(a.grad, b.grad) for a, b in
                zip(s.model.parameters(), plain.parameters()))
    assert worst <= RTOL, worst


def test_policy_tags_follow_the_plan():
    """A value the plan keeps for the backward is saved, one it computes
    again there is recomputed: at budget 1 nothing is recomputed, and a
    lower budget recomputes more."""
    counts = {}
    for budget in (1.0, 0.6, 0.3):
        torch.manual_seed(0)
        model, x, y = MODELS["mlp"]()
        p = rt.policy(model, (x,), budget, **SOLVE)
        assert p.tags.recomputed == 0 or p.plan.recomputations > 0
        counts[budget] = p.tags.recomputed
    assert counts[1.0] == 0 < counts[0.6] < counts[0.3], counts


def test_policy_warns_on_other_inputs():
    """Planned for a batch of 2, called with 3: the operations do not
    match the plan's shapes; the step still runs (the partitioner decides)
    and says so once."""
    p, model, compiled, plain, x, y = _compiled("mlp", 0.6)
    x3, y3 = torch.randn(3, *x.shape[1:]), torch.tensor([1, 4, 2])
    with pytest.warns(UserWarning, match=r"^remat\.torch\.policy: the "
                      r"compiled forward's \w+ matches no operation of the "
                      r"plan \(called with other inputs"):
        _step(compiled, x3, y3)()
    assert p.tags.unmatched > 0
    assert all(q.grad is not None for q in model.parameters())


def test_policy_runs_eager_under_no_grad():
    p, model, compiled, plain, x, y = _compiled("mlp", 0.6)
    module = p.module()
    with torch.no_grad():
        torch.manual_seed(0)
        a = module(x)
        torch.manual_seed(0)
        b = plain(x)
    assert torch.equal(a, b)
