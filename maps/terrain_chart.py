"""The Movement and Combat Effects Chart (the "Terrain Effects Chart") as validated data.

The rulebook prints only part of the chart: the Clear and Road rows, the first columns of the
Gully row, the dice modifier rows, the legend (P, T) and notes a-f. Every other row is a
reconstruction that agrees with the rules that mention the terrain (8.5x, 9.2, 10.3x, 11.16,
11.3x, 14.0, 15.4, 19.14, 23.2, 23.34 and the Infiltration table). The shipped data lives in
``maps/data/terrain_chart.json``; the reasoning for every reconstructed value is in
``docs/terrain-chart.md``. A designer who owns the printed game may overwrite any value (and mark
it ``"source": "designer"``) and save the file.

Shape of the file (``"format": "ironcross-terrain-chart"``, ``"version": 1``)::

    {"format": ..., "version": 1, "title": ..., "legend": {"P": NOTE, "T": NOTE},
     "notes": {"a": NOTE, ..., "f": NOTE}, "modifiers": [MODIFIER, ...], "rows": [ROW, ...]}

where every chart value is a *cell* ``{"value": V, "source": "rulebook", "ref": "..."}`` or
``{"value": V, "source": "reconstructed", "rationale": "..."}``. Values are written as on the
printed chart:

* a **move cost** is a number of MP (``0.5`` or ``"1/2"`` allowed), ``"P"`` (prohibited) or a
  tree expression such as ``"T"``, ``"T+1"``, ``"2T+2"`` where ``T`` is the number of tree
  symbols in the hex (chart legend "T: # of trees in the hex");
* **AP dice**, **observation bases** and rule bonuses are numbers or tree expressions; an
  observation base may be ``"other"`` (note d: "use the Observation base of the other terrain
  in the hex");
* the **AP firepower modifier** is ``null`` (printed "None") or
  ``{"per_tree": -1}`` / ``{"constant": -1, "when": "target_higher_than_firer"}``.

Levels (``"Type (Level)"`` column, used on the Sighting Chart of 10.32): a row's
``level_meaning`` is ``"ground"`` for hill rows (the level *is* the hex's ground level, 1 or 2)
and ``"above_ground"`` for every other row (the obstacle stands that many levels above the
ground level of its hex: 0.5 for buildings and Woods, 0 for flat terrain). See
:meth:`TerrainChart.obstacle_height` and :meth:`TerrainChart.absolute_obstacle_height`.

Loading raises :class:`TerrainChartError` (a :class:`ValueError`) whose message names the file,
the JSON path and the problem, one line per problem.
"""

from __future__ import annotations

import json
import os
import re
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar, Generic, Iterator, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_serializer, model_validator

from maps.document_file import DocumentError, Problem, atomic_write_text, load_document
from maps.provenance import Provenance

__all__ = [
    "TERRAIN_CHART_FORMAT",
    "TERRAIN_CHART_VERSION",
    "STANDARD_ROWS",
    "TerrainChartError",
    "TreeFormula",
    "MoveCost",
    "ObservationBase",
    "FirepowerModifier",
    "Immobilisation",
    "Cell",
    "Note",
    "Modifier",
    "MoveCosts",
    "RuleEffects",
    "TreeRange",
    "TerrainRow",
    "TerrainChart",
    "load_terrain_chart",
    "save_terrain_chart",
    "shipped_chart_path",
    "hex_row_keys",
]

TERRAIN_CHART_FORMAT = "ironcross-terrain-chart"
TERRAIN_CHART_VERSION = 1

#: Row keys every chart must have, in the shipped order (other code relies on them).
STANDARD_ROWS: tuple[str, ...] = (
    "clear", "road", "gully", "bridge", "trees", "woods", "marsh",
    "building_single", "building_multi", "hill_1", "hill_2",
)

#: Note letters of the printed chart.
NOTE_LETTERS: tuple[str, ...] = ("a", "b", "c", "d", "e", "f")

UnitKind = Literal["infantry", "cw", "afv"]


