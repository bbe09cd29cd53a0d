"""The heuristic AI player: legal choices only, determinism, the registry, judgement."""

from __future__ import annotations

import glob

import pytest

from core.ironcross.ai.heuristic import HeuristicPlayer
from core.ironcross.actions import Fire
from core.ironcross.game import Game
from core.ironcross.scenario_setup import load_setup
from core.ironcross.state import Phase
from core.ironcross.view import PlayerView
from core.ironcross.players import PLAYERS, RandomPlayer, make_player
from tests.core.engine_fixtures import cw, inf, small_game

SCENARIOS = sorted(glob.glob("scenarios/data/scenario_*.json"))


def _short_setup(path: str, seed: int, turns: int = 1):
    _sc, setup = load_setup(path, seed=seed)
    setup.game_length = turns  # a short game keeps the suite fast; every phase is still played
    return setup


def _play(setup, seed: int, players: dict, max_actions: int = 20_000) -> Game:
    game = Game(setup, seed)
    n = 0
    while not game.is_terminal():
        side = game.current_side()
        acts = game.legal_actions()
        a = players[side].choose(PlayerView(game, side), side, acts)
        assert a in acts, f"{players[side].name} chose an illegal action {a}"
        game.apply(a)
        n += 1
        assert n < max_actions
    return game


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.split("/")[-1][:12])
def test_heuristic_only_chooses_legal_actions(path):
    setup = _short_setup(path, seed=3)
    players = {"german": HeuristicPlayer(11), "russian": HeuristicPlayer(12)}
    game = _play(setup, 3, players)
    assert game.state.outcome in ("german", "russian", "draw")  # no exception escaped the AI


def test_heuristic_against_random_is_legal_and_random_still_works():
    setup = _short_setup(SCENARIOS[0], seed=5)
    game = _play(setup, 5, {"german": RandomPlayer(1), "russian": HeuristicPlayer(2)})
    assert game.is_terminal()


def test_same_seed_same_game():
    runs = []
    for _ in range(2):
        setup = _short_setup(SCENARIOS[0], seed=7, turns=2)
        g = _play(setup, 7, {"german": HeuristicPlayer(21), "russian": HeuristicPlayer(22)})
        runs.append((g.state.snapshot(), [repr(a) for a in g.actions]))
    assert runs[0] == runs[1]


def test_registry():
    assert {"random", "heuristic"} <= set(PLAYERS)
    p = make_player("heuristic", 5)
    assert p.name == "heuristic" and isinstance(p, HeuristicPlayer)
    with pytest.raises(KeyError, match="known"):
        make_player("no-such-player", 1)


def test_view_is_read_only_and_hides_enemy_mines():
    setup = _short_setup(SCENARIOS[-1], seed=1)  # Scenario 6: both sides lay mines
    game = Game(setup, 1)
    ps = {"german": HeuristicPlayer(1), "russian": HeuristicPlayer(2)}
    while game.state.phase is Phase.SETUP:
        side = game.current_side()
        game.apply(ps[side].choose(PlayerView(game, side), side, game.legal_actions()))
    assert game.state.mines  # the Russians laid mines
    gv = PlayerView(game, "german")
    assert gv.mines() == {}  # none revealed yet
    rv = PlayerView(game, "russian")
    assert set(rv.mines()) == set(game.state.mines)
    u = gv.own_units()[0]
    u.hex = "1001"  # a copy: the game is untouched
    assert game.units[u.id].hex != "1001"
    assert all(e.side == "russian" and e.on_map for e in gv.enemy_units())


def test_setup_puts_defenders_in_their_zone_on_the_objectives():
    setup = _short_setup(SCENARIOS[0], seed=2)  # Scenario 1: hold 4307 and 4308
    game = Game(setup, 2)
    p = HeuristicPlayer(1)
    while game.state.phase is Phase.SETUP and game.current_side() == "german":
        game.apply(p.choose(PlayerView(game, "german"), "german", game.legal_actions()))
    zone = PlayerView(game, "german").setup_zones()
    placed = [u for u in game.units.values() if u.side == "german"]
    assert placed and all(u.hex in zone for u in placed)
    hexes = {u.hex for u in placed}
    assert {"4307", "4308"} <= hexes
    from maps import hexgrid
    far = [u for u in placed if hexgrid.distance(hexgrid.parse_hex_id(u.hex), hexgrid.parse_hex_id("4307")) > 3]
    assert len(far) <= 1


