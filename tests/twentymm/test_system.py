"""The 20 mm rules as a rule system: the shipped scenario, its loader, actions as JSON,
determinism, legal actions, players, pieces (seed 003)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core import rule_system
from core.twentymm.actions import Assault, EndTurn, Fire, IndirectFire, Move, Special, action_from_json, action_to_json
from core.twentymm.game import TwentyIllegal
from maps.document_file import DocumentError

ROOT = Path(__file__).resolve().parents[2]
SCEN = ROOT / "scenarios" / "data" / "twentymm_1_village_counterattack.json"


@pytest.fixture(scope="module")
def system():
    return rule_system.get("twentymm")


@pytest.fixture(scope="module")
def setup(system):
    return system.load_setup(str(SCEN), 0)


def play(system, setup, seed, ai, limit=3000):
    g = system.new_game(setup, seed, None, None)
    players = system.make_players(setup, ai, seed)
    n = 0
    while not g.is_terminal() and n < limit:
        side = g.current_side()
        g.apply(players[side].choose(system.view(g, side), side, g.legal_actions()))
        n += 1
    return g


def test_20mm_system_is_registered_and_fills_every_field(system):
    assert rule_system.SYSTEM_MODULES["twentymm"] == "core.twentymm.system"
    assert system.name == "twentymm" and system.seed.startswith("seeds/003_")
    assert set(system.players) >= {"random", "heuristic"}
    assert all(v["provenance"] in ("rulebook", "reconstructed") for v in system.terrain_mapping.values())
    assert rule_system.for_scenario(SCEN) is system


def test_20mm_setup_the_shipped_scenario_loads_with_hidden_troops_in_cover(system, setup):
    data = json.loads(SCEN.read_text())
    assert data["rule_system"] == "twentymm" and data["scale"] == 4.0 and data["map"]["sections"] == ["Map 2"]
    hidden = [u for u in setup.units if u.hidden]
    assert len(hidden) >= 5
    assert all(setup.table.terrain_at(u.pos).cover is not None for u in hidden)
    line = system.summarise_scenario(str(SCEN), data)
    assert "Counterattack at the Village" in line and "12 turns" in line
    assert system.scenario_warnings(str(SCEN)) == []


def test_20mm_setup_hidden_troops_must_begin_in_cover(tmp_path):
    data = json.loads(SCEN.read_text())
    i = next(k for k, u in enumerate(data["russian"]) if u["id"] == "R-M")
    data["russian"][i]["hidden"] = True      # the light mortar stands in the open
    data["map"]["file"] = str((SCEN.parent / data["map"]["file"]).resolve())
    p = tmp_path / "s.json"
    p.write_text(json.dumps(data))
    from core.twentymm.scenario import load_setup
    with pytest.raises(DocumentError, match=rf"\$\.russian\[{i}\]\.hidden: R-M is not in cover"):
        load_setup(str(p))


def test_20mm_scenario_loader_names_file_json_path_and_problem(tmp_path):
    data = json.loads(SCEN.read_text())
    data["german"][1]["men"] = -1
    data["german"][5]["vehicle"] = "Maus"
    del data["turns"]
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(data))
    from core.twentymm.scenario import load_setup
    with pytest.raises(DocumentError) as e:
        load_setup(str(p))
    msg = str(e.value)
    assert f"{p}: $.german[1].men" in msg and "$.german[5]" in msg and "Maus" in msg and "$.turns" in msg


def test_20mm_actions_round_trip_through_json():
    acts = [Move("G-1", ((1.5, 2.0), (3.0, 4.25)), facing=90.0, turret=None), Move("G-T1", (), turret=45.0),
            Fire("G-T1", "at", "R-T", tracks=True, gun=1), Fire("G-T1", "he", point=(3.0, 4.0)),
            IndirectFire("G-A", (10.0, 20.0), "G-HQ", spread=True), Assault("G-1", "R-1"),
            Special("G-1", "disembark", "G-T1", (1.0, 2.0)), EndTurn()]
    for a in acts:
        d = action_to_json(a)
        assert json.loads(json.dumps(d)) == d
        assert action_from_json(d) == a
    with pytest.raises(rule_system.IllegalActionError):
        action_from_json({"type": "Teleport"})


def test_20mm_determinism_same_seed_and_actions_same_events(system, setup):
    g = play(system, setup, 3, {"german": "random", "russian": "random"}, limit=150)
    h = system.new_game(setup, 3, None, None)
    for a in g.actions:
        h.apply(action_from_json(action_to_json(a)))
    assert h.events == g.events
    assert any(e["kind"] == "roll" for e in g.events)
    assert all({"dice", "purpose", "rule"} <= set(e) for e in g.events if e["kind"] == "roll")


def test_20mm_legal_actions_are_all_accepted_and_include_moves_fire_and_end_turn(system, setup):
    g = system.new_game(setup, 0, None, None)
    acts = g.legal_actions()
    assert isinstance(acts[-1], EndTurn)
    assert sum(isinstance(a, Move) for a in acts) >= 10
    sample = acts[:: max(1, len(acts) // 15)]
    for a in sample:
        h = system.new_game(setup, 0, None, None)
        h.apply(a)
    # after a few turns of play, fire is offered too
    g2 = play(system, setup, 1, {"german": "heuristic", "russian": "heuristic"}, limit=60)
    assert any(e["kind"] in ("small_arms_fire", "at_shot", "he_shot", "template") for e in g2.events)


def test_20mm_apply_refuses_an_illegal_proposal_naming_the_rule(system, setup):
    g = system.new_game(setup, 0, None, None)
    with pytest.raises(TwentyIllegal, match="Infantry Movement"):
        g.apply(Move("G-1", ((150.0, 40.0),)))
    with pytest.raises(TwentyIllegal, match="Sequence of Play"):
        g.apply(Move("R-1", ((142.0, 29.0),)))
    with pytest.raises(TwentyIllegal, match="hidden|obscured"):
        g.apply(Fire("G-T1", "he", "R-1"))


def test_20mm_players_random_and_heuristic_finish_a_game(system, setup):
    g = play(system, setup, 0, {"german": "heuristic", "russian": "random"})
    assert g.is_terminal() and g.outcome in ("german", "russian", "draw")
    fields = system.result_fields(g)
    assert set(fields["casualties"]) == {"german", "russian"}
    outcome, held = system.turn_record(g)
    assert outcome == g.outcome and set(held) == {"german", "russian"}


def test_20mm_pieces_stand_in_the_hex_under_the_unit(system, setup):
    g = system.new_game(setup, 0, None, None)
    ps = {p.uid: p for p in system.pieces(g)}
    assert ps["R-1"].hexes == ("4106",) and "hidden" in ps["R-1"].status
    assert ps["G-T1"].kind == "afv" and ps["G-T1"].facing in range(6)
    assert "G-A" not in ps      # the off-table battery
    assert system.los(g, "4106", "4106") is True
    assert system.describe_event({"kind": "roll"}) == ""


def test_20mm_apply_refuses_non_finite_points_and_bearings(system, setup):
    g = system.new_game(setup, 0, None, None)
    for a in (Move("G-1", ((float("nan"), 40.0),)), Move("G-T1", (), turret=float("inf")), IndirectFire("G-M", (1e309, 3.0))):
        with pytest.raises(TwentyIllegal, match="finite"):
            g.apply(a)
    assert g.actions == []


# ------------------------------------------------------------------ the editor's view: points in map units
def test_20mm_pieces_stand_at_their_table_points_in_map_units(system, setup):
    """Piece.point is TableMap.from_table of the unit's inches (and back: to_table gives the
    inches), inside the hex the piece names; bearings clockwise from the top of the sheet."""
    import math

    from shapely.geometry import Point

    from maps import hexgrid
    from core.twentymm.system import map_bearing

    g = system.new_game(setup, 1, None, None)
    t = g.table
    ps = {p.uid: p for p in system.pieces(g)}
    assert ps and all(p.point is not None for p in ps.values())
    for p in ps.values():
        u = g.units[p.uid]
        back = t.to_table(*p.point)
        assert math.dist(back, u.pos) < 1e-3          # the round trip, inches -> map units -> inches
        assert p.point == pytest.approx(t.from_table(*u.pos), abs=1e-4)
        # in (or on the edge of) the hex the piece names
        assert hexgrid.hex_polygon(hexgrid.parse_hex_id(p.hexes[0])).distance(Point(p.point)) < 1e-3
        assert p.bearing == pytest.approx(map_bearing(u.facing)) and 0 <= p.bearing < 360
        assert p.facing == round(p.bearing / 60) % 6 + 1   # the nearest hexside, 1-6 clockwise from the top
    # the conversion: a hex centre in inches is the lattice centre in map units (4 inches per hex)
    assert t.from_table(*t.hex_centre("4307")) == pytest.approx(hexgrid.centre(hexgrid.parse_hex_id("4307")))
    # 270 (up the table, -y) is bearing 0; 0 (+x) is 90; 90 (+y, down the sheet) is 180
    assert (map_bearing(270), map_bearing(0), map_bearing(90), map_bearing(180)) == (0.0, 90.0, 180.0, 270.0)
    # a vehicle: its 2 x 1 inch hull as a ring of map units, its turret, the arc about it (+-22.5 and 45 free)
    tank = next(p for p in ps.values() if p.kind == "afv" and p.turret is not None)
    u = g.units[tank.uid]
    hull = [t.to_table(*q) for q in tank.footprint]
    assert len(hull) == 4 and {(round(x, 3), round(y, 3)) for x, y in hull} == \
        {(round(x, 3), round(y, 3)) for x, y in list(u.footprint().exterior.coords)[:-1]}
    assert tank.turret == pytest.approx(map_bearing(u.turret)) and tank.arc == 22.5 + g.free_traverse(u)
    assert tank.reach == pytest.approx(40.0 / t.scale) and tank.figures == ()
    # a section: its men as figures half an inch apart, its line on bases as the footprint, +-22.5
    sec = next(p for p in ps.values() if p.kind == "infantry" and g.units[p.uid].men >= 8)
    u = g.units[sec.uid]
    figs = [t.to_table(*q) for q in sec.figures]
    assert len(figs) == u.men and math.dist(figs[0], figs[1]) == pytest.approx(0.5, abs=1e-3)
    assert sec.arc == 22.5 and sec.turret is None and len(sec.footprint) > 4
    assert sec.reach == pytest.approx(16.0 / t.scale)   # its LMG's 16 inches


def test_20mm_fire_events_carry_their_points_and_marks_draw_them(system, setup):
    """Firing: each shot's event names where it came from and went to (inches); marks() turns a
    decision's events into lines of fire, templates (their diameter), corridors and moves, in map
    units; an LMG's corridor is the 2-inch band to its 16 inches."""
    import math

    from core.rule_system import Mark

    g = play(system, setup, 3, {"german": "heuristic", "russian": "heuristic"})
    t = g.table
    shots = [e for e in g.events if e["kind"] in ("small_arms_fire", "at_shot", "he_shot")]
    assert shots and all(len(e["frm"]) == 2 and len(e["at"]) == 2 for e in shots)
    for e in shots:
        ms = [m for m in system.marks(g, [e]) if m.kind == "fire"]
        assert len(ms) == 1 and ms[0].points == (pytest.approx(t.from_table(*e["frm"]), abs=1e-3),
                                                  pytest.approx(t.from_table(*e["at"]), abs=1e-3))
        if e["kind"] != "small_arms_fire":
            assert ms[0].hit is e["hit"]
    temps = [e for e in g.events if e["kind"] == "template"]
    assert temps
    for e in temps:
        ring = next(m for m in system.marks(g, [e]) if m.kind == "template")
        radii = [math.dist(t.to_table(*q), e["centre"]) for q in ring.points]
        assert max(radii) == pytest.approx(e["diameter"] / 2, abs=1e-3) and min(radii) > e["diameter"] / 2 * 0.98
    cor = next((e for e in shots if e["kind"] == "small_arms_fire" and e.get("corridor")), None)
    if cor is not None:
        band = next(m for m in system.marks(g, [cor]) if m.kind == "corridor")
        from shapely.geometry import Polygon

        poly = Polygon([t.to_table(*q) for q in band.points])
        assert poly.area == pytest.approx(2.0 * 16.0 if cor["corridor"] == "lmg" else 2.0 * 20.0, rel=1e-3)
    mv = next(e for e in g.events if e["kind"] == "move" and e["frm"] != e["to"])
    assert system.marks(g, [mv]) == [Mark("move", (pytest.approx(t.from_table(*mv["frm"]), abs=1e-3),
                                                   pytest.approx(t.from_table(*mv["to"]), abs=1e-3)), mv["side"], mv["uid"])]
    assert system.marks(g, [{"kind": "roll", "dice": [3]}]) == []


