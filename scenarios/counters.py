"""The counter roster (rule 2.2) as validated data: every infantryman, commander, CW and AFV.

The rulebook text lacks the countersheet, so most counter values are reconstructions; the
values it does state (the 11.22 Russian rifleman, the BT7M's 12 MP of 8.13, the PRs the six
scenarios list in their "less ..." and "... only" forms, the commanders' PRs) are marked as
such. Every value carries a provenance (``rulebook`` + ``ref`` or ``reconstructed`` +
``rationale``); the reasoning and the rulebook's inconsistencies are in ``docs/counters.md``.
The shipped file is ``scenarios/data/iron_cross_counters.json``; a designer who owns the
printed game may overwrite any value (mark it ``"source": "designer"``) and save.

Shape of the file (``"format": "ironcross-counters"``, ``"version": 1``)::

    {"format": ..., "version": 1, "title": ..., "description": ...,
     "notes": [NOTE, ...],                        # the rulebook's inconsistencies, resolved
     "german": SIDE, "russian": SIDE}

    SIDE = {"weapons":      {"R": PROFILE, "MP": ..., "LMG": ..., "FT": ...},   # per weapon type
            "squads":       {"A": {"provenance": P, "men": [MAN, ...]}, ...},
            "commanders":   [COMMANDER, ...],
            "cw_types":     {"MMG": CW_TYPE, "ATR": ..., "Mor": ..., "45AT": ...},
            "crew_weapons": [CW, ...],
            "afv_types":    {"BT7M": AFV_TYPE, ...},
            "afvs":         [AFV, ...],
            "afv_aliases":  {"BT7m": {"type": "BT7M", "ref": ..., "note": ...}, ...}}

A man is ``{"id": "R-A-2", "weapon": "LMG", "pr": 9}``; his AP factor, initial range and
assault rating come from his side's weapon profile unless he overrides them. A CW or AFV
counter is ``{"id": "R-MMG-1", "type": "MMG", "number": 1, "pr": 8}``: every value not given
comes from its type profile. Provenance is compact: each object may carry ``provenance`` (the
default for the values it sets) and ``sources`` (``{field: provenance}`` for single values);
a man's own values default to his squad's ``provenance``; a value taken from a profile takes
the profile's provenance. Every value must resolve to one: :func:`value_provenance`.

Loading raises :class:`RosterError` (a :class:`maps.document_file.DocumentError`, hence a
``ValueError``) naming the file, the JSON path and the problem, one line per problem. Lookups
of absent counters raise ``KeyError`` with a clear message.
"""

from __future__ import annotations

import json
import os
import re
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Iterator, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from maps.document_file import DocumentError, Problem, atomic_write_text, load_document
from maps.provenance import Provenance

__all__ = [
    "COUNTERS_FORMAT",
    "COUNTERS_VERSION",
    "SIDES",
    "WEAPON_TYPES",
    "COMMANDER_RANKS",
    "CW_TYPES",
    "MG_MODES",
    "VALUE_FIELDS",
    "RosterError",
    "CounterDocument",
    "Infantry",
    "Commander",
    "CrewWeapon",
    "AFV",
    "Unit",
    "Squad",
    "Roster",
    "load_counters",
    "save_counters",
    "counters_json",
    "build_roster",
    "shipped_counters_path",
    "value_provenance",
    "normalise_side",
]

COUNTERS_FORMAT = "ironcross-counters"
COUNTERS_VERSION = 1

SIDES: tuple[str, ...] = ("german", "russian")
#: Infantry weapon types (2.21).
WEAPON_TYPES: tuple[str, ...] = ("R", "MP", "LMG", "FT")
#: Commander designations (2.21, 5.1).
COMMANDER_RANKS: tuple[str, ...] = ("PL", "APL", "PS")
#: Crew weapon types (2.23); any other "<calibre>AT" name is also an anti-tank gun.
CW_TYPES: tuple[str, ...] = ("MMG", "ATR", "Mor", "45AT", "76AT", "37AT", "50AT")
#: Machine gun modes (21.0): direct fire, fire lane, spray fire.
MG_MODES: tuple[str, ...] = ("DF", "FL", "SP")

#: The value fields of each kind of unit; each resolves to a provenance (:func:`value_provenance`).
VALUE_FIELDS: dict[str, tuple[str, ...]] = {
    "infantry": ("weapon", "pr", "ap_factor", "initial_range", "assault_rating"),
    "commander": ("rank", "number", "weapon", "pr", "ap_factor", "initial_range", "assault_rating"),
    "cw": ("type", "number", "crew", "ap_factor", "initial_range", "at_factor", "assault_rating", "pr",
           "movement", "mg_modes"),
    "afv": ("type", "number", "ap_factor", "ap_range", "frontal_modifier", "flank_modifier", "at_factor",
            "overrun_factor", "pr", "movement", "turreted"),
}

