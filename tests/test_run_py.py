"""run.py builds .venv with the newest Python >= 3.12 that actually runs (a pyenv shim on the PATH
exists but fails unless selected: it is skipped)."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run_py():
    spec = importlib.util.spec_from_file_location("run_py", ROOT / "run.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _fake(tmp_path: Path, name: str, body: str) -> str:
    p = tmp_path / name
    p.write_text("#!/bin/sh\n" + body + "\n")
    p.chmod(0o755)
    return str(p)


@pytest.mark.skipif(os.name == "nt", reason="shell scripts stand in for interpreters")
def test_the_newest_working_python_of_3_12_or_more_is_chosen(tmp_path: Path, monkeypatch) -> None:
    run = _run_py()
    shim = _fake(tmp_path, "python3.14", "echo 'pyenv: python3.14: command not found' >&2; exit 127")
    old = _fake(tmp_path, "python3.11", "echo 3 11")
    good = _fake(tmp_path, "python3.12", "echo 3 12")
    newer = _fake(tmp_path, "python3.13", "echo 3 13")
    assert run.python_version(shim) is None
    assert run.python_version(old) == (3, 11)
    monkeypatch.setattr(run, "candidate_pythons", lambda: [old, shim, good, newer])
    assert run.newest_python() == newer
    monkeypatch.setattr(run, "candidate_pythons", lambda: [old, shim, good])
    assert run.newest_python() == good
    monkeypatch.setattr(run, "candidate_pythons", lambda: [old, shim])
    with pytest.raises(SystemExit, match="3.12 or newer"):
        run.newest_python()


def test_this_interpreter_is_a_candidate_and_runs() -> None:
    run = _run_py()
    assert sys.executable in run.candidate_pythons()
    assert run.python_version(sys.executable) == sys.version_info[:2]


def test_playtest_plays_scenario_1_or_the_scenario_file_named_first(tmp_path: Path, monkeypatch) -> None:
    run = _run_py()
    played = []
    monkeypatch.setattr(run, "ensure_venv", lambda: None)
    where = []
    monkeypatch.setattr(run.subprocess, "run", lambda args, **kw: played.append(args) or where.append(kw["cwd"])
                        or type("R", (), {"returncode": 0}))
    assert run.main(["playtest", "--games", "3"]) == 0
    assert played[-1][1:] == ["playtest", str(ROOT / "scenarios" / "data" / "scenario_1_demyansk_pocket.json"),
                              "--games", "10", "--seed", "1", "--games", "3"]  # the option given wins (click)
    monkeypatch.chdir(tmp_path)  # a path as typed, from where the command was typed
    assert run.main(["playtest", "mine.json", "--seed", "4"]) == 0
    assert played[-1][1:] == ["playtest", str(tmp_path / "mine.json"), "--games", "10", "--seed", "1", "--seed", "4"]
    # played from there too: --json out.json, --replays DIR and --report DIR land where the user is
    assert where[-1] == str(tmp_path)
