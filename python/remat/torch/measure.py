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

Slack against a memory model that counts each op's outputs (remat's):
the allocator also sees an op's temporaries while it runs (oneDNN's
reordered inputs and output buffer in a convolution, LAPACK work arrays,
the intermediate results of composite ops), so a measured peak can exceed
the model's by up to the largest op's temporaries.  `temp_bytes` reports
that amount for the measured step itself; on CUDA add the allocator's
rounding (under 512 bytes per live tensor).

The CPU profiler adds a little time per op; on CUDA nothing but a
synchronisation on each side of the step is added (unless ops=True).
"""

from __future__ import annotations

import bisect
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Union

import torch

__all__ = ["Measurement", "measure", "host_memory_events", "op_temporaries"]

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
    temp_bytes:     the largest op temporaries of the step: over every ATen
                    op, its peak above what was allocated when it began,
                    less what it left allocated when it ended (workspaces,
                    reordered copies, intermediate results of composite
                    ops); None where the op timeline was not recorded
    temp_op:        the op that had them
    value:          what step_fn returned (not part of comparisons)
    """

    peak_bytes: int
    wall_s: float
    cpu_s: float
    device: str
    retained_bytes: int = 0
    temp_bytes: Optional[int] = None
    temp_op: str = ""
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


def _kineto_events(prof: Any) -> list[Any]:
    try:
        return list(prof.profiler.kineto_results.events())
    except AttributeError as e:  # a torch without the kineto results
        raise RuntimeError("measure: this torch's profiler does not expose "
                           "its memory events (profiler.kineto_results)") from e


def _memory_events(events: list[Any], types: tuple[str, ...]) -> list[Any]:
    mem = [ev for ev in events if ev.name() == _MEMORY_EVENT
           and ev.device_type().name in types]
    mem.sort(key=lambda ev: ev.start_ns())
    return mem


def host_memory_events(prof: Any) -> list[int]:
    """The signed sizes of the host allocator's events in a finished
    `torch.profiler.profile(profile_memory=True)`, in time order."""
    return [int(ev.nbytes())
            for ev in _memory_events(_kineto_events(prof), _HOST_TYPES)]


def op_temporaries(events: list[Any], types: tuple[str, ...]) -> tuple[int, str]:
    """The largest temporaries of one ATen op among kineto `events`: for each
    op, the peak running sum of the allocator events of `types` on its thread
    within its interval, less max(0, the sum at its end).  Returns (bytes,
    op name); (0, "") when no op allocated anything."""
    by_thread: dict[int, list[tuple[int, int]]] = {}
    for ev in _memory_events(events, types):
        by_thread.setdefault(ev.start_thread_id(), []).append(
            (ev.start_ns(), int(ev.nbytes())))
    starts = {t: [ns for ns, _ in evs] for t, evs in by_thread.items()}
    best, best_op = 0, ""
    for ev in events:
        name = ev.name()
        if not name.startswith("aten::"):
            continue
        thread = ev.start_thread_id()
        if thread not in by_thread:
            continue
        lo = bisect.bisect_left(starts[thread], ev.start_ns())
        hi = bisect.bisect_right(starts[thread], ev.end_ns())
        running = peak = 0
        for _, nbytes in by_thread[thread][lo:hi]:
            running += nbytes
            peak = max(peak, running)
        temp = peak - max(running, 0)
        if temp > best:
            best, best_op = temp, name
    return best, best_op


def _profiled(step_fn: Callable[[], Any], cuda: bool) -> tuple[Any, float, float, list[Any]]:
    from torch.profiler import ProfilerActivity, profile

    activities = [ProfilerActivity.CPU]
    if cuda:
        activities.append(ProfilerActivity.CUDA)
    with profile(activities=activities, profile_memory=True) as prof:
        value, wall, cpu = _timed(step_fn)
        if cuda:
            torch.cuda.synchronize()
    return value, wall, cpu, _kineto_events(prof)


def _measure_cuda(step_fn: Callable[[], Any], device: torch.device,
                  ops: bool) -> Measurement:
    torch.cuda.synchronize(device)
    before = torch.cuda.memory_allocated(device)
    torch.cuda.reset_peak_memory_stats(device)
    temp: Optional[int] = None
    temp_op = ""
    if ops:
        value, wall, cpu, events = _profiled(step_fn, cuda=True)
        temp, temp_op = op_temporaries(events, ("CUDA",))
    else:
        wall0, cpu0 = time.perf_counter(), time.process_time()
        value = step_fn()
        torch.cuda.synchronize(device)
        wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    peak = torch.cuda.max_memory_allocated(device) - before
    after = torch.cuda.memory_allocated(device) - before
    return Measurement(max(peak, 0), wall, cpu, str(device), after, temp,
                       temp_op, value)


def _measure_cpu(step_fn: Callable[[], Any]) -> Measurement:
    value, wall, cpu, events = _profiled(step_fn, cuda=False)
    running = peak = 0
    for ev in _memory_events(events, _HOST_TYPES):
        running += int(ev.nbytes())
        peak = max(peak, running)
    temp, temp_op = op_temporaries(events, _HOST_TYPES)
    return Measurement(peak, wall, cpu, "cpu", running, temp, temp_op, value)


def measure(step_fn: Callable[[], Any],
            device: Union[None, str, torch.device] = None,
            *, ops: bool = False) -> Measurement:
    """Run `step_fn()` once; return its peak memory above the memory
    allocated just before it, its wall and CPU time.

    device: "cpu", "cuda", "cuda:N" or a torch.device; None means the
    current CUDA device when CUDA is available, else the CPU.  Pass the
    device the model and its inputs live on.

    On CUDA the peak is the caching allocator's max_memory_allocated (its
    peak statistics are reset for that device); on the CPU it is the maximum
    running sum of the profiler's allocator events.  See this module's
    docstring for what each can and cannot see.

    The largest op temporaries (temp_bytes, temp_op) come from the
    profiler's op timeline: always on the CPU, on CUDA only with ops=True
    (which runs the step under the profiler, adding its overhead to the
    times).
    """
    dev = _resolve(device)
    if dev.type == "cuda":
        return _measure_cuda(step_fn, dev, ops)
    return _measure_cpu(step_fn)