def test_prefers_the_fire_target_with_the_higher_expected_effect():
    # a German MMG and two Russian hexes in the open: two riflemen adjacent, one far away
    from core.ironcross.hex_terrain import in_frontal_area

    units = [cw("G-MG", "german", ap=8, rng=12), inf("R1", "russian"), inf("R2", "russian"),
             inf("R3", "russian")]
    facing = next(f for f in range(1, 7) if in_frontal_area("1505", f, "1506") and in_frontal_area("1505", f, "1510"))
    g = small_game(units, {"G-MG": ("1505", False, facing), "R1": "1506", "R2": "1506", "R3": "1510"})
    assert g.state.phase is Phase.SUPPORT_FIRE and g.current_side() == "german"
    acts = g.legal_actions()
    fires = [a for a in acts if isinstance(a, Fire)]
    targets = {a.target for a in fires}
    if targets != {"1506", "1510"}:
        pytest.skip(f"the test map gives targets {targets}")
    p = HeuristicPlayer(3)
    a = p.choose(PlayerView(g, "german"), "german", acts)
    assert isinstance(a, Fire) and a.target == "1506"


# ---------------------------------------------------------------- overruns, reaction movement, advanced rules
def _choose(p, g, side):
    acts = g.legal_actions()
    a = p.choose(PlayerView(g, side), side, acts)
    assert a in acts
    return a


def test_overruns_when_clearly_favourable():
    # a T-34 next to two riflemen in the open, no AT weapon among them: 9.2 B needs 3d6 <= 2
    from core.ironcross.actions import Overrun, StartMove
    from tests.core.engine_fixtures import afv
    from tests.core.engine_helpers import advance_to

    g = small_game([afv("GT", "german"), inf("R1", "russian"), inf("R2", "russian")],
                   {"GT": ("1505", False, 1), "R1": "1504", "R2": "1504"})
    advance_to(g, Phase.MOVEMENT)
    p = HeuristicPlayer(1)
    a = _choose(p, g, "german")
    assert a == StartMove(("GT",))  # starts the move for the overrun
    g.apply(a)
    assert _choose(p, g, "german") == Overrun("1504")


def test_declines_an_overrun_into_an_antitank_gun():
    from core.ironcross.actions import StartMove
    from tests.core.engine_fixtures import afv
    from tests.core.engine_helpers import advance_to

    g = small_game([afv("GT", "german", frontal=2), cw("RA", "russian", weapon="45AT", ap=2, at=12, rng=10, crew=3, pr=9),
                    inf("R1", "russian", pr=9)],
                   {"GT": ("1505", False, 1), "RA": ("1504", False, 4), "R1": "1504"})
    advance_to(g, Phase.MOVEMENT)
    g.apply(StartMove(("GT",)))
    assert _choose(HeuristicPlayer(1), g, "german").kind != "overrun"


def test_reaction_movement_leaves_a_hex_under_heavy_threat_for_adjacent_cover():
    from core.ironcross.actions import StartMove, Step
    from tests.core.engine_helpers import advance_to
    from tests.mapbuilder import make_map

    m = make_map(cols=(10, 20), rows=(1, 12), trees={"1409": 2, "1509": 2, "1609": 2})
    g = small_game([cw("G1", "german"), cw("G2", "german"), inf("G3", "german"), inf("R1", "russian")],
                   {"G1": ("1503", False, 4), "G2": ("1603", False, 4), "G3": "1502", "R1": "1508"}, hexmap=m)
    advance_to(g, Phase.REACTION_MOVEMENT)
    assert g.current_side() == "russian"
    p = HeuristicPlayer(2)
    a = _choose(p, g, "russian")
    assert a == StartMove(("R1",))
    g.apply(a)
    st = _choose(p, g, "russian")
    assert isinstance(st, Step) and st.hex in {"1409", "1509", "1609"}  # into the trees


