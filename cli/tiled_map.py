"""A map as a Tiled hexagonal map (TMX or TMJ), and a TMX map read back (with pytmx) as a map file.

**Geometry.** Tiled's hexagonal orientation with stagger axis ``x``: flat-topped hexes in columns,
every other column shifted down half a hex, as the printed mapsheet is (:mod:`maps.hexgrid`: odd
printed columns shifted down). Tiled counts columns from 0 at the map's first column, so the
stagger index is ``odd`` when the first printed column is even and ``even`` when it is odd. The hex
side length comes from the painter's geometry (:data:`editor.drawing.map_painter.HEX_WIDTH` is two sides):
tiles are :data:`TILE_WIDTH` x :data:`TILE_HEIGHT` pixels with a side of :data:`HEX_SIDE` pixels
(a regular hex 60 wide is 51.96 tall; Tiled needs whole pixels, so 52). One lattice unit of
:mod:`maps.hexgrid` is :data:`PX_PER_X` pixels across and :data:`PX_PER_Y` down, so a hex centre
(lattice ``3 col, 2 row + col % 2``) is the centre of its Tiled cell exactly.

**Layers** (bottom up): ``terrain`` (tiles: clear or marsh), ``levels`` (tiles: hill level 1-9),
``trees`` (tiles: 1-9 tree symbols), each tile carrying its value as a property (``terrain``,
``level``, ``trees``) and drawn by the product's own painter (:class:`editor.drawing.map_painter.MapPainter`)
into one generated tileset image ``NAME-tiles.png`` beside the map; object layers ``buildings``
(polygons), ``roads`` and ``gullies`` (polylines through the hex centres of each path),
``obstacles`` and ``tank traps`` (polylines or polygons), ``features`` (one named point object per
named feature, its hexes in the ``hexes`` property) and ``hexes`` (a point object named by the
printed id at every hex's centre, with the hex's values as properties). The map's own values
(name, extent, sections, provenance, notes, terrain chart) are map properties.

**Reading back** (:func:`import_tiled`) takes terrain, levels and trees from the tile layers (so a
hex repainted in Tiled comes home repainted), roads and gullies from the polylines' vertices (the
hex under each vertex), buildings from the polygons, and the rest from the properties. What Tiled
cannot hold as drawing is kept as text properties and named by :data:`NOT_DRAWN` (the export
prints it).
"""

from __future__ import annotations

import json
import logging
import math
import os
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from maps import hexgrid
from maps.document_file import DocumentError
from maps.json_file import DEFAULT_LIMIT, JsonFileProblem, parse_json, read_text_file
from maps.model import MapFile

__all__ = ["HEX_SIDE", "TILE_WIDTH", "TILE_HEIGHT", "PX_PER_X", "PX_PER_Y", "NOT_DRAWN", "TiledError",
           "export_tiled", "import_tiled", "lattice_to_px", "px_to_lattice"]

#: Hex side length in Tiled pixels; the tile is two sides wide and a regular hex's height (rounded) tall.
HEX_SIDE: int = 30
TILE_WIDTH: int = 2 * HEX_SIDE
TILE_HEIGHT: int = round(HEX_SIDE * math.sqrt(3.0))
#: Tiled pixels per lattice unit (maps.hexgrid): a column is 3 lattice units and 1.5 sides wide;
#: a hex is 2 lattice units tall.
PX_PER_X: float = 1.5 * HEX_SIDE / 3
PX_PER_Y: float = TILE_HEIGHT / 2

#: What the Tiled map holds only as text properties (Tiled shows them in its Properties panel but
#: neither draws nor checks them); printed by ``ironcross export tiled``.
NOT_DRAWN: tuple[str, ...] = (
    "each hex's upper level (10.34), provenance and note (properties of its object in 'hexes')",
    "building numbers, names, provenance, rooms and doors/windows (properties of each polygon)",
    "the map's sections, provenance, notes and terrain chart (map properties)",
    "hill outlines: levels are whole-hex tiles, the contours the painter draws are not in the tileset",
)

