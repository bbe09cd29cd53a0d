"""Set-up as designers specify it: IPs in the designer's set-up (18.1), UP or
DOWN per unit (3.12), mines with an area of their own (19.1), a set-up cap inside a sub-zone
(24.1 unit deployment restrictions) and initial control of a region -- model, engine, validation
(scenario and placement file)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.ironcross.actions import EndSetup, IllegalAction, Place, action_from_json
from core.ironcross.game import Game
from core.ironcross.placement import check_fixed_setup, load_placement, placement_json
from core.ironcross.scenario_setup import SetupError, apply_fixed_setup, load_setup
from core.playtest import _play
from maps.document_file import json_path
from scenarios.scenario_file import check_scenario, load_scenario, oob_problems
from tests.scenario_copies import scenario_copy as copy_of

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "scenarios" / "data"
S2 = DATA / "scenario_2_khristishche.json"
S4 = DATA / "scenario_4_tula.json"

#: hexes of Scenario 4's Russian set-up zone (non-building) and of the German one
R_ZONE = ["1015", "1016", "1017", "1018", "1019", "1020"]
G_HEXES = ["1001", "1002", "1003", "1004"]


def scenario_copy(tmp_path: Path, source: Path = S4, change=None, turns: int | None = None, name="sc.json") -> Path:
    """A copy of ``source`` (Scenario 4 unless said) as ``tmp_path/name`` (its entries as they are)."""
    return copy_of(tmp_path, source, turns=turns, name=name, change=change, bring_forward=False)


def problems(path: Path) -> dict[str, str]:
    return {p.path: p.message for p in check_scenario(load_scenario(path, check=False), path)}


def replay_on_plain(scenario: Path, seed: int, payload: dict) -> None:
    """The decisions of a game from a designer's set-up are legal on the plain scenario and give
    the same events (the replays of such games verify)."""
    plain = Game(load_setup(scenario, seed=seed, left_out=(payload["header"].get("fixed_setup") or {})
                            .get("left_out"))[1], seed, rules="basic")
    for c in getattr(plain.setup, "choices", []):
        plain._event("pre_game_choice", rule="24.1", text=c)
    for a in payload["header"]["actions"]:
        plain.apply(action_from_json(a))
    n = len(plain.events)
    assert [e["kind"] for e in plain.events] == [e["kind"] for e in payload["events"][:n]]


# ----------------------------------------------------------------------------- 18.1 IPs
def test_18_1_ips_of_the_designers_set_up_are_placed_where_he_put_them(tmp_path):
    sc = scenario_copy(tmp_path, turns=1)
    # Scenario 4 Russian: IP1 x 3; IP2 x 1 (in that order); the designer places the IP2 and one IP1
    fixed = {"units": {}, "ips": {R_ZONE[0]: {"side": "russian", "points": 2},
                                  R_ZONE[1]: {"side": "russian", "points": 1}}}
    _sc, st = load_setup(sc, seed=3)
    assert check_fixed_setup(st, fixed) == []
    plain_order = [p for a in st.allotments if a.side == "russian" for p in a.ips]
    narrowed = apply_fixed_setup(load_setup(sc, seed=3)[1], fixed)
    assert [p for a in narrowed.allotments if a.side == "russian" for p in a.ips] == plain_order   # order kept
    assert any(a.ips == [2] and a.zone == frozenset({R_ZONE[0]}) for a in narrowed.allotments)
    assert sum(a.at_mines for a in narrowed.allotments) == 10   # the mines stay with their zone
    res, payload = _play(str(sc), 0, 3, {"german": "random", "russian": "heuristic"}, "basic", (), True, 3000, fixed)
    ips = {e["hex"]: e["points"] for e in payload["events"] if e["kind"] == "ip_placed" and e["side"] == "russian"}
    assert ips[R_ZONE[0]] == 2 and ips[R_ZONE[1]] == 1
    assert sorted(ips.values()) == [1, 1, 1, 2]      # the other two IP1s placed by the player
    assert payload["header"]["fixed_setup"]["ips"] == fixed["ips"]
    replay_on_plain(sc, 3, payload)


def test_18_1_placed_ips_are_checked_against_the_sides_ips_and_their_zones(tmp_path):
    _sc, st = load_setup(scenario_copy(tmp_path))
    bad = {"ips": {R_ZONE[0]: {"side": "russian", "points": 2}, R_ZONE[1]: {"side": "russian", "points": 2},
                   R_ZONE[2]: {"side": "russian", "points": 3}, G_HEXES[0]: {"side": "russian", "points": 1},
                   G_HEXES[1]: {"side": "german", "points": 2}}}
    probs = {p.path: p.message for p in check_fixed_setup(st, bad)}
    assert probs[f"$.ips.{R_ZONE[1]}"] == "18.1: more russian IP2 placed than the side has (1)"
    assert probs[f"$.ips.{R_ZONE[2]}"] == "the russian side has no IP3 in this scenario"
    assert "outside the set-up zone of every russian IP1" in probs[f"$.ips.{G_HEXES[0]}"]
    assert f"$.ips.{R_ZONE[0]}" not in probs and f"$.ips.{G_HEXES[1]}" not in probs
    with pytest.raises(SetupError, match="more russian IP2"):
        apply_fixed_setup(load_setup(scenario_copy(tmp_path))[1], bad)


def test_18_1_ip_on_any_building_hex_is_told_apart_from_a_plain_ip(tmp_path):
    # Scenario 2: every German IP is "on any building hex"; a hex of the zone that is no building is refused
    sc = scenario_copy(tmp_path, S2)
    _sc, st = load_setup(sc)
    from core.ironcross.hex_terrain import HexTerrain
    from core.ironcross.placement import ip_problem

    t = HexTerrain(st.hexmap, st.chart)
    zone = sorted(st.deployments[0].zone)
    house = next(h for h in zone if t.is_building(h))
    field = next(h for h in zone if not t.is_building(h) and t.entry_cost(h, "infantry", False) is not None)
    assert ip_problem(st, t, "german", house, 3, {}) is None
    assert "outside the set-up zone of every german IP3" in ip_problem(st, t, "german", field, 3, {})
    assert ip_problem(st, t, "german", house, 3, {house: {"side": "german", "points": 1}}) is None   # replaces it
    other = next(h for h in zone if t.is_building(h) and h != house)
    assert "every one already placed" in ip_problem(st, t, "german", other, 3, {house: {"side": "german", "points": 3}})


def test_placement_file_keeps_ips_and_down(tmp_path):
    fixed = {"units": {"R-D-3": {"hex": R_ZONE[0], "facing": None, "down": True}},
             "ips": {R_ZONE[0]: {"side": "russian", "points": 2}}}
    p = tmp_path / "x.placement.json"
    p.write_text(json.dumps(placement_json(fixed)))
    back = load_placement(p)
    assert back["ips"] == fixed["ips"] and back["units"]["R-D-3"]["down"] is True
    assert "ips" not in placement_json({"units": {}})     # files without IPs stay as they were


# ----------------------------------------------------------------------------- 3.12 UP or DOWN
def test_3_12_a_unit_starts_down_as_the_designers_set_up_says(tmp_path):
    sc = scenario_copy(tmp_path, turns=1)
    fixed = {"units": {"R-D-3": {"hex": R_ZONE[0], "facing": None, "down": True},
                       "R-D-4": {"hex": R_ZONE[0], "facing": None, "down": False},
                       "R-MMG-2": {"hex": R_ZONE[1], "facing": 2, "down": True}}}
    res, payload = _play(str(sc), 0, 4, {"german": "random", "russian": "random"}, "basic", (), True, 400, fixed)
    placed = {e["unit"]: e for e in payload["events"] if e["kind"] == "placed"}
    assert placed["R-D-3"]["down"] is True and placed["R-D-4"]["down"] is False
    assert (placed["R-MMG-2"]["down"], placed["R-MMG-2"]["facing"]) == (True, 2)
    replay_on_plain(sc, 4, payload)


# ----------------------------------------------------------------------------- 19.1 mines area
def _mines_area(d, hexes, where="entry"):
    g = d["russian"]["groups"][0]
    region = {"kind": "hexes", "hexes": hexes}
    if where == "entry":
        e = next(e for e in g["oob"] if e["kind"] == "mines")
        e["area"] = region
    else:
        g["mines_area"] = region


@pytest.mark.parametrize("where", ["entry", "group"])
def test_19_1_mines_with_an_area_of_their_own_go_only_there(tmp_path, where):
    area = G_HEXES[:3]     # in front of the Russian position: outside its set-up zone
    sc = scenario_copy(tmp_path, change=lambda d: _mines_area(d, area, where), turns=1)
    assert problems(sc) == {}
    _sc, st = load_setup(sc)
    al = next(a for a in st.allotments if a.at_mines)
    assert (al.zone, al.at_mines) == (frozenset(area), 10)
    assert "placed by russian at set-up in hexes" in st.oob_use[json_path(("russian", "groups", 0, "oob", 8))]
    g = Game(st, 1)
    while g.legal_actions() and not any(getattr(a, "unit", "").startswith("AT-mines") for a in g.legal_actions()):
        g.apply(next(a for a in g.legal_actions() if isinstance(a, EndSetup)))
    assert {a.hex for a in g.legal_actions() if isinstance(a, Place)} == set(area)
    with pytest.raises(IllegalAction):
        g.apply(Place("AT-mines:2", R_ZONE[0]))   # the Russian zone is not the mines' area
    # the placement file: mines in the area are fine, in the zone refused (19.1)
    assert check_fixed_setup(st, {"mines": {area[0]: {"side": "russian", "ap": 0, "at": 5}}}) == []
    probs = {p.path: p.message for p in check_fixed_setup(st, {"mines": {R_ZONE[0]: {"side": "russian", "at": 5}}})}
    assert probs == {f"$.mines.{R_ZONE[0]}": f"{R_ZONE[0]} is outside the russian area of the AT mines"}


def test_19_1_mines_of_an_entering_group_need_an_area(tmp_path):
    def enter(d, area):
        g = d["russian"]["groups"][0]
        g.pop("setup")
        g["entry"] = {"options": [{"region": {"kind": "map_edge", "direction": "north"}, "turn": 1}]}
        g["oob"] = [e for e in g["oob"] if e["kind"] in ("squad", "mines")]
        if area:
            _mines_area(d, G_HEXES[:3])
        d["russian"]["hidden_hexes"] = 0
    without = scenario_copy(tmp_path, change=lambda d: enter(d, False), name="a.json")
    assert any("enters the map and has no set-up zone" in p.message
               for p in oob_problems(load_scenario(without, check=False)))
    with_area = scenario_copy(tmp_path, change=lambda d: enter(d, True), name="b.json")
    assert oob_problems(load_scenario(with_area, check=False)) == []
    _sc, st = load_setup(with_area)
    assert [(a.side, a.at_mines, a.zone) for a in st.allotments if a.side == "russian"] == \
        [("russian", 10, frozenset(G_HEXES[:3]))]


def test_19_1_mines_area_of_buildings_only_is_refused(tmp_path):
    _sc, st = load_setup(S4)
    from core.ironcross.hex_terrain import HexTerrain

    t = HexTerrain(st.hexmap, st.chart)
    houses = [h for h in sorted(st.deployments[1].zone) if t.is_building(h)][:2]
    sc = scenario_copy(tmp_path, change=lambda d: _mines_area(d, houses))
    assert "has only building hexes, where mines may not be deployed (19.14)" in \
        problems(sc)["$.russian.groups[0].oob[8]"]


# ----------------------------------------------------------------------------- 24.1 set-up caps
CAP_REGION = R_ZONE[:4]


def _cap(d, **extra):
    d["russian"]["caps"] = [{"region": {"kind": "hexes", "hexes": CAP_REGION}, "squad": "D",
                             "max": [{"type": "LMG", "count": 1}, {"type": "R", "count": 2}], **extra}]


def test_24_1_cap_inside_a_sub_zone_refuses_the_placement_over_it(tmp_path):
    sc = scenario_copy(tmp_path, change=_cap)
    assert problems(sc) == {}
    _sc, st = load_setup(sc)
    (cap,) = st.caps
    assert cap.hexes == frozenset(CAP_REGION) and cap.text.startswith("no more than 1 LMG and 2 Rs of Squad D")
    g = Game(st, 1)

    def place_until(uid: str, hex_id: str) -> None:
        while g._setup_queue[0][2][0] != uid:
            g.apply(next(a for a in g.legal_actions() if isinstance(a, EndSetup)))
        g.apply(next(a for a in g.legal_actions() if isinstance(a, Place) and a.hex == hex_id))

    place_until("R-D-3", CAP_REGION[0])
    place_until("R-D-4", CAP_REGION[1])
    while g._setup_queue[0][2][0] != "R-D-6":
        g.apply(next(a for a in g.legal_actions() if isinstance(a, EndSetup)))
    legal = {a.hex for a in g.legal_actions() if isinstance(a, Place)}
    assert not legal & set(CAP_REGION) and R_ZONE[5] in legal       # the third R only outside the region
    with pytest.raises(IllegalAction, match=r"24.1 scenario set-up cap: no more than 1 LMG and 2 Rs of Squad D .*"
                                            r"2 Rs already there: R-D-3, R-D-4"):
        g.apply(Place("R-D-6", CAP_REGION[2], False, None, False))
    assert g.units["R-D-6"].hex is None
    g.apply(Place("R-D-6", R_ZONE[5], False, None, False))           # outside: fine


def test_24_1_cap_random_and_ai_players_only_place_within_it(tmp_path):
    sc = scenario_copy(tmp_path, change=lambda d: _cap(d, others=0), turns=1)
    for seed, ai in ((1, "random"), (2, "heuristic"), (3, "random")):
        res, payload = _play(str(sc), 0, seed, {"german": "random", "russian": ai}, "basic", (), True, 3000)
        inside = [e["unit"] for e in payload["events"] if e["kind"] == "placed" and e["hex"] in CAP_REGION
                  and e["unit"].startswith("R-D-")]
        weapons = {"R-D-1": "MP", "R-D-2": "LMG"}
        assert sum(1 for u in inside if weapons.get(u) == "LMG") <= 1
        assert sum(1 for u in inside if u not in weapons) <= 2
        assert not any(weapons.get(u) == "MP" for u in inside)          # others: 0


def test_24_1_cap_checks_a_placement_file(tmp_path):
    sc = scenario_copy(tmp_path, change=_cap)
    _sc, st = load_setup(sc)
    units = {u: {"hex": CAP_REGION[i % 4], "facing": None, "down": False}
             for i, u in enumerate(["R-D-3", "R-D-4", "R-D-6", "R-D-2", "R-A-1"])}
    probs = {p.path: p.message for p in check_fixed_setup(st, {"units": units})}
    assert list(probs) == ["$.units.R-D-6.hex"]
    assert "24.1 scenario set-up cap" in probs["$.units.R-D-6.hex"]
    with pytest.raises(SetupError, match="set-up cap"):
        apply_fixed_setup(load_setup(sc)[1], {"units": units})


def test_24_1_cap_validation_names_unknown_squads_groups_and_types(tmp_path):
    def bad(d):
        d["russian"]["caps"] = [
            {"region": {"kind": "hexes", "hexes": CAP_REGION}, "squad": "Q", "max": [{"type": "R", "count": 1}]},
            {"region": {"kind": "hexes", "hexes": CAP_REGION}, "group": "Nobody", "max": [{"count": 1}]},
            {"region": {"kind": "hexes", "hexes": CAP_REGION}, "squad": "D", "max": [{"type": "HMG", "count": 1}]},
            {"region": {"kind": "hexes", "hexes": G_HEXES}, "squad": "D", "max": [{"type": "R", "count": 1}]},
        ]
    probs = problems(scenario_copy(tmp_path, change=bad))
    assert "no Squad Q" in probs["$.russian.caps[0].squad"]
    assert "no russian group 'Nobody'" in probs["$.russian.caps[1].group"]
    assert "no HMG among Squad D" in probs["$.russian.caps[2].max[0].type"]
    assert "meets no set-up zone of Squad D" in probs["$.russian.caps[3].region"]


# ----------------------------------------------------------------------------- initial control
RETAIN = ["1015", "1016", "1115"]


def _retain(d):
    d["initial_control"] = [{"side": "russian", "region": {"kind": "hexes", "hexes": RETAIN}}]
    d["victory"] = {"text": "The Russians win if they retain control of region R.", "default": "german",
                    "outcomes": [{"result": "russian", "condition": {
                        "kind": "controls", "side": "russian", "region": {"kind": "hexes", "hexes": RETAIN}}}]}


def test_initial_control_is_kept_until_the_enemy_occupies_the_hex(tmp_path):
    sc = scenario_copy(tmp_path, change=_retain)
    assert problems(sc) == {}
    _sc, st = load_setup(sc)
    assert st.initial_control == {h: "russian" for h in RETAIN}
    g = Game(st, 1)
    assert {h: g.state.control.get(h) for h in RETAIN} == {h: "russian" for h in RETAIN}
    assert [e["hexes"] for e in g.events if e["kind"] == "initial_control"] == [RETAIN]
    assert st.victory(g.state, g)[0] == "russian"        # "retain control of R": one condition, no unit needed
    ger = g.units["G-B-1"]
    ger.hex = RETAIN[1]
    g._update_control(RETAIN[1])                          # 24.9 the enemy occupies it: his now
    assert g.state.control[RETAIN[1]] == "german"
    ger.hex = None                                        # he leaves: still his (last to occupy)
    assert st.victory(g.state, g)[0] == "german"


def test_initial_control_with_a_controls_condition_scores_as_occupying_every_hex(tmp_path):
    # without initial control the Russians must have occupied every hex of R; with it, they
    # hold R from the start: the outcome equals the per-hex reading once each hex was occupied
    from scenarios.victory import UnitRef, evaluate

    sc_with = load_scenario(scenario_copy(tmp_path, change=_retain, name="w.json"), check=False)
    sc_plain = sc_with.model_copy(update={"initial_control": []})
    _sc, st = load_setup(scenario_copy(tmp_path, change=_retain, name="w2.json"))
    from scenarios.scenario_file import scenario_context

    ctx = scenario_context(sc_with, st.hexmap)
    occupied = {h: [UnitRef("russian", f"R-A-{i}", "infantry", "A")] for i, h in enumerate(RETAIN, 1)}
    initial = {h: "russian" for h in RETAIN}
    assert evaluate(sc_plain.victory, occupied, ctx).result == "russian"
    assert evaluate(sc_with.victory, {}, ctx, initial).result == "russian"
    assert evaluate(sc_plain.victory, {}, ctx).result == "german"


def test_initial_control_of_both_sides_in_one_hex_is_refused(tmp_path):
    def both(d):
        _retain(d)
        d["initial_control"].append({"side": "german", "region": {"kind": "hexes", "hexes": [RETAIN[0]]}})
    sc = scenario_copy(tmp_path, change=both)
    assert "in the initial control of both sides" in problems(sc)["$.initial_control[1].region"]
    from core.ironcross.scenario_setup import build_setup
    from scenarios.scenario_file import load_scenario_map

    model = load_scenario(sc, check=False)
    with pytest.raises(SetupError, match="both sides' initial control"):
        build_setup(model, load_scenario_map(model, sc))


def test_shipped_scenarios_have_no_caps_or_initial_control_to_model():
    # the six printed set-up and victory texts: no "no more than ... of Squad X in ..." cap and
    # no "retain control" (Scenario 6's control is "last to occupy" with no initial holder)
    for p in sorted(DATA.glob("scenario_*.json")):
        d = json.loads(p.read_text())
        printed = json.dumps([d["german"].get("notes"), d["russian"].get("notes"), d["victory"].get("text")]).lower()
        assert "no more than" not in printed and "retain" not in printed, p.name


def test_initial_control_needs_no_visit_in_the_design_checks(tmp_path, monkeypatch):
    # "retain control of R" for the side that holds R from the start is no region it must reach
    from core.ironcross import design_checks

    seen = []

    def never(self, side, hexes):   # no unit can ever get anywhere: only the hexes asked about matter
        seen.append(frozenset(hexes))
        return {h: (None, "", "") for h in hexes}

    monkeypatch.setattr(design_checks._Reach, "hex_turns", never)
    region = {"kind": "hexes", "hexes": ["1026", "1027"]}

    def retain(d, initial: bool):
        if initial:
            d["initial_control"] = [{"side": "german", "region": region}]
        d["victory"]["outcomes"].insert(0, {"result": "german", "condition": {
            "kind": "controls", "side": "german", "region": region}})
    for initial, expected in ((False, ["reach"]), (True, [])):
        sc = scenario_copy(tmp_path, change=lambda d: retain(d, initial), name=f"{initial}.json")
        _sc, st = load_setup(sc)
        ws = design_checks.design_warnings(load_scenario(sc, check=False), st.hexmap, st)
        assert [w.check for w in ws if w.path == "$.victory.outcomes[0].condition.region"] == expected
    assert frozenset({"1026", "1027"}) in seen          # asked without initial control only
    assert seen.count(frozenset({"1026", "1027"})) == 1