class TerrainChartError(DocumentError):
    """A terrain chart file is missing, malformed or inconsistent.

    A :class:`ValueError` (via :class:`maps.document_file.DocumentError`); ``str(err)`` is one
    line per problem, ``FILE: $.json.path: problem``; ``err.file`` and ``err.problems`` hold
    the parts.
    """


#: Largest magnitude of a number on the chart (MP, dice, AP factors, modifiers): the printed chart's
#: numbers are -3 to 10; 99 leaves a designer room and keeps sums and dice counts sane.
CHART_LIMIT = 99
#: Largest magnitude of the factor of T (tree symbols) in a tree expression ("2T+2": 2).
TREE_FACTOR_LIMIT = 9


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# --------------------------------------------------------------------------- value types

_TERM = re.compile(r"\s*([+-]?)\s*(\d+(?:\.\d+)?(?:/\d+)?)?\s*(T?)\s*")


def _parse_tree_expression(text: str) -> tuple[Fraction, int]:
    """Parse ``"T+1"``, ``"2T+2"``, ``"-T"``, ``"1/2"``, ``"3"`` into ``(base, per_tree)``."""
    s = text.strip()
    if not s:
        raise ValueError("empty expression")
    pos, base, per_tree, terms = 0, Fraction(0), 0, 0
    while pos < len(s):
        m = _TERM.match(s, pos)
        if m is None or m.end() == pos or not (m.group(2) or m.group(3)):
            raise ValueError(f"cannot read {text!r}: expected a number, 'T' (number of trees) or e.g. 'T+1', '2T+2'")
        if terms and not m.group(1):
            raise ValueError(f"cannot read {text!r}: terms must be joined by + or -")
        sign = -1 if m.group(1) == "-" else 1
        coef = Fraction(m.group(2)) if m.group(2) else Fraction(1)
        if m.group(3):
            if coef.denominator != 1:
                raise ValueError(f"cannot read {text!r}: the factor of T must be a whole number")
            per_tree += sign * int(coef)
        else:
            base += sign * coef
        pos, terms = m.end(), terms + 1
    return base, per_tree


def _number_json(x: Fraction) -> int | float:
    return int(x) if x.denominator == 1 else float(x)


class TreeFormula(BaseModel):
    """A value that may depend on the number of tree symbols ``T``: ``base + per_tree * T``.

    Written in JSON as a number (``2``, ``0.5``), a fraction (``"1/2"``) or a tree expression
    as on the chart (``"T"``, ``"T+1"``, ``"2T+2"``, ``"-T"``). Serialises back to a number when
    ``per_tree == 0``, else to the expression.
    """

    model_config = ConfigDict(frozen=True)

    #: A word a subclass also accepts, stored as a boolean field of the same meaning.
    _token: ClassVar[tuple[str, str] | None] = None

    base: Fraction = Fraction(0)
    per_tree: int = 0

    @model_validator(mode="before")
    @classmethod
    def _read(cls, data: Any) -> Any:
        if cls._token is not None and isinstance(data, str) and data.strip() == cls._token[0]:
            return {cls._token[1]: True}
        if isinstance(data, bool):
            raise ValueError("expected a number or a tree expression, got a boolean")
        if isinstance(data, int):
            return {"base": Fraction(data), "per_tree": 0}
        if isinstance(data, float):
            return {"base": Fraction(data).limit_denominator(1000), "per_tree": 0}
        if isinstance(data, str):
            if data.strip() in ("P", "other"):
                raise ValueError(f"{data!r} is not allowed here; expected a number or a tree expression")
            base, per_tree = _parse_tree_expression(data)
            return {"base": base, "per_tree": per_tree}
        return data

    @model_serializer(mode="plain")
    def _write(self) -> int | float | str:
        if self._token is not None and getattr(self, self._token[1]):
            return self._token[0]
        if self.per_tree == 0:
            return _number_json(self.base)
        k = self.per_tree
        t = "T" if k == 1 else "-T" if k == -1 else f"{k}T"
        if self.base == 0:
            return t
        b = self.base
        b_text = str(_number_json(abs(b)))
        return f"{t}{'+' if b > 0 else '-'}{b_text}"

    @property
    def uses_trees(self) -> bool:
        """True when the value depends on the number of trees."""
        return self.per_tree != 0

    def at(self, trees: int = 0) -> float:
        """The value for a hex with ``trees`` tree symbols."""
        return float(self.base + self.per_tree * trees)

    def __str__(self) -> str:  # printed-chart form, e.g. "T+1" or "2"
        return str(self._write())


