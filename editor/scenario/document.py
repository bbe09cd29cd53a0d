"""The scenario document: owns a :class:`scenarios.model.Scenario`, its ``QUndoStack``, the
designer's set-up placement, and what is derived from them (the map, the roster, resolved regions,
the engine units of the orders of battle, the problems ``check_scenario`` reports).

As for maps (:mod:`editor.map.document`), the model is an immutable snapshot: an edit builds a new
validated ``Scenario`` (:meth:`ScenarioDocument.edit` takes a function that changes a JSON copy)
and pushes a :class:`editor.scenario.undo_commands.ScenarioEditCommand` holding the scenario
before and after; undo puts the old snapshot back. Placing units pushes a
:class:`editor.scenario.undo_commands.PlacementCommand`. Views listen to
:attr:`ScenarioDocument.changed` (``"scenario"`` or ``"placement"``) and redraw.

The placement (unit id -> hex, facing, down), hidden hexes, mines, IPs and the 24.1 "less" choices
(``left_out``: which of several matching men a "less R PR9" leaves out, drawn once and changeable
in the OOB tree) are the designer's set-up: checked as units are dropped and, all of it, in the
Validation dock (:func:`core.ironcross.placement.check_fixed_setup`, the same checks as the CLI's
``playtest --setup`` and the games), used by "evaluate now" of the victory panel and by every game
that uses the designer's set-up, and saved beside the scenario as ``FILE.placement.json``.

One truth: when the scenario's map is the map open in the window, the document resolves its
regions on that live :class:`editor.map.document.MapDocument` (:meth:`ScenarioDocument.bind_map`): a
map edit (a hex added to Hill K with the Feature tool, a chart value) changes zones, placement
checks and victory at once. :meth:`ScenarioDocument.playable_copy` writes a consistent snapshot of
what the designer sees (scenario, map with its chart, roster) for the games the editor starts.

Files: :meth:`save` writes atomically through :func:`scenarios.scenario_file.save_scenario`.
"""

from __future__ import annotations

import itertools
import json
import os
from pathlib import Path
from typing import Any, Callable

from pydantic import ValidationError
from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QUndoStack

from maps.document_file import DocumentError, Problem, atomic_write_text
from maps.hexmap import HexMap
from scenarios.model import Scenario
from scenarios.regions import RegionError
from editor.scenario.scenario_autosave import ScenarioAutosave
from editor.scenario.scenario_files import new_scenario, placement_path
from editor.scenario.undo_commands import PlacedUnit, PlacementCommand, ScenarioEditCommand

__all__ = ["ScenarioDocument"]



_strokes = itertools.count(1)

#: how long after the last map edit the scenario's views redraw (a brush drag redraws them once)
MAP_REDRAW_MS = 200


