"""Red Flags through the rule-system boundary: SYSTEM's fields, a whole game through SYSTEM alone,
its replay from the recorded actions, determinism, illegal actions, the action JSON."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from core import rule_system
from core.redflags import actions as A
from core.redflags.system import SYSTEM
from core.redflags.tables import rule_register
from core.rule_system import IllegalActionError, Piece, RuleSystem
from tests.redflags.helpers import SHIPPED

PATH = str(SHIPPED)
ROOT = Path(__file__).resolve().parents[2]


def play(seed: int, ai=None):
    ai = ai or {"german": "heuristic", "russian": "heuristic"}
    setup = SYSTEM.load_setup(PATH, seed)
    g = SYSTEM.new_game(setup, seed, SYSTEM.rules[0], ())
    players = SYSTEM.make_players(setup, ai, seed)
    while not g.is_terminal():
        side = g.current_side()
        g.apply(players[side].choose(SYSTEM.view(g, side), side, g.legal_actions()))
    return g


@pytest.fixture(scope="module")
def hh_game():
    return play(20261201)


def test_rf_system_fills_every_field_of_the_boundary():
    assert isinstance(SYSTEM, RuleSystem) and SYSTEM.name == "redflags"
    for f in dataclasses.fields(RuleSystem):
        required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        if required or f.name in ("terrain_mapping", "options"):
            assert getattr(SYSTEM, f.name), f.name
    assert {"random", "heuristic"} <= set(SYSTEM.players)
    assert SYSTEM.rules == ("standard",) and "ranges-b" in SYSTEM.options
    assert SYSTEM.terrain_mapping["features"]["woods"]["los_obstacle"]["provenance"] == "rulebook"
    assert rule_system.get("redflags") is SYSTEM
    assert rule_system.for_scenario(PATH) is SYSTEM


def test_rf_system_a_whole_heuristic_game_and_its_replay(hh_game):
    g = hh_game
    assert g.is_terminal() and g.outcome in ("german", "russian", "draw") and g.turn >= 1
    recorded = [SYSTEM.action_to_json(a) for a in g.actions]
    json.dumps(recorded)
    seed = g.seed
    g2 = SYSTEM.new_game(SYSTEM.load_setup(PATH, seed), seed, SYSTEM.rules[0], ())
    for a in recorded:
        g2.apply(SYSTEM.action_from_json(a))
    assert g2.events == g.events and g2.outcome == g.outcome


def test_rf_system_events_are_json_with_kind_and_rule_and_every_roll_logged(hh_game):
    g = hh_game
    json.dumps(g.events)
    reg = rule_register()
    for e in g.events:
        assert "kind" in e and "rule" in e
        assert e["rule"] in reg, e
    rolls = [e for e in g.events if e["kind"] == "roll"]
    assert len(rolls) == len(g.dice.rolls) and all(e["dice"] for e in rolls)
    assert all(isinstance(SYSTEM.describe_event(e), str) for e in g.events)


def test_rf_system_same_seed_same_actions_same_events():
    a, b = play(7, {"german": "random", "russian": "heuristic"}), play(7, {"german": "random", "russian": "heuristic"})
    assert a.events == b.events
    c = SYSTEM.new_game(SYSTEM.load_setup(PATH, 8), 8, "standard", ())
    assert c.events[0]["seed"] == 8 and a.events[0]["seed"] == 7


def test_rf_system_result_fields_and_turn_record(hh_game):
    r = SYSTEM.result_fields(hh_game)
    assert set(r["casualties"]) == {"german", "russian"}
    total = sum(n for side in r["casualties"].values() for n in side.values())
    assert total == sum(1 for e in hh_game.events if e["kind"] == "eliminated")
    assert all(len(v) == hh_game.turn for v in r["casualties_by_turn"].values())
    assert r["reason"] == hh_game.reason
    outcome, held = SYSTEM.turn_record(hh_game)
    assert outcome == hh_game.outcome or "sudden death" in hh_game.reason
    assert set(held) == {"german", "russian"}


def test_rf_system_pieces_view_and_los():
    setup = SYSTEM.load_setup(PATH, 3)
    g = SYSTEM.new_game(setup, 3, "standard", ())
    players = SYSTEM.make_players(setup, {"german": "random", "russian": "random"}, 3)
    while g.phase == "setup":
        side = g.current_side()
        g.apply(players[side].choose(SYSTEM.view(g, side), side, g.legal_actions()))
    ps = SYSTEM.pieces(g)
    assert ps and all(isinstance(p, Piece) and p.hexes for p in ps)
    assert {p.side for p in ps} == {"german", "russian"}
    v = SYSTEM.view(g, "german")
    u = next(iter(v.units().values()))
    with pytest.raises(dataclasses.FrozenInstanceError):
        u.hexes = ()  # type: ignore[misc]
    assert SYSTEM.los(g, "3005", "3006") is True
    assert SYSTEM.los(g, "3717", "3717") is True


def test_rf_system_summary_and_warnings(tmp_path):
    data = json.loads(SHIPPED.read_text())
    line = SYSTEM.summarise_scenario(PATH, data)
    assert "Hill J" in line and "Map 2" in line
    assert SYSTEM.scenario_warnings(PATH) == []
    bad = dict(data)
    bad["german"] = dict(data["german"], setup_zone={"hexes": ["3717"]})
    bad["map"] = dict(data["map"], file=str(ROOT / "maps" / "data" / "iron_cross_mapsheet_corrected.json"))
    p = tmp_path / "w.json"
    p.write_text(json.dumps(bad))
    ws = SYSTEM.scenario_warnings(str(p))
    assert any("$.german.setup_zone" in w for w in ws)


ALL_ACTIONS = [A.Place("G1", "3717"), A.Move("G1", "3716", True), A.Fire("G1", "3721", "R1", True),
               A.Embus("R1", "RTR"), A.Debus("R1"), A.Limber("GPAK"), A.Unlimber("GPAK"), A.RemoveWire("R1"),
               A.Extend("G1", "3716"), A.Contract("G1", "3717"), A.AirStep("GJU87", -1), A.Bomb("GJU87"),
               A.Strafe("X"), A.EndActivation()]


@pytest.mark.parametrize("action", ALL_ACTIONS, ids=lambda a: a.kind)
def test_rf_actions_round_trip_through_json(action):
    d = SYSTEM.action_to_json(action)
    assert SYSTEM.action_from_json(json.loads(json.dumps(d))) == action


def test_rf_actions_unknown_forms_are_refused():
    with pytest.raises(IllegalActionError):
        SYSTEM.action_from_json({"kind": "teleport"})
    with pytest.raises(IllegalActionError):
        SYSTEM.action_from_json({"kind": "move", "unit": "G1", "to": "3717", "speed": 9})


def test_rf_illegal_actions_name_the_rule_and_change_nothing():
    setup = SYSTEM.load_setup(PATH, 5)
    g = SYSTEM.new_game(setup, 5, "standard", ())
    players = SYSTEM.make_players(setup, {"german": "heuristic", "russian": "heuristic"}, 5)
    while g.phase == "setup":
        side = g.current_side()
        g.apply(players[side].choose(SYSTEM.view(g, side), side, g.legal_actions()))
    before = (len(g.events), len(g.actions), json.dumps(g.events[-1]), g.dice._rng.getstate())
    side = g.current_side()
    group = g.card["group"]
    mine = next(u for u in g.units.values() if u.side == side and u.group == group)
    other = next(u for u in g.units.values() if u.side != side and u.hexes)
    for bad in (A.Move(other.uid, "3001"), A.Fire(mine.uid, "3001", other.uid), A.Place(mine.uid, "3001")):
        with pytest.raises(IllegalActionError) as e:
            g.apply(bad)
        assert e.value.rule in rule_register()
        assert (len(g.events), len(g.actions), json.dumps(g.events[-1]), g.dice._rng.getstate()) == before


def test_rf_docs_table_names_every_rule():
    text = (ROOT / "docs" / "redflags.md").read_text(encoding="utf-8")
    for rid in rule_register():
        assert f"`{rid}`" in text, rid


def test_rf_system_elimination_causes_and_scenario_map():
    from core.redflags.system import CAUSES, elimination_cause, scenario_map

    assert [elimination_cause(r) for r in ("r.damage", "fire.bombing", "r.mines", "r.morale")] == \
        ["fire", "air", "mines", "morale"]
    assert set(CAUSES) == {"fire", "air", "mines", "morale"}
    hexmap, sections = scenario_map(PATH)
    assert sections == ["Map 2"] and hexmap.section_columns("Map 2") == (30, 50)


def test_rf_run_batch_without_rules_plays_the_systems_first_rule_level():
    """core.playtest.run_batch called from code with no ``rules`` plays Red Flags' own first level
    (``"standard"``), not Iron Cross's ``"basic"``; the replay header records the level played."""
    from pathlib import Path

    from core.playtest import play_game, run_batch

    scenario = str(Path(__file__).resolve().parents[2] / "scenarios" / "data" / "redflags_1_hill_j.json")
    ai = {"german": "random", "russian": "random"}
    results = run_batch(scenario, 2, 5, ai, workers=1)
    assert [r.outcome for r in results if r.outcome == "error"] == []
    one = play_game(scenario, 0, results[0].seed, ai)
    assert one.outcome == results[0].outcome and one.turns == results[0].turns


