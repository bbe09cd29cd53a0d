"""The installed packages carry every data file the code reads: a non-editable install
(``pip install .``, a wheel) holds only the ``.py`` files and what ``[tool.setuptools.package-data]``
in ``pyproject.toml`` names, so each other file under a package must match one of its patterns."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_data_file_under_a_package_is_in_the_package_data():
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    data = cfg["tool"]["setuptools"]["package-data"]
    packages = [p.rstrip("*") for p in cfg["tool"]["setuptools"]["packages"]["find"]["include"]]
    files = [f.relative_to(ROOT).as_posix() for p in packages for f in sorted((ROOT / p).rglob("*"))
             if f.is_file() and "__pycache__" not in f.parts and not f.name.endswith((".py", ".pyc"))]
    others = [f for f in files if "/tests/" not in f]
    assert others, "no data file found: the check would pass on nothing"
    missing = []
    for f in others:
        top, rest = f.split("/", 1)
        if not any(fnmatch.fnmatch(rest, pat) for pat in data.get(top, [])):
            missing.append(f)
    assert not missing, f"not in [tool.setuptools.package-data]: {missing}"
