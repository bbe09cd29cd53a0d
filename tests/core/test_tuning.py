"""Tuning (core/tuning.py, ``ironcross tune``) on a toy dice race whose best setting is known
(``tests/tuning_race.py``): a player that rolls two dice (T.2) with probability ``two_dice`` races a
player that rolls two only when behind; the best ``two_dice`` is near 1."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from core import rule_system
from core.playtest import GameResult
from core.tuning import batch_score, game_score, read_studies, tune
from tests.toy_system import toy_file
from tests.tuning_race import MODULE, NAME, SYSTEM
from tests.tuning_race import canonical as _canonical


@pytest.fixture
def race(tmp_path):
    rule_system.register(SYSTEM, MODULE)  # the module: worker processes (pool, Dask) find the system
    yield toy_file(tmp_path, rule_system=NAME, turns=6, target=30)
    rule_system.unregister(NAME)


def _tune(path, **kw):
    args = dict(player="tunable", opponent="heuristic", trials=10, games=20, seed=3, workers=1,
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
    starts, played = [], []
    a = _tune(race, check_games=40, on_check_start=lambda n, same: starts.append((n, same)), on_check=played.append)
    assert a.best["two_dice"] > 0.7  # the known best is near 1
    # the check's progress: announced as 2 x 40 games (default and tuned), every one of them played
    assert starts == [(80, False)] and sum(played) == 80
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
    # the resumed trials draw new settings: none is one of the kept trials' played again
    values = _trial_values(db, race)
    assert len(values) == 5 and len(set(values)) == 5


def _trial_values(db: str, race) -> list[float]:
    """``two_dice`` of each trial of the race's German study in the SQLite file ``db``, in order."""
    import optuna

    from core.tuning import default_study_name

    st = optuna.storages.RDBStorage(f"sqlite:///{Path(db).resolve()}")
    try:
        study = optuna.load_study(study_name=default_study_name(race, "german", "tunable"), storage=st)
        return [t.params["two_dice"] for t in study.trials]
    finally:
        st.engine.dispose()


def test_a_stored_study_reads_back_its_best_settings_without_a_game(race, tmp_path):
    """What a designer reads after a robust run (``balance.py --settings-table``): the study file
    gives back the run's best settings, scores and set-up; a file that is no study is refused by name."""
    db = str(tmp_path / "study.db")
    run = _tune(race, trials=4, games=10, storage=db)
    (st,) = read_studies(db)
    assert st.trials == 4 and st.best == run.best and st.best_score == run.best_score
    assert st.default_score == run.default_score and st.setup["games"] == 10 and st.setup["seed"] == 3
    assert st.best_is_default == (run.best == {"two_dice": 0.0})
    bad = tmp_path / "notes.db"
    bad.write_text("not a database\n" * 20)
    with pytest.raises(ValueError, match=r"notes\.db: not a study file"):
        read_studies(str(bad))
    with pytest.raises(ValueError, match=r"missing\.db: no such study file"):
        read_studies(str(tmp_path / "missing.db"))


def test_the_settings_table_of_a_robust_run_s_storage_is_read_from_its_study_files(race, tmp_path, capsys):
    """``benchmarks/balance.py --settings-table --storage DIR``: a study kept under a scenario's
    file name is read back and its best settings printed beside the defaults, no game played."""
    from tests.benchmarks.scripts import load_script

    # kept as a robust run of Scenario 1 keeps it: its file and its study name
    run = _tune(race, trials=3, games=10, storage=str(tmp_path / "scenario_1_demyansk_pocket-german.optuna.db"),
                study_name="scenario_1_demyansk_pocket-german-heuristic")
    balance = load_script("balance")
    assert balance.main(["--settings-table", "--storage", str(tmp_path), "--scenarios", "1"]) == 0
    out = capsys.readouterr().out
    assert f"Scenario 1, german: 3 trials of 10 games, best {run.best_score:.3f}" in out
    assert "| setting (default) | G1 |" in out and f"| `two_dice` (0) | {run.best['two_dice']:.2g} |" in out


