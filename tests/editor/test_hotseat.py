"""Hot-seat play (editor/play/hotseat.py): decisions that interrupt an assault (17.23). Headless
(pytest-qt, offscreen)."""

from __future__ import annotations

import pytest

pytest.importorskip("pytestqt")

from core.ironcross.actions import DesignateAssault, TakeCasualty  # noqa: E402
from core.ironcross.state import Phase  # noqa: E402
from editor.play.game_record import HotseatSession, describe_action  # noqa: E402
from editor.play.hotseat import ACTION_ROLE, HotseatPanel  # noqa: E402
from tests.core.engine_fixtures import cw, inf, small_game  # noqa: E402
from tests.core.engine_helpers import advance_to  # noqa: E402


def _session(game) -> HotseatSession:
    """A hot-seat session around a hand-made game, both sides played by people."""
    s = HotseatSession.__new__(HotseatSession)
    s.setup, s.game, s.humans, s.players, s.log = game.setup, game, {"german", "russian"}, {}, list(game.events)
    return s


def test_17_23_hotseat_owner_chooses_the_casualty_from_readable_labels(qtbot):
    m = cw("RM", "russian", weapon="MMG", crew=3)
    units = [inf("G1", "german", assault=3), inf("R1", "russian", assault=2, pr=7), m]
    g = small_game(units, {"G1": "1505", "R1": "1504", "RM": "1504"}, script=[(1, 1), (6,), (6,), (1,), (1,), (6,)])
    advance_to(g, Phase.MOVEMENT, sub="assault_designation")
    g.apply(DesignateAssault(("G1",), "1504"))
    advance_to(g, Phase.ASSAULT)
    g.apply(DesignateAssault(("G1",), "1504"))  # b: G1 hits; the Russian chooses
    assert g.current_side() == "russian"
    assert describe_action(TakeCasualty("R1"), g) == "Lose R1 (R PR7, assault 2)"
    assert describe_action(TakeCasualty("RM"), g) == "Lose RM (MMG PR8, assault 0, crew 3)"
    assert describe_action({"unit": "R1", "kind": "take_casualty"}) == "Lose R1"  # a log line, no game
    panel = HotseatPanel()
    qtbot.addWidget(panel)
    panel.session = _session(g)
    panel.refresh()
    assert "17.23" in panel.state_label.text() and "1504" in panel.state_label.text()
    top = panel.actions.topLevelItem(0)
    assert panel.actions.topLevelItemCount() == 1 and top.text(0) == "take casualty (2)"
    labels = [top.child(i).text(0) for i in range(top.childCount())]
    assert labels == ["Lose R1 (R PR7, assault 2)", "Lose RM (MMG PR8, assault 0, crew 3)"]
    # selecting a Russian unit on the map narrows the list to its own choice
    panel.click("1504")
    assert panel.selected == "R1" and panel.actions.topLevelItem(0).childCount() == 1
    panel.click("1504")
    assert panel.selected == "RM"
    panel.actions.setCurrentItem(panel.actions.topLevelItem(0).child(0))
    assert panel.actions.currentItem().data(0, ACTION_ROLE) == TakeCasualty("RM")
    assert panel.do_selected()
    # RM removed by the owner's choice; round 2: G1 hits the last Russian (forced)
    assert [e["unit"] for e in g.events if e["kind"] == "eliminated"] == ["RM", "R1"] and g.fight is None
    assert "17.23" not in panel.state_label.text()


def test_24_1_hotseat_detachment_choice_is_a_click_list(qtbot):
    """Scenario 5's EXCEPTION (24.1 special option) in hot-seat: the German's possible picks are
    listed, one per squad (whole), commander, CW and AFV, with readable labels; *Do it* applies
    the selected one, the limits narrow the list, *end setup* closes the choice and the Russian
    set-up follows."""
    from pathlib import Path

    from core.ironcross.actions import Detach, EndSetup
    from core.ironcross.game import Game
    from core.ironcross.scenario_setup import load_setup

    s5 = Path(__file__).resolve().parents[2] / "scenarios" / "data" / "scenario_5_through_the_marshes.json"
    _sc, setup = load_setup(s5, seed=1)
    g = Game(setup, 1)
    panel = HotseatPanel()
    qtbot.addWidget(panel)
    panel.session = _session(g)
    panel.refresh()

    def groups():
        return {panel.actions.topLevelItem(i).text(0): panel.actions.topLevelItem(i)
                for i in range(panel.actions.topLevelItemCount())}

    assert set(groups()) == {"detach (12)", "end setup (1)"}
    top = groups()["detach (12)"]
    labels = [top.child(i).text(0) for i in range(top.childCount())]
    assert "detach G-PL-1 (EXCEPTION)" in labels
    assert "detach " + ", ".join(f"G-A-{i}" for i in range(1, 11)) + " (EXCEPTION)" in labels
    panel.actions.setCurrentItem(top.child(labels.index("detach G-PL-1 (EXCEPTION)")))
    assert panel.do_selected()
    assert g.actions[-1] == Detach("EXCEPTION", ("G-PL-1",))
    assert "detach (10)" in groups()   # one commander: G-PS-1 no longer offered
    panel.actions.setCurrentItem(groups()["end setup (1)"].child(0))
    assert panel.do_selected() and g.actions[-1] == EndSetup()
    assert g.current_side() == "russian" and "<b>russian</b> to act" in panel.state_label.text()
    log = [panel.log.item(i).text() for i in range(panel.log.count())]
    assert any("German detachment EXCEPTION: G-PL-1, entering on turn 2" in t for t in log)
