"""A scenario of another rule system opened in the scenario window.

The editor's scenario forms (sides, orders of battle, counter roster, set-up, regions, victory)
edit the scenarios of :data:`FORMS_SYSTEM` (the default system). A scenario file naming another
system (``"rule_system"``, ``docs/rule-systems.md``) opens as a :class:`SystemScenarioDocument`:
read-only, shown by a :class:`SystemScenarioPanel` -- its title, its system, its map sections
(outlined on the map), what the system's own validation says (``summarise_scenario``,
``scenario_warnings``) and, plainly, that its own forms are edited in its file for now; *Reload*
reads the file again after an edit. The Playtest, Watch and Hot-seat docks play it through its
system, from the file as saved.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QLabel, QListWidget, QPushButton, QVBoxLayout, QWidget

from core.rule_system import DEFAULT_SYSTEM, for_scenario, get, scenario_title, system_name_of
from maps.document_file import DocumentError, Problem, read_json

__all__ = ["FORMS_SYSTEM", "SystemScenarioDocument", "SystemScenarioPanel", "is_forms_scenario", "system_of_file"]

#: the system whose scenario files the editor's forms edit (``editor.scenario_document``)
FORMS_SYSTEM = DEFAULT_SYSTEM


def system_of_file(path: str | os.PathLike[str]):
    """The rule system of the scenario file ``path`` (:func:`core.rule_system.for_scenario`).
    Raises ``DocumentError`` naming the file for an unreadable file, an unknown system, or a
    system the registry names whose package is not part of this checkout."""
    try:
        return for_scenario(path)
    except ModuleNotFoundError as e:
        name = system_name_of(read_json(path))
        raise DocumentError(str(path), [Problem("$.rule_system", f"the rule system {name!r} is not installed here "
                                                f"(its module {e.name!r} cannot be imported)")]) from None


def is_forms_scenario(path: str | os.PathLike[str]) -> bool:
    """Whether the scenario file ``path`` is one the editor's forms edit (its system is
    :data:`FORMS_SYSTEM`). Raises ``DocumentError`` (:func:`system_of_file`)."""
    return system_of_file(path).name == FORMS_SYSTEM


@dataclass(frozen=True)
class _Context:
    """The playing area (hexes of the map sections), as the window's fit reads it."""

    area: tuple


class SystemScenarioDocument(QObject):
    """A scenario file of another rule system, read-only: ``path``, ``system`` (its
    :class:`core.rule_system.RuleSystem`), ``data`` (its JSON), ``title``; the same signals as
    :class:`editor.scenario_document.ScenarioDocument` (never emitted but by :meth:`reload`)."""

    changed = Signal(str)
    dirty_changed = Signal(bool)
    path_changed = Signal(object)

    #: no designer's set-up file is read for it
    placement_error = None

    def __init__(self, path: str | os.PathLike[str], parent: QObject | None = None):
        super().__init__(parent)
        self._path = Path(path)
        self.undo_stack = QUndoStack(self)
        self.hexmap = None
        self.reload(emit=False)

    @classmethod
    def open(cls, path: str | os.PathLike[str], parent: QObject | None = None) -> "SystemScenarioDocument":
        """Open ``path``; raises ``DocumentError`` for an unreadable file or an unknown system."""
        return cls(path, parent)

    def reload(self, emit: bool = True) -> None:
        """Read the file again (after the designer edited it); raises ``DocumentError``."""
        self.data = read_json(self._path)
        self.system = system_of_file(self._path)
        self.title = scenario_title(self.data, self._path)
        self.hexmap = None
        mp = self.map_file()
        if mp is not None and mp.is_file():
            from maps.mapfile import load_map

            try:
                self.hexmap = load_map(mp)
            except DocumentError:
                self.hexmap = None   # said by sections_text()
        if emit:
            self.changed.emit("scenario")

    # -- what the window asks of a document
    @property
    def path(self) -> Path:
        return self._path

    def display_name(self) -> str:
        return self._path.name

    @property
    def is_dirty(self) -> bool:
        return False

    def bind_map(self, _map_doc) -> None:
        """The scenario is read from its file: the live map does not change it."""

    def map_file(self) -> Path | None:
        """The map file the scenario names (``map.file``, relative to the scenario), or None."""
        m = self.data.get("map") if isinstance(self.data, dict) else None
        f = m.get("file") if isinstance(m, dict) else None
        if not isinstance(f, str) or not f:
            return None
        p = Path(f)
        return p if p.is_absolute() else (self._path.parent / p).resolve()

    def sections(self) -> list[str]:
        m = self.data.get("map") if isinstance(self.data, dict) else None
        s = m.get("sections") if isinstance(m, dict) else None
        return [str(x) for x in s] if isinstance(s, list) else []

    @property
    def context(self) -> _Context:
        """The hexes of the scenario's map sections (the whole map without sections)."""
        hm = self.hexmap
        if hm is None:
            return _Context(())
        cols = []
        for name in self.sections():
            try:
                cols.append(hm.section_columns(name))
            except KeyError:
                continue
        hexes = [h for h in hm.all_hexes() if not cols or any(a <= h.col <= b for a, b in cols)]
        return _Context(tuple(hexes))

    def playable_copy(self, _folder) -> Path:
        """The file the games play: the scenario as saved (the editor does not change it)."""
        return self._path

    def setup_problems(self) -> list:
        return []

    def fixed_setup(self) -> None:
        return None

    # -- what the panel shows
    def validation(self) -> tuple[str | None, list[str], list[str]]:
        """(the system's one-line summary or None, problems, design warnings) -- ``ironcross
        validate --warnings`` for this file."""
        try:
            summary = self.system.summarise_scenario(str(self._path), self.data)
        except DocumentError as e:
            return None, [str(p) for p in e.problems], []
        return summary, [], [str(w) for w in self.system.scenario_warnings(str(self._path))]

    def sections_text(self) -> str:
        mp = self.map_file()
        if mp is None:
            return "no map named (map.file)"
        secs = ", ".join(self.sections()) or "the whole map"
        if self.hexmap is None:
            return f"{mp.name}: cannot be loaded"
        return f"{mp.name}: {secs}"


