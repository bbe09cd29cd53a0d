"""The time left of the panels that run games in the background (editor/drawing/widgets.TimeLeft):
the pace of the games played this run times the games still to play, in the Playtest panel's
status line and, as an upper bound (a search may end before its budget), in the Balance panel's."""

from __future__ import annotations

import pytest

pytest.importorskip("pytestqt")


def _clock(step: float = 10.0):
    now = [0.0]

    def clock():
        now[0] += step
        return now[0]

    return clock


def test_time_left_waits_for_a_game_a_worker_and_counts_played_games_only():
    from editor.drawing.widgets import TimeLeft

    t = TimeLeft(_clock())
    t.start(4)   # at 10 s
    t.add_played(3)
    assert t.text(100) == ""            # fewer games than workers: the first games end together
    t.add_played(1)
    assert t.text(96) == " (about 8 min left)"  # 4 games in 20 s (the clock moves 10 s a call): 96 x 5 s
    assert t.text(0) == ""
    assert t.text(96, at_most=True).startswith(" (at most about ")
    quick = TimeLeft(_clock(1.0))
    quick.start(1)
    quick.add_played(5)
    assert quick.text(10) == ""          # under 5 s: too soon to say


def test_the_playtest_and_balance_panels_say_the_time_left(qtbot):
    from editor.drawing.widgets import TimeLeft
    from editor.play.balance_dock import BalancePanel
    from editor.play.playtest_dock import PlaytestPanel

    p = PlaytestPanel(lambda folder: None)
    qtbot.addWidget(p)
    p.time_left = TimeLeft(_clock())
    p.time_left.start(1)
    p._progress(1, 200)   # one game: too few to time
    assert p.status.text() == "1 of 200 games played"
    p._progress(20, 200)   # 20 games in 20 s: 180 left at 1 s a game
    assert p.status.text() == "20 of 200 games played (about 3 min left)"
    p.shutdown()
    b = BalancePanel(lambda folder: None)
    qtbot.addWidget(b)
    b.time_left = TimeLeft(_clock())
    b.time_left.start(2)
    b._progress(40, 2000, [])   # 40 games in 10 s, 1,960 at most left: 490 s
    assert b.status.text() == "40 of 2000 games (at most about 8 min left)"