class MoveCost(TreeFormula):
    """A move cost: MP as a :class:`TreeFormula`, or ``"P"`` (``prohibited``; chart legend P)."""

    _token: ClassVar[tuple[str, str] | None] = ("P", "prohibited")
    prohibited: bool = False


class ObservationBase(TreeFormula):
    """An Observation Base number (23.2), or ``"other"`` (note d: the other terrain's base)."""

    _token: ClassVar[tuple[str, str] | None] = ("other", "other")
    other: bool = False


class FirepowerModifier(_Strict):
    """An AP firepower modifier (chart column "AP Firepower Modifier", rule 11.16).

    ``constant + per_tree * T`` AP factors, applied ``when`` the condition holds:
    ``"always"`` or ``"target_higher_than_firer"`` (11.16 c). Negative numbers reduce.
    """

    constant: int = Field(default=0, ge=-CHART_LIMIT, le=CHART_LIMIT, strict=True)
    per_tree: int = Field(default=0, ge=-TREE_FACTOR_LIMIT, le=TREE_FACTOR_LIMIT, strict=True)
    when: Literal["always", "target_higher_than_firer"] = "always"

    @model_serializer(mode="wrap")
    def _compact(self, handler: Any) -> Any:
        out = handler(self)
        defaults = {"constant": 0, "per_tree": 0, "when": "always"}
        return {k: v for k, v in out.items() if defaults.get(k, object()) != v} or {"constant": 0}

    def at(self, trees: int = 0, *, target_higher: bool = False) -> int:
        """The modifier for a target hex with ``trees`` tree symbols."""
        if self.when == "target_higher_than_firer" and not target_higher:
            return 0
        return self.constant + self.per_tree * trees


class Immobilisation(_Strict):
    """AFV immobilisation on entry (8.54, 8.55): roll ``dice``; at or below the threshold the AFV
    is immobilised for the rest of the game."""

    dice: int = Field(default=2, ge=1, le=9, strict=True)
    immobilised_at_or_below: TreeFormula


T = TypeVar("T")


class _Sourced(_Strict):
    """Provenance fields carried inline by every chart value (see :class:`maps.provenance.Provenance`)."""

    source: Literal["rulebook", "reconstructed", "designer"]
    ref: str | None = None
    rationale: str | None = None

    @model_validator(mode="after")
    def _needs_reason(self) -> Any:
        if self.source == "rulebook" and not (self.ref and self.ref.strip()):
            raise ValueError("a 'rulebook' value needs 'ref' (the rule or chart it comes from)")
        if self.source == "reconstructed" and not (self.rationale and self.rationale.strip()):
            raise ValueError("a 'reconstructed' value needs a one-line 'rationale'")
        return self

    @model_serializer(mode="wrap")
    def _drop_empty_reasons(self, handler: Any) -> Any:
        out = handler(self)
        if isinstance(out, dict):
            for k in ("ref", "rationale"):
                if out.get(k) is None:
                    out.pop(k, None)
        return out

    @property
    def provenance(self) -> Provenance:
        """The provenance as a :class:`maps.provenance.Provenance`."""
        return Provenance(source=self.source, ref=self.ref, rationale=self.rationale)

    @property
    def reconstructed(self) -> bool:
        """True when the value is a reconstruction (the editor marks these)."""
        return self.source == "reconstructed"


class Cell(_Sourced, Generic[T]):
    """One chart value with its provenance: ``{"value": V, "source": ..., "ref"/"rationale": ...}``."""

    value: T


