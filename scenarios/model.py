"""The scenario model (pydantic): what a scenario file holds (format ``ironcross-scenario``, version 1).

Everything rule 24.1 lists: background, map and map sections, the NORTH indicator, game length,
each side's units by group (orders of battle, OOB), improved positions, grenades, mines, hidden
hexes, infiltration, set-up zones and entries, who sets up and who moves first, and the victory
conditions. OOB entries are stored **structured** with their **printed text** alongside
(``{"kind": "squad", "letter": "D", "ammo": 10, "less": [{"type": "R", "pr": 9}], "text": "Squad D (10) less R PR9"}``);
:func:`parse_oob_entry` / :func:`parse_oob_line` turn the rulebook's forms into entries.

Player notes are kept as printed, numbered from 1 like the rulebook's points, so that published
errata can target them (``russian.notes`` point 3 = ``russian.notes[2]``). A note corrected by an
erratum holds the corrected ``text``, the ``printed`` text and the erratum line; the structured
regions hold the corrected values. See ``docs/scenario-format.md``.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, model_validator

from maps.provenance import Provenance
from scenarios.regions import NorthIndicator, Region
from scenarios.victory import Victory

__all__ = [
    "SCENARIO_FORMAT",
    "SCENARIO_VERSION",
    "DEFAULT_MAP",
    "UnitSpec",
    "SquadEntry",
    "CommanderEntry",
    "CrewWeaponEntry",
    "AFVEntry",
    "IPEntry",
    "MinesEntry",
    "GrenadesEntry",
    "OOBEntry",
    "OOBParseError",
    "parse_oob_entry",
    "parse_oob_line",
    "PlayerNote",
    "SetUp",
    "EntryOption",
    "Entry",
    "MovementRestriction",
    "UnitLimit",
    "Detachment",
    "Group",
    "Infiltration",
    "SideSpec",
    "MapRef",
    "AppliedErratum",
    "Scenario",
]

SCENARIO_FORMAT = "ironcross-scenario"
SCENARIO_VERSION = 1
#: Default map reference, relative to the scenario file (shipped scenarios live in scenarios/data/).
DEFAULT_MAP = "../../maps/data/iron_cross_mapsheet_corrected.json"

Side = Literal["german", "russian"]
Phase = Literal["movement", "reaction_movement"]

#: Crew weapon types (everything else with "#" numbers is an AFV): MMG, ATR, MOR, 45AT, 76AT, 50AT.
CREW_WEAPON_RE = re.compile(r"^(MMG|HMG|ATR|MOR|\d+AT)$")
COMMANDER_TYPES = ("PL", "APL", "PS")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# --------------------------------------------------------------------------- OOB entries

class UnitSpec(_Strict):
    """One squad member by weapon type and Performance Rating: ``R PR9``; ``count`` for "2 FT's";
    ``ammo`` for "LMG PR9 (10)"."""

    type: str = Field(min_length=1)
    pr: int | None = Field(default=None, ge=0, le=20)
    count: int = Field(default=1, ge=1)
    ammo: int | None = Field(default=None, ge=0)

    def text(self) -> str:
        s = f"{self.count} {self.type}'s" if self.count > 1 else self.type
        if self.pr is not None:
            s += f" PR{self.pr}"
        if self.ammo is not None:
            s += f" ({self.ammo})"
        return s


class _Entry(_Strict):
    text: str = ""
    #: "with Squad C": the entry deploys with that unit.
    with_unit: str | None = None


class SquadEntry(_Entry):
    """A squad by letter; ``ammo`` = LMG ammo points "(10)"; ``less``: members removed
    ("less R PR9"); ``only``: the members used ("(3 units, MP PR9, PR8, PR6 only)")."""

    kind: Literal["squad"] = "squad"
    letter: str = Field(pattern=r"^[A-Z]$")
    ammo: int | None = Field(default=None, ge=0)
    less: list[UnitSpec] = Field(default_factory=list)
    only: list[UnitSpec] | None = None

    @model_validator(mode="after")
    def _one(self) -> "SquadEntry":
        if self.less and self.only is not None:
            raise ValueError("a squad entry has either 'less' or 'only', not both")
        return self

    def label(self) -> str:
        return f"Squad {self.letter}"


class CommanderEntry(_Entry):
    """A commander unit: ``PL`` (platoon leader), ``APL`` (assistant), ``PS`` (platoon sergeant),
    with its PR when the scenario gives one ("PL PR10")."""

    kind: Literal["commander"] = "commander"
    type: str = Field(min_length=1)
    pr: int | None = Field(default=None, ge=0, le=20)

    def label(self) -> str:
        return self.type + (f" PR{self.pr}" if self.pr is not None else "")


class CrewWeaponEntry(_Entry):
    """Crew weapons by type and ID numbers ("MMG #'s 1 & 2 (14 each)"); ``ammo`` per weapon
    (None: unlimited)."""

    kind: Literal["crew_weapon"] = "crew_weapon"
    weapon: str = Field(min_length=1)
    numbers: list[int] = Field(min_length=1)
    ammo: int | None = Field(default=None, ge=0)

    def label(self) -> str:
        return f"{self.weapon} #{' & '.join(map(str, self.numbers))}"


class AFVEntry(_Entry):
    """AFVs by type and ID numbers ("IIIe #'s 1 & 2")."""

    kind: Literal["afv"] = "afv"
    type: str = Field(min_length=1)
    numbers: list[int] = Field(min_length=1)

    def label(self) -> str:
        return f"{self.type} #{' & '.join(map(str, self.numbers))}"


class IPEntry(_Entry):
    """Improved positions: ``count`` markers of ``points`` ("IP2 x 1"); ``where`` restricts
    placement ("on any building hex", 18.1)."""

    kind: Literal["ip"] = "ip"
    points: int = Field(ge=1)
    count: int = Field(ge=1)
    where: Region | None = None


class MinesEntry(_Entry):
    """Mine factors (19.1): ``mine_type`` AT or AP."""

    kind: Literal["mines"] = "mines"
    mine_type: Literal["AT", "AP"]
    factors: int = Field(ge=1)


class GrenadesEntry(_Entry):
    kind: Literal["grenades"] = "grenades"
    count: int = Field(ge=0)


OOBEntry = Annotated[Union[SquadEntry, CommanderEntry, CrewWeaponEntry, AFVEntry, IPEntry, MinesEntry, GrenadesEntry],
                     Field(discriminator="kind")]
UNIT_ENTRY_TYPES = (SquadEntry, CommanderEntry, CrewWeaponEntry, AFVEntry)


class OOBParseError(ValueError):
    """An OOB text does not match any of the rulebook's forms."""