def test_no_reaction_movement_without_threat():
    from core.ironcross.actions import EndPhase
    from tests.core.engine_helpers import advance_to

    g = small_game([inf("G3", "german"), inf("R1", "russian")], {"G3": "1502", "R1": "1510"})
    advance_to(g, Phase.REACTION_MOVEMENT)
    if g.current_side() != "russian":
        pytest.skip("no reaction decision")
    assert _choose(HeuristicPlayer(2), g, "russian") == EndPhase()


def test_picks_mg_modes():
    from tests.core.test_mg_modes import adv_game

    # several enemy hexes in the frontal area: spray
    g = adv_game([cw("G1", "german"), inf("R1", "russian"), inf("R2", "russian"), inf("R3", "russian")],
                 {"G1": ("1505", False, 4), "R1": "1509", "R2": "1508", "R3": "1607"})
    assert g.state.phase is Phase.MORALE and g.current_side() == "german"
    a = _choose(HeuristicPlayer(3), g, "german")
    assert a.kind == "mg_mode" and a.unit == "G1" and a.mode == "SP"
    # one enemy hex: stays in DF (the default), nothing to change
    g = adv_game([cw("G1", "german"), inf("R1", "russian")], {"G1": ("1505", False, 4), "R1": "1509"})
    assert _choose(HeuristicPlayer(3), g, "german").kind == "end_phase"


def test_hides_key_units_at_setup_under_advanced_rules():
    path = SCENARIOS[0]  # Scenario 1: the Germans have 2 hidden hexes
    setup = _short_setup(path, seed=2)
    game = Game(setup, 2, rules="advanced")
    p = HeuristicPlayer(1)
    while game.state.phase is Phase.SETUP and game.current_side() == "german":
        game.apply(p.choose(PlayerView(game, "german"), "german", game.legal_actions()))
    hidden = [u for u in game.units.values() if u.side == "german" and u.hidden]
    hexes = {u.hex for u in hidden}
    assert len(hexes) == setup.hidden_hexes["german"] == 2
    assert not any(u.is_afv for u in hidden)
    objectives = {"4307", "4308"}
    for h in hexes:  # every hidden hex holds an MG/ATG or is an objective hex
        assert h in objectives or any(u.is_mg or u.is_atg for u in hidden if u.hex == h)


@pytest.mark.parametrize("path", [SCENARIOS[0], SCENARIOS[1]], ids=lambda p: p.split("/")[-1][:12])
def test_advanced_rules_legal_and_deterministic(path):
    runs = []
    for _ in range(2):
        setup = _short_setup(path, seed=4, turns=2)
        players = {"german": HeuristicPlayer(31), "russian": HeuristicPlayer(32)}
        game = Game(setup, 4, rules="advanced")
        n = 0
        while not game.is_terminal():
            side = game.current_side()
            acts = game.legal_actions()
            a = players[side].choose(PlayerView(game, side), side, acts)
            assert a in acts
            game.apply(a)
            n += 1
            assert n < 20_000
        runs.append((game.state.outcome, [repr(a) for a in game.actions]))
    assert runs[0] == runs[1]


def test_9_2_a_always_takes_the_special_at_fire_against_an_overrun():
    # 9.2 A is the defending player's choice; the shot costs nothing, so the heuristic always fires,
    # unit by unit, and both players only ever choose legal actions in the decision
    from core.ironcross.actions import Overrun, OverrunAtFire, Pass, StartMove
    from tests.core.engine_fixtures import afv
    from tests.core.engine_helpers import advance_to

    g = small_game([afv("GT", "german"), cw("RA", "russian", weapon="ATR", ap=0, at=4, rng=4, crew=2),
                    inf("R1", "russian")],
                   {"GT": ("1505", False, 1), "RA": "1504", "R1": "1504"})
    advance_to(g, Phase.MOVEMENT)
    g.apply(StartMove(("GT",)))
    g.apply(Overrun("1504"))
    view = PlayerView(g, "russian")
    assert view.overrun_fire() == {"hex": "1504", "afv": "GT", "frm": "1505", "pending": ["RA"]}
    assert PlayerView(g, "german").overrun_fire() is None
    assert g.legal_actions() == [OverrunAtFire("RA"), Pass()]
    assert _choose(HeuristicPlayer(1), g, "russian") == OverrunAtFire("RA")
    assert RandomPlayer(3).choose(view, "russian", g.legal_actions()) in g.legal_actions()