def test_a_stored_study_is_not_extended_with_other_games_or_seeds(race, tmp_path):
    """Trials scored over other games (or seeds) cannot be compared: the run is refused, naming them."""
    db = str(tmp_path / "study.db")
    _tune(race, trials=2, games=10, storage=db)
    with pytest.raises(ValueError, match=r"study\.db: the study .*\(games 10 there, 12 here"):
        _tune(race, trials=3, games=12, storage=db)
    with pytest.raises(ValueError, match="seed 3 there, 4 here"):
        _tune(race, trials=3, games=10, seed=4, storage=db)
    # other defaults (a new version of the player): its opponent plays differently too
    with pytest.raises(ValueError, match="defaults"):
        _tune(race, trials=3, games=10, storage=db, defaults={"two_dice": 0.5})
    assert _tune(race, trials=3, games=10, storage=db).trials == 3  # the same set-up extends it


def test_a_setting_added_since_the_study_at_its_default_extends_it(race, tmp_path):
    """A player that has gained a setting since the study was made plays it at its default, which
    keeps the games of before: the study is extended. A setting it had, at another value now, or
    one it has lost, is still refused, naming only that setting."""
    from core.robust_balance import scenario_version
    from core.tuning import default_study_name, setup_difference, stored_setup_problem, study_setup

    db = str(tmp_path / "study.db")
    _tune(race, trials=2, games=10, storage=db)
    grown = {"two_dice": 0.0, "new_setting": 0.0}
    assert _tune(race, trials=3, games=10, storage=db, defaults=grown).trials == 3
    with pytest.raises(ValueError, match=r"\(defaults: two_dice 0\.0 there, 0\.5 here\)"):
        _tune(race, trials=4, games=10, storage=db, defaults={"two_dice": 0.5, "new_setting": 0.0})
    space = {"two_dice": (0.0, 1.0, False)}
    name = default_study_name(race, "german", "tunable")
    # the same answer before any game is played (a robust run checks its studies first)
    version = scenario_version(race)
    assert stored_setup_problem(db, name, study_setup(10, 3, "heuristic", None, space, grown, version)) is None
    assert "seed 3 there, 4 here" in stored_setup_problem(
        db, name, study_setup(10, 4, "heuristic", None, space, grown, version))
    assert stored_setup_problem(str(tmp_path / "none.db"), name,
                                study_setup(10, 3, "heuristic", None, space, grown, version)) is None
    assert stored_setup_problem(db, "another", study_setup(10, 3, "heuristic", None, space, grown, version)) is None
    lost = setup_difference({"defaults": {"two_dice": 0.0, "old": 1.0}}, {"defaults": {"two_dice": 0.0}})
    assert lost == "defaults: old 1.0 there, 'none' here"


def test_a_stored_study_of_another_version_of_the_scenario_is_not_extended(race, tmp_path):
    """The study records the version of what its games depend on (the scenario file, the documents
    it names, the code): after the scenario file changed, its trials were scored on other games, and
    a run with the same settings is refused, naming the versions; a study made before studies
    recorded a version is refused too, in words."""
    import optuna

    from core.robust_balance import scenario_version
    from core.tuning import default_study_name, stored_setup_problem, study_setup

    db = str(tmp_path / "study.db")
    _tune(race, trials=2, games=10, storage=db)
    before = scenario_version(race)
    data = json.loads(Path(race).read_text())
    data["turns"] = 7  # another scenario: its games are other games
    Path(race).write_text(json.dumps(data))
    after = scenario_version(race)
    assert after != before
    with pytest.raises(ValueError, match=f"version {before} there, {after} here: the scenario"):
        _tune(race, trials=3, games=10, storage=db)
    space = {"two_dice": (0.0, 1.0, False)}
    name = default_study_name(race, "german", "tunable")
    setup = study_setup(10, 3, "heuristic", None, space, {"two_dice": 0.0}, after)
    assert f"version {before} there" in stored_setup_problem(db, name, setup)
    # a study made before studies recorded their version
    old = str(tmp_path / "old.db")
    db = optuna.storages.RDBStorage(f"sqlite:///{Path(old).resolve()}")
    study = optuna.create_study(direction="maximize", storage=db, study_name=name)
    study.set_user_attr("setup", study_setup(10, 3, "heuristic", None, space, {"two_dice": 0.0}))
    db.engine.dispose()
    with pytest.raises(ValueError, match="no version there"):
        _tune(race, trials=3, games=10, storage=old)
    assert _tune(race, trials=2, games=10, storage=str(tmp_path / "new.db")).trials == 2


