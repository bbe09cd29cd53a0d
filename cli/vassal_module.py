"""A scenario as a VASSAL module (``.vmod``), written with pywargame, for any rule system that makes a
plan (``RuleSystem.vassal_plan`` -> :class:`core.vassal_plan.VassalPlan`; this module knows no
system).

What the module holds (``docs/export.md`` shows it):

* **Board**: the scenario's map sections rendered by the product's own painter
  (:class:`editor.drawing.map_painter.MapPainter`, offscreen) at :data:`PX_PER_HEX` pixels per hex
  across flats, the board image of one map ``Main Map``.
* **Grid**: a VASSAL ``HexGrid`` (flat-topped columns, not sideways) whose column spacing and hex
  height are the painter's at that scale, its origin at the centre of the first even column's first
  row, and a ``HexNumbering`` (two-digit column, two-digit row, no separator) offset so that every
  location name is the printed hex id (``4307``): VASSAL's reports and "move to 4307" mean the same
  hex. A hex system's grid snaps (pieces stand in hexes); a measured system's (``grid="free"``, the
  20 mm rules) does not: pieces stand at any pixel, the grid only names where.
* **Palette** (piece window ``Counters``): every counter of the plan, one tab per side, each image
  drawn from its three printed lines, its values as piece properties, its states (DOWN, DUG IN) as
  layers, its facing a six-step rotation (hexsides) or a free rotation (degrees); a ``Markers`` tab.
* **Set-up**: at-start stacks at their hex ids (hex grid) or at the board pixel of their map-unit
  point (free board), facing and layers as placed; units that enter later in the map ``Entry
  boxes``, one box per side and turn, and boxes of units waiting without a turn; each side's secrets
  in that side's private window; a free board's hidden units on that side's own copy of the board.
* **Turn track** from 1 to the scenario's length, and the scenario's text as module help.
"""

from __future__ import annotations

import math
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from maps import hexgrid

__all__ = ["PX_PER_HEX", "COUNTER_PX", "BOARD", "ExportError", "plan_from_files", "write_vmod", "grid_location",
           "render_board", "free_rotation", "SIDE_NAMES"]

#: Board pixels per hex across flats (a printed 16 mm hex at about 150 dpi).
PX_PER_HEX: float = 96.0
#: Counter images are this many pixels square (a printed half-inch counter beside that hex).
COUNTER_PX: int = 64
#: The name of the board of the main map.
BOARD = "Scenario map"
SIDE_NAMES = {"german": "German", "russian": "Russian"}
SIDE_COLOURS = {"german": ("#9aa59a", "#1b1f1b"), "russian": ("#c9a36b", "#2b1a0c")}


class ExportError(ValueError):
    """The scenario cannot be exported (names the file and the problems); the rule system's own
    refusals (:class:`core.ironcross.vassal_plan.ExportError`) are ValueErrors too."""


def plan_from_files(scenario_path: str | os.PathLike[str]):
    """The plan (:class:`core.ironcross.vassal_plan.ExportPlan`) of a scenario file, made by its rule
    system (``RuleSystem.vassal_plan``). Raises :class:`maps.document_file.DocumentError` for an
    invalid file and :class:`ExportError` for a scenario that cannot be set up or whose system does
    not export to VASSAL."""
    from core.rule_system import for_scenario

    path = Path(scenario_path)
    system = for_scenario(path)
    if system.vassal_plan is None:
        raise ExportError(f"{path}: a {system.name!r} scenario: its rule system does not export to VASSAL "
                          "(see docs/export.md)")
    return system.vassal_plan(path)


