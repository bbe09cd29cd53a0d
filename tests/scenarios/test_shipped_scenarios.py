"""The six shipped scenarios (rule 24.4-24.9) validate against the corrected mapsheet and the
counter roster, and hold what the rulebook prints (with the errata corrections)."""

from __future__ import annotations

import pytest

from core.document_kinds import validate_file
from maps.hexgrid import Hex
from scenarios.model import parse_oob_entry, parse_oob_line
from scenarios.scenario_file import (
    SHIPPED_SCENARIOS,
    load_scenario,
    load_scenario_map,
    map_path,
    scenario_context,
)
from scenarios.victory import UnitRef, evaluate, max_points

pytestmark = pytest.mark.skipif(not all(p.exists() for p in SHIPPED_SCENARIOS), reason="scenarios not built")


def block(c0, c1, r0, r1):
    return {Hex(c, r).id for c in range(c0, c1 + 1) for r in range(r0, r1 + 1)}


@pytest.fixture(scope="module")
def loaded():
    out = {}
    for p in SHIPPED_SCENARIOS:
        sc = load_scenario(p)   # full check: regions on the map, OOB against the shipped roster
        m = load_scenario_map(sc, p)
        out[sc.number] = (sc, scenario_context(sc, m))
    return out


def ids(region, ctx):
    return {h.id for h in region.resolve(ctx)}


@pytest.mark.parametrize("path", SHIPPED_SCENARIOS, ids=lambda p: p.stem)
def test_validates_from_the_command_line_kinds(path):
    assert validate_file(path).startswith("scenario ")


def test_numbers_titles_and_map(loaded):
    assert {n: sc.title for n, (sc, _) in loaded.items()} == {
        1: "Demyansk Pocket", 2: "Infantry Fight at Khristishche", 3: "Closing the Ring", 4: "Tula",
        5: "Through the Marshes", 6: "Spartakovka"}
    for sc, _ in loaded.values():
        assert map_path(sc, SHIPPED_SCENARIOS[0]).name == "iron_cross_mapsheet_corrected.json"
    assert [loaded[n][0].turns for n in range(1, 7)] == [7, 9, 7, 6, 6, 12]
    assert [loaded[n][0].north.north_k for n in range(1, 7)] == [6, 0, 0, 6, 0, 6]


def test_every_oob_entry_matches_its_printed_text(loaded):
    """The structured entries are what the parser reads from the printed text, and every printed
    set-up line parses into exactly the file's entries (in order)."""
    for sc, _ in loaded.values():
        for side in ("german", "russian"):
            s = sc.side(side)
            entries = list(s.all_entries())
            for e in entries:
                assert parse_oob_entry(e.text) == e, (sc.number, side, e.text)
            printed = [e for line in s.setup_text.splitlines() for e in parse_oob_line(line)]
            assert sorted(e.text for e in printed) == sorted(e.text for e in entries), (sc.number, side)


def test_scenario_1(loaded):
    sc, ctx = loaded[1]
    edge = sc.russian.groups[0].entry.options[0].region
    assert ids(edge, ctx) == block(30, 50, 27, 27) | block(30, 30, 15, 27)
    setup = ids(sc.german.groups[0].setup.region, ctx)
    assert set(sc.regions) == {"road 4001-5014"}
    assert block(44, 46, 11, 14) & {"4411", "4514", "4613"} <= setup and {"4307", "4308"} <= setup
    zone = ids(sc.russian.infiltration.zone, ctx)
    assert "3027" in zone and "4001" not in zone and "5001" not in zone and "5013" not in zone
    assert sc.german.hidden_hexes == 2 and sc.russian.grenades == 10
    win = {"4307": [UnitRef("german", "g1", "infantry", "C")], "4308": [UnitRef("german", "g2", "infantry", "C")]}
    assert evaluate(sc.victory, win, ctx).result == "german"
    assert evaluate(sc.victory, {"4307": [UnitRef("russian", "r", "infantry", "A")]}, ctx).result == "draw"


def test_scenario_2_notes_and_zones(loaded):
    sc, ctx = loaded[2]
    assert [g.name for g in sc.german.groups] == ["Squad C", "Squad D", "Squad E"]
    assert sc.german.group("Squad D").oob == [] and any("omits Squad D" in n for n in sc.notes)
    south = ids(sc.german.group("Squad D").setup.region, ctx)
    north = ids(sc.german.group("Squad E").setup.region, ctx)
    assert south and north and not (south & north)
    # north is the top of the sheet: Buildings 3 and 4 lie below the road, Building 1 above it
    assert {"1318", "2218"} <= south and "1710" in north
    assert [ip.points for ip in sc.german.ips()] == [3, 2, 1] and sc.german.grenades == 15
    assert ids(sc.russian.groups[0].entry.options[0].region, ctx) == block(10, 30, 27, 27)


def test_scenario_3_entry_choice(loaded):
    sc, ctx = loaded[3]
    late = sc.german.group("Squad D and PS")
    assert late.entry.choose_before_game and [o.turn for o in late.entry.options] == [3, 3]
    assert [ids(o.region, ctx) for o in late.entry.options] == [block(30, 30, 1, 13), block(50, 50, 1, 12)]
    assert ids(sc.german.group("Main force").entry.options[0].region, ctx) == block(30, 50, 1, 1)
    assert ids(sc.russian.groups[0].setup.region, ctx) == block(30, 50, 7, 27)


