"""Red Flags and 20 mm scenarios as VASSAL modules (``ironcross export vassal``), read back with
pywargame.

Red Flags (100 mm hexes = the map's hexes): every unit of the designer's set-up is a piece at the
grid location named by its hex id, the grid snaps; aircraft wait in an entry box for their turn
(Movement: aircraft). 20 mm (measured in inches): no grid snaps; every unit stands at the board
pixel its table position converts to (within a pixel), turned to its bearing; hidden units on their
side's own copy of the board (Setup). Every counter is in the palette with its values.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from cli.main import main
from cli.vassal_module import BOARD, free_rotation, grid_location, plan_from_files, render_board

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "scenarios" / "data"
RF1 = DATA / "redflags_1_hill_j.json"
TM1 = DATA / "twentymm_1_village_counterattack.json"


def _copy(scenario: Path, d: Path) -> Path:
    data = json.loads(scenario.read_text())
    data["map"]["file"] = str((scenario.parent / data["map"]["file"]).resolve())
    out = d / scenario.name
    out.write_text(json.dumps(data))
    return out


def _rf_setup(scenario: Path, seed: int = 5) -> dict:
    """A designer's Red Flags set-up: every unit placed by a seeded choice among the legal Place
    actions of the game's set-up (r.setup)."""
    from core.redflags.actions import Place
    from core.redflags.game import Game
    from core.redflags.scenario import load_setup

    game = Game(load_setup(scenario), seed)
    rnd = random.Random(seed)
    units = {}
    while game.phase == "setup":
        acts = [a for a in game.legal_actions() if isinstance(a, Place)]
        a = rnd.choice(acts)
        game.apply(a)
        units[a.unit] = a.hex
    return {"units": units}


def _build(path: Path):
    from pywargame.vassal import BuildFile, VMod

    with VMod(str(path), "r") as vmod:
        return BuildFile(vmod.getBuildFile()), vmod.getFileNames()


def _values(piece) -> dict[str, str]:
    from pywargame.vassal import MarkTrait

    return {t["name"]: t["value"] for t in piece.getTraits() if isinstance(t, MarkTrait)}


def _trait(piece, name: str):
    return next((t for t in piece.getTraits() if type(t).__name__ == name), None)


def _grids(board):
    return [g for z in board.getZonedGrids() for zone in z.getZones().values() for g in zone.getHexGrids()]


# ------------------------------------------------------------------------------------ Red Flags
@pytest.fixture(scope="module")
def rf_module(tmp_path_factory):
    d = tmp_path_factory.mktemp("rf")
    sc = _copy(RF1, d)
    placement = _rf_setup(sc)
    (d / (sc.stem + ".placement.json")).write_text(json.dumps(placement))
    out = d / "rf.vmod"
    assert main(["export", "vassal", str(sc), "-o", str(out)]) == 0
    return out, placement, plan_from_files(sc)


def test_rf_every_placed_unit_stands_at_the_grid_location_named_by_its_hex_id(rf_module) -> None:
    """r.setup: each placed unit at its hex; units carried or towed stand with their vehicle; the
    grid snaps and names each hex centre of the section by its printed id."""
    out, placement, plan = rf_module
    build, _files = _build(out)
    game = build.getGame()
    main_map = game.getMaps()["Main Map"]
    at_starts = {a["name"]: a for a in main_map.getAtStarts(single=False)}
    assert len(placement["units"]) >= 20
    for uid, hex_id in placement["units"].items():
        a = at_starts[uid]
        assert a["location"] == hex_id and a["useGridLocation"] in ("true", True) and a["owningBoard"] == BOARD
        (piece,) = a.getPieces(asdict=False)
        assert _values(piece)["ID"] == uid
        assert int(_trait(piece, "RotateTrait")["angle"]) == plan.placed[uid].facing - 1  # r.enfilade facing
    # the German side sets up dug in (r.setup): the DUG IN layer shows on its infantry
    (g1,) = at_starts["G1"].getPieces(asdict=False)
    assert int(_trait(g1, "LayerTrait")["level"]) == 2
    board = main_map.getBoardPicker()[0].getBoards()[BOARD]
    (hgrid,) = _grids(board)
    assert hgrid["snapTo"] in ("true", True)
    (numbering,) = hgrid.getNumbering()
    params = {"dx": hgrid["dx"], "dy": hgrid["dy"], "x0": hgrid["x0"], "y0": hgrid["y0"],
              "hOff": numbering["hOff"], "vOff": numbering["vOff"]}
    _png, geo = render_board(plan)
    m = plan.hexmap
    c0, c1 = m.section_columns(plan.sections[0])
    hexes = [f"{c:02d}{r:02d}" for c in range(c0, c1 + 1) for r in range(m.first_row, m.last_row + 1)]
    for hid in hexes:
        assert grid_location(params, *geo.centre_px(hid)) == hid
    # the scenario's wire, mines and objectives stand at their hexes
    marked = {(a["name"].rsplit(" ", 1)[0], a["location"]) for a in main_map.getAtStarts(single=False)
              if a["name"].rsplit(" ", 1)[0] in ("Wire", "Mines", "Objective")}
    sc = json.loads(RF1.read_text())
    assert marked == {("Wire", h) for h in sc["fortifications"]["wire"]} | \
        {("Mines", h) for h in sc["fortifications"]["mines"]} | {("Objective", h) for h in sc["victory"]["objectives"]}