#: Largest TMX file read back, in bytes: four times the map limit (XML spells out what the map's JSON
#: holds; the whole shipped map sheet's TMX is well under a megabyte).
TMX_LIMIT = 4 * DEFAULT_LIMIT

_TREES_MAX = 9
_LEVEL_MAX = 9
# tile ids of the generated tileset: terrain kinds, then levels 1-9, then trees 1-9
_TERRAIN_TILES = {"clear": 0, "marsh": 1}
_LEVEL_BASE = 2
_TREES_BASE = _LEVEL_BASE + _LEVEL_MAX
_TILE_COUNT = _TREES_BASE + _TREES_MAX
_COLUMNS = 10


class TiledError(ValueError):
    """A Tiled map cannot be read back (names the file and the problem)."""


# ---------------------------------------------------------------------------------------------
# Geometry
# ---------------------------------------------------------------------------------------------
def _origin(doc: MapFile) -> tuple[int, int]:
    return doc.extent.first_column, doc.extent.first_row


def lattice_to_px(doc: MapFile, x: float, y: float) -> tuple[float, float]:
    """Tiled pixels of the lattice point (x, y) of map ``doc`` (its first column and row at 0)."""
    c0, r0 = _origin(doc)
    return ((x - 3 * c0) * PX_PER_X + TILE_WIDTH / 2, (y - 2 * r0) * PX_PER_Y + TILE_HEIGHT / 2)


def px_to_lattice(c0: int, r0: int, px: float, py: float) -> tuple[float, float]:
    """Lattice point of Tiled pixel (px, py) of a map whose first column and row are c0, r0.

    Values that were whole or short decimals before the export come back exactly (snapped to six
    decimals when within 1e-7 of them)."""
    def snap(v: float) -> float:
        r = round(v, 6)
        return r if abs(v - r) < 1e-7 else v

    return (snap((px - TILE_WIDTH / 2) / PX_PER_X + 3 * c0), snap((py - TILE_HEIGHT / 2) / PX_PER_Y + 2 * r0))


def _centre_px(doc: MapFile, hex_id: str) -> tuple[float, float]:
    return lattice_to_px(doc, *hexgrid.centre(hexgrid.parse_hex_id(hex_id)))


# ---------------------------------------------------------------------------------------------
# The tileset, drawn by the product's painter
# ---------------------------------------------------------------------------------------------
def _tile_image(record: dict, layers: set[str], transparent: bool):
    """One tile: a 3 x 3 map whose hexes all hold ``record``'s values, painted with ``layers`` and
    cut to the middle hex (so no contour or edge of the neighbours shows)."""
    from PySide6.QtCore import QPointF, Qt
    from PySide6.QtGui import QColor, QImage, QPainter, QPainterPath, QPolygonF

    from editor.drawing.hex_scene import hex_centre_scene
    from editor.drawing.map_painter import MapPainter, ensure_app
    from editor.drawing.map_style import HEX_WIDTH, SCENE_PER_X, SCENE_PER_Y
    from maps.hexmap import HexMap

    ensure_app()
    hexes = [dict(record, id=hexgrid.hex_id(c, r)) for c in (10, 11, 12) for r in (1, 2, 3)]
    doc = MapFile(name="tile", extent={"first_column": 10, "last_column": 12, "first_row": 1, "last_row": 3},
                  hexes=hexes)
    painter_map = MapPainter(HexMap(doc), layers=layers)
    middle = hexgrid.Hex(11, 2)
    scale = TILE_WIDTH / HEX_WIDTH
    img = QImage(TILE_WIDTH, TILE_HEIGHT, QImage.Format.Format_ARGB32_Premultiplied)
    img.fill(Qt.GlobalColor.transparent)
    p = QPainter(img)
    try:
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.translate(TILE_WIDTH / 2, TILE_HEIGHT / 2)
        p.scale(scale, TILE_HEIGHT / 100.0)
        c = hex_centre_scene(middle)
        p.translate(-c.x(), -c.y())
        clip = QPainterPath()
        clip.addPolygon(QPolygonF([QPointF(x * SCENE_PER_X, y * SCENE_PER_Y) for x, y in hexgrid.vertices(middle)]))
        p.setClipPath(clip)
        painter_map.paint(p)
    finally:
        p.end()
    if transparent:  # the painter lays the clear ground under everything: lift it off
        from editor.drawing.map_style import CLEAR

        ground = QColor(CLEAR)
        for y in range(img.height()):
            for x in range(img.width()):
                if img.pixelColor(x, y) == ground:
                    img.setPixelColor(x, y, QColor(0, 0, 0, 0))
    return img


