"""The yardstick: a fixed pure-Python loop timed in the same run as a benchmark.

Seconds differ between machines (and between a quiet and a busy one); a figure divided by the
yardstick measured in the same process at the same time travels. Every benchmark that prints a time
also prints it as a multiple of this loop, and the issues state their targets in those multiples::

    s = 0
    for i in range(2_000_000):
        s += i * i % 7

Use::

    from benchmarks.yardstick import Yardstick
    ys = Yardstick.measure()          # best of 5 runs, in seconds
    print(ys.describe())              # "yardstick 0.118 s (best of 5)"
    print(ys.fmt(3.2))                # "3.20 s = 27.1 yardsticks"

Run alone it prints the yardstick of this machine now: ``python benchmarks/yardstick.py``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

LOOP = 2_000_000


def yardstick_loop() -> int:
    """The fixed loop itself (2,000,000 iterations of ``s += i * i % 7``); returns ``s``."""
    s = 0
    for i in range(LOOP):
        s += i * i % 7
    return s


@dataclass(frozen=True)
class Yardstick:
    """One measurement of the yardstick loop.

    ``seconds`` is the best (smallest) of ``runs`` timings, in wall seconds: the least disturbed by
    other work on the machine. ``times`` keeps every run.
    """

    seconds: float
    runs: int
    times: tuple[float, ...]

    @classmethod
    def measure(cls, runs: int = 5) -> "Yardstick":
        """Time the loop ``runs`` times (>= 1) and keep the best; about 0.1-0.2 s a run."""
        if runs < 1:
            raise ValueError(f"runs must be at least 1, not {runs}")
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            yardstick_loop()
            times.append(time.perf_counter() - t0)
        return cls(min(times), runs, tuple(times))

    def multiple(self, seconds: float) -> float:
        """``seconds`` as a multiple of the yardstick (dimensionless)."""
        return seconds / self.seconds

    def fmt(self, seconds: float, digits: int = 2) -> str:
        """``"<seconds> s = <multiple> yardsticks"`` for a report line."""
        return f"{seconds:.{digits}f} s = {self.multiple(seconds):.1f} yardsticks"

    def describe(self) -> str:
        """One line naming the yardstick measured: its best time and how many runs."""
        return (f"yardstick {self.seconds:.3f} s (best of {self.runs} runs of the fixed loop "
                f"'for i in range(2_000_000): s += i * i % 7')")


if __name__ == "__main__":
    print(Yardstick.measure().describe())
