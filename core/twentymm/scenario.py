"""The scenario file of the 20 mm rules (``"rule_system": "twentymm"``), read with pydantic.

Shape (``format`` "twentymm-scenario", ``version`` 1)::

    {"rule_system": "twentymm", "format": "twentymm-scenario", "version": 1, "title": ...,
     "map": {"file": "../../maps/data/iron_cross_mapsheet_corrected.json", "sections": ["Map 2"]},
     "scale": 4.0,            # inches per hex across flats
     "snow": false, "turns": 12, "first_side": "german", "attacker": "german",
     "objectives": [{"name": ..., "hex": "4307" | "at": [x, y], "radius": 4.0}],
     "german": [UNIT, ...], "russian": [UNIT, ...],
     "setup_areas": {"german": [[x, y], ...]},   # optional: where each side sets up (inches)
     "ai_settings": {"german": {"player": "heuristic", "settings": {...}, "provenance": ..., "by": ...}}}
                              # optional: each side's AI behaviour settings (docs/ai.md)

    UNIT: {"id", "type": section|command|foo|hmg|lmg|mortar_light|mortar_medium|mortar_heavy|atg|
           vehicle|battery, "hex" | "at" (inches), "facing" (degrees, 0 = +x), "men", "smg", "lmg",
           "at_rifle", "panzerfaust", "gun" (an ATG of the reference table), "vehicle" (a vehicle of
           the reference table), "crew", "hidden", "elite", "officer", "radio", "embarked_in",
           "limbered_to", "schuerzen", "he_only", "guns", "calibre"}

Errors: :class:`maps.document_file.DocumentError`, one line per problem (file, JSON path, problem).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Literal

from shapely.geometry import Point
from pydantic import BaseModel, ConfigDict, Field, model_validator

from maps.document_file import DocumentError, Problem, load_document
from maps.json_file import json_tuple
from maps.hexgrid import parse_hex_id
from maps.table_map import TableMap
from scenarios.model import AISettingsBlock

from core.behaviour_settings import stored_specs
from core.twentymm import tables
from core.twentymm.model import Setup, Unit

FORMAT, VERSION = "twentymm-scenario", 1
UNIT_TYPES = ("section", "command", "foo", "hmg", "lmg", "mortar_light", "mortar_medium", "mortar_heavy",
              "atg", "vehicle", "battery")


#: A table coordinate, inches: the whole mapsheet (61 x 27 hexes) at the largest scale (24 in a hex) is
#: under 1,500 in across.
TableInches = Annotated[float, Field(ge=-2000, le=2000)]
#: a point on the table, inches (x, y), written as a JSON array
XY = json_tuple(tuple[TableInches, TableInches])


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class MapRef(_M):
    file: str
    sections: list[str] | None = None


class Objective(_M):
    name: str
    hex: str | None = None
    at: XY | None = None
    radius: float = Field(4.0, gt=0, le=100)

    @model_validator(mode="after")
    def _one(self):
        if (self.hex is None) == (self.at is None):
            raise ValueError("give exactly one of 'hex' and 'at'")
        if self.hex is not None:
            parse_hex_id(self.hex)
        return self


class UnitSpec(_M):
    id: str
    type: Literal[UNIT_TYPES]  # type: ignore[valid-type]
    name: str = ""
    hex: str | None = None
    at: XY | None = None
    facing: float = Field(0.0, ge=-360, le=360)
    men: int = Field(0, ge=0, le=99)
    smg: int = Field(0, ge=0, le=99)
    lmg: int = Field(0, ge=0, le=99)
    at_rifle: int = Field(0, ge=0, le=99)
    panzerfaust: int = Field(0, ge=0, le=99)
    gun: str | None = None
    vehicle: str | None = None
    crew: int = Field(0, ge=0, le=99)
    hidden: bool = False
    elite: bool = False
    officer: bool = False
    radio: bool = False
    embarked_in: str | None = None
    limbered_to: str | None = None
    schuerzen: bool = False
    he_only: bool = False
    guns: int = Field(0, ge=0, le=9)
    calibre: int = Field(0, ge=0, le=500)
    radio_penalty: int = Field(0, ge=0, le=2)

    @model_validator(mode="after")
    def _check(self):
        if self.type == "battery":
            if self.guns < 1:
                raise ValueError("a battery needs 'guns' >= 1")
            return self
        if self.embarked_in is None and self.limbered_to is None and (self.hex is None) == (self.at is None):
            raise ValueError("give exactly one of 'hex' and 'at' (or 'embarked_in' / 'limbered_to')")
        if self.hex is not None:
            parse_hex_id(self.hex)
        if self.type in ("section", "command", "foo"):
            if self.men < 1:
                raise ValueError("an infantry unit needs 'men' >= 1")
            if self.smg + self.lmg + self.at_rifle + self.panzerfaust > self.men:
                raise ValueError("more special weapons than men")
        if self.type == "vehicle":
            if self.vehicle is None:
                raise ValueError("a vehicle needs 'vehicle' (a row of the reference table)")
            try:
                tables.vehicle(self.vehicle)
            except KeyError as e:
                raise ValueError(str(e.args[0])) from None
        if self.type == "atg":
            if self.gun is None:
                raise ValueError("an anti-tank gun needs 'gun' (a row of the reference table)")
            try:
                tables.gun(self.gun)
            except KeyError as e:
                raise ValueError(str(e.args[0])) from None
        if self.type in ("atg", "hmg", "lmg", "mortar_light", "mortar_medium", "mortar_heavy") and self.crew < 1:
            raise ValueError("a crewed weapon needs 'crew' >= 1")
        return self


class Scenario(_M):
    rule_system: Literal["twentymm"]
    format: Literal["twentymm-scenario"]
    version: int
    title: str
    background: str = ""
    map: MapRef
    scale: float = Field(gt=0, le=24)
    snow: bool = False
    turns: int = Field(ge=1, le=99)
    first_side: Literal["german", "russian"]
    attacker: Literal["german", "russian"]
    objectives: list[Objective] = []
    german: list[UnitSpec]
    russian: list[UnitSpec]
    notes: str = ""
    provenance: dict = {}
    #: Setup ("determined by the scenario"): where each side may set up, a polygon in table inches
    #: per side (``{"german": [[x, y], ...]}``); a side without one sets up anywhere on the table
    setup_areas: dict[Literal["german", "russian"], list[XY]] = {}
    #: the behaviour settings of each side's AI, with their provenance (docs/ai.md, "Behaviour
    #: settings"): a side played by the bare player they are for takes them
    ai_settings: dict[Literal["german", "russian"], AISettingsBlock] | None = None


def _checks(doc: Scenario) -> list[Problem]:
    from core.behaviour_settings import stored_problems
    from core.twentymm.players import PLAYERS, canonical_settings

    out = [Problem(where, what) for where, what in stored_problems(doc.ai_settings, PLAYERS, canonical_settings)]
    ids = {}
    for side in ("german", "russian"):
        for i, u in enumerate(getattr(doc, side)):
            if u.id in ids:
                out.append(Problem(f"$.{side}[{i}].id", f"unit id {u.id!r} is used twice"))
            ids[u.id] = (side, u)
    for side in ("german", "russian"):
        for i, u in enumerate(getattr(doc, side)):
            for key in ("embarked_in", "limbered_to"):
                ref = getattr(u, key)
                if ref is not None and (ref not in ids or ids[ref][0] != side or ids[ref][1].type != "vehicle"):
                    out.append(Problem(f"$.{side}[{i}].{key}", f"{ref!r} is not a vehicle of the {side} side"))
    return out


def read_scenario(path: str | os.PathLike[str], data=None) -> Scenario:
    """The checked scenario file; raises DocumentError naming file, JSON path and problem."""
    return load_document(path, Scenario, format_name=FORMAT, version=VERSION, data=data, checks=_checks)


_TABLES: dict = {}
#: how many tables :func:`table_for` keeps (the editor writes a new map file per map version)
_TABLES_KEPT = 8


def table_for(path, doc: Scenario) -> TableMap:
    """The scenario's table (cached per map file version -- its path, modification time and
    size -- sections, scale and snow: a map file saved again is read again)."""
    from maps.mapfile import load_map
    mp = (Path(path).resolve().parent / doc.map.file).resolve()
    try:
        st = mp.stat()
        version = (st.st_mtime_ns, st.st_size)
    except OSError:
        version = None   # load_map names the missing file
    key = (str(mp), version, tuple(doc.map.sections or ()), doc.scale, doc.snow)
    t = _TABLES.get(key)
    if t is None:
        try:
            hm = load_map(mp)
        except DocumentError as e:   # named from the scenario, as the other systems do, with the map's own words
            from maps.mapfile import missing_map_hint

            raise DocumentError(path, [Problem("$.map.file", f"cannot load the map {doc.map.file!r}: "
                                               + "; ".join(f"{e.file}: {p}" for p in e.problems)
                                               + missing_map_hint(doc.map.file, mp))]) from None
        try:
            t = TableMap.from_map(hm, doc.scale, doc.map.sections, snow=doc.snow)
        except ValueError as e:
            raise DocumentError(path, [Problem("$.map.sections", str(e))]) from None
        for old in list(_TABLES)[:max(0, len(_TABLES) - _TABLES_KEPT + 1)]:   # the oldest go
            _TABLES.pop(old, None)   # (a Watch game's thread may have taken it already)
        _TABLES[key] = t
    return t


def setup_area(doc: Scenario, side: str):
    """The shapely polygon (table inches) where ``side`` sets up (``setup_areas``), or None: the
    whole table. Setup: "the setup is determined by the scenario being played"."""
    ring = doc.setup_areas.get(side)
    if not ring or len(ring) < 3:
        return None
    from shapely.geometry import Polygon

    return Polygon(ring).buffer(0)


def build_setup(path, doc: Scenario, table: TableMap) -> Setup:
    """The :class:`Setup` of a checked scenario on its table; DocumentError for a unit off the
    table or hidden outside cover (Setup: "troops in cover may begin the game hidden")."""
    problems: list[Problem] = []
    units: list[Unit] = []
    kinds = {"section": "infantry", "command": "infantry", "foo": "infantry", "vehicle": "vehicle", "battery": "battery"}
    for side in ("german", "russian"):
        for i, s in enumerate(getattr(doc, side)):
            where = f"$.{side}[{i}]"
            pos = None
            if s.hex is not None:
                pos = table.hex_centre(s.hex)
            elif s.at is not None:
                pos = (float(s.at[0]), float(s.at[1]))
            if pos is not None and s.type != "battery" and not table.on_table(pos):
                problems.append(Problem(where + (".hex" if s.hex else ".at"), f"{s.id} stands off the table ({doc.map.sections})"))
                continue
            area = setup_area(doc, side)
            if area is not None and pos is not None and s.type != "battery" and not s.embarked_in and not s.limbered_to \
                    and not area.covers(Point(pos)):
                problems.append(Problem(where + (".hex" if s.hex else ".at"), f"{s.id} stands outside the {side} set-up area (Setup)"))
            if s.hidden and pos is not None and table.terrain_at(pos).cover is None:
                problems.append(Problem(where + ".hidden", f"{s.id} is not in cover: only troops in cover begin hidden"))
            kind = kinds.get(s.type, "gun")
            u = Unit(uid=s.id, side=side, kind=kind, name=s.name or s.id, pos=pos, facing=s.facing % 360,
                     men=s.men, smg=s.smg, lmg=s.lmg, at_rifle=s.at_rifle, panzerfaust=s.panzerfaust,
                     role=s.type if s.type in ("command", "foo") else None, radio=s.radio or s.type in ("command", "foo", "battery"),
                     elite=s.elite, officer=s.officer or s.type == "command",
                     weapon=(s.gun if s.type == "atg" else s.type if kind == "gun" else None), crew=s.crew,
                     deployed=not (s.type in ("hmg", "mortar_light", "mortar_medium", "mortar_heavy") and (s.embarked_in or s.limbered_to)),
                     vtype=s.vehicle if s.type == "vehicle" else None, schuerzen=s.schuerzen, he_only=s.he_only,
                     guns=s.guns, calibre=s.calibre or (150 if s.type == "battery" else 0), hidden=s.hidden,
                     embarked_in=s.embarked_in, tow=s.limbered_to, radio_penalty=s.radio_penalty)
            units.append(u)
    if problems:
        raise DocumentError(path, problems)
    byid = {u.uid: u for u in units}
    for u in units:
        if u.tow:
            v = byid[u.tow]
            v.towing = u.uid
            u.pos = v.pos
        if u.embarked_in:
            u.pos = byid[u.embarked_in].pos
    objectives = [{"name": o.name, "point": list(table.hex_centre(o.hex) if o.hex else o.at), "radius": o.radius}
                  for o in doc.objectives]
    return Setup(table=table, units=units, first_side=doc.first_side, turns=doc.turns, objectives=objectives,
                 attacker=doc.attacker, name=doc.title, path=str(path), ai_settings=stored_specs(doc.ai_settings))


def load_setup(path, seed: int = 0, fixed=None) -> Setup:
    """RuleSystem.load_setup: the set-up of one game of the scenario file ``path`` (``fixed``:
    ``{unit id: [x, y]}`` positions a designer moved, or None)."""
    doc = read_scenario(path)
    table = table_for(path, doc)
    setup = build_setup(path, doc, table)
    if fixed:
        byid = {u.uid: u for u in setup.units}
        problems = []
        for uid, p in fixed.items():
            if uid not in byid:
                problems.append(Problem(f"$.fixed.{uid}", "no such unit"))
            elif not table.on_table(p):
                problems.append(Problem(f"$.fixed.{uid}", "off the table"))
            else:
                byid[uid].pos = (float(p[0]), float(p[1]))
        if problems:
            raise DocumentError(path, problems)
    return setup
