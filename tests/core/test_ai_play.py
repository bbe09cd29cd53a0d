"""The heuristic AI plays like a competent player: small hand-made situations, one per
behaviour. Each builds a tiny game, lets the heuristic decide and checks the decision or where the
units end up."""

from __future__ import annotations

import pytest

from core.ironcross.ai.heuristic import HeuristicPlayer
from core.ironcross.ai.settings import BehaviorSettings
from core.ironcross.actions import DesignateAssault, EndPhase, Fire, StartMove, Step
from core.ironcross.setup import Entry
from core.ironcross.state import Phase
from core.ironcross.view import PlayerView
from maps import hexgrid
from tests.core.engine_fixtures import afv, cw, inf, small_game
from tests.core.engine_helpers import advance_to
from tests.mapbuilder import make_map


def _d(a: str, b: str) -> int:
    return hexgrid.distance(hexgrid.parse_hex_id(a), hexgrid.parse_hex_id(b))


def _objectives(g, german: list[dict], russian: list[dict], victory) -> None:
    """Give a small game objectives (as ``scenario_objectives`` derives them) and a victory rule."""
    g.setup.objectives = {"german": german, "russian": russian}
    g.setup.victory = victory


def _occupy(hexes, w=1.0):
    return {"hexes": sorted(hexes), "goal": "occupy", "weight": w, "text": "test"}


def _clear(hexes, w=1.0):
    return {"hexes": sorted(hexes), "goal": "clear", "weight": w, "text": "test"}


def _play_phase(g, players: dict, phase: Phase, player_turn: int, limit: int = 2000) -> None:
    """Let the players decide until ``phase`` of ``player_turn`` is over."""
    n = 0
    while not g.is_terminal() and (g.state.player_turn < player_turn or
                                   (g.state.player_turn == player_turn and
                                    list(Phase).index(g.state.phase) <= list(Phase).index(phase))):
        side = g.current_side()
        acts = g.legal_actions()
        a = players[side].choose(PlayerView(g, side), side, acts)
        assert a in acts
        g.apply(a)
        n += 1
        assert n < limit


def _first_shot(g) -> None:
    """As if combat dice had been rolled before this Player Turn: movement needs PCs (8.22)."""
    g.state.first_shot = True
    g.state.movement_pcs_from_player_turn = 1


# ---------------------------------------------------------------- 8.0: AFVs move first
def test_8_0_a_tank_entering_with_infantry_enters_on_turn_1():
    """A tank and its infantry enter together on turn 1: the tank's entry (8.0 first stage) comes
    before the infantry's, which would close the AFV stages."""
    units = [afv("GT", "german"), inf("G1", "german"), inf("G2", "german"), inf("G3", "german"),
             inf("R1", "russian", pr=6)]
    g = small_game(units, {"R1": "1002"}, entries=[Entry("german", ["GT", "G1", "G2", "G3"],
                                                         frozenset({"1512", "1612", "1412"}), 1)])
    _objectives(g, [_occupy(["1503"])], [_occupy(["1503"], 0.8)],
                lambda st, game: "german" if any(u.hex == "1503" for u in st.units_of("german")) else "russian")
    p = HeuristicPlayer(3)
    advance_to(g, Phase.MOVEMENT)
    first = p.choose(PlayerView(g, "german"), "german", g.legal_actions())
    assert first == StartMove(("GT",))  # the tank first
    _play_phase(g, {"german": p, "russian": HeuristicPlayer(4)}, Phase.MOVEMENT, 1)
    assert g.units["GT"].on_map
    assert all(g.units[x].on_map for x in ("G1", "G2", "G3"))


def test_8_0_afv_moving_with_infantry_goes_before_infantry_alone():
    """An AFV/infantry stack (8.0 second stage) is moved before any infantry moves alone."""
    units = [afv("GT", "german"), inf("G1", "german"), inf("G2", "german"), inf("G4", "german", squad="B"),
             inf("R1", "russian")]
    g = small_game(units, {"GT": ("1510", False, 1), "G1": "1510", "G2": "1510", "G4": "1710", "R1": "1502"})
    _objectives(g, [_occupy(["1504"])], [],
                lambda st, game: "german" if any(u.hex == "1504" for u in st.units_of("german")) else "russian")
    advance_to(g, Phase.MOVEMENT)
    a = HeuristicPlayer(1).choose(PlayerView(g, "german"), "german", g.legal_actions())
    assert isinstance(a, StartMove) and "GT" in a.units


# ---------------------------------------------------------------- reinforcements of the non-phasing side
def test_24_1_the_non_phasing_side_s_tank_reinforcement_enters_in_reaction_movement():
    units = [inf("G1", "german"), afv("RT", "russian"), inf("R1", "russian")]
    g = small_game(units, {"G1": "1505", "R1": "1503"},
                   entries=[Entry("russian", ["RT"], frozenset({"1001", "1101"}), 1, Phase.REACTION_MOVEMENT)])
    _objectives(g, [_clear(["1503"])], [_occupy(["1503"])],
                lambda st, game: "russian" if any(u.hex == "1503" for u in st.units_of("russian")) else "german")
    advance_to(g, Phase.REACTION_MOVEMENT)
    assert g.current_side() == "russian"
    p = HeuristicPlayer(2)
    _play_phase(g, {"german": HeuristicPlayer(1), "russian": p}, Phase.REACTION_MOVEMENT, 1)
    assert p.posture == "defend"  # the Russians are ahead and hold: the tank still comes on
    assert g.units["RT"].on_map


