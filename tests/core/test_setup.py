"""Set-up (24.1): placement in set-up zones, UP/DOWN and facing, stacking at set-up, hidden information."""

from __future__ import annotations

import pytest

from core.ironcross.actions import EndPhase, EndSetup, IllegalAction, Place
from core.ironcross.game import Game
from core.ironcross.setup import Allotment, Deployment, Entry, GameSetup
from core.ironcross.state import Phase
from maps.terrain_chart import load_terrain_chart
from tests.core.engine_fixtures import afv, cw, inf
from tests.mapbuilder import make_map

ZONE = frozenset(["1504", "1505"])


def _game(units, deployments, *, entries=(), allot=(), order=("german", "russian"), length=1):
    m = make_map(cols=(10, 20), rows=(1, 12))
    us = {u.id: u for u in units}
    setup = GameSetup(hexmap=m, chart=load_terrain_chart(), units=us, game_length=length, first_side="german",
                      setup_order=order, deployments=deployments, entries=list(entries), allotments=list(allot))
    return Game(setup, 5)


def test_24_1_units_set_up_only_in_their_zone_up_or_down():
    g = _game([inf("G1", "german"), inf("R1", "russian")],
              [Deployment("german", ["G1"], ZONE), Deployment("russian", ["R1"], frozenset(["1510"]))])
    assert g.state.phase is Phase.SETUP and g.current_side() == "german"
    acts = g.legal_actions()
    assert {a.hex for a in acts if isinstance(a, Place)} == set(ZONE)
    assert Place("G1", "1505", True) in acts and Place("G1", "1505", False) in acts  # 3.12
    with pytest.raises(IllegalAction) as e:
        g.apply(Place("G1", "1510"))
    assert e.value.rule == "24.1"
    g.apply(Place("G1", "1505", True))
    assert g.current_side() == "russian"
    g.apply(Place("R1", "1510"))
    assert g.state.phase is Phase.SUPPORT_FIRE
    assert g.units["G1"].hex == "1505" and g.units["G1"].down
    assert g.state.control == {"1505": "german", "1510": "russian"}


def test_24_1_setup_order_follows_the_scenario():
    g = _game([inf("G1", "german"), inf("R1", "russian")],
              [Deployment("german", ["G1"], ZONE), Deployment("russian", ["R1"], frozenset(["1510"]))],
              order=("russian", "german"))
    assert g.current_side() == "russian"


def test_8_7_facing_chosen_at_setup_for_mgs_atgs_afvs():
    g = _game([cw("GM", "german"), inf("R1", "russian")],
              [Deployment("german", ["GM"], frozenset(["1505"])), Deployment("russian", ["R1"], frozenset(["1510"]))])
    acts = [a for a in g.legal_actions() if isinstance(a, Place)]
    assert {a.facing for a in acts} == {1, 2, 3, 4, 5, 6}
    with pytest.raises(IllegalAction):
        g.apply(Place("GM", "1505", False, None))


def test_24_1_a_process_makes_each_placement_once_and_offers_the_same_in_every_game():
    from core.ironcross import deployment

    deployment._PLACES.clear()

    def offered(german):
        g = _game([german, inf("R1", "russian")],
                  [Deployment("german", [german.id], ZONE), Deployment("russian", ["R1"], frozenset(["1510"]))])
        return [a for a in g.legal_actions() if isinstance(a, Place)]

    first = offered(inf("G1", "german"))
    assert first == [Place("G1", h, down, None, False) for h in sorted(ZONE) for down in (False, True)]  # 3.12
    again = offered(inf("G1", "german"))
    assert again == first and all(a is b for a, b in zip(again, first))  # the next game: the same values
    # the same id for a unit with a facing (another scenario in the process): its own placements (8.7)
    mg = offered(cw("G1", "german"))
    assert {a.facing for a in mg} == {1, 2, 3, 4, 5, 6} and len(mg) == 2 * 6 * 2


