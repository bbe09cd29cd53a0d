#!/usr/bin/env python3
"""Quick start for a fresh machine with Python 3.12 or newer somewhere on it.

    python3 run.py playtest   # the main job: a headless playtest of Scenario 1 (see README)
    python3 run.py playtest scenarios/data/twentymm_1_village_counterattack.json   # another scenario
    python3 run.py test       # the whole test suite, headless

Each command creates (or reuses) the virtual environment ``.venv`` next to this file and
installs the toolkit with its test extra when ``pyproject.toml`` changed since the last install.
Any further arguments are passed on (``python3 run.py test -k los``).

The toolkit needs Python 3.12 or newer (pywargame, which writes the VASSAL modules, uses 3.12
syntax). This script itself runs on 3.8+: when the interpreter running it is older, or when an
existing ``.venv`` was made by an older one, it finds the newest working Python >= 3.12 among
``python3.13`` and ``python3.12`` on the PATH and, when pyenv is installed, ``$(pyenv root)/
versions/*/bin/python3``, each checked by actually running it, and builds ``.venv`` with that.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".ironcross-installed"


MIN_PYTHON = (3, 12)


def python_version(exe: str) -> tuple[int, int] | None:
    """(major, minor) of the interpreter at ``exe`` by running it, or None when it does not run.

    A pyenv shim on the PATH exists but fails unless its version is selected: running it is the
    only honest check.
    """
    try:
        out = subprocess.run([exe, "-c", "import sys; print(sys.version_info[0], sys.version_info[1])"],
                             capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    if out.returncode != 0:
        return None
    try:
        major, minor = (int(x) for x in out.stdout.split())
    except ValueError:
        return None
    return major, minor


def candidate_pythons() -> list[str]:
    """Interpreters worth trying, in no particular order: this one, python3.X on the PATH, pyenv's."""
    found = [sys.executable]
    for name in ("python3.14", "python3.13", "python3.12", "python3"):
        exe = shutil.which(name)
        if exe:
            found.append(exe)
    pyenv = shutil.which("pyenv")
    if pyenv:
        try:
            root = subprocess.run([pyenv, "root"], capture_output=True, text=True, timeout=30).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            root = ""
        versions = Path(root) / "versions" if root else None
        if versions and versions.is_dir():
            for exe in sorted(versions.glob("*/bin/python3")):
                found.append(str(exe))
    return found


def newest_python() -> str:
    """Path of the newest working Python >= 3.12 on this machine; exits with a message if none."""
    best: tuple[tuple[int, int], str] | None = None
    for exe in candidate_pythons():
        version = python_version(exe)
        if version is None or version < MIN_PYTHON:
            continue
        if best is None or version > best[0]:
            best = (version, exe)
    if best is None:
        sys.exit("Python 3.12 or newer is needed (tried python3.13, python3.12 on the PATH and pyenv's "
                 "versions); install one and run again")
    return best[1]


def ensure_venv() -> None:
    venv_version = python_version(str(PY)) if PY.exists() else None
    if venv_version is None or venv_version < MIN_PYTHON:
        python = newest_python()
        if PY.exists():
            print(f"recreating {VENV}: it was made by Python {venv_version} (3.12 or newer is needed)", flush=True)
            shutil.rmtree(VENV)
        print(f"creating virtual environment in {VENV} with {python} ...", flush=True)
        subprocess.run([python, "-m", "venv", str(VENV)], check=True)
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if not STAMP.exists() or STAMP.read_text().strip() != digest:
        print("installing ironcross and its dependencies (first run only) ...", flush=True)
        subprocess.run([str(PY), "-m", "pip", "install", "--quiet", "--upgrade", "pip"], check=True)
        subprocess.run([str(PY), "-m", "pip", "install", "--quiet", "-e", f"{ROOT}[test]"], check=True)
        STAMP.write_text(digest)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("playtest", "test"):
        print(__doc__)
        return 2
    ensure_venv()
    env = dict(os.environ)
    # compiled files are cached in __pycache__ (ignored by git) even where PYTHONDONTWRITEBYTECODE
    # is set: without the cache every test worker, CLI run and pool process compiles the sources
    # (and pytest rewrites every test module) again, a third of the test suite's start-up
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    cmd, rest = argv[0], argv[1:]
    if cmd == "test":
        # one pytest worker a core; a worker that runs out of tests takes the rest of another's
        # queue ("worksteal": whole files a worker left the last long files to one core);
        # "-n 0" (or any -n/--numprocesses given) overrides it
        spread = [] if any(a.startswith(("-n", "--numprocesses")) for a in rest) else \
            ["-n", "auto", "--dist", "worksteal"]
        args = [str(PY), "-m", "pytest", "-q", *spread, *rest]
        cwd = str(ROOT)
    else:
        # the main job: a headless playtest of Scenario 1 (options after "playtest" override these),
        # or of the scenario file named first (a path from where the command was typed)
        scenario = str(ROOT / "scenarios" / "data" / "scenario_1_demyansk_pocket.json")
        if rest and not rest[0].startswith("-"):
            scenario, rest = str(Path(rest[0]).resolve()), rest[1:]
        args = [str(BIN / "ironcross"), "playtest", scenario, "--games", "10", "--seed", "1", *rest]
        # from where the command was typed: --json, --replays, --report and --setup paths are the user's
        cwd = os.getcwd()
    return subprocess.run(args, cwd=cwd, env=env).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
