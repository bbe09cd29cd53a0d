"""The scenario and the map the window shows: a scenario is drawn and edited only on the map file
it names. Opening another map while a scenario is open asks whether to keep the scenario (shown
again when its map is) or close it; while another map is shown the scenario's overlay is hidden
and the Scenario and Play modes say which map the scenario needs, with a button to reopen it;
the scenario's editing tools refuse their clicks there, saying why in the status bar.
*File > Close scenario* closes it (Save / Discard / Cancel for unsaved edits)."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton

from editor.drawing import widgets

#: the two answers to "open another map while a scenario is open"
KEEP_SCENARIO = "Keep the scenario (shown on its own map only)"
CLOSE_SCENARIO = "Close the scenario"
#: the tools that change the scenario by clicks on the map (north indicator, region paint and
#: pick, unit placement, hidden hexes / mines / IPs, another system's form pick and table
#: placement): refused while the map shown is not the scenario's own
EDITING_TOOLS = ("north", "region", "pick", "place", "marks", "formpick", "tableplace")


class MapBanner(QFrame):
    """The strip over the map in the Scenario and Play modes when the map shown is not the
    scenario's: which map the scenario needs, *Open <map>* and *Close scenario*."""

    def __init__(self, parent):
        super().__init__(parent)
        self.setObjectName("scenarioMapBanner")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setStyleSheet("#scenarioMapBanner { background: #fff3c4; border: 1px solid #b08800; }")
        lay = QHBoxLayout(self)
        lay.setContentsMargins(8, 4, 8, 4)
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.reopen = QPushButton("Open its map")
        self.close_button = QPushButton("Close scenario")
        lay.addWidget(self.label, 1)
        lay.addWidget(self.reopen)
        lay.addWidget(self.close_button)
        self.hide()

    def place(self) -> None:
        """Across the top of the map view."""
        view = self.parentWidget()
        self.setFixedWidth(max(200, view.viewport().width()))
        self.adjustSize()
        self.move(view.viewport().pos())
        self.raise_()