# ---------------------------------------------------------------------------------------------
# Pictures: the board and the counters
# ---------------------------------------------------------------------------------------------
def _scenario_painter(plan):
    """A painter and the section name covering the scenario's map sections (one section, or the
    span of several adjacent ones as one extra section of a copy of the map)."""
    from editor.drawing.map_painter import MapPainter
    from editor.drawing.map_style import LAYERS
    from maps.hexmap import HexMap
    from maps.model import Section

    m = plan.hexmap
    spans = [m.section_columns(s) for s in plan.sections]
    c0, c1 = min(a for a, _ in spans), max(b for _, b in spans)
    name = " + ".join(plan.sections)
    doc = m.doc.model_copy(update={"sections": list(m.doc.sections) + [Section(name=name, first_column=c0,
                                                                                last_column=c1)]})
    layers = set(LAYERS) - {"title", "legend", "sections"}
    return MapPainter(HexMap(doc, chart=getattr(m, "chart", None)), layers=layers), name


@dataclass
class BoardGeometry:
    """Where the board image puts the hexes: pixel = (scene - origin) * scale."""

    width: int
    height: int
    scale: float
    origin: tuple[float, float]
    first_column: int
    last_column: int

    def centre_px(self, hex_id: str) -> tuple[float, float]:
        """Board pixel of a hex centre."""
        from editor.drawing.hex_scene import hex_centre_scene

        c = hex_centre_scene(hexgrid.parse_hex_id(hex_id))
        return ((c.x() - self.origin[0]) * self.scale, (c.y() - self.origin[1]) * self.scale)

    def point_px(self, x: float, y: float) -> tuple[float, float]:
        """Board pixel of a point in map units (the lattice of :mod:`maps.hexgrid`)."""
        from editor.drawing.map_style import SCENE_PER_X, SCENE_PER_Y

        return ((x * SCENE_PER_X - self.origin[0]) * self.scale, (y * SCENE_PER_Y - self.origin[1]) * self.scale)


def render_board(plan) -> tuple[bytes, BoardGeometry]:
    """The board image (PNG bytes) of the scenario's sections and where its hexes are."""
    from PySide6.QtCore import QSize
    from PySide6.QtGui import QImage, QPainter

    from editor.drawing.map_painter import ensure_app
    from editor.drawing.map_style import HEX_HEIGHT, MARGIN_BG

    ensure_app()
    painter_map, section = _scenario_painter(plan)
    rect = painter_map.scene_rect(section)
    scale = PX_PER_HEX / HEX_HEIGHT
    size = QSize(math.ceil(rect.width() * scale), math.ceil(rect.height() * scale))
    img = QImage(size, QImage.Format.Format_RGB32)
    img.fill(MARGIN_BG)
    p = QPainter(img)
    try:
        painter_map.paint(p, section=section, scale=scale)
    finally:
        p.end()
    c0, c1 = painter_map.section_columns(section)
    return _png(img), BoardGeometry(size.width(), size.height(), scale, (rect.left(), rect.top()), c0, c1)


def _png(img) -> bytes:
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice

    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    img.save(buf, "PNG")
    buf.close()
    return bytes(data.data())


