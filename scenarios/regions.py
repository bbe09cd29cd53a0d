"""The region language: composable, JSON-stored sets of hexes (set-up zones, entries, victory areas).

A region is a tree of nodes, each a JSON object with a ``kind`` (pydantic discriminated union).
It resolves to a ``frozenset`` of :class:`maps.hexgrid.Hex` on a given :class:`maps.hexmap.HexMap`
through a :class:`RegionContext`: the map, the scenario's **north indicator** and the scenario's
**playing area** (its map sections x all rows of the map). Every result lies inside the playing
area. Compass words (``north``, ``east``, ``south``, ``west``) always go through the north
indicator, never through the sheet (DESIGN.md, "Conventions of the domain").

Directions are counted in steps of 30 degrees clockwise from the top of the sheet (``k`` 0..11):
hexside ``s`` (1 = top ... 6 = upper left, see :mod:`maps.hexgrid`) points at ``k = 2 * (s - 1)``.
The north indicator (a hex and the adjacent hex it points to) gives north's ``k``; east is
north + 3 (90 degrees clockwise), south north + 6, west north + 9. With north at the top of the
sheet east is toward higher columns; with north at the bottom (Scenarios 1, 4, 6) east is toward
lower columns.

Node kinds (full reference with examples in ``docs/regions.md``):

``hexes``, ``hex_range``, ``area``, ``section``, ``map_edge``, ``feature``, ``feature_kind``,
``path``, ``side_of``, ``beyond``, ``adjacent_to``, ``within``, ``reachable``, ``named``,
``union``, ``intersection``, ``difference``.
"""

from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Annotated, Any, Literal, Mapping, Sequence, Union

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from maps import hexgrid
from maps.content_cache import ContentCache
from maps.hexgrid import Hex
from maps.hexmap import HexMap

__all__ = [
    "COMPASS",
    "FEATURE_KINDS",
    "RegionError",
    "NorthIndicator",
    "RegionContext",
    "Region",
    "HexesRegion",
    "HexRangeRegion",
    "AreaRegion",
    "SectionRegion",
    "MapEdgeRegion",
    "FeatureRegion",
    "FeatureKindRegion",
    "PathRegion",
    "SideOfRegion",
    "BeyondRegion",
    "AdjacentToRegion",
    "WithinRegion",
    "ReachableRegion",
    "NamedRegion",
    "UnionRegion",
    "IntersectionRegion",
    "DifferenceRegion",
    "resolve",
    "describe",
    "region_from_data",
    "iter_hex_refs",
]

#: Compass word -> offset from north in steps of 30 degrees clockwise.
COMPASS: dict[str, int] = {"north": 0, "east": 3, "south": 6, "west": 9}
Compass = Literal["north", "east", "south", "west"]

#: ``feature_kind`` names and what they select.
FEATURE_KINDS: dict[str, str] = {
    "building_hexes": "building hexes (any hex a building symbol occupies)",
    "multi_hex_buildings": "hexes of multi-hex buildings",
    "single_hex_buildings": "hexes of one-hex buildings",
    "tree_hexes": "tree hexes (two or more tree symbols; errata: one tree does not count)",
    "woods": "woods hexes (two or more tree symbols, 8.54)",
    "any_trees": "hexes with at least one tree symbol",
    "marsh": "marsh hexes",
    "road": "road hexes",
    "bridge": "bridge hexes (road hexes crossing a gully)",
    "gully": "gully hexes",
    "hill": "hill hexes (level 1 or higher)",
}
FeatureKind = Literal["building_hexes", "multi_hex_buildings", "single_hex_buildings", "tree_hexes",
                      "woods", "any_trees", "marsh", "road", "bridge", "gully", "hill"]

_FEATURE_LABELS = {
    "building_hexes": "building hexes", "multi_hex_buildings": "multi-hex building hexes",
    "single_hex_buildings": "one-hex building hexes", "tree_hexes": "tree hexes", "woods": "woods hexes",
    "any_trees": "hexes with trees", "marsh": "marsh hexes", "road": "road hexes", "bridge": "bridge hexes",
    "gully": "gully hexes", "hill": "hill hexes",
}

_SHEET_WORDS = {0: "the top of the sheet", 3: "the right of the sheet", 6: "the bottom of the sheet",
                9: "the left of the sheet"}


