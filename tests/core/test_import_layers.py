"""The import graph: the engine, the maps and the scenarios sit below the front ends, so that the
command line runs headless and each layer can be read without the ones above it. Nothing in
``core/``, ``maps/`` or ``scenarios/`` imports the editor, the command line (``cli/``) or Qt, not
even inside a function; Iron Cross's AI and players (``core/ironcross/ai/``,
``core/ironcross/players.py``) import nothing of the editor or the command line; and the parts of
``core/`` every rule system shares (the boundary, dice, action codec, replay, runner, document
kinds) import no system's package: they reach a system only through the registry in
``core.rule_system``. Inside ``editor/`` the packages import one way (the shell above the modes,
the modes above the shared drawing) with no circle, and no file grows past 800 lines. Each failure
names the file, the line and the import."""

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
SHARED_CORE = ("rule_system.py", "dice.py", "action_codec.py", "replay.py", "playtest.py", "document_kinds.py",
               "vassal_plan.py", "tuning.py", "robust_balance.py", "whatif.py", "behaviour_settings.py", "game_log.py")
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
    f.write_text("import os\n\ndef f():\n    from editor.drawing.map_painter import render_file\n    import PySide6.QtGui\n")
    assert [(n, _top(m)) for n, m in imported_modules(f)] == [(1, "os"), (4, "editor"), (5, "PySide6")]


# ------------------------------------------------------------------------------ inside the editor

EDITOR = ROOT / "editor"
#: The editor's packages and what each may import of the editor (docs/editor.md, "Layout of the
#: code"). Arrows run one way: the shell (the modules directly in ``editor/``: ``app``,
#: ``main_window``, ``mode_wiring``) uses the modes, the modes use the shared drawing at the
#: bottom. No mode imports another mode or the shell: the shell makes the Play mode's docks and the
#: tabletop tools and hands them to the Scenario controller (``editor.mode_wiring``). ``editor.modes``
#: is data (the modes' tools) any part may read.
EDITOR_ALLOWED: dict[str, set[str]] = {
    "shell": {"shell", "modes", "map", "scenario", "play", "tabletop", "drawing"},
    "devtools": {"devtools", "shell", "modes", "map", "scenario", "play", "tabletop", "drawing"},
    "scenario": {"scenario", "modes", "drawing"},
    "play": {"play", "drawing"},
    "tabletop": {"tabletop", "drawing"},
    "map": {"map", "drawing"},
    "drawing": {"drawing"},
    "modes": set(),
}
#: Single modules of another package a package may import, with the reason.
EDITOR_ALLOWED_MODULES: dict[str, dict[str, str]] = {
    "scenario": {"editor.map.document": "a scenario opens its map file and resolves its regions on the live map "
                                        "document (one truth)"},
}
assert set(EDITOR_ALLOWED) >= {p.name for p in EDITOR.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
#: Files allowed over the size limit, with the reason (none: split a long file by responsibility).
LONG_FILES: dict[str, str] = {}
MAX_LINES = 800


def editor_package(module: str) -> str:
    """The package of an editor module (``editor.scenario.builders.x`` -> ``scenario``): ``shell``
    for the modules directly in ``editor/`` (``editor.modes`` apart)."""
    parts = module.split(".")
    if len(parts) == 1 or (len(parts) == 2 and parts[1] != "modes" and not (EDITOR / parts[1]).is_dir()):
        return "shell"
    return parts[1]


def editor_modules() -> dict[str, Path]:
    out = {}
    for p in sorted(EDITOR.rglob("*.py")):
        parts = list(p.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = p
    return out


def editor_graph() -> dict[str, dict[str, int]]:
    """module -> {imported editor module: line}, every import (nested ones too), a ``from package
    import module`` counted as the module."""
    mods = editor_modules()
    graph: dict[str, dict[str, int]] = {}
    for name, path in mods.items():
        deps: dict[str, int] = {}
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                targets = [f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in mods else node.module
                           for a in node.names]
            else:
                continue
            for t in targets:
                while t not in mods and "." in t:
                    t = t.rsplit(".", 1)[0]
                if t in mods and t != name and t != "editor":
                    deps.setdefault(t, node.lineno)
        graph[name] = deps
    return graph


def import_circles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, {})):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_circles_inside_the_editor():
    graph = editor_graph()
    assert len(graph) > 40
    mods = editor_modules()
    circles = import_circles(graph)
    assert not circles, "import circles in editor/:\n" + "\n".join(
        " <-> ".join(str(mods[m].relative_to(ROOT)) for m in c) for c in circles)


def test_editor_packages_import_only_downwards():
    """The arrows of :data:`EDITOR_ALLOWED`: e.g. ``editor/map`` imports nothing of
    ``editor/scenario``, ``editor/play`` or ``editor/tabletop``; no mode imports the shell; the
    shared drawing imports no mode."""
    mods = editor_modules()
    bad = []
    for name, deps in editor_graph().items():
        src = editor_package(name)
        for dep, line in sorted(deps.items()):
            if editor_package(dep) not in EDITOR_ALLOWED[src] and dep not in EDITOR_ALLOWED_MODULES.get(src, {}):
                bad.append(f"{mods[name].relative_to(ROOT)}:{line} ({src}) imports {dep} ({editor_package(dep)})")
    assert not bad, "editor imports against the layering:\n" + "\n".join(bad)


def test_no_editor_file_over_the_size_limit():
    long = [f"{p.relative_to(ROOT)}: {n} lines" for p in sorted(EDITOR.rglob("*.py"))
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
            and str(p.relative_to(ROOT)) not in LONG_FILES]
    stale = [f for f in LONG_FILES if not (ROOT / f).exists()
             or len((ROOT / f).read_text(encoding="utf-8").splitlines()) <= MAX_LINES]
    assert not stale, "LONG_FILES entries no longer needed: " + ", ".join(stale)
    assert not long, f"editor files over {MAX_LINES} lines (split them by responsibility):\n" + "\n".join(long)


def test_the_circle_finder_names_a_circle():
    graph = {"editor.a": {"editor.b": 1}, "editor.b": {"editor.c": 1}, "editor.c": {"editor.a": 3},
             "editor.d": {"editor.a": 1}}
    assert import_circles(graph) == [["editor.a", "editor.b", "editor.c"]]
    assert editor_package("editor.scenario.builders.region_builder") == "scenario"
    assert editor_package("editor.main_window") == "shell" and editor_package("editor.modes") == "modes"
    assert editor_package("editor.mode_wiring") == "shell" and editor_package("editor.scenario") == "scenario"