_WITH_RE = re.compile(r"^(?P<body>.+?) with (?P<unit>Squad [A-Z]|[A-Z][A-Za-z0-9 ]*)$")
_GRENADES_RE = re.compile(r"^Grenades \((?P<n>\d+)\)$", re.I)
_MINES_RE = re.compile(r"^(?P<n>\d+) (?P<t>AT|AP) Mine Factors?$", re.I)
_IP_RE = re.compile(r"^IP(?P<p>\d+) x (?P<n>\d+)(?: (?P<where>on .+))?$")
_COMMANDER_RE = re.compile(r"^(?P<t>PL|APL|PS)(?: (?:PR)?(?P<pr>\d+))?$")
# "MMG #1 (12)", "MMG #'s 1 & 2 (14 each)", "45AT #'s 1 & 2", "Stug III 6's 1 & 2" (printed typo for #'s)
_NUMBERED_RE = re.compile(r"^(?P<t>.+?) (?:#'s|#s|#|6's) ?(?P<nums>\d+(?:\s*(?:&|,|and)\s*\d+)*)"
                          r"(?: \((?P<ammo>\d+)(?: each)?\))?$")
_SQUAD_RE = re.compile(r"^Squad (?P<l>[A-Z])(?P<rest>.*)$")
_SPEC_RE = re.compile(r"^(?:(?P<count>\d+) )?(?P<type>[A-Z][A-Za-z]*?)(?:'s|s)?(?: PR(?P<pr>\d+))?(?: \((?P<ammo>\d+)\))?$")
_PR_ONLY_RE = re.compile(r"^PR(?P<pr>\d+)(?: \((?P<ammo>\d+)\))?$")
_KNOWN_MEMBER_TYPES = ("LMG", "MP", "FT", "R", "SR", "HMG", "ATR")


