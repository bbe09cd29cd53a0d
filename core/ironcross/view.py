"""What one side may know of a game: the read-only :class:`PlayerView` handed to players.

Players (``core.ironcross.players``) get ``PlayerView(game, side)`` with the legal actions. The view gives
the map and its terrain, the side's own units in full, the enemy units the opponent may see (in the
basic game every on-map enemy unit; never the opponent's unrevealed mines), line-of-sight queries
through :mod:`maps.los` with the current AFV/wreck occupancy, the turn, phase and phasing side, the
scenario's objectives (``GameSetup.objectives``) and helpers that price actions (AP firepower and
dice, movement costs). No method changes the game: units are handed out as copies.

LOS results are cached per game and occupancy (the map does not change during a game), so a
player may ask the same question many times cheaply.
"""

from __future__ import annotations

import copy
import weakref
from operator import itemgetter
from functools import lru_cache
from typing import Any, Iterable

from core.ironcross import combat_tables as ct
from core.ironcross.hex_terrain import in_frontal_area as _in_frontal_area
from core.ironcross.state import Phase, Unit, other_side, unit_changes
from maps import hexgrid
from maps.los import HexOccupancy, line_of_sight
from maps.los_table import FrozenOccupancy

__all__ = ["PlayerView", "LosInfo"]

#: LOS oracle (or a game without one) -> {(from, to, firer_down[, occupancy signature]): LosInfo}
_LOS_CACHES: "weakref.WeakKeyDictionary[Any, dict]" = weakref.WeakKeyDictionary()


class LosInfo(tuple):
    """(clear, level_difference, trees_afvs_wrecks, marsh_hexes) of one LOS (10.3, 11.16 b/c;
    ``marsh_hexes``: Marsh hexes along the line, 10.31 c / 23.2 e)."""

    __slots__ = ()

    def __new__(cls, clear: bool, level_difference: int, trees_afvs_wrecks: int, marsh_hexes: int = 0):
        return tuple.__new__(cls, (clear, level_difference, trees_afvs_wrecks, marsh_hexes))

    # the fields read by index in C (operator.itemgetter): players read them very often
    clear = property(itemgetter(0), doc="bool: the line is clear (10.3)")
    level_difference = property(itemgetter(1), doc="int: the target's level minus the firer's")
    trees_afvs_wrecks = property(itemgetter(2), doc="int: Woods/Orchard hexes, AFVs and wrecks along the line")
    marsh_hexes = property(itemgetter(3), doc="int: Marsh hexes along the line (10.31 c, 23.2 e)")


@lru_cache(maxsize=None)
def _hex(h: str):
    return hexgrid.parse_hex_id(h)


@lru_cache(maxsize=500_000)
def _dist(a: str, b: str) -> int:
    return hexgrid.distance(_hex(a), _hex(b))


def near_line(a: str, b: str, hexes) -> list[str]:
    """The hexes of ``hexes`` near the line from ``a`` to ``b``: a hex the line meets or runs
    along (10.31 b) is at most one hex off the straight path (hex distances a -> h -> b at most
    one more than a -> b)."""
    if not hexes:
        return []
    dab = _dist(a, b) + 1
    return [h for h in hexes if _dist(a, h) + _dist(h, b) <= dab]


