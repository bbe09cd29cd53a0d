"""An Iron Cross scenario as a VASSAL module (``.vmod``), written with pywargame.

What the module holds (``docs/export.md`` shows it):

* **Board**: the scenario's map sections rendered by the product's own painter
  (:class:`editor.map_painter.MapPainter`, offscreen) at :data:`PX_PER_HEX` pixels per hex across
  flats, the board image of one map ``Main Map``.
* **Grid**: a VASSAL ``HexGrid`` (flat-topped columns, not sideways) whose column spacing and hex
  height are the painter's at that scale, its origin at the centre of the first even column's first
  row, and a ``HexNumbering`` (two-digit column, two-digit row, no separator) offset so that every
  location name is the printed hex id (``4307``): VASSAL's reports and "move to 4307" mean the same
  hex (rule 2.1 hex ids).
* **Palette** (piece window ``Counters``): every counter the scenario's roster puts in play, one tab
  per side, each counter image drawn from its values (ID, weapon or type, AP factor and range, AT
  factor, assault rating, PR; AFVs their armour modifiers and movement), the values also as piece
  properties (``Weapon``, ``AP``, ``Range``, ``AT``, ``Assault``, ``PR``, ``Hex``...); DOWN is a
  layer (3.1, Ctrl-D), an AFV's or a crew weapon's facing a six-step rotation (8.7); and a
  ``Markers`` tab: PINNED, SUPPRESSED (3.2), IP (18.1), hidden hex (24.2), wreck, AP and AT mines
  (19.1), grenade (16.0).
* **Set-up**: the designer's placement (``NAME.placement.json``) as at-start stacks at their hex
  ids, facing and DOWN as placed; units that enter later in the map ``Entry boxes``, one box per side
  and Game Turn of entry (24.1); each side's IPs, hidden hexes and mines in that side's private
  window, visible only to its player (18.1, 19.1, 24.2 keep them secret).
* **Turn track** ``Game Turn`` from 1 to the scenario's length, and the scenario's text (background,
  map, set-up and player notes, victory conditions, special rules, provenance of reconstructed
  counter values) as module help.

Only the Iron Cross rule system is exported; see ``docs/export.md`` for what is not.
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
           "SIDE_NAMES"]

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
        raise ExportError(f"{path}: a {system.name!r} scenario: only Iron Cross scenarios are exported to VASSAL "
                          "so far (see docs/export.md)")
    return system.vassal_plan(path)


# ---------------------------------------------------------------------------------------------
# Pictures: the board and the counters
# ---------------------------------------------------------------------------------------------
def _scenario_painter(plan):
    """A painter and the section name covering the scenario's map sections (one section, or the
    span of several adjacent ones as one extra section of a copy of the map)."""
    from editor.map_painter import LAYERS, MapPainter
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
        from editor.map_painter import hex_centre_scene

        c = hex_centre_scene(hexgrid.parse_hex_id(hex_id))
        return ((c.x() - self.origin[0]) * self.scale, (c.y() - self.origin[1]) * self.scale)


def render_board(plan) -> tuple[bytes, BoardGeometry]:
    """The board image (PNG bytes) of the scenario's sections and where its hexes are."""
    from PySide6.QtCore import QSize
    from PySide6.QtGui import QImage, QPainter

    from editor.map_painter import HEX_HEIGHT, MARGIN_BG, ensure_app

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


def counter_lines(u) -> tuple[str, str, str]:
    """The three lines printed on a counter: ID (top), weapon or type (middle), values (bottom).

    Infantry and commanders: ``AP-range assault PR`` (2.21); crew weapons: ``AP-range AT assault PR``
    (2.23; mortars' range is the minimum range); AFVs: ``AP-range AT F/f MA`` with the frontal and
    flank armour modifiers (2.22)."""
    kind = u.kind.value
    if kind == "afv":
        at = u.at if u.at else "-"
        return (u.id.split("-", 1)[1], u.weapon, f"{u.ap}-{u.ap_range} {at} {u.frontal:+d}/{u.flank:+d} {u.ma}")
    if kind == "cw":
        at = f" {u.at}" if u.at else ""
        return (u.id.split("-", 1)[1], u.weapon, f"{u.ap}-{u.ap_range}{at} {u.assault} PR{u.pr}")
    return (u.id.split("-", 1)[1], u.weapon, f"{u.ap}-{u.ap_range} {u.assault} PR{u.pr}")


