"""Scenario detachments (24.1 special options): Scenario 5's EXCEPTION ("Up to 1 squad, 1
commander, 1 CW, 1 AFV may enter the map between hexes 5015 and 5027 (inclusive) on turn 2",
recorded before the Russian set-up) and Scenario 6's SPECIAL ("One squad, one commander, one MMG
and two AFV's from Group 1 may enter on the west mapedge of Map 2 on turn 1, instead of deploying"),
played by :mod:`core.ironcross.detachment` from the scenario data, with no scenario-specific code."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from core.ironcross.actions import Detach, EndSetup, IllegalAction, action_from_json, action_to_json
from core.ironcross.game import Game
from core.ironcross.scenario_setup import load_setup
from core.ironcross.state import Phase
from core.ironcross.view import PlayerView
from core.playtest import play_game

ROOT = Path(__file__).resolve().parents[2]
S5 = ROOT / "scenarios" / "data" / "scenario_5_through_the_marshes.json"
S6 = ROOT / "scenarios" / "data" / "scenario_6_spartakovka.json"

SQUAD_A = tuple(f"G-A-{i}" for i in range(1, 11))
SQUAD_B = tuple(f"G-B-{i}" for i in range(1, 11))
S5_EDGE = {f"50{r:02d}" for r in range(15, 28)}   # 5015-5027 inclusive (the errata's hexes)


def _game(path, seed: int = 1) -> Game:
    _sc, setup = load_setup(path, seed=seed)
    return Game(setup, seed)


def _passive(g: Game, until, limit: int = 5000) -> list[str]:
    """Decline everything (EndSetup, EndPhase, Pass) until ``until(g)``; the kinds offered."""
    seen: list[str] = []
    for _ in range(limit):
        if until(g):
            return seen
        acts = g.legal_actions()
        seen.extend(a.kind for a in acts)
        g.apply(next(a for a in acts if a.kind in ("end_setup", "end_phase", "pass", "stop_move")))
    raise AssertionError("never reached")


def _german_movement(turn: int):
    return lambda g: (g.state.phase is Phase.MOVEMENT and g.state.phasing == "german" and g.state.turn == turn
                      and g.moving is None and g.current_side() == "german")


def _picks(g: Game) -> set[tuple[str, ...]]:
    return {a.units for a in g.legal_actions() if a.kind == "detach"}


# --------------------------------------------------------------------------- when, to whom

def test_24_8_s5_exception_offered_to_the_german_before_the_russian_set_up_and_only_then():
    g = _game(S5)
    assert g.state.phase is Phase.SETUP and g.current_side() == "german"
    assert g.legal_actions("russian") == []
    assert not any(u.on_map for u in g.units.values())          # nobody has set up yet
    picks = _picks(g)
    # a squad is one pick, whole (all its men in the group); each commander, CW and AFV is one
    assert {SQUAD_A, SQUAD_B, tuple(f"G-C-{i}" for i in range(1, 11))} <= picks
    assert {("G-PL-1",), ("G-PS-1",), ("G-MMG-1",), ("G-Mor-1",), ("G-ATR-1",), ("G-IId-1",), ("G-IIIe-2",)} <= picks
    assert len(picks) == 12 and g.legal_actions()[-1] == EndSetup()   # "up to": none is allowed
    gv, rv = PlayerView(g, "german"), PlayerView(g, "russian")
    assert gv.setup_item()[0] == "detachment"
    d = gv.detachment()
    assert d["name"] == "EXCEPTION" and d["record_before"] == "enemy_setup"
    assert d["entry"] == {"hexes": sorted(S5_EDGE), "turn": 2, "phase": "movement"}
    assert d["group_start"]["turn"] == 1 and "5527" in d["group_start"]["hexes"]
    assert rv.detachment() is None and rv.setup_item() is None
    g.apply(Detach("EXCEPTION", SQUAD_A))
    g.apply(EndSetup())
    assert g.current_side() == "russian" and g._setup_queue[0][1] == "unit"
    # offered once: never again in the set-up nor in the game
    kinds = _passive(g, lambda x: x.state.turn == 3)
    assert "detach" not in kinds and "place" in kinds


def test_24_9_s6_special_offered_at_the_german_set_up_after_the_russian_one():
    g = _game(S6)
    assert g.current_side() == "russian"     # "Russian player sets up first"
    assert not _picks(g)
    _passive(g, lambda x: x.current_side() == "german")
    assert all(u.hex is None for u in g.units.values() if u.side == "german")
    assert g._setup_queue[0] == ("german", "detachment", 0)   # before Group 1 deploys ("instead of deploying")
    picks = _picks(g)
    assert {("G-MMG-1",), ("G-MMG-2",), ("G-PL-1",), ("G-PS-1",), ("G-IId-1",), ("G-IIIe-1",)} <= picks
    assert ("G-50AT-1",) not in picks                            # one MMG: no other CW
    assert not any(u.startswith(("G-E-", "G-Stug", "G-IIIj")) for p in picks for u in p)   # Group 1 only
    assert PlayerView(g, "german").detachment()["record_before"] == "game"


# --------------------------------------------------------------------------- limits

def test_24_8_second_squad_or_part_of_a_squad_refused():
    g = _game(S5)
    g.apply(Detach("EXCEPTION", SQUAD_A))
    n = len(g.events)
    with pytest.raises(IllegalAction) as e:
        g.apply(Detach("EXCEPTION", SQUAD_B))
    assert e.value.rule == "24.1" and "at most 1 squad" in str(e.value)
    with pytest.raises(IllegalAction) as e:
        g.apply(Detach("EXCEPTION", ("G-C-1", "G-C-2")))
    assert "detached whole" in str(e.value)
    with pytest.raises(IllegalAction):
        g.apply(Detach("SPECIAL", ("G-PL-1",)))                 # not this scenario's detachment
    assert len(g.events) == n and g.current_side() == "german"  # nothing changed
    assert not any(SQUAD_B[0] in p or "G-C-1" in p for p in _picks(g))   # the squad limit is full


def test_24_9_non_mmg_cw_third_afv_and_other_groups_refused():
    g = _game(S6)
    _passive(g, lambda x: x.current_side() == "german")
    n = len(g.events)
    with pytest.raises(IllegalAction) as e:
        g.apply(Detach("SPECIAL", ("G-50AT-1",)))
    assert e.value.rule == "24.1" and "only MMG" in str(e.value)
    with pytest.raises(IllegalAction) as e:
        g.apply(Detach("SPECIAL", ("G-IIIj-1",)))
    assert "not a unit of 'Group 1'" in str(e.value)
    assert len(g.events) == n
    g.apply(Detach("SPECIAL", ("G-IIIe-1",)))
    g.apply(Detach("SPECIAL", ("G-IIIe-2",)))
    with pytest.raises(IllegalAction) as e:
        g.apply(Detach("SPECIAL", ("G-IId-1",)))
    assert "at most 2 afv" in str(e.value)
    g.apply(Detach("SPECIAL", ("G-MMG-2",)))
    g.apply(Detach("SPECIAL", ("G-PS-1",)))
    assert _picks(g) == {SQUAD_A, SQUAD_B, tuple(f"G-C-{i}" for i in range(1, 11))}
    g.apply(Detach("SPECIAL", SQUAD_B))   # every limit full: the choice closes by itself
    det = [e for e in g.events if e["kind"] == "detachment"]
    assert det and det[0]["units"] == ["G-IIIe-1", "G-IIIe-2", "G-MMG-2", "G-PS-1", *SQUAD_B] and det[0]["secret"]
    # Group 1 deploys without them ("instead of deploying as in 2 above")
    placed = set()
    while g.state.phase is Phase.SETUP and g.current_side() == "german":
        acts = g.legal_actions()
        placed |= {a.unit for a in acts if a.kind == "place"}
        g.apply(acts[-1])   # EndSetup
    assert "G-MMG-1" in placed and "G-IIIe-1" not in placed and not placed & set(SQUAD_B)


# --------------------------------------------------------------------------- entering

def test_24_8_chosen_units_enter_by_the_detachment_on_its_turn_not_by_the_group():
    g = _game(S5)
    for p in (SQUAD_A, ("G-PL-1",), ("G-MMG-1",), ("G-IIIe-1",)):
        g.apply(Detach("EXCEPTION", p))
    g.apply(EndSetup())
    chosen = set(SQUAD_A) | {"G-PL-1", "G-MMG-1", "G-IIIe-1"}
    assert {u.id for u in g.units.values() if u.side == "german" and not u.entered} >= chosen
    _passive(g, _german_movement(1))
    movers = {u for a in g.legal_actions() if a.kind == "start_move" for u in a.units}
    assert not movers & chosen and {"G-B-1", "G-PS-1", "G-IIIe-2"} <= movers   # turn 1: the main body only
    g.apply(next(a for a in g.legal_actions() if a.kind == "start_move" and a.units == ("G-B-1",)))
    assert {a.hex for a in g.legal_actions() if a.kind == "enter"} <= {f"{c}27" for c in range(50, 71)}
    g.apply(next(a for a in g.legal_actions() if a.kind == "stop_move"))
    _passive(g, _german_movement(2))
    movers = {u for a in g.legal_actions() if a.kind == "start_move" for u in a.units}
    assert chosen <= movers and "G-B-2" in movers   # turn 2: the detachment; the main body still may (24.1)
    g.apply(next(a for a in g.legal_actions() if a.kind == "start_move" and a.units == ("G-IIIe-1",)))
    enter = {a.hex for a in g.legal_actions() if a.kind == "enter"}
    assert enter and enter <= S5_EDGE and "5127" not in enter and "5027" in enter
    g.apply(next(a for a in g.legal_actions() if a.kind == "enter" and a.hex == "5020"))
    assert g.units["G-IIIe-1"].hex == "5020" and g.units["G-IIIe-1"].entered


def test_24_8_none_chosen_is_normal_play():
    g = _game(S5)
    g.apply(EndSetup())
    (det,) = [e for e in g.events if e["kind"] == "detachment"]
    assert det["units"] == []
    _sc, setup = load_setup(S5, seed=1)
    setup.detachments = []                 # the same scenario without the option
    plain = Game(setup, 1)
    assert plain.current_side() == "russian"
    for x in (g, plain):
        _passive(x, _german_movement(1))
    assert g.legal_actions() == plain.legal_actions()
    assert g.state.snapshot() == plain.state.snapshot()
    assert all(g._entry_of[u] is g._entry_of["G-A-1"] for u in g.units if u.startswith("G-"))


# --------------------------------------------------------------------------- secret

def test_24_8_enemy_view_does_not_show_the_choice_before_entry():
    chosen, plain = _game(S5), _game(S5)
    for p in (SQUAD_A, ("G-PL-1",)):
        chosen.apply(Detach("EXCEPTION", p))
    chosen.apply(EndSetup())
    plain.apply(EndSetup())
    for until in (lambda x: True, _german_movement(1), _german_movement(2)):
        for x in (chosen, plain):
            _passive(x, until)
        assert chosen.view("russian") == plain.view("russian")
        rv = PlayerView(chosen, "russian")
        assert rv.entry_of("G-A-1") is None and rv.detachment() is None and not rv.enemy_units()
    # the owner knows: his view says when and where they enter
    gv = PlayerView(chosen, "german")
    assert gv.entry_of("G-A-1").turn == 2 and gv.entry_of("G-A-1").hexes == frozenset(S5_EDGE)
    assert PlayerView(plain, "german").entry_of("G-A-1").turn == 1
    # once they enter, they are seen
    chosen.apply(next(a for a in chosen.legal_actions() if a.kind == "start_move" and a.units == ("G-PL-1",)))
    chosen.apply(next(a for a in chosen.legal_actions() if a.kind == "enter" and a.hex == "5020"))
    assert chosen.view("russian")["units"]["G-PL-1"]["hex"] == "5020"


def test_24_9_enemy_view_of_a_set_up_group_does_not_show_the_choice():
    chosen, plain = _game(S6), _game(S6)
    for x in (chosen, plain):
        _passive(x, lambda y: y.current_side() == "german")
    chosen.apply(Detach("SPECIAL", ("G-IIIe-1",)))
    for x in (chosen, plain):
        _passive(x, lambda y: len(y._setup_queue) == 1)   # Group 1 left off the map (EndSetup), to its last unit
    assert not chosen.units["G-IIIe-1"].entered and plain.units["G-IIIe-1"].entered
    assert chosen.view("russian") == plain.view("russian")   # off the map either way, nothing tells why


# --------------------------------------------------------------------------- actions, replays, players

def test_24_1_detach_round_trips_through_json():
    a = Detach("EXCEPTION", SQUAD_A)
    d = action_to_json(a)
    assert d == {"detachment": "EXCEPTION", "units": list(SQUAD_A), "kind": "detach"}
    assert action_from_json(d) == a


def test_24_8_random_players_complete_s5_with_the_option_and_the_replay_verifies(tmp_path):
    ai = {"german": "random", "russian": "random"}
    r = play_game(str(S5), 0, 4, ai, replay_dir=str(tmp_path))
    assert r.error is None and r.outcome in ("german", "russian", "draw")
    text = Path(r.replay).read_text(encoding="utf-8")
    assert '"kind": "detach"' in text     # the random German used the option in this game
    res = CliRunner().invoke(cli, ["replay", r.replay, "--verify"])
    assert res.exit_code == 0 and "verified" in res.output, res.output


def test_24_8_heuristic_ai_detaches_toward_goals_the_main_body_reaches_late(tmp_path):
    """Scenario 5: the detachment's entry (5015-5027, turn 2) is nearer the western objectives
    than the south edge is to infantry and CWs, not to AFVs (10 MP: the south edge on turn 1 is
    as good); the heuristic German detaches a squad with its commander and plays the game out."""
    ai = {"german": "heuristic", "russian": "heuristic"}
    r = play_game(str(S5), 0, 7, ai, replay_dir=str(tmp_path))
    assert r.error is None and r.outcome in ("german", "russian", "draw")
    import json

    events = [json.loads(x) for x in Path(r.replay).read_text(encoding="utf-8").splitlines()[1:]]
    (det,) = [e for e in events if e["kind"] == "detachment"]
    units = set(det["units"])
    assert any(u.startswith(("G-A-", "G-B-", "G-C-")) for u in units) and units & {"G-PL-1", "G-PS-1"}
    assert not any(u.startswith(("G-IId", "G-IIIe")) for u in units)
    entries = [e for e in events if e["kind"] == "moved" and e.get("frm") is None and set(e["units"]) & units]
    assert entries and all(e["to"] in S5_EDGE and e["turn"] >= 2 for e in entries)


def test_24_9_heuristic_ai_keeps_group_1_together_when_its_zone_is_nearer():
    """Scenario 6: Group 1's set-up zone is nearer every goal than the west edge of Map 2, so no
    pick gains by the detachment; the AI closes the choice (a legal action)."""
    from core.ironcross.ai.detachment import detachment_gains
    from core.ironcross.ai.heuristic import HeuristicPlayer

    g = _game(S6)
    _passive(g, lambda x: x.current_side() == "german")
    ai = HeuristicPlayer(1)
    v = PlayerView(g, "german")
    a = ai.choose(v, "german", g.legal_actions())
    assert a == EndSetup()
    gains = detachment_gains(ai, v, v.detachment())
    assert gains and all(gain < 0 for gain, _kind in gains.values())


def test_24_1_detachment_times_in_the_set_up_order_on_a_hand_made_scenario():
    """``record_before: enemy_setup`` comes before both sides' set-up (here the Russian's, who
    sets up second, before the German's); ``game`` at the start of the side's own set-up (the
    German sets up first: at once after it). A set-up group's unit detached is not set up."""
    from core.ironcross.scenario_setup import build_setup
    from scenarios.model import Scenario
    from tests.mapbuilder import make_map

    edge = {"options": [{"region": {"kind": "map_edge", "direction": "west"}, "turn": 2}]}
    data = {
        "title": "T", "map": {"file": "t.json", "sections": ["All"]}, "north": {"hex": "1002", "points_to": "1001"},
        "turns": 2, "sets_up_first": "german", "moves_first": "german",
        "german": {"groups": [{"name": "G", "oob": [{"text": "PL", "kind": "commander", "type": "PL"},
                                                    {"text": "IIIe #1", "kind": "afv", "type": "IIIe", "numbers": [1]}],
                               "setup": {"region": {"kind": "hexes", "hexes": ["1505", "1506"]}}}],
                   "detachments": [{"name": "D", "from_group": "G", "limits": [{"kind": "afv", "count": 1}],
                                    "entry": edge, "record_before": "game"}]},
        "russian": {"groups": [{"name": "R", "oob": [{"text": "PL PR10", "kind": "commander", "type": "PL", "pr": 10}],
                                "setup": {"region": {"kind": "hexes", "hexes": ["1510"]}}}],
                    "detachments": [{"name": "E", "from_group": "R", "limits": [{"kind": "commander", "count": 1}],
                                     "entry": edge, "record_before": "enemy_setup"}]},
        "victory": {"outcomes": [{"result": "russian", "condition": {
            "kind": "at_least", "side": "russian", "region": {"kind": "hexes", "hexes": ["1510"]}}}],
            "default": "draw"},
    }
    sc = Scenario.model_validate(data)
    setup = build_setup(sc, make_map(cols=(10, 20), rows=(1, 12)))
    g = Game(setup, 1)
    assert [x[:2] for x in g._setup_queue] == [("russian", "detachment"), ("german", "detachment"),
                                               ("german", "unit"), ("german", "unit"), ("russian", "unit")]
    assert g.legal_actions() == [Detach("E", ("R-PL-1",)), EndSetup()]
    g.apply(EndSetup())                                   # the Russian keeps his commander
    assert g.legal_actions() == [Detach("D", ("G-IIIe-1",)), EndSetup()]   # no commander: the limit is AFVs
    g.apply(Detach("D", ("G-IIIe-1",)))                   # the limit full: closed by itself
    assert [x[2][0] for x in g._setup_queue] == ["G-PL-1", "R-PL-1"]
    assert g._entry_of["G-IIIe-1"].turn == 2 and not g.units["G-IIIe-1"].entered


def test_24_1_designers_set_up_keeps_its_placed_units_out_of_a_detachment():
    """A designer's fixed set-up (``FixedSetupPlayer``): a unit he placed on the map is never
    offered to the wrapped player's detachment choice; the others are."""
    from core.ironcross.fixed_setup_player import FixedSetupPlayer

    class First:
        name = "first"

        def choose(self, view, side, actions):
            self.seen = list(actions)
            return actions[0]

    inner = First()
    fp = FixedSetupPlayer(inner, {"units": {"G-IIIe-1": {"hex": "4310", "facing": 1, "down": False}}}, "german")
    acts = [Detach("SPECIAL", ("G-IIIe-1",)), Detach("SPECIAL", ("G-IIIe-2",)), EndSetup()]
    assert fp.choose(None, "german", acts) == Detach("SPECIAL", ("G-IIIe-2",))
    assert inner.seen == acts[1:]
