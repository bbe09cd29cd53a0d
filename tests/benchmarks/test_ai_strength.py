"""The strength gate script: benchmarks/ai_strength.py plays the heuristic against random (and
its settings check, shared with benchmarks/blunder_cost.py).

``--settings`` gates a behaviour change before it becomes a default: its games are played with
those settings (Iron Cross cells only), and a bad setting is refused before any game.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from core.playtest import GameResult

from tests.benchmarks.scripts import load_script

strength = load_script("ai_strength")
RF = Path(__file__).resolve().parents[2] / "scenarios" / "data" / "redflags_1_hill_j.json"
TM = Path(__file__).resolve().parents[2] / "scenarios" / "data" / "twentymm_1_village_counterattack.json"


def _fake_batch(calls):
    def run_batch(path, games, seed, ai, workers=1, replay_dir=None):
        calls.append((Path(path).stem, dict(ai)))
        side = next(s for s, p in ai.items() if p != "random")
        return [GameResult(i, seed + i, side, 7, actions=10) for i in range(games)]
    return run_batch


def test_settings_reach_the_iron_cross_heuristic_only(monkeypatch, capsys):
    calls = []
    monkeypatch.setattr(strength, "run_batch", _fake_batch(calls))
    assert strength.main(["--scenarios", "1,redflags_1", "--sides", "german", "--games", "2", "--workers", "1",
                          "--settings", "stand_up_to_move=0,aggression=1.5"]) == 0
    assert calls == [("scenario_1_demyansk_pocket", {"german": "heuristic:stand_up_to_move=0,aggression=1.5",
                                                     "russian": "random"}),
                     ("redflags_1_hill_j", {"german": "heuristic", "russian": "random"})]
    out = capsys.readouterr().out
    assert "settings stand_up_to_move=0,aggression=1.5" in out
    assert "2 of 2 cells meet the target" in out


@pytest.mark.parametrize("script, argv, words", [
    ("ai_strength", ["--scenarios", "1", "--games", "1", "--settings", "stand_up_to_move=7"], "'stand_up_to_move'"),
    # blunder_cost.py --variant: before the default batch is played, not after it
    ("blunder_cost", ["--scenario", "1", "--games", "1", "--variant", "aggresion=2"], "unknown setting 'aggresion'"),
    # numbers of games and workers below 1: a usage error, not a traceback after the first batch
    ("blunder_cost", ["--scenario", "1", "--games", "0"], "argument --games: 0 is below 1"),
    ("blunder_cost", ["--scenario", "1", "--workers", "two"], "argument --workers: 'two' is not a whole number"),
    ("ai_strength", ["--scenarios", "1", "--games", "-1"], "argument --games: -1 is below 1"),
    # --scenario: a shipped number or a scenario file, anything else named; another system's file
    # measures only --variant, in its own settings
    ("blunder_cost", ["--scenario", "9", "--games", "1"], "no shipped scenario 9"),
    # Red Flags and the 20 mm rules have kinds of their own: an Iron Cross kind is unknown there,
    # named with the known ones
    ("blunder_cost", ["--scenario", str(RF), "--kinds", "poor_target"],
     "unknown kind(s) poor_target; known: hit_together, dug_in_left, objective_abandoned"),
    ("blunder_cost", ["--scenario", str(TM), "--kinds", "poor_target", "--variant", "cover=1"],
     "unknown kind(s) poor_target; known: hidden_revealed_by_own_move, objective_abandoned"),
    ("blunder_cost", ["--scenario", str(RF), "--variant", "fire_threshold=0.1"], "unknown setting 'fire_threshold'"),
    ("blunder_cost", ["--scenario", "1", "--variant", " "], "--variant: empty"),
    ("blunder_cost", ["--scenario", "no/such.json", "--games", "1"], "no/such.json"),
])
def test_bad_settings_are_refused_before_any_game(monkeypatch, capsys, script, argv, words):
    mod = strength if script == "ai_strength" else load_script(script)
    calls = []
    monkeypatch.setattr(mod, "run_batch", _fake_batch(calls))
    with pytest.raises(SystemExit) as e:
        mod.main(argv)
    assert e.value.code == 2
    assert calls == []
    assert words in capsys.readouterr().err


def test_blunder_cost_takes_a_designers_scenario_file():
    cost = load_script("blunder_cost")
    root = Path(__file__).resolve().parents[2]
    f = root / "scenarios" / "data" / "scenario_3_closing_the_ring.json"
    shipped = {3: f}
    assert cost._scenario(None, "3", shipped)[:2] == (str(f), "Scenario 3")
    assert cost._scenario(None, str(f), shipped)[:2] == (str(f), "scenario_3_closing_the_ring.json")


def test_blunder_cost_measures_a_settings_variant_of_another_rule_systems_heuristic(monkeypatch, capsys):
    cost = load_script("blunder_cost")
    calls = []
    monkeypatch.setattr(cost, "run_batch", _fake_batch(calls))
    assert cost.main(["--scenario", str(TM), "--side", "both", "--games", "2", "--workers", "1",
                      "--variant", "hold_objective=2"]) == 0
    stem = "twentymm_1_village_counterattack"
    assert calls == [(stem, {"german": "heuristic", "russian": "heuristic"}),
                     (stem, {"german": "heuristic:hold_objective=2", "russian": "heuristic"}),
                     (stem, {"german": "heuristic", "russian": "heuristic:hold_objective=2"})]
    out = capsys.readouterr().out
    assert "variant hold_objective=2: german wins" in out and "variant hold_objective=2: russian wins" in out
    # the 20 mm kinds before and after the variant, and no Iron Cross "no finish" count
    assert "russian blunders a game, default -> variant: hidden_revealed_by_own_move 0.00 -> 0.00" in out
    assert "enemy units there" not in out and "kind " not in out
    # Red Flags reports its own kinds: a variant's blunder table names them
    calls.clear()
    assert cost.main(["--scenario", str(RF), "--side", "german", "--games", "2", "--workers", "1",
                      "--variant", "hold_objective=2"]) == 0
    out = capsys.readouterr().out
    assert "german blunders a game, default -> variant: hit_together 0.00 -> 0.00; dug_in_left" in out
    assert "enemy units there" not in out


def test_blunder_cost_plays_one_default_batch_for_both_sides_and_skips_kinds_never_committed(monkeypatch, capsys):
    """``--side both``: the default batch is played once and each side's variant against it (the
    other side unchanged); a kind the default never commits is not played (nothing to avoid)."""
    cost = load_script("blunder_cost")
    calls = []

    def run_batch(path, games, seed, ai, workers=1):
        calls.append(dict(ai))
        default = all(p == "heuristic" for p in ai.values())
        # the defaults burn out one German MG a game and commit nothing else
        return [GameResult(i, seed + i, "russian", 7, actions=10,
                           blunders={"german": {"intensive_fire_burnout": [{"turn": 1}]} if default else {}})
                for i in range(games)]
    monkeypatch.setattr(cost, "run_batch", run_batch)
    assert cost.main(["--scenario", "1", "--side", "both", "--games", "2", "--workers", "1",
                      "--kinds", "intensive_fire_burnout,poor_target"]) == 0
    assert calls == [{"german": "heuristic", "russian": "heuristic"},
                     {"german": "heuristic:intensive_fire_cost=1000.0", "russian": "heuristic"}]
    out = capsys.readouterr().out
    assert "default: german wins 0/2" in out and "default: russian wins 2/2" in out
    assert out.count("not played: never committed") == 3  # poor_target twice, the Russian's burnouts


def test_every_blunder_kind_has_a_variant_of_valid_settings_that_avoids_it():
    """blunder_cost.py measures each kind of the blunder report by a settings variant: one for every
    kind, each a valid settings text (``halted_in_open_under_mg``: ``open_stack_caution``, which prices
    that very situation in the planner, not a blanket ``self_preservation``)."""
    from core.ironcross.ai.settings import parse_settings
    from core.ironcross.blunders import KINDS

    cost = load_script("blunder_cost")
    assert set(cost.VARIANTS) == set(KINDS)
    for kind, text in cost.VARIANTS.items():
        assert parse_settings(text) != parse_settings(""), kind
    assert parse_settings(cost.VARIANTS["halted_in_open_under_mg"]).open_stack_caution > 0


def test_blunder_cost_of_a_system_without_blunder_kinds_measures_variants_only(monkeypatch, capsys):
    """A rule system whose kinds have no avoiding variants (a new one) takes --variant only."""
    cost = load_script("blunder_cost")
    monkeypatch.setattr(cost, "SYSTEM_VARIANTS", {k: v for k, v in cost.SYSTEM_VARIANTS.items() if k != "twentymm"})
    with pytest.raises(SystemExit):
        cost.main(["--scenario", str(TM), "--games", "1"])
    assert "--variant SETTINGS is needed for a 20 mm" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cost.main(["--scenario", str(TM), "--kinds", "objective_abandoned", "--variant", "cover=1"])
    assert "has no blunder kinds with variants" in capsys.readouterr().err
