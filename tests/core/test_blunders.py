"""The blunder report (core/ironcross/blunders.py): one small hand-made situation per kind, played
through the engine with a watcher as the playtest runner uses it, and the report of a batch."""

from __future__ import annotations

from core.ironcross.actions import DesignateAssault, EndPhase, Fire, Pass, StartMove, Step, StopMove
from core.ironcross.blunders import KINDS, BlunderWatch
from core.ironcross.state import Phase
from tests.core.engine_fixtures import cw, inf, small_game
from tests.core.engine_helpers import advance_to
from tests.mapbuilder import make_map


def _do(g, w: BlunderWatch, a) -> None:
    """Apply ``a`` for the side to decide, as the runner does: watcher before and after."""
    side = g.current_side()
    legal = g.legal_actions()
    assert a in legal, (a, legal)
    w.before(g, side, a, legal)
    n = len(g.events)
    g.apply(a)
    w.after(g, g.events[n:])


def _pass_windows(g, w: BlunderWatch, side: str) -> None:
    """The other side passes its opportunity fire windows until ``side`` decides again."""
    while g.current_side() != side:
        legal = g.legal_actions()
        _do(g, w, Pass() if Pass() in legal else EndPhase())


def _items(w: BlunderWatch, side: str, kind: str) -> list[dict]:
    return (w.found.get(side) or {}).get(kind, [])


def test_every_kind_has_a_definition():
    assert set(KINDS) == {"intensive_fire_burnout", "hidden_revealed_by_own_move", "halted_in_open_under_mg",
                          "lone_assault_failed", "objective_abandoned", "decisive_enemy_unattacked", "poor_target",
                          "known_minefield_reentered"}
    assert all(len(t) > 40 for t in KINDS.values())


def test_11_15_an_mg_burned_out_by_its_own_intensive_fire_is_reported_with_its_turn():
    for seed in range(1, 40):
        m = make_map(cols=(10, 20), rows=(1, 12))
        g = small_game([cw("GM", "german", ap=8, rng=12, pr=11), inf("R1", "russian", pr=6)],
                       {"GM": ("1510", False, 1), "R1": "1506"}, hexmap=m, seed=seed, length=6)
        w = BlunderWatch(g)
        a = next(a for a in g.legal_actions() if isinstance(a, Fire) and a.intensive)
        _do(g, w, a)
        effects = [e["effect"] for e in g.events if e["kind"] == "intensive_fire"]
        items = _items(w, "german", "intensive_fire_burnout")
        assert [i["effect"] for i in items] == [x for x in effects if x != "no effect"]
        if items:
            assert items[0]["turn"] == 1 and items[0]["units"] == ["GM"]
            return
    raise AssertionError("no seed gave a jam, malfunction or break")


def _hidden_pair(enemy_hex: str, trees: dict):
    m = make_map(cols=(10, 20), rows=(1, 12), trees=trees)
    g = small_game([inf("G1", "german"), inf("G2", "german"), inf("R1", "russian", pr=6)],
                   {"G1": "1510", "G2": "1510", "R1": enemy_hex}, hexmap=m, length=6)
    for uid in ("G1", "G2"):
        g.units[uid].hidden = True  # both in one hidden hex (24.2)
    advance_to(g, Phase.MOVEMENT)
    return g


def test_24_22_hidden_units_revealed_by_their_own_move_out_of_sight_of_any_enemy():
    # a wall of woods (four tree symbols a hex, 10.31 b) between the hidden hex and the enemy
    wall = {f"{c}07": 4 for c in range(10, 21)} | {f"{c}08": 4 for c in range(10, 21)}
    g = _hidden_pair("1503", wall)
    assert not g.los("1503", "1510").clear
    w = BlunderWatch(g)
    _do(g, w, StartMove(("G1",)))
    _do(g, w, Step("1511"))
    assert _items(w, "german", "hidden_revealed_by_own_move")[0]["hex"] == "1510"


def test_24_22_no_blunder_when_the_enemy_could_see_the_hex_anyway():
    g = _hidden_pair("1506", {})
    assert g.los("1506", "1510").clear
    w = BlunderWatch(g)
    _do(g, w, StartMove(("G1",)))
    _do(g, w, Step("1511"))
    assert any(e["kind"] == "revealed" for e in g.events)
    assert not _items(w, "german", "hidden_revealed_by_own_move")