def _counter_image(side: str, lines: tuple[str, str, str], *, facing_mark: bool = False, band: str | None = None):
    from PySide6.QtCore import QPointF, QRectF, Qt
    from PySide6.QtGui import QColor, QFont, QFontMetricsF, QImage, QPainter, QPen, QPolygonF

    from editor.map_painter import ensure_app

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
        if facing_mark:  # the front of the counter: a small wedge at the top edge (8.7 facing)
            p.setBrush(QColor(ink))
            p.drawPolygon(QPolygonF([QPointF(n / 2 - 6, 3), QPointF(n / 2 + 6, 3), QPointF(n / 2, 10)]))
        p.setPen(QColor(ink))
        top, middle, bottom = lines
        for text, y, px, bold in ((top, 10, 10, False), (middle, 30, 15, True), (bottom, 52, 10, True)):
            f = QFont("DejaVu Sans")
            f.setBold(bold)
            while True:  # the largest size up to px at which the line fits the counter
                f.setPixelSize(px)
                if px <= 6 or QFontMetricsF(f).horizontalAdvance(text) <= n - 8:
                    break
                px -= 1
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


#: The markers of the palette: name -> (lines printed, rule).
MARKERS: dict[str, tuple[tuple[str, str, str], str]] = {
    "PINNED": (("", "PINNED", "3.2"), "3.2"),
    "SUPPRESSED": (("", "SUPPR.", "3.2"), "3.2"),
    "IP 1": (("", "IP", "1"), "18.1"),
    "IP 2": (("", "IP", "2"), "18.1"),
    "IP 3": (("", "IP", "3"), "18.1"),
    "Hidden": (("", "HIDDEN", "24.2"), "24.2"),
    "Wreck": (("", "WRECK", "12.3"), "12.3"),
    "AP mines": (("", "MINES", "AP"), "19.1"),
    "AT mines": (("", "MINES", "AT"), "19.1"),
    "Grenade": (("", "GREN.", "16.0"), "16.0"),
}


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
def _value_traits(u) -> list:
    from pywargame.vassal import MarkTrait

    values = {"ID": u.id, "Side": SIDE_NAMES[u.side], "Kind": u.kind.value, "Weapon": u.weapon, "AP": u.ap,
              "Range": u.ap_range, "Assault": u.assault, "PR": u.pr}
    if u.kind.value in ("cw", "afv"):
        values.update({"AT": u.at, "MA": u.ma})
    if u.kind.value == "cw":
        values["Crew"] = u.crew_max
    if u.kind.value == "afv":
        values.update({"Frontal": u.frontal, "Flank": u.flank, "Overrun": u.overrun})
    if u.squad:
        values["Squad"] = u.squad
    return [MarkTrait(name=k, value=_safe(str(v))) for k, v in values.items()]


def _safe(text: str) -> str:
    """Text for a trait: VASSAL's piece definitions separate fields with '/' and ';' (pywargame
    0.8 does not escape them), so neither may appear inside one."""
    return text.replace("/", "-").replace(";", ",")


def _faces(u) -> bool:
    """Whether the unit has a facing (8.7), as the engine says (``Unit.has_facing``)."""
    return bool(u.has_facing)


