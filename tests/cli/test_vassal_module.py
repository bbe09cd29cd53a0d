"""A scenario as a VASSAL module (``ironcross export vassal``), read back with pywargame.

Every placed unit is a piece at the grid location named by its hex id; every counter of the
scenario's roster is in the palette with its values; the board's grid maps the centre of every hex
of the scenario's sections to its id (pixel -> location -> id).
"""

from __future__ import annotations

import json
import random
import re
import shutil
import zipfile
from pathlib import Path

import pytest

from cli.main import main
from cli.vassal_module import BOARD, grid_location, plan_from_files, write_vmod

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "scenarios" / "data"
S6 = DATA / "scenario_6_spartakovka.json"
S1 = DATA / "scenario_1_demyansk_pocket.json"


def _played_setup(scenario: Path, seed: int = 3) -> dict:
    """A designer's set-up: every unit that sets up placed by a seeded choice among the legal
    Place actions of the game's set-up (3.12), as the editor's placement file holds it."""
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
    units = {u.id: {"hex": u.hex, "facing": u.facing, "down": u.down}
             for u in game.state.units.values() if u.hex is not None}
    return {"format": "ironcross-placement", "version": 1, "units": units}


@pytest.fixture(scope="module")
def s6_module(tmp_path_factory) -> tuple[Path, dict, object]:
    """Scenario 6 (two map sections) with a placement beside it, exported once."""
    d = tmp_path_factory.mktemp("s6")
    data = json.loads(S6.read_text())
    data["map"]["file"] = str((S6.parent / data["map"]["file"]).resolve())
    sc = d / "s6.json"
    sc.write_text(json.dumps(data))
    placement = _played_setup(sc)
    (d / "s6.placement.json").write_text(json.dumps(placement))
    out = d / "s6.vmod"
    assert main(["export", "vassal", str(sc), "-o", str(out)]) == 0
    return out, placement, plan_from_files(sc)


def _build(path: Path):
    from pywargame.vassal import BuildFile, VMod

    with VMod(str(path), "r") as vmod:
        return BuildFile(vmod.getBuildFile()), vmod.getFileNames()


def _traits(piece) -> dict[str, str]:
    from pywargame.vassal import MarkTrait

    return {t["name"]: t["value"] for t in piece.getTraits() if isinstance(t, MarkTrait)}


def test_every_placed_unit_stands_at_its_hex_id(s6_module) -> None:
    out, placement, _plan = s6_module
    build, _files = _build(out)
    game = build.getGame()
    main_map = game.getMaps()["Main Map"]
    at_starts = {a["name"]: a for a in main_map.getAtStarts(single=False)}
    assert placement["units"]  # the set-up placed someone
    for uid, spec in placement["units"].items():
        a = at_starts[uid]
        assert a["location"] == spec["hex"] and a["useGridLocation"] in ("true", True)
        assert a["owningBoard"] == BOARD
        (piece,) = a.getPieces(asdict=False)
        assert _traits(piece)["ID"] == uid
        states = {type(t).__name__: t for t in piece.getTraits()}
        if spec["facing"]:  # 8.7: turned (facing - 1) steps from hexside 1
            assert int(states["RotateTrait"]["angle"]) == spec["facing"] - 1
        if spec["down"]:    # 3.1: the DOWN layer shows
            assert int(states["LayerTrait"]["level"]) == 2
    assert any(s["facing"] for s in placement["units"].values())


def test_every_roster_counter_is_in_the_palette_with_its_values(s6_module) -> None:
    from pywargame.vassal import PieceSlot

    out, _placement, plan = s6_module
    build, files = _build(out)
    slots = {s["entryName"]: s for s in build.getGame().getPieceWindows()["Counters"].getAllElements(
        PieceSlot, single=False)}
    for uid, u in plan.units.items():
        values = _traits(slots[uid])
        assert values["ID"] == uid and values["Weapon"] == u.weapon
        assert (values["AP"], values["Range"], values["PR"]) == (str(u.ap), str(u.ap_range), str(u.pr))
        if u.kind.value in ("cw", "afv"):
            assert values["AT"] == str(u.at)
        else:
            assert values["Assault"] == str(u.assault)
        assert f"images/{uid}.png" in files
    for marker in ("PINNED", "SUPPRESSED", "IP 1", "Hidden", "Wreck", "AP mines", "AT mines", "Grenade"):
        assert marker in slots


