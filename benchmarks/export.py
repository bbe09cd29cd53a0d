"""Exports: module size and export time of Scenario 6 (two map sections) as a VASSAL module, and
Tiled export/import time of the whole mapsheet. Prints figures (each time also as a multiple of the
yardstick timed in the same run); asserts nothing.

    .venv/bin/python benchmarks/export.py [--pictures DIR]

``--pictures DIR`` also writes the pictures of docs/export.md, drawn from the written module: a
corner of the board image with the placed counters at the pixels the module's own grid gives their
hex ids (read back with pywargame), and a strip of palette counters.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import tempfile
import time
from pathlib import Path

import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parents[1]
# run as a script, this folder comes first on the path, and its editor.py would hide the editor package
sys.path[:] = [str(ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != ROOT / "benchmarks"]
S6 = ROOT / "scenarios" / "data" / "scenario_6_spartakovka.json"
SHEET = ROOT / "maps" / "data" / "iron_cross_mapsheet.json"


def yardstick() -> float:
    t = time.perf_counter()
    s = 0
    for i in range(2_000_000):
        s += i * i % 7
    return time.perf_counter() - t


def played_setup(scenario: Path, seed: int = 3) -> dict:
    """A set-up placed by a seeded choice among the game's legal Place actions (as the tests do)."""
    from core.ironcross.actions import EndSetup, Place
    from core.ironcross.game import Game
    from core.ironcross.scenario_setup import load_setup

    _sc, setup = load_setup(scenario)
    game = Game(setup, seed)
    rnd = random.Random(seed)
    for _ in range(2000):
        acts = game.legal_actions()
        places = [a for a in acts if isinstance(a, Place) and not a.hidden]
        if not places:
            ends = [a for a in acts if isinstance(a, EndSetup)]
            if not ends:
                break
            game.apply(ends[0])
            continue
        game.apply(rnd.choice(places))
    return {"format": "ironcross-placement", "version": 1,
            "units": {u.id: {"hex": u.hex, "facing": u.facing, "down": u.down}
                      for u in game.state.units.values() if u.hex is not None}}


def pictures(vmod: Path, out_dir: Path) -> None:
    from PySide6.QtCore import QPointF, Qt
    from PySide6.QtGui import QColor, QImage, QPainter
    from pywargame.vassal import BuildFile, MarkTrait, PieceSlot, RotateTrait, VMod

    with VMod(str(vmod), "r") as v:
        build = BuildFile(v.getBuildFile())
        images = {name: v.getFiles(name)[name] for name in v.getFileNames() if name.startswith("images/")}
    game = build.getGame()
    main_map = game.getMaps()["Main Map"]
    board = QImage.fromData(images["images/board.png"])
    numbering = main_map.getBoardPicker()[0].getBoards()["Scenario map"].getZonedGrids()[0].getZones()[
        "sections"].getHexGrids()[0].getNumbering()[0]
    p = QPainter(board)
    p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
    for at in main_map.getAtStarts(single=False):
        x, y = numbering.getLocation(at["location"])
        (piece,) = at.getPieces(asdict=False)
        uid = {t["name"]: t["value"] for t in piece.getTraits() if isinstance(t, MarkTrait)}["ID"]
        img = QImage.fromData(images[f"images/{uid}.png"]).scaled(56, 56, Qt.AspectRatioMode.KeepAspectRatio,
                                                                 Qt.TransformationMode.SmoothTransformation)
        angle = next((int(t["angle"] or 0) for t in piece.getTraits() if isinstance(t, RotateTrait)), 0)
        p.save()
        p.translate(x, y)
        p.rotate(60 * angle)
        p.drawImage(QPointF(-28, -28), img)
        p.restore()
    p.end()
    xs = [numbering.getLocation(a["location"]) for a in main_map.getAtStarts(single=False)]
    cx = sorted(x for x, _ in xs)[len(xs) // 2]
    cy = sorted(y for _, y in xs)[len(xs) // 2]
    w, h = 1100, 800
    board.copy(max(0, int(cx - w / 2)), max(0, int(cy - h / 2)), w, h).save(str(out_dir / "export-board.png"))
    slots = [s["entryName"] for s in game.getPieceWindows()["Counters"].getAllElements(
        PieceSlot, single=False)]
    wanted = [n for n in slots if n.startswith("G-A-")][:3] + [n for n in slots if n.startswith("G-PL")][:1] + \
             [n for n in slots if "StugIIIb" in n][:1] + [n for n in slots if n.startswith("R-A-")][:2] + \
             [n for n in slots if n.startswith("R-MMG") or n.startswith("R-45AT")][:2] + \
             [n for n in slots if n.startswith("R-T34")][:1] + ["PINNED", "SUPPRESSED", "IP 2", "Hidden", "AT mines"]
    n = 64
    strip = QImage(len(wanted) * (n + 8) + 8, n + 16, QImage.Format.Format_ARGB32)
    strip.fill(QColor("#fbf7ec"))
    p = QPainter(strip)
    for i, name in enumerate(wanted):
        key = f"images/{name}.png" if f"images/{name}.png" in images else \
            "images/marker-" + name.lower().replace(" ", "-") + ".png"
        p.drawImage(8 + i * (n + 8), 8, QImage.fromData(images[key]))
    p.end()
    strip.save(str(out_dir / "export-palette.png"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--pictures", type=Path, default=None)
    args = ap.parse_args()
    from cli.tiled_map import export_tiled, import_tiled
    from cli.vassal_module import plan_from_files, write_vmod
    from maps.mapfile import load_map_file, map_json

    ys = yardstick()
    print(f"yardstick: {ys:.3f} s")
    with tempfile.TemporaryDirectory() as d:
        d = Path(d)
        data = json.loads(S6.read_text())
        data["map"]["file"] = str((S6.parent / data["map"]["file"]).resolve())
        sc = d / "s6.json"
        sc.write_text(json.dumps(data))
        (d / "s6.placement.json").write_text(json.dumps(played_setup(sc)))
        t = time.perf_counter()
        summary = write_vmod(plan_from_files(sc), d / "s6.vmod")
        te = time.perf_counter() - t
        w, h = summary["board"]
        print(f"VASSAL export, Scenario 6 (Map 1 + Map 2, {w}x{h} px board, {summary['pieces']} counters, "
              f"{summary['placed']} placed): {summary['size'] / 1e6:.2f} MB, {te:.2f} s = {te / ys:.1f} x yardstick")
        if args.pictures:
            args.pictures.mkdir(parents=True, exist_ok=True)
            pictures(d / "s6.vmod", args.pictures)
            print(f"pictures in {args.pictures}")
        doc = load_map_file(SHEET)
        t = time.perf_counter()
        export_tiled(doc, d / "sheet.tmx")
        tx = time.perf_counter() - t
        t = time.perf_counter()
        back = import_tiled(d / "sheet.tmx")
        ti = time.perf_counter() - t
        same = map_json(back) == map_json(doc)
        size = (d / "sheet.tmx").stat().st_size + (d / "sheet-tiles.png").stat().st_size
        print(f"Tiled export, whole mapsheet (61 x 27 hexes): {tx:.2f} s = {tx / ys:.1f} x yardstick, "
              f"{size / 1e6:.2f} MB with its tileset")
        print(f"Tiled import (pytmx), whole mapsheet: {ti:.2f} s = {ti / ys:.1f} x yardstick; equal to the map: {same}")


if __name__ == "__main__":
    main()
