"""Playtests on a Dask distributed cluster: a LocalCluster on loopback gives the
same per-game results as the local pool, through ``run_batch`` and ``ironcross playtest --scheduler``;
an unreachable scheduler is a clear message and exit 1, quickly."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from core.playtest import PlaytestError, run_batch

RANDOM = {"german": "random", "russian": "random"}  # fast games (the default players are heuristic)
from tests.core.test_playtest import short_scenario

distributed = pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parents[2]
S1_FULL = str(ROOT / "scenarios" / "data" / "scenario_1_demyansk_pocket.json")
GAMES, SEED = 2, 21


@pytest.fixture(scope="module")
def s1(tmp_path_factory):
    """Scenario 1 cut to three Game Turns (same map and OOB) to keep CI fast."""
    return short_scenario(tmp_path_factory.mktemp("sc"), turns=3, source=S1_FULL)


def _key(r) -> tuple:
    return (r.index, r.seed, r.outcome, r.turns, r.casualties, r.casualties_by_turn, r.eliminated_at, r.fire_at,
            r.fire_from, r.actions)


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None, silence_logs=50) as c:
        yield c


@pytest.fixture(scope="module")
def local(s1):
    return run_batch(s1, GAMES, SEED, RANDOM, workers=1)


def test_cluster_gives_the_local_pool_results(s1, cluster, local, tmp_path):
    done = []
    remote = run_batch(s1, GAMES, SEED, RANDOM, scheduler=cluster.scheduler_address,
                       replay_dir=str(tmp_path), on_progress=done.append)
    assert [_key(r) for r in remote] == [_key(r) for r in local]
    assert sum(done) == GAMES
    # replays come back from the workers and are written here
    assert all(Path(r.replay).is_file() and Path(r.replay).parent == tmp_path for r in remote)


def test_a_batch_wider_than_its_window_on_the_cluster_gives_the_same_results(s1, cluster, local, monkeypatch):
    """A batch keeps only a window of its tasks on the cluster, each finished one replaced by the
    next (a huge batch does not load the scheduler with every task; a stopped one cancels only the
    window): with a window of one task the results are those of the local pool."""
    import core.playtest as playtest

    monkeypatch.setattr(playtest, "DASK_WINDOW_PER_THREAD", 0)
    monkeypatch.setattr(playtest, "DASK_WINDOW_MIN", 1)
    done = []
    remote = run_batch(s1, GAMES, SEED, RANDOM, scheduler=cluster.scheduler_address, on_progress=done.append)
    assert [_key(r) for r in remote] == [_key(r) for r in local] and sum(done) == GAMES
    assert len(done) > 1   # several tasks, one after another


def test_cli_scheduler_gives_the_local_pool_results(s1, cluster, local, tmp_path):
    out = tmp_path / "r.json"
    res = CliRunner().invoke(cli, ["playtest", s1, "--games", str(GAMES), "--seed", str(SEED), "--quiet",
                                   "--ai", "german=random,russian=random",
                                   "--scheduler", cluster.scheduler_address, "--json", str(out)])
    assert res.exit_code == 0, res.output
    doc = json.loads(out.read_text())
    timing = ("seconds",)  # wall time differs from run to run; everything else must be identical
    assert [{k: v for k, v in g.items() if k not in timing} for g in doc["per_game"]] == [
        {"index": r.index, "seed": r.seed, "outcome": r.outcome, "turns": r.turns,
         "casualties": r.casualties, "casualties_by_turn": r.casualties_by_turn,
         "first_contact": r.first_contact, "eliminations_by_rule": r.eliminations_by_rule, "idle": r.idle,
         "decisions": r.actions, "reason": r.reason, "error": None, "blunders": r.blunders, "replay": None}
        for r in local]


def test_bad_scheduler_address_is_a_clear_message_quickly():
    t0 = time.perf_counter()
    res = CliRunner().invoke(cli, ["playtest", S1_FULL, "--games", "1", "--quiet", "--scheduler", "tcp://127.0.0.1:9",
                                   "--connect-timeout", "2"])
    assert res.exit_code == 1
    assert "cannot connect to the Dask scheduler at 'tcp://127.0.0.1:9'" in res.output
    assert "Traceback" not in res.output and res.exception is None or isinstance(res.exception, SystemExit)
    res = CliRunner().invoke(cli, ["playtest", S1_FULL, "--games", "1", "--quiet", "--scheduler", "not an address",
                                   "--connect-timeout", "2"])
    assert res.exit_code == 1 and "cannot connect to the Dask scheduler" in res.output, res.output
    assert time.perf_counter() - t0 < 15
    with pytest.raises(PlaytestError):
        run_batch(S1_FULL, 1, 1, RANDOM, scheduler="tcp://127.0.0.1:9", connect_timeout=1)


def test_a_failed_connection_leaves_no_client_for_the_garbage_collector():
    """A Client whose constructor raised (no scheduler at the address) is collected before
    run_batch reports the failure: left to a later garbage collection, its __del__ closed it while
    the next Client started and waited forever on distributed's class-wide LoopRunner lock (a full
    test run hung in the next cluster test). The collector is off here, so only run_batch's own
    collection can remove it."""
    import gc

    from distributed import Client

    gc.collect()
    gc.disable()
    try:
        with pytest.raises(PlaytestError, match="cannot connect"):
            run_batch(S1_FULL, 1, 1, RANDOM, scheduler="tcp://127.0.0.1:9", connect_timeout=1)
        left = [o for o in gc.get_objects() if isinstance(o, Client)]
    finally:
        gc.enable()
    assert left == []


def test_cluster_plays_a_rule_system_added_at_run_time(cluster, tmp_path):
    """The batch's rule system travels with its tasks (its module), so the Dask workers
    play a system registered at run time (the toy race of tests/toy_system.py)
    and give the local pool's results."""
    from core import rule_system
    from tests.core.test_rule_system_boundary import _plain
    from tests.toy_system import TOY, toy_file

    rule_system.SYSTEM_MODULES[TOY] = "tests.toy_system"
    try:
        sc = toy_file(tmp_path)
        ai = {"german": "random", "russian": "heuristic"}
        local = run_batch(sc, 4, 2, ai, workers=1)
        remote = run_batch(sc, 4, 2, ai, scheduler=cluster.scheduler_address, connect_timeout=30)
        assert [_plain(r) for r in remote] == [_plain(r) for r in local]
        assert all(r.rule_system == TOY and r.error is None for r in remote)
    finally:
        rule_system.unregister(TOY)