def test_a_file_that_is_no_study_is_a_clear_error(race, tmp_path):
    from cli.main import cli

    junk = tmp_path / "junk.db"
    junk.write_text("not a database\n" * 50)
    with pytest.raises(ValueError, match="junk.db: not a study file"):
        _tune(race, trials=2, games=10, storage=str(junk))
    r = CliRunner().invoke(cli, ["tune", race, "--side", "german", "--player", "tunable", "--trials", "2", "--games",
                                 "10", "--workers", "1", "-o", str(tmp_path / "g.json"), "--storage", str(junk),
                                 "--quiet"])
    assert r.exit_code == 1 and "junk.db: not a study file" in r.output and "Traceback" not in r.output


def test_a_study_file_that_cannot_be_read_is_a_clear_error(race, tmp_path, monkeypatch):
    import core.tuning as tuning
    from core.tuning import stored_setup_problem

    db = str(tmp_path / "study.db")
    _tune(race, trials=1, games=4, storage=db)

    def unreadable(*a, **k):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tuning, "open", unreadable, raising=False)
    with pytest.raises(ValueError, match=r"study\.db: cannot read the study file: Permission denied"):
        read_studies(db)
    assert "cannot read the study file" in stored_setup_problem(db, "any", {})


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
    # run again: the kept study is said, and how many trials are left to run
    args = ["tune", race, "--side", "german", "--player", "tunable", "--games", "20", "--workers", "1", "-o",
            str(out), "--check-games", "0"]
    again = CliRunner().invoke(cli, [*args, "--trials", "6"])
    assert again.exit_code == 0 and "the study has 6 trial(s) already: none to run" in again.output
    more = CliRunner().invoke(cli, [*args, "--trials", "8"])
    assert more.exit_code == 0 and "the study has 6 trial(s) already: 2 more to run" in more.output
    # a study the run cannot extend is refused before its progress bar starts
    other = CliRunner().invoke(cli, [*args, "--trials", "8", "--seed", "9"])
    assert other.exit_code == 1 and "seed 1 there, 9 here" in other.output and "0/8" not in other.output


def test_a_tuning_whose_best_trial_is_the_defaults_says_so_and_plays_its_check_once(race, tmp_path, monkeypatch):
    """One trial is the defaults alone: the file says "default", not "tuned", and the check plays the
    default games once (the tuned half would be the same games)."""
    from cli.main import cli
    from core import tuning

    played = []
    real = tuning.run_batch

    def counting(path, n, *a, **k):
        played.append(n)
        return real(path, n, *a, **k)

    monkeypatch.setattr(tuning, "run_batch", counting)
    out = tmp_path / "german.json"
    r = CliRunner().invoke(cli, ["tune", race, "--side", "german", "--player", "tunable", "--trials", "1",
                                 "--games", "4", "--workers", "1", "-o", str(out), "--quiet", "--check-games", "6"])
    assert r.exit_code == 0, r.output
    doc = json.loads(out.read_text())
    assert doc["settings"] == {} and doc["provenance"] == "default"
    assert "settings: the defaults (no trial beat them)" in r.output
    assert played == [4, 6]  # the trial, then the check's default games only
    assert doc["check"]["tuned"] == doc["check"]["default"]


