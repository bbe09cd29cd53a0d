"""Command-line argument types shared by the benchmark scripts (argparse ``type=`` callables)."""

from __future__ import annotations

import argparse


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
