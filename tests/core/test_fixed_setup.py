"""A designer's fixed set-up passed into playtest games: the placed units start where
he put them, and the game's decisions re-run on the plain scenario (the set-up order is kept)."""

from __future__ import annotations

from pathlib import Path

from core.ironcross.actions import action_from_json
from core.ironcross.game import Game
from core.ironcross.scenario_setup import apply_fixed_setup, load_setup
from core.playtest import _play

S1 = Path(__file__).resolve().parents[2] / "scenarios" / "data" / "scenario_1_demyansk_pocket.json"


def test_fixed_setup_places_units_and_replays_on_the_plain_scenario():
    _sc, st = load_setup(S1, seed=0)
    d = st.deployments[0]
    zone = sorted(d.zone)
    mmg = next(u for u in d.units if st.units[u].is_mg and st.units[u].is_cw)
    fixed = {"units": {d.units[0]: {"hex": zone[0], "facing": None, "down": True},
                       mmg: {"hex": zone[1], "facing": 5, "down": False}}}
    order = [u for dd in st.deployments for u in dd.units]
    narrowed = apply_fixed_setup(load_setup(S1, seed=0)[1], fixed)
    assert [u for dd in narrowed.deployments for u in dd.units] == order      # same set-up order
    assert next(dd for dd in narrowed.deployments if dd.units == [mmg]).zone == frozenset({zone[1]})
    # a unit the scenario lacks is refused, never silently ignored
    import pytest

    from core.ironcross.scenario_setup import SetupError

    with pytest.raises(SetupError, match="no unit no-such-unit"):
        apply_fixed_setup(load_setup(S1, seed=0)[1], {"units": {**fixed["units"], "no-such-unit": {"hex": zone[2]}}})
    res, payload = _play(str(S1), 0, 5, {"german": "random", "russian": "random"}, "basic", (), True, 120, fixed)
    placed = {e["unit"]: e for e in payload["events"] if e["kind"] == "placed"}
    assert (placed[d.units[0]]["hex"], placed[d.units[0]]["down"]) == (zone[0], True)
    assert (placed[mmg]["hex"], placed[mmg]["facing"]) == (zone[1], 5)
    assert payload["header"]["fixed_setup"] == fixed
    # the decisions are legal on the plain scenario and give the same events
    plain = Game(load_setup(S1, seed=5)[1], 5, rules="basic")
    for c in getattr(plain.setup, "choices", []):
        plain._event("pre_game_choice", rule="24.1", text=c)
    for a in payload["header"]["actions"]:
        plain.apply(action_from_json(a))
    n = len(plain.events)
    assert [e["kind"] for e in plain.events] == [e["kind"] for e in payload["events"][:n]]