def test_a_check_whose_tuned_settings_are_the_defaults_announces_one_batch(race):
    """The check's progress counts the games it plays: when no trial beat the defaults it announces
    one batch (the tuned half is the same games) and counts no game twice."""
    starts, played = [], []
    res = _tune(race, trials=1, games=4, check_games=6, on_check_start=lambda n, same: starts.append((n, same)),
                on_check=played.append)
    assert res.best_spec == _canonical("tunable")  # the one trial is the defaults
    assert starts == [(6, True)] and sum(played) == 6


def test_a_study_that_cannot_be_written_is_named_before_optuna_opens_it(race, tmp_path, monkeypatch):
    """A read-only study file (or folder): Optuna writes as it opens a study, so it would fail inside
    SQLite with a page of traceback; the run names the file instead (root, who may write anyway, is
    simulated by the permission check)."""
    from core import tuning

    db = tmp_path / "study.db"
    _tune(race, trials=1, games=2, storage=str(db))
    monkeypatch.setattr(tuning.os, "access", lambda p, mode: Path(p) != db)
    with pytest.raises(ValueError, match=r"study\.db: the study file is read-only"):
        _tune(race, trials=2, games=2, storage=str(db))
    monkeypatch.setattr(tuning.os, "access", lambda p, mode: Path(p) != tmp_path)
    with pytest.raises(ValueError, match=rf"{tmp_path}: the folder of the study study\.db is not writable"):
        _tune(race, trials=2, games=2, storage=str(db))


def test_any_integer_seed_tunes_as_the_batch_seeds_take_it(race):
    """Optuna's sampler takes seeds of 0 to 2**32 - 1 only; the batch seeds take any integer, so a
    negative or huge --seed tunes (reproducibly) instead of failing with Optuna's words."""
    a = _tune(race, trials=3, games=4, seed=-1)
    b = _tune(race, trials=3, games=4, seed=-1)
    assert a.trials == 3 and (a.best, a.history) == (b.best, b.history)
    assert _tune(race, trials=2, games=2, seed=10 ** 20).trials == 2


def test_the_paired_gain_stays_within_what_a_share_can_move():
    from core.robust_balance import paired_gain

    def games(outcomes):
        return [GameResult(i, i, o, 3) for i, o in enumerate(outcomes)]

    # one pair: no spread to estimate, so the interval is the whole range
    assert paired_gain(games(["russian"]), games(["german"]), "german") == (100.0, -100.0, 100.0)
    # two pairs far apart: the normal interval would pass +-100 points
    g, lo, hi = paired_gain(games(["russian", "german"]), games(["german", "russian"]), "german")
    assert g == 0.0 and (lo, hi) == (-100.0, 100.0)
    g, lo, hi = paired_gain(games(["russian", "russian", "german"]), games(["german", "german", "russian"]), "german")
    assert -100.0 <= lo < g < hi <= 100.0
    assert paired_gain([], [], "german") == (0.0, 0.0, 0.0)


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

    def t(side, g):  # 200 paired games a side
        return SideTuning(side, None, {}, {"german": {"count": 80}, "russian": {"count": 100}, "draw": {"count": 20}}, g)

    assert verdict({"german": t("german", (2.0, -4.0, 8.0)), "russian": t("russian", (-1.0, -6.0, 5.0))})[0] == "robust"
    assert verdict({"german": t("german", (9.0, 2.0, 16.0)), "russian": t("russian", (0.0, -3.0, 3.0))})[0] == "undecided"
    v, text = verdict({"german": t("german", (25.0, 15.0, 35.0)), "russian": t("russian", (0.0, -3.0, 3.0))})
    assert v == "AI-dependent" and text.startswith("german gains +25.0")