def _late_reinforcements(entry_per_unit: int, first_shot: bool = True, pr: int = 5, squads: int = 1):
    """A platoon leader (PR 11) and ``squads`` squads of four riflemen of PR ``pr`` and ``pr`` + 1
    waiting to enter on the south edge, with the goal hex across the map; the heuristic's first
    decision of the Movement Phase."""
    men = [inf(f"G{i}", "german", squad="AB"[i // 4], pr=pr + i % 2) for i in range(4 * squads)]
    units = [inf("GPL", "german", weapon="PL", pr=11, commander=True), *men, inf("R1", "russian", pr=6)]
    g = small_game(units, {"R1": "1002"},
                   entries=[Entry("german", ["GPL"] + [u.id for u in men], frozenset({"1512", "1612"}), 1)])
    _objectives(g, [_occupy(["1503"])], [],
                lambda st, game: "german" if any(u.hex == "1503" for u in st.units_of("german")) else "russian")
    if first_shot:
        _first_shot(g)
    advance_to(g, Phase.MOVEMENT)
    p = HeuristicPlayer(1, settings=BehaviorSettings(entry_per_unit=entry_per_unit))
    return p.choose(PlayerView(g, "german"), "german", g.legal_actions())


def test_8_3_a_24_1_entry_per_unit_brings_low_pr_reinforcements_in_under_their_leader():
    """``entry_per_unit`` 1: once moves need PCs (8.22), the riflemen of PR 5-6 (a PC passed 28-42 %
    of the time) enter under the platoon leader's single PC at PR 11 (8.3 A, 97 %) instead of one
    by one; by default (0) the entry bonus is once a group, so the units enter one at a time."""
    led = _late_reinforcements(1)
    assert isinstance(led, StartMove) and led.leader == "GPL" and len(led.units) == 5
    alone = _late_reinforcements(0)
    assert isinstance(alone, StartMove) and len(alone.units) == 1
    # two squads waiting (nine men: too many for one hex with him, 8.62): a failed PC of his group
    # would hold the other squad too (8.3 A), so his own entry prices a little higher per unit, but
    # alone he leaves them all to their own PCs (the 0.3 of a leader leaving his men): he leads six in
    two = _late_reinforcements(1, squads=2)
    assert isinstance(two, StartMove) and two.leader == "GPL" and len(two.units) == 6
    # before the first shot no PC is taken (8.22 EXCEPTION): the setting changes nothing
    assert _late_reinforcements(1, first_shot=False) == _late_reinforcements(0, first_shot=False)


# ---------------------------------------------------------------- posture from the victory conditions
def test_a_side_that_must_clear_a_region_attacks_it_although_its_zone_touches_it():
    """The Germans set up next to the region they must clear of Russians (as in Scenario 4): the
    victory conditions say they are behind, so they attack instead of holding their zone."""
    region = ["1505", "1605", "1506"]
    units = [inf(f"G{i}", "german") for i in range(4)] + [inf("R1", "russian", pr=6), inf("R2", "russian", pr=6)]
    g = small_game(units, {"G0": "1509", "G1": "1509", "G2": "1609", "G3": "1609", "R1": "1505", "R2": "1605"})
    _objectives(g, [_clear(region)], [_occupy(region, 0.8)],
                lambda st, game: "russian" if any(u.hex in region for u in st.units_of("russian") if u.on_map)
                else "german")
    p = HeuristicPlayer(5)
    advance_to(g, Phase.MOVEMENT)
    before = sum(min(_d(g.units[f"G{i}"].hex, h) for h in ("1505", "1605")) for i in range(4))
    _play_phase(g, {"german": p, "russian": HeuristicPlayer(6)}, Phase.MOVEMENT, 1)
    assert p.posture == "attack" and p.outcome_now == "russian"
    after = sum(min(_d(g.units[f"G{i}"].hex, h) for h in ("1505", "1605")) for i in range(4))
    assert after < before - 3  # they closed in on the Russians in the region
    assert {"1505", "1605"} <= set(p.maps.attack)


def test_the_side_ahead_holds_and_the_side_behind_attacks():
    units = [inf("G1", "german"), inf("R1", "russian")]
    g = small_game(units, {"G1": "1505", "R1": "1510"})
    _objectives(g, [_occupy(["1505"])], [_clear(["1505"], 0.8)],
                lambda st, game: "german" if any(u.hex == "1505" for u in st.units_of("german")) else "russian")
    advance_to(g, Phase.MOVEMENT)
    pg, pr = HeuristicPlayer(1), HeuristicPlayer(2)
    pg.choose(PlayerView(g, "german"), "german", g.legal_actions())
    assert pg.posture == "defend"
    pr._replan(PlayerView(g, "russian"))
    assert pr.posture == "attack" and "1505" in pr.maps.attack


# ---------------------------------------------------------------- counterattack
def test_17_0_a_lost_objective_is_counterattacked_when_the_odds_allow():
    """The Germans hold 1505 but lost 1506 to one Russian: behind, they go for it and mark an
    assault (17.0) on it with a stack that outclasses its defender."""
    units = [inf(f"G{i}", "german", assault=4, pr=9) for i in range(4)]
    units += [inf("G9", "german"), inf("R1", "russian", assault=2, pr=6)]
    g = small_game(units, {"G0": "1508", "G1": "1508", "G2": "1508", "G3": "1508", "G9": "1505", "R1": "1506"})
    both = ["1505", "1506"]
    _objectives(g, [_occupy(both), _clear(both, 0.8)], [_occupy(both), _clear(both, 0.8)],
                lambda st, game: "german" if all(any(u.hex == h for u in st.units_of("german")) for h in both)
                else "draw")
    p = HeuristicPlayer(7)
    advance_to(g, Phase.MOVEMENT)
    _play_phase(g, {"german": p, "russian": HeuristicPlayer(8)}, Phase.MOVEMENT, 1)
    assert p.posture == "attack" and "1506" in p.maps.attack
    marked = [u for u in g.units.values() if u.side == "german" and u.assault_hex == "1506"]
    assert len(marked) >= 3 and all(_d(u.hex, "1506") == 1 for u in marked)


def test_17_0_no_assault_marked_when_the_odds_do_not_allow():
    units = [inf("G1", "german", assault=2, pr=7)]
    units += [inf(f"R{i}", "russian", assault=5, pr=10) for i in range(5)]
    g = small_game(units, {"G1": "1507", **{f"R{i}": "1506" for i in range(5)}}, length=6)
    _objectives(g, [_occupy(["1506"])], [_occupy(["1506"])],
                lambda st, game: "german" if any(u.hex == "1506" for u in st.units_of("german")) else "russian")
    advance_to(g, Phase.MOVEMENT, sub="assault_designation")
    a = HeuristicPlayer(1).choose(PlayerView(g, "german"), "german", g.legal_actions())
    assert a == EndPhase()


# ---------------------------------------------------------------- mines, opportunity fire
def test_19_2_no_step_into_a_revealed_minefield_when_another_route_exists():
    units = [inf("G1", "german"), inf("R1", "russian", pr=6)]
    g = small_game(units, {"G1": "1510", "R1": "1001"})
    g.state.mines["1509"] = {"side": "russian", "ap": 4, "at": 0, "revealed_ap": True}
    _objectives(g, [_occupy(["1505"])], [],
                lambda st, game: "german" if any(u.hex == "1505" for u in st.units_of("german")) else "russian")
    advance_to(g, Phase.MOVEMENT)
    start = len(g.events)
    _play_phase(g, {"german": HeuristicPlayer(2), "russian": HeuristicPlayer(3)}, Phase.MOVEMENT, 1)
    moved_to = [e["to"] for e in g.events[start:] if e["kind"] == "moved"]
    assert moved_to and "1509" not in moved_to
    assert _d(g.units["G1"].hex, "1505") < 5  # it went round


class _HoldFire:
    """An opponent that never fires while the other side moves (its MMG stays ready for its next
    fire phase): the test looks at where the movers choose to stop, not at the dice."""

    name = "hold"

    def choose(self, view, side, actions):
        for a in actions:
            if a.kind in ("pass", "end_phase"):
                return a
        return actions[0]


def test_13_0_no_stop_up_in_the_open_in_the_los_of_an_mmg_when_cover_is_in_reach():
    """A German group heads north past a Russian MMG six hexes off: it does not end its move UP in
    the open in the MMG's sight (Defensive Fire, intensive) while woods are within its MPs (it
    goes there, or goes DOWN, or stays out of sight)."""
    m = make_map(cols=(10, 20), rows=(1, 12), trees={"1408": 3, "1508": 3, "1608": 3})
    units = [inf(f"G{i}", "german") for i in range(5)] + [cw("RM", "russian", ap=8, rng=12, pr=9)]
    g = small_game(units, {**{f"G{i}": "1511" for i in range(5)}, "RM": ("1505", False, 4)}, hexmap=m, length=6)
    _objectives(g, [_occupy(["1501"])], [],
                lambda st, game: "german" if any(u.hex == "1501" for u in st.units_of("german")) else "russian")
    advance_to(g, Phase.MOVEMENT)
    _play_phase(g, {"german": HeuristicPlayer(4), "russian": _HoldFire()}, Phase.MOVEMENT, 1)
    v = PlayerView(g, "german")
    moved = 0
    for i in range(5):
        u = g.units[f"G{i}"]
        if u.hex == "1511":
            continue
        moved += 1
        in_open_sight = v.terrain.trees(u.hex) == 0 and v.los("1505", u.hex).clear
        assert not (in_open_sight and not u.down), f"{u.id} stopped UP in the open at {u.hex}"
    assert moved  # they did advance


# ---------------------------------------------------------------- leadership
def test_8_3_a_commander_rather_than_an_acting_leader_leads_a_large_group():
    units = [inf("GPL", "german", weapon="PL", pr=10, commander=True), inf("GA9", "german", pr=9)]
    units += [inf(f"G{i}", "german", pr=7) for i in range(4)] + [inf("R1", "russian", pr=6)]
    g = small_game(units, {"GPL": "1510", "GA9": "1510", **{f"G{i}": "1510" for i in range(4)}, "R1": "1001"})
    _objectives(g, [_occupy(["1505"])], [],
                lambda st, game: "german" if any(u.hex == "1505" for u in st.units_of("german")) else "russian")
    advance_to(g, Phase.MOVEMENT)
    _first_shot(g)
    acts = g.legal_actions()
    assert StartMove(("GA9", "G0", "G1", "G2", "G3"), leader="GA9") in acts  # the acting leader could
    a = HeuristicPlayer(1).choose(PlayerView(g, "german"), "german", acts)
    assert isinstance(a, StartMove) and a.leader == "GPL" and len(a.units) == 6


# ---------------------------------------------------------------- weapons
def test_11_44_no_attack_whose_expected_effect_is_nothing():
    """A rifle 25 hexes from a tank would fire at firepower -2 (only all 1s): never chosen."""
    m = make_map(cols=(10, 40), rows=(1, 12))
    g = small_game([inf("G1", "german", ap=4, rng=7), afv("RT", "russian")],
                   {"G1": "1005", "RT": ("3505", False, 4)}, hexmap=m)
    assert g.state.phase is Phase.SUPPORT_FIRE
    acts = g.legal_actions()
    fires = [a for a in acts if isinstance(a, Fire)]
    assert fires, "the engine offers the pointless shot"
    p = HeuristicPlayer(1)
    v = PlayerView(g, "german")
    p.choose(v, "german", acts)
    assert all(p._price(v, a, False) is None for a in fires)
    assert p.choose(v, "german", acts) == EndPhase()


def test_9_0_an_afv_drives_to_a_favourable_overrun_two_hexes_away():
    units = [afv("GT", "german", overrun=9), inf("R1", "russian", pr=6), inf("R2", "russian", pr=6)]
    g = small_game(units, {"GT": ("1508", False, 1), "R1": "1505", "R2": "1505"})
    _objectives(g, [_clear(["1505"])], [_occupy(["1505"])],
                lambda st, game: "russian" if any(u.hex == "1505" for u in st.units_of("russian") if u.on_map)
                else "german")
    advance_to(g, Phase.MOVEMENT)
    start = len(g.events)
    _play_phase(g, {"german": HeuristicPlayer(1), "russian": HeuristicPlayer(2)}, Phase.MOVEMENT, 1)
    assert any(e["kind"] == "overrun" and e["hex"] == "1505" for e in g.events[start:])


def test_14_0_mortar_fires_first_with_a_spotter_at_a_target_out_of_its_sight():
    """A mortar with no LOS to a Russian stack fires at it indirectly through the commander next to
    it (14.22), before the other units' fire (14.0)."""
    m = make_map(cols=(10, 20), rows=(1, 12), levels={"1407": 2, "1507": 2, "1607": 2})
    units = [cw("GMor", "german", weapon="Mor", ap=6, rng=3, crew=3, ma=3, pr=9),
             inf("GPL", "german", weapon="PL", pr=10, commander=True),
             inf("R0", "russian"), inf("R2", "russian"), inf("R3", "russian")]
    g = small_game(units, {"GMor": "1509", "GPL": "1507", "R0": "1503", "R2": "1503", "R3": "1503"}, hexmap=m)
    assert g.state.phase is Phase.SUPPORT_FIRE
    acts = g.legal_actions()
    morts = [a for a in acts if a.kind == "mortar"]
    if not morts or not any(a.spotter for a in morts):
        pytest.skip("the test map gives no indirect mortar fire")
    a = HeuristicPlayer(1).choose(PlayerView(g, "german"), "german", acts)
    assert a.kind == "mortar" and a.target == "1503"


def test_8_72_an_antitank_gun_turns_to_a_tank_outside_its_frontal_area():
    units = [cw("GA", "german", weapon="50AT", ap=3, rng=8, at=11, crew=4, ma=0, pr=9), afv("RT", "russian"),
             inf("G1", "german")]
    g = small_game(units, {"GA": ("1505", False, 1), "RT": ("1509", False, 1), "G1": "1001"})
    v = PlayerView(g, "german")
    assert not v.in_frontal_area("1505", 1, "1509")
    _objectives(g, [_occupy(["1505"])], [], lambda st, game: "german")
    advance_to(g, Phase.MOVEMENT)
    p = HeuristicPlayer(1)
    a = p.choose(PlayerView(g, "german"), "german", g.legal_actions())
    assert a == StartMove(("GA",))
    g.apply(a)
    f = p.choose(PlayerView(g, "german"), "german", g.legal_actions())
    assert f.kind == "face" and v.in_frontal_area("1505", f.hexside, "1509")


def test_20_1_an_infantry_unit_joins_the_crew_of_a_short_mmg():
    units = [cw("GM", "german", ap=8, rng=12, crew=3), inf("G1", "german", pr=7), inf("R1", "russian")]
    g = small_game(units, {"GM": ("1505", False, 1), "G1": "1505", "R1": "1001"})
    g.units["GM"].crew = 2  # one crew man lost: AP halved (11.16 d), no movement (8.12)
    _objectives(g, [_occupy(["1505"])], [], lambda st, game: "german")
    advance_to(g, Phase.MOVEMENT)
    assert any(a.kind == "crew_replacement" for a in g.legal_actions())
    _play_phase(g, {"german": HeuristicPlayer(1), "russian": HeuristicPlayer(2)}, Phase.MOVEMENT, 1)
    assert g.units["GM"].crew == 3 and g.units["GM"].replacements == ["G1"]


def test_8_62_entering_groups_never_choose_a_full_hex():
    units = [inf(f"G{i}", "german") for i in range(6)] + [inf(f"H{i}", "german", squad="B") for i in range(3)]
    units.append(inf("R1", "russian"))
    g = small_game(units, {**{f"G{i}": "1512" for i in range(6)}, "R1": "1001"},
                   entries=[Entry("german", [f"H{i}" for i in range(3)], frozenset({"1512", "1612"}), 1)])
    _objectives(g, [_occupy(["1512"])], [], lambda st, game: "german")
    advance_to(g, Phase.MOVEMENT)
    _play_phase(g, {"german": HeuristicPlayer(1), "russian": HeuristicPlayer(2)}, Phase.MOVEMENT, 1)
    assert not [e for e in g.events if e["kind"] == "eliminated" and e["rule"] == "8.62"]
    assert all(g.units[f"H{i}"].on_map for i in range(3))


# ---------------------------------------------------------------- errors are never swallowed
def test_an_exception_inside_the_heuristic_ai_makes_the_game_an_error(monkeypatch, tmp_path):
    import glob

    from core.playtest import run_batch, summarise

    def boom(self, view, actions):
        raise ZeroDivisionError("boom in the heuristic's fire scoring")

    monkeypatch.setattr(HeuristicPlayer, "_fire", boom)
    path = sorted(glob.glob("scenarios/data/scenario_1_*.json"))[0]
    rs = run_batch(path, 1, 3, {"german": "heuristic", "russian": "random"}, workers=1,
                   error_dir=str(tmp_path))
    assert rs[0].outcome == "error" and "boom in the heuristic" in rs[0].error
    assert rs[0].error.startswith("in the german player 'heuristic'")
    s = summarise(rs)
    assert s["trust"]["player_errors"] == 1 and s["trust"]["played"] == 0


# ---------------------------------------------------------------- control (last to occupy)
def test_victory_points_by_control_mark_their_objectives_and_controlled_hexes_leave_the_goals():
    """Scenario 6 scores controlled hexes: its objectives say so, and a hex the side already
    controls (empty) is no longer a goal, so its units sweep on to the next building hexes."""
    import glob

    from core.ironcross.scenario_setup import load_setup

    _sc, setup = load_setup(sorted(glob.glob("scenarios/data/scenario_6_*.json"))[0], seed=1)
    assert setup.objectives["german"] and all(o.get("control") for o in setup.objectives["german"])
    units = [inf("G1", "german"), inf("R1", "russian")]
    g = small_game(units, {"G1": "1510", "R1": "1001"})
    region = ["1505", "1506", "1507"]
    _objectives(g, [{**_occupy(region), "control": True}], [{**_occupy(region, 0.8), "control": True}],
                lambda st, game: "german" if all(st.control.get(h) == "german" for h in region) else "russian")
    g.state.control["1505"] = "german"
    advance_to(g, Phase.MOVEMENT)
    p = HeuristicPlayer(1)
    p._replan(PlayerView(g, "german"))
    assert p.maps.goal == {"1506", "1507"}


def test_8_65_an_afv_blocked_by_a_wreck_pushes_it_out_of_its_way():
    """A narrow valley: the AFV's way north runs through a wreck between marsh hexes (5 MP and a
    1 in 6 chance of immobilisation each, 8.55). It stays put and, at the end of the Movement
    Phase, pushes the wreck aside to enter its hex (8.65)."""
    m = make_map(cols=(14, 16), rows=(1, 12), marsh=["1407", "1408", "1607", "1608", "1507"])
    g = small_game([afv("GT", "german"), inf("R1", "russian", pr=6)], {"GT": ("1509", False, 1), "R1": "1401"},
                   hexmap=m)
    g.state.wrecks["1508"] = 1
    _objectives(g, [_occupy(["1503"])], [],
                lambda st, game: "german" if any(u.hex == "1503" for u in st.units_of("german")) else "russian")
    advance_to(g, Phase.MOVEMENT)
    start = len(g.events)
    _play_phase(g, {"german": HeuristicPlayer(1), "russian": _HoldFire()}, Phase.MOVEMENT, 1)
    pushes = [e for e in g.events[start:] if e["kind"] == "push_wreck"]
    assert pushes and pushes[0]["wreck"] == "1508"


def test_17_0_a_defender_never_assaults_out_of_the_objective_hex_it_holds():
    """17.0 a moves the assaulting units into the assaulted hex: Germans holding their objective
    1505 keep at least one unit in it, however good the odds against a Russian next door (the
    Scenario 1 replays: the farmhouse emptied by assaults out of it)."""
    units = [inf(f"G{i}", "german", assault=5, pr=10) for i in range(3)]
    units += [inf("R1", "russian", assault=1, pr=5)]
    g = small_game(units, {"G0": "1505", "G1": "1505", "G2": "1505", "R1": "1506"}, length=6)
    _objectives(g, [_occupy(["1505"])], [_occupy(["1505"])],
                lambda st, game: "german" if any(u.hex == "1505" for u in st.units_of("german")) else "russian")
    p = HeuristicPlayer(5)
    advance_to(g, Phase.MOVEMENT, sub="assault_designation")
    n = 0
    while g.state.phase is Phase.MOVEMENT and g.current_side() == "german" and n < 20:
        a = p.choose(PlayerView(g, "german"), "german", g.legal_actions())
        g.apply(a)
        n += 1
        if isinstance(a, EndPhase):
            break
    assert p.posture == "defend"
    # a side that holds does not sortie from the objective at all (not even leaving one man)
    assert all(u.assault_hex is None for u in g.units.values() if u.side == "german" and u.hex == "1505")


def test_17_0_an_attacker_may_assault_from_a_held_objective_into_an_enemy_held_one():
    """The same odds against an enemy-held goal hex: giving up a held objective hex for another
    objective is allowed (the assault is marked)."""
    units = [inf(f"G{i}", "german", assault=5, pr=10) for i in range(3)]
    units += [inf("R1", "russian", assault=1, pr=5)]
    g = small_game(units, {"G0": "1505", "G1": "1505", "G2": "1505", "R1": "1506"}, length=6)
    both = ["1505", "1506"]
    _objectives(g, [_occupy(both)], [_occupy(both)],
                lambda st, game: "german" if all(any(u.hex == h for u in st.units_of("german")) for h in both)
                else "russian")
    p = HeuristicPlayer(5)
    advance_to(g, Phase.MOVEMENT, sub="assault_designation")
    a = p.choose(PlayerView(g, "german"), "german", g.legal_actions())
    assert isinstance(a, DesignateAssault) and a.target == "1506"


def test_19_24_no_unit_walks_into_a_known_ap_minefield_where_own_units_already_stand():
    """Known AP mines attack every infantry unit in the hex each time a unit enters (19.24): a
    German goes onto the mined objective hex while it is empty, but not once two Germans stand
    there (each entry would attack them too; Scenario 6's replays: 14 Germans into one mined hex,
    one by one)."""
    def plan(with_men: bool):
        units = [inf("G1", "german"), inf("G2", "german"), inf("G3", "german"), inf("R1", "russian", pr=6)]
        where = {"G3": "1510", "R1": "1001"}
        where.update({"G1": "1508", "G2": "1508"} if with_men else {"G1": "1512", "G2": "1512"})
        g = small_game(units, where)
        g.state.mines["1508"] = {"side": "russian", "ap": 4, "at": 0, "revealed_ap": True}
        _objectives(g, [_occupy(["1508"])], [],
                    lambda st, game: "german" if any(u.hex == "1508" for u in st.units_of("german")) else "russian")
        advance_to(g, Phase.MOVEMENT)
        p = HeuristicPlayer(2)
        v = PlayerView(g, "german")
        p.choose(v, "german", g.legal_actions())   # plans the Player Turn
        return p, v, p._plan(v, [g.units["G3"]], 6.0, False)

    _p, _v, alone = plan(False)
    assert alone[1] == "1508"
    p, v, crowded = plan(True)
    assert crowded[1] != "1508"
    from core.ironcross.ai.movement import _ap_mine_loss
    g3 = p._gprops([v.unit("G3")])
    g3["occ"] = p._position_context(v, {"G3"})[0]
    assert p._mine_crowd_loss(v, g3, "1508") == pytest.approx(2 * _ap_mine_loss(4))


@pytest.mark.parametrize("seed", [1, 2, 5])
def test_19_22_a_minefield_revealed_in_the_phase_reaches_the_plans_of_the_groups_still_to_move(seed):
    """Four Germans head one after another up a one-hex-wide map through the unknown AP minefield
    1508 to their goal 1503. The first to enter reveals it (19.22); the others, whose plans were
    made while it was unknown, must plan again: none enters it in the same Movement Phase (each
    entry would attack every unit there, 19.24; Scenario 6 game 16: 18 detonations in 3014)."""
    units = [inf(u, "german") for u in ("G1", "G2", "G3", "G4")] + [inf("R1", "russian", pr=6)]
    g = small_game(units, {"G1": "1510", "G2": "1510", "G3": "1511", "G4": "1512", "R1": "1501"},
                   hexmap=make_map(cols=(15, 15), rows=(1, 12)), length=3, seed=seed)
    g.state.mines["1508"] = {"side": "russian", "ap": 4, "at": 0}
    _objectives(g, [_occupy(["1503"])], [],
                lambda st, game: "german" if any(u.hex == "1503" for u in st.units_of("german")) else "russian")
    advance_to(g, Phase.MOVEMENT)
    start = len(g.events)
    _play_phase(g, {"german": HeuristicPlayer(2), "russian": HeuristicPlayer(3)}, Phase.MOVEMENT, 1)
    ev = g.events[start:]
    revealed = [e for e in ev if e["kind"] == "mines_revealed" and e["hex"] == "1508"]
    assert len(revealed) == 1  # the first unit in; nobody after it
    assert sum(1 for e in ev if e["kind"] == "moved" and e["to"] == "1508") == 1
    assert sum(1 for e in ev if e["kind"] == "moved") >= 5  # the others still moved up to it


def _stalled_before_a_minefield(mine_caution: int, men_in_the_mines: bool):
    """A one-hex-wide map: the way to the German goal 1503 leads through the known AP minefield
    1508 (two PINNED Germans in it, or none); G3 behind it at 1510 stood still four Movement Phases
    (its losses are discounted: :meth:`MovementMixin._risk_weight`). The plan of G3 (6 MPs)."""
    from core.ironcross.ai.settings import BehaviorSettings
    from core.ironcross.state import Morale
    units = [inf("G1", "german"), inf("G2", "german"), inf("G3", "german"), inf("R1", "russian", pr=6)]
    where = {"G3": "1510", "R1": "1501"}
    where.update({"G1": "1508", "G2": "1508"} if men_in_the_mines else {"G1": "1512", "G2": "1512"})
    g = small_game(units, where, hexmap=make_map(cols=(15, 15), rows=(1, 12)), length=3)
    for uid in ("G1", "G2"):
        g.units[uid].morale = Morale.PINNED  # 19.27: they may not move on
    g.state.mines["1508"] = {"side": "russian", "ap": 4, "at": 0, "revealed_ap": True}
    _objectives(g, [_occupy(["1503"])], [],
                lambda st, game: "german" if any(u.hex == "1503" for u in st.units_of("german")) else "russian")
    advance_to(g, Phase.MOVEMENT)
    p = HeuristicPlayer(2, settings=BehaviorSettings(mine_caution=mine_caution))
    v = PlayerView(g, "german")
    p.choose(v, "german", g.legal_actions())  # plans the Player Turn
    p._unit_stalls = {"G3": 4}
    return p._plan(v, [g.units["G3"]], 6.0, False)[1]


def test_19_24_mine_caution_keeps_a_stalled_attacker_out_of_a_minefield_where_own_units_stand():
    """A group that stood still accepts more risk, and by default that discounts known mines too:
    the stalled G3 enters the mined hex on its way, although each entry attacks the two PINNED
    Germans there again (19.24; Scenario 6: 18 detonations in one hex, 19 Germans lost). With
    ``mine_caution`` 1 the attack on the men already there keeps its full weight: G3 waits in front
    of the minefield while they are in it, and enters it when it is empty. With 2 its own mine
    losses keep the full weight too, and it does not enter even the empty minefield."""
    assert _stalled_before_a_minefield(0, True) == "1508"
    assert _stalled_before_a_minefield(1, True) == "1509"
    assert _stalled_before_a_minefield(1, False) == "1508"
    assert _stalled_before_a_minefield(2, True) == "1509"
    assert _stalled_before_a_minefield(2, False) == "1509"


# ---------------------------------------------------------------- goals far away, few turns left
def _two_regions_game(units, where, length=3):
    """Germans must keep Russians out of a far region (row 2) and a near one (row 10)."""
    far, near = ["1402", "1502", "1602"], ["1410", "1510", "1610"]
    g = small_game(units, where, length=length)
    _objectives(g, [_clear(far), _clear(near)], [_occupy(far), _occupy(near)],
                lambda st, game: "russian" if any(u.hex in far + near for u in st.units_of("russian") if u.on_map)
                else "german")
    return g, far, near


def test_8_1_the_remotest_region_to_hold_is_manned_first():
    """Four Germans at the south edge, two regions of three hexes to keep clear of a Russian who
    can reach both: the far one (no one could man it later) gets its three, the near one (on the
    way, manned in time by anyone) what is left -- not the other way round (Scenario 5: the near
    hill held by eight Germans all game, the far hills lost)."""
    units = [inf(f"G{i}", "german") for i in range(4)] + [inf("R1", "russian", pr=6)]
    g, far, near = _two_regions_game(units, {**{f"G{i}": "1512" for i in range(4)}, "R1": "1906"})
    p = HeuristicPlayer(1)
    advance_to(g, Phase.MOVEMENT)
    p.choose(PlayerView(g, "german"), "german", g.legal_actions())
    assert p.posture == "attack"  # R1 could still walk in
    cl = {i: set(c) for i, c in enumerate(p.maps.clusters)}
    i_far = next(i for i, c in cl.items() if c == set(far))
    i_near = next(i for i, c in cl.items() if c == set(near))
    to = [p._assign[f"G{i}"] for i in range(4)]
    assert to.count(i_far) == 3 and to.count(i_near) == 1


def test_8_1_last_turn_s_goal_does_not_hold_a_far_unit_where_a_much_nearer_one_is_free():
    """A unit's goal cluster of last turn counts as nearer, but not so much that a unit 7 MP away
    keeps it while one 2 MP away would go 6 MP to the other cluster."""
    units = [inf("GN", "german"), inf("GF", "german"), inf("R1", "russian", pr=6)]
    g = small_game(units, {"GN": "1505", "GF": "1510", "R1": "1901"})
    x, y = frozenset({"1503"}), frozenset({"1511"})
    _objectives(g, [_clear(x), _clear(y)], [], lambda st, game: "german")
    advance_to(g, Phase.MOVEMENT)
    p = HeuristicPlayer(1)
    v = PlayerView(g, "german")
    p.choose(v, "german", g.legal_actions())
    p.maps.set_goals(v, set(), set(), set(x | y), [x, y])
    p._n_attack_clusters, p._at_need = 0, [(0.0, 0), (0.0, 0)]
    p._prev_clusters, p._assign = [x, y], {"GF": 0}  # last turn GF went for 1503
    assign = p._allocate(v, [x, y], [1.0, 1.0])
    assert assign == {"GN": 0, "GF": 1}


def test_17_13_an_enemy_tank_on_an_objective_gets_the_units_with_an_at_factor():
    """A Russian tank holds an objective hex: no assault can clear it (17.13), so the German tank
    is sent there (its AT chance, 12.3) with one rifleman, and the other riflemen go to the region
    still to hold instead of piling up against a tank they cannot hurt."""
    units = [inf(f"G{i}", "german") for i in range(4)] + [afv("GT", "german", at=10, frontal=5)]
    units += [afv("RT", "russian", weapon="BT7M", at=11, frontal=2, ma=12), inf("R1", "russian", pr=6)]
    g, far, near = _two_regions_game(units, {**{f"G{i}": "1506" for i in range(4)}, "GT": "1512",
                                             "RT": ("1502", False, 4), "R1": "1907"}, length=6)
    p = HeuristicPlayer(1)
    advance_to(g, Phase.MOVEMENT)
    p.choose(PlayerView(g, "german"), "german", g.legal_actions())
    i_att = next(i for i, c in enumerate(p.maps.clusters) if "1502" in c and "1502" in p.maps.attack)
    assert p._assign["GT"] == i_att
    assert sum(1 for i in range(4) if p._assign[f"G{i}"] == i_att) <= 1


def test_12_16_a_tank_values_a_shot_at_an_enemy_tank_holding_an_objective():
    """An AFV's position is worth the chance of destroying, from there, an enemy AFV that holds an
    objective hex (12.16 unlimited range, LOS, 12.3): the same hex is worth that much more than
    when the enemy there is a rifleman (who can be assaulted instead)."""
    from core.ironcross.ai.evaluation import at_kill_probability

    def value(enemy):
        units = [afv("GT", "german", at=10, frontal=5), enemy, inf("R2", "russian", pr=6)]
        g = small_game(units, {"GT": "1512", enemy.id: ("1503", False, 4) if enemy.is_afv else "1503", "R2": "1901"})
        _objectives(g, [_clear(["1503"])], [], lambda st, game: "russian")
        advance_to(g, Phase.MOVEMENT)
        p = HeuristicPlayer(1)
        v = PlayerView(g, "german")
        p.choose(v, "german", g.legal_actions())
        gp = p._gprops([v.unit("GT")])
        gp["w"] = p._pressure(v, gp, "1512")
        return p, v, p._pos_value(v, gp, "1509", False, [])

    p, v, with_tank = value(afv("RT", "russian", weapon="BT7M", at=0, frontal=2, ma=12))
    _p, _v, with_man = value(inf("RT", "russian", pr=6))
    pk = at_kill_probability(10, 2, 2, False)
    assert p._at_shot(v, "1509", 10) == pytest.approx(pk)
    assert with_tank - with_man == pytest.approx(p._urg(v) * pk)


def test_an_attacker_that_stood_still_away_from_its_goal_accepts_more_risk():
    """Per unit: an attacker that stood in the same hex through its last Movement Phase while away
    from its goal weighs expected losses 0.6 times as much (twice: 0.36); once it moves, as before."""
    units = [inf("G1", "german"), inf("R1", "russian", pr=6)]
    g = small_game(units, {"G1": "1510", "R1": "1901"}, length=6)
    _objectives(g, [_occupy(["1503"])], [],
                lambda st, game: "german" if any(u.hex == "1503" for u in st.units_of("german")) else "russian")
    advance_to(g, Phase.MOVEMENT)
    p = HeuristicPlayer(1)
    v = PlayerView(g, "german")
    p.choose(v, "german", g.legal_actions())
    assert p.posture == "attack"

    def weight():
        gp = p._gprops([v.unit("G1")])
        gp["press"] = 0.0
        return p._risk_weight(v, gp)

    base = weight()
    p._note_unit_stalls(v)  # the next own Movement Phase: G1 still in 1510
    assert weight() == pytest.approx(0.6 * base)
    p._note_unit_stalls(v)
    assert weight() == pytest.approx(0.36 * base)
    g.units["G1"].hex = "1509"
    v = PlayerView(g, "german")
    p._note_unit_stalls(v)
    assert weight() == pytest.approx(base)


def test_8_23_before_the_enemy_s_last_move_only_the_hexes_it_can_still_enter_are_guarded():
    """The Game's last Player Turn, the enemy's last move to come: of the hexes to keep clear, the
    Germans guard those a Russian can still enter in one Movement Phase (8.1, 8.5) -- 1403 next to
    him, and 1503 which a German holds (he would walk in if it left) -- not 1509, out of his reach."""
    units = [inf("G1", "german"), inf("G2", "german"), inf("R1", "russian", pr=6)]
    region = ["1403", "1503", "1509"]
    g = small_game(units, {"G1": "1503", "G2": "1512", "R1": "1402"}, length=1)
    _objectives(g, [_clear(region)], [_occupy(region)],
                lambda st, game: "russian" if any(u.hex in region for u in st.units_of("russian") if u.on_map)
                else "german")
    advance_to(g, Phase.MOVEMENT)
    p = HeuristicPlayer(1)
    v = PlayerView(g, "german")
    p.choose(v, "german", g.legal_actions())
    assert p._enemy_moves_left(v) == 1
    assert p.maps.guard == {"1403", "1503"}
    # two moves left: every hex of the region is still to guard
    g2 = small_game([inf("G1", "german"), inf("G2", "german"), inf("R1", "russian", pr=6)],
                    {"G1": "1503", "G2": "1512", "R1": "1402"}, length=2)
    _objectives(g2, [_clear(region)], [_occupy(region)], lambda st, game: "german")
    advance_to(g2, Phase.MOVEMENT)
    p2 = HeuristicPlayer(1)
    p2.choose(PlayerView(g2, "german"), "german", g2.legal_actions())
    assert p2.maps.guard == set(region)


def test_8_21_on_the_last_turn_an_attacker_off_its_goal_hex_moves_rather_than_support_fires():
    """Support Fire holds the firer in its hex (8.21): on the Game's last turn an attacker not on
    its goal hex (even one hex away) counts that as a high cost, earlier only when far off."""
    units = [inf("G1", "german"), inf("R1", "russian", pr=6)]
    for length, cost in ((1, 1.5), (3, 0.05)):
        g = small_game(units if length == 1 else [inf("G1", "german"), inf("R1", "russian", pr=6)],
                       {"G1": "1504", "R1": "1901"}, length=length)
        _objectives(g, [_occupy(["1503"])], [],
                    lambda st, game: "german" if any(u.hex == "1503" for u in st.units_of("german")) else "russian")
        p = HeuristicPlayer(1)
        v = PlayerView(g, "german")
        assert g.state.phase is Phase.SUPPORT_FIRE
        p._replan(v)
        p._last_turn = v.turn >= v.game_length
        assert p.posture == "attack"
        assert p._fire_cost(v, v.unit("G1"), Phase.SUPPORT_FIRE, False) == cost


def test_8_1_movement_rates_come_from_the_engine_s_allowance_chart():
    """The strategy's Movement Points a phase are the engine's (8.11-8.15, through the view) for
    the unit once NORMAL: a PINNED rifleman 6 (the view says 3 now), a BT7 12, an immobilised AFV 0."""
    from core.ironcross.ai.strategy import _mp_per_turn
    from core.ironcross.state import Morale

    units = [inf("G1", "german"), afv("RB", "russian", weapon="BT7M", ma=12), afv("RT", "russian")]
    g = small_game(units, {"G1": "1510", "RB": ("1505", False, 4), "RT": ("1605", False, 4)})
    g.units["G1"].morale = Morale.PINNED
    g.units["RT"].immobilized = True
    v = PlayerView(g, "german")
    assert v.movement_allowance(v.unit("G1")) == (3, False)
    assert _mp_per_turn(v, v.unit("G1")) == 6.0
    assert _mp_per_turn(v, v.unit("RB")) == 12.0
    assert _mp_per_turn(v, v.unit("RT")) == 0.0


def test_17_0_an_attacker_does_not_assault_out_of_a_held_objective_leaving_one_man():
    """An attacker (behind: it must also take 1508) holds 1505 with two men: neither sorties into
    the Russian's non-objective hex 1506, which would leave one man to hold 1505 (Scenario 1's
    balance replays); with four men there, two may go."""
    def first_mark(n):
        units = [inf(f"G{i}", "german", assault=5, pr=10) for i in range(n)]
        units += [inf("R1", "russian", assault=1, pr=5), inf("R2", "russian", pr=6)]
        g = small_game(units, {**{f"G{i}": "1505" for i in range(n)}, "R1": "1506", "R2": "1508"}, length=6)
        goals = ["1505", "1508"]
        _objectives(g, [_occupy(goals)], [_occupy(goals)],
                    lambda st, game: "german" if all(any(u.hex == h for u in st.units_of("german")) for h in goals)
                    else "russian")
        p = HeuristicPlayer(5)
        advance_to(g, Phase.MOVEMENT, sub="assault_designation")
        a = p.choose(PlayerView(g, "german"), "german", g.legal_actions())
        assert p.posture == "attack"
        return a

    assert first_mark(2) == EndPhase()
    a = first_mark(4)
    assert isinstance(a, DesignateAssault) and a.target == "1506" and len(a.units) <= 2


# ---------------------------------------------------------------- 3.13: stand UP to move
def _down_stack_on_a_road(settings):
    """Three German riflemen DOWN on a road that runs north to the hex they must occupy (11 hexes
    off), no enemy in sight: one German Movement Phase."""
    from core.ironcross.ai.settings import parse_settings

    road = [f"15{r:02d}" for r in range(12, 0, -1)]
    m = make_map(cols=(10, 20), rows=(1, 12), roads=[road])
    units = [inf(f"G{i}", "german") for i in range(3)] + [inf("R1", "russian")]
    g = small_game(units, {**{f"G{i}": ("1512", True, None) for i in range(3)}, "R1": "1001"}, hexmap=m, length=6)
    _objectives(g, [_occupy(["1501"])], [],
                lambda st, game: "german" if any(u.hex == "1501" for u in st.units_of("german")) else "russian")
    advance_to(g, Phase.MOVEMENT)
    start = len(g.events)
    _play_phase(g, {"german": HeuristicPlayer(2, parse_settings(settings)), "russian": _HoldFire()}, Phase.MOVEMENT, 1)
    return g, g.events[start:]


def test_3_13_an_attacking_stack_down_on_a_road_stands_up_and_moves_at_the_road_rate():
    """3.13: standing UP costs 2 MP; 8.52: the road rate (1/2 MP a hex) is for UP units only. With
    6 MP (8.11) a DOWN stack crawls 3 hexes at 2 MP a hex; standing UP first it goes 4 road hexes
    for 2 MP and may still go DOWN there (2 MP)."""
    g, events = _down_stack_on_a_road("stand_up_to_move=1")
    ups = [e for e in events if e["kind"] == "state_change" and e.get("down") is False]
    assert ups, "the stack did not stand UP on the move"
    for i in range(3):
        u = g.units[f"G{i}"]
        assert _d(u.hex, "1501") <= 7, f"{u.id} stopped at {u.hex}"


def test_3_13_without_the_setting_the_stack_plans_with_its_down_costs():
    g, events = _down_stack_on_a_road("stand_up_to_move=0")
    assert not [e for e in events if e["kind"] == "state_change" and e.get("down") is False]
    for i in range(3):
        assert _d(g.units[f"G{i}"].hex, "1501") >= 8


# ---------------------------------------------------------------- time pressure: turns to assault
def test_17_0_assault_margin_counts_turns_to_fire_and_assault_for_an_enemy_held_cluster_only():
    """``assault_margin`` adds Game Turns to the march an attacker needs to an enemy-held goal
    cluster (an enemy there is not cleared on arrival: fire, then assault, 17.0): the pressure,
    and so the progress weight, grow; a cluster to hold is untouched."""
    from core.ironcross.ai.settings import parse_settings

    def pressure(settings, hexes):
        units = [inf("G1", "german"), inf("R1", "russian")]
        g = small_game(units, {"G1": "1512", "R1": "1501"}, length=6)
        _objectives(g, [_occupy(hexes)], [],
                    lambda st, game: "german" if any(u.hex in hexes for u in st.units_of("german")) else "russian")
        advance_to(g, Phase.MOVEMENT)
        p = HeuristicPlayer(1, parse_settings(settings))
        v = PlayerView(g, "german")
        p.choose(v, "german", g.legal_actions())
        gp = p._gprops([g.units["G1"]])
        w = p._pressure(v, gp, "1512")
        return w, gp["press"]

    w0, p0 = pressure("assault_margin=0", ["1501"])        # held by R1: a cluster to attack
    w1, p1 = pressure("assault_margin=1", ["1501"])
    assert p1 > p0 and w1 > w0
    h0 = pressure("assault_margin=0", ["1505"])             # empty: a cluster to occupy, no assault
    h1 = pressure("assault_margin=1", ["1505"])
    assert h0 == h1


def _last_turn_fire_choice(settings: str, length: int):
    """A German rifle squad (two men, no facing) in Support Fire with two targets in the open at the
    same range: two riflemen in 1502, far from any goal hex, and one rifleman in 1508, next to the
    goal hex 1509 the German must keep clear. Game length ``length`` (1: this is the last Game Turn)."""
    from core.ironcross.ai.settings import parse_settings

    units = [inf("G1", "german"), inf("G2", "german"), inf("R1", "russian"), inf("R2", "russian"),
             inf("R3", "russian")]
    g = small_game(units, {"G1": "1505", "G2": "1505", "R1": "1502", "R2": "1502", "R3": "1508"}, length=length)
    _objectives(g, [_clear(["1509"])], [_occupy(["1509"])], lambda st, game: "russian")
    assert g.state.phase is Phase.SUPPORT_FIRE and g.current_side() == "german"
    acts = g.legal_actions()
    assert {a.target for a in acts if isinstance(a, Fire)} == {"1502", "1508"}
    a = HeuristicPlayer(3, parse_settings(settings)).choose(PlayerView(g, "german"), "german", acts)
    assert isinstance(a, Fire) and set(a.firers) == {"G1", "G2"}
    return a.target


def test_last_turn_fire_goes_to_the_enemy_one_move_from_the_decisive_hex():
    """On the last Game Turn a lone rifleman next to the hex that decides the game (one move, or a
    Reaction Movement Phase move, puts him on it) is worth more than two men far from it, with
    ``near_objective_target_factor_last_turn`` 3; at its default (1.3, as on other turns) the
    stack of two is the better target, and before the last turn the setting changes nothing."""
    assert _last_turn_fire_choice("near_objective_target_factor_last_turn=3", length=1) == "1508"
    assert _last_turn_fire_choice("near_objective_target_factor_last_turn=1.3", length=1) == "1502"
    assert _last_turn_fire_choice("near_objective_target_factor_last_turn=3", length=3) == "1502"


def _allotting_player(settings, units, placements: dict, length: int, x: frozenset, y: frozenset,
                      attack: frozenset):
    """(German heuristic player, its view) in the first Movement Phase of a game of ``length`` Game
    Turns whose goal clusters are ``x`` and ``y`` (both to clear of Russians), ready for
    ``_allocate``: the ``attack`` hexes enemy-held (the clusters meeting them first), the rest
    guarded, no allotment of an earlier turn."""
    g = small_game(units, placements, length=length)
    _objectives(g, [_clear(x), _clear(y)], [], lambda st, game: "russian")
    advance_to(g, Phase.MOVEMENT)
    p = HeuristicPlayer(1, settings=settings)
    v = PlayerView(g, "german")
    p.choose(v, "german", g.legal_actions())
    p.maps.set_goals(v, set(), set(attack), set(x | y) - set(attack), [x, y])
    p._n_attack_clusters, p._at_need = sum(1 for c in (x, y) if c & attack), [(0.0, 0), (0.0, 0)]
    p._prev_clusters, p._assign = [], {}
    return p, v


def test_8_1_attack_in_time_sends_against_an_enemy_held_hex_only_units_that_get_there_before_the_end():
    """The last Game Turn: a Russian holds the goal hex 1102, which wants two units. The nearest
    German is 2 hexes away; the next ones 10 and more, beyond one Movement Phase (8.1). By default
    the nearest two go, the far one arriving after the game ends (Scenario 5's lone Russian on
    Hill N, left to units that could not reach it); with ``attack_in_time`` the far units go to the
    hex still to hold that they can reach instead, and the need waits for a unit that can."""
    from core.ironcross.ai.settings import BehaviorSettings

    def allot(settings):
        units = [inf("GA", "german"), inf("GF", "german"), inf("GH", "german"), inf("R1", "russian", pr=6)]
        x, y = frozenset({"1102"}), frozenset({"1912"})
        p, v = _allotting_player(settings, units, {"GA": "1104", "GF": "1911", "GH": "2011", "R1": "1102"}, 1,
                                 x, y, attack=x)
        assert p.maps.goal_mp("1911", False, 0) > 9  # beyond 1.5 Movement Phases of 6 MP
        return p._allocate(v, [x, y], [2.0, 1.0])

    default = allot(BehaviorSettings())
    assert default["GA"] == 0 and sorted(u for u, i in default.items() if i == 0) == ["GA", "GF"]
    timed = allot(BehaviorSettings(attack_in_time=1))
    assert timed == {"GA": 0, "GF": 1, "GH": 1}


def test_attack_remote_first_gives_the_far_enemy_held_hex_its_nearest_unit_before_the_near_one_fills_up():
    """Two goal hexes held by Russians, both to be cleared: 1102 wants two units, 1902 one. GA and
    GB stand 1 and 2 hexes from 1102; GB is also the nearest German to 1902 (6 hexes), GC 3 and 8
    hexes away. By default the nearest (unit, hex) pairs go first: GA and GB fill 1102 and 1902 is
    left to GC, the farthest (Scenario 5's far Hill P, left to units from the other end of the
    map). With ``attack_remote_first`` 1902, whose nearest unit stands farther than 1102's, takes
    GB first, and 1102 takes GA and GC."""
    from core.ironcross.ai.settings import BehaviorSettings

    def allot(settings):
        units = [inf("GA", "german"), inf("GB", "german"), inf("GC", "german"), inf("R1", "russian", pr=6),
                 inf("R2", "russian", pr=6)]
        x, y = frozenset({"1102"}), frozenset({"1902"})
        p, v = _allotting_player(settings, units, {"GA": "1103", "GB": "1303", "GC": "1105", "R1": "1102",
                                                   "R2": "1902"}, 6, x, y, attack=x | y)
        assert p.maps.goal_mp("1303", False, 1) < p.maps.goal_mp("1105", False, 1)
        assert p.maps.goal_mp("1303", False, 0) < p.maps.goal_mp("1303", False, 1)
        return p._allocate(v, [x, y], [2.0, 1.0])

    assert allot(BehaviorSettings()) == {"GA": 0, "GB": 0, "GC": 1}
    assert allot(BehaviorSettings(attack_remote_first=1)) == {"GA": 0, "GB": 1, "GC": 0}


def test_8_11_17_0_guard_full_reach_counts_the_enemy_s_reaction_move_and_assault_step():
    """The German's last Player Turn: the hexes of a region to keep clear that a Russian rifleman
    can still enter. One Movement Phase is 6 MP (8.11: the hex 6 away). He also has his Reaction
    Movement in this German Player Turn (3 MP more: 9 hexes) and may assault from the last hex he
    reaches into an adjacent one, empty or held (17.0: the 10th hex); the 11th stays out of reach.
    Scenario 5's Germans left such hexes empty, and the Russians walked onto the hills."""
    from core.ironcross.ai.settings import BehaviorSettings

    def reach(settings):
        units = [inf("G1", "german"), inf("R1", "russian", pr=6)]
        g = small_game(units, {"G1": "2012", "R1": "1501"}, length=1)
        region = {"1507", "1510", "1511", "1512"}
        _objectives(g, [_clear(sorted(region))], [], lambda st, game: "german")
        advance_to(g, Phase.MOVEMENT)
        p = HeuristicPlayer(1, settings=settings)
        v = PlayerView(g, "german")
        assert v.is_phasing
        return p._reachable_by_enemy(v, region, {"2012"})

    assert reach(BehaviorSettings()) == {"1507"}
    assert reach(BehaviorSettings(guard_full_reach=1)) == {"1507", "1510", "1511"}


def _marked_against_1506(russians: int = 1, russian_assault: int = 1, german_assault: int = 5):
    """The last Player Turn (the Russian's, length 1): three Germans (no AP factor: no Defensive
    Fire) in 1505 keep the region 1505-1506 clear; ``russians`` riflemen (PR 12: they pass their
    17.12 PC) in 1507 are marked to assault the empty 1506 at the end of their Movement Phase (17.0)."""
    units = [inf(f"G{i}", "german", ap=0, assault=german_assault, pr=10) for i in range(3)]
    reds = [f"R{i + 1}" for i in range(russians)]
    units += [inf(r, "russian", assault=russian_assault, pr=12) for r in reds]
    g = small_game(units, {"G0": "1505", "G1": "1505", "G2": "1505", **{r: "1507" for r in reds}}, length=1)
    region = ["1505", "1506"]
    _objectives(g, [_clear(region)], [_occupy(region)],
                lambda st, game: "russian" if any(u.hex in region for u in st.units_of("russian")) else "german")
    advance_to(g, Phase.MOVEMENT, sub="assault_designation", player_turn=2)
    g.apply(DesignateAssault(tuple(reds), "1506"))
    return g


def _after_reaction(g, settings) -> list[str]:
    """Play the German Reaction Movement Phase of :func:`_marked_against_1506`'s game ``g``
    with ``settings``: the Germans in 1506 then."""
    advance_to(g, Phase.REACTION_MOVEMENT, player_turn=2)
    p = HeuristicPlayer(5, settings=settings)
    n = 0
    while g.state.phase is Phase.REACTION_MOVEMENT and g.current_side() == "german" and \
            g._sub != "assault_designation":
        g.apply(p.choose(PlayerView(g, "german"), "german", g.legal_actions()))
        n += 1
        assert n < 50
    return sorted(u.id for u in g.state.units_of("german") if u.hex == "1506")


def test_17_0_counter_assault_into_the_empty_goal_hex_the_enemy_is_marked_to_assault():
    """The last Player Turn (the Russian's): a Russian rifleman is marked to assault 1506, an empty
    hex of the region the Germans must keep clear (17.0: his marker is on the map). The phasing
    player's assaults come first (6.0 G), so he would stand in 1506 at the end (Scenario 5's hill
    hexes, lost so in 6 of 14 games against random). With ``counter_assault`` the three Germans in
    1505 are marked to assault 1506 too: they meet him there after his assault. Without it they
    never leave the held hex 1505. (The Germans have no AP factor, so no Defensive Fire stops
    him first, and his PR 12 passes his assault PC, 17.12.)"""
    from core.ironcross.ai.settings import BehaviorSettings

    def designation(settings):
        g = _marked_against_1506()
        advance_to(g, Phase.REACTION_MOVEMENT, sub="assault_designation", player_turn=2)
        assert g.current_side() == "german"
        p = HeuristicPlayer(5, settings=settings)
        return g, p, p.choose(PlayerView(g, "german"), "german", g.legal_actions())

    assert designation(BehaviorSettings(counter_assault=0))[2] == EndPhase()
    g, p, a = designation(BehaviorSettings(counter_assault=1))
    assert isinstance(a, DesignateAssault) and a.target == "1506" and len(a.units) == 3
    g.apply(a)
    _play_phase(g, {"german": p, "russian": HeuristicPlayer(6)}, Phase.ASSAULT, 2)
    # the Russian assaults first and enters the empty hex (17.0 a); the Germans' assault follows
    fights = [(e["kind"], e.get("side") or e.get("winner")) for e in g.events
              if e["kind"] in ("assault", "assault_over") and e["target"] == "1506"]
    assert fights == [("assault", "russian"), ("assault_over", "russian"), ("assault", "german"),
                      ("assault_over", "german")]
    assert not any(u.hex == "1506" for u in g.state.units_of("russian"))


def test_17_0_counter_assault_stands_in_the_hex_the_enemy_is_marked_to_assault():
    """The same last Player Turn, in the German Reaction Movement Phase (8.11): a Russian is marked
    to assault the empty region hex 1506 (17.0). Without the setting one German steps in from
    1505 (a hex to keep clear is held by standing in it), and a lone defender may die to the
    assault fire (17.23; Scenario 5, game 72 against random). With ``counter_assault`` the hex
    wants more than twice the men marked against it: all three step in (after the assaults no
    Russian moves, so 1505 may be left)."""
    from core.ironcross.ai.settings import BehaviorSettings

    assert len(_after_reaction(_marked_against_1506(), BehaviorSettings(counter_assault=0))) == 1
    assert _after_reaction(_marked_against_1506(), BehaviorSettings(counter_assault=1)) == ["G0", "G1", "G2"]
    # the three Germans' assault fire beats the one rifleman's (17.23): with the odds gate too
    assert _after_reaction(_marked_against_1506(), BehaviorSettings(counter_assault=2)) == ["G0", "G1", "G2"]


def test_17_0_counter_assault_2_feeds_no_men_into_a_hex_the_enemy_assault_takes_anyway():
    """Six Russian riflemen (assault rating 5, PR 12) are marked to assault the empty region hex
    1506; the three Germans beside it have assault rating 1. Even all three in the hex lose the
    assault (17.23: the attackers' hits per round far outnumber theirs). ``counter_assault=1``
    still sends all three (the hex wants twice the men marked); ``counter_assault=2`` reinforces
    only while the defence is favoured (:func:`assault_odds` below 1), so the Germans keep to what
    they do without the setting and do not lose three men with the hex."""
    from core.ironcross.ai.evaluation import assault_odds
    from core.ironcross.ai.settings import BehaviorSettings

    g = _marked_against_1506(russians=6, russian_assault=5, german_assault=1)
    st = g.state
    assert assault_odds(st.units_of("russian"), st.units_of("german")) > 1.0
    none = _after_reaction(_marked_against_1506(6, 5, 1), BehaviorSettings(counter_assault=0))
    assert _after_reaction(_marked_against_1506(6, 5, 1), BehaviorSettings(counter_assault=1)) == ["G0", "G1", "G2"]
    assert _after_reaction(_marked_against_1506(6, 5, 1), BehaviorSettings(counter_assault=2)) == none
    assert len(none) < 3


def _last_move_with_two_held_goals(overrun_uncovered: int, wrecks: tuple[str, ...] = ()) -> list[tuple]:
    """The German's last Movement Phase (a one-turn game): Russians hold goal hexes 1505 (two men,
    next to four German riflemen in 1506) and 1904 (one man, out of the riflemen's reach); the
    German tank in 1508 can overrun either (unless a wreck of ``wrecks`` lies there, 9.13).
    (kind, hex, units) of the overruns and Assault markers."""
    units = [afv("GT", "german", overrun=9)] + [inf(f"G{i}", "german") for i in range(4)]
    units += [inf("R1", "russian", pr=6), inf("R2", "russian", pr=6), inf("R3", "russian", pr=6)]
    g = small_game(units, {"GT": ("1508", False, 1), **{f"G{i}": "1506" for i in range(4)},
                           "R1": "1505", "R2": "1505", "R3": "1904"}, length=1)
    goals = ["1505", "1904"]
    _objectives(g, [_clear(goals)], [_occupy(goals)],
                lambda st, game: "russian" if any(u.hex in goals for u in st.units_of("russian") if u.on_map)
                else "german")
    for h in wrecks:
        g.state.wrecks[h] = 1
    advance_to(g, Phase.MOVEMENT)
    start = len(g.events)
    from core.ironcross.ai.settings import BehaviorSettings

    german = HeuristicPlayer(1, settings=BehaviorSettings(overrun_uncovered=overrun_uncovered))
    _play_phase(g, {"german": german, "russian": HeuristicPlayer(2)}, Phase.MOVEMENT, 1)
    return [(e["kind"], e.get("hex") or e.get("target"), tuple(e.get("units") or [e.get("unit")]))
            for e in g.events[start:] if e["kind"] in ("overrun", "assault_designated")]


def test_9_0_17_0_overrun_uncovered_sends_the_last_overrun_where_no_assault_can_go():
    """``overrun_uncovered`` 1: in the last Movement Phase the tank leaves the goal hex the riflemen
    next to it will assault (17.0) and overruns the one they cannot reach (9.0), so both are
    attacked; by default it overruns the nearer, stronger stack (the objective factor alone)."""
    default = _last_move_with_two_held_goals(0)
    assert [x[1] for x in default if x[0] == "overrun"] == ["1505"]
    got = _last_move_with_two_held_goals(1)
    assert [x[1] for x in got if x[0] == "overrun"] == ["1904"]
    assert any(k == "assault_designated" and h == "1505" for k, h, _u in got)


def test_9_13_overrun_uncovered_does_not_steer_the_tank_to_a_goal_hex_with_a_wreck():
    """9.13: a hex with a wreck may not be overrun. With a wreck in 1904 the uncovered goal hex is
    no overrun target, so ``overrun_uncovered`` neither heads the tank there nor makes it pass up
    the overrun it can make: it overruns 1505, as the default does."""
    default = _last_move_with_two_held_goals(0, wrecks=("1904",))
    got = _last_move_with_two_held_goals(1, wrecks=("1904",))
    assert [x[1] for x in default if x[0] == "overrun"] == ["1505"]
    assert [x[1] for x in got if x[0] == "overrun"] == ["1505"]


@pytest.mark.parametrize("wreck,passes_up", [(False, True), (True, False)])
def test_9_13_a_plan_ending_next_to_a_wrecked_goal_hex_is_no_reason_to_pass_up_an_overrun(wreck, passes_up):
    """The check behind ``overrun_uncovered`` (the tank passes up a covered overrun on its way to an
    uncovered enemy-held goal hex) with the tank moving and its plan ending next to 1904, which one
    Russian holds: it holds while the tank may overrun 1904, not when a wreck lies there (9.13)."""
    from core.ironcross.ai.settings import BehaviorSettings
    from core.ironcross.view import PlayerView

    units = [afv("GT", "german", overrun=9)] + [inf(f"G{i}", "german") for i in range(4)]
    units += [inf("R1", "russian", pr=6), inf("R2", "russian", pr=6), inf("R3", "russian", pr=6)]
    g = small_game(units, {"GT": ("1508", False, 1), **{f"G{i}": "1506" for i in range(4)},
                           "R1": "1505", "R2": "1505", "R3": "1904"}, length=1)
    goals = ["1505", "1904"]
    _objectives(g, [_clear(goals)], [_occupy(goals)], lambda st, game: "russian")
    if wreck:
        g.state.wrecks["1904"] = 1
    advance_to(g, Phase.MOVEMENT)
    p = HeuristicPlayer(1, settings=BehaviorSettings(overrun_uncovered=1))
    p.choose(PlayerView(g, "german"), "german", g.legal_actions())  # the Player Turn's goals
    g.apply(StartMove(("GT",)))
    v = PlayerView(g, "german")
    tank = [v.unit("GT")]
    assert "1904" in p.maps.attack and "1904" not in p._covered_goal_hexes(v)
    dest = "1804"
    assert "1904" in v.neighbours(dest)
    p._plan = lambda view, units, mp, one, moving=False, stand_up=True: (1.0, dest, [dest], False, False)
    assert p._plans_uncovered_overrun(v, tank) is passes_up


def test_17_0_a_goal_hex_counts_as_covered_only_in_the_last_move_and_at_the_odds_it_needs():
    """``overrun_uncovered``: an enemy-held goal hex is left to the infantry only in the side's last
    Movement Phase and only where the riflemen next to it reach the assault odds the hex needs
    (17.0): one weak rifleman against three is no cover; with the setting off nothing is."""
    from core.ironcross.ai.settings import BehaviorSettings
    from core.ironcross.view import PlayerView

    def covered(length: int, german_men: int, assault: int, setting: int = 1) -> frozenset:
        units = [afv("GT", "german", overrun=9)] + [inf(f"G{i}", "german", assault=assault) for i in range(german_men)]
        units += [inf(f"R{i}", "russian", pr=6) for i in range(3)]
        g = small_game(units, {"GT": ("1508", False, 1), **{f"G{i}": "1506" for i in range(german_men)},
                               **{f"R{i}": "1505" for i in range(3)}}, length=length)
        _objectives(g, [_clear(["1505"])], [_occupy(["1505"])], lambda st, game: "russian")
        advance_to(g, Phase.MOVEMENT)
        # the last turn's least odds 0.3: with the default 0 any assault is enough cover
        p = HeuristicPlayer(1, settings=BehaviorSettings(overrun_uncovered=setting, assault_ratio_last_turn=0.3))
        v = PlayerView(g, "german")
        p.choose(v, "german", g.legal_actions())
        return p._covered_goal_hexes(v)

    assert covered(1, 4, 3) == {"1505"}
    assert covered(1, 1, 1) == frozenset()  # too weak to assault at the last turn's odds
    assert covered(3, 4, 3) == frozenset()  # not the last Movement Phase
    assert covered(1, 4, 3, setting=0) == frozenset()


def _last_turn_designation(units, where: dict, goals: list[str], outcome=None):
    """A one-Game-Turn game whose German Player Turn comes last, at its assault designation (17.0):
    both sides' goals are ``goals``, and the Russian wins while a Russian unit stands in one (or
    ``outcome(state, game)`` names the winner)."""
    g = small_game(units, where, length=1, first_side="russian")
    _objectives(g, [_clear(goals)], [_occupy(goals)], outcome or (
        lambda st, game: "russian" if any(u.hex in goals for u in st.units_of("russian")) else "german"))
    advance_to(g, Phase.MOVEMENT, sub="assault_designation", player_turn=2)
    return g


def _designations(p, g) -> list[tuple]:
    """Let the German player ``p`` mark assaults (17.0) until it chooses anything else: the
    (units, target hex) of each marker, in order (each applied to ``g``)."""
    got = []
    while True:
        a = p.choose(PlayerView(g, "german"), "german", g.legal_actions())
        if not isinstance(a, DesignateAssault):
            return got
        got.append((a.units, a.target))
        g.apply(a)


@pytest.mark.parametrize("ratio,assaults", [(0.3, False), (0.0, True)])
def test_17_0_assault_ratio_last_turn_0_sends_a_lone_man_at_the_last_held_goal_hex(ratio, assaults):
    """In the side's last Player Turn one rifleman next to the goal hex five Russians hold: with a
    least ratio of 0.3 he marks no assault (17.0: hopeless odds); with 0 (the default) he does, since
    after the last assaults his loss counts for nothing and the hex decides the game."""
    from core.ironcross.ai.settings import BehaviorSettings

    units = [inf("G1", "german", assault=2, pr=7)]
    units += [inf(f"R{i}", "russian", assault=5, pr=10) for i in range(5)]
    g = _last_turn_designation(units, {"G1": "1507", **{f"R{i}": "1506" for i in range(5)}}, ["1506"])
    v = PlayerView(g, "german")
    assert v.is_phasing and v.turn == v.game_length
    a = HeuristicPlayer(1, settings=BehaviorSettings(assault_ratio_last_turn=ratio)).choose(v, "german", g.legal_actions())
    assert (a == DesignateAssault(("G1",), "1506")) is assaults, a


@pytest.mark.parametrize("spread,winner_now,target", [
    (0, "russian", "1506"), (1, "russian", "1605"), (2, "russian", "1605"),
    (0, "german", "1506"), (2, "german", "1506"),
])
def test_17_0_assault_spread_sends_the_last_turns_stack_at_the_goal_hex_nobody_assaults(spread, winner_now, target):
    """The side's last Player Turn, two enemy-held goal hexes: three strong Germans are already
    marked against the lone weak Russian in 1506 (17.0); G4, next to 1506 and 1605, joins them with
    ``assault_spread`` 0 (the odds of all marked stacks, at most 3) and goes for 1605's holder with
    1 and 2 (what he adds to the odds there: nothing at 1506, whose odds are already over 3). When
    the German wins as things stand (the victory conditions name it the winner now: the defend
    posture) no enemy-held goal hex decides the game and ``assault_spread`` changes nothing: G4
    joins the three with 2 as with 0 (a defender's last turn does not send men out of their stack
    one by one)."""
    from core.ironcross.ai.settings import BehaviorSettings

    units = [inf(f"G{i}", "german", assault=5, pr=10) for i in range(1, 4)] + [inf("G4", "german", assault=3, pr=8)]
    units += [inf("R1", "russian", assault=1, pr=5), inf("R2", "russian", assault=3, pr=8)]
    outcome = (lambda st, game: "german") if winner_now == "german" else None
    g = _last_turn_designation(units, {"G1": "1507", "G2": "1507", "G3": "1507", "G4": "1606", "R1": "1506",
                                       "R2": "1605"}, ["1506", "1605"], outcome=outcome)
    three = next(a for a in g.legal_actions() if isinstance(a, DesignateAssault)
                 and sorted(a.units) == ["G1", "G2", "G3"] and a.target == "1506")
    g.apply(three)
    v = PlayerView(g, "german")
    assert v.is_phasing and v.turn == v.game_length
    p = HeuristicPlayer(1, settings=BehaviorSettings(assault_spread=spread))
    a = p.choose(v, "german", g.legal_actions())
    assert p.posture == ("defend" if winner_now == "german" else "attack")
    assert a == DesignateAssault(("G4",), target), a


@pytest.mark.parametrize("spread,marked", [
    (0, [(("G1", "G2", "G3"), "1506"), (("T",), "1506")]),
    (1, [(("G1", "G2", "G3"), "1506"), (("T",), "1506")]),
    (2, [(("G1", "G2", "G3"), "1605"), (("T",), "1506")]),
])
def test_17_0_assault_spread_2_keeps_the_only_stack_that_can_reach_a_goal_hex_for_it(spread, marked):
    """The side's last Player Turn: the stack in 1606 is next to both enemy-held goal hexes, three
    Russians in 1506 and two in 1605; T in 1507 can reach only 1506. The stack marks the richer
    1506 first with ``assault_spread`` 0 and 1, and T follows it there, so nobody assaults 1605
    (17.0: its holders decide the game); with 2 the stack counts what 1605 loses without it and
    goes there, and T takes 1506."""
    from core.ironcross.ai.settings import BehaviorSettings

    units = [inf(f"G{i}", "german", assault=5, pr=10) for i in range(1, 4)] + [inf("T", "german", assault=3, pr=8)]
    units += [inf(f"A{i}", "russian", assault=1, pr=5) for i in range(3)]
    units += [inf(f"B{i}", "russian", assault=1, pr=5) for i in range(2)]
    g = _last_turn_designation(units, {"G1": "1606", "G2": "1606", "G3": "1606", "T": "1507", "A0": "1506",
                                       "A1": "1506", "A2": "1506", "B0": "1605", "B1": "1605"}, ["1506", "1605"])
    p = HeuristicPlayer(1, settings=BehaviorSettings(assault_spread=spread))
    assert _designations(p, g) == marked


@pytest.mark.parametrize("spread,target", [(2, "1506"), (3, "1605")])
def test_17_0_assault_spread_3_prices_a_goal_hex_by_the_chance_it_is_cleared(spread, target):
    """The side's last Player Turn, two enemy-held goal hexes: G1 is marked alone against R1 in 1506
    (odds about 0.34); G4, next to both hexes, can join him (odds about 1.36) or assault R2 alone
    in 1605 (about 0.34). ``assault_spread`` 2 prices a stack by the defenders' worth times the odds
    it adds: R1 is worth more and the odds grow fourfold, so G4 joins G1 and nobody assaults 1605,
    whose holder alone decides the game as surely (24.8). With 3 every such hex is worth the same and
    a stack by the chance it adds that the hex is cleared (odds / (1 + odds)): G4 goes to 1605."""
    from core.ironcross.ai.settings import BehaviorSettings

    units = [inf("G1", "german", assault=3, pr=8), inf("G4", "german", assault=3, pr=8)]
    units += [inf("R1", "russian", assault=3, pr=9), inf("R2", "russian", assault=3, pr=7)]
    g = _last_turn_designation(units, {"G1": "1507", "G4": "1606", "R1": "1506", "R2": "1605"}, ["1506", "1605"])
    g1 = next(a for a in g.legal_actions() if isinstance(a, DesignateAssault) and a.units == ("G1",)
              and a.target == "1506")
    g.apply(g1)
    p = HeuristicPlayer(1, settings=BehaviorSettings(assault_spread=spread))
    assert _designations(p, g) == [(("G4",), target)]
    assert p.posture == "attack"


@pytest.mark.parametrize("setting,helpers,g1_goes", [
    (0, True, True), (1, True, False), (2, True, False),
    (0, False, True), (1, False, False), (2, False, True),
])
def test_17_0_guard_last_move_keeps_the_last_man_in_a_hex_the_enemy_can_still_enter(setting, helpers, g1_goes):
    """The German moves first in the game's only Game Turn, so the Russian's last Movement Phase is
    still to come. The German must keep the two-hex region 1506-1606 clear of Russians (24.8: one
    Russian there at the end decides). R1 holds 1506; G1 stands alone in 1606, R2 two hexes away
    could walk into 1606 were it empty. With ``guard_last_move`` 0 G1 is marked against 1506 (17.0 a:
    the assaulters move into it, so 1606 is left to R2); with 1 G1 stays; with 2 it stays while G2
    and G3 in 1507 (``helpers``, outside the region) can assault 1506, and goes when nobody else can."""
    from core.ironcross.ai.settings import BehaviorSettings

    units = [inf("G1", "german", assault=3, pr=8)]
    where = {"G1": "1606", "R1": "1506", "R2": "1806"}
    if helpers:
        units += [inf("G2", "german", assault=3, pr=8), inf("G3", "german", assault=3, pr=8)]
        where.update({"G2": "1507", "G3": "1507"})
    units += [inf("R1", "russian", assault=5, pr=10), inf("R2", "russian", assault=3, pr=8)]
    goals = ["1506", "1606"]
    g = small_game(units, where, length=1, first_side="german")
    _objectives(g, [_clear(goals)], [_occupy(goals)],
                lambda st, game: "russian" if any(u.hex in goals for u in st.units_of("russian")) else "german")
    advance_to(g, Phase.MOVEMENT, sub="assault_designation", player_turn=1)
    v = PlayerView(g, "german")
    assert v.is_phasing and v.turn == v.game_length and "1606" in v.neighbours("1506")
    assert hexgrid.distance(hexgrid.parse_hex_id("1806"), hexgrid.parse_hex_id("1606")) == 2
    p = HeuristicPlayer(1, settings=BehaviorSettings(guard_last_move=setting))
    marked = _designations(p, g)
    assert "1606" in p._keep_last_move                       # R2 can walk in were it empty
    assert any(t == "1506" and "G2" in us for us, t in marked) is helpers, marked
    assert any("G1" in us for us, _t in marked) is g1_goes, marked


def test_target_priority_leaves_out_a_target_far_below_the_same_firers_best():
    """``poor_target_ratio``: on the last Game Turn the lone rifleman next to the decisive hex is
    worth more than the two men far from it (``near_objective_target_factor_last_turn`` 3), but
    his expected effect alone is about half theirs (one man against two, the same dice): a ratio
    above that leaves him out and the stack of two is fired at; a ratio below keeps him."""
    last = "near_objective_target_factor_last_turn=3"
    assert _last_turn_fire_choice(f"{last},poor_target_ratio=0.7", length=1) == "1502"
    assert _last_turn_fire_choice(f"{last},poor_target_ratio=0.3", length=1) == "1508"
    assert _last_turn_fire_choice(last, length=1) == "1508"  # 0: every target kept


def _german_attacker(settings: str, units, where: dict, goal: str, *, length: int, seed: int, hexmap=None):
    """(player, view): a small game whose German must occupy ``goal`` (the Russians win while he
    has not), advanced to the German Movement Phase, and a German heuristic player of ``settings``
    that has planned it (its posture: attack)."""
    from core.ironcross.ai.settings import parse_settings

    g = small_game(units, where, hexmap=hexmap, length=length)
    _objectives(g, [_occupy([goal])], [],
                lambda st, game: "german" if any(u.hex == goal for u in st.units_of("german")) else "russian")
    advance_to(g, Phase.MOVEMENT)
    p = HeuristicPlayer(seed, parse_settings(settings))
    v = PlayerView(g, "german")
    p.choose(v, "german", g.legal_actions())
    return p, v


def test_unhurried_caution_weighs_losses_more_only_for_an_attacker_with_time_to_spare():
    """``unhurried_caution``: an attacking group with no time pressure weighs its expected fire
    losses that many times as much; the extra care fades with the pressure (half at half of
    UNHURRIED_PRESSURE) and is gone once its march needs that share of the Movement Phases left,
    where the attacker must hurry. A defender's weight and the mine weight are untouched."""
    from core.ironcross.ai.movement import UNHURRIED_PRESSURE

    def weights(settings):
        p, v = _german_attacker(settings, [inf("G1", "german"), inf("R1", "russian", pr=6)],
                                {"G1": "1510", "R1": "1901"}, "1503", length=6, seed=1)
        assert p.posture == "attack"
        out = []
        for press in (0.0, UNHURRIED_PRESSURE / 2, UNHURRIED_PRESSURE, 1.0):
            gp = p._gprops([v.unit("G1")])
            gp["press"] = press
            out.append(p._risk_weight(v, gp))
        p.posture = "defend"
        p._dc.pop("weights", None)
        gp = p._gprops([v.unit("G1")])
        return out, p._risk_weight(v, gp), p._mine_weight(v)

    base, base_def, base_mine = weights("unhurried_caution=1")
    care, care_def, care_mine = weights("unhurried_caution=2.5")
    assert care[0] == pytest.approx(2.5 * base[0])
    assert care[1] == pytest.approx(1.75 * base[1])
    assert care[2:] == pytest.approx(base[2:])
    assert (care_def, care_mine) == pytest.approx((base_def, base_mine))


def _plan_under_an_mmg(settings: str, n: int) -> tuple[str, bool, bool]:
    """``n`` Germans at 1511 bound for 1501 in a game of two Game Turns, a Russian MMG at 1505,
    woods at 1607. (end hex, end DOWN, that hex open under the MMG with cover near) of their plan
    for 6 MPs."""
    m = make_map(cols=(10, 20), rows=(1, 12), trees={"1607": 3})
    units = [inf(f"G{i}", "german") for i in range(n)] + [cw("RM", "russian", ap=8, rng=12, pr=9)]
    p, v = _german_attacker(settings, units, {**{f"G{i}": "1511" for i in range(n)}, "RM": ("1505", False, 4)},
                            "1501", length=2, seed=4, hexmap=m)
    _gain, dest, _path, down_end, _up = p._plan(v, [v.unit(f"G{i}") for i in range(n)], 6.0, False)
    return dest, down_end, p._open_under_mg(v, dest)


def test_open_stack_caution_keeps_a_stack_of_three_from_halting_up_in_the_open_under_an_mg():
    """``open_stack_caution`` (the blunder kind halted_in_open_under_mg): by default three or five
    Germans end their move UP in the open at 1406, in the MMG's range and LOS, with the woods of
    1607 within 2 hexes; with the setting they end it DOWN instead. Two Germans are no such stack:
    their plan does not change, nor does anything with the setting 0 (the default)."""
    for n in (3, 5):
        assert _plan_under_an_mmg("open_stack_caution=0", n) == ("1406", False, True)
        dest, down_end, _open = _plan_under_an_mmg("open_stack_caution=1", n)
        assert down_end and dest != "1406"
    assert _plan_under_an_mmg("open_stack_caution=4", 2) == _plan_under_an_mmg("open_stack_caution=0", 2) \
        == ("1406", False, True)


def test_open_stack_caution_looks_for_cover_on_the_map_only():
    """The cover within 2 hexes of a hex on the map's edge is looked for on the map (hexes off the
    edge have no hex id): open ground under the MMG at the top and bottom rows, with woods near or
    not."""
    m = make_map(cols=(10, 20), rows=(1, 12), trees={"1602": 3})
    units = [inf(f"G{i}", "german") for i in range(3)] + [cw("RM", "russian", ap=8, rng=12, pr=9)]
    p, v = _german_attacker("open_stack_caution=1", units, {**{f"G{i}": "1511" for i in range(3)},
                                                             "RM": ("1505", False, 4)}, "1501", length=2, seed=4, hexmap=m)
    assert [p._open_under_mg(v, h) for h in ("1501", "1601", "1512", "1012")] == [True, True, False, False]


def _plan_past_an_mmg(settings: str, length: int) -> tuple[str, list[str]]:
    """Five Germans at 1511 bound for 1501, a Russian MMG at 1505 watching the straight way, woods
    off to the side at 1709, 1710 and 1809; a game of ``length`` Game Turns. (end hex, path) of
    their plan for 6 MPs."""
    m = make_map(cols=(10, 20), rows=(1, 12), trees={"1709": 3, "1710": 3, "1809": 3})
    units = [inf(f"G{i}", "german") for i in range(5)] + [cw("RM", "russian", ap=8, rng=12, pr=9)]
    p, v = _german_attacker(settings, units, {**{f"G{i}": "1511" for i in range(5)}, "RM": ("1505", False, 4)},
                            "1501", length=length, seed=4, hexmap=m)
    _gain, dest, path, *_ = p._plan(v, [v.unit(f"G{i}") for i in range(5)], 6.0, False)
    return dest, path


def test_unhurried_caution_an_attacker_with_time_to_spare_takes_cover_off_its_way():
    """Twelve Game Turns for a march of two: with ``unhurried_caution=2.5`` the group leaves the
    straight way past the MMG for the woods at 1710; by default it walks on toward its goal in
    the MMG's sight. In a game of two Game Turns (no time to spare) both plans are the same."""
    assert _plan_past_an_mmg("unhurried_caution=1", 12)[0] == "1507"
    assert _plan_past_an_mmg("unhurried_caution=2.5", 12) == ("1710", ["1511", "1611", "1710"])
    assert _plan_past_an_mmg("unhurried_caution=2.5", 2) == _plan_past_an_mmg("unhurried_caution=1", 2)


def _last_move_two_goals_one_covered(approach_spread: float) -> tuple[dict, list]:
    """The German's last Movement Phase (a one-turn game): one Russian on each of the goal hexes
    1505 and 1509; four German riflemen in 1506 next to 1505 (their assault favoured, 17.0), and
    two in 1507, one hex from either. (German hexes after the phase, the Assault markers)."""
    units = [inf(f"G{i}", "german") for i in range(6)] + [inf("R1", "russian", pr=6), inf("R2", "russian", pr=6)]
    g = small_game(units, {**{f"G{i}": "1506" for i in range(4)}, "G4": "1507", "G5": "1507",
                           "R1": "1505", "R2": "1509"}, length=1)
    goals = ["1505", "1509"]
    _objectives(g, [_clear(goals)], [_occupy(goals)],
                lambda st, game: "russian" if any(u.hex in goals for u in st.units_of("russian") if u.on_map)
                else "german")
    advance_to(g, Phase.MOVEMENT)
    start = len(g.events)
    german = HeuristicPlayer(1, settings=BehaviorSettings(approach_spread=approach_spread))
    _play_phase(g, {"german": german, "russian": HeuristicPlayer(2)}, Phase.MOVEMENT, 1)
    return ({u.id: u.hex for u in g.state.units_of("german")},
            [(e["target"], tuple(e["units"])) for e in g.events[start:] if e["kind"] == "assault_designated"])


def test_17_0_24_8_approach_spread_sends_the_last_stack_to_the_goal_hex_nobody_assaults():
    """Scenario 5's "no finish" (game 6 of seed 4242: three German stacks close on one hill hex
    while a lone anti-tank rifle holds another, and decides the game, 24.8). By default the two
    riflemen in 1507 join the four next to 1505, whose assault is already favoured, and nobody
    assaults 1509; with ``approach_spread`` 1 they end next to 1509 and assault it (17.0)."""
    hexes, marks = _last_move_two_goals_one_covered(0.0)
    assert _d(hexes["G4"], "1505") == _d(hexes["G5"], "1505") == 1
    assert [t for t, _u in marks] == ["1505", "1505"]
    hexes, marks = _last_move_two_goals_one_covered(1.0)
    assert _d(hexes["G4"], "1509") == 1 and hexes["G5"] == hexes["G4"]
    assert sorted(marks) == [("1505", ("G0", "G1", "G2", "G3")), ("1509", ("G4", "G5"))]
