"""A scenario of another rule system opened in the scenario window.

The editor's scenario forms (sides, orders of battle, counter roster, set-up, regions, victory)
edit the scenarios of :data:`FORMS_SYSTEM` (the default system). A scenario file naming another
system (``"rule_system"``, ``docs/rule-systems.md``) opens as a :class:`SystemScenarioDocument`,
shown by a :class:`SystemScenarioPanel` -- its title, its system, its map sections (outlined on
the map), what the system's own validation says of the JSON in memory (``summarise_scenario``,
``scenario_warnings``, on a temporary copy) and, when the system describes its file
(``scenario_schema``), the generic form of ``editor/scenario/system/form.py``: every edit an undo step,
*Save* atomic keeping the file's layout, an autosave beside the file (``FILE.autosave``, offered
for recovery when newer). A system without a schema opens read-only (*Reload* reads the file
again after an edit). The Playtest, Watch and Hot-seat docks play the scenario in memory
(:meth:`SystemScenarioDocument.playable_copy`).

One truth, as for the forms' scenarios (:mod:`editor.scenario.document`): while the map window
shows the scenario's map file, the document reads that live :class:`editor.map.document.MapDocument`
(:meth:`SystemScenarioDocument.bind_map`): its :attr:`~SystemScenarioDocument.hexmap` is the live
map's, the system's validation checks the live map (written with its terrain chart embedded to a
temporary file) and the games the editor starts play it, unsaved map edits included (the panel
says so); unbound, the map file as saved.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QUndoStack
from PySide6.QtWidgets import QLabel, QListWidget, QPushButton, QVBoxLayout, QWidget

from core.rule_system import DEFAULT_SYSTEM, for_scenario, get, scenario_title, system_name_of
from maps.document_file import DocumentError, Problem, atomic_write_text, read_json, read_json_text

AUTOSAVE_SUFFIX = ".autosave"

__all__ = ["FORMS_SYSTEM", "SystemScenarioDocument", "SystemScenarioPanel", "is_forms_scenario", "system_of_file"]

#: the system whose scenario files the editor's forms edit (``editor.scenario.document``)
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


#: the name of the live map in a snapshot folder (:meth:`SystemScenarioDocument.playable_copy`)
SNAPSHOT_MAP = "map.json"


class SystemScenarioDocument(QObject):
    """A scenario file of another rule system: ``path``, ``system`` (its
    :class:`core.rule_system.RuleSystem`), ``data`` (its JSON), ``title``, ``hexmap`` (the live
    map while :attr:`map_document` is bound, else the map file as saved); the same signals as
    :class:`editor.scenario.document.ScenarioDocument` (``changed("scenario")`` after an edit, a
    reload and, once it pauses, a change of the bound map: its hexes, chart or saved state)."""

    changed = Signal(str)
    dirty_changed = Signal(bool)
    path_changed = Signal(object)

    #: no designer's set-up file is read for it
    placement_error = None

    def __init__(self, path: str | os.PathLike[str], parent: QObject | None = None):
        super().__init__(parent)
        self._path = Path(path)
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._clean_changed)
        #: the map file as saved (loaded lazily; None when it cannot be loaded)
        self._own_hexmap = None
        self._own_loaded = False
        #: the live map document the scenario reads (:meth:`bind_map`), or None
        self.map_document = None
        #: (hexmap, path) of the live map last written for :meth:`check`
        self._live_written: tuple | None = None
        self._tmp = None
        self._recovered = False
        # the panel follows a map edit (a brush drag) once it pauses, as a forms scenario's views do
        from editor.scenario.document import MAP_REDRAW_MS

        self._map_timer = QTimer(self)
        self._map_timer.setSingleShot(True)
        self._map_timer.setInterval(MAP_REDRAW_MS)
        self._map_timer.timeout.connect(lambda: self.changed.emit("scenario"))
        self.reload(emit=False)

    def _clean_changed(self, clean: bool) -> None:
        self.dirty_changed.emit(self._recovered or not clean)

    @property
    def editable(self) -> bool:
        """The system describes its scenario file (``scenario_schema``): the form edits it."""
        return self.system.scenario_schema is not None

    @classmethod
    def open(cls, path: str | os.PathLike[str], parent: QObject | None = None) -> "SystemScenarioDocument":
        """Open ``path``; raises ``DocumentError`` for an unreadable file or an unknown system."""
        return cls(path, parent)

    def reload(self, emit: bool = True) -> None:
        """Read the file again (after the designer edited it); raises ``DocumentError``."""
        # one safe read: the JSON and the text it came from (its layout, kept when saved)
        self.layout, self.data = read_json_text(self._path)
        self.system = system_of_file(self._path)
        self.undo_stack.clear()
        self._recovered = False
        self._load_map()
        if emit:
            self.changed.emit("scenario")

    def _load_map(self) -> None:
        """The scenario's map file changed (or was read again): the saved map is read again when
        next asked for; a bound live map that is no longer the scenario's map file is unbound."""
        self.title = scenario_title(self.data, self._path)
        self._own_hexmap = None
        self._own_loaded = False
        if self.map_document is not None and not self.is_map_of(self.map_document):
            self.bind_map(None)

    @property
    def hexmap(self):
        """The map the scenario is read on (:class:`maps.hexmap.HexMap`): the live map document's
        while one is bound (:meth:`bind_map`), else the map file as saved; None when the
        scenario names no map file or it cannot be loaded (said by :meth:`sections_text`)."""
        if self.map_document is not None:
            return self.map_document.hexmap
        if not self._own_loaded:
            self._own_loaded = True
            self._own_hexmap = None
            mp = self.map_file()
            if mp is not None and mp.is_file():
                from maps.mapfile import load_map

                try:
                    self._own_hexmap = load_map(mp)
                except DocumentError:
                    self._own_hexmap = None   # said by sections_text()
        return self._own_hexmap

    # -- editing (the form, ``editor/scenario/system/form.py``)
    def push(self, command) -> None:
        """Do an edit (a ``QUndoCommand`` calling :meth:`set_data`) as one undo step."""
        self.undo_stack.push(command)

    def set_data(self, data) -> None:
        """Replace the JSON in memory (an undo command's redo/undo); the map is read again when
        ``map`` changed."""
        old_map = self.data.get("map") if isinstance(self.data, dict) else None
        self.data = data
        if not isinstance(data, dict) or data.get("map") != old_map:
            self._load_map()
        else:
            self.title = scenario_title(self.data, self._path)
        self.changed.emit("scenario")

    def text(self, path: str | os.PathLike[str] | None = None) -> str:
        """The file text of the JSON in memory, in the layout the file was loaded with
        (:func:`editor.scenario.system.form.dump_like`); saved elsewhere, a relative ``map.file`` is
        re-based on the new folder."""
        from editor.scenario.system.form import dump_like

        data = self.data
        if path is not None and Path(path).resolve().parent != self._path.resolve().parent:
            data = self._rebased(Path(path).resolve().parent)
        return dump_like(data, self.layout)

    def _rebased(self, folder: Path, absolute: bool = False):
        """The JSON with its relative ``map.file`` (and ``roster``) made relative to ``folder`` (or absolute)."""
        data = copy.deepcopy(self.data)
        if not isinstance(data, dict):
            return data
        refs = [(data.get("map"), "file"), (data, "roster")]
        for obj, key in refs:
            if isinstance(obj, dict) and isinstance(obj.get(key), str) and obj[key] and not Path(obj[key]).is_absolute():
                p = (self._path.resolve().parent / obj[key]).resolve()
                if absolute:
                    obj[key] = str(p)
                else:
                    try:
                        obj[key] = os.path.relpath(p, folder).replace(os.sep, "/")
                    except ValueError:
                        obj[key] = str(p)
        return data

    def save(self, path: str | os.PathLike[str] | None = None) -> Path:
        """Write the JSON in memory atomically (to ``path``, default the file); the document becomes
        clean and its autosave is removed. Raises OSError."""
        target = Path(path) if path is not None else self._path
        text = self.text(target)
        atomic_write_text(target, text)
        self.discard_autosave()
        old = self._path
        if target.resolve() != old.resolve():
            self.data = json.loads(text)
            self._path = target
            self.path_changed.emit(target)
        self.layout = text
        self._recovered = False
        self.undo_stack.setClean()
        self.dirty_changed.emit(False)
        return target

    def autosave_path(self) -> Path:
        return self._path.with_name(self._path.name + AUTOSAVE_SUFFIX)

    def autosave(self) -> Path | None:
        """Write the unsaved JSON to ``FILE.autosave`` beside the file (as the map's autosave);
        returns the path written, None when there is nothing unsaved."""
        if not self.is_dirty:
            return None
        a = self.autosave_path()
        atomic_write_text(a, self.text())
        return a

    def newer_autosave(self) -> Path | None:
        """The autosave beside the file when it is newer than the file (a crash left it)."""
        a = self.autosave_path()
        try:
            return a if a.stat().st_mtime > self._path.stat().st_mtime else None
        except OSError:
            return None

    def recover_from(self, autosave: str | os.PathLike[str]) -> None:
        """Take the autosaved JSON (an undoable edit: the document becomes dirty). Raises DocumentError."""
        from editor.scenario.system.form import DataCommand

        data = read_json(autosave)
        self.push(DataCommand(self, "Recover autosave", copy.deepcopy(self.data), data))
        self._recovered = True
        self.dirty_changed.emit(True)

    def discard_autosave(self) -> None:
        from editor.map.document import remove_autosave

        remove_autosave(self._path)

    # -- what the window asks of a document
    @property
    def path(self) -> Path:
        return self._path

    def display_name(self) -> str:
        return self._path.name

    @property
    def is_dirty(self) -> bool:
        return self._recovered or not self.undo_stack.isClean()

    def is_map_of(self, map_doc) -> bool:
        """Whether ``map_doc`` (an :class:`editor.map.document.MapDocument`) is the scenario's map file."""
        mp = self.map_file()
        return mp is not None and map_doc is not None and map_doc.path is not None and \
            Path(map_doc.path).resolve() == mp.resolve()

    def bind_map(self, map_doc) -> None:
        """Read the scenario on the live map document ``map_doc`` (an
        :class:`editor.map.document.MapDocument` of the scenario's map file: :attr:`hexmap`,
        :meth:`check` and :meth:`playable_copy` use it, unsaved edits included), or on the map
        file as saved again (``None``). A change of the bound map (hexes, features, buildings,
        the chart, saved or not) emits ``changed("scenario")`` once the edit pauses."""
        if map_doc is self.map_document:
            return
        old = self.map_document
        if old is not None:
            for sig in (old.changed, old.chart_changed, old.dirty_changed):
                try:
                    sig.disconnect(self._map_changed)
                except (RuntimeError, TypeError):
                    pass
        self.map_document = map_doc
        self._live_written = None
        if map_doc is not None:
            map_doc.changed.connect(self._map_changed)
            map_doc.chart_changed.connect(self._map_changed)
            map_doc.dirty_changed.connect(self._map_changed)   # saved: the panel no longer says "unsaved"
        else:   # the file as saved, read again (the map may have been saved while it was bound)
            self._own_hexmap = None
            self._own_loaded = False
        self._map_changed()

    def _map_changed(self, *_args) -> None:
        self._map_timer.start()

    @property
    def map_unsaved(self) -> bool:
        """The bound live map has edits not saved to its file (the games play them)."""
        m = self.map_document
        return m is not None and m.is_dirty

    def _live_map_doc(self):
        """The bound live map as a map file with its terrain chart embedded (what the games read)."""
        hm = self.map_document.hexmap
        return hm.doc.model_copy(update={"terrain_chart": hm.chart})

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

    def playable_copy(self, folder) -> Path:
        """The file the games play: the scenario in memory (unsaved edits included), written to a
        new sub-folder of ``folder``. While a live map is bound (:meth:`bind_map`) the map is that
        map, unsaved edits included, written beside it as ``map.json`` with its terrain chart
        embedded (as :meth:`editor.scenario.document.ScenarioDocument.playable_copy` does), and
        ``map.file`` names it; unbound, ``map.file`` names the map file as saved by absolute path.
        The roster is named by absolute path. Every game started from the editor reads exactly
        this file; each snapshot keeps its own folder, so the replays of earlier games still
        verify. Raises DocumentError when the live map cannot be written (its problems)."""
        from maps.mapfile import save_map

        Path(folder).mkdir(parents=True, exist_ok=True)
        snap = Path(tempfile.mkdtemp(prefix="snapshot-", dir=str(folder)))
        out = snap / self._path.name
        data = self._rebased(snap, absolute=True)
        if self.map_document is not None and isinstance(data, dict) and isinstance(data.get("map"), dict):
            name = SNAPSHOT_MAP if out.name != SNAPSHOT_MAP else "live-" + SNAPSHOT_MAP
            save_map(snap / name, self._live_map_doc())
            data["map"]["file"] = name
        out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        return out

    def system_args(self, data=None) -> tuple[str, object]:
        """``(path, data)`` for the system's functions that read the scenario in memory
        (``setup_pieces``, ``move_reach``, ``place_piece``; the tabletop tools): the file's path
        and ``data`` (default: the JSON in memory); while a live map is bound, a copy of ``data``
        whose ``map.file`` names that map (written as :meth:`check` writes it) by absolute path,
        so the set-up drawn, its reach and its refusals read the map the games play. A live map
        that cannot be written: ``data`` unchanged (:meth:`check` lists its problems)."""
        data = self.data if data is None else data
        if self.map_document is None or not isinstance(data, dict) or not isinstance(data.get("map"), dict):
            return str(self._path), data
        out = copy.deepcopy(data)
        try:
            out["map"]["file"] = str(self._live_map_file(self._tmp_folder()))
        except DocumentError:
            return str(self._path), data
        return str(self._path), out

    def own_refs(self, result, data):
        """``result`` (a system's edited copy of ``data`` from :meth:`system_args`) naming the map
        file that ``data`` names: what is stored in the document never names the live map's
        temporary file."""
        if isinstance(result, dict) and isinstance(data, dict) and isinstance(data.get("map"), dict) \
                and isinstance(result.get("map"), dict) and "file" in data["map"]:
            result["map"]["file"] = data["map"]["file"]
        return result

    def _tmp_folder(self) -> Path:
        if self._tmp is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="system-scenario-")
        return Path(self._tmp.name)

    def _live_map_file(self, folder: Path) -> Path:
        """The bound live map written to ``folder`` for the system's checks: named by its content
        (``map-HASH.json``), so a system's cache of a map file by name (Red Flags'
        ``load_map_cached``, 20 mm's ``table_for``) never serves an older version; written once
        per map version. Raises DocumentError (the map's problems, :func:`maps.mapfile.save_map`)."""
        from maps.document_file import atomic_write_text
        from maps.mapfile import check_map, map_json

        hm = self.map_document.hexmap
        if self._live_written is not None and self._live_written[0] is hm and self._live_written[1].is_file():
            return self._live_written[1]
        mf = self._live_map_doc()
        text = json.dumps(map_json(mf), indent=1, ensure_ascii=False) + "\n"
        p = folder / f"map-{hashlib.sha1(text.encode('utf-8')).hexdigest()[:16]}.json"
        if not p.is_file():
            problems = check_map(mf)   # as save_map refuses a map with problems
            if problems:
                raise DocumentError(str(self.map_document.path or "<map>"), problems)
            atomic_write_text(p, text)
        if self._live_written is not None and self._live_written[1] != p:
            try:   # the previous version is read no more
                self._live_written[1].unlink()
            except OSError:
                pass
        self._live_written = (hm, p)
        return p

    def setup_problems(self) -> list:
        return []

    def fixed_setup(self) -> None:
        return None

    # -- what the panel shows
    def validation(self) -> tuple[str | None, list[str], list[str]]:
        """(the system's one-line summary or None, problems, design warnings) -- ``ironcross
        validate --warnings`` for this file."""
        summary, problems, warnings = self.check()
        return summary, [str(p) for p in problems], warnings

    def check(self) -> tuple[str | None, list[Problem], list[str]]:
        """(summary or None, problems with their JSON paths, design warnings) of the JSON in
        memory, checked by the system on a temporary copy beside nothing (its roster named by
        absolute path; its map the bound live map, unsaved edits included, written beside it with
        its chart embedded -- what the games play -- else the map file as saved, by absolute
        path); a scenario the system cannot even read is one problem at ``$``, a live map that
        cannot be written one at ``$.map.file``."""
        tmp = self._tmp_folder() / self._path.name
        data = self._rebased(tmp.parent, absolute=True)
        if self.map_document is not None and isinstance(data, dict) and isinstance(data.get("map"), dict):
            try:
                data["map"]["file"] = str(self._live_map_file(tmp.parent))
            except DocumentError as e:
                return None, [Problem("$.map.file", "the map in the window cannot be played: "
                                      + "; ".join(str(p) for p in e.problems))], []
        tmp.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        try:
            summary = self.system.summarise_scenario(str(tmp), copy.deepcopy(data))
        except DocumentError as e:
            return None, list(e.problems), []
        except (ValueError, KeyError, TypeError) as e:   # a system's own check that is not a DocumentError
            return None, [Problem("$", f"{type(e).__name__}: {e}")], []
        try:
            warnings = [str(w) for w in self.system.scenario_warnings(str(tmp))]
        except DocumentError as e:
            return summary, list(e.problems), []
        return summary, [], warnings

    def sections_text(self) -> str:
        mp = self.map_file()
        if mp is None:
            return "no map named (map.file)"
        secs = ", ".join(self.sections()) or "the whole map"
        if self.hexmap is None:
            return f"{mp.name}: cannot be loaded"
        if self.map_unsaved:
            return f"{mp.name}: {secs} (the map in the window, with unsaved edits: the games play them)"
        return f"{mp.name}: {secs}"