@pytest.mark.parametrize("name", ["redflags_1_hill_j.json", "twentymm_1_village_counterattack.json"])
def test_cluster_plays_the_shipped_scenarios_of_the_other_rule_systems(cluster, name, tmp_path):
    """``ironcross playtest`` of the shipped Red Flags and 20 mm
    scenarios (each cut to two Game Turns, its later arrivals brought forward: a random 20 mm game
    is long) runs on a Dask LocalCluster and gives the embedded pool's per-game results."""
    from tests.scenario_copies import scenario_copy

    sc = str(scenario_copy(tmp_path, ROOT / "scenarios" / "data" / name, turns=2))
    local = run_batch(sc, 2, 5, RANDOM, workers=1)
    remote = run_batch(sc, 2, 5, RANDOM, scheduler=cluster.scheduler_address, connect_timeout=30)
    assert all(r.outcome in ("german", "russian", "draw") for r in remote), [r.error for r in remote]
    assert [_key(r) for r in remote] == [_key(r) for r in local]


def test_a_tuning_run_on_the_cluster_gives_the_local_pools_trials_and_results(cluster, tmp_path):
    """``ironcross tune`` plays its trials' games through the batch runner: on a Dask LocalCluster
    of two workers a small run (3 trials x 2 games of the toy race with a tunable player,
    tests/tuning_race.py) suggests the same settings, scores them the same and finds the same best
    as on the local pool (the sampler is seeded; every trial plays the same game seeds)."""
    optuna = pytest.importorskip("optuna")
    from core import rule_system
    from core.tuning import tune
    from tests.toy_system import toy_file
    from tests.tuning_race import MODULE, NAME, SYSTEM, canonical

    rule_system.register(SYSTEM, MODULE)
    try:
        sc = toy_file(tmp_path, rule_system=NAME, turns=6, target=30)
        runs = {}
        for where, how in (("pool", {"workers": 2}), ("cluster", {"scheduler": cluster.scheduler_address})):
            db = tmp_path / f"{where}.db"
            res = tune(sc, "german", {"two_dice": (0.0, 1.0, False)}, player="tunable", opponent="heuristic",
                       trials=3, games=2, seed=4, defaults={"two_dice": 0.0}, canonical=canonical,
                       storage=str(db), study_name="race", **how)
            study = optuna.load_study(study_name="race", storage=f"sqlite:///{db}")
            trials = [(t.number, t.params, t.value) for t in study.trials]
            runs[where] = (trials, res.best, res.best_score, res.default_score, res.history)
        assert len(runs["pool"][0]) == 3
        assert runs["cluster"] == runs["pool"]
    finally:
        rule_system.unregister(NAME)