def _counter_image(side: str, lines: tuple[str, str, str], *, facing_mark: bool = False, band: str | None = None):
    from PySide6.QtCore import QPointF, QRectF, Qt
    from PySide6.QtGui import QColor, QFont, QFontMetricsF, QImage, QPainter, QPen, QPolygonF

    from editor.drawing.map_painter import ensure_app

    ensure_app()
    fill, ink = SIDE_COLOURS.get(side, ("#e8e2cc", "#111111"))
    n = COUNTER_PX
    img = QImage(n, n, QImage.Format.Format_ARGB32_Premultiplied)
    img.fill(Qt.GlobalColor.transparent)
    p = QPainter(img)
    try:
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        p.setBrush(QColor(fill))
        p.setPen(QPen(QColor(ink), 1.5))
        p.drawRoundedRect(QRectF(1, 1, n - 2, n - 2), 5, 5)
        if facing_mark:  # the front of the counter: a small wedge at the top edge (its facing)
            p.setBrush(QColor(ink))
            p.drawPolygon(QPolygonF([QPointF(n / 2 - 5, 2.5), QPointF(n / 2 + 5, 2.5), QPointF(n / 2, 7)]))
        p.setPen(QColor(ink))
        top, middle, bottom = lines
        for text, y, px, bold in ((top, 14 if facing_mark else 11, 10, False), (middle, 32, 15, True),
                                  (bottom, 52, 10, True)):
            f = QFont("DejaVu Sans")
            f.setBold(bold)
            while True:  # the largest size up to px at which the line fits the counter
                f.setPixelSize(px)
                if px <= (8 if " " in text else 6) or QFontMetricsF(f).horizontalAdvance(text) <= n - 8:
                    break
                px -= 1
            if QFontMetricsF(f).horizontalAdvance(text) > n - 8 and " " in text:
                # too long even at 8 px: two lines, broken at the space nearest the middle
                cut = min((i for i, ch in enumerate(text) if ch == " "), key=lambda i: abs(i - len(text) / 2))
                f.setPixelSize(8)
                p.setFont(f)
                for k, part in enumerate((text[:cut], text[cut + 1:])):
                    p.drawText(QRectF(2, y - 9 + (k - 0.5) * 9, n - 4, 18), Qt.AlignmentFlag.AlignCenter, part)
                continue
            p.setFont(f)
            p.drawText(QRectF(2, y - 9, n - 4, 18), Qt.AlignmentFlag.AlignCenter, text)
        if band:
            p.fillRect(QRectF(4, n / 2 - 8, n - 8, 16), QColor(180, 20, 20, 220))
            f = QFont("DejaVu Sans")
            f.setPixelSize(12)
            f.setBold(True)
            p.setFont(f)
            p.setPen(QColor("white"))
            p.drawText(QRectF(4, n / 2 - 8, n - 8, 16), Qt.AlignmentFlag.AlignCenter, band)
    finally:
        p.end()
    return img


def _band_image(text: str):
    """A transparent overlay with a red band saying ``text`` (the DOWN layer)."""
    from PySide6.QtCore import QRectF, Qt
    from PySide6.QtGui import QColor, QFont, QImage, QPainter

    n = COUNTER_PX
    img = QImage(n, n, QImage.Format.Format_ARGB32_Premultiplied)
    img.fill(Qt.GlobalColor.transparent)
    p = QPainter(img)
    try:
        p.fillRect(QRectF(4, n - 20, n - 8, 15), QColor(180, 20, 20, 230))
        f = QFont("DejaVu Sans")
        f.setPixelSize(11)
        f.setBold(True)
        p.setFont(f)
        p.setPen(QColor("white"))
        p.drawText(QRectF(4, n - 20, n - 8, 15), Qt.AlignmentFlag.AlignCenter, text)
    finally:
        p.end()
    return img


# ---------------------------------------------------------------------------------------------
# The grid
# ---------------------------------------------------------------------------------------------
def grid_parameters(geo: BoardGeometry, first_row: int) -> dict[str, Any]:
    """The VASSAL HexGrid and HexNumbering attributes that name every hex by its printed id.

    VASSAL's (not sideways) hex grid has columns ``dx`` apart and hexes ``dy`` tall, its origin at
    the centre of grid column 0, row 0, odd grid columns half a hex lower. Grid column 0 is the first
    even printed column at or before the board's first column (maps.hexgrid: odd printed columns
    are the lower ones), so grid column i is printed column ``hOff + i`` and grid row j printed row
    ``vOff + j``."""
    even0 = geo.first_column - (geo.first_column & 1)
    x0, y0 = geo.centre_px(hexgrid.hex_id(even0, first_row)) if even0 >= 0 else (None, None)
    if x0 is None:  # column 00 is even, so this cannot happen; kept for clarity
        raise ValueError("no even column")
    dy = PX_PER_HEX
    dx = PX_PER_HEX * math.sqrt(3.0) / 2
    return {"dx": dx, "dy": dy, "x0": x0, "y0": y0, "hOff": even0, "vOff": first_row}


