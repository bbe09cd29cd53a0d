"""Hidden hexes (24.2, a scenario rule: under the basic and the advanced rules alike): choice at set-up
(24.21), invisibility to the opponent, every reveal of 24.22 and 24.23."""

from __future__ import annotations

import pytest

from core.ironcross.actions import (
    DesignateAssault, EndPhase, Fire, Grenade, IllegalAction, MortarFire, Pass, Place, RevealHidden, StartMove, Step,
    StopMove)
from core.ironcross.game import Game
from core.ironcross.setup import Deployment, GameSetup
from core.ironcross.state import Morale, Phase
from maps.terrain_chart import load_terrain_chart
from tests.core.engine_fixtures import ScriptedDice, afv, inf
from tests.core.engine_helpers import advance_to, events
from tests.mapbuilder import make_map

# 1505 neighbours: 1504 1605 1606 1506 1406 1405


def hidden_game(units, placements, *, hidden=(), counts=None, rules="advanced", zones=None, seed=1,
                first_side="german", length=3, script=(), place=True):
    """A game whose set-up places ``placements`` (uid -> hex), the units of ``hidden`` in hidden hexes."""
    m = make_map(cols=(10, 20), rows=(1, 12))
    us = {u.id: u for u in units}
    deps = [Deployment(us[uid].side, [uid], frozenset((zones or {}).get(uid, [hx]))) for uid, hx in placements.items()]
    setup = GameSetup(hexmap=m, chart=load_terrain_chart(), units=us, game_length=length, first_side=first_side,
                      setup_order=("german", "russian"), deployments=deps, grenades={"german": 2, "russian": 2},
                      hidden_hexes=counts or {"german": 2, "russian": 0})
    g = Game(setup, seed, rules=rules)
    g.dice = ScriptedDice(seed=seed, on_roll=g._log_roll, script=list(script))
    if place:
        while g.state.phase is Phase.SETUP:
            uid = g._setup_queue[0][2][0]
            f = 1 if us[uid].has_facing else None
            g.apply(Place(uid, placements[uid], False, f, uid in hidden))
    return g


def _revealed(g, since=0):
    return [e for e in events(g, "revealed", since)]


# ---------------------------------------------------------------- 24.21 choosing hidden hexes
def test_24_21_hidden_hexes_chosen_in_the_deployment_zone_up_to_the_scenario_number():
    zone = ["1505", "1506", "1507"]
    g = hidden_game([inf("G1", "german"), inf("G2", "german"), inf("G3", "german"), inf("R1", "russian")],
                    {"G1": "1505", "G2": "1506", "G3": "1507", "R1": "1510"},
                    zones={"G1": zone, "G2": zone, "G3": zone}, counts={"german": 1, "russian": 0}, place=False)
    acts = g.legal_actions()
    assert {a.hex for a in acts if isinstance(a, Place) and a.hidden} == set(zone)  # only the zone
    g.apply(Place("G1", "1505", hidden=True))
    assert g.state.hidden_hexes == {"1505": "german"} and g.units["G1"].hidden
    acts = g.legal_actions()
    # the one hidden hex is used: more hidden units only in it; a hex is hidden as a whole
    assert {a.hex for a in acts if isinstance(a, Place) and a.hidden} == {"1505"}
    assert not any(isinstance(a, Place) and a.hex == "1505" and not a.hidden for a in acts)
    with pytest.raises(IllegalAction):
        g.apply(Place("G2", "1506", hidden=True))
    with pytest.raises(IllegalAction):
        g.apply(Place("G2", "1505", hidden=False))
    g.apply(Place("G2", "1505", hidden=True))
    assert g.units["G2"].hidden