def test_8_62_stacking_at_setup_six_men_one_cw_one_afv():
    units = [inf(f"G{i}", "german") for i in range(7)] + [cw("GM", "german"), cw("GN", "german"),
                                                          afv("GT", "german"), afv("GU", "german"), inf("R1", "russian")]
    one = frozenset(["1505"])
    g = _game(units, [Deployment("german", [f"G{i}" for i in range(3)] + ["GM", "GN", "GT", "GU", "G3"],
                                 one), Deployment("russian", ["R1"], frozenset(["1510"]))])
    for i in range(3):
        g.apply(Place(f"G{i}", "1505"))
    g.apply(Place("GM", "1505", False, 1))  # crew 3: six men now
    assert [a for a in g.legal_actions() if isinstance(a, Place)] == []  # a second CW: no
    g.apply(EndSetup())
    assert g.units["GN"].hex is None
    g.apply(Place("GT", "1505", False, 1))  # one AFV on top of six men
    assert [a for a in g.legal_actions() if isinstance(a, Place)] == []  # a second AFV: no
    g.apply(EndSetup())
    assert [a for a in g.legal_actions() if isinstance(a, Place)] == []  # a seventh man: no
    with pytest.raises(IllegalAction):
        g.apply(Place("G3", "1505"))


def test_24_1_not_in_an_enemy_occupied_hex():
    g = _game([inf("G1", "german"), inf("R1", "russian")],
              [Deployment("german", ["G1"], ZONE), Deployment("russian", ["R1"], ZONE)])
    g.apply(Place("G1", "1505"))
    assert {a.hex for a in g.legal_actions() if isinstance(a, Place)} == {"1504"}


def test_24_1_entering_units_are_not_set_up_and_enter_on_their_turn():
    g = _game([inf("G1", "german"), inf("R1", "russian")], [Deployment("german", ["G1"], ZONE)],
              entries=[Entry("russian", ["R1"], frozenset(["1512"]), 2)], length=2)
    g.apply(Place("G1", "1505"))
    assert g.state.phase is not Phase.SETUP and g.units["R1"].hex is None and not g.units["R1"].entered
    while g.state.turn < 2 or g.state.phasing != "russian" or g.state.phase is not Phase.MOVEMENT:
        assert not any("R1" in getattr(a, "units", ()) for a in g.legal_actions())
        g.apply(EndPhase())
    assert any("R1" in getattr(a, "units", ()) for a in g.legal_actions())


def test_24_1_hidden_information_views_hide_enemy_mines_only():
    g = _game([inf("G1", "german"), inf("R1", "russian")],
              [Deployment("german", ["G1"], ZONE), Deployment("russian", ["R1"], frozenset(["1510"]))],
              allot=[Allotment("german", ZONE, ap_mines=1)])
    g.apply(Place("G1", "1505"))
    g.apply(Place("AP-mines:1", "1504"))
    assert g.current_side() == "russian"
    vr, vg = g.view("russian"), g.view("german")
    assert vr["mines"] == {} and vg["mines"]["1504"]["ap"] == 1
    assert vr["units"]["G1"]["hex"] == "1505"  # set-up units are visible
    assert g.legal_actions("german") == []  # only the deciding side acts


# ---------------------------------------------------------------- 24.1 MAP: nothing off the map
def _setup_with(where, hexes, *, playing_area=None):
    m = make_map(cols=(10, 20), rows=(1, 12))
    us = {u.id: u for u in (inf("G1", "german"), inf("R1", "russian"))}
    zone = frozenset(hexes)
    deps = [Deployment("german", ["G1"], zone if where == "deployment" else ZONE, "Squad G")]
    entries = [Entry("russian", ["R1"], zone if where == "entry" else frozenset(["1512"]), 1, group="Russians")]
    allot = [Allotment("german", zone, ips=[1], group="Squad G")] if where == "allotment" else []
    infil = {"russian": zone} if where == "infiltration" else {}
    return GameSetup(hexmap=m, chart=load_terrain_chart(), units=us, game_length=1, first_side="german",
                     setup_order=("german", "russian"), deployments=deps, entries=entries, allotments=allot,
                     infiltration=infil, playing_area=playing_area)


@pytest.mark.parametrize("where,what", [("deployment", "german set-up zone of Squad G"),
                                        ("allotment", "german IP/mine zone of Squad G"),
                                        ("entry", "russian entry hexes of Russians"),
                                        ("infiltration", "russian infiltration zone")])