def test_an_undecided_verdict_says_which_way_it_leans_and_how_many_games_would_decide():
    from core.robust_balance import SideTuning, games_to_decide, verdict

    # the half-width shrinks as 1/sqrt(games): +11 [+4.4, +17.6] over 200 games needs
    # 200 x (6.6 / 1.0)^2 = 8,712 games for its low end to clear 10 (rounded up to tens)
    assert games_to_decide((11.0, 4.4, 17.6), 200) == ("AI-dependent", 8720)
    # +7.5 [+2.1, +12.9]: 200 x (5.4 / 2.5)^2 = 933.1 games to fit within 10
    assert games_to_decide((7.5, 2.1, 12.9), 200) == ("robust", 940)
    # a loss from tuning leans robust too: the bound it must clear is -10
    assert games_to_decide((-7.5, -18.3, 3.3), 40) == ("robust", 750)
    assert games_to_decide((2.0, -1.0, 5.0), 100) == ("robust", 100)  # decided already
    assert games_to_decide((10.0, 5.0, 15.0), 100) == ("robust", None)  # on the bound
    assert games_to_decide((3.0, 1.0, 5.0), 0) == ("robust", None)

    shares = {"german": {"count": 30}, "russian": {"count": 160}, "draw": {"count": 10}}

    def t(side, g):
        return SideTuning(side, None, {}, shares, g)

    v, text = verdict({"german": t("german", (3.5, -3.2, 10.2)), "russian": t("russian", (11.0, 4.4, 17.6))})
    assert v == "undecided" and "leans AI-dependent (russian +11.0)" in text
    assert "about 8,720 paired games would decide it" in text
    # leaning robust: the side that needs the most games decides when all fit
    v, text = verdict({"german": t("german", (7.5, 2.1, 12.9)), "russian": t("russian", (4.5, -2.8, 11.8))})
    assert v == "undecided" and "leans robust" in text and "about 940 paired games" in text
    v, text = verdict({"german": t("german", (10.0, 5.0, 15.0)), "russian": t("russian", (0.0, -3.0, 3.0))})
    assert "no number of games decides it" in text
    # a tuning worse than the defaults by more than 10 points: a better tuning, not more games
    v, text = verdict({"german": t("german", (-50.0, -100.0, 48.0)), "russian": t("russian", (0.0, 0.0, 0.0))})
    assert v == "undecided" and "the tuned settings of german (-50.0) do worse than the defaults" in text
    assert "exactly 10" not in text


def test_playtest_robust_prints_the_verdict(race, tmp_path):
    from cli.main import cli

    out = tmp_path / "robust.json"
    r = CliRunner().invoke(cli, ["playtest", race, "--robust", "--games", "20", "--trials", "3", "--tune-games", "10",
                                 "--workers", "1", "--ai", "german=tunable,russian=tunable", "--json", str(out),
                                 "--quiet"])
    assert r.exit_code == 0, r.output
    assert "Verdict:" in r.output and json.loads(out.read_text())["verdict"] in ("robust", "AI-dependent", "undecided")


def test_playtest_robust_with_storage_keeps_each_sides_study_and_resumes_it(race, tmp_path):
    from cli.main import cli

    studies = tmp_path / "studies"
    args = ["playtest", race, "--robust", "--games", "20", "--tune-games", "10", "--workers", "1",
            "--ai", "german=tunable,russian=tunable", "--storage", str(studies), "--quiet"]
    r = CliRunner().invoke(cli, args + ["--trials", "2"])
    assert r.exit_code == 0, r.output
    stem = Path(race).stem
    assert {f"{stem}-german.optuna.db", f"{stem}-russian.optuna.db", f"{stem}-checks-default.json"} \
        <= {p.name for p in studies.iterdir()}
    assert "(2 trials" in r.output
    more = CliRunner().invoke(cli, args + ["--trials", "3"])  # two trials a side are kept: one more each
    assert more.exit_code == 0, more.output
    assert more.output.count("(3 trials") == 2
    # the verdict's own batches may grow (their kept games extended): the studies are extended as before
    other = CliRunner().invoke(cli, args[:4] + ["30"] + args[5:] + ["--trials", "3"])
    assert other.exit_code == 0, other.output
    bad = CliRunner().invoke(cli, args[:6] + ["12"] + args[7:] + ["--trials", "3"])
    assert bad.exit_code == 1 and "games 10 there, 12 here" in bad.output and "Traceback" not in bad.output


