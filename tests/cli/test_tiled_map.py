"""A map as a Tiled hexagonal map and back (``ironcross export tiled`` / ``import tiled``).

Export then import (with pytmx) equals the map: terrain, trees, levels, buildings, roads, gullies,
features and provenance, for the shipped mapsheet and for a small map whose first column is 00.
"""

from __future__ import annotations

import logging
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cli.main import main
from cli.tiled_map import _import_pytmx, HEX_SIDE, TILE_HEIGHT, TILE_WIDTH, export_tiled, import_tiled, lattice_to_px
from maps import hexgrid
from maps.mapfile import load_map_file, map_json
from maps.model import MapFile

ROOT = Path(__file__).resolve().parents[2]
MAPSHEET = ROOT / "maps" / "data" / "iron_cross_mapsheet.json"


def _edge_map() -> MapFile:
    """Columns 00-03, rows 01-04: a column-00 edge (even, so Tiled's stagger index is odd)."""
    rb = {"source": "rulebook", "ref": "2.1"}
    return MapFile.model_validate({
        "name": "edge", "extent": {"first_column": 0, "last_column": 3, "first_row": 1, "last_row": 4},
        "sections": [{"name": "West", "first_column": 0, "last_column": 1}],
        "provenance": {"source": "reconstructed", "rationale": "a test map"},
        "hexes": [{"id": "0001", "terrain": "marsh"}, {"id": "0102", "trees": 3, "provenance": rb},
                  {"id": "0203", "level": 2, "upper_level": 3, "note": "two elevations (10.34)"},
                  {"id": "0304"}],
        "buildings": [{"id": "B1", "number": 1, "polygon": [[2.5, 3.5], [4.5, 3.5], [4.5, 5.5], [2.5, 5.5]],
                       "provenance": rb}],
        "roads": [["0001", "0101", "0201", "0301"]],
        "gullies": [["0004", "0104", "0204"]],
        "features": [{"name": "Hill Z", "kind": "hill", "hexes": ["0203", "0202"], "provenance": rb}],
        "notes": ["a map at the sheet's edge"],
    })


def _round_trip(doc: MapFile, out: Path) -> MapFile:
    export_tiled(doc, out)
    return import_tiled(out)


def test_the_shipped_mapsheet_comes_back_equal(tmp_path: Path, caplog) -> None:
    doc = load_map_file(MAPSHEET)
    _import_pytmx()
    caplog.clear()  # pytmx's import-time note that pygame (which we do not use) is missing is not about our file
    with caplog.at_level(logging.DEBUG, logger="pytmx"):
        back = _round_trip(doc, tmp_path / "sheet.tmx")
    assert map_json(back) == map_json(doc)
    # the reference reader read it without a complaint
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []


def test_a_map_with_a_column_00_edge_comes_back_equal(tmp_path: Path) -> None:
    doc = _edge_map()
    back = _round_trip(doc, tmp_path / "edge.tmx")
    assert map_json(back) == map_json(doc)
    root = ET.parse(tmp_path / "edge.tmx").getroot()
    assert (root.get("orientation"), root.get("staggeraxis"), root.get("staggerindex")) == ("hexagonal", "x", "odd")


def test_an_odd_first_column_staggers_the_even_tiled_columns(tmp_path: Path) -> None:
    data = map_json(_edge_map())
    data["extent"]["first_column"] = 1
    data["sections"] = []
    data["hexes"] = [{"id": "0102", "trees": 2}]
    data["roads"], data["gullies"], data["features"], data["buildings"] = [["0101", "0201"]], [], [], []
    doc = MapFile.model_validate(data)
    back = _round_trip(doc, tmp_path / "odd.tmx")
    assert map_json(back) == map_json(doc)
    assert ET.parse(tmp_path / "odd.tmx").getroot().get("staggerindex") == "even"


