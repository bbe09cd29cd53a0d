"""No input file crashes or hangs a command: a seeded fuzz over every file kind and command, and one
test for each way a file once got through (a traceback in the reader, a value accepted and failing
later, an unbounded read, an absurd number)."""

from __future__ import annotations

import collections
import json
import os
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from maps.document_file import DocumentError, read_json
from maps.json_file import MAX_DEPTH, SIZE_LIMITS, read_text_file
from tests.file_mutants import KINDS, ROOT, SOURCES, is_long, make_case, run_command, write_case

MAP = ROOT / "maps" / "data" / "sample_village.json"
SHEET = ROOT / "maps" / "data" / "iron_cross_mapsheet.json"
S1 = ROOT / "scenarios" / "data" / "scenario_1_demyansk_pocket.json"
RF = SOURCES["redflags_scenario"]
TW = SOURCES["twentymm_scenario"]


def _load(path: Path) -> dict:
    data = json.loads(path.read_text(encoding="utf-8"))
    # the copy lives elsewhere: its map, counters and chart references must still find the shipped files
    for holder in (data, data.get("map") if isinstance(data.get("map"), dict) else {}):
        for k in ("file", "counters", "terrain_chart"):
            if isinstance(holder.get(k), str) and holder[k].endswith(".json"):
                holder[k] = str((path.parent / holder[k]).resolve())
    return data


def _run(*args: str):
    res = CliRunner().invoke(cli, [str(a) for a in args])
    assert res.exception is None or isinstance(res.exception, SystemExit), res.output
    assert "Traceback" not in res.output
    return res


def _refused(res, file, path: str, words: str = "") -> None:
    assert res.exit_code == 1, res.output
    line = next((ln for ln in res.output.splitlines() if ln.startswith(f"{file}: {path}")), None)
    assert line is not None, res.output
    assert words in line, res.output


# --------------------------------------------------------------------------- the seeded fuzz

FUZZ_SEED = 26
FUZZ_CASES = 300


def test_file_fuzz_no_traceback_every_refusal_names_the_file(tmp_path):
    """300 seeded mutants over every file kind, through every command that reads them but those that
    play games or build a module (``file_mutants.LONG``: too long for the suite; benchmarks/fuzz_files.py
    fuzzes them, and playtest's refusals are tested below). Every outcome is an acceptance or a one-line refusal naming a file."""
    counts: collections.Counter = collections.Counter()
    bad = []
    for i in range(FUZZ_CASES):
        case = make_case(FUZZ_SEED, i)
        folder = tmp_path / f"c{i}"
        for cmd in write_case(case, folder):
            if is_long(cmd):
                continue
            verdict, out = run_command(cmd, str(folder))
            counts[verdict] += 1
            if verdict == "traceback":
                bad.append(f"{case.kind} {case.what} {cmd[:2]}: {out[-400:]}")
    assert not bad, "\n".join(bad[:5])
    assert set(KINDS) == {make_case(FUZZ_SEED, i).kind for i in range(len(KINDS))}
    # the fuzz exercises both sides: most mutants are refused, some are harmless and accepted
    assert counts["refused"] > counts["accepted"] > 0


# --------------------------------------------------------------------------- 1. the reader


@pytest.mark.parametrize("literal, words", [
    ("9" * 5000, "integer literal of 5000 digits"),
    ("Infinity", "Infinity is not a number"),
    ("-Infinity", "-Infinity is not a number"),
    ("NaN", "NaN is not a number"),
    ("1e400", "out of range of a finite number"),
])
@pytest.mark.parametrize("source", [MAP, S1, RF, TW, SOURCES["terrain_chart"], SOURCES["errata"],
                                    SOURCES["counters"]])
def test_reader_refuses_numbers_python_cannot_hold_naming_the_json_path(tmp_path, source, literal, words):
    text = json.dumps(_load(source), indent=1).replace('"version": 1', f'"version": {literal}', 1)
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    _refused(_run("validate", bad), bad, "$.version", words)


