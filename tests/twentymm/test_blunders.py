"""The 20 mm blunder report (core/twentymm/blunders.py, docs/ai.md "Blunder report"): one small
situation per kind, watched as the playtest runner watches a game, and the kinds reaching the
runner through the rule system."""

from __future__ import annotations

from core.twentymm.actions import EndTurn, Move
from core.twentymm.blunders import KINDS, BlunderWatch
from core.twentymm.system import SYSTEM
from tests.twentymm.helpers import game, inf, table


def _decide(w: BlunderWatch, g, action) -> None:
    """One decision as the runner makes it: the watcher before, the action, the watcher after."""
    n = len(g.events)
    w.before(g, g.side, action, g.legal_actions())
    g.apply(action)
    w.after(g, g.events[n:])


def test_the_kinds_reach_the_runner_through_the_rule_system():
    assert SYSTEM.blunder_kinds == KINDS and SYSTEM.blunder_watch is not None
    assert set(KINDS) == {"hidden_revealed_by_own_move", "objective_abandoned"}


def test_a_hidden_unit_walking_out_of_cover_unspotted_gives_itself_away():
    """Hidden Troops, Visibility and Spotting: a hidden unit that moves out of ground cover is
    revealed; before any enemy spotted it, that is the blunder; a move inside the wood is none."""
    t = table(hexes=[{"id": "2010", "trees": 2}])
    w_ = t.hex_centre("2010")
    g = game([inf("R", "russian", w_, hidden=True), inf("G", "german", (w_[0] + 30, w_[1] + 30))], t=t, first="russian")
    w = BlunderWatch(g)
    _decide(w, g, Move("R", ((w_[0], w_[1] + 1.0),)))   # still in the wood
    assert g.units["R"].hidden and w.finish(g) == {}
    _decide(w, g, EndTurn())
    _decide(w, g, EndTurn())
    _decide(w, g, Move("R", ((w_[0], w_[1] + 3.5),)))   # out in the open
    assert not g.units["R"].hidden
    items = w.finish(g)["russian"]["hidden_revealed_by_own_move"]
    assert [(i["units"], i["hex"]) for i in items] == [(["R"], t.hex_at((w_[0], w_[1] + 3.5)).id)]


def test_a_spotted_hidden_unit_moving_into_the_open_is_no_blunder():
    t = table(hexes=[{"id": "2010", "trees": 2}])
    w_ = t.hex_centre("2010")
    g = game([inf("R", "russian", w_, hidden=True), inf("G", "german", (w_[0] + 30, w_[1] + 30))], t=t, first="russian")
    w = BlunderWatch(g)
    _decide(w, g, Move("R", ((w_[0], w_[1] + 1.0),)))   # to the wood's edge
    _decide(w, g, EndTurn())
    _decide(w, g, EndTurn())
    g.units["R"].known_by.add("G")   # the German has spotted it meanwhile: nothing left to give away
    _decide(w, g, Move("R", ((w_[0], w_[1] + 3.5),)))
    assert not g.units["R"].hidden and w.finish(g) == {}


def test_the_last_unit_on_an_objective_walking_off_with_the_enemy_near():
    """The objective at (50, 40), radius 4: the Russian's only unit there steps out of it while
    a German section stands 10 inches off; with a second Russian section staying, it is no blunder,
    nor with the German far away."""
    obj = [{"name": "house", "point": [50.0, 40.0], "radius": 4.0}]
    for extra, german_at, expected in (([], (60.0, 40.0), True), ([inf("S", "russian", (51.0, 40.0))], (60.0, 40.0), False),
                                       ([], (95.0, 75.0), False)):
        g = game([inf("R", "russian", (50.0, 37.5)), *extra, inf("G", "german", german_at)],
                 objectives=obj, first="russian", attacker="german")
        assert g.holder(obj[0]) == "russian"
        w = BlunderWatch(g)
        _decide(w, g, Move("R", ((50.0, 34.8),)))   # 5.2 inches from the objective: out of its radius
        found = w.finish(g).get("russian", {}).get("objective_abandoned", [])
        if expected:
            assert [(i["objective"], i["units"], i["enemies"]) for i in found] == [("house", ["R"], ["G"])]
            assert g.holder(obj[0]) is None
        else:
            assert found == []


def test_a_batch_without_blunders_says_none_were_committed_and_names_the_kinds(tmp_path):
    from click.testing import CliRunner

    from cli.main import cli
    from tests.scenario_copies import scenario_copy
    from tests.twentymm.test_cli import SCENARIO as SCEN

    short = scenario_copy(tmp_path, SCEN, turns=2)  # what the summary says, not a long game
    r = CliRunner().invoke(cli, ["playtest", str(short), "--games", "1", "--workers", "1", "--quiet"])
    assert r.exit_code == 0, r.output
    assert "Blunders: none committed (the kinds: hidden_revealed_by_own_move, objective_abandoned)" in r.output
