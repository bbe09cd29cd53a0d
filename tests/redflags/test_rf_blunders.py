"""The Red Flags blunder report (core/redflags/blunders.py, docs/ai.md "Blunder report"): one small
situation per kind, watched as the playtest runner watches a game (before and after each
decision), and the kinds reaching the runner's report through the rule system."""

from __future__ import annotations

from core.redflags.actions import Fire, Move
from core.redflags.blunders import KINDS, BlunderWatch
from core.redflags.system import SYSTEM
from tests.redflags.helpers import FixedDice, activate, make_game, unit

G_HEX = "3007"


def _decide(watch: BlunderWatch, g, side: str, action) -> None:
    """One decision as the runner makes it: the watcher before, the action, the watcher after."""
    n = len(g.events)
    watch.before(g, side, action, g.legal_actions())
    g.apply(action)
    watch.after(g, g.events[n:])


def test_the_kinds_reach_the_runner_through_the_rule_system():
    assert SYSTEM.blunder_kinds == KINDS and SYSTEM.blunder_watch is not None
    assert set(KINDS) == {"hit_together", "dug_in_left", "objective_abandoned"}


def test_hit_together_one_artillery_attack_hitting_two_combat_units_of_one_hex(tmp_path):
    """general.artillery_hits: the gun's hits on the rifle squad count on the Tiger beside it, so the
    German stacking cost twice; the commander in a hex (meant to stand with a unit) is no second unit."""
    g = make_game(tmp_path, [("A", "A-spades", [unit("G", "ger_schuetzengruppe"), unit("T", "ger_tiger"),
                                                unit("C", "ger_kompaniechef")])],
                  [("B", "K-hearts", [unit("R", "sov_zis3")])], {"G": G_HEX, "T": G_HEX, "C": G_HEX, "R": "3011"})
    w = BlunderWatch(g)
    activate(g, "russian", "B")
    FixedDice(g, [5, 5, 5, 5] + [1] * 40)
    _decide(w, g, "russian", Fire("R", G_HEX, "G"))
    items = w.finish(g)["german"]["hit_together"]
    assert [(i["hex"], i["units"], i["by"]) for i in items] == [(G_HEX, ["G", "T"], "R")]
    assert "russian" not in w.finish(g)


def test_a_lone_unit_and_its_commander_hit_together_are_no_blunder(tmp_path):
    g = make_game(tmp_path, [("A", "A-spades", [unit("G", "ger_schuetzengruppe"), unit("C", "ger_kompaniechef")])],
                  [("B", "K-hearts", [unit("R", "sov_zis3")])], {"G": G_HEX, "C": G_HEX, "R": "3011"})
    w = BlunderWatch(g)
    activate(g, "russian", "B")
    FixedDice(g, [6, 6, 6, 6] + [1] * 40)
    _decide(w, g, "russian", Fire("R", G_HEX, "G"))
    assert w.finish(g) == {}


def test_dug_in_left_with_an_enemy_near_but_not_with_none(tmp_path):
    """r.setup: a unit that set up dug in loses it when it moves; leaving with an enemy combat unit
    within NEAR hexes is the blunder, leaving with the enemy far off is not."""
    for r_hex, expected in (("3011", True), ("3027", False)):
        g = make_game(tmp_path, [("A", "A-spades", [unit("G", "ger_schuetzengruppe"), unit("C", "ger_kompaniechef")])],
                      [("B", "K-hearts", [unit("R", "sov_rifle_section")])], {"G": G_HEX, "C": G_HEX, "R": r_hex},
                      dug_in=True)
        assert g.units["G"].dug_in and g.units["C"].dug_in
        w = BlunderWatch(g)
        activate(g, "german", "A")
        # the commander goes along (Units: Commander): only the combat unit's leaving is counted
        to = next(a for a in g.legal_actions() if isinstance(a, Move) and a.unit == "G" and a.with_commander)
        _decide(w, g, "german", to)
        assert not g.units["G"].dug_in and not g.units["C"].dug_in
        found = w.finish(g).get("german", {}).get("dug_in_left", [])
        if expected:
            assert [(i["hex"], i["units"], i["enemies"]) for i in found] == [(G_HEX, ["G"], ["R"])]
        else:
            assert found == []


def test_objective_abandoned_when_the_last_combat_unit_walks_off_with_the_enemy_near(tmp_path):
    """A move that leaves the objective hex 3717 without German combat units while a Russian squad
    stands 3 hexes off; a second squad staying in the hex makes the same move no blunder."""
    for stay in (False, True):
        extra = [unit("H", "ger_schuetzengruppe")] if stay else []
        places = {"G": "3717", "R": "3720"} | ({"H": "3717"} if stay else {})
        g = make_game(tmp_path, [("A", "A-spades", [unit("G", "ger_schuetzengruppe"), *extra])],
                      [("B", "K-hearts", [unit("R", "sov_rifle_section")])], places)
        w = BlunderWatch(g)
        activate(g, "german", "A")
        to = next(a for a in g.legal_actions() if isinstance(a, Move) and a.unit == "G")
        _decide(w, g, "german", to)
        found = w.finish(g).get("german", {}).get("objective_abandoned", [])
        if stay:
            assert found == []
        else:
            assert [(i["hex"], i["units"], i["enemies"]) for i in found] == [("3717", ["G"], ["R"])]


def test_the_runner_reports_the_kinds_of_a_red_flags_batch():
    from core.playtest import blunder_report, run_batch
    from tests.redflags.helpers import SHIPPED

    results = run_batch(str(SHIPPED), 2, 3, {"german": "heuristic", "russian": "heuristic"}, workers=1)
    report = blunder_report(results, SYSTEM)
    assert report["kinds"] == KINDS
    assert set(report["per_side"]) == {"german", "russian"}
    assert all(set(kinds) <= set(KINDS) for kinds in report["per_side"].values())
    # every count of the report is an item the watcher found in that game, with its turn and hex
    for r in results:
        for side, kinds in r.blunders.items():
            for kind, items in kinds.items():
                assert kind in KINDS and all(i["turn"] >= 1 and i["hex"] for i in items)
    assert sum(k["total"] for kinds in report["per_side"].values() for k in kinds.values()) == \
        sum(len(items) for r in results for kinds in r.blunders.values() for items in kinds.values()) > 0
