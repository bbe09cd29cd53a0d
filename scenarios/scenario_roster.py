"""A scenario's own roster: counters it adds and values it overrides, over the shipped roster.

A designer's scenario may need a unit the printed roster lacks (a new squad "P", a third
commander, another CW or AFV, a new AFV type) or a counter value read from the printed game. The
scenario file carries them in its ``roster`` block; the shipped counters file (or the file the
scenario names in ``counters``) is never written::

    "roster": {
     "add": [ADDITION, ...],
     "override": [{"unit": "R-A-2", "field": "pr", "value": 8, "note": "printed counter"}, ...]
    }

An ADDITION has a ``kind`` and a ``side``, an optional ``note`` and ``provenance`` (absent: the
designer's, ``{"source": "designer"}`` with the note as its rationale), and the fields of the
counters file's object of that kind (``docs/counters.md``):

* ``squad``: ``letter`` (one capital letter the roster does not have), ``description``, ``men``
  (``{"weapon": "MP", "pr": 9}``, in counter order; ``id`` defaults to ``R-P-1``...);
* ``commander``: ``rank`` (PL, APL, PS), ``number``, ``weapon``, ``pr`` (``id``: ``G-PL-2``);
* ``cw_type`` / ``afv_type``: a new type (``type``, and every value of a type);
* ``crew_weapon`` / ``afv``: a counter of a type of the roster or of an added type: ``type``,
  ``number``, values that differ from the type (``id``: ``R-T60-1``).

An override changes one value (``field``) of one counter of the base roster (``unit``: its id);
its provenance is the designer's. Fields: :data:`OVERRIDE_FIELDS`.

Resolution (one function, :func:`scenario_roster`, used by the set-up, the checks, the OOB parser,
the design checks, the playtests and the editor): the base roster (the scenario's ``counters``
file, else the shipped one), then the additions, then the overrides. The merged roster is
checked as a counters file is (every rule of :mod:`scenarios.counters`); each problem names the
scenario file and the JSON path in the scenario (``$.roster.add[0].men[2].pr``).
"""

from __future__ import annotations

import difflib
import os
import re
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from maps.document_file import Problem, _validation_problems
from maps.provenance import Provenance
from scenarios.counters import (  # noqa: I001
    _check_pr,
    _check_weapon,
    MG_MODES,
    WEAPON_TYPES,
    CounterDocument,
    Roster,
    RosterError,
    _build,
    _norm_afv,
    _norm_cw,
)

__all__ = [
    "OVERRIDE_FIELDS",
    "ADDITION_KINDS",
    "AddedMan",
    "SquadAddition",
    "CommanderAddition",
    "CWTypeAddition",
    "CrewWeaponAddition",
    "AFVTypeAddition",
    "AFVAddition",
    "Addition",
    "Override",
    "RosterBlock",
    "MergedRoster",
    "merge_roster",
    "roster_block_problems",
    "scenario_roster",
    "default_unit_id",
    "designer_provenance",
]

Side = Literal["german", "russian"]
Int = Annotated[int, Field(strict=True)]

#: The values an override may change, per kind of counter (identity fields -- type, number, rank
#: -- are not overridable: add a counter instead).
OVERRIDE_FIELDS: dict[str, tuple[str, ...]] = {
    "infantry": ("weapon", "pr", "ap_factor", "initial_range", "assault_rating"),
    "commander": ("weapon", "pr", "ap_factor", "initial_range", "assault_rating"),
    "cw": ("crew", "ap_factor", "initial_range", "at_factor", "assault_rating", "pr", "movement", "mg_modes"),
    "afv": ("ap_factor", "ap_range", "frontal_modifier", "flank_modifier", "at_factor", "overrun_factor", "pr",
            "movement", "turreted"),
}

#: The kinds of addition, as the forms name them.
ADDITION_KINDS: dict[str, str] = {"squad": "squad", "commander": "commander", "cw_type": "CW type",
                                  "crew_weapon": "CW", "afv_type": "AFV type", "afv": "AFV"}