def _tileset_image():
    """The tileset image: terrain (clear, marsh), levels 1-9, trees 1-9 as painted by the product."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage, QPainter

    rows = math.ceil(_TILE_COUNT / _COLUMNS)
    sheet = QImage(_COLUMNS * TILE_WIDTH, rows * TILE_HEIGHT, QImage.Format.Format_ARGB32_Premultiplied)
    sheet.fill(Qt.GlobalColor.transparent)
    tiles: list[Any] = [None] * _TILE_COUNT
    tiles[_TERRAIN_TILES["clear"]] = _tile_image({}, {"grid"}, False)
    tiles[_TERRAIN_TILES["marsh"]] = _tile_image({"terrain": "marsh"}, {"marshes", "grid"}, False)
    for lvl in range(1, _LEVEL_MAX + 1):
        tiles[_LEVEL_BASE + lvl - 1] = _tile_image({"level": lvl}, {"levels", "grid"}, False)
    for n in range(1, _TREES_MAX + 1):
        tiles[_TREES_BASE + n - 1] = _tile_image({"trees": n}, {"trees"}, True)
    p = QPainter(sheet)
    try:
        for i, tile in enumerate(tiles):
            p.drawImage((i % _COLUMNS) * TILE_WIDTH, (i // _COLUMNS) * TILE_HEIGHT, tile)
    finally:
        p.end()
    return sheet


def _tile_properties(tile: int) -> dict[str, Any]:
    if tile < _LEVEL_BASE:
        return {"terrain": next(k for k, v in _TERRAIN_TILES.items() if v == tile)}
    if tile < _TREES_BASE:
        return {"level": tile - _LEVEL_BASE + 1}
    return {"trees": tile - _TREES_BASE + 1}


# ---------------------------------------------------------------------------------------------
# The map as Tiled's data (one structure, written as TMX or TMJ)
# ---------------------------------------------------------------------------------------------
def _prop(name: str, value: Any) -> dict[str, Any]:
    if isinstance(value, bool):
        return {"name": name, "type": "bool", "value": value}
    if isinstance(value, int):
        return {"name": name, "type": "int", "value": value}
    if isinstance(value, float):
        return {"name": name, "type": "float", "value": value}
    if isinstance(value, str):
        return {"name": name, "type": "string", "value": value}
    return {"name": name, "type": "string", "value": json.dumps(value, ensure_ascii=False, sort_keys=True)}


def _props(values: dict[str, Any]) -> list[dict[str, Any]]:
    return [_prop(k, v) for k, v in values.items() if v is not None]


def _dump(model) -> Any:
    return None if model is None else model.model_dump(mode="json", exclude_none=True)


def tiled_data(doc: MapFile, image_name: str) -> dict[str, Any]:
    """The Tiled map of ``doc`` as Tiled's JSON structure (what a ``.tmj`` holds; the TMX says the same).

    ``image_name``: the tileset image's file name, relative to the map file.
    """
    from maps.mapfile import map_json

    ex = doc.extent
    width, height = ex.last_column - ex.first_column + 1, ex.last_row - ex.first_row + 1
    records = {r.id: r for r in doc.hexes}
    terrain, levels, trees = [], [], []
    for r in range(ex.first_row, ex.last_row + 1):
        for c in range(ex.first_column, ex.last_column + 1):
            rec = records.get(hexgrid.hex_id(c, r))
            terrain.append(1 + _TERRAIN_TILES[rec.terrain if rec else "clear"])
            lvl, n = (rec.level, rec.trees) if rec else (0, 0)
            levels.append(1 + _LEVEL_BASE + lvl - 1 if lvl else 0)
            trees.append(1 + _TREES_BASE + n - 1 if n else 0)
    next_id = 1

    def obj(**kw) -> dict[str, Any]:
        nonlocal next_id
        o = {"id": next_id, "name": "", "type": "", "x": 0.0, "y": 0.0, "width": 0, "height": 0,
             "rotation": 0, "visible": True}
        o.update(kw)
        next_id += 1
        return o

    def points(coords) -> list[dict[str, float]]:
        return [dict(zip("xy", lattice_to_px(doc, x, y))) for x, y in coords]

    def path(ids: list[str]) -> list[dict[str, float]]:
        return [dict(zip("xy", _centre_px(doc, t))) for t in ids]

    buildings = [obj(name=b.display_name(), type="building", polygon=points(b.polygon),
                     properties=_props({"building id": b.id, "number": b.number, "building name": b.name, "provenance": _dump(b.provenance),
                                        "note": b.note,
                                        "rooms": b.rooms, "openings": [_dump(o) for o in b.openings]
                                        if b.openings is not None else None}))
                 for b in doc.buildings]
    roads = [obj(name=f"road {i + 1}", type="road", polyline=path(p)) for i, p in enumerate(doc.roads)]
    gullies = [obj(name=f"gully {i + 1}", type="gully", polyline=path(p)) for i, p in enumerate(doc.gullies)]
    obstacles = [obj(name=o.id, type=o.kind, polyline=points(o.line),
                     properties=_props({"provenance": _dump(o.provenance), "note": o.note})) for o in doc.obstacles]
    traps = [obj(name=t.id, type="tank traps",
                 **({"polyline": points(t.line)} if t.line is not None else {"polygon": points(t.polygon)}),
                 properties=_props({"provenance": _dump(t.provenance), "note": t.note})) for t in doc.tank_traps]
    features = []
    for f in doc.features:
        x, y = _centre_px(doc, f.hexes[0])
        features.append(obj(name=f.name, type=f.kind, x=x, y=y, point=True,
                            properties=_props({"hexes": ",".join(f.hexes), "provenance": _dump(f.provenance)})))
    listed = [r.id for r in doc.hexes]
    unlisted = [hexgrid.hex_id(c, r) for c in range(ex.first_column, ex.last_column + 1)
                for r in range(ex.first_row, ex.last_row + 1) if hexgrid.hex_id(c, r) not in records]
    hex_objects = []
    for hid in listed + unlisted:
        rec = records.get(hid)
        x, y = _centre_px(doc, hid)
        values = {"hex": hid, "listed": rec is not None, "terrain": rec.terrain if rec else "clear",
                  "trees": rec.trees if rec else 0, "level": rec.level if rec else 0}
        if rec is not None:
            values.update({"upper_level": rec.upper_level, "provenance": _dump(rec.provenance), "note": rec.note})
        hex_objects.append(obj(name=hid, type="hex", x=x, y=y, point=True, properties=_props(values)))

    whole = map_json(doc)
    map_props = {"format": "ironcross-map", "map version": doc.version, "map name": doc.name, "description": doc.description,
                 "first_column": ex.first_column, "last_column": ex.last_column, "first_row": ex.first_row,
                 "last_row": ex.last_row, "sections": whole.get("sections", []),
                 "provenance": whole.get("provenance"), "notes": whole.get("notes", [])}
    if "terrain_chart" in whole:
        map_props["terrain_chart"] = whole["terrain_chart"]

    def tile_layer(lid: int, name: str, data: list[int], opacity: float = 1.0) -> dict[str, Any]:
        return {"id": lid, "name": name, "type": "tilelayer", "width": width, "height": height, "x": 0, "y": 0,
                "opacity": opacity, "visible": True, "data": data}

    def object_layer(lid: int, name: str, objects: list[dict], colour: str) -> dict[str, Any]:
        return {"id": lid, "name": name, "type": "objectgroup", "draworder": "index", "color": colour,
                "x": 0, "y": 0, "opacity": 1.0, "visible": name != "hexes", "objects": objects}

    rows = math.ceil(_TILE_COUNT / _COLUMNS)
    return {
        "type": "map", "version": "1.10", "tiledversion": "1.10.2", "orientation": "hexagonal",
        "renderorder": "right-down", "width": width, "height": height, "tilewidth": TILE_WIDTH,
        "tileheight": TILE_HEIGHT, "hexsidelength": HEX_SIDE, "staggeraxis": "x",
        "staggerindex": "odd" if ex.first_column % 2 == 0 else "even", "infinite": False,
        "nextlayerid": 11, "nextobjectid": next_id, "compressionlevel": -1,
        "properties": _props(map_props),
        "tilesets": [{
            "firstgid": 1, "name": "ironcross hexes", "tilewidth": TILE_WIDTH, "tileheight": TILE_HEIGHT,
            "tilecount": _TILE_COUNT, "columns": _COLUMNS, "margin": 0, "spacing": 0, "image": image_name,
            "imagewidth": _COLUMNS * TILE_WIDTH, "imageheight": rows * TILE_HEIGHT,
            "tiles": [{"id": i, "properties": _props(_tile_properties(i))} for i in range(_TILE_COUNT)],
        }],
        "layers": [
            tile_layer(1, "terrain", terrain),
            tile_layer(2, "levels", levels, 0.75),
            tile_layer(3, "trees", trees),
            object_layer(4, "gullies", gullies, "#9a6836"),
            object_layer(5, "roads", roads, "#4d453c"),
            object_layer(6, "buildings", buildings, "#9b2f24"),
            object_layer(7, "obstacles", obstacles, "#1e1e1e"),
            object_layer(8, "tank traps", traps, "#1e1e1e"),
            object_layer(9, "features", features, "#2a2a58"),
            object_layer(10, "hexes", hex_objects, "#3d352b"),
        ],
    }


def _xml_props(parent: ET.Element, props: list[dict[str, Any]]) -> None:
    if not props:
        return
    el = ET.SubElement(parent, "properties")
    for p in props:
        v = p["value"]
        attrs = {"name": p["name"]}
        if p["type"] != "string":
            attrs["type"] = p["type"]
        attrs["value"] = ("true" if v else "false") if isinstance(v, bool) else repr(v) if isinstance(v, float) else str(v)
        ET.SubElement(el, "property", attrs)


def _tmx_text(data: dict[str, Any]) -> str:
    """The TMX (XML) text of Tiled's JSON structure ``data`` (the same map)."""
    keys = ("version", "tiledversion", "orientation", "renderorder", "width", "height", "tilewidth", "tileheight",
            "hexsidelength", "staggeraxis", "staggerindex", "infinite", "nextlayerid", "nextobjectid")
    root = ET.Element("map", {k: str(int(data[k]) if isinstance(data[k], bool) else data[k]) for k in keys})
    _xml_props(root, data["properties"])
    for ts in data["tilesets"]:
        t = ET.SubElement(root, "tileset", {k: str(ts[k]) for k in ("firstgid", "name", "tilewidth", "tileheight",
                                                                     "tilecount", "columns")})
        ET.SubElement(t, "image", {"source": ts["image"], "width": str(ts["imagewidth"]),
                                   "height": str(ts["imageheight"])})
        for tile in ts["tiles"]:
            _xml_props(ET.SubElement(t, "tile", {"id": str(tile["id"])}), tile["properties"])
    for layer in data["layers"]:
        common = {"id": str(layer["id"]), "name": layer["name"]}
        if layer["opacity"] != 1.0:
            common["opacity"] = str(layer["opacity"])
        if not layer["visible"]:
            common["visible"] = "0"
        if layer["type"] == "tilelayer":
            el = ET.SubElement(root, "layer", dict(common, width=str(layer["width"]), height=str(layer["height"])))
            d = ET.SubElement(el, "data", {"encoding": "csv"})
            w = layer["width"]
            rows = [",".join(str(g) for g in layer["data"][i:i + w]) for i in range(0, len(layer["data"]), w)]
            d.text = "\n" + ",\n".join(rows) + "\n"
            continue
        el = ET.SubElement(root, "objectgroup", dict(common, color=layer["color"]))
        for o in layer["objects"]:
            attrs = {"id": str(o["id"])}
            if o["name"]:
                attrs["name"] = o["name"]
            if o["type"]:
                attrs["type"] = o["type"]
            ox, oy = (0.0, 0.0) if ("polygon" in o or "polyline" in o) else (o["x"], o["y"])
            attrs["x"], attrs["y"] = repr(float(ox)), repr(float(oy))
            oe = ET.SubElement(el, "object", attrs)
            _xml_props(oe, o.get("properties", []))
            if o.get("point"):
                ET.SubElement(oe, "point")
            for kind in ("polygon", "polyline"):
                if kind in o:
                    ET.SubElement(oe, kind, {"points": " ".join(f"{p['x']!r},{p['y']!r}" for p in o[kind])})
    ET.indent(root, space=" ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _replace(tmp: Path, dest: Path) -> None:
    os.chmod(tmp, 0o644)
    os.replace(tmp, dest)


def _temp_beside(dest: Path) -> Path:
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".tmp", dir=str(dest.parent))
    except OSError as e:
        raise OSError(f"{dest}: cannot write ({e.strerror or e})") from None
    os.close(fd)
    return Path(tmp)


