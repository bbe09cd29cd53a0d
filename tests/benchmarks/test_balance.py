"""The balance sheet script: benchmarks/balance.py writes docs/balance.md.

One real game of Scenario 1 checks that every section is written; fake runner results check the
intervals and the lopsided evidence; the verdict staleness rules are checked directly.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.playtest import GameResult
from tests.benchmarks.scripts import load_script

ROOT = Path(__file__).resolve().parents[2]
S1 = ROOT / "scenarios" / "data" / "scenario_1_demyansk_pocket.json"


balance = load_script("balance")


@pytest.fixture(scope="module")
def facts():
    return balance.scenario_facts(S1)


def fake(index: int, outcome: str, *, decided_from: int = 1, turns: int = 7) -> GameResult:
    """A finished game of Scenario 1 as the runner reports it (the Russians stand in the objective
    from ``decided_from`` on when they win)."""
    other = "german" if outcome == "russian" else "russian"
    standing = (["draw"] * (decided_from - 1) + [outcome] * (turns - decided_from + 1)) if outcome != "draw" \
        else ["draw"] * turns
    return GameResult(
        index, 100 + index, outcome, turns,
        casualties={"german": {"infantry": 6}, "russian": {"infantry": 3}} if outcome == "russian"
        else {"german": {"infantry": 2}, "russian": {"infantry": 8}},
        first_contact=1, fire_at={"4307": 5, "3413": 1}, eliminated_at={"4308": 2}, actions=500,
        eliminations_by_rule={"11.43": 9},
        eliminations_by_side={"german": {"11.43": 6}, "russian": {"11.43": 2, "19.24": 1}},
        idle={"german": {"never_entered": [], "never_acted": ["G-C-9"]},
              "russian": {"never_entered": ["R-C-8"], "never_acted": []}},
        attacks={"german": {"G-C-1": 4, "G-C-2": 0, "G-MMG-1": 3, "G-C-9": 0},
                 "russian": {"R-A-1": 2, "R-MMG-1": 5, "R-B-2": 0}},
        standing_by_turn=standing,
        objective_by_turn={outcome if outcome != "draw" else "german": [0] * (decided_from - 1)
                           + [2] * (turns - decided_from + 1), other: [1] + [0] * (turns - 1)},
        seconds=1.0)


def analysed(facts, results):
    a = balance.analyse(facts, results)
    a["reconstructed"] = balance.reconstructed_values(facts, results)
    return a


META = {"date": "2026-01-01 00:00 UTC", "commit": "abc123", "dirty": [], "games": 4, "seed": 1, "rules": "basic",
        "options": (), "command": ".venv/bin/python benchmarks/balance.py --games 4 --seed 1"}


def test_balance_sheet_intervals_are_wilson_95_for_3_of_4(facts):
    """3 Russian wins and 1 German win in 4 games: shares 75 % / 25 % with the 95 % Wilson intervals
    [30.1 %, 95.4 %] and [4.6 %, 69.9 %]; 0 draws [0 %, 49.0 %]; lopsided (75 % of the decisive)."""
    rs = [fake(0, "russian", decided_from=3), fake(1, "russian", decided_from=1), fake(2, "german"),
          fake(3, "russian", decided_from=5)]
    a = analysed(facts, rs)
    text = balance.render_sheet(META, {1: a}, {}, {})
    assert "| Russian win | 3 | 75.0% | 30.1% - 95.4% |" in text
    assert "| German win | 1 | 25.0% | 4.6% - 69.9% |" in text
    assert "| draw | 0 | 0.0% | 0.0% - 49.0% |" in text
    assert a["lopsided"] and a["winner"] == "russian" and a["share"] == 0.75
    lo, hi = a["ci95"]
    assert round(lo, 4) == 0.3006 and round(hi, 4) == 0.9544


def test_balance_lopsided_evidence_from_the_games(facts):
    """The cause evidence: the turn from which the outcome stood (mean of 3, 1, 5 = 3), the loser's
    presence in the objective hexes, losses against force, units that never attacked."""
    rs = [fake(0, "russian", decided_from=3), fake(1, "russian", decided_from=1), fake(2, "german"),
          fake(3, "russian", decided_from=5)]
    a = analysed(facts, rs)
    e = a["evidence"]
    assert e["won"] == 3
    assert e["decided"] == {"mean": 3, "median": 3, "from_turn_1": 1}
    assert e["objective_hexes"] == ["4307", "4308"]
    assert e["objective"]["german"] == {"ever": 3, "end": 0, "max": 1}
    assert e["objective"]["russian"]["end"] == 3
    assert e["losses"]["german"]["lost"] == 6 and e["losses"]["german"]["force"] == 4
    assert e["ratio"] == 2.0
    assert e["idle"]["never_attacked"]["mean"] == 2.0  # G-C-2 and G-C-9 in each of the 3 games
    assert e["idle"]["never_attacked"]["most_often"][0][1] == 3
    assert [x["index"] for x in e["replays"]] == [1, 0, 3]  # decided earliest first
    assert a["causes"]["russian"]["mine"] == 1.0 and a["causes"]["german"]["attack"] == 6.0
    text = balance.render_sheet(META, {1: a}, {}, {})
    assert "### Cause" in text and "Verdict: none on file" in text
    assert "from the end of Game Turn 3.0 on average" in text


def test_balance_sheet_names_lost_games_by_batch_seed_and_index_never_by_a_replay_path(facts):
    """The replays to read are named by the batch seed and game index (the playtest command that
    writes them anywhere), never by the replay folder of the machine that ran the batch."""
    rs = [fake(0, "russian", decided_from=3), fake(1, "russian", decided_from=1), fake(2, "russian", decided_from=2)]
    for r in rs:
        r.replay = f"/tmp/somewhere/game_{r.index:05d}_seed_{r.seed}.jsonl"
    a = analysed(facts, rs)
    text = balance.render_sheet(dict(META, seed=7), {1: a}, {}, {})
    line = next(x for x in text.splitlines() if x.startswith("- Lost games decided earliest"))
    assert "/tmp" not in text
    assert f"`ironcross playtest scenarios/data/{facts['stem']}.json --games 3 --seed 7 --replays DIR`" in line
    assert f"`DIR/game_00001_seed_{rs[1].seed}.jsonl`" in line and f"game 1 (seed {rs[1].seed}" in line


def test_balance_evidence_counts_the_games_lost_to_one_or_two_units_left_on_the_objectives(facts):
    """"No finish": the Russian wins with only 1 or 2 Russian units on the objective hexes at the
    end (game 0: 1, game 1: 2; game 3: 5 is no near miss), from GameResult.objective_units."""
    rs = [fake(0, "russian"), fake(1, "russian"), fake(2, "german"), fake(3, "russian")]
    for r, n in zip(rs, (1, 2, 0, 5)):
        r.objective_units = {"german": 0, "russian": n}
    a = analysed(facts, rs)
    assert a["evidence"]["objective"]["close"] == {"games": 2, "of": 3}
    text = balance.render_sheet(META, {1: a}, {}, {})
    assert "the Russians won 2 of 3 with only one or two units left on them at the end" in text
    rs = [fake(0, "russian"), fake(1, "russian"), fake(3, "russian")]  # results without the field
    assert "only one or two" not in balance.render_sheet(META, {1: analysed(facts, rs)}, {}, {})


def test_balance_decided_turn():
    assert balance.decided_turn(fake(0, "russian", decided_from=4)) == 4
    r = fake(1, "german")
    r.standing_by_turn = ["german", "russian", "german", "german"]
    assert balance.decided_turn(r) == 3
    r.standing_by_turn = []
    assert balance.decided_turn(r) is None


def _verdict(shares, commit="abc123", rules="basic"):
    return {"commit": commit, "date": "2026-01-01", "games": 4, "seed": 1, "rules": rules, "shares": shares,
            "cause": "AI", "seen": "the Germans never left the farmhouse.", "replays": ["game 1"]}


def test_balance_verdict_staleness(facts):
    """A verdict holds while the shares stay inside the intervals it was judged on and the commit
    (or at least every file that can change a game) is the same; otherwise it is marked STALE."""
    rs = [fake(0, "russian", decided_from=3), fake(1, "russian"), fake(2, "german"), fake(3, "russian")]
    a = analysed(facts, rs)
    same = {"german": [0.25, 0.046, 0.699], "russian": [0.75, 0.30, 0.95], "draw": [0.0, 0.0, 0.49]}
    head = {"commit": "abc123ffff", "short": "abc123ffff", "dirty": []}
    never = lambda c, h: pytest.fail("no diff needed for the same commit")  # noqa: E731
    st = balance.verdict_status(_verdict(same), a, head, "basic", changes=never)
    assert st == {"stale": False, "reasons": [], "warnings": []}
    # the Russian share (75 %) is outside the interval judged on
    moved = dict(same, russian=[0.4, 0.2, 0.6])
    st = balance.verdict_status(_verdict(moved), a, head, "basic", changes=never)
    assert st["stale"] and "Russian share moved to 75%" in st["reasons"][0]
    # another commit: stale when a file that can change a game changed, a warning when none did
    st = balance.verdict_status(_verdict(same, commit="def456"), a, head, "basic",
                                changes=lambda c, h: ["core/ironcross/ai/heuristic.py"])
    assert st["stale"] and "core/ironcross/ai/heuristic.py" in st["reasons"][0]
    st = balance.verdict_status(_verdict(same, commit="def456"), a, head, "basic", changes=lambda c, h: [])
    assert not st["stale"] and "no file under core, scenarios, maps changed" in st["warnings"][0]
    st = balance.verdict_status(_verdict(same, commit="def456"), a, head, "basic", changes=lambda c, h: None)
    assert st["stale"]  # git cannot compare: not trusted
    st = balance.verdict_status(_verdict(same, rules="advanced"), a, head, "basic", changes=never)
    assert st["stale"] and "advanced" in st["reasons"][0]
    # the sheet shows it
    v = _verdict(moved)
    st = balance.verdict_status(v, a, head, "basic", changes=never)
    text = balance.render_sheet(META, {1: a}, {facts["stem"]: v}, {facts["stem"]: st})
    assert "**STALE**: the Russian share moved to 75%" in text
    assert "the cause is **AI**. the Germans never left the farmhouse." in text
    assert "| AI (STALE) |" in text


def test_balance_verdicts_file_is_checked(tmp_path):
    p = tmp_path / "v.json"
    assert balance.load_verdicts(p) == {}
    p.write_text(json.dumps({"format": "ironcross-balance-verdicts", "version": 1,
                             "verdicts": {"x": _verdict({}) | {"cause": "weather"}}}))
    with pytest.raises(ValueError, match="cause: one of scenario, AI, both, undecided"):
        balance.load_verdicts(p)


def test_balance_sheet_one_game_of_scenario_1_has_every_section(tmp_path, capsys):
    """The whole script on one real game of Scenario 1: header (commit, date, games and seed, rules,
    the command to regenerate), the overview, the outcome table, game length, losses, causes per
    side, trust, reconstructed counters, buildings and chart rows; a stale verdict warns."""
    out = tmp_path / "balance.md"
    verdicts = tmp_path / "verdicts.json"
    verdicts.write_text(json.dumps({"format": "ironcross-balance-verdicts", "version": 1, "verdicts": {
        "scenario_1_demyansk_pocket": _verdict({"german": [0.5, 0.49, 0.51], "russian": [0.5, 0.49, 0.51],
                                                "draw": [0.0, 0.0, 0.0]}, commit="0" * 40)}}))
    assert balance.main(["--games", "1", "--workers", "1", "--scenarios", "1", "--out", str(out),
                         "--verdicts", str(verdicts)]) == 0
    text = out.read_text()
    err = capsys.readouterr().err
    for part in ("# Balance sheet: heuristic AI against heuristic AI", "Generated by `benchmarks/balance.py` on ",
                 "at commit `", "- Games and seed: 1 games per scenario, batch seed 1",
                 "- Rules: basic, no optional rules",
                 "- Regenerate: `.venv/bin/python benchmarks/balance.py --games 1 --seed 1 --scenarios 1 --out ",
                 "| [1. Demyansk Pocket](#scenario-1-demyansk-pocket) | 1 |",
                 "## Scenario 1: Demyansk Pocket", "| outcome | games | share of games played to the end |",
                 "| German win |", "| Russian win |", "| draw |", "- Mean game length: 7.0 Game Turns",
                 "- Mean losses a game, German: ", "- Mean losses a game, Russian: ",
                 "Eliminations a game by cause", "| German units |", "| Russian units |",
                 "Trust: 1 of 1 games played to the end; 0 raised",
                 "units a game that never entered the map", "### Reconstructed values that touch it",
                 "| German | ap_factor 9; initial_range 12; assault_rating 2 | G-C-2 |",
                 "| M2-4307 | 4307, 4308 | - | rulebook: 24.4 Scenario 1", "| Hill K |", "| woods |", "Map layout",
                 "**STALE**"):
        assert part in text, part
    assert "verdict for scenario_1_demyansk_pocket is STALE" in err
    import re
    decisive = re.search(r"\| (German|Russian) win \| 1 \|", text)
    assert ("### Cause" in text) == bool(decisive)


def test_robust_table_says_each_stage_and_trial_as_it_ends(monkeypatch, capsys):
    """A robust row plays about 1,300 games (an hour on 2 workers for Scenario 6): the script
    prints each stage and each tuning trial as it ends, then the row and its verdict."""
    import argparse

    import core.robust_balance as rb
    from core.tuning import TuneResult

    def fake_robust(path, system, *, on_stage=None, on_trial=None, **kw):
        shares = {k: {"count": c, "share": c / 40, "ci95": [0.0, 1.0]}  # 40 games: enough for a verdict
                  for k, c in (("german", 12), ("russian", 24), ("draw", 4))}
        ans = rb.RobustAnswer(kw["games"], kw["seed"], shares)
        for side in ("german", "russian"):
            on_stage(f"tuning {side}")
            on_trial(1, 0.25, 0.25)
            on_trial(2, 0.5, 0.5)
            t = TuneResult.__new__(TuneResult)
            t.trials, t.best_score, t.default_score = 2, 0.5, 0.25
            ans.tuned[side] = rb.SideTuning(side, t, {}, shares, (2.0, -3.0, 7.0))
        ans.verdict, ans.text = rb.verdict(ans.tuned)
        return ans

    monkeypatch.setattr(rb, "robust_balance", fake_robust)
    args = argparse.Namespace(games=10, seed=1, trials=2, tune_games=5, workers=1, storage=None)
    assert balance.robust_table({1: S1}, args) == 0
    out = capsys.readouterr().out
    assert "... tuning german (" in out and "... tuning russian (" in out
    assert "trial 2/2: score 0.500, best 0.500" in out
    assert "| 1 | 30% / 60% / 10% | +2 [-3, +7] | +2 [-3, +7] | robust |" in out


def test_robust_table_stopped_in_a_scenario_ends_there_with_its_rows_so_far(monkeypatch, capsys, tmp_path):
    """Ctrl-C in a scenario's tuning or tuned games (an "interrupted" answer) or in its default games
    (KeyboardInterrupt) ends the whole table there, exit 130, instead of going on to the next
    scenario as if the Ctrl-C had been meant for that one row."""
    import argparse

    import core.robust_balance as rb
    from core.tuning import TuneResult

    played = []

    def stopped_robust(path, system, **kw):
        played.append(path)
        shares = {k: {"count": c, "share": c / 10, "ci95": [0.0, 1.0]}
                  for k, c in (("german", 3), ("russian", 6), ("draw", 1))}
        ans = rb.RobustAnswer(kw["games"], kw["seed"], shares)
        t = TuneResult.__new__(TuneResult)
        t.trials, t.best_score, t.default_score = 2, 0.5, 0.25
        ans.tuned["german"] = rb.SideTuning("german", t, {}, shares, (0.0, -20.0, 20.0), 4, shares)
        ans.verdict, ans.text = "interrupted", "stopped in the german tuned games after 4 of 10: no verdict"
        return ans

    monkeypatch.setattr(rb, "robust_balance", stopped_robust)
    args = argparse.Namespace(games=10, seed=1, trials=2, tune_games=5, workers=1, storage=str(tmp_path))
    assert balance.robust_table({1: S1, 3: S1}, args) == 130
    out, err = capsys.readouterr()
    assert len(played) == 1 and "Scenario 1: stopped in the german tuned games after 4 of 10: no verdict" in out
    assert "| 1 | 30% / 60% / 10% | +0 [-20, +20] | - | interrupted |" in out
    assert f"interrupted: the table covers the scenarios done; the trials and check games done are kept in {tmp_path}" \
        in err

    def ctrl_c(path, system, **kw):
        played.append(path)
        raise rb.CheckGamesInterrupted([])

    monkeypatch.setattr(rb, "robust_balance", ctrl_c)
    played.clear()
    assert balance.robust_table({1: S1, 3: S1}, args) == 130
    assert len(played) == 1 and "Scenario 1: interrupted in the default games" in capsys.readouterr().out


def test_the_robust_table_covers_every_rule_systems_shipped_scenarios(monkeypatch):
    # every system's heuristic takes settings, so the robust table has a row for each shipped
    # scenario: Iron Cross by number, the others by key; the balance sheet stays Iron Cross's
    seen = []
    monkeypatch.setattr(balance, "robust_table", lambda paths, args: seen.append(dict(paths)) or 0)
    assert balance.main(["--robust"]) == 0
    assert {1, 2, 3, 4, 5, 6, "redflags_1", "twentymm_1"} <= set(seen[-1])
    assert balance.main(["--robust", "--scenarios", "twentymm_1,6"]) == 0
    assert list(seen[-1]) == ["twentymm_1", 6] and seen[-1]["twentymm_1"].name == "twentymm_1_village_counterattack.json"


def test_robust_table_refuses_a_kept_study_it_cannot_extend_before_playing_a_game(monkeypatch, tmp_path, capsys):
    """A study kept in --storage DIR with other tuning games is refused with one line naming the
    file and the difference, exit 1, before the default batch (which takes minutes) is played."""
    import argparse

    import core.robust_balance as rb
    from core.tuning import default_study_name

    played = []
    monkeypatch.setattr(rb, "run_batch", lambda *a, **k: played.append(a) or [])
    monkeypatch.setattr(rb, "stored_setup_problem", lambda f, name, setup, hint="": (
        f"{f}: the study {name!r} was run with other tuning options (games 20 there, {setup['games']} here){hint}"
        if name == default_study_name(str(S1), "german", "heuristic") else None))
    args = argparse.Namespace(games=10, seed=1, trials=2, tune_games=5, workers=1, storage=str(tmp_path))
    assert balance.robust_table({1: S1}, args) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: Scenario 1: ") and "games 20 there, 5 here" in err and "Traceback" not in err
    assert "-german.optuna.db" in err
    assert played == []


def test_settings_table_lines_up_each_side_s_tuned_settings_by_scenario():
    """``balance.py --settings-table``: one column a side and scenario (Germans first), one row a
    searched setting beside its default; "=" where no trial beat the defaults, "-" where a study
    did not search the setting."""
    from core.tuning import StoredStudy

    def st(best, is_default=False, defaults=None):
        return StoredStudy("x", {"defaults": defaults or {"aggression": 1.0, "fire_threshold": 0.06}}, 30, best,
                           0.5, 0.4, is_default)

    table = balance.settings_table({
        ("russian", 1): st({"aggression": 0.592, "fire_threshold": 0.0699}),
        ("german", 3): st({"aggression": 0.432}),
        ("german", 1): st({"aggression": 1.0, "fire_threshold": 0.06}, is_default=True),
    })
    assert table == ["| setting (default) | G1 | G3 | R1 |", "|---|---|---|---|",
                     "| `aggression` (1) | = | 0.43 | 0.59 |",
                     "| `fire_threshold` (0.06) | = | - | 0.07 |"]
    assert balance.settings_table({}) == []


def test_settings_table_is_one_table_a_rule_system(monkeypatch, tmp_path, capsys):
    # Red Flags' and the 20 mm heuristic's settings share names (aggression, cover) but not their
    # defaults: each system's studies get a table of their own, each row its system's default
    import core.tuning as tuning
    from core.tuning import StoredStudy

    defaults = {"redflags_1": {"aggression": 2.5, "cover": 0.6}, "twentymm_1": {"aggression": 1.0, "cover": 0.25}}
    for key in defaults:
        for side in ("german", "russian"):
            (tmp_path / f"{key}-{side}.optuna.db").write_text("")

    def read(f):
        key, side = Path(f).name.split(".")[0].rsplit("-", 1)
        stem = {"redflags_1": "redflags_1_hill_j", "twentymm_1": "twentymm_1_village_counterattack"}[key]
        return [StoredStudy(f"{stem}-{side}-heuristic", {"defaults": defaults[key], "games": 20}, 30,
                            {"aggression": 3.0, "cover": 1.0}, 0.6, 0.4, False)]

    monkeypatch.setattr(tuning, "read_studies", read)
    from cli import tune_command

    monkeypatch.setattr(tune_command, "study_files", lambda storage, path: (
        lambda side: str(tmp_path / f"{Path(path).stem.split('_')[0]}_1-{side}.optuna.db")))
    assert balance.main(["--settings-table", "--storage", str(tmp_path), "--scenarios", "redflags_1,twentymm_1"]) == 0
    out = capsys.readouterr().out
    rf = out.index("Red Flags and Iron Crosses")
    tm = out.index("20 mm Russo-German War")
    assert "| `aggression` (2.5) |" in out[rf:tm] and "| `cover` (0.6) |" in out[rf:tm]
    assert "| `aggression` (1) |" in out[tm:] and "| `cover` (0.25) |" in out[tm:]


def test_settings_table_reads_a_robust_run_s_studies_and_says_when_there_are_none(tmp_path, capsys):
    """No game is played: the studies come from the --storage DIR of a robust run; without it, or
    with a directory holding no study of the scenarios, the script says so and exits 1."""
    with pytest.raises(SystemExit):
        balance.main(["--settings-table", "--scenarios", "1"])
    assert "--settings-table needs --storage DIR" in capsys.readouterr().err
    assert balance.main(["--settings-table", "--storage", str(tmp_path / "none"), "--scenarios", "1"]) == 1
    assert "none: no such directory" in capsys.readouterr().err
    assert not (tmp_path / "none").exists()  # reading makes no directory
    assert balance.main(["--settings-table", "--storage", str(tmp_path), "--scenarios", "1"]) == 1
    assert "no study of these scenarios" in capsys.readouterr().err
    (tmp_path / "scenario_1_demyansk_pocket-german.optuna.db").write_text("not a database\n" * 20)
    assert balance.main(["--settings-table", "--storage", str(tmp_path), "--scenarios", "1"]) == 1
    assert "scenario_1_demyansk_pocket-german.optuna.db: not a study file" in capsys.readouterr().err
    # a study file holding another study (a tune run's, copied in) and a folder in a study's place:
    # named and left out, never shown as the robust run's
    import optuna

    (tmp_path / "scenario_1_demyansk_pocket-german.optuna.db").unlink()
    (tmp_path / "scenario_1_demyansk_pocket-german.optuna.db").mkdir()
    db = tmp_path / "scenario_1_demyansk_pocket-russian.optuna.db"
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    other = optuna.create_study(storage=f"sqlite:///{db}", study_name="my-own-tune", direction="maximize")
    other.optimize(lambda t: t.suggest_float("aggression", 0.25, 4.0), n_trials=1)
    assert balance.main(["--settings-table", "--storage", str(tmp_path), "--scenarios", "1"]) == 1
    err = capsys.readouterr().err
    assert "scenario_1_demyansk_pocket-german.optuna.db: not a file: left out" in err
    assert "the study 'my-own-tune' is not the robust run's 'scenario_1_demyansk_pocket-russian-heuristic'" in err
    assert "no study of these scenarios" in err
