"""Opening, creating and saving the scenario in the window: a forms scenario or one of another
rule system, its map opened and the live map bound (one truth), the map saved under another
name, autosave, the snapshot the games play and the designer's set-up they may start from."""

from __future__ import annotations

import os
import re
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QMessageBox

from maps.document_file import DocumentError
from editor.map.document import MapDocument
from editor.scenario.document import ScenarioDocument
from editor.scenario.overlay import region_items
from editor.scenario.system.scenario import SystemScenarioDocument, is_forms_scenario


class ScenarioOpening:
    """The documents half of :class:`editor.scenario.window.ScenarioController` (its ``doc``,
    ``win``, panels and docks are the controller's)."""

    # ------------------------------------------------------------------ documents
    def open(self, path: str | os.PathLike[str]) -> ScenarioDocument | SystemScenarioDocument:
        """Open a scenario file (and its map); raises DocumentError / OSError. A scenario of
        another rule system than the forms edit opens read-only (:class:`SystemScenarioDocument`)."""
        if is_forms_scenario(path):
            doc = ScenarioDocument.open(path, self)
        else:
            doc = SystemScenarioDocument.open(path, self)
        self.set_document(doc)
        auto = doc.newer_autosave() if not isinstance(doc, SystemScenarioDocument) or doc.editable else None
        if auto is not None:
            ans = QMessageBox.question(self.win, "Recover autosave",
                                       f"An autosave of {doc.display_name()} newer than the file exists (the editor may "
                                       "have crashed).\nRecover the autosaved scenario?")
            if ans == QMessageBox.StandardButton.Yes:
                try:
                    doc.recover_from(auto)
                except DocumentError as e:   # a damaged autosave: the file as saved stays open
                    QMessageBox.warning(self.win, "Cannot recover autosave", str(e))
            else:
                doc.discard_autosave()
        return doc

    def new_scenario(self, map_path: str | os.PathLike[str] | None = None) -> ScenarioDocument:
        mp = map_path or self.win.document.path
        if mp is None:
            raise ValueError("save the map first: a scenario refers to a map file")
        doc = ScenarioDocument.create(mp, self)
        self.set_document(doc)
        return doc

    @property
    def system(self):
        """The rule system of the open scenario (the forms' system without one)."""
        from core.rule_system import get

        return getattr(self.doc, "system", None) or get(None)

    def set_document(self, doc: ScenarioDocument | SystemScenarioDocument) -> None:
        old = self.doc
        if isinstance(doc, SystemScenarioDocument):
            self._set_system_document(doc, old)
            return
        self._use_forms(True)
        self.system_panel.set_document(None)
        self.win.ctx.other_system_note = None
        self.win.ctx.table_scenario = None
        self.doc = doc
        self.playtest.set_system(self.system)
        self.hotseat.set_system(self.system)
        self.win.update_mode_actions()
        self.win.ctx.scenario = doc
        self.win.ctx.region_loc = None
        self.win.ctx.unit = None
        mp = doc.map_file()
        if self.win.document.path is None or Path(self.win.document.path).resolve() != mp.resolve():
            try:
                self.win.set_document(MapDocument.open(mp))
            except (DocumentError, OSError):
                pass
        self.map_document_changed(self.win.document)   # one truth: the scenario sees the live map
        for p in (self.properties, self.oob, self.regions, self.victory, self.setup_panel, self.validation, self.sides):
            p.setEnabled(True)
            p.set_document(doc)
        self.roster.set_document(doc)
        self.update_own_map()   # its forms read-only while another map than its own is shown
        self._attach(doc)
        from PySide6.QtCore import QTimer

        QTimer.singleShot(0, self.fit)
        self.overlay.clear()
        self.redraw("scenario")
        self.update_title()
        if old is not None and old is not doc:
            old.bind_map(None)
            old.deleteLater()
        if doc.placement_error is not None:
            QMessageBox.warning(self.win, "Set-up not loaded",
                                f"The designer's set-up beside the scenario cannot be read; the scenario opens "
                                f"without it:\n\n{doc.placement_error}")
        else:
            n = len(doc.setup_problems())
            if n:
                from editor.scenario.scenario_files import placement_path

                self.win.statusBar().showMessage(f"{placement_path(doc.path).name}: {n} set-up problem(s), listed in "
                                                 "the Validation dock", 10000)
                self.docks["validation"].show()
                self.docks["validation"].raise_()

    def _form_pick_wanted(self, on: bool) -> None:
        """A hex field of the form is selected: map clicks pick hexes (the Pick tool)."""
        if on and self.win.mode == "scenario" and self.win.tools.current is not self.tools["formpick"]:
            self.win.tools.set_tool("formpick")

    def _draw_form_selection(self) -> None:
        """The hexes of the form's selection (a set-up zone, a hex list, a hex), highlighted."""
        if isinstance(self.doc, SystemScenarioDocument):
            self.overlay.set_layer("region", region_items(self.system_panel.form.highlighted(), "paint", None, None))

    def autosave_system(self) -> None:
        """The autosave timer: the scenario (of any rule system) with unsaved edits is written beside its file."""
        if self.doc is not None:
            try:
                self.doc.autosave()
            except OSError as e:
                self.win.statusBar().showMessage(f"scenario autosave failed: {e}", 6000)

    def new_system_scenario(self, system_name: str, path: str | os.PathLike[str], map_path: str | os.PathLike[str],
                            sections: list[str], title: str = "New scenario") -> SystemScenarioDocument:
        """Write a new scenario of the rule system ``system_name`` to ``path`` (the system's
        ``new_scenario`` on ``map_path``, named relative to ``path``, and ``sections``) and open it.
        Raises ValueError (a system without ``new_scenario``, a bad section), OSError."""
        from core.rule_system import get
        from maps.document_file import atomic_write_text

        system = get(system_name)
        if system.new_scenario is None:
            raise ValueError(f"{system.title} cannot make a new scenario in the editor")
        path = Path(path)
        try:
            ref = os.path.relpath(Path(map_path).resolve(), path.resolve().parent).replace(os.sep, "/")
        except ValueError:
            ref = str(Path(map_path).resolve())
        cwd = os.getcwd()
        try:   # the system reads the map through the reference, relative to the new file's folder
            os.chdir(path.resolve().parent)
            data = system.new_scenario(ref, list(sections), title)
        finally:
            os.chdir(cwd)
        from editor.scenario.system.form import dump_like

        atomic_write_text(path, dump_like(data, None))
        return self.open(path)

    def _set_system_document(self, doc: SystemScenarioDocument, old) -> None:
        """A scenario of another rule system: its panel instead of the forms, its map, its
        sections outlined; Playtest, Watch and Hot-seat play it through its system."""
        self.doc = doc
        self._use_forms(False)
        for p in (self.properties, self.oob, self.regions, self.victory, self.setup_panel, self.validation, self.sides):
            p.setEnabled(False)
        self.win.update_mode_actions()
        self.win.ctx.scenario = None   # the scenario tools edit forms scenarios only
        self.win.ctx.table_scenario = doc   # the tabletop tools set up a measured system's units
        self.win.ctx.other_system_note = (f"{doc.display_name()} is a {doc.system.title} scenario: the scenario tools "
                                          "edit the forms' scenarios; " + (
                                              "edit it in the Scenario dock's form (Pick tool for hexes)"
                                              if doc.editable else "edit it in its file for now"))
        self.win.ctx.region_loc = None
        self.win.ctx.unit = None
        mp = doc.map_file()
        if mp is not None and mp.is_file() and (
                self.win.document.path is None or Path(self.win.document.path).resolve() != mp.resolve()):
            try:
                self.win.set_document(MapDocument.open(mp))
            except (DocumentError, OSError):
                pass
        self.system_panel.set_document(doc)
        # one truth: while the window shows the scenario's map file, the document reads that live
        # map (validation and games included); an edit of map.file binds or unbinds it again
        self.map_document_changed(self.win.document)
        doc.changed.connect(lambda _w, d=doc: d is self.doc and self.map_document_changed(self.win.document))
        self.playtest.set_system(doc.system)
        self.hotseat.set_system(doc.system)
        was = self.win.mode
        self._attach(doc)
        if was not in (None, "map"):
            self._use_forms(False)
        self.docks["system"].show()
        self.docks["system"].raise_()
        self.win.resizeDocks([self.docks["system"]], [375], Qt.Orientation.Horizontal)
        from PySide6.QtCore import QTimer

        QTimer.singleShot(0, self.fit)
        self.overlay.clear()
        self.redraw("scenario")
        self.update_title()
        if old is not None and old is not doc:
            old.bind_map(None)
            old.deleteLater()

    def map_document_changed(self, map_doc) -> None:
        """The window shows another map document: the scenario (of any system) resolves on it
        when it is the scenario's map file, else on that file as saved."""
        doc = self.doc
        if doc is None:
            self.update_own_map()
            return
        mf = doc.map_file()
        same = map_doc is not None and map_doc.path is not None and mf is not None and \
            Path(map_doc.path).resolve() == mf.resolve()
        doc.bind_map(map_doc if same else None)
        if same and not getattr(map_doc, "_scenario_watch", False):
            map_doc._scenario_watch = True
            map_doc.path_changed.connect(lambda p, m=map_doc: self._map_saved_as(m, p))
        self.update_own_map()

    def _map_saved_as(self, map_doc, path) -> None:
        """The scenario's map was saved under another name: the scenario names the new file (an
        undoable scenario edit), so what it is saved with is what the designer sees."""
        doc = self.doc
        if doc is None or doc.map_document is not map_doc or path is None:
            return
        mf = doc.map_file()
        if mf is not None and Path(path).resolve() == mf.resolve():
            return
        if isinstance(doc, SystemScenarioDocument):
            if not doc.editable:   # edited in its file: it plays the file it names, as saved
                doc.bind_map(None)
                return
            import copy

            from editor.scenario.system.form import DataCommand

            after = copy.deepcopy(doc.data)
            try:   # named relative to the scenario file, as File > New scenario names it
                ref = os.path.relpath(Path(path).resolve(), doc.path.resolve().parent).replace(os.sep, "/")
            except ValueError:   # another drive
                ref = str(Path(path).resolve())
            after["map"]["file"] = ref
            doc.push(DataCommand(doc, f"Map saved as {Path(path).name}", copy.deepcopy(doc.data), after))
            return
        doc.edit(f"Map saved as {Path(path).name}",
                 lambda d: d["map"].__setitem__("file", str(Path(path).resolve())))

    def playable_file(self, folder: str) -> Path:
        """A snapshot of the scenario, the live map with its chart and the roster in memory, for a
        game started here (:meth:`ScenarioDocument.playable_copy`)."""
        if self.doc is None:
            raise ValueError("no scenario is open")
        return self.doc.playable_copy(folder)

    def designers_setup(self) -> dict | None:
        """The designer's set-up for "Use this set-up"; raises ValueError listing every problem
        (the games would not start from what is placed)."""
        if self.doc is None:
            return None
        problems = self.doc.setup_problems()
        if problems:
            raise ValueError(f"the set-up has {len(problems)} problem(s) (Validation dock): "
                             + "; ".join(str(p) for p in problems[:5]) + (" ..." if len(problems) > 5 else ""))
        return self.doc.fixed_setup()

    def _read_only(self) -> bool:
        """A scenario of another rule system is edited in its file: say so (True) when it is open."""
        if isinstance(self.doc, SystemScenarioDocument) and not self.doc.editable:
            self.win.statusBar().showMessage(f"{self.doc.display_name()} is a {self.doc.system.title} scenario: "
                                             "it is edited in its file for now (nothing to save here)", 6000)
            return True
        return False

    def save(self) -> bool:
        if self.doc is None or self._read_only():
            return False
        if self.doc.path is None:
            return self.save_as()
        try:
            self.doc.save()
        except (DocumentError, OSError, ValueError) as e:
            QMessageBox.critical(self.win, "Cannot save scenario", str(e))
            return False
        self.win.statusBar().showMessage(f"saved {self.doc.path}", 4000)
        return True

    def suggested_path(self) -> Path:
        """Where *Save scenario as* starts: the scenario's file, else a file named after its title
        beside its map (the scenario names its map by a path relative to its own folder)."""
        if self.doc.path is not None:
            return Path(self.doc.path)
        stem = re.sub(r"[^a-z0-9]+", "_", (self.doc.scenario.title or "").lower()).strip("_") or "scenario"
        return self.doc.map_file().parent / f"{stem}.json"

    def save_as(self) -> bool:
        if self.doc is None or self._read_only():
            return False
        path, _ = QFileDialog.getSaveFileName(self.win, "Save scenario as", str(self.suggested_path()),
                                              "Iron Cross scenarios (*.json)")
        if not path:
            return False
        try:
            self.doc.save(path)
        except (DocumentError, OSError, ValueError) as e:
            QMessageBox.critical(self.win, "Cannot save scenario", str(e))
            return False
        return True

    def maybe_save(self) -> bool:
        if self.doc is None or not self.doc.is_dirty:
            return True
        ans = QMessageBox.question(self.win, "Unsaved scenario", f"Save changes to {self.doc.display_name()}?",
                                   QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                                   | QMessageBox.StandardButton.Cancel)
        if ans == QMessageBox.StandardButton.Save:
            return self.save()
        if ans == QMessageBox.StandardButton.Discard:
            self.doc.discard_autosave()   # changes thrown away: nothing to offer on the next open
            return True
        return False

    def open_dialog(self) -> None:
        if not self.maybe_save():
            return
        path, _ = QFileDialog.getOpenFileName(self.win, "Open scenario", "", "Iron Cross scenarios (*.json)")
        if path:
            try:
                self.open(path)
            except (DocumentError, OSError) as e:
                QMessageBox.critical(self.win, "Cannot open scenario", str(e))

    def new_scenario_dialog(self) -> None:
        if not self.maybe_save():
            return
        from core.rule_system import installed

        systems = [s for s in installed() if s.name == "ironcross" or s.new_scenario is not None]
        if len(systems) > 1:
            from PySide6.QtWidgets import QInputDialog

            labels = [f"{s.title} ({s.name})" for s in systems]
            choice, ok = QInputDialog.getItem(self.win, "New scenario", "Rule system:", labels, 0, False)
            if not ok:
                return
            system = systems[labels.index(choice)]
            if system.name != "ironcross":
                return self._new_system_scenario_dialog(system)
        try:
            self.new_scenario()
        except (ValueError, DocumentError, OSError) as e:
            QMessageBox.critical(self.win, "Cannot create scenario", str(e))

    def _new_system_scenario_dialog(self, system) -> None:
        """Another system's new scenario: its map section (of the map shown) and its file name."""
        from PySide6.QtWidgets import QInputDialog

        mp = self.win.document.path
        if mp is None:
            QMessageBox.critical(self.win, "Cannot create scenario", "save the map first: a scenario refers to a map file")
            return
        names = [sec.name for sec in self.win.document.map.sections] if hasattr(self.win.document, "map") else []
        sections: list[str] = []
        if names:
            sec, ok = QInputDialog.getItem(self.win, "New scenario", "Map section played on:", names, 0, False)
            if not ok:
                return
            sections = [sec]
        path, _ = QFileDialog.getSaveFileName(self.win, f"New {system.title} scenario",
                                              str(Path(mp).parent / f"{system.name}_scenario.json"),
                                              "Scenarios (*.json)")
        if not path:
            return
        try:
            self.new_system_scenario(system.name, path, mp, sections)
        except (ValueError, DocumentError, OSError) as e:
            QMessageBox.critical(self.win, "Cannot create scenario", str(e))

    def shutdown(self) -> None:
        self.playtest.shutdown()
        self.watch.shutdown()
        if hasattr(self, "play"):
            self.play.balance.shutdown()
            self.play.robust.shutdown()
        if isinstance(self.doc, SystemScenarioDocument):   # the window closes: the scenario reads its file again
            self.doc.bind_map(None)