# ---------------------------------------------------------------- assault casualties (17.23)
def _casualty_choice_game(defenders):
    """A German assault into 1504 whose single hit in 17.21 b leaves the Russian to choose."""
    from core.ironcross.actions import DesignateAssault
    from tests.core.engine_helpers import advance_to

    units = [inf("G1", "german", assault=3)] + defenders
    places = {"G1": "1505", **{u.id: "1504" for u in defenders}}
    script = [(1, 1)] + [(6,)] * len(defenders) + [(1,)]  # PC; a: all miss; b: G1 hits
    g = small_game(units, places, script=script)
    advance_to(g, Phase.MOVEMENT, sub="assault_designation")
    g.apply(DesignateAssault(("G1",), "1504"))
    advance_to(g, Phase.ASSAULT)
    g.apply(DesignateAssault(("G1",), "1504"))
    assert g.current_side() == "russian"
    return g


def test_17_23_heuristic_loses_the_least_valuable_unit_first():
    from core.ironcross.actions import TakeCasualty

    m = cw("RM", "russian", weapon="MMG", ap=8, crew=3)
    m.assault = 1
    rc = inf("RC", "russian", commander=True, weapon="PL", assault=4, pr=10)
    g = _casualty_choice_game([m, rc, inf("R1", "russian", assault=2, pr=7), inf("R2", "russian", assault=4, pr=9)])
    assert _choose(HeuristicPlayer(1), g, "russian") == TakeCasualty("R1")  # lowest assault factor and PR
    # a commander only when nothing else is left: the MMG (with its firepower) goes first
    g = _casualty_choice_game([cw("RM", "russian", weapon="MMG", ap=8, crew=3),
                               inf("RC", "russian", commander=True, weapon="PL", assault=4, pr=10)])
    assert _choose(HeuristicPlayer(1), g, "russian") == TakeCasualty("RM")
    assert HeuristicPlayer.casualty_cost(m) > HeuristicPlayer.casualty_cost(inf("R9", "russian", assault=2))


def test_17_23_random_player_chooses_a_casualty_uniformly():
    from collections import Counter

    from core.ironcross.actions import TakeCasualty

    g = _casualty_choice_game([inf("R1", "russian", assault=2), inf("R2", "russian", assault=4)])
    acts = g.legal_actions()
    assert acts == [TakeCasualty("R1"), TakeCasualty("R2")]
    picks = Counter(RandomPlayer(s).choose(PlayerView(g, "russian"), "russian", acts) for s in range(200))
    assert set(picks) == set(acts) and min(picks.values()) > 60


def test_pos_value_memo_keys_on_every_group_property_it_reads():
    """For speed, ``_pos_values`` remembers ``_pos_value`` per the group properties in
    ``POS_FIELDS`` (plus ``occ``, ``fof`` and the AFV's ``inf_hexes``, handled apart): a property
    ``_pos_value`` reads that the memo's key leaves out would hand one group another's value."""
    import inspect
    import re

    from core.ironcross.ai.movement import POS_FIELDS, MovementMixin

    src = inspect.getsource(MovementMixin._pos_value)
    read = set(re.findall(r'\bg\["(\w+)"\]', src)) | set(re.findall(r'\bg\.get\("(\w+)"', src))
    assert read, "the check no longer finds how _pos_value reads the group"
    assert read - {"occ", "fof"} <= set(POS_FIELDS), read - {"occ", "fof"} - set(POS_FIELDS)
    assert "g[" not in re.sub(r'\bg\["\w+"\]', "", src), "a group property read through a computed key"
    # the occupancy: read only as "own men in this goal hex" (c[2]), which the memo checks at each use
    occ_uses = [ln.strip() for ln in src.splitlines() if re.search(r"\bocc\b", ln)]
    shared = "shared = 1.0 if not c[2] or occ.get(h, (0, 0))[0] == 0 else 0.3  # one stack per goal hex first"
    assert occ_uses == ['occ = g.get("occ") or {}', shared], occ_uses