def test_the_grid_names_the_centre_of_every_hex_of_the_sections_by_its_id(s6_module) -> None:
    """pixel (the painter's hex centre on the board image) -> VASSAL location -> the printed id (2.1),
    and back: pywargame's own reading of the numbering puts each id at that hex's centre."""
    from cli.vassal_module import render_board

    out, _placement, plan = s6_module
    build, _files = _build(out)
    board = build.getGame().getMaps()["Main Map"].getBoardPicker()[0].getBoards()[BOARD]
    hgrid = board.getZonedGrids()[0].getZones()["sections"].getHexGrids()[0]
    (numbering,) = hgrid.getNumbering()
    params = {"dx": hgrid["dx"], "dy": hgrid["dy"], "x0": hgrid["x0"], "y0": hgrid["y0"],
              "hOff": numbering["hOff"], "vOff": numbering["vOff"]}
    assert (numbering["first"], numbering["sep"], numbering["hLeading"], numbering["vLeading"]) == ("H", "", "1", "1")
    _png, geo = render_board(plan)
    m = plan.hexmap
    spans = [m.section_columns(s) for s in plan.sections]
    hexes = [f"{c:02d}{r:02d}" for a, b in spans for c in range(a, b + 1) for r in range(m.first_row, m.last_row + 1)]
    assert len(set(hexes)) == 41 * 27  # Map 1 and Map 2 of Scenario 6 share column 30
    for hid in hexes:
        x, y = geo.centre_px(hid)
        assert grid_location(params, x, y) == hid        # pixel -> location (VASSAL's hex grid)
        vx, vy = numbering.getLocation(hid)               # location -> pixel, as pywargame reads the grid
        assert abs(vx - x) <= 1.5 and abs(vy - y) <= 1.5


def test_later_entries_wait_in_their_entry_box_and_secrets_stay_private(s6_module) -> None:
    from pywargame.vassal import PrivateMap

    out, _placement, plan = s6_module
    build, _files = _build(out)
    game = build.getGame()
    boxes = {a["name"] for a in game.getMaps()["Entry boxes"].getAtStarts(single=False)}
    for side, turn, ids in plan.entries:
        for uid in ids:
            assert f"{uid} enters Game Turn {turn}" in boxes
    private = {m["mapName"]: m for m in game.getAllElements(PrivateMap, single=False)}
    russian = private["Russian secrets"]
    assert russian["side"] == "Russian"
    names = [a["name"] for a in russian.getAtStarts(single=False)]
    assert sorted(names) == sorted(plan.secrets["russian"])
    assert any(n.startswith("IP") for n in names) and any("mines" in n for n in names)
    assert not any(a["name"].startswith("IP") for a in game.getMaps()["Main Map"].getAtStarts(single=False))
    track = game.getTurnTracks()["Game Turn"]
    assert int(track["length"]) == plan.turns


def test_the_module_carries_the_scenario_text_as_help(s6_module) -> None:
    out, _p, plan = s6_module
    with zipfile.ZipFile(out) as z:
        text = z.read("help/scenario.html").decode()
        names = z.namelist()
    assert "Spartakovka" in text and "Victory conditions" in text
    assert "buildFile.xml" in names and "moduledata" in names and "images/board.png" in names


def test_a_scenario_that_does_not_validate_is_refused_with_its_errors(tmp_path: Path, capsys) -> None:
    data = json.loads(S1.read_text())
    data["turns"] = 0
    data["map"]["file"] = str((S1.parent / data["map"]["file"]).resolve())
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    assert main(["export", "vassal", str(bad), "-o", str(tmp_path / "bad.vmod")]) == 1
    err = capsys.readouterr().err
    assert str(bad) in err and "turns" in err
    assert list(tmp_path.iterdir()) == [bad]


def test_an_unwritable_output_is_an_error_naming_the_file(tmp_path: Path, capsys) -> None:
    (tmp_path / "plain").write_text("a file, not a folder")
    out = tmp_path / "plain" / "s1.vmod"
    assert main(["export", "vassal", str(S1), "-o", str(out)]) == 1
    err = capsys.readouterr().err.strip()
    assert str(out) in err and "\n" not in err


def test_a_system_without_a_vassal_plan_is_refused_saying_so(tmp_path: Path, capsys) -> None:
    """A rule system that makes no plan (the toy race of tests/toy_system.py) is refused by name."""
    from core import rule_system
    from tests.toy_system import TOY, toy_file

    rule_system.SYSTEM_MODULES[TOY] = "tests.toy_system"
    try:
        sc = toy_file(tmp_path)
        out = tmp_path / "toy.vmod"
        assert main(["export", "vassal", str(sc), "-o", str(out)]) == 1
        err = capsys.readouterr().err
        assert "does not export to VASSAL" in err and repr(TOY) in err
        assert not out.exists()
    finally:
        rule_system.unregister(TOY)
