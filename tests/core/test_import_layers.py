"""The import graph: the engine, the maps and the scenarios sit below the front ends, so that the
command line runs headless and each layer can be read without the ones above it. Nothing in
``core/``, ``maps/`` or ``scenarios/`` imports the editor, the command line (``cli/``) or Qt, not
even inside a function; Iron Cross's AI and players (``core/ironcross/ai/``,
``core/ironcross/players.py``) import nothing of the editor or the command line; and the parts of
``core/`` every rule system shares (the boundary, dice, action codec, replay, runner, document
kinds) import no system's package: they reach a system only through the registry in
``core.rule_system``. Each failure names the file, the line and the import."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BELOW = ("core", "maps", "scenarios")
FRONT_ENDS = ("editor", "cli", "PySide6")


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import statement in the file, nested ones included."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append((node.lineno, node.module))
    return out


def _top(name: str) -> str:
    return name.split(".")[0]


def test_core_maps_and_scenarios_never_import_the_editor_the_cli_or_qt():
    files = [p for d in BELOW for p in sorted((ROOT / d).rglob("*.py"))]
    assert len(files) > 40
    bad = [f"{p.relative_to(ROOT)}:{line} imports {name}" for p in files for line, name in imported_modules(p)
           if _top(name) in FRONT_ENDS]
    assert not bad, "front ends imported below them:\n" + "\n".join(bad)


#: The modules of ``core/`` every rule system shares.
SHARED_CORE = ("rule_system.py", "dice.py", "action_codec.py", "replay.py", "playtest.py", "document_kinds.py")
#: The rule systems' own packages under ``core/``.
SYSTEM_PACKAGES = ("core.ironcross", "core.redflags", "core.twentymm")


def _is_under(name: str, packages: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


def test_shared_core_knows_no_rule_system():
    """The shared modules of core/ and cli/ reach a system only through core.rule_system."""
    shared = [ROOT / "core" / n for n in SHARED_CORE]
    assert all(p.is_file() for p in shared), [str(p) for p in shared if not p.is_file()]
    assert sorted(p.name for p in (ROOT / "core").glob("*.py") if p.name != "__init__.py") == sorted(SHARED_CORE), \
        "a new module directly under core/ must be shared by every system (add it to SHARED_CORE) or go into a system"
    shared += sorted((ROOT / "cli").rglob("*.py"))
    bad = [f"{p.relative_to(ROOT)}:{line} imports {name}" for p in shared for line, name in imported_modules(p)
           if _is_under(name, SYSTEM_PACKAGES)]
    assert not bad, "rule-system code reached around the registry:\n" + "\n".join(bad)


def test_iron_cross_ai_and_players_import_no_front_end():
    files = sorted((ROOT / "core" / "ironcross" / "ai").rglob("*.py")) + [ROOT / "core" / "ironcross" / "players.py"]
    assert len(files) >= 8
    bad = [f"{p.relative_to(ROOT)}:{line} imports {name}" for p in files for line, name in imported_modules(p)
           if _top(name) in FRONT_ENDS]
    assert not bad, "Iron Cross's AI imports a front end:\n" + "\n".join(bad)


def test_the_layer_checks_name_the_offending_file(tmp_path, monkeypatch):
    """A shared module importing a system's package fails, naming the file and the line."""
    import pytest

    fake = tmp_path / "core"
    fake.mkdir()
    for n in SHARED_CORE:
        (fake / n).write_text("import json\n")
    (fake / "playtest.py").write_text("def f():\n    from core.redflags.system import SYSTEM\n")
    (tmp_path / "cli").mkdir()
    monkeypatch.setitem(globals(), "ROOT", tmp_path)
    with pytest.raises(AssertionError, match=r"core/playtest.py:2 imports core.redflags.system"):
        test_shared_core_knows_no_rule_system()


def test_the_checker_sees_nested_and_from_imports(tmp_path):
    f = tmp_path / "m.py"
    f.write_text("import os\n\ndef f():\n    from editor.map_painter import render_file\n    import PySide6.QtGui\n")
    assert [(n, _top(m)) for n, m in imported_modules(f)] == [(1, "os"), (4, "editor"), (5, "PySide6")]