class Note(_Sourced):
    """A printed note or legend entry: ``{"text": ..., "source": "rulebook", "ref": ...}``."""

    text: str = Field(min_length=1)


class Modifier(_Sourced):
    """A dice modifier row of the chart (e.g. "Target unit in DOWN state: +1 die").

    ``dice`` extra AP dice, counted once or ``per`` IP point (18.3).
    """

    key: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    condition: str = Field(min_length=1)
    effect: str = Field(min_length=1)
    dice: int = Field(ge=-9, le=9, strict=True)
    per: Literal["ip_point"] | None = None




class MoveCosts(_Strict):
    """The four move-cost columns, MP to enter the hex ("P" prohibited). CW use the infantry columns."""

    infantry_up: Cell[MoveCost]
    infantry_down: Cell[MoveCost]
    afv_up: Cell[MoveCost]
    afv_down: Cell[MoveCost]


class RuleEffects(_Strict):
    """Effects of the row's terrain stated in rules outside the chart (all provenance-carrying).

    * ``infiltration_modifier``: Infiltration Resolution Table (24.3) die roll modifier.
    * ``overrun_infantry_fire_bonus``: added to the men total of defensive infantry fire (9.2 B).
    * ``overrun_attack_bonus``: added to each AFV-attack roll against a defender (9.2 C).
    * ``afv_immobilisation``: roll on entry (8.54 Woods, 8.55 Marsh), or null.
    * ``uphill_extra_mp``: extra MP to enter this row's hex from one level lower (8.53, notes e, f).
    * ``mines_allowed``: mines may be deployed here (19.14).
    * ``mortar_fire_allowed``: a mortar may fire from here (14.0).
    * ``grenade_target_line``: line of the Grenade Combat Table (15.4, 15.6).
    * ``afv_mg_full_ap_unobserved``: AFVs and MGs fire full AP factors without observing (23.34).
    """

    infiltration_modifier: Cell[TreeFormula]
    overrun_infantry_fire_bonus: Cell[TreeFormula]
    overrun_attack_bonus: Cell[TreeFormula]
    afv_immobilisation: Cell[Immobilisation | None]
    uphill_extra_mp: Cell[int]
    mines_allowed: Cell[bool]
    mortar_fire_allowed: Cell[bool]
    grenade_target_line: Cell[Literal["building", "non_building"]]
    afv_mg_full_ap_unobserved: Cell[bool]


class TreeRange(_Strict):
    """Numbers of tree symbols a tree row covers (inclusive; ``max`` null = no limit)."""

    min: int = Field(ge=1, le=9, strict=True)
    max: int | None = Field(default=None, ge=1, le=9, strict=True)


class TerrainRow(_Strict):
    """One terrain row of the chart.

    ``level`` is the printed "Type (Level)" number; ``level_meaning`` says whether it is the
    hex's ground level (hills) or an obstacle height above the hex's ground (everything else).
    ``tree_range`` is set on the tree rows only; tree expressions (``T``) are allowed only there.
    """

    key: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: Cell[str]
    level: Cell[int | float]
    level_meaning: Literal["ground", "above_ground"]
    tree_range: TreeRange | None = None
    notes: Cell[list[str]]
    move: MoveCosts
    ap_dice: Cell[TreeFormula]
    ap_firepower_modifier: Cell[FirepowerModifier | None]
    observation_base: Cell[ObservationBase]
    rules: RuleEffects

    def cells(self, prefix: str = "") -> Iterator[tuple[str, _Sourced]]:
        """Every provenance-carrying value of the row as ``(json_path_suffix, cell)``."""
        for name in ("name", "level", "notes", "ap_dice", "ap_firepower_modifier", "observation_base"):
            yield f"{prefix}.{name}", getattr(self, name)
        for name in MoveCosts.model_fields:
            yield f"{prefix}.move.{name}", getattr(self.move, name)
        for name in RuleEffects.model_fields:
            yield f"{prefix}.rules.{name}", getattr(self.rules, name)

    def trees_for(self, trees: int) -> int:
        """Check ``trees`` against the row and return the count to use.

        For a tree row, ``0`` means "the row's minimum" (1 for ``trees``, 2 for ``woods``);
        a count outside :attr:`tree_range` raises :class:`ValueError`. Other rows ignore trees
        (their values never depend on T) and return 0.
        """
        if trees < 0:
            raise ValueError(f"trees must be >= 0, got {trees}")
        if self.tree_range is None:
            return 0
        if trees == 0:
            return self.tree_range.min
        lo, hi = self.tree_range.min, self.tree_range.max
        if trees < lo or (hi is not None and trees > hi):
            span = f"{lo}" if hi == lo else f"{lo}-{hi}" if hi is not None else f"{lo} or more"
            raise ValueError(f"row {self.key!r} covers hexes with {span} tree symbols, not {trees} (8.54)")
        return trees