def test_13_0_a_stack_of_three_halted_up_in_the_open_under_an_mmg_with_woods_in_reach():
    m = make_map(cols=(10, 20), rows=(1, 12), trees={"1609": 3})
    units = [inf(f"G{i}", "german") for i in range(3)] + [cw("RM", "russian", ap=8, rng=12, pr=9)]
    g = small_game(units, {**{f"G{i}": "1511" for i in range(3)}, "RM": ("1505", False, 4)}, hexmap=m, length=6)
    advance_to(g, Phase.MOVEMENT)
    w = BlunderWatch(g)
    for uid in ("G0", "G1", "G2"):  # one after the other into the same open hex
        _do(g, w, StartMove((uid,)))
        for h in ("1510", "1509"):
            _do(g, w, Step(h))
            _pass_windows(g, w, "german")
        if g.state.units[uid].hex == "1509" and StopMove() in g.legal_actions():
            _do(g, w, StopMove())
        _pass_windows(g, w, "german")
    items = _items(w, "german", "halted_in_open_under_mg")
    assert items and items[0]["hex"] == "1509" and items[0]["mg"] == ["RM"] and items[0]["cover"]
    assert len(items[0]["units"]) == 3


def test_17_12_a_lone_assault_that_fails_its_pc_is_reported():
    units = [inf("G1", "german", pr=8)] + [inf(f"R{i}", "russian", pr=6) for i in range(2)]
    g = small_game(units, {"G1": "1507", "R0": "1506", "R1": "1506"}, length=6, script=[(6, 6)])
    advance_to(g, Phase.MOVEMENT, sub="assault_designation")
    w = BlunderWatch(g)
    _do(g, w, DesignateAssault(("G1",), "1506"))
    while g.state.phase is not Phase.ASSAULT:
        _do(g, w, EndPhase())
    _do(g, w, DesignateAssault(("G1",), "1506"))  # 17.12: the PC (scripted 6+6) fails
    assert any(e["kind"] == "assault_failed" for e in g.events)
    item = _items(w, "german", "lone_assault_failed")[0]
    assert item["hex"] == "1506" and item["attackers"] == 1 and item["defenders"] == 2


def _objective_game():
    units = [inf("G1", "german"), inf("R1", "russian", pr=6)]
    g = small_game(units, {"G1": "1506", "R1": "1502"}, length=6)
    g.setup.objectives = {"german": [{"hexes": ["1506"], "goal": "occupy", "weight": 1.0, "text": "test"}],
                          "russian": [{"hexes": ["1506"], "goal": "occupy", "weight": 1.0, "text": "test"}]}
    return g


def test_an_objective_hex_left_empty_with_the_enemy_four_hexes_off():
    g = _objective_game()
    advance_to(g, Phase.MOVEMENT)
    w = BlunderWatch(g)
    _do(g, w, StartMove(("G1",)))
    _do(g, w, Step("1507"))
    _do(g, w, StopMove())
    assert _items(w, "german", "objective_abandoned")[0]["hex"] == "1506"


def test_a_decisive_enemy_on_an_objective_left_unattacked_by_units_within_reach():
    g = _objective_game()
    g.units["R1"].hex = "1506"  # the Russian holds the objective
    g.units["G1"].hex = "1508"  # two hexes off, within its AP range, never fired
    w = BlunderWatch(g)
    items = w.finish(g)["german"]["decisive_enemy_unattacked"]
    assert items[0]["units"] == ["R1"] and items[0]["within_reach"] == ["G1"]
    # the Russian (not on an objective of a side that lost) is no blunder for anyone else
    assert "russian" not in w.found


def test_fire_at_a_poor_target_while_a_much_better_one_was_there():
    m = make_map(cols=(10, 20), rows=(1, 14), trees={"1503": 3})
    units = [cw("GM", "german", ap=8, rng=12, pr=11), inf("R1", "russian", pr=6), inf("R2", "russian", pr=6)]
    g = small_game(units, {"GM": ("1512", False, 1), "R1": "1510", "R2": "1503"}, hexmap=m, length=6)
    assert g.state.phase is Phase.SUPPORT_FIRE
    w = BlunderWatch(g)
    poor = Fire(("GM",), "1503")
    legal = g.legal_actions()
    assert poor in legal and Fire(("GM",), "1510") in legal
    w.before(g, "german", poor, legal)
    item = _items(w, "german", "poor_target")[0]
    assert item["best_hex"] == "1510" and item["effect"] < 0.5 * item["best"]
    w2 = BlunderWatch(g)
    w2.before(g, "german", Fire(("GM",), "1510"), legal)
    assert not _items(w2, "german", "poor_target")


