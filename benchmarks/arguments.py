"""Command-line plumbing shared by the benchmark scripts: argument types (argparse ``type=``
callables) and the entry point that stops a run as the ``ironcross`` commands do."""

from __future__ import annotations

import argparse
import signal
import sys
from typing import Callable


def positive_int(text: str) -> int:
    """A whole number of at least 1 (games, workers, trials): anything else is a usage error
    (exit 2) naming the value, never a traceback after the first batch."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"{n} is below 1")
    return n


def run_benchmark(main: Callable[[], int | None]) -> int:
    """The exit code of a benchmark's ``main()``, run as the ``ironcross`` commands run: SIGTERM
    (``kill PID``, a job scheduler's stop) stops it as Ctrl-C does (:func:`cli.main.stop_as_ctrl_c`),
    so a batch's pool workers, which leave stop signals to their parent, are stopped with it
    instead of playing on as orphans; either stop ends the run with one line naming it on standard
    error and exit 130, never a traceback. What the run printed before stays printed."""
    from cli.main import stop_as_ctrl_c
    from core.playtest import BatchInterrupted

    signal.signal(signal.SIGTERM, stop_as_ctrl_c)
    try:
        return main() or 0
    except (KeyboardInterrupt, BatchInterrupted) as e:
        said = f": {e}" if str(e) else ""
        print(f"stopped{said} (any figures printed before stand; the rest were not measured)", file=sys.stderr)
        return 130
