"""The state of a Red Flags game: units as plain data.

A :class:`Unit` is one unit of the Units table as it stands now: where it is (``hexes``: none when
off the map, carried, not yet arrived or gone; two for a unit spread over two hexes), what it has
left (figures and their weapons, support weapon crew, demolition charges, gun crew, vehicles and
damage), its state (``status`` ok / shaken / eliminated / broken / gone; dug in; facing; held by
wire; enfiladed) and what it has done in the current activation and turn.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Unit", "PERSONNEL_KINDS", "COMBAT_KINDS", "MULTI_HEX_KINDS", "TROOP_KINDS", "CASUALTY_ORDER", "other"]

#: Units whose hits remove figures (r.damage), unless armoured-car reconnaissance.
PERSONNEL_KINDS = frozenset({"infantry", "engineer", "cavalry", "recon", "observer", "commander"})
#: Units that take control and keep a side in the game (r.control, r.victory).
COMBAT_KINDS = frozenset({"infantry", "engineer", "cavalry", "recon", "artillery", "afv"})
#: General Rules: 'An infantry unit, an engineer unit, a cavalry unit, a reconnaissance unit, or a
#: towed artillery unit can occupy more than one hex.'
MULTI_HEX_KINDS = frozenset({"infantry", "engineer", "cavalry", "recon", "artillery"})
#: Units: Transport unit: what a motorized transport may carry.
TROOP_KINDS = frozenset({"infantry", "engineer", "observer", "commander"})
#: r.casualty_order: figures a hit removes first (lowest first); the support weapon's figure last.
CASUALTY_ORDER = {"rifle": 0, "smg": 1, "infantry_at": 2, "lmg": 3}


def other(side: str) -> str:
    return "russian" if side == "german" else "german"


@dataclass
class Unit:
    """One unit (see the module docstring). Weapons are weapon-table ids."""

    uid: str
    side: str
    group: str
    kind: str
    type_id: str
    name: str
    quality: str = "average"
    hexes: list[str] = field(default_factory=list)
    # personnel
    figures: list[str] = field(default_factory=list)
    support: str | None = None
    support_crew: int = 0
    charges: int = 0
    recon_mode: str | None = None
    # artillery
    gun: str | None = None
    size: str | None = None
    crew: int = 0
    tow: str | None = None
    limbered: bool = False
    # armour
    afv_class: str | None = None
    vehicles: int = 0
    damage: int = 0
    # transport
    transport: str | None = None
    carrying: str | None = None
    towing: str | None = None
    carried_by: str | None = None
    # aircraft
    role: str | None = None
    engines: int = 0
    speed: int = 0
    sortie: int = 0
    arrives: int | None = None
    entry: str | None = None
    heading: int = 1
    straight: int = 0
    flown: int = 0
    bombs: int = 0
    strafes: int = 0
    # state
    status: str = "ok"
    start_strength: int = 0
    dug_in: bool = False
    facing: int = 1
    wire_held: bool = False
    wire_turn: int = 0
    enfiladed: bool = False
    # this activation
    moved: bool = False
    fired: bool = False
    steps: int = 0
    attacked: bool = False
    # this turn
    moved_turn: int = 0
    stationary_turn: int = 0
    limber_turn: int = 0
    directed: str | None = None
    directed_turn: int = 0

    # ------------------------------------------------------------------ questions
    @property
    def armoured(self) -> bool:
        """An AFV, or armoured-car reconnaissance."""
        return self.kind == "afv" or (self.kind == "recon" and self.recon_mode == "armoured_car")

    @property
    def personnel(self) -> bool:
        return self.kind in PERSONNEL_KINDS and not self.armoured

    @property
    def target_class(self) -> str:
        """'personnel', 'vehicle' (artillery, vehicles and tanks: Firing and bombing) or 'aircraft'."""
        if self.kind == "aircraft":
            return "aircraft"
        return "personnel" if self.personnel else "vehicle"

    @property
    def in_play(self) -> bool:
        return self.status in ("ok", "shaken")

    @property
    def on_map(self) -> bool:
        return self.in_play and bool(self.hexes)

    @property
    def ground(self) -> bool:
        return self.kind != "aircraft"

    @property
    def strength(self) -> int:
        """Figures (with the support weapon's), crew, vehicles: what hits take away."""
        if self.armoured:
            return self.vehicles
        if self.kind == "artillery":
            return self.crew
        if self.kind in ("transport", "aircraft"):
            return 1 if self.in_play else 0
        return len(self.figures) + self.support_crew

    def fields_json(self) -> dict:
        """The unit as JSON values (for views and the editor)."""
        from dataclasses import asdict

        return asdict(self)
