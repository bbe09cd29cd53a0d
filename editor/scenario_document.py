"""The scenario document: owns a :class:`scenarios.model.Scenario`, its ``QUndoStack``, the
designer's set-up placement, and what is derived from them (the map, the roster, resolved regions,
the engine units of the orders of battle, the problems ``check_scenario`` reports).

As for maps (:mod:`editor.document`), the model is an immutable snapshot: an edit builds a new
validated ``Scenario`` (:meth:`ScenarioDocument.edit` takes a function that changes a JSON copy)
and pushes a :class:`ScenarioEditCommand` holding the scenario before and after; undo puts the
old snapshot back. Placing units pushes a :class:`PlacementCommand`. Views listen to
:attr:`ScenarioDocument.changed` (``"scenario"`` or ``"placement"``) and redraw.

The placement (unit id -> hex, facing, down) is the designer's trial set-up: it is checked for
zones and stacking as units are dropped (8.62), used by "evaluate now" of the victory panel, and
saved beside the scenario as ``FILE.placement.json`` (the scenario format has no field for it).

Files: :meth:`save` writes atomically through :func:`scenarios.scenario_file.save_scenario`.
"""

from __future__ import annotations

import itertools
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from pydantic import ValidationError
from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from maps.document_file import DocumentError, Problem, atomic_write_text
from maps.hexmap import HexMap
from scenarios.model import Scenario
from scenarios.regions import RegionError

__all__ = ["ScenarioDocument", "ScenarioEditCommand", "PlacementCommand", "PlacedUnit", "new_scenario",
           "file_format", "stack_problem", "placement_path", "region_at", "set_region_at"]

_strokes = itertools.count(1)


def file_format(path: str | os.PathLike[str]) -> str | None:
    """The ``format`` field of a JSON document (``"ironcross-scenario"``, ``"ironcross-map"``...),
    or None when the file is not a JSON object with one."""
    try:
        with open(path, encoding="utf-8") as f:
            head = f.read(4096)
    except OSError:
        return None
    import re

    m = re.search(r'"format"\s*:\s*"([^"]+)"', head)
    return m.group(1) if m else None


def placement_path(path: str | os.PathLike[str]) -> Path:
    p = Path(path)
    return p.with_name(p.stem + ".placement.json")


def new_scenario(map_file: str | os.PathLike[str], hexmap: HexMap, title: str = "New scenario") -> Scenario:
    """A minimal valid scenario on ``hexmap``: all its sections, north at the top of the sheet,
    one group a side (Germans set up on the first column, Russians enter on turn 1 on the east
    edge) and a placeholder victory condition (Germans hold the centre hex)."""
    sections = [s.name for s in hexmap.doc.sections] or ["Map"]
    c0, c1 = hexmap.first_column, hexmap.last_column
    r0, r1 = hexmap.first_row, hexmap.last_row
    cm, rm = (c0 + c1) // 2, (r0 + r1) // 2
    hid = lambda c, r: f"{c:02d}{r:02d}"  # noqa: E731
    data = {
        "title": title,
        "map": {"file": str(Path(map_file).resolve()), "sections": sections},
        "north": {"hex": hid(c0, r0 + 1), "points_to": hid(c0, r0)},
        "turns": 8, "sets_up_first": "german", "moves_first": "russian",
        "german": {"groups": [{"name": "German force", "oob": [],
                               "setup": {"region": {"kind": "hexes", "hexes": [hid(cm, rm)]}}}]},
        "russian": {"groups": [{"name": "Russian force", "oob": [],
                                "entry": {"options": [{"region": {"kind": "map_edge", "direction": "east"},
                                                       "turn": 1}]}}]},
        "victory": {"text": "The Germans win if they hold the centre hex at the end; otherwise the Russians win.",
                    "outcomes": [{"result": "german", "condition": {
                        "kind": "at_least", "side": "german", "count": 1,
                        "region": {"kind": "hexes", "hexes": [hid(cm, rm)]}}}],
                    "default": "russian"},
    }
    return Scenario.model_validate(data)


def region_at(data: Any, loc: tuple) -> Any:
    for k in loc:
        data = data[k]
    return data


def set_region_at(data: Any, loc: tuple, value: Any) -> None:
    for k in loc[:-1]:
        data = data[k]
    data[loc[-1]] = value


@dataclass(frozen=True)
class PlacedUnit:
    """A unit of the designer's trial set-up."""

    hex: str
    facing: int | None = None
    down: bool = False


