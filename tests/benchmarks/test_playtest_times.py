"""benchmarks/playtest.py figure 2: each game read against the yardstick measured beside it."""

from __future__ import annotations

from benchmarks.yardstick import Yardstick
from tests.benchmarks.scripts import load_script


def test_each_game_is_read_against_the_smaller_yardstick_beside_it(capsys):
    """A machine that slows down half-way (the yardstick 0.2 s, then 0.4 s, as seen on a shared
    virtual machine): a game of 1.0 s at the fast speed and one of 2.0 s at the slow speed are both
    5 yardsticks, where one yardstick from the start of the run would make the second 10."""
    pt = load_script("playtest")
    after = iter([0.2, 0.4, 0.4])  # measured after games 1, 2 and 3
    seconds = iter([1.0, 2.0, 2.0])
    peak = pt.median_times("heuristic", {1: 3}, 1, Yardstick(0.2, 1, (0.2,)),
                           measure=lambda runs: Yardstick(next(after), runs, ()),
                           play=lambda args: (next(seconds), 123, "german"))
    out = capsys.readouterr().out
    # game 1: 1.0 / min(0.2, 0.2) = 5; game 2: 2.0 / min(0.2, 0.4) = 10; game 3: 2.0 / min(0.4, 0.4) = 5
    assert peak == 123
    assert "Scenario 1: median 2.00 s = 5.0 yardsticks over 3 games (min 5.0, max 10.0; target <= 3)" in out
    assert "yardstick 0.200-0.400 s beside them" in out