_SIDE_PREFIX = {"german": "G", "russian": "R"}
_KIND_WORDS = {"infantry": "man", "commander": "commander", "cw": "crew weapon", "afv": "AFV"}
_TYPE_PREFIX = {"cw_type": "cw_types", "afv_type": "afv_types"}


# the roster's own checks, so an addition is refused exactly as a counters file would be
_pr = _check_pr
_weapon = _check_weapon


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Addition(_Strict):
    side: Side
    note: str | None = None
    #: absent: the designer's (``{"source": "designer"}``, the note as its rationale)
    provenance: Provenance | None = None

    def provenance_or_designer(self) -> Provenance:
        return _provenance(self.provenance, self.note)


class AddedMan(_Strict):
    """A man of an added squad: weapon type and PR; ``id`` defaults to ``R-P-1`` (side, letter,
    position); profile values (AP factor, range, assault rating) may be given."""

    id: str | None = None
    weapon: str
    pr: Int
    ap_factor: Int | None = None
    initial_range: Int | None = None
    assault_rating: Int | None = None
    note: str | None = None

    _w = field_validator("weapon")(classmethod(lambda cls, v: _weapon(v)))
    _p = field_validator("pr")(classmethod(lambda cls, v: _pr(v)))


class SquadAddition(_Addition):
    """A new squad (2.21): one capital letter, its men in counter order."""

    kind: Literal["squad"] = "squad"
    letter: str
    description: str | None = None
    men: list[AddedMan] = Field(min_length=1)

    @field_validator("letter")
    @classmethod
    def _letter(cls, v: str) -> str:
        if not re.fullmatch(r"[A-Z]", v):
            raise ValueError(f"a squad designation is one capital letter (2.21), got {v!r}")
        return v


class CommanderAddition(_Addition):
    """A new commander (5.1): rank, ID number, weapon and PR."""

    kind: Literal["commander"] = "commander"
    id: str | None = None
    rank: Literal["PL", "APL", "PS"]
    number: Int = Field(ge=1)
    weapon: str = "MP"
    pr: Int
    ap_factor: Int | None = None
    initial_range: Int | None = None
    assault_rating: Int | None = None

    _w = field_validator("weapon")(classmethod(lambda cls, v: _weapon(v)))
    _p = field_validator("pr")(classmethod(lambda cls, v: _pr(v)))


class CWTypeAddition(_Addition):
    """A new crew weapon type (2.23): MMG, ATR, Mor or ``<calibre>AT``, with every value."""

    kind: Literal["cw_type"] = "cw_type"
    type: str = Field(min_length=1)
    description: str | None = None
    crew: Int
    ap_factor: Int
    initial_range: Int
    at_factor: Int | None = None
    assault_rating: Int
    pr: Int
    movement: Int
    mg_modes: list[Literal["DF", "FL", "SP"]] = Field(default_factory=list)

    _p = field_validator("pr")(classmethod(lambda cls, v: _pr(v)))


class CrewWeaponAddition(_Addition):
    """A new crew weapon counter: type (of the roster or added) and ID number; values that differ."""

    kind: Literal["crew_weapon"] = "crew_weapon"
    id: str | None = None
    type: str = Field(min_length=1)
    number: Int = Field(ge=1)
    crew: Int | None = None
    ap_factor: Int | None = None
    initial_range: Int | None = None
    at_factor: Int | None = None
    assault_rating: Int | None = None
    pr: Int | None = None
    movement: Int | None = None
    mg_modes: list[Literal["DF", "FL", "SP"]] | None = None

    _p = field_validator("pr")(classmethod(lambda cls, v: _pr(v)))


class AFVTypeAddition(_Addition):
    """A new AFV type (2.22) with every value."""

    kind: Literal["afv_type"] = "afv_type"
    type: str = Field(min_length=1)
    description: str | None = None
    ap_factor: Int
    ap_range: Int
    frontal_modifier: Int
    flank_modifier: Int
    at_factor: Int | None = None
    overrun_factor: Int
    pr: Int
    movement: Int
    turreted: bool = True

    _p = field_validator("pr")(classmethod(lambda cls, v: _pr(v)))