def test_rf_system_editor_schema_hints_new_scenario_and_activation_status(tmp_path):
    """The editor's optional fields: the schema is the Scenario model's, the hints' roster choices
    are the side's roster entries, a new scenario validates, and the status lines show the
    activation cards (Activation: the card up, the cards turned, the face-down rest by side)."""
    from core.redflags.roster import shipped_roster

    schema = SYSTEM.scenario_schema()
    assert {"german", "russian", "victory", "map"} <= set(schema["properties"]) and "Card" in schema["$defs"]
    hints = SYSTEM.scenario_hints()
    ids = {e.id: e.side for e in shipped_roster().units}
    for side in ("german", "russian"):
        choices = hints["choices"][f"$.{side}.groups[*].units[*].type"]
        assert choices and all(ids[v] == side for v, _label in choices)
        assert f"$.{side}.setup_zone.hexes" in hints["hex_lists"] and f"$.{side}.setup_zone" in hints["hex_blocks"]
    data = SYSTEM.new_scenario(str(ROOT / "maps" / "data" / "iron_cross_mapsheet_corrected.json"), ["Map 2"], "New")
    p = tmp_path / "new.json"
    p.write_text(json.dumps(data))
    assert SYSTEM.summarise_scenario(str(p), data).startswith("Red Flags scenario - 'New': Map 2, 6 turns")
    setup = SYSTEM.load_setup(PATH, 3)
    g = SYSTEM.new_game(setup, 3, "standard", ())
    assert SYSTEM.status_lines(g) == ["Set-up (r.setup): german places its units"]
    players = SYSTEM.make_players(setup, {"german": "random", "russian": "random"}, 3)
    while g.card is None and not g.is_terminal():
        side = g.current_side()
        g.apply(players[side].choose(SYSTEM.view(g, side), side, g.legal_actions()))
    up, turned, rest = SYSTEM.status_lines(g)
    assert up.startswith(f"Turn 1 of 9 -- card up: {g.card['label']}, {g.card['side']} {g.card['group']}")
    assert turned.startswith("Turned (1 of 10): ") and rest.startswith("To come (9, face down): german ")