def write_vmod(plan, out: str | os.PathLike[str]) -> dict[str, Any]:
    """Write the module for ``plan`` to ``out`` (a temporary file beside it, renamed when complete).

    Returns a summary: ``size`` (bytes), ``pieces`` (palette counters), ``placed``, ``entering``,
    ``board`` (width, height). Raises OSError naming ``out`` when it cannot be written."""
    from pywargame.vassal import (BasicTrait, BuildFile, LayerTrait, MarkTrait, ModuleData, PrivateMap,
                                  RotateTrait, VMod)

    board_png, geo = render_board(plan)
    ex = plan.hexmap.doc.extent
    grid = grid_parameters(geo, ex.first_row)
    files: dict[str, bytes] = {f"images/board.png": board_png}

    build = BuildFile()
    game = build.addGame(name=plan.title, version="1.0", description=f"{plan.title} (Iron Cross)")
    game.addBasicCommandEncoder()
    doc = game.addDocumentation()
    files["help/scenario.html"] = plan.help_html.encode("utf-8")
    doc.addHelpFile(title="Scenario", fileName="help/scenario.html")
    roster = game.addPlayerRoster()
    for side in ("german", "russian"):
        roster.addSide(SIDE_NAMES[side])
    game.addTurnTrack(name="Game Turn", buttonText="Game Turn", length=plan.turns,
                      counter={"property": "GameTurn", "start": 1, "incr": 1, "loop": False,
                               "turnFormat": f"Game Turn $value$ of {plan.turns}"})
    game.addDiceButton(name="1d10", nDice=1, nSides=10) if hasattr(game, "addDiceButton") else None

    # the palette
    window = game.addPieceWindow(name="Counters")
    tabs = window.addTabs(entryName="Counters")
    files["images/down.png"] = _png(_band_image("DOWN"))
    slots: dict[str, Any] = {}
    for side in ("german", "russian"):
        plist = tabs.addPanel(entryName=SIDE_NAMES[side], fixed=False).addList(entryName=f"{SIDE_NAMES[side]} counters")
        for uid, u in plan.units.items():
            if u.side != side:
                continue
            img = f"images/{uid}.png"
            files[img] = _png(_counter_image(side, counter_lines(u), facing_mark=_faces(u)))
            traits = _value_traits(u)
            # 3.1, 3.12: every unit is UP or DOWN (AFVs too, docs/rules-interpretations.md)
            traits.append(LayerTrait(images=["", "down.png"], newNames=["", "DOWN"], activateName="DOWN",
                                     activateChar="D", name="Down", description="UP or DOWN (3.1)",
                                     loop=True, always=False, resetLevel=1))
            if _faces(u):
                traits.append(RotateTrait(nangles=6, name="Facing", description="facing (8.7)"))
            gpid = game.nextPieceSlotId()
            traits.append(BasicTrait(name=_safe(f"{uid} {u.name}".strip()), filename=f"{uid}.png", gpid=gpid))
            slots[uid] = plist.addPieceSlot(entryName=uid, gpid=gpid, width=COUNTER_PX, height=COUNTER_PX,
                                            traits=traits)
    mlist = tabs.addPanel(entryName="Markers", fixed=False).addList(entryName="Markers")
    marker_slots: dict[str, Any] = {}
    for name, (lines, rule) in MARKERS.items():
        fn = "marker-" + name.lower().replace(" ", "-") + ".png"
        files["images/" + fn] = _png(_counter_image("marker", lines))
        gpid = game.nextPieceSlotId()
        marker_slots[name] = mlist.addPieceSlot(
            entryName=name, gpid=gpid, width=COUNTER_PX, height=COUNTER_PX,
            traits=[MarkTrait(name="Marker", value=name), MarkTrait(name="Rule", value=rule),
                    BasicTrait(name=name, filename=fn, gpid=gpid)])

    # the main map, its board and grid
    main = game.addMap(mapName="Main Map")
    main.addCounterDetailViewer()
    main.addPieceMover()
    main.addStackMetrics()
    main.addZoomer()
    picker = main.addBoardPicker()
    board = picker.addBoard(name=BOARD, image="board.png", width=geo.width, height=geo.height)
    zoned = board.addZonedGrid()
    zone = zoned.addZone(name="sections", useParentGrid=False,
                         path=f"0,0;{geo.width},0;{geo.width},{geo.height};0,{geo.height}")
    hgrid = zone.addHexGrid(dx=grid["dx"], dy=grid["dy"], x0=round(grid["x0"]), y0=round(grid["y0"]),
                            visible=False, snapTo=True, color="0,0,0")
    hgrid.addNumbering(first="H", hType="N", vType="N", hLeading=1, vLeading=1, hOff=grid["hOff"],
                       vOff=grid["vOff"], sep="", stagger=False, visible=False, locationFormat="$gridLocation$")

    for uid, (hex_id, facing, down) in plan.placed.items():
        at = main.addAtStart(name=uid, location=hex_id, useGridLocation=True, owningBoard=BOARD)
        (piece,) = at.addPieces(slots[uid])
        _set_state(piece, facing, down)

    # the entry boxes: one per side and Game Turn of entry (24.1)
    entries = sorted(plan.entries, key=lambda e: (e[0], e[1]))
    if entries:
        box_png, boxes = _entry_board(entries)
        files["images/entry.png"] = box_png
        emap = game.addMap(mapName="Entry boxes")
        emap.addCounterDetailViewer()
        emap.addPieceMover()
        emap.addStackMetrics()
        epicker = emap.addBoardPicker()
        epicker.addBoard(name="Entry", image="entry.png", width=boxes["width"], height=boxes["height"])
        for (side, turn, ids), (x, y) in zip(entries, boxes["centres"]):
            for uid in ids:
                at = emap.addAtStart(name=f"{uid} enters Game Turn {turn}", location="", useGridLocation=False,
                                     owningBoard="Entry", x=round(x), y=round(y))
                at.addPieces(slots[uid])

    # private windows: each side's secrets (18.1, 19.1, 24.2)
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
            kind = _marker_kind(name)
            at = pw.addAtStart(name=name, location="", useGridLocation=False,
                               owningBoard=f"{SIDE_NAMES[side]} secrets",
                               x=COUNTER_PX // 2 + 8 + i * (COUNTER_PX + 8), y=COUNTER_PX)
            at.addPieces(marker_slots[kind])

    data = ModuleData()
    md = data.addData()
    md.addVersion(version="1.0")
    md.addVASSALVersion(version="3.7.0")
    md.addName(name=plan.title)
    md.addDescription(description=f"{plan.title} - Iron Cross scenario exported by the ironcross toolkit")
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
            "board": (geo.width, geo.height), "grid": grid}


