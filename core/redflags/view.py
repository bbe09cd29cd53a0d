"""What a side may know of a Red Flags game: a read-only view for its player.

Nothing is hidden on a Red Flags table except the order of the face-down activation cards
(Activation: 'place them face down where players can see them'): the view tells which cards are
left this turn, not in which order. Units are :class:`UnitInfo` snapshots; the questions a player
asks (line of sight, where a unit may move, the dice a fire would throw and what each needs) are
answered by the game's own rules without changing anything.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from maps import hexgrid

if TYPE_CHECKING:  # pragma: no cover
    from core.redflags.game import Game

__all__ = ["UnitInfo", "PlayerView"]


@dataclass(frozen=True)
class UnitInfo:
    """A snapshot of one unit as both players see it."""

    uid: str
    side: str
    group: str
    kind: str
    name: str
    quality: str
    hexes: tuple[str, ...]
    status: str
    strength: int
    start_strength: int
    figures: tuple[str, ...]
    support: str | None
    charges: int
    armoured: bool
    afv_class: str | None
    vehicles: int
    damage: int
    gun: str | None
    limbered: bool
    tow: str | None
    carried_by: str | None
    carrying: str | None
    towing: str | None
    recon_mode: str | None
    role: str | None
    heading: int
    steps: int
    speed: int
    straight: int
    bombs: int
    strafes: int
    dug_in: bool
    facing: int
    enfiladed: bool
    wire_held: bool
    moved: bool
    fired: bool
    target_class: str

    @property
    def in_play(self) -> bool:
        return self.status in ("ok", "shaken")

    @property
    def on_map(self) -> bool:
        return self.in_play and bool(self.hexes)


def _info(u) -> UnitInfo:
    return UnitInfo(u.uid, u.side, u.group, u.kind, u.name, u.quality, tuple(u.hexes), u.status, u.strength,
                    u.start_strength, tuple(u.figures), u.support, u.charges, u.armoured, u.afv_class, u.vehicles,
                    u.damage, u.gun, u.limbered, u.tow, u.carried_by, u.carrying, u.towing, u.recon_mode, u.role,
                    u.heading, u.steps, u.speed, u.straight, u.bombs, u.strafes, u.dug_in, u.facing, u.enfiladed,
                    u.wire_held, u.moved, u.fired, u.target_class)


class PlayerView:
    """Side ``side``'s read-only view of ``game`` (see the module docstring)."""

    __slots__ = ("_g", "side", "_units")

    def __init__(self, game: "Game", side: str):
        self._g = game
        self.side = side
        self._units: dict[str, UnitInfo] | None = None

    # ------------------------------------------------------------------ the game's public state
    @property
    def turn(self) -> int:
        return self._g.turn_no

    @property
    def game_length(self) -> int:
        return self._g.game_length

    @property
    def phase(self) -> str:
        return self._g.phase

    @property
    def card(self) -> dict | None:
        """The activation card turned now (rank, suit, side, group, label, black)."""
        return dict(self._g.card) if self._g.card else None

    @property
    def cards_turned(self) -> list[dict]:
        return [dict(c) for c in self._g.turned]

    @property
    def cards_left(self) -> list[dict]:
        """The cards still face down this turn, sorted by side, group (never in deck order)."""
        return sorted((dict(c) for c in self._g.deck), key=lambda c: (c["side"], c["group"]))

    @property
    def objectives(self) -> tuple[str, ...]:
        return tuple(self._g.objectives)

    @property
    def control(self) -> dict[str, str | None]:
        return dict(self._g.control)

    @property
    def initial_control(self) -> str | None:
        return self._g.setup.scenario.victory.initial_control

    def held(self) -> dict[str, int]:
        return self._g.held()

    def standing(self) -> str:
        return self._g.standing()

    @property
    def wire(self) -> frozenset[str]:
        return frozenset(self._g.wire)

    @property
    def mines(self) -> frozenset[str]:
        return frozenset(self._g.mines)

    @property
    def terrain(self):
        """The :class:`core.redflags.terrain.Terrain` (queries only)."""
        return self._g.terrain

    def zone(self, side: str) -> frozenset[str]:
        return self._g.setup.zone(side)

    def setup_next(self) -> str | None:
        """During the set-up, the unit to place now."""
        q = self._g._setup_queue
        return q[0][1] if q and self._g.phase == "setup" else None

    # ------------------------------------------------------------------ units
    def units(self) -> dict[str, UnitInfo]:
        if self._units is None:
            self._units = {uid: _info(u) for uid, u in self._g.units.items()}
        return self._units

    def unit(self, uid: str) -> UnitInfo:
        return self.units()[uid]

    def units_in(self, h: str) -> list[UnitInfo]:
        return [self.units()[u.uid] for u in self._g.units_in(h)]

    def free_space(self, h: str, exclude: str | None = None) -> int:
        return self._g.free_space(h, exclude)

    # ------------------------------------------------------------------ rules questions
    def los(self, a: str, b: str) -> bool:
        return self._g.los(a, b)

    def terrain_los(self, a: str, b: str) -> bool:
        return self._g.sight.terrain_los(a, b)

    @staticmethod
    def distance(a: str, b: str) -> int:
        return hexgrid.distance(hexgrid.parse_hex_id(a), hexgrid.parse_hex_id(b))

    def reachable(self, uid: str, with_commander: bool = False) -> dict[str, tuple[str, ...]]:
        return self._g.reachable(self._g.units[uid], with_commander)[0]

    def attack_dice(self, firer: str, target: str, hex_id: str, dist: int, charges: bool = False) -> list[tuple[str, int]]:
        """(weapon id, dice) the firer would throw at ``target`` in ``hex_id`` at range ``dist``."""
        g = self._g
        return [(wid, n) for wid, n, _w in g.attack_groups(g.units[firer], g.units[target], hex_id, dist, charges)]

    def hit_chances(self, firer: str, target: str, hex_id: str, dist: int, charges: bool = False,
                    victim: str | None = None) -> list[tuple[int, float]]:
        """(dice, chance each hits) per weapon group of the firer's fire at ``target`` in ``hex_id``,
        against ``victim`` (default the target; another unit in the hex for artillery)."""
        g = self._g
        f, t = g.units[firer], g.units[target]
        v = g.units[victim] if victim else t
        out = []
        for _wid, n, w in g.attack_groups(f, t, hex_id, dist, charges):
            if v is not t and not (w.artillery and v.target_class in w.targets):
                continue
            if v.target_class not in w.targets:
                continue
            hn = g.hit_number(w, v, hex_id)
            if hn is None:
                continue
            out.append((n, (7 - hn) / 6))
        return out

    def weapon_reach(self, uid: str, target_class: str) -> int:
        """The longest range at which ``uid`` may engage a target of that class (0: none)."""
        g = self._g
        best = 0
        for wid, _n in g.weapon_counts(g.units[uid], target_class):
            w = g.weapons[wid]
            if target_class in w.targets and w.range:
                best = max(best, w.range)
        return best

    def fires_indirect(self, uid: str) -> bool:
        g = self._g
        u = g.units[uid]
        return u.kind == "artillery" and bool(u.gun) and g.weapons[u.gun].indirect

    def spotted(self, uid: str, hex_id: str) -> bool:
        return self._g.spotter_for(self._g.units[uid], hex_id) is not None

    def can_return(self, target: str, firer: str, src: str) -> tuple[str, int] | None:
        """Where and at what range ``target`` would return fire at ``firer`` firing from ``src``."""
        g = self._g
        return g._return_groups(g.units[target], g.units[firer], src)

    def enfilades(self, target: str, src: str) -> bool:
        return self._g.enfilades(self._g.units[target], src)

    def commander_in(self, uid: str) -> bool:
        return self._g.commander_in(self._g.units[uid])

    def bomb_hexes(self, uid: str) -> list[tuple[str | None, float]]:
        """Where ``uid``'s bombs may fall now, with their chances (Firing and bombing)."""
        g = self._g
        u = g.units[uid]
        if u.role == "dive_bomber":
            return [(g.bomb_hex(u, None), 1.0)]
        return [(g.bomb_hex(u, f), 1 / 6) for f in range(1, 7)]

    def strafe_hex(self, uid: str) -> str | None:
        return self._g.strafe_hex(self._g.units[uid])

    def in_front(self, h: str, heading: int, turns) -> str | None:
        return self._g.terrain.in_front(h, heading, turns)

    def turn_every(self, uid: str) -> int:
        return self._g.turn_every(self._g.units[uid])

    def weapons(self):
        """The weapon table in force (id -> :class:`core.redflags.tables.Weapon`)."""
        return dict(self._g.weapons)

    def hit_number_against(self, weapon: str, target: str, hex_id: str) -> int | None:
        g = self._g
        return g.hit_number(g.weapons[weapon], g.units[target], hex_id)