class AFVAddition(_Addition):
    """A new AFV counter: type (of the roster, an alias, or added) and ID number; values that differ."""

    kind: Literal["afv"] = "afv"
    id: str | None = None
    type: str = Field(min_length=1)
    number: Int = Field(ge=1)
    ap_factor: Int | None = None
    ap_range: Int | None = None
    frontal_modifier: Int | None = None
    flank_modifier: Int | None = None
    at_factor: Int | None = None
    overrun_factor: Int | None = None
    pr: Int | None = None
    movement: Int | None = None
    turreted: bool | None = None

    _p = field_validator("pr")(classmethod(lambda cls, v: _pr(v)))


Addition = Annotated[Union[SquadAddition, CommanderAddition, CWTypeAddition, CrewWeaponAddition, AFVTypeAddition,
                           AFVAddition], Field(discriminator="kind")]


class Override(_Strict):
    """One value of one counter of the base roster: ``unit`` (its id), ``field``, ``value``."""

    unit: str = Field(min_length=1)
    field: str = Field(min_length=1)
    value: Union[bool, Int, str, list[str]]
    note: str | None = None
    provenance: Provenance | None = None

    def provenance_or_designer(self) -> Provenance:
        return _provenance(self.provenance, self.note)


class RosterBlock(_Strict):
    """A scenario's ``roster`` block: ``add`` (new counters and types) and ``override`` (values)."""

    add: list[Addition] = Field(default_factory=list)
    override: list[Override] = Field(default_factory=list)

    def is_empty(self) -> bool:
        return not self.add and not self.override


def _provenance(p: Provenance | None, note: str | None) -> Provenance:
    """An entry's provenance: its own (a bare ``designer`` one takes the note as rationale), else the designer's."""
    if p is None or (p.source == "designer" and not p.rationale and note):
        return designer_provenance(note)
    return p


def designer_provenance(note: str | None = None) -> Provenance:
    """``{"source": "designer"}`` with ``note`` as its rationale."""
    return Provenance(source="designer", rationale=note or None)


def default_unit_id(side: str, kind: str, *, letter: str | None = None, index: int | None = None,
                    rank: str | None = None, type: str | None = None, number: int | None = None) -> str:
    """The id the roster's convention gives a counter: ``R-P-3`` (squad P, third man), ``G-PL-2``,
    ``R-57AT-1``, ``G-T60-1``."""
    p = _SIDE_PREFIX[side]
    if kind in ("squad", "infantry"):
        return f"{p}-{letter}-{index}"
    if kind == "commander":
        return f"{p}-{rank}-{number}"
    return f"{p}-{type}-{number}"


# --------------------------------------------------------------------------- merging


class MergedRoster(Roster):
    """The roster a scenario is played with: the base roster, its additions, its overrides.

    ``base``: the base :class:`Roster`; ``block``: the :class:`RosterBlock`; ``added``: unit id,
    ``(side, "squad", letter)`` or ``(side, "cw_type"|"afv_type", type)`` -> index in
    ``block.add``; ``overridden``: unit id -> {field: index in ``block.override``}.
    """

    def __init__(self, document: CounterDocument, base: Roster, block: RosterBlock, added: dict, overridden: dict):
        super().__init__(document, None)
        self.base = base
        self.block = block
        self.added = added
        self.overridden = overridden

    @property
    def _where(self) -> str:
        name = self.base.path.name if self.base.path is not None else "the roster"
        return f" in {name} + the scenario's roster additions"

    def origin(self, uid: str) -> str:
        """``"added"`` (a counter this scenario adds), ``"overridden"`` (a base counter with a value
        this scenario overrides) or ``"shipped"`` (as in the base roster)."""
        if uid in self.added:
            return "added"
        if uid in self.overridden:
            return "overridden"
        return "shipped"

    def override_index(self, uid: str, field: str) -> int | None:
        """Index in ``block.override`` of the override of ``uid``'s ``field``, or None."""
        return self.overridden.get(uid, {}).get(field)


