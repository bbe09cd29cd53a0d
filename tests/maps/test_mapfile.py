"""Map file format: loading, every kind of bad input, fuzzing, atomic save, schema export."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli.main import cli
from maps.document_file import DocumentError
from maps.hexgrid import Hex
from maps.mapfile import export_schema, load_map, load_map_file, map_from_data, save_map

SAMPLE = Path(__file__).resolve().parents[2] / "maps" / "data" / "sample_village.json"


def sample() -> dict:
    return json.loads(SAMPLE.read_text())


def test_sample_map_loads_with_derived_features():
    m = load_map(SAMPLE)
    assert m.is_bridge(Hex(16, 6))
    assert m.road_connected(Hex(10, 6), Hex(11, 6))
    assert not m.road_connected(Hex(10, 6), Hex(12, 6))
    assert m.is_woods(Hex(13, 4)) and not m.is_woods(Hex(12, 3))
    assert m.building_hexes["B1"] == {Hex(14, 7), Hex(15, 7), Hex(15, 8)}
    assert m.is_multi_hex_building("B1") and not m.is_multi_hex_building("B2")
    assert m.feature_hexes("Building 1") == m.building_hexes["B1"]
    assert Hex(19, 3) in m.feature_hexes("Hill A")
    assert m.sections_of(Hex(15, 1)) == ["West", "East"]


def _validate(tmp_path, data, name="bad.json", raw: str | None = None):
    p = tmp_path / name
    p.write_text(raw if raw is not None else json.dumps(data))
    res = CliRunner().invoke(cli, ["validate", str(p)])
    return res, p


BAD_CASES = {
    "newer_version": (lambda d: d.update(version=99), "$.version", "newer"),
    "unknown_format": (lambda d: d.update(format="tiled-map"), "$.format", "unknown format"),
    "hex_outside_extent": (lambda d: d["hexes"].append({"id": "9999"}), "$.hexes[14].id", "outside the map"),
    "negative_trees": (lambda d: d["hexes"][0].update(trees=-1), "$.hexes[0].trees", "greater than or equal to 0"),
    "unknown_terrain": (lambda d: d["hexes"][0].update(terrain="lava"), "$.hexes[0].terrain", "'clear' or 'marsh'"),
    "invalid_polygon": (lambda d: d["buildings"][0].update(polygon=[[30, 5], [40, 15], [40, 5], [30, 15]]),
                        "$.buildings[0].polygon", "not a valid polygon"),
    "road_not_adjacent": (lambda d: d["roads"].append(["1001", "1003"]), "$.roads[2][1]", "not adjacent"),
    "hex_listed_twice": (lambda d: d["hexes"].append({"id": "1203"}), "$.hexes[14].id", "listed twice"),
    "bad_hex_id": (lambda d: d["features"][0]["hexes"].append("17x3"), "$.features[0].hexes[7]", "not four digits"),
    "missing_key": (lambda d: d.pop("extent"), "$.extent", "Field required"),
    "wrong_type": (lambda d: d["hexes"][1].update(level="high"), "$.hexes[1].level", "integer"),
    "extra_key": (lambda d: d.update(colour="red"), "$.colour", "Extra inputs"),
}


@pytest.mark.parametrize("case", sorted(BAD_CASES))
def test_bad_input_exit_1_one_line_naming_file_path_problem(tmp_path, case):
    mutate, path, words = BAD_CASES[case]
    d = sample()
    mutate(d)
    res, p = _validate(tmp_path, d)
    assert res.exit_code == 1, res.output
    assert "Traceback" not in res.output
    lines = [ln for ln in res.output.splitlines() if ln.startswith(str(p))]
    assert any(f"{p}: {path}: " in ln and words in ln for ln in lines), res.output


def test_truncated_json(tmp_path):
    raw = SAMPLE.read_text()[:200]
    res, p = _validate(tmp_path, None, raw=raw)
    assert res.exit_code == 1
    assert f"{p}: $: not valid JSON at line" in res.output


def test_several_problems_reported_together(tmp_path):
    d = sample()
    d["hexes"][0]["trees"] = -1
    d["hexes"][1]["terrain"] = "lava"
    res, p = _validate(tmp_path, d)
    assert res.exit_code == 1
    assert "$.hexes[0].trees" in res.output and "$.hexes[1].terrain" in res.output


def test_usage_error_exit_2():
    assert CliRunner().invoke(cli, ["validate"]).exit_code == 2
    assert CliRunner().invoke(cli, ["no-such-command"]).exit_code == 2


def test_valid_file_exit_0():
    res = CliRunner().invoke(cli, ["validate", str(SAMPLE)])
    assert res.exit_code == 0, res.output
    assert "OK" in res.output


def test_save_is_atomic_and_round_trips(tmp_path, monkeypatch):
    doc = load_map_file(SAMPLE)
    out = tmp_path / "m.json"
    save_map(out, doc)
    assert load_map_file(out) == doc
    # a failure while writing leaves the previous file untouched and no temporary file behind
    import maps.document_file as df

    def boom(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(df.os, "replace", boom)
    doc2 = doc.model_copy(update={"name": "changed"})
    with pytest.raises(OSError):
        save_map(out, doc2)
    assert load_map_file(out).name == doc.name
    assert [p.name for p in tmp_path.iterdir()] == ["m.json"]


def test_schema_is_exported_and_current(tmp_path):
    text = export_schema(tmp_path / "s.json")
    shipped = Path(__file__).resolve().parents[2] / "docs" / "schema" / "map.schema.json"
    assert shipped.read_text() == text, "run: python -c 'from maps.mapfile import export_schema; export_schema()'"


# ------------------------------------------------------------------ fuzzing

def _mutations():
    leaf = st.one_of(st.none(), st.booleans(), st.integers(-5, 10**6), st.floats(allow_nan=True),
                     st.text(max_size=6), st.lists(st.integers(-3, 99), max_size=3), st.just({}))
    return st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(["set", "delete", "truncate"]), leaf),
                    min_size=1, max_size=4)


def _paths(obj, prefix=()):
    yield prefix
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, prefix + (i,))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_mutations())
def test_fuzz_mutated_map_files_never_crash(muts):
    base = sample()
    text = None
    d = copy.deepcopy(base)
    for idx, op, value in muts:
        paths = [p for p in _paths(d) if p]
        if op == "truncate":
            s = json.dumps(d)
            text = s[: idx % (len(s) + 1)]
            break
        if not paths:
            break
        path = paths[idx % len(paths)]
        parent = d
        for k in path[:-1]:
            parent = parent[k]
        if op == "delete":
            del parent[path[-1]]
        else:
            parent[path[-1]] = value
    try:
        data = json.loads(text) if text is not None else d
    except json.JSONDecodeError:
        return
    try:
        m = map_from_data(data, "fuzz.json")
    except DocumentError as e:
        assert e.problems and all(str(p) for p in e.problems)
        assert str(e).startswith("fuzz.json: ")
    else:
        assert m.hex_count > 0


def test_atomic_save_gives_the_usual_file_mode(tmp_path):
    import os

    from maps.document_file import atomic_write_text

    umask = os.umask(0o022)
    try:
        atomic_write_text(tmp_path / "a.json", "{}")
        assert (tmp_path / "a.json").stat().st_mode & 0o777 == 0o644
        os.chmod(tmp_path / "a.json", 0o640)
        atomic_write_text(tmp_path / "a.json", "{ }")  # an existing file keeps its mode
        assert (tmp_path / "a.json").stat().st_mode & 0o777 == 0o640
    finally:
        os.umask(umask)


def test_an_atomic_save_follows_a_link_and_writes_through_what_is_no_regular_file(tmp_path):
    """``--json`` and every other output: a symbolic link stays a link and its target gets the
    content; a named pipe (or /dev/stdout) is written through, never replaced by a file; a folder
    is refused."""
    import os
    import threading

    from maps.document_file import atomic_write_text

    target = tmp_path / "real.json"
    target.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    atomic_write_text(link, "new")
    assert link.is_symlink() and target.read_text() == "new"
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    atomic_write_text(fifo, "through")
    reader.join(10)
    assert got == ["through"] and not fifo.is_file()
    (tmp_path / "folder").mkdir()
    with pytest.raises(IsADirectoryError):
        atomic_write_text(tmp_path / "folder", "x")


def test_an_atomic_save_under_a_file_names_the_file_in_the_way(tmp_path):
    from maps.document_file import atomic_write_text

    (tmp_path / "afile.txt").write_text("x")
    with pytest.raises(NotADirectoryError) as e:
        atomic_write_text(tmp_path / "afile.txt" / "sub" / "out.json", "{}")
    assert e.value.filename == str(tmp_path / "afile.txt") and f"{tmp_path / 'afile.txt'} is a file, not a folder" in \
        e.value.strerror
