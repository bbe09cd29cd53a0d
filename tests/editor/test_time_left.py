"""The time left of the panels that run games in the background (editor/drawing/widgets.TimeLeft):
the pace of the games played since the first of them ended (the time before holds the start-up)
times the games still to play, in the Playtest panel's status line and, as an upper bound (a
search may end before its budget), in the Balance panel's."""

from __future__ import annotations

import pytest

pytest.importorskip("pytestqt")


def test_time_left_waits_for_a_game_a_worker_after_the_first_and_counts_played_games_only():
    from editor.drawing.widgets import TimeLeft

    now = [100.0]
    t = TimeLeft(lambda: now[0])
    t.start(2)
    assert t.text(100) == ""            # nothing played
    now[0] += 30.0                       # start-up: not pace
    t.add_played(2)                      # the first games end at 130 s
    now[0] += 10.0
    t.add_played(1)
    assert t.text(100) == ""            # one game since the first: fewer than the workers
    t.add_played(1)
    assert t.text(96) == "; about 8 min left"  # 2 games in 10 s since the first: 96 x 5 s
    assert t.text(0) == ""
    assert t.text(96, at_most=True) == "; 8 min left at most"
    quick = TimeLeft(lambda: now[0])
    quick.start(1)
    quick.add_played(1)
    quick.add_played(5)
    assert quick.text(10) == ""          # under 5 s since the first game: too soon to say
    quick.set_played(8)
    assert quick.played == 8


def test_the_playtest_and_balance_panels_say_the_time_left(qtbot):
    from editor.drawing.widgets import TimeLeft
    from editor.play.balance_dock import BalancePanel
    from editor.play.playtest_dock import PlaytestPanel

    now = [0.0]
    p = PlaytestPanel(lambda folder: None)
    qtbot.addWidget(p)
    p.time_left = TimeLeft(lambda: now[0])
    p.time_left.start(1)
    now[0] = 8.0    # the pool's start-up and the first game
    p._progress(1, 200)
    assert p.status.text() == "1 of 200 games played"
    now[0] = 28.0
    p._progress(21, 200)   # 20 games in 20 s after the first: 179 left at 1 s a game
    assert p.status.text() == "21 of 200 games played; about 3 min left"
    p.shutdown()
    b = BalancePanel(lambda folder: None)
    qtbot.addWidget(b)
    b.time_left = TimeLeft(lambda: now[0])
    b.time_left.start(2)
    now[0] = 40.0   # the candidates' checks and the first games
    b._progress(4, 2000, [])
    now[0] = 50.0
    b._progress(44, 2000, [])   # 40 games in 10 s after the first, 1,956 at most left: 489 s
    assert b.status.text() == "44 of 2000 games; 8 min left at most"


def test_the_play_panels_fit_a_dock_of_360_pixels(qtbot):
    # a laptop's 1366 x 768 screen leaves the docks about 360 pixels: no panel may need more
    from editor.play.balance_dock import BalancePanel
    from editor.play.playtest_dock import PlaytestPanel
    from editor.play.robust_dock import RobustPanel

    for panel in (BalancePanel(lambda folder: None), PlaytestPanel(lambda folder: None),
                  RobustPanel(lambda folder: None)):
        qtbot.addWidget(panel)
        assert panel.minimumSizeHint().width() <= 360, (type(panel).__name__, panel.minimumSizeHint().width())
        if hasattr(panel, "shutdown"):
            panel.shutdown()
