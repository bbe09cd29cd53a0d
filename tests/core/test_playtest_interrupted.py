"""Interrupted or failing output of ``ironcross playtest`` and ``render``: Ctrl-C keeps and
summarises the finished games (exit 130, --json marked partial) and stops the workers; a --json
that cannot be written leaves the results in a temporary file named in the message; a replay
that cannot be written is named; a picture is written atomically (never truncated)."""

from __future__ import annotations

import errno
import json
import os
import select
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import core.playtest as playtest
from cli.main import cli
from tests.core.test_playtest import RANDOM, ROOT, short_scenario

AI = ["--ai", "german=random,russian=random"]


def test_ctrl_c_in_a_batch_summarises_the_finished_games_writes_partial_json_exit_130(tmp_path, monkeypatch):
    sc = short_scenario(tmp_path)
    real = playtest._play

    def play(scenario_path, index, *a, **k):   # Ctrl-C while game 2 is played
        if index == 2:
            raise KeyboardInterrupt
        return real(scenario_path, index, *a, **k)

    monkeypatch.setattr(playtest, "_play", play)
    out = tmp_path / "r.json"
    res = CliRunner().invoke(cli, ["playtest", sc, "--games", "5", "--seed", "3", "--workers", "1", "--quiet",
                                   "--json", str(out), "--replays", str(tmp_path / "rp"), *AI])
    assert res.exit_code == 130, res.output
    assert "INTERRUPTED: 2 of 5 games finished" in res.output and "2 games in" in res.output
    assert "Outcomes" in res.output and "(partial: 2 of 5 games)" in res.output
    doc = json.loads(out.read_text())
    assert doc["partial"] is True and doc["games"] == 5 and doc["games_finished"] == 2
    assert [g["index"] for g in doc["per_game"]] == [0, 1]
    assert sorted(p.name for p in (tmp_path / "rp").iterdir()) == [Path(g["replay"]).name for g in doc["per_game"]]
    # run_batch itself: the finished games travel with the interruption
    with pytest.raises(playtest.BatchInterrupted) as e:
        playtest.run_batch(sc, 4, 3, RANDOM, workers=1)
    assert [r.index for r in e.value.results] == [0, 1] and e.value.total == 4


def test_ctrl_c_in_one_process_keeps_every_game_finished_before_it(tmp_path, monkeypatch):
    """With one worker the games run in this process one by one: Ctrl-C (or SIGTERM) in game 5 of
    30 keeps games 0-4, whatever the chunks a pool would get."""
    sc = short_scenario(tmp_path)
    real = playtest._play

    def play(scenario_path, index, *a, **k):
        if index == 5:
            raise KeyboardInterrupt
        return real(scenario_path, index, *a, **k)

    monkeypatch.setattr(playtest, "_play", play)
    progress = []
    with pytest.raises(playtest.BatchInterrupted) as e:
        playtest.run_batch(sc, 30, 3, RANDOM, workers=1, on_progress=progress.append)
    assert [r.index for r in e.value.results] == [0, 1, 2, 3, 4] and progress == [1] * 5


def test_ctrl_c_before_any_game_finished_exit_130_nothing_to_summarise(tmp_path, monkeypatch):
    sc = short_scenario(tmp_path)
    monkeypatch.setattr(playtest, "_play", lambda *a, **k: (_ for _ in ()).throw(KeyboardInterrupt()))
    res = CliRunner().invoke(cli, ["playtest", sc, "--games", "2", "--workers", "1", "--quiet",
                                   "--json", str(tmp_path / "r.json"), *AI])
    assert res.exit_code == 130 and "no game finished" in res.output
    assert not (tmp_path / "r.json").exists()