def test_24_1_the_engine_refuses_a_set_up_with_a_hex_off_the_map(where, what):
    """Guard of the engine (a hand-made or stale GameSetup): a zone, IP/mine zone, entry or infiltration
    zone naming a hex off the map never reaches ``Place`` (LOS would raise on it later)."""
    from core.ironcross.setup import SetupError

    with pytest.raises(SetupError) as e:
        Game(_setup_with(where, ["1504", "2104"]), 5)
    assert f"{what}: hex 2104 is not on map 'test map'" in str(e.value)
    area = frozenset(f"{c}{r:02d}" for c in range(10, 16) for r in range(1, 13))
    with pytest.raises(SetupError) as e:
        Game(_setup_with(where, ["1504", "1604"], playing_area=area), 5)
    assert f"{what}: hex 1604 is outside the scenario's playing area" in str(e.value)
    g = Game(_setup_with(where, ["1504", "1505"], playing_area=area), 5)  # on the map and in the area: fine
    assert all(a.hex in area for a in g.legal_actions() if isinstance(a, Place))


def test_24_1_the_engine_refuses_a_playing_area_off_the_map():
    from core.ironcross.setup import SetupError

    with pytest.raises(SetupError, match="playing area: hex 2101 is not on map"):
        Game(_setup_with("deployment", ["1504"], playing_area=frozenset(["1504", "1505", "1512", "2101"])), 5)


# ---------------------------------------------------------------- every OOB entry becomes game data
SHIPPED = sorted(__import__("pathlib").Path(__file__).resolve().parents[2].glob("scenarios/data/scenario_*.json"))


def _oob_locations(sc):
    from maps.document_file import json_path

    out = {}
    for side in ("german", "russian"):
        s = sc.side(side)
        for gi, g in enumerate(s.groups):
            for ei, e in enumerate(g.oob):
                out[json_path((side, "groups", gi, "oob", ei))] = e
        for ei, e in enumerate(s.oob):
            out[json_path((side, "oob", ei))] = e
    return out


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem[:10])
def test_24_1_every_oob_entry_of_each_shipped_scenario_becomes_game_data(path):
    """24.1: "the units, improved positions, and number of grenades each side will have": each OOB
    entry, in a group or at side level, is accounted for in ``GameSetup.oob_use`` and its content is
    in the game data (units, IP markers, mine factors, grenades)."""
    from core.ironcross.scenario_setup import load_setup
    from scenarios.model import GrenadesEntry, IPEntry, MinesEntry

    sc, st = load_setup(path, seed=3)
    entries = _oob_locations(sc)
    assert set(st.oob_use) == set(entries)
    for side in ("german", "russian"):
        es = [e for p, e in entries.items() if p.startswith(f"$.{side}.")]
        assert st.grenades[side] == sum(e.count for e in es if isinstance(e, GrenadesEntry))
        assert sorted(p for a in st.allotments if a.side == side for p in a.ips) == sorted(
            e.points for e in es if isinstance(e, IPEntry) for _ in range(e.count))
        for t, attr in (("AP", "ap_mines"), ("AT", "at_mines")):
            assert sum(getattr(a, attr) for a in st.allotments if a.side == side) == sum(
                e.factors for e in es if isinstance(e, MinesEntry) and e.mine_type == t)
    placed = {u for d in st.deployments for u in d.units} | {u for e in st.entries for u in e.units}
    assert placed == set(st.units)  # every unit sets up or enters


def test_18_1_scenario_2_side_level_ips_are_placed_by_the_german_in_building_hexes_of_his_zones():
    """Scenario 2's "IP3 x 1 on any building hex; IP2 x 2 ...; IP1 x 3 ..." are side-level entries: the
    German places all six markers at set-up (18.1), each in a building hex of his set-up zones."""
    from core.ironcross.scenario_setup import load_setup
    from scenarios.scenario_file import load_scenario_map

    path = next(p for p in SHIPPED if p.name.startswith("scenario_2_"))
    sc, st = load_setup(path, seed=2)
    buildings = {h.id for hs in load_scenario_map(sc, path).building_hexes.values() for h in hs}
    zones = set().union(*(d.zone for d in st.deployments if d.side == "german"))
    g = Game(st, 2)
    while g.state.phase is Phase.SETUP and g.current_side() == "german":
        acts = g.legal_actions()
        g.apply(next((a for a in acts if isinstance(a, Place)), acts[0]))
    assert sorted(g.state.ips.values()) == [1, 1, 1, 2, 2, 3]
    assert set(g.state.ips) <= buildings & zones
    ev = [e for e in g.events if e["kind"] == "ip_placed"]
    assert len(ev) == 6 and {e["rule"] for e in ev} == {"18.1"} and {e["side"] for e in ev} == {"german"}


