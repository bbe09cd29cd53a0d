"""Units and set-up of the 20 mm rules (seed 003). Positions in table inches, bearings in degrees
(0 = +x, 90 = +y)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from maps.table_map import TableMap

from core.twentymm import tables

XY = tuple[float, float]
SIDES = ("german", "russian")
FIGURE_SPACING = 0.5   # "Infantrymen in a section or squad should stay within 1/2 inch of each other"
VEHICLE_LENGTH, VEHICLE_WIDTH = 2.0, 1.0   # reading: a 20 mm vehicle's footprint, 2:1


def other(side: str) -> str:
    return "russian" if side == "german" else "german"


def bearing(a: XY, b: XY) -> float:
    """Degrees from ``a`` to ``b`` in [0, 360)."""
    return math.degrees(math.atan2(b[1] - a[1], b[0] - a[0])) % 360.0


def angdiff(a: float, b: float) -> float:
    """The unsigned difference of two bearings, 0..180."""
    d = abs((a - b) % 360.0)
    return 360.0 - d if d > 180.0 else d


@dataclass
class Unit:
    """One unit: an infantry section or squad (``kind`` "infantry"; ``men`` with ``smg``, ``lmg``,
    ``at_rifle``, ``panzerfaust`` of them carrying those, the rest rifles; ``role`` "command" or
    "foo"), a crewed weapon (``"gun"``: ``weapon`` "hmg", "lmg", "mortar_light/medium/heavy" or a
    reference-table gun, ``crew`` men), a vehicle (``"vehicle"``: ``vtype`` a reference-table row,
    ``facing`` the hull, ``turret`` the turret bearing) or an off-table battery (``"battery"``:
    ``guns``, ``calibre``, ``facing`` the direction of fire)."""

    uid: str
    side: str
    kind: str
    name: str = ""
    pos: XY | None = None
    facing: float = 0.0
    men: int = 0
    smg: int = 0
    lmg: int = 0
    at_rifle: int = 0
    panzerfaust: int = 0
    role: str | None = None
    radio: bool = False
    elite: bool = False
    officer: bool = False
    weapon: str | None = None
    crew: int = 0
    crew_start: int = 0
    deployed: bool = True
    vtype: str | None = None
    turret: float | None = None
    schuerzen: bool = False
    he_only: bool = False
    guns: int = 0
    calibre: int = 0
    hidden: bool = False
    # state
    men_start: int = 0
    alive: bool = True
    fate: str | None = None
    known_by: set = field(default_factory=set)
    acted: bool = False
    moved: bool = False
    #: degrees of turret traverse taken this turn as free movement (Vehicle Movement)
    traversed: float = 0.0
    fired: set = field(default_factory=set)
    shots: int = 0
    under_fire: bool = False
    under_he: bool = False
    forced_from: XY | None = None
    forced_until: int = 0
    aim: tuple | None = None
    last_fired: int | None = None
    ranged: dict | None = None
    directing: dict | None = None
    closed_up: bool = False
    immobilised: bool = False
    ditched: bool = False
    turret_jammed: bool = False
    move_only: bool = False
    stunned: bool = False
    passengers: list = field(default_factory=list)
    embarked_in: str | None = None
    tow: str | None = None
    towing: str | None = None
    busy: dict | None = None
    hold: bool = False
    anchored: bool = False
    radio_penalty: int = 0

    def __post_init__(self) -> None:
        if not self.men_start:
            self.men_start = self.men
        if self.kind == "gun" and not self.crew_start:
            self.crew_start = self.crew
        if self.kind == "vehicle" and self.turret is None and self.ref.get("turret"):
            self.turret = self.facing

    # ---------------------------------------------------------------- reference data
    @property
    def ref(self) -> dict:
        return tables.vehicle(self.vtype) if self.kind == "vehicle" else {}

    @property
    def vclass(self) -> str:
        """Vehicle Movement class: wheeled, halftrack, fast_tank, tank, horse."""
        return self.ref.get("class", "")

    @property
    def tracked(self) -> bool:
        return self.vclass in ("halftrack", "fast_tank", "tank")

    @property
    def is_tank(self) -> bool:
        return self.vclass in ("fast_tank", "tank")

    @property
    def effect_class(self) -> str:
        """The vehicle effect table's row: soft, armoured (half-tracks, armoured cars) or tank."""
        r = self.ref
        if r.get("soft_skin"):
            return "soft"
        if self.is_tank:
            return "tank"
        return "armoured"

    @property
    def open_topped(self) -> bool:
        """Lorries, half-tracks and tanks carrying tank riders count as open-topped."""
        return bool(self.ref.get("open_topped")) or (self.is_tank and bool(self.passengers))

    @property
    def is_mortar(self) -> bool:
        return self.kind == "gun" and (self.weapon or "").startswith("mortar")

    @property
    def is_atg(self) -> bool:
        return self.kind == "gun" and self.weapon in tables.reference()["guns"]

    @property
    def gun_calibre(self) -> int:
        if self.is_atg:
            return tables.gun(self.weapon)["calibre"]
        if self.kind == "vehicle" and self.ref.get("guns"):
            return self.ref["guns"][0]["calibre"]
        return self.calibre

    @property
    def rifles(self) -> int:
        return max(0, self.men - self.smg - self.lmg - self.at_rifle - self.panzerfaust)

    @property
    def bodies(self) -> int:
        """Men who can be hit: a section's men, a gun's crew, a horse tow's horses."""
        if self.kind == "gun":
            return self.crew
        return self.men

    @property
    def officer_led(self) -> bool:
        """Pinning's "accompanied by an officer"; Elite Units always count as officer-led."""
        return self.officer or self.elite or self.role == "command"

    def figures(self) -> list[XY]:
        """The men of the unit as points (Infantry Movement's 1/2-inch spacing): a line across the
        facing, centred on ``pos``."""
        n = self.bodies if self.kind != "vehicle" else 0
        if self.pos is None or n <= 0:
            return []
        a = math.radians(self.facing + 90.0)
        dx, dy = math.cos(a) * FIGURE_SPACING, math.sin(a) * FIGURE_SPACING
        return [(self.pos[0] + dx * (i - (n - 1) / 2), self.pos[1] + dy * (i - (n - 1) / 2)) for i in range(n)]

    def footprint(self):
        """A vehicle's hull as a shapely polygon (2 x 1 inches, reading), else the point/line of its men."""
        from shapely.geometry import LineString, Point, Polygon
        if self.kind == "vehicle":
            a = math.radians(self.facing)
            c, s = math.cos(a), math.sin(a)
            hl, hw = VEHICLE_LENGTH / 2, VEHICLE_WIDTH / 2
            pts = [(x * c - y * s + self.pos[0], x * s + y * c + self.pos[1]) for x, y in ((hl, hw), (-hl, hw), (-hl, -hw), (hl, -hw))]
            return Polygon(pts)
        f = self.figures()
        if len(f) >= 2:
            return LineString([f[0], f[-1]])
        return Point(self.pos)


@dataclass
class Setup:
    """One game's set-up: the ``table``, the ``units`` at their start (hidden ones flagged), the
    ``first_side``, the number of Game ``turns``, ``objectives`` (dicts name/point/radius), the
    ``attacker`` (who must hold every objective at the end to win; the other side wins otherwise),
    the scenario ``name`` and ``path``, and ``ai_settings``: side -> the player spec
    (``heuristic:k=v,...``) the scenario stores for that side."""

    table: TableMap
    units: list[Unit]
    first_side: str = "german"
    turns: int = 12
    objectives: list = field(default_factory=list)
    attacker: str = "german"
    name: str = ""
    path: str = ""
    #: side -> player spec of the behaviour settings the scenario stores (``ai_settings``)
    ai_settings: dict = field(default_factory=dict)