def export_tiled(doc: MapFile, out: str | os.PathLike[str]) -> list[str]:
    """Write ``doc`` as a Tiled map ``out`` (``.tmx`` XML or ``.tmj`` JSON) with its tileset image
    ``<stem>-tiles.png`` beside it; returns the files written.

    Both files are written to temporary files first and renamed into place only when both are
    complete (nothing partial is left). Raises ValueError for another extension and OSError naming
    the file that cannot be written.
    """
    dest = Path(out)
    ext = dest.suffix.lower()
    if ext not in (".tmx", ".tmj"):
        raise ValueError(f"{dest}: a Tiled map must end in .tmx or .tmj")
    image = dest.with_name(dest.stem + "-tiles.png")
    data = tiled_data(doc, image.name)
    text = _tmx_text(data) if ext == ".tmx" else json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    tmp_img = _temp_beside(image)
    tmp_map = None
    try:
        if not _tileset_image().save(str(tmp_img), "PNG"):
            raise OSError(f"{image}: cannot write the tileset image")
        tmp_map = _temp_beside(dest)
        tmp_map.write_text(text, encoding="utf-8")
        if dest.is_dir():
            raise OSError(f"{dest}: is a folder")
        _replace(tmp_img, image)
        try:
            _replace(tmp_map, dest)
        except BaseException:
            image.unlink()  # the map could not be put in place: do not leave its tileset alone
            raise
    except BaseException:
        for t in (tmp_img, tmp_map):
            if t is not None and t.exists():
                t.unlink()
        raise
    return [str(dest), str(image)]


