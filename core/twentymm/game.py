"""The game of the 20 mm Russo-German rules (seed 003): state, validation and resolution.

A :class:`Game` has the :class:`core.rule_system.RuleGame` shape. Turns alternate between the
players (Sequence of Play); in his turn a player moves OR fires with each unit, or makes a special
action, then ends the turn (:class:`~core.twentymm.actions.EndTurn`). ``turn`` counts Game Turns
(both players). Every die is rolled through :class:`core.dice.Dice` and logged as a
``{"kind": "roll", ...}`` event; every event names its rule (the seed's section heading).
``apply`` validates any proposal and raises :class:`TwentyIllegal` (an IllegalActionError naming
the section) changing nothing.
"""

from __future__ import annotations

import copy
import math

from shapely.geometry import LineString, Point

from core.dice import Dice
from core.rule_system import IllegalActionError
from core.twentymm import tables
from core.twentymm.actions import Assault, EndTurn, Fire, IndirectFire, Move, Special
from core.twentymm.model import SIDES, Setup, Unit, angdiff, bearing, other
from maps.table_map import Crossing

EPS = 1e-6
ARC = 22.5
OBSTACLE_MOVE = 2.0      # reading: a move crossing an obstacle is the whole turn, at most 2 inches
EMBARK_REACH = 2.0       # reading: infantry get on/off a vehicle within 2 inches of it
LIMBER_REACH = 2.0
HOLE_HALF_WIDTH = 0.75   # Ditching...: "a hole the width of one vehicle" (1.5 inches)
COVER_RANK = {None: 0, "soft": 1, "hard": 2}
FACE_FRONT = math.degrees(math.atan2(1.0, 2.0))   # 26.57: the 2 x 1 hull's front corner


class TwentyIllegal(IllegalActionError):
    """An action the 20 mm rules refuse; ``rule`` is the seed section."""

    def __init__(self, rule: str, reason: str):
        self.rule, self.reason = rule, reason
        super().__init__(f"20mm {rule}: {reason}")


_GEO: dict = {}


def _geometry(table) -> dict:
    """Prepared geometries of a table for fast movement costs (cached per table)."""
    import shapely
    from shapely.strtree import STRtree
    g = _GEO.get(id(table))
    if g is None or g["table"] is not table:
        road, diff = table.road_area, table.difficult
        shapely.prepare(road)
        shapely.prepare(diff)
        shapely.prepare(table.table)
        polys = [b.polygon for b in table.buildings]
        g = _GEO[id(table)] = {"table": table, "road": road, "difficult": diff,
                               "buildings": STRtree(polys) if polys else None, "building_polys": polys}
    return g


def _xy(p) -> tuple[float, float]:
    return (float(p[0]), float(p[1]))


def _at(p) -> list[float] | None:
    """A table point for an event (inches, 3 decimals: where a shot came from or went to, so the
    editor's Watch can draw it), or None."""
    return None if p is None else [round(float(p[0]), 3), round(float(p[1]), 3)]


