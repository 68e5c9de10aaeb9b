"""Per-operation temporaries: the bytes an operation allocates beyond its
outputs while it runs (oneDNN's reordered inputs and output of a CPU
convolution, a cuDNN workspace, the intermediates of a composite op).

The memory model counts outputs only; an operation with temporaries T
peaks T above it while it runs.  One run of the trace in its own order
measures T for every fx node:

- CPU: under torch.profiler with memory events, each operation inside its
  own record_function; T is the peak of the running sum of the allocator's
  events within the operation less the sum at its end;
- CUDA: the caching allocator's peak during the synchronised operation
  less what is allocated after it.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Any, Iterator, Sequence

import torch

from .fxeval import evaluate, free_lists

_PREFIX = "remat:"


def _cuda_temporaries(trace: Any, flat: Sequence[Any]) -> dict:
    env = dict(zip(trace.placeholders, flat))
    free = free_lists(trace)
    out = {}
    for i, n in enumerate(trace.nodes):
        if n.op == "get_attr":
            env[n] = trace.get_attr(n)
        elif n.op == "call_function":
            torch.cuda.synchronize()
            torch.cuda.reset_peak_memory_stats()
            env[n] = evaluate(n, env)
            torch.cuda.synchronize()
            temp = (torch.cuda.max_memory_allocated()
                    - torch.cuda.memory_allocated())
            out[n] = max(0, int(temp))
        for a in free[i]:
            del env[a]
    return out


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[None]:
    """The profiler's start/stop lines (kineto writes them to file
    descriptor 2, and a GPU probe's error on a machine without one) are
    not the user's business: stderr goes to /dev/null meanwhile (this run
    repeats the analysis run, whose warnings were shown)."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)


def _cpu_temporaries(trace: Any, flat: Sequence[Any]) -> dict:
    from torch.profiler import ProfilerActivity, profile, record_function

    env = dict(zip(trace.placeholders, flat))
    free = free_lists(trace)
    names = {}
    with _quiet_stderr(), profile(activities=[ProfilerActivity.CPU],
                                  profile_memory=True) as prof:
        for i, n in enumerate(trace.nodes):
            if n.op == "get_attr":
                env[n] = trace.get_attr(n)
            elif n.op == "call_function":
                names[_PREFIX + n.name] = n
                with record_function(_PREFIX + n.name):
                    env[n] = evaluate(n, env)
            for a in free[i]:
                del env[a]
    events = list(prof.profiler.kineto_results.events())
    memory = sorted(((e.start_ns(), int(e.nbytes())) for e in events
                     if e.name() == "[memory]"
                     and e.device_type().name == "CPU"))
    out = {}
    k = 0
    spans = sorted((e.start_ns(), e.end_ns(), e.name()) for e in events
                   if e.name() in names)
    for start, end, name in spans:
        while k < len(memory) and memory[k][0] < start:
            k += 1
        running = peak = 0
        j = k
        while j < len(memory) and memory[j][0] <= end:
            running += memory[j][1]
            peak = max(peak, running)
            j += 1
        out[names[name]] = max(0, peak - max(running, 0))
    return out


def measure_temporaries(trace: Any, flat: Sequence[Any],
                        device: torch.device) -> dict:
    """{fx node: bytes of temporaries} over one run on flat inputs."""
    if device.type == "cuda":
        return _cuda_temporaries(trace, flat)
    try:
        return _cpu_temporaries(trace, flat)
    except (AttributeError, RuntimeError):
        return {}            # a profiler without memory events: none seen
