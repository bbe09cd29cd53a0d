"""Exports: module size and export time of Scenario 6 (two map sections) as a VASSAL module, of the
shipped Red Flags and 20 mm scenarios, and
Tiled export/import time of the whole mapsheet. Prints figures (each time also as a multiple of the
yardstick timed in the same run); asserts nothing.

    .venv/bin/python benchmarks/export.py [--pictures DIR]

``--pictures DIR`` also writes the pictures of docs/export.md, drawn from the written module: a
corner of the board image with the placed counters at the pixels the module's own grid gives their
hex ids (read back with pywargame), and a strip of palette counters; the same for the Red Flags
module (its played set-up at its hex ids) and the 20 mm module (at their own pixels, turned to their
bearings, the hidden units from the Russian side's copy of the board).
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
RF1 = ROOT / "scenarios" / "data" / "redflags_1_hill_j.json"
TM1 = ROOT / "scenarios" / "data" / "twentymm_1_village_counterattack.json"


def _piece_xy(at, numbering) -> tuple[float, float]:
    """Board pixel of an at-start stack: its grid location's (hex grid) or its own x, y (free board)."""
    if at["useGridLocation"] in ("true", True):
        return numbering.getLocation(at["location"])
    return float(at["x"]), float(at["y"])


def board_picture(vmod: Path, out: Path, size: tuple[int, int] = (1100, 800), maps=("Main Map",)) -> None:
    """A corner of the written board image with every at-start piece of ``maps`` drawn where the
    module puts it (read back with pywargame): at the pixel its grid location names, or at its
    own pixel on a free board; turned as its rotation says."""
    from PySide6.QtCore import QPointF, Qt
    from PySide6.QtGui import QImage, QPainter
    from pywargame.vassal import BuildFile, PrivateMap, RotateTrait, VMod

    with VMod(str(vmod), "r") as v:
        build = BuildFile(v.getBuildFile())
        images = {name: v.getFiles(name)[name] for name in v.getFileNames() if name.startswith("images/")}
    game = build.getGame()
    every = dict(game.getMaps())
    every.update({m["mapName"]: m for m in game.getAllElements(PrivateMap, single=False)})
    board = QImage.fromData(images["images/board.png"])
    first = every[maps[0]].getBoardPicker()[0].getBoards()["Scenario map"]
    numbering = first.getZonedGrids()[0].getZones()["sections"].getHexGrids()[0].getNumbering()[0]
    p = QPainter(board)
    p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
    xs = []
    for name in maps:
        for at in every[name].getAtStarts(single=False):
            x, y = _piece_xy(at, numbering)
            xs.append((x, y))
            (piece,) = at.getPieces(asdict=False)
            basic = piece.getTraits()[-1]
            img = QImage.fromData(images["images/" + basic["filename"]]).scaled(
                56, 56, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation)
            rot = next((t for t in piece.getTraits() if isinstance(t, RotateTrait)), None)
            p.save()
            p.translate(x, y)
            if rot is not None and int(rot["nangles"]) == 1:
                p.rotate(-float(rot["angle"] or 0))   # VASSAL's free angle turns counter-clockwise
            elif rot is not None:
                p.rotate(60 * int(rot["angle"] or 0))  # six steps, clockwise from hexside 1
            p.drawImage(QPointF(-28, -28), img)
            p.restore()
    p.end()
    cx = sorted(x for x, _ in xs)[len(xs) // 2]
    cy = sorted(y for _, y in xs)[len(xs) // 2]
    w, h = size
    board.copy(max(0, min(int(cx - w / 2), board.width() - w)), max(0, min(int(cy - h / 2), board.height() - h)),
               w, h).save(str(out))


def palette_picture(vmod: Path, out: Path, wanted: list[str]) -> None:
    """A strip of palette counters and markers as written, by their palette names."""
    from PySide6.QtGui import QColor, QImage, QPainter
    from pywargame.vassal import BuildFile, PieceSlot, VMod

    with VMod(str(vmod), "r") as v:
        build = BuildFile(v.getBuildFile())
        images = {name: v.getFiles(name)[name] for name in v.getFileNames() if name.startswith("images/")}
    slots = {s["entryName"]: s for s in build.getGame().getPieceWindows()["Counters"].getAllElements(
        PieceSlot, single=False)}
    n = 64
    strip = QImage(len(wanted) * (n + 8) + 8, n + 16, QImage.Format.Format_ARGB32)
    strip.fill(QColor("#fbf7ec"))
    p = QPainter(strip)
    for i, name in enumerate(wanted):
        basic = slots[name].getTraits()[-1]
        p.drawImage(8 + i * (n + 8), 8, QImage.fromData(images["images/" + basic["filename"]]))
    p.end()
    strip.save(str(out))


def pictures(vmod: Path, out_dir: Path) -> None:
    from pywargame.vassal import BuildFile, PieceSlot, VMod

    board_picture(vmod, out_dir / "export-board.png")
    with VMod(str(vmod), "r") as v:
        build = BuildFile(v.getBuildFile())
    slots = [s["entryName"] for s in build.getGame().getPieceWindows()["Counters"].getAllElements(
        PieceSlot, single=False)]
    wanted = [n for n in slots if n.startswith("G-A-")][:3] + [n for n in slots if n.startswith("G-PL")][:1] + \
             [n for n in slots if "StugIIIb" in n][:1] + [n for n in slots if n.startswith("R-A-")][:2] + \
             [n for n in slots if n.startswith("R-MMG") or n.startswith("R-45AT")][:2] + \
             [n for n in slots if n.startswith("R-T34")][:1] + ["PINNED", "SUPPRESSED", "IP 2", "Hidden", "AT mines"]
    palette_picture(vmod, out_dir / "export-palette.png", wanted)


def rf_setup(scenario: Path, seed: int = 5) -> dict:
    """A Red Flags set-up placed by a seeded choice among the legal Place actions (as the tests do)."""
    from core.redflags.actions import Place
    from core.redflags.game import Game
    from core.redflags.scenario import load_setup

    game = Game(load_setup(scenario), seed)
    rnd = random.Random(seed)
    units = {}
    while game.phase == "setup":
        a = rnd.choice([a for a in game.legal_actions() if isinstance(a, Place)])
        game.apply(a)
        units[a.unit] = a.hex
    return {"units": units}


def _copy(scenario: Path, d: Path) -> Path:
    data = json.loads(scenario.read_text())
    data["map"]["file"] = str((scenario.parent / data["map"]["file"]).resolve())
    out = d / scenario.name
    out.write_text(json.dumps(data))
    return out


def other_systems(d: Path, ys: float, pictures_dir: Path | None) -> None:
    """Red Flags (with a played set-up) and 20 mm modules: size and time, and their pictures."""
    from cli.vassal_module import plan_from_files, write_vmod

    rf = _copy(RF1, d)
    (d / (rf.stem + ".placement.json")).write_text(json.dumps(rf_setup(rf)))
    tm = _copy(TM1, d)
    for label, sc, out in (("Red Flags 1 (Map 2)", rf, d / "rf.vmod"), ("20 mm 1 (Map 2)", tm, d / "tm.vmod")):
        t = time.perf_counter()
        summary = write_vmod(plan_from_files(sc), out)
        te = time.perf_counter() - t
        w, h = summary["board"]
        print(f"VASSAL export, {label}, {w}x{h} px board, {summary['pieces']} counters, {summary['placed']} placed: "
              f"{summary['size'] / 1e6:.2f} MB, {te:.2f} s = {te / ys:.1f} x yardstick")
    if pictures_dir:
        board_picture(d / "rf.vmod", pictures_dir / "export-redflags-board.png", (900, 700))
        palette_picture(d / "rf.vmod", pictures_dir / "export-redflags-palette.png",
                        ["G1", "G3", "G6", "GCO", "GPAK", "GZUG", "GP1", "GJU87", "R3", "RSC", "RT1", "RZIS", "RIL2",
                         "Card A of spades", "Shaken", "Wire", "Objective"])
        board_picture(d / "tm.vmod", pictures_dir / "export-twentymm-board.png", (900, 700),
                      maps=("Main Map", "Russian hidden units"))
        palette_picture(d / "tm.vmod", pictures_dir / "export-twentymm-palette.png",
                        ["G-HQ", "G-1", "G-M", "G-T1", "G-S", "G-A", "R-1", "R-AT", "R-MG", "R-M", "R-T",
                         "Pinned", "Objective"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--pictures", type=Path, default=None)
    args = ap.parse_args()
    from cli.tiled_map import export_tiled, import_tiled
    from cli.vassal_module import plan_from_files, write_vmod
    from maps.mapfile import load_map_file, map_json

    from benchmarks.yardstick import Yardstick
    from tests.cli.test_vassal_module import _played_setup as played_setup   # the tests' seeded set-up

    yard = Yardstick.measure()
    ys = yard.seconds
    print(yard.describe())
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
        other_systems(d, ys, args.pictures)
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