class Game:
    """A game of the 20 mm rules from a :class:`Setup` and a seed (see the module docstring)."""

    def __init__(self, setup: Setup, seed: int = 0, rules=None, options=None):
        self.setup = setup
        self.table = setup.table
        self.seed = seed
        self._new: list = []
        self.units: dict[str, Unit] = {}
        self._los_cache: dict = {}
        self._terrain_cache: dict = {}
        self._moves_cache: dict = {}
        self._geo = _geometry(self.table)
        for u in setup.units:
            c = copy.deepcopy(u)
            self.units[c.uid] = c
        self.events: list[dict] = []
        self.actions: list = []
        self.dice = Dice(seed, on_roll=self._on_roll)
        self.side = setup.first_side
        self.game_turn = 1
        self.shooting_started = False
        self.holes: list[tuple[float, float]] = []
        self._outcome: str | None = None
        self.reason = ""
        self.start_strength = {s: self._strength(s) for s in SIDES}
        for u in self.units.values():
            if u.embarked_in:
                v = self.units[u.embarked_in]
                if u.uid not in v.passengers:
                    v.passengers.append(u.uid)
                u.pos = v.pos
        self._ev("setup", "Setup", hidden={u.uid: list(u.pos) for u in self.units.values() if u.hidden and u.pos},
                 first_side=self.side, turns=setup.turns)
        self._spot()
        self._start_side_turn()

    # ------------------------------------------------------------------ RuleGame shape
    def current_side(self) -> str | None:
        return None if self.is_terminal() else self.side

    @property
    def turn(self) -> int:
        return self.game_turn

    @property
    def outcome(self) -> str | None:
        return self._outcome

    def is_terminal(self) -> bool:
        return self._outcome is not None

    # ------------------------------------------------------------------ events and dice
    def _ev(self, kind: str, rule: str, **data) -> dict:
        e = {"kind": kind, "rule": rule, "turn": self.game_turn, "side": self.side, **data}
        self.events.append(e)
        self._new.append(e)
        return e

    def _on_roll(self, r) -> None:
        e = {"kind": "roll", "dice": list(r.dice), "total": r.total, "purpose": r.purpose, "rule": r.rule,
             "turn": self.game_turn}
        self.events.append(e)
        self._new.append(e)

    def roll(self, n: int, purpose: str, rule: str) -> list[int]:
        """Roll ``n`` D6 (logged); the dice."""
        return list(self.dice.roll(n, purpose, rule).dice)

    # ------------------------------------------------------------------ queries
    def unit(self, uid: str, rule: str = "Sequence of Play") -> Unit:
        u = self.units.get(uid)
        if u is None:
            raise TwentyIllegal(rule, f"no unit {uid!r}")
        return u

    def living(self, side: str | None = None) -> list[Unit]:
        return [u for u in self.units.values() if u.alive and (side is None or u.side == side)]

    def on_table(self, u: Unit) -> bool:
        return u.alive and u.pos is not None and u.kind != "battery" and u.embarked_in is None

    def cover_at(self, u: Unit, firer_pos) -> str | None:
        """The cover ``u`` has against fire from ``firer_pos`` (Cover Saves)."""
        kind = "man"
        if u.embarked_in is not None:
            v = self.units[u.embarked_in]
            if v.is_tank and angdiff(v.facing, bearing(v.pos, firer_pos)) <= 90:
                return "soft"   # Cover Saves: tank riders count the turret as soft cover from the front
            return None
        if u.kind == "vehicle":
            kind = "low_profile_vehicle" if u.ref.get("low_profile") else "vehicle"
        c = self.table.cover(u.pos, firer_pos, kind)
        if u.kind == "gun" and u.is_atg and angdiff(u.facing, bearing(u.pos, firer_pos)) <= 90 and c is None:
            c = "soft"   # Cover Saves: gun crews count their gun as soft cover from the front
        return c

    def ground_cover(self, p) -> str | None:
        return self.terrain(p).cover

    def terrain(self, p):
        """``table.terrain_at`` memoised per point."""
        key = (round(p[0], 6), round(p[1], 6))
        t = self._terrain_cache.get(key)
        if t is None:
            t = self._terrain_cache[key] = self.table.terrain_at(p)
        return t

    def spotting_distance(self, u: Unit) -> float:
        """Visibility and Spotting: 12; 24 for command elements, FOOs and tank commanders out of
        their hatches; 0 closed up; halved for spotters in moving vehicles."""
        if u.kind == "vehicle":
            d = tables.SPOTTING["closed_up"] if u.closed_up else tables.SPOTTING["hatches_open"]
            if u.moved:
                d /= 2
            return d
        if u.role in ("command", "foo"):
            return tables.SPOTTING["command"]
        return tables.SPOTTING["normal"]

    def los(self, a, b) -> bool:
        """The table's line of sight (symmetric), memoised per pair of points."""
        ka, kb = (round(a[0], 6), round(a[1], 6)), (round(b[0], 6), round(b[1], 6))
        key = (ka, kb) if ka <= kb else (kb, ka)
        v = self._los_cache.get(key)
        if v is None:
            v = self._los_cache[key] = not self.table.blocks_los(a, b)
        return v

    def knows(self, spotter: Unit, target: Unit) -> bool:
        """The target is not hidden to the spotter (Hidden Troops)."""
        return not target.hidden or spotter.uid in target.known_by

    def can_see(self, spotter: Unit, target: Unit) -> bool:
        """Firing: the target is not hidden to the spotter and not obscured by terrain."""
        if not (spotter.alive and spotter.pos is not None and self.on_table(target)):
            return False
        return (self.knows(spotter, target) and self.los(spotter.pos, target.pos)
                and self.fires_across_walls(spotter.pos, target.pos))

    def fires_across_walls(self, a, b) -> bool:
        """Infantry Moving and Firing in Buildings: a figure in a building fires out of (and is
        fired at through) only a side of its room with windows or doors - in a larger building
        without rooms only across the wall it is positioned against (the nearest); both ends are
        checked (:meth:`maps.table_map.TableMap.can_fire_across`; a building without doors and
        windows in the map has them in every wall)."""
        t = self.table
        return t.can_fire_across(a, b) and t.can_fire_across(b, a)

    def visible_enemies(self, u: Unit) -> list[Unit]:
        return [t for t in self.living(other(u.side)) if self.on_table(t) and self.can_see(u, t)]

    # ------------------------------------------------------------------ spotting
    def _spot(self) -> None:
        """Visibility and Spotting: hidden troops within a spotter's distance and in its LOS are
        spotted; the spotters tell every friend in LOS; friends who come into LOS of one who knows
        learn it too."""
        for h in self.units.values():
            if not (h.alive and h.hidden and h.pos is not None):
                continue
            enemies = [e for e in self.living(other(h.side)) if self.on_table(e) or (e.embarked_in and e.pos)]
            new = []
            for e in enemies:
                if e.uid in h.known_by or e.pos is None:
                    continue
                d = self.table.distance(e.pos, h.pos)
                reach = self.spotting_distance(e)
                if e.kind == "vehicle" and e.closed_up:
                    reach = tables.CONTACT
                if d <= reach + EPS and self.los(e.pos, h.pos):
                    h.known_by.add(e.uid)
                    new.append(e.uid)
            if new:
                self._ev("spotted", "Visibility and Spotting", uid=h.uid, by=new)
            if h.known_by:
                changed = True
                while changed:
                    changed = False
                    for e in enemies:
                        if e.uid in h.known_by or e.pos is None:
                            continue
                        for k in sorted(h.known_by):  # uid order, never hash order: the "told" events replay
                            ku = self.units[k]
                            if ku.alive and ku.pos is not None and self.los(ku.pos, e.pos):
                                h.known_by.add(e.uid)
                                changed = True
                                self._ev("told", "Visibility and Spotting", uid=h.uid, to=e.uid, by=k)
                                break

    def _reveal(self, u: Unit, why: str) -> None:
        if u.hidden:
            u.hidden = False
            self._ev("revealed", "Visibility and Spotting", uid=u.uid, why=why, pos=list(u.pos))

    def _shooting(self) -> None:
        """Tank commanders close up when the shooting starts (reading: the first shot of the game
        closes every tank commander's hatch for the rest of it)."""
        if not self.shooting_started:
            self.shooting_started = True
            for v in self.units.values():
                if v.kind == "vehicle" and v.alive:
                    v.closed_up = True
            self._ev("closed_up", "Visibility and Spotting")

    # ------------------------------------------------------------------ strength and morale
    def _strength(self, side: str) -> int:
        """Force Morale: men and machines (each vehicle and crewed weapon one machine)."""
        n = 0
        for u in self.units.values():
            if u.side != side:
                continue
            if u.kind == "infantry":
                n += u.men if u.alive else 0
            elif u.kind == "gun":
                n += (u.crew + 1) if u.alive else 0
            elif u.kind == "vehicle":
                n += 1 if u.alive else 0
        return n

    def losses(self, side: str) -> float:
        s0 = self.start_strength[side]
        return 0.0 if s0 == 0 else 1.0 - self._strength(side) / s0

    # ------------------------------------------------------------------ apply
    def apply(self, action) -> list[dict]:
        """Validate and carry out ``action`` for the current side; returns its events. Raises
        :class:`TwentyIllegal` naming the seed section for an action the rules refuse (the game is
        unchanged)."""
        if self.is_terminal():
            raise TwentyIllegal("Sequence of Play", "the game is over")
        self._new = []
        self._check_numbers(action)
        if isinstance(action, EndTurn):
            self.actions.append(action)
            self._end_side_turn()
        elif isinstance(action, Move):
            plan = self._check_move(action)
            self.actions.append(action)
            self._do_move(action, plan)
        elif isinstance(action, Fire):
            plan = self._check_fire(action)
            self.actions.append(action)
            self._do_fire(action, plan)
        elif isinstance(action, IndirectFire):
            plan = self._check_indirect(action)
            self.actions.append(action)
            self._do_indirect(action, plan)
        elif isinstance(action, Assault):
            plan = self._check_assault(action)
            self.actions.append(action)
            self._do_assault(action, plan)
        elif isinstance(action, Special):
            plan = self._check_special(action)
            self.actions.append(action)
            self._do_special(action, plan)
        else:
            raise TwentyIllegal("Sequence of Play", f"not an action of the 20 mm rules: {action!r}")
        if not self.is_terminal():
            self._spot()
            self._check_morale()
        out, self._new = self._new, []
        return out

    @staticmethod
    def _check_numbers(action) -> None:
        """Every point and bearing of a proposal is a finite number (else refused)."""
        nums = []
        for name in ("facing", "turret"):
            v = getattr(action, name, None)
            if v is not None:
                nums.append(v)
        for name in ("point",):
            v = getattr(action, name, None)
            if v is not None:
                nums.extend(v)
        for p in getattr(action, "path", ()) or ():
            nums.extend(p)
        for v in nums:
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                raise TwentyIllegal("Sequence of Play", f"not a finite number of inches or degrees: {v!r}")

    # ------------------------------------------------------------------ turn sequence
    def _start_side_turn(self) -> None:
        for u in self.living(self.side):
            u.acted, u.moved, u.fired, u.shots, u.hold, u.anchored = False, False, set(), 0, False, False
            u.traversed = 0.0
            if u.directing is not None:
                u.directing = dict(u.directing, this_turn=False)
            if u.stunned:   # Damaged vehicle table 1: no action next turn
                u.stunned = False
                u.acted = True
                self._ev("stunned_turn", "Anti-Tank Guns", uid=u.uid)
            if u.busy is not None:   # Towing, Limbering and Unlimbering: 2 turns with no other activity
                self._finish_busy(u)

    def _finish_busy(self, u: Unit) -> None:
        b = u.busy
        u.busy = None
        u.acted = True
        if b.get("lead"):
            gun, tow = self.units[b["gun"]], self.units[b["tow"]]
            if b["what"] == "limber":
                gun.tow, tow.towing = tow.uid, gun.uid
                gun.pos = tow.pos
            else:
                gun.tow, tow.towing = None, None
                gun.pos = b["point"]
            self._ev(b["what"] + "ed", "Towing, Limbering and Unlimbering", gun=gun.uid, tow=tow.uid)

    def _end_side_turn(self) -> None:
        side = self.side
        for u in self.living(side):
            u.under_fire = False
            if u.under_he:
                u.under_he = False
            if u.directing is not None and not u.directing.get("this_turn"):
                u.directing = None
        self._ev("end_turn", "Sequence of Play")
        self.side = other(side)
        if self.side == self.setup.first_side:
            self.game_turn += 1
            if self.game_turn > self.setup.turns:
                self._finish(self._victory(), "the last turn ended")
                return
        self._start_side_turn()
        self._forced_moves()

    def _forced_moves(self) -> None:
        """Pinning: infantry under HE fire who can reach better cover in one turn must go there."""
        for u in self.living(self.side):
            if u.kind == "infantry" and u.under_he and self.on_table(u):
                best = self._better_cover_points(u)
                u.hold = bool(best)
                if best:
                    self._ev("must_take_cover", "Pinning", uid=u.uid)

    def _check_morale(self) -> None:
        """Force Morale: a force that has lost over 50 % of its men and machines withdraws."""
        gone = [s for s in SIDES if self.losses(s) > 0.5]
        if len(gone) == 2:
            self._finish("draw", "both forces lost over half their men and machines")
        elif gone:
            self._ev("withdraw", "Force Morale", withdrawing=gone[0], losses=round(self.losses(gone[0]), 3))
            self._finish(other(gone[0]), f"the {gone[0]} force lost over half its men and machines and withdraws")

    def _victory(self) -> str:
        """The scenario's victory conditions: the attacker wins holding every objective (a unit
        within its radius, no enemy within it) at the end; else the defender."""
        att = self.setup.attacker
        if not self.setup.objectives:
            return "draw"
        return att if all(self.holder(o) == att for o in self.setup.objectives) else other(att)

    def holder(self, obj: dict) -> str | None:
        p, r = _xy(obj["point"]), float(obj.get("radius", 3.0))
        near = {u.side for u in self.units.values()
                if u.alive and u.kind in ("infantry", "vehicle", "gun") and u.pos is not None and u.embarked_in is None
                and self.table.distance(u.pos, p) <= r and not (u.kind == "vehicle" and u.move_only and u.immobilised)}
        return next(iter(near)) if len(near) == 1 else None

    def _finish(self, outcome: str, reason: str) -> None:
        self._outcome, self.reason = outcome, reason
        self._ev("game_over", "Force Morale" if "half" in reason else "Setup", outcome=outcome, reason=reason)

    # ------------------------------------------------------------------ common checks
    def _own(self, uid: str, rule: str) -> Unit:
        u = self.unit(uid, rule)
        if u.side != self.side:
            raise TwentyIllegal("Sequence of Play", f"{uid} is not a unit of the side to play ({self.side})")
        if not u.alive:
            raise TwentyIllegal(rule, f"{uid} is out of the game")
        if u.busy is not None:
            raise TwentyIllegal("Towing, Limbering and Unlimbering", f"{uid} is limbering/unlimbering: no other activity")
        return u

    def _fresh(self, u: Unit, rule: str = "Sequence of Play") -> None:
        if u.acted or u.fired:
            raise TwentyIllegal("Sequence of Play", f"{u.uid} has already moved, fired or acted this turn (move OR fire)")

    # ------------------------------------------------------------------ movement
    def allowance_rates(self, u: Unit) -> dict[str, float]:
        """Infantry Movement / Vehicle Movement / snow: inches per turn by going."""
        mv = tables.reference()["movement"]
        snow = self.table.snow
        if u.kind in ("infantry", "gun"):
            r = dict(mv["infantry"])
            if snow:   # Infantry in Snow Terrain: cross-country counts as difficult
                r["cross_country"] = r["difficult"]
            return r
        c = u.vclass
        if c == "horse":   # Horse Tows: infantry speed, including in snow
            r = dict(mv["infantry"])
            if snow:
                r["cross_country"] = r["difficult"]
            return r
        r = dict(mv[c])
        r["difficult"] = r["cross_country"]   # tracked: no penalty (ditching instead)
        if snow and c == "wheeled":   # Vehicles in Snow Terrain
            r = {"road": r["road"] / 2, "cross_country": mv["infantry"]["difficult"], "difficult": 0.0}
        return r

    def leg_cost(self, u: Unit, a, b) -> tuple[float, dict]:
        """The fraction of a turn's allowance a straight leg a->b costs, and what it crosses:
        ``{"difficult": inches, "obstacles": [Crossing], "buildings": bool, "road": inches,
        "walls": [WallCrossing]}`` (``walls``: the building walls crossed, each through a door, a
        window or a blank wall - Infantry Moving and Firing in Buildings)."""
        seg = LineString([a, b])
        length = seg.length
        if length <= EPS:
            return 0.0, {"difficult": 0.0, "obstacles": [], "buildings": False, "road": 0.0, "walls": []}
        t = self.table
        geo = self._geo
        road = seg.intersection(geo["road"]).length if (not geo["road"].is_empty and geo["road"].intersects(seg)) else 0.0
        diff = seg.intersection(geo["difficult"]).length if (not geo["difficult"].is_empty and geo["difficult"].intersects(seg)) else 0.0
        diff = max(0.0, min(diff, length - road))
        cc = max(0.0, length - road - diff)
        rates = self.allowance_rates(u)
        if u.kind in ("infantry", "gun") and t.snow:
            diff += cc   # everything off-road in snow is difficult for infantry
            cc = 0.0
        cost = 0.0
        for inches, going in ((road, "road"), (cc, "cross_country"), (diff, "difficult")):
            if inches > EPS:
                rate = rates.get(going, 0.0)
                cost += math.inf if rate <= 0 else inches / rate
        obst = t.crosses_obstacle(a, b)
        inb = False
        near = geo["buildings"].query(seg, predicate="intersects") if geo["buildings"] is not None else ()
        for i in near:
            bp = geo["building_polys"][int(i)]
            if seg.crosses(bp) or seg.within(bp):
                inb = True
                break
        # Infantry Moving and Firing in Buildings: doors, windows and blank walls crossed
        walls = t.wall_crossings(a, b) if len(near) > 0 else []
        return cost, {"difficult": diff, "obstacles": obst, "buildings": inb, "road": road, "walls": walls}

    def _check_move(self, a: Move) -> dict:
        rule = "Movement"
        u = self._own(a.uid, rule)
        self._fresh(u)
        if not self.on_table(u):
            raise TwentyIllegal("Infantry Riding In or On Vehicles", f"{u.uid} is embarked or off the table")
        pts = [u.pos] + [_xy(p) for p in a.path]
        moving = any(self.table.distance(p, q) > EPS for p, q in zip(pts, pts[1:]))
        if u.kind == "battery":
            raise TwentyIllegal(rule, "off-table artillery does not move")
        if u.kind == "gun":
            if u.tow is not None:
                raise TwentyIllegal("Towing, Limbering and Unlimbering", f"{u.uid} is limbered: it moves with {u.tow}")
            if u.is_atg and moving:
                raise TwentyIllegal("Crewed Weapons", "crewed anti-tank guns can only change their direction of fire")
            if moving and u.weapon in ("hmg",) or moving and u.is_mortar:
                if u.deployed:
                    raise TwentyIllegal("Crewed Weapons", "mortars and HMGs must be dismantled (one turn) before they move")
        if u.kind == "vehicle":
            if moving and (u.immobilised or u.ditched):
                raise TwentyIllegal("Anti-Tank Guns", f"{u.uid} is immobilised")
            if u.anchored and moving:
                raise TwentyIllegal("Infantry Riding In or On Vehicles", f"{u.uid} must stay stationary while infantry get on or off")
            if a.turret is not None:
                if not u.ref.get("turret"):
                    raise TwentyIllegal("Vehicle Movement", f"{u.uid} has no turret")
                if u.turret_jammed:
                    raise TwentyIllegal("Anti-Tank Guns", f"{u.uid}'s turret traverse mechanism is destroyed")
                if u.ref.get("slow_turret") and angdiff(u.turret, a.turret) > 90 + EPS:
                    raise TwentyIllegal("Vehicle Movement", "the Tiger traverses its turret at most 90 degrees in one turn")
        if u.kind == "gun" and u.is_atg and not moving and a.facing is None:
            raise TwentyIllegal("Crewed Weapons", "give the new direction of fire")
        if u.kind != "vehicle" and a.turret is not None:
            raise TwentyIllegal(rule, "only vehicles have turrets")
        if u.kind == "vehicle" and (u.immobilised or u.ditched) and a.facing is not None and angdiff(a.facing, u.facing) > EPS:
            raise TwentyIllegal("Anti-Tank Guns", f"{u.uid} is immobilised: its hull cannot turn")
        cost, difficult, crossings, inbuild, length, walls = 0.0, 0.0, [], False, 0.0, []
        for p, q in zip(pts, pts[1:]):
            if not self.table.on_table(q) or not self.table.table.covers(LineString([p, q])) and self.table.distance(p, q) > EPS:
                raise TwentyIllegal(rule, f"the move leaves the table at {q}")
            c, info = self.leg_cost(u, p, q)
            cost += c
            difficult += info["difficult"]
            crossings += info["obstacles"]
            inbuild = inbuild or info["buildings"]
            walls += info["walls"]
            length += self.table.distance(p, q)
        ditch = False
        if u.kind == "vehicle" or (u.kind == "gun" and u.tow):
            traps = [c for c in crossings if c.kind == "tank_traps" and not self._through_hole(c.point)]
            if traps:
                raise TwentyIllegal("Ditching, Obstacles and Difficult Terrain", "tank traps are impassable to all vehicles")
            other_obst = [c for c in crossings if c.kind != "tank_traps"]
            if inbuild:
                raise TwentyIllegal("Vehicle Movement", "vehicles cannot enter buildings (reading)")
            if u.vclass in ("wheeled", "horse") and (other_obst or difficult > EPS):
                raise TwentyIllegal("Ditching, Obstacles and Difficult Terrain",
                                    "lorries, other wheeled vehicles and horse tows cannot cross difficult terrain or obstacles")
            if u.is_tank and u.passengers and (other_obst or difficult > EPS):
                raise TwentyIllegal("Infantry Riding In or On Vehicles", "a tank carrying riders may not cross difficult terrain or obstacles")
            ditch = bool(other_obst or difficult > EPS)
            if cost > 1 + EPS:
                raise TwentyIllegal("Vehicle Movement", f"the move needs {cost:.2f} turns of {u.vclass} movement")
        else:
            # Infantry Moving and Firing in Buildings: "troops can move in or out of any building wall
            # with doors or windows, but if there are windows only then this counts as an obstacle"
            blank = [w for w in walls if w.kind == "wall"]
            if blank:
                x, y = blank[0].point
                raise TwentyIllegal("Infantry Moving and Firing in Buildings",
                                    f"no door or window in {blank[0].building}'s wall at ({x:.2f}, {y:.2f})")
            crossings += [Crossing(f"{w.building} window", "window", w.point, w.distance) for w in walls if w.kind == "window"]
            if crossings:
                if length > OBSTACLE_MOVE + EPS:
                    raise TwentyIllegal("Infantry Movement",
                                        f"infantry take one turn to cross an obstacle: a crossing move is at most {OBSTACLE_MOVE:g} inches (reading), not {length:.2f}")
            elif cost > 1 + EPS:
                raise TwentyIllegal("Infantry Movement", f"the move needs {cost:.2f} turns of infantry movement")
        end = pts[-1]
        if u.kind == "infantry" and moving:
            here, there = COVER_RANK[self.ground_cover(u.pos)], COVER_RANK[self.ground_cover(end)]
            if u.hold and there <= here:
                raise TwentyIllegal("Pinning", f"{u.uid} is under HE fire and must move to better cover")
            if u.under_fire and here > 0 and there < here and not u.officer_led:
                raise TwentyIllegal("Pinning", f"{u.uid} is under fire in cover: it may only move to cover at least as good unless officer-led")
            if u.forced_from is not None and self.game_turn <= u.forced_until and self.table.distance(end, u.forced_from) < 1.0:
                raise TwentyIllegal("Pinning", f"{u.uid} was forced to better cover by HE fire and may not move back this turn")
        elif u.hold:
            raise TwentyIllegal("Pinning", f"{u.uid} is under HE fire and must move to better cover")
        facing = a.facing
        if facing is None and moving:
            last = [p for p in pts if self.table.distance(p, end) > EPS]
            facing = bearing(last[-1], end) if last else u.facing
        new_facing = u.facing if facing is None else float(facing) % 360
        # Vehicle Movement: "Traversing a tank turret by upto 45 degrees counts as free movement and
        # does not stop the tank firing" (the Tiger 22.5): a turret-only traverse within what is left
        # of the free traverse this turn is no action; more, or any movement of the vehicle, is one
        free = (u.kind == "vehicle" and a.turret is not None and u.turret is not None and not moving
                and angdiff(new_facing, u.facing) <= EPS
                and u.traversed + angdiff(u.turret, float(a.turret) % 360) <= self._free_limit(u) + EPS)
        return {"end": end, "facing": new_facing, "ditch": ditch, "moving": moving, "free_traverse": free}

    def _through_hole(self, p) -> bool:
        return any(self.table.distance(p, h) <= HOLE_HALF_WIDTH + EPS for h in self.holes)

    def _do_move(self, a: Move, plan: dict) -> None:
        u = self.units[a.uid]
        old = u.pos
        u.pos, u.facing = plan["end"], plan["facing"]
        if plan.get("free_traverse"):
            u.traversed += angdiff(u.turret, float(a.turret) % 360)
            u.turret = float(a.turret) % 360
            self._ev("move", "Vehicle Movement", uid=u.uid, frm=list(old), to=list(u.pos), facing=round(u.facing, 3),
                     turret=round(u.turret, 3), free_traverse=True)
            return
        if a.turret is not None:
            u.turret = float(a.turret) % 360
        u.acted = True
        u.moved = plan["moving"]
        if u.hold:
            u.forced_from, u.forced_until, u.hold = old, self.game_turn + 1, False
        for pid in u.passengers:
            self.units[pid].pos = u.pos
        if u.towing:
            self.units[u.towing].pos = u.pos
        self._ev("move", "Movement", uid=u.uid, frm=list(old), to=list(u.pos), facing=round(u.facing, 3),
                 turret=None if u.turret is None else round(u.turret, 3))
        if plan["moving"] and u.hidden and self.ground_cover(u.pos) is None:
            self._reveal(u, "moved out of cover")
        if plan["ditch"]:
            d = self.roll(1, f"ditching of {u.uid}", "Ditching, Obstacles and Difficult Terrain")[0]
            if d == 1:
                u.ditched = u.immobilised = True
                self._ev("ditched", "Ditching, Obstacles and Difficult Terrain", uid=u.uid)

    def _better_cover_points(self, u: Unit) -> list:
        """Points one infantry move away giving better cover (Pinning), a sample."""
        here = COVER_RANK[self.ground_cover(u.pos)]
        out = []
        if here >= 2:
            return out
        for p in self._reach_samples(u):
            if COVER_RANK[self.ground_cover(p)] > here:
                out.append(p)
        return out

    def _reach_samples(self, u: Unit, n: int = 12) -> list:
        pts = []
        r = max(self.allowance_rates(u).values())
        for k in range(n):
            ang = 2 * math.pi * k / n
            for f in (1.0, 0.5):
                p = (u.pos[0] + math.cos(ang) * r * f, u.pos[1] + math.sin(ang) * r * f)
                if self.table.on_table(p):
                    pts.append(p)
        for area in self.table.woods + self.table.buildings:
            q = area.polygon.exterior.interpolate(area.polygon.exterior.project(Point(u.pos)))
            c = area.polygon.centroid
            p = (q.x + (c.x - q.x) * 0.1, q.y + (c.y - q.y) * 0.1)
            if self.table.distance(u.pos, p) <= r:
                pts.append(p)
        ok = []
        for p in pts:
            try:
                self._probe_move(u, p)
                ok.append(p)
            except TwentyIllegal:
                continue
        return ok

    def _probe_move(self, u: Unit, p) -> None:
        save_hold = u.hold
        u.hold = False
        try:
            c, info = self.leg_cost(u, u.pos, p)
            if info["obstacles"] or c > 1 + EPS or not self.table.on_table(p):
                raise TwentyIllegal("Movement", "out of reach")
        finally:
            u.hold = save_hold

    # ------------------------------------------------------------------ firing: common
    def in_arc(self, u: Unit, target_pos, mount: str = "hull", free: float = 0.0) -> bool:
        """Firing: the target lies within +-22.5 degrees of straight ahead (``free``: degrees the
        turret may still traverse freely)."""
        face = u.turret if (mount == "turret" and u.turret is not None) else u.facing
        return angdiff(face, bearing(u.pos, target_pos)) <= ARC + free + EPS

    def _free_limit(self, u: Unit) -> float:
        """Vehicle Movement: the free turret traverse of a turn, 45 degrees (the Tiger 22.5)."""
        return 22.5 if u.ref.get("slow_turret") else 45.0

    def free_traverse(self, u: Unit) -> float:
        """Vehicle Movement: turret traverse up to 45 degrees a turn is free (the Tiger 22.5), less
        what a turret-only traverse took this turn."""
        if u.kind != "vehicle" or u.turret is None or u.turret_jammed:
            return 0.0
        return max(0.0, self._free_limit(u) - u.traversed)

    def _firer_ok(self, u: Unit, group: str) -> None:
        if u.acted:
            raise TwentyIllegal("Sequence of Play", f"{u.uid} has moved or acted this turn: it may not fire (move OR fire)")
        if u.kind == "vehicle":
            if u.fired:
                raise TwentyIllegal("Sequence of Play", "a tank may only fire one weapon at a time")
            if u.move_only:
                raise TwentyIllegal("Anti-Tank Guns", f"{u.uid}'s gunner and commander are killed: move actions only")
        elif group in u.fired:
            raise TwentyIllegal("Sequence of Play", f"{u.uid} has already fired its {group} this turn")
        if u.under_he:
            raise TwentyIllegal("Pinning", f"{u.uid} is under HE fire and cannot fire weapons")
        if u.hold:
            raise TwentyIllegal("Pinning", f"{u.uid} must move to better cover")
        if u.directing is not None and u.directing.get("this_turn"):
            raise TwentyIllegal("Calling Down Fire", f"{u.uid} is directing fire and may make no other action")
        if not self.on_table(u) and u.kind != "battery":
            raise TwentyIllegal("Infantry Riding In or On Vehicles", f"{u.uid} is embarked")
        if u.kind == "gun":
            if u.tow is not None:
                raise TwentyIllegal("Towing, Limbering and Unlimbering", f"{u.uid} is limbered")
            if not u.deployed:
                raise TwentyIllegal("Crewed Weapons", f"{u.uid} must be set up (one turn) before it fires")
            if u.crew < 2:
                raise TwentyIllegal("Casualties Among Gun Crews", f"{u.uid} has fewer than two crew left")
            if u.crew < u.crew_start and self._rate(u) == 1 and u.last_fired is not None and u.last_fired >= self.game_turn - 1:
                raise TwentyIllegal("Casualties Among Gun Crews", f"{u.uid} has lost crew and fires at half rate: every other turn")

    def _rate(self, u: Unit) -> int:
        """Rate of Fire: crewed AT guns under 75 mm in the anti-tank role fire twice a turn."""
        return 2 if (u.is_atg and u.gun_calibre < 75) else 1

    def _target(self, u: Unit, a: Fire, rule: str) -> Unit:
        if a.target is None:
            raise TwentyIllegal(rule, "name a target")
        t = self.unit(a.target, rule)
        if t.side == u.side:
            raise TwentyIllegal("Firing", "a target must be an enemy unit")
        if not self.can_see(u, t):
            if self.knows(u, t) and self.los(u.pos, t.pos) and not self.fires_across_walls(u.pos, t.pos):
                raise TwentyIllegal("Infantry Moving and Firing in Buildings",
                                    f"no window or door in the side of the room {u.uid} or {t.uid} would fire across")
            raise TwentyIllegal("Firing", f"{t.uid} is hidden to {u.uid} or obscured by terrain")
        return t

    def _check_fire(self, a: Fire) -> dict:
        u = self._own(a.uid, "Firing")
        if a.weapon == "small_arms" or a.weapon == "mg":
            return self._check_small_arms(u, a)
        if a.weapon == "at":
            return self._check_at(u, a)
        if a.weapon == "he":
            return self._check_he(u, a)
        raise TwentyIllegal("Firing", f"unknown weapon {a.weapon!r} (small_arms, mg, at, he)")

    # ------------------------------------------------------------------ small arms
    def small_arms_of(self, u: Unit, mg: bool = False) -> dict[str, int]:
        """The small arms a unit fires: per-firer weapons (rifle, smg) and corridor weapons (lmg, hmg)."""
        if u.kind == "infantry":
            return {"rifle": u.rifles, "smg": u.smg, "lmg": u.lmg}
        if u.kind == "gun" and u.weapon in ("hmg", "lmg"):
            return {u.weapon: 1}
        if u.kind == "vehicle":
            # Sequence of Play: tanks, half-tracks and armoured cars mount forward-firing MGs (LMGs)
            if u.ref.get("mg", u.vclass in ("halftrack", "fast_tank", "tank") or u.ref.get("armoured_car", False)):
                return {"lmg": 1}
        return {}

    def _check_small_arms(self, u: Unit, a: Fire) -> dict:
        group = "small_arms"
        self._firer_ok(u, group)
        arms = self.small_arms_of(u)
        if not any(arms.values()):
            raise TwentyIllegal("Infantry Small Arms Weapons", f"{u.uid} has no small arms")
        if u.kind == "gun" and u.is_atg:
            raise TwentyIllegal("Infantry Small Arms Weapons", "an anti-tank gun has no small arms")
        t = self._target(u, a, "Infantry Small Arms Weapons")
        riders = None
        if t.kind == "vehicle" and t.is_tank and t.passengers:
            riders = t   # tank riders are fired on; the turret is soft cover from the front (Cover Saves)
        elif t.kind == "vehicle" and t.vclass != "horse":
            raise TwentyIllegal("Firing", "small arms do not harm vehicles: fire anti-tank weapons at them (fire is split only by weapon type)")
        mount = "hull"
        if not self.in_arc(u, t.pos, mount):
            raise TwentyIllegal("Firing", f"{t.uid} is outside {u.uid}'s 45-degree arc (+-22.5 degrees)")
        d = self.table.distance(u.pos, t.pos)
        longest = max(tables.small_arms_range(w) for w, n in arms.items() if n)
        if d > longest + EPS:
            raise TwentyIllegal("Infantry Small Arms Weapons", f"{t.uid} is {d:.1f} inches away, beyond {longest:g}")
        if riders is not None:
            return {"target": self.units[riders.passengers[0]], "arms": arms, "distance": d, "single": True, "vehicle": riders}
        return {"target": t, "arms": arms, "distance": d}

    def corridor(self, u: Unit, target_pos, weapon: str):
        """Infantry Small Arms Weapons: the fire corridor, a 2-inch-wide rectangle centred on the
        firing model stretching to the limit of the weapon's range towards the target."""
        rng = tables.small_arms_range(weapon)
        ang = math.radians(bearing(u.pos, target_pos))
        end = (u.pos[0] + math.cos(ang) * rng, u.pos[1] + math.sin(ang) * rng)
        return LineString([u.pos, end]).buffer(1.0, cap_style="flat")

    def _do_fire(self, a: Fire, plan: dict) -> None:
        u = self.units[a.uid]
        self._shooting()
        self._reveal(u, "fired")
        if a.weapon in ("small_arms", "mg"):
            self._resolve_small_arms(u, plan)
            u.fired.add("small_arms")
        elif a.weapon == "at":
            self._resolve_at(u, plan, a)
            u.fired.add("at")
        else:
            self._resolve_he(u, plan, a)
            u.fired.add("he")
        u.last_fired = self.game_turn
        if u.kind == "vehicle":
            u.fired.add("any")

    def _resolve_small_arms(self, u: Unit, plan: dict, close: bool = False, only: Unit | None = None) -> dict[str, int]:
        """Roll every firer's / corridor target's to-hit, then cover saves and casualties."""
        t = plan["target"]
        arms = plan["arms"]
        hits: dict[str, int] = {}
        d = 3.99 if close else plan["distance"]
        rule = "Close Assault" if close else "Infantry Small Arms Weapons"
        for w in ("rifle", "smg"):
            n = arms.get(w, 0)
            need = tables.small_arms_need(w, d, u.elite)
            if n and need is not None:
                dice = self.roll(n, f"{u.uid} {w} fire at {t.uid} (need {need}+)", rule)
                h = sum(1 for x in dice if x >= need)
                if h:
                    hits[t.uid] = hits.get(t.uid, 0) + h
        for w in ("lmg", "hmg"):
            n = arms.get(w, 0)
            if not n:
                continue
            single = close or only or plan.get("single")
            targets = [t] if single else [e for e in self.living(other(u.side))
                                                   if self.on_table(e) and e.bodies > 0 and (e.kind != "vehicle" or e.vclass == "horse") and self.can_see(u, e)]
            if single:
                figs = [(t, p) for p in t.figures()] if t.kind != "vehicle" else [(t, t.pos)] * t.bodies
            else:
                cor = self.corridor(u, t.pos, w)
                figs = [(e, p) for e in targets for p in (e.figures() if e.kind != "vehicle" else [e.pos] * e.bodies)
                        if cor.intersects(Point(p))]
            for _ in range(n):
                for e, p in figs:
                    dd = 3.99 if close else self.table.distance(u.pos, p)
                    need = tables.small_arms_need(w, dd, u.elite)
                    if need is None:
                        continue
                    x = self.roll(1, f"{u.uid} {w} fire at a man of {e.uid} (need {need}+)", rule)[0]
                    if x >= need:
                        hits[e.uid] = hits.get(e.uid, 0) + 1
        result = {}
        for uid, h in hits.items():
            e = self.units[uid]
            e.under_fire = True
            saved = 0
            cover = None if close else self.cover_at(e, u.pos)
            need = tables.cover_save_need(cover, "small_arms")
            if need is not None:
                saved = sum(1 for x in self.roll(h, f"cover saves of {uid} ({cover}, need {need}+)", "Cover Saves") if x >= need)
            k = self._casualties(e, h - saved, "small_arms", rule)
            result[uid] = k
        corridor = None if (close or only or plan.get("single")) else next((w for w in ("hmg", "lmg") if arms.get(w)), None)
        self._ev("small_arms_fire", rule, uid=u.uid, target=t.uid, hits=hits, killed=result,
                 frm=_at(u.pos), at=_at(t.pos), corridor=corridor)
        for e in self.living(other(u.side)):
            if e.uid not in hits and e.uid == t.uid:
                e.under_fire = True
        return result

    def _casualties(self, e: Unit, n: int, how: str, rule: str) -> int:
        """Removing Casualties: under small arms the owner chooses (riflemen first, so LMGs, SMGs
        and AT weapons are picked up by survivors: reading), under HE at random."""
        n = max(0, min(n, e.bodies))
        if n == 0:
            return 0
        if e.kind == "gun":
            e.crew -= n
            if e.crew <= 0:
                self._kill(e, "crew killed", rule)
            self._ev("casualties", rule, uid=e.uid, n=n, left=e.crew)
            return n
        if e.kind == "vehicle" and e.vclass == "horse":   # Horse Tows
            e.men -= n
            self._kill(e, "a horse killed: the horse tow is destroyed", "Horse Tows")
            return n
        for _ in range(n):
            if how == "he":
                pool = ["rifle"] * e.rifles + ["smg"] * e.smg + ["lmg"] * e.lmg + ["at_rifle"] * e.at_rifle + ["panzerfaust"] * e.panzerfaust
                w = pool[self.dice.choice_index(len(pool), f"random casualty of {e.uid}", "Removing Casualties")]
            else:
                w = "rifle" if e.rifles else "smg" if e.smg else "at_rifle" if e.at_rifle else "panzerfaust" if e.panzerfaust else "lmg"
            e.men -= 1
            if w != "rifle":
                setattr(e, w, getattr(e, w) - 1)
        self._ev("casualties", rule, uid=e.uid, n=n, left=e.men, how=how)
        if e.men <= 0:
            self._kill(e, "eliminated", rule)
        return n

    def _kill(self, e: Unit, why: str, rule: str) -> None:
        if not e.alive:
            return
        e.alive = False
        e.fate = why
        if e.kind == "infantry":
            e.men = 0
        if e.embarked_in is not None:
            v = self.units[e.embarked_in]
            if e.uid in v.passengers:
                v.passengers.remove(e.uid)
        self._ev("eliminated", rule, uid=e.uid, why=why)
        if e.kind == "vehicle":
            for pid in list(e.passengers):   # Infantry Riding...: passengers of a destroyed vehicle are killed
                p = self.units[pid]
                p.men = 0
                p.crew = 0
                self._kill(p, f"killed aboard {e.uid}", "Infantry Riding In or On Vehicles")
            e.passengers = []

    # ------------------------------------------------------------------ anti-tank fire
    def at_weapons(self, u: Unit, gun: int = 0) -> list[dict]:
        """The AT shots of a unit: [{"sv": list, "bands": list|None, "calibre": int, "name"}]."""
        if u.kind == "infantry":
            ref = tables.reference()["infantry_at"]
            return ([{"name": "at_rifle", **ref["at_rifle"]}] * u.at_rifle +
                    [{"name": "panzerfaust", **ref["panzerfaust"]}] * u.panzerfaust)
        if u.is_atg:
            g = tables.gun(u.weapon)
            return [{"name": u.weapon, "sv": g["sv"], "bands": None, "calibre": g["calibre"]}]
        if u.kind == "vehicle":
            guns = u.ref.get("guns", [])
            if gun >= len(guns):
                return []
            g = guns[gun]
            return [{"name": f"{u.vtype} {g['calibre']} mm", "sv": g["sv"], "bands": None, "calibre": g["calibre"], "mount": g.get("mount", "turret" if u.ref.get("turret") else "hull")}]
        return []

    def face_hit(self, target: Unit, firer_pos) -> tuple[str, bool]:
        """Which face a shot from ``firer_pos`` strikes and whether it strikes at an angle of
        attack under 45 degrees (reading: the hull is a 2 x 1 rectangle; the face struck is the
        one the line of fire to its centre crosses; a side is struck at under 45 degrees when
        the firer is 26.6-45 degrees off the front or rear axis)."""
        th = angdiff(target.facing, bearing(target.pos, firer_pos))
        if th <= FACE_FRONT + EPS:
            return "front", False
        if th >= 180 - FACE_FRONT - EPS:
            return "rear", False
        return "side", (th < 45 - EPS or th > 135 + EPS)

    def armour(self, target: Unit, firer_pos) -> int:
        """The Armour Value modified: front +1, rear -1, angle of attack under 45 degrees +1."""
        face, angled = self.face_hit(target, firer_pos)
        av = target.ref["av"] + (1 if face == "front" else -1 if face == "rear" else 0)
        return av + (1 if angled else 0)

    def _aim_bonus(self, u: Unit, t: Unit) -> int:
        """Anti-Tank Guns: +1 per turn firing at the same target, both stationary."""
        if u.aim and u.aim[0] == t.uid and not u.moved and not t.moved and u.aim[2] == self.game_turn - 1:
            return u.aim[1]
        return 0

    def _check_at(self, u: Unit, a: Fire) -> dict:
        self._firer_ok(u, "at")
        shots = self.at_weapons(u, a.gun)
        if not shots:
            raise TwentyIllegal("Anti-Tank Guns", f"{u.uid} has no anti-tank weapon")
        if u.kind == "vehicle" and u.passengers and u.is_tank:
            raise TwentyIllegal("Infantry Riding In or On Vehicles", "a tank carrying riders may only fire its machine-gun")
        if u.he_only:
            raise TwentyIllegal("Direct Fire High Explosive", f"{u.uid} carries only HE and may not fire against tanks")
        t = self._target(u, a, "Anti-Tank Guns")
        if t.kind != "vehicle":
            raise TwentyIllegal("Anti-Tank Guns", "armour-piercing fire is at vehicles")
        mount = shots[0].get("mount", "hull")
        if not self.in_arc(u, t.pos, mount, self.free_traverse(u) if mount == "turret" else 0.0):
            raise TwentyIllegal("Firing", f"{t.uid} is outside the arc (+-22.5 degrees, plus free turret traverse)")
        d = self.table.distance(u.pos, t.pos)
        sv = tables.sv_at(shots[0]["sv"], d, shots[0].get("bands"))
        if sv is None:
            raise TwentyIllegal("Infantry Anti-Tank Weapons" if u.kind == "infantry" else "Vehicle and Anti-Tank Gun Reference Table",
                                f"{t.uid} is {d:.1f} inches away, beyond the weapon's maximum effective range")
        face, _ = self.face_hit(t, u.pos)
        if a.tracks and not (face == "side" and d < 10):
            raise TwentyIllegal("Aiming for The Tracks", "only from the side at less than 10 inches")
        return {"target": t, "shots": shots, "distance": d, "mount": mount}

    def _resolve_at(self, u: Unit, plan: dict, a: Fire) -> None:
        t, d = plan["target"], plan["distance"]
        if plan["mount"] == "turret" and u.turret is not None:
            u.turret = bearing(u.pos, t.pos)
        n = len(plan["shots"])
        rate = self._rate(u)
        if u.kind == "gun" and u.crew < u.crew_start:
            rate = max(1, rate // 2)   # Casualties Among Gun Crews: half rate
        bonus = self._aim_bonus(u, t)
        mods = bonus - (1 if t.moved else 0) + (1 if u.elite else 0)
        base_need = tables.at_need(d)
        for shot in plan["shots"] * (rate if u.kind == "gun" else 1):
            if not t.alive:
                break
            sv = tables.sv_at(shot["sv"], d, shot.get("bands"))
            roll = sum(self.roll(2, f"{u.uid} {shot['name']} to hit {t.uid} (need {base_need}+, mod {mods:+d})", "Anti-Tank Guns"))
            hit = base_need is not None and roll + mods >= base_need
            self._ev("at_shot", "Anti-Tank Guns", uid=u.uid, target=t.uid, roll=roll, mod=mods, need=base_need, hit=hit,
                     frm=_at(u.pos), at=_at(t.pos))
            if not hit:
                continue
            self._penetrate(u.pos, t, sv, a.tracks, f"{u.uid} {shot['name']}")
        u.aim = (t.uid, (bonus + 1) if (u.aim and u.aim[0] == t.uid and not u.moved and not t.moved) else 1, self.game_turn)

    def _penetrate(self, firer_pos, t: Unit, sv: int, tracks: bool, who: str) -> None:
        """A hit: cover save, then strike value + 2D6 against the modified Armour Value."""
        t.under_fire = True
        cover = self.cover_at(t, firer_pos)
        need = tables.cover_save_need(cover, "at_he")
        if need is not None:
            if self.roll(1, f"hard cover save of {t.uid} (need {need}+)", "Cover Saves")[0] >= need:
                self._ev("saved", "Cover Saves", uid=t.uid)
                return
        av = self.armour(t, firer_pos)
        eff = sv + (2 if tracks and not t.schuerzen else 0)
        total = sum(self.roll(2, f"{who} strike {eff} + 2D6 vs AV {av} of {t.uid}", "Anti-Tank Guns")) + eff
        if tracks:   # Aiming for The Tracks: a penetrating hit rolls damage -1, even one that would destroy
            res = "damage table -1" if total >= av else "no effect"
            self._ev("penetration", "Aiming for The Tracks", target=t.uid, total=total, av=av, result=res)
            if total >= av:
                self._damage(t, -1)
        elif total > av:
            self._ev("penetration", "Anti-Tank Guns", target=t.uid, total=total, av=av, result="destroyed")
            self._kill(t, "destroyed", "Anti-Tank Guns")
        elif total == av:
            self._ev("penetration", "Anti-Tank Guns", target=t.uid, total=total, av=av, result="damaged")
            self._damage(t, 0)
        else:
            self._ev("penetration", "Anti-Tank Guns", target=t.uid, total=total, av=av, result="no effect")

    def _damage(self, t: Unit, mod: int) -> None:
        """The damaged vehicle table (1D6 + ``mod``; with -1, a natural 1 has no effect)."""
        rule = "Anti-Tank Guns"
        while True:
            x = self.roll(1, f"damage table for {t.uid}", rule)[0]
            if mod and x == 1:
                self._ev("damage", "Aiming for The Tracks", uid=t.uid, result="no effect")
                return
            res = tables.DAMAGE[max(1, min(6, x + mod))]
            if res == "turret_jammed" and not t.ref.get("turret"):
                if t.ref.get("role") in ("assault_gun", "tank_destroyer"):
                    self._ev("damage", rule, uid=t.uid, result="turret result ignored (turretless)")
                    break
                continue   # others re-roll
            break
        if res != "turret_jammed" or t.ref.get("turret"):
            self._ev("damage", rule, uid=t.uid, result=res)
        if res == "stunned":
            t.stunned = True
        elif res == "immobilised":
            t.immobilised = True
        elif res == "turret_jammed" and t.ref.get("turret"):
            t.turret_jammed = True
        elif res == "crew_hit":
            t.move_only = True
        elif res == "crew_killed":
            self._kill(t, "entire crew killed", rule)
            return
        if t.vclass == "horse":
            self._kill(t, "limber damaged: the horse tow is destroyed", "Horse Tows")
            return
        self._passenger_losses(t)

    def _passenger_losses(self, t: Unit) -> None:
        """Infantry Riding...: an open-topped vehicle damaged but not destroyed: each passenger
        is killed on 4+."""
        if not t.alive or not t.open_topped:
            return
        for pid in list(t.passengers):
            p = self.units[pid]
            n = p.bodies
            if n <= 0:
                continue
            k = sum(1 for x in self.roll(n, f"passengers of {t.uid}: {pid} killed on 4+", "Infantry Riding In or On Vehicles") if x >= 4)
            self._casualties(p, k, "he", "Infantry Riding In or On Vehicles")
            if not p.alive and pid in t.passengers:
                t.passengers.remove(pid)

    # ------------------------------------------------------------------ HE
    def _check_he(self, u: Unit, a: Fire) -> dict:
        self._firer_ok(u, "he")
        if u.kind == "vehicle" and u.passengers and u.is_tank:
            raise TwentyIllegal("Infantry Riding In or On Vehicles", "a tank carrying riders may only fire its machine-gun")
        if not (u.is_atg or (u.kind == "vehicle" and u.ref.get("guns"))):
            raise TwentyIllegal("Direct Fire High Explosive", "only tanks and anti-tank guns fire direct HE")
        if u.ref.get("role") == "tank_destroyer":
            raise TwentyIllegal("Direct Fire High Explosive", "dedicated tank-destroyers carry only AP shells")
        cal = u.gun_calibre
        mount = "turret" if u.kind == "vehicle" and u.ref.get("turret") else "hull"
        if a.point is not None and a.target is None:
            p = _xy(a.point)
            traps = [o for o in self.table.tank_traps if o.geometry.distance(Point(p)) <= 1.0]
            if not traps:
                raise TwentyIllegal("Direct Fire High Explosive", "HE at a point is only at tank traps; otherwise name an infantry target")
            if not self.los(u.pos, p):
                raise TwentyIllegal("Firing", "the tank traps are obscured by terrain")
            if not self.in_arc(u, p, mount, self.free_traverse(u) if mount == "turret" else 0.0):
                raise TwentyIllegal("Firing", "outside the arc")
            return {"point": p, "calibre": cal, "distance": self.table.distance(u.pos, p), "mount": mount, "target": None}
        t = self._target(u, a, "Direct Fire High Explosive")
        if t.kind == "vehicle":
            raise TwentyIllegal("Direct Fire High Explosive", "HE shells are fired against infantry (fire AP at vehicles)")
        if not self.in_arc(u, t.pos, mount, self.free_traverse(u) if mount == "turret" else 0.0):
            raise TwentyIllegal("Firing", f"{t.uid} is outside the arc")
        d = self.table.distance(u.pos, t.pos)
        if tables.at_need(d) is None:
            raise TwentyIllegal("Direct Fire High Explosive", f"{t.uid} is beyond 60 inches")
        return {"target": t, "calibre": cal, "distance": d, "mount": mount, "point": t.pos}

    def _resolve_he(self, u: Unit, plan: dict, a: Fire) -> None:
        d, p, t = plan["distance"], plan["point"], plan["target"]
        if plan["mount"] == "turret" and u.turret is not None:
            u.turret = bearing(u.pos, p)
        need = tables.at_need(d)
        mods = (1 if u.elite else 0) - (1 if t is not None and t.moved else 0)
        roll = sum(self.roll(2, f"{u.uid} HE to hit (need {need}+)", "Direct Fire High Explosive"))
        hit = roll + mods >= need
        self._ev("he_shot", "Direct Fire High Explosive", uid=u.uid, target=None if t is None else t.uid, roll=roll, need=need, hit=hit,
                 frm=_at(u.pos), at=_at(p))
        if not hit:
            return
        if t is None:   # Ditching...: only a direct HE hit of 75 mm or more holes tank traps
            if plan["calibre"] >= 75:
                self.holes.append(p)
                self._ev("tank_traps_holed", "Ditching, Obstacles and Difficult Terrain", point=list(p))
            else:
                self._ev("tank_traps_unharmed", "Ditching, Obstacles and Difficult Terrain", point=list(p), calibre=plan["calibre"])
            return
        self.template(p, tables.he_class(plan["calibre"]), firer_pos=u.pos, direct=True, rule="Direct Fire High Explosive")

    def template(self, centre, he: str, firer_pos=None, direct: bool = False, rule: str = "Mortars and Other Indirect Fire Weapons",
                 source=None) -> dict:
        """A shell blast template (2, 3 or 4 inches across) at ``centre``: infantry under it hit
        on 3+ (hard cover saves 5+ against direct fire; none in buildings from indirect fire),
        vehicles hit automatically and rolled on the vehicle effect table; all under HE fire.
        ``source``: where an indirect shell came from (an on-table mortar), logged only (a direct
        HE shot logs its firer in its ``he_shot`` event)."""
        circle = Point(centre).buffer(tables.TEMPLATE_DIAMETER[he] / 2, quad_segs=32)
        self._ev("template", rule, centre=list(centre), diameter=tables.TEMPLATE_DIAMETER[he], he=he, frm=_at(source))
        out = {}
        for e in list(self.units.values()):
            if not self.on_table(e):
                continue
            if e.kind == "vehicle":
                if not circle.intersects(e.footprint()):
                    continue
                e.under_he = e.under_fire = True
                if e.vclass == "horse":   # horses count as infantrymen
                    hits = sum(1 for x in self.roll(max(1, e.men), f"horses of {e.uid} under the template", "Horse Tows") if x >= 3)
                    if hits:
                        self._kill(e, "a horse killed: the horse tow is destroyed", "Horse Tows")
                        continue
                if tables.vehicle_effect(e.effect_class, he, 6) == "none":
                    res = "none"   # light mortars never, medium mortars only soft-skins: no roll
                else:
                    x = self.roll(1, f"vehicle effect on {e.uid} ({e.effect_class}, {he})", rule)[0]
                    res = tables.vehicle_effect(e.effect_class, he, x)
                self._ev("vehicle_effect", rule, uid=e.uid, result=res)
                # infantry in open-topped vehicles under the template are hit on 3+
                if e.open_topped:
                    for pid in list(e.passengers):
                        p = self.units[pid]
                        h = sum(1 for y in self.roll(p.bodies, f"{pid} aboard {e.uid} hit on 3+", rule) if y >= 3)
                        self._casualties(p, h, "he", rule)
                        p.under_he = True
                if res == "destroyed":
                    self._kill(e, "destroyed by HE", rule)
                elif res == "damaged":
                    self._damage(e, 0)
                continue
            figs = [p for p in e.figures() if circle.intersects(Point(p))]
            if not figs:
                continue
            e.under_he = e.under_fire = True
            if not direct and self.table.building_at(e.pos) is not None:
                self._ev("pinned_in_building", "Firing on Troops in Buildings", uid=e.uid)
                continue
            hits = sum(1 for x in self.roll(len(figs), f"men of {e.uid} under the template (3+)", rule) if x >= 3)
            if hits and direct:
                cover = self.cover_at(e, firer_pos) if firer_pos else None
                need = tables.cover_save_need(cover, "at_he")
                if need is not None:
                    hits -= sum(1 for x in self.roll(hits, f"hard cover saves of {e.uid} vs HE (need {need}+)", "Cover Saves") if x >= need)
            out[e.uid] = self._casualties(e, hits, "he", rule)
        return out

    # ------------------------------------------------------------------ indirect fire
    def _check_indirect(self, a: IndirectFire) -> dict:
        rule = "Mortars and Other Indirect Fire Weapons"
        u = self._own(a.uid, rule)
        if not (u.is_mortar or u.kind == "battery"):
            raise TwentyIllegal(rule, "indirect fire is only possible to on-table mortars or off-table artillery")
        self._firer_ok(u, "indirect")
        if u.kind == "battery" and u.fired:
            raise TwentyIllegal("Rate of Fire", "all weapons firing HE fire once per turn")
        p = _xy(a.point)
        if not self.table.on_table(p):
            raise TwentyIllegal(rule, "the target point is off the table")
        if u.kind != "battery":
            d = self.table.distance(u.pos, p)
            if d < tables.MORTAR_MIN_RANGE - EPS:
                raise TwentyIllegal(rule, f"all mortars have a minimum range of 6 inches ({d:.1f})")
            if d > tables.MORTAR_RANGE[u.weapon] + EPS:
                raise TwentyIllegal(rule, f"beyond the {u.weapon}'s maximum range {tables.MORTAR_RANGE[u.weapon]:g}")
        radio = False
        if a.director is None:
            if u.kind == "battery":
                raise TwentyIllegal("Calling Down Fire", "off-table artillery may only be directed by command elements and FOOs using radio")
            if not self.los(u.pos, p):
                raise TwentyIllegal("Firing", "the firer cannot see the target point: name a directing unit")
            if not self.in_arc(u, p):
                raise TwentyIllegal("Firing", "the target point is outside the mortar's arc")
            director = None
        else:
            director = self.unit(a.director, "Calling Down Fire")
            if director.side != u.side or not director.alive or director.kind != "infantry" or not self.on_table(director):
                raise TwentyIllegal("Calling Down Fire", "fire is called down by a friendly infantry unit on the table")
            if director.acted or director.fired:
                raise TwentyIllegal("Calling Down Fire", "the directing unit may not make any other action")
            if director.under_fire:
                raise TwentyIllegal("Calling Down Fire", "the directing unit must not be under fire")
            if not self.los(director.pos, p):
                raise TwentyIllegal("Calling Down Fire", "the target is obscured from the directing unit")
            hidden_near = [e for e in self.living(other(u.side)) if self.on_table(e) and not self.knows(director, e)
                           and self.table.distance(e.pos, p) <= 1.0]
            if hidden_near and not [e for e in self.living(other(u.side)) if self.on_table(e) and self.knows(director, e) and self.table.distance(e.pos, p) <= 1.0]:
                raise TwentyIllegal("Calling Down Fire", "the target is hidden to the directing unit")
            in_sight = u.kind != "battery" and self.los(director.pos, u.pos)
            if not in_sight:
                if director.role not in ("command", "foo") or not director.radio:
                    raise TwentyIllegal("Calling Down Fire", "out of sight of the firers, only command elements and FOOs with radio direct fire")
                if u.kind != "battery" and not (u.radio or self._in_contact_with_command(u)):
                    raise TwentyIllegal("Calling Down Fire", "the firers must be radio-equipped or in contact with a command element")
                radio = True
        return {"point": p, "director": director, "radio": radio}

    def _in_contact_with_command(self, u: Unit) -> bool:
        return any(c.role == "command" and c.uid != u.uid and self.on_table(c) and self.table.distance(c.pos, u.pos) <= tables.CONTACT + EPS
                   for c in self.living(u.side))

    def _new_target(self, prev: dict | None, p, he: str) -> bool:
        return prev is None or self.table.distance(prev["point"], p) > tables.TEMPLATE_DIAMETER[he] + EPS

    def _do_indirect(self, a: IndirectFire, plan: dict) -> None:
        u = self.units[a.uid]
        p, director = plan["point"], plan["director"]
        he = "artillery" if u.kind == "battery" else tables.MORTAR_CLASS[u.weapon]
        self._shooting()
        u.fired.add("indirect")
        u.last_fired = self.game_turn
        if u.kind != "battery":
            self._reveal(u, "fired")
        if plan["radio"]:
            new = self._new_target(director.directing, p, he)
            need = (4 if new else 3) + u.radio_penalty   # limited availability: the scenario's penalty
            x = self.roll(1, f"radio contact {director.uid} -> {u.uid} (need {need}+)", "Calling Down Fire")[0]
            if x < need:
                self._ev("radio_failed", "Calling Down Fire", director=director.uid, firer=u.uid)
                return
        if director is not None:
            director.directing = {"point": p, "this_turn": True}
            director.acted = True
        new = self._new_target(u.ranged, p, he)
        if new:
            u.ranged = {"point": p, "turns": 0, "ok": False}
        if not u.ranged["ok"]:
            need = 5 if u.ranged["turns"] == 0 else 4
            u.ranged["turns"] += 1
            x = self.roll(1, f"{u.uid} ranging on the target (need {need}+)", rule := "Mortars and Other Indirect Fire Weapons")[0]
            if x < need:
                self._ev("ranging_failed", rule, uid=u.uid, point=list(p))
                return
            u.ranged["ok"] = True
            u.ranged["point"] = p
            self._ev("ranged", rule, uid=u.uid, point=list(p))
        n = max(1, u.guns) if u.kind == "battery" else 1
        fire_dir = u.facing if u.kind == "battery" else bearing(u.pos, p)
        w = tables.TEMPLATE_DIAMETER[he]
        for i in range(n):
            k = 0 if (not a.spread or i == 0) else ((i + 1) // 2) * (1 if i % 2 else -1)
            ang = math.radians(fire_dir + 90)   # Battery Fire: right of the direction of fire (+90 on the table)
            aim = (p[0] + math.cos(ang) * w * k, p[1] + math.sin(ang) * w * k)
            land = self.scatter(aim, fire_dir)
            self.template(land, he, rule="Battery Fire" if u.kind == "battery" and n > 1 else "Mortars and Other Indirect Fire Weapons",
                          source=None if u.kind == "battery" else u.pos)

    def scatter(self, aim, fire_dir: float):
        """Scatter (reading of "D6 scatter dice"): one die for direction (six 60-degree sectors
        clockwise from the direction of fire, 1 = over), one for distance: 1-3 on the point,
        4-6 scatter 1-3 inches."""
        dirn, dist = self.roll(2, "scatter (direction, distance)", "Mortars and Other Indirect Fire Weapons")
        off = max(0, dist - 3)
        ang = math.radians(fire_dir + 60 * (dirn - 1))
        land = (aim[0] + math.cos(ang) * off, aim[1] + math.sin(ang) * off)
        self._ev("scatter", "Mortars and Other Indirect Fire Weapons", aim=list(aim), land=list(land), inches=off)
        return land

    # ------------------------------------------------------------------ close assault
    def _check_assault(self, a: Assault) -> dict:
        rule = "Close Assault"
        u = self._own(a.uid, rule)
        self._fresh(u)
        if u.kind != "infantry" or not self.on_table(u):
            raise TwentyIllegal(rule, "only infantry on the table close assault")
        if u.under_he or u.hold:
            raise TwentyIllegal("Pinning", f"{u.uid} is under HE fire")
        t = self.unit(a.target, rule)
        if t.side == u.side or not t.alive:
            raise TwentyIllegal(rule, "assault a living enemy unit")
        if not self.can_see(u, t):
            raise TwentyIllegal("Firing", f"{t.uid} is hidden to {u.uid} or obscured")
        if t.kind == "vehicle" and u.men <= 4:
            raise TwentyIllegal("Infantry Close Assaulting Vehicles", "only a section of more than 4 men may assault a vehicle")
        cost, info = self.leg_cost(u, u.pos, t.pos)
        if info["obstacles"] or cost > 1 + EPS:
            raise TwentyIllegal(rule, f"{t.uid} is not within a normal move ({cost:.2f} turns, obstacles {len(info['obstacles'])})")
        if u.under_fire and COVER_RANK[self.ground_cover(u.pos)] > 0 and not u.officer_led and COVER_RANK[self.ground_cover(t.pos)] < COVER_RANK[self.ground_cover(u.pos)]:
            raise TwentyIllegal("Pinning", f"{u.uid} is under fire in cover and not officer-led")
        embarked = [self.units[p] for p in t.passengers] if t.kind == "vehicle" and t.open_topped else []
        if t.kind == "vehicle" and t.is_tank and not embarked:
            face, _ = self.face_hit(t, u.pos)
            if face == "front":
                raise TwentyIllegal("Infantry Close Assaulting Vehicles", "tanks may only be attacked from the side or rear")
        return {"target": t, "embarked": embarked}

    def _assault_dice(self, u: Unit) -> int:
        if u.kind == "gun":
            return u.crew // 4
        return tables.assault_dice(u.men - u.smg, u.smg)

    def _do_assault(self, a: Assault, plan: dict) -> None:
        u = self.units[a.uid]
        t = plan["target"]
        rule = "Close Assault"
        start_men = u.men
        self._shooting()
        self._reveal(u, "assaulted")
        u.acted = True
        u.moved = True
        # defensive fire at under 4 inches, small arms only, by eligible firers
        defenders = plan["embarked"] or [t]
        for dfd in defenders:
            if dfd.under_he or not dfd.alive:
                continue
            if dfd.kind == "vehicle":
                arms = self.small_arms_of(dfd)
                if not arms or dfd.move_only or not self.in_arc(dfd, u.pos):
                    continue
            else:
                arms = self.small_arms_of(dfd)
            if any(arms.values()):
                self._resolve_small_arms(dfd, {"target": u, "arms": arms, "distance": 3.99}, close=True)
        if not u.alive or u.men * 2 < start_men:
            self._ev("assault_retires", rule, uid=u.uid, target=t.uid)
            return
        ang = math.radians(bearing(t.pos, u.pos))
        u.pos = (t.pos[0] + math.cos(ang) * 1.0, t.pos[1] + math.sin(ang) * 1.0)
        u.facing = bearing(u.pos, t.pos)
        if t.kind == "vehicle" and not plan["embarked"]:
            self._assault_vehicle(u, t)
            return
        foes = plan["embarked"] or [t]
        extra = 1 if plan["embarked"] else 0
        rnd = 0
        while True:
            rnd += 1
            foe = next((f for f in foes if f.alive), None)
            if foe is None or not u.alive:
                break
            na = self._assault_dice(u) + extra
            nd = sum(self._assault_dice(f) for f in foes if f.alive)
            da = self.roll(na, f"{u.uid} close assault dice", rule) if na else []
            dd = self.roll(nd, f"{t.uid} close assault dice", rule) if nd else []
            ka, kd = tables.assault_kills(da, dd)
            self._ev("assault_round", rule, round=rnd, attacker=u.uid, defender=t.uid, attack_dice=da, defence_dice=dd, kills_by_attacker=ka, kills_by_defender=kd)
            left = ka
            for f in foes:
                if f.alive and left:
                    k = min(left, f.bodies)
                    self._casualties(f, k, "small_arms", rule)
                    left -= k
            self._casualties(u, kd, "small_arms", rule)
            if ka != kd or not u.alive or not any(f.alive for f in foes):
                if not any(f.alive for f in foes) or (u.alive and ka > kd):
                    self._surrender(foes, u)
                    if plan["embarked"] and t.alive:
                        t.immobilised = True
                        self._ev("immobilised", "Infantry Close Assaulting Vehicles", uid=t.uid)
                else:
                    self._surrender([u], foes[0])
                break
            if rnd > 50:
                break

    def _surrender(self, losers: list[Unit], winner: Unit) -> None:
        """Close Assault: the loser surrenders; one man per four prisoners guards them; prisoners
        and guards leave the battle."""
        prisoners = sum(f.bodies for f in losers if f.alive)
        for f in losers:
            if f.alive:
                self._kill(f, "surrendered", "Close Assault")
        guards = math.ceil(prisoners / 4) if prisoners else 0
        if guards and winner.alive:
            g = min(guards, winner.bodies)
            if winner.kind == "gun":
                winner.crew -= g
            else:
                winner.men -= g
            if winner.bodies <= 0:
                self._kill(winner, "all detailed to guard prisoners", "Close Assault")
        self._ev("surrender", "Close Assault", losers=[f.uid for f in losers], prisoners=prisoners, guards=guards, winner=winner.uid)

    def _assault_vehicle(self, u: Unit, t: Unit) -> None:
        rule = "Infantry Close Assaulting Vehicles"
        if t.is_tank:
            x = self.roll(1, f"{u.uid} grenade bundles on {t.uid} (5+)", rule)[0]
            self._ev("grenade_bundles", rule, uid=u.uid, target=t.uid, roll=x, hit=x >= 5)
            if x >= 5:
                self._damage(t, -1)
        else:
            x = self.roll(1, f"{u.uid} grenades and small arms on {t.uid} (as a medium mortar)", rule)[0]
            res = tables.vehicle_effect(t.effect_class, "medium", x)
            self._ev("vehicle_effect", rule, uid=t.uid, result=res)
            if res == "destroyed":
                self._kill(t, "destroyed in close assault", rule)
            elif res == "damaged":
                self._damage(t, 0)

    # ------------------------------------------------------------------ special actions
    def _check_special(self, a: Special) -> dict:
        u = self._own(a.uid, "Sequence of Play")
        self._fresh(u)
        w = a.what
        if w in ("set_up", "dismantle"):
            if not (u.is_mortar or u.weapon == "hmg"):
                raise TwentyIllegal("Crewed Weapons", "only mortars and HMGs set up and dismantle (LMGs need not)")
            if u.tow is not None or not self.on_table(u):
                raise TwentyIllegal("Crewed Weapons", f"{u.uid} is limbered or embarked")
            if (w == "set_up") == u.deployed:
                raise TwentyIllegal("Crewed Weapons", f"{u.uid} is already {'set up' if u.deployed else 'dismantled'}")
            return {}
        if w in ("limber", "unlimber"):
            rule = "Towing, Limbering and Unlimbering"
            if u.kind != "gun" or not u.is_atg and not u.is_mortar:
                raise TwentyIllegal(rule, "only towed guns limber")
            tow = self.unit(a.other or "", rule)
            if tow.side != u.side or tow.kind != "vehicle" or not tow.alive or tow.acted or tow.fired or tow.busy:
                raise TwentyIllegal(rule, "the tow must be a fresh friendly vehicle (2 turns with no other activity)")
            if w == "limber":
                if u.tow is not None or tow.towing is not None:
                    raise TwentyIllegal(rule, "already limbered")
                if self.table.distance(u.pos, tow.pos) > LIMBER_REACH + EPS:
                    raise TwentyIllegal(rule, f"the tow must be within {LIMBER_REACH:g} inches")
                return {"tow": tow, "point": None}
            if u.tow != tow.uid:
                raise TwentyIllegal(rule, f"{u.uid} is not limbered to {tow.uid}")
            p = _xy(a.point) if a.point else tow.pos
            if self.table.distance(p, tow.pos) > LIMBER_REACH + EPS or not self.table.on_table(p):
                raise TwentyIllegal(rule, f"unlimber within {LIMBER_REACH:g} inches of the tow")
            return {"tow": tow, "point": p}
        if w == "embark":
            rule = "Infantry Riding In or On Vehicles"
            v = self.unit(a.other or "", rule)
            if u.kind not in ("infantry", "gun") or not self.on_table(u):
                raise TwentyIllegal(rule, "infantry or a heavy weapon on the table embark")
            if v.side != u.side or v.kind != "vehicle" or not v.alive or v.moved:
                raise TwentyIllegal(rule, "the vehicle must be a friendly vehicle that stays stationary this turn")
            if self.table.distance(u.pos, v.pos) > EMBARK_REACH + EPS:
                raise TwentyIllegal(rule, f"{v.uid} is more than {EMBARK_REACH:g} inches away")
            load = sum(self._load(self.units[p]) for p in v.passengers) + self._load(u)
            cap = 4 if v.is_tank else 8 if v.vclass in ("halftrack", "wheeled") and not v.ref.get("armoured_car") else 0
            if load > cap:
                raise TwentyIllegal(rule, f"{v.uid} carries {cap} men (tank riders 4, lorries and half-tracks 8; a heavy weapon counts 4); this would be {load}")
            return {"vehicle": v}
        if w == "disembark":
            rule = "Infantry Riding In or On Vehicles"
            if u.embarked_in is None:
                raise TwentyIllegal(rule, f"{u.uid} is not embarked")
            v = self.units[u.embarked_in]
            if v.moved:
                raise TwentyIllegal(rule, "the vehicle must remain stationary")
            p = _xy(a.point) if a.point else v.pos
            if self.table.distance(p, v.pos) > EMBARK_REACH + EPS or not self.table.on_table(p):
                raise TwentyIllegal(rule, f"get off within {EMBARK_REACH:g} inches of the vehicle")
            return {"vehicle": v, "point": p}
        if w == "split":
            rule = "Sequence of Play"
            if u.kind != "infantry" or u.men < 8 or not self.on_table(u):
                raise TwentyIllegal(rule, "a section of about 8 men splits into two 4-man squads")
            nid = a.other or f"{u.uid}b"
            if nid in self.units:
                raise TwentyIllegal(rule, f"unit id {nid!r} is taken")
            p = _xy(a.point) if a.point else u.pos
            if self.table.distance(p, u.pos) > 1.0 + EPS:
                raise TwentyIllegal(rule, "the new squad stands within an inch of the section")
            return {"nid": nid, "point": p}
        raise TwentyIllegal("Sequence of Play", f"unknown special action {w!r}")

    @staticmethod
    def _load(u: Unit) -> int:
        return 4 if u.kind == "gun" else u.men

    def _do_special(self, a: Special, plan: dict) -> None:
        u = self.units[a.uid]
        w = a.what
        u.acted = True
        if w in ("set_up", "dismantle"):
            u.deployed = w == "set_up"
            self._ev(w, "Crewed Weapons", uid=u.uid)
        elif w in ("limber", "unlimber"):
            tow = plan["tow"]
            tow.acted = True
            u.busy = {"what": w, "gun": u.uid, "tow": tow.uid, "point": plan["point"], "lead": True}
            tow.busy = {"what": w, "gun": u.uid, "tow": tow.uid}
            self._ev(w + "_started", "Towing, Limbering and Unlimbering", gun=u.uid, tow=tow.uid)
        elif w == "embark":
            v = plan["vehicle"]
            u.embarked_in = v.uid
            u.pos = v.pos
            v.passengers.append(u.uid)
            v.anchored = True
            self._ev("embark", "Infantry Riding In or On Vehicles", uid=u.uid, vehicle=v.uid)
        elif w == "disembark":
            v = plan["vehicle"]
            v.passengers.remove(u.uid)
            u.embarked_in = None
            u.pos = plan["point"]
            v.anchored = True
            self._ev("disembark", "Infantry Riding In or On Vehicles", uid=u.uid, vehicle=v.uid, to=list(u.pos))
        elif w == "split":
            half = u.men // 2
            new = copy.deepcopy(u)
            new.uid = plan["nid"]
            new.pos = plan["point"]
            new.men = u.men - half
            new.smg, new.lmg = u.smg // 2, u.lmg // 2
            new.at_rifle, new.panzerfaust = u.at_rifle // 2, u.panzerfaust // 2
            new.role = None
            new.name = (u.name or u.uid) + " (squad b)"
            u.men = half
            u.smg -= new.smg
            u.lmg -= new.lmg
            u.at_rifle -= new.at_rifle
            u.panzerfaust -= new.panzerfaust
            new.men_start = new.men
            u.men_start = u.men
            self.units[new.uid] = new
            self._ev("split", "Sequence of Play", uid=u.uid, new=new.uid, men=[u.men, new.men])

    # ------------------------------------------------------------------ legal actions (a representative set)
    def _ok(self, check, action) -> bool:
        try:
            check(action)
            return True
        except TwentyIllegal:
            return False

    def reach_point(self, u: Unit, target, frac: float = 1.0):
        """The farthest point along the straight line to ``target`` a move of ``u`` reaches
        (binary search on the terrain cost), or None."""
        a = u.pos
        d = self.table.distance(a, target)
        if d <= EPS:
            return None
        lo, hi = 0.0, min(1.0, (max(self.allowance_rates(u).values()) * frac) / d)
        def pt(f):
            return (a[0] + (target[0] - a[0]) * f, a[1] + (target[1] - a[1]) * f)
        if self._ok(self._check_move, Move(u.uid, (pt(hi),))):
            return pt(hi)
        for _ in range(5):
            mid = (lo + hi) / 2
            if self._ok(self._check_move, Move(u.uid, (pt(mid),))):
                lo = mid
            else:
                hi = mid
        return pt(lo) if lo * d > 0.25 else None

    def move_candidates(self, u: Unit) -> list[Move]:
        """:meth:`_move_candidates`, cached for the unit while it stands where it is this turn
        (each cached move re-validated)."""
        key = (u.uid, self.game_turn, self.side, u.pos, u.facing)
        cached = self._moves_cache.get(key)
        if cached is None:
            cached = self._moves_cache[key] = self._move_candidates(u)
            return cached
        return [m for m in cached if self._ok(self._check_move, m)]

    def _move_candidates(self, u: Unit) -> list[Move]:
        """Representative moves: towards each objective, towards and away from the nearest known
        enemy, to the nearest cover (woods, buildings), and six compass directions; each facing
        the nearest known enemy (else its way)."""
        if not self.on_table(u) or u.acted or u.fired or u.busy:
            return []
        if u.kind == "gun" and (u.is_atg or u.tow):
            out = []
            for e in self.visible_enemies(u)[:3]:
                m = Move(u.uid, (), facing=round(bearing(u.pos, e.pos), 2))
                if not self.in_arc(u, e.pos) and self._ok(self._check_move, m):
                    out.append(m)
            return out
        if u.kind == "vehicle" and (u.immobilised or u.ditched):
            return []
        if u.kind == "gun" and u.deployed and (u.is_mortar or u.weapon == "hmg"):
            return []
        goals = [_xy(o["point"]) for o in self.setup.objectives]
        foes = sorted(self.visible_enemies(u), key=lambda e: self.table.distance(u.pos, e.pos))
        if foes:
            f = foes[0].pos
            goals.append(f)
            goals.append((2 * u.pos[0] - f[0], 2 * u.pos[1] - f[1]))
        covers = []
        for area in self.table.woods + self.table.buildings:
            q = area.polygon.exterior.interpolate(area.polygon.exterior.project(Point(u.pos)))
            c = area.polygon.centroid
            covers.append((q.x + (c.x - q.x) * 0.15, q.y + (c.y - q.y) * 0.15))
        covers.sort(key=lambda g: self.table.distance(u.pos, g))
        goals = goals[:len(self.setup.objectives) + (2 if foes else 0)] + covers[:2]
        r = 20.0
        for k in range(4):
            ang = math.pi * k / 2 + math.pi / 4
            goals.append((u.pos[0] + math.cos(ang) * r, u.pos[1] + math.sin(ang) * r))
        out, seen = [], []
        for g in goals:
            if self.table.distance(u.pos, g) < 0.3:
                continue
            p = self.reach_point(u, g)
            if p is None or any(self.table.distance(p, s) < 0.5 for s in seen):
                continue
            seen.append(p)
            face = bearing(p, foes[0].pos) if foes else None
            m = Move(u.uid, ((round(p[0], 3), round(p[1], 3)),), facing=None if face is None else round(face, 2))
            if self._ok(self._check_move, m):
                out.append(m)
        if foes and u.kind in ("infantry", "vehicle") and not self.in_arc(u, foes[0].pos):
            m = Move(u.uid, (), facing=round(bearing(u.pos, foes[0].pos), 2))
            if self._ok(self._check_move, m):
                out.append(m)
        return out

    def legal_actions(self) -> list:
        """A representative set of legal actions of the side to play (``apply`` validates any
        other proposal): moves (:meth:`move_candidates`), fire at each visible target with each
        weapon, indirect fire at each enemy a friend sees, close assaults, special actions, and
        :class:`EndTurn`."""
        if self.is_terminal():
            return []
        out: list = []
        side = self.side
        mine = [u for u in self.living(side)]
        foes = [e for e in self.living(other(side)) if self.on_table(e)]
        for u in mine:
            if u.busy is not None or u.acted:
                continue
            out.extend(self.move_candidates(u))
            if self.on_table(u) and u.kind != "battery":
                for e in foes:
                    if not self.can_see(u, e):
                        continue
                    for w in ("small_arms", "at", "he"):
                        a = Fire(u.uid, w, e.uid)
                        if self._ok(self._check_fire, a):
                            out.append(a)
                            if w == "at" and self._ok(self._check_fire, Fire(u.uid, w, e.uid, tracks=True)):
                                out.append(Fire(u.uid, w, e.uid, tracks=True))
                    if u.kind == "infantry" and self._ok(self._check_assault, Assault(u.uid, e.uid)):
                        out.append(Assault(u.uid, e.uid))
            if u.is_mortar or u.kind == "battery":
                directors = [None] + [d.uid for d in mine if d.kind == "infantry" and self.on_table(d)]
                for e in foes:
                    for d in directors:
                        a = IndirectFire(u.uid, (round(e.pos[0], 3), round(e.pos[1], 3)), d)
                        if d is not None and not self.can_see(self.units[d], e):
                            continue
                        if d is None and (u.kind == "battery" or not self.can_see(u, e)):
                            continue
                        if self._ok(self._check_indirect, a):
                            out.append(a)
                            if u.kind == "battery" and u.guns > 1:
                                out.append(IndirectFire(u.uid, a.point, d, spread=True))
                            break
            for what in ("set_up", "dismantle", "split"):
                a = Special(u.uid, what)
                if self._ok(self._check_special, a):
                    out.append(a)
            if u.embarked_in is not None:
                v = self.units[u.embarked_in]
                a = Special(u.uid, "disembark", point=(round(v.pos[0] + 1.0, 3), round(v.pos[1], 3)))
                if self._ok(self._check_special, a):
                    out.append(a)
            elif u.kind in ("infantry", "gun") and self.on_table(u):
                for v in mine:
                    if v.kind == "vehicle" and self.on_table(v) and self.table.distance(u.pos, v.pos) <= EMBARK_REACH:
                        for what in ("embark", "limber", "unlimber"):
                            a = Special(u.uid, what, v.uid)
                            if self._ok(self._check_special, a):
                                out.append(a)
        out.append(EndTurn())
        return out
