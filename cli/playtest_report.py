"""Pictures of a playtest batch (``ironcross playtest --report DIR``), drawn with Qt offscreen.

:func:`write_report` writes PNG files a designer would rather look at than read:

* ``outcomes.png``: one bar per outcome (German win, Russian win, draw, error) with its 95 %
  Wilson confidence interval;
* ``casualties_by_turn.png``: mean eliminations per game in each Game Turn, per side, with the
  95 % confidence interval of the mean;
* ``map_eliminations.png``, ``map_fire_targets.png``, ``map_fire_origins.png``: heat maps over
  the rendered map sections of the scenario (:mod:`editor.drawing.map_painter`): a circle on each hex whose
  area is proportional to the count over all games, the busiest hexes labelled, and a legend.

Qt is imported only inside the functions here (the CLI imports this module only for
``--report``); without a display the offscreen platform is used. No matplotlib. The scenario's
map comes from its rule system (``RuleSystem.scenario_map``), so a batch of any system is drawn.
This module sits in ``cli/`` with the command line, on top of the import graph: ``core/`` never
imports the editor or Qt.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Iterable, Sequence

__all__ = ["write_report", "heat_image", "heat_counts", "HEAT_KINDS", "SIDE_COLOURS"]

#: Colours of the sides and outcomes (hex RGB).
SIDE_COLOURS = {"german": "#4f5d6b", "russian": "#b5382e", "draw": "#c9a227", "error": "#6d6d6d"}
OUTCOME_LABELS = {"german": "German win", "russian": "Russian win", "draw": "Draw", "error": "Error"}
FONT = "DejaVu Sans"
BG = "#fbf7ec"
INK = "#2b2620"
GRIDLINE = "#d9d1bf"

def _ensure_app() -> None:
    from editor.drawing.map_painter import ensure_app

    ensure_app()


def _font(px: float, bold: bool = False):
    from PySide6.QtGui import QFont

    f = QFont(FONT)
    f.setPixelSize(max(1, int(round(px))))
    f.setBold(bold)
    return f


def _image(w: int, h: int):
    from PySide6.QtGui import QColor, QImage, QPainter

    img = QImage(int(w), int(h), QImage.Format.Format_ARGB32_Premultiplied)
    img.fill(QColor(BG))
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    p.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    return img, p


def _save(img, painter, path: Path) -> Path:
    painter.end()
    if not img.save(str(path), "PNG"):
        raise OSError(f"cannot write PNG file {path}")
    return path


MIN_PX = 11


def _fit_px(s: str, px: float, w: float, bold: bool = False) -> float:
    """The largest font size up to ``px`` at which ``s`` fits ``w`` pixels (at least :data:`MIN_PX`)."""
    from PySide6.QtGui import QFontMetricsF

    while px > MIN_PX and QFontMetricsF(_font(px, bold)).horizontalAdvance(s) > w:
        px = max(MIN_PX, px - 1)
    return px


def _text(p, x: float, y: float, w: float, h: float, s: str, px: float, *, bold: bool = False,
          align: str = "left", colour: str = INK) -> tuple[str, float]:
    """Draw one line of text in the box; a line too long for the box is drawn smaller (down to
    :data:`MIN_PX`) and only then elided with "...", never cut. Returns (text drawn, size)."""
    from PySide6.QtCore import QRectF, Qt
    from PySide6.QtGui import QColor, QFontMetricsF

    px = _fit_px(s, px, w, bold)
    f = _font(px, bold)
    fm = QFontMetricsF(f)
    if fm.horizontalAdvance(s) > w:
        s = fm.elidedText(s, Qt.TextElideMode.ElideRight, w)
    p.setFont(f)
    p.setPen(QColor(colour))
    flags = {"left": Qt.AlignmentFlag.AlignLeft, "right": Qt.AlignmentFlag.AlignRight,
             "center": Qt.AlignmentFlag.AlignHCenter}[align] | Qt.AlignmentFlag.AlignVCenter
    p.drawText(QRectF(x, y, w, h), int(flags), s)
    return s, px


def _nice_step(top: float, ticks: int = 5) -> float:
    raw = max(top, 1e-9) / ticks
    mag = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        if raw <= m * mag:
            return m * mag
    return 10 * mag


def _subtitle(results: Sequence, ai: dict | None) -> str:
    n = len(results)
    played = sum(1 for r in results if r.outcome != "error")
    who = f" - German: {ai.get('german')}, Russian: {ai.get('russian')}" if ai else ""
    return f"{n} games ({played} played to the end){who}"


# ------------------------------------------------------------------------------------ charts
def outcome_chart(summary: dict, path: Path, title: str, subtitle: str) -> Path:
    """Horizontal bars: share of games per outcome with the 95 % Wilson interval as a whisker."""
    from PySide6.QtCore import QPointF, QRectF
    from PySide6.QtGui import QColor, QPen

    keys = [k for k in ("german", "russian", "draw", "error") if k in summary["outcomes"]]
    W, row = 1100, 74
    top, left, right = 110, 190, 330
    H = top + row * len(keys) + 70
    img, p = _image(W, H)
    _text(p, 24, 14, W - 48, 36, f"{title}: outcomes", 26, bold=True)
    _text(p, 24, 50, W - 48, 26, subtitle + " - bars: share of games; whiskers: 95 % confidence interval",
          16, colour="#5a5248")
    plot_w = W - left - right
    x0 = left
    # grid 0..100 %
    for pct in range(0, 101, 10):
        x = x0 + plot_w * pct / 100
        p.setPen(QPen(QColor(GRIDLINE if pct % 50 else "#b8ad96"), 1))
        p.drawLine(QPointF(x, top - 8), QPointF(x, top + row * len(keys)))
        _text(p, x - 30, top + row * len(keys) + 4, 60, 22, f"{pct} %", 14, align="center", colour="#5a5248")
    n = summary["games"]
    for i, k in enumerate(keys):
        y = top + i * row
        rate = summary["rates"][k]["rate"]
        lo, hi = summary["rates"][k]["ci95"]
        _text(p, 16, y, left - 28, row - 14, OUTCOME_LABELS.get(k, k), 20, bold=True, align="right")
        bar = QRectF(x0, y + 10, plot_w * rate, row - 34)
        p.fillRect(bar, QColor(SIDE_COLOURS.get(k, "#888")))
        # whisker
        cy = y + 10 + (row - 34) / 2
        pen = QPen(QColor(INK), 2.5)
        p.setPen(pen)
        xl, xh = x0 + plot_w * lo, x0 + plot_w * hi
        p.drawLine(QPointF(xl, cy), QPointF(xh, cy))
        for xx in (xl, xh):
            p.drawLine(QPointF(xx, cy - 11), QPointF(xx, cy + 11))
        cnt = summary["outcomes"][k]
        _text(p, W - right + 16, y, right - 24, row - 14,
              f"{cnt} of {n}: {rate:.0%}  [{lo:.0%} - {hi:.0%}]", 19)
    _text(p, 24, H - 36, W - 48, 24,
          "Where two intervals overlap a lot, more games are needed before calling the difference real.",
          14, colour="#5a5248")
    return _save(img, p, path)


def casualty_chart(summary: dict, path: Path, title: str, subtitle: str) -> Path:
    """Grouped bars per Game Turn: mean eliminations per game of each side, 95 % CI of the mean."""
    from PySide6.QtCore import QPointF, QRectF
    from PySide6.QtGui import QColor, QPen

    rows = summary.get("casualties_by_turn") or {}
    turns = max((len(v) for v in rows.values()), default=0)
    W = max(900, 140 + 110 * max(1, turns))
    H = 620
    left, right, top, bottom = 90, 40, 130, 80
    img, p = _image(W, H)
    _text(p, 24, 14, W - 48, 36, f"{title}: casualties by Game Turn", 26, bold=True)
    _text(p, 24, 48, W - 48, 22, subtitle, 16, colour="#5a5248")
    _text(p, 24, 70, W - 48, 20, "bars: units eliminated per game (mean); whiskers: 95 % confidence interval",
          14, colour="#5a5248")
    # legend
    lx = W - right - 320
    for j, side in enumerate(("german", "russian")):
        p.fillRect(QRectF(lx + j * 160, 94, 22, 18), QColor(SIDE_COLOURS[side]))
        _text(p, lx + j * 160 + 30, 90, 130, 26, side.capitalize() + " losses", 16)
    plot_w, plot_h = W - left - right, H - top - bottom
    top_val = max([r["ci95"][1] for v in rows.values() for r in v] + [r["mean"] for v in rows.values() for r in v]
                  + [0.5])
    step = _nice_step(top_val)
    ymax = step * math.ceil(top_val / step)
    for k in range(int(round(ymax / step)) + 1):
        v = k * step
        y = top + plot_h - plot_h * v / ymax
        p.setPen(QPen(QColor(GRIDLINE if k else "#8a7f6a"), 1))
        p.drawLine(QPointF(left, y), QPointF(left + plot_w, y))
        _text(p, 0, y - 11, left - 10, 22, f"{v:g}", 14, align="right", colour="#5a5248")
    _text(p, left, H - 40, plot_w, 26, "Game Turn", 16, align="center")
    if turns == 0:
        _text(p, left, top, plot_w, plot_h, "no games played to the end", 20, align="center")
        return _save(img, p, path)
    slot = plot_w / turns
    bw = min(44.0, slot * 0.36)
    for t in range(turns):
        cx = left + slot * (t + 0.5)
        _text(p, cx - 30, top + plot_h + 6, 60, 22, str(t + 1), 15, align="center")
        for j, side in enumerate(("german", "russian")):
            seq = rows.get(side) or []
            if t >= len(seq):
                continue
            r = seq[t]
            x = cx + (j - 1) * bw - 2 + 4 * j
            h = plot_h * r["mean"] / ymax
            p.fillRect(QRectF(x, top + plot_h - h, bw, h), QColor(SIDE_COLOURS[side]))
            lo, hi = r["ci95"]
            if hi > lo:
                p.setPen(QPen(QColor(INK), 1.8))
                ylo, yhi = top + plot_h - plot_h * lo / ymax, top + plot_h - plot_h * hi / ymax
                mx = x + bw / 2
                p.drawLine(QPointF(mx, ylo), QPointF(mx, yhi))
                p.drawLine(QPointF(mx - 6, yhi), QPointF(mx + 6, yhi))
                p.drawLine(QPointF(mx - 6, ylo), QPointF(mx + 6, ylo))
            if r["mean"] > 0:
                _text(p, x - 10, top + plot_h - h - 22 - (0 if hi <= r["mean"] else plot_h * (hi - r["mean"]) / ymax),
                      bw + 20, 20, f"{r['mean']:.1f}", 12, align="center", colour="#3a342c")
    return _save(img, p, path)


# ------------------------------------------------------------------------------------ heat maps
#: The three heat maps of a batch, by the name the editor's Playtest panel gives them: the
#: :class:`core.playtest.GameResult` field counted (hex id -> count), what the map shows (title),
#: the legend's heading and the circles' colour.
HEAT_KINDS = {
    "eliminations": ("eliminated_at", "where units were eliminated", "eliminations", "#c0392b"),
    "fire targets": ("fire_at", "hexes fired at (fire, grenades, flame, assaults)", "attacks on the hex", "#d35400"),
    "fire origins": ("fire_from", "hexes fired from (one per firing unit)", "firing units in the hex", "#1f5fa8"),
}


def heat_counts(results: Iterable, kind: str) -> dict[str, int]:
    """Hex id -> count summed over the games ``results`` (``GameResult``) for the heat map ``kind``
    (a key of :data:`HEAT_KINDS`; KeyError for another); a result without the field counts nothing."""
    field = HEAT_KINDS[kind][0]
    out: dict[str, int] = {}
    for r in results:
        for h, n in (getattr(r, field, None) or {}).items():
            out[h] = out.get(h, 0) + n
    return out


def heat_map(hexmap, sections: Iterable[str], counts: dict[str, int], path: Path, *, title: str, subtitle: str,
             what: str, colour: str, games: int, short: str = "", px_per_hex: float = 36.0,
             scale_max: int | None = None) -> Path:
    """The map of ``sections`` with a translucent circle per hex of ``counts`` (area ~ count),
    written as PNG to ``path`` (:func:`heat_image`); OSError when it cannot be written."""
    img = heat_image(hexmap, sections, counts, title=title, subtitle=subtitle, what=what, colour=colour,
                     games=games, short=short, px_per_hex=px_per_hex, scale_max=scale_max)
    if not img.save(str(path), "PNG"):
        raise OSError(f"cannot write PNG file {path}")
    return path


def heat_image(hexmap, sections: Iterable[str], counts: dict[str, int], *, title: str, subtitle: str,
               what: str, colour: str, games: int, short: str = "", px_per_hex: float = 36.0,
               scale_max: int | None = None):
    """A ``QImage`` of the map of ``sections`` (of ``hexmap``, drawn by the editor's
    :class:`MapPainter`) at ``px_per_hex`` pixels a hex, with a translucent circle per hex of
    ``counts`` (hex id -> count over ``games`` games; area ~ count), a title, the legend and the
    busiest hexes. ``scale_max``: the count drawn as the largest circle (default: the largest of
    ``counts``); two maps given the same one are on the same scale, so they compare by eye."""
    sections = list(sections)
    from PySide6.QtCore import QPointF, QRectF
    from PySide6.QtGui import QColor, QPen

    from editor.drawing.map_style import HEX_HEIGHT, HEX_WIDTH, LAYERS
    from editor.drawing.map_painter import MapPainter
    from editor.drawing.hex_scene import hex_centre_scene
    from maps import hexgrid

    cols = [hexmap.section_columns(s) for s in sections] or [(hexmap.first_column, hexmap.last_column)]
    c0, c1 = min(c[0] for c in cols), max(c[1] for c in cols)
    hexes = list(hexgrid.iter_block(c0, c1, hexmap.first_row, hexmap.last_row))
    outside = []
    parsed: dict[str, object] = {}
    for hid in counts:
        try:
            h = hexgrid.parse_hex_id(hid)
        except ValueError:
            continue
        parsed[hid] = h
        if not (c0 <= h.col <= c1):
            outside.append(hid)
            hexes.append(h)
    xs, ys = [], []
    for h in hexes:
        c = hex_centre_scene(h)
        xs.append(c.x())
        ys.append(c.y())
    m = 0.3 * HEX_HEIGHT  # room for the biggest circles at the edge
    crop = QRectF(min(xs) - HEX_WIDTH / 2 - m, min(ys) - HEX_HEIGHT / 2 - m,
                  max(xs) - min(xs) + HEX_WIDTH + 2 * m, max(ys) - min(ys) + HEX_HEIGHT + 2 * m)
    s = px_per_hex / HEX_HEIGHT
    title_h, legend_w, pad = 96, 330, 18
    map_w, map_h = crop.width() * s, crop.height() * s
    W = int(math.ceil(map_w + legend_w + 2 * pad))
    from PySide6.QtGui import QFontMetricsF

    # a picture of one narrow section is widened for its title, which is never cut
    W = max(W, int(math.ceil(QFontMetricsF(_font(18, True)).horizontalAdvance(f"{title}: {what}") + 2 * pad + 4)))
    H = int(math.ceil(max(map_h, 560) + title_h + pad))
    img, p = _image(W, H)
    _text(p, pad, 12, W - 2 * pad, 34, f"{title}: {what}", 24, bold=True)
    _text(p, pad, 48, W - 2 * pad, 22, subtitle, 15, colour="#5a5248")
    names = ", ".join(sections)
    _text(p, pad, 70, W - 2 * pad, 20, f"{names}" + (f" (and {len(outside)} hex(es) outside it, greyed)" if outside else ""),
          13, colour="#5a5248")
    # the map, washed out so that the circles stand out
    mp = MapPainter(hexmap, [x for x in LAYERS if x not in ("title", "legend", "provenance")])
    p.save()
    p.translate(pad, title_h)
    p.scale(s, s)
    p.translate(-crop.left(), -crop.top())
    p.setClipRect(crop)
    mp.paint(p)
    p.fillRect(crop, QColor(255, 255, 255, 105))
    if outside:  # grey out what lies outside the scenario's sections
        from PySide6.QtGui import QPainterPath

        rest = QPainterPath()
        rest.addRect(crop)
        for sec in sections:
            rest = rest.subtracted(mp.outline(sec))
        p.fillPath(rest, QColor(120, 120, 120, 90))
    cmax = max(scale_max or 0, max(counts.values(), default=0))
    r_max = 0.78 * HEX_HEIGHT
    base = QColor(colour)
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    for hid, c in reversed(ranked):  # the biggest last, on top... but drawn translucent
        h = parsed.get(hid)
        if h is None or c <= 0:
            continue
        r = r_max * math.sqrt(c / cmax)
        fill = QColor(base)
        fill.setAlpha(int(70 + 110 * math.sqrt(c / cmax)))
        p.setBrush(fill)
        p.setPen(QPen(base.darker(140), 3.0))
        p.drawEllipse(hex_centre_scene(h), r, r)
    # the count of the busiest hexes inside their circles (hex ids in the legend)
    for rank, (hid, c) in enumerate(ranked[:8], 1):
        h = parsed.get(hid)
        if h is None:
            continue
        ctr = hex_centre_scene(h)
        r = r_max * math.sqrt(c / cmax)
        px = max(22.0, min(44.0, r * 0.8))
        box = QRectF(ctr.x() - 60, ctr.y() - px * 0.7, 120, px * 1.4)
        _text(p, box.left() + 2, box.top() + 2, box.width(), box.height(), str(c), px, bold=True,
              align="center", colour="#000000")
        _text(p, box.left(), box.top(), box.width(), box.height(), str(c), px, bold=True, align="center",
              colour="#ffffff")
    p.restore()
    # legend
    lx = pad + map_w + pad
    ly = title_h
    _text(p, lx, ly, legend_w - pad, 26, (short or what).capitalize(), 18, bold=True)
    total = sum(counts.values())
    _text(p, lx, ly + 28, legend_w - pad, 22, f"{total} in {games} games ({total / max(1, games):.1f} per game)", 14)
    _text(p, lx, ly + 50, legend_w - pad, 22, f"on {len(counts)} hexes; circle area ~ count", 14)
    y = ly + 86
    if cmax:
        samples = sorted({cmax, max(1, round(cmax / 4)), 1}, reverse=True)
        for v in samples:
            r = r_max * math.sqrt(v / cmax) * s
            fill = QColor(base)
            fill.setAlpha(int(70 + 110 * math.sqrt(v / cmax)))
            p.setBrush(fill)
            p.setPen(QPen(base.darker(140), 1.5))
            p.drawEllipse(QPointF(lx + 40, y + r_max * s), r, r)
            _text(p, lx + 90, y + r_max * s - 12, legend_w - 100, 24, f"{v} ({v / max(1, games):.2f} per game)", 14)
            y += 2 * r_max * s + 8
        y += 10
        _text(p, lx, y, legend_w - pad, 24, "Busiest hexes (count in the circle)", 16, bold=True)
        y += 26
        for hid, c in ranked[:12]:
            _text(p, lx, y, legend_w - pad, 20, f"{hid}   {c:5d}   {c / max(1, games):.2f}/game", 14)
            y += 21
    else:
        _text(p, lx, y, legend_w - pad, 24, "none in these games", 15)
    p.end()
    return img


def write_report(results: Sequence, scenario, out_dir: str | os.PathLike[str], *, title: str = "",
                 summary: dict | None = None, ai: dict | None = None) -> list[Path]:
    """Write the pictures of a batch of ``scenario`` (a :class:`core.rule_system.LoadedScenario`,
    or its path, loaded here) into ``out_dir`` (created); returns their paths. The heat maps are
    drawn on the map the scenario is played on (:meth:`LoadedScenario.load_map`). Raises
    ``DocumentError`` for a scenario or map that cannot be read, OSError when a picture cannot be
    written."""
    _ensure_app()
    from core.playtest import summarise
    from core.rule_system import LoadedScenario, load_scenario

    loaded = scenario if isinstance(scenario, LoadedScenario) else load_scenario(scenario)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    s = summary or summarise(results, loaded)
    hexmap, secs = loaded.load_map()
    title = title or loaded.short_title
    sub = _subtitle(results, ai)
    n = len(results)
    paths = [outcome_chart(s, out / "outcomes.png", title, sub),
             casualty_chart(s, out / "casualties_by_turn.png", title, sub)]
    for kind, name in (("eliminations", "map_eliminations.png"), ("fire targets", "map_fire_targets.png"),
                       ("fire origins", "map_fire_origins.png")):
        _field, what, short, colour = HEAT_KINDS[kind]
        paths.append(heat_map(hexmap, secs, heat_counts(results, kind), out / name, title=title, subtitle=sub,
                              what=what, short=short, colour=colour, games=n))
    return paths