def _mined_game(side: str, revealed: bool, in_the_mines: list[str]):
    """Germans G1, G2 (and G3) on a one-hex-wide map, the AP minefield 1508 (4 factors) laid by
    ``side``; ``in_the_mines`` stand in it, the others at 1509. Dice scripted 6 (no effect, 19.24)."""
    units = [inf("G1", "german"), inf("G2", "german"), inf("G3", "german"), inf("R1", "russian", pr=6)]
    where = {u: ("1508" if u in in_the_mines else "1509") for u in ("G1", "G2", "G3")}
    g = small_game(units, {**where, "R1": "1501"}, hexmap=make_map(cols=(15, 15), rows=(1, 12)), length=6,
                   script=[(6,)] * 12)
    g.state.mines["1508"] = {"side": side, "ap": 4, "at": 0, "revealed_ap": revealed}
    advance_to(g, Phase.MOVEMENT)
    return g, BlunderWatch(g)


def _enter(g, w: BlunderWatch, uid: str, path: tuple[str, ...] = ("1508",)) -> None:
    _do(g, w, StartMove((uid,)))
    for h in path:
        _do(g, w, Step(h))
    if g.moving is not None and StopMove() in g.legal_actions():
        _do(g, w, StopMove())
    _pass_windows(g, w, "german")


def test_19_24_entering_a_known_minefield_where_own_units_stand_attacks_them_again():
    g, w = _mined_game("russian", True, ["G1"])
    _enter(g, w, "G2")
    attacked = [e["unit"] for e in g.events if e["kind"] == "mine_result"]
    assert sorted(attacked) == ["G1", "G2"]  # 19.24: each unit in the hex
    item = _items(w, "german", "known_minefield_reentered")[0]
    assert item["hex"] == "1508" and item["units"] == ["G2"] and item["attacked_again"] == ["G1"]
    assert item["turn"] == 1
    _enter(g, w, "G3")  # a third entry attacks both again
    items = _items(w, "german", "known_minefield_reentered")
    assert len(items) == 2 and items[1]["attacked_again"] == ["G1", "G2"]
    assert "russian" not in w.found


def test_19_22_no_minefield_blunder_for_the_first_entry_or_an_empty_known_hex():
    g, w = _mined_game("russian", False, [])
    _enter(g, w, "G1", ("1508", "1507"))  # reveals the mines (19.22), on through (19.27: still NORMAL)
    assert any(e["kind"] == "mines_revealed" for e in g.events) and g.units["G1"].hex == "1507"
    _enter(g, w, "G2")  # known now, but empty: no one attacked again
    assert not _items(w, "german", "known_minefield_reentered")


def test_19_11_own_mines_are_known_to_their_side_before_any_reveal():
    g, w = _mined_game("german", False, ["G1"])
    _enter(g, w, "G2")
    item = _items(w, "german", "known_minefield_reentered")[0]
    assert item["units"] == ["G2"] and item["attacked_again"] == ["G1"]


def test_the_batch_report_counts_each_kind_per_side_and_game():
    from core.playtest import GameResult, summarise

    item = {"turn": 2, "hex": "4307", "units": ["G1"], "effect": "broken"}
    rs = [GameResult(0, 11, "russian", 7, blunders={"german": {"intensive_fire_burnout": [item, {**item, "turn": 4}]}}),
          GameResult(1, 12, "russian", 7, blunders={}),
          GameResult(2, 13, "error", 3, error="in the engine: boom")]
    b = summarise(rs)["trust"]["blunders"]
    assert set(b["kinds"]) == set(KINDS)
    d = b["per_side"]["german"]["intensive_fire_burnout"]
    assert d == {"per_game": 1.0, "games": 1, "total": 2, "first_turn": 2}
    assert b["per_game"] == [{"index": 0, "seed": 11, "german": {"intensive_fire_burnout": 2}}]