def _marker_kind(name: str) -> str:
    for kind in ("IP 1", "IP 2", "IP 3", "AP mines", "AT mines", "Grenade"):
        if name.startswith(kind):
            return kind
    if name.startswith("Hidden"):
        return "Hidden"
    if name.startswith("IP"):
        return "IP 3"
    raise KeyError(name)


def _set_state(piece, facing: int | None, down: bool) -> None:
    """Set the at-start state of a placed piece: DOWN layer level 2 when DOWN, rotation (facing - 1)
    steps clockwise from hexside 1 (the top) when it faces (8.7)."""
    from pywargame.vassal import LayerTrait, RotateTrait

    traits = piece.getTraits()
    changed = False
    for t in traits:
        if isinstance(t, LayerTrait) and down:
            t.setState(level=2)
            changed = True
        if isinstance(t, RotateTrait) and facing:
            t.setState(angle=(facing - 1) % 6)
            changed = True
    if changed:
        piece.setTraits(*traits)


def _blank_width(n: int) -> int:
    return max(1, n) * (COUNTER_PX + 8) + 16


def _blank_board(n: int):
    from PySide6.QtGui import QColor, QImage

    img = QImage(_blank_width(n), COUNTER_PX * 2, QImage.Format.Format_RGB32)
    img.fill(QColor("#fbf7ec"))
    return img


def _entry_board(entries) -> tuple[bytes, dict[str, Any]]:
    """A board with one labelled box per (side, entry turn); returns PNG bytes and the boxes' centres."""
    from PySide6.QtCore import QRectF, Qt
    from PySide6.QtGui import QColor, QFont, QImage, QPainter, QPen

    from editor.map_painter import ensure_app

    ensure_app()
    bw, bh = 240, 150
    width, height = bw * len(entries) + 16, bh + 16
    img = QImage(width, height, QImage.Format.Format_RGB32)
    img.fill(QColor("#fbf7ec"))
    centres = []
    p = QPainter(img)
    try:
        f = QFont("DejaVu Sans")
        f.setPixelSize(14)
        f.setBold(True)
        p.setFont(f)
        for i, (side, turn, _ids) in enumerate(entries):
            r = QRectF(8 + i * bw, 8, bw - 8, bh)
            p.setPen(QPen(QColor("#2a2a58"), 2))
            p.setBrush(QColor(SIDE_COLOURS[side][0]))
            p.drawRect(r)
            p.drawText(r.adjusted(4, 4, -4, -4), Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignHCenter,
                       f"{SIDE_NAMES[side]} enter Game Turn {turn}")
            centres.append((r.center().x(), r.center().y() + 12))
    finally:
        p.end()
    return _png(img), {"width": width, "height": height, "centres": centres}
