"""Errata as data (format ``ironcross-errata``) and ``errata apply``: each target kind, the round
trip, refusal on mismatch, --force, skipped scenario corrections, the shipped errata file against
the rulebook's "Terrain Clarifications and Errata" section, and the shipped corrected mapsheet."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from maps import building_shapes
from maps.document_file import DocumentError
from maps.errata import (
    CORRECTED_MAPSHEET,
    ERRATA_REF,
    PRINTED_MAPSHEET,
    SHIPPED_ERRATA,
    BuildingCorrection,
    ErrataMismatchError,
    HexCorrection,
    LabelCorrection,
    ScenarioCorrection,
    apply_errata,
    build_corrected_mapsheet,
    building_state,
    load_errata,
)
from maps.hexgrid import Hex
from maps.hexmap import HexMap
from maps.mapfile import check_map, load_map_file
from maps.model import MapFile
from tests.mapbuilder import make_map

RULEBOOK_CANDIDATES = [
    Path(__file__).resolve().parents[3] / "shared" / "seeds" / "000_e4e38026d31aa6b9.txt",
    Path(__file__).resolve().parents[2] / "seeds" / "000_e4e38026d31aa6b9.txt",
]


def errata():
    return load_errata(SHIPPED_ERRATA)


def poly(*hexes: str) -> list[tuple[float, float]]:
    return [tuple(p) for p in building_shapes.polygon_coords(building_shapes.footprint(list(hexes)))]


def printed_stub(**changes) -> MapFile:
    """A whole-sheet map (columns 10-70, rows 01-27) showing every printed value of the errata.

    Buildings: one-hex symbols in 1322, 2513 and 2714; a two-hex Building 3 in 2613-2614
    (adjacent to both 2513 and 2714); nothing in 4109. A "crest" label in 3510.
    Hexes 2125 and 6020 hold two elevations (upper_level), 3615 an upper level 2.
    """
    e = errata()
    trees = {c.hex: c.printed for c in e.corrections if isinstance(c, HexCorrection) and c.attribute == "trees"}
    levels = {c.hex: c.printed for c in e.corrections if isinstance(c, HexCorrection) and c.attribute == "level"}
    levels = {h: v for h, v in levels.items() if v}
    trees.update(changes.pop("trees", {}))
    levels.update(changes.pop("levels", {}))
    buildings = {"B1322": poly("1322"), "B2513": poly("2513"), "B2714": poly("2714"), "B3": poly("2613", "2614")}
    buildings.update(changes.pop("buildings", {}))
    buildings = {k: v for k, v in buildings.items() if v}
    doc = make_map((10, 70), (1, 27), trees=trees, levels=levels, buildings=buildings,
                   features=changes.pop("features", {"crest": ["3510"], "Hill K": ["2125"]}), **changes).doc
    doc = doc.model_copy(deep=True)
    for b in doc.buildings:
        if b.id == "B3":
            b.number, b.name = 3, "Building 3"
    upper = {"2125": 1, "6020": 2, "3615": 2}
    for rec in doc.hexes:
        if rec.id in upper:
            rec.upper_level = upper.pop(rec.id)
    for hid, u in upper.items():
        doc.hexes.append(doc.hexes[0].model_copy(update={"id": hid, "trees": 0, "level": 0, "upper_level": u}))
    assert check_map(doc) == []
    return doc


def rec(doc: MapFile, hid: str):
    return next((r for r in doc.hexes if r.id == hid), None)


def write(tmp_path: Path, name: str, doc) -> Path:
    p = tmp_path / name
    p.write_text(json.dumps(doc.model_dump(mode="json", exclude_none=True) if hasattr(doc, "model_dump") else doc))
    return p


# --------------------------------------------------------------------------------------------
# the shipped errata file
# --------------------------------------------------------------------------------------------

def test_shipped_errata_validates_with_the_cli():
    res = CliRunner().invoke(cli, ["validate", str(SHIPPED_ERRATA)])
    assert res.exit_code == 0, res.output
    assert "42 corrections" in res.output and "3 scenario references" in res.output


def test_shipped_errata_counts_every_correction():
    e = errata()
    hexc = [c for c in e.corrections if isinstance(c, HexCorrection)]
    tree_down = [c.hex for c in hexc if c.attribute == "trees" and (c.printed, c.corrected) == (2, 1)]
    tree_up = [c.hex for c in hexc if c.attribute == "trees" and (c.printed, c.corrected) == (1, 2)]
    three = [c.hex for c in hexc if c.attribute == "trees" and (c.printed, c.corrected) == (2, 3)]
    lvl1 = [c.hex for c in hexc if c.attribute == "level" and (c.printed, c.corrected) == (0, 1)]
    lvl2 = [c.hex for c in hexc if c.attribute == "level" and (c.printed, c.corrected) == (1, 2)]
    assert tree_down == ["1307", "1627", "1725", "1825", "2021"]
    assert len(tree_up) == 12 and three == ["6618"]
    assert len(lvl1) == 15 and lvl2 == ["6020"]
    bld = {c.hex: (c.printed, c.corrected) for c in e.corrections if isinstance(c, BuildingCorrection)}
    assert bld == {"1322": ("single", "none"), "2513": ("single", "multi"), "2714": ("single", "multi"),
                   "4109": ("none", "single")}
    labels = [c for c in e.corrections if isinstance(c, LabelCorrection)]
    assert [(c.feature, c.printed, c.corrected) for c in labels] == [("crest", "present", "absent")]
    scen = [(c.scenario, c.printed, c.corrected) for c in e.corrections if isinstance(c, ScenarioCorrection)]
    assert scen == [(4, "2703", "2613"), (5, "5115", "5015"), (5, "5127", "5027")]
    assert len(e.corrections) == 5 + 12 + 1 + 15 + 1 + 4 + 1 + 3
    assert any("in all cases rule 10.34 is the overriding rule" in n for n in e.notes)


def _rulebook_errata_lines() -> list[str]:
    for p in RULEBOOK_CANDIDATES:
        if p.is_file():
            text = p.read_text(encoding="utf-8").splitlines()
            start = text.index("Terrain Clarifications and Errata")
            end = text.index("Charts and Tables", start)
            lines = [ln.strip().removeprefix("- ") for ln in text[start + 1:end]]
            return [ln for ln in lines if ln and ln != "ERRATA" and not ln.startswith("As printed on")]
    pytest.skip("the rulebook text (seeds/000_e4e38026d31aa6b9.txt) is not available here")


def test_shipped_errata_quotes_every_line_of_the_rulebook_section():
    lines = _rulebook_errata_lines()
    e = errata()
    quoted = {c.line for c in e.corrections}
    # every correction quotes a line of the section verbatim
    assert quoted <= set(lines)
    # every line of the section is used: by a correction, or (the 10.34 note) in the notes
    for ln in lines:
        assert ln in quoted or any(ln in n for n in e.notes), ln
    # every hex number a map line names is a correction target quoting that line
    for ln in lines:
        if ln.startswith("Scenario"):
            refs = re.findall(r"'(\d{4})'", ln)
            printed = {c.printed for c in e.corrections if isinstance(c, ScenarioCorrection) and c.line == ln}
            corrected = {c.corrected for c in e.corrections if isinstance(c, ScenarioCorrection) and c.line == ln}
            assert set(refs) == printed | corrected
            continue
        numbers = set(re.findall(r"\b\d{4}\b", ln))
        targets = {c.hex for c in e.corrections if isinstance(c, (HexCorrection, BuildingCorrection)) and c.line == ln}
        assert numbers == targets, ln


# --------------------------------------------------------------------------------------------
# applying: each target kind
# --------------------------------------------------------------------------------------------

def test_every_map_correction_applies_to_the_printed_values():
    doc = printed_stub()
    before = doc.model_copy(deep=True)
    new, changes = apply_errata(doc, errata())
    assert doc == before  # pure
    assert check_map(new) == []
    status = {c.target + " " + c.attribute: c.status for c in changes}
    assert [c.status for c in changes].count("applied") == 39
    assert [c.status for c in changes].count("skipped") == 3
    assert status["1307 trees"] == "applied" and status["crest label"] == "applied"
    m = HexMap(new)
    # trees
    assert m.trees(Hex(13, 7)) == 1 and not m.is_woods(Hex(13, 7))
    assert m.trees(Hex(11, 21)) == 2 and m.is_woods(Hex(11, 21))
    assert m.trees(Hex(66, 18)) == 3
    r = rec(new, "1307")
    assert r.provenance.source == "rulebook" and r.provenance.ref == ERRATA_REF
    assert "trees 2 -> 1" in r.note
    # levels
    assert m.level(Hex(54, 9)) == 1 and m.level(Hex(60, 20)) == 2
    assert rec(new, "5409").provenance.ref == ERRATA_REF


def test_level_correction_keeps_10_34_valid():
    new, changes = apply_errata(printed_stub(), errata())
    by = {c.target: c for c in changes if c.attribute == "level"}
    # 2125: printed 0 with a level-1 part; corrected to level 1 -> the upper level is dropped
    assert rec(new, "2125").level == 1 and rec(new, "2125").upper_level is None
    assert "upper_level 1 dropped" in by["2125"].detail and "upper_level 1 dropped" in rec(new, "2125").note
    # 6020: 1 (upper 2) -> 2: dropped as well
    assert rec(new, "6020").level == 2 and rec(new, "6020").upper_level is None
    # 3615: 0 (upper 2) -> 1: still two elevations, counts at the lower (10.34)
    assert rec(new, "3615").level == 1 and rec(new, "3615").upper_level == 2
    assert "kept" in by["3615"].detail


def test_building_corrections_remove_join_and_add():
    doc = printed_stub()
    new, changes = apply_errata(doc, errata())
    m = HexMap(new)
    by = {c.target: c for c in changes if c.attribute == "building"}
    # 1322: removed
    assert not m.is_building_hex(Hex(13, 22)) and "B1322" not in m.buildings
    assert by["1322"].before == "single" and by["1322"].after == "none"
    # 2513 and 2714 joined into Building 3, which keeps its id, number and name
    assert "B2513" not in m.buildings and "B2714" not in m.buildings
    b3 = m.buildings["B3"]
    assert (b3.number, b3.name) == (3, "Building 3")
    assert m.building_hexes["B3"] == {Hex(25, 13), Hex(26, 13), Hex(26, 14), Hex(27, 14)}
    assert m.feature_hexes("Building 3") == m.building_hexes["B3"]
    assert b3.provenance.ref == ERRATA_REF and "B2513" in b3.note
    assert building_state(new, "2513")[0] == "multi"
    # 4109: a new one-hex building with errata provenance
    assert m.buildings_at(Hex(41, 9)) == ["B4109"]
    assert not m.is_multi_hex_building("B4109")
    assert m.buildings["B4109"].provenance.ref == ERRATA_REF
    # the crest label is gone, other features stay
    assert "crest" not in m.features and "Hill K" in m.features
    assert new.notes and ERRATA_REF in new.notes[-1]


def test_join_needs_exactly_one_adjacent_multi_hex_building():
    # no multi-hex building next to 2513/2714
    with pytest.raises(ErrataMismatchError) as ei:
        apply_errata(printed_stub(buildings={"B3": None}), errata())
    mism = {c.target: c.detail for c in ei.value.mismatches}
    assert mism == {"2513": "no multi-hex building is adjacent", "2714": "no multi-hex building is adjacent"}
    # two multi-hex buildings next to 2513 -> ambiguous, refused even with force
    doc = printed_stub(buildings={"B9": poly("2412", "2413")})
    with pytest.raises(ErrataMismatchError) as ei:
        apply_errata(doc, errata(), force=True)
    assert [c.target for c in ei.value.mismatches] == ["2513"]
    assert "2 multi-hex buildings are adjacent" in ei.value.mismatches[0].detail


# --------------------------------------------------------------------------------------------
# the CLI: round trip, refusal, --force, skipped scenario corrections, bad input
# --------------------------------------------------------------------------------------------

def test_cli_apply_prints_changes_and_round_trips(tmp_path):
    src = write(tmp_path, "printed.json", printed_stub())
    out1, out2 = tmp_path / "c1.json", tmp_path / "c2.json"
    r1 = CliRunner().invoke(cli, ["errata", "apply", str(src), str(SHIPPED_ERRATA), "-o", str(out1)])
    assert r1.exit_code == 0, r1.output
    assert "1307 trees: 2 -> 1 (applied)" in r1.output
    assert "6618 trees: 2 -> 3 (applied)" in r1.output
    assert "2125 level: 0 -> 1 (applied: upper_level 1 dropped" in r1.output
    assert "1322 building: single -> none (applied: removed building B1322)" in r1.output
    assert "crest label: present -> absent (applied" in r1.output
    assert r1.output.count("scenario correction, not applied to a map") == 3
    assert "scenario 4 russian.notes point 3: 2703 -> 2613 (skipped: scenario correction, not applied to a map)" in r1.output
    assert load_map_file(out1)  # valid
    # second run: everything already applied, identical output file
    r2 = CliRunner().invoke(cli, ["errata", "apply", str(out1), str(SHIPPED_ERRATA), "-o", str(out2)])
    assert r2.exit_code == 0, r2.output
    assert "1307 trees: 1 -> 1 (already applied)" in r2.output
    assert "2513 building: multi -> multi (already applied)" in r2.output
    assert "(applied" not in r2.output
    assert r2.output.count("(already applied)") == 39
    assert out1.read_bytes() == out2.read_bytes()


def test_second_apply_is_all_already_applied():
    once, _ = apply_errata(printed_stub(), errata())
    twice, changes = apply_errata(once, errata())
    assert twice == once
    assert {c.status for c in changes} == {"already applied", "skipped"}
    assert all(c.before == c.after for c in changes if c.status == "already applied")


def test_partly_corrected_map_reports_already_applied(tmp_path):
    src = write(tmp_path, "m.json", printed_stub(trees={"1307": 1}))
    out = tmp_path / "out.json"
    res = CliRunner().invoke(cli, ["errata", "apply", str(src), str(SHIPPED_ERRATA), "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert "1307 trees: 1 -> 1 (already applied)" in res.output
    assert "1627 trees: 2 -> 1 (applied)" in res.output


def test_mismatch_is_refused_and_nothing_written(tmp_path):
    src = write(tmp_path, "m.json", printed_stub(trees={"1307": 3}, levels={"5409": 2}))
    out = tmp_path / "out.json"
    res = CliRunner().invoke(cli, ["errata", "apply", str(src), str(SHIPPED_ERRATA), "-o", str(out)])
    assert res.exit_code == 1
    assert "2 correction(s) do not match the map" in res.output
    assert "1307 trees: 3 -> 1 (mismatch: printed 2)" in res.output
    assert "5409 level: 2 -> 1 (mismatch: printed 0)" in res.output
    assert "nothing written" in res.output and "Traceback" not in res.output
    assert not out.exists()
    assert list(tmp_path.iterdir()) == [src]  # no temporary file left either


def test_force_overwrites_mismatches(tmp_path):
    src = write(tmp_path, "m.json", printed_stub(trees={"1307": 3}))
    out = tmp_path / "out.json"
    res = CliRunner().invoke(cli, ["errata", "apply", str(src), str(SHIPPED_ERRATA), "-o", str(out), "--force"])
    assert res.exit_code == 0, res.output
    assert "1307 trees: 3 -> 1 (forced)" in res.output
    m = HexMap(load_map_file(out))
    assert m.trees(Hex(13, 7)) == 1


def test_force_adds_and_joins_a_missing_building():
    doc = printed_stub(buildings={"B2513": None})
    with pytest.raises(ErrataMismatchError):
        apply_errata(doc, errata())
    new, changes = apply_errata(doc, errata(), force=True)
    ch = next(c for c in changes if c.target == "2513")
    assert (ch.before, ch.after, ch.status) == ("none", "multi", "forced")
    assert Hex(25, 13) in HexMap(new).building_hexes["B3"]


def test_scenario_corrections_are_skipped_on_maps():
    _, changes = apply_errata(printed_stub(), errata())
    scen = [c for c in changes if c.scenario is not None]
    assert [(c.scenario, c.status, c.detail) for c in scen] == [
        (4, "skipped", "scenario correction, not applied to a map"),
        (5, "skipped", "scenario correction, not applied to a map"),
        (5, "skipped", "scenario correction, not applied to a map")]


def test_map_section_skips_hexes_off_the_map(tmp_path):
    # Map 1 only (columns 10-30): corrections on Maps 2 and 3 are skipped, not mismatches
    doc = make_map((10, 30), (1, 27), trees={"1307": 2}, buildings={"B1": poly("1322")}).doc
    e = load_errata(SHIPPED_ERRATA)
    e = e.model_copy(update={"corrections": [c for c in e.corrections if getattr(c, "hex", None) in
                                             (None, "1307", "1322", "6618", "4109")]})
    new, changes = apply_errata(doc, e)
    st = {c.target: (c.status, c.detail) for c in changes}
    assert st["1307"] == ("applied", "")
    assert st["1322"][0] == "applied"
    assert st["6618"] == ("skipped", "hex not on this map")
    assert st["4109"] == ("skipped", "hex not on this map")
    assert st["crest"][0] == "already applied"


BAD_ERRATA = {
    "wrong_format": (lambda d: d.update(format="ironcross-map"), "$.format", "unknown format"),
    "newer_version": (lambda d: d.update(version=2), "$.version", "newer"),
    "unknown_attribute": (lambda d: d["corrections"][0].update(attribute="colour"), "$.corrections[0]", "'trees' or 'level'"),
    "no_target": (lambda d: d["corrections"][0].pop("hex"), "$.corrections[0]", "'hex', 'feature' or 'scenario'"),
    "missing_line": (lambda d: d["corrections"][1].pop("line"), "$.corrections[1].line", "Field required"),
    "bad_hex": (lambda d: d["corrections"][2].update(hex="13x7"), "$.corrections[2].hex", "not four digits"),
    "no_change": (lambda d: d["corrections"][3].update(corrected=2), "$.corrections[3].corrected", "equals the printed"),
    "unsupported_building": (lambda d: d["corrections"][34].update(printed="multi", corrected="none"),
                             "$.corrections[34]", "not supported"),
    "twice": (lambda d: d["corrections"].append(dict(d["corrections"][0])), "$.corrections[42]", "already corrected"),
    "bad_state": (lambda d: d["corrections"][34].update(corrected="many"), "$.corrections[34].corrected", "'none'"),
}


@pytest.mark.parametrize("case", sorted(BAD_ERRATA))
def test_invalid_errata_file_exits_1_with_the_document_error(tmp_path, case):
    mutate, where, words = BAD_ERRATA[case]
    data = json.loads(SHIPPED_ERRATA.read_text())
    mutate(data)
    bad = tmp_path / "bad_errata.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(DocumentError) as ei:
        load_errata(bad)
    assert where in str(ei.value) and words in str(ei.value), str(ei.value)
    src = write(tmp_path, "m.json", printed_stub())
    out = tmp_path / "out.json"
    res = CliRunner().invoke(cli, ["errata", "apply", str(src), str(bad), "-o", str(out)])
    assert res.exit_code == 1
    assert f"{bad}: {where}" in res.output and "Traceback" not in res.output
    assert not out.exists()
    val = CliRunner().invoke(cli, ["validate", str(bad)])
    assert val.exit_code == 1 and "Traceback" not in val.output
    if case != "wrong_format":  # validate reads a file by its format: that one is checked as a map
        assert f"{bad}: {where}" in val.output


def test_invalid_map_or_missing_file_exits_1(tmp_path):
    bad = tmp_path / "bad_map.json"
    bad.write_text('{"format": "ironcross-map", "version": 1}')
    out = tmp_path / "out.json"
    res = CliRunner().invoke(cli, ["errata", "apply", str(bad), str(SHIPPED_ERRATA), "-o", str(out)])
    assert res.exit_code == 1 and f"{bad}: $.name" in res.output and "Traceback" not in res.output
    res = CliRunner().invoke(cli, ["errata", "apply", str(tmp_path / "nope.json"), str(SHIPPED_ERRATA), "-o", str(out)])
    assert res.exit_code == 1 and "file not found" in res.output
    assert not out.exists()


def test_missing_output_option_is_a_usage_error(tmp_path):
    src = write(tmp_path, "m.json", printed_stub())
    res = CliRunner().invoke(cli, ["errata", "apply", str(src), str(SHIPPED_ERRATA)])
    assert res.exit_code == 2


# --------------------------------------------------------------------------------------------
# the shipped corrected mapsheet
# --------------------------------------------------------------------------------------------

@pytest.mark.skipif(not PRINTED_MAPSHEET.is_file(), reason="the printed mapsheet is not shipped yet")
def test_shipped_corrected_mapsheet_is_printed_plus_errata():
    assert CORRECTED_MAPSHEET.is_file(), "run: python -m maps.errata build-corrected"
    expected, changes = build_corrected_mapsheet()
    assert {c.status for c in changes} == {"applied", "skipped"}
    assert all(c.scenario is not None for c in changes if c.status == "skipped")
    assert load_map_file(CORRECTED_MAPSHEET) == expected, "out of date: run python -m maps.errata build-corrected"