def test_scenario_4_errata_and_victory(loaded):
    sc, ctx = loaded[4]
    assert "2613" in sc.russian.note_text(3) and "2703" in sc.russian.note_text(3, printed=True)
    assert sc.russian.notes[2].erratum.startswith("Scenario 4:")
    assert sc.regions["road network"].through[6] == "2613"
    assert sc.russian.mine_factors("AT") == 10 and sc.german.grenades == 24
    south = sc.regions["south of the east-west road"]
    assert {"1710", "2411"} <= ids(south, ctx)     # Buildings 1 and 2 lie inside the road loop
    r = lambda uid, kind="infantry", squad=None: UnitRef("russian", uid, kind, squad)  # noqa: E731
    three = {"1501": [r("a1", squad="A"), r("a2", squad="A")], "1502": [r("pl", "commander")]}
    assert evaluate(sc.victory, three, ctx).result == "russian"
    mixed = {"1501": [r("a1", squad="A"), r("d1", squad="D")], "1502": [r("f1", squad="F")]}
    assert evaluate(sc.victory, mixed, ctx).result == "draw"
    assert evaluate(sc.victory, {"1020": [r("a1", squad="A")]}, ctx).result == "german"


def test_scenario_5_special_rules(loaded):
    sc, ctx = loaded[5]
    t34 = sc.russian.group("T34a")
    assert t34.entry.options[0].phase == "reaction_movement" and t34.entry.options[0].turn == 4
    bt = sc.russian.group("BT7m's")
    assert bt.restrictions[0].kind == "no_movement" and bt.restrictions[0].until_turn == 2
    det = sc.german.detachments[0]
    assert ids(det.entry.options[0].region, ctx) == block(50, 50, 15, 27)
    assert det.record_before == "enemy_setup" and {lim.kind for lim in det.limits} == {"squad", "commander", "crew_weapon", "afv"}
    assert "5115" in sc.german.note_text(3, printed=True) and "5015" in sc.german.note_text(3)
    assert [(e.printed, e.corrected) for e in sc.errata] == [("5115", "5015"), ("5127", "5027")]
    zone = ids(sc.russian.groups[0].setup.region, ctx)
    assert "5101" in zone and "5123" not in zone and not any(h.startswith("50") for h in zone)
    assert ids(sc.victory.outcomes[0].condition.of[0].region, ctx) == \
        {h.id for h in ctx.hexmap.road_hexes & ctx.hexmap.gully_hexes}


def test_scenario_6_zones_entries_and_points(loaded):
    sc, ctx = loaded[6]
    assert ids(sc.russian.group("Group 1").setup.region, ctx) == block(10, 19, 1, 27)
    g3 = ids(sc.russian.group("Group 3").setup.region, ctx)
    assert block(10, 34, 1, 27) <= g3 and "3501" not in g3 and "3617" in g3
    g4 = sc.russian.group("Group 4").entry.options
    assert [o.turn for o in g4] == [9, 10] and ids(g4[0].region, ctx) == block(10, 10, 1, 27)
    assert ids(g4[1].region, ctx) == block(10, 20, 1, 1) | block(10, 20, 27, 27)
    g2 = sc.german.group("Group 2").entry
    assert g2.choose_before_game and ids(g2.options[1].region, ctx) == block(40, 50, 1, 1)
    assert ids(sc.german.group("Group 3").entry.options[0].region, ctx) == {"5014"}
    special = sc.german.detachments[0]
    assert ids(special.entry.options[0].region, ctx) == block(50, 50, 1, 27)
    assert sc.russian.mine_factors("AT") == 50 and sc.russian.mine_factors("AP") == 50
    assert sc.german.grenades == 32 and sc.russian.grenades == 32 and sc.russian.hidden_hexes == 12


def test_scenario_6_victory_points(loaded):
    sc, ctx = loaded[6]
    m = ctx.hexmap
    assert [len(m.feature_hexes(f"Building {n}")) for n in (1, 3, 4)] == [13, 5, 7]
    assert max_points(sc.victory, ctx) == 34
    control = {h.id: "german" for h in m.feature_hexes("Building 1")}
    r = evaluate(sc.victory, {}, ctx, control=control)
    assert (r.result, r.points) == ("russian", 13)
    control.update({h.id: "german" for h in m.feature_hexes("Building 3")})
    assert evaluate(sc.victory, {}, ctx, control=control).result == "draw"       # 18
    control.update({h.id: "german" for h in m.feature_hexes("Building 2")})
    r = evaluate(sc.victory, {}, ctx, control=control)
    assert (r.result, r.points) == ("german", 21)                                 # + 3 for Building 2
    one_short = dict(control)
    one_short.pop(next(iter(sorted(h.id for h in m.feature_hexes("Building 2")))))
    assert evaluate(sc.victory, {}, ctx, control=one_short).points == 18