def _check_value(field: str, value: Any) -> str | None:
    """Why ``value`` cannot be a value of ``field``, or None."""
    if field == "weapon":
        if not isinstance(value, str) or value not in WEAPON_TYPES:
            return f"a weapon type is one of {', '.join(WEAPON_TYPES)} (2.21), got {value!r}"
        return None
    if field == "mg_modes":
        if not isinstance(value, list) or any(m not in MG_MODES for m in value):
            return f"MG modes are a list of {', '.join(MG_MODES)} (21.0), got {value!r}"
        return None
    if field == "turreted":
        if not isinstance(value, bool):
            return f"turreted is true or false, got {value!r}"
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        return f"{field} is a whole number, got {value!r}"
    if field == "pr" and not 2 <= value <= 12:
        return f"PR must be 2-12 (a two-dice performance check, 4.0), got {value}"
    return None


def _canonical(names, kind: str, wanted: str, aliases: dict | None = None) -> str | None:
    norm = _norm_afv if kind == "afv" else _norm_cw
    for t in names:
        if norm(t) == norm(wanted):
            return t
    for a, al in (aliases or {}).items():
        if norm(a) == norm(wanted):
            return al["type"]
    return None


def _merge(base: Roster, block: RosterBlock) -> tuple[dict, list[Problem], list[tuple[str, str, str | None]],
                                                       dict, dict]:
    """(merged counters JSON, problems found while merging, path map, added, overridden).

    The path map holds (counters-file path prefix, scenario path, unit id for an override or None)."""
    data = base.document.model_dump(mode="json", exclude_none=True)
    problems: list[Problem] = []
    pmap: list[tuple[str, str, str | None]] = []
    added: dict = {}
    overridden: dict[str, dict[str, int]] = {}
    dump = lambda m, *skip: {k: v for k, v in m.model_dump(mode="json", exclude_none=True).items()  # noqa: E731
                             if k not in ("kind", "side", "note", "provenance", *skip)}
    for i, a in enumerate(block.add):
        sp = f"$.roster.add[{i}]"
        sd = data[a.side]
        prov = a.provenance_or_designer().model_dump(mode="json", exclude_none=True)
        if isinstance(a, SquadAddition):
            if a.letter in sd["squads"]:
                problems.append(Problem(f"{sp}.letter", f"the {a.side} roster already has Squad {a.letter}; give the "
                                                        "new squad another letter, or override values of its men"))
                continue
            men = []
            for k, m in enumerate(a.men):
                man = dump(m)
                man["id"] = m.id or default_unit_id(a.side, "squad", letter=a.letter, index=k + 1)
                if m.note:
                    man["note"] = m.note
                men.append(man)
                added[man["id"]] = i
            sd["squads"][a.letter] = {**({"description": a.description} if a.description else {}),
                                      "provenance": prov, "men": men}
            pmap.append((f"$.{a.side}.squads.{a.letter}", sp, None))
            added[(a.side, "squad", a.letter)] = i
        elif isinstance(a, CommanderAddition):
            c = dump(a)
            c["id"] = a.id or default_unit_id(a.side, "commander", rank=a.rank, number=a.number)
            c.update({"note": a.note} if a.note else {})
            c["provenance"] = prov
            pmap.append((f"$.{a.side}.commanders[{len(sd['commanders'])}]", sp, None))
            sd["commanders"].append(c)
            added[c["id"]] = i
        elif isinstance(a, (CWTypeAddition, AFVTypeAddition)):
            key = _TYPE_PREFIX[a.kind]
            what = "CW" if a.kind == "cw_type" else "AFV"
            same = _canonical(sd[key], "afv" if a.kind == "afv_type" else "cw", a.type,
                              sd.get("afv_aliases") if a.kind == "afv_type" else None)
            if same is not None:
                problems.append(Problem(f"{sp}.type", f"the {a.side} roster already has the {what} type {same!r}; "
                                                      f"add counters of it ('{what} counter') or pick another name"))
                continue
            t = dump(a, "type")
            t["provenance"] = prov
            sd[key][a.type] = t
            pmap.append((f"$.{a.side}.{key}.{a.type}", sp, None))
            added[(a.side, a.kind, a.type)] = i
        else:   # a CW or AFV counter
            is_afv = isinstance(a, AFVAddition)
            types = [*sd["afv_types"], *(x.type for x in block.add if isinstance(x, AFVTypeAddition)
                                         and x.side == a.side)] if is_afv else \
                [*sd["cw_types"], *(x.type for x in block.add if isinstance(x, CWTypeAddition) and x.side == a.side)]
            aliases = sd.get("afv_aliases") if is_afv else None
            t = _canonical(types, "afv" if is_afv else "cw", a.type, aliases) or a.type
            c = dump(a)
            c["type"] = t
            c["id"] = a.id or default_unit_id(a.side, a.kind, type=t, number=a.number)
            c.update({"note": a.note} if a.note else {})
            c["provenance"] = prov
            key = "afvs" if is_afv else "crew_weapons"
            pmap.append((f"$.{a.side}.{key}[{len(sd[key])}]", sp, None))
            sd[key].append(c)
            added[c["id"]] = i
    seen: dict[tuple[str, str], int] = {}
    for j, o in enumerate(block.override):
        op = f"$.roster.override[{j}]"
        try:
            u = base.unit(o.unit)
        except KeyError:
            near = difflib.get_close_matches(o.unit, [x.id for x in base], n=3)
            problems.append(Problem(f"{op}.unit", f"no counter {o.unit!r} in the base roster"
                                                  f"{' (' + base.path.name + ')' if base.path else ''}"
                                                  f"{'; did you mean ' + ', '.join(near) if near else ''}; an override "
                                                  "changes a shipped counter (edit an addition in its own entry)"))
            continue
        allowed = OVERRIDE_FIELDS[u.kind]
        if o.field not in allowed:
            problems.append(Problem(f"{op}.field", f"{o.unit}: {o.field!r} cannot be overridden; an override "
                                                   f"of a {_KIND_WORDS[u.kind]} changes one of {', '.join(allowed)}"))
            continue
        if (o.unit, o.field) in seen:
            problems.append(Problem(f"{op}.field", f"{o.unit} {o.field} is already overridden at "
                                                   f"$.roster.override[{seen[(o.unit, o.field)]}]"))
            continue
        seen[(o.unit, o.field)] = j
        why = _check_value(o.field, o.value)
        if why is not None:
            problems.append(Problem(f"{op}.value", f"{o.unit}: {why}"))
            continue
        sd = data[u.side]
        if u.kind == "infantry":
            obj, path = sd["squads"][u.squad]["men"][u.index - 1], f"$.{u.side}.squads.{u.squad}.men[{u.index - 1}]"
        else:
            key = {"commander": "commanders", "cw": "crew_weapons", "afv": "afvs"}[u.kind]
            k = next(n for n, c in enumerate(sd[key]) if c["id"] == o.unit)
            obj, path = sd[key][k], f"$.{u.side}.{key}[{k}]"
        obj[o.field] = o.value
        obj.setdefault("sources", {})[o.field] = o.provenance_or_designer().model_dump(mode="json", exclude_none=True)
        pmap.append((f"{path}.{o.field}", f"{op}.value", o.unit))
        pmap.append((path, op, o.unit))
        overridden.setdefault(o.unit, {})[o.field] = j
    return data, problems, pmap, added, overridden


