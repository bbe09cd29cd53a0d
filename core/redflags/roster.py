"""The Red Flags roster: unit types of the fragment's Units table with German and Soviet examples.

A roster file (``"format": "redflags-roster"``, shipped: ``core/redflags/data/roster.json``) lists
entries, each one unit as it stands on the table: ``kind`` (the Units table's type), its figures'
weapons (infantry, engineer, cavalry, foot/motorcycle reconnaissance), its support weapon, its
vehicle class and gun (armour, armoured-car reconnaissance), its gun and size (artillery), its
mode (transport) or role and engines (aircraft). Each entry carries its provenance: ``rulebook``
with the fragment's section it comes from (an example the fragment names) and what of it is
``reconstructed``, or ``reconstructed`` with a rationale.

:func:`load_roster` raises :class:`maps.document_file.DocumentError` naming the file, the JSON path
and the problem (an unknown weapon, 7 figures in an infantry unit, a gun on a cavalry unit ...).
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from core.redflags.tables import DATA_DIR, weapon_table
from maps.document_file import DocumentError, Problem, load_document

__all__ = ["ROSTER_FORMAT", "ROSTER_PATH", "KINDS", "FIGURE_WEAPONS", "SUPPORT_WEAPONS", "RosterEntry", "Roster",
           "load_roster", "shipped_roster"]

ROSTER_FORMAT = "redflags-roster"
ROSTER_PATH = DATA_DIR / "roster.json"

#: The Units table's types.
KINDS = ("infantry", "engineer", "cavalry", "recon", "artillery", "afv", "transport", "aircraft", "observer", "commander")
Kind = Literal["infantry", "engineer", "cavalry", "recon", "artillery", "afv", "transport", "aircraft", "observer", "commander"]

#: Units: Notes -- what infantry and engineer figures may carry, and the support weapons.
FIGURE_WEAPONS = ("smg", "rifle", "lmg", "infantry_at")
SUPPORT_WEAPONS = {"infantry": ("hmg", "infantry_mortar"), "engineer": ("flamethrower", "infantry_mortar")}
_FIGURES = {"infantry": (4, 6), "engineer": (4, 6), "cavalry": (4, 6)}
_RECON_FIGURES = {"infantry": (4, 6), "bicycle": (4, 6), "cavalry": (4, 6), "motorcycle": (2, 6)}
_ARTILLERY = ("light_at_gun", "medium_at_gun", "heavy_at_gun", "infantry_gun", "heavy_mortar", "mountain_gun", "field_gun",
              "medium_gun", "heavy_gun", "light_aa_gun", "medium_aa_gun", "heavy_aa_gun")
_TANK_GUNS = ("light_tank_gun", "medium_tank_gun", "heavy_tank_gun")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class EntryProvenance(_Strict):
    """``rulebook`` + ``source`` (+ ``reconstructed``: what of the entry is reconstructed), or
    ``reconstructed`` + ``rationale``."""

    provenance: Literal["rulebook", "reconstructed"]
    source: str | None = None
    rationale: str | None = None
    reconstructed: str | None = None

    @model_validator(mode="after")
    def _needs_reason(self) -> "EntryProvenance":
        if self.provenance == "rulebook" and not self.source:
            raise ValueError("a 'rulebook' entry needs 'source' (the fragment's section)")
        if self.provenance == "reconstructed" and not self.rationale:
            raise ValueError("a 'reconstructed' entry needs a 'rationale'")
        return self


class RosterEntry(_Strict):
    """One unit type as it stands on the table (see the module docstring)."""

    id: str = Field(min_length=1)
    side: Literal["german", "russian"]
    name: str = Field(min_length=1)
    kind: Kind
    figures: list[str] = Field(default_factory=list)
    support: str | None = None
    recon_mode: Literal["infantry", "bicycle", "cavalry", "motorcycle", "armoured_car"] | None = None
    vehicles: int = Field(default=1, ge=1, le=3)
    afv_class: Literal["light", "medium", "heavy"] | None = None
    gun: str | None = None
    size: Literal["light", "heavy"] | None = None
    transport: Literal["horse", "motor"] | None = None
    role: Literal["reconnaissance", "fighter", "ground_attack", "dive_bomber", "bomber", "transport"] | None = None
    engines: int | None = Field(default=None, ge=1, le=6)
    provenance: EntryProvenance

    @model_validator(mode="after")
    def _fits_its_kind(self) -> "RosterEntry":  # Units table: establishments
        k = self.kind
        weapons = weapon_table()
        for f in self.figures:
            if f not in FIGURE_WEAPONS:
                raise ValueError(f"figure weapon {f!r} is not one of {', '.join(FIGURE_WEAPONS)} (Units: Notes)")
        personnel = k in ("infantry", "engineer", "cavalry") or (k == "recon" and self.recon_mode != "armoured_car")
        if personnel:
            lo, hi = _FIGURES.get(k) or _RECON_FIGURES[self.recon_mode or "infantry"]
            if not lo <= len(self.figures) <= hi:
                raise ValueError(f"a {k} unit has {lo} to {hi} figures (Units), not {len(self.figures)}")
        elif self.figures:
            raise ValueError(f"a {k} unit has no figures list")
        if self.support is not None:
            allowed = SUPPORT_WEAPONS.get(k, ())
            if self.support not in allowed:
                raise ValueError(f"a {k} unit's support weapon must be one of {', '.join(allowed) or 'none'} (Units: Notes), "
                                 f"not {self.support!r}")
        if k == "recon" and self.recon_mode is None:
            raise ValueError("a reconnaissance unit needs 'recon_mode' (Units: Reconnaissance unit)")
        if k != "recon" and self.recon_mode is not None:
            raise ValueError("only a reconnaissance unit has 'recon_mode'")
        armoured = k == "afv" or (k == "recon" and self.recon_mode == "armoured_car")
        if armoured:
            if self.afv_class is None or self.gun not in _TANK_GUNS:
                raise ValueError(f"an armoured unit needs 'afv_class' and a tank gun ({', '.join(_TANK_GUNS)})")
            if k == "recon" and not 2 <= self.vehicles <= 3:
                raise ValueError("armoured-car reconnaissance is 'two or three light AFVs' (Units)")
            if k == "recon" and self.afv_class != "light":
                raise ValueError("reconnaissance AFVs are light AFVs (Units)")
            if k == "afv" and self.vehicles != 1:
                raise ValueError("an armoured unit is '1 armoured vehicle' (Units)")
        elif self.afv_class is not None:
            raise ValueError(f"a {k} unit has no 'afv_class'")
        if k == "artillery":
            if self.gun not in _ARTILLERY or self.size is None:
                raise ValueError(f"an artillery unit needs a gun ({', '.join(_ARTILLERY)}) and 'size' (light or heavy)")
        elif self.size is not None:
            raise ValueError(f"a {k} unit has no 'size'")
        if not armoured and k != "artillery" and self.gun is not None:
            raise ValueError(f"a {k} unit has no gun")
        if self.gun is not None and self.gun not in weapons:
            raise ValueError(f"unknown weapon {self.gun!r}")
        if (k == "transport") != (self.transport is not None):
            raise ValueError("a transport unit needs 'transport' (horse or motor); other units have none")
        if (k == "aircraft") != (self.role is not None and self.engines is not None):
            raise ValueError("an aircraft needs 'role' and 'engines'; other units have neither")
        return self


class Roster(_Strict):
    """A roster file."""

    format: Literal["redflags-roster"] = ROSTER_FORMAT
    version: int = 1
    title: str = ""
    source: str = ""
    units: list[RosterEntry]

    def by_id(self) -> dict[str, RosterEntry]:
        return {e.id: e for e in self.units}


def _roster_problems(r: Roster) -> list[Problem]:
    seen: dict[str, int] = {}
    out = []
    for i, e in enumerate(r.units):
        if e.id in seen:
            out.append(Problem(f"$.units[{i}].id", f"roster id {e.id!r} is used twice (first at $.units[{seen[e.id]}])"))
        seen.setdefault(e.id, i)
    return out


def load_roster(path: str | os.PathLike[str] = ROSTER_PATH) -> Roster:
    """Load and check a roster file; raises :class:`DocumentError` (file, JSON path, problem)."""
    return load_document(path, Roster, format_name=ROSTER_FORMAT, version=1, checks=_roster_problems)


@lru_cache(maxsize=4)
def _cached(path: str, mtime: float) -> Roster:
    return load_roster(path)


def shipped_roster(path: str | os.PathLike[str] | None = None) -> Roster:
    """The roster at ``path`` (default: the shipped one), loaded once per file version."""
    p = Path(path or ROSTER_PATH).resolve()
    try:
        mtime = p.stat().st_mtime
    except OSError:
        mtime = -1.0
    return _cached(str(p), mtime)