def stack_problem(units: list, adding) -> str | None:
    """Why ``adding`` (an engine unit) may not join ``units`` in a hex (8.62/8.63: six men plus
    one AFV, one CW counter a side; 8.61 one AFV a hex), or None."""
    from core.ironcross.state import stacking_problem

    return stacking_problem([u for u in units if u.id != adding.id] + [adding])


class ScenarioEditCommand(QUndoCommand):
    """Replace the scenario by another snapshot; ``stroke`` merges consecutive paint edits."""

    def __init__(self, doc: "ScenarioDocument", text: str, new: Scenario, stroke: int | None = None):
        super().__init__(text)
        self.doc, self.before, self.after, self.stroke = doc, doc.scenario, new, stroke

    def redo(self) -> None:
        self.doc._set_scenario(self.after)

    def undo(self) -> None:
        self.doc._set_scenario(self.before)

    def id(self) -> int:  # noqa: A003
        return 101 if self.stroke is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802
        if not isinstance(other, ScenarioEditCommand) or other.stroke is None or other.stroke != self.stroke:
            return False
        self.after = other.after
        return True


class PlacementCommand(QUndoCommand):
    """Change the designer's set-up: the placement (place, move, turn or remove units), the
    hidden hexes (hex -> side) and the mines (hex -> {"side", "ap", "at"}); what is not given
    stays as it is."""

    def __init__(self, doc: "ScenarioDocument", text: str, new: dict[str, PlacedUnit] | None = None, *,
                 hidden: dict[str, str] | None = None, mines: dict[str, dict] | None = None):
        super().__init__(text)
        self.doc = doc
        self.before = (dict(doc.placement), dict(doc.hidden), {k: dict(v) for k, v in doc.mines.items()})
        self.after = (dict(new) if new is not None else self.before[0],
                      dict(hidden) if hidden is not None else self.before[1],
                      {k: dict(v) for k, v in mines.items()} if mines is not None else self.before[2])

    def redo(self) -> None:
        self.doc._set_setup(*self.after)

    def undo(self) -> None:
        self.doc._set_setup(*self.before)