def test_tuning_on_one_shared_pool_of_two_workers_gives_the_results_of_one_process(race, pools_started):
    """Every trial's batch (and the check) runs on one pool kept open for the whole run
    (core.playtest.shared_pool): one pool started, the same trials and scores as in one process."""
    one = _tune(race, trials=3, games=6, check_games=6)
    two = _tune(race, trials=3, games=6, check_games=6, workers=2)
    assert len(pools_started) == 1
    assert (two.best, two.best_score, two.history, two.check) == (one.best, one.best_score, one.history, one.check)


def test_a_pool_started_from_another_thread_starts_its_workers_afresh(race):
    """The editor runs its checks in a background thread: fork would copy only that thread, and a
    lock another thread held would stay locked in the worker, so the pool spawns its workers
    there (a rule system added at run time still reaches them) and the games are the same."""
    import threading

    from core import playtest

    methods = []
    real = playtest._LocalPool

    def noting(*a, **kw):
        pool = real(*a, **kw)
        methods.append(pool.method)
        return pool

    here = _tune(race, trials=2, games=6, workers=2)
    out = {}
    playtest._LocalPool = noting
    try:
        t = threading.Thread(target=lambda: out.setdefault("run", _tune(race, trials=2, games=6, workers=2)))
        t.start()
        t.join(120)
    finally:
        playtest._LocalPool = real
    assert methods == ["spawn"] and playtest._start_method() is None  # the main thread: the default
    there = out["run"]
    assert (there.best, there.best_score, there.history) == (here.best, here.best_score, here.history)


def test_ctrl_c_in_a_trial_s_games_stops_the_tuning_and_keeps_the_trials_done(race, tmp_path, monkeypatch):
    """Ctrl-C (or SIGTERM) while a trial's games are played: the trials done are kept and the best
    of them written (exit 130), as between trials; the batch runner's interruption does not
    escape as an error."""
    from cli.main import cli
    from core import playtest

    real, calls = playtest._play, [0]

    def play(*a, **k):  # the 25th game: in the third trial of 10 games
        calls[0] += 1
        if calls[0] == 25:
            raise KeyboardInterrupt
        return real(*a, **k)

    monkeypatch.setattr(playtest, "_play", play)
    res = _tune(race, trials=5, games=10)
    assert res.interrupted and res.trials == 2 and len(res.history) == 2
    calls[0] = 0
    out = tmp_path / "g.json"
    r = CliRunner().invoke(cli, ["tune", race, "--side", "german", "--player", "tunable", "--trials", "5", "--games",
                                 "10", "--workers", "1", "-o", str(out), "--quiet", "--check-games", "0"])
    assert r.exit_code == 130, r.output
    assert "Traceback" not in r.output and json.loads(out.read_text())["trials"] == 2


def test_a_tuning_asked_to_stop_ends_after_the_running_trial_and_keeps_it(race, tmp_path):
    """``should_stop`` (the editor's Cancel, from another thread): the run ends as Ctrl-C ends it,
    after the trial that was running, which is kept; run again, the study goes on from there."""
    db = str(tmp_path / "study.db")
    done = []
    res = _tune(race, trials=6, games=6, storage=db, on_trial=lambda n, s, b: done.append(n),
                should_stop=lambda: len(done) >= 2)
    assert res.interrupted and res.trials == 2 and done == [1, 2]
    more = _tune(race, trials=4, games=6, storage=db)
    assert more.trials == 4 and not more.interrupted and more.history[:2] == res.history


def test_a_study_in_a_folder_not_made_yet_makes_it(race, tmp_path):
    """``--storage DIR/x.db`` in a folder that does not exist yet makes it, as ``--json`` does."""
    db = tmp_path / "new" / "sub" / "study.db"
    assert _tune(race, trials=1, games=4, storage=str(db)).trials == 1 and db.is_file()