def test_24_21_no_afvs_in_hidden_hexes_and_stacking_applies():
    units = [afv("GT", "german")] + [inf(f"G{i}", "german") for i in range(7)] + [inf("R1", "russian")]
    zone = ["1505", "1506"]
    g = hidden_game(units, {u.id: "1505" for u in units if u.side == "german"} | {"R1": "1510"},
                    zones={u.id: zone for u in units if u.side == "german"}, place=False)
    assert not any(isinstance(a, Place) and a.hidden for a in g.legal_actions())  # 24.21 AFV
    g.apply(Place("GT", "1506", False, 1))
    for i in range(6):
        g.apply(Place(f"G{i}", "1505", hidden=True))
    acts = g.legal_actions()
    assert not any(isinstance(a, Place) and a.hex == "1505" for a in acts)  # 8.62 six men


def test_24_2_hidden_hexes_are_a_scenario_rule_offered_under_the_basic_rules_too():
    """24.2 is the scenarios' section, not an advanced rule (21.0-23.0): the side the scenario grants
    hidden hexes chooses them under the basic rules; a side granted none has none."""
    zone = ["1505", "1506"]
    g = hidden_game([inf("G1", "german"), inf("G2", "german"), inf("R1", "russian")],
                    {"G1": "1505", "G2": "1506", "R1": "1510"}, zones={"G1": zone, "G2": zone, "R1": ["1510", "1511"]},
                    counts={"german": 1, "russian": 0}, rules="basic", place=False)
    assert {a.hex for a in g.legal_actions() if isinstance(a, Place) and a.hidden} == set(zone)
    g.apply(Place("G1", "1505", hidden=True))
    assert g.units["G1"].hidden and g.state.hidden_hexes == {"1505": "german"}
    assert g._hidden_hexes_left("german") == 0  # the scenario's number, no more
    g.apply(Place("G2", "1506"))
    assert g.current_side() == "russian"
    assert not any(isinstance(a, Place) and a.hidden for a in g.legal_actions())  # none granted to the Russian
    assert "G1" not in g.view("russian")["units"]


# ---------------------------------------------------------------- invisibility
def test_24_2_hidden_units_are_not_in_the_opponents_view_nor_in_his_legal_actions():
    g = hidden_game([inf("G1", "german"), inf("G2", "german"), inf("R1", "russian")],
                    {"G1": "1505", "G2": "1509", "R1": "1507"}, hidden={"G1"}, first_side="russian")
    assert g.state.phase is Phase.SUPPORT_FIRE and g.current_side() == "russian"
    rv, gv = g.view("russian"), g.view("german")
    assert "G1" not in rv["units"] and "G2" in rv["units"] and "G1" in gv["units"]
    assert "1505" not in rv["control"] and "1505" not in rv["hidden_hexes"]
    assert gv["hidden_hexes"] == {"1505": "german"}
    assert not g.is_visible_to(g.units["G1"], "russian") and g.is_visible_to(g.units["G1"], "german")
    assert [u.id for u in g.visible_units("russian")] == ["G2", "R1"]
    assert g.hidden_hexes_of("german") == ["1505"]
    acts = g.legal_actions()
    # in range and LOS, yet never a target: the hex is not (visibly) enemy-occupied
    assert not any(getattr(a, "target", None) == "1505" for a in acts)
    assert any(isinstance(a, Fire) and a.target == "1509" for a in acts)
    with pytest.raises(IllegalAction):
        g.apply(Fire(("R1",), "1505"))
    with pytest.raises(IllegalAction):
        g.apply(Grenade("R1", "1505"))
    assert g.units["G1"].hidden
    # the AI's view (PlayerView) hides them too
    from core.ironcross.view import PlayerView

    assert "G1" not in PlayerView(g, "russian").units() and "G1" in PlayerView(g, "german").units()


