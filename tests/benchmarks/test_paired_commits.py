"""benchmarks/paired_commits.py: the same seeds played by two source trees, paired by game."""

from __future__ import annotations

import pytest

from tests.benchmarks.scripts import ROOT, load_script

pc = load_script("paired_commits")


def _game(i: int, outcome: str, decisions: int = 100) -> dict:
    return {"index": i, "seed": 1000 + i, "outcome": outcome, "turns": 12, "decisions": decisions,
            "casualties": {}}


def test_paired_change_and_games_played_differently(monkeypatch, capsys, tmp_path):
    base = [_game(0, "russian"), _game(1, "russian"), _game(2, "german"), _game(3, "draw")]
    new = [_game(0, "german", 90), _game(1, "russian"), _game(2, "german"), _game(3, "draw", 120)]
    calls = []

    def fake_play(tree, scenario, games, seed, workers):
        calls.append((tree, scenario.name, games, seed))
        return (new if tree == ROOT else base), 1.0

    monkeypatch.setattr(pc, "play", fake_play)
    (tmp_path / "cli").mkdir()  # an earlier source tree (here only its shape)
    assert pc.main(["--base", str(tmp_path), "--scenarios", "6", "--games", "4"]) == 0
    assert [c[1:] for c in calls] == [("scenario_6_spartakovka.json", 4, 1)] * 2
    out = capsys.readouterr().out
    assert "4 paired games, seed 1: 2 played differently" in out
    # one game of four turns from a Russian win into a German win: +25 points for the German
    assert "german   wins 1 -> 2, change +25.0 points" in out
    assert "russian  wins 2 -> 1, change -25.0 points" in out


@pytest.mark.parametrize("argv, words", [
    (["--base", "/nonexistent-tree"], "not a source tree of this project"),
    (["--base", str(ROOT), "--scenarios", "99"], "no shipped scenario 99"),
    (["--base", str(ROOT), "--games", "1"], "--games 1: between 2 and 100000"),
])
def test_bad_arguments_are_refused_before_any_game(monkeypatch, capsys, argv, words):
    monkeypatch.setattr(pc, "play", lambda *a: pytest.fail("a game was played"))
    with pytest.raises(SystemExit) as e:
        pc.main(argv)
    assert e.value.code == 2
    assert words in capsys.readouterr().err
