"""Red Flags scenario files: the pydantic model, its checks, and the set-up of one game.

A scenario is a toolkit scenario document of its own format (``"format": "redflags-scenario"``)
with ``"rule_system": "redflags"``. It names the map and ONE section of it (``"sections": ["Map 2"]``:
the playing area), the game
length in turns, who sets up first, the roster (absent = the shipped one), per side its set-up
zone (hexes and/or a column and row block), the facing its units start with, whether its units
set up dug in, and its groups -- each a division or group of assets with its activation card and
its units (roster type, quality, support weapon, the transport that tows or carries it; aircraft
with arrival turn, entry hex and heading) -- barbed wire and mined hexes, and the victory
conditions (objective hexes, initial control, results checked in order, default, sudden death).

:func:`load_scenario` returns the checked :class:`Scenario`; every problem is reported at once by
:class:`maps.document_file.DocumentError`, one line each ``FILE: $.json.path: problem``.
:func:`load_setup` builds the :class:`Setup` a game starts from.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from maps.json_file import json_tuple
from scenarios.model import AISettingsBlock

from core.redflags.roster import Roster, RosterEntry, shipped_roster
from core.rule_system import ScenarioError
from maps import hexgrid
from maps.document_file import DocumentError, Problem, load_document, read_json
from maps.hexmap import HexMap

__all__ = ["SCENARIO_FORMAT", "Card", "UnitSpec", "Group", "Zone", "SideSpec", "Result", "Victory", "Scenario",
           "Setup", "load_scenario", "scenario_from_data", "load_setup", "SUITS", "BLACK_SUITS"]

SCENARIO_FORMAT = "redflags-scenario"
SUITS = ("clubs", "spades", "hearts", "diamonds")
#: Movement: 'a black card (clubs, spades)'.
BLACK_SUITS = frozenset({"clubs", "spades"})
Side = Literal["german", "russian"]
_QUALITY = Literal["above_average", "average", "below_average"]


#: A hex column or row number as printed in hex ids (``CCRR``).
Coordinate = Annotated[int, Field(ge=0, le=99)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Card(_Strict):
    """A playing card: ``rank`` (A, 2-10, J, Q, K) and ``suit``."""

    rank: Literal["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    suit: Literal["clubs", "spades", "hearts", "diamonds"]

    @property
    def black(self) -> bool:
        return self.suit in BLACK_SUITS

    def label(self) -> str:
        return f"{self.rank}{ {'clubs': '♣', 'spades': '♠', 'hearts': '♥', 'diamonds': '♦'}[self.suit]}"


class UnitSpec(_Strict):
    """One unit of a group: ``id`` (unique in the scenario), ``type`` (a roster id of the side),
    ``quality`` (Units: quality grades), ``support`` (overrides the roster's support weapon;
    ``"none"`` removes it), ``tow`` (an artillery unit's towing transport), ``aboard`` (start
    carried by that transport), ``limbered`` (an artillery unit starts hooked to its tow),
    ``arrives``/``entry``/``heading`` (aircraft: turn, entry hex, hexside 1-6 it flies toward)."""

    id: str = Field(min_length=1, max_length=24)
    type: str = Field(min_length=1)
    quality: _QUALITY = "average"
    support: str | None = None
    tow: str | None = None
    aboard: str | None = None
    limbered: bool = False
    arrives: int | None = Field(default=None, ge=1, le=50)
    entry: str | None = None
    heading: int | None = Field(default=None, ge=1, le=6)


class Group(_Strict):
    """A division or group of assets and its activation card (Activation)."""

    name: str = Field(min_length=1)
    card: Card
    units: list[UnitSpec] = Field(min_length=1)


class Zone(_Strict):
    """A set of hexes: ``hexes`` listed, plus the block ``columns`` x ``rows`` (inclusive)."""

    hexes: list[str] = Field(default_factory=list)
    columns: json_tuple(tuple[Coordinate, Coordinate]) | None = None
    rows: json_tuple(tuple[Coordinate, Coordinate]) | None = None

    def hex_ids(self) -> set[str]:
        out = set(self.hexes)
        if self.columns is not None and self.rows is not None:
            for c in range(self.columns[0], self.columns[1] + 1):
                for r in range(self.rows[0], self.rows[1] + 1):
                    out.add(hexgrid.hex_id(c, r))
        return out


class SideSpec(_Strict):
    """One side: set-up zone, starting facing (hexside 1-6, r.enfilade), dug in (r.setup), groups."""

    setup_zone: Zone
    facing: int = Field(ge=1, le=6)
    dug_in: bool = False
    groups: list[Group] = Field(min_length=1)
    notes: list[str] = Field(default_factory=list)


class Result(_Strict):
    """``outcome`` when ``side`` controls at least ``controls_at_least`` objective hexes."""

    outcome: Literal["german", "russian", "draw"]
    side: Side
    controls_at_least: int = Field(ge=0, le=99)


class Victory(_Strict):
    """Victory conditions (r.victory): ``objectives`` hexes, their ``initial_control`` (a side or
    None), ``results`` checked in order at the end of the last turn, else ``default``;
    ``sudden_death``: a side with no combat unit left loses at once."""

    text: str = ""
    objectives: list[str] = Field(min_length=1)
    initial_control: Side | None = None
    results: list[Result] = Field(default_factory=list)
    default: Literal["german", "russian", "draw"] = "draw"
    sudden_death: bool = True


class MapRef(_Strict):
    """The map file (relative to the scenario file) and the ONE section played on (``sections``:
    a list of one name, the shape every system's scenario file gives its map)."""

    file: str = Field(min_length=1)
    sections: list[str] = Field(min_length=1, max_length=1)

    @property
    def section(self) -> str:
        return self.sections[0]


class Fortifications(_Strict):
    """Barbed wire and mined hexes (Movement)."""

    wire: list[str] = Field(default_factory=list)
    mines: list[str] = Field(default_factory=list)


class Scenario(_Strict):
    """A Red Flags scenario file (see the module docstring)."""

    format: Literal["redflags-scenario"] = SCENARIO_FORMAT
    version: int = 1
    rule_system: Literal["redflags"]
    number: int | None = Field(default=None, ge=1, le=999)
    title: str = Field(min_length=1)
    background: str = ""
    map: MapRef
    turns: int = Field(ge=1, le=50)
    sets_up_first: Side
    roster: str | None = None
    german: SideSpec
    russian: SideSpec
    fortifications: Fortifications = Field(default_factory=Fortifications)
    victory: Victory
    notes: list[str] = Field(default_factory=list)
    #: the behaviour settings of each side's AI, with their provenance (docs/ai.md, "Behaviour
    #: settings"): a side played by the bare player they are for takes them
    ai_settings: dict[Side, AISettingsBlock] | None = None

    def side(self, s: str) -> SideSpec:
        return self.german if s == "german" else self.russian

    def units(self) -> list[tuple[str, Group, UnitSpec, tuple]]:
        """Every unit as (side, group, spec, JSON location)."""
        out = []
        for s in ("german", "russian"):
            for gi, g in enumerate(self.side(s).groups):
                for ui, u in enumerate(g.units):
                    out.append((s, g, u, (s, "groups", gi, "units", ui)))
        return out


def _path(loc: tuple) -> str:
    from maps.document_file import json_path

    return json_path(loc)


def map_path(sc: Scenario, scenario_path: str | os.PathLike[str] | None) -> Path:
    """The map file the scenario names, relative to the scenario file's folder."""
    p = Path(sc.map.file)
    if p.is_absolute():
        return p
    base = Path(scenario_path).resolve().parent if scenario_path and not str(scenario_path).startswith("<") else Path.cwd()
    return (base / p).resolve()


def roster_file(sc: Scenario, scenario_path: str | os.PathLike[str] | None) -> Path | None:
    if sc.roster is None:
        return None
    p = Path(sc.roster)
    if p.is_absolute() or not scenario_path:
        return p
    return (Path(scenario_path).resolve().parent / p).resolve()


@lru_cache(maxsize=4)
def _map_cached(path: str, mtime: float) -> HexMap:
    from maps.mapfile import load_map

    return load_map(path)


def load_map_cached(path: Path) -> HexMap:
    """The map at ``path``, loaded once per file version (games of a batch share it; it is never
    changed after loading)."""
    try:
        mtime = path.stat().st_mtime
    except OSError:
        mtime = -1.0
    return _map_cached(str(path), mtime)


def check_scenario(sc: Scenario, path: str | os.PathLike[str] | None) -> tuple[list[Problem], HexMap | None, Roster | None]:
    """Every problem of a parsed scenario (map, section, hexes, roster types, cards, tows, aircraft,
    victory), with the map and roster when they load."""
    from core.behaviour_settings import stored_problems
    from core.redflags.players import PLAYERS, canonical_settings

    problems: list[Problem] = [Problem(where, what) for where, what in
                               stored_problems(sc.ai_settings, PLAYERS, canonical_settings)]
    hexmap = None
    try:
        hexmap = load_map_cached(map_path(sc, path))
    except DocumentError as e:
        from maps.mapfile import missing_map_hint

        problems.append(Problem("$.map.file", f"cannot load the map {sc.map.file!r}: " + "; ".join(str(p) for p in e.problems)
                                + missing_map_hint(sc.map.file, map_path(sc, path))))
    roster = None
    try:
        rf = roster_file(sc, path)
        roster = shipped_roster(rf)
    except DocumentError as e:
        problems.append(Problem("$.roster", f"cannot load the roster {sc.roster!r}: " + "; ".join(str(p) for p in e.problems)))
    area: set[str] = set()
    if hexmap is not None:
        try:
            c0, c1 = hexmap.section_columns(sc.map.section)
        except KeyError:
            names = ", ".join(s.name for s in hexmap.doc.sections)
            problems.append(Problem("$.map.sections[0]", f"the map has no section {sc.map.section!r} (sections: {names})"))
        else:
            area = {h.id for h in hexmap.all_hexes() if c0 <= h.col <= c1}

    def hex_ok(text: Any, loc: tuple) -> bool:
        try:
            hexgrid.parse_hex_id(text)
        except hexgrid.HexIdError as e:
            problems.append(Problem(_path(loc), str(e)))
            return False
        if area and text not in area:
            problems.append(Problem(_path(loc), f"hex {text} is not in {sc.map.section} of the map"))
            return False
        return True

    for s in ("german", "russian"):
        spec = sc.side(s)
        for i, h in enumerate(spec.setup_zone.hexes):
            hex_ok(h, (s, "setup_zone", "hexes", i))
        z = spec.setup_zone
        if (z.columns is None) != (z.rows is None):
            problems.append(Problem(_path((s, "setup_zone")), "a block needs both 'columns' and 'rows'"))
        ids = z.hex_ids()
        if area:
            ids &= area
        if not ids:
            problems.append(Problem(_path((s, "setup_zone")), f"the {s} set-up zone has no hex in {sc.map.section}"))
    for kind in ("wire", "mines"):
        for i, h in enumerate(getattr(sc.fortifications, kind)):
            hex_ok(h, ("fortifications", kind, i))
    for i, h in enumerate(sc.victory.objectives):
        hex_ok(h, ("victory", "objectives", i))
    for i, r in enumerate(sc.victory.results):
        if r.controls_at_least > len(sc.victory.objectives):
            problems.append(Problem(_path(("victory", "results", i, "controls_at_least")),
                                    f"there are only {len(sc.victory.objectives)} objective hexes"))
    # cards: one per group, none twice (Activation)
    seen_cards: dict[tuple, str] = {}
    seen_groups: set[str] = set()
    for s in ("german", "russian"):
        for gi, g in enumerate(sc.side(s).groups):
            key = (g.card.rank, g.card.suit)
            if key in seen_cards:
                problems.append(Problem(_path((s, "groups", gi, "card")), f"card {g.card.label()} is already the card of "
                                                                          f"{seen_cards[key]!r}"))
            seen_cards.setdefault(key, g.name)
            if (s, g.name) in seen_groups:
                problems.append(Problem(_path((s, "groups", gi, "name")), f"group {g.name!r} is named twice"))
            seen_groups.add((s, g.name))
    entries = roster.by_id() if roster is not None else {}
    specs: dict[str, tuple[str, UnitSpec, tuple]] = {}
    for s, g, u, loc in sc.units():
        if u.id in specs:
            problems.append(Problem(_path(loc + ("id",)), f"unit id {u.id!r} is used twice"))
            continue
        specs[u.id] = (s, u, loc)
    for uid, (s, u, loc) in specs.items():
        e = entries.get(u.type)
        if roster is not None and e is None:
            problems.append(Problem(_path(loc + ("type",)), f"the roster has no unit type {u.type!r}"))
            continue
        if e is None:
            continue
        if e.side != s:
            problems.append(Problem(_path(loc + ("type",)), f"{u.type!r} is a {e.side} unit type, not {s}"))
        problems.extend(_unit_problems(sc, u, e, loc, specs, entries, hex_ok))
    return problems, hexmap, roster


def _unit_problems(sc: Scenario, u: UnitSpec, e: RosterEntry, loc: tuple, specs: dict, entries: dict, hex_ok) -> list[Problem]:
    from core.redflags.roster import SUPPORT_WEAPONS

    out: list[Problem] = []
    p = lambda k: _path(loc + (k,))  # noqa: E731
    if u.support is not None and u.support != "none" and u.support not in SUPPORT_WEAPONS.get(e.kind, ()):
        out.append(Problem(p("support"), f"a {e.kind} unit's support weapon is one of "
                                        f"{', '.join(SUPPORT_WEAPONS.get(e.kind, ())) or 'none'} (Units: Notes)"))
    if e.kind == "aircraft":
        if u.arrives is None or u.entry is None or u.heading is None:
            out.append(Problem(_path(loc), "an aircraft needs 'arrives', 'entry' and 'heading'"))
        elif u.entry is not None:
            hex_ok(u.entry, loc + ("entry",))
    else:
        for k in ("arrives", "entry", "heading"):
            if getattr(u, k) is not None:
                out.append(Problem(p(k), f"only aircraft have '{k}'"))
    if u.tow is not None:
        if e.kind != "artillery":
            out.append(Problem(p("tow"), "only an artillery unit is towed (Units: Transport unit)"))
        t = specs.get(u.tow)
        te = entries.get(t[1].type) if t else None
        if t is None or te is None or te.kind != "transport":
            out.append(Problem(p("tow"), f"{u.tow!r} is not a transport unit of the scenario"))
        elif t[0] != specs[u.id][0]:
            out.append(Problem(p("tow"), f"{u.tow!r} belongs to the other side"))
        else:
            towers = [x for x, (_s, v, _l) in specs.items() if v.tow == u.tow]
            if len(towers) > 1:
                out.append(Problem(p("tow"), f"{u.tow!r} tows one artillery unit, not {', '.join(sorted(towers))}"))
            if any(v.aboard == u.tow for _s, v, _l in specs.values()):
                out.append(Problem(p("tow"), f"{u.tow!r} carries a unit and cannot also tow"))
    if u.limbered and u.tow is None:
        out.append(Problem(p("limbered"), "a limbered gun needs its 'tow'"))
    if u.aboard is not None:
        if e.kind not in ("infantry", "engineer", "observer", "commander"):
            out.append(Problem(p("aboard"), "a motorized transport carries an infantry or engineer unit, an observer or "
                                            "a commander (Units: Transport unit)"))
        t = specs.get(u.aboard)
        te = entries.get(t[1].type) if t else None
        if t is None or te is None or te.kind != "transport" or te.transport != "motor":
            out.append(Problem(p("aboard"), f"{u.aboard!r} is not a motorized transport unit of the scenario"))
        elif t[0] != specs[u.id][0]:
            out.append(Problem(p("aboard"), f"{u.aboard!r} belongs to the other side"))
        else:
            riders = [x for x, (_s, v, _l) in specs.items() if v.aboard == u.aboard]
            if len(riders) > 1:
                out.append(Problem(p("aboard"), f"{u.aboard!r} carries one unit, not {', '.join(sorted(riders))}"))
    return out


def scenario_from_data(data: Any, path: str | os.PathLike[str] = "<scenario>") -> tuple[Scenario, HexMap, Roster]:
    """Validate parsed JSON as a Red Flags scenario; returns (scenario, map, roster).
    Raises :class:`DocumentError` naming ``path``, each JSON path and problem."""
    sc = load_document(path, Scenario, format_name=SCENARIO_FORMAT, version=1, data=data)
    problems, hexmap, roster = check_scenario(sc, path)
    if problems:
        raise DocumentError(path, problems)
    assert hexmap is not None and roster is not None
    return sc, hexmap, roster


def load_scenario(path: str | os.PathLike[str]) -> tuple[Scenario, HexMap, Roster]:
    """Load and check a Red Flags scenario file (see :func:`scenario_from_data`)."""
    return scenario_from_data(read_json(path), path)


@dataclass
class Setup:
    """What a game starts from: the checked scenario, its map, the playing area (hex ids of the
    section), the roster entries by id, and ``fixed``: a designer's placements ``{unit: hex}``."""

    scenario: Scenario
    path: str
    hexmap: HexMap
    area: frozenset[str]
    roster: dict[str, RosterEntry]
    fixed: dict[str, str] = field(default_factory=dict)

    @property
    def title(self) -> str:
        return self.scenario.title

    def zone(self, side: str) -> frozenset[str]:
        """The side's set-up zone inside the playing area."""
        return frozenset(self.scenario.side(side).setup_zone.hex_ids() & self.area)


def load_setup(path: str | os.PathLike[str], seed: int = 0, fixed: dict | None = None) -> Setup:
    """The :class:`Setup` of scenario ``path``. ``seed`` is accepted for the toolkit's shape (a Red
    Flags set-up makes no random choice). ``fixed``: a designer's set-up ``{"units": {uid: hex}}``;
    raises :class:`ScenarioError` naming the unit and the problem when a placement is outside its
    side's zone or names no placeable unit; :class:`DocumentError` for an invalid scenario."""
    sc, hexmap, roster = load_scenario(path)
    c0, c1 = hexmap.section_columns(sc.map.section)
    area = frozenset(h.id for h in hexmap.all_hexes() if c0 <= h.col <= c1)
    st = Setup(sc, str(path), hexmap, area, roster.by_id())
    placed = dict((fixed or {}).get("units") or {})
    specs = {u.id: (s, u) for s, _g, u, _l in sc.units()}
    for uid, hid in placed.items():
        if uid not in specs:
            raise ScenarioError(f"{path}: fixed set-up: no unit {uid!r} in the scenario")
        s, u = specs[uid]
        kind = st.roster[u.type].kind
        if kind == "aircraft" or u.aboard is not None or (u.limbered and u.tow is not None):
            raise ScenarioError(f"{path}: fixed set-up: {uid} is not placed (aircraft arrive; carried and limbered units "
                                f"come with their transport)")
        if hid not in st.zone(s):
            raise ScenarioError(f"{path}: fixed set-up: {uid} in {hid} is outside the {s} set-up zone (r.setup)")
    st.fixed = placed
    return st