def _split_top(text: str, seps: str = ",") -> list[str]:
    """Split on commas (and " and ") outside parentheses."""
    parts, depth, cur = [], 0, ""
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if depth == 0 and ch == ",":
            parts.append(cur)
            cur = ""
        elif depth == 0 and text.startswith(" and ", i):
            parts.append(cur)
            cur = ""
            i += 5
            continue
        else:
            cur += ch
        i += 1
    parts.append(cur)
    return [p.strip() for p in parts if p.strip()]


def _parse_specs(text: str, whole: str) -> list[UnitSpec]:
    """"LMG PR9, R PR8, PR7, PR6" (a bare PR repeats the previous type); "LMG PR10 and 2 FT's"."""
    out: list[UnitSpec] = []
    last_type: str | None = None
    for item in _split_top(text):
        m = _PR_ONLY_RE.match(item)
        if m:
            if last_type is None:
                raise OOBParseError(f"{whole!r}: {item!r} has no unit type before it")
            out.append(UnitSpec(type=last_type, pr=int(m["pr"]), ammo=int(m["ammo"]) if m["ammo"] else None))
            continue
        m = _SPEC_RE.match(item)
        if not m:
            raise OOBParseError(f"{whole!r}: cannot read squad member {item!r} (expected e.g. 'R PR9', 'PR7', \"2 FT's\")")
        t = m["type"]
        if t.upper() in _KNOWN_MEMBER_TYPES:
            t = t.upper()
        out.append(UnitSpec(type=t, pr=int(m["pr"]) if m["pr"] else None, count=int(m["count"]) if m["count"] else 1,
                            ammo=int(m["ammo"]) if m["ammo"] else None))
        last_type = t
    return out


def _matching_paren(text: str, start: int) -> int:
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    raise OOBParseError(f"{text!r}: unbalanced parentheses")


def parse_oob_entry(text: str, *, where_regions: dict[str, object] | None = None):
    """Parse one printed OOB entry into its structured form (the printed text is kept in ``text``).

    Forms (24.1): ``Squad C (10)``, ``Squad D (10) less R PR9``, ``Squad A (9) less LMG PR9, R PR8,
    PR7, PR6``, ``Squad E (12) less LMG PR10 and 2 FT's``, ``Squad F (3 units, MP PR9, PR8, PR6
    only)``, ``Squad E (20 each)``, ``PL``, ``PL PR10``, ``PL 11``, ``MMG #1 (12)``,
    ``MMG #'s 1 & 2 (14 each) with Squad C``, ``45AT #'s 1 & 2``, ``IIIe #'s 1 & 2``,
    ``Stug III 6's 1 & 2`` (printed typo), ``IP2 x 1``, ``IP3 x 1 on any building hex``,
    ``10 AT Mine Factors``, ``Grenades (6)``. Raises :class:`OOBParseError`.
    """
    raw = text
    t = " ".join(text.strip().rstrip(".;").split())
    if not t:
        raise OOBParseError("empty OOB entry")
    with_unit = None
    if not _IP_RE.match(t):
        m = _WITH_RE.match(t)
        if m:
            t, with_unit = m["body"], m["unit"]
    common = {"text": raw.strip().rstrip(";"), "with_unit": with_unit}
    if m := _GRENADES_RE.match(t):
        return GrenadesEntry(count=int(m["n"]), **common)
    if m := _MINES_RE.match(t):
        return MinesEntry(mine_type=m["t"].upper(), factors=int(m["n"]), **common)
    if m := _IP_RE.match(t):
        where = None
        if m["where"]:
            w = m["where"].lower()
            if "building" in w:
                from scenarios.regions import FeatureKindRegion

                where = FeatureKindRegion(feature="building_hexes")
            else:
                raise OOBParseError(f"{raw!r}: unknown IP placement {m['where']!r}")
        return IPEntry(points=int(m["p"]), count=int(m["n"]), where=where, **common)
    if m := _COMMANDER_RE.match(t):
        return CommanderEntry(type=m["t"], pr=int(m["pr"]) if m["pr"] else None, **common)
    if m := _SQUAD_RE.match(t):
        rest = m["rest"].strip()
        ammo, less, only = None, [], None
        if rest.startswith("("):
            end = _matching_paren(rest, 0)
            inner, rest = rest[1:end].strip(), rest[end + 1:].strip()
            if mm := re.match(r"^(\d+)(?: each)?$", inner):
                ammo = int(mm[1])
            elif mm := re.match(r"^(\d+) units?, (.+) only$", inner):
                only = _parse_specs(mm[2], raw)
                if sum(s.count for s in only) != int(mm[1]):
                    raise OOBParseError(f"{raw!r}: says {mm[1]} units but lists {sum(s.count for s in only)}")
            else:
                raise OOBParseError(f"{raw!r}: cannot read {inner!r} (expected ammo '(10)' or '(N units, ... only)')")
        if rest.startswith("less "):
            less = _parse_specs(rest[5:], raw)
        elif rest:
            raise OOBParseError(f"{raw!r}: cannot read {rest!r} after the squad")
        return SquadEntry(letter=m["l"], ammo=ammo, less=less, only=only, **common)
    if m := _NUMBERED_RE.match(t):
        typ = m["t"].strip()
        nums = [int(x) for x in re.findall(r"\d+", m["nums"])]
        ammo = int(m["ammo"]) if m["ammo"] else None
        if CREW_WEAPON_RE.match(typ):
            return CrewWeaponEntry(weapon=typ, numbers=nums, ammo=ammo, **common)
        if ammo is not None:
            raise OOBParseError(f"{raw!r}: AFVs have no ammo points")
        return AFVEntry(type=typ, numbers=nums, **common)
    raise OOBParseError(f"cannot read OOB entry {raw!r}")


