"""The autosave of an Iron Cross scenario document: ``FILE.autosave`` beside the scenario file and
its designer's set-up beside it as ``FILE.placement.json.autosave``, written by the main window's
autosave timer every minute, offered back on the next open after a crash (one undo step), removed
when the scenario is saved or its changes are discarded. Nothing a designer did is lost to a crash."""

from __future__ import annotations

import json
import os
from pathlib import Path

from maps.document_file import atomic_write_text
from editor.scenario.scenario_files import placement_path
from editor.scenario.undo_commands import PlacedUnit, PlacementCommand, ScenarioEditCommand

__all__ = ["ScenarioAutosave"]


class ScenarioAutosave:
    """Autosave methods of :class:`editor.scenario.document.ScenarioDocument` (a mixin: it reads the
    document's ``_path``, ``_scenario``, ``_layout``, ``is_dirty``, ``undo_stack`` and
    ``fixed_setup()``)."""

    def autosave_path(self) -> Path | None:
        """``FILE.autosave`` beside the scenario file (None while untitled); the designer's set-up
        goes beside it as ``FILE.placement.json.autosave``."""
        from editor.map.document import autosave_path

        return autosave_path(self._path) if self._path is not None else None

    def autosave(self) -> Path | None:
        """Write the unsaved scenario to ``FILE.autosave`` and its set-up to
        ``FILE.placement.json.autosave`` (the main window's autosave timer, every minute, as for the
        map and other systems' scenarios); returns the scenario's autosave, None when there is nothing
        unsaved or the scenario is untitled. Raises OSError."""
        from core.ironcross.placement import placement_json
        from editor.map.document import autosave_path
        from scenarios.scenario_file import scenario_json

        a = self.autosave_path()
        if a is None or not self.is_dirty:
            return None
        # the set-up first: an autosave newer than the file always has its set-up beside it
        atomic_write_text(autosave_path(placement_path(self._path)),
                          json.dumps(placement_json(self.fixed_setup()), indent=1) + "\n")
        atomic_write_text(a, scenario_json(self._scenario, self._layout))
        return a

    def newer_autosave(self) -> Path | None:
        """The autosave beside the file when it is newer than the file (the editor crashed)."""
        a = self.autosave_path()
        try:
            return a if a is not None and a.stat().st_mtime > self._path.stat().st_mtime else None
        except OSError:
            return None

    def recover_from(self, autosave: str | os.PathLike[str]) -> None:
        """Take the autosaved scenario and set-up (one undoable edit: the document becomes dirty).
        Raises :class:`DocumentError` naming the autosave file when it cannot be read."""
        from core.ironcross.placement import load_placement
        from editor.map.document import autosave_path
        from scenarios.scenario_file import load_scenario

        sc = load_scenario(autosave, check=False)
        pa = autosave_path(placement_path(self._path))
        fixed = load_placement(pa) if pa.is_file() else None
        self.undo_stack.beginMacro("Recover autosave")
        self.undo_stack.push(ScenarioEditCommand(self, "Recover autosave", sc))
        if fixed is not None:
            self.undo_stack.push(PlacementCommand(
                self, "Recover autosave",
                {k: PlacedUnit(v["hex"], v.get("facing"), bool(v.get("down"))) for k, v in fixed["units"].items()},
                hidden=dict(fixed["hidden_hexes"]), mines={k: dict(v) for k, v in fixed["mines"].items()},
                ips={k: dict(v) for k, v in (fixed.get("ips") or {}).items()},
                left_out=set(fixed.get("left_out") or [])))
        self.undo_stack.endMacro()

    def discard_autosave(self) -> None:
        """Remove the autosave side files (saved, or the changes discarded)."""
        from editor.map.document import remove_autosave

        if self._path is None:
            return
        for p in (self._path, placement_path(self._path)):
            remove_autosave(p)