def grid_location(params: dict[str, Any], x: float, y: float) -> str:
    """The location name VASSAL's hex grid with ``params`` gives board pixel (x, y): the nearest
    hex centre of the grid (columns ``dx`` apart from ``x0``; odd grid columns ``dy/2`` lower),
    named column then row, two digits each. Used to check a written module (pixel -> location)."""
    dx, dy, x0, y0 = (float(params[k]) for k in ("dx", "dy", "x0", "y0"))
    best = None
    base = math.floor((x - x0) / dx)
    for col in (base - 1, base, base + 1, base + 2):
        cx = x0 + col * dx
        shift = dy / 2 if col % 2 else 0.0
        row = round((y - y0 - shift) / dy)
        for r in (row - 1, row, row + 1):
            cy = y0 + r * dy + shift
            d = (cx - x) ** 2 + (cy - y) ** 2
            if best is None or d < best[0]:
                best = (d, col, r)
    _, col, row = best
    return f"{col + int(params['hOff']):02d}{row + int(params['vOff']):02d}"


# ---------------------------------------------------------------------------------------------
# Writing the module
# ---------------------------------------------------------------------------------------------
def _safe(text: str) -> str:
    """Text for a trait: VASSAL's piece definitions separate fields with '/' and ';' (pywargame
    0.8 does not escape them), so neither may appear inside one."""
    return text.replace("/", "-").replace(";", ",")


def _slug(name: str) -> str:
    """A file name part for ``name``: lower case, spaces as '-', other characters outside
    [a-z0-9.-] dropped."""
    out = "".join(ch if ch.isascii() and (ch.isalnum() or ch in ".-") else "-" if ch == " " else ""
                  for ch in name.lower())
    return out.strip("-") or "x"


def free_rotation(bearing: float) -> float:
    """VASSAL's free-rotation angle (degrees, counter-clockwise on the screen) that turns a counter
    drawn facing the top of the board to face ``bearing`` (degrees clockwise from +X, east, as the
    20 mm rules and the map's Y-down lattice measure): the top is bearing 270, so the counter turns
    ``bearing + 90`` clockwise."""
    return round(-(bearing + 90.0) % 360.0, 3)


def _set_state(piece, placement) -> None:
    """Set the at-start state of a placed piece: each layer named in ``placement.layers`` at level 2;
    a six-step rotation (hexsides) turned ``facing - 1`` steps clockwise from hexside 1 (the top);
    a free rotation to the bearing (:func:`free_rotation`)."""
    from pywargame.vassal import LayerTrait, RotateTrait

    traits = piece.getTraits()
    changed = False
    for t in traits:
        if isinstance(t, LayerTrait) and t["name"] in placement.layers:
            t.setState(level=2)
            changed = True
        if isinstance(t, RotateTrait) and placement.facing is not None:
            if int(t["nangles"]) == 1:
                t.setState(angle=free_rotation(float(placement.facing)))
            else:
                t.setState(angle=(int(placement.facing) - 1) % 6)
            changed = True
    if changed:
        piece.setTraits(*traits)


def _add_board(picker, geo: "BoardGeometry", grid: dict[str, Any], snap: bool) -> None:
    """The scenario's board on a map's board picker, with its hex grid (snapping or not) named by
    the printed hex ids."""
    board = picker.addBoard(name=BOARD, image="board.png", width=geo.width, height=geo.height)
    zoned = board.addZonedGrid()
    zone = zoned.addZone(name="sections", useParentGrid=False,
                         path=f"0,0;{geo.width},0;{geo.width},{geo.height};0,{geo.height}")
    hgrid = zone.addHexGrid(dx=grid["dx"], dy=grid["dy"], x0=round(grid["x0"]), y0=round(grid["y0"]),
                            visible=False, snapTo=snap, color="0,0,0")
    hgrid.addNumbering(first="H", hType="N", vType="N", hLeading=1, vLeading=1, hOff=grid["hOff"],
                       vOff=grid["vOff"], sep="", stagger=False, visible=False, locationFormat="$gridLocation$")