def test_24_1_ammo_of_an_only_list_member_reaches_its_unit():
    """Scenario 4's German "Squad E (4 units, MP PR10, LMG PR9 (10), R PR8, FT PR9 (4) only)": the LMG
    gets 10 ammo points and the FT 4 (24.1 AMMO POINTS); the others none."""
    from core.ironcross.scenario_setup import load_setup

    path = next(p for p in SHIPPED if p.name.startswith("scenario_4_"))
    _, st = load_setup(path, seed=1)
    squad_e = {u.weapon: u.ammo for u in st.units.values() if u.side == "german" and u.squad == "E"}
    assert squad_e == {"MP": None, "LMG": 10, "R": None, "FT": 4}


def _small_scenario(**change):
    from tests.scenarios.test_scenario_model import minimal

    d = minimal()
    for k, v in change.items():
        side, key = k.split("__")
        d[side][key] = v
    return d


@pytest.mark.parametrize("change,message", [
    ({"german__oob": [{"kind": "squad", "letter": "D", "text": "Squad D"}]},
     "$.german.oob[0]: Squad D: a unit entry at side level belongs to no group"),
    ({"russian__oob": [{"kind": "ip", "points": 1, "count": 2, "text": "IP1 x 2"}]},
     "$.russian.oob[0]: IP1 x 2: the russian side sets nothing up on the map"),
    ({"russian__groups": [{"name": "Main", "oob": [{"kind": "mines", "mine_type": "AP", "factors": 3, "text": "3 AP"}],
                           "entry": {"options": [{"turn": 1, "region": {"kind": "map_edge", "direction": "south"}}]}}]},
     "$.russian.groups[0].oob[0]: 3 AP: group 'Main' enters the map and has no set-up zone"),
])
def test_24_1_build_setup_refuses_an_oob_entry_it_cannot_use(change, message):
    """The engine side of "read but not used is never silent": ``build_setup`` raises (``validate``
    reports the same entries first, tests/scenarios/test_scenario_model.py)."""
    from core.ironcross.scenario_setup import build_setup
    from core.ironcross.setup import SetupError
    from scenarios.scenario_file import scenario_from_data

    m = make_map((10, 15), (1, 8))
    sc = scenario_from_data(_small_scenario(**change), "t.json", check=False)
    with pytest.raises(SetupError) as e:
        build_setup(sc, m)
    assert message in str(e.value)


# ---------------------------------------------------------------- 24.1 reinforcements
def _entry_game(entries, units, placements, length=3, script=()):
    from tests.core.engine_fixtures import small_game
    return small_game(units, placements, entries=entries, length=length, script=list(script))


def _can_start(g, uid):
    from core.ironcross.actions import StartMove
    return any(isinstance(a, StartMove) and uid in a.units for a in g.legal_actions())


def _entry_chances(g, uid):
    """(turn, phase) of each decision point at which ``uid`` may start to enter, never entering."""
    out = []
    while not g.is_terminal():
        if _can_start(g, uid):
            out.append((g.state.turn, g.state.phase))
        g.apply(EndPhase())
    return out


def test_24_1_reinforcements_may_enter_on_the_turn_listed_or_any_later_turn():
    g = _entry_game([Entry("russian", ["R1"], frozenset(["1512"]), 2)], [inf("G1", "german"), inf("R1", "russian")],
                    {"G1": "1505"}, length=4)
    # the Russian Movement Phases of turns 2, 3 and 4; never before turn 2, never in other phases
    assert _entry_chances(g, "R1") == [(2, Phase.MOVEMENT), (3, Phase.MOVEMENT), (4, Phase.MOVEMENT)]


def test_24_1_reaction_movement_entries_enter_in_their_sides_reaction_phase_of_that_turn_or_later():
    from core.ironcross.actions import Enter, StartMove
    from tests.core.engine_helpers import advance_to
    # Scenario 5's T-34a: "enters on the north mapedge during the Russian Reaction Movement Phase of turn 4"
    units = [inf("G1", "german"), afv("RT", "russian")]
    g = _entry_game([Entry("russian", ["RT"], frozenset(["1512"]), 2, Phase.REACTION_MOVEMENT)], units, {"G1": "1505"})
    assert _entry_chances(g, "RT") == [(2, Phase.REACTION_MOVEMENT), (3, Phase.REACTION_MOVEMENT)]
    g = _entry_game([Entry("russian", ["RT"], frozenset(["1512"]), 2, Phase.REACTION_MOVEMENT)], units, {"G1": "1505"})
    advance_to(g, Phase.REACTION_MOVEMENT, player_turn=3)  # German Player Turn of turn 2
    assert g.current_side() == "russian"
    g.apply(StartMove(("RT",)))
    assert g.moving.mp["RT"] == 5  # 8.13: an AFV's reaction allowance
    g.apply(Enter("1512"))
    assert g.units["RT"].hex == "1512" and g.units["RT"].entered