class ScenarioDocument(ScenarioAutosave, QObject):
    """A scenario being edited. Signals: ``changed(str)`` ("scenario" or "placement"),
    ``dirty_changed(bool)``, ``path_changed(object)``."""

    changed = Signal(str)
    dirty_changed = Signal(bool)
    path_changed = Signal(object)

    def __init__(self, scenario: Scenario, path: str | os.PathLike[str] | None = None, *,
                 hexmap: HexMap | None = None, roster=None, layout: str | None = None,
                 parent: QObject | None = None):
        super().__init__(parent)
        from scenarios.scenario_file import load_base_roster, load_scenario_map

        self._scenario = scenario
        self._path = Path(path) if path is not None else None
        #: the map as loaded from the scenario's map file (used while no live map document is bound)
        self._own_hexmap = hexmap if hexmap is not None else load_scenario_map(scenario, path)
        #: the live map document the scenario resolves against (:meth:`bind_map`), or None
        self.map_document = None
        #: the roster the scenario's ``roster`` block applies to (its counters file, else the
        #: shipped one); never written by the editor. :attr:`roster` is the merged one.
        self.base_roster = getattr(roster, "base", roster) if roster is not None else load_base_roster(scenario, path)
        self._roster_cache: tuple | None = None
        #: the file's text as loaded (or last saved): the layout :meth:`save` keeps (key order,
        #: indentation, defaults left out; :func:`scenarios.scenario_file.scenario_json`)
        self._layout = layout
        self.placement: dict[str, PlacedUnit] = {}
        #: designer's hidden hexes (24.2): hex -> side; mines (19.1): hex -> {"side", "ap", "at"}
        self.hidden: dict[str, str] = {}
        self.mines: dict[str, dict] = {}
        #: designer's IPs (18.1): hex -> {"side", "points"}
        self.ips: dict[str, dict] = {}
        #: 24.1 choices made once: the men "less"/"only" entries leave out where several match
        #: (the draw of the first set-up, or the designer's pick); stale ids are harmless
        self.left_out: set[str] = set()
        #: why the placement file beside the scenario could not be read (a DocumentError), or None
        self.placement_error: DocumentError | None = None
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(lambda c: self._emit_dirty())
        self._cache: dict[str, Any] = {}
        #: movement costs of the design checks' reach (map and chart only,
        #: :func:`core.ironcross.design_checks.reach_costs`): looked up again when the map changes
        self._reach_costs: dict | None = None
        # the views redraw once a map edit (or a brush drag) pauses: every query is right at once
        # (the derived data is dropped on the edit), the panels follow within MAP_REDRAW_MS
        self._map_timer = QTimer(self)
        self._map_timer.setSingleShot(True)
        self._map_timer.setInterval(MAP_REDRAW_MS)
        self._map_timer.timeout.connect(lambda: self.changed.emit("scenario"))
        if self._path is not None and placement_path(self._path).is_file():
            from core.ironcross.placement import load_placement

            try:
                self._set_fixed(load_placement(placement_path(self._path)))
            except DocumentError as e:   # named, shown by the window; never a traceback
                self.placement_error = e

    def _set_fixed(self, fixed: dict) -> None:
        self.placement = {k: PlacedUnit(v["hex"], v.get("facing"), bool(v.get("down"))) for k, v in fixed["units"].items()}
        self.hidden = dict(fixed["hidden_hexes"])
        self.mines = {k: dict(v) for k, v in fixed["mines"].items()}
        self.ips = {k: dict(v) for k, v in (fixed.get("ips") or {}).items()}
        self.left_out = set(fixed.get("left_out") or [])
        self._file_left_out = list(fixed.get("left_out") or [])   # as the file wrote it (checked until saved)

    # ------------------------------------------------------------------ the live map
    @property
    def hexmap(self) -> HexMap:
        """The map the scenario is resolved on: the live map document's when one is bound, else
        the map loaded from the scenario's map file."""
        if self.map_document is not None:
            return self.map_document.hexmap
        return self._own_hexmap

    def bind_map(self, map_doc) -> None:
        """Resolve the scenario on the live map document ``map_doc`` (an
        :class:`editor.map.document.MapDocument` of the scenario's map file), or on the map file again
        (``None``). Every map edit (hexes, features, buildings, the chart) drops what was derived
        from the map at once and emits ``changed("scenario")`` once the edit is done."""
        if map_doc is self.map_document:
            return
        old = self.map_document
        if old is not None:
            for sig in (old.changed, old.chart_changed):
                try:
                    sig.disconnect(self._map_changed)
                except (RuntimeError, TypeError):
                    pass
        self.map_document = map_doc
        if map_doc is not None:
            map_doc.changed.connect(self._map_changed)
            map_doc.chart_changed.connect(self._map_changed)
        elif old is not None:
            from scenarios.scenario_file import load_scenario_map

            try:   # the scenario's map file, as the CLI plays it
                self._own_hexmap = load_scenario_map(self._scenario, self._path)
            except DocumentError:
                self._own_hexmap = old.hexmap
        self._map_changed()

    def _map_changed(self, *_args) -> None:
        self._cache.clear()
        self._reach_costs = None
        self._map_timer.start()

    def _emit_dirty(self) -> None:
        try:
            self.dirty_changed.emit(self.is_dirty)
        except RuntimeError:
            pass

    # ------------------------------------------------------------------ opening
    @classmethod
    def open(cls, path: str | os.PathLike[str], parent: QObject | None = None) -> "ScenarioDocument":
        """Load a scenario file (structure only: problems are shown live, not refused); raises
        DocumentError for a file that is not a scenario or whose map or roster cannot be loaded.
        A placement file beside it that cannot be read is reported in :attr:`placement_error`."""
        from scenarios.scenario_file import load_base_roster, load_scenario, load_scenario_map

        sc = load_scenario(path, check=False)
        try:
            hm = load_scenario_map(sc, path)
        except DocumentError as e:
            raise DocumentError(path, [Problem("$.map.file", f"cannot load map {sc.map.file!r}: "
                                               + "; ".join(str(p) for p in e.problems))]) from None
        from maps.json_file import JsonFileProblem, limit_for, read_text_file

        try:  # the file's own layout, kept when it is saved; read as the loader read it (bounded, UTF-8)
            layout = read_text_file(path, limit=limit_for("ironcross-scenario"))
        except (OSError, JsonFileProblem):
            layout = None
        return cls(sc, path, hexmap=hm, roster=load_base_roster(sc, path), layout=layout, parent=parent)

    @classmethod
    def create(cls, map_path: str | os.PathLike[str], parent: QObject | None = None) -> "ScenarioDocument":
        """A new scenario on the map file ``map_path``."""
        from maps.mapfile import load_map

        hm = load_map(map_path)
        return cls(new_scenario(map_path, hm), None, hexmap=hm, parent=parent)

    # ------------------------------------------------------------------ model
    @property
    def scenario(self) -> Scenario:
        return self._scenario

    @property
    def path(self) -> Path | None:
        return self._path

    def display_name(self) -> str:
        return self._path.name if self._path else "untitled scenario"

    @property
    def is_dirty(self) -> bool:
        return not self.undo_stack.isClean()

    def _set_scenario(self, sc: Scenario) -> None:
        self._scenario = sc
        self._cache.clear()
        self.changed.emit("scenario")

    def _set_placement(self, placement: dict[str, PlacedUnit]) -> None:
        self.placement = dict(placement)
        self.changed.emit("placement")

    def _set_setup(self, placement: dict[str, PlacedUnit], hidden: dict[str, str], mines: dict[str, dict],
                   left_out: frozenset[str] | None = None, ips: dict[str, dict] | None = None) -> None:
        self.placement, self.hidden, self.mines = dict(placement), dict(hidden), {k: dict(v) for k, v in mines.items()}
        if ips is not None:
            self.ips = {k: dict(v) for k, v in ips.items()}
        if left_out is not None and set(left_out) != self.left_out:
            self.left_out = set(left_out)
            self._cache.clear()
            self.changed.emit("scenario")   # other men are in the forces: the OOB tree and zones redraw
        self.changed.emit("placement")

    def data(self) -> dict:
        """A deep JSON copy of the scenario (to build an edit from)."""
        return self._scenario.model_dump(mode="json", exclude_none=True)

    def edit(self, text: str, change: Callable[[dict], Any], stroke: int | None = None) -> Scenario:
        """Apply ``change`` to a JSON copy of the scenario, validate it and push the edit.

        Raises ``pydantic.ValidationError`` (nothing is pushed) when the result is not a valid
        scenario. Returns the new scenario."""
        data = self.data()
        change(data)
        new = Scenario.model_validate(data)
        if new == self._scenario:
            return new
        self.undo_stack.push(ScenarioEditCommand(self, text, new, stroke))
        return new

    def replace(self, text: str, new: Scenario) -> None:
        if new != self._scenario:
            self.undo_stack.push(ScenarioEditCommand(self, text, new))

    @staticmethod
    def new_stroke() -> int:
        return next(_strokes)

    # ------------------------------------------------------------------ the roster
    @property
    def roster(self):
        """The roster the scenario is played with: :attr:`base_roster` with the scenario's own
        additions and overrides (a :class:`scenarios.scenario_roster.MergedRoster`; built again
        only when the ``roster`` block changes). While the block does not fit the base roster
        (a file edited by hand), the base roster; the Validation dock says why."""
        from scenarios.scenario_roster import merge_roster

        block = self._scenario.roster
        c = self._roster_cache
        if c is not None and c[0] is self.base_roster and c[1] == block:
            return c[2]
        try:
            r = merge_roster(self.base_roster, block, self._path or "<scenario>")
        except DocumentError:
            r = self.base_roster
        self._roster_cache = (self.base_roster, block, r)
        return r

    def edit_roster(self, text: str, change: Callable[[dict], Any]) -> Scenario:
        """Change the scenario's ``roster`` block (``change`` gets its JSON, ``{"add": [...],
        "override": [...]}``) as one undo step; an emptied block leaves the file. Raises
        ``pydantic.ValidationError`` or :class:`scenarios.counters.RosterError` (a ValueError
        naming ``$.roster...`` paths; nothing is pushed) when the result is not a valid scenario or
        does not fit the base roster."""
        from scenarios.scenario_roster import merge_roster

        data = self.data()
        block = data.get("roster") or {}
        block.setdefault("add", [])
        block.setdefault("override", [])
        change(block)
        if block["add"] or block["override"]:
            data["roster"] = block
        else:
            data.pop("roster", None)
        new = Scenario.model_validate(data)
        if new.roster is not None:
            merge_roster(self.base_roster, new.roster, self._path or "<scenario>")
        if new == self._scenario:
            return new
        self.undo_stack.push(ScenarioEditCommand(self, text, new))
        return new

    # ------------------------------------------------------------------ derived
    @property
    def context(self):
        """The :class:`RegionContext` of the scenario on its map."""
        if "ctx" not in self._cache:
            from scenarios.scenario_file import scenario_context

            self._cache["ctx"] = scenario_context(self._scenario, self.hexmap)
        return self._cache["ctx"]

    def resolve(self, region) -> tuple[frozenset, str | None]:
        """(hex ids, error message) of a region; an unresolvable region gives (empty, message)."""
        try:
            return frozenset(h.id for h in region.resolve(self.context)), None
        except RegionError as e:
            return frozenset(), e.message

    def regions(self) -> list[tuple[tuple, Any]]:
        """Every region of the scenario with its location (``("german", "groups", 0, "setup", "region")``)."""
        from scenarios.scenario_file import iter_regions

        return list(iter_regions(self._scenario))

    def problems(self) -> list[Problem]:
        """What ``ironcross validate`` reports for the current scenario (cached per edit)."""
        if "problems" not in self._cache:
            from scenarios.scenario_file import check_scenario

            try:
                self._cache["problems"] = check_scenario(self._scenario, self._path, hexmap=self.hexmap,
                                                         roster=self.roster)
            except Exception as e:  # noqa: BLE001 - a checker crash is shown as a problem, not a traceback
                self._cache["problems"] = [Problem("$", f"check failed: {type(e).__name__}: {e}")]
        return self._cache["problems"]

    def design_warnings(self) -> list:
        """The design checks of the scenario (:func:`core.ironcross.design_checks.design_warnings`:
        regions a side must take but cannot reach in time, a side with no units, entry edges outside
        the sections, OOB data read but not used), as ``ironcross validate --warnings`` reports
        them; warnings, not errors. Cached per edit (the set-up does not change them); the reach
        checks need the engine's set-up and are left out while it cannot be built."""
        if "warnings" not in self._cache:
            from core.ironcross.design_checks import DesignWarning, design_warnings, reach_costs

            try:
                st = self.setup()
                if st is not None and self._reach_costs is None:
                    self._reach_costs = reach_costs(self.hexmap, st.chart)
                self._cache["warnings"] = design_warnings(self._scenario, self.hexmap, st,
                                                          costs=self._reach_costs)
            except Exception as e:  # noqa: BLE001 - a checker crash is shown in the dock, not a traceback
                self._cache["warnings"] = [DesignWarning("$", "failed", f"design checks failed: "
                                                                        f"{type(e).__name__}: {e}")]
        return self._cache["warnings"]

    def setup_problems(self) -> list[Problem]:
        """Every problem of the designer's set-up (:func:`core.ironcross.placement.check_fixed_setup`:
        unknown or left-out units, hexes off the map or outside the unit's zone, stacking, hidden
        hexes, mines, 24.1 choices), paths into the placement file (``$.units.R-D-9.hex``); plus
        the placement file's own error when it could not be read. Not cached: placements change
        without a scenario edit."""
        out = list(self.placement_error.problems) if self.placement_error is not None else []
        st = self.setup()
        if st is None:
            return out
        from core.ironcross.placement import check_fixed_setup

        among = {m for c in st.random_choices for m in c["among"]}
        effective = set(self.effective_left_out())
        for i, uid in enumerate(getattr(self, "_file_left_out", [])):
            # the file's own 24.1 choices (the document keeps only the ones it can honour)
            if uid not in among:
                out.append(Problem(f"$.left_out[{i}]", f"{uid} is not one of the men a 'less' or 'only' entry "
                                                       "chooses among (24.1); ignored"))
            elif uid not in effective:
                out.append(Problem(f"$.left_out[{i}]", f"{uid} cannot be left out as well (24.1: the entry leaves "
                                                       "out fewer men); ignored"))
        return out + check_fixed_setup(st, self.fixed_setup())

    def setup(self):
        """The engine's :class:`GameSetup` of the scenario (units, zones, entries) or None when
        it cannot be built; :meth:`setup_error` says why. Its 24.1 choices follow
        :attr:`left_out`; a choice not yet made is drawn here once (seed 0) and kept."""
        if "setup" not in self._cache:
            from core.ironcross.scenario_setup import build_setup

            try:
                st = build_setup(self._scenario, self.hexmap, seed=0, roster=self.roster,
                                 left_out=frozenset(self.left_out))
                # 24.1: the choice is made once, visibly (the OOB tree), and kept for every game
                # that uses the designer's set-up; the designer changes it in the OOB tree
                for c in st.random_choices:
                    self.left_out.update(c["out"])
                self._cache["setup"] = st
                self._cache["setup_error"] = None
            except Exception as e:  # noqa: BLE001 - SetupError, KeyError from the roster, RegionError
                self._cache["setup"] = None
                # the loader's own sentence; a class name only for what is not a scenario's fault
                from core.rule_system import ScenarioError

                known = isinstance(e, (ScenarioError, KeyError)) and e.args
                msg = str(e.args[0]) if known else f"{type(e).__name__}: {e}"
                base = getattr(self.base_roster, "path", None)   # the roster by its file name, as Validation says
                self._cache["setup_error"] = msg.replace(str(base), Path(base).name) if base else msg
        return self._cache["setup"]

    def setup_error(self) -> str | None:
        self.setup()
        return self._cache.get("setup_error")

    def setup_problem_hexes(self) -> dict[str, str]:
        """Hex -> the set-up problems there (:meth:`setup_problems` of placed units, IPs, mines and
        hidden hexes; a unit over a set-up cap, 24.1), for the map."""
        out: dict[str, str] = {}
        for p in self.setup_problems():
            parts = p.path.split(".")
            hid = None
            if len(parts) > 2 and parts[1] == "units" and parts[2] in self.placement:
                hid = self.placement[parts[2]].hex
            elif len(parts) > 2 and parts[1] in ("ips", "mines", "hidden_hexes"):
                hid = parts[2]
            if hid is not None:
                out[hid] = (out[hid] + "\n" if hid in out else "") + p.message
        return out

    def random_choices(self) -> list[dict]:
        """The 24.1 choices among several matching men (``{"side", "squad", "what", "among",
        "out", "by"}``, see :func:`core.ironcross.scenario_setup.build_setup`)."""
        st = self.setup()
        return list(getattr(st, "random_choices", [])) if st is not None else []

    def effective_left_out(self) -> list[str]:
        """The men the current 24.1 choices leave out (sorted unit ids)."""
        return sorted({m for c in self.random_choices() for m in c["out"]})

    def swap_left_out(self, uid: str) -> str | None:
        """Change a 24.1 choice (one undo step): leave ``uid`` out instead of the man of his
        choice left out now, or, when ``uid`` is left out, keep him and leave out the first man
        kept. A placed man who is now left out hands his place to the man now kept. Returns the
        refusal or None."""
        c = next((c for c in self.random_choices() if uid in c["among"]), None)
        if c is None:
            return f"{uid} is not chosen among others by a 'less' or 'only' entry (24.1)"
        out = list(c["out"])
        kept = [m for m in c["among"] if m not in out]
        if uid in out:
            if not kept:
                return f"every man of {c['what']} is left out"
            swap_in, swap_out = uid, kept[0]
        else:
            if not out:
                return f"{c['what']} leaves nobody out"
            swap_in, swap_out = out[0], uid
        new_out = [m for m in out if m != swap_in] + [swap_out]
        left = (set(self.left_out) - set(c["among"])) | set(new_out)
        placement = dict(self.placement)
        if swap_out in placement and swap_in not in placement:
            placement[swap_in] = placement.pop(swap_out)
        self.undo_stack.push(PlacementCommand(self, f"{c['side']} Squad {c['squad']} {c['what']}: leave out {swap_out} "
                                                    f"instead of {swap_in} (24.1)", placement, left_out=left))
        return None

    def unit_zone(self, uid: str) -> frozenset[str] | None:
        """The set-up zone of a unit (None: it enters, or is unknown)."""
        from core.ironcross.placement import unit_zone

        st = self.setup()
        z = unit_zone(st, uid) if st is not None else None
        return z[0] if z is not None else None

    def placement_problem(self, uid: str, hex_id: str) -> str | None:
        """Why unit ``uid`` may not be placed in ``hex_id`` now (zone, terrain, stacking), or None
        (:func:`core.ironcross.placement.unit_problem`, as the games check it)."""
        from core.ironcross.placement import unit_problem

        st = self.setup()
        if st is None:
            return f"the scenario cannot be set up: {self.setup_error()}"
        here = [st.units[k] for k, p in self.placement.items() if p.hex == hex_id and k in st.units and k != uid]
        where = {k: p.hex for k, p in self.placement.items() if k != uid}   # 24.1 the scenario's set-up caps
        return unit_problem(st, self.terrain, uid, hex_id, here, self.hidden, where)

    @property
    def terrain(self):
        """The engine's :class:`HexTerrain` of the map (the map's terrain chart, buildings)."""
        if "terrain" not in self._cache:
            from core.ironcross.hex_terrain import HexTerrain

            st = self.setup()
            self._cache["terrain"] = HexTerrain(self.hexmap, st.chart if st is not None else self.hexmap.chart)
        return self._cache["terrain"]

    def side_zone(self, side: str) -> frozenset[str]:
        """Every hex of the side's set-up zones."""
        from core.ironcross.placement import side_zone

        st = self.setup()
        return side_zone(st, side) if st is not None else frozenset()

    # ------------------------------------------------------------------ hidden hexes (24.2)
    def hidden_problem(self, side: str, hex_id: str) -> str | None:
        """Why ``hex_id`` may not become a hidden hex of ``side`` now, or None."""
        from core.ironcross.placement import hidden_problem

        st = self.setup()
        if st is None:
            return f"the scenario cannot be set up: {self.setup_error()}"
        units = [st.units[k] for k, p in self.placement.items() if p.hex == hex_id and k in st.units]
        return hidden_problem(st, side, hex_id, self.hidden, units)

    def mark_hidden(self, side: str, hex_id: str) -> str | None:
        """Mark ``hex_id`` a hidden hex of ``side`` (one undo step); returns the refusal or None."""
        why = self.hidden_problem(side, hex_id)
        if why is not None:
            return why
        new = dict(self.hidden)
        new[hex_id] = side
        self.undo_stack.push(PlacementCommand(self, f"Hidden hex {hex_id} ({side})", hidden=new))
        return None

    def unmark_hidden(self, hex_id: str) -> bool:
        if hex_id not in self.hidden:
            return False
        new = dict(self.hidden)
        del new[hex_id]
        self.undo_stack.push(PlacementCommand(self, f"Hidden hex {hex_id} removed", hidden=new))
        return True

    # ------------------------------------------------------------------ mines (19.1)
    def mine_allotment(self, side: str) -> tuple[int, int, frozenset[str]]:
        """(AP factors, AT factors, hexes they may go in) the side's set-up groups bring."""
        from core.ironcross.placement import mine_allotment

        st = self.setup()
        return mine_allotment(st, side) if st is not None else (0, 0, frozenset())

    def mines_problem(self, side: str, hex_id: str, ap: int, at: int) -> str | None:
        """Why ``side`` may not have ``ap`` AP and ``at`` AT mine factors in ``hex_id``, or None."""
        from core.ironcross.placement import mines_problem

        st = self.setup()
        if st is None:
            return f"the scenario cannot be set up: {self.setup_error()}"
        return mines_problem(st, self.terrain, side, hex_id, ap, at, self.mines)

    def set_mines(self, side: str, hex_id: str, ap: int = 0, at: int = 0) -> str | None:
        """Set the mine factors of ``side`` in ``hex_id`` (0 and 0 removes them); one undo step.
        Returns the refusal or None."""
        why = self.mines_problem(side, hex_id, ap, at)
        if why is not None:
            return why
        new = {k: dict(v) for k, v in self.mines.items()}
        if ap == 0 and at == 0:
            if hex_id not in new:
                return None
            del new[hex_id]
            text = f"Mines removed from {hex_id}"
        else:
            new[hex_id] = {"side": side, "ap": ap, "at": at}
            text = f"Mines in {hex_id}: {ap} AP, {at} AT ({side})"
        if new == self.mines:
            return None
        self.undo_stack.push(PlacementCommand(self, text, mines=new))
        return None

    def mines_placed(self, side: str) -> tuple[int, int]:
        return (sum(m["ap"] for m in self.mines.values() if m["side"] == side),
                sum(m["at"] for m in self.mines.values() if m["side"] == side))

    # ------------------------------------------------------------------ IPs (18.1)
    def ip_problem(self, side: str, hex_id: str, points: int) -> str | None:
        """Why ``side`` may not have an IP of ``points`` in ``hex_id`` now, or None
        (:func:`core.ironcross.placement.ip_problem`, as the games check it)."""
        from core.ironcross.placement import ip_problem

        st = self.setup()
        if st is None:
            return f"the scenario cannot be set up: {self.setup_error()}"
        return ip_problem(st, self.terrain, side, hex_id, points, self.ips)

    def place_ip(self, side: str, hex_id: str, points: int) -> str | None:
        """Put an IP of ``points`` of ``side`` in ``hex_id`` (replacing the hex's IP); one undo
        step. Returns the refusal or None."""
        why = self.ip_problem(side, hex_id, points)
        if why is not None:
            return why
        new = {k: dict(v) for k, v in self.ips.items()}
        new[hex_id] = {"side": side, "points": points}
        if new != self.ips:
            self.undo_stack.push(PlacementCommand(self, f"IP{points} in {hex_id} ({side})", ips=new))
        return None

    def remove_ip(self, hex_id: str) -> bool:
        if hex_id not in self.ips:
            return False
        new = {k: dict(v) for k, v in self.ips.items() if k != hex_id}
        self.undo_stack.push(PlacementCommand(self, f"IP removed from {hex_id}", ips=new))
        return True

    def ip_allotment(self, side: str) -> list[tuple[int, frozenset[str], str]]:
        """The side's IP markers (points, zone, whose), as the games place them (18.1)."""
        from core.ironcross.placement import ip_allotment

        st = self.setup()
        return ip_allotment(st, side) if st is not None else []

    def set_down(self, uid: str, down: bool) -> bool:
        """Set a placed unit UP or DOWN at the start (3.12: as the owner wishes); one undo step.
        False when the unit is not placed or already so."""
        p = self.placement.get(uid)
        if p is None or p.down == down:
            return False
        new = dict(self.placement)
        new[uid] = PlacedUnit(p.hex, p.facing, down)
        self.undo_stack.push(PlacementCommand(self, f"{uid} starts {'DOWN' if down else 'UP'} (3.12)", new))
        return True

    def fixed_setup(self) -> dict:
        """The designer's set-up as JSON for a playtest and the placement file
        (:func:`core.ironcross.scenario_setup.apply_fixed_setup`): units, hidden hexes, mines and
        IPs and ``left_out``, the men the 24.1 choices leave out as the OOB tree shows them."""
        return {"units": {k: {"hex": v.hex, "facing": v.facing, "down": v.down} for k, v in sorted(self.placement.items())},
                "hidden_hexes": dict(sorted(self.hidden.items())),
                "mines": {k: dict(v) for k, v in sorted(self.mines.items())},
                "ips": {k: dict(v) for k, v in sorted(self.ips.items())},
                "left_out": self.effective_left_out()}

    def remove_invalid_setup(self) -> int:
        """Remove every placed unit, hidden hex and mine the set-up checks refuse (one undo step);
        returns how many were removed."""
        bad = {p.path for p in self.setup_problems()}

        def ok(prefix: str) -> bool:
            return not any(b == prefix or b.startswith(prefix + ".") for b in bad)

        units = {k: v for k, v in self.placement.items() if ok(f"$.units.{k}")}
        hidden = {h: s for h, s in self.hidden.items() if ok(f"$.hidden_hexes.{h}")}
        mines = {h: m for h, m in self.mines.items() if ok(f"$.mines.{h}")}
        ips = {h: i for h, i in self.ips.items() if ok(f"$.ips.{h}")}
        n = (len(self.placement) - len(units)) + (len(self.hidden) - len(hidden)) + (len(self.mines) - len(mines)) \
            + (len(self.ips) - len(ips))
        if n:
            self.undo_stack.push(PlacementCommand(self, f"Remove {n} invalid placement(s)", units, hidden=hidden,
                                                  mines=mines, ips=ips))
        return n

    def place(self, uid: str, hex_id: str, facing: int | None = None, down: bool = False) -> str | None:
        """Place (or move) a unit; returns the refusal reason, or None when placed (one undo step)."""
        why = self.placement_problem(uid, hex_id)
        if why is not None:
            return why
        u = self.setup().units[uid]
        if u.has_facing and facing is None:
            facing = (self.placement.get(uid).facing if uid in self.placement else None) or 1
        new = dict(self.placement)
        new[uid] = PlacedUnit(hex_id, facing if u.has_facing else None, down)
        self.undo_stack.push(PlacementCommand(self, f"Place {u.name or uid} in {hex_id}", new))
        return None

    def set_facing(self, uid: str, facing: int) -> None:
        """Turn a placed unit to a hexside; only ATGs, MGs and AFVs have a facing (8.7)."""
        p = self.placement.get(uid)
        st = self.setup()
        u = st.units.get(uid) if st is not None else None
        if p is None or p.facing == facing or u is None or not u.has_facing or not 1 <= facing <= 6:
            return
        new = dict(self.placement)
        new[uid] = PlacedUnit(p.hex, facing, p.down)
        self.undo_stack.push(PlacementCommand(self, f"Face {uid} to hexside {facing}", new))

    def unplace(self, uid: str) -> None:
        if uid in self.placement:
            new = dict(self.placement)
            del new[uid]
            self.undo_stack.push(PlacementCommand(self, f"Remove {uid} from the map", new))

    def placement_refs(self) -> dict[str, list]:
        """The placement as ``evaluate`` wants it: hex -> [UnitRef, ...]."""
        from scenarios.victory import UnitRef

        st = self.setup()
        kinds = {"infantry": "infantry", "commander": "commander", "cw": "crew_weapon", "afv": "afv"}
        out: dict[str, list] = {}
        for uid, p in self.placement.items():
            u = st.units.get(uid) if st is not None else None
            if u is None:
                continue
            out.setdefault(p.hex, []).append(UnitRef(u.side, u.id, kinds[u.kind.value], u.squad))
        return out

    def evaluate(self):
        """The victory result for the current placement (:class:`scenarios.victory.VictoryResult`)."""
        from scenarios.victory import evaluate

        return evaluate(self._scenario.victory, self.placement_refs(), self.context, self.initial_control())

    def initial_control(self) -> dict[str, str]:
        """Hex -> side of the scenario's initial control (the games start with it); {} while the
        set-up cannot be built."""
        st = self.setup()
        return dict(st.initial_control) if st is not None else {}

    # ------------------------------------------------------------------ files
    def save(self, path: str | os.PathLike[str] | None = None) -> Path:
        """Save atomically (and the designer's set-up beside it, ``FILE.placement.json``; a set-up
        emptied removes that file); the document becomes clean. The map and counters references
        stay relative to the scenario file when possible. The file keeps the layout it was loaded
        with (:func:`scenarios.scenario_file.scenario_json`): a one-value edit is a one-line diff."""
        from core.ironcross.placement import placement_json
        from scenarios.scenario_file import roster_path, scenario_json

        target = Path(path) if path is not None else self._path
        if target is None:
            raise ValueError("the scenario has no file name yet: use Save As")
        sc = self._scenario
        base = target.resolve().parent
        update: dict[str, Any] = {}
        mp = self.map_file().resolve()   # (a relative reference is relative to the old file: re-base it)
        try:
            rel = os.path.relpath(mp, base).replace(os.sep, "/")
            if rel != sc.map.file:
                update["map"] = sc.map.model_copy(update={"file": rel})
        except ValueError:
            pass
        rp = roster_path(sc, self._path)
        if rp is not None:
            try:
                rel = os.path.relpath(rp.resolve(), base).replace(os.sep, "/")
                if rel != sc.counters:
                    update["counters"] = rel
            except ValueError:
                pass
        if update:
            sc = sc.model_copy(update=update)
        text = scenario_json(sc, self._layout)
        atomic_write_text(target, text)
        self._layout = text
        if sc is not self._scenario:
            self._scenario = sc
            self._cache.clear()
        pp = placement_path(target)
        fixed = self.fixed_setup()
        if fixed["units"] or fixed["hidden_hexes"] or fixed["mines"] or fixed["ips"] or fixed["left_out"]:
            atomic_write_text(pp, json.dumps(placement_json(fixed), indent=1) + "\n")
        elif pp.is_file():
            pp.unlink()   # nothing placed any more: no stale set-up comes back on reopening
        self.placement_error = None
        self._file_left_out = list(fixed["left_out"])
        old = self._path
        self._path = target
        self.discard_autosave()
        self.undo_stack.setClean()
        self._emit_dirty()
        if old != target:
            self.path_changed.emit(target)
        return target

    def playable_copy(self, folder: str | os.PathLike[str]) -> Path:
        """Write a consistent snapshot of what the designer sees to a new sub-folder of ``folder``
        for the games the editor starts (batch, Watch, Hot-seat) and return the scenario file:
        ``map.json`` (the live map, unsaved edits included, with its terrain chart embedded),
        ``counters.json`` (the base roster; the scenario's own additions and overrides stay in its
        ``roster`` block) and ``scenario.json`` (the scenario in memory, naming both). Every game
        then reads exactly these documents; each snapshot keeps its own folder, so the replays of
        earlier games still verify."""
        import tempfile

        from maps.mapfile import save_map
        from scenarios.counters import save_counters
        from scenarios.scenario_file import save_scenario

        Path(folder).mkdir(parents=True, exist_ok=True)
        out = Path(tempfile.mkdtemp(prefix="snapshot-", dir=str(folder)))
        hm = self.hexmap
        save_map(out / "map.json", hm.doc.model_copy(update={"terrain_chart": hm.chart}))
        save_counters(self.base_roster, out / "counters.json")
        sc = self._scenario
        sc = sc.model_copy(update={"map": sc.map.model_copy(update={"file": "map.json"}), "counters": "counters.json"})
        save_scenario(out / "scenario.json", sc)
        return out / "scenario.json"

    def map_file(self) -> Path:
        from scenarios.scenario_file import map_path

        return map_path(self._scenario, self._path)


def validation_message(e: ValidationError) -> str:
    """One line per pydantic error."""
    return "\n".join(f"{'.'.join(str(x) for x in err['loc'])}: {err['msg']}" for err in e.errors())