_WEAPON_FIELDS = ("ap_factor", "initial_range", "assault_rating")
_CW_TYPE_FIELDS = ("crew", "ap_factor", "initial_range", "at_factor", "assault_rating", "pr", "movement", "mg_modes")
_AFV_TYPE_FIELDS = ("ap_factor", "ap_range", "frontal_modifier", "flank_modifier", "at_factor", "overrun_factor",
                    "pr", "movement", "turreted")

_SIDE_WORDS = {"german": "german", "g": "german", "ger": "german", "germans": "german", "germany": "german",
               "russian": "russian", "r": "russian", "rus": "russian", "russians": "russian", "soviet": "russian",
               "soviets": "russian"}


class RosterError(DocumentError):
    """A counter roster file is missing, malformed or inconsistent.

    A :class:`ValueError` (via :class:`maps.document_file.DocumentError`); ``str(err)`` is one
    line per problem, ``FILE: $.json.path: problem``; ``err.file`` and ``err.problems`` hold the parts.
    """


# --------------------------------------------------------------------------- file model

#: A printed counter value (factor, range, rating, MP, crew, ID number): a whole number 0-99.
Int = Annotated[int, Field(strict=True, ge=0, le=99)]
#: A Performance Rating: a whole number, 2-12 by :func:`_check_pr` (which says why).
PRInt = Annotated[int, Field(strict=True)]


def _check_pr(v: int | None) -> int | None:
    if v is not None and not 2 <= v <= 12:
        raise ValueError(f"PR must be 2-12 (a two-dice performance check, 4.0), got {v}")
    return v


def _check_non_negative(v: int | None, what: str) -> int | None:
    if v is not None and v < 0:
        raise ValueError(f"{what} cannot be negative, got {v}")
    return v


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class _Sourced(_Strict):
    """An object whose values carry provenance: ``provenance`` (default) and ``sources`` (per field).

    Each subclass declares both fields last, so that a saved file shows the values first.
    """


class Note(_Strict):
    """One recorded inconsistency of the rulebook and how the roster resolves it."""

    id: str
    refs: list[str]
    text: str
    resolution: str


class WeaponProfile(_Sourced):
    """Values of one infantry weapon type of one side (2.21): the counter values of a man."""

    description: str | None = None
    ap_factor: Int
    initial_range: Int
    assault_rating: Int
    provenance: Provenance | None = None
    sources: dict[str, Provenance] | None = None

    @field_validator("ap_factor", "assault_rating")
    @classmethod
    def _nn(cls, v: int) -> int:
        return _check_non_negative(v, "a factor")

    @field_validator("initial_range")
    @classmethod
    def _range(cls, v: int) -> int:
        if v < 1:
            raise ValueError(f"an initial range must be at least 1 hex, got {v}")
        return v


def _check_weapon(v: str) -> str:
    if v not in WEAPON_TYPES:
        raise ValueError(f"unknown weapon type {v!r}; expected one of {', '.join(WEAPON_TYPES)} (2.21)")
    return v


class Man(_Sourced):
    """One infantry counter of a squad: ``id``, weapon type and PR; profile values may be overridden."""

    id: str
    weapon: str
    pr: PRInt
    ap_factor: Int | None = None
    initial_range: Int | None = None
    assault_rating: Int | None = None
    note: str | None = None
    provenance: Provenance | None = None
    sources: dict[str, Provenance] | None = None

    _w = field_validator("weapon")(classmethod(lambda cls, v: _check_weapon(v)))
    _p = field_validator("pr")(classmethod(lambda cls, v: _check_pr(v)))
    _n = field_validator("ap_factor", "initial_range", "assault_rating")(
        classmethod(lambda cls, v: _check_non_negative(v, "a counter value")))


class SquadDoc(_Strict):
    """A squad (2.21 squad designation): its men in counter order; ``provenance`` defaults their values."""

    description: str | None = None
    provenance: Provenance | None = None
    men: list[Man]


class CommanderDoc(_Sourced):
    """A commander counter (PL, APL or PS, 5.1) with its ID number (ours: the scenarios name only PRs)."""

    id: str
    rank: Literal["PL", "APL", "PS"]
    number: Int
    weapon: str
    pr: PRInt
    ap_factor: Int | None = None
    initial_range: Int | None = None
    assault_rating: Int | None = None
    note: str | None = None
    provenance: Provenance | None = None
    sources: dict[str, Provenance] | None = None

    _w = field_validator("weapon")(classmethod(lambda cls, v: _check_weapon(v)))
    _p = field_validator("pr")(classmethod(lambda cls, v: _check_pr(v)))


class CWType(_Sourced):
    """Values of one crew weapon type of one side (2.23); counters of the type may override any."""

    description: str | None = None
    crew: Int
    ap_factor: Int
    initial_range: Int
    at_factor: Int | None = None
    assault_rating: Int
    pr: PRInt
    movement: Int
    mg_modes: list[Literal["DF", "FL", "SP"]] = Field(default_factory=list)
    provenance: Provenance | None = None
    sources: dict[str, Provenance] | None = None

    _p = field_validator("pr")(classmethod(lambda cls, v: _check_pr(v)))