def test_8_3_a_failed_leader_pc_off_the_map_delays_only_the_units_it_covered():
    from core.ironcross.actions import StartMove
    from tests.core.engine_helpers import advance_to, events
    units = [inf("A9", "german", squad="A", pr=9), inf("A1", "german", squad="A"), inf("A2", "german", squad="A"),
             inf("B1", "german", squad="B"), inf("R1", "russian")]
    g = _entry_game([Entry("german", ["A9", "A1", "A2", "B1"], frozenset(["1501", "1601"]), 1)], units,
                    {"R1": "2012"}, script=[(6, 6)])
    advance_to(g, Phase.MOVEMENT)
    g.state.first_shot, g.state.movement_pcs_from_player_turn = True, 0  # 8.22: PCs are due
    g.apply(StartMove(("A9", "A1", "A2"), leader="A9"))
    assert events(g, "move_failed")[-1]["rule"] == "8.3 A" and sorted(events(g, "move_failed")[-1]["units"]) == [
        "A1", "A2", "A9"]
    assert all(g.units[u].moved for u in ("A9", "A1", "A2")) and not g.units["B1"].moved
    assert _can_start(g, "B1") and not _can_start(g, "A1")  # B1 was not covered by the PC
    advance_to(g, Phase.MOVEMENT, player_turn=3)  # the next German Movement Phase (turn 2)
    assert _can_start(g, "A9") and _can_start(g, "A1")  # delayed, not removed


def test_24_1_scenario_entries_keep_their_first_turn_and_phase():
    from pathlib import Path
    from core.ironcross.scenario_setup import load_setup
    data = Path(__file__).resolve().parents[2] / "scenarios" / "data"
    _sc, s5 = load_setup(data / "scenario_5_through_the_marshes.json", seed=1)
    t34 = [e for e in s5.entries if any(s5.units[u].is_afv and s5.units[u].side == "russian" for u in e.units)]
    assert [(e.turn, e.phase) for e in t34] == [(4, Phase.REACTION_MOVEMENT)]
    _sc, s3 = load_setup(data / "scenario_3_closing_the_ring.json", seed=1)
    assert sorted({(e.turn, e.phase) for e in s3.entries if e.side == "german"}) == [
        (1, Phase.MOVEMENT), (3, Phase.MOVEMENT)]


def test_8_62_8_3_an_entering_group_too_big_for_one_hex_is_offered_in_groups_that_fit():
    """A commander entering with ten men could never end a move with all of them (8.62): the listed
    leader-directed moves are the groups that fit (each squad with him, the first men that fit),
    never the whole stack, so no legal action wastes the group's Movement Phase."""
    from core.ironcross.actions import Enter, StartMove
    from core.ironcross.state import stacking_problem
    from tests.core.engine_helpers import advance_to

    men = [inf(f"A{i}", "german", squad="A") for i in range(5)] + [inf(f"B{i}", "german", squad="B") for i in range(5)]
    cmd = inf("PL", "german", weapon="PL", pr=10, commander=True)
    ids = [u.id for u in men] + ["PL"]
    g = _entry_game([Entry("german", ids, frozenset(["1501", "1601"]), 1)], men + [cmd, inf("R1", "russian")],
                    {"R1": "2012"})
    advance_to(g, Phase.MOVEMENT)
    led = [a for a in g.legal_actions() if isinstance(a, StartMove) and a.leader == "PL" and len(a.units) > 1]
    groups = {frozenset(a.units) for a in led}
    assert frozenset(["PL", "A0", "A1", "A2", "A3", "A4"]) in groups
    assert frozenset(["PL", "B0", "B1", "B2", "B3", "B4"]) in groups
    assert all(stacking_problem([g.units[x] for x in a.units]) is None for a in led)
    g.apply(StartMove(tuple(sorted(["PL", "B0", "B1", "B2", "B3", "B4"])), leader="PL"))
    assert Enter("1501") in g.legal_actions()
