"""The command line is the same however it is started: ``ironcross``, ``python -m cli`` and
``python -m cli.main`` list the same commands (those registered from their own modules included)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _commands(*args: str) -> set[str]:
    out = subprocess.run([sys.executable, *args, "--help"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    block = out.stdout.split("Commands:", 1)[1]
    return set(re.findall(r"^  (\w+)", block, re.M))


def test_python_m_cli_main_has_every_command_of_python_m_cli():
    a = _commands("-m", "cli")
    assert {"balance", "tune", "playtest", "validate", "export"} <= a
    assert _commands("-m", "cli.main") == a