# --------------------------------------------------------------------------- the chart


class TerrainChart(_Strict):
    """The whole Movement and Combat Effects Chart (format ``ironcross-terrain-chart``, version 1).

    ``rows`` keep the file's order; :meth:`row` looks one up by key. All numbers are MP, dice,
    AP factors or levels as printed on the chart.
    """

    format: Literal["ironcross-terrain-chart"] = TERRAIN_CHART_FORMAT
    version: int = TERRAIN_CHART_VERSION
    title: str = "Movement and Combat Effects"
    description: str = ""
    legend: dict[str, Note]
    notes: dict[str, Note]
    modifiers: list[Modifier]
    rows: list[TerrainRow] = Field(min_length=1)

    _by_key: dict[str, TerrainRow] = PrivateAttr(default_factory=dict)

    def model_post_init(self, __context: Any) -> None:
        self._by_key = {r.key: r for r in self.rows}

    # -- lookup

    def row(self, key: str) -> TerrainRow:
        """The row with ``key`` (e.g. ``"woods"``); raises :class:`KeyError` naming the known keys."""
        try:
            return self._by_key[key]
        except KeyError:
            raise KeyError(f"no terrain row {key!r}; rows: {', '.join(self._by_key)}") from None

    @property
    def keys(self) -> list[str]:
        """Row keys in chart order."""
        return [r.key for r in self.rows]

    def modifier(self, key: str) -> Modifier:
        """The dice modifier row with ``key`` (``target_down``, ``firer_moved``, ``afv_cover``,
        ``improved_position``); raises :class:`KeyError`."""
        for m in self.modifiers:
            if m.key == key:
                return m
        raise KeyError(f"no modifier {key!r}; modifiers: {', '.join(m.key for m in self.modifiers)}")

    def cells(self) -> Iterator[tuple[str, _Sourced]]:
        """Every provenance-carrying value in the chart as ``(json_path, item)``."""
        for k, n in self.legend.items():
            yield f"$.legend.{k}", n
        for k, n in self.notes.items():
            yield f"$.notes.{k}", n
        for i, m in enumerate(self.modifiers):
            yield f"$.modifiers[{i}]", m
        for i, r in enumerate(self.rows):
            yield from r.cells(f"$.rows[{i}]")

    # -- levels (10.32)

    def obstacle_height(self, row_key: str) -> float:
        """The printed level number of the row ("Type (Level)" column, 10.32 a).

        For hill rows (``level_meaning == "ground"``) this is the hex's ground level (1 or 2);
        for every other row it is the obstacle's height above its hex's ground level (same as
        :meth:`obstacle_height_above_ground`).
        """
        return float(self.row(row_key).level.value)

    def obstacle_height_above_ground(self, row_key: str) -> float:
        """How many levels the row's terrain stands above the ground level of its hex.

        0.5 for buildings and Woods, 0 for Clear, Road, Bridge, Gully, Marsh, a single tree and
        for hill rows (a hill *is* the ground). Never negative: the Gully row prints level 0.
        """
        r = self.row(row_key)
        return 0.0 if r.level_meaning == "ground" else float(r.level.value)

    def absolute_obstacle_height(self, row_key: str, ground_level: float) -> float:
        """Absolute level of the row's obstacle in a hex whose ground is at ``ground_level``
        (10.34: the lower of two elevations): hill rows give their own level, other rows give
        ``ground_level + obstacle_height_above_ground``."""
        r = self.row(row_key)
        if r.level_meaning == "ground":
            return float(r.level.value)
        return float(ground_level) + float(r.level.value)

    # -- movement (8.5)

    def move_cost(self, row_key: str, unit_kind: UnitKind, down: bool, trees: int = 0) -> float | None:
        """MP to enter a hex of the row: ``unit_kind`` ``"infantry"`` (also used for ``"cw"``) or
        ``"afv"``; ``down`` the unit's DOWN state (8.16, 8.51). Returns ``None`` if prohibited
        ("P"). Tree expressions use ``trees`` (see :meth:`TerrainRow.trees_for`).

        Does not include the uphill MP (:meth:`uphill_mp`, 8.53), the overrun MP (9.0) or the road
        rate's condition (8.52: the 1/2 MP applies only road hex to road hex along the road, to
        NORMAL units in the UP state) -- those depend on the move, not on the hex.
        """
        if unit_kind not in ("infantry", "cw", "afv"):
            raise ValueError(f"unit_kind must be 'infantry', 'cw' or 'afv', got {unit_kind!r}")
        r = self.row(row_key)
        t = r.trees_for(trees)
        column = ("afv" if unit_kind == "afv" else "infantry") + ("_down" if down else "_up")
        v = getattr(r.move, column).value
        if v.prohibited:
            return None
        return v.at(t)

    def uphill_mp(self, from_level: int, to_level: int) -> int:
        """Extra MP for moving from a hex at ``from_level`` into one at ``to_level`` (8.53, notes
        e and f): the entered hill row's ``uphill_extra_mp`` when moving up, else 0. Levels are the
        hexes' counted levels (10.34)."""
        if to_level <= from_level or to_level <= 0:
            return 0
        key = f"hill_{to_level}"
        if key not in self._by_key:
            raise ValueError(f"no hill row for level {to_level}")
        return int(self.row(key).rules.uphill_extra_mp.value)

    # -- AP fire (11.1, 11.3)

    def ap_dice(self, row_key: str, trees: int = 0) -> int:
        """Base number of AP combat dice for a target in a hex of the row (11.31), before the
        modifier rows (:meth:`ap_dice_total`)."""
        r = self.row(row_key)
        return int(r.ap_dice.value.at(r.trees_for(trees)))

    def ap_dice_total(
        self,
        row_key: str,
        trees: int = 0,
        *,
        target_down: bool = False,
        firer_moved: bool = False,
        afv_cover: bool = False,
        ip_points: int = 0,
    ) -> int:
        """AP dice against one infantry/CW target (11.31-11.33, 18.3): the row's base dice plus
        the chart's modifier rows. Example 11.32: ``ap_dice_total("marsh", target_down=True,
        firer_moved=True) == 4``. (AP fire against AFVs is 11.34, not terrain based.)"""
        if ip_points < 0:
            raise ValueError(f"ip_points must be >= 0, got {ip_points}")
        n = self.ap_dice(row_key, trees)
        flags = {"target_down": target_down, "firer_moved": firer_moved, "afv_cover": afv_cover}
        for key, on in flags.items():
            if on:
                n += self.modifier(key).dice
        if ip_points:
            m = self.modifier("improved_position")
            n += m.dice * (ip_points if m.per == "ip_point" else 1)
        return n

    def ap_firepower_modifier(self, row_key: str, trees: int = 0, *, target_higher: bool = False) -> int:
        """AP firepower modifier of the target hex's row (11.16 a, c): 0 when printed "None"."""
        r = self.row(row_key)
        mod = r.ap_firepower_modifier.value
        if mod is None:
            return 0
        return mod.at(r.trees_for(trees), target_higher=target_higher)

    # -- observation (23.2)

    def observation_base(self, row_key: str, trees: int = 0, *, other: str = "clear") -> int:
        """Observation Base number of a target hex of the row (23.2).

        Rows marked ``"other"`` (note d: single tree, hills) use the base of ``other``, the hex's
        other terrain row (default Clear). The per-tree +1 roll modifiers (23.2 c, d; note b)
        are roll modifiers, not part of the base.
        """
        r = self.row(row_key)
        v = r.observation_base.value
        if v.other:
            o = self.row(other)
            if o.observation_base.value.other:
                raise ValueError(f"row {other!r} cannot be the other terrain of {row_key!r}: it also uses note d")
            return self.observation_base(other, trees if o.tree_range else 0)
        return int(v.at(r.trees_for(trees)))