class CWDoc(_Sourced):
    """A crew weapon counter: type and ID number; values not given come from the type."""

    id: str
    type: str
    number: Int
    crew: Int | None = None
    ap_factor: Int | None = None
    initial_range: Int | None = None
    at_factor: Int | None = None
    assault_rating: Int | None = None
    pr: PRInt | None = None
    movement: Int | None = None
    mg_modes: list[Literal["DF", "FL", "SP"]] | None = None
    note: str | None = None
    provenance: Provenance | None = None
    sources: dict[str, Provenance] | None = None

    _p = field_validator("pr")(classmethod(lambda cls, v: _check_pr(v)))


class AFVType(_Sourced):
    """Values of one AFV type (2.22); counters of the type may override any."""

    description: str | None = None
    ap_factor: Int
    ap_range: Int
    frontal_modifier: Int
    flank_modifier: Int
    at_factor: Int | None = None
    overrun_factor: Int
    pr: PRInt
    movement: Int
    turreted: bool = True
    provenance: Provenance | None = None
    sources: dict[str, Provenance] | None = None

    _p = field_validator("pr")(classmethod(lambda cls, v: _check_pr(v)))


class AFVDoc(_Sourced):
    """An AFV counter: type and ID number; values not given come from the type."""

    id: str
    type: str
    number: Int
    ap_factor: Int | None = None
    ap_range: Int | None = None
    frontal_modifier: Int | None = None
    flank_modifier: Int | None = None
    at_factor: Int | None = None
    overrun_factor: Int | None = None
    pr: PRInt | None = None
    movement: Int | None = None
    turreted: bool | None = None
    note: str | None = None
    provenance: Provenance | None = None
    sources: dict[str, Provenance] | None = None

    _p = field_validator("pr")(classmethod(lambda cls, v: _check_pr(v)))


class AFVAlias(_Strict):
    """Another spelling of an AFV type (the scenarios write "BT7m", "Stug III", "IVe")."""

    type: str
    ref: str | None = None
    note: str | None = None


class SideDoc(_Strict):
    """All counters of one side."""

    weapons: dict[str, WeaponProfile]
    squads: dict[str, SquadDoc]
    commanders: list[CommanderDoc]
    cw_types: dict[str, CWType]
    crew_weapons: list[CWDoc]
    afv_types: dict[str, AFVType]
    afvs: list[AFVDoc]
    afv_aliases: dict[str, AFVAlias] = Field(default_factory=dict)

    @field_validator("weapons")
    @classmethod
    def _weapon_keys(cls, v: dict[str, WeaponProfile]) -> dict[str, WeaponProfile]:
        for k in v:
            _check_weapon(k)
        return v


class CounterDocument(_Strict):
    """The whole counter roster file."""

    format: Literal["ironcross-counters"]
    version: Int
    title: str
    description: str | None = None
    notes: list[Note] = Field(default_factory=list)
    german: SideDoc
    russian: SideDoc


# --------------------------------------------------------------------------- resolved units


