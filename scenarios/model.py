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

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator, model_validator

from maps.provenance import Provenance
from scenarios.regions import NorthIndicator, Region
from scenarios.scenario_roster import RosterBlock
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
    "OOB_FORMS",
    "accepted_forms",
    "parse_oob_entry",
    "parse_oob_line",
    "PlayerNote",
    "SetUp",
    "EntryOption",
    "Entry",
    "MovementRestriction",
    "UnitLimit",
    "Detachment",
    "CapLimit",
    "SetupCap",
    "InitialControl",
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

#: Crew weapon types, any case (everything else with "#" numbers is an AFV): MMG, ATR, MOR (the
#: roster's "Mor"), 45AT, 76AT, 50AT.
CREW_WEAPON_RE = re.compile(r"^(MMG|HMG|ATR|MOR|\d+AT)$", re.I)
COMMANDER_TYPES = ("PL", "APL", "PS")


#: Longest game a scenario may last, in turns (the rulebook's scenarios last 6-12 turns).
MAX_TURNS = 99
#: A counter's printed ID number (the countersheet numbers crew weapons and AFVs 1, 2, ...).
CounterNumber = Annotated[int, Field(ge=1, le=99)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


# --------------------------------------------------------------------------- OOB entries

class UnitSpec(_Strict):
    """One squad member by weapon type and Performance Rating: ``R PR9``; ``count`` for "2 FT's";
    ``ammo`` for "LMG PR9 (10)"."""

    type: str = Field(min_length=1)
    pr: int | None = Field(default=None, ge=0, le=20)
    count: int = Field(default=1, ge=1, le=99)
    ammo: int | None = Field(default=None, ge=0, le=99)

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
    ammo: int | None = Field(default=None, ge=0, le=99)
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
    numbers: list[CounterNumber] = Field(min_length=1)
    ammo: int | None = Field(default=None, ge=0, le=99)

    def label(self) -> str:
        return f"{self.weapon} #{' & '.join(map(str, self.numbers))}"


class AFVEntry(_Entry):
    """AFVs by type and ID numbers ("IIIe #'s 1 & 2")."""

    kind: Literal["afv"] = "afv"
    type: str = Field(min_length=1)
    numbers: list[CounterNumber] = Field(min_length=1)

    def label(self) -> str:
        return f"{self.type} #{' & '.join(map(str, self.numbers))}"


class IPEntry(_Entry):
    """Improved positions: ``count`` markers of ``points`` ("IP2 x 1"); ``where`` restricts
    placement ("on any building hex", 18.1)."""

    kind: Literal["ip"] = "ip"
    points: int = Field(ge=1, le=9)
    count: int = Field(ge=1, le=99)
    where: Region | None = None


class MinesEntry(_Entry):
    """Mine factors (19.1): ``mine_type`` AT or AP. ``area``: the mines' own area, the hexes they
    may be placed in instead of the group's set-up zone (a scenario that mines the ground in front
    of a position); absent = the group's ``mines_area``, else its set-up zone (side level: the
    side's set-up zones)."""

    kind: Literal["mines"] = "mines"
    mine_type: Literal["AT", "AP"]
    factors: int = Field(ge=1, le=999)
    area: Region | None = None


class GrenadesEntry(_Entry):
    kind: Literal["grenades"] = "grenades"
    count: int = Field(ge=0, le=999)


OOBEntry = Annotated[Union[SquadEntry, CommanderEntry, CrewWeaponEntry, AFVEntry, IPEntry, MinesEntry, GrenadesEntry],
                     Field(discriminator="kind")]
UNIT_ENTRY_TYPES = (SquadEntry, CommanderEntry, CrewWeaponEntry, AFVEntry)


#: The printed forms :func:`parse_oob_entry` reads, as (what, form, example); a refusal lists them.
#: The rulebook's spellings (24.4-24.9), the roster's ("Mor #1") and the obvious variants: any
#: case, "x2" / "×2" / "2x", "#1 and #2", "#1-#3", "N grenades".
OOB_FORMS: tuple[tuple[str, str, str], ...] = (
    ("squad", "Squad L [(ammo)] [less MEMBERS]", "Squad D (10) less R PR9"),
    ("squad", "Squad L ([N units,] MEMBERS only)", "Squad F (3 units, MP PR9, PR8, PR6 only)"),
    ("commander", "PL | APL | PS [PRn]", "APL PR9"),
    ("crew weapon", "TYPE #n [& n | and #n | -#n] [(ammo [each])]", "MMG #'s 1 & 2 (14 each)"),
    ("crew weapon", "TYPE [(ammo)] (counter #1) | TYPE x N (#1 to #N)", "MOR (12)"),
    ("AFV", "TYPE #n [& n | and #n | -#n] | TYPE x N", "BT7m #1 and #2"),
    ("IPs", "IPp x N | N x IPp [on any building hex]", "IP1 x 2"),
    ("mines", "N AT|AP Mine Factors", "10 AT Mine Factors"),
    ("grenades", "Grenades (N) | N grenades", "6 grenades"),
    ("any unit", "ENTRY with Squad L", "PS with Squad C"),
)


def accepted_forms() -> str:
    """The accepted OOB forms, one per line with an example (the text a refusal ends with)."""
    return "Accepted forms:\n" + "\n".join(f"  {what}: {form}   e.g. {ex}" for what, form, ex in OOB_FORMS)


class OOBParseError(ValueError):
    """An OOB text does not match any of the accepted forms (:data:`OOB_FORMS`). ``text`` is the
    entry as given, ``problem`` what was not understood; ``str()`` adds the accepted forms."""

    def __init__(self, text: str, problem: str):
        self.text = text
        self.problem = problem
        super().__init__(f"cannot read OOB entry {text.strip()!r}: {problem}.\n{accepted_forms()}")


_KNOWN_MEMBER_TYPES = ("LMG", "MP", "FT", "R", "SR", "HMG", "ATR")
_TIMES = r"\s*[x×*]\s*"   # "x 2", "x2", "×2"
_WITH_RE = re.compile(r"^(?P<body>.+?)\s+with\s+(?P<unit>squad\s+[a-z]|[a-z][a-z0-9 #&']*)$", re.I)
_GRENADES_RES = (re.compile(r"^grenades?\s*(?:\(\s*(?P<n>\d+)\s*\)|(?:[:=]|" + _TIMES + r")?\s*(?P<m>\d+))$", re.I),
                 re.compile(r"^(?P<n>\d+)\s*(?:[x×*]\s*)?grenades?$", re.I))
_MINES_RES = (re.compile(r"^(?P<n>\d+)\s+(?P<t>AT|AP)(?:\s+mines?)?(?:\s+factors?)?$", re.I),
              re.compile(r"^(?P<t>AT|AP)\s+mines?(?:\s+factors?)?\s*"
                         r"(?:\(\s*(?P<n>\d+)\s*\)|(?:[:=]|" + _TIMES + r")?\s*(?P<m>\d+))$", re.I))
_IP_WHERE = r"(?:\s+(?P<where>on\s+.+))?$"
_IP_RES = (re.compile(r"^IP\s*(?P<p>\d+)(?:'?s)?(?:" + _TIMES + r"(?P<n>\d+))?" + _IP_WHERE, re.I),
           re.compile(r"^(?P<n>\d+)\s*(?:[x×*]\s*)?IP\s*(?P<p>\d+)(?:'?s)?" + _IP_WHERE, re.I))
_COMMANDER_RE = re.compile(r"^(?P<t>PL|APL|PS)(?:\s*(?:PR\s*)?(?P<pr>\d+))?$", re.I)
_SQUAD_RE = re.compile(r"^squad\b\s*(?P<l>[a-z](?![a-z0-9]))?(?P<rest>.*)$", re.I)
_AMMO = r"(?:\s*\((?P<ammo>[^()]*)\))?"
# "MMG #1 (12)", "MMG #'s 1 & 2 (14 each)", "BT7m #1 and #2", "MMG #1-#3", "Stug III 6's 1 & 2" (printed typo)
_NUMS = r"\d+(?:\s*(?:&|,|and|-|–|to|through|thru)\s*#?\s*\d+)*"
_NUMBERED_RE = re.compile(r"^(?P<t>.+?)\s*(?:#'s|#s|#|6's)\s*(?P<nums>" + _NUMS + r")" + _AMMO + "$", re.I)
_TIMES_AFTER_RE = re.compile(r"^(?P<t>[a-z0-9][a-z0-9 ]*?)" + _TIMES + r"(?P<n>\d+)" + _AMMO + "$", re.I)
_TIMES_BEFORE_RE = re.compile(r"^(?P<n>\d+)(?:" + _TIMES + r"(?P<t>[a-z0-9][a-z0-9 ]*?)|\s+(?P<u>[a-z][a-z0-9 ]*?))"
                              r"(?:'s)?" + _AMMO + "$", re.I)
_BARE_RE = re.compile(r"^(?P<t>[a-z0-9][a-z0-9 ]*?)" + _AMMO + "$", re.I)
_SPEC_RE = re.compile(r"^(?:(?P<count>\d+)\s*(?:x\s*)?)?(?P<type>[a-z]+?)(?:'s|s)?(?:\s*PR\s*(?P<pr>\d+))?"
                      r"(?:\s*\((?P<ammo>\d+)\))?$", re.I)
_PR_ONLY_RE = re.compile(r"^PR\s*(?P<pr>\d+)(?:\s*\((?P<ammo>\d+)\))?$", re.I)


def _split_top(text: str) -> list[str]:
    """Split on commas (and " and ") outside parentheses."""
    parts, depth, cur = [], 0, ""
    i = 0
    low = text.lower()
    while i < len(text):
        ch = text[i]
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if depth == 0 and ch == ",":
            parts.append(cur)
            cur = ""
        elif depth == 0 and low.startswith(" and ", i):
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
                raise OOBParseError(whole, f"{item!r} has no unit type before it (write e.g. 'R PR9, PR7')")
            out.append(UnitSpec(type=last_type, pr=int(m["pr"]), ammo=int(m["ammo"]) if m["ammo"] else None))
            continue
        m = _SPEC_RE.match(item)
        if not m:
            raise OOBParseError(whole, f"cannot read squad member {item!r} (a member is e.g. 'R PR9', 'PR7', "
                                       "\"2 FT's\", 'LMG PR9 (10)')")
        t = m["type"]
        if t.upper() in _KNOWN_MEMBER_TYPES:
            t = t.upper()
        out.append(UnitSpec(type=t, pr=int(m["pr"]) if m["pr"] else None, count=int(m["count"]) if m["count"] else 1,
                            ammo=int(m["ammo"]) if m["ammo"] else None))
        last_type = t
    if not out:
        raise OOBParseError(whole, "the member list is empty")
    return out


def _matching_paren(text: str, start: int, whole: str) -> int:
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    raise OOBParseError(whole, "a '(' is never closed")


def _numbers(text: str, whole: str) -> list[int]:
    """"1 & 2", "1 and #2", "1, 2", "1-#3", "1 to 3" -> ID numbers in order (a range expands)."""
    out: list[int] = []
    pending_range = False
    for num, sep in re.findall(r"(\d+)|(-|–|\bto\b|\bthrough\b|\bthru\b)", text, re.I):
        if sep:
            pending_range = True
            continue
        n = int(num)
        if pending_range:
            lo = out[-1]
            if n <= lo:
                raise OOBParseError(whole, f"the range #{lo} to #{n} runs backwards")
            out.extend(range(lo + 1, n + 1))
            pending_range = False
        else:
            out.append(n)
    if len(set(out)) != len(out):
        raise OOBParseError(whole, f"an ID number is listed twice ({text.strip()})")
    if any(n < 1 for n in out):
        raise OOBParseError(whole, "ID numbers start at 1")
    return out


def _ammo(inner: str | None, whole: str) -> int | None:
    """"(12)", "(14 each)" -> 12, 14; None when there are no parentheses."""
    if inner is None:
        return None
    m = re.fullmatch(r"\s*(\d+)\s*(?:each)?\s*(?:ammo(?: points?)?)?\s*", inner, re.I)
    if not m:
        raise OOBParseError(whole, f"cannot read the ammo number '({inner})' (expected e.g. '(12)' or '(14 each)')")
    return int(m[1])


def _cw_type(t: str, extra: dict[str, str]) -> str | None:
    """The stored spelling of crew weapon type ``t`` (any case; "Mor" -> "MOR"), or None when
    ``t`` is not a crew weapon type (the rulebook's: MMG, HMG, ATR, MOR, nnAT; plus ``extra``)."""
    if CREW_WEAPON_RE.match(t):
        return t.upper()
    return extra.get(t.upper())


def _plural(t: str, extra: dict[str, str]) -> str:
    """"MMG's" / "MMGs" -> "MMG" (an AFV type keeps a final letter s: "T26S")."""
    if t.endswith("'s"):
        return t[:-2]
    if t.endswith("s") and _cw_type(t[:-1], extra) is not None:
        return t[:-1]
    return t


def parse_oob_entry(text: str, *, crew_weapon_types=(), afv_types=()):
    """Parse one printed OOB entry into its structured form (the printed text is kept in ``text``).

    Forms (24.1, the six scenarios 24.4-24.9, the roster's spellings; any letter case): ``Squad C
    (10)``, ``Squad D (10) less R PR9``, ``Squad A (9) less LMG PR9, R PR8, PR7, PR6``, ``Squad E
    (12) less LMG PR10 and 2 FT's``, ``Squad F (3 units, MP PR9, PR8, PR6 only)``, ``Squad E (20
    each)``, ``PL``, ``PL PR10``, ``PL 11``, ``MMG #1 (12)``, ``MMG #'s 1 & 2 (14 each) with Squad
    C``, ``45AT #'s 1 & 2``, ``Mor #1 (12)``, ``MOR (12)`` (a crew weapon type without an ID
    number is counter #1), ``MMG x2`` / ``2 x MMG`` (#1 to #2), ``IIIe #'s 1 & 2``, ``BT7m #1 and
    #2``, ``T34b #1-#2``, ``Stug III 6's 1 & 2`` (printed typo), ``IP2 x 1``, ``IP1 x2``, ``2 x
    IP1``, ``IP3 x 1 on any building hex``, ``10 AT Mine Factors``, ``Grenades (6)``, ``6
    grenades``. See :data:`OOB_FORMS`.

    ``crew_weapon_types``: further crew weapon type names (a roster's ``cw_types``, e.g. a
    designer's "81Mor"); ``afv_types``: AFV type names and aliases, which may then be written
    without an ID number ("T34a" = "T34a #1"). Without them any other type with ID numbers is an
    AFV. Ammo points go to squads' LMGs and crew weapons only (24.1 AMMO POINTS).

    Returns a ``SquadEntry``, ``CommanderEntry``, ``CrewWeaponEntry``, ``AFVEntry``, ``IPEntry``,
    ``MinesEntry`` or ``GrenadesEntry``. Raises :class:`OOBParseError` naming the text, what was
    not understood and the accepted forms.
    """
    raw = text
    t = " ".join(text.replace("’", "'").strip().rstrip(".;").split())
    if not t:
        raise OOBParseError(raw, "the entry is empty")
    extra_cw = {str(x).upper(): str(x) for x in crew_weapon_types}
    afvs = {str(x).upper() for x in afv_types}
    with_unit = None
    if not any(r.match(t) for r in _IP_RES):
        m = _WITH_RE.match(t)
        if m:
            t, with_unit = m["body"], m["unit"]
            sq = re.fullmatch(r"squad\s+([a-z])", with_unit, re.I)
            if sq:
                with_unit = f"Squad {sq[1].upper()}"
    common = {"text": raw.strip().rstrip(";"), "with_unit": with_unit}
    for r in _GRENADES_RES:
        if m := r.match(t):
            return GrenadesEntry(count=int(m["n"] or m.groupdict().get("m")), **common)
    for r in _MINES_RES:
        if m := r.match(t):
            n = int(m["n"] or m.groupdict().get("m"))
            if n < 1:
                raise OOBParseError(raw, "a number of mine factors is at least 1")
            return MinesEntry(mine_type=m["t"].upper(), factors=n, **common)
    for r in _IP_RES:
        if m := r.match(t):
            points, count = int(m["p"]), int(m["n"] or 1)
            if points < 1 or count < 1:
                raise OOBParseError(raw, "an IP has at least 1 point and the count is at least 1 ('IP2 x 1')")
            where = None
            if m["where"]:
                if re.fullmatch(r"on\s+(?:any\s+)?(?:type\s+)?building\s+hex(?:es)?", m["where"], re.I):
                    from scenarios.regions import FeatureKindRegion

                    where = FeatureKindRegion(feature="building_hexes")
                else:
                    raise OOBParseError(raw, f"unknown IP placement {m['where']!r} (the one placement read is "
                                             "'on any building hex'; other zones are regions of the group)")
            return IPEntry(points=points, count=count, where=where, **common)
    if m := _COMMANDER_RE.match(t):
        return CommanderEntry(type=m["t"].upper(), pr=int(m["pr"]) if m["pr"] else None, **common)
    if m := _SQUAD_RE.match(t):
        return _squad(m, raw, common)
    if m := _NUMBERED_RE.match(t):
        return _numbered(m["t"].strip(), _numbers(m["nums"], raw), m["ammo"], raw, common, extra_cw)
    for r in (_TIMES_AFTER_RE, _TIMES_BEFORE_RE):
        if (m := r.match(t)) and (typ := (m.groupdict().get("t") or m.groupdict().get("u"))):
            typ = _plural(typ.strip(), extra_cw)
            if re.search(r"\b(?:mines?|grenades?|factors?|squads?|IPs?)\b", typ, re.I):
                break   # a garbled mines / grenades / squad entry, not a unit type: said below
            if typ.upper() in _KNOWN_MEMBER_TYPES and _cw_type(typ, extra_cw) is None:
                raise OOBParseError(raw, f"{typ} is a squad member: members go in a squad's 'less' or 'only' list "
                                         "(Squad E (12) less LMG PR10 and 2 FT's)")
            if m.groupdict().get("u") and _cw_type(typ, extra_cw) is None and typ.upper() not in afvs:
                break   # "2 T34a": no 'x', so only known type names are read as a count
            n = int(m["n"])
            if n < 1:
                raise OOBParseError(raw, "the number of counters is at least 1")
            return _numbered(typ, list(range(1, n + 1)), m["ammo"], raw, common, extra_cw)
    if (m := _BARE_RE.match(t)) and (_cw_type(m["t"], extra_cw) is not None or m["t"].upper() in afvs):
        return _numbered(m["t"], [1], m["ammo"], raw, common, extra_cw)
    raise OOBParseError(raw, _why_not(t, extra_cw))


def _squad(m: re.Match, raw: str, common: dict) -> SquadEntry:
    if m["l"] is None:
        raise OOBParseError(raw, "a squad needs its letter ('Squad D')")
    rest = m["rest"].strip()
    ammo, less, only = None, [], None
    if rest.startswith("("):
        end = _matching_paren(rest, 0, raw)
        inner, rest = rest[1:end].strip(), rest[end + 1:].strip()
        if mm := re.fullmatch(r"(\d+)(?:\s*each)?", inner, re.I):
            ammo = int(mm[1])
        elif mm := re.fullmatch(r"(?:(\d+)\s*units?\s*,\s*)?(.+?)\s*only", inner, re.I):
            only = _parse_specs(mm[2], raw)
            if mm[1] is not None and sum(s.count for s in only) != int(mm[1]):
                raise OOBParseError(raw, f"it says {mm[1]} units but lists {sum(s.count for s in only)}")
        else:
            raise OOBParseError(raw, f"cannot read '({inner})' after Squad {m['l'].upper()} (expected the LMG "
                                     "ammo '(10)' or the members used '(3 units, MP PR9, PR8, PR6 only)')")
    if mm := re.fullmatch(r"less\s+(.+)", rest, re.I):
        if only is not None:
            raise OOBParseError(raw, "a squad has either 'less' or 'only', not both")
        less = _parse_specs(mm[1], raw)
    elif mm := re.fullmatch(r"(.+?)\s*only", rest, re.I):
        if only is not None:
            raise OOBParseError(raw, "'only' is given twice")
        only = _parse_specs(mm[1], raw)
    elif rest:
        raise OOBParseError(raw, f"cannot read {rest!r} after Squad {m['l'].upper()} (expected 'less R PR9' "
                                 "or a list ending in 'only')")
    return SquadEntry(letter=m["l"].upper(), ammo=ammo, less=less, only=only, **common)


def _numbered(typ: str, nums: list[int], ammo_text: str | None, raw: str, common: dict, extra_cw: dict):
    ammo = _ammo(ammo_text, raw)
    cw = _cw_type(typ, extra_cw)
    if cw is not None:
        return CrewWeaponEntry(weapon=cw, numbers=nums, ammo=ammo, **common)
    if ammo is not None:
        raise OOBParseError(raw, f"'({ammo_text})' is an ammo number, but {typ!r} is not a crew weapon type "
                                 f"({_cw_names(extra_cw)}) and 24.1 gives ammo points only to a squad's LMG and "
                                 "to crew weapons, not to AFVs")
    if typ.upper() in _KNOWN_MEMBER_TYPES:
        raise OOBParseError(raw, f"{typ} is a squad member, not a counter with ID numbers")
    return AFVEntry(type=typ, numbers=nums, **common)


def _cw_names(extra_cw: dict) -> str:
    return ", ".join(["MMG", "HMG", "ATR", "MOR", "45AT/50AT/76AT...", *sorted(v for k, v in extra_cw.items()
                                                                              if not CREW_WEAPON_RE.match(k))])


def _why_not(t: str, extra_cw: dict) -> str:
    """What was not understood in ``t`` (for an entry that matches no form)."""
    low = t.lower()
    if "#" in t:
        head = t.split("#", 1)
        return f"cannot read the ID numbers after '#' in {('#' + head[1])!r} (write e.g. '#1', \"#'s 1 & 2\", " \
               "'#1 and #2' or '#1-#3')"
    if "grenade" in low:
        return "cannot read the number of grenades"
    if re.search(r"\bmines?\b|\bfactors?\b", low):
        return "cannot read the mines: give the number and the type AT or AP"
    if re.match(r"ip\b|ip\d", low):
        return "cannot read the IPs: give the points and the count"
    if m := re.fullmatch(r"(\w+)\s+PR\s*\d+", t, re.I):
        return f"{m[1]!r} is not a commander type (PL, APL, PS); a squad member goes in a squad's 'less' or " \
               "'only' list"
    if m := re.fullmatch(r"(\d+)\s+([a-z][a-z0-9 ]*)", t, re.I):
        return f"a count before {m[2]!r} needs an 'x' ('{m[1]} x {m[2]}', counters #1 to #{m[1]}), or give the " \
               f"ID numbers ('{m[2]} #1')"
    if re.match(r"(less|only)\b", low):
        return "a 'less' or 'only' list follows its squad ('Squad D (10) less R PR9')"
    if (m := _BARE_RE.match(t)) and re.fullmatch(r"(?=.*[a-z])[a-z0-9]{1,12}", m["t"], re.I):
        if m["ammo"] is not None:
            return (f"{m['t']!r} is not a crew weapon type ({_cw_names(extra_cw)}), and an AFV needs its ID "
                    f"number ('{m['t']} #1') and takes no ammo number (24.1)")
        return f"{m['t']!r} is not a crew weapon type ({_cw_names(extra_cw)}); an AFV needs its ID number " \
               f"('{m['t']} #1')"
    return "it matches none of the forms"


# split points: ';' and a ',' that starts an IP/grenades/mines entry (Scenario 6 prints
# "Squad D (22) less R PR9, IP1 x 2")
_LINE_SPLIT_RE = re.compile(r";\s*|,\s*(?=IP\s*\d|\d+\s*(?:[x×*]\s*)?IP\s*\d|grenades?\b|"
                            r"\d+\s*(?:[x×*]\s*)?grenades?\b|\d+\s+A[TP]\b)", re.I)


def parse_oob_line(text: str, **types) -> list:
    """Parse a whole printed set-up line ("Squad C (10); MMG #1 (12); PL; IP1 x 2; Grenades (6).")
    into entries; a leading "GROUP 2:" is ignored. ``types``: as :func:`parse_oob_entry`."""
    t = text.strip()
    t = re.sub(r"^GROUP \d+:\s*", "", t, flags=re.I)
    t = t.rstrip(".")
    return [parse_oob_entry(p, **types) for p in _LINE_SPLIT_RE.split(t) if p.strip()]


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
    note: int | None = Field(default=None, ge=1, le=99)
    text: str | None = None


class EntryOption(_Strict):
    """Enter through ``region`` (a map edge or hexes) on ``turn``, in the side's Movement Phase
    unless ``phase`` says otherwise (24.1; Scenario 5's T34a: ``reaction_movement``)."""

    region: Region
    turn: int = Field(ge=1, le=MAX_TURNS)
    phase: Phase = "movement"
    text: str | None = None


class Entry(_Strict):
    """How a group enters: one option, or a choice among ``options`` (``choose_before_game``:
    the owning player must choose before play starts, e.g. Scenario 3 Squad D)."""

    options: list[EntryOption] = Field(min_length=1)
    choose_before_game: bool = False
    note: int | None = Field(default=None, ge=1, le=99)


class MovementRestriction(_Strict):
    """The group's units may not move before the side's Player Turn ``until_turn``
    ("may not move until Russian Player Turn 2")."""

    kind: Literal["no_movement"] = "no_movement"
    until_turn: int = Field(ge=1, le=MAX_TURNS)
    note: int | None = Field(default=None, ge=1, le=99)
    text: str | None = None


class UnitLimit(_Strict):
    """At most ``count`` units of a kind (``types`` narrows it, e.g. ``["MMG"]``)."""

    kind: Literal["squad", "commander", "crew_weapon", "afv"]
    count: int = Field(ge=1, le=99)
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
    note: int | None = Field(default=None, ge=1, le=99)
    text: str | None = None


class Group(_Strict):
    """A group of a side's units with one deployment: ``setup`` (on the map) or ``entry``.
    ``mines_area``: where the group's mines go when a mines entry gives no ``area`` of its own
    (absent: the set-up zone)."""

    name: str = Field(min_length=1)
    oob: list[OOBEntry] = Field(default_factory=list)
    setup: SetUp | None = None
    entry: Entry | None = None
    restrictions: list[MovementRestriction] = Field(default_factory=list)
    mines_area: Region | None = None
    note: str | None = None

    def mines_region(self, e: "MinesEntry") -> Region | None:
        """The region a mines entry of this group is placed in: its own ``area``, else the
        group's ``mines_area``; None = the group's set-up zone."""
        return e.area if e.area is not None else self.mines_area

    @model_validator(mode="after")
    def _deploy(self) -> "Group":
        if (self.setup is None) == (self.entry is None):
            raise ValueError(f"group {self.name!r} needs exactly one of 'setup' or 'entry'")
        return self


class CapLimit(_Strict):
    """At most ``count`` units of ``type`` (a squad member's weapon ``LMG``/``R``/``MP``..., a
    commander rank, a CW or AFV type; absent = any unit of the cap's selection)."""

    type: str | None = Field(default=None, min_length=1)
    count: int = Field(ge=0, le=99)

    def words(self) -> str:
        return f"{self.count} {self.type or 'unit'}{'' if self.count == 1 else 's'}"


class SetupCap(_Strict):
    """A set-up cap inside a sub-zone (24.1 "unit deployment restrictions"): at set-up, no more
    than ``max`` of the side's units in ``region`` -- "no more than one LMG and any two rifle
    units of Squad D in region R" is ``{"region": R, "squad": "D", "max": [{"type": "LMG",
    "count": 1}, {"type": "R", "count": 2}]}``. The units counted: those of ``squad`` (a letter)
    and/or of ``group`` (a group name of the side); neither = all the side's units. Each limit
    counts its type separately; ``others`` caps the selected units no limit names (absent:
    they are not capped; 0: none of them there)."""

    region: Region
    max: list[CapLimit] = Field(min_length=1)
    squad: str | None = Field(default=None, pattern=r"^[A-Z]$")
    group: str | None = Field(default=None, min_length=1)
    others: int | None = Field(default=None, ge=0, le=99)
    note: int | None = Field(default=None, ge=1, le=99)
    text: str | None = None

    def who(self) -> str:
        parts = ([f"Squad {self.squad}"] if self.squad else []) + ([f"group {self.group!r}"] if self.group else [])
        return " of ".join(parts) or "the side's units"

    def describe(self) -> str:
        """"no more than 1 LMG and 2 Rs of Squad D in <region>" (the printed text when given)."""
        if self.text:
            return self.text
        lim = [x.words() for x in self.max] + ([f"{self.others} other unit{'' if self.others == 1 else 's'}"]
                                               if self.others is not None else [])
        return f"no more than {' and '.join(lim)} of {self.who()} in {self.region.describe()}"


class InitialControl(_Strict):
    """``side`` controls every hex of ``region`` at the start (before set-up): it keeps each hex
    until an enemy unit occupies it (the "last to occupy" control of Scenario 6's victory text),
    so "the Germans retain control of region R" is one ``controls`` condition."""

    side: Side
    region: Region
    note: int | None = Field(default=None, ge=1, le=99)
    text: str | None = None


class Infiltration(_Strict):
    """Russian infiltration (24.3): allowed, and the zone the Infiltration Hex may be chosen in."""

    allowed: bool = True
    zone: Region | None = None
    note: int | None = Field(default=None, ge=1, le=99)

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
    hidden_hexes: int = Field(default=0, ge=0, le=99)
    infiltration: Infiltration | None = None
    detachments: list[Detachment] = Field(default_factory=list)
    #: set-up caps inside sub-zones (:class:`SetupCap`)
    caps: list[SetupCap] = Field(default_factory=list)

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
    point: int = Field(ge=1, le=99)
    printed: str
    corrected: str
    line: str = ""


def _setting_value(v):
    """A stored behaviour setting's value: a number or true/false (the file's JSON types; a number
    written as text is refused, as everywhere in the strict model); anything else is one error
    naming what it is, not one per accepted type."""
    if isinstance(v, (bool, int, float)):
        return v
    if isinstance(v, str):
        raise ValueError(f"a setting's value must be a number, not the text {v!r}")
    raise ValueError(f"a setting's value must be a number, not {type(v).__name__} {v!r}")


#: a behaviour setting's stored value (:class:`AISettingsBlock`)
SettingValue = Annotated[Union[float, int, bool], BeforeValidator(_setting_value)]


class AISettingsBlock(_Strict):
    """Behaviour settings of one side's AI stored in the scenario (``docs/ai.md``, "Behaviour
    settings"): the player they are for, the settings that differ from its defaults (checked by the
    player when a game starts: :func:`core.ironcross.players.canonical_settings`), and their provenance:
    ``default`` (none changed), ``designer`` (set by hand) or ``tuned`` (``by`` names the command
    that found them, e.g. ``ironcross tune ... --side german --trials 30 --games 20 --seed 1``)."""

    player: str = "heuristic"
    settings: dict[str, SettingValue] = Field(default_factory=dict)
    provenance: Literal["default", "designer", "tuned"] = "designer"
    by: str = ""


class Scenario(_Strict):
    """A whole scenario file (format ``ironcross-scenario``)."""

    format: Literal["ironcross-scenario"] = SCENARIO_FORMAT
    version: int = SCENARIO_VERSION
    #: The rule system the scenario is played with (``docs/rule-systems.md``): this model is Iron
    #: Cross's, so the key is absent (None) or ``"ironcross"``; another system's scenario is loaded
    #: by that system (``core.rule_system.for_scenario``), never by this model.
    rule_system: str | None = None
    number: int | None = Field(default=None, ge=1, le=999)
    title: str = Field(min_length=1)
    background: str = ""
    map: MapRef
    #: The counter roster the scenario is played with: a counters file relative to the scenario
    #: file (or absolute); absent = the shipped roster (``scenarios/data/iron_cross_counters.json``).
    counters: str | None = None
    #: The scenario's own counters and values over that roster (``docs/scenario-format.md``,
    #: :mod:`scenarios.scenario_roster`); the counters file is never written.
    roster: RosterBlock | None = None
    north: NorthIndicator
    north_text: str = ""
    turns: int = Field(ge=1, le=MAX_TURNS)
    sets_up_first: Side
    moves_first: Side
    regions: dict[str, Region] = Field(default_factory=dict)
    german: SideSpec
    russian: SideSpec
    victory: Victory
    #: regions a side controls from the start (:class:`InitialControl`)
    initial_control: list[InitialControl] = Field(default_factory=list)
    #: per side, the behaviour settings its AI plays with when the command line names the bare
    #: player (``--ai german=heuristic``); absent = the player's defaults
    ai_settings: dict[Side, AISettingsBlock] | None = None
    notes: list[str] = Field(default_factory=list)
    errata: list[AppliedErratum] = Field(default_factory=list)
    provenance: Provenance | None = None

    @field_validator("rule_system")
    @classmethod
    def _iron_cross_only(cls, v: str | None) -> str | None:
        if v is not None and v != "ironcross":
            raise ValueError(f"rule_system {v!r}: this is the Iron Cross scenario model (rule_system absent or "
                             f"\"ironcross\"); a {v!r} scenario is loaded by its own rule system "
                             "(core.rule_system.for_scenario)")
        return v

    def side(self, name: str) -> SideSpec:
        if name == "german":
            return self.german
        if name == "russian":
            return self.russian
        raise KeyError(name)
