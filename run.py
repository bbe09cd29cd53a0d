#!/usr/bin/env python3
"""Quick start for a fresh machine with only Python 3.11+.

    python3 run.py playtest   # the main job: a headless playtest of Scenario 1 (see README)
    python3 run.py test       # the whole test suite, headless

Each command creates (or reuses) the virtual environment ``.venv`` next to this file and
installs the toolkit with its test extra when ``pyproject.toml`` changed since the last install.
Any further arguments are passed on (``python3 run.py test -k los``).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".ironcross-installed"


def ensure_venv() -> None:
    if sys.version_info < (3, 11):
        sys.exit(f"Python 3.11 or newer is needed; this is {sys.version.split()[0]}")
    if not PY.exists():
        print(f"creating virtual environment in {VENV} ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
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
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    cmd, rest = argv[0], argv[1:]
    if cmd == "test":
        args = [str(PY), "-m", "pytest", "-q", *rest]
    else:
        # the main job: a headless playtest of Scenario 1 (options after "playtest" override these)
        scenario = str(ROOT / "scenarios" / "data" / "scenario_1_demyansk_pocket.json")
        args = [str(BIN / "ironcross"), "playtest", scenario, "--games", "10", "--seed", "1", *rest]
    return subprocess.run(args, cwd=ROOT, env=env).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
