"""The benchmark scripts under ``benchmarks/`` loaded as modules, for their tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def load_script(name: str) -> ModuleType:
    """``benchmarks/<name>.py`` as the module ``<name>_script`` (registered in ``sys.modules``, so
    its dataclasses and pickled values resolve)."""
    spec = importlib.util.spec_from_file_location(f"{name}_script", ROOT / "benchmarks" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod
