"""The designer's set-up outside the editor: ``ironcross playtest SCENARIO
--setup FILE`` plays the placement file the editor saves, with the same checks as the editor's
Validation dock; the 24.1 "less" choices a set-up makes are kept by every game; a bad placement
file names the file, the place and the problem."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from cli.main import cli
from core.ironcross.placement import check_fixed_setup, load_placement, placement_json
from core.ironcross.scenario_setup import SetupError, apply_fixed_setup, load_setup
from core.playtest import _setup_for
from maps.document_file import DocumentError
from tests.scenario_copies import scenario_copy

ROOT = Path(__file__).resolve().parents[2]
S1 = ROOT / "scenarios" / "data" / "scenario_1_demyansk_pocket.json"
S5 = ROOT / "scenarios" / "data" / "scenario_5_through_the_marshes.json"
S6 = ROOT / "scenarios" / "data" / "scenario_6_spartakovka.json"


def short_copy(folder: Path, source: Path = S1, turns: int = 1) -> Path:
    """``source`` lasting ``turns`` Game Turns, as ``folder/short.json`` (its entries as they are)."""
    return scenario_copy(folder, source, turns=turns, name="short.json", bring_forward=False)


def write_setup(path: Path, units: dict, **more) -> Path:
    path.write_text(json.dumps(placement_json({"units": units, **more})))
    return path


def test_24_1_less_choice_of_a_set_up_is_kept_by_every_game():
    # Scenario 6: the Russian Squad D "less R PR9" and the squad has two R PR9 (R-D-3, R-D-4)
    draws = set()
    for seed in range(8):
        _sc, st = load_setup(S6, seed=seed)
        c = next(c for c in st.random_choices if c["squad"] == "D" and c["side"] == "russian" and "PR9" in c["what"])
        assert sorted(c["among"]) == ["R-D-3", "R-D-4"] and len(c["out"]) == 1 and c["by"] == "random"
        draws.add(c["out"][0])
        _sc, st = load_setup(S6, seed=seed, left_out=["R-D-4"])
        assert "R-D-3" in st.units and "R-D-4" not in st.units      # the designer's choice, every game
        c = next(c for c in st.random_choices if c["squad"] == "D" and "PR9" in c["what"])
        assert c["out"] == ["R-D-4"] and c["by"] == "designer"
        assert any("R-D-4 left out, chosen in the designer's set-up" in t for t in st.choices)
    assert draws == {"R-D-3", "R-D-4"}   # without a set-up each game draws again (24.1)


def test_placement_checks_name_every_problem(tmp_path):
    _sc, st = load_setup(S1)
    d = st.deployments[0]
    zone = sorted(d.zone)
    outside = next(h for h in ("4506", "3001", "5027") if h not in d.zone)
    men = [u for u in d.units if st.units[u].kind.value == "infantry"]
    fixed = {"units": {men[0]: {"hex": zone[0]}, men[1]: {"hex": outside}, men[2]: {"hex": "9999"},
                       men[3]: {"hex": "43x7"}, "G-ZZ-1": {"hex": zone[0]}},
             "hidden_hexes": {zone[1]: "russian", outside: "german"},
             "mines": {zone[2]: {"side": "russian", "ap": 1, "at": 0}},
             "left_out": ["G-C-3"]}
    probs = {p.path: p.message for p in check_fixed_setup(st, fixed)}
    assert "outside the set-up zone" in probs[f"$.units.{men[1]}.hex"]
    assert "9999 is not on map" in probs[f"$.units.{men[2]}.hex"]
    assert "four digits" in probs[f"$.units.{men[3]}.hex"]
    assert "no unit G-ZZ-1" in probs["$.units.G-ZZ-1"]
    assert "the russian side has no hidden hexes" in probs[f"$.hidden_hexes.{zone[1]}"]
    assert "outside the german set-up zone" in probs[f"$.hidden_hexes.{outside}"]
    assert "no mine factors" in probs[f"$.mines.{zone[2]}"]
    assert "not one of the men" in probs["$.left_out[0]"]
    assert f"$.units.{men[0]}.hex" not in probs
    # stacking (8.62): seven men in one hex
    seven = {u: {"hex": zone[0]} for u in men[:7]}
    probs = check_fixed_setup(st, {"units": seven})
    assert len(probs) == 1 and "8.62" in probs[0].message and zone[0] in probs[0].message
    # a game never starts silently from something else than what is placed
    try:
        apply_fixed_setup(st, fixed)
    except SetupError as e:
        assert "outside the set-up zone" in str(e) and "G-ZZ-1" in str(e)
    else:
        raise AssertionError("a set-up with problems was applied")


def test_bad_placement_file_names_file_place_and_problem(tmp_path):
    bad = tmp_path / "s.placement.json"
    bad.write_text(json.dumps({"format": "ironcross-placement", "version": 1, "units": {"G-C-1": {"hex": 4307}}}))
    try:
        load_placement(bad)
    except DocumentError as e:
        assert str(bad) in str(e) and "$.units.G-C-1.hex" in str(e)
    else:
        raise AssertionError("a bad placement file loaded")
    bad.write_text("{not json")
    try:
        load_placement(bad)
    except DocumentError as e:
        assert str(bad) in str(e) and "not valid JSON at line 1" in str(e)


def test_cli_playtest_with_the_designers_setup(tmp_path):
    sc = short_copy(tmp_path)
    _s, st = load_setup(sc)
    d = st.deployments[0]
    zone = sorted(d.zone)
    mmg = next(u for u in d.units if st.units[u].kind.value == "cw")
    inf = next(u for u in d.units if st.units[u].kind.value == "infantry")
    setup = write_setup(tmp_path / "short.placement.json",
                        {inf: {"hex": zone[3], "facing": None, "down": True}, mmg: {"hex": zone[4], "facing": 4}})
    out = tmp_path / "r.json"
    rp = tmp_path / "replays"
    res = CliRunner().invoke(cli, ["playtest", str(sc), "--setup", str(setup), "--games", "2", "--seed", "4",
                                   "--workers", "1", "--quiet", "--json", str(out), "--replays", str(rp)])
    assert res.exit_code == 0, res.output
    assert f"Designer's set-up {setup}: 2 units placed" in res.output
    assert json.loads(out.read_text())["setup"] == str(setup)
    replays = sorted(rp.glob("*.jsonl"))
    assert len(replays) == 2
    for f in replays:
        events = [json.loads(x) for x in f.read_text().splitlines()[1:]]
        placed = {e["unit"]: e for e in events if e.get("kind") == "placed"}
        assert placed[inf]["hex"] == zone[3] and placed[mmg]["hex"] == zone[4]
        # and the replay verifies (it re-runs from the set-up in its header)
        v = CliRunner().invoke(cli, ["replay", str(f), "--verify"])
        assert v.exit_code == 0, v.output
    # `ironcross validate` checks a placement file against the scenario beside it
    v = CliRunner().invoke(cli, ["validate", str(setup)])
    assert v.exit_code == 0 and "checked against short.json" in v.output, v.output


def test_cli_playtest_refuses_a_bad_setup(tmp_path):
    sc = short_copy(tmp_path)
    _s, st = load_setup(sc)
    d = st.deployments[0]
    outside = next(h for h in ("4506", "3001", "5027") if h not in d.zone)
    setup = write_setup(tmp_path / "short.placement.json", {d.units[0]: {"hex": outside}, "G-ZZ-1": {"hex": "9999"}})
    res = CliRunner().invoke(cli, ["playtest", str(sc), "--setup", str(setup), "--games", "1", "--workers", "1",
                                   "--quiet"])
    assert res.exit_code == 1
    assert f"{setup}: $.units.{d.units[0]}.hex: {outside} is outside the set-up zone" in res.output
    assert f"{setup}: $.units.G-ZZ-1: no unit G-ZZ-1" in res.output
    assert "no game played" in res.output and "Traceback" not in res.output
    v = CliRunner().invoke(cli, ["validate", str(setup)])
    assert v.exit_code == 1 and "outside the set-up zone" in v.output
    # a file that is not a placement file at all
    setup.write_text(json.dumps({"format": "ironcross-placement", "version": 1, "units": [1, 2]}))
    res = CliRunner().invoke(cli, ["playtest", str(sc), "--setup", str(setup), "--quiet"])
    assert res.exit_code == 1 and f"{setup}: $.units" in res.output and "Traceback" not in res.output
    res = CliRunner().invoke(cli, ["playtest", str(sc), "--setup", str(tmp_path / "missing.json"), "--quiet"])
    assert res.exit_code == 1 and "file not found" in res.output


def test_set_up_left_out_in_a_placement_file_plays_every_game_the_same(tmp_path):
    fixed = {"units": {}, "hidden_hexes": {}, "mines": {}, "left_out": ["R-D-3"]}
    for seed in range(4):
        st = _setup_for(str(S6), seed, fixed)
        assert "R-D-3" not in st.units and "R-D-4" in st.units
    # a left_out that cannot be honoured is a problem with its place in the file
    _s, st = load_setup(S6, left_out=["R-D-3", "R-D-4"])
    probs = check_fixed_setup(st, {"left_out": ["R-D-3", "R-D-4"]})
    assert [p.path for p in probs] == ["$.left_out[1]"] and "leaves out 1 of" in probs[0].message