def test_reader_refuses_deep_nesting_with_its_path_and_python_depth_without_recursion_error(tmp_path):
    bad = tmp_path / "deep.json"
    data = _load(S1)
    data["notes"] = "DEEP"
    bad.write_text(json.dumps(data).replace('"DEEP"', "[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5)))
    _refused(_run("validate", bad), bad, "$.notes" + "[0]" * (MAX_DEPTH - 1), f"deeper than {MAX_DEPTH} levels")
    bad.write_text("[" * 100_000 + "]" * 100_000)
    _refused(_run("validate", bad), bad, "$", "nested deeper")


def test_a_replay_that_is_not_utf8_is_refused_by_replay_and_validate(tmp_path):
    bad = tmp_path / "game.jsonl"
    good = SOURCES["replay"].read_bytes()
    bad.write_bytes(good[:40] + b"\xff" + good[40:])
    for cmd in ("replay", "validate"):
        _refused(_run(cmd, bad), bad, "$", "not UTF-8 text (byte 40")


def test_a_replay_line_with_a_huge_number_names_its_line(tmp_path):
    lines = SOURCES["replay"].read_text(encoding="utf-8").splitlines()
    lines[3] = lines[3].replace("{", '{"x": ' + "7" * 4400 + ", ", 1)
    bad = tmp_path / "game.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    _refused(_run("replay", bad), bad, "line 4.x", "integer literal of 4400 digits")


def test_the_shipped_replay_fixture_is_accepted_by_replay_and_validate_and_verifies():
    for cmd in ("replay", "validate"):
        assert _run(cmd, SOURCES["replay"]).exit_code == 0
    # the fuzz's replay is a whole game that verifies: a mutant that verifies is accepted, not refused
    res = _run("replay", SOURCES["replay"], "--verify")
    assert res.exit_code == 0 and "verified: the re-run reproduces all" in res.output, res.output


def test_replay_verify_of_a_mutated_decision_is_refused_naming_the_file(tmp_path):
    """``replay --verify`` reads the decisions of the header and re-plays them: a decision made absurd
    by hand is refused (or diverges) with the file named, never a traceback."""
    case = make_case(FUZZ_SEED, 0, kind="replay")
    lines = SOURCES["replay"].read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["scenario"] = str(ROOT / header["scenario"])
    bad = tmp_path / "game.jsonl"
    for value in (10**18, -1e308, "x" * 300, None, [[[]]]):
        h = json.loads(json.dumps(header))
        h["actions"][0]["point"] = value
        bad.write_text("\n".join([json.dumps(h)] + lines[1:]) + "\n")
        res = _run("replay", bad, "--verify")
        assert res.exit_code == 1 and str(bad) in res.output, (value, res.output)
    assert case.commands[-1][-1] == "--verify"


def test_replay_verify_of_a_replay_naming_a_special_file_as_its_scenario_is_refused(tmp_path):
    lines = SOURCES["replay"].read_text(encoding="utf-8").splitlines()
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    bad = tmp_path / "game.jsonl"
    for scenario, words in ((fifo, "is a FIFO"), ("/dev/zero", "is a device"), (tmp_path, "is a directory")):
        header = json.loads(lines[0])
        header["scenario"] = str(scenario)
        bad.write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n")
        result = {}
        t = threading.Thread(target=lambda: result.update(res=_run("replay", bad, "--verify")), daemon=True)
        t.start()
        t.join(30)
        assert not t.is_alive(), f"replay --verify blocked on {scenario}"
        res = result["res"]
        assert res.exit_code == 1 and f"{bad}: its scenario: {scenario}: $: {words}" in res.output, res.output


# --------------------------------------------------------------------------- 2. accepted, then failing later


def test_an_oob_count_of_2_63_is_refused_before_any_game(tmp_path):
    data = _load(S1)
    data["russian"]["groups"][0]["oob"][0]["less"][0]["count"] = 2**63
    bad = tmp_path / "s.json"
    bad.write_text(json.dumps(data))
    entry = "$.russian.groups[0].oob[0].less[0].count"
    _refused(_run("validate", bad), bad, entry, "less than or equal to 99")
    _refused(_run("playtest", bad, "--games", "1", "--workers", "1", "--quiet"), bad, entry)


def test_a_building_vertex_at_1e12_is_refused_and_los_returns(tmp_path):
    data = _load(MAP)
    data["buildings"][0]["polygon"][1] = [1e12, data["buildings"][0]["polygon"][1][1]]
    bad = tmp_path / "m.json"
    bad.write_text(json.dumps(data))
    _refused(_run("validate", bad), bad, "$.buildings[0].polygon[1]", "lies off the map")
    _refused(_run("los", bad, "1003", "1207"), bad, "$.buildings[0].polygon[1]")


# --------------------------------------------------------------------------- 3. unbounded reads


@pytest.mark.parametrize("where", ["direct", "map file", "counters", "terrain_chart"])
def test_dev_zero_is_refused_as_a_device_wherever_it_is_named(tmp_path, where):
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    if where == "direct":
        _refused(_run("validate", "/dev/zero"), "/dev/zero", "$", "is a device; only regular files are read")
        return
    if where == "terrain_chart":
        data = _load(MAP)
        data["terrain_chart"] = "/dev/zero"
        f = tmp_path / "m.json"
        f.write_text(json.dumps(data))
        res = _run("los", f, "1003", "1207")
        _refused(res, f, "$.terrain_chart", "is a device")
        return
    data = _load(S1)
    if where == "map file":
        data["map"]["file"] = "/dev/zero"
    else:
        data["counters"] = "/dev/zero"
    f = tmp_path / "s.json"
    f.write_text(json.dumps(data))
    res = _run("validate", f)
    assert res.exit_code == 1 and "is a device" in res.output and str(f) in res.output, res.output


def test_a_fifo_is_refused_without_opening_it(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    result = {}
    t = threading.Thread(target=lambda: result.update(res=_run("validate", fifo)), daemon=True)
    t.start()
    t.join(30)
    assert not t.is_alive(), "validate blocked on a FIFO"
    _refused(result["res"], fifo, "$", "is a FIFO (named pipe)")
    result.clear()
    t = threading.Thread(target=lambda: result.update(res=_run("replay", fifo)), daemon=True)
    t.start()
    t.join(30)
    assert not t.is_alive(), "replay blocked on a FIFO"
    _refused(result["res"], fifo, "$", "is a FIFO")


def test_a_file_over_its_kinds_limit_is_refused_before_it_is_read(tmp_path, monkeypatch):
    import maps.json_file as jf

    f = tmp_path / "m.json"
    f.write_text(MAP.read_text(encoding="utf-8"))
    monkeypatch.setitem(jf.SIZE_LIMITS, "ironcross-map", 1000)
    from maps.mapfile import load_map_file

    with pytest.raises(DocumentError, match=r"m\.json: \$: file is \d+ bytes; the limit for this kind of file is 1000 bytes"):
        load_map_file(f)
    with pytest.raises(DocumentError, match="file is .* the limit"):
        read_json(f, limit=100)
    # a file that grows past the stat: at most limit + 1 bytes are read
    assert len(read_text_file(f, limit=10**6)) == f.stat().st_size
    assert SIZE_LIMITS["ironcross-replay"] > jf.DEFAULT_LIMIT >= 16 * 1024 * 1024


def test_import_tiled_refuses_a_fifo_and_a_device_without_opening_them(tmp_path):
    fifo = tmp_path / "pipe.tmx"
    os.mkfifo(fifo)
    result = {}
    t = threading.Thread(target=lambda: result.update(res=_run("import", "tiled", fifo, "-o", tmp_path / "m.json")),
                         daemon=True)
    t.start()
    t.join(30)
    assert not t.is_alive(), "import tiled blocked on a FIFO"
    res = result["res"]
    assert res.exit_code == 1 and f"{fifo}: is a FIFO (named pipe); only regular files are read" in res.output, res.output
    zero = tmp_path / "zero.tmx"
    zero.symlink_to("/dev/zero")
    res = _run("import", "tiled", zero, "-o", tmp_path / "m.json")
    assert res.exit_code == 1 and f"{zero}: is a device" in res.output, res.output


def test_import_tiled_reads_json_properties_safely(tmp_path):
    """A hand-edited Tiled property holding JSON (the map's sections, a building's rooms) is parsed by the
    safe parser: nesting past the limit or an endless integer is a one-line refusal naming the file and
    the property, not a RecursionError or ValueError."""
    tmx = tmp_path / "village.tmx"
    assert _run("export", "tiled", MAP, "-o", tmx).exit_code == 0
    text = tmx.read_text(encoding="utf-8")
    assert 'name="sections"' in text
    for value, words in (("[" * 5000 + "]" * 5000, "nested deeper than"), ("9" * 5000, "integer literal of 5000 digits")):
        import re

        bad = tmp_path / "bad.tmx"
        bad.write_text(re.sub(r'(<property name="sections" value=")[^"]*"', lambda m: m.group(1) + value + '"',
                              text, count=1), encoding="utf-8")
        res = _run("import", "tiled", bad, "-o", tmp_path / "m.json")
        assert res.exit_code == 1, res.output
        assert f"{bad}: property 'sections': " in res.output and words in res.output, res.output


# --------------------------------------------------------------------------- shipped data and AI settings files


def _damaged_copy(tmp_path, source: Path, damage) -> Path:
    """A copy of the folder of ``source`` with ``source``'s copy damaged by ``damage(text) -> text``."""
    import shutil

    folder = tmp_path / source.parent.name
    shutil.copytree(source.parent, folder)
    copy = folder / source.name
    copy.write_text(damage(copy.read_text(encoding="utf-8")), encoding="utf-8")
    return copy


@pytest.mark.parametrize("damage, path, words", [
    (lambda t: t.replace('"value": ', '"value": Infinity, "x": ', 1), "$.", "Infinity is not a number"),
    (lambda t: t[: len(t) // 2], "$", "not valid JSON at line"),
    (lambda t: "[]", "$", "expected a JSON object"),
])
def test_a_damaged_red_flags_table_is_refused_naming_file_and_place(tmp_path, monkeypatch, damage, path, words):
    from core.redflags import tables

    copy = _damaged_copy(tmp_path, tables.DATA_DIR / "weapons.json", damage)
    monkeypatch.setattr(tables, "DATA_DIR", copy.parent)
    tables._load.cache_clear()
    try:
        with pytest.raises(DocumentError) as e:
            tables.load_data("weapons.json")
    finally:
        tables._load.cache_clear()
    line = str(e.value).splitlines()[0]
    assert line.startswith(f"{copy}: {path}") and words in line, line


@pytest.mark.parametrize("damage, path, words", [
    (lambda t: t.replace("{", "{" + '"x": ' + "7" * 4400 + ", ", 1), "$.x", "integer literal of 4400 digits"),
    (lambda t: t.replace('\n  "guns"', '\n  "gunz"', 1), "$.guns", "missing"),
    (lambda t: t.replace("{", '{"x": ' + "[" * 100 + "]" * 100 + ", ", 1), "$.x[0]", "nested deeper than 64"),
])
def test_a_damaged_20mm_reference_table_is_refused_naming_file_and_place(tmp_path, monkeypatch, damage, path, words):
    from core.twentymm import tables

    copy = _damaged_copy(tmp_path, tables.DATA, damage)
    monkeypatch.setattr(tables, "DATA", copy)
    tables.reference.cache_clear()
    try:
        with pytest.raises(DocumentError) as e:
            tables.reference()
    finally:
        tables.reference.cache_clear()
    line = str(e.value).splitlines()[0]
    assert line.startswith(f"{copy}: {path}") and words in line, line


def test_an_ai_settings_file_is_read_by_the_safe_reader(tmp_path):
    """``--ai german=heuristic:@FILE``: a damaged settings file is a one-line refusal naming the file and
    the place (an endless integer once raised ValueError, deep nesting RecursionError, a FIFO blocked)."""
    from core.ironcross.ai.settings import SettingsError, load_settings_file

    f = tmp_path / "settings.json"
    f.write_text('{"settings": {"aggression": ' + "1" * 5000 + "}}")
    with pytest.raises(SettingsError, match=r"settings\.json: \$\.settings\.aggression: integer literal of 5000 digits"):
        load_settings_file(f)
    f.write_text('{"settings": ' + "[" * 3000 + "]" * 3000 + "}")
    with pytest.raises(SettingsError, match=r"settings\.json: \$.*nested deeper than"):
        load_settings_file(f)
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with pytest.raises(SettingsError, match="is a FIFO"):
        load_settings_file(fifo)
    f.write_text('{"settings": {"aggression": NaN}}')
    res = _run("playtest", ROOT / "scenarios" / "data" / "scenario_2_khristishche.json", "--ai",
               f"german=heuristic:@{f}", "--games", "1", "--workers", "1", "--quiet")
    assert res.exit_code == 1 and f"{f}: $.settings.aggression: NaN is not a number" in res.output, res.output


def test_a_scenario_saved_against_a_damaged_layout_is_written_in_the_house_style():
    """The layout a scenario is saved against (the text its file had) goes through the safe parser: a
    layout that no longer parses (an endless number, deep nesting) gives no key order, never an exception."""
    from scenarios.model import Scenario
    from scenarios.scenario_file import load_scenario, scenario_json

    sc = load_scenario(S1, check=False)
    for layout in ('{"turns": ' + "9" * 5000 + "}", "[" * 5000 + "]" * 5000, '{"turns": NaN}'):
        again = Scenario.model_validate(json.loads(scenario_json(sc, layout)))
        assert again.model_dump() == sc.model_dump()


@pytest.mark.parametrize("text", ["1", "null", "[]", '{"format": "ironcross-map"}', '{"rule_system": "redflags"}'])
def test_balance_refuses_a_file_that_is_no_playable_scenario_before_writing_candidates(tmp_path, text):
    """A JSON file that is not a scenario (the fuzz: ``1``, ``null``) once reached the candidate writer and
    raised TypeError there: it is refused like playtest refuses it, naming the file."""
    f = tmp_path / "scenario.json"
    f.write_text(text)
    res = _run("balance", f, "--target", "german=50", "--budget", "1", "--workers", "1", "--quiet")
    assert res.exit_code == 1 and res.output.startswith(f"{f}: "), res.output


def test_balance_on_a_system_without_what_if_changes_names_the_scenario():
    res = _run("balance", TW, "--target", "german=50", "--budget", "1", "--quiet")
    assert res.exit_code == 1 and f"{TW}: " in res.output and "names no what-if changes" in res.output, res.output


# --------------------------------------------------------------------------- 4. absurd numbers


def _mutated(tmp_path, source: Path, change) -> Path:
    data = _load(source)
    change(data)
    f = tmp_path / source.name
    f.write_text(json.dumps(data))
    return f


def _oob0(d) -> dict:
    return d["russian"]["groups"][0]["oob"][0]


ABSURD = [
    # (source, change, JSON path, words)
    (S1, lambda d: _oob0(d).__setitem__("ammo", 10**12), "$.russian.groups[0].oob[0].ammo", "less than or equal to 99"),
    (S1, lambda d: _oob0(d).__setitem__("ammo", True), "$.russian.groups[0].oob[0].ammo", "valid integer"),
    (S1, lambda d: _oob0(d)["less"][0].__setitem__("count", "1"), "$.russian.groups[0].oob[0].less[0].count",
     "valid integer"),
    (S1, lambda d: _oob0(d)["less"][0].__setitem__("count", 10**18), "$.russian.groups[0].oob[0].less[0].count",
     "less than or equal to 99"),
    (S1, lambda d: d.__setitem__("turns", 10**6), "$.turns", "less than or equal to 99"),
    (S1, lambda d: d["russian"].__setitem__("hidden_hexes", 2**31), "$.russian.hidden_hexes", "less than or equal to 99"),
    (RF, lambda d: d["german"]["groups"][0]["units"][0].__setitem__("arrives", 10**18),
     "$.german.groups[0].units[0].arrives", "less than or equal to 50"),
    (TW, lambda d: d["german"][0].__setitem__("facing", 1e308), "$.german[0].facing", "less than or equal to 360"),
    (TW, lambda d: d["german"][0].__setitem__("men", True), "$.german[0].men", "valid integer"),
]


@pytest.mark.parametrize("k", range(len(ABSURD)))
def test_absurd_numbers_are_refused_with_path_and_allowed_range(tmp_path, k):
    source, change, path, words = ABSURD[k]
    f = _mutated(tmp_path, source, change)
    _refused(_run("validate", f), f, path, words)


def test_victory_min_buildings_and_points_have_ranges(tmp_path):
    s2 = ROOT / "scenarios" / "data" / "scenario_2_khristishche.json"
    text = s2.read_text(encoding="utf-8")
    assert '"min_buildings": 1' in text
    data = _load(s2)
    f = tmp_path / "s2.json"
    f.write_text(json.dumps(data).replace('"min_buildings": 1', f'"min_buildings": {2**63}', 1))
    res = _run("validate", f)
    assert res.exit_code == 1 and "min_buildings: Input should be less than or equal to 99" in res.output, res.output


def test_terrain_chart_values_out_of_range_are_refused(tmp_path):
    chart = json.loads(SOURCES["terrain_chart"].read_text(encoding="utf-8"))
    chart["rows"][0]["ap_dice"]["value"] = 10**24
    chart["rows"][1]["move"]["infantry_up"]["value"] = -1e308
    f = tmp_path / "chart.json"
    f.write_text(json.dumps(chart))
    res = _run("validate", f)
    assert res.exit_code == 1, res.output
    assert f"{f}: $.rows[0].ap_dice.value: " in res.output and "out of range" in res.output
    assert f"{f}: $.rows[1].move.infantry_up.value: " in res.output


def test_negative_counter_values_are_refused(tmp_path):
    data = json.loads(SOURCES["counters"].read_text(encoding="utf-8"))
    text = json.dumps(data).replace('"number": 1', '"number": -1', 1)
    f = tmp_path / "counters.json"
    f.write_text(text)
    res = _run("validate", f)
    assert res.exit_code == 1 and "number: Input should be greater than or equal to 0" in res.output, res.output


def test_errata_on_a_hex_off_the_mapsheet_are_refused_not_skipped(tmp_path):
    data = json.loads(SOURCES["errata"].read_text(encoding="utf-8"))
    i = next(i for i, c in enumerate(data["corrections"]) if "hex" in c)
    data["corrections"][i]["hex"] = "9999"
    f = tmp_path / "errata.json"
    f.write_text(json.dumps(data))
    res = _run("errata", "apply", SHEET, f, "-o", tmp_path / "out.json")
    _refused(res, f, f"$.corrections[{i}].hex", "not on the Iron Cross mapsheet (columns 10-70, rows 01-27")
    assert not (tmp_path / "out.json").exists()


def test_every_shipped_file_still_validates():
    files = sorted((ROOT / "maps" / "data").glob("*.json")) + sorted((ROOT / "scenarios" / "data").glob("*.json"))
    res = _run("validate", *files)
    assert res.exit_code == 0, res.output


def test_a_folder_given_for_an_input_file_and_a_file_for_a_folder_are_invalid_input(tmp_path):
    # the path's kind is the input's problem, as a FIFO's or a device's is: exit 1 naming it, never
    # click's usage error (exit 2), and a folder option is checked before any game is played
    folder = tmp_path / "a_folder"
    folder.mkdir()
    afile = tmp_path / "a_file"
    afile.write_text("x")
    out = tmp_path / "out"
    errata = ROOT / "maps" / "data" / "iron_cross_errata.json"
    for args in (["validate", folder], ["playtest", folder], ["playtest", S1, "--setup", folder],
                 ["balance", folder, "--target", "german=50"], ["tune", folder, "--side", "german", "-o", out],
                 ["errata", "apply", folder, errata, "-o", out], ["errata", "apply", SHEET, folder, "-o", out],
                 ["los", folder, "4307", "4308"], ["render", folder, "-o", tmp_path / "r.png"],
                 ["export", "tiled", folder, "-o", tmp_path / "x.tmx"], ["export", "vassal", folder, "-o", tmp_path / "x.vmod"],
                 ["replay", folder]):
        res = _run(*args)
        assert res.exit_code == 1 and f"{folder}: $: is a directory" in res.output, (args, res.output)
    res = _run("balance", S1, "--target", "german=50", "--changes", folder)
    assert res.exit_code == 1 and str(folder) in res.output
    for option in ("--replays", "--report"):
        res = _run("playtest", S1, "--games", "1", "--workers", "1", option, afile)
        assert res.exit_code == 1 and f"{option} {afile}: is a file; a folder is wanted" in res.output
        assert "games" not in res.output.split(str(afile))[0]  # refused before the batch
    res = _run("playtest", S1, "--robust", "--games", "2", "--workers", "1", "--storage", afile)
    assert res.exit_code == 1 and f"--storage {afile}: is a file; a folder is wanted" in res.output


def test_a_folder_given_for_an_output_file_is_invalid_input(tmp_path):
    # a file to write named by a folder: exit 1 naming the option and the path before any work
    # (no game played, nothing written into the folder), as a folder for an input file is
    folder = tmp_path / "a_folder"
    folder.mkdir()
    errata = ROOT / "maps" / "data" / "iron_cross_errata.json"
    for args, option in ((["playtest", S1, "--games", "1", "--workers", "1", "--json", folder], "--json"),
                         (["balance", S1, "--target", "german=50", "--json", folder], "--json"),
                         (["tune", S1, "--side", "german", "-o", folder], "--out"),
                         (["errata", "apply", SHEET, errata, "-o", folder], "--output"),
                         (["render", SHEET, "-o", folder], "--output"),
                         (["export", "tiled", SHEET, "-o", folder], "--output"),
                         (["export", "vassal", S1, "-o", folder], "--output"),
                         (["import", "tiled", folder / "x.tmx", "-o", folder], "--output")):
        res = _run(*args)
        assert res.exit_code == 1 and f"{option} {folder}: is a folder; a file is wanted" in res.output, \
            (args, res.output)
        assert "games" not in res.output and "Traceback" not in res.output
    assert list(folder.iterdir()) == []
    # a name ending in a slash names a folder even before it exists, and a path below a file has no
    # folder to go to: both refused before any game (no hidden study made in a new folder)
    afile = tmp_path / "a_file.json"
    afile.write_text("{}")
    for path, words in ((f"{tmp_path}/new_folder/", "is a folder; a file is wanted"),
                        (f"{afile}/out.json", f"{afile} is a file, not a folder")):
        for args in (["playtest", S1, "--games", "1", "--workers", "1", "--json", path],
                     ["tune", S1, "--side", "german", "--trials", "2", "--games", "1", "-o", path]):
            res = _run(*args)
            assert res.exit_code == 1 and words in res.output and "Tuning" not in res.output, (args, res.output)
    assert not (tmp_path / "new_folder").exists()
