"""The heuristic's behaviour settings: parsing and validation (a clear error naming the setting),
the ``--ai SIDE=NAME:k=v`` grammar, settings stored in a scenario, and small situations where a
setting changes the decision (fire discipline, Intensive Fire 11.15)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from core.ironcross.ai.heuristic import HeuristicPlayer
from core.ironcross.ai.settings import BehaviorSettings, SettingsError, load_settings_file, parse_settings, settings_text
from core.ironcross.actions import EndPhase, Fire
from core.ironcross.state import Phase
from core.ironcross.view import PlayerView
from core.ironcross.players import canonical_settings, make_player
from core.playtest import parse_ai
from tests.core.engine_fixtures import cw, inf, small_game
from tests.mapbuilder import make_map
from tests.scenario_copies import scenario_copy

SCEN1 = "scenarios/data/scenario_1_demyansk_pocket.json"


def test_defaults_are_the_original_constants_and_round_trip():
    s = BehaviorSettings()
    assert (s.aggression, s.fire_threshold, s.opportunity_fire_threshold, s.intensive_fire_cost) == (1.0, 0.06, 0.18, 1.0)
    assert settings_text(s) == ""
    t = parse_settings("aggression=0.7,intensive_fire_from_turn=3")
    assert settings_text(t) == "aggression=0.7,intensive_fire_from_turn=3"
    assert parse_settings(settings_text(t)) == t
    assert HeuristicPlayer(1).settings == s


@pytest.mark.parametrize("text, words", [
    ("agression=0.7", ["unknown setting 'agression'", "aggression"]),
    ("aggression=7", ["setting 'aggression' = 7: above its range (allowed 0 to 4)"]),
    ("aggression=-1", ["setting 'aggression' = -1: below its range (allowed 0 to 4)"]),
    ("fire_threshold=-1", ["'fire_threshold'", "allowed 0 to 2"]),
    ("intensive_fire_from_turn=1.5", ["'intensive_fire_from_turn'"]),
    ("aggression", ["NAME=VALUE"]),
    ("=1", ["a value without a setting name", "NAME=VALUE"]),
    ("@", ["'@' without a file name"]),
    ("aggression=nan", ["'aggression' = 'nan': not a finite number"]),
    ("aggression=-inf", ["'aggression' = '-inf': not a finite number"]),
    ("aggression=2,fire_threshold=0.1,aggression=3", ["setting 'aggression' given twice (2 and 3): give it once"]),
])
def test_unknown_or_out_of_range_settings_are_named(text, words):
    with pytest.raises(SettingsError) as e:
        parse_settings(text)
    for w in words:
        assert w in str(e.value)


def test_settings_file_plain_or_written_by_tune(tmp_path):
    a = tmp_path / "a.json"
    a.write_text(json.dumps({"aggression": 2.0}))
    # a file's value is overridden by one given after it (that is no slip, unlike a name given twice)
    assert parse_settings(f"@{a},aggression=3").aggression == 3.0
    b = tmp_path / "b.json"
    b.write_text(json.dumps({"settings": {"self_preservation": 0.5}, "provenance": "tuned", "by": "ironcross tune"}))
    assert load_settings_file(a).aggression == 2.0
    assert parse_settings(f"@{b},aggression=0.5") == BehaviorSettings(self_preservation=0.5, aggression=0.5)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"aggression": 9}))
    with pytest.raises(SettingsError, match="bad.json: setting 'aggression'"):
        load_settings_file(bad)
    with pytest.raises(SettingsError, match=r"none\.json: \$: file not found"):   # the safe reader's words
        load_settings_file(tmp_path / "none.json")


@pytest.mark.parametrize("doc, words", [
    ({"aggression": True}, ["setting 'aggression' = true: a number is expected"]),
    ({"settings": {"stand_up_to_move": False}}, ["setting 'stand_up_to_move' = false: a number is expected"]),
    ({"settings": {"aggression": 0.7}, "aggression": 0.2}, ["setting 'aggression' beside \"settings\""]),
    ({"settings": {"aggression": 0.7}, "foo": 1}, ["unknown key 'foo' beside \"settings\"", "provenance"]),
    ({"settings": 3}, ["settings: expected a JSON object of settings", "got int"]),
])
def test_a_settings_file_that_says_something_else_is_refused_not_misread(tmp_path, doc, words):
    f = tmp_path / "s.json"
    f.write_text(json.dumps(doc))
    with pytest.raises(SettingsError) as e:
        load_settings_file(f)
    assert str(e.value).startswith(f"{f}: ")
    for w in words:
        assert w in str(e.value)


def test_a_binary_settings_file_is_named_as_one(tmp_path):
    f = tmp_path / "s.optuna.db"
    f.write_bytes(b"SQLite format 3\x00" + bytes(range(256)))
    with pytest.raises(SettingsError, match=r"s\.optuna\.db: a binary file, not a JSON settings file"):
        load_settings_file(f)


def test_a_file_tuned_for_one_side_is_refused_for_the_other(tmp_path):
    f = tmp_path / "tuned.json"
    f.write_text(json.dumps({"player": "heuristic", "side": "german", "settings": {"aggression": 0.7},
                             "provenance": "tuned"}))
    r = CliRunner().invoke(cli, ["playtest", SCEN1, "--games", "1", "--quiet", "--ai", f"russian=heuristic:@{f}"])
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert f"--ai russian: {f} holds settings tuned for the german side" in r.output
    # nor as the opponent a tuning plays against: tuning the German, the Russian plays --against
    out = tmp_path / "o.json"
    r = CliRunner().invoke(cli, ["tune", SCEN1, "--side", "german", "--trials", "2", "--games", "1",
                                 "--against", f"heuristic:@{f}", "-o", str(out)])
    assert r.exit_code == 1 and "Traceback" not in r.output and not out.exists()
    assert f"--against: {f} holds settings tuned for the german side (its \"side\"), and the russian side " \
           "would play them" in r.output
    assert "Tuning" not in r.output  # refused before the study is opened


def test_the_heading_shows_settings_to_three_digits_and_the_json_keeps_them_exact(tmp_path):
    out = tmp_path / "r.json"
    r = CliRunner().invoke(cli, ["playtest", SCEN1, "--games", "1", "--quiet", "--workers", "1", "--json", str(out),
                                 "--ai", "german=heuristic:aggression=0.33831852420194536,russian=random"])
    assert r.exit_code == 0, r.output
    assert "German: heuristic:aggression=0.338, Russian: random" in r.output.splitlines()[0]
    assert "1 game, seed 1" in r.output.splitlines()[0]
    assert json.loads(out.read_text())["ai"]["german"] == "heuristic:aggression=0.33831852420194536"


def test_ai_spec_grammar_keeps_a_players_settings_together():
    ai = parse_ai("german=heuristic:aggression=0.7,fire_threshold=0.1,russian=random")
    assert ai == {"german": "heuristic:aggression=0.7,fire_threshold=0.1", "russian": "random"}
    assert parse_ai("russian=heuristic:@x.json") == {"german": "heuristic", "russian": "heuristic:@x.json"}
    with pytest.raises(ValueError, match="unknown side 'prussian'"):
        parse_ai("prussian=random")
    assert canonical_settings("heuristic:aggression=1.0") == "heuristic"  # defaults left out
    with pytest.raises(ValueError, match="takes no settings"):
        canonical_settings("random:aggression=1")
    assert make_player("heuristic:aggression=0.5", 1).settings.aggression == 0.5


@pytest.mark.parametrize("spec, words", [
    ("german=heuristic:agression=0.7", ["--ai german", "unknown setting 'agression'"]),
    ("german=heuristic:aggression=9", ["--ai german", "'aggression'", "allowed 0 to 4"]),
    ("german=random:aggression=1", ["--ai german", "takes no settings"]),
])
def test_playtest_refuses_bad_settings_with_exit_1(spec, words):
    r = CliRunner().invoke(cli, ["playtest", SCEN1, "--games", "1", "--ai", spec, "--quiet"])
    assert r.exit_code == 1, r.output
    for w in words:
        assert w in r.output
    assert "Traceback" not in r.output


def _with_ai_settings(tmp_path, path: str, blocks: dict, turns: int | None = None) -> tuple[dict, Path]:
    """(the data, the file) of a copy of the shipped scenario ``path`` in ``tmp_path`` storing the
    ``ai_settings`` ``blocks`` (:func:`tests.scenario_copies.scenario_copy`, ``turns`` long)."""
    p = scenario_copy(tmp_path, path, turns=turns, change=lambda d: d.update(ai_settings=blocks))
    return json.loads(p.read_text()), p


def test_a_scenario_stores_settings_per_side_with_provenance(tmp_path):
    from core.ironcross.system import SYSTEM

    data, p = _with_ai_settings(tmp_path, SCEN1, {"german": {
        "player": "heuristic", "settings": {"aggression": 0.5}, "provenance": "tuned", "by": "ironcross tune s1 --side german"}})
    setup = SYSTEM.load_setup(str(p), 1, None)
    players = SYSTEM.make_players(setup, {"german": "heuristic", "russian": "heuristic"}, 1)
    assert players["german"].settings.aggression == 0.5
    assert players["russian"].settings == BehaviorSettings()
    # an explicit spec on the command line wins over the stored one
    players = SYSTEM.make_players(setup, {"german": "heuristic:aggression=2", "russian": "heuristic"}, 1)
    assert players["german"].settings.aggression == 2.0
    data["ai_settings"]["german"]["settings"] = {"aggression": 40}
    p.write_text(json.dumps(data))
    r = CliRunner().invoke(cli, ["playtest", str(p), "--games", "1", "--quiet"])
    assert r.exit_code == 1 and "ai_settings.german" in r.output and "'aggression'" in r.output
    # validate checks them as a game uses them, and a stored player nobody knows (it would never
    # apply) is named by both
    r = CliRunner().invoke(cli, ["validate", str(p)])
    assert r.exit_code == 1 and "$.ai_settings.german.settings: setting 'aggression' = 40" in r.output
    data["ai_settings"]["german"] = {"player": "skynet"}
    p.write_text(json.dumps(data))
    for cmd in (["validate", str(p)], ["playtest", str(p), "--games", "1", "--quiet"]):
        r = CliRunner().invoke(cli, cmd)
        assert r.exit_code == 1 and "ai_settings.german.player: unknown AI player 'skynet'" in r.output, r.output
    # a value that is no number is one error naming what it is (not one per number type)
    for value, said in (("abc", "not the text 'abc'"), ([1], "not list [1]")):
        data["ai_settings"]["german"] = {"player": "heuristic", "settings": {"aggression": value}}
        p.write_text(json.dumps(data))
        r = CliRunner().invoke(cli, ["validate", str(p)])
        assert r.exit_code == 1 and r.output.count("aggression") == 1, r.output
        assert f"$.ai_settings.german.settings.aggression: a setting's value must be a number, {said}" in r.output


@pytest.mark.parametrize("system_key, path, default", [
    ("redflags", "scenarios/data/redflags_1_hill_j.json", "core.redflags.ai_settings:RedFlagsSettings"),
    ("twentymm", "scenarios/data/twentymm_1_village_counterattack.json", "core.twentymm.ai_settings:TwentyMMSettings"),
])
def test_the_other_systems_scenarios_store_settings_per_side_too(tmp_path, system_key, path, default):
    """Red Flags and 20 mm scenarios hold the same ``ai_settings`` block, applied and checked as
    Iron Cross's: the bare player takes them, the command line's settings win, and a bad value or
    an unknown player is named by validate and playtest."""
    import importlib

    from core import rule_system

    system = rule_system.get(system_key)
    module, _, name = default.partition(":")
    model = getattr(importlib.import_module(module), name)
    data, p = _with_ai_settings(tmp_path, path, {"russian": {
        "player": "heuristic", "settings": {"cover": 0.5}, "provenance": "tuned", "by": "ironcross tune s --side russian"}},
        turns=2)  # the games only show which settings play
    setup = system.load_setup(str(p), 1, None)
    players = system.make_players(setup, {"german": "heuristic", "russian": "heuristic"}, 1)
    assert players["russian"].settings.cover == 0.5 and players["german"].settings == model()
    players = system.make_players(setup, {"german": "heuristic", "russian": "heuristic:cover=0.75"}, 1)
    assert players["russian"].settings.cover == 0.75
    assert not hasattr(system.make_players(setup, {"russian": "random"}, 1)["russian"], "settings")
    r = CliRunner().invoke(cli, ["validate", str(p)])
    assert r.exit_code == 0, r.output
    # the playtest's header says which settings play: the stored ones for the bare player, not for
    # a spec of the command line's own
    out = tmp_path / "out.json"
    r = CliRunner().invoke(cli, ["playtest", str(p), "--games", "1", "--workers", "1", "--quiet", "--json", str(out)])
    assert r.exit_code == 0 and "Russian: heuristic (the scenario's stored settings: cover=0.5)" in r.output, r.output
    # --json keeps what was asked ("ai", which a replay asks again) and what played ("ai_played")
    doc = json.loads(out.read_text())
    assert doc["ai"] == {"german": "heuristic", "russian": "heuristic"}
    assert doc["ai_played"] == {"german": "heuristic", "russian": "heuristic:cover=0.5"}
    r = CliRunner().invoke(cli, ["playtest", str(p), "--games", "1", "--workers", "1", "--quiet",
                                 "--ai", "russian=heuristic:cover=0.75", "--json", str(out)])
    assert r.exit_code == 0 and "stored settings" not in r.output, r.output
    assert json.loads(out.read_text())["ai_played"]["russian"] == "heuristic:cover=0.75"
    data["ai_settings"]["russian"]["settings"] = {"cover": 40}
    p.write_text(json.dumps(data))
    for cmd in (["validate", str(p)], ["playtest", str(p), "--games", "1", "--quiet"]):
        r = CliRunner().invoke(cli, cmd)
        assert r.exit_code == 1 and "ai_settings.russian" in r.output and "setting 'cover' = 40" in r.output, r.output
        assert "Traceback" not in r.output
    data["ai_settings"]["russian"] = {"player": "skynet"}
    p.write_text(json.dumps(data))
    for cmd in (["validate", str(p)], ["playtest", str(p), "--games", "1", "--quiet"]):
        r = CliRunner().invoke(cli, cmd)
        assert r.exit_code == 1 and "ai_settings.russian.player: unknown AI player 'skynet'" in r.output, r.output
    data["ai_settings"]["russian"] = {"player": "heuristic", "settings": {"cover": "abc"}}
    p.write_text(json.dumps(data))
    r = CliRunner().invoke(cli, ["validate", str(p)])
    assert r.exit_code == 1 and "$.ai_settings.russian.settings.cover: a setting's value must be a number" in r.output


def _mg_duel():
    """A German MMG in the Support Fire Phase with a Russian squad in the open 4 hexes off."""
    m = make_map(cols=(10, 20), rows=(1, 12))
    units = [cw("GM", "german", ap=8, rng=12, pr=9), inf("R1", "russian", pr=6)]
    g = small_game(units, {"GM": ("1510", False, 1), "R1": "1506"}, hexmap=m, length=6)
    assert g.state.phase is Phase.SUPPORT_FIRE
    return g


def test_11_15_intensive_fire_from_turn_keeps_the_mg_from_intensive_fire():
    g = _mg_duel()
    acts = g.legal_actions()
    assert any(isinstance(a, Fire) and a.intensive for a in acts), "the engine offers Intensive Fire"
    v = PlayerView(g, "german")
    cheap = HeuristicPlayer(1, BehaviorSettings(intensive_fire_cost=0.0)).choose(v, "german", acts)
    assert isinstance(cheap, Fire) and cheap.intensive  # free Intensive Fire: taken
    late = HeuristicPlayer(1, BehaviorSettings(intensive_fire_cost=0.0, intensive_fire_from_turn=2))
    a = late.choose(PlayerView(g, "german"), "german", acts)
    assert isinstance(a, Fire) and not a.intensive


def test_fire_discipline_threshold_ends_the_phase():
    g = _mg_duel()
    acts = g.legal_actions()
    assert isinstance(HeuristicPlayer(1).choose(PlayerView(g, "german"), "german", acts), Fire)
    strict = HeuristicPlayer(1, BehaviorSettings(fire_threshold=2.0))
    assert strict.choose(PlayerView(g, "german"), "german", acts) == EndPhase()


def test_24_22_hidden_discipline_keeps_a_hidden_stack_still_while_no_enemy_sees_it():
    """A German in a hidden hex (24.2) behind a wall of woods would walk toward its objective in the
    Movement Phase (revealing itself, 24.22); with hidden discipline it stays until it is seen."""
    from core.ironcross.actions import StartMove
    from tests.core.engine_helpers import advance_to

    wall = {f"{c}07": 4 for c in range(10, 21)} | {f"{c}08": 4 for c in range(10, 21)}
    m = make_map(cols=(10, 20), rows=(1, 12), trees=wall)
    g = small_game([inf("G1", "german"), inf("R1", "russian", pr=6)], {"G1": "1510", "R1": "1503"}, hexmap=m,
                   length=6)
    g.units["G1"].hidden = True
    g.setup.objectives = {"german": [{"hexes": ["1512"], "goal": "occupy", "weight": 1.0, "text": "test"}],
                          "russian": []}
    g.setup.victory = lambda st, game: "german" if any(u.hex == "1512" for u in st.units_of("german")) else "russian"
    advance_to(g, Phase.MOVEMENT)
    assert not g.los("1503", "1510").clear
    acts = g.legal_actions()
    assert isinstance(HeuristicPlayer(1).choose(PlayerView(g, "german"), "german", acts), StartMove)
    keep = HeuristicPlayer(1, BehaviorSettings(hidden_discipline=10.0))
    assert keep.choose(PlayerView(g, "german"), "german", acts) == EndPhase()


@pytest.mark.parametrize("section, model", [
    ("## Behaviour settings (`core/ironcross/ai/settings.py`)", "core.ironcross.ai.settings:BehaviorSettings"),
    ("## Red Flags and Iron Crosses: behaviour settings", "core.redflags.ai_settings:RedFlagsSettings"),
    ("## The 20 mm rules: behaviour settings", "core.twentymm.ai_settings:TwentyMMSettings"),
])
def test_the_settings_table_in_docs_ai_md_matches_the_code(section, model):
    """docs/ai.md lists every setting of each system's heuristic, in that system's section, with its
    default and range as the code has them (a default adopted after measurement, e.g.
    ``stand_up_to_move`` 1, shows there too)."""
    import importlib
    import re

    mod, _, cls = model.partition(":")
    fields = getattr(importlib.import_module(mod), cls).model_fields
    text = (Path(__file__).resolve().parents[2] / "docs" / "ai.md").read_text(encoding="utf-8")
    start = text.index(section)
    end = text.find("\n## ", start + 1)
    part = text[start:end if end > 0 else len(text)]
    rows = {m.group(1): (m.group(2), m.group(3), m.group(4))
            for m in re.finditer(r"^\| `(\w+)` \| ([\d.]+) \| ([\d.]+) - ([\d.]+) \|", part, re.M)}
    assert set(rows) == set(fields)
    for name, f in fields.items():
        default, lo, hi = rows[name]
        bounds = {type(m).__name__: m for m in f.metadata}
        assert float(default) == f.default, name
        assert float(lo) == bounds["Ge"].ge and float(hi) == bounds["Le"].le, name


def _weighing_player(v: PlayerView, settings: BehaviorSettings, posture: str,
                     enemy_held: set[str] = frozenset()) -> HeuristicPlayer:
    """A heuristic player in ``posture`` ready to weigh moves in ``v`` (:meth:`_weights`), with
    ``enemy_held`` the goal hexes a known enemy unit holds."""
    p = HeuristicPlayer(1, settings)
    p.posture = posture
    p.maps.attack = set(enemy_held)
    p._dc = {"ips": v.ips}
    return p


def _hold_bonus(v: PlayerView, settings: BehaviorSettings, posture: str, enemy_held: set[str] = frozenset()) -> float:
    """The heuristic's bonus for ending a move on a goal hex (its movement weights) in ``posture``,
    with ``enemy_held`` the goal hexes a known enemy unit holds."""
    return _weighing_player(v, settings, posture, enemy_held)._weights(v)[1]


def test_the_hold_bonus_is_set_per_posture():
    """The bonus for ending a move on a goal hex of the unit's cluster: hold_objective scales it
    for an attacking side, defend_hold_objective for a defending one, each leaving the other
    posture's bonus as it was (a defender told to hold harder does not freeze an attacker on taken
    hexes while enemy units still stand on others)."""
    v = PlayerView(_mg_duel(), "german")
    one = {"hold_objective": 1.0, "defend_hold_objective": 1.0}
    for posture in ("attack", "defend"):
        base = _hold_bonus(v, BehaviorSettings(**one), posture)
        assert base > 0
        attack_x3 = _hold_bonus(v, BehaviorSettings(**(one | {"hold_objective": 3.0})), posture)
        defend_x3 = _hold_bonus(v, BehaviorSettings(**(one | {"defend_hold_objective": 3.0})), posture)
        if posture == "attack":
            assert attack_x3 == pytest.approx(3 * base) and defend_x3 == base
        else:
            assert defend_x3 == pytest.approx(3 * base) and attack_x3 == base


def test_defend_aggression_scales_the_pull_toward_the_goals_only_when_defending():
    """defend_aggression multiplies aggression in the defend posture (the weight of each turn of
    MPs gained toward the goals, and the time pressure a group feels): a defender told to stay put
    moves less, an attacker is not slowed."""
    v = PlayerView(_mg_duel(), "german")

    def pull(settings, posture):
        p = _weighing_player(v, settings, posture)
        return p._weights(v)[0], p._aggression()

    for posture in ("attack", "defend"):
        base, agg = pull(BehaviorSettings(), posture)
        assert base > 0 and agg == 1.0
        low, agg_low = pull(BehaviorSettings(defend_aggression=0.25), posture)
        both, agg_both = pull(BehaviorSettings(defend_aggression=0.25, aggression=2.0), posture)
        if posture == "attack":
            assert (low, agg_low) == (base, 1.0) and both == pytest.approx(2 * base) and agg_both == 2.0
        else:
            assert low == pytest.approx(0.25 * base) and agg_low == 0.25
            assert both == pytest.approx(0.5 * base) and agg_both == 0.5


def test_the_secured_hold_bonus_applies_only_when_no_goal_hex_is_enemy_held():
    """secured_hold_objective scales an attacker's hold bonus only while no goal hex is held by a
    known enemy unit (every goal taken: the hexes held are what the enemy must win back); with an
    enemy still on a goal hex the attacker must move on, so the bonus stays as hold_objective sets
    it; a defender's bonus never changes with it."""
    v = PlayerView(_mg_duel(), "german")
    for posture in ("attack", "defend"):
        for held in (set(), {"1506"}):
            base = _hold_bonus(v, BehaviorSettings(), posture, held)
            secured = _hold_bonus(v, BehaviorSettings(secured_hold_objective=3.0), posture, held)
            both = _hold_bonus(v, BehaviorSettings(secured_hold_objective=3.0, hold_objective=2.0), posture, held)
            if posture == "attack" and not held:
                assert secured == pytest.approx(3 * base) and both == pytest.approx(6 * base)
            elif posture == "attack":
                assert secured == base and both == pytest.approx(2 * base)
            else:
                assert secured == base and both == base