class OwnMap:
    """The own-map half of :class:`editor.scenario.window.ScenarioController` (its ``doc``,
    ``win``, ``overlay`` and panels are the controller's)."""

    def _make_map_banner(self) -> None:
        self.map_banner = MapBanner(self.win.view)
        self.map_banner.reopen.clicked.connect(self.reopen_own_map)
        self.map_banner.close_button.clicked.connect(self.close_scenario)
        self.win.mode_changed.connect(lambda _m: self.update_own_map())
        f = next(a.menu() for a in self.win.menuBar().actions() if a.text() == "&File")
        anchor = next((a for a in f.actions() if a.text() == "Save scenario as..."), None)
        a = self.win._act(f, "Close scenario", self.close_scenario, "Ctrl+Alt+W")
        if anchor is not None:   # after the scenario's other file actions
            f.removeAction(a)
            i = f.actions().index(anchor)
            f.insertAction(f.actions()[i + 1] if i + 1 < len(f.actions()) else None, a)
        self.close_action = a
        a.setEnabled(False)

    def own_map_file(self) -> Path | None:
        """The map file the open scenario names (None without a scenario)."""
        mf = self.doc.map_file() if self.doc is not None else None
        return Path(mf).resolve() if mf is not None else None

    def on_own_map(self) -> bool:
        """True when no scenario is open or the map shown is the scenario's map file."""
        mf = self.own_map_file()
        shown = self.win.document.path
        return mf is None or (shown is not None and Path(shown).resolve() == mf)

    def editing_refusal(self) -> str | None:
        """Why the scenario's editing tools (:data:`EDITING_TOOLS`) may not act on the map now
        (also shown in the status bar), or None when they may: a scenario is edited on the map
        file it names only, never on another map shown in the window."""
        if self.on_own_map():
            return None
        why = (f"{self.doc.display_name()} is played on {self.own_map_file().name}, not on the map shown: "
               f"open {self.own_map_file().name} to edit the scenario on the map")
        self.win.statusBar().showMessage(why, 8000)
        return why

    def update_own_map(self) -> None:
        """Hide the overlay and show the banner (Scenario and Play modes) while the map shown is
        not the scenario's, and refuse the scenario's editing tools there (their actions
        disabled, a click says why); the other way round when it is."""
        away = not self.on_own_map()
        self.overlay.set_elsewhere(away)
        self.close_action.setEnabled(self.doc is not None)
        for name in EDITING_TOOLS:
            t = self.win.tools.tools.get(name)
            if t is not None:
                t.refusal = self.editing_refusal
            a = self.win.tool_actions.get(name)
            if a is not None:
                a.setEnabled(not away)
        cur = self.win.tools.current
        if away and cur is not None and cur.name in EDITING_TOOLS:
            self.editing_refusal()
        if away and self.win.mode in ("scenario", "play"):
            shown = self.win.document.path
            self.map_banner.label.setText(
                f"{self.doc.display_name()} is played on {self.own_map_file().name}; the map shown is "
                f"{Path(shown).name if shown else 'an unsaved map'}. The scenario is not drawn or checked "
                "on it.")
            self.map_banner.reopen.setText(f"Open {self.own_map_file().name}")
            self.map_banner.show()
            self.map_banner.place()
        else:
            self.map_banner.hide()

    def confirm_open_map(self, path: str | os.PathLike[str]) -> bool:
        """Before the window opens the map file ``path``: True to go on. When a scenario is open
        and ``path`` is not its map, ask: keep the scenario (shown on its own map only), close it
        (Save / Discard / Cancel for unsaved edits), or cancel (False)."""
        mf = self.own_map_file()
        if mf is None or Path(path).resolve() == mf:
            return True
        choice = widgets.ask_choice(
            self.win, "Open another map",
            f"The open scenario {self.doc.display_name()} is played on {mf.name}, not on {Path(path).name}.\n"
            "Keep the scenario open (it is shown and checked on its own map only) or close it?",
            [KEEP_SCENARIO, CLOSE_SCENARIO])
        if choice == KEEP_SCENARIO:
            return True
        if choice == CLOSE_SCENARIO:
            return self.close_scenario()
        return False

    def reopen_own_map(self) -> bool:
        """Show the scenario's map again (the map shown is saved or discarded first, as asked)."""
        mf = self.own_map_file()
        if mf is None or not self.win._maybe_save():
            return False
        return self.win.open_file(mf)

    def close_scenario(self) -> bool:
        """Close the open scenario (unsaved edits: Save / Discard / Cancel); the window goes back
        to the Map mode. False when cancelled or when no scenario is open."""
        doc = self.doc
        if doc is None or not self.maybe_save():
            return False
        self.win.set_mode("map")
        self.doc = None
        self.win.ctx.scenario = None
        self.win.ctx.region_loc = None
        self.win.ctx.unit = None
        self.win.ctx.table_scenario = None
        self.overlay.clear()
        for p in (self.properties, self.oob, self.regions, self.victory, self.setup_panel, self.validation, self.sides,
                  self.system_panel):
            p.setEnabled(False)
        try:
            doc.changed.disconnect(self.redraw)
        except (RuntimeError, TypeError):
            pass
        doc.bind_map(None)
        self.scenario_history.setStack(None)
        self.win.undo_group.removeStack(doc.undo_stack)
        self.win.undo_group.setActiveStack(self.win.document.undo_stack)
        self.win.update_mode_actions()
        self.update_own_map()
        self.win._update_title()
        self.win.statusBar().showMessage(f"closed {doc.display_name()}", 4000)
        return True


__all__ = ["CLOSE_SCENARIO", "EDITING_TOOLS", "KEEP_SCENARIO", "MapBanner", "OwnMap"]