# --------------------------------------------------------------------------- checks and I/O


def _chart_problems(chart: TerrainChart) -> list[Problem]:
    """Whole-chart checks that a field validator cannot make."""
    out: list[Problem] = []
    seen: dict[str, int] = {}
    for i, r in enumerate(chart.rows):
        if r.key in seen:
            out.append(Problem(f"$.rows[{i}].key", f"row key {r.key!r} repeats $.rows[{seen[r.key]}]"))
        seen.setdefault(r.key, i)
    for key in STANDARD_ROWS:
        if key not in seen:
            out.append(Problem("$.rows", f"missing the standard row {key!r}"))
    for letter in NOTE_LETTERS:
        if letter not in chart.notes:
            out.append(Problem("$.notes", f"missing note {letter!r}"))
    for letter in ("P", "T"):
        if letter not in chart.legend:
            out.append(Problem("$.legend", f"missing legend entry {letter!r}"))
    for key in ("target_down", "firer_moved", "afv_cover", "improved_position"):
        if not any(m.key == key for m in chart.modifiers):
            out.append(Problem("$.modifiers", f"missing modifier {key!r}"))
    for i, r in enumerate(chart.rows):
        p = f"$.rows[{i}]"
        for letter in r.notes.value:
            if letter not in chart.notes:
                out.append(Problem(f"{p}.notes.value", f"unknown note {letter!r}"))
        if isinstance(r.level.value, bool) or not 0 <= r.level.value <= 9:
            out.append(Problem(f"{p}.level.value", f"a level is a number from 0 to 9, not {r.level.value!r}"))
        if isinstance(r.rules.uphill_extra_mp.value, bool) or not 0 <= r.rules.uphill_extra_mp.value <= CHART_LIMIT:
            out.append(Problem(f"{p}.rules.uphill_extra_mp.value", f"extra MP is a whole number from 0 to {CHART_LIMIT}"))
        if r.level_meaning == "ground" and float(r.level.value) != int(r.level.value):
            out.append(Problem(f"{p}.level.value", "a hill (ground) level must be a whole number"))
        if r.observation_base.value.other and "d" not in r.notes.value:
            out.append(Problem(f"{p}.observation_base.value", "'other' needs note d in the row's notes"))
        if r.tree_range is not None and r.tree_range.max is not None and r.tree_range.max < r.tree_range.min:
            out.append(Problem(f"{p}.tree_range", "max is smaller than min"))
        formulas: list[tuple[str, Any]] = [(f"{p}.move.{c}.value", getattr(r.move, c).value) for c in MoveCosts.model_fields]
        formulas += [(f"{p}.ap_dice.value", r.ap_dice.value), (f"{p}.observation_base.value", r.observation_base.value)]
        formulas += [(f"{p}.rules.{c}.value", getattr(r.rules, c).value) for c in
                     ("infiltration_modifier", "overrun_infantry_fire_bonus", "overrun_attack_bonus")]
        mod = r.ap_firepower_modifier.value
        imm = r.rules.afv_immobilisation.value
        if imm is not None:
            formulas.append((f"{p}.rules.afv_immobilisation.value.immobilised_at_or_below", imm.immobilised_at_or_below))
        for path, f in formulas:
            if isinstance(f, TreeFormula) and not (-CHART_LIMIT <= f.base <= CHART_LIMIT
                                                   and -TREE_FACTOR_LIMIT <= f.per_tree <= TREE_FACTOR_LIMIT):
                out.append(Problem(path, f"{f} is out of range: a chart number is {-CHART_LIMIT} to {CHART_LIMIT}, "
                                         f"the factor of T {-TREE_FACTOR_LIMIT} to {TREE_FACTOR_LIMIT}"))
                continue
            if isinstance(f, TreeFormula) and f.uses_trees and r.tree_range is None:
                out.append(Problem(path, f"{f} uses T (number of trees) but the row has no tree_range"))
        if mod is not None and mod.per_tree and r.tree_range is None:
            out.append(Problem(f"{p}.ap_firepower_modifier.value", "per_tree needs a row with a tree_range"))
        t = r.tree_range.min if r.tree_range else 0
        for c in MoveCosts.model_fields:
            f = getattr(r.move, c).value
            if not f.prohibited and f.at(t) < 0:
                out.append(Problem(f"{p}.move.{c}.value", "a move cost cannot be negative"))
        if r.ap_dice.value.at(t) < 1 or r.ap_dice.value.base.denominator != 1:
            out.append(Problem(f"{p}.ap_dice.value", "AP dice must be a whole number, at least 1"))
    return out