def test_hex_geometry_follows_the_painter_and_tiled_cells() -> None:
    """A hex centre (lattice) is the centre of its Tiled cell: column c at c * 1.5 sides, odd
    printed columns half a tile lower (2.1 orientation)."""
    from editor.drawing.map_style import HEX_HEIGHT, HEX_WIDTH

    assert TILE_WIDTH == 2 * HEX_SIDE
    assert abs(TILE_HEIGHT / TILE_WIDTH - HEX_HEIGHT / HEX_WIDTH) < 0.01
    doc = load_map_file(MAPSHEET)
    for hid in ("1001", "1101", "4307", "7027"):
        h = hexgrid.parse_hex_id(hid)
        tc, tr = h.col - 10, h.row - 1
        x, y = lattice_to_px(doc, *hexgrid.centre(h))
        assert x == tc * 1.5 * HEX_SIDE + TILE_WIDTH / 2
        assert y == tr * TILE_HEIGHT + TILE_HEIGHT / 2 + (TILE_HEIGHT / 2 if h.col % 2 else 0)


def test_a_hex_repainted_in_tiled_comes_home_repainted(tmp_path: Path) -> None:
    """The tile layers decide terrain, levels and trees: change a cell's tile as Tiled would."""
    out = tmp_path / "edge.tmx"
    export_tiled(_edge_map(), out)
    tree = ET.parse(out)
    layer = next(el for el in tree.getroot().iter("layer") if el.get("name") == "trees")
    rows = [r.rstrip(",").split(",") for r in layer.find("data").text.strip().splitlines()]
    rows[3][3] = rows[1][1]  # hex 0304 gets the three trees of 0102
    layer.find("data").text = "\n" + ",\n".join(",".join(r) for r in rows) + "\n"
    tree.write(out, encoding="UTF-8", xml_declaration=True)
    back = {r.id: r for r in import_tiled(out).hexes}
    assert back["0304"].trees == 3


def test_cli_round_trip_names_what_tiled_cannot_hold(tmp_path: Path, capsys) -> None:
    assert main(["export", "tiled", str(MAPSHEET), "-o", str(tmp_path / "s.tmx")]) == 0
    out = capsys.readouterr().out
    assert "only as text properties" in out and "upper level" in out
    assert (tmp_path / "s-tiles.png").is_file()
    assert main(["import", "tiled", str(tmp_path / "s.tmx"), "-o", str(tmp_path / "s.json")]) == 0
    assert map_json(load_map_file(tmp_path / "s.json")) == map_json(load_map_file(MAPSHEET))
    assert main(["export", "tiled", str(MAPSHEET), "-o", str(tmp_path / "s.tmj")]) == 0


def test_unwritable_output_is_an_error_naming_the_file_and_leaves_nothing(tmp_path: Path, capsys) -> None:
    (tmp_path / "s.tmx").mkdir()  # the map's name is taken by a folder: the map cannot be put in place
    with pytest.raises(OSError, match="s.tmx"):
        export_tiled(load_map_file(MAPSHEET), tmp_path / "s.tmx")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.tmx"]  # no tileset, no temporary file
    (tmp_path / "plain").write_text("a file, not a folder")
    assert main(["export", "tiled", str(MAPSHEET), "-o", str(tmp_path / "plain" / "s.tmx")]) == 1
    err = capsys.readouterr().err.strip()
    assert str(tmp_path / "plain") in err and "\n" not in err


def test_a_file_that_is_not_ours_is_refused_in_one_line(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.tmx"
    bad.write_text("<map version='1.10'", encoding="utf-8")
    assert main(["import", "tiled", str(bad), "-o", str(tmp_path / "m.json")]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(str(bad)) and "\n" not in err
    assert not (tmp_path / "m.json").exists()
    assert main(["import", "tiled", str(tmp_path / "x.tmj"), "-o", str(tmp_path / "m.json")]) == 1
    assert "only TMX" in capsys.readouterr().err