def test_24_2_no_mortar_fire_offered_at_a_hex_held_only_by_hidden_units():
    """24.2 / 10.21: a hex whose enemy units are all hidden is not (visibly) enemy-occupied, so the
    opponent's mortar is never offered it (applying it is refused: a legal action never is)."""
    from tests.core.engine_fixtures import cw

    mor = cw("RO", "russian", weapon="Mor", ap=6, rng=6, crew=3, ma=0)
    g = hidden_game([inf("G1", "german"), inf("G2", "german"), mor],
                    {"G1": "1505", "G2": "1509", "RO": "1507"}, hidden={"G1"}, first_side="russian")
    acts = [a for a in g.legal_actions() if a.kind == "mortar"]
    assert any(a.target == "1509" for a in acts) and not any(a.target == "1505" for a in acts)
    with pytest.raises(IllegalAction):
        g.apply(MortarFire("RO", "1505", 1))


def test_24_2_attacks_on_a_hex_leave_its_hidden_units_alone():
    g = hidden_game([inf("G1", "german"), inf("G2", "german"), inf("R1", "russian", ap=12)],
                    {"G1": "1505", "G2": "1505", "R1": "1507"}, hidden={"G1", "G2"}, first_side="german")
    g._reveal([g.units["G1"]], "24.22", "test")  # as if G1 had fired: G2 stays hidden in the same hex
    advance_to(g, Phase.SUPPORT_FIRE, player_turn=2)
    g.apply(Fire(("R1",), "1505"))
    attacked = {e["unit"] for e in events(g, "ap_result")} | {e.get("unit") for e in events(g, "morale")}
    assert "G2" not in attacked and g.units["G2"].hidden


# ---------------------------------------------------------------- 24.22 reveals
@pytest.mark.parametrize("rules", ["basic", "advanced"])
def test_24_22_voluntary_reveal_by_the_owner(rules):
    g = hidden_game([inf("G1", "german"), inf("G2", "german"), inf("R1", "russian")],
                    {"G1": "1505", "G2": "1505", "R1": "1510"}, hidden={"G1", "G2"}, rules=rules)
    assert g.current_side() == "german" and RevealHidden("1505") in g.legal_actions()
    g.apply(EndPhase())
    assert g.state.phase is Phase.MOVEMENT and RevealHidden("1505") in g.legal_actions()
    n = len(g.events)
    g.apply(RevealHidden("1505"))
    assert not g.units["G1"].hidden and not g.units["G2"].hidden
    assert _revealed(g, n)[0]["units"] == ["G1", "G2"] and _revealed(g, n)[0]["rule"] == "24.22"
    assert "G1" in g.view("russian")["units"]
    assert RevealHidden("1505") not in g.legal_actions()


def test_24_22_a_unit_moving_out_of_a_hidden_hex_reveals_all_units_in_it():
    g = hidden_game([inf("G1", "german"), inf("G2", "german"), inf("R1", "russian")],
                    {"G1": "1505", "G2": "1505", "R1": "1510"}, hidden={"G1", "G2"})
    advance_to(g, Phase.MOVEMENT)
    g.apply(StartMove(("G1",)))
    assert g.units["G1"].hidden  # starting a move is not moving out
    g.apply(Step("1504"))
    assert not g.units["G1"].hidden and not g.units["G2"].hidden
    assert _revealed(g)[0]["rule"] == "24.22"


def test_24_22_a_friendly_unit_moving_into_a_hidden_hex_reveals_all_units_in_it():
    g = hidden_game([inf("G1", "german"), inf("G2", "german"), inf("R1", "russian")],
                    {"G1": "1505", "G2": "1504", "R1": "1510"}, hidden={"G1"})
    advance_to(g, Phase.MOVEMENT)
    g.apply(StartMove(("G2",)))
    g.apply(Step("1505"))
    assert not g.units["G1"].hidden and g.units["G2"].hex == "1505"


def test_24_22_a_hidden_unit_that_fires_is_revealed_and_only_it():
    g = hidden_game([inf("G1", "german"), inf("G2", "german"), inf("R1", "russian")],
                    {"G1": "1505", "G2": "1505", "R1": "1507"}, hidden={"G1", "G2"})
    n = len(g.events)
    g.apply(Fire(("G1",), "1507"))
    assert not g.units["G1"].hidden and g.units["G2"].hidden
    assert _revealed(g, n)[0]["units"] == ["G1"]
    rv = g.view("russian")
    assert "G1" in rv["units"] and "G2" not in rv["units"]