class RegionError(ValueError):
    """A region cannot be resolved on this map. ``loc`` is the path inside the region
    (e.g. ``("of", 1, "through", 0)``); ``message`` the problem; ``others`` further problems of
    the same region found in the same pass (every bad hex of a hex list, not only the first)."""

    def __init__(self, message: str, loc: Sequence[Any] = (), others: Sequence["RegionError"] = ()):
        self.message = message
        self.loc = tuple(loc)
        self.others = tuple(others)
        super().__init__(message)

    def at(self, *prefix: Any) -> "RegionError":
        return RegionError(self.message, (*prefix, *self.loc), tuple(o.at(*prefix) for o in self.others))

    def all(self) -> tuple["RegionError", ...]:
        """This problem and the others, in order."""
        return (RegionError(self.message, self.loc), *self.others)


def _check_hex_id(v: str) -> str:
    hexgrid.parse_hex_id(v)  # raises HexIdError (a ValueError) with a clear message
    return v


#: a hex id checked where it stands, so an error names its own place (``through[1]``, ``hexes[2]``)
HexIdText = Annotated[str, AfterValidator(_check_hex_id)]


class NorthIndicator(BaseModel):
    """The scenario's NORTH indicator: placed in ``hex`` pointing to the adjacent ``points_to``
    (24.1; "Place in hex 5001 pointing to hex 5002")."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    hex: str
    points_to: str

    @model_validator(mode="after")
    def _adjacent(self) -> "NorthIndicator":
        a, b = hexgrid.parse_hex_id(self.hex), hexgrid.parse_hex_id(self.points_to)
        if hexgrid.hexside_between(a, b) is None:
            raise ValueError(f"north indicator: hex {self.points_to} is not adjacent to hex {self.hex}")
        return self

    @property
    def hexside(self) -> int:
        """The sheet hexside (1 = top ... 6 = upper left) north points through."""
        return hexgrid.hexside_between(hexgrid.parse_hex_id(self.hex), hexgrid.parse_hex_id(self.points_to))  # type: ignore[return-value]

    @property
    def north_k(self) -> int:
        """North in 30-degree steps clockwise from the top of the sheet (always even)."""
        return 2 * (self.hexside - 1)

    def direction(self, word: str) -> int:
        """The sheet direction ``k`` (0..11) of a compass word."""
        try:
            return (self.north_k + COMPASS[word]) % 12
        except KeyError:
            raise RegionError(f"unknown compass direction {word!r}; expected one of {', '.join(COMPASS)}") from None

    def sheet_word(self, word: str) -> str:
        k = self.direction(word)
        return _SHEET_WORDS.get(k, f"{30 * k} degrees clockwise from the top of the sheet")


# --------------------------------------------------------------------------- geometry helpers

def _rotate_ccw(c: tuple[int, int, int]) -> tuple[int, int, int]:
    x, y, z = c
    return (-y, -z, -x)


def _line_coords(h: Hex, k: int) -> tuple[int, int]:
    """(cross, along) of hex ``h`` for sheet direction ``k``: hexes with equal ``cross`` lie on one
    line running in direction ``k``; ``along`` grows in direction ``k``.

    Hexside directions (k even): the straight line of hexes (exact, cube coordinates). Sheet
    left/right (k 3 or 9): the sheet row (a zig-zag line of hexes), along = +-column. Other
    directions have no line of hexes and raise :class:`RegionError`.
    """
    if k % 2 == 0:
        c = hexgrid.to_cube(h)
        for _ in range(k // 2):
            c = _rotate_ccw(c)
        x, y, z = c
        return x, y - z
    if k == 3:
        return h.row, h.col
    if k == 9:
        return h.row, -h.col
    raise RegionError(f"direction {30 * k} degrees from the top of the sheet runs along no line of hexes; "
                      "compass bounds need a north indicator pointing straight up or down a column "
                      "or across a hexside")


@lru_cache(maxsize=32)
def _edge_hexes(base: frozenset[Hex], sides: tuple[int, ...]) -> frozenset[Hex]:
    """The hexes of ``base`` whose neighbours across every hexside of ``sides`` lie outside it
    (a map edge of the playing area). Remembered for the last few areas: the editor resolves the
    same edges of the same sections again on every refresh and every opening of a scenario."""
    return frozenset(h for h in base if all(hexgrid.neighbour(h, s) not in base for s in sides))


def _edge_sides(k: int) -> tuple[int, ...]:
    """The hexsides most aligned with sheet direction ``k`` (one, or two when k is between)."""
    if k % 2 == 0:
        return (k // 2 + 1,)
    return ((k - 1) // 2 + 1, ((k + 1) % 12) // 2 + 1)


# --------------------------------------------------------------------------- context

@dataclass
class RegionContext:
    """What a region resolves against: the map, the north indicator, the playing area's sections
    (``None`` = the whole map) and the scenario's named regions (for ``named`` nodes)."""

    hexmap: HexMap
    north: NorthIndicator
    sections: Sequence[str] | None = None
    named: Mapping[str, "Region"] = field(default_factory=dict)
    _resolving: list[str] = field(default_factory=list, repr=False)
    _cache: dict[str, frozenset[Hex]] = field(default_factory=dict, repr=False)
    #: id(node) -> (node, its hexes): a region node is frozen, so its answer on this context is
    #: kept while the node lives (the node is held, so its id is not reused); every form, dock
    #: and check of the editor asks again after each edit
    _resolved: dict[int, tuple[Any, frozenset[Hex]]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if isinstance(self.north, (tuple, list)):
            self.north = NorthIndicator(hex=self.north[0], points_to=self.north[1])

    def section_hexes(self, names: Sequence[str] | None) -> frozenset[Hex]:
        m = self.hexmap
        if names is None:
            return frozenset(m.all_hexes())
        out: set[Hex] = set()
        for i, name in enumerate(names):
            try:
                c0, c1 = m.section_columns(name)
            except KeyError:
                known = ", ".join(repr(s.name) for s in m.doc.sections) or "none"
                raise RegionError(f"map {m.name!r} has no section {name!r} (sections: {known})", (i,)) from None
            out.update(hexgrid.iter_block(max(c0, m.first_column), min(c1, m.last_column), m.first_row, m.last_row))
        return frozenset(out)

    @cached_property
    def area(self) -> frozenset[Hex]:
        """The playing area: every hex of the scenario's sections (all rows of the map)."""
        try:
            return self.section_hexes(self.sections)
        except RegionError as e:
            raise RegionError(f"playing area: {e.message}") from None

    def direction(self, word: str) -> int:
        return self.north.direction(word)

    def hex(self, text: str, loc: Sequence[Any] = ()) -> Hex:
        try:
            h = hexgrid.parse_hex_id(text)
        except hexgrid.HexIdError as e:
            raise RegionError(str(e), loc) from None
        if not self.hexmap.contains(h):
            raise RegionError(f"hex {h.id} is not on map {self.hexmap.name!r}", loc)
        return h


# --------------------------------------------------------------------------- nodes

class _Node(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    def resolve(self, ctx: RegionContext) -> frozenset[Hex]:
        """The hexes of this region (inside the playing area); raises :class:`RegionError`.
        Kept per context: the same node asked again on the same context answers at once."""
        hit = ctx._resolved.get(id(self))
        if hit is not None and hit[0] is self:
            return hit[1]
        out = frozenset(self._resolve(ctx)) & ctx.area
        ctx._resolved[id(self)] = (self, out)
        return out

    def _resolve(self, ctx: RegionContext) -> frozenset[Hex]:  # pragma: no cover - abstract
        raise NotImplementedError

    def describe(self) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def children(self) -> list[tuple[tuple[Any, ...], "_Node"]]:
        return []


def _sub(node: "_Node", ctx: RegionContext, *loc: Any) -> frozenset[Hex]:
    try:
        return node.resolve(ctx)
    except RegionError as e:
        raise e.at(*loc) from None


def _paren(node: "_Node") -> str:
    text = node.describe()
    if isinstance(node, (UnionRegion, IntersectionRegion, DifferenceRegion)):
        return f"({text})"
    return text


class HexesRegion(_Node):
    """An explicit list of hexes: ``{"kind": "hexes", "hexes": ["4307", "4308"]}``. Every hex must
    lie in the playing area."""

    kind: Literal["hexes"] = "hexes"
    hexes: list[HexIdText] = Field(min_length=1)

    def _resolve(self, ctx):
        out = set()
        bad: list[RegionError] = []
        for i, t in enumerate(self.hexes):
            try:
                h = ctx.hex(t, ("hexes", i))
            except RegionError as e:
                bad.append(e)
                continue
            if h not in ctx.area:
                bad.append(RegionError(f"hex {t} is outside the scenario's playing area", ("hexes", i)))
                continue
            out.add(h)
        if bad:  # every bad hex of the list, so a designer mends them in one pass
            raise RegionError(bad[0].message, bad[0].loc, bad[1:])
        return frozenset(out)

    def describe(self) -> str:
        return ("hex " if len(self.hexes) == 1 else "hexes ") + ", ".join(self.hexes)


class HexRangeRegion(_Node):
    """Hexes ``first`` to ``last`` inclusive along one hex column or one hex row
    ("between hexes 5015 and 5027 (inclusive)"). Both ends must lie in the playing area (then so
    does every hex between them: the area is a block of whole columns)."""

    kind: Literal["hex_range"] = "hex_range"
    first: str
    last: str

    @model_validator(mode="after")
    def _line(self) -> "HexRangeRegion":
        a, b = hexgrid.parse_hex_id(self.first), hexgrid.parse_hex_id(self.last)
        if a.col != b.col and a.row != b.row:
            raise ValueError(f"hex range {self.first} to {self.last} is neither along one column nor one row")
        return self

    def _resolve(self, ctx):
        a, b = ctx.hex(self.first, ("first",)), ctx.hex(self.last, ("last",))
        for f, h in (("first", a), ("last", b)):
            if h not in ctx.area:
                raise RegionError(f"hex {h.id} is outside the scenario's playing area", (f,))
        if a.col == b.col:
            lo, hi = sorted((a.row, b.row))
            return frozenset(Hex(a.col, r) for r in range(lo, hi + 1))
        lo, hi = sorted((a.col, b.col))
        return frozenset(Hex(c, a.row) for c in range(lo, hi + 1))

    def describe(self) -> str:
        return f"hexes {self.first} to {self.last} (inclusive)"


class AreaRegion(_Node):
    """The whole playing area of the scenario: ``{"kind": "area"}``."""

    kind: Literal["area"] = "area"

    def _resolve(self, ctx):
        return ctx.area

    def describe(self) -> str:
        return "any hex"


class SectionRegion(_Node):
    """Every hex of a map section: ``{"kind": "section", "name": "Map 1"}``."""

    kind: Literal["section"] = "section"
    name: str = Field(min_length=1)

    def _resolve(self, ctx):
        try:
            return ctx.section_hexes([self.name])
        except RegionError as e:
            raise RegionError(e.message, ("name",)) from None

    def describe(self) -> str:
        return f"anywhere on {self.name}"


class MapEdgeRegion(_Node):
    """The hexes on a compass edge of the playing area (or of the listed ``sections`` only):
    the hexes whose neighbours across the hexside(s) facing that direction lie outside it.
    ``{"kind": "map_edge", "direction": "north", "sections": ["Map 2"]}``."""

    kind: Literal["map_edge"] = "map_edge"
    direction: Compass
    sections: list[str] | None = None

    def _resolve(self, ctx):
        if self.sections is None:
            base = ctx.area
        else:
            try:
                base = ctx.section_hexes(self.sections) & ctx.area
            except RegionError as e:
                raise e.at("sections") from None
        return _edge_hexes(frozenset(base), _edge_sides(ctx.direction(self.direction)))

    def describe(self) -> str:
        of = f" of {' and '.join(self.sections)}" if self.sections else ""
        return f"the {self.direction} map edge{of}"


class FeatureRegion(_Node):
    """A named feature ("Hill K") or a building by name ("Building 1")."""

    kind: Literal["feature"] = "feature"
    name: str = Field(min_length=1)

    def _resolve(self, ctx):
        try:
            return ctx.hexmap.feature_hexes(self.name)
        except KeyError:
            m = ctx.hexmap
            known = sorted(m.features) + sorted(b.display_name() for b in m.buildings.values() if b.number is not None or b.name)
            raise RegionError(f"map {m.name!r} has no feature or building named {self.name!r}"
                              f" (known: {', '.join(known) or 'none'})", ("name",)) from None

    def describe(self) -> str:
        return self.name


class FeatureKindRegion(_Node):
    """Every hex of one kind of map feature: ``{"kind": "feature_kind", "feature": "building_hexes"}``
    (see :data:`FEATURE_KINDS`; a *tree hex* has two or more tree symbols, per the errata)."""

    kind: Literal["feature_kind"] = "feature_kind"
    feature: FeatureKind

    def _resolve(self, ctx):
        m = ctx.hexmap
        f = self.feature
        if f == "building_hexes":
            return frozenset(h for hs in m.building_hexes.values() for h in hs)
        if f == "multi_hex_buildings":
            return frozenset(h for hs in m.building_hexes.values() if len(hs) > 1 for h in hs)
        if f == "single_hex_buildings":
            return frozenset(h for hs in m.building_hexes.values() if len(hs) == 1 for h in hs)
        if f == "road":
            return frozenset(m.road_hexes)
        if f == "gully":
            return frozenset(m.gully_hexes)
        if f == "bridge":
            return frozenset(m.road_hexes & m.gully_hexes)
        area = ctx.area
        if f in ("tree_hexes", "woods"):
            return frozenset(h for h in area if m.trees(h) >= 2)
        if f == "any_trees":
            return frozenset(h for h in area if m.trees(h) >= 1)
        if f == "marsh":
            return frozenset(h for h in area if m.is_marsh(h))
        if f == "hill":
            return frozenset(h for h in area if m.level(h) >= 1)
        raise RegionError(f"unknown feature kind {f!r}", ("feature",))  # pragma: no cover

    def describe(self) -> str:
        return _FEATURE_LABELS[self.feature]


class PathRegion(_Node):
    """The road (or gully) running through the listed hexes in order: between each pair of
    consecutive waypoints, the hexes of the shortest path along the road (gully) links
    (``HexMap.road_links``); ties broken by hex id. ``{"kind": "path", "through": ["4001", "5014"]}``."""

    kind: Literal["path"] = "path"
    network: Literal["road", "gully"] = "road"
    through: list[HexIdText] = Field(min_length=2)

    def _resolve(self, ctx):
        return frozenset(self.hex_sequence(ctx))

    def hex_sequence(self, ctx: RegionContext) -> list[Hex]:
        """The path's hexes in order from the first waypoint to the last."""
        m = ctx.hexmap
        links = m.road_links if self.network == "road" else m.gully_links
        pts = [ctx.hex(t, ("through", i)) for i, t in enumerate(self.through)]
        for i, h in enumerate(pts):
            if h not in links:
                raise RegionError(f"hex {h.id} is not a {self.network} hex with a {self.network} connection", ("through", i))
        seq = [pts[0]]
        for i, (a, b) in enumerate(zip(pts, pts[1:])):
            prev: dict[Hex, Hex | None] = {a: None}
            q = deque([a])
            while q and b not in prev:
                cur = q.popleft()
                for n in sorted(links.get(cur, ())):
                    if n not in prev:
                        prev[n] = cur
                        q.append(n)
            if b not in prev:
                raise RegionError(f"no {self.network} runs from {a.id} to {b.id}", ("through", i + 1))
            leg = []
            cur: Hex | None = b
            while cur is not None and cur != a:
                leg.append(cur)
                cur = prev[cur]
            seq.extend(reversed(leg))
        return seq

    def describe(self) -> str:
        return f"{self.network} {'-'.join(self.through)}"


class SideOfRegion(_Node):
    """The hexes lying in a compass ``direction`` beyond a region ``of`` (typically a road or gully
    path, or a list of hexes): a hex is included when the line of hexes through it running in that
    direction (a hex column when north is up or down the sheet; a hex row for east/west) meets
    ``of`` and every hex of ``of`` on that line lies behind it. Lines that do not meet ``of``
    contribute nothing. ``include_boundary`` adds the hexes of ``of`` themselves.

    ``bounded`` reads "south of the road" as *the pocket the road closes off*: the hexes reachable
    from the first hexes just beyond ``of`` (on the literal side) by steps between adjacent hexes
    of the playing area that never cross ``of``. Along a straight line both readings agree; along a
    road that bends, the literal one also takes hexes beyond its far leg (columns that meet the road
    only on a leg running the other way), the bounded one stops at the road, as *Reachable, with
    barriers* does."""

    kind: Literal["side_of"] = "side_of"
    direction: Compass
    of: "Region"
    include_boundary: bool = False
    #: None (left out of the file) reads the side per line, as False does
    bounded: bool | None = None

    def children(self):
        return [(("of",), self.of)]

    def _resolve(self, ctx):
        ref = _sub(self.of, ctx, "of")
        literal = self._literal(ctx, ref)
        out = set(self._pocket(ctx, ref, literal)) if self.bounded else set(literal)
        if self.include_boundary:
            out |= ref
        return frozenset(out)

    def _literal(self, ctx, ref: frozenset) -> frozenset:
        """The literal reading (no boundary hexes): beyond the front hex of ``ref`` on each line."""
        k = ctx.direction(self.direction)
        try:
            front: dict[int, int] = {}
            for r in ref:
                c, a = _line_coords(r, k)
                if c not in front or a > front[c]:
                    front[c] = a
            out = set()
            for h in ctx.area:
                c, a = _line_coords(h, k)
                if c in front and a > front[c] and h not in ref:
                    out.add(h)
        except RegionError as e:
            raise e.at("direction") from None
        return frozenset(out)

    @staticmethod
    def _pocket(ctx, ref: frozenset, literal: frozenset) -> frozenset:
        """The bounded reading: the hexes connected (not across ``ref``) to the literal hexes that
        touch ``ref``."""
        area = ctx.area
        seeds = sorted(h for h in literal if any(n in ref for n in hexgrid.neighbours(h)))
        seen = set(seeds)
        q = deque(seeds)
        while q:
            h = q.popleft()
            for n in hexgrid.neighbours(h):
                if n in area and n not in ref and n not in seen:
                    seen.add(n)
                    q.append(n)
        return frozenset(seen)

    def readings(self, ctx: RegionContext) -> tuple[frozenset, frozenset]:
        """(the literal reading, the bounded reading) of this side, boundary hexes left out, for a
        form to say what each means; raises :class:`RegionError`."""
        ref = _sub(self.of, ctx, "of")
        literal = self._literal(ctx, ref)
        return literal, self._pocket(ctx, ref, literal)

    def describe(self) -> str:
        inc = " (inclusive)" if self.include_boundary else ""
        if self.bounded:
            return f"the pocket {self.direction} of {_paren(self.of)}, bounded by it{inc}"
        return f"{self.direction} of {_paren(self.of)}{inc}"


class BeyondRegion(_Node):
    """Hexes beyond a hex column, hex row or hex in a compass direction: "east of hex column 35xx"
    (``column: 35``), "south of hexrow xx06" (``row: 6``), "west of hex 3901" (``hex: "3901"``).
    A column needs a direction across the columns (east/west with north up or down the sheet), a
    row one along them; a hex compares columns for east/west and rows for north/south (for a
    north pointing across an oblique hexside, the hexes' positions along that line).
    Exclusive unless ``inclusive``."""

    kind: Literal["beyond"] = "beyond"
    direction: Compass
    column: int | None = Field(default=None, ge=0, le=99)
    row: int | None = Field(default=None, ge=0, le=99)
    hex: str | None = None
    inclusive: bool = False

    @model_validator(mode="after")
    def _one(self) -> "BeyondRegion":
        n = sum(x is not None for x in (self.column, self.row, self.hex))
        if n != 1:
            raise ValueError("give exactly one of 'column', 'row' or 'hex'")
        if self.hex is not None:
            _check_hex_id(self.hex)
        return self

    def _resolve(self, ctx):
        k = ctx.direction(self.direction)
        area = ctx.area
        if self.column is not None:
            if k not in (3, 9):
                raise RegionError(f"'{self.direction}' points to {ctx.north.sheet_word(self.direction)} with this "
                                  "north indicator, not across the hex columns", ("column",))
            sign = 1 if k == 3 else -1
            ref, key = sign * self.column, (lambda h: sign * h.col)
        elif self.row is not None:
            if k not in (0, 6):
                raise RegionError(f"'{self.direction}' points to {ctx.north.sheet_word(self.direction)} with this "
                                  "north indicator, not across the hex rows", ("row",))
            sign = -1 if k == 0 else 1
            ref, key = sign * self.row, (lambda h: sign * h.row)
        else:
            ref_hex = ctx.hex(self.hex, ("hex",))  # type: ignore[arg-type]
            if k in (3, 9):
                sign = 1 if k == 3 else -1
                ref, key = sign * ref_hex.col, (lambda h: sign * h.col)
            elif k in (0, 6):
                sign = -1 if k == 0 else 1
                ref, key = sign * ref_hex.row, (lambda h: sign * h.row)
            else:
                try:
                    ref = _line_coords(ref_hex, k)[1]
                except RegionError as e:
                    raise e.at("direction") from None
                key = lambda h: _line_coords(h, k)[1]  # noqa: E731
        if self.inclusive:
            return frozenset(h for h in area if key(h) >= ref)
        return frozenset(h for h in area if key(h) > ref)

    def describe(self) -> str:
        if self.column is not None:
            what = f"hex column {self.column:02d}xx"
        elif self.row is not None:
            what = f"hexrow xx{self.row:02d}"
        else:
            what = f"hex {self.hex}"
        return f"{self.direction} of {what} ({'inclusive' if self.inclusive else 'exclusive'})"


class AdjacentToRegion(_Node):
    """Hexes with at least one neighbour in ``of`` (may include hexes of ``of`` that neighbour
    other hexes of it, e.g. the interior hexes of a road)."""

    kind: Literal["adjacent_to"] = "adjacent_to"
    of: "Region"

    def children(self):
        return [(("of",), self.of)]

    def _resolve(self, ctx):
        ref = _sub(self.of, ctx, "of")
        return frozenset(n for h in ref for n in hexgrid.neighbours(h))

    def describe(self) -> str:
        return f"adjacent to {_paren(self.of)}"


class WithinRegion(_Node):
    """Hexes within ``distance`` hexes of ``of`` (range 11.2; includes ``of`` itself)."""

    kind: Literal["within"] = "within"
    of: "Region"
    distance: int = Field(ge=0, le=99)

    def children(self):
        return [(("of",), self.of)]

    def _resolve(self, ctx):
        ref = _sub(self.of, ctx, "of")
        out = set()
        for h in ref:
            out.update(hexgrid.area(h, self.distance))
        return frozenset(out)

    def describe(self) -> str:
        return f"within {self.distance} hex{'es' if self.distance != 1 else ''} of {_paren(self.of)}"


class ReachableRegion(_Node):
    """The hexes of the playing area connected to ``start`` by steps between adjacent hexes that
    never enter ``barrier``: "the side of the road facing the north-east corner"."""

    kind: Literal["reachable"] = "reachable"
    start: "Region"
    barrier: "Region"

    def children(self):
        return [(("start",), self.start), (("barrier",), self.barrier)]

    def _resolve(self, ctx):
        seeds = _sub(self.start, ctx, "start")
        wall = _sub(self.barrier, ctx, "barrier")
        area = ctx.area
        seen = set(seeds - wall)
        q = deque(sorted(seen))
        while q:
            h = q.popleft()
            for n in hexgrid.neighbours(h):
                if n in area and n not in wall and n not in seen:
                    seen.add(n)
                    q.append(n)
        return frozenset(seen)

    def describe(self) -> str:
        return f"hexes reachable from {_paren(self.start)} without crossing {_paren(self.barrier)}"


class NamedRegion(_Node):
    """A region defined once in the scenario's ``regions`` table: ``{"kind": "named", "name": ...}``."""

    kind: Literal["named"] = "named"
    name: str = Field(min_length=1)

    def _resolve(self, ctx):
        target = ctx.named.get(self.name)
        if target is None:
            raise RegionError(f"no region named {self.name!r} (named regions: {', '.join(sorted(ctx.named)) or 'none'})",
                              ("name",))
        if self.name in ctx._cache:
            return ctx._cache[self.name]
        if self.name in ctx._resolving:
            raise RegionError(f"region {self.name!r} refers to itself ({' -> '.join([*ctx._resolving, self.name])})",
                              ("name",))
        ctx._resolving.append(self.name)
        try:
            out = target.resolve(ctx)
        except RegionError as e:
            raise RegionError(f"in region {self.name!r}: {e.message}", ("name",)) from None
        finally:
            ctx._resolving.pop()
        ctx._cache[self.name] = out
        return out

    def describe(self) -> str:
        return self.name


class UnionRegion(_Node):
    """Hexes in any of ``of``."""

    kind: Literal["union"] = "union"
    of: list["Region"] = Field(min_length=1)

    def children(self):
        return [(("of", i), r) for i, r in enumerate(self.of)]

    def _resolve(self, ctx):
        out: set[Hex] = set()
        for i, r in enumerate(self.of):
            out |= _sub(r, ctx, "of", i)
        return frozenset(out)

    def describe(self) -> str:
        return " or ".join(_paren(r) for r in self.of)


class IntersectionRegion(_Node):
    """Hexes in every one of ``of``."""

    kind: Literal["intersection"] = "intersection"
    of: list["Region"] = Field(min_length=1)

    def children(self):
        return [(("of", i), r) for i, r in enumerate(self.of)]

    def _resolve(self, ctx):
        out: frozenset[Hex] | None = None
        for i, r in enumerate(self.of):
            s = _sub(r, ctx, "of", i)
            out = s if out is None else out & s
        return out or frozenset()

    def describe(self) -> str:
        return " and ".join(_paren(r) for r in self.of)


class DifferenceRegion(_Node):
    """Hexes of ``of`` that are in none of ``minus``."""

    kind: Literal["difference"] = "difference"
    of: "Region"
    minus: list["Region"] = Field(min_length=1)

    def children(self):
        return [(("of",), self.of)] + [(("minus", i), r) for i, r in enumerate(self.minus)]

    def _resolve(self, ctx):
        out = set(_sub(self.of, ctx, "of"))
        for i, r in enumerate(self.minus):
            out -= _sub(r, ctx, "minus", i)
        return frozenset(out)

    def describe(self) -> str:
        return f"{_paren(self.of)} except {' or '.join(_paren(r) for r in self.minus)}"


Region = Annotated[
    Union[
        HexesRegion, HexRangeRegion, AreaRegion, SectionRegion, MapEdgeRegion, FeatureRegion,
        FeatureKindRegion, PathRegion, SideOfRegion, BeyondRegion, AdjacentToRegion, WithinRegion,
        ReachableRegion, NamedRegion, UnionRegion, IntersectionRegion, DifferenceRegion,
    ],
    Field(discriminator="kind"),
]

for _cls in (SideOfRegion, AdjacentToRegion, WithinRegion, ReachableRegion, UnionRegion, IntersectionRegion,
             DifferenceRegion):
    _cls.model_rebuild()


def resolve(region: _Node, ctx: RegionContext) -> frozenset[Hex]:
    """Resolve ``region`` in ``ctx``; raises :class:`RegionError` (``loc`` inside the region)."""
    return region.resolve(ctx)


def describe(region: _Node) -> str:
    """Readable text for a region ("north of road 1014-1315-...")."""
    return region.describe()


@lru_cache(maxsize=None)
def _region_adapter():
    """The validator of :data:`Region` (built once: building it costs milliseconds)."""
    from pydantic import TypeAdapter

    return TypeAdapter(Region)


#: JSON text of a region's data -> its node, the last few validated: the editor's forms validate
#: the same data again on every change, and the same node object lets a :class:`RegionContext`
#: answer it from what it already resolved
_from_data = ContentCache(512)


def region_from_data(data: Any) -> _Node:
    """Validate JSON data as a region (raises ``pydantic.ValidationError``). Data validated
    before gives the same (frozen) node."""
    try:
        key = json.dumps(data, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError):   # not JSON data: validated, not kept
        return _region_adapter().validate_python(data)
    node = _from_data.get(key)
    if node is None:
        node = _region_adapter().validate_python(data)
        _from_data.put(key, node)
    return node


def iter_hex_refs(region: _Node, loc: tuple[Any, ...] = ()):
    """Yield ``(loc, field, hex id)`` for every hex id written in the region (for errata and checks)."""
    if isinstance(region, HexesRegion):
        for i, t in enumerate(region.hexes):
            yield (*loc, "hexes", i), t
    elif isinstance(region, HexRangeRegion):
        yield (*loc, "first"), region.first
        yield (*loc, "last"), region.last
    elif isinstance(region, PathRegion):
        for i, t in enumerate(region.through):
            yield (*loc, "through", i), t
    elif isinstance(region, BeyondRegion) and region.hex is not None:
        yield (*loc, "hex"), region.hex
    for sub_loc, child in region.children():
        yield from iter_hex_refs(child, (*loc, *sub_loc))
