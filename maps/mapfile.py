"""Loading, checking and saving map files (format ``ironcross-map``).

:func:`load_map` returns a validated :class:`maps.hexmap.HexMap`; every problem in the file is
reported by :class:`maps.document_file.DocumentError`, one line each, naming the file, the JSON
path and the problem. :func:`save_map` writes atomically.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

from shapely.geometry import LineString, Polygon
from shapely.validation import explain_validity

from maps import hexgrid
from maps.document_file import DocumentError, Problem, load_document, read_json
from maps.model import MAP_FORMAT, MAP_VERSION, MapFile
from maps.terrain_chart import TerrainChart, _chart_problems, load_terrain_chart

__all__ = ["check_map", "missing_map_hint", "extent_polygon", "load_map", "load_map_file", "map_from_data", "map_chart", "chart_path", "map_json", "save_map",
           "MAP_SCHEMA_PATH", "export_schema"]

MAP_SCHEMA_PATH = Path("docs/schema/map.schema.json")

#: How far (lattice map units) a door's or window's segment may lie from its building's outline or
#: a room wall and still be on it.
OPENING_TOLERANCE = 0.05


def _hex_in_extent(doc: MapFile, text: Any, where: str, problems: list[Problem]) -> hexgrid.Hex | None:
    try:
        h = hexgrid.parse_hex_id(text)
    except hexgrid.HexIdError as e:
        problems.append(Problem(where, str(e)))
        return None
    ex = doc.extent
    if not (ex.first_column <= h.col <= ex.last_column and ex.first_row <= h.row <= ex.last_row):
        problems.append(Problem(where, (
            f"hex {text} is outside the map (columns {ex.first_column:02d}-{ex.last_column:02d}, "
            f"rows {ex.first_row:02d}-{ex.last_row:02d})")))
        return None
    return h


def extent_polygon(ex) -> Polygon:
    """The rectangle (lattice map units) around every hex of an :class:`maps.model.Extent`: a
    vector feature (building, obstacle, tank traps) must meet it."""
    return Polygon([
        (3 * ex.first_column - 2, 2 * ex.first_row - 1), (3 * ex.last_column + 2, 2 * ex.first_row - 1),
        (3 * ex.last_column + 2, 2 * ex.last_row + 2), (3 * ex.first_column - 2, 2 * ex.last_row + 2)])


#: How far (lattice map units; a hex is 4 across corners) a building, obstacle or tank-trap vertex may
#: lie beyond the rectangle around the map's hexes: one hex. Farther is a typo (a vertex at 1e12 once
#: made LOS walk without end).
VERTEX_MARGIN = 4


def _vertices_problems(points, where: str, extent_poly: Polygon, problems: list[Problem]) -> bool:
    """Every vertex finite and within :data:`VERTEX_MARGIN` of the map's rectangle; False (and a
    problem naming the first bad vertex and the allowed range) otherwise."""
    x0, y0, x1, y1 = extent_poly.bounds
    x0, y0, x1, y1 = x0 - VERTEX_MARGIN, y0 - VERTEX_MARGIN, x1 + VERTEX_MARGIN, y1 + VERTEX_MARGIN
    for k, (x, y) in enumerate(points):
        if not (math.isfinite(x) and math.isfinite(y)):
            problems.append(Problem(f"{where}[{k}]", "coordinates must be finite numbers"))
            return False
        if not (x0 <= x <= x1 and y0 <= y <= y1):
            problems.append(Problem(f"{where}[{k}]", (
                f"vertex ({x:g}, {y:g}) lies off the map: x must be {x0:g} to {x1:g} and y {y0:g} to {y1:g} "
                f"(map units, the map's hexes plus one hex)")))
            return False
    return True


def _line_problems(points, where: str, extent_poly: Polygon, problems: list[Problem]) -> None:
    """An obstacle's or a row of tank traps' polyline: finite, with length, on the map."""
    if not _vertices_problems(points, where, extent_poly, problems):
        return
    line = LineString(points)
    if line.length <= 0:
        problems.append(Problem(where, "the line has no length (all its points are the same)"))
    elif not line.intersects(extent_poly):
        problems.append(Problem(where, "the line lies entirely outside the map"))


def _polygon_problems(points, where: str, extent_poly: Polygon, problems: list[Problem]) -> None:
    if not _vertices_problems(points, where, extent_poly, problems):
        return
    poly = Polygon(points)
    if not poly.is_valid:
        problems.append(Problem(where, f"not a valid polygon: {explain_validity(poly)}"))
    elif poly.area <= 0:
        problems.append(Problem(where, "polygon has no area"))
    elif not poly.intersects(extent_poly):
        problems.append(Problem(where, "polygon lies entirely outside the map"))


def _building_inside_problems(b, poly: Polygon, where: str, problems: list[Problem]) -> None:
    """Rooms and openings of a building (20 mm seed 003, "Infantry Moving and Firing in
    Buildings"): each room a valid polygon inside the outline, rooms not overlapping and together
    covering the building; each opening's segment with length, on the outline or a room wall."""
    tol = OPENING_TOLERANCE
    rooms: list[Polygon] = []
    for j, pts in enumerate(b.rooms or []):
        rw = f"{where}.rooms[{j}]"
        if len(pts) < 3:
            problems.append(Problem(rw, "a room needs at least 3 corners"))
            continue
        if not all(math.isfinite(v) for pt in pts for v in pt):
            problems.append(Problem(rw, "coordinates must be finite numbers"))
            continue
        r = Polygon(pts)
        if not r.is_valid:
            problems.append(Problem(rw, f"not a valid polygon: {explain_validity(r)}"))
            continue
        if r.area <= 0:
            problems.append(Problem(rw, "room has no area"))
            continue
        if not poly.buffer(tol).contains(r):
            problems.append(Problem(rw, "the room is not inside the building's outline"))
            continue
        for k, other in enumerate(rooms):
            if other is not None and r.intersection(other).area > tol * tol:
                problems.append(Problem(rw, f"the room overlaps {where}.rooms[{k}]"))
        rooms.append(r)
    if b.rooms and len(rooms) == len(b.rooms):
        from shapely.ops import unary_union

        gap = poly.difference(unary_union(rooms)).area
        if gap > tol * poly.length:
            problems.append(Problem(where + ".rooms", (
                f"the rooms do not cover the building (area {gap:.3g} square map units is in no room)")))
    walls = poly.exterior
    if rooms:
        from shapely.ops import unary_union

        walls = unary_union([walls] + [r.exterior for r in rooms])
    for j, o in enumerate(b.openings or []):
        ow = f"{where}.openings[{j}].segment"
        if not all(math.isfinite(v) for pt in o.segment for v in pt):
            problems.append(Problem(ow, "coordinates must be finite numbers"))
            continue
        seg = LineString(o.segment)
        if seg.length <= 0:
            problems.append(Problem(ow, f"the {o.kind} has no length (both points are the same)"))
        elif not walls.buffer(tol).contains(seg):
            problems.append(Problem(ow, (
                f"the {o.kind} does not lie on the building's outline or a room wall (within {tol} map units)")))


def check_map(doc: MapFile) -> list[Problem]:
    """Whole-file semantic checks of a parsed map; returns the problems found (empty when valid).

    Checks: extent and sections ordered and inside the extent; every hex id four digits and
    inside the extent; no hex listed twice; ``upper_level`` above ``level``; building polygons
    valid geometry, overlapping the map, ids unique; road and gully paths step between adjacent
    hexes only; named features name hexes of the map and names are unique; obstacle and tank-trap
    lines and polygons finite, with length or area, meeting the map, ids unique among both.
    """
    problems: list[Problem] = []
    ex = doc.extent
    if ex.first_column > ex.last_column:
        problems.append(Problem("$.extent", "first_column is after last_column"))
    if ex.first_row > ex.last_row:
        problems.append(Problem("$.extent", "first_row is after last_row"))
    if problems:
        return problems
    names: set[str] = set()
    for i, s in enumerate(doc.sections):
        where = f"$.sections[{i}]"
        if s.name in names:
            problems.append(Problem(where + ".name", f"section {s.name!r} is defined twice"))
        names.add(s.name)
        if s.first_column > s.last_column:
            problems.append(Problem(where, "first_column is after last_column"))
        if s.first_column < ex.first_column or s.last_column > ex.last_column:
            problems.append(Problem(where, f"section {s.name!r} columns {s.first_column}-{s.last_column} lie outside the map"))
    seen: dict[str, int] = {}
    for i, rec in enumerate(doc.hexes):
        where = f"$.hexes[{i}]"
        h = _hex_in_extent(doc, rec.id, where + ".id", problems)
        if h is None:
            continue
        if rec.id in seen:
            problems.append(Problem(where + ".id", f"hex {rec.id} is listed twice (first at $.hexes[{seen[rec.id]}])"))
        else:
            seen[rec.id] = i
        if rec.upper_level is not None and rec.upper_level <= rec.level:
            problems.append(Problem(where + ".upper_level", (
                f"upper_level {rec.upper_level} must be above level {rec.level} (10.34: level is the lower elevation)")))
    bids: set[str] = set()
    extent_poly = extent_polygon(ex)
    for i, b in enumerate(doc.buildings):
        where = f"$.buildings[{i}]"
        if b.id in bids:
            problems.append(Problem(where + ".id", f"building id {b.id!r} is used twice"))
        bids.add(b.id)
        if not _vertices_problems(b.polygon, where + ".polygon", extent_poly, problems):
            continue
        poly = Polygon(b.polygon)
        if not poly.is_valid:
            problems.append(Problem(where + ".polygon", f"not a valid polygon: {explain_validity(poly)}"))
        elif poly.area <= 0:
            problems.append(Problem(where + ".polygon", "polygon has no area"))
        elif not poly.intersects(extent_poly):
            problems.append(Problem(where + ".polygon", "polygon lies entirely outside the map"))
        else:
            _building_inside_problems(b, poly, where, problems)
    for kind in ("roads", "gullies"):
        for i, path in enumerate(getattr(doc, kind)):
            where = f"$.{kind}[{i}]"
            if not path:
                problems.append(Problem(where, "a path needs at least one hex"))
                continue
            prev: hexgrid.Hex | None = None
            for j, text in enumerate(path):
                h = _hex_in_extent(doc, text, f"{where}[{j}]", problems)
                if h is not None and prev is not None and hexgrid.distance(prev, h) != 1:
                    problems.append(Problem(f"{where}[{j}]", (
                        f"{kind[:-1] if kind == 'roads' else 'gully'} connects {prev.id} to {h.id}, which are not adjacent")))
                prev = h
    fnames: set[str] = set()
    for i, f in enumerate(doc.features):
        where = f"$.features[{i}]"
        if f.name in fnames:
            problems.append(Problem(where + ".name", f"feature name {f.name!r} is used twice"))
        fnames.add(f.name)
        for j, text in enumerate(f.hexes):
            _hex_in_extent(doc, text, f"{where}.hexes[{j}]", problems)
    oids: dict[str, str] = {}
    for i, o in enumerate(doc.obstacles):
        where = f"$.obstacles[{i}]"
        if o.id in oids:
            problems.append(Problem(where + ".id", f"id {o.id!r} is used twice (first at {oids[o.id]})"))
        else:
            oids[o.id] = where
        _line_problems(o.line, where + ".line", extent_poly, problems)
    for i, t in enumerate(doc.tank_traps):
        where = f"$.tank_traps[{i}]"
        if t.id in oids:
            problems.append(Problem(where + ".id", f"id {t.id!r} is used twice (first at {oids[t.id]})"))
        else:
            oids[t.id] = where
        if t.line is not None:
            _line_problems(t.line, where + ".line", extent_poly, problems)
        else:
            _polygon_problems(t.polygon, where + ".polygon", extent_poly, problems)
    if isinstance(doc.terrain_chart, TerrainChart):  # an embedded chart is checked as a chart file is
        for p in _chart_problems(doc.terrain_chart):
            problems.append(Problem("$.terrain_chart" + p.path[1:], p.message))
    elif isinstance(doc.terrain_chart, str) and not doc.terrain_chart.strip():
        problems.append(Problem("$.terrain_chart", "the terrain chart's file name is empty (omit the field for the "
                                                   "shipped chart)"))
    return problems


def chart_path(doc: MapFile, map_path: str | os.PathLike[str] | None = None) -> Path | None:
    """The chart file a map names (``terrain_chart`` a string), resolved against the map file's
    folder; None when the map uses the shipped chart or embeds its chart."""
    ref = doc.terrain_chart
    if not isinstance(ref, str):
        return None
    p = Path(ref)
    if p.is_absolute() or map_path is None or str(map_path).startswith("<"):
        return p
    return (Path(map_path).resolve().parent / p).resolve()


def map_chart(doc: MapFile, map_path: str | os.PathLike[str] | None = None) -> TerrainChart:
    """The terrain effects chart a map is played with: its embedded chart, the chart file it names
    (relative to ``map_path``'s folder), or the shipped chart when it names none.

    Raises :class:`DocumentError` naming the map file and ``$.terrain_chart`` (with the chart
    file's own problems) when the named chart file cannot be loaded."""
    ref = doc.terrain_chart
    if isinstance(ref, TerrainChart):
        return ref
    if ref is None:
        from maps.los import default_chart

        return default_chart()
    p = chart_path(doc, map_path)
    try:
        return load_terrain_chart(p)
    except DocumentError as e:
        raise DocumentError(map_path or "<map>", [Problem("$.terrain_chart", f"cannot load terrain chart {ref!r} ({p}): "
                                                          + "; ".join(str(x) for x in e.problems))]) from None


def map_from_data(data: Any, file: str | os.PathLike[str] = "<map>"):
    """Validate already-parsed JSON ``data`` as a map; returns a :class:`maps.hexmap.HexMap`
    carrying the map's terrain chart (:func:`map_chart`; a chart file is relative to ``file``).

    Raises :class:`DocumentError` naming ``file``.
    """
    from maps.hexmap import HexMap

    doc = load_document(file, MapFile, format_name=MAP_FORMAT, version=MAP_VERSION, data=data, checks=check_map)
    return HexMap(doc, chart=map_chart(doc, file))


def missing_map_hint(ref: str, resolved: str | os.PathLike[str]) -> str:
    """What to tell a designer whose scenario names a map file ``ref`` (as written in the scenario)
    that is not at ``resolved`` (where it was looked for): a relative path is read from the
    scenario file's folder, so a scenario copied out of the toolkit's folders loses its map; when
    the toolkit ships a map of that file name, where it is. ``""`` when the file exists (the
    problem is its content, which the loader names)."""
    resolved = Path(resolved)
    if resolved.exists():
        return ""
    hint = f" (looked for {resolved}"
    if not Path(ref).is_absolute():
        hint += ": a relative map path is read from the scenario file's folder"
    shipped = Path(__file__).resolve().parent / "data" / Path(ref).name
    if shipped.is_file() and shipped != resolved.resolve():
        hint += (f"; the toolkit ships a map of that name, {shipped}: copy it beside the scenario "
                 f"and set $.map.file to {Path(ref).name!r}, or set $.map.file to that full path")
    return hint + ")"


def load_map_file(path: str | os.PathLike[str]) -> MapFile:
    """Load and check a map file; returns the pydantic :class:`MapFile` (raises DocumentError)."""
    return load_document(path, MapFile, format_name=MAP_FORMAT, version=MAP_VERSION, checks=check_map)


def load_map(path: str | os.PathLike[str]):
    """Load and check a map file; returns a :class:`maps.hexmap.HexMap` with its terrain chart
    (``hexmap.chart``); raises DocumentError (also for a chart file that cannot be loaded)."""
    return map_from_data(read_json(path), path)


def map_json(doc: MapFile) -> dict[str, Any]:
    """The JSON data of a map file (what :func:`save_map` writes): None values left out, except
    inside an embedded terrain chart, whose nulls are meaningful (a chart file keeps them too);
    ``obstacles`` and ``tank_traps`` left out when empty (a map without them saves exactly as
    before they existed)."""
    empty = {k for k in ("obstacles", "tank_traps") if not getattr(doc, k)}
    data = doc.model_dump(mode="json", exclude_none=True, exclude={"terrain_chart"} | empty)
    if isinstance(doc.terrain_chart, TerrainChart):
        data["terrain_chart"] = doc.terrain_chart.model_dump(mode="json")
    elif doc.terrain_chart is not None:
        data["terrain_chart"] = doc.terrain_chart
    return data


def save_map(path: str | os.PathLike[str], doc: MapFile) -> None:
    """Save a map file atomically (write a temporary file, then rename); raises DocumentError
    (nothing written) when the map has problems."""
    from maps.document_file import atomic_write_text

    problems = check_map(doc)
    if problems:
        raise DocumentError(path, problems)
    atomic_write_text(path, json.dumps(map_json(doc), indent=1, ensure_ascii=False) + "\n")


def export_schema(path: str | os.PathLike[str] = MAP_SCHEMA_PATH) -> str:
    """Write the JSON Schema of the map format to ``path``; returns the text."""
    from maps.document_file import atomic_write_text

    text = json.dumps(MapFile.model_json_schema(), indent=2) + "\n"
    atomic_write_text(path, text)
    return text
