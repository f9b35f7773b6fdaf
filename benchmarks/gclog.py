"""Log a process's garbage collections over 20 ms to a file (``benchmarks/load.py --gc-log``).

Each line: ``[PREFIX]gen<generation> <ms> ms (cpu <ms> ms) at <unix time> collected <count>``;
the load test installs it in its server processes (no prefix, through a sitecustomize) and in
its own client process (prefix ``client ``), so that a pause on either side can be told apart.
"""

from __future__ import annotations

import gc
import time


def install(path: str, prefix: str = "", over_ms: float = 20.0) -> None:
    """Append every collection of this process longer than ``over_ms`` to ``path``."""
    out = open(path, "a", buffering=1)
    started = [0.0, 0.0]

    def collected(phase: str, info: dict) -> None:
        if phase == "start":
            started[0], started[1] = time.perf_counter(), time.thread_time()
            return
        ms = (time.perf_counter() - started[0]) * 1000
        cpu = (time.thread_time() - started[1]) * 1000
        if ms > over_ms:
            out.write(f"{prefix}gen{info['generation']} {ms:.0f} ms (cpu {cpu:.0f} ms) at "
                      f"{time.time():.1f} collected {info['collected']}\n")

    gc.callbacks.append(collected)
