"""What the editor derives from a map's content is shared between documents of equal content
(a scenario opened again draws at once) and never outlives an edit: the painter's geometry
(:data:`editor.drawing.map_geometry.SHARED_GEOMETRY`) and the design checks' movement costs
(:func:`core.ironcross.design_checks.reach_costs`, 8.5)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QRectF  # noqa: E402
from PySide6.QtGui import QColor, QImage, QPainter  # noqa: E402

from core.ironcross.design_checks import design_warnings, reach_costs  # noqa: E402
from core.ironcross.scenario_setup import build_setup  # noqa: E402
from editor.drawing.map_geometry import SHARED_GEOMETRY  # noqa: E402
from editor.drawing.map_painter import MapPainter  # noqa: E402
from editor.map.commands import PaintTerrainCommand, PaintTreesCommand  # noqa: E402
from editor.map.document import MapDocument  # noqa: E402
from maps import building_shapes  # noqa: E402
from maps.model import HexRecord  # noqa: E402
from scenarios.model import Scenario  # noqa: E402
from tests.mapbuilder import make_map  # noqa: E402


def village():
    """A small map with something of every kind the painter draws (a new object every call)."""
    poly = [tuple(p) for p in building_shapes.polygon_coords(building_shapes.footprint(["1405", "1406"]))]
    return make_map(cols=(10, 22), rows=(1, 10), trees={"1203": 2, "1603": 4}, levels={"1807": 1, "1808": 2},
                    marsh=["2002"], buildings={"B1": poly}, roads=[["1001", "1002", "1003", "1004"]],
                    gullies=[["1908", "1909", "1910"]], features={"Hill K": ["1807", "1808"]})


def picture(mp: MapPainter) -> QImage:
    img = QImage(520, 420, QImage.Format.Format_ARGB32)
    img.fill(QColor("white"))
    p = QPainter(img)
    mp.paint(p, target_rect=QRectF(0, 0, 520, 420))
    p.end()
    return img


def fresh_picture(hexmap) -> QImage:
    """The picture of a painter that builds its geometry itself (nothing shared)."""
    kept = dict(SHARED_GEOMETRY._items)
    SHARED_GEOMETRY.clear()
    try:
        return picture(MapPainter(hexmap))
    finally:
        SHARED_GEOMETRY._items.update(kept)


def test_a_map_of_the_same_content_draws_from_the_shared_geometry(qapp):
    a, b = MapPainter(village()), MapPainter(village())
    first = picture(a)
    hits = SHARED_GEOMETRY.hits
    second = picture(b)
    assert SHARED_GEOMETRY.hits > hits                      # b built nothing
    cols = (10, 22)
    assert b._cache[cols] is not a._cache[cols]             # each painter has its own tables
    assert b._cache[cols].blocks is not a._cache[cols].blocks
    assert second == first == fresh_picture(village())


def test_a_painted_hex_is_never_drawn_from_the_geometry_of_the_map_before(qapp):
    doc = MapDocument(village().doc)
    before = picture(MapPainter(doc.hexmap))
    # the trees brush on an empty hex and the terrain brush (marsh) on another, as the tools push them
    doc.undo_stack.push(PaintTreesCommand(doc, "Paint trees", {"1507": HexRecord(id="1507", trees=3)}))
    doc.undo_stack.push(PaintTerrainCommand(doc, "Paint terrain", {"1109": HexRecord(id="1109", terrain="marsh")}))
    after = picture(MapPainter(doc.hexmap))                 # a new painter of the edited map
    assert after != before
    assert after == fresh_picture(doc.hexmap)
    assert "marsh" in MapPainter(doc.hexmap)._geometry(None).present
    doc.undo_stack.undo()
    doc.undo_stack.undo()                                   # back to the first content: its geometry again
    assert picture(MapPainter(doc.hexmap)) == before


def test_an_edit_drawn_by_one_painter_leaves_the_shared_geometry_alone(qapp):
    doc = MapDocument(village().doc)
    a = MapPainter(doc.hexmap)
    before = picture(a)
    b = MapPainter(village())                               # same content: from the shared geometry
    assert picture(b) == before
    doc.undo_stack.push(PaintTreesCommand(doc, "Paint trees", {"1507": HexRecord(id="1507", trees=3)}))
    a.update_map(doc.hexmap, ["1507"])                      # rebuilds a's blocks in place
    assert picture(a) == fresh_picture(doc.hexmap) != before
    assert picture(b) == before                             # b and the shared copy did not change
    assert picture(MapPainter(village())) == before


def test_a_building_edit_after_a_shared_geometry_rebuilds_only_that_building(qapp):
    """The adopted geometry's buildings are tied to this map's records: an edit of another field
    keeps them, as it does in a geometry the painter built itself."""
    MapPainter(village()).scene_rect()                       # in the shared cache
    doc = MapDocument(village().doc)
    mp = MapPainter(doc.hexmap)
    g = mp._geometry(None)
    (item,) = g.buildings
    doc.undo_stack.push(PaintTreesCommand(doc, "Paint trees", {"1507": HexRecord(id="1507", trees=3)}))
    doc.apply(fields={"features": []})                      # labels change, buildings do not
    rects = mp.update_map(doc.hexmap)
    assert g.buildings[0] is item
    assert not any(r.contains(item.rect) for r in rects)


CLEAR = dict(cols=(10, 35), rows=(1, 10))
GOAL = "2105"   # 11 hexes east of 1005: a German platoon leader gets there in Game Turn 1 over clear hexes


def _scenario() -> Scenario:
    return Scenario.model_validate({
        "title": "Test", "map": {"file": "test.json", "sections": ["All"]},
        "north": {"hex": "1002", "points_to": "1001"}, "turns": 1, "sets_up_first": "german",
        "moves_first": "german",
        "german": {"groups": [{"name": "G", "oob": [{"kind": "commander", "type": "PL", "text": "PL"}],
                               "setup": {"region": {"kind": "hexes", "hexes": ["1005"]}}}]},
        "russian": {"groups": [{"name": "R", "oob": [{"kind": "commander", "type": "PL", "pr": 10, "text": "PL"}],
                                "setup": {"region": {"kind": "hexes", "hexes": ["1010"]}}}]},
        "victory": {"outcomes": [{"result": "german", "condition": {
            "kind": "at_least", "side": "german", "count": 1, "region": {"kind": "hexes", "hexes": [GOAL]}}}],
            "default": "draw"},
    })


def _warnings(sc, hexmap, costs):
    return [w.message for w in design_warnings(sc, hexmap, build_setup(sc, hexmap), costs=costs)]


def test_reach_costs_are_shared_by_maps_of_the_same_content_and_charts():
    a, b = make_map(**CLEAR), make_map(**CLEAR)
    costs = reach_costs(a, a.chart)
    sc = _scenario()
    assert _warnings(sc, a, costs) == []
    assert costs                                            # filled by the checks
    assert reach_costs(b, b.chart) is costs


def test_reach_after_a_painted_wall_of_marsh_uses_the_edited_map(qapp):
    """8.5: a wall of marsh across the way slows the platoon leader; the costs remembered for the
    clear map are not used for the painted one."""
    sc = _scenario()
    doc = MapDocument(make_map(**CLEAR).doc)
    clear_costs = reach_costs(doc.hexmap, doc.chart)
    assert _warnings(sc, doc.hexmap, clear_costs) == []
    wall = {f"15{r:02d}": HexRecord(id=f"15{r:02d}", terrain="marsh") for r in range(1, 11)}
    doc.undo_stack.push(PaintTerrainCommand(doc, "Paint terrain", wall))
    costs = reach_costs(doc.hexmap, doc.chart)
    assert costs is not clear_costs
    got = _warnings(sc, doc.hexmap, costs)
    assert got == _warnings(sc, doc.hexmap, None) and len(got) == 1 and f"hex {GOAL}" in got[0]
    doc.undo_stack.undo()
    assert reach_costs(doc.hexmap, doc.chart) is clear_costs
    assert _warnings(sc, doc.hexmap, clear_costs) == []


def test_reach_after_an_edited_chart_uses_the_edited_chart(qapp):
    """8.5: clear terrain made as dear UP as DOWN (2 MP) keeps the platoon leader from the goal in
    Game Turn 1; the costs remembered for the shipped chart are not used."""
    sc = _scenario()
    doc = MapDocument(make_map(**CLEAR).doc)
    costs = reach_costs(doc.hexmap, doc.chart)
    assert _warnings(sc, doc.hexmap, costs) == []
    data = doc.chart.model_dump(mode="json")
    clear = next(r for r in data["rows"] if r["key"] == "clear")
    clear["move"]["infantry_up"]["value"] = 2
    doc.set_chart(type(doc.chart).model_validate_json(json.dumps(data)))
    edited = reach_costs(doc.hexmap, doc.chart)
    assert edited is not costs
    got = _warnings(sc, doc.hexmap, edited)
    assert got == _warnings(sc, doc.hexmap, None) and len(got) == 1 and f"hex {GOAL}" in got[0]
