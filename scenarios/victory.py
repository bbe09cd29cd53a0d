"""Victory conditions as data, and their evaluation at the end of a game.

A scenario's :class:`Victory` holds the printed text, ordered **outcomes** (each a result --
``german``, ``russian`` or ``draw`` -- and a condition; the first outcome whose condition holds
decides) and a **default** result ("Any other result is a draw"). A scenario decided by victory
points (Scenario 6) has ``points``: awards summed for one side and a result schedule.

Conditions compose (``kind`` discriminator): ``at_least`` N units of a side in a region (with a
unit filter), ``none_in`` (no unit of a side in a region), ``sole_occupant`` (of a region, or of
at least N buildings of a region), ``controls`` (every hex of a region, control = last to occupy,
tracked during play), ``all_of``, ``any_of``, ``not``.

Evaluation works on a simple **placement**: ``{hex: [UnitRef(side, id, kind, squad), ...]}``
(tuples ``(side, id, kind)`` or ``(side, id, kind, squad)`` are accepted) plus a **control** map
``{hex: side}`` kept by the game; hexes occupied by one side at the end count as controlled by it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, Iterable, Literal, Mapping, NamedTuple, Sequence, Union

from pydantic import BaseModel, ConfigDict, Field, model_validator

from maps import hexgrid
from maps.hexgrid import Hex
from maps.hexmap import HexMap
from scenarios.regions import NorthIndicator, Region, RegionContext

__all__ = [
    "SIDES",
    "UnitRef",
    "UnitFilter",
    "AtLeast",
    "NoneIn",
    "SoleOccupant",
    "Controls",
    "AllOf",
    "AnyOf",
    "Not",
    "Condition",
    "PerHex",
    "PerBuilding",
    "Award",
    "PointsBand",
    "VictoryPoints",
    "Outcome",
    "Victory",
    "VictoryResult",
    "update_control",
    "condition_holds",
    "score",
    "max_points",
    "evaluate",
    "iter_condition_regions",
]

Side = Literal["german", "russian"]
Result = Literal["german", "russian", "draw"]
UnitKind = Literal["infantry", "commander", "crew_weapon", "afv"]
SIDES: tuple[str, str] = ("german", "russian")


class UnitRef(NamedTuple):
    """A unit on the map: side, unit id, kind (infantry/commander/crew_weapon/afv) and, for squad
    members, the squad letter."""

    side: str
    id: str
    kind: str
    squad: str | None = None


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class UnitFilter(_Strict):
    """Which units count. ``kinds``: only these kinds (None = all). ``grouping``:
    ``any`` counts every matching unit; ``same_squad_or_commanders`` counts commanders plus the
    units of the single best-represented squad (Scenario 4: "any commander unit(s) or
    non-commander units from the same squad")."""

    kinds: list[UnitKind] | None = None
    grouping: Literal["any", "same_squad_or_commanders"] = "any"

    def count(self, units: Iterable[UnitRef]) -> int:
        us = [u for u in units if self.kinds is None or u.kind in self.kinds]
        if self.grouping == "any":
            return len(us)
        commanders = sum(1 for u in us if u.kind == "commander")
        per_squad: dict[str, int] = {}
        for u in us:
            if u.kind != "commander" and u.squad:
                per_squad[u.squad] = per_squad.get(u.squad, 0) + 1
        return commanders + max(per_squad.values(), default=0)

    def describe(self) -> str:
        kinds = "/".join(self.kinds) if self.kinds else "units"
        if self.grouping == "same_squad_or_commanders":
            return f"{kinds} (commanders or units of one squad)"
        return kinds


class AtLeast(_Strict):
    kind: Literal["at_least"] = "at_least"
    side: Side
    count: int = Field(default=1, ge=1, le=99)
    region: Region
    units: UnitFilter = UnitFilter()

    def describe(self) -> str:
        return f"at least {self.count} {self.side} {self.units.describe()} in {self.region.describe()}"


class NoneIn(_Strict):
    kind: Literal["none_in"] = "none_in"
    side: Side
    region: Region

    def describe(self) -> str:
        return f"no {self.side} units in {self.region.describe()}"


class SoleOccupant(_Strict):
    """``scope == "region"``: the side has units in the region and the other side none.
    ``scope == "each_building"``: the side is sole occupant of at least ``min_buildings`` of the
    buildings with a hex in the region (each judged on all of its hexes)."""

    kind: Literal["sole_occupant"] = "sole_occupant"
    side: Side
    region: Region
    scope: Literal["region", "each_building"] = "region"
    min_buildings: int = Field(default=1, ge=1, le=99)

    def describe(self) -> str:
        if self.scope == "each_building":
            return (f"{self.side} sole occupant of at least {self.min_buildings} building(s) of "
                    f"{self.region.describe()}")
        return f"{self.side} sole occupant of {self.region.describe()}"


class Controls(_Strict):
    """The side controls (was last to occupy) every hex of the region."""

    kind: Literal["controls"] = "controls"
    side: Side
    region: Region

    def describe(self) -> str:
        return f"{self.side} controls every hex of {self.region.describe()}"


class AllOf(_Strict):
    kind: Literal["all_of"] = "all_of"
    of: list["Condition"] = Field(min_length=1)

    def describe(self) -> str:
        return " and ".join(f"({c.describe()})" for c in self.of)


class AnyOf(_Strict):
    kind: Literal["any_of"] = "any_of"
    of: list["Condition"] = Field(min_length=1)

    def describe(self) -> str:
        return " or ".join(f"({c.describe()})" for c in self.of)


class Not(_Strict):
    kind: Literal["not"] = "not"
    of: "Condition"

    def describe(self) -> str:
        return f"not ({self.of.describe()})"


Condition = Annotated[Union[AtLeast, NoneIn, SoleOccupant, Controls, AllOf, AnyOf, Not], Field(discriminator="kind")]
for _c in (AllOf, AnyOf, Not):
    _c.model_rebuild()


class PerHex(_Strict):
    """``points`` for each hex of ``region`` the side controls."""

    kind: Literal["per_hex"] = "per_hex"
    region: Region
    points: int = Field(default=1, ge=0, le=999)


class PerBuilding(_Strict):
    """``points`` for each building lying wholly inside ``region`` whose every hex the side controls."""

    kind: Literal["per_building"] = "per_building"
    region: Region
    points: int = Field(default=1, ge=0, le=999)


Award = Annotated[Union[PerHex, PerBuilding], Field(discriminator="kind")]


class PointsBand(_Strict):
    min: int = Field(ge=-9999, le=9999)
    max: int = Field(ge=-9999, le=9999)
    result: Result

    @model_validator(mode="after")
    def _order(self) -> "PointsBand":
        if self.min > self.max:
            raise ValueError(f"band {self.min}-{self.max}: min is above max")
        return self


class VictoryPoints(_Strict):
    """Victory points for ``side`` (awards summed) and the result schedule."""

    side: Side
    awards: list[Award] = Field(min_length=1)
    schedule: list[PointsBand] = Field(min_length=1)

    @model_validator(mode="after")
    def _bands(self) -> "VictoryPoints":
        bands = sorted(self.schedule, key=lambda b: b.min)
        for a, b in zip(bands, bands[1:]):
            if b.min <= a.max:
                raise ValueError(f"schedule bands {a.min}-{a.max} and {b.min}-{b.max} overlap")
        return self

    def result_for(self, points: int) -> Result | None:
        for b in self.schedule:
            if b.min <= points <= b.max:
                return b.result
        return None


class Outcome(_Strict):
    result: Result
    condition: Condition
    text: str | None = None


class Victory(_Strict):
    """The printed ``text``; ordered ``outcomes`` (first that holds decides) or ``points``;
    ``default`` when nothing holds ("Any other result is a draw")."""

    text: str = ""
    outcomes: list[Outcome] = Field(default_factory=list)
    points: VictoryPoints | None = None
    default: Result = "draw"

    @model_validator(mode="after")
    def _something(self) -> "Victory":
        if not self.outcomes and self.points is None:
            raise ValueError("victory needs 'outcomes' or 'points'")
        return self


# --------------------------------------------------------------------------- evaluation

def _norm_placement(placement: Mapping[Any, Sequence[Any]]) -> dict[Hex, list[UnitRef]]:
    out: dict[Hex, list[UnitRef]] = {}
    for k, units in placement.items():
        h = k if isinstance(k, Hex) else hexgrid.parse_hex_id(k)
        out.setdefault(h, []).extend(u if isinstance(u, UnitRef) else UnitRef(*u) for u in units)
    return out


def _norm_control(control: Mapping[Any, str] | None) -> dict[Hex, str]:
    return {(k if isinstance(k, Hex) else hexgrid.parse_hex_id(k)): v for k, v in (control or {}).items()}


def update_control(control: Mapping[Any, str] | None, placement: Mapping[Any, Sequence[Any]]) -> dict[Hex, str]:
    """Control after a move: a hex occupied by units of one side only is controlled by that side
    (it is the last to occupy it); other hexes keep their control."""
    out = _norm_control(control)
    for h, units in _norm_placement(placement).items():
        sides = {u.side for u in units}
        if len(sides) == 1:
            out[h] = sides.pop()
    return out


@dataclass
class _Eval:
    ctx: RegionContext
    placement: dict[Hex, list[UnitRef]]
    control: dict[Hex, str]
    _regions: dict[int, frozenset[Hex]] = field(default_factory=dict)

    def region(self, r) -> frozenset[Hex]:
        key = id(r)
        if key not in self._regions:
            self._regions[key] = r.resolve(self.ctx)
        return self._regions[key]

    def units_in(self, hexes: Iterable[Hex], side: str | None = None) -> list[UnitRef]:
        return [u for h in hexes for u in self.placement.get(h, ()) if side is None or u.side == side]

    def buildings_in(self, hexes: frozenset[Hex], wholly: bool) -> list[frozenset[Hex]]:
        out = []
        for bid in sorted(self.ctx.hexmap.building_hexes):
            bh = self.ctx.hexmap.building_hexes[bid]
            if not bh:
                continue
            if (bh <= hexes) if wholly else (bh & hexes):
                out.append(bh)
        return out

    def holds(self, c) -> bool:
        if isinstance(c, AtLeast):
            return c.units.count(self.units_in(self.region(c.region), c.side)) >= c.count
        if isinstance(c, NoneIn):
            return not self.units_in(self.region(c.region), c.side)
        if isinstance(c, SoleOccupant):
            if c.scope == "region":
                return self._sole(self.region(c.region), c.side)
            n = sum(1 for b in self.buildings_in(self.region(c.region), wholly=False) if self._sole(b, c.side))
            return n >= c.min_buildings
        if isinstance(c, Controls):
            return all(self.control.get(h) == c.side for h in self.region(c.region))
        if isinstance(c, AllOf):
            return all(self.holds(x) for x in c.of)
        if isinstance(c, AnyOf):
            return any(self.holds(x) for x in c.of)
        if isinstance(c, Not):
            return not self.holds(c.of)
        raise TypeError(f"unknown condition {c!r}")  # pragma: no cover

    def _sole(self, hexes: Iterable[Hex], side: str) -> bool:
        units = self.units_in(hexes)
        return bool(units) and all(u.side == side for u in units)

    def score(self, vp: VictoryPoints) -> int:
        total = 0
        for a in vp.awards:
            hexes = self.region(a.region)
            if isinstance(a, PerHex):
                total += a.points * sum(1 for h in hexes if self.control.get(h) == vp.side)
            else:
                total += a.points * sum(1 for b in self.buildings_in(hexes, wholly=True)
                                        if all(self.control.get(h) == vp.side for h in b))
        return total


def _context(where: RegionContext | HexMap) -> RegionContext:
    if isinstance(where, RegionContext):
        return where
    return RegionContext(where, NorthIndicator(hex="1002", points_to="1001"))


def condition_holds(condition, placement: Mapping[Any, Sequence[Any]], ctx: RegionContext,
                    control: Mapping[Any, str] | None = None) -> bool:
    """Whether ``condition`` holds for ``placement`` (control updated from the placement)."""
    pl = _norm_placement(placement)
    return _Eval(ctx, pl, update_control(control, pl)).holds(condition)


def score(points: VictoryPoints, ctx: RegionContext, control: Mapping[Any, str] | None = None,
          placement: Mapping[Any, Sequence[Any]] | None = None) -> int:
    """The side's victory points for ``control`` (updated from ``placement`` when given)."""
    pl = _norm_placement(placement or {})
    return _Eval(ctx, pl, update_control(control, pl)).score(points)


def max_points(points: VictoryPoints | Victory, where: RegionContext | HexMap) -> int:
    """The most victory points the side can score: every award region fully controlled.

    ``where`` is a :class:`RegionContext` (or a :class:`HexMap`: then the whole map, north at the
    top of the sheet, which is enough for regions without compass words)."""
    vp = points.points if isinstance(points, Victory) else points
    if vp is None:
        raise ValueError("this victory has no victory points")
    ctx = _context(where)
    everything = {h: vp.side for h in ctx.area}
    return _Eval(ctx, {}, everything).score(vp)


@dataclass(frozen=True)
class VictoryResult:
    """The result; ``outcome`` is the index of the deciding outcome (None: default or points)."""

    result: str
    outcome: int | None = None
    points: int | None = None
    reason: str = ""


def evaluate(victory: Victory, placement: Mapping[Any, Sequence[Any]], ctx: RegionContext,
             control: Mapping[Any, str] | None = None) -> VictoryResult:
    """Decide the game: the first outcome whose condition holds, else the points schedule, else
    the default result."""
    pl = _norm_placement(placement)
    ev = _Eval(ctx, pl, update_control(control, pl))
    if victory.points is not None:
        pts = ev.score(victory.points)
        res = victory.points.result_for(pts)
        if res is not None:
            return VictoryResult(res, None, pts, f"{victory.points.side} victory points: {pts}")
    for i, o in enumerate(victory.outcomes):
        if ev.holds(o.condition):
            return VictoryResult(o.result, i, None, o.text or o.condition.describe())
    return VictoryResult(victory.default, None, None, "any other result")


def iter_condition_regions(victory: Victory) -> Iterable[tuple[tuple[Any, ...], Any]]:
    """Yield ``(loc, region)`` for every region in a victory definition (loc relative to it)."""

    def walk(c, loc):
        if isinstance(c, (AtLeast, NoneIn, SoleOccupant, Controls)):
            yield (*loc, "region"), c.region
        elif isinstance(c, (AllOf, AnyOf)):
            for i, x in enumerate(c.of):
                yield from walk(x, (*loc, "of", i))
        elif isinstance(c, Not):
            yield from walk(c.of, (*loc, "of"))

    for i, o in enumerate(victory.outcomes):
        yield from walk(o.condition, ("outcomes", i, "condition"))
    if victory.points is not None:
        for i, a in enumerate(victory.points.awards):
            yield ("points", "awards", i, "region"), a.region