def shipped_chart_path() -> Path:
    """Path of the shipped chart, ``maps/data/terrain_chart.json``."""
    try:
        p = Path(str(resources.files("maps").joinpath("data", "terrain_chart.json")))
        if p.is_file():
            return p
    except (ModuleNotFoundError, TypeError):  # pragma: no cover - unusual installs
        pass
    return Path(__file__).parent / "data" / "terrain_chart.json"


def load_terrain_chart(path: str | os.PathLike[str] | None = None) -> TerrainChart:
    """Load and validate a terrain chart file (``None``: the shipped chart).

    Raises :class:`TerrainChartError` for a missing, unreadable, malformed or inconsistent file;
    its message names the file, the JSON path and each problem (no traceback for users).
    """
    p = shipped_chart_path() if path is None else Path(path)
    try:
        return load_document(p, TerrainChart, format_name=TERRAIN_CHART_FORMAT,
                             version=TERRAIN_CHART_VERSION, checks=_chart_problems)
    except TerrainChartError:
        raise
    except DocumentError as e:
        raise TerrainChartError(e.file, e.problems) from None


def save_terrain_chart(chart: TerrainChart, path: str | os.PathLike[str]) -> None:
    """Write ``chart`` as indented JSON, atomically (a temporary file, then rename)."""
    data = chart.model_dump(mode="json")
    atomic_write_text(path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")


def hex_row_keys(
    *,
    terrain: str = "clear",
    trees: int = 0,
    level: int = 0,
    road: bool = False,
    gully: bool = False,
    building: Literal["single", "multi"] | None = None,
) -> list[str]:
    """The chart rows that apply to a hex, the governing row first.

    Governing order (a reconstruction, see ``docs/terrain-chart.md``): building, bridge (road on a
    gully, note a), road, woods (2+ trees, 8.54), gully, marsh, trees (1 tree), clear. The hill
    row of ``level`` (1 or 2) is appended when ``level > 0``; per-tree effects still use the
    hex's tree count whatever row governs. Road costs apply only along the road (8.52); a mover
    that enters a road hex other than along the road uses the next row of the list.
    """
    keys: list[str] = []
    if building is not None:
        keys.append("building_multi" if building == "multi" else "building_single")
    if road and gully:
        keys.append("bridge")
    if road:
        keys.append("road")
    if trees >= 2:
        keys.append("woods")
    if gully:
        keys.append("gully")
    if terrain == "marsh":
        keys.append("marsh")
    if trees == 1:
        keys.append("trees")
    if terrain != "marsh":
        keys.append("clear")
    if level > 0:
        keys.append(f"hill_{level}")
    return keys