class PlayerView:
    """Read-only access to ``game`` for ``side``. Cheap to build (everything is computed lazily)."""

    def __init__(self, game, side: str):
        self._game = game
        self.side = side
        self.enemy = other_side(side)
        self._units: dict[str, Unit] | None = None
        self._occ: dict | None = None
        self._occ_sig: tuple | None = None
        self._occ_ids: frozenset[str] = frozenset()
        self._los_local: dict = {}  # this view's answers (the position does not change under it)
        self._wocc = None  # the wrecks alone (los_estimate)
        self._wsig: tuple = ()
        self._wids: frozenset[str] = frozenset()
        self._est: dict | None = None  # los_estimate's answers for the wrecks now (shared, see there)
        self._glc: dict | None = None  # _game_los_cache(), once per view
        self._lists_cache: list | None = None  # see _lists

    # ------------------------------------------------------------------ game position
    @property
    def turn(self) -> int:
        return self._game.state.turn

    @property
    def game_length(self) -> int:
        return self._game.state.game_length

    @property
    def player_turn(self) -> int:
        return self._game.state.player_turn

    @property
    def phase(self) -> Phase:
        return self._game.state.phase

    @property
    def phasing(self) -> str:
        return self._game.state.phasing

    @property
    def is_phasing(self) -> bool:
        return self._game.state.phasing == self.side

    @property
    def first_side(self) -> str:
        return self._game.state.first_side

    @property
    def first_shot(self) -> bool:
        return self._game.state.first_shot

    @property
    def movement_pcs(self) -> bool:
        """8.22: whether movement needs PCs now (from the Player Turn after the first shot)."""
        s = self._game.state
        return s.movement_pcs_from_player_turn is not None and s.player_turn >= s.movement_pcs_from_player_turn

    @property
    def seed_key(self) -> tuple:
        """A key that changes with every Player Turn and phase (for per-phase caches)."""
        s = self._game.state
        return (s.player_turn, s.phase.value)

    # ------------------------------------------------------------------ map
    @property
    def hexmap(self):
        return self._game.map

    @property
    def terrain(self):
        """The game's :class:`core.ironcross.hex_terrain.HexTerrain` (read-only queries)."""
        return self._game.terrain

    @property
    def chart(self):
        return self._game.setup.chart

    def contains(self, hex_id: str) -> bool:
        try:
            return self._game.map.contains(hexgrid.parse_hex_id(hex_id))
        except Exception:
            return False

    @staticmethod
    def distance(a: str, b: str) -> int:
        return _dist(a, b)

    def neighbours(self, hex_id: str) -> list[str]:
        """The ids of the hexes next to ``hex_id`` on the map, in hexside order (a new list); kept
        on the map object, which lasts as long as its scenario (the same for every game)."""
        m = self._game.map
        cache = m.__dict__.get("_neighbour_ids")
        if cache is None:
            cache = m.__dict__["_neighbour_ids"] = {}
        t = cache.get(hex_id)
        if t is None:
            t = cache[hex_id] = tuple(n.id for n in hexgrid.neighbours(hexgrid.parse_hex_id(hex_id)) if m.contains(n))
        return list(t)

    # ------------------------------------------------------------------ units
    def _visible(self) -> dict[str, Unit]:
        if self._units is None:
            # the copies the previous view of this side handed out, reused for units that have not
            # changed since (their stamp, Unit.__setattr__) and copies nobody changed
            shared = self._game.__dict__.setdefault("_view_copies_cache", {})
            units = self._game.state.units
            now = (unit_changes(), id(units), len(units))
            last = shared.get(("out", self.side))
            if last is not None and last[0] == now:
                self._units = last[1]  # no unit of the game (nor any copy) changed since: the same copies
                return self._units
            prev = shared.get(self.side) or {}
            out = {}
            made = {}
            new = object.__new__
            visible = self._game.is_visible_to
            for uid, u in units.items():
                stamp = u.__dict__.get("_stamp")
                hit = prev.get(uid)
                if hit is not None and hit[0] is u and hit[1] == stamp and \
                        hit[2].__dict__.get("_stamp") == stamp and hit[2].replacements == u.replacements:
                    out[uid] = hit[2]  # unchanged since the last view showed it (so still visible)
                    made[uid] = hit
                    continue
                # own units in full; enemy units only when on the map and not hidden (24.2)
                if u.side == self.side or (u.on_map and visible(u, self.side)):
                    # a copy (Unit.__copy__) with its own list of replacements, made without
                    # Unit.__setattr__: a copy is no change to the game's units (unit_changes)
                    c = new(type(u))
                    d = c.__dict__
                    d.update(u.__dict__)
                    d["replacements"] = list(u.replacements)
                    if u.side != self.side and u.is_mg and self._game.visible_mode(u, self.side) is None:
                        c.mg_mode, c.fl_target, c.sp_halved_turn = None, None, 0  # 21.0 modes stay secret
                    out[uid] = c
                    made[uid] = (u, stamp, c)
            shared[self.side] = made
            shared[("out", self.side)] = (now, out)
            self._units = out
        return self._units

    def units(self) -> dict[str, Unit]:
        """Every unit this side may see, by id (copies): its own (on or off the map, eliminated
        too) and the enemy's on-map units."""
        return dict(self._visible())

    def unit(self, uid: str) -> Unit | None:
        return self._visible().get(uid)

    def _lists(self) -> tuple:
        """(own units on the map, all own units, enemy units on the map, hex -> units on the map by
        id or None until asked) of the copies, kept while no unit (nor copy) changes
        (:func:`unit_changes`), by the next views of this side too when they hand out the same copies."""
        c = self._lists_cache
        if c is None or c[0] != unit_changes():
            vis = self._visible()
            # the previous view of this side made them from the same copies (no unit changed since)
            shared = self._game.__dict__.setdefault("_view_copies_cache", {})
            last = shared.get(("lists", self.side))
            if last is not None and last[0] == unit_changes() and last[5] is vis:
                self._lists_cache = last
                return last
            side = self.side
            own_all = [u for u in vis.values() if u.side == side]
            own_on = [u for u in own_all if u.on_map]
            enemy = [u for u in vis.values() if u.side != side and u.on_map]
            c = self._lists_cache = shared[("lists", side)] = [unit_changes(), own_on, own_all, enemy, None, vis]
        return c

    def own_units(self, on_map: bool = True) -> list[Unit]:
        return list(self._lists()[1 if on_map else 2])

    def enemy_units(self) -> list[Unit]:
        return list(self._lists()[3])

    def units_at(self, hex_id: str) -> list[Unit]:
        c = self._lists()
        at = c[4]
        if at is None:
            at = c[4] = {}
            for u in sorted(self._visible().values(), key=lambda x: x.id):
                if u.on_map:
                    at.setdefault(u.hex, []).append(u)
        return list(at.get(hex_id, ()))

    def enemy_at(self, hex_id: str) -> list[Unit]:
        return [u for u in self.units_at(hex_id) if u.side != self.side]

    # ------------------------------------------------------------------ markers
    @property
    def ips(self) -> dict[str, int]:
        return dict(self._game.state.ips)

    @property
    def wrecks(self) -> dict[str, int]:
        return dict(self._game.state.wrecks)

    @property
    def control(self) -> dict[str, str]:
        return dict(self._game.state.control)

    def grenades_left(self, side: str | None = None) -> int:
        return self._game.state.grenades.get(side or self.side, 0)

    def mines(self) -> dict[str, dict]:
        """Own minefields and what is revealed of the enemy's (19.11: never unrevealed factors)."""
        out = {}
        for h, m in self._game.state.mines.items():
            if m.get("side") == self.side:
                out[h] = dict(m)
            elif m.get("revealed_ap") or m.get("revealed_at"):
                out[h] = {"side": m.get("side"), "ap": m.get("ap", 0) if m.get("revealed_ap") else 0,
                          "at": m.get("at", 0) if m.get("revealed_at") else 0,
                          "revealed_ap": bool(m.get("revealed_ap")), "revealed_at": bool(m.get("revealed_at"))}
        return out

    def snapshot(self) -> dict:
        """The dict view of earlier versions (``Game.view``): the state without hidden mines."""
        return self._game.view(self.side)

    # ------------------------------------------------------------------ scenario data
    @property
    def objectives(self) -> list[dict]:
        """This side's objectives (``{"hexes", "goal": "occupy"|"clear", "weight", "text"}``)."""
        return [dict(o) for o in (getattr(self._game.setup, "objectives", None) or {}).get(self.side, [])]

    def outcome(self, placed: dict[str, str] | None = None) -> tuple[str, Any]:
        """The result the scenario's victory conditions would give if the game ended now, as this
        side sees it: its own units and the enemy units it may see, with the public hex control
        (the AI's posture). ``placed`` ({own unit id: hex}) puts own units in hexes as a
        hypothesis (e.g. during set-up). Returns (``"german"|"russian"|"draw"``, details); a setup
        without victory conditions gives ("draw", None). Changes nothing."""
        g = self._game
        decide = g.setup.victory
        if decide is None:
            return ("draw", None)
        units = {}
        for uid, u in self._visible().items():
            if placed and uid in placed and u.side == self.side and not u.eliminated:
                u = copy.copy(u)
                u.hex = placed[uid]
            units[uid] = u
        st = copy.copy(g.state)
        st.units = units
        st.control = dict(g.state.control)
        res = decide(st, None)
        return res if isinstance(res, tuple) else (res, None)

    def setup_zones(self, side: str | None = None) -> frozenset[str]:
        """Hexes where ``side`` (default: this side) sets up (scenario data, public)."""
        side = side or self.side
        out: set[str] = set()
        for d in self._game.setup.deployments:
            if d.side == side:
                out |= d.zone
        return frozenset(out)

    def entry_hexes(self, side: str | None = None) -> frozenset[str]:
        """Hexes where units of ``side`` (default: this side) may enter (scenario data, public):
        its groups' entries and its detachments' entries (24.1 special options; whether and
        which units use one is the side's secret)."""
        side = side or self.side
        out: set[str] = set()
        for e in self._game.setup.entries:
            if e.side == side:
                out |= e.hexes
        for d in getattr(self._game.setup, "detachments", ()):
            if d.side == side:
                out |= d.entry.hexes
        return frozenset(out)

    def entry_of(self, uid: str):
        """The :class:`core.ironcross.setup.Entry` of an own unit that enters later, or None."""
        e = self._game._entry_of.get(uid)
        return e if e is not None and e.side == self.side else None

    def setup_item(self) -> tuple[str, Any] | None:
        """During set-up: what this side places now (("unit", (uid, zone)), ("ip", (pts, zone)),
        ("ap_mines"/"at_mines", (factors, zone))) or chooses (("detachment", :meth:`detachment`),
        ("infiltration", zone)), else None."""
        if self.phase is not Phase.SETUP:
            return None
        q = getattr(self._game, "_setup_queue", None)
        if not q or q[0][0] != self.side:
            return None
        if q[0][1] == "detachment":
            return ("detachment", self.detachment())
        return (q[0][1], q[0][2])

    def detachment(self) -> dict | None:
        """This side's open detachment choice (24.1 special option, its own secret), or None:
        ``name``, ``group``, ``limits``, ``entry`` (``hexes``, ``turn``, ``phase``),
        ``group_start`` (where the group's units start otherwise: ``hexes``, ``turn``, 0 for a
        set-up zone), ``chosen`` and ``offers`` (see ``Game.detachment_choice``)."""
        g = self._game
        return g.detachment_choice(self.side) if hasattr(g, "detachment_choice") else None

    def no_move_before(self, uid: str) -> int | None:
        return self._game.setup.no_move_before.get(uid)

    # ------------------------------------------------------------------ movement in progress
    def moving(self) -> dict | None:
        """The own group moving now: ``units``, ``mp`` (left per unit), ``path``, ``leader``,
        ``afv``, ``entering``, ``hexes_moved``, ``one_hex``; None when nothing moves."""
        mv = self._game.moving
        if mv is None:
            return None
        us = self._game.state.units
        if not mv.units or us[mv.units[0]].side != self.side:
            return None
        return {"units": list(mv.units), "mp": dict(mv.mp), "path": list(mv.path), "leader": mv.leader,
                "afv": mv.afv, "entering": mv.entering, "hexes_moved": mv.hexes_moved, "one_hex": dict(mv.one_hex)}

    def overrun_fire(self) -> dict | None:
        """The overrun this side may answer now with special AT fire (9.2 A): ``hex`` (its hex about
        to be overrun), ``afv`` (the enemy AFV's id), ``frm`` (the hex it comes from) and ``pending``
        (own ATR/ATG ids not yet decided); None when no such decision is open for this side."""
        w = self._game.overrun_window
        if w is None or w.side != self.side:
            return None
        return {"hex": w.hex, "afv": w.afv, "frm": w.frm, "pending": list(w.pending)}

    def window_hex(self) -> str | None:
        """The hex this side may opportunity-fire at now (13.0), or None."""
        w = self._game.window
        return w.hex if w is not None and w.side == self.side else None

    def casualty_choice(self) -> dict | None:
        """An open assault casualty choice (17.23), or None: ``side`` (who removes units), ``hex``,
        ``hits`` still to allot, ``step``; when this side decides also ``candidates`` (its unit ids
        it may remove, one per :class:`core.ironcross.actions.TakeCasualty`) and ``chosen``."""
        return self._game.casualty_choice(self.side)

    def allowance(self, uid: str, reaction: bool | None = None) -> tuple[float, bool]:
        """(MP, one-hex-only) of an own unit (8.1)."""
        if reaction is None:
            reaction = self.phase is Phase.REACTION_MOVEMENT
        u = self._game.state.units[uid]
        return self._game._allowance(u, reaction)

    def movement_allowance(self, unit: Unit, reaction: bool = False) -> tuple[float, bool]:
        """(MP, one-hex-only) the Movement Point Allowance Chart (8.1, 8.11-8.15) gives ``unit``
        -- a unit this view shows, own or enemy, in the state it has (pass a copy made NORMAL to
        ask what it moves once recovered)."""
        return self._game._allowance(unit, reaction)

    def move_cost(self, unit: Unit, frm: str | None, to: str) -> float | None:
        """MP for ``unit`` to enter ``to`` from adjacent ``frm`` (None: from off the map), 8.5."""
        kind = "afv" if unit.is_afv else "infantry"
        t = self._game.terrain
        if frm is None:
            return t.entry_cost(to, kind, unit.down)
        return t.move_cost(frm, to, kind, unit.down, road_rate=unit.normal and not unit.down)

    # ------------------------------------------------------------------ LOS
    def occupancy(self) -> dict:
        if self._occ is None:
            self._occ = self._game.occupancy()
            self._occ_sig = tuple(sorted((h.id, o.afvs, o.wrecks) for h, o in self._occ.items()))
            self._occ_ids = frozenset(h.id for h, o in self._occ.items() if o.afvs or o.wrecks)
        return self._occ

    def occupancy_key(self) -> tuple:
        """The AFVs and wrecks per hex as a hashable key (what LOS depends on beyond the map)."""
        self.occupancy()
        return self._occ_sig

    def los(self, a: str, b: str, firer_down: bool = False) -> LosInfo:
        """LOS (10.3) with the current AFVs and wrecks (cached per game and occupancy).

        The line without any AFV or wreck is cached for the game with the hexes it meets (and
        the hexside partners, 10.31 b); while none of them holds an AFV or a wreck that answer
        stands, else the line is traced again with the occupancy (cached per occupancy)."""
        local = self._los_local
        r = local.get((a, b, firer_down))
        if r is not None:
            return r
        r = local[(a, b, firer_down)] = self._los(a, b, firer_down)
        return r

    def los_estimate(self, a: str, b: str, firer_down: bool = False) -> LosInfo:
        """LOS (10.3) with the wrecks but without the AFVs along the line (10.31 b): for an AI's
        estimates of fire that will come after the AFVs have moved; cached for the game per
        wreck position. Never for a rules decision (the engine uses :meth:`los`)."""
        est = self._est
        if est is not None:
            r = est.get((a, b, firer_down))
            if r is not None:
                return r
        if self._wocc is None:
            wrecks = self._game.state.wrecks
            self._wsig = tuple(sorted(wrecks.items()))
            self._wocc = FrozenOccupancy({hexgrid.parse_hex_id(h): HexOccupancy(0, n)
                                          for h, n in self._wsig if n})
            self._wids = frozenset(h for h, n in self._wsig if n)
        if getattr(self._game, "los_oracle", None) is None:
            local = self._los_local
            k = ("est", a, b, firer_down)
            r = local.get(k)
            if r is None:
                r = local[k] = self.los(a, b, firer_down)
            return r
        if est is None:
            # the answers for these wrecks, shared by every view of the game while they stand
            est = self._est = self._game_los_cache().setdefault(("est", self._wsig), {})
            r = est.get((a, b, firer_down))
            if r is not None:
                return r
        r = est[(a, b, firer_down)] = self._table_los(a, b, firer_down, self._wocc, self._wids)
        return r

    def terrain_blocks_test(self):
        """The game's test ``(a, b, firer_down) -> bool``: True when the terrain alone blocks LOS
        from hex ``a`` to hex ``b`` (its LOS table, :meth:`maps.los_table.LosOracle.terrain_blocks`),
        so that :meth:`los` and :meth:`los_estimate` are blocked too, whatever AFVs and wrecks stand
        on the line (they only add to the 10.31 b count); False when the terrain leaves the line
        clear (ask :meth:`los_estimate`). None when the game has no LOS table. For the AI's
        estimates: a shortcut past the answers it does not need, kept for the game (terrain only)."""
        oracle = getattr(self._game, "los_oracle", None)
        if oracle is None:
            return None
        o = oracle()
        return o.terrain_blocks if o.table is not None else None

    def _game_los_cache(self) -> dict:
        """The LOS answers of the game's LOS oracle (bounded): they depend only on the map, its
        chart and playing area (the oracle, :func:`maps.los_table.los_oracle`, one per map object)
        and on the occupancy the keys name, so every view of every game played on that map in this
        process shares them (a playtest worker plays many games of one scenario). A game without
        an oracle keeps its own. Looked up once per view (a view lives for one decision; the next
        view checks the bound again)."""
        if self._glc is not None:
            return self._glc
        oracle = getattr(self._game, "los_oracle", None)
        owner = oracle() if oracle is not None else self._game
        cache = _LOS_CACHES.get(owner)
        if cache is None:
            cache = _LOS_CACHES[owner] = {}
        if len(cache) > 400_000:
            cache.clear()
        self._glc = cache
        return cache

    def _table_los(self, a: str, b: str, firer_down: bool, occ, occ_ids: frozenset) -> LosInfo:
        """LOS from the game's terrain table (exact where the line meets a hex of ``occ_ids``,
        :mod:`maps.los_table`), cached for the game: per line, and per the AFVs and wrecks of the
        hexes of ``occ_ids`` near it (a hex the line meets or runs along, 10.31 b, is at most one
        hex off the straight path), so an AFV or a wreck elsewhere keeps the answer."""
        near = near_line(a, b, occ_ids)
        if near:
            parse = hexgrid.parse_hex_id
            cells = []
            for h in sorted(near):
                o = occ[parse(h)]
                cells.append((h, o.afvs, o.wrecks))
            key = (a, b, firer_down, tuple(cells))
        else:
            key = (a, b, firer_down)
        cache = self._game_los_cache()
        r = cache.get(key)
        if r is None:
            res = self._game.los_oracle().los(a, b, firer_down=firer_down, occupancy=occ if near else None)
            r = cache[key] = LosInfo(bool(res.clear), int(res.level_difference), int(res.trees_afvs_wrecks),
                                     int(res.marsh_hexes))
        return r

    def _los(self, a: str, b: str, firer_down: bool) -> LosInfo:
        occ = self.occupancy()
        if getattr(self._game, "los_oracle", None) is not None:
            return self._table_los(a, b, firer_down, occ, self._occ_ids)
        cache = self._game_los_cache()
        base = cache.get((a, b, firer_down))
        if base is None:
            res = line_of_sight(self._game.map, a, b, occupancy={}, firer_down=firer_down,
                                chart=self._game.setup.chart)
            base = cache[(a, b, firer_down)] = [
                LosInfo(bool(res.clear), int(res.level_difference), int(res.trees_afvs_wrecks), int(res.marsh_hexes)),
                res]
        near = near_line(a, b, self._occ_ids)
        if not near:
            return base[0]
        if not isinstance(base[1], tuple):
            res = base[1]
            base[1] = tuple({h.id for h in res.hexes} | {h.partner for h in res.hexes if h.partner})
        if not any(h in base[1] for h in near):
            return base[0]
        key = (a, b, firer_down, self._occ_sig)
        r = cache.get(key)
        if r is None:
            oracle = getattr(self._game, "los_oracle", None)
            if oracle is not None:  # the game's terrain table, exact where AFVs/wrecks are met
                res = oracle().los(a, b, firer_down=firer_down, occupancy=occ)
            else:
                res = line_of_sight(self._game.map, a, b, occupancy=occ, firer_down=firer_down,
                                    chart=self._game.setup.chart)
            r = LosInfo(bool(res.clear), int(res.level_difference), int(res.trees_afvs_wrecks), int(res.marsh_hexes))
            if len(cache) > 400_000:
                cache.clear()
            cache[key] = r
        return r

    # ------------------------------------------------------------------ pricing helpers
    def ap_dice_against(self, uid: str, moved: bool, hex_id: str | None = None, down: bool | None = None) -> int:
        """AP dice the engine rolls against unit ``uid`` (11.3) when a firer ``moved``; with
        ``hex_id``/``down`` the dice it would get there / in that state (no AFV cover then)."""
        g = self._game
        t = g.state.units[uid]
        if hex_id is None and down is None and hasattr(g, "_ap_dice_against"):
            return g._ap_dice_against(t, t.hex, moved)
        hx = hex_id or t.hex
        d = t.down if down is None else down
        if t.is_afv:
            return (4 if d else 2) + (1 if moved else 0)
        return g.terrain.ap_dice(hx, target_down=d, firer_moved=moved, afv_cover=False,
                                 ip_points=g.state.ips.get(hx, 0))

    def hex_dice(self, hex_id: str, down: bool, moved: bool = False) -> int:
        """AP dice against infantry in ``hex_id`` (terrain, DOWN, IP; 11.31-11.33, 18.3)."""
        g = self._game
        return g.terrain.ap_dice(hex_id, target_down=down, firer_moved=moved, afv_cover=False,
                                 ip_points=g.state.ips.get(hex_id, 0))

    def ap_firepower(self, firers: Iterable[str], target: str, intensive: Iterable[str] = (),
                     opportunity: bool = False) -> int:
        """Final AP firepower of ``firers`` at ``target`` (11.1, 11.2, 11.15, 11.16 a-d, 13.2)."""
        us = [self._game.state.units[x] for x in firers]
        intensive = set(intensive)
        total = 0
        for u in us:
            rng = _dist(u.hex, target)
            ap = min(u.ap, 4) if (u.is_afv and opportunity) else u.ap  # 13.2: capped, then attenuated
            f = ct.attenuated(ap, max(1, u.ap_range), rng)
            if u.id in intensive and u.is_mg:
                f *= 2
            if u.weapon == "MMG" and not u.full_crew:
                f //= 2
            total += f
        o = self.occupancy().get(hexgrid.parse_hex_id(target), HexOccupancy())
        red = self._game.terrain.trees(target) + o.afvs + o.wrecks
        higher = False
        for hx in sorted({u.hex for u in us}):
            down = any(u.down for u in us if u.hex == hx)
            r = self.los(hx, target, down)
            red += r.trees_afvs_wrecks
            higher = higher or r.level_difference > 0
        return total - red - (1 if higher else 0)

    def in_frontal_area(self, unit_hex: str, facing: int, target_hex: str) -> bool:
        """:func:`core.ironcross.hex_terrain.in_frontal_area` (8.7, 10.23, 12.31)."""
        return _in_frontal_area(unit_hex, facing, target_hex)

    def legal_actions(self) -> list:
        """The legal actions of this side now (empty when another side decides)."""
        return self._game.legal_actions(self.side)

    # ---------------------------------------------- advanced rules (21.0-23.0); scenario rules 24.2, 24.3
    @property
    def advanced(self) -> bool:
        """Advanced rules (21.0-23.0) in force. Hidden hexes (24.2) and infiltration (24.3) are
        scenario rules: they apply whenever the scenario grants them, whatever this says."""
        return getattr(self._game, "rules", "basic") == "advanced"

    def own_hidden_hexes(self) -> list[str]:
        """This side's hexes that still hold hidden units (24.2; its own secret)."""
        g = self._game
        return g.hidden_hexes_of(self.side) if hasattr(g, "hidden_hexes_of") else []

    def hidden_hexes_left(self) -> int:
        """How many more hidden hexes this side may choose at set-up (24.21)."""
        g = self._game
        return g._hidden_hexes_left(self.side) if hasattr(g, "_hidden_hexes_left") else 0

    def infiltration_terrain_modifier(self, hex_id: str) -> int:
        """24.3 terrain modifier of an Infiltration Hex (buildings, gully, trees; negative is good)."""
        return self._game._infiltration_terrain_modifier(hex_id)[0]

    def infiltration(self) -> dict:
        """The public record of the infiltration attempt (24.3): ``side``, ``stage``, ``hex``,
        ``units``, ``result`` as far as known (empty before any attempt)."""
        rec = self._game.state.records.get("infiltration") or {}
        keys = ("side", "stage", "hex", "result") + (("units", "squad", "commander") if rec.get("side") == self.side
                                                      else ())
        return {k: copy.deepcopy(rec[k]) for k in keys if k in rec}

    def in_spray_area(self, uid: str, hex_id: str) -> bool:
        """21.31: ``hex_id`` in the spray fire area of own MG ``uid`` (frontal area, initial range,
        same level, unblocked LOS)."""
        u = self._game.state.units[uid]
        return u.side == self.side and u.on_map and self._game._in_spray_area(u, hex_id)

    def mode_firepower(self, uid: str, hex_id: str, mode: str) -> int:
        """21.25/21.35: final AP firepower of own MG ``uid`` at a unit in ``hex_id`` in FL/SP ``mode``."""
        u = self._game.state.units[uid]
        return int(self._game._mode_firepower(u, hex_id, mode)["final"])

    def fire_lane(self, uid: str, target: str | None = None) -> list[str]:
        """21.21: the hexes of the Fire Lane of own MG ``uid`` toward ``target`` (default: its
        current FL target), as the engine draws it now; empty when it could not be fired."""
        g = self._game
        u = g.state.units[uid]
        t = target if target is not None else u.fl_target
        if u.side != self.side or t is None or not u.on_map or t == u.hex or _dist(u.hex, t) > u.ap_range:
            return []
        if u.facing and not self.in_frontal_area(u.hex, u.facing, t):
            return []
        los = g.los(u.hex, t, firer_down=u.down)
        ids = [h for h in los.hex_ids if h != u.hex]
        if not los.clear and los.blocking_hex in ids:
            ids = ids[:ids.index(los.blocking_hex) + 1]
        lvl = g.terrain.level(u.hex)
        return [h for h in ids if g.map.contains(hexgrid.parse_hex_id(h)) and g.terrain.level(h) == lvl]