def _terminal_sigint() -> None:
    """SIGINT as a terminal gives it: a test runner's worker may ignore SIGINT, and an ignored
    SIGINT is inherited (and then Python leaves it ignored, as for a job started with ``nohup``)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["sigint", "sigterm"])
def test_a_stop_signal_to_a_batch_with_two_workers_stops_them_and_keeps_the_finished_games(tmp_path, sig):
    """Ctrl-C at a terminal reaches the whole process group, and so does the SIGTERM of a job
    scheduler or ``kill``: the command ends as at Ctrl-C (the finished games summarised and kept,
    exit 130), the workers leave it to the parent, which terminates them, and none is left behind."""
    sc = short_scenario(tmp_path, turns=2)
    out, rp = tmp_path / "r.json", tmp_path / "rp"
    p = subprocess.Popen([sys.executable, "-m", "cli", "playtest", sc, "--games", "24", "--workers", "2", "--quiet",
                          "--json", str(out), "--replays", str(rp), *AI], cwd=ROOT, start_new_session=True,
                         preexec_fn=_terminal_sigint, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        for _ in range(1200):   # until two games have finished (the first one's result taken), at most 2 minutes
            if len(list(rp.glob("game_*.jsonl"))) >= 2 or p.poll() is not None:
                break
            select.select([], [], [], 0.1)
        assert p.poll() is None, p.stdout.read()
        os.killpg(p.pid, sig)
        text, _ = p.communicate(timeout=120)   # promptly: never the rest of the 24 games
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    assert p.returncode == 130, text
    assert "Traceback" not in text and "INTERRUPTED:" in text
    doc = json.loads(out.read_text())
    assert doc["partial"] and 1 <= doc["games_finished"] < 24
    assert len(doc["per_game"]) == doc["games_finished"]
    with pytest.raises(ProcessLookupError):   # no worker left behind in the group
        os.killpg(p.pid, 0)


def test_the_command_forks_its_workers_before_the_progress_bar_starts_a_thread(tmp_path):
    """Fork copies only the calling thread (a lock another held stays locked in the child), and
    Python warns when a process with threads forks: the workers start before the progress bar's
    refresh thread, so the warning, shown here, never comes."""
    sc = short_scenario(tmp_path, turns=1)
    r = subprocess.run([sys.executable, "-W", "always::DeprecationWarning", "-m", "cli", "playtest", sc, "--games",
                        "4", "--workers", "2", *AI], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "multi-threaded" not in r.stderr and "4 games in" in r.stdout


def test_a_pool_left_open_at_exit_does_not_hold_the_process():
    """The workers ignore SIGTERM (the parent decides), which multiprocessing's own exit clean-up
    sends its daemon processes before it waits for them: a pool still open at exit is killed
    first, so the process ends at once instead of waiting for ever."""
    code = ("import time; from core.playtest import _LocalPool; pool = _LocalPool(2); time.sleep(1.5); "
            "print('started', flush=True)")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "started" in r.stdout, r.stderr


def test_json_that_cannot_be_written_after_a_finished_batch_goes_to_a_named_temporary_file(tmp_path, monkeypatch):
    # a path below a file is refused before the games (tests/test_file_fuzz.py); a disk that fills
    # while they are played is only found when the results are written
    import maps.document_file

    def full(path, text, *a, **kw):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(maps.document_file, "atomic_write_text", full)
    sc = short_scenario(tmp_path)
    out = tmp_path / "r.json"
    res = CliRunner().invoke(cli, ["playtest", sc, "--games", "2", "--workers", "1", "--quiet",
                                   "--json", str(out), *AI])
    assert res.exit_code == 1
    line = [x for x in res.output.splitlines() if "cannot write" in x][0]
    assert line.startswith(f"{out}: cannot write: No space left on device") and "the results are in " in line
    alt = Path(line.rsplit("the results are in ", 1)[1])
    try:
        doc = json.loads(alt.read_text())
        assert doc["games"] == 2 and len(doc["per_game"]) == 2 and doc["partial"] is False
    finally:
        alt.unlink()


def test_replay_that_cannot_be_written_is_named(tmp_path, monkeypatch):
    import core.replay

    def full(path, header, events):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(core.replay, "write_replay", full)
    sc = short_scenario(tmp_path)
    res = CliRunner().invoke(cli, ["playtest", sc, "--games", "2", "--seed", "4", "--workers", "1", "--quiet",
                                   "--replays", str(tmp_path / "rp"), *AI])
    assert res.exit_code == 1 and "Traceback" not in res.output
    want = tmp_path / "rp" / f"game_00000_seed_{playtest.derive_seed(4, 0)}.jsonl"
    assert f"{want}: cannot write the replay of game 0" in res.output and "No space left on device" in res.output


def test_render_on_a_full_disk_leaves_the_old_picture_and_no_truncated_file(tmp_path, monkeypatch):
    import maps.document_file

    out = tmp_path / "map.png"
    out.write_bytes(b"the old picture")

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(maps.document_file.os, "fsync", full)
    mp = ROOT / "maps" / "data" / "iron_cross_mapsheet_corrected.json"
    res = CliRunner().invoke(cli, ["render", str(mp), "-o", str(out), "--section", "Map 2"])
    assert res.exit_code == 1 and f"{out}: cannot write" in res.output
    assert out.read_bytes() == b"the old picture" and [p.name for p in tmp_path.iterdir()] == ["map.png"]
    monkeypatch.undo()
    res = CliRunner().invoke(cli, ["render", str(mp), "-o", str(out), "--section", "Map 2"])
    assert res.exit_code == 0 and out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


needs_fork = pytest.mark.skipif(__import__("multiprocessing").get_start_method() != "fork",
                                reason="the workers see the test's patch only when forked")


@needs_fork
def test_a_worker_that_dies_mid_batch_is_a_clear_error_and_leaves_no_process(tmp_path, monkeypatch):
    sc = short_scenario(tmp_path)
    real = playtest._run_chunk

    def chunk(args):   # the worker given game 3 dies as if killed for memory
        if any(i == 3 for i, _ in args[1]):
            os._exit(9)
        return real(args)

    monkeypatch.setattr(playtest, "_run_chunk", chunk)
    with pytest.raises(playtest.PlaytestError, match=r"worker process died \(exit code 9\)"):
        playtest.run_batch(sc, 6, 1, RANDOM, workers=2)
    import multiprocessing
    assert multiprocessing.active_children() == []


@needs_fork
def test_an_error_a_worker_raises_outside_a_game_reaches_the_caller_with_its_traceback(tmp_path, monkeypatch):
    sc = short_scenario(tmp_path)

    def chunk(args):
        raise ValueError("no such hex: 9999")

    monkeypatch.setattr(playtest, "_run_chunk", chunk)
    with pytest.raises(ValueError, match="no such hex") as e:
        playtest.run_batch(sc, 4, 1, RANDOM, workers=2)
    assert isinstance(e.value.__cause__, playtest.WorkerTraceback) and "in chunk" in str(e.value.__cause__)


def test_playtest_refuses_options_it_would_ignore(tmp_path):
    """An empty --json, a side named twice in --ai, options only a robust run reads given without
    --robust (and options it does not read given with it), an empty --scheduler or --workers beside
    it: a usage error naming them, never silently ignored."""
    sc = short_scenario(tmp_path, turns=1)
    for args, says in ((["--json", ""], "--json: an empty file name"),
                       (["--ai", "german=random,german=heuristic"], "the side german is named twice"),
                       (["--trials", "3", "--storage", str(tmp_path)], "--trials, --storage only with --robust"),
                       # a robust run plays the first rule level with the AIs' set-ups, keeps no replays
                       # or pictures, and needs a trial beside the defaults: the rest is refused
                       (["--robust", "--rules", "advanced"], "--rules not with --robust"),
                       (["--robust", "--rules", "advanced", "--option", "observation-penalty"],
                        "--rules, --option not with --robust"),
                       (["--robust", "--setup", "x.placement.json", "--replays", str(tmp_path / "r"),
                         "--report", str(tmp_path / "p")], "--setup, --replays, --report not with --robust"),
                       (["--robust", "--trials", "1"], "--trials: a robust run needs at least 2 tuning trials")):
        r = CliRunner().invoke(cli, ["playtest", sc, "--games", "1", "--workers", "1", *args])
        assert r.exit_code in (1, 2) and says in r.output, (args, r.output)
        assert "Traceback" not in r.output
    # balance --robust the same: a single trial (the defaults) tunes nothing, so it gives no verdict
    r = CliRunner().invoke(cli, ["balance", sc, "--target", "german=50", "--robust", "--trials", "1"])
    assert r.exit_code == 2 and "--trials" in r.output and "1 is not in the range 2<=x" in r.output, r.output
    # one backend or the other, named: never the local pool for an empty address, nor Dask silently
    # for --workers beside --scheduler (playtest, tune and balance alike)
    for cmd in (["playtest", sc], ["tune", sc, "--side", "german", "-o", str(tmp_path / "t.json")],
                ["balance", sc, "--target", "german=50"]):
        for args, says in ((["--scheduler", ""], "--scheduler: an empty address"),
                           (["--scheduler", "tcp://127.0.0.1:1", "--workers", "2"], "--workers with --scheduler")):
            r = CliRunner().invoke(cli, [*cmd, *args])
            assert r.exit_code == 2 and says in r.output, (cmd, args, r.output)
    assert not (tmp_path / "t.json.optuna.db").exists()
    assert not (tmp_path / "r").exists() and not (tmp_path / "p").exists()


def test_a_reader_that_leaves_does_not_cost_the_games_played(tmp_path):
    """``ironcross playtest ... --json OUT | head -1``: the reader of standard output goes after the
    first line; the command still writes OUT and exits 0 (click alone would end it at the first
    line it cannot print, exit 1, before the JSON is written)."""
    sc = short_scenario(tmp_path, turns=1)
    out = tmp_path / "r.json"
    p = subprocess.Popen([sys.executable, "-m", "cli.main", "playtest", sc, "--games", "2", "--workers", "1",
                          "--quiet", "--ai", "german=random,russian=random", "--json", str(out)],
                         cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = p.stdout.readline()
    p.stdout.close()  # the reader leaves
    err = p.stderr.read().decode()
    assert p.wait(120) == 0, err
    assert first.strip(), first  # the heading line reached the reader
    assert "Traceback" not in err and "BrokenPipe" not in err
    assert json.loads(out.read_text())["games_finished"] == 2


def test_a_cluster_that_fails_part_way_keeps_the_games_that_finished(tmp_path, monkeypatch):
    """The Dask scheduler goes away after the first part of the batch: the games that finished are
    summarised and written to --json (partial, with the failure), exit 1 naming the cluster's
    failure, no traceback."""
    sc = short_scenario(tmp_path, turns=1)

    def parts(scheduler, make_tasks, connect_timeout, module=None):
        task = make_tasks(2)[0]
        yield playtest._run_chunk(task)
        raise playtest.PlaytestError(f"a batch failed on the Dask cluster at {scheduler!r}: CancelledError: "
                                     "scheduler-connection-lost")

    monkeypatch.setattr(playtest, "_dask_parts", parts)
    with pytest.raises(playtest.BatchLost) as e:
        playtest.run_batch(sc, 6, 1, RANDOM, scheduler="tcp://127.0.0.1:1")
    done = [r.index for r in e.value.results]
    assert done == sorted(done) and 0 < len(done) < 6 and e.value.total == 6
    out = tmp_path / "r.json"
    r = CliRunner().invoke(cli, ["playtest", sc, "--games", "6", "--scheduler", "tcp://127.0.0.1:1", "--quiet",
                                 "--ai", "german=random,russian=random", "--json", str(out)])
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert "scheduler-connection-lost" in r.output and f"BATCH LOST: {len(done)} of 6 games finished" in r.output
    doc = json.loads(out.read_text())
    assert doc["partial"] and doc["games_finished"] == len(done) and "connection-lost" in doc["cluster_failed"]