def test_a_defaults_trial_left_queued_by_a_stopped_run_is_played_once(race, tmp_path):
    """A run stopped after it queued the defaults' trial but before playing it: run again, the
    defaults are played once, not queued a second time."""
    import optuna

    from core.tuning import default_study_name

    db = str(tmp_path / "study.db")
    st = optuna.storages.RDBStorage(f"sqlite:///{Path(db).resolve()}")
    study = optuna.create_study(direction="maximize", storage=st, study_name=default_study_name(race, "german", "tunable"))
    study.enqueue_trial({"two_dice": 0.0})
    st.engine.dispose()
    res = _tune(race, trials=3, games=6, storage=db)
    values = _trial_values(db, race)
    assert res.trials == 3 and len(values) == 3
    assert values.count(0.0) == 1 and values[0] == 0.0


def test_fewer_than_30_paired_games_a_side_give_no_verdict():
    # two paired games give the whole range, a handful a spread that says nothing (zero-width when
    # they happen to agree): no verdict either way, no lean, no count of games that would decide,
    # only that the games are too few
    from core.robust_balance import MIN_LEAN_GAMES, SideTuning, verdict

    def t(side, g, n):
        return SideTuning(side, None, {}, {"german": {"count": n}, "russian": {"count": 0}, "draw": {"count": 0}}, g)

    v, text = verdict({"german": t("german", (50.0, -100.0, 100.0), 2), "russian": t("russian", (0.0, -3.0, 3.0), 200)})
    assert v == "undecided"
    assert text == ("2 paired check games a side are too few for a verdict (german +50.0 [-100.0, +100.0]; "
                    f"russian +0.0 [-3.0, +3.0]); play at least {MIN_LEAN_GAMES} check games a pairing")
    v, text = verdict({"german": t("german", (9.0, 2.0, 16.0), MIN_LEAN_GAMES),
                       "russian": t("russian", (0.0, -3.0, 3.0), MIN_LEAN_GAMES)})
    assert "leans robust" in text and "would decide it" in text
    # intervals that would decide are no verdict from a few games: neither robust (four games that
    # agree give a zero-width interval) nor AI-dependent
    for g in ((0.0, 0.0, 0.0), (40.0, 25.0, 55.0)):
        v, text = verdict({"german": t("german", g, 4), "russian": t("russian", (0.0, -1.0, 1.0), 4)})
        assert v == "undecided" and "4 paired check games a side are too few for a verdict" in text
    assert verdict({"german": t("german", (0.0, -1.0, 1.0), MIN_LEAN_GAMES),
                    "russian": t("russian", (0.0, -1.0, 1.0), MIN_LEAN_GAMES)})[0] == "robust"


def test_the_long_runs_progress_estimates_the_time_left_from_played_work_only():
    # a resumed robust stage takes its kept games at once, then plays: the time left is the pace
    # of the games played over the whole stage (one tuning trial of a large scenario outlasts
    # rich's 30 s window), the kept ones counted as done
    from cli.tune_command import eta_progress, time_left_column

    now = [0.0]
    progress = eta_progress(quiet=True, get_time=lambda: now[0])
    column = time_left_column()
    task = progress.add_task("3/5 german tuned games", total=3400, kept=0)
    progress.update(task, advance=3000, kept=3000)  # kept by an earlier run
    assert column.render(progress.tasks[0]).plain == "-:--:--"  # nothing played yet: no estimate
    now[0] += 60.0
    progress.advance(task, 10)
    assert column.render(progress.tasks[0]).plain == "0:39:00"  # 10 in 60 s: 390 left at 6 s a game
    now[0] += 60.0
    progress.advance(task, 10)
    assert column.render(progress.tasks[0]).plain == "0:38:00"  # 20 in 120 s: 380 left at 6 s a game
    # a fresh tuning: the first trial's time counts (it began when the bar did)
    trials = progress.add_task("tuning", total=30)
    now[0] += 90.0
    progress.update(trials, completed=1)
    assert column.render(progress.tasks[1]).plain == "0:43:30"  # 29 trials left at 90 s
    # a resumed study: its 11 kept trials are done, not pace
    resumed = progress.add_task("tuning", total=30, completed=11, kept=11)
    now[0] += 90.0
    progress.update(resumed, completed=12)
    assert column.render(progress.tasks[2]).plain == "0:27:00"  # 18 trials left at 90 s
