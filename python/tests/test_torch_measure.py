"""remat.torch.measure against peaks computed by hand and against torch's
own running totals (the CPU allocator's, and CUDA's where there is one)."""

from __future__ import annotations

import os
import time

import pytest

os.environ.setdefault("KINETO_LOG_LEVEL", "5")  # the profiler's start-up chatter
torch = pytest.importorskip("torch")

from remat.torch.measure import Measurement, host_memory_events, measure  # noqa: E402

N = 1000  # float32 elements
NB = 4 * N  # their bytes


def _alloc_free_two() -> torch.Tensor:
    a = torch.empty(N)
    del a
    b = torch.empty(N)
    c = torch.empty(N)
    del b
    return c


def test_hand_computed_peak_cpu() -> None:
    m = measure(_alloc_free_two, "cpu")
    assert isinstance(m, Measurement)
    assert m.device == "cpu"
    assert m.peak_bytes == 2 * NB  # b and c together
    assert m.retained_bytes == NB  # c, returned
    assert m.value.numel() == N


def test_peak_is_above_what_was_allocated_before() -> None:
    big = torch.zeros(10 * N)  # noqa: F841 (alive through the step)
    m = measure(lambda: torch.empty(N).sum(), "cpu")
    # The sum's result (4 bytes) is allocated while the input still lives.
    assert m.peak_bytes == NB + 4
    assert m.retained_bytes == 4


def test_free_of_a_block_allocated_under_an_earlier_measure_counts() -> None:
    held = measure(lambda: torch.empty(N), "cpu").value
    box = [held]
    del held

    def step() -> torch.Tensor:
        box.clear()  # frees the block allocated under the earlier measure
        return torch.empty(N)

    m = measure(step, "cpu")
    assert m.peak_bytes == 0  # the new block reuses the freed bytes
    assert m.retained_bytes == 0


def test_untracked_free_is_the_documented_over_estimate() -> None:
    torch.empty(1)  # the allocator is initialised outside any profiler
    box = [torch.empty(N)]  # allocated with no profiler running

    def step() -> torch.Tensor:
        box.clear()
        return torch.empty(N)

    m = measure(step, "cpu")
    # Truly 0: the free is invisible to the profiler, so the peak is over
    # by at most that block's size.
    assert 0 <= m.peak_bytes <= NB


def test_op_temporaries_are_seen() -> None:
    x = torch.randn(64, 64)
    m = measure(lambda: torch.linalg.svd(x), "cpu")
    results = sum(t.numel() * t.element_size() for t in m.value)
    # svd's workspace (LAPACK's work arrays through c10) lies above its
    # results, which are still alive at the end.
    assert m.retained_bytes == results
    assert m.peak_bytes > results
    # One op: everything above its results is that op's temporaries.
    assert m.temp_op.startswith("aten::")
    assert m.temp_bytes == m.peak_bytes - results


def test_convolution_workspace_is_the_ops_temporaries() -> None:
    torch.manual_seed(0)
    conv = torch.nn.Conv2d(3, 8, 3)
    x = torch.randn(2, 3, 16, 16)
    with torch.no_grad():
        conv(x)
        m = measure(lambda: conv(x), "cpu")
    out = 2 * 8 * 14 * 14 * 4
    assert m.retained_bytes == out
    assert m.temp_bytes == m.peak_bytes - out


def _tree_totals(prof) -> list[tuple[int, int]]:
    """(signed size, total_allocated) of every host allocator event (frees
    negative) in the profiler's event tree: torch's own running total."""
    out = []
    stack = list(prof.profiler.kineto_results.experimental_event_tree())
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        f = node.extra_fields
        if type(f).__name__.endswith("Allocation") and f.device.type == "cpu":
            out.append((node.start_time_ns, int(f.alloc_size),
                        int(f.total_allocated)))
    out.sort()
    return [(a, t) for _, a, t in out]


def test_agrees_with_the_allocators_running_total() -> None:
    """The running sum of the events equals c10's own total_allocated at
    every event, offset by what was allocated before; so the peaks agree."""
    from torch.profiler import ProfilerActivity, profile

    import torch.nn.functional as F
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3), torch.nn.ReLU(),
                                torch.nn.Flatten(), torch.nn.Linear(8 * 14 * 14, 10))
    x, y = torch.randn(2, 3, 16, 16), torch.tensor([1, 2])
    model(x)  # warm up outside the profiler
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        F.cross_entropy(model(x), y).backward()
    sizes = host_memory_events(prof)
    totals = _tree_totals(prof)
    assert sizes == [a for a, _ in totals]
    base = totals[0][1] - totals[0][0]
    running, peak = 0, 0
    for s, (_, total) in zip(sizes, totals):
        running += s
        peak = max(peak, running)
        assert running == total - base
    assert peak == max(t for _, t in totals) - base
    for p in model.parameters():
        p.grad = None
    m = measure(lambda: F.cross_entropy(model(x), y).backward(), "cpu")
    assert m.peak_bytes == peak


def test_time_is_measured() -> None:
    m = measure(lambda: time.sleep(0.05), "cpu")
    assert m.wall_s >= 0.05
    assert 0 <= m.cpu_s < m.wall_s


def test_bad_device() -> None:
    with pytest.raises(ValueError, match="neither cpu nor cuda"):
        measure(lambda: None, "meta")


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device")
def test_hand_computed_peak_cuda() -> None:
    n = 1 << 18  # 1 MiB of float32: a whole number of allocator blocks
    keep = torch.empty(n, device="cuda")  # noqa: F841

    def step() -> torch.Tensor:
        a = torch.empty(n, device="cuda")
        del a
        b = torch.empty(n, device="cuda")
        c = torch.empty(n, device="cuda")
        del b
        return c

    m = measure(step, "cuda")
    assert m.device.startswith("cuda")
    assert m.peak_bytes == 2 * 4 * n
    assert m.retained_bytes == 4 * n