class _Unit(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    side: Literal["german", "russian"]
    pr: int
    #: field -> provenance of that value (every field of ``VALUE_FIELDS[kind]``).
    sources: dict[str, Provenance] = Field(repr=False)
    note: str | None = None

    def provenance_of(self, field: str) -> Provenance:
        """Provenance of one value of this counter (see :func:`value_provenance`)."""
        try:
            return self.sources[field]
        except KeyError:
            raise KeyError(f"{self.id} has no value {field!r}; its values are "
                           f"{', '.join(VALUE_FIELDS[self.kind])}") from None  # type: ignore[attr-defined]

    def is_reconstructed(self, field: str) -> bool:
        return self.provenance_of(field).source == "reconstructed"


class Infantry(_Unit):
    """One man (2.21): squad letter, position in the squad, weapon type and counter values."""

    kind: Literal["infantry"] = "infantry"
    squad: str
    index: int
    weapon: str
    ap_factor: int
    initial_range: int
    assault_rating: int

    @property
    def can_act_as_leader(self) -> bool:
        """5.2: a non-CW, non-FT infantryman with PR 9 or more may be an acting leader."""
        return self.weapon != "FT" and self.pr >= 9

    @property
    def is_leader(self) -> bool:
        """True for commanders only (5.1); acting leaders depend on status, see ``can_act_as_leader``."""
        return False

    @property
    def movement(self) -> int:
        """Movement Phase allowance in NORMAL status: 6 MP, flamethrowers 4 (8.11, 8.14)."""
        return 4 if self.weapon == "FT" else 6


class Commander(_Unit):
    """A commander (PL, APL, PS; 5.1) with our ID number ``number``."""

    kind: Literal["commander"] = "commander"
    rank: Literal["PL", "APL", "PS"]
    number: int
    weapon: str
    ap_factor: int
    initial_range: int
    assault_rating: int

    @property
    def is_leader(self) -> bool:
        return True

    @property
    def can_act_as_leader(self) -> bool:
        return True

    @property
    def movement(self) -> int:
        return 6


class CrewWeapon(_Unit):
    """A crew weapon (2.23). For mortars ``initial_range`` is the MINIMUM range (14.21)."""

    kind: Literal["cw"] = "cw"
    type: str
    number: int
    crew: int
    ap_factor: int
    initial_range: int
    at_factor: int | None
    assault_rating: int
    movement: int
    mg_modes: tuple[str, ...]

    @property
    def category(self) -> Literal["mg", "atr", "mortar", "atg"]:
        return _cw_category(self.type)  # type: ignore[return-value]

    @property
    def is_mg(self) -> bool:
        return self.category == "mg"

    @property
    def is_mortar(self) -> bool:
        return self.category == "mortar"

    @property
    def is_atr(self) -> bool:
        return self.category == "atr"

    @property
    def is_atg(self) -> bool:
        return self.category == "atg"

    @property
    def min_range(self) -> int | None:
        """A mortar's minimum range without extra scatter (14.21); None for other CWs."""
        return self.initial_range if self.is_mortar else None

    @property
    def can_fire_at(self) -> bool:
        return bool(self.at_factor)


class AFV(_Unit):
    """An AFV (2.22). Armour modifiers are ADDED to the AT dice (12.31); destroyed if total <= AT factor (12.32)."""

    kind: Literal["afv"] = "afv"
    type: str
    number: int
    ap_factor: int
    ap_range: int
    frontal_modifier: int
    flank_modifier: int
    at_factor: int | None
    overrun_factor: int
    movement: int
    turreted: bool

    @property
    def can_fire_at(self) -> bool:
        return bool(self.at_factor)

    @property
    def reaction_movement(self) -> int:
        """Reaction Movement Phase allowance: half the Movement Phase allowance (8.13: 5, BT7M 6)."""
        return self.movement // 2

    @property
    def is_stug(self) -> bool:
        """A German Stug (10.14, 10.23, 12.2): a fixed gun, fires only to its front."""
        return not self.turreted


Unit = Infantry | Commander | CrewWeapon | AFV


def value_provenance(unit: Unit, field: str) -> Provenance:
    """The provenance of ``unit``'s value ``field`` (one of ``VALUE_FIELDS[unit.kind]``)."""
    return unit.provenance_of(field)


class Squad(BaseModel):
    """A squad: side, letter and its men in counter order."""

    model_config = ConfigDict(frozen=True)

    side: Literal["german", "russian"]
    letter: str
    men: tuple[Infantry, ...]
    description: str | None = None

    def __iter__(self) -> Iterator[Infantry]:  # type: ignore[override]
        return iter(self.men)

    def __len__(self) -> int:
        return len(self.men)

    def matching(self, weapon: str | None = None, pr: int | None = None) -> list[Infantry]:
        """The men with this weapon type and/or PR, in counter order."""
        w = None if weapon is None else weapon.upper()
        return [m for m in self.men if (w is None or m.weapon == w) and (pr is None or m.pr == pr)]

    @property
    def has_lmg(self) -> bool:
        return any(m.weapon == "LMG" for m in self.men)


# --------------------------------------------------------------------------- helpers


def normalise_side(side: str) -> str:
    """``"German"``, ``"G"``, ``"russian"``, ``"Soviet"`` ... -> ``"german"`` / ``"russian"``."""
    key = str(side).strip().lower()
    if key in _SIDE_WORDS:
        return _SIDE_WORDS[key]
    raise KeyError(f"unknown side {side!r}; expected 'german' or 'russian'")


def _cw_category(t: str) -> str:
    u = t.upper()
    if u == "MMG":
        return "mg"
    if u == "ATR":
        return "atr"
    if u == "MOR":
        return "mortar"
    if re.fullmatch(r"\d+AT", u):
        return "atg"
    return "unknown"


def _norm_afv(text: str) -> str:
    t = str(text).strip().lower()
    t = re.sub(r"\s*(#'?s?|6's)\s*[\d&,\s]*$", "", t)  # "Stug III #'s 1 & 2", the garbled "6's 1 & 2"
    return re.sub(r"[\s#'./_-]+", "", t)


def _norm_cw(text: str) -> str:
    return re.sub(r"[\s#]+", "", str(text)).upper()


# --------------------------------------------------------------------------- checks and building


def _resolve(field: str, own: _Sourced, own_sets: bool, fallback: Provenance | None,
             profile: _Sourced | None) -> Provenance | None:
    """Provenance of ``field``: the owner's sources/provenance/fallback if it sets the value, else the profile's."""
    if own.sources and field in own.sources:
        return own.sources[field]
    if own_sets or profile is None:
        return own.provenance or fallback
    if profile.sources and field in profile.sources:
        return profile.sources[field]
    return profile.provenance


def _build(doc: CounterDocument) -> tuple[dict[str, Any], list[Problem]]:
    problems: list[Problem] = []
    out: dict[str, Any] = {"squads": {}, "commanders": [], "cws": [], "afvs": [], "aliases": {}}
    ids: dict[str, str] = {}

    def claim(uid: str, path: str) -> None:
        if not uid.strip():
            problems.append(Problem(f"{path}.id", "an id cannot be empty"))
        elif uid in ids:
            problems.append(Problem(f"{path}.id", f"duplicate id {uid!r} (first used at {ids[uid]})"))
        else:
            ids[uid] = path

    def sources_for(kind: str, path: str, resolver) -> dict[str, Provenance]:
        res: dict[str, Provenance] = {}
        for f in VALUE_FIELDS[kind]:
            p = resolver(f)
            if p is None:
                problems.append(Problem(path, f"no provenance for {f!r}: give this object (or its squad/type) "
                                              f"a 'provenance' or add sources.{f}"))
            else:
                res[f] = p
        return res

    def check_source_keys(obj: _Sourced, kind: str, path: str) -> None:
        for k in (obj.sources or {}):
            if k not in VALUE_FIELDS[kind]:
                problems.append(Problem(f"{path}.sources.{k}",
                                        f"unknown field {k!r}; expected one of {', '.join(VALUE_FIELDS[kind])}"))

    for side in SIDES:
        sd: SideDoc = getattr(doc, side)
        sp = f"$.{side}"
        if side == "russian" and "FT" in sd.weapons:
            problems.append(Problem(f"{sp}.weapons.FT", "the flamethrower is German only (2.21: 'FT: German M42')"))
        for w, prof in sd.weapons.items():
            if prof.sources:
                for k in prof.sources:
                    if k not in _WEAPON_FIELDS:
                        problems.append(Problem(f"{sp}.weapons.{w}.sources.{k}",
                                                f"unknown field {k!r}; expected one of {', '.join(_WEAPON_FIELDS)}"))
            if w == "FT" and prof.ap_factor != 0:
                problems.append(Problem(f"{sp}.weapons.FT.ap_factor", "flamethrowers have no AP factors (16.0): use 0"))

        def weapon_fields(obj, path):
            prof = sd.weapons.get(obj.weapon)
            if prof is None:
                problems.append(Problem(f"{path}.weapon", f"no {side} weapon profile for {obj.weapon!r}; "
                                                          f"defined: {', '.join(sd.weapons) or 'none'}"))
            return prof

        # squads
        for letter, sq in sd.squads.items():
            qp = f"{sp}.squads.{letter}"
            if not re.fullmatch(r"[A-Z]", letter):
                problems.append(Problem(qp, f"a squad designation is one capital letter (2.21), got {letter!r}"))
            if not sq.men:
                problems.append(Problem(f"{qp}.men", "a squad needs at least one man"))
            men = []
            for i, m in enumerate(sq.men):
                mp = f"{qp}.men[{i}]"
                claim(m.id, mp)
                check_source_keys(m, "infantry", mp)
                prof = weapon_fields(m, mp)
                if prof is None:
                    continue
                vals = {f: getattr(m, f) if getattr(m, f) is not None else getattr(prof, f) for f in _WEAPON_FIELDS}
                if m.weapon == "FT" and vals["ap_factor"] != 0:
                    problems.append(Problem(f"{mp}.ap_factor", "flamethrowers have no AP factors (16.0): use 0"))
                src = sources_for("infantry", mp, lambda f: _resolve(
                    f, m, f not in _WEAPON_FIELDS or getattr(m, f) is not None, sq.provenance,
                    prof if f in _WEAPON_FIELDS else None))
                men.append(dict(id=m.id, side=side, squad=letter, index=i + 1, weapon=m.weapon, pr=m.pr,
                                sources=src, note=m.note, **vals))
            out["squads"][(side, letter)] = (men, sq.description)

        # commanders
        seen: dict[tuple[str, int], str] = {}
        for i, c in enumerate(sd.commanders):
            cp = f"{sp}.commanders[{i}]"
            claim(c.id, cp)
            check_source_keys(c, "commander", cp)
            key = (c.rank, c.number)
            if key in seen:
                problems.append(Problem(f"{cp}.number", f"{side} {c.rank} #{c.number} already defined at {seen[key]}"))
            seen[key] = cp
            prof = weapon_fields(c, cp)
            if prof is None:
                continue
            if c.weapon == "FT":
                problems.append(Problem(f"{cp}.weapon", "a commander cannot be a flamethrower (5.2, 16.0)"))
            vals = {f: getattr(c, f) if getattr(c, f) is not None else getattr(prof, f) for f in _WEAPON_FIELDS}
            src = sources_for("commander", cp, lambda f: _resolve(
                f, c, f not in _WEAPON_FIELDS or getattr(c, f) is not None, None,
                prof if f in _WEAPON_FIELDS else None))
            out["commanders"].append(dict(id=c.id, side=side, rank=c.rank, number=c.number, weapon=c.weapon,
                                          pr=c.pr, sources=src, note=c.note, **vals))

        # crew weapon types and counters
        for t, ct in sd.cw_types.items():
            tp = f"{sp}.cw_types.{t}"
            cat = _cw_category(t)
            if cat == "unknown":
                problems.append(Problem(tp, f"unknown CW type {t!r}; expected MMG, ATR, Mor or '<calibre>AT' (2.23)"))
            for k in (ct.sources or {}):
                if k not in _CW_TYPE_FIELDS:
                    problems.append(Problem(f"{tp}.sources.{k}", f"unknown field {k!r}; expected one of "
                                                                  f"{', '.join(_CW_TYPE_FIELDS)}"))
        seen = {}
        for i, c in enumerate(sd.crew_weapons):
            cp = f"{sp}.crew_weapons[{i}]"
            claim(c.id, cp)
            check_source_keys(c, "cw", cp)
            ct = sd.cw_types.get(c.type)
            if ct is None:
                problems.append(Problem(f"{cp}.type", f"unknown {side} CW type {c.type!r}; defined: "
                                                      f"{', '.join(sd.cw_types) or 'none'}"))
                continue
            key = (c.type, c.number)
            if key in seen:
                problems.append(Problem(f"{cp}.number", f"{side} {c.type} #{c.number} already defined at {seen[key]}"))
            seen[key] = cp
            vals = {f: getattr(c, f) if getattr(c, f) is not None else getattr(ct, f) for f in _CW_TYPE_FIELDS}
            cat = _cw_category(c.type)
            if not 2 <= vals["crew"] <= 4:
                problems.append(Problem(f"{cp}.crew", f"a CW has two to four men (8.63), got {vals['crew']}"))
            if vals["movement"] not in (0, 3, 4, 5):
                problems.append(Problem(f"{cp}.movement", f"a CW movement allowance is 0, 3, 4 or 5 "
                                                          f"(Movement Point Allowance Chart), got {vals['movement']}"))
            for f in ("ap_factor", "assault_rating"):
                if vals[f] < 0:
                    problems.append(Problem(f"{cp}.{f}", f"{f} cannot be negative, got {vals[f]}"))
            if vals["initial_range"] < 1:
                problems.append(Problem(f"{cp}.initial_range", f"a range must be at least 1 hex, got {vals['initial_range']}"))
            if cat in ("atr", "atg") and not vals["at_factor"]:
                problems.append(Problem(f"{cp}.at_factor", f"an {c.type} needs an AT factor (12.1)"))
            if cat in ("mg", "mortar") and vals["at_factor"] is not None:
                problems.append(Problem(f"{cp}.at_factor", f"an {c.type} has no AT factor (12.1); remove it"))
            if cat != "mg" and vals["mg_modes"]:
                problems.append(Problem(f"{cp}.mg_modes", "only machine guns have MG modes (21.0)"))
            src = sources_for("cw", cp, lambda f: _resolve(
                f, c, f in ("type", "number") or getattr(c, f) is not None, None,
                ct if f not in ("type", "number") else None))
            vals["mg_modes"] = tuple(vals["mg_modes"])
            out["cws"].append(dict(id=c.id, side=side, type=c.type, number=c.number, sources=src, note=c.note, **vals))

        # AFV types, counters, aliases
        for t, at in sd.afv_types.items():
            for k in (at.sources or {}):
                if k not in _AFV_TYPE_FIELDS:
                    problems.append(Problem(f"{sp}.afv_types.{t}.sources.{k}", f"unknown field {k!r}; expected one "
                                                                                f"of {', '.join(_AFV_TYPE_FIELDS)}"))
        seen = {}
        for i, a in enumerate(sd.afvs):
            ap = f"{sp}.afvs[{i}]"
            claim(a.id, ap)
            check_source_keys(a, "afv", ap)
            at = sd.afv_types.get(a.type)
            if at is None:
                problems.append(Problem(f"{ap}.type", f"unknown {side} AFV type {a.type!r}; defined: "
                                                      f"{', '.join(sd.afv_types) or 'none'}"))
                continue
            key = (a.type, a.number)
            if key in seen:
                problems.append(Problem(f"{ap}.number", f"{side} {a.type} #{a.number} already defined at {seen[key]}"))
            seen[key] = ap
            vals = {f: getattr(a, f) if getattr(a, f) is not None else getattr(at, f) for f in _AFV_TYPE_FIELDS}
            for f in ("ap_factor", "ap_range", "overrun_factor", "movement"):
                if vals[f] < 0:
                    problems.append(Problem(f"{ap}.{f}", f"{f} cannot be negative, got {vals[f]}"))
            if vals["frontal_modifier"] < vals["flank_modifier"]:
                problems.append(Problem(f"{ap}.flank_modifier", "the flank armour modifier cannot exceed the frontal "
                                                                "one (12.31: thicker armour = larger modifier)"))
            src = sources_for("afv", ap, lambda f: _resolve(
                f, a, f in ("type", "number") or getattr(a, f) is not None, None,
                at if f not in ("type", "number") else None))
            out["afvs"].append(dict(id=a.id, side=side, type=a.type, number=a.number, sources=src, note=a.note, **vals))
        for name, al in sd.afv_aliases.items():
            if al.type not in sd.afv_types:
                problems.append(Problem(f"{sp}.afv_aliases.{name}.type",
                                        f"alias {name!r} names unknown {side} AFV type {al.type!r}"))
            out["aliases"][(side, _norm_afv(name))] = al.type
    return out, problems


def _document_problems(doc: CounterDocument) -> list[Problem]:
    return _build(doc)[1]


class Roster:
    """The validated counter roster: lookups by squad letter, designation, type and ID number."""

    def __init__(self, document: CounterDocument, path: str | os.PathLike[str] | None = None):
        built, problems = _build(document)
        if problems:
            raise RosterError(path or "<roster>", problems)
        self.document = document
        self.path = None if path is None else Path(path)
        self._squads: dict[tuple[str, str], Squad] = {}
        self._units: dict[str, Unit] = {}
        for (side, letter), (men, desc) in built["squads"].items():
            sq = Squad(side=side, letter=letter, men=tuple(Infantry(**m) for m in men), description=desc)
            self._squads[(side, letter)] = sq
            for m in sq.men:
                self._units[m.id] = m
        self._commanders = [Commander(**c) for c in built["commanders"]]
        self._cws = [CrewWeapon(**c) for c in built["cws"]]
        self._afvs = [AFV(**a) for a in built["afvs"]]
        for u in (*self._commanders, *self._cws, *self._afvs):
            self._units[u.id] = u
        self._aliases: dict[tuple[str, str], str] = built["aliases"]

    # ------------------------------------------------------------------ lookups

    @property
    def _where(self) -> str:
        return f" in {self.path}" if self.path else ""

    def squad(self, side: str, letter: str) -> Squad:
        """Squad ``letter`` of ``side`` (men in counter order)."""
        s = normalise_side(side)
        key = (s, str(letter).strip().upper())
        if key not in self._squads:
            have = ", ".join(sorted(l for (sd, l) in self._squads if sd == s))
            raise KeyError(f"no {s} Squad {letter!r}{self._where}; squads: {have}")
        return self._squads[key]

    def squads(self, side: str | None = None) -> list[Squad]:
        s = None if side is None else normalise_side(side)
        return [q for (sd, _), q in self._squads.items() if s is None or sd == s]

    def commanders(self, side: str | None = None) -> list[Commander]:
        s = None if side is None else normalise_side(side)
        return [c for c in self._commanders if s is None or c.side == s]

    def commander(self, side: str, kind: str, pr: int | None = None, number: int | None = None) -> Commander:
        """The commander of ``kind`` ("PL", "APL", "PS") with this PR and/or ID number.

        Without ``pr`` and ``number`` the side must have exactly one commander of that kind.
        """
        s = normalise_side(side)
        k = str(kind).strip().upper()
        if k not in COMMANDER_RANKS:
            raise KeyError(f"unknown commander kind {kind!r}; expected PL, APL or PS")
        found = [c for c in self._commanders if c.side == s and c.rank == k
                 and (pr is None or c.pr == pr) and (number is None or c.number == number)]
        if len(found) == 1:
            return found[0]
        same = [f"{c.rank} #{c.number} PR{c.pr}" for c in self._commanders if c.side == s and c.rank == k]
        want = " ".join(x for x in (f"PR{pr}" if pr is not None else "", f"#{number}" if number is not None else "") if x)
        if not found:
            raise KeyError(f"no {s} {k}{' ' + want if want else ''}{self._where}; {s} {k}s: {', '.join(same) or 'none'}")
        prs = [c.pr for c in self._commanders if c.side == s and c.rank == k]
        raise KeyError(f"{s} {k}{' ' + want if want else ''} is ambiguous{self._where}: {', '.join(same)}; "
                       f"name one by its PR, e.g. '{k} PR{prs[0]}'")

    def crew_weapons(self, side: str | None = None) -> list[CrewWeapon]:
        s = None if side is None else normalise_side(side)
        return [c for c in self._cws if s is None or c.side == s]

    def crew_weapon_type(self, side: str, kind: str) -> str:
        """The canonical CW type name for ``kind`` (case-insensitive: "MOR" -> "Mor")."""
        s = normalise_side(side)
        types = getattr(self.document, s).cw_types
        want = _norm_cw(kind)
        for t in types:
            if _norm_cw(t) == want:
                return t
        raise KeyError(f"unknown {s} CW type {kind!r}{self._where}; types: {', '.join(types)}")

    def crew_weapon(self, side: str, kind: str, number: int) -> CrewWeapon:
        """CW ``kind`` ("MMG", "ATR", "Mor"/"MOR", "45AT", ...) with ID ``number``."""
        s = normalise_side(side)
        t = self.crew_weapon_type(s, kind)
        for c in self._cws:
            if c.side == s and c.type == t and c.number == int(number):
                return c
        have = ", ".join(f"#{c.number}" for c in self._cws if c.side == s and c.type == t)
        raise KeyError(f"no {s} {t} #{number}{self._where}; {t} counters: {have or 'none'}")

    def afvs(self, side: str | None = None) -> list[AFV]:
        s = None if side is None else normalise_side(side)
        return [a for a in self._afvs if s is None or a.side == s]

    def afv_type(self, side: str, kind: str) -> str:
        """The canonical AFV type for a spelling: "BT7m" -> "BT7M", "Stug III" -> "StugIIIb", aliases of the file."""
        s = normalise_side(side)
        types = getattr(self.document, s).afv_types
        want = _norm_afv(kind)
        for t in types:
            if _norm_afv(t) == want:
                return t
        if (s, want) in self._aliases:
            return self._aliases[(s, want)]
        raise KeyError(f"unknown {s} AFV type {kind!r}{self._where}; types: {', '.join(types)}; "
                       f"aliases: {', '.join(getattr(self.document, s).afv_aliases) or 'none'}")

    def afv(self, side: str, kind: str, number: int) -> AFV:
        """AFV ``kind`` (any spelling :meth:`afv_type` resolves) with ID ``number``."""
        s = normalise_side(side)
        t = self.afv_type(s, kind)
        for a in self._afvs:
            if a.side == s and a.type == t and a.number == int(number):
                return a
        have = ", ".join(f"#{a.number}" for a in self._afvs if a.side == s and a.type == t)
        raise KeyError(f"no {s} {t} #{number}{self._where}; {t} counters: {have or 'none'}")

    def unit(self, unit_id: str) -> Unit:
        """Any counter by its id (``"R-A-2"``, ``"G-PL-1"``, ``"R-45AT-1"``, ``"G-StugIIIb-2"``)."""
        try:
            return self._units[unit_id]
        except KeyError:
            raise KeyError(f"no counter with id {unit_id!r}{self._where}") from None

    def units(self, side: str | None = None) -> list[Unit]:
        s = None if side is None else normalise_side(side)
        return [u for u in self._units.values() if s is None or u.side == s]

    def __iter__(self) -> Iterator[Unit]:
        return iter(self._units.values())

    def __len__(self) -> int:
        return len(self._units)

    @property
    def notes(self) -> list[Note]:
        """The rulebook inconsistencies the roster records, with their resolutions."""
        return list(self.document.notes)

    def value_provenance(self, unit: Unit | str, field: str) -> Provenance:
        u = self.unit(unit) if isinstance(unit, str) else unit
        return u.provenance_of(field)

    def summary(self) -> str:
        inf = sum(len(q) for q in self._squads.values())
        return (f"counters: {inf} infantry in {len(self._squads)} squads, {len(self._commanders)} commanders, "
                f"{len(self._cws)} CWs, {len(self._afvs)} AFVs")


# --------------------------------------------------------------------------- files


def shipped_counters_path() -> Path:
    """Path of the shipped roster, ``scenarios/data/iron_cross_counters.json``."""
    try:
        p = Path(str(resources.files("scenarios").joinpath("data", "iron_cross_counters.json")))
        if p.is_file():
            return p
    except (ModuleNotFoundError, TypeError):  # pragma: no cover - unusual installs
        pass
    return Path(__file__).parent / "data" / "iron_cross_counters.json"


def load_counters(path: str | os.PathLike[str] | None = None, data: Any = None) -> Roster:
    """Load and validate a counter roster (``None``: the shipped file). Raises :class:`RosterError`."""
    p = shipped_counters_path() if path is None else Path(path)
    try:
        doc = load_document(p, CounterDocument, format_name=COUNTERS_FORMAT, version=COUNTERS_VERSION,
                            data=data, checks=_document_problems)
    except RosterError:
        raise
    except DocumentError as e:
        raise RosterError(e.file, e.problems) from None
    return Roster(doc, p)


def build_roster(document: CounterDocument | dict, path: str | os.PathLike[str] | None = None) -> Roster:
    """A :class:`Roster` from an in-memory document (e.g. after an edit); raises :class:`RosterError`."""
    if isinstance(document, dict):
        return load_counters(path or "<roster>", data=document)
    return Roster(document, path)


def _compact_json(value: Any, indent: int = 0, width: int = 118) -> str:
    """Indented JSON that keeps each small object (a man, a provenance) on one line."""
    one = json.dumps(value, ensure_ascii=False)
    if not isinstance(value, (dict, list)) or not value or len(one) + indent <= width:
        return one
    pad, inner = " " * indent, " " * (indent + 1)
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {_compact_json(v, indent + 1, width)}"
                 for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    items = [inner + _compact_json(v, indent + 1, width) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + pad + "]"


def counters_json(roster: Roster | CounterDocument) -> str:
    """The roster's document as the JSON text :func:`save_counters` writes."""
    doc = roster.document if isinstance(roster, Roster) else roster
    data = doc.model_dump(mode="json", exclude_none=True, exclude_defaults=True)
    data = {"format": doc.format, "version": doc.version, **data}
    return _compact_json(data) + "\n"


def save_counters(roster: Roster | CounterDocument, path: str | os.PathLike[str]) -> None:
    """Write the roster's document as compact indented JSON, atomically (a temporary file, then rename)."""
    atomic_write_text(path, counters_json(roster))