_COUNTERS_PATH_RE = re.compile(r"\$\.(?:german|russian)(?:\.[\w-]+|\[\d+\])*")


def _map_path(path: str, pmap: list[tuple[str, str, str | None]]) -> tuple[str, str | None, str] | None:
    """(scenario path, unit id of an override or None, the rest of ``path``) or None: not ours."""
    best = None
    for prefix, target, unit in pmap:
        if (path == prefix or path.startswith(prefix + ".") or path.startswith(prefix + "[")) and \
                (best is None or len(prefix) > len(best[0])):
            best = (prefix, target, unit)
    if best is None:
        return None
    prefix, target, unit = best
    return target, unit, path[len(prefix):]


def _map_problem(p: Problem, pmap: list[tuple[str, str, str | None]], base_name: str) -> Problem:
    """A problem of the merged counters document, at its place in the scenario file; the paths
    its message names are the scenario's (an addition) or the base file's (said so)."""

    def in_message(m: re.Match) -> str:
        hit = _map_path(m.group(0), pmap)
        if hit is None or hit[1] is not None:
            return f"{m.group(0)} of {base_name}"
        return hit[0] + hit[2]

    msg = _COUNTERS_PATH_RE.sub(in_message, p.message)
    hit = _map_path(p.path, pmap)
    if hit is None:
        return Problem("$.roster", f"{p.path} of {base_name}: {msg}")
    target, unit, rest = hit
    if unit is None:
        return Problem(target + rest, msg)
    return Problem(target, f"{unit}{' ' + rest.lstrip('.') if rest else ''}: {msg}")