def _add_at_start(owner, name: str, slot, placement, geo: "BoardGeometry", hex_grid: bool) -> None:
    """An at-start stack of ``slot`` at ``placement``: at the grid location (a hex id) on a hex
    grid, at the board pixel of its point on a free board."""
    if hex_grid:
        at = owner.addAtStart(name=name, location=placement.where, useGridLocation=True, owningBoard=BOARD)
    else:
        x, y = geo.point_px(*placement.where)
        at = owner.addAtStart(name=name, location="", useGridLocation=False, owningBoard=BOARD,
                              x=round(x), y=round(y))
    (piece,) = at.addPieces(slot)
    _set_state(piece, placement)


def write_vmod(plan, out: str | os.PathLike[str]) -> dict[str, Any]:
    """Write the module for ``plan`` (:class:`core.vassal_plan.VassalPlan`) to ``out`` (a temporary
    file beside it, renamed when complete).

    Returns a summary: ``size`` (bytes), ``pieces`` (palette counters), ``markers``, ``placed``,
    ``entering``, ``waiting``, ``board`` (width, height), ``grid``. Raises OSError naming ``out``
    when it cannot be written."""
    from pywargame.vassal import (BasicTrait, BuildFile, LayerTrait, MarkTrait, ModuleData, PrivateMap,
                                  RotateTrait, VMod)

    from core.vassal_plan import secret_marker

    board_png, geo = render_board(plan)
    ex = plan.hexmap.doc.extent
    grid = grid_parameters(geo, ex.first_row)
    hex_grid = plan.grid == "hex"
    files: dict[str, bytes] = {"images/board.png": board_png}

    build = BuildFile()
    game = build.addGame(name=plan.title, version="1.0", description=f"{plan.title} ({plan.system})")
    game.addBasicCommandEncoder()
    doc = game.addDocumentation()
    files["help/scenario.html"] = plan.help_html.encode("utf-8")
    doc.addHelpFile(title="Scenario", fileName="help/scenario.html")
    roster = game.addPlayerRoster()
    for side in ("german", "russian"):
        roster.addSide(SIDE_NAMES[side])
    game.addTurnTrack(name=plan.turn_name, buttonText=plan.turn_name, length=plan.turns,
                      counter={"property": "GameTurn", "start": 1, "incr": 1, "loop": False,
                               "turnFormat": f"{plan.turn_name} $value$ of {plan.turns}"})

    # the palette
    window = game.addPieceWindow(name="Counters")
    tabs = window.addTabs(entryName="Counters")
    slots: dict[str, Any] = {}
    for side in ("german", "russian"):
        plist = tabs.addPanel(entryName=SIDE_NAMES[side], fixed=False).addList(entryName=f"{SIDE_NAMES[side]} counters")
        for uid, c in plan.counters.items():
            if c.side != side:
                continue
            plain = all(ch.isascii() and (ch.isalnum() or ch in "-_.") for ch in uid)
            img = f"{uid}.png" if plain else f"unit-{_slug(uid)}.png"
            files["images/" + img] = _png(_counter_image(side, c.lines, facing_mark=c.facing is not None))
            traits = [MarkTrait(name=k, value=_safe(str(v))) for k, v in c.values.items()]
            for layer, band, key in c.layers:
                band_file = f"layer-{_slug(band)}.png"
                if "images/" + band_file not in files:
                    files["images/" + band_file] = _png(_band_image(band))
                traits.append(LayerTrait(images=["", band_file], newNames=["", band], activateName=band,
                                         activateChar=key, name=layer, description=f"{band} or not",
                                         loop=True, always=False, resetLevel=1))
            if c.facing == "hexside":
                traits.append(RotateTrait(nangles=6, name="Facing", description="facing (hexsides)"))
            elif c.facing == "degrees":
                traits.append(RotateTrait(nangles=1, name="Facing", description="facing (free, degrees)"))
            gpid = game.nextPieceSlotId()
            traits.append(BasicTrait(name=_safe(c.name or uid), filename=img, gpid=gpid))
            slots[uid] = plist.addPieceSlot(entryName=uid, gpid=gpid, width=COUNTER_PX, height=COUNTER_PX,
                                            traits=traits)
    mlist = tabs.addPanel(entryName="Markers", fixed=False).addList(entryName="Markers")
    marker_slots: dict[str, Any] = {}
    for name, c in plan.markers.items():
        fn = "marker-" + _slug(name) + ".png"
        files["images/" + fn] = _png(_counter_image("marker", c.lines))
        gpid = game.nextPieceSlotId()
        traits = [MarkTrait(name="Marker", value=_safe(name))]
        traits += [MarkTrait(name=k, value=_safe(str(v))) for k, v in c.values.items() if k != "Marker"]
        marker_slots[name] = mlist.addPieceSlot(entryName=name, gpid=gpid, width=COUNTER_PX, height=COUNTER_PX,
                                                traits=traits + [BasicTrait(name=_safe(c.name or name), filename=fn,
                                                                            gpid=gpid)])

    # the main map, its board and grid (snapping on a hex system's board only)
    main = game.addMap(mapName="Main Map")
    main.addCounterDetailViewer()
    main.addPieceMover()
    main.addStackMetrics()
    main.addZoomer()
    _add_board(main.addBoardPicker(), geo, grid, snap=hex_grid)

    hidden: dict[str, list[str]] = {}
    for uid, placement in plan.placed.items():
        if placement.secret:
            hidden.setdefault(plan.counters[uid].side, []).append(uid)
            continue
        _add_at_start(main, uid, slots[uid], placement, geo, hex_grid)
    for i, (name, placement) in enumerate(plan.placed_markers):
        _add_at_start(main, f"{name} {i + 1}", marker_slots[name], placement, geo, hex_grid)

    # hidden units: on their side's own copy of the board, where only that side looks
    for side in ("german", "russian"):
        if not hidden.get(side):
            continue
        pw = game.add(PrivateMap, mapName=f"{SIDE_NAMES[side]} hidden units", side=[SIDE_NAMES[side]],
                      visible=False, buttonName=f"{SIDE_NAMES[side]} hidden")
        pw.addPieceMover()
        pw.addStackMetrics()
        _add_board(pw.addBoardPicker(), geo, grid, snap=hex_grid)
        for uid in hidden[side]:
            _add_at_start(pw, uid, slots[uid], plan.placed[uid], geo, hex_grid)

    # the entry boxes: one per side and turn of entry, then the boxes without a turn
    boxes = [(side, f"{SIDE_NAMES[side]} enter {plan.turn_name} {turn}", [f"{u} enters {plan.turn_name} {turn}"
                                                                        for u in ids], ids)
             for side, turn, ids in sorted(plan.entries, key=lambda e: (e[0], e[1]))]
    boxes += [(side, f"{SIDE_NAMES[side]}: {title}", [f"{u} ({title})" for u in ids], ids)
              for side, title, ids in plan.holding if ids]
    if boxes:
        box_png, geometry = _entry_board([(side, label) for side, label, _n, _i in boxes])
        files["images/entry.png"] = box_png
        emap = game.addMap(mapName="Entry boxes")
        emap.addCounterDetailViewer()
        emap.addPieceMover()
        emap.addStackMetrics()
        epicker = emap.addBoardPicker()
        epicker.addBoard(name="Entry", image="entry.png", width=geometry["width"], height=geometry["height"])
        for (_side, _label, names, ids), (x, y) in zip(boxes, geometry["centres"]):
            for name, uid in zip(names, ids):
                at = emap.addAtStart(name=name, location="", useGridLocation=False, owningBoard="Entry",
                                     x=round(x), y=round(y))
                at.addPieces(slots[uid])

    # private windows: each side's secrets
    for side in ("german", "russian"):
        names = plan.secrets.get(side, [])
        if not names:
            continue
        pw = game.add(PrivateMap, mapName=f"{SIDE_NAMES[side]} secrets", side=[SIDE_NAMES[side]], visible=False,
                      buttonName=f"{SIDE_NAMES[side]} secrets")
        pw.addPieceMover()
        pw.addStackMetrics()
        ppick = pw.addBoardPicker()
        files[f"images/private-{side}.png"] = _png(_blank_board(len(names)))
        ppick.addBoard(name=f"{SIDE_NAMES[side]} secrets", image=f"private-{side}.png",
                       width=_blank_width(len(names)), height=COUNTER_PX * 2)
        for i, name in enumerate(names):
            at = pw.addAtStart(name=name, location="", useGridLocation=False,
                               owningBoard=f"{SIDE_NAMES[side]} secrets",
                               x=COUNTER_PX // 2 + 8 + i * (COUNTER_PX + 8), y=COUNTER_PX)
            at.addPieces(marker_slots[secret_marker(name, plan.markers)])

    data = ModuleData()
    md = data.addData()
    md.addVersion(version="1.0")
    md.addVASSALVersion(version="3.7.0")
    md.addName(name=plan.title)
    md.addDescription(description=f"{plan.title} - {plan.system} scenario exported by the ironcross toolkit")
    md.addDateSaved()

    dest = Path(out)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".tmp", dir=str(dest.parent))
    except OSError as e:
        raise OSError(f"{dest}: cannot write ({e.strerror or e})") from None
    os.close(fd)
    try:
        with VMod(tmp, "w") as vmod:
            vmod.addFiles(**{VMod.BUILD_FILE: build.encode(), VMod.MODULE_DATA: data.encode()})
            for name, content in files.items():
                vmod.addFile(name, content)
        os.chmod(tmp, 0o644)
        os.replace(tmp, dest)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return {"size": dest.stat().st_size, "pieces": len(slots), "markers": len(marker_slots),
            "placed": len(plan.placed), "entering": sum(len(e[2]) for e in plan.entries),
            "waiting": sum(len(h[2]) for h in plan.holding), "board": (geo.width, geo.height), "grid": grid}