def test_rf_aircraft_wait_for_their_turn_and_every_counter_is_in_the_palette(rf_module) -> None:
    from pywargame.vassal import PieceSlot

    from core.redflags.roster import shipped_roster
    from core.redflags.scenario import load_scenario
    from core.redflags.tables import weapon_table

    out, _placement, plan = rf_module
    build, files = _build(out)
    game = build.getGame()
    boxes = {a["name"] for a in game.getMaps()["Entry boxes"].getAtStarts(single=False)}
    assert {"GJU87 enters Turn 4", "RIL2 enters Turn 3"} <= boxes
    slots = {s["entryName"]: s for s in game.getPieceWindows()["Counters"].getAllElements(PieceSlot, single=False)}
    sc, _m, _r = load_scenario(RF1)
    roster = shipped_roster().by_id()
    weapons = weapon_table()
    for side, group, spec, _loc in sc.units():
        v = _values(slots[spec.id])
        e = roster[spec.type]
        assert (v["ID"], v["Type"], v["Kind"], v["Card"], v["Quality"]) == \
            (spec.id, e.id, e.kind, group.card.label(), spec.quality)
        if e.figures:
            assert v["Figures"] == ", ".join(e.figures)
        if e.gun:
            assert (v["Gun"], v["Range"]) == (weapons[e.gun].name, str(weapons[e.gun].range))
        assert f"images/{spec.id}.png" in files
    for name in ("Shaken", "Wire", "Mines", "Objective", "Card A of spades", "Card 9 of hearts"):
        assert name in slots
    assert int(game.getTurnTracks()["Turn"]["length"]) == 9


def test_rf_without_a_set_up_file_units_wait_in_their_side_set_up_box(tmp_path: Path) -> None:
    sc = _copy(RF1, tmp_path)
    plan = plan_from_files(sc)
    assert not plan.placed
    waiting = {uid for _s, _t, ids in plan.holding for uid in ids}
    entering = {uid for _s, _t, ids in plan.entries for uid in ids}
    assert waiting | entering == set(plan.counters) and not waiting & entering