def test_24_22_an_illegal_fire_by_a_hidden_unit_reveals_nothing():
    g = hidden_game([inf("G1", "german"), inf("R1", "russian")], {"G1": "1505", "R1": "1510"}, hidden={"G1"})
    with pytest.raises(IllegalAction):
        g.apply(Fire(("G1",), "1506"))  # nobody there
    assert g.units["G1"].hidden and not _revealed(g)


@pytest.mark.parametrize("rules", ["basic", "advanced"])
def test_24_22_normal_enemy_beginning_the_morale_phase_adjacent_reveals_all(rules):
    g = hidden_game([inf("G1", "german"), inf("G2", "german"), inf("R1", "russian"), inf("R2", "russian")],
                    {"G1": "1505", "G2": "1510", "R1": "1507", "R2": "1512"}, hidden={"G1", "G2"}, rules=rules)
    advance_to(g, Phase.FREE_STATE_CHANGE, player_turn=1)
    g.units["R1"].hex = "1506"  # adjacent to 1505
    g.units["R2"].hex = "1511"  # adjacent to 1510, but PINNED
    g.units["R2"].morale, g.units["R2"].down = Morale.PINNED, True
    advance_to(g, Phase.SUPPORT_FIRE, player_turn=2)
    assert not g.units["G1"].hidden  # NORMAL R1 adjacent
    assert g.units["G2"].hidden  # only a PINNED enemy adjacent
    e = _revealed(g)[0]
    assert e["rule"] == "24.22" and e["phase"] == "morale"


# ---------------------------------------------------------------- 24.23
def test_24_23_enemy_about_to_enter_a_hidden_hex_reveals_it_and_does_not_enter():
    g = hidden_game([inf("G1", "german"), inf("R1", "russian")], {"G1": "1505", "R1": "1507"}, hidden={"G1"},
                    first_side="russian")
    advance_to(g, Phase.MOVEMENT)
    g.apply(StartMove(("R1",)))
    g.apply(Step("1506"))
    if g.window is not None:
        g.apply(Pass())
    mp = g.moving.mp["R1"]
    assert Step("1505") in g.legal_actions()  # looks empty to the Russian
    n = len(g.events)
    g.apply(Step("1505"))
    assert not g.units["G1"].hidden and g.units["R1"].hex == "1506"
    assert _revealed(g, n)[0]["rule"] == "24.23" and events(g, "entry_prevented", n)
    assert g.moving is not None and g.moving.mp["R1"] == mp  # no MP spent; the move may go on
    assert Step("1505") not in g.legal_actions()  # now visibly enemy-occupied (8.23)


def test_24_23_assault_on_a_hidden_hex_is_resolved_with_the_hidden_defenders_then_they_are_revealed():
    g = hidden_game([inf("G1", "german", assault=0), inf("R1", "russian", assault=6, pr=12)],
                    {"G1": "1505", "R1": "1507"}, hidden={"G1"}, first_side="russian",
                    script=[(1, 1), (1,), (1,)])
    advance_to(g, Phase.MOVEMENT)
    g.apply(StartMove(("R1",)))
    g.apply(Step("1506"))
    if g.window is not None:
        g.apply(Pass())
    g.apply(StopMove())
    advance_to(g, Phase.MOVEMENT, sub="assault_designation")
    g.apply(DesignateAssault(("R1",), "1505"))  # an apparently empty hex (17.0)
    advance_to(g, Phase.ASSAULT)
    assert g.units["G1"].hidden
    n = len(g.events)
    g.apply(DesignateAssault(("R1",), "1505"))
    kinds = [e["kind"] for e in g.events[n:]]
    assert "assault_fire" in kinds or "eliminated" in kinds
    rev = [i for i, e in enumerate(g.events[n:]) if e["kind"] == "revealed"]
    assert rev and rev[0] > kinds.index("assault")
    assert g.events[n + rev[0]]["rule"] == "24.23"
    assert not g.units["G1"].hidden


