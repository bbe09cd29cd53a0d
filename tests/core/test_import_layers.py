"""The import graph (issue 18 item 1): the engine, the maps and the scenarios sit below the front
ends. Nothing in ``core/``, ``maps/`` or ``scenarios/`` imports the editor, the command line
(``cli/``) or Qt, not even inside a function; and the parts of ``core/`` every rule system shares
know no system's rules (only the systems' own packages, and the Iron Cross AI and players, import
``core.ironcross``)."""

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


def test_shared_core_knows_no_rule_system():
    """core/playtest.py, core/replay.py, core/document_kinds.py, core/rule_system.py, core/action_codec.py
    and cli/ reach a system only through core.rule_system (core.playtest keeps one lazy re-export for the old
    ``core.playtest.FixedSetupPlayer`` import)."""
    shared = [ROOT / "core" / n for n in ("playtest.py", "replay.py", "document_kinds.py", "rule_system.py", "dice.py",
                                         "action_codec.py")]
    shared += sorted((ROOT / "cli").rglob("*.py"))
    allowed = {("core/playtest.py", "core.ironcross.fixed_setup_player")}
    bad = [f"{p.relative_to(ROOT)}:{line} imports {name}" for p in shared for line, name in imported_modules(p)
           if name.startswith(("core.ironcross", "core.redflags", "core.ai", "core.players"))
           and (str(p.relative_to(ROOT)), name) not in allowed]
    assert not bad, "rule-system code outside its package:\n" + "\n".join(bad)


def test_the_checker_sees_nested_and_from_imports(tmp_path):
    f = tmp_path / "m.py"
    f.write_text("import os\n\ndef f():\n    from editor.drawing.map_painter import render_file\n    import PySide6.QtGui\n")
    assert [(n, _top(m)) for n, m in imported_modules(f)] == [(1, "os"), (4, "editor"), (5, "PySide6")]
