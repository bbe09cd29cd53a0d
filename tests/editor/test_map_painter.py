"""The map renderer: PNG and SVG through the CLI, pixel colours at known hexes, sections, errors."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from maps import hexgrid
from maps.hexgrid import Hex
from maps.mapfile import load_map, map_from_data

pytest.importorskip("PySide6.QtSvg")

from PySide6.QtCore import QRectF  # noqa: E402
from PySide6.QtGui import QColor, QImage, QPainter  # noqa: E402

from editor.drawing.map_style import HEX_HEIGHT, HEX_WIDTH, LAYERS
from editor.drawing.map_painter import MapPainter, UnknownSectionError, render_png
from editor.drawing.hex_scene import hex_at_scene, hex_centre_scene

SAMPLE = Path(__file__).resolve().parents[2] / "maps" / "data" / "sample_village.json"
PX = 64.0  # the CLI's pixels per hex (across flats)


@pytest.fixture(scope="module")
def sample():
    return load_map(SAMPLE)


def _run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def _pixel_at_hex(img: QImage, mp: MapPainter, section: str | None, hex_id: str, dx: float = 0, dy: float = 0) -> QColor:
    """Colour of the PNG pixel at a hex centre (+ offset in scene units)."""
    r = mp.scene_rect(section)
    c = hex_centre_scene(hexgrid.parse_hex_id(hex_id))
    s = PX / HEX_HEIGHT
    return img.pixelColor(int((c.x() + dx - r.left()) * s), int((c.y() + dy - r.top()) * s))


def _colours_in_hex(img: QImage, mp: MapPainter, section: str | None, hex_id: str) -> list[QColor]:
    out = []
    for dx in range(-40, 41, 4):
        for dy in range(-30, 41, 4):
            out.append(_pixel_at_hex(img, mp, section, hex_id, dx, dy))
    return out


def _is_marsh(c: QColor) -> bool:
    return c.blue() > c.red() + 15 and c.green() > c.red() + 15


def _is_tree_green(c: QColor) -> bool:
    return c.green() > c.red() + 30 and c.green() > c.blue() + 30


def _is_building_red(c: QColor) -> bool:
    return c.red() > 120 and c.green() < 80 and c.blue() < 80


# ------------------------------------------------------------------ the CLI


def test_render_png_whole_map(qapp, tmp_path, sample):
    out = tmp_path / "village.png"
    res = _run("render", str(SAMPLE), "-o", str(out))
    assert res.exit_code == 0, res.output
    assert "wrote" in res.output
    img = QImage(str(out))
    assert not img.isNull()
    mp = MapPainter(sample)
    r = mp.scene_rect(None)
    assert (img.width(), img.height()) == (math.ceil(r.width() * PX / HEX_HEIGHT), math.ceil(r.height() * PX / HEX_HEIGHT))
    # not a blank picture
    colours = {img.pixel(x, y) for x in range(0, img.width(), 7) for y in range(0, img.height(), 7)}
    assert len(colours) > 20
    # terrain at known hexes
    assert _is_marsh(_pixel_at_hex(img, mp, None, "1808")), "marsh hex centre is blue-green"
    assert any(_is_tree_green(c) for c in _colours_in_hex(img, mp, None, "1304")), "woods hex shows tree crowns"
    assert _is_building_red(_pixel_at_hex(img, mp, None, "1106")), "building B2 fills hex 1106's centre"
    clear = _pixel_at_hex(img, mp, None, "2008", 20, 10)
    assert clear.red() > 220 and clear.green() > 200 and clear.blue() < clear.red() - 20, "clear hex is pale buff"
    lvl1 = _pixel_at_hex(img, mp, None, "1703", 25, 10)
    lvl2 = _pixel_at_hex(img, mp, None, "1903", 25, 10)
    assert clear.lightness() > lvl1.lightness() > lvl2.lightness(), "hills darken with level"
    road = _pixel_at_hex(img, mp, None, "1608")
    assert abs(road.red() - road.blue()) < 40 and road.red() < 200, "road through 1608 is grey-brown"
    # the marsh symbol has strokes darker than the marsh fill
    assert any(c.lightness() < 120 and c.blue() > c.red() for c in _colours_in_hex(img, mp, None, "1909"))


def test_render_svg(qapp, tmp_path):
    out = tmp_path / "village.svg"
    res = _run("render", str(SAMPLE), "-o", str(out))
    assert res.exit_code == 0, res.output
    text = out.read_text(encoding="utf-8")
    assert text.lstrip().startswith("<?xml") and "<svg" in text
    assert "Sample village" in text  # title
    assert "1808" in text  # printed hex ids are text
    from PySide6.QtSvg import QSvgRenderer

    assert QSvgRenderer(str(out)).isValid()


def test_section_restricts_columns(qapp, tmp_path, sample):
    west, east = tmp_path / "west.png", tmp_path / "east.png"
    assert _run("render", str(SAMPLE), "-o", str(west), "--section", "West").exit_code == 0
    assert _run("render", str(SAMPLE), "-o", str(east), "--section", "East").exit_code == 0
    wi, ei = QImage(str(west)), QImage(str(east))
    mp = MapPainter(sample)
    whole = mp.map_rect(None)
    wr = mp.map_rect("West")
    # West = columns 10-15: six columns, a quarter hex less per column than the corner width
    assert wr.width() == pytest.approx(HEX_WIDTH + 5 * 0.75 * HEX_WIDTH)
    assert wr.width() < whole.width()
    assert wi.width() == math.ceil(mp.scene_rect("West").width() * PX / HEX_HEIGHT)
    # the marsh (columns 18-19) is only in the East picture
    def marsh_pixels(img):
        return sum(_is_marsh(img.pixelColor(x, y)) for x in range(0, img.width(), 3) for y in range(0, img.height(), 3))
    assert marsh_pixels(ei) > 100
    assert marsh_pixels(wi) < 5  # the legend has no marsh swatch either
    # a hex of column 15 (shared) is drawn in both
    assert _is_building_red(_pixel_at_hex(wi, mp, "West", "1508", -25, 0))
    assert _is_building_red(_pixel_at_hex(ei, mp, "East", "1508", -25, 0))


def test_unknown_section_exits_1(qapp, tmp_path):
    res = CliRunner().invoke(cli, ["render", str(SAMPLE), "-o", str(tmp_path / "x.png"), "--section", "Map 9"])
    assert res.exit_code == 1
    assert "no section named 'Map 9'" in res.output and "'West'" in res.output
    assert "Traceback" not in res.output
    assert not (tmp_path / "x.png").exists()


def test_unknown_extension_exits_with_message(qapp, tmp_path):
    res = CliRunner().invoke(cli, ["render", str(SAMPLE), "-o", str(tmp_path / "x.jpg")])
    assert res.exit_code in (1, 2)
    assert ".png or .svg" in res.output


def test_invalid_map_exits_1(qapp, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "ironcross-map", "version": 1, "name": "x", '
                   '"extent": {"first_column": 10, "last_column": 12, "first_row": 1, "last_row": 3}, '
                   '"hexes": [{"id": "9999"}]}', encoding="utf-8")
    res = CliRunner().invoke(cli, ["render", str(bad), "-o", str(tmp_path / "x.png")])
    assert res.exit_code == 1
    assert "$.hexes[0].id" in res.output and "Traceback" not in res.output


# ------------------------------------------------------------------ the painter's API


MAPSHEET = SAMPLE.parent / "iron_cross_mapsheet.json"


@pytest.mark.skipif(not MAPSHEET.exists(), reason="the mapsheet is not shipped yet")
@pytest.mark.parametrize("section", ["Map 1", "Map 2", "Map 3"])
def test_mapsheet_sections_render(qapp, tmp_path, section):
    out = tmp_path / "s.png"
    res = _run("render", str(MAPSHEET), "-o", str(out), "--section", section)
    assert res.exit_code == 0, res.output
    assert QImage(str(out)).width() > 500


def test_scene_geometry_is_regular_hexes_from_the_lattice():
    c = hex_centre_scene(Hex(43, 7))
    assert hex_at_scene(c.x(), c.y()) == Hex(43, 7)
    assert HEX_WIDTH / HEX_HEIGHT == pytest.approx(2 / math.sqrt(3))
    # neighbouring centres are one hex height apart in every direction (regular hexes)
    for nb in hexgrid.neighbours(Hex(43, 7)):
        d = hex_centre_scene(nb) - c
        assert math.hypot(d.x(), d.y()) == pytest.approx(HEX_HEIGHT)


def test_layers_toggle_and_validate(qapp, sample):
    mp = MapPainter(sample, layers=["grid", "ids"])
    assert mp.layers == {"grid", "ids"}
    mp.set_layer("trees", True)
    assert "trees" in mp.layers
    with pytest.raises(ValueError):
        mp.set_layer("rivers", True)
    with pytest.raises(ValueError):
        MapPainter(sample, layers=["nope"])
    with pytest.raises(UnknownSectionError):
        mp.scene_rect("Map 9")
    # without title and legend the scene rect hugs the map
    bare = MapPainter(sample, layers=set(LAYERS) - {"title", "legend", "sections"})
    assert bare.scene_rect().height() < MapPainter(sample).scene_rect().height()


def test_paint_into_target_rect_without_trees(qapp, sample):
    img = QImage(400, 400, QImage.Format.Format_ARGB32)
    img.fill(QColor("white"))
    p = QPainter(img)
    MapPainter(sample, layers=set(LAYERS) - {"trees"}).paint(p, target_rect=QRectF(0, 0, 400, 400))
    p.end()
    colours = [img.pixelColor(x, y) for x in range(0, 400, 2) for y in range(0, 400, 2)]
    assert not any(_is_tree_green(c) for c in colours)
    assert any(_is_marsh(c) for c in colours)


def _provenance_map():
    return map_from_data({
        "format": "ironcross-map", "version": 1, "name": "Provenance test",
        "extent": {"first_column": 10, "last_column": 14, "first_row": 1, "last_row": 4},
        "provenance": {"source": "reconstructed", "rationale": "test layout"},
        "hexes": [{"id": "1102", "provenance": {"source": "rulebook", "ref": "10.31 example"}}],
        "buildings": [{"id": "B1", "number": 1, "polygon": [[35, 5], [37, 5], [37, 7], [35, 7]]}],
        "features": [{"name": "Hill K", "kind": "hill", "hexes": ["1302"],
                      "provenance": {"source": "reconstructed", "rationale": "placed near 1302"}}],
    })


def test_provenance_conventions(qapp, tmp_path):
    m = _provenance_map()
    mp = MapPainter(m)
    keys = [k for k, _ in mp._legend_entries(mp._geometry(None))]
    assert "rulebook_hex" in keys and "dashed" in keys and "italic" in keys
    out = tmp_path / "prov.svg"
    from editor.drawing.map_painter import render_svg

    render_svg(m, out)
    text = out.read_text(encoding="utf-8")
    assert "reconstructed layout" in text
    assert "stroke-dasharray" in text  # the reconstructed building's outline
    png = tmp_path / "prov.png"
    render_png(m, png, px_per_hex=PX)
    img = QImage(str(png))
    # the rulebook marker: a small black diamond beside the printed id of hex 1102 only
    assert _pixel_at_hex(img, mp, None, "1102", 28, -HEX_HEIGHT / 2 + 10).lightness() < 60
    assert _pixel_at_hex(img, mp, None, "1202", 28, -HEX_HEIGHT / 2 + 10).lightness() > 150


def test_20mm_infantry_moving_and_firing_in_buildings_painter_draws_room_walls_doors_and_windows(qapp):
    """A door is a gap in the outline (the building's fill), a window a thin double line with a
    light core, a room wall a thin dark line (seed 003, "Infantry Moving and Firing in Buildings")."""
    from editor.drawing.map_style import SCENE_PER_X, SCENE_PER_Y
    from tests.maps.test_map_rooms import with_rooms

    m = map_from_data(with_rooms(), "x.json")
    s = 600.0 / HEX_HEIGHT                    # 600 px a hex: only the window around the rooms is painted
    left, top = 32.0 * SCENE_PER_X, 12.0 * SCENE_PER_Y
    window = QRectF(left, top, 2.0 * SCENE_PER_X, 2.0 * SCENE_PER_Y)

    def paint(hexmap) -> QImage:
        image = QImage(math.ceil(window.width() * s), math.ceil(window.height() * s),
                       QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(QColor("white"))
        p = QPainter(image)
        p.scale(s, s)
        p.translate(-left, -top)
        p.setClipRect(window)
        MapPainter(hexmap).paint(p, exposed=window)
        p.end()
        return image

    img = paint(m)

    def at(x, y) -> QColor:
        return img.pixelColor(int((x * SCENE_PER_X - left) * s), int((y * SCENE_PER_Y - top) * s))

    assert _is_building_red(at(33.45, 13.5)), "the south door is a gap in the outline"
    assert at(32.5, 13.5).lightness() < 60, "a blank stretch of the outline stays dark"
    assert at(32.6, 12.5).lightness() > 200, "the window's light core"
    assert at(33.0, 12.65).lightness() < 60, "the wall between the rooms"
    assert _is_building_red(at(33.0, 13.0)), "the door between the rooms is a gap in it"
    img = paint(load_map(SAMPLE))
    assert at(33.45, 13.5).lightness() < 60 and _is_building_red(at(33.0, 12.65)), "no rooms, doors or windows: as before"