class SystemScenarioPanel(QWidget):
    """What the editor shows of a scenario of another rule system (see the module docstring):
    ``info``, the ``form`` (:class:`editor.scenario.system.form.SystemForm`), the ``problems`` list (click
    one: its place in the form is selected), a ``note`` and *Reload the file*."""

    def __init__(self, parent=None):
        super().__init__(parent)
        from editor.scenario.system.form import SystemForm

        self.doc: SystemScenarioDocument | None = None
        lay = QVBoxLayout(self)
        self.title = QLabel()
        self.title.setWordWrap(True)
        lay.addWidget(self.title)
        self.info = QLabel()
        self.info.setWordWrap(True)
        lay.addWidget(self.info)
        self.form = SystemForm()
        lay.addWidget(self.form, 4)
        head = QLabel("Validation (the system's own checks of the scenario in memory):")
        head.setWordWrap(True)
        lay.addWidget(head)
        self.problems = QListWidget()
        self.problems.setWordWrap(True)
        self.problems.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.problems.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.problems.itemClicked.connect(self._problem_clicked)
        lay.addWidget(self.problems, 1)
        self.note = QLabel()
        self.note.setWordWrap(True)
        lay.addWidget(self.note)
        self.reload_btn = QPushButton("Reload the file")
        self.reload_btn.setToolTip("read the scenario file again (unsaved edits are dropped)")
        self.reload_btn.clicked.connect(self.reload)
        lay.addWidget(self.reload_btn)

    def set_document(self, doc: SystemScenarioDocument | None) -> None:
        if self.doc is not None:
            try:
                self.doc.changed.disconnect(self._doc_changed)
            except (RuntimeError, TypeError):
                pass
        self.doc = doc
        if doc is not None:
            doc.changed.connect(self._doc_changed)
        self.form.set_document(doc if doc is not None and doc.editable else None)
        self.form.setVisible(doc is not None and doc.editable)
        self.refresh()

    def _doc_changed(self, _what=None) -> None:
        self.refresh()

    def _problem_clicked(self, item) -> None:
        from editor.scenario.system.form import parse_path

        path = item.data(Qt.ItemDataRole.UserRole)
        if path:
            loc = parse_path(path)
            while loc and loc not in self.form._items:
                loc = loc[:-1]
            self.form.select(loc)

    def reload(self) -> None:
        if self.doc is None:
            return
        try:
            self.doc.reload()
        except DocumentError as e:
            self.note.setText(f"<span style='color:#b00'>cannot read the file: {e}</span>")
            return
        self.form.set_document(self.doc if self.doc.editable else None)
        self.refresh()

    def refresh(self) -> None:
        from PySide6.QtWidgets import QListWidgetItem

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
        summary, problems, warnings = doc.check()
        if summary is not None:
            self.problems.addItem(f"OK - {summary}")
        for p in problems:
            it = QListWidgetItem(f"problem: {p}")
            it.setForeground(QColor(176, 0, 0))
            it.setData(Qt.ItemDataRole.UserRole, p.path)
            self.problems.addItem(it)
        for w in warnings:
            it = QListWidgetItem(f"warning: {w}")
            path = w.split(":", 1)[0] if w.startswith("$") else ""
            it.setData(Qt.ItemDataRole.UserRole, path)
            self.problems.addItem(it)
        mp = doc.map_file()
        map_note = (f"<br><b>The map has unsaved edits</b> (<tt>{mp.name if mp is not None else 'the map'}</tt> in the "
                    f"map window): the validation above, Playtest, Watch and Hot-seat read them; save the map "
                    f"(<i>File &gt; Save</i>) so that its file plays the same." if doc.map_unsaved else "")
        if doc.editable:
            self.form.set_problems(problems)
            self.note.setText(
                f"Edit the {s.title} scenario in the form: select a field to change it; hex lists and hexes are "
                f"picked by clicking the map. Every edit can be undone; Save (Ctrl+S) writes <tt>{doc.path.name}</tt>"
                + (" -- <b>unsaved edits</b>: Playtest, Watch and Hot-seat play them." if doc.is_dirty else ".")
                + map_note)
        else:
            self.note.setText(
                f"The editor's scenario forms (sides, orders of battle, roster, set-up, regions, victory) edit "
                f"{get(FORMS_SYSTEM).title} scenarios. {s.title} does not describe its scenario file "
                f"(<tt>scenario_schema</tt>): edit it in its file for now -- change <tt>{doc.path.name}</tt> in a "
                f"text editor, then <i>Reload the file</i>. Playtest, Watch and Hot-seat (Play mode) play it with "
                f"{s.title}'s rules." + map_note)
