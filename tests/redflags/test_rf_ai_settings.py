"""The Red Flags heuristic's behaviour settings (core/redflags/ai_settings.py): parsing and
validation, one small situation per setting showing the term it moves, and the settings reaching
``ironcross tune`` through the rule system."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from core.behaviour_settings import SettingsError, parse_settings
from core.redflags.actions import EndActivation
from core.redflags.ai_settings import SEARCH_SPACE, RedFlagsSettings
from core.redflags.players import HeuristicPlayer, canonical_settings, make_player
from core.redflags.system import SYSTEM
from core.redflags.view import PlayerView
from tests.redflags.helpers import SHIPPED, make_game, unit
from tests.scenario_copies import scenario_copy

RIFLES = "ger_schuetzengruppe"
ENEMY_RIFLES = "sov_rifle_section"


def _primed(game, side: str, **settings) -> tuple[HeuristicPlayer, PlayerView]:
    """A heuristic of ``settings`` that has looked at ``game`` as ``side`` (its view, friends and
    enemies set as a choice sets them)."""
    p = HeuristicPlayer(1, RedFlagsSettings(**settings))
    v = PlayerView(game, side)
    p.choose(v, side, [EndActivation()])
    return p, v


def _game(tmp_path, places=None, **kw):
    german = [("A", "A-spades", [unit("G", RIFLES), unit("H", RIFLES)])]
    russian = [("R", "K-hearts", [unit("R1", ENEMY_RIFLES)])]
    return make_game(tmp_path, german, russian, places or {"G": "3610", "H": "3003", "R1": "3614"}, **kw)


def test_the_defaults_are_the_heuristics_constants_and_every_searched_setting_is_a_field():
    s = RedFlagsSettings()
    assert (s.hold_objective, s.self_preservation, s.dug_in_stay, s.fire_position) == (1.0,) * 4
    # the attacker's clock at 2.5 times the old weight (measured); the defender holding its ground
    # (measured): a pull of 0.275 instead of 1, cover 0.048, firing positions 0.3, fire feared 0.42
    assert (s.aggression, s.defend_aggression) == (2.5, 0.11)
    assert (s.defend_cover, s.defend_fire_position, s.defend_self_preservation) == (0.08, 0.3, 0.42)
    # the defender sets up about one combat unit a hex (measured): 0.5 x 8 a unit already placed
    assert (s.defend_crowd_cost, s.defend_setup_crowd_cost) == (1.0, 8.0)
    assert (s.cover, s.crowd_cost, s.return_fire_caution, s.charge_cost, s.air_attack_threshold) == \
        (0.6, 0.4, 0.7, 0.6, 0.3)
    for name, (lo, hi, _log) in SEARCH_SPACE.items():
        f = RedFlagsSettings.model_fields[name]
        lo_f = next(m.ge for m in f.metadata if getattr(m, "ge", None) is not None)
        hi_f = next(m.le for m in f.metadata if getattr(m, "le", None) is not None)
        assert lo_f <= lo < hi <= hi_f and lo <= f.default <= hi, name


def test_settings_texts_and_files_are_checked_with_the_setting_and_its_range_named(tmp_path):
    assert parse_settings(RedFlagsSettings, "aggression=2,cover=1").aggression == 2.0
    assert canonical_settings("heuristic:aggression=2.5") == "heuristic"  # the defaults: no settings
    assert canonical_settings("heuristic:cover=1.20") == "heuristic:cover=1.2"
    with pytest.raises(SettingsError, match=r"unknown setting 'fire_threshold'; known: aggression, "):
        parse_settings(RedFlagsSettings, "fire_threshold=0.1")  # an Iron Cross setting: not this heuristic's
    with pytest.raises(SettingsError, match=r"setting 'cover' = 9: .*\(allowed 0 to 4\)"):
        parse_settings(RedFlagsSettings, "cover=9")
    with pytest.raises(SettingsError, match="not a finite number"):
        parse_settings(RedFlagsSettings, "aggression=nan")
    with pytest.raises(ValueError, match="'random' takes no settings"):
        canonical_settings("random:cover=1")
    tuned = tmp_path / "tuned.json"
    tuned.write_text(json.dumps({"player": "heuristic", "side": "russian", "settings": {"hold_objective": 2.5},
                                 "provenance": "tuned"}))
    assert canonical_settings(f"heuristic:@{tuned}") == "heuristic:hold_objective=2.5"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"settings": {"cover": -1}}))
    with pytest.raises(SettingsError, match=rf"{bad.name}: setting 'cover' = -1"):
        canonical_settings(f"heuristic:@{bad}")
    assert make_player("heuristic:charge_cost=2", 3).settings.charge_cost == 2.0
    with pytest.raises(KeyError, match="unknown Red Flags player 'clever'"):
        make_player("clever:cover=1", 3)


def test_aggression_scales_the_pull_of_the_objectives_by_posture(tmp_path):
    # the scenario's objective 3717 is German-held at the start: the Russian attacks, the German defends
    g = _game(tmp_path)
    late = 1 / 6  # Game Turn 1 of 6: the attacker's clock 0.6 + 1.2 x late^2 a hex
    for side, who, per_hex in (("russian", "R1", (0.6 + 1.2 * late * late) * 2.5), ("german", "G", 0.35 * 0.275)):
        base, v = _primed(g, side)
        u = v.unit(who)
        far = base.objective_term(u, "3003")  # off the objectives: the distance term alone
        d = min(v.distance("3003", o) for o in v.objectives)
        assert far == pytest.approx(-per_hex * d)
        assert _primed(g, side, aggression=5.0)[0].objective_term(u, "3003") == pytest.approx(2 * far)
        assert _primed(g, side, aggression=0.0)[0].objective_term(u, "3003") == 0.0
        d2 = _primed(g, side, defend_aggression=0.22)[0].objective_term(u, "3003")
        # only the defender's pull is scaled by defend_aggression
        assert d2 == pytest.approx(2 * far if side == "german" else far)


def test_hold_objective_scales_the_value_of_standing_on_an_objective_hex(tmp_path):
    g = _game(tmp_path)
    for side, who, on in (("russian", "R1", 3.5), ("german", "G", 3.0)):  # 3 (+0.5 attacker); 3 held
        base, v = _primed(g, side)
        u = v.unit(who)
        assert base.objective_term(u, "3717") == pytest.approx(on)
        assert _primed(g, side, hold_objective=2.0)[0].objective_term(u, "3717") == pytest.approx(2 * on)


def test_self_preservation_weighs_the_fire_a_position_invites(tmp_path):
    g = _game(tmp_path)
    base, v = _primed(g, "german")
    u = v.unit("G")
    threat = base.threat(u, "3612")  # two hexes from the Russian rifles in the open
    assert threat > 0
    k = 0.42  # the defender's multiplier (defend_self_preservation)
    careless = _primed(g, "german", self_preservation=0.0)[0]
    assert careless.posval(u, "3612", False) - base.posval(u, "3612", False) == pytest.approx(k * threat)
    wary = _primed(g, "german", self_preservation=3.0)[0]
    assert base.posval(u, "3612", False) - wary.posval(u, "3612", False) == pytest.approx(2 * k * threat)


def test_cover_and_dug_in_stay_are_what_those_hexes_are_worth(tmp_path):
    g = _game(tmp_path, {"G": "3121", "H": "3003", "R1": "4925"}, dug_in=True)  # G in woods, dug in
    base, v = _primed(g, "german")
    u = v.unit("G")
    assert v.terrain.cover("3121") and not v.terrain.cover("3003") and u.dug_in
    other = _primed(g, "german", cover=2.0, dug_in_stay=3.0)[0]
    k = 0.08  # the defender's multiplier of cover (defend_cover)
    assert other.posval(u, "3121", False) - base.posval(u, "3121", False) == pytest.approx(k * (2.0 - 0.6))
    assert other.posval(u, "3121", True) - base.posval(u, "3121", True) == \
        pytest.approx(k * (2.0 - 0.6) + (3.0 - 1.0))
    assert other.posval(u, "3003", False) == pytest.approx(base.posval(u, "3003", False))


def test_crowd_cost_and_fire_position_price_a_move(tmp_path):
    g = _game(tmp_path, {"G": "3003", "H": "3004", "R1": "3614"})
    base, v = _primed(g, "german")
    u = v.unit("G")
    # into the hex of H: one other own unit there
    spread = _primed(g, "german", crowd_cost=1.4)[0]
    assert base.move_score(u, "3004", False) - spread.move_score(u, "3004", False) == pytest.approx(1.0)
    # toward the Russian rifles: a better shot from there than from here (G has not fired)
    gain = base.best_fire_from(u, ("3612",)) - base.best_fire_from(u, ("3003",))
    assert gain > 0
    eager = _primed(g, "german", fire_position=3.0)[0]
    k = 0.3  # the defender's multiplier (defend_fire_position)
    assert eager.move_score(u, "3612", False) - base.move_score(u, "3612", False) == pytest.approx(2 * k * gain)


def test_the_defenders_cover_fire_position_and_self_preservation_are_scaled_by_its_own_multipliers(tmp_path):
    # the German holds the objectives at the start (the defender), the Russian attacks
    g = _game(tmp_path, {"G": "3121", "H": "3003", "R1": "3614"})
    for side, who in (("german", "G"), ("russian", "R1")):
        # the multipliers at 1 (the defender plays the attacker's weights) against other values
        base, v = _primed(g, side, defend_cover=1.0, defend_fire_position=1.0, defend_self_preservation=1.0)
        u = v.unit(who)
        scaled = _primed(g, side, defend_cover=0.5, defend_fire_position=0.25, defend_self_preservation=2.0)[0]
        defender = side == "german"
        assert base.posture_setting("cover") == 0.6 and base.posture_setting("fire_position") == 1.0
        assert scaled.posture_setting("cover") == pytest.approx(0.3 if defender else 0.6)
        assert scaled.posture_setting("fire_position") == pytest.approx(0.25 if defender else 1.0)
        assert scaled.posture_setting("self_preservation") == pytest.approx(2.0 if defender else 1.0)
        # what a position is worth moves with them: the cover of the woods hex 3121 (out of the
        # Russians' reach), the fire the open hex 3612 invites (two hexes from them)
        assert v.terrain.cover("3121") and not v.terrain.cover("3612")
        assert base.threat(u, "3612") > 0 or not defender
        assert scaled.posval(u, "3121", False) - base.posval(u, "3121", False) == \
            pytest.approx(-0.3 if defender else 0.0)
        assert scaled.posval(u, "3612", False) - base.posval(u, "3612", False) == \
            pytest.approx(-base.threat(u, "3612") if defender else 0.0)


def test_setup_crowd_cost_prices_a_set_up_hex_per_own_unit_placed_in_it(tmp_path):
    g = _game(tmp_path, {"G": "3003", "H": "3004", "R1": "3614"})
    base, v = _primed(g, "german")
    u = v.unit("G")
    assert base.settings.setup_crowd_cost == 0.5
    spread = _primed(g, "german", setup_crowd_cost=2.0)[0]
    k = 8.0  # the defender's multiplier (defend_setup_crowd_cost)
    # H stands in 3004: one own unit there; 3005 holds none
    assert base.place_score(u, "3004") - spread.place_score(u, "3004") == pytest.approx(k * 1.5)
    assert base.place_score(u, "3005") == pytest.approx(spread.place_score(u, "3005"))


def test_the_defenders_crowd_costs_are_scaled_by_its_own_multipliers(tmp_path):
    # the German holds the objectives at the start (the defender), the Russian attacks; each side has
    # one other unit beside its mover (H in 3004 for G; R2 in 3615 for R1)
    german = [("A", "A-spades", [unit("G", RIFLES), unit("H", RIFLES)])]
    russian = [("R", "K-hearts", [unit("R1", ENEMY_RIFLES), unit("R2", ENEMY_RIFLES)])]
    g = make_game(tmp_path, german, russian, {"G": "3003", "H": "3004", "R1": "3614", "R2": "3615"})
    for side, who, friend_hex, empty_hex in (("german", "G", "3004", "3005"), ("russian", "R1", "3615", "3613")):
        base, v = _primed(g, side, defend_crowd_cost=1.0, defend_setup_crowd_cost=1.0)
        u = v.unit(who)
        scaled = _primed(g, side, defend_crowd_cost=3.0, defend_setup_crowd_cost=4.0)[0]
        defender = side == "german"
        assert base.posture_setting("crowd_cost") == 0.4 and base.posture_setting("setup_crowd_cost") == 0.5
        assert scaled.posture_setting("crowd_cost") == pytest.approx(1.2 if defender else 0.4)
        assert scaled.posture_setting("setup_crowd_cost") == pytest.approx(2.0 if defender else 0.5)
        # one own unit in the hex: a move into it pays 0.4 x 3 - 0.4 more, a set-up there 0.5 x 4 - 0.5
        assert base.move_score(u, friend_hex, False) - scaled.move_score(u, friend_hex, False) == \
            pytest.approx(0.8 if defender else 0.0)
        assert base.place_score(u, friend_hex) - scaled.place_score(u, friend_hex) == \
            pytest.approx(1.5 if defender else 0.0)
        # a hex with no own unit costs the same
        assert base.place_score(u, empty_hex) == pytest.approx(scaled.place_score(u, empty_hex))


def test_return_fire_caution_and_charge_cost_price_a_shot(tmp_path):
    g = _game(tmp_path, {"G": "3612", "H": "3003", "R1": "3614"})
    base, v = _primed(g, "german")
    f, t = v.unit("G"), v.unit("R1")
    bold = _primed(g, "german", return_fire_caution=0.0)[0]
    back = bold.fire_score(f, t, "3614", False) - base.fire_score(f, t, "3614", False)
    assert back > 0  # the Russian rifles can shoot back
    shy = _primed(g, "german", return_fire_caution=1.4)[0]
    assert base.fire_score(f, t, "3614", False) - shy.fire_score(f, t, "3614", False) == pytest.approx(back)
    # a shot with special charges pays for them: per charge the unit has (at least one)
    thrifty = _primed(g, "german", charge_cost=1.6)[0]
    paid = base.fire_score(f, t, "3614", True) - thrifty.fire_score(f, t, "3614", True)
    assert paid == pytest.approx(1.0 * max(1, f.charges))


def test_air_attack_threshold_is_the_value_a_run_must_reach(monkeypatch, tmp_path):
    g = _game(tmp_path)
    for threshold, score in ((0.3, 1.5), (0.6, -0.5)):
        p, v = _primed(g, "german", air_attack_threshold=threshold)
        monkeypatch.setattr(p, "_air_plan", lambda u: (0.5, "attack"))
        assert p.air_attack_score(v.unit("G"), True) == pytest.approx(score)


def test_the_rule_system_offers_the_settings_to_tune_and_the_robust_verdict(tmp_path):
    space, defaults = SYSTEM.settings_space("heuristic")
    assert space == SEARCH_SPACE and defaults == RedFlagsSettings().model_dump()
    with pytest.raises(KeyError):
        SYSTEM.settings_space("random")
    assert SYSTEM.player_settings("heuristic:aggression=2") == "heuristic:aggression=2.0"
    from cli.main import cli

    out = tmp_path / "tuned.json"
    short = scenario_copy(tmp_path, SHIPPED, turns=2)  # the command's working, not a long game
    res = CliRunner().invoke(cli, ["tune", str(short), "--side", "russian", "--trials", "2", "--games", "1",
                                   "--check-games", "1", "--workers", "1", "--seed", "3", "-o", str(out)])
    assert res.exit_code == 0, res.output
    doc = json.loads(out.read_text())
    assert doc["side"] == "russian" and doc["player"] == "heuristic"
    assert set(doc["settings"]) <= set(SEARCH_SPACE)
    # the file it wrote is a settings file of this system's heuristic
    assert canonical_settings(f"heuristic:@{out}").startswith("heuristic")