class SystemScenarioPanel(QWidget):
    """What the editor shows of a scenario of another rule system (see the module docstring)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.doc: SystemScenarioDocument | None = None
        lay = QVBoxLayout(self)
        self.title = QLabel()
        self.title.setWordWrap(True)
        lay.addWidget(self.title)
        self.info = QLabel()
        self.info.setWordWrap(True)
        lay.addWidget(self.info)
        head = QLabel("Validation (the system's own checks, as <tt>ironcross validate --warnings</tt>):")
        head.setWordWrap(True)
        lay.addWidget(head)
        self.problems = QListWidget()
        self.problems.setWordWrap(True)
        self.problems.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.problems.setResizeMode(QListWidget.ResizeMode.Adjust)
        lay.addWidget(self.problems, 1)
        self.note = QLabel()
        self.note.setWordWrap(True)
        lay.addWidget(self.note)
        self.reload_btn = QPushButton("Reload the file")
        self.reload_btn.setToolTip("read the scenario file again after editing it")
        self.reload_btn.clicked.connect(self.reload)
        lay.addWidget(self.reload_btn)

    def set_document(self, doc: SystemScenarioDocument | None) -> None:
        self.doc = doc
        self.refresh()

    def reload(self) -> None:
        if self.doc is None:
            return
        try:
            self.doc.reload()
        except DocumentError as e:
            self.note.setText(f"<span style='color:#b00'>cannot read the file: {e}</span>")
            return
        self.refresh()

    def refresh(self) -> None:
        doc = self.doc
        self.problems.clear()
        if doc is None:
            self.title.setText("")
            self.info.setText("")
            self.note.setText("")
            return
        s = doc.system
        self.title.setText(f"<b>{doc.title}</b>")
        self.info.setText(f"Rule system: <b>{s.title}</b> (<tt>{s.name}</tt>)<br>File: {doc.path.name} in "
                          f"{doc.path.parent}<br>Map: {doc.sections_text()}<br>Players: "
                          f"{', '.join(sorted(s.players))}; rule levels: {', '.join(s.rules)}")
        self.info.setToolTip(str(doc.path))
        summary, problems, warnings = doc.validation()
        if summary is not None:
            self.problems.addItem(f"OK - {summary}")
        for p in problems:
            self.problems.addItem(f"problem: {p}")
        for w in warnings:
            self.problems.addItem(f"warning: {w}")
        self.note.setText(
            f"The editor's scenario forms (sides, orders of battle, roster, set-up, regions, victory) edit "
            f"{get(FORMS_SYSTEM).title} scenarios. A {s.title} scenario's own forms are edited in its file for "
            f"now: change <tt>{doc.path.name}</tt> in a text editor, then <i>Reload the file</i>. Playtest, Watch "
            f"and Hot-seat (Play mode) play it with {s.title}'s rules.")