# ---------------------------------------------------------------------------------------------
# Reading back with pytmx
# ---------------------------------------------------------------------------------------------
def _json_prop(props: dict[str, Any], name: str, default: Any = None) -> Any:
    v = props.get(name)
    if v is None:
        return default
    if isinstance(v, str):
        try:  # the safe parser: finite numbers, short integers, bounded nesting (a hand-edited property)
            return parse_json(v)
        except JsonFileProblem as e:
            raise TiledError(f"property {name!r}: {e.where}: {e.message}") from None
    return v


class _PytmxComplaints(logging.Handler):
    """Collects what pytmx logs at WARNING or above while it reads a map (it logs, not raises,
    e.g. a property name it reserves)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def _import_pytmx():
    """pytmx, imported without its complaint that pygame (which we do not use) is missing."""
    log = logging.getLogger("pytmx")
    quiet = logging.NullHandler()
    log.addHandler(quiet)
    try:
        import pytmx
    finally:
        log.removeHandler(quiet)
    return pytmx


def import_tiled(path: str | os.PathLike[str]) -> MapFile:
    """Read a Tiled map written by :func:`export_tiled` (and perhaps edited in Tiled) back as a
    :class:`maps.model.MapFile`, with pytmx.

    Terrain, levels and trees come from the tile layers, roads and gullies from the polylines'
    vertices, buildings from the polygons, the rest from properties. Raises :class:`TiledError`
    naming the file for a map that is not an ``ironcross`` Tiled map, and
    :class:`maps.document_file.DocumentError` when the map read back does not validate.
    """
    from maps.mapfile import check_map

    pytmx = _import_pytmx()
    p = Path(path)
    if p.suffix.lower() != ".tmx":
        raise TiledError(f"{p}: only TMX maps are read back (pytmx reads TMX; save the map as .tmx in Tiled)")
    try:  # a regular file of bounded size, before pytmx opens it (a FIFO would block, /dev/zero never end)
        read_text_file(p, limit=TMX_LIMIT)
    except FileNotFoundError:
        raise TiledError(f"{p}: no such file") from None
    except JsonFileProblem as e:
        raise TiledError(f"{p}: {e.message}") from None
    complaints = _PytmxComplaints()
    logging.getLogger("pytmx").addHandler(complaints)
    try:
        tmx = pytmx.TiledMap(str(p))
    except FileNotFoundError:
        raise TiledError(f"{p}: no such file") from None
    except Exception as e:  # pytmx raises bare Exceptions and XML ParseErrors for a broken file
        raise TiledError(f"{p}: not a readable Tiled map ({type(e).__name__}: {e})") from None
    finally:
        logging.getLogger("pytmx").removeHandler(complaints)
    if complaints.messages:
        raise TiledError(f"{p}: pytmx: {complaints.messages[0]}")
    try:
        return _from_tmx(tmx, check_map, p)
    except TiledError as e:
        raise TiledError(f"{p}: {e}") from None
    except (KeyError, ValueError, TypeError) as e:
        if isinstance(e, DocumentError):
            raise
        raise TiledError(f"{p}: {type(e).__name__}: {e}") from None


def _from_tmx(tmx, check_map, path: Path) -> MapFile:
    props = dict(tmx.properties)
    if props.get("format") != "ironcross-map":
        raise TiledError("not an ironcross map (map property 'format' is not 'ironcross-map')")
    if tmx.orientation != "hexagonal" or getattr(tmx, "staggeraxis", "x") != "x":
        raise TiledError("not a hexagonal map staggered along x (flat-topped columns)")
    c0, c1 = int(props["first_column"]), int(props["last_column"])
    r0, r1 = int(props["first_row"]), int(props["last_row"])

    def layer(name: str):
        try:
            return tmx.get_layer_by_name(name)
        except ValueError:
            raise TiledError(f"layer {name!r} is missing") from None

    def tile_value(lyr, key: str, tc: int, tr: int) -> Any:
        gid = lyr.data[tr][tc]
        if not gid:
            return None
        tp = tmx.get_tile_properties_by_gid(gid) or {}
        if key not in tp:
            raise TiledError(f"layer {lyr.name!r} cell ({tc}, {tr}) holds a tile without a {key!r} value")
        return tp[key]

    terrain_l, levels_l, trees_l = layer("terrain"), layer("levels"), layer("trees")
    painted: dict[str, dict[str, Any]] = {}
    for tr, r in enumerate(range(r0, r1 + 1)):
        for tc, c in enumerate(range(c0, c1 + 1)):
            painted[hexgrid.hex_id(c, r)] = {
                "terrain": tile_value(terrain_l, "terrain", tc, tr) or "clear",
                "level": int(tile_value(levels_l, "level", tc, tr) or 0),
                "trees": int(tile_value(trees_l, "trees", tc, tr) or 0)}

    def to_lattice(x: float, y: float) -> tuple[float, float]:
        return px_to_lattice(c0, r0, x, y)

    def hex_of(x: float, y: float) -> str:
        h = hexgrid.point_to_hex(*to_lattice(x, y))
        return h.id

    def clean(d: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in d.items() if v is not None}

    hexes: list[dict[str, Any]] = []
    seen: set[str] = set()
    for o in layer("hexes"):
        op = dict(o.properties)
        hid = op.get("hex") or o.name
        if hid not in painted or hid in seen:
            continue
        seen.add(hid)
        values = painted[hid]
        default = values == {"terrain": "clear", "level": 0, "trees": 0}
        if not op.get("listed") and default:
            continue
        hexes.append(clean({"id": hid, **values, "upper_level": op.get("upper_level"),
                            "provenance": _json_prop(op, "provenance"), "note": op.get("note")}))
    for hid, values in painted.items():  # hexes painted in Tiled whose object was deleted
        if hid not in seen and values != {"terrain": "clear", "level": 0, "trees": 0}:
            hexes.append({"id": hid, **values})

    def pts(o) -> list[tuple[float, float]]:
        return [to_lattice(pt.x, pt.y) for pt in o.points]

    buildings = []
    for o in layer("buildings"):
        op = dict(o.properties)
        ring = pts(o)
        buildings.append(clean({"id": op.get("building id") or o.name, "number": op.get("number"),
                                "name": op.get("building name"),
                                "polygon": ring, "rooms": _json_prop(op, "rooms"),
                                "openings": _json_prop(op, "openings"), "provenance": _json_prop(op, "provenance"),
                                "note": op.get("note")}))

    def hex_path(o) -> list[str]:
        ids: list[str] = []
        for pt in o.points:
            hid = hex_of(pt.x, pt.y)
            if not ids or ids[-1] != hid:
                ids.append(hid)
        return ids

    roads = [hex_path(o) for o in layer("roads")]
    gullies = [hex_path(o) for o in layer("gullies")]
    obstacles = [clean({"id": o.name, "kind": o.type, "line": pts(o), "provenance": _json_prop(dict(o.properties), "provenance"),
                        "note": dict(o.properties).get("note")}) for o in layer("obstacles")]
    traps = []
    for o in layer("tank traps"):
        op = dict(o.properties)
        shape = "polygon" if getattr(o, "closed", False) else "line"
        traps.append(clean({"id": o.name, shape: pts(o), "provenance": _json_prop(op, "provenance"),
                            "note": op.get("note")}))
    features = []
    for o in layer("features"):
        op = dict(o.properties)
        features.append(clean({"name": o.name, "kind": o.type or "area",
                               "hexes": [t for t in str(op.get("hexes", "")).split(",") if t],
                               "provenance": _json_prop(op, "provenance")}))
    data = clean({
        "format": "ironcross-map", "version": int(props.get("map version", 1)), "name": props.get("map name"),
        "description": props.get("description", ""),
        "extent": {"first_column": c0, "last_column": c1, "first_row": r0, "last_row": r1},
        "sections": _json_prop(props, "sections", []), "provenance": _json_prop(props, "provenance"),
        "hexes": hexes, "buildings": buildings, "roads": roads, "gullies": gullies, "features": features,
        "obstacles": obstacles, "tank_traps": traps, "notes": _json_prop(props, "notes", []),
        "terrain_chart": _json_prop(props, "terrain_chart") if str(props.get("terrain_chart", "")).startswith("{")
        else props.get("terrain_chart"),
    })
    from maps.document_file import load_document
    from maps.model import MAP_VERSION

    return load_document(path, MapFile, format_name="ironcross-map", version=MAP_VERSION, data=data,
                         checks=check_map)
