"""Sequence of play (6.0 A-H): phase order, who decides, game turns, the first player, the end."""

from __future__ import annotations

import pytest

from core.ironcross.actions import EndPhase, IllegalAction, SetState
from core.ironcross.state import Morale, Phase
from tests.core.engine_fixtures import inf, small_game
from tests.core.engine_helpers import advance_to, events

ORDER = ["morale", "support_fire", "movement", "reaction_movement", "defensive_fire", "moving_fire", "assault",
         "free_state_change"]


def _play_out(g):
    deciders = []
    while not g.is_terminal():
        deciders.append((g.state.player_turn, g.state.phase.value, g._sub, g.current_side()))
        g.apply(EndPhase())
    return deciders


def test_6_0_phases_A_to_H_in_order_each_player_turn():
    g = small_game([inf("G1", "german"), inf("R1", "russian")], {"G1": "1505", "R1": "1510"}, length=2)
    _play_out(g)
    by_pt: dict[int, list[str]] = {}
    for e in events(g, "phase"):
        if e["phase"] != "game_over":
            by_pt.setdefault(e["player_turn"], []).append(e["phase"])
    assert sorted(by_pt) == [1, 2, 3, 4]
    for pt, phases in by_pt.items():
        assert phases == ORDER, pt


def test_6_0_game_turns_first_player_and_end_of_game():
    g = small_game([inf("G1", "german"), inf("R1", "russian")], {"G1": "1505", "R1": "1510"}, length=2,
                   first_side="russian", victory=lambda st, game: ("russian", {"why": "test"}))
    _play_out(g)
    pts = [(e["game_turn"], e["phasing"]) for e in events(g, "player_turn")]
    assert pts == [(1, "russian"), (1, "german"), (2, "russian"), (2, "german")]
    assert g.is_terminal() and g.state.outcome == "russian" and g.current_side() is None
    assert events(g, "game_over")[0]["details"] == {"why": "test"}
    assert g.legal_actions() == [] and g.legal_actions("german") == []
    with pytest.raises(IllegalAction):
        g.apply(EndPhase())


def test_6_0_no_victory_function_is_a_draw():
    g = small_game([inf("G1", "german"), inf("R1", "russian")], {"G1": "1505", "R1": "1510"}, length=1)
    _play_out(g)
    assert g.state.outcome == "draw"


def test_6_0_who_decides_in_each_phase_and_both_players_in_G_and_H():
    g = small_game([inf("G1", "german"), inf("R1", "russian")], {"G1": "1505", "R1": "1506"}, length=1)
    d = _play_out(g)
    first = [x for x in d if x[0] == 1]
    sides = {(ph, sub): side for _, ph, sub, side in first}
    assert sides[("support_fire", "")] == "german"
    assert sides[("movement", "")] == "german"
    assert sides[("movement", "assault_designation")] == "german"   # 17.0, 6.0 C
    assert sides[("reaction_movement", "")] == "russian"
    assert sides[("reaction_movement", "assault_designation")] == "russian"  # 6.0 D
    assert sides[("defensive_fire", "")] == "russian"
    assert sides[("moving_fire", "")] == "german"
    # 6.0 H: both players, Phasing Player first
    h = [x[3] for x in first if x[1] == "free_state_change"]
    assert h == ["german", "russian"]


def test_6_0_A_morale_phase_both_players_participate():
    g = small_game([inf("G1", "german"), inf("R1", "russian")], {"G1": "1505", "R1": "1510"})
    for u in ("G1", "R1"):
        g.units[u].morale, g.units[u].down = Morale.PINNED, True
    advance_to(g, Phase.SUPPORT_FIRE, player_turn=2)
    assert g.units["G1"].normal and g.units["R1"].normal
    assert {e["unit"] for e in events(g, "recovered")} == {"G1", "R1"}


def test_6_0_H_free_state_change_no_mp_and_3_13_once_per_unit():
    g = small_game([inf("G1", "german"), inf("G2", "german"), inf("R1", "russian")],
                   {"G1": "1505", "G2": "1505", "R1": "1510"})
    advance_to(g, Phase.FREE_STATE_CHANGE)
    assert g.current_side() == "german"
    assert SetState(("G1",), True) in g.legal_actions()
    with pytest.raises(IllegalAction):
        g.apply(SetState(("R1",), True))  # not the Russian's turn in H yet
    g.apply(SetState(("G1", "G2"), True))
    assert g.units["G1"].down and g.units["G2"].down
    with pytest.raises(IllegalAction) as e:
        g.apply(SetState(("G1",), False))
    assert e.value.rule == "3.13"
    assert not any(isinstance(a, SetState) for a in g.legal_actions())
    g.apply(EndPhase())
    assert g.current_side() == "russian" and g.state.phase is Phase.FREE_STATE_CHANGE
    g.apply(SetState(("R1",), True))
    g.apply(EndPhase())
    assert g.state.player_turn == 2


def test_6_0_C_entering_units_enter_in_their_movement_phase():
    from core.ironcross.actions import Enter, StartMove
    from core.ironcross.setup import Entry
    g = small_game([inf("G1", "german"), inf("R1", "russian")], {"G1": "1505"},
                   entries=[Entry("russian", ["R1"], frozenset(["1512"]), 1)])
    assert g.units["R1"].hex is None
    advance_to(g, Phase.MOVEMENT, player_turn=2)
    assert g.current_side() == "russian"
    g.apply(StartMove(("R1",)))
    g.apply(Enter("1512"))
    assert g.units["R1"].hex == "1512"
    assert g.state.control["1512"] == "russian"
