"""Influence maps for the heuristic AI: objective distance, cover, enemy threat and fields of fire.

Computed from a :class:`core.ironcross.view.PlayerView`. Objective distances are computed once
per game (the map does not change); threat and fields of fire lazily per hex and cached per phase
and enemy position (``InfluenceMaps.for_view``), so one decision costs a few dictionary lookups.
"""

from __future__ import annotations

from collections import deque

from core.ai.evaluation import _ap_probs
from core.ironcross import combat_tables as ct
from maps import hexgrid

__all__ = ["InfluenceMaps", "objective_targets", "bfs_distance"]


def bfs_distance(view, sources, limit: int = 60) -> dict[str, int]:
    """Hex distance (in hexes, over the playing area) from the nearest of ``sources``."""
    dist: dict[str, int] = {}
    q: deque = deque()
    for s in sorted(sources):
        if s not in dist:
            dist[s] = 0
            q.append(s)
    m = view.hexmap
    while q:
        h = q.popleft()
        d = dist[h]
        if d >= limit:
            continue
        for n in hexgrid.neighbours(hexgrid.parse_hex_id(h)):
            if not m.contains(n) or n.id in dist:   # off the map first: left of column 00 is no hex id
                continue
            dist[n.id] = d + 1
            q.append(n.id)
    return dist


def objective_targets(view) -> tuple[set[str], set[str]]:
    """(hexes to occupy, hexes to clear of enemy units) for the view's side; weights ignored."""
    occ: set[str] = set()
    clr: set[str] = set()
    for o in view.objectives:
        (occ if o["goal"] == "occupy" else clr).update(o["hexes"])
    return occ, clr


class InfluenceMaps:
    """Per-side, per-game store of maps; ``refresh(view)`` invalidates what the position changed."""

    def __init__(self):
        self.obj_dist: dict[str, int] | None = None
        self.occupy: set[str] = set()
        self.clear: set[str] = set()
        self.small_occupy: list[set[str]] = []
        self._key = None
        self._threat: dict[tuple, float] = {}
        self._fof: dict[str, float] = {}
        self.enemies: list = []
        self.view = None

    # ------------------------------------------------------------------ per game
    def init_game(self, view) -> None:
        if self.obj_dist is not None:
            return
        self.occupy, self.clear = objective_targets(view)
        self.small_occupy = [set(o["hexes"]) for o in view.objectives if o["goal"] == "occupy" and len(o["hexes"]) <= 40]
        src = self.occupy | self.clear
        if not src:
            src = set(view.setup_zones(view.enemy)) | set(view.entry_hexes(view.enemy))
        self.obj_dist = bfs_distance(view, src) if src else {}
        self.region_size = len(src)

    # ------------------------------------------------------------------ per position
    def refresh(self, view) -> None:
        self.view = view
        enemies = view.enemy_units()
        key = (view.seed_key, tuple(sorted((u.id, u.hex, u.morale.value, u.fired or u.opp_fired, u.down)
                                           for u in enemies)),
               tuple(sorted(view.wrecks.items())))
        if key != self._key:
            self._key = key
            self._threat = {}
            self._fof = {}
            self.enemies = [u for u in enemies if (u.ap > 0 or u.at > 0 or u.is_ft)]

    def objective_distance(self, h: str) -> int:
        return self.obj_dist.get(h, 40) if self.obj_dist else 0

    def cover(self, h: str, down: bool) -> int:
        """AP dice against infantry in ``h`` (more dice: better cover)."""
        return self.view.hex_dice(h, down)

    def threat(self, h: str, down: bool = False, afv: bool = False) -> float:
        """Expected loss (in unit values ~1) for one unit ending in ``h``: the enemy units that
        can see it and reach it, each firing alone at it with its attenuated factor."""
        key = (h, down, afv)
        t = self._threat.get(key)
        if t is not None:
            return t
        v = self.view
        hh = hexgrid.parse_hex_id(h)
        dice = (4 if down else 2) if afv else v.hex_dice(h, down)
        trees = v.terrain.trees(h)
        total = 0.0
        for e in self.enemies:
            if e.is_ft or e.is_mortar:
                continue
            d = hexgrid.distance(hexgrid.parse_hex_id(e.hex), hh)
            if d == 0 or d > 16:
                continue
            if afv:
                if e.at <= 0:
                    continue
            f = ct.attenuated(e.ap, max(1, e.ap_range), d) if not afv else e.at
            if f <= 0 or (not afv and f - trees <= 0):
                continue
            los = v.los(e.hex, h, e.down)
            if not los.clear:
                continue
            if afv:
                total += 0.25 if f >= 9 else 0.1
                continue
            fp = f - trees - los.trees_afvs_wrecks - (1 if los.level_difference > 0 else 0)
            if fp <= 0:
                continue
            pe, ps, pp = _ap_probs(fp, dice)
            total += pe + 0.45 * ps + 0.15 * pp
        self._threat[key] = total
        return total

    def field_of_fire(self, h: str, down: bool = False, reach: int = 8) -> float:
        """How many enemy units (or, before contact, enemy approach hexes) ``h`` sees within ``reach``."""
        f = self._fof.get(h)
        if f is not None:
            return f
        v = self.view
        hh = hexgrid.parse_hex_id(h)
        targets = [e.hex for e in self.enemies]
        if not targets:
            targets = self._approach(v)
        n = 0.0
        for t in targets:
            d = hexgrid.distance(hh, hexgrid.parse_hex_id(t))
            if 0 < d <= reach and v.los(h, t, down).clear:
                n += 1.0
        self._fof[h] = n
        return n

    def _approach(self, v) -> list[str]:
        """Hexes the enemy must cross near the objectives: a ring of radius 3-5 around them."""
        a = getattr(self, "_appr", None)
        if a is None:
            ring = sorted(h for h, d in (self.obj_dist or {}).items() if d in (3, 5))
            a = ring[:: max(1, len(ring) // 24)]
            self._appr = a
        return a