def test_rf_a_set_up_outside_the_zone_is_refused_naming_the_unit(tmp_path: Path, capsys) -> None:
    sc = _copy(RF1, tmp_path)
    (tmp_path / (sc.stem + ".placement.json")).write_text(json.dumps({"units": {"G1": "3026"}}))
    out = tmp_path / "rf.vmod"
    assert main(["export", "vassal", str(sc), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert "G1" in err and "zone" in err and not out.exists()


# ------------------------------------------------------------------------------------ 20 mm
@pytest.fixture(scope="module")
def tm_module(tmp_path_factory):
    d = tmp_path_factory.mktemp("tm")
    sc = _copy(TM1, d)
    out = d / "tm.vmod"
    assert main(["export", "vassal", str(sc), "-o", str(out)]) == 0
    return out, sc, plan_from_files(sc)


def test_tm_every_unit_stands_at_the_pixel_its_table_position_converts_to(tm_module) -> None:
    """Setup: every unit at its table position (inches -> map units at the scenario's scale ->
    board pixels), within a pixel, turned to its bearing; no grid snaps; hidden units on their
    side's own copy of the board; the battery off the table in its box."""
    from pywargame.vassal import PrivateMap

    from core.twentymm.scenario import load_setup
    from editor.drawing.map_style import SCENE_PER_X, SCENE_PER_Y

    out, sc, plan = tm_module
    build, _files = _build(out)
    game = build.getGame()
    main_map = game.getMaps()["Main Map"]
    private = {m["mapName"]: m for m in game.getAllElements(PrivateMap, single=False)}
    setup = load_setup(sc)
    _png, geo = render_board(plan)
    doc = json.loads(TM1.read_text())
    hidden_ids = {u["id"] for side in ("german", "russian") for u in doc[side] if u.get("hidden")}
    assert hidden_ids and "Russian hidden units" in private
    stands = {a["name"]: a for a in main_map.getAtStarts(single=False)}
    stands_hidden = {a["name"]: a for a in private["Russian hidden units"].getAtStarts(single=False)}
    on_table = [u for u in setup.units if u.kind != "battery"]
    assert len(on_table) == 17
    for u in on_table:
        a = (stands_hidden if u.uid in hidden_ids else stands)[u.uid]
        assert a["useGridLocation"] in ("false", False) and a["owningBoard"] == BOARD
        # inches -> map units (the scale: S inches per hex across flats) -> scene -> board pixel
        mx, my = u.pos[0] * 2 * 3 ** 0.5 / doc["scale"], u.pos[1] * 2 / doc["scale"]
        x = (mx * SCENE_PER_X - geo.origin[0]) * geo.scale
        y = (my * SCENE_PER_Y - geo.origin[1]) * geo.scale
        assert abs(int(a["x"]) - x) <= 1 and abs(int(a["y"]) - y) <= 1, u.uid
        (piece,) = a.getPieces(asdict=False)
        rot = _trait(piece, "RotateTrait")
        assert int(rot["nangles"]) == 1 and float(rot["angle"]) == pytest.approx(free_rotation(u.facing))
    assert not any(n in stands for n in hidden_ids)
    for board in [main_map.getBoardPicker()[0].getBoards()[BOARD],
                  private["Russian hidden units"].getBoardPicker()[0].getBoards()[BOARD]]:
        grids = _grids(board)
        assert grids and all(g["snapTo"] in ("false", False) for g in grids)
    boxes = {a["name"] for a in game.getMaps()["Entry boxes"].getAtStarts(single=False)}
    assert "G-A (off-table support)" in boxes
    objectives = [a for a in main_map.getAtStarts(single=False) if a["name"].startswith("Objective")]
    assert len(objectives) == len(doc["objectives"])


def test_tm_every_counter_is_in_the_palette_with_its_reference_values(tm_module) -> None:
    from pywargame.vassal import PieceSlot

    from core.twentymm import tables

    out, _sc, _plan = tm_module
    build, files = _build(out)
    slots = {s["entryName"]: s for s in build.getGame().getPieceWindows()["Counters"].getAllElements(
        PieceSlot, single=False)}
    doc = json.loads(TM1.read_text())
    for side in ("german", "russian"):
        for u in doc[side]:
            v = _values(slots[u["id"]])
            assert (v["ID"], v["Type"]) == (u["id"], u["type"])
            if u["type"] == "section":
                assert v["Men"] == str(u["men"]) and v.get("LMG", "0") == str(u.get("lmg", 0))
            if u["type"] == "vehicle":
                ref = tables.vehicle(u["vehicle"])
                assert v["AV"] == str(ref["av"]) and v["Calibre"] == f"{ref['guns'][0]['calibre']} mm"
                assert v["SV"] == " ".join("-" if s is None else str(s) for s in ref["guns"][0]["sv"])
            if u["type"] == "atg":
                assert v["Calibre"] == f"{tables.gun(u['gun'])['calibre']} mm" and v["Crew"] == str(u["crew"])
            if u["type"] == "battery":
                assert (v["Guns"], v["Calibre"]) == (str(u["guns"]), f"{u['calibre']} mm")
            assert f"images/{u['id']}.png" in files
    assert {"Pinned", "Immobilised", "Objective"} <= set(slots)


def test_free_rotation_turns_the_counter_top_to_the_bearing() -> None:
    """A counter is drawn facing the top of the board (bearing 270); VASSAL's free rotation is
    counter-clockwise on the screen: bearing 270 needs none, 0 (east) a quarter turn clockwise."""
    assert free_rotation(270) == 0 and free_rotation(0) == 270 and free_rotation(180) == 90