def test_20mm_system_editor_schema_hints_new_scenario_and_status(system, setup, tmp_path):
    """The editor's optional fields: the schema is the Scenario model's, the reference table's
    rows are the choices of a vehicle and a gun, a new scenario validates, and the status lines
    say whose side turn it is (Sequence of Play) and which units have acted."""
    from core.twentymm import tables

    assert {"german", "russian", "objectives", "scale"} <= set(system.scenario_schema()["properties"])
    hints = system.scenario_hints()
    assert [v for v, _l in hints["choices"]["$.german[*].vehicle"]] == sorted(tables.reference()["vehicles"])
    assert "$.russian[*].hex" in hints["hexes"]
    data = system.new_scenario(str(ROOT / "maps" / "data" / "iron_cross_mapsheet_corrected.json"), ["Map 2"], "New")
    p = tmp_path / "new.json"
    p.write_text(json.dumps(data))
    assert system.summarise_scenario(str(p), data).startswith("20 mm scenario 'New': 8 turns")
    g = system.new_game(setup, 1, None, None)
    assert system.status_lines(g)[:2] == ["Turn 1 of 12: the german side's turn", "Acted (0 of 8): none"]


def test_table_for_reads_a_map_file_saved_again(tmp_path):
    """The table cache keys on the map file's version: woods written into the map file after a
    game read it are in the next game's table (the editor saves the map it shows)."""
    from core.twentymm.scenario import load_setup

    mp = ROOT / "maps" / "data" / "iron_cross_mapsheet_corrected.json"
    (tmp_path / "map.json").write_text(mp.read_text())
    data = json.loads(SCEN.read_text())
    data["map"]["file"] = "map.json"
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data))
    table = load_setup(path).table
    hm = table.hexmap
    h = next(h for h in hm.all_hexes() if 30 < h.col < 50 and 2 < h.row < hm.last_row - 2 and hm.trees(h) == 0
             and not hm.is_building_hex(h) and not hm.is_marsh(h) and not hm.is_road(h) and not hm.is_gully(h))
    assert not table.terrain_at(table.hex_centre(h.id)).woods
    m = json.loads(mp.read_text())
    recs = [r for r in m["hexes"] if r["id"] != h.id]
    old = next((r for r in m["hexes"] if r["id"] == h.id), {"id": h.id})
    m["hexes"] = recs + [dict(old, trees=4)]
    (tmp_path / "map.json").write_text(json.dumps(m, indent=1))
    again = load_setup(path).table
    assert again.terrain_at(again.hex_centre(h.id)).woods
