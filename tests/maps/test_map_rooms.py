"""Rooms and openings (doors, windows) of buildings in the map file (20 mm seed 003, "Infantry
Moving and Firing in Buildings"): validation with clear errors, absent = today's reading (every
existing map file saves exactly as before)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from maps.mapfile import load_map, load_map_file, map_from_data, map_json, save_map

DATA = Path(__file__).resolve().parents[2] / "maps" / "data"
SAMPLE = DATA / "sample_village.json"

#: B2 of the sample village split at x = 33 into a west and an east room.
WEST = [[33, 12.5], [32.207, 12.5], [31.707, 13.0], [32.207, 13.5], [33, 13.5]]
EAST = [[33, 12.5], [33.793, 12.5], [34.293, 13.0], [33.793, 13.5], [33, 13.5]]
OPENINGS = [{"kind": "door", "segment": [[33, 12.8], [33, 13.2]]},
            {"kind": "window", "segment": [[32.4, 12.5], [32.8, 12.5]], "provenance": {"source": "designer"}},
            {"kind": "door", "segment": [[33.3, 13.5], [33.6, 13.5]]}]


def with_rooms() -> dict:
    d = json.loads(SAMPLE.read_text())
    b = d["buildings"][1]
    assert b["id"] == "B2"
    b["rooms"] = [list(WEST), list(EAST)]
    b["openings"] = [dict(o) for o in OPENINGS]
    return d


def test_20mm_infantry_moving_and_firing_in_buildings_map_without_rooms_resaves_byte_identical(tmp_path):
    for name in ("iron_cross_mapsheet.json", "iron_cross_mapsheet_corrected.json"):
        doc = load_map_file(DATA / name)
        assert all(b.rooms is None and b.openings is None for b in doc.buildings)
        save_map(tmp_path / name, doc)
        assert (tmp_path / name).read_bytes() == (DATA / name).read_bytes()
    data = map_json(load_map_file(SAMPLE))
    assert all("rooms" not in b and "openings" not in b for b in data["buildings"])


def test_20mm_infantry_moving_and_firing_in_buildings_rooms_and_openings_round_trip(tmp_path):
    m = map_from_data(with_rooms(), "x.json")
    b = m.doc.buildings[1]
    assert len(b.rooms) == 2 and [o.kind for o in b.openings] == ["door", "window", "door"]
    assert b.openings[1].provenance.source == "designer"
    out = tmp_path / "m.json"
    save_map(out, m.doc)
    back = load_map(out)
    assert back.doc == m.doc
    save_map(tmp_path / "again.json", back.doc)
    assert (tmp_path / "again.json").read_bytes() == out.read_bytes()
    assert back.summary() == load_map(SAMPLE).summary()  # Iron Cross ignores them


def _b2(d):
    return d["buildings"][1]


BAD = {
    "room_outside": (lambda d: _b2(d)["rooms"].__setitem__(0, [[30, 12.5], [33, 12.5], [33, 13.5], [30, 13.5]]),
                     "$.buildings[1].rooms[0]", "not inside the building's outline"),
    "rooms_overlap": (lambda d: _b2(d)["rooms"].__setitem__(1, [[32.5, 12.5], [33.793, 12.5], [34.293, 13.0],
                                                                [33.793, 13.5], [32.5, 13.5]]),
                      "$.buildings[1].rooms[1]", "overlaps $.buildings[1].rooms[0]"),
    "rooms_leave_a_gap": (lambda d: _b2(d)["rooms"].pop(), "$.buildings[1].rooms", "do not cover the building"),
    "room_two_corners": (lambda d: _b2(d)["rooms"].__setitem__(0, [[33, 12.5], [33, 13.5]]),
                         "$.buildings[1].rooms[0]", "at least 3 corners"),
    "bad_room_polygon": (lambda d: _b2(d)["rooms"].__setitem__(0, [[33, 12.5], [32.207, 13.5], [32.207, 12.5],
                                                                   [33, 13.5]]),
                         "$.buildings[1].rooms[0]", "not a valid polygon"),
    "opening_off_wall": (lambda d: _b2(d)["openings"][0].update(segment=[[32.5, 12.9], [32.5, 13.1]]),
                         "$.buildings[1].openings[0].segment", "does not lie on the building's outline or a room wall"),
    "opening_no_length": (lambda d: _b2(d)["openings"][1].update(segment=[[32.4, 12.5], [32.4, 12.5]]),
                          "$.buildings[1].openings[1].segment", "has no length"),
    "opening_kind": (lambda d: _b2(d)["openings"][0].update(kind="hatch"), "$.buildings[1].openings[0].kind",
                     "'door' or 'window'"),
    "opening_three_points": (lambda d: _b2(d)["openings"][0].update(segment=[[33, 12.8], [33, 13], [33, 13.2]]),
                             "$.buildings[1].openings[0].segment", "at most 2 items"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_20mm_infantry_moving_and_firing_in_buildings_bad_rooms_exit_1_naming_file_path_and_problem(tmp_path, case):
    mutate, path, words = BAD[case]
    d = with_rooms()
    mutate(d)
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(d))
    res = CliRunner().invoke(cli, ["validate", str(p)])
    assert res.exit_code == 1, res.output
    assert "Traceback" not in res.output
    assert any(ln.startswith(f"{p}: {path}: ") and words in ln for ln in res.output.splitlines()), res.output


def test_20mm_infantry_moving_and_firing_in_buildings_openings_without_rooms_lie_on_the_outline():
    d = json.loads(SAMPLE.read_text())
    _b2(d)["openings"] = [{"kind": "window", "segment": [[32.4, 12.5], [32.8, 12.5]]}]
    assert map_from_data(d, "x.json").doc.buildings[1].openings[0].kind == "window"


def test_20mm_infantry_moving_and_firing_in_buildings_a_building_cut_by_the_editor_drops_its_rooms_and_openings():
    """Rooms and doors/windows no longer fit a reshaped outline: the editor's building edits drop
    them (editor.map.edits.RESHAPED) so the map still saves."""
    from editor.map.edits import buildings_without_hexes

    data = with_rooms()
    hm = map_from_data(json.loads(json.dumps(data)), "sample")
    big = next(b.id for b in hm.doc.buildings if len(hm.building_hexes[b.id]) >= 2)   # a multi-hex symbol
    for b in data["buildings"]:
        if b["id"] == big:   # one room: its whole outline, and a door on its first side
            b["rooms"] = [[list(p) for p in b["polygon"]]]
            b["openings"] = [{"kind": "door", "segment": [list(b["polygon"][0]), list(b["polygon"][1])]}]
    hm = map_from_data(data, "sample")
    doc = hm.doc
    assert next(b for b in doc.buildings if b.id == big).rooms
    hexes = sorted(hm.building_hexes[big], key=lambda h: (h.col, h.row))
    out = buildings_without_hexes(doc, hm, hexes[:1])
    cut = [b for b in out if b.id == big or b.id.startswith(f"{big}-")]
    assert cut and all(b.rooms is None and b.openings is None for b in cut)
    assert next(b for b in out if b.id == "B2").rooms   # the other buildings keep theirs
    map_json(doc.model_copy(update={"buildings": out}))   # saves