# split points: ';' and a ',' that starts an IP/grenades/mines entry (Scenario 6 prints
# "Squad D (22) less R PR9, IP1 x 2")
_LINE_SPLIT_RE = re.compile(r";\s*|,\s*(?=IP\d|Grenades|\d+ A[TP] Mine)")


def parse_oob_line(text: str) -> list:
    """Parse a whole printed set-up line ("Squad C (10); MMG #1 (12); PL; IP1 x 2; Grenades (6).")
    into entries; a leading "GROUP 2:" is ignored."""
    t = text.strip()
    t = re.sub(r"^GROUP \d+:\s*", "", t, flags=re.I)
    t = t.rstrip(".")
    return [parse_oob_entry(p) for p in _LINE_SPLIT_RE.split(t) if p.strip()]


# --------------------------------------------------------------------------- deployment

class PlayerNote(_Strict):
    """One numbered player note as printed (``text``). When an erratum corrected it, ``text`` is
    the corrected wording, ``printed`` the original and ``erratum`` the errata line."""

    text: str = Field(min_length=1)
    printed: str | None = None
    erratum: str | None = None


class SetUp(_Strict):
    """Where a group deploys: ``region``; ``note`` is the printed player-note number it comes from."""

    region: Region
    note: int | None = Field(default=None, ge=1)
    text: str | None = None


class EntryOption(_Strict):
    """Enter through ``region`` (a map edge or hexes) on ``turn``, in the side's Movement Phase
    unless ``phase`` says otherwise (24.1; Scenario 5's T34a: ``reaction_movement``)."""

    region: Region
    turn: int = Field(ge=1)
    phase: Phase = "movement"
    text: str | None = None


class Entry(_Strict):
    """How a group enters: one option, or a choice among ``options`` (``choose_before_game``:
    the owning player must choose before play starts, e.g. Scenario 3 Squad D)."""

    options: list[EntryOption] = Field(min_length=1)
    choose_before_game: bool = False
    note: int | None = Field(default=None, ge=1)


class MovementRestriction(_Strict):
    """The group's units may not move before the side's Player Turn ``until_turn``
    ("may not move until Russian Player Turn 2")."""

    kind: Literal["no_movement"] = "no_movement"
    until_turn: int = Field(ge=1)
    note: int | None = Field(default=None, ge=1)
    text: str | None = None


class UnitLimit(_Strict):
    """At most ``count`` units of a kind (``types`` narrows it, e.g. ``["MMG"]``)."""

    kind: Literal["squad", "commander", "crew_weapon", "afv"]
    count: int = Field(ge=1)
    types: list[str] | None = None


class Detachment(_Strict):
    """A special option: up to ``limits`` units of group ``from_group`` may use ``entry`` instead
    of the group's deployment (Scenario 5 EXCEPTION, Scenario 6 SPECIAL). ``record_before``
    says when the choice must be recorded."""

    name: str = Field(min_length=1)
    from_group: str = Field(min_length=1)
    limits: list[UnitLimit] = Field(min_length=1)
    entry: Entry
    record_before: Literal["game", "enemy_setup"] = "game"
    note: int | None = Field(default=None, ge=1)
    text: str | None = None


