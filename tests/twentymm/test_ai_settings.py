"""The 20 mm heuristic's behaviour settings (core/twentymm/ai_settings.py): parsing and validation,
one small situation per setting showing the term it moves, and the rule system offering them to
``ironcross tune`` and the robust verdict."""

from __future__ import annotations

import pytest

from core.behaviour_settings import SettingsError, parse_settings
from core.twentymm.actions import Assault, EndTurn, Move
from core.twentymm.ai_settings import SEARCH_SPACE, TwentyMMSettings
from core.twentymm.players import HeuristicPlayer, canonical_settings, make_player
from core.twentymm.system import SYSTEM
from tests.twentymm.helpers import game, gun, inf, veh

OBJ = [{"name": "house", "point": [50.0, 40.0], "radius": 4.0}]


def _p(**settings) -> HeuristicPlayer:
    return HeuristicPlayer(1, TwentyMMSettings(**settings))


def test_the_defaults_are_the_heuristics_constants_and_the_search_space_lies_within_the_ranges():
    s = TwentyMMSettings()
    assert (s.hold_objective, s.vehicle_caution, s.hidden_discipline, s.act_threshold) == (1.0, 0.5, 0.8, 0.05)
    # the attacker's advance, cover and assault odds: measured in paired games (docs/ai.md)
    assert (s.aggression, s.cover, s.assault_ratio) == (2.5, 0.125, 1.25)
    # the defender's: its cover (1 a step) and counter-assault odds (3.125) measured, its pull the
    # original one, exactly (binary floating point)
    assert (s.aggression * s.defend_aggression, s.cover * s.defend_cover, s.assault_ratio * s.defend_assault_ratio) \
        == (1.0, 1.0, 3.125)
    for name, (lo, hi, _log) in SEARCH_SPACE.items():
        f = TwentyMMSettings.model_fields[name]
        lo_f = next(m.ge for m in f.metadata if getattr(m, "ge", None) is not None)
        hi_f = next(m.le for m in f.metadata if getattr(m, "le", None) is not None)
        assert lo_f <= lo < hi <= hi_f and lo <= f.default <= hi, name


def test_settings_are_checked_with_the_setting_and_its_range_named():
    assert canonical_settings("heuristic:assault_ratio=1.25") == "heuristic"  # the default
    assert canonical_settings("heuristic:cover=0.50") == "heuristic:cover=0.5"
    with pytest.raises(SettingsError, match=r"unknown setting 'charge_cost'; known: aggression, "):
        parse_settings(TwentyMMSettings, "charge_cost=1")  # a Red Flags setting: not this heuristic's
    with pytest.raises(SettingsError, match=r"setting 'assault_ratio' = 0.2: .*\(allowed 0.5 to 4\)"):
        parse_settings(TwentyMMSettings, "assault_ratio=0.2")
    with pytest.raises(ValueError, match="unknown 20 mm player 'clever'"):
        make_player("clever", 1)
    with pytest.raises(ValueError, match="'random' takes no settings"):
        make_player("random:cover=1", 1)
    assert make_player("heuristic:cover=1", 1).settings.cover == 1.0


def test_aggression_and_defend_aggression_scale_the_pull_of_the_objectives():
    # an attacking German section 20 inches from the objective steps 4 inches toward it
    g = game([inf("G", "german", (50.0, 60.0)), inf("R", "russian", (90.0, 10.0))], objectives=OBJ)
    step = Move("G", ((50.0, 56.0),))
    base = _p(aggression=1.0).move_value(g, "german", step)
    assert base == pytest.approx(4 * 0.12)
    assert _p().move_value(g, "german", step) == pytest.approx(2.5 * base)  # the default: 2.5
    assert _p(aggression=2.0).move_value(g, "german", step) == pytest.approx(2 * base)
    assert _p(aggression=1.0, defend_aggression=3.0).move_value(g, "german", step) == pytest.approx(base)  # the attacker's
    # the Russian defender 20 inches away: 0.04 an inch, times aggression x defend_aggression
    g = game([inf("G", "german", (90.0, 10.0)), inf("R", "russian", (50.0, 60.0))], objectives=OBJ)
    step = Move("R", ((50.0, 56.0),))
    base = _p().move_value(g, "russian", step)
    assert base == pytest.approx(4 * 0.04)
    assert _p(aggression=2.0, defend_aggression=1.5).move_value(g, "russian", step) == pytest.approx(3 * base)


def test_hold_objective_is_what_a_defender_pays_to_step_away_from_it():
    g = game([inf("G", "german", (90.0, 10.0)), inf("R", "russian", (50.0, 44.0))], objectives=OBJ)
    away = Move("R", ((50.0, 48.0),))
    assert _p().move_value(g, "russian", away) == pytest.approx(-1.0)
    assert _p(hold_objective=2.5).move_value(g, "russian", away) == pytest.approx(-2.5)