def test_a_port_that_is_no_dask_scheduler_is_a_clear_message_within_the_timeout(tmp_path):
    """distributed's Client waits for ever on a port that accepts the connection but never answers
    its handshake (a dashboard's web port), and reads another protocol's bytes as a frame length:
    the runner asks first and names the problem within --connect-timeout."""
    import socket
    import threading

    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(4)   # connections complete, nothing is ever said
    talker = socket.socket()
    talker.bind(("127.0.0.1", 0))
    talker.listen(4)
    talker.settimeout(0.2)   # the answering thread looks at `stop` between connections
    stop = threading.Event()

    def answer_in_http() -> None:
        while not stop.is_set():
            try:
                c, _ = talker.accept()
            except (TimeoutError, OSError):
                continue
            c.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n" * 8)
            c.close()

    answering = threading.Thread(target=answer_in_http, daemon=True)
    answering.start()
    try:
        for sock, words in ((silent, "no Dask scheduler answered there"), (talker, "cannot connect to the Dask scheduler")):
            t0 = time.perf_counter()
            addr = "tcp://127.0.0.1:%d" % sock.getsockname()[1]
            res = CliRunner().invoke(cli, ["playtest", S1_FULL, "--games", "1", "--quiet", "--scheduler", addr,
                                           "--connect-timeout", "0.3"])
            assert res.exit_code == 1 and words in res.output, res.output
            assert "Traceback" not in res.output and time.perf_counter() - t0 < 10
        res = CliRunner().invoke(cli, ["playtest", S1_FULL, "--games", "1", "--quiet", "--scheduler",
                                       "tcp://127.0.0.1:99999"])
        assert res.exit_code == 1 and "port 99999 is out of range (1 to 65535)" in res.output
        # tune and balance ask the scheduler before they make any file (a tuning study), in their
        # own --connect-timeout, and name --scheduler as playtest does
        addr = "tcp://127.0.0.1:%d" % silent.getsockname()[1]
        for cmd in (["tune", S1_FULL, "--side", "german", "-o", str(tmp_path / "t.json")],
                    ["balance", S1_FULL, "--target", "german=50", "--json", str(tmp_path / "b.json")],
                    ["playtest", S1_FULL, "--robust", "--storage", str(tmp_path / "rb")]):
            t0 = time.perf_counter()
            res = CliRunner().invoke(cli, [*cmd, "--scheduler", addr, "--connect-timeout", "0.3"])
            assert res.exit_code == 1 and f"--scheduler: cannot connect to the Dask scheduler at '{addr}'" in res.output
            assert time.perf_counter() - t0 < 10, cmd
        assert sorted(p.name for p in tmp_path.iterdir()) == []
    finally:
        stop.set()
        answering.join(5)
        silent.close()
        talker.close()
