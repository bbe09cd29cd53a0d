"""The 20 mm rules as a rule system: the shipped scenario, its loader, actions as JSON,
determinism, legal actions, players, pieces (seed 003)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core import rule_system
from core.twentymm.actions import Assault, EndTurn, Fire, IndirectFire, Move, Special, action_from_json, action_to_json
from core.twentymm.game import TwentyIllegal
from maps.document_file import DocumentError

ROOT = Path(__file__).resolve().parents[2]
SCEN = ROOT / "scenarios" / "data" / "twentymm_1_village_counterattack.json"


@pytest.fixture(scope="module")
def system():
    return rule_system.get("twentymm")


@pytest.fixture(scope="module")
def setup(system):
    return system.load_setup(str(SCEN), 0)


def play(system, setup, seed, ai, limit=3000):
    g = system.new_game(setup, seed, None, None)
    players = system.make_players(setup, ai, seed)
    n = 0
    while not g.is_terminal() and n < limit:
        side = g.current_side()
        g.apply(players[side].choose(system.view(g, side), side, g.legal_actions()))
        n += 1
    return g


def test_20mm_system_is_registered_and_fills_every_field(system):
    assert rule_system.SYSTEM_MODULES["twentymm"] == "core.twentymm.system"
    assert system.name == "twentymm" and system.seed.startswith("seeds/003_")
    assert set(system.players) >= {"random", "heuristic"}
    assert all(v["provenance"] in ("rulebook", "reconstructed") for v in system.terrain_mapping.values())
    assert rule_system.for_scenario(SCEN) is system


def test_20mm_setup_the_shipped_scenario_loads_with_hidden_troops_in_cover(system, setup):
    data = json.loads(SCEN.read_text())
    assert data["rule_system"] == "twentymm" and data["scale"] == 4.0 and data["map"]["sections"] == ["Map 2"]
    hidden = [u for u in setup.units if u.hidden]
    assert len(hidden) >= 5
    assert all(setup.table.terrain_at(u.pos).cover is not None for u in hidden)
    line = system.summarise_scenario(str(SCEN), data)
    assert "Counterattack at the Village" in line and "12 turns" in line
    assert system.scenario_warnings(str(SCEN)) == []


def test_20mm_setup_hidden_troops_must_begin_in_cover(tmp_path):
    data = json.loads(SCEN.read_text())
    i = next(k for k, u in enumerate(data["russian"]) if u["id"] == "R-M")
    data["russian"][i]["hidden"] = True      # the light mortar stands in the open
    data["map"]["file"] = str((SCEN.parent / data["map"]["file"]).resolve())
    p = tmp_path / "s.json"
    p.write_text(json.dumps(data))
    from core.twentymm.scenario import load_setup
    with pytest.raises(DocumentError, match=rf"\$\.russian\[{i}\]\.hidden: R-M is not in cover"):
        load_setup(str(p))


def test_20mm_scenario_loader_names_file_json_path_and_problem(tmp_path):
    data = json.loads(SCEN.read_text())
    data["german"][1]["men"] = -1
    data["german"][5]["vehicle"] = "Maus"
    del data["turns"]
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(data))
    from core.twentymm.scenario import load_setup
    with pytest.raises(DocumentError) as e:
        load_setup(str(p))
    msg = str(e.value)
    assert f"{p}: $.german[1].men" in msg and "$.german[5]" in msg and "Maus" in msg and "$.turns" in msg


def test_20mm_actions_round_trip_through_json():
    acts = [Move("G-1", ((1.5, 2.0), (3.0, 4.25)), facing=90.0, turret=None), Move("G-T1", (), turret=45.0),
            Fire("G-T1", "at", "R-T", tracks=True, gun=1), Fire("G-T1", "he", point=(3.0, 4.0)),
            IndirectFire("G-A", (10.0, 20.0), "G-HQ", spread=True), Assault("G-1", "R-1"),
            Special("G-1", "disembark", "G-T1", (1.0, 2.0)), EndTurn()]
    for a in acts:
        d = action_to_json(a)
        assert json.loads(json.dumps(d)) == d
        assert action_from_json(d) == a
    with pytest.raises(rule_system.IllegalActionError):
        action_from_json({"type": "Teleport"})


def test_20mm_determinism_same_seed_and_actions_same_events(system, setup):
    g = play(system, setup, 3, {"german": "random", "russian": "random"}, limit=150)
    h = system.new_game(setup, 3, None, None)
    for a in g.actions:
        h.apply(action_from_json(action_to_json(a)))
    assert h.events == g.events
    assert any(e["kind"] == "roll" for e in g.events)
    assert all({"dice", "purpose", "rule"} <= set(e) for e in g.events if e["kind"] == "roll")


def test_20mm_legal_actions_are_all_accepted_and_include_moves_fire_and_end_turn(system, setup):
    g = system.new_game(setup, 0, None, None)
    acts = g.legal_actions()
    assert isinstance(acts[-1], EndTurn)
    assert sum(isinstance(a, Move) for a in acts) >= 10
    sample = acts[:: max(1, len(acts) // 15)]
    for a in sample:
        h = system.new_game(setup, 0, None, None)
        h.apply(a)
    # after a few turns of play, fire is offered too
    g2 = play(system, setup, 1, {"german": "heuristic", "russian": "heuristic"}, limit=60)
    assert any(e["kind"] in ("small_arms_fire", "at_shot", "he_shot", "template") for e in g2.events)


def test_20mm_apply_refuses_an_illegal_proposal_naming_the_rule(system, setup):
    g = system.new_game(setup, 0, None, None)
    with pytest.raises(TwentyIllegal, match="Infantry Movement"):
        g.apply(Move("G-1", ((150.0, 40.0),)))
    with pytest.raises(TwentyIllegal, match="Sequence of Play"):
        g.apply(Move("R-1", ((142.0, 29.0),)))
    with pytest.raises(TwentyIllegal, match="hidden|obscured"):
        g.apply(Fire("G-T1", "he", "R-1"))


def test_20mm_players_random_and_heuristic_finish_a_game(system, setup):
    g = play(system, setup, 0, {"german": "heuristic", "russian": "random"})
    assert g.is_terminal() and g.outcome in ("german", "russian", "draw")
    fields = system.result_fields(g)
    assert set(fields["casualties"]) == {"german", "russian"}
    outcome, held = system.turn_record(g)
    assert outcome == g.outcome and set(held) == {"german", "russian"}


def test_20mm_pieces_stand_in_the_hex_under_the_unit(system, setup):
    g = system.new_game(setup, 0, None, None)
    ps = {p.uid: p for p in system.pieces(g)}
    assert ps["R-1"].hexes == ("4106",) and "hidden" in ps["R-1"].status
    assert ps["G-T1"].kind == "afv" and ps["G-T1"].facing in range(6)
    assert "G-A" not in ps      # the off-table battery
    assert system.los(g, "4106", "4106") is True
    assert system.describe_event({"kind": "roll"}) == ""


def test_20mm_apply_refuses_non_finite_points_and_bearings(system, setup):
    g = system.new_game(setup, 0, None, None)
    for a in (Move("G-1", ((float("nan"), 40.0),)), Move("G-T1", (), turret=float("inf")), IndirectFire("G-M", (1e309, 3.0))):
        with pytest.raises(TwentyIllegal, match="finite"):
            g.apply(a)
    assert g.actions == []