def test_cover_and_hidden_discipline_price_where_a_move_ends(monkeypatch):
    g = game([inf("G", "german", (50.0, 60.0), hidden=True), inf("R", "russian", (90.0, 10.0))])
    covered = {(60.0, 60.0): "hard"}
    monkeypatch.setattr(g, "ground_cover", lambda p: covered.get(tuple(p)))
    into_cover, into_open = Move("G", ((60.0, 60.0),)), Move("G", ((40.0, 60.0),))
    assert _p().move_value(g, "german", into_cover) == pytest.approx(2 * 0.125)  # none -> hard: two steps
    assert _p(cover=1.0).move_value(g, "german", into_cover) == pytest.approx(2.0)
    assert _p().move_value(g, "german", into_open) == pytest.approx(-0.8)  # a hidden unit in the open
    assert _p(hidden_discipline=0.0).move_value(g, "german", into_open) == pytest.approx(0.0)
    # the defender (the Russian here) weighs cover defend_cover times: 8 x 0.125 = 1 a step
    g = game([inf("G", "german", (90.0, 10.0)), inf("R", "russian", (50.0, 60.0))])
    monkeypatch.setattr(g, "ground_cover", lambda p: covered.get(tuple(p)))
    into_cover = Move("R", ((60.0, 60.0),))
    assert _p().move_value(g, "russian", into_cover) == pytest.approx(2.0)
    assert _p(defend_cover=1.0).move_value(g, "russian", into_cover) == pytest.approx(0.25)
    assert _p(cover=0.5).move_value(g, "russian", into_cover) == pytest.approx(8.0)


def test_vehicle_caution_is_paid_per_known_antitank_weapon_near_the_end_of_a_move():
    g = game([veh("T", "german", (50.0, 60.0)), gun("P", "russian", (50.0, 45.0), "Soviet 45mm ATG"),
              inf("R", "russian", (56.0, 45.0), at_rifle=1)])
    near = Move("T", ((50.0, 52.0),))  # within 10 inches of both
    assert _p().move_value(g, "german", near) == pytest.approx(-2 * 0.5)
    assert _p(vehicle_caution=1.5).move_value(g, "german", near) == pytest.approx(-3.0)


def test_assault_ratio_is_the_dice_a_unit_needs_over_the_defenders():
    # 12 rifle-armed men (3 dice) against 8 (2 dice): 1.5 times theirs, enough at the default
    g = game([inf("G", "german", (50.0, 50.0), men=12), inf("R", "russian", (50.0, 52.0), men=8)])
    a = Assault("G", "R")
    assert _p().assault_value(g, a) == pytest.approx(1.5 + 8)
    assert _p(assault_ratio=2.0).assault_value(g, a) == 0.0
    # the defender's counter-assault takes its own odds: assault_ratio x defend_assault_ratio
    g = game([inf("G", "german", (50.0, 50.0), men=12), inf("R", "russian", (50.0, 52.0), men=8)],
             objectives=OBJ)  # the German attacks; the Russian defends
    assert g.setup.attacker == "german"
    r = Assault("R", "G")  # 8 men (2 dice) against 12 (3 dice)
    assert _p().assault_value(g, r) == 0.0  # 2 < 3 x 1.25 x 2.5
    assert _p(assault_ratio=0.5, defend_assault_ratio=1.0).assault_value(g, r) == pytest.approx(1.5 + 12)  # 2 >= 3 x 0.5
    assert _p(assault_ratio=0.5).assault_value(g, r) == 0.0  # 2 < 3 x 0.5 x 2.5
    assert _p(assault_ratio=0.5, defend_assault_ratio=2.0).assault_value(g, r) == 0.0  # 2 < 3 x 1
    assert _p(defend_assault_ratio=0.25).assault_value(g, a) == pytest.approx(1.5 + 8)  # the attacker's own
    assert _p(assault_ratio=2.0, defend_assault_ratio=0.5).assault_value(g, a) == 0.0


def test_act_threshold_is_what_an_action_must_score_before_the_turn_ends():
    g = game([inf("G", "german", (50.0, 60.0)), inf("R", "russian", (90.0, 10.0))], objectives=OBJ)
    step = Move("G", ((50.0, 56.0),))  # scores 4 x 0.12 x 2.5 = 1.2 (and a tie-breaker below 0.001)
    view = SYSTEM.view(g, "german")
    assert _p().choose(view, "german", [EndTurn(), step]) == step
    assert _p(act_threshold=1.1).choose(view, "german", [EndTurn(), step]) == step
    assert isinstance(_p(act_threshold=1.3).choose(view, "german", [EndTurn(), step]), EndTurn)


def test_the_rule_system_offers_the_settings_to_tune_and_the_robust_verdict():
    space, defaults = SYSTEM.settings_space("heuristic")
    assert space == SEARCH_SPACE and defaults == TwentyMMSettings().model_dump()
    with pytest.raises(KeyError):
        SYSTEM.settings_space("random")
    assert SYSTEM.player_settings("heuristic:aggression=2") == "heuristic:aggression=2.0"
    players = SYSTEM.make_players(None, {"german": "heuristic:cover=1", "russian": "random"}, 3)
    assert players["german"].settings.cover == 1.0 and players["russian"].name == "random"