def test_24_23_set_up_into_an_enemy_hidden_hex_reveals_it_and_the_unit_is_placed_elsewhere():
    zone = ["1505", "1506"]
    g = hidden_game([inf("G1", "german"), inf("R1", "russian")], {"G1": "1505", "R1": "1505"},
                    zones={"R1": zone}, hidden={"G1"}, place=False)
    g.apply(Place("G1", "1505", hidden=True))
    assert Place("R1", "1505") in g.legal_actions()
    g.apply(Place("R1", "1505"))
    assert not g.units["G1"].hidden and g.units["R1"].hex is None
    assert Place("R1", "1505") not in g.legal_actions()
    g.apply(Place("R1", "1506"))
    assert g.units["R1"].hex == "1506"


# ---------------------------------------------------------------- the shipped scenarios
SCENARIOS = sorted(__import__("glob").glob(str(__import__("pathlib").Path(__file__).resolve().parents[2]
                                               / "scenarios" / "data" / "scenario_*.json")))
_TARGETED = ("fire", "grenade", "flame", "mortar")
# every scenario under the advanced rules; under the basic rules the two with infiltration (24.3)
_RUNS = [(p, "advanced") for p in SCENARIOS] + [(p, "basic") for p in SCENARIOS
                                                if "scenario_1_" in p or "scenario_2_" in p]


@pytest.mark.parametrize("path,rules", _RUNS, ids=lambda x: x.rsplit("/", 1)[-1][:10] if "/" in x else x)
def test_24_2_random_games_never_show_hidden_units_to_the_opponent(path, rules):
    """A random game (two Game Turns) of each shipped scenario: the scenario's hidden hexes (24.2) are
    chosen and its infiltration (24.3) offered under either rules, and no view or legal action of
    the opponent ever shows a hidden unit."""
    import random

    from core.ironcross.scenario_setup import load_setup

    seed = 5
    _, setup = load_setup(path, seed=seed)
    setup.game_length = 2
    g = Game(setup, seed, rules=rules)
    rnd = random.Random(seed)
    ever_hidden: set[str] = set()
    steps = 0
    while not g.is_terminal():
        side = g.current_side()
        hidden = {u.id: u.hex for u in g.state.units.values() if u.hidden}
        ever_hidden |= set(hidden)
        for s in ("german", "russian"):
            theirs = [uid for uid in hidden if g.units[uid].side != s]
            if theirs:   # a view is only built while the opponent has a hidden unit to keep from it
                v = g.view(s)
                for uid in theirs:
                    assert uid not in v["units"], (uid, s)
        acts = g.legal_actions()
        for a in acts:
            names = {getattr(a, f, None) for f in ("unit", "thrower", "target_unit", "spotter")}
            for f in ("units", "firers", "targets"):
                names |= set(getattr(a, f, ()) or ())
            assert not any(n in hidden and g.units[n].side != side for n in names if n), a
            if a.kind in _TARGETED:
                enemies = [u for u in g.state.units_at(a.target) if u.side != side]
                assert any(not u.hidden for u in enemies), a  # a target is visibly enemy-occupied
        # play on without voluntary reveals (they would empty the hidden hexes at once)
        pool = [a for a in acts if a.kind != "reveal_hidden" or g.state.phase is Phase.SETUP] or acts
        g.apply(rnd.choice(pool))
        steps += 1
    if setup.hidden_hexes.get("german") or setup.hidden_hexes.get("russian"):
        assert g.state.hidden_hexes and ever_hidden
    if setup.infiltration:  # 24.31 the Russian was offered the infiltration (he may decline)
        assert any(e["kind"] == "infiltration" and e["rule"] == "24.31" for e in g.events)