def test_entity_fire_memo_keys_on_all_the_target_hex_decides():
    """For speed, ``_entity_losses`` remembers the units' factors and PC chances (``_unit_fp``)
    per entity state, distance and the frontal areas (10.23, 13.14) the target hex lies in: a
    ``_unit_fp`` that read the target hex (or the view) in any other way would share one hex's
    answer with another."""
    import inspect
    import re

    from core.ironcross.ai.influence import _GoalsAndRisk

    src = inspect.getsource(_GoalsAndRisk._unit_fp)
    body = src.split('"""', 2)[2]  # after the docstring
    assert "in_frontal_area" in body, "the check no longer finds how _unit_fp reads the target hex"
    rest = re.sub(r"v\.in_frontal_area\(e\.hex, e\.facing( or 1)?, h\)", "", body)
    assert not re.search(r"\bh\b", rest), "_unit_fp reads the target hex beyond distance and frontal areas"
    assert not re.search(r"\bv\b", rest), "_unit_fp asks the view beyond frontal areas"


@pytest.mark.parametrize("seed", [1, 2])
def test_goal_fields_and_hex_distances_composed_per_hex_equal_one_search(seed):
    """The AI's MP fields to its goals (8.5, UP, road rate) and hex distances over the playing area
    are composed, for a few source hexes, from each hex's own field; they must equal one search
    from all the sources (every hex, the same MP and distances, the same hexes left out)."""
    import random

    from core.ironcross.ai import influence

    setup = _short_setup(glob.glob("scenarios/data/scenario_6_*.json")[0], seed)
    view = PlayerView(Game(setup, seed=seed), "german")
    cache: dict = {}
    ids = [h.id for h in view.hexmap.all_hexes()]
    rnd = random.Random(seed)
    for kind in ("infantry", "afv"):
        for k in (1, 2, 4, 9, influence._COMPOSE_MAX + 1):
            src = set(rnd.sample(ids, k))
            got = influence._goal_field(view, src, kind, cache)
            assert got == influence._goal_field_search(view, src, kind, cache)
            assert all(type(x) is float for x in got.values())
    for k, limit in ((1, 60), (3, 5), (7, 12)):
        src = set(rnd.sample(ids, k))
        got = influence.bfs_distance(view, src, limit)
        assert got == influence._bfs_search(view, src, limit)
        assert max(got.values()) <= limit and all(type(x) is int for x in got.values())


def test_position_parts_read_from_sets_built_once_are_their_distance_and_los_tests():
    """Two parts of a position's value are read from hex sets built once a position: "an enemy a
    flamethrower there could attack" (16.1: range 2; enemy units other than AFVs) and "an
    enemy-held goal hex in LOS within 4 hexes" (when not next to one): each must be its distance
    (and LOS) test itself, for every hex of the map, at decisions with enemies in view."""
    from core.ironcross.ai.influence import los as ai_los
    from core.ironcross.view import _dist

    path = glob.glob("scenarios/data/scenario_1_*.json")[0]
    setup = _short_setup(path, 3, turns=2)
    g = Game(setup, seed=3)
    players = {s: make_player("heuristic", k) for k, s in enumerate(("german", "russian"))}
    ids = [h.id for h in g.map.all_hexes()]
    checked = attacking = 0
    while not g.is_terminal() and checked < 4:
        side = g.current_side()
        view = PlayerView(g, side)
        a = players[side].choose(view, side, g.legal_actions())
        p = players[side]
        if g.state.phase is Phase.MOVEMENT and p.maps.enemies_all:
            inf = {e.hex for e in p.maps.enemies_all if not e.is_afv}
            att = sorted(p.maps.attack)
            for h in ids:
                c = p._hex_comp(view, h)
                assert c[6] == (1 if any(_dist(h, x) <= 2 for x in inf) else 0), h
                rng = 1 if att and not c[5] and any(_dist(h, t) <= 4 and ai_los(view, h, t, False).clear
                                                    for t in att) else 0
                assert c[7] == rng, h
            checked += 1
            attacking += bool(att)
        g.apply(a)
    assert checked == 4 and attacking