class Group(_Strict):
    """A group of a side's units with one deployment: ``setup`` (on the map) or ``entry``."""

    name: str = Field(min_length=1)
    oob: list[OOBEntry] = Field(default_factory=list)
    setup: SetUp | None = None
    entry: Entry | None = None
    restrictions: list[MovementRestriction] = Field(default_factory=list)
    note: str | None = None

    @model_validator(mode="after")
    def _deploy(self) -> "Group":
        if (self.setup is None) == (self.entry is None):
            raise ValueError(f"group {self.name!r} needs exactly one of 'setup' or 'entry'")
        return self


class Infiltration(_Strict):
    """Russian infiltration (24.3): allowed, and the zone the Infiltration Hex may be chosen in."""

    allowed: bool = True
    zone: Region | None = None
    note: int | None = Field(default=None, ge=1)

    @model_validator(mode="after")
    def _zone(self) -> "Infiltration":
        if self.allowed and self.zone is None:
            raise ValueError("an allowed infiltration needs a 'zone'")
        return self


class SideSpec(_Strict):
    """One side: printed set-up text and player notes, groups, side-wide OOB entries (grenades; IPs
    and mines, placed by the side at set-up in its set-up zones, 18.1, 19.1; never units, which
    belong to a group), hidden hexes (24.2), infiltration (24.3) and special options."""

    setup_text: str = ""
    notes: list[PlayerNote] = Field(default_factory=list)
    groups: list[Group] = Field(min_length=1)
    oob: list[OOBEntry] = Field(default_factory=list)
    hidden_hexes: int = Field(default=0, ge=0)
    infiltration: Infiltration | None = None
    detachments: list[Detachment] = Field(default_factory=list)

    def all_entries(self):
        """Every OOB entry of the side (groups in order, then side-wide entries)."""
        for g in self.groups:
            yield from g.oob
        yield from self.oob

    def units(self):
        return [e for e in self.all_entries() if isinstance(e, UNIT_ENTRY_TYPES)]

    @property
    def grenades(self) -> int:
        return sum(e.count for e in self.all_entries() if isinstance(e, GrenadesEntry))

    def ips(self) -> list[IPEntry]:
        return [e for e in self.all_entries() if isinstance(e, IPEntry)]

    def mine_factors(self, mine_type: str) -> int:
        return sum(e.factors for e in self.all_entries() if isinstance(e, MinesEntry) and e.mine_type == mine_type)

    def group(self, name: str) -> Group:
        for g in self.groups:
            if g.name == name:
                return g
        raise KeyError(name)

    def note_text(self, point: int, *, printed: bool = False) -> str:
        """Player note ``point`` (1-based, as printed); ``printed=True`` gives the uncorrected text."""
        n = self.notes[point - 1]
        return (n.printed or n.text) if printed else n.text


class MapRef(_Strict):
    """The map file (relative to the scenario file) and the map sections used (2.1)."""

    file: str = DEFAULT_MAP
    sections: list[str] = Field(min_length=1)
    text: str = ""


class AppliedErratum(_Strict):
    """A published scenario erratum this file already holds (field/point as in the errata file)."""

    field: Literal["russian.notes", "german.notes"]
    point: int = Field(ge=1)
    printed: str
    corrected: str
    line: str = ""


class Scenario(_Strict):
    """A whole scenario file (format ``ironcross-scenario``)."""

    format: Literal["ironcross-scenario"] = SCENARIO_FORMAT
    version: int = SCENARIO_VERSION
    number: int | None = Field(default=None, ge=1)
    title: str = Field(min_length=1)
    background: str = ""
    map: MapRef
    #: The counter roster the scenario is played with: a counters file relative to the scenario
    #: file (or absolute); absent = the shipped roster (``scenarios/data/iron_cross_counters.json``).
    counters: str | None = None
    north: NorthIndicator
    north_text: str = ""
    turns: int = Field(ge=1)
    sets_up_first: Side
    moves_first: Side
    regions: dict[str, Region] = Field(default_factory=dict)
    german: SideSpec
    russian: SideSpec
    victory: Victory
    notes: list[str] = Field(default_factory=list)
    errata: list[AppliedErratum] = Field(default_factory=list)
    provenance: Provenance | None = None

    def side(self, name: str) -> SideSpec:
        if name == "german":
            return self.german
        if name == "russian":
            return self.russian
        raise KeyError(name)
