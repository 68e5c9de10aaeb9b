"""The allocator's real peak of one step, apart from remat's own accounting.

`measure(step_fn)` runs `step_fn()` once and reports how far the memory
allocated on a device rose above what was allocated just before the call,
together with the step's wall-clock and CPU time.

Where the numbers come from:

CUDA
    The caching allocator's own statistics: `torch.cuda.reset_peak_memory_stats`
    before the step, then `max_memory_allocated() - memory_allocated_before`.
    The allocator counts whole blocks, so every tensor is rounded up to a
    multiple of 512 bytes (large ones to their block size); library
    workspaces that go through the allocator (cuBLAS, cuDNN) are included,
    the CUDA context and memory the allocator holds but has not handed out
    (`memory_reserved`) are not.

CPU
    The profiler's memory events (`torch.profiler` with `profile_memory=True`):
    c10's CPU allocator reports every allocation and free with its size in
    bytes, and the peak is the maximum of their running sum over the step,
    ordered by time.  Sizes are exact (the bytes the storage asked for; the
    allocator's 64-byte alignment is not counted).  Not seen: memory that
    does not go through c10's allocator (BLAS/oneDNN scratch buffers taken
    with their own malloc, Python objects), and the free of a block that was
    allocated before any profiling session began (the profiler does not know
    its size and logs a warning).  A step that frees such a block is
    therefore over-estimated by at most that block's size: keep
    `optimizer.zero_grad(set_to_none=True)` outside `step_fn`, or run one
    warm-up step under `measure` first (blocks allocated while the profiler
    ran are remembered, so their later frees are counted).

The CPU profiler adds a little time per op; on CUDA nothing but a
synchronisation on each side of the step is added.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Union

import torch

__all__ = ["Measurement", "measure"]

# The profiler's name for allocator events, and the device types it files
# host memory under.
_MEMORY_EVENT = "[memory]"
_HOST_TYPES = ("CPU", "MKLDNN", "IDEEP")


@dataclass(frozen=True)
class Measurement:
    """What one step cost.

    peak_bytes:     the allocator's peak during the step minus what was
                    allocated just before it (>= 0)
    retained_bytes: allocated after the step minus before it (what the step
                    left behind: its result, new .grad tensors, caches)
    wall_s, cpu_s:  wall-clock and process CPU time of the step
    device:         the device measured ("cpu", "cuda:0", ...)
    value:          what step_fn returned (not part of comparisons)
    """

    peak_bytes: int
    wall_s: float
    cpu_s: float
    device: str
    retained_bytes: int = 0
    value: Any = field(default=None, repr=False, compare=False)


def _resolve(device: Union[None, str, torch.device]) -> torch.device:
    if device is None:
        if torch.cuda.is_available():
            return torch.device("cuda", torch.cuda.current_device())
        return torch.device("cpu")
    device = torch.device(device)
    if device.type == "cuda" and device.index is None:
        device = torch.device("cuda", torch.cuda.current_device())
    if device.type not in ("cpu", "cuda"):
        raise ValueError(f"measure: device {device} is neither cpu nor cuda")
    return device


def _timed(step_fn: Callable[[], Any]) -> tuple[Any, float, float]:
    wall0, cpu0 = time.perf_counter(), time.process_time()
    value = step_fn()
    return value, time.perf_counter() - wall0, time.process_time() - cpu0


def _measure_cuda(step_fn: Callable[[], Any], device: torch.device) -> Measurement:
    torch.cuda.synchronize(device)
    before = torch.cuda.memory_allocated(device)
    torch.cuda.reset_peak_memory_stats(device)
    wall0, cpu0 = time.perf_counter(), time.process_time()
    value = step_fn()
    torch.cuda.synchronize(device)
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    peak = torch.cuda.max_memory_allocated(device) - before
    after = torch.cuda.memory_allocated(device) - before
    return Measurement(max(peak, 0), wall, cpu, str(device), after, value)


def host_memory_events(prof: Any) -> list[int]:
    """The signed sizes of the host allocator's events in a finished
    `torch.profiler.profile(profile_memory=True)`, in time order."""
    try:
        events = prof.profiler.kineto_results.events()
    except AttributeError as e:  # a torch without the kineto results
        raise RuntimeError("measure: this torch's profiler does not expose "
                           "its memory events (profiler.kineto_results)") from e
    mem = [ev for ev in events if ev.name() == _MEMORY_EVENT
           and ev.device_type().name in _HOST_TYPES]
    mem.sort(key=lambda ev: ev.start_ns())
    return [int(ev.nbytes()) for ev in mem]


def _measure_cpu(step_fn: Callable[[], Any]) -> Measurement:
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        value, wall, cpu = _timed(step_fn)
    running = peak = 0
    for nbytes in host_memory_events(prof):
        running += nbytes
        peak = max(peak, running)
    return Measurement(peak, wall, cpu, "cpu", running, value)


def measure(step_fn: Callable[[], Any],
            device: Union[None, str, torch.device] = None) -> Measurement:
    """Run `step_fn()` once; return its peak memory above the memory
    allocated just before it, its wall and CPU time.

    device: "cpu", "cuda", "cuda:N" or a torch.device; None means the
    current CUDA device when CUDA is available, else the CPU.  Pass the
    device the model and its inputs live on.

    On CUDA the peak is the caching allocator's max_memory_allocated (its
    peak statistics are reset for that device); on the CPU it is the maximum
    running sum of the profiler's allocator events.  See this module's
    docstring for what each can and cannot see.
    """
    dev = _resolve(device)
    if dev.type == "cuda":
        return _measure_cuda(step_fn, dev)
    return _measure_cpu(step_fn)