class ScenarioDocument(QObject):
    """A scenario being edited. Signals: ``changed(str)`` ("scenario" or "placement"),
    ``dirty_changed(bool)``, ``path_changed(object)``."""

    changed = Signal(str)
    dirty_changed = Signal(bool)
    path_changed = Signal(object)

    def __init__(self, scenario: Scenario, path: str | os.PathLike[str] | None = None, *,
                 hexmap: HexMap | None = None, roster=None, parent: QObject | None = None):
        super().__init__(parent)
        from scenarios.scenario_file import load_scenario_map

        self._scenario = scenario
        self._path = Path(path) if path is not None else None
        self.hexmap = hexmap if hexmap is not None else load_scenario_map(scenario, path)
        if roster is None:
            from scenarios.counters import load_counters

            roster = load_counters()
        self.roster = roster
        self.placement: dict[str, PlacedUnit] = {}
        #: designer's hidden hexes (24.2): hex -> side; mines (19.1): hex -> {"side", "ap", "at"}
        self.hidden: dict[str, str] = {}
        self.mines: dict[str, dict] = {}
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(lambda c: self._emit_dirty())
        self._cache: dict[str, Any] = {}
        if self._path is not None and placement_path(self._path).is_file():
            try:
                raw = json.loads(placement_path(self._path).read_text(encoding="utf-8"))
                self.placement = {k: PlacedUnit(**v) for k, v in raw.get("units", {}).items()}
                self.hidden = {str(k): str(v) for k, v in raw.get("hidden_hexes", {}).items()}
                self.mines = {str(k): {"side": v["side"], "ap": int(v.get("ap", 0)), "at": int(v.get("at", 0))}
                              for k, v in raw.get("mines", {}).items()}
            except (OSError, ValueError, TypeError, KeyError):
                self.placement, self.hidden, self.mines = {}, {}, {}

    def _emit_dirty(self) -> None:
        try:
            self.dirty_changed.emit(self.is_dirty)
        except RuntimeError:
            pass

    # ------------------------------------------------------------------ opening
    @classmethod
    def open(cls, path: str | os.PathLike[str], parent: QObject | None = None) -> "ScenarioDocument":
        """Load a scenario file (structure only: problems are shown live, not refused); raises
        DocumentError for a file that is not a scenario or whose map cannot be loaded."""
        from scenarios.scenario_file import load_scenario, load_scenario_map

        sc = load_scenario(path, check=False)
        try:
            hm = load_scenario_map(sc, path)
        except DocumentError as e:
            raise DocumentError(path, [Problem("$.map.file", f"cannot load map {sc.map.file!r}: "
                                               + "; ".join(str(p) for p in e.problems))]) from None
        return cls(sc, path, hexmap=hm, parent=parent)

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

    def _set_setup(self, placement: dict[str, PlacedUnit], hidden: dict[str, str], mines: dict[str, dict]) -> None:
        self.placement, self.hidden, self.mines = dict(placement), dict(hidden), {k: dict(v) for k, v in mines.items()}
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

    def setup(self):
        """The engine's :class:`GameSetup` of the scenario (units, zones, entries) or None when
        it cannot be built; :meth:`setup_error` says why."""
        if "setup" not in self._cache:
            from core.ironcross.scenario_setup import build_setup

            try:
                self._cache["setup"] = build_setup(self._scenario, self.hexmap, seed=0, roster=self.roster)
                self._cache["setup_error"] = None
            except Exception as e:  # noqa: BLE001 - SetupError, KeyError from the roster, RegionError
                self._cache["setup"] = None
                self._cache["setup_error"] = f"{type(e).__name__}: {e}"
        return self._cache["setup"]

    def setup_error(self) -> str | None:
        self.setup()
        return self._cache.get("setup_error")

    def unit_zone(self, uid: str) -> frozenset[str] | None:
        """The set-up zone of a unit (None: it enters, or is unknown)."""
        st = self.setup()
        if st is None:
            return None
        for d in st.deployments:
            if uid in d.units:
                return frozenset(d.zone)
        return None

    def placement_problem(self, uid: str, hex_id: str) -> str | None:
        """Why unit ``uid`` may not be placed in ``hex_id`` now (zone, stacking), or None."""
        st = self.setup()
        if st is None:
            return f"the scenario cannot be set up: {self.setup_error()}"
        u = st.units.get(uid)
        if u is None:
            return f"no unit {uid}"
        zone = self.unit_zone(uid)
        if zone is None:
            return f"{u.name or uid} enters the map; it is not set up"
        if hex_id not in zone:
            return f"{hex_id} is outside the set-up zone of {u.name or uid}"
        if u.is_afv:
            if self.terrain.entry_cost(hex_id, "afv", False) is None:
                return (f"{u.name or uid} cannot enter {hex_id} "
                        f"({self.terrain.governing_row(hex_id)}: prohibited to AFVs on the terrain chart)")
            if self.hidden.get(hex_id) == u.side:
                return f"24.21: AFVs may not set up in a hidden hex ({hex_id})"
        here = [st.units[k] for k, p in self.placement.items() if p.hex == hex_id and k in st.units and k != uid]
        return stack_problem(here, u)

    @property
    def terrain(self):
        """The engine's :class:`HexTerrain` of the map (terrain chart costs, buildings)."""
        if "terrain" not in self._cache:
            from core.ironcross.hex_terrain import HexTerrain
            from maps.terrain_chart import load_terrain_chart

            st = self.setup()
            self._cache["terrain"] = HexTerrain(self.hexmap, st.chart if st is not None else load_terrain_chart())
        return self._cache["terrain"]

    def side_zone(self, side: str) -> frozenset[str]:
        """Every hex of the side's set-up zones."""
        st = self.setup()
        if st is None:
            return frozenset()
        return frozenset(h for d in st.deployments if d.side == side for h in d.zone)

    # ------------------------------------------------------------------ hidden hexes (24.2)
    def hidden_problem(self, side: str, hex_id: str) -> str | None:
        """Why ``hex_id`` may not become a hidden hex of ``side`` now, or None."""
        allowed = self._scenario.side(side).hidden_hexes
        if allowed <= 0:
            return f"the {side} side has no hidden hexes in this scenario"
        if self.hidden.get(hex_id) is not None:
            return f"{hex_id} is already a hidden hex"
        mine = sum(1 for s in self.hidden.values() if s == side)
        if mine >= allowed:
            return f"24.2: the {side} side has only {allowed} hidden hexes"
        if hex_id not in self.side_zone(side):
            return f"{hex_id} is outside the {side} set-up zone"
        st = self.setup()
        units = [st.units[k] for k, p in self.placement.items() if p.hex == hex_id and k in st.units]
        if any(u.side != side for u in units):
            return f"{hex_id} holds enemy units"
        if any(u.is_afv for u in units):
            return f"24.21: AFVs may not be hidden (an AFV is set up in {hex_id})"
        return None

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
        st = self.setup()
        if st is None:
            return 0, 0, frozenset()
        als = [a for a in st.allotments if a.side == side]
        return (sum(a.ap_mines for a in als), sum(a.at_mines for a in als),
                frozenset(h for a in als if a.ap_mines or a.at_mines for h in a.zone))

    def mines_problem(self, side: str, hex_id: str, ap: int, at: int) -> str | None:
        """Why ``side`` may not have ``ap`` AP and ``at`` AT mine factors in ``hex_id``, or None."""
        if ap < 0 or at < 0:
            return "mine factors cannot be negative"
        if ap == 0 and at == 0:
            return None
        ap_max, at_max, zone = self.mine_allotment(side)
        if ap_max == 0 and at_max == 0:
            return f"the {side} side has no mine factors to set up"
        if hex_id not in zone:
            return f"{hex_id} is outside the {side} set-up zone of the mines"
        if self.terrain.is_building(hex_id):
            return f"19.14: mines may not be in a building hex ({hex_id})"
        other = self.mines.get(hex_id)
        if other is not None and other["side"] != side:
            return f"{hex_id} already holds the other side's mines"
        if ap > 4:
            return "19.12: at most 4 AP mine factors in a hex"
        if at and not 2 <= at <= 7:
            return "19.12: 2 to 7 AT mine factors in a hex"
        used_ap = sum(m["ap"] for h, m in self.mines.items() if m["side"] == side and h != hex_id) + ap
        used_at = sum(m["at"] for h, m in self.mines.items() if m["side"] == side and h != hex_id) + at
        if used_ap > ap_max:
            return f"19.1: {used_ap} AP factors placed, the {side} side has {ap_max}"
        if used_at > at_max:
            return f"19.1: {used_at} AT factors placed, the {side} side has {at_max}"
        return None

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

    def fixed_setup(self) -> dict:
        """The designer's set-up as JSON for a playtest (:func:`core.ironcross.scenario_setup.apply_fixed_setup`)."""
        return {"units": {k: {"hex": v.hex, "facing": v.facing, "down": v.down} for k, v in sorted(self.placement.items())},
                "hidden_hexes": dict(sorted(self.hidden.items())),
                "mines": {k: dict(v) for k, v in sorted(self.mines.items())}}

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

        return evaluate(self._scenario.victory, self.placement_refs(), self.context)

    # ------------------------------------------------------------------ files
    def save(self, path: str | os.PathLike[str] | None = None) -> Path:
        """Save atomically (and the placement beside it); the document becomes clean."""
        from scenarios.scenario_file import save_scenario

        target = Path(path) if path is not None else self._path
        if target is None:
            raise ValueError("the scenario has no file name yet: use Save As")
        sc = self._scenario
        mp = self.map_file().resolve()   # (a relative reference is relative to the old file: re-base it)
        if mp.is_absolute():  # keep the map reference relative to the scenario file when possible
            try:
                rel = os.path.relpath(mp, target.resolve().parent)
                sc = sc.model_copy(update={"map": sc.map.model_copy(update={"file": rel.replace(os.sep, "/")})})
            except ValueError:
                pass
        save_scenario(target, sc)
        if sc is not self._scenario:
            self._scenario = sc
            self._cache.clear()
        pp = placement_path(target)
        if self.placement or self.hidden or self.mines:
            atomic_write_text(pp, json.dumps({"format": "ironcross-placement", "version": 1, **self.fixed_setup()},
                                             indent=1) + "\n")
        old = self._path
        self._path = target
        self.undo_stack.setClean()
        self._emit_dirty()
        if old != target:
            self.path_changed.emit(target)
        return target

    def playable_copy(self, folder: str | os.PathLike[str]) -> Path:
        """Write the current scenario (map reference made absolute) to ``folder`` for a playtest."""
        from scenarios.scenario_file import map_path, save_scenario

        sc = self._scenario
        mp = map_path(sc, self._path)
        sc = sc.model_copy(update={"map": sc.map.model_copy(update={"file": str(mp)})})
        out = Path(folder) / "scenario.json"
        save_scenario(out, sc)
        return out

    def map_file(self) -> Path:
        from scenarios.scenario_file import map_path

        return map_path(self._scenario, self._path)


def validation_message(e: ValidationError) -> str:
    """One line per pydantic error."""
    return "\n".join(f"{'.'.join(str(x) for x in err['loc'])}: {err['msg']}" for err in e.errors())