def _blank_width(n: int) -> int:
    return max(1, n) * (COUNTER_PX + 8) + 16


def _blank_board(n: int):
    from PySide6.QtGui import QColor, QImage

    img = QImage(_blank_width(n), COUNTER_PX * 2, QImage.Format.Format_RGB32)
    img.fill(QColor("#fbf7ec"))
    return img


def _entry_board(boxes: list[tuple[str, str]]) -> tuple[bytes, dict[str, Any]]:
    """A board with one labelled box per (side, label); returns PNG bytes and the boxes' centres."""
    from PySide6.QtCore import QRectF, Qt
    from PySide6.QtGui import QColor, QFont, QImage, QPainter, QPen

    from editor.drawing.map_painter import ensure_app

    ensure_app()
    bw, bh = 240, 150
    width, height = bw * len(boxes) + 16, bh + 16
    img = QImage(width, height, QImage.Format.Format_RGB32)
    img.fill(QColor("#fbf7ec"))
    centres = []
    p = QPainter(img)
    try:
        f = QFont("DejaVu Sans")
        f.setPixelSize(14)
        f.setBold(True)
        p.setFont(f)
        for i, (side, label) in enumerate(boxes):
            r = QRectF(8 + i * bw, 8, bw - 8, bh)
            p.setPen(QPen(QColor("#2a2a58"), 2))
            p.setBrush(QColor(SIDE_COLOURS[side][0]))
            p.drawRect(r)
            p.drawText(r.adjusted(4, 4, -4, -4), Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignHCenter
                       | Qt.TextFlag.TextWordWrap, label)
            centres.append((r.center().x(), r.center().y() + 12))
    finally:
        p.end()
    return _png(img), {"width": width, "height": height, "centres": centres}
