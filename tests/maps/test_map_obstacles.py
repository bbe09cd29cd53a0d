"""Linear obstacles and tank traps in the map file: validation with clear errors, atomic saves,
absent = empty (every existing map file saves exactly as before)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from maps.document_file import DocumentError
from maps.hexmap import HexMap
from maps.mapfile import load_map, load_map_file, map_from_data, map_json, save_map
from maps.model import Obstacle, TankTraps

DATA = Path(__file__).resolve().parents[2] / "maps" / "data"
SAMPLE = DATA / "sample_village.json"

WALL = {"id": "W1", "kind": "wall", "line": [[33, 9], [36, 10], [39, 9]],
        "provenance": {"source": "designer"}}
TRAPS = {"id": "T1", "line": [[45, 4], [45, 10]], "provenance": {"source": "designer"}}
FIELD = {"id": "T2", "polygon": [[54, 4], [57, 4], [57, 6], [54, 6]]}


def with_obstacles() -> dict:
    d = json.loads(SAMPLE.read_text())
    d["obstacles"] = [dict(WALL), {"id": "H1", "kind": "hedge", "line": [[30, 15], [42, 15]]}]
    d["tank_traps"] = [dict(TRAPS), dict(FIELD)]
    return d


def test_shipped_maps_resave_byte_identical_and_have_no_obstacle_keys(tmp_path):
    for name in ("iron_cross_mapsheet.json", "iron_cross_mapsheet_corrected.json"):
        doc = load_map_file(DATA / name)
        assert doc.obstacles == [] and doc.tank_traps == []
        save_map(tmp_path / name, doc)
        assert (tmp_path / name).read_bytes() == (DATA / name).read_bytes()
    data = map_json(load_map_file(SAMPLE))
    assert "obstacles" not in data and "tank_traps" not in data


def test_obstacles_and_tank_traps_load_and_round_trip(tmp_path):
    m = map_from_data(with_obstacles(), "x.json")
    assert [(o.id, o.kind) for o in m.doc.obstacles] == [("W1", "wall"), ("H1", "hedge")]
    assert m.doc.obstacles[0].provenance.source == "designer"
    assert m.doc.tank_traps[1].polygon is not None and m.doc.tank_traps[0].line is not None
    out = tmp_path / "m.json"
    save_map(out, m.doc)
    back = load_map(out)
    assert back.doc == m.doc
    text = out.read_text()
    assert '"obstacles"' in text and '"tank_traps"' in text
    save_map(tmp_path / "again.json", back.doc)
    assert (tmp_path / "again.json").read_bytes() == out.read_bytes()
    # Iron Cross ignores them: the hex map's derived data is unchanged
    plain = load_map(SAMPLE)
    assert back.summary() == plain.summary()


def _check(tmp_path, mutate):
    d = with_obstacles()
    mutate(d)
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(d))
    res = CliRunner().invoke(cli, ["validate", str(p)])
    return res, p


BAD = {
    "unknown_kind": (lambda d: d["obstacles"][0].update(kind="minefield"), "$.obstacles[0].kind",
                     "'wall', 'low_stone_wall', 'hedge' or 'fence'"),
    "one_point": (lambda d: d["obstacles"][0].update(line=[[33, 9]]), "$.obstacles[0].line", "at least 2 items"),
    "no_length": (lambda d: d["obstacles"][1].update(line=[[30, 15], [30, 15]]), "$.obstacles[1].line",
                  "has no length"),
    "off_map": (lambda d: d["obstacles"][0].update(line=[[300, 9], [310, 9]]), "$.obstacles[0].line[0]",
                "lies off the map: x must be"),
    "just_off_map": (lambda d: d["obstacles"][0].update(line=[[68, 9], [69, 9]]), "$.obstacles[0].line",
                     "entirely outside the map"),
    "id_twice": (lambda d: d["tank_traps"][0].update(id="W1"), "$.tank_traps[0].id", "used twice"),
    "missing_id": (lambda d: d["obstacles"][0].pop("id"), "$.obstacles[0].id", "Field required"),
    "both_line_and_polygon": (lambda d: d["tank_traps"][0].update(polygon=[[1, 1], [2, 1], [2, 2]]),
                              "$.tank_traps[0]", "exactly one of 'line'"),
    "neither": (lambda d: d["tank_traps"][1].pop("polygon"), "$.tank_traps[1]", "exactly one of 'line'"),
    "bad_polygon": (lambda d: d["tank_traps"][1].update(polygon=[[54, 4], [57, 6], [57, 4], [54, 6]]),
                    "$.tank_traps[1].polygon", "not a valid polygon"),
    "extra_key": (lambda d: d["obstacles"][0].update(height=2), "$.obstacles[0].height", "Extra inputs"),
    "bad_provenance": (lambda d: d["obstacles"][0].update(provenance={"source": "reconstructed"}),
                       "$.obstacles[0].provenance", "rationale"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_obstacles_exit_1_naming_file_path_and_problem(tmp_path, case):
    mutate, path, words = BAD[case]
    res, p = _check(tmp_path, mutate)
    assert res.exit_code == 1, res.output
    assert "Traceback" not in res.output
    assert any(ln.startswith(f"{p}: {path}: ") and words in ln for ln in res.output.splitlines()), res.output


def test_save_refuses_an_invalid_obstacle_and_writes_nothing(tmp_path):
    doc = load_map_file(SAMPLE)
    bad = doc.model_copy(update={"obstacles": [Obstacle(id="W1", kind="wall", line=[(68, 1), (69, 1)])]})
    out = tmp_path / "m.json"
    with pytest.raises(DocumentError, match=r"\$\.obstacles\[0\]\.line: the line lies entirely outside the map"):
        save_map(out, bad)
    assert not out.exists()


def test_model_builds_obstacles_and_checks_tank_traps_shape():
    assert Obstacle(id="F", kind="fence", line=[(0, 0), (1, 1)]).kind == "fence"
    with pytest.raises(ValueError, match="exactly one of 'line'"):
        TankTraps(id="T")
    assert HexMap(load_map_file(SAMPLE)).doc.tank_traps == []
