"""Tuning (core/tuning.py, ``ironcross tune``) on a toy dice race whose best setting is known: a
player that rolls two dice (T.2) with probability ``two_dice`` races a player that rolls two only
when behind. Two dice add 7 a roll on average against 3.5, and a reset (T.3, two 1s) comes once in
36 rolls, so the more often two dice, the better: the best ``two_dice`` is near 1."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from click.testing import CliRunner

from core import rule_system
from core.dice import derive_seed
from core.playtest import GameResult
from core.tuning import batch_score, game_score, tune
from tests.toy_system import SYSTEM as TOY_SYSTEM
from tests.toy_system import TOY_PLAYERS, ToyRoll, toy_file

NAME = "toytune"


class TwoDice:
    """Rolls two dice with probability ``two_dice`` (its one setting), else one."""

    name = "tunable"

    def __init__(self, seed: int, two_dice: float = 0.0):
        self._rng = random.Random(seed)
        self.two_dice = two_dice

    def choose(self, view, side, actions):
        n = 2 if self._rng.random() < self.two_dice else 1
        return next(a for a in actions if isinstance(a, ToyRoll) and a.dice == n)


def _canonical(spec: str) -> str:
    name, _, body = spec.partition(":")
    if not body:
        return name
    k, _, v = body.partition("=")
    if k != "two_dice" or "," in v:
        raise ValueError(f"unknown setting {k!r}")
    x = float(v)
    if not 0.0 <= x <= 1.0:
        raise ValueError(f"setting 'two_dice' = {x}: allowed 0 to 1")
    return f"{name}:two_dice={x!r}" if x else name


def _make_players(setup, ai, seed):
    out = {}
    for side in ai:
        name, _, body = ai[side].partition(":")
        s = derive_seed(seed, 1 if side == "german" else 2)
        out[side] = TwoDice(s, float(body.split("=")[1]) if body else 0.0) if name == "tunable" \
            else TOY_PLAYERS[name](s)
    return out


@pytest.fixture
def race(tmp_path):
    system = replace(TOY_SYSTEM, name=NAME, players={**TOY_SYSTEM.players, "tunable": "two dice with a probability"},
                     make_players=_make_players, player_settings=_canonical,
                     settings_space=lambda p: ({"two_dice": (0.0, 1.0, False)}, {"two_dice": 0.0}) if p == "tunable"
                     else (_ for _ in ()).throw(KeyError(p)))
    rule_system.register(system)
    yield toy_file(tmp_path, rule_system=NAME, turns=6, target=30)
    rule_system.unregister(NAME)


def _tune(path, **kw):
    args = dict(player="tunable", opponent="heuristic", trials=10, games=40, seed=3, workers=1,
                defaults={"two_dice": 0.0}, canonical=_canonical)
    args.update(kw)
    return tune(path, "german", {"two_dice": (0.0, 1.0, False)}, **args)


def test_the_score_is_the_outcome_plus_a_small_tie_breaker():
    won = GameResult(0, 1, "german", 5, casualties={"german": {"infantry": 1}, "russian": {"infantry": 3}})
    lost = GameResult(1, 2, "russian", 5, casualties={"german": {"infantry": 4}})
    assert game_score(won, "german") == pytest.approx(1 + 0.1 * 2 / 5)
    assert game_score(lost, "german") == pytest.approx(0 - 0.1 * 4 / 5)
    assert 0.4 < game_score(GameResult(2, 3, "draw", 5), "german") <= 0.5 + 1e-12
    assert batch_score([won, lost, GameResult(3, 4, "error", 1)], "german") == pytest.approx(
        (game_score(won, "german") + game_score(lost, "german")) / 2)


def test_tuning_finds_the_known_best_within_its_budget_and_is_reproducible(race):
    a = _tune(race, check_games=40)
    assert a.best["two_dice"] > 0.7  # the known best is near 1
    assert a.default_score is not None and a.best_score > a.default_score
    assert a.trials == 10 and not a.interrupted
    chk = a.check
    assert chk["tuned"]["share"] > chk["default"]["share"] and chk["tuned"]["games"] == 40
    b = _tune(race, check_games=0)
    assert b.best == a.best and b.best_score == a.best_score and b.history == a.history


def test_a_study_in_sqlite_is_extended_by_running_again(race, tmp_path):
    db = str(tmp_path / "study.db")
    first = _tune(race, trials=3, games=10, storage=db)
    assert first.trials == 3
    more = _tune(race, trials=5, games=10, storage=db)
    assert more.trials == 5 and more.history[:3] == first.history


def test_the_tune_command_writes_a_settings_file(race, tmp_path):
    from cli.main import cli

    out = tmp_path / "german.json"
    r = CliRunner().invoke(cli, ["tune", race, "--side", "german", "--player", "tunable", "--trials", "6",
                                 "--games", "20", "--workers", "1", "-o", str(out), "--quiet", "--check-games", "20"])
    assert r.exit_code == 0, r.output
    doc = json.loads(out.read_text())
    assert doc["provenance"] == "tuned" and doc["by"].startswith("ironcross tune") and doc["player"] == "tunable"
    assert set(doc["settings"]) <= {"two_dice"} and doc["trials"] == 6
    assert "default" in r.output and "tuned" in r.output and "%" in r.output
    bad = CliRunner().invoke(cli, ["tune", race, "--side", "prussian", "-o", str(out)])
    assert bad.exit_code == 2 and "prussian" in bad.output


def test_the_robust_verdict_names_the_side_that_gains_and_the_settings_that_moved(race):
    from core.robust_balance import robust_balance

    system = rule_system.get(NAME)
    ans = robust_balance(race, system, games=40, seed=2, trials=6, tune_games=20, workers=1, player="tunable")
    assert ans.verdict == "AI-dependent"
    side = max(ans.tuned.values(), key=lambda t: t.gain[0]).side
    assert f"{side} gains" in ans.text and "two_dice 0 ->" in ans.text
    assert ans.tuned[side].gain[1] > 10


def test_robust_and_undecided_verdicts_from_the_gains_intervals():
    from core.robust_balance import SideTuning, verdict

    def t(side, g):
        return SideTuning(side, None, {}, {}, g)

    assert verdict({"german": t("german", (2.0, -4.0, 8.0)), "russian": t("russian", (-1.0, -6.0, 5.0))})[0] == "robust"
    assert verdict({"german": t("german", (9.0, 2.0, 16.0)), "russian": t("russian", (0.0, -3.0, 3.0))})[0] == "undecided"
    v, text = verdict({"german": t("german", (25.0, 15.0, 35.0)), "russian": t("russian", (0.0, -3.0, 3.0))})
    assert v == "AI-dependent" and text.startswith("german gains +25.0")


def test_playtest_robust_prints_the_verdict(race, tmp_path):
    from cli.main import cli

    out = tmp_path / "robust.json"
    r = CliRunner().invoke(cli, ["playtest", race, "--robust", "--games", "20", "--trials", "3", "--tune-games", "10",
                                 "--workers", "1", "--ai", "german=tunable,russian=tunable", "--json", str(out),
                                 "--quiet"])
    assert r.exit_code == 0, r.output
    assert "Verdict:" in r.output and json.loads(out.read_text())["verdict"] in ("robust", "AI-dependent", "undecided")