def _merged(base: Roster, block: RosterBlock) -> tuple[MergedRoster | None, list[Problem]]:
    data, problems, pmap, added, overridden = _merge(base, block)
    name = base.path.name if base.path is not None else "the base roster"
    _map = lambda p: _map_problem(p, pmap, name)  # noqa: E731
    try:
        doc = CounterDocument.model_validate(data)
    except ValidationError as e:
        return None, problems + [_map(p) for p in _validation_problems(e, data)]
    # the merged roster is checked as a counters file is (entries refused above are left out)
    problems += [_map(p) for p in _build(doc)[1]]
    if problems:
        return None, problems
    return MergedRoster(doc, base, block, added, overridden), []


def roster_block_problems(base: Roster, block: RosterBlock | None) -> list[Problem]:
    """Every problem of a scenario's roster block over ``base`` (paths ``$.roster...``); [] when fine."""
    if block is None:
        return []
    return _merged(base, block)[1]


def merge_roster(base: Roster, block: RosterBlock | None, file: str | os.PathLike[str] = "<scenario>") -> MergedRoster:
    """The :class:`MergedRoster` of ``base`` with a scenario's roster block (additions, then
    overrides). Raises :class:`scenarios.counters.RosterError` naming ``file`` (the scenario) and
    each problem's JSON path in it (``$.roster.add[0].letter``)."""
    if isinstance(base, MergedRoster):
        base = base.base
    roster, problems = _merged(base, block or RosterBlock())
    if problems:
        raise RosterError(file, problems)
    return roster  # type: ignore[return-value]


def scenario_roster(scenario, base: Roster | None = None,
                    scenario_path: str | os.PathLike[str] | None = None) -> Roster:
    """THE roster a scenario is played with (set-up, checks, OOB parsing, design checks, games, editor).

    ``base``: the roster the scenario's additions apply to (default: the scenario's ``counters``
    file, else the shipped roster, :func:`scenarios.scenario_file.load_base_roster`); a
    :class:`MergedRoster` of the same block is returned as it is, one of another block is merged
    again from its base. A scenario without a ``roster`` block is played with ``base`` itself.
    Raises :class:`maps.document_file.DocumentError` (a :class:`RosterError` for the block) naming
    the scenario file."""
    block = getattr(scenario, "roster", None)
    if isinstance(base, MergedRoster):
        if block is not None and base.block == block:
            return base
        base = base.base
    if base is None:
        from scenarios.scenario_file import load_base_roster

        base = load_base_roster(scenario, scenario_path)
    if block is None:
        return base
    return merge_roster(base, block, scenario_path or "<scenario>")
