"""Movement of the heuristic AI: which group moves, in what order, where to and by
which path. A mixin of :class:`core.ironcross.ai.heuristic.HeuristicPlayer`.

* **Order (8.0).** Every legal ``StartMove`` is priced; per AFV the better of moving alone and
  moving with infantry (8.4) is kept, and the AFVs' moves come first (alone, then with infantry),
  before the engine closes those stages, then the other units. Off-map groups (reinforcements,
  24.1) enter whenever the engine offers it, in the Movement or the Reaction Movement Phase, on
  their entry turn or later; AFVs enter before infantry.
* **Where to.** For a group a Dijkstra over the MPs it has (the engine's costs, 8.5) gives the
  hexes it can reach and the path to each. A hex is worth its **position** (MP distance to the
  Game Turn's goals from :mod:`core.ironcross.ai.strategy`, weighed by the posture and the time left; being
  on an objective hex; cover; fields of fire for MGs/ATGs, targets in reach for flamethrowers;
  an AFV near its infantry) minus the **expected losses** on the way and there: for each enemy
  fire entity (it fires once a Player Turn) half the worse of its opportunity fire at a hex of
  the path (13.0: who may fire, 13.2 ranges, 13.14 frontal areas, 13.17 PC modifiers, MG
  intensive fire) and its next fire at the destination (Defensive Fire, or Moving Fire after
  Reaction Movement), half the latter alone, with the exact P/S/E probabilities of the engine's
  dice; AT kill chances for AFVs, woods and marsh immobilisation
  (8.54/8.55), known mines (19.2: own mines and the revealed factors of enemy mines; a known
  mined hex is never passed through, only entered as the last hex, its expected loss counted).
  A group may end its move DOWN (3.13, 2 MP) when that pays. Hexes where the group could not
  stop (8.62, 8.63) are passed through (8.61) but never a destination; an AFV never enters a hex
  with another AFV (8.61); a group that finds itself where it may not stop moves on.
* **Who leads.** Each way of moving a stack is priced with its PC chance (none before the first
  shot, 8.22): a leader's PC moves the whole group at once but its failure holds every unit of the
  hex (8.3 A), so that failure is a cost; a commander leads a large group rather than an acting
  leader when his chance is better.
* **Weapons.** An MG or ATG that has better targets outside its frontal area turns (8.72, 8.73); an
  AFV faces the nearest enemy when it stops; at the end of the Movement Phase an infantry unit
  joins a valuable CW that lost crew (20.1), and an AFV that stood still pushes a wreck blocking
  its way (8.65).
"""

from __future__ import annotations

import copy
import heapq
from functools import lru_cache

from core.ironcross.ai.evaluation import assault_odds, at_kill_probability, overrun_blocked, pc_pass, unit_value
from core.ironcross import combat_tables as ct
from core.ironcross.actions import Action, EndPhase, Face, Step, StopMove, ToggleState, action_to_json
from core.ironcross.state import Phase
from maps import hexgrid

__all__ = ["MovementMixin"]


@lru_cache(maxsize=None)
def _hex(h: str):
    return hexgrid.parse_hex_id(h)


@lru_cache(maxsize=200_000)
def _dist(a: str, b: str) -> int:
    return hexgrid.distance(_hex(a), _hex(b))


#: the group properties (:meth:`MovementMixin._gprops`, ``_plan``) that ``_pos_value`` reads
#: besides ``occ``, ``fof`` and ``afv``-only ``inf_hexes``: the key of its memo (``_pos_values``);
#: tests/core/test_ai.py checks it against the method's source
POS_FIELDS = ("w", "cl", "inf", "assault", "firers", "ft", "afv", "at")
#: ``counter_assault=2``: a hex marked for an enemy assault is reinforced only while the enemy's
#: :func:`assault_odds` against its defenders with the group stay below this (the defence favoured)
MARKED_HOLD_ODDS = 1.0
#: the weight of expected losses (unit values) in a move's utility, before the attacker's discounts
#: for stalls and time pressure (:meth:`MovementMixin._risk_weight`; ``self_preservation`` scales it)
ATTACK_RISK_WEIGHT, DEFEND_RISK_WEIGHT = 0.8, 1.3
#: ``unhurried_caution``: the time pressure (turns its march needs over the Movement Phases left,
#: :meth:`MovementMixin._pressure`) at which an attacker's extra care has faded to none
UNHURRIED_PRESSURE = 0.5


@lru_cache(maxsize=100_000)  # actions are frozen dataclasses: the same action, the same key
def _key(a: Action) -> str:
    return repr(sorted(action_to_json(a).items()))


@lru_cache(maxsize=None)
def _ap_mine_loss(factors: int) -> float:
    """Expected loss of a NORMAL infantry unit entering a hex of ``factors`` AP mines (19.24)."""
    out = 0.0
    for die in range(1, 7):
        r = ct.ap_mine_result(die, factors)
        out += {ct.ApResult.ELIMINATED: 1.0, ct.ApResult.SUPPRESSED: 0.45, ct.ApResult.PINNED: 0.18}.get(r, 0.0) / 6
    return out


def _crew_worth(c, crew: int) -> float:
    """What a CW with ``crew`` men is worth: its value by crew (11.43), less when not fully crewed
    it fires at half factors (MMG, 11.16 d), not at all (ATR, 10.16), once a Game Turn (ATG with 1-2
    crew, 10.15) or fewer mortar rounds (14.12); none moves (8.12)."""
    full = crew >= c.crew_max
    base = {"MMG": 3.0, "Mor": 2.5, "ATR": 2.0}.get(c.weapon, 3.0 if c.is_atg else 2.0)
    v = base * (0.5 + 0.5 * crew / max(1, c.crew_max))
    if not full:
        if c.weapon == "MMG":
            v *= 0.6
        elif c.is_atr:
            v *= 0.2
        elif c.is_atg and crew <= 2:
            v *= 0.7
        elif c.is_mortar:
            v *= (3 if crew >= 2 else 2) / 5
        v *= 0.9 if c.ma > 0 else 1.0
    return v


def moving_only_turn(view) -> bool:
    """No overruns now (9.11: only in the friendly Movement Phase)."""
    return view.phase is not Phase.MOVEMENT


def _blend(path: dict, dest: dict) -> float:
    """Expected loss of a move, per enemy entity (it fires once a Player Turn): half the worse of
    its opportunity fire on the path and its fire at the destination (a firer that picks its
    moment), half its fire at the destination (a firer that waits), so cover where the move ends
    counts even after open ground."""
    if not path:
        return sum(dest.values())
    # lists, not generators: the same terms in the same order (sum's float result is the same)
    get = path.get
    return sum([0.5 * max(get(k, 0.0), x) + 0.5 * x for k, x in dest.items()]) + \
        sum([0.5 * x for k, x in path.items() if k not in dest])


@lru_cache(maxsize=None)
def _p_2d6_le(n: int) -> float:
    dist = ct.dice_total_distribution(2)
    return sum(p for t, p in enumerate(dist) if t <= n)


class MovementMixin:
    """Start of moves, steps, entries, end-of-phase steps."""

    # ================================================================== weights
    def _urg(self, view) -> float:
        u = self._dc.get("urg")
        if u is None:
            u = self._dc["urg"] = self._urgency(view)
        return u

    def _pcs_needed(self, view) -> bool:
        """8.22: movement PCs from the Player Turn after the first shot."""
        return view.movement_pcs

    # ================================================================== the position
    def _position_context(self, view, moving_ids: set):
        """(own men and CWs per hex, own AFV hexes, own infantry hexes) without ``moving_ids``."""
        own_men: dict[str, tuple[int, int]] = {}
        afv_hexes: set = set()
        inf_hexes = []
        for o in view.own_units():
            if o.id in moving_ids:
                continue
            a, b = own_men.get(o.hex, (0, 0))
            own_men[o.hex] = (a + o.men, b + (1 if o.is_cw else 0))
            if o.is_afv:
                afv_hexes.add(o.hex)
            elif o.is_infantry:
                inf_hexes.append(o.hex)
        return own_men, afv_hexes, sorted(set(inf_hexes))

    def _gprops(self, units) -> dict:
        inf = [u for u in units if not u.is_afv]
        afvs = [u for u in units if u.is_afv]
        cls = [self._assign.get(u.id) for u in units if u.id in getattr(self, "_assign", {})]
        cl = max(sorted(set(cls)), key=cls.count) if cls else None
        return {"units": list(units), "cl": cl, "men": sum(u.men for u in units), "afv": bool(afvs), "cw": any(u.is_cw for u in units),
                "here": units[0].hex, "n": len(units), "down": bool(inf) and all(u.down for u in inf),
                "inf": len(inf), "inf_val": sum(unit_value(u) for u in inf),
                "afv_val": sum(unit_value(u) for u in afvs), "armour": min((u.frontal for u in afvs), default=0),
                "assault": sum(1 for u in inf if u.is_infantry and u.assault > 0),
                "firers": sum(1 for u in inf if u.ap > 0),
                "fof": [u for u in units if (u.is_mg or u.is_atg) and not u.is_afv],
                "ft": any(u.is_ft for u in units), "toggle": bool(inf) and not afvs and all(u.normal for u in inf),
                "stall": min(getattr(self, "_unit_stalls", {}).get(u.id, 0) for u in units),
                "at": max((u.at for u in afvs if u.normal), default=0)}

    def _full_hexes(self, own_men: dict, afv_hexes: set, g: dict, start) -> frozenset:
        """Hexes the group may not stop in (8.62 six men, 8.63 one CW, 8.61 one AFV)."""
        full = {h for h, (a, b) in own_men.items() if h != start and (a + g["men"] > 6 or (g["cw"] and b))}
        if g["afv"]:
            full |= {h for h in afv_hexes if h != start}
        return frozenset(full)

    def _known_mines(self, view) -> dict[str, tuple[int, int]]:
        """hex -> (AP, AT) mine factors this side knows (own mines; revealed enemy factors, 19.11)."""
        m = self._dc.get("mines")
        if m is None:
            m = {}
            for h, d in view.mines().items():
                ap, at = int(d.get("ap", 0) or 0), int(d.get("at", 0) or 0)
                if ap or at:
                    m[h] = (ap, at)
            self._dc["mines"] = m
        return m

    def _mines_key(self, view) -> tuple:
        """:meth:`_known_mines` as a cache key (hex order), once a decision."""
        k = self._dc.get("mines_key")
        if k is None:
            k = self._dc["mines_key"] = tuple(sorted(self._known_mines(view).items()))
        return k

    def _pcache(self, view) -> dict:
        """A cache that lasts while the phase, the enemy position, the plan and the known mines stay
        the same (a minefield revealed in the middle of a Movement Phase, 19.22, changes every
        plan's reach and risks: the groups still to move must not walk into it on an old plan)."""
        pc = self._dc.get("pc")
        if pc is not None:
            return pc
        key = (view.seed_key, self.maps._key, getattr(self, "_plan_key", None), self._mines_key(view))
        if getattr(self, "_pck", None) != key:
            self._pck, self._pcd = key, {}
        pc = self._dc["pc"] = self._pcd
        return pc

    def _poscache(self, view) -> dict:
        """A cache for what a position is worth (:meth:`_hex_comp`, :meth:`_pos_values`) and where
        a group can go (:meth:`_reach`): it lasts while the phase, the plan, where the enemy units
        stand (not what they did: a shot or a morale change keeps it) and the wrecks stay the same
        (IPs, in the AP dice, are placed only in the set-up, 18.1, when nothing is planned)."""
        pc = self._dc.get("posc")
        if pc is not None:
            return pc
        m = self.maps
        key = (view.seed_key, getattr(self, "_plan_key", None), tuple((e.hex, e.is_afv) for e in m.enemies_all),
               m._key[2] if m._key is not None else None)
        if getattr(self, "_posck", None) != key:
            self._posck, self._poscd = key, {}
        pc = self._dc["posc"] = self._poscd
        return pc

    def _weights(self, view) -> tuple[float, float, float, float]:
        """(progress per turn of MPs, on-objective bonus, risk weight, urgency) per unit."""
        w = self._dc.get("weights")
        if w is None:
            urg = self._urg(view)
            attack = self.posture == "attack"
            # an attacker that did not move at all last Player Turn (a stalemate in front of the
            # enemy's guns) accepts more risk each such turn
            wr = ATTACK_RISK_WEIGHT * 0.6 ** min(getattr(self, "_stalls", 0), 4) if attack else DEFEND_RISK_WEIGHT
            st = self.settings
            # the hold bonus per posture: a defender keeps its goal hexes, an attacker must also
            # move on from a taken one while enemy units still stand on others
            hold = st.hold_objective if attack else st.defend_hold_objective
            if attack and not self.maps.attack:
                # nothing left to take (a "clear" region to keep, goal hexes still to reach): the
                # hexes held are what the enemy must win back
                hold *= st.secured_hold_objective
            w = self._dc["weights"] = ((0.4 if attack else 0.15) * urg * self._aggression(),
                                       (0.3 if attack else 0.6) * urg * hold,
                                       wr * st.self_preservation, urg)
        return w

    def _turns_left(self, view) -> int:
        """Movement phases this side still has, this one included."""
        left = view.game_length - view.turn
        if view.is_phasing or view.phase is Phase.REACTION_MOVEMENT:
            left += 1
        elif view.phasing == view.first_side:
            left += 1  # our Player Turn of this Game Turn is still to come
        return max(1, left)

    def _pressure(self, view, g: dict, h: str | None) -> float:
        """Progress weight per turn of MPs for the group: it grows as the turns it needs to reach its
        cluster (from ``h``) approach the turns left (an attacker late has no time to wait)."""
        w = self._weights(view)[0]
        if h is None:
            return w
        c = self._hex_comp(view, h, g["cl"])
        need = c[1] if (g["afv"] and not g["inf"]) else c[0]
        margin = self.settings.assault_margin
        if margin > 0 and need > 0 and g["cl"] is not None and g["cl"] < getattr(self, "_n_attack_clusters", 0):
            need += margin  # an enemy-held cluster is not taken on arrival: turns to fire and assault (17.0)
        pressure = min(1.5, need / self._turns_left(view))
        g["press"] = pressure
        base = 0.4 if self.posture == "attack" else 0.28
        return base * (0.8 + 1.6 * pressure) * (1.0 + 0.5 * view.turn / max(1, view.game_length)) \
            * self._aggression()

    def _aggression(self) -> float:
        """The setting ``aggression``, times ``defend_aggression`` in the defend posture."""
        st = self.settings
        return st.aggression if self.posture == "attack" else st.aggression * st.defend_aggression

    def _hex_comp(self, view, h: str, cl: int | None = None) -> tuple:
        """Per-hex parts of a position's value: (infantry turns to the goals (of cluster ``cl``, MP
        / 6), AFV turns (MP / 10), on a goal hex, AP dice UP, AP dice DOWN, next to an enemy-held
        goal hex, an enemy a flamethrower there could attack (16.1: range 2), an enemy-held goal
        hex in LOS within 4 hexes)."""
        k = ("comp", h, cl)
        c = self._dc.get(k)
        if c is not None:
            return c
        pc = self._poscache(view)
        c = pc.get(k)
        if c is None:
            m = self.maps
            c0 = pc.get(("comp0", h))  # the parts that do not depend on the cluster, once per hex
            if c0 is None:
                adj = 1 if m.attack and any(n in m.attack for n in self._nb(view, h)) else 0
                near_inf = pc.get("enemy_inf_within_2")
                if near_inf is None:
                    # every hex within 2 of an enemy unit other than an AFV, once a position
                    inf_at = {e.hex for e in m.enemies_all if not e.is_afv}
                    near_inf = pc["enemy_inf_within_2"] = frozenset(
                        x for e in inf_at for x in hexgrid.area(hexgrid.parse_hex_id(e), 2))
                ft = 1 if hexgrid.parse_hex_id(h) in near_inf else 0
                rng = 0
                if m.attack and not adj:
                    att = pc.get("attack_within_4")
                    if att is None:
                        # hex -> the enemy-held goal hexes within 4 of it (in hex id order), once a position
                        att = pc["attack_within_4"] = {}
                        for t in sorted(m.attack):
                            for x in hexgrid.area(hexgrid.parse_hex_id(t), 4):
                                att.setdefault(x, []).append(t)
                    near_att = att.get(hexgrid.parse_hex_id(h))
                    rng = 1 if near_att and any(m.sees_est(view, h, t, False) for t in near_att) else 0
                c0 = pc[("comp0", h)] = (adj, ft, rng)
            adj, ft, rng = c0
            if cl is not None and cl < len(m.clusters):
                on = 1 if h in m.clusters[cl] and h not in m.attack else 0
            else:
                on = 1 if (h in m.goal or h in m.guard) else 0
            c = pc[k] = (min(m.goal_mp(h, False, cl) / 6.0, 8.0), min(m.goal_mp(h, True, cl) / 10.0, 8.0),
                         on, self._hex_dice(view, h, False),
                         self._hex_dice(view, h, True), adj, ft, rng)
        self._dc[k] = c
        return c

    def _pos_value(self, view, g: dict, h: str, down: bool, inf_hexes: list) -> float:
        """What being in ``h`` at the end of the move is worth to the group (before losses):
        progress toward the goals (MPs, by posture and time left), being on a goal hex, cover, next
        to an enemy-held goal hex (assault), fields of fire (MGs, ATGs), flamethrower targets; AFVs
        near their infantry."""
        _w, gb, _wr, urg = self._weights(view)
        w = g.get("w", _w)
        c = self._hex_comp(view, h, g["cl"])
        v = 0.0
        if g["inf"]:
            n = g["inf"]
            occ = g.get("occ") or {}
            shared = 1.0 if not c[2] or occ.get(h, (0, 0))[0] == 0 else 0.3  # one stack per goal hex first
            v += n * (-w * c[0] + gb * c[2] * shared + 0.04 * (c[4] if down else c[3]))
            if self.maps.attack:
                # next to an enemy-held goal hex (assault, 17.0), or firing at one from 4 hexes
                v += 0.3 * urg * g["assault"] * c[5] + 0.12 * urg * g["firers"] * c[7]
            for u in g["fof"]:
                v += 0.08 * min(self._fof(view, u, h, down), 5.0)
            if g["ft"]:
                v += 0.5 * c[6]
        if g["afv"]:
            v += -2.0 * w * c[1] + 0.3 * urg * c[2]
            if g["at"] and self.maps.attack:
                # an AT shot at an enemy AFV holding a goal hex (17.13: only AT fire clears it)
                v += urg * self._at_shot(view, h, g["at"])
            if inf_hexes and not g["inf"]:
                pc = self._pcache(view)
                nk = ("near_inf", tuple(inf_hexes))
                memo = pc.get(nk)
                if memo is None:
                    memo = pc[nk] = {}
                near = memo.get(h)
                if near is None:
                    # the infantry hexes parsed once a position (not a cached pair per hex and infantry hex)
                    at = pc.get(("near_inf_at", nk[1]))
                    if at is None:
                        at = pc[("near_inf_at", nk[1])] = [_hex(x) for x in inf_hexes]
                    hh, dist = _hex(h), hexgrid.distance
                    near = memo[h] = min([dist(hh, x) for x in at])
                # the tether slackens as the end nears: in the last turns the objective counts
                v -= 0.15 * min(1.0, (self._turns_left(view) - 1) / 3.0) * max(0, near - 2)
        return v

    def _pos_values(self, view, g: dict, cand: list, down: bool, inf_hexes: list,
                    ov: dict | None) -> dict[str, float]:
        """{hex: :meth:`_pos_value` + the overrun bonus ``ov`` (None: nothing added)} of the hexes
        ``cand`` (same values, same order), remembered in the position cache (:meth:`_poscache`) per group
        properties :meth:`_pos_value` reads (:data:`POS_FIELDS`, the units with fields of fire, the
        infantry hexes an AFV keeps near) and hex; of the occupancy ``occ`` it reads only whether
        own men stand in a goal hex (one stack per goal hex first), checked at every use."""
        pc = self._poscache(view)
        gk = ("posv", down, self._weights(view), tuple(g.get(k) for k in POS_FIELDS),
              tuple((u.id, u.is_atg, u.ap_range, u.ap) for u in g["fof"]),
              tuple(inf_hexes) if g["afv"] and not g["inf"] else None)
        memo = pc.get(gk)
        if memo is None:
            memo = pc[gk] = {}
        occ = g.get("occ") or {}
        out = {}
        for h in cand:
            e = memo.get(h)
            if e is None or (e[1] is not None and e[1] != (occ.get(h, (0, 0))[0] == 0)):
                v = self._pos_value(view, g, h, down, inf_hexes)
                dep = occ.get(h, (0, 0))[0] == 0 if g["inf"] and self._hex_comp(view, h, g["cl"])[2] else None
                e = memo[h] = (v, dep)
            out[h] = e[0] + ov.get(h, 0.0) if ov is not None else e[0]
        mk = self._marked_men(view)
        if mk:  # counter_assault: where the enemy is marked to assault (read with the occupancy now)
            for h in cand:
                if h in mk:
                    out[h] += self._marked_bonus(view, g, h, mk)
        if self.settings.approach_spread > 0 and g["assault"] and self.maps.attack:
            self._spread_approach(view, g, out)
        return out

    def _lacking_assaulters(self, view, g: dict) -> list[str]:
        """With ``approach_spread``, in this side's last Movement Phase while attacking: the
        enemy-held goal hexes (no AFV among the holders: 17.13) that the own NORMAL infantry next to
        them, the group ``g``'s units left out, would assault at odds below ``assault_ratio``
        (17.0, :func:`assault_odds`: the stacks there do not yet favour the assault); empty
        otherwise (:meth:`_goal_holders_and_neighbours`)."""
        if not (view.phase is Phase.MOVEMENT and view.is_phasing and self.posture == "attack"
                and self._turns_left(view) <= 1):
            return []
        ids = {u.id for u in g["units"]}
        return [t for t, (defenders, own) in self._goal_holders_and_neighbours(view).items()
                if assault_odds([u for u in own if u.assault > 0 and u.id not in ids], defenders)
                < self.settings.assault_ratio]

    def _spread_approach(self, view, g: dict, out: dict[str, float]) -> None:
        """``approach_spread``: in the last Movement Phase, while some enemy-held goal hex next to
        a hex the group can end in still lacks assaulters (:meth:`_lacking_assaulters`), ending
        next to only enemy-held goal hexes that have them counts the setting's share less of the
        bonus for standing next to one (:meth:`_pos_value`), so the stacks spread over the hexes
        that decide the game (24.8: one enemy unit left on one decides it) instead of all closing on
        the nearest; a group that can reach none that lacks them joins the others in full.
        ``out``: {hex: position value}, changed in place."""
        lacking = self._lacking_assaulters(view, g)
        if not lacking:
            return
        near = {n for t in lacking for n in self._nb(view, t)}
        if not any(h in near for h in out):
            return
        urg = self._weights(view)[3]
        cut = self.settings.approach_spread * 0.3 * urg * g["assault"]
        for h in out:
            if h not in near and self._hex_comp(view, h, g["cl"])[5]:
                out[h] -= cut

    def _enemy_assaults_on_goals(self, view) -> dict[str, list]:
        """Hexes this side must hold or keep clear (goal, guard and small objective hexes) that no
        enemy unit stands in (empty or held by own units) -> the visible enemy units marked to
        assault them (17.0: Assault markers are on the map), NORMAL and on the map, by id."""
        m = self.maps
        keep = m.goal | m.guard | getattr(self, "_objective_hexes", frozenset())
        out: dict[str, list] = {}
        for e in sorted(view.enemy_units(), key=lambda x: x.id):
            t = e.assault_hex
            if t and t in keep and e.normal and not view.enemy_at(t):
                out.setdefault(t, []).append(e)
        return out

    def _marked_men(self, view) -> dict[str, int]:
        """In a Reaction Movement Phase with the setting ``counter_assault``: goal hexes (and
        hexes to keep clear) -> how many enemy units are marked to assault them (the units themselves,
        :meth:`_enemy_assaults_on_goals`, are kept beside for :meth:`_marked_odds`); else empty. The
        markers were placed at the end of the enemy's Movement Phase (17.0): they stay the same for
        the whole phase."""
        if self.settings.counter_assault <= 0 or view.phase is not Phase.REACTION_MOVEMENT:
            return {}
        mk = self._dc.get("marked")
        if mk is None:
            units = self._dc["marked_units"] = self._enemy_assaults_on_goals(view)
            mk = self._dc["marked"] = {h: len(es) for h, es in units.items()}
        return mk

    def _marked_bonus(self, view, g: dict, h: str, mk: dict[str, int]) -> float:
        """What the group's men are worth in ``h`` against the enemy's marked assault on it
        (:meth:`_marked_men`): its assault fire meets the defenders' (17.23), so a hex wants more
        than twice the men marked against it; each man short that the group brings counts as much
        as holding a goal hex is urgent (the enemy on it after the assault may decide the game)."""
        n = mk.get(h)
        if not n or not g["inf"]:
            return 0.0
        short = 2 * n + 1 - (g.get("occ") or {}).get(h, (0, 0))[0]
        if short <= 0:
            return 0.0
        if self.settings.counter_assault >= 2 and self._marked_odds(view, g, h) >= MARKED_HOLD_ODDS:
            return 0.0  # men fed into a hex the enemy's assault takes anyway are lost with it
        return min(g["men"], short) * self._weights(view)[3]

    @staticmethod
    def _marked_defence(view, mk: dict[str, int]) -> tuple:
        """The own units in the marked hexes ``mk`` with what :func:`assault_odds` reads of them
        (a plan's key: its odds change with them)."""
        return tuple(sorted((u.hex, u.id, u.morale.value, u.pr) for u in view.own_units() if u.hex in mk))

    def _marked_odds(self, view, g: dict, h: str) -> float:
        """:func:`assault_odds` of the enemy units marked to assault ``h`` (:meth:`_enemy_assaults_on_goals`)
        against the own infantry in ``h`` with the group's (17.0: all of them defend the hex); asked
        only for a hex of :meth:`_marked_men`, which keeps the marked units."""
        att = self._dc["marked_units"]
        ids = {u.id for u in g["units"]}
        defenders = [u for u in view.own_units() if u.hex == h and u.id not in ids and not u.is_afv]
        defenders += [u for u in g["units"] if not u.is_afv]
        return assault_odds(att.get(h, []), defenders)

    def _at_shot(self, view, h: str, at: int) -> float:
        """The best chance of destroying an enemy AFV in an enemy-held goal hex with one AT shot
        of factor ``at`` from ``h`` (12.16 unlimited range, LOS, 12.3 at its frontal armour)."""
        pc = self._pcache(view)
        k = ("at_shot", h, at)
        r = pc.get(k)
        if r is None:
            r = 0.0
            for e in self.maps.enemies_all:
                if e.is_afv and e.hex in self.maps.attack and e.hex != h and self.maps.sees_est(view, h, e.hex, False):
                    higher = view.terrain.level(e.hex) > view.terrain.level(h)
                    r = max(r, at_kill_probability(at, 2, e.frontal, higher))
            pc[k] = r
        return r

    def _fof(self, view, u, h: str, down: bool) -> float:
        """Enemy units an MG/ATG in ``h`` could fire at (its reach), ignoring its facing (it turns)."""
        # kept while the enemy units stand where they stand (their fire does not change this)
        where = self._dc.get("enemy_where")
        if where is None:
            where = self._dc["enemy_where"] = (tuple((e.hex, e.is_afv) for e in self.maps.enemies_all),
                                               view.seed_key[0])
        if getattr(self, "_fof_key", None) != where:
            self._fof_key, self._fof_cache = where, {}
        pc = self._fof_cache
        k = (u.is_atg, u.ap_range, u.ap > 0, h, down)
        f = pc.get(k)
        # with enemies in sight, the count for where they stand and the wrecks (LOS) is remembered
        # for the game
        mk = (where[0], self.maps._key[2], k) if self.maps.enemies_all else None
        if f is None and mk is not None:
            f = self.__dict__.setdefault("_fof_memo", {}).get(mk)
            if f is not None:
                pc[k] = f
        if f is None:
            reach = max(4, min(12, u.ap_range if not u.is_atg else 16))
            f = 0.0
            # per enemy hex (its units share the distance and the LOS): (hex, AFVs, other units)
            at = self._dc.get("enemy_at")
            if at is None:
                cnt: dict[str, list[int]] = {}
                for e in self.maps.enemies_all:
                    c = cnt.setdefault(e.hex, [0, 0])
                    c[0 if e.is_afv else 1] += 1
                at = self._dc["enemy_at"] = tuple((x, a, b) for x, (a, b) in cnt.items())
            for x, n_afv, n_other in at:
                if u.is_atg and u.ap <= 0:
                    n_other = 0  # an ATG without AP factors counts only AFVs
                if not (n_afv or n_other):
                    continue
                d = _dist(h, x)
                if 0 < d <= reach and self.maps.sees_est(view, h, x, down):
                    # 1 a unit, 2 an AFV for an ATG (counts of whole units: exact in any order)
                    f += n_afv * (2.0 if u.is_atg else 1.0) + n_other * 1.0
            if not self.maps.enemies_all:
                f = 0.5 * self.maps.field_of_fire(h, down)
            pc[k] = f
            if mk is not None:
                memo = self._fof_memo
                if len(memo) > 200_000:
                    memo.clear()
                memo[mk] = f
        return f

    def _enemy_hexes(self, view) -> frozenset:
        e = self._dc.get("enemy_hexes")
        if e is None:
            e = self._dc["enemy_hexes"] = frozenset(x.hex for x in self.maps.enemies_all)
        return e

    def _nb(self, view, h: str) -> list[str]:
        nbs = self._nbs.get(h)
        if nbs is None:
            nbs = self._nbs[h] = view.neighbours(h)
        return nbs

    # ================================================================== reach and risk
    def _reach(self, view, units, start: str, mp: float, one_hex: bool, full=frozenset()) -> dict:
        """Dijkstra over MP from ``start``: hex -> (cost, previous hex). Hexes in ``full`` (where the
        group could not stop, 8.62) are passed through (8.61) but are no destination (the caller
        skips them); a known mined hex only as the last hex (19.2)."""
        enemy_hexes = set(self._enemy_hexes(view))
        afv = any(u.is_afv for u in units)
        if afv:  # 8.61: an AFV never enters a hex holding another AFV
            ids = {u.id for u in units}
            enemy_hexes |= {o.hex for o in view.own_units() if o.is_afv and o.id not in ids}
            enemy_hexes |= {h for h, n in view.wrecks.items() if n}
        inf = any(not u.is_afv for u in units)
        mines = self._known_mines(view)
        # the group's cost into each neighbour (8.5: the costliest of its units; None prohibited
        # for one of them: left out), by the units' move classes, kept for the game (terrain only)
        reps: dict[tuple, object] = {}
        for u in units:
            reps.setdefault((u.is_afv, u.down, u.normal and not u.down), u)
        adj = self._adj_by_class(tuple(sorted(reps)))
        best: dict[str, tuple[float, str | None]] = {start: (0.0, None)}
        pq = [(0.0, start)]
        lim = float("inf") if one_hex else mp + 1e-9
        pop, push = heapq.heappop, heapq.heappush
        while pq:
            c, h = pop(pq)
            if c > best[h][0] + 1e-9:
                continue
            if one_hex and h != start:
                continue
            if h != start and h in mines and ((inf and mines[h][0]) or (afv and mines[h][1])):
                continue  # 19.2: never through a known minefield
            nbc = adj.get(h)
            if nbc is None:
                nbc = adj[h] = self._group_costs(view, reps, h)
            for n, cost in nbc:
                if n in enemy_hexes:
                    continue
                nc = c + cost
                if nc > lim:
                    continue
                b = best.get(n)
                if b is None or nc < b[0] - 1e-9:
                    best[n] = (nc, h)
                    push(pq, (nc, n))
        return best

    def _adj_by_class(self, classes: tuple) -> dict:
        """hex -> [(neighbour, MP)] for a group of the move ``classes`` (see :meth:`_group_costs`)."""
        tables = self.__dict__.setdefault("_adj_tables", {})
        t = tables.get(classes)
        if t is None:
            t = tables[classes] = {}
        return t

    def _group_costs(self, view, reps: dict, h: str) -> list:
        """[(neighbour, MP)] from ``h`` for a group whose move classes ``reps`` maps to one unit
        each: the costliest class's cost (8.5), neighbours prohibited to any class left out."""
        out = []
        for n in self._nb(view, h):
            cost = 0.0
            for ck0, u in reps.items():
                ck = (h, n) + ck0
                k = self._costs.get(ck, -1)
                if k == -1:
                    k = self._costs[ck] = view.move_cost(u, h, n)
                if k is None:
                    cost = None
                    break
                cost = max(cost, k)
            if cost is not None:
                out.append((n, cost))
        return out

    def _risks(self, view, reach: dict, start: str, g: dict, need=None) -> dict[str, tuple[float, ...]]:
        """hex -> (expected loss per unit value of the infantry ending there UP, the same ending
        DOWN, expected loss of the AFV's value share (P destroyed + immobilised), the part of the
        first two from known AP mines in the hex (19.24), the part of the third from known AT mines
        (19.25)) for the group moving from ``start`` along the ``reach`` tree: per enemy fire entity
        the worse of its opportunity fire on the path and its next fire at the destination (see the
        module). ``need``: only these hexes (with every hex on their paths)."""
        m = self.maps
        down = g["down"]
        mines = self._known_mines(view)
        order = sorted(reach if need is None else need, key=lambda h: (reach[h][0], h))
        path_opp: dict[str, dict] = {}
        path_at: dict[str, dict] = {}
        p_mob: dict[str, float] = {}
        out: dict[str, tuple[float, float, float]] = {}
        inf, afv, armour = g["inf"], g["afv"], g["armour"]
        toggle_up = g["toggle"] and not down
        fire_risk, at_risk = m.fire_risk, m.at_risk
        for h in order:
            prev = reach[h][1]
            fr = fire_risk(h, down) if inf else None  # (opportunity fire, next fire) at h
            if prev is None:  # the start: no move, no opportunity fire
                path_opp[h], path_at[h], p_mob[h] = {}, {}, 1.0
            else:
                po = path_opp[prev]
                pa = path_at[prev]
                if inf:
                    opp = fr[0]
                    if opp:
                        po = dict(po)
                        for k, x in opp.items():
                            if x > po.get(k, 0.0):
                                po[k] = x
                if afv:
                    opp = at_risk(h, armour)[0]
                    if opp:
                        pa = dict(pa)
                        for k, x in opp.items():
                            if x > pa.get(k, 0.0):
                                pa[k] = x
                path_opp[h], path_at[h] = po, pa
                pm = p_mob[prev]
                if afv:
                    t = view.terrain
                    if t.trees(h) >= 2:
                        pm *= 1.0 - _p_2d6_le(t.trees(h))  # 8.54
                    if t.is_marsh(h):
                        pm *= 1.0 - _p_2d6_le(4)  # 8.55
                p_mob[h] = pm
            r_up = r_down = r_afv = m_inf = m_afv = 0.0
            if inf:
                po = path_opp[h]
                r_up = _blend(po, fr[1])
                if toggle_up:
                    r_down = _blend(po, fire_risk(h, True)[1])
                else:
                    r_down = r_up
                if prev is not None and h in mines and mines[h][0]:
                    m_inf = _ap_mine_loss(mines[h][0])
                    r_up += m_inf
                    r_down += m_inf
            if afv:
                pa = path_at[h]
                d_at = at_risk(h, armour)[1]
                r_afv = _blend(pa, d_at)
                r_afv += 0.4 * (1.0 - p_mob[h])
                if prev is not None and h in mines and mines[h][1]:
                    m_afv = _p_2d6_le(mines[h][1])  # 19.25
                    r_afv += m_afv
            out[h] = (r_up, r_down, min(1.0, r_afv), m_inf, min(1.0, m_afv))
        return out

    def _mine_crowd_loss(self, view, g: dict, h: str) -> float:
        """Expected loss (unit values) of the own units already in ``h`` when the group enters it:
        known AP mines attack every infantry and CW unit in the hex each time a unit enters
        (19.24), not only the one entering."""
        mines = self._known_mines(view)
        mf = mines.get(h)
        if not mf or not mf[0] or not g["inf"]:
            return 0.0
        a, b = (g.get("occ") or {}).get(h, (0, 0))
        n = a + b
        return _ap_mine_loss(mf[0]) * n if n else 0.0

    def _open_stack_loss(self, view, g: dict, h: str) -> float:
        """What ``open_stack_caution`` counts as lost (unit values) when the group ends its move UP
        in ``h``: the setting times the own infantry/CW units standing UP there then, when they are 3
        or more and ``h`` is open ground under a visible enemy MG with cover near
        (:meth:`_open_under_mg`; the blunder kind ``halted_in_open_under_mg`` as the AI can see
        it); 0.0 otherwise. Asked only where :meth:`_open_stack_applies`."""
        n = g["inf"] + self._own_up_stacks(view, g).get(h, 0)
        if n < 3 or not self._open_under_mg(view, h):
            return 0.0
        return self.settings.open_stack_caution * n

    def _open_stack_applies(self, g: dict) -> bool:
        """Does ``open_stack_caution`` price the group's moves: the setting on, and infantry/CW units
        that end UP (a DOWN group stays DOWN)?"""
        return self.settings.open_stack_caution > 0 and g["inf"] > 0 and not g["down"]

    def _own_up_stacks(self, view, g: dict) -> dict[str, int]:
        """hex -> own infantry/CW units standing UP there, the group's own units left out (once a
        decision)."""
        ids = frozenset(u.id for u in g["units"])
        key = ("up_stacks", ids)
        d = self._dc.get(key)
        if d is None:
            d = {}
            for o in view.own_units():
                if o.id not in ids and not o.is_afv and not o.down:
                    d[o.hex] = d.get(o.hex, 0) + 1
            self._dc[key] = d
        return d

    def _working_mgs(self, view) -> tuple:
        """(hex, normal AP range (at least 1), DOWN) of the visible enemy MGs that are not broken,
        by id (once a decision)."""
        mgs = self._dc.get("working_mgs")
        if mgs is None:
            mgs = self._dc["working_mgs"] = tuple(
                (x.hex, max(1, x.ap_range), x.down) for x in self.maps.enemies_all
                if x.is_mg and not getattr(x, "mg_broken", False))
        return mgs

    def _open_under_mg(self, view, h: str) -> bool:
        """Is ``h`` without cover (no trees, building or IP, 11.31) in the normal range (11.2) and
        estimated LOS of a working enemy MG (:meth:`_working_mgs`), while a hex within 2 with more
        AP dice holds no enemy unit? Kept while the plan cache holds, per MG position."""
        mgs = self._working_mgs(view)
        if not mgs:
            return False
        pc = self._pcache(view)
        key = ("open_mg", h, mgs)
        r = pc.get(key)
        if r is None:
            t = view.terrain
            ips = self._dc.get("ips")  # the decision's IPs (HeuristicPlayer._decide)
            if ips is None:
                ips = view.ips
            r = False
            if t.trees(h) == 0 and not t.is_building(h) and not ips.get(h, 0) and \
                    any(_dist(x, h) <= rng and self.maps.sees_est(view, x, h, dn) for x, rng, dn in mgs):
                here = self._hex_dice(view, h, False)
                enemy = self._enemy_hexes(view)
                # the map's hexes within 2 (the map's neighbours of its neighbours: never off its edge)
                r = any(n != h and n not in enemy and self._hex_dice(view, n, False) > here
                        for n1 in self._nb(view, h) for n in [n1] + self._nb(view, n1))
            pc[key] = r
        return r

    def _risk_weight(self, view, g: dict) -> float:
        """The weight of expected losses for the group: an attacker whose goal is as far as the
        turns left allow (pressure over 0.3) accepts more risk (a goal missed loses the game), and
        so does one that stood still, away from its goal, in its last Movement Phases (0.6 times
        for each, at most four: a stalemate before the enemy's guns). ``unhurried_caution`` scales
        an attacker's weight by how much time it has to spare (pressure below
        :data:`UNHURRIED_PRESSURE`)."""
        wr = self._weights(view)[2]
        if self.posture == "attack":
            press = g.get("press", 0.0)
            wr /= 1.0 + 4.0 * max(0.0, press - 0.3)
            wr *= 0.6 ** min(g.get("stall", 0), 4)
            uc = self.settings.unhurried_caution
            if uc != 1.0:
                # an attacker with time to spare can afford care; one that must hurry cannot
                wr *= 1.0 + (uc - 1.0) * max(0.0, 1.0 - press / UNHURRIED_PRESSURE)
        return wr

    def _mine_weight(self, view) -> float:
        """The weight of expected mine losses kept by ``mine_caution`` 1-2: the side's risk weight
        before the discounts for time pressure and stalls (:meth:`_risk_weight`), since a known
        minefield's losses are certain and their own units' are no price of progress (19.24)."""
        base = ATTACK_RISK_WEIGHT if self.posture == "attack" else DEFEND_RISK_WEIGHT
        return base * self.settings.self_preservation

    def _mine_extra(self, view, g: dict, wr: float, risk: tuple, crowd_loss: float) -> float:
        """What ``mine_caution`` adds to the cost of a move into a hex of ``risk``
        (:meth:`_risks`) beyond ``wr`` times its expected losses: the mine losses at
        :meth:`_mine_weight` instead of ``wr`` (1: the own units already there, ``crowd_loss``; 2:
        the entering group's too); 0.0 with ``mine_caution`` 0 or no mine loss."""
        mc = self.settings.mine_caution
        if not mc:
            return 0.0
        m = crowd_loss
        if mc >= 2:
            m += risk[3] * g["inf_val"] + risk[4] * g["afv_val"]
        if not m:
            return 0.0
        return max(0.0, self._mine_weight(view) - wr) * m

    def _utility(self, view, g: dict, h: str, risk: tuple, down_end: bool, inf_hexes: list,
                 val: float | None = None) -> float:
        """``val``: the position value when the caller has it (:meth:`_pos_values`)."""
        wr = self._risk_weight(view, g)
        r_inf = risk[1] if down_end else risk[0]
        if val is None:
            val = self._pos_value(view, g, h, down_end or g["down"], inf_hexes)
            mk = self._marked_men(view)
            if mk and h in mk:
                val += self._marked_bonus(view, g, h, mk)
        return val - wr * (r_inf * g["inf_val"] + risk[2] * g["afv_val"])

    def _cached_position_context(self, view, units):
        """:meth:`_position_context` of the other units than ``units``, cached per group."""
        ids = frozenset(u.id for u in units)
        pk = ("pos", ids)
        ctx = self._dc.get(pk)
        if ctx is None:
            ctx = self._dc[pk] = self._position_context(view, set(ids))
        return ctx

    def _plan(self, view, units, mp: float, one_hex: bool, moving: bool = False, stand_up: bool = True):
        """(gain, destination, path, end DOWN, UP first) of the best reachable hex for ``units``
        (stacked) against staying where they are; ``moving``: the group is on its way (it may also
        go DOWN where it stands, 3.13). A DOWN group that attacks may first stand UP (3.13: 2 MP)
        and move on at the UP costs and the road rate (8.5, 8.52): the better of the two plans,
        "UP first" True for the second (``stand_up`` False, or the setting
        ``stand_up_to_move`` 0: never). Cached while the phase and the enemy position stay the same."""
        top, base, dest, path, down_end = self._plan_core(view, units, mp, one_hex, moving)
        if stand_up and self.settings.stand_up_to_move > 0 and not one_hex and mp >= 4 - 1e-9 \
                and self.posture == "attack" and view.phase is Phase.MOVEMENT \
                and all(not u.is_afv and u.down and u.normal for u in units):
            ups = [copy.copy(u) for u in units]
            for u in ups:
                u.down = False
            top_u, _base_u, dest_u, path_u, down_u = self._plan_core(view, ups, mp - 2.0, one_hex, moving)
            if dest_u != units[0].hex and top_u > top + 1e-9:
                return (top_u - base, dest_u, path_u, down_u, True)
        return (top - base, dest, path, down_end, False)

    def _plan_core(self, view, units, mp: float, one_hex: bool, moving: bool):
        """(utility of the best hex, utility of staying, best hex, path, end DOWN) for ``units`` in
        their present UP/DOWN state (see :meth:`_plan`)."""
        start = units[0].hex
        own_men, afv_hexes, inf_hexes = self._cached_position_context(view, units)
        g = self._gprops(units)
        g["occ"] = own_men
        g["w"] = self._pressure(view, g, start)
        full = self._full_hexes(own_men, afv_hexes, g, start)
        pc = self._pcache(view)
        # units alike (same counter values and state, same goal cluster) share one plan
        sig = tuple(sorted((u.kind.value, u.weapon, u.pr, u.ap, u.ap_range, u.at, u.assault, u.crew, u.frontal,
                            u.down, u.morale.value, self._assign.get(u.id, -1)) for u in units))
        a0, b0 = own_men.get(start, (0, 0))
        m = self.maps
        # the hexes the group can reach do not depend on where other stacks stand (it passes through
        # them, 8.61), except the hexes of other AFVs for an AFV (8.61)
        blocked = frozenset(afv_hexes) if g["afv"] else frozenset()
        rk = ("reach", start, mp, one_hex, tuple(sorted({(u.is_afv, u.down, u.normal) for u in units})), blocked)
        reach = pc.get(rk)
        if reach is None:
            # the same reach while the enemy stands where it stands and the known mines stay
            posc = self._poscache(view)
            pk = (rk, self._mines_key(view))
            reach = posc.get(pk)
            if reach is None:
                reach = posc[pk] = self._reach(view, units, start, mp, one_hex)
            pc[rk] = reach
        # a plan holds while nothing changes within its reach
        held = frozenset(h for h in own_men if (h in m.goal or h in m.guard) and h in reach)
        mk = self._marked_men(view)
        osc = self._open_stack_applies(g)
        plan_key = ("plan", rk, sig, g["stall"], frozenset(full.intersection(reach)), moving, held, a0, b0,
                    tuple(inf_hexes) if g["afv"] and not g["inf"] else None,
                    tuple(own_men.get(h) for h in sorted(mk)) if mk else None,
                    self._marked_defence(view, mk) if mk and self.settings.counter_assault >= 2 else None,
                    self._covered_goal_hexes(view) if g["afv"] else None,  # overrun_uncovered: the overrun bonus
                    tuple(sorted(self._own_up_stacks(view, g).items())) if osc else None)
        r = pc.get(plan_key)
        if r is not None:
            return r
        ov = self._overrun_bonus(view, units, reach, mp) if g["afv"] and not moving_only_turn(view) else {}
        # the enemy fire is priced on the paths to the most promising hexes only (position value,
        # cover): the LOS it needs is the dearest part of a plan
        cand = [h for h in reach if h != start and h not in full]
        down0 = g["down"]
        pos = self._pos_values(view, g, cand, down0, inf_hexes, ov)
        if len(cand) > 36:
            # by value, best first, ties by hex id (stable sorts: as the key (-value, hex)); by cover
            by_id = sorted(cand)
            by_pos = sorted(by_id, key=pos.__getitem__, reverse=True)
            top = by_pos[:28]
            dice = self._poscache(view).setdefault(("dice", down0), {})  # IPs change only in the set-up
            for h in by_pos:
                if h not in dice:
                    dice[h] = self._hex_dice(view, h, down0)
            cover = sorted(by_pos, key=dice.__getitem__, reverse=True)[:8]
            cand = sorted(set(top) | set(cover))
        need = {start}
        for h in cand:
            while h is not None and h not in need:
                need.add(h)
                h = reach[h][1]
        risk_key = ("risk", rk, g["inf"] > 0, g["afv"], g["armour"], g["toggle"], g["down"])
        risks = pc.get(risk_key)
        if risks is None:
            risks = pc[risk_key] = {}
        missing = need.difference(risks)
        if missing:
            todo = set()  # the missing hexes and the hexes on their paths (the risk runs along them)
            for h in missing:
                while h is not None and h not in todo:
                    todo.add(h)
                    h = reach[h][1]
            risks.update(self._risks(view, reach, start, g, todo))
        base = self._utility(view, g, start, risks[start], False, inf_hexes)
        if osc and moving:
            base -= self._open_stack_loss(view, g, start)  # stopping here UP ends the move here
        best = (base, start, False)
        can_toggle = g["toggle"] and not g["down"] and not one_hex
        a, b = own_men.get(start, (0, 0))
        if moving and (a + g["men"] > 6 or (g["cw"] and b) or (g["afv"] and start in afv_hexes)):
            best = (base - 100.0, start, False)  # 8.62: the group may not end its move here
        elif moving and can_toggle and mp >= 2 - 1e-9:
            u0 = self._utility(view, g, start, risks[start], True, inf_hexes) - 0.02
            if u0 > best[0] + 1e-9:
                best = (u0, start, True)
        wr = self._risk_weight(view, g)
        iv, av = g["inf_val"], g["afv_val"]
        crowd = self._mine_crowd_loss if self._known_mines(view) else None  # 0.0 without known mines
        pos_dn = self._pos_values(view, g, [h for h in cand if mp - reach[h][0] >= 2 - 1e-9], True, inf_hexes,
                                  None) if can_toggle else {}
        for h in cand:
            r = risks[h]
            ml = crowd(view, g, h) if crowd is not None else 0.0
            mx = self._mine_extra(view, g, wr, r, ml) if crowd is not None else 0.0
            u_ = pos[h] - wr * (r[0] * iv + r[2] * av + ml) - mx
            if osc:
                u_ -= self._open_stack_loss(view, g, h)
            if u_ > best[0] + 1e-9:
                best = (u_, h, False)
            if can_toggle and mp - reach[h][0] >= 2 - 1e-9:
                u2 = self._utility(view, g, h, risks[h], True, inf_hexes, pos_dn[h]) - 0.02 - \
                    wr * ml - mx
                if u2 > best[0] + 1e-9:
                    best = (u2, h, True)
        top, dest, down_end = best
        path = [dest]
        while reach[path[-1]][1] is not None:
            path.append(reach[path[-1]][1])
        path.reverse()
        r = pc[plan_key] = (top, base, dest, path, down_end)
        return r

    def _overrun_bonus(self, view, units, reach: dict, mp: float) -> dict[str, float]:
        """9.0: hex -> value of the best overrun the AFV could make from there (enough MPs to
        enter the enemy hex, one more, and to leave it; no enemy AFV or wreck there, 9.13), so the
        AFV plans its way to a favourable overrun (made by ``_overrun`` when it gets there)."""
        afv = next((u for u in units if u.is_afv), None)
        if afv is None or afv.overrun_done or afv.immobilized or not afv.normal or afv.overrun <= 0:
            return {}
        pc = self._pcache(view)
        cov = self._covered_goal_hexes(view)  # overrun_uncovered: the scores depend on own infantry too
        targets = pc.get(("ov_targets", afv.id, len(units), cov))
        if targets is None:
            targets = {}
            for e in self.maps.enemies_all:
                if e.hex in targets:
                    continue
                if overrun_blocked(view, e.hex):
                    continue
                from core.ironcross.actions import Overrun

                sc = self._overrun_score(view, afv, units, Overrun(e.hex, len(units) > 1))
                if sc is None:
                    sc = self._overrun_score(view, afv, units, Overrun(e.hex, False))
                if sc is None or sc <= 0.4:
                    continue
                exits = [view.move_cost(afv, e.hex, n) for n in self._nb(view, e.hex)
                         if not view.enemy_at(n) and not view.wrecks.get(n)]
                exits = [c for c in exits if c is not None]
                if exits:
                    targets[e.hex] = (sc, min(exits))
            pc[("ov_targets", afv.id, len(units), cov)] = targets
        if not targets:
            return {}
        out: dict[str, float] = {}
        for h, (cost, _prev) in reach.items():
            best = 0.0
            for n in self._nb(view, h):
                t = targets.get(n)
                if t is None:
                    continue
                cin = view.move_cost(afv, h, n)
                if cin is not None and cost + cin + 1 + t[1] <= mp + 1e-9 and t[0] > best:
                    best = t[0]
            if best:
                out[h] = best
        return out

    # ================================================================== pricing a StartMove
    def _move_p(self, view, a, units, pcs: bool) -> float:
        """P(the move happens) (8.22, 8.3 A/C, 8.41)."""
        if not pcs:
            return 1.0
        if a.leader:
            ld = view.unit(a.leader)
            p = pc_pass(ld.pr) if ld else 0.5
            afv = next((u for u in units if u.is_afv), None)
            return p * (pc_pass(afv.pr) if afv is not None else 1.0)
        if a.directed_by:
            ld = view.unit(a.directed_by)
            return pc_pass(ld.pr if ld else 7, 2)
        afv = next((u for u in units if u.is_afv), None)
        if afv is not None:
            p = pc_pass(afv.pr)
            others = [u for u in units if u is not afv]
            if others:
                p *= sum(pc_pass(u.pr) for u in others) / len(others)
            return p
        return pc_pass(units[0].pr)

    def _fail_cost(self, view, a, units, pcs: bool, per_unit: float) -> float:
        """What a failed leader PC costs beyond this group: every other unit of the stack that has not
        moved loses its move this phase (8.3 A)."""
        if not pcs or not a.leader:
            return 0.0
        ids = set(a.units)
        here = units[0].hex
        if here is None:
            others = [u for u in self._waiting_at_entry(view, units[0]) if u.id not in ids]
            per_unit += 0.3  # a reinforcement held back loses its entry this phase (24.1)
        else:
            others = [u for u in view.own_units() if u.hex == here and u.id not in ids and not u.moved
                      and not u.is_afv]
        return per_unit * len(others)

    def _entry_plan(self, view, units) -> tuple[float, str | None]:
        """(utility, hex) of the best entry hex for an off-map group (stacking-aware, 8.62)."""
        e = view.entry_of(units[0].id)
        if e is None:
            return (float("-inf"), None)
        own_men, afv_hexes, inf_hexes = self._cached_position_context(view, units)
        g = self._gprops(units)
        g["here"] = None
        g["occ"] = own_men
        hexes = frozenset(e.hexes)
        posc = self._poscache(view)  # the entry hex nearest the goals (MP), once per plan
        mk = ("entry_near", hexes, g["afv"], g["cl"])
        near = posc.get(mk)
        if near is None:
            near = posc[mk] = min(e.hexes, key=lambda x: (self.maps.goal_mp(x, g["afv"], g["cl"]), x))
        g["w"] = self._pressure(view, g, near)
        full = self._full_hexes(own_men, afv_hexes, g, None)
        pc = self._pcache(view)
        held = frozenset(h for h in own_men if h in self.maps.goal or h in self.maps.guard)
        sig = tuple(sorted((u.kind.value, u.weapon, u.pr, u.ap, u.ap_range, u.at, u.assault, u.crew, u.frontal,
                            u.down, u.morale.value, self._assign.get(u.id, -1)) for u in units))
        ek = ("entry", hexes, sig, full, held, tuple(inf_hexes) if g["afv"] and not g["inf"] else None)
        r = pc.get(ek)
        if r is None:
            r = pc[ek] = self._entry_plan_calc(view, units, e, g, full, inf_hexes)
        return r

    def _entry_plan_calc(self, view, units, e, g: dict, full, inf_hexes) -> tuple[float, str | None]:
        enemy = {x.hex for x in view.enemy_units()}
        mines = self._known_mines(view)
        best = (float("-inf"), None)
        for h in sorted(e.hexes):
            if h in full or h in enemy or not view.contains(h):
                continue
            if g["afv"] and (view.wrecks.get(h) or view.terrain.entry_cost(h, "afv", False) is None):
                continue
            if g["inf"] and view.terrain.entry_cost(h, "infantry", False) is None:
                continue
            r_up = r_afv = m_inf = m_afv = 0.0
            if g["inf"]:
                opp, d_up = self.maps.fire_risk(h, False)
                r_up = _blend(opp, d_up)
                if h in mines and mines[h][0]:
                    m_inf = _ap_mine_loss(mines[h][0])
                    r_up += m_inf
            if g["afv"]:
                opp, d_at = self.maps.at_risk(h, g["armour"])
                r_afv = _blend(opp, d_at)
                t = view.terrain
                if t.trees(h) >= 2:
                    r_afv += 0.4 * _p_2d6_le(t.trees(h))
                if t.is_marsh(h):
                    r_afv += 0.4 * _p_2d6_le(4)
                if h in mines and mines[h][1]:
                    m_afv = _p_2d6_le(mines[h][1])
                    r_afv += m_afv
            risk = (r_up, r_up, min(1.0, r_afv), m_inf, min(1.0, m_afv))
            u_ = self._utility(view, g, h, risk, False, inf_hexes)
            if m_inf or m_afv:
                u_ -= self._mine_extra(view, g, self._risk_weight(view, g), risk, 0.0)
            if u_ > best[0]:
                best = (u_, h)
        return best

    def _facing_gain(self, view, u) -> tuple[float, int | None]:
        """(gain, hexside) of turning the MG/ATG ``u`` to the hexside with the best targets (8.72,
        8.73): expected value of its best attack there minus in its present frontal area."""
        if not u.has_facing or u.is_afv or u.hex is None:
            return (0.0, None)
        if u.is_atg and u.crew < 3:
            return (0.0, None)  # 8.72
        def value(facing: int) -> float:
            best = 0.0
            for e in self.maps.enemies_all:
                if not view.in_frontal_area(u.hex, facing, e.hex):
                    continue
                d = _dist(u.hex, e.hex)
                if u.is_atg and e.is_afv and u.at > 0:
                    if not self.maps.sees_est(view, u.hex, e.hex, u.down):
                        continue
                    front = view.in_frontal_area(e.hex, e.facing or 1, u.hex)
                    higher = view.terrain.level(e.hex) > view.terrain.level(u.hex)
                    pk = at_kill_probability(u.at, 3, e.frontal if front else e.flank, higher)
                    best = max(best, pk * unit_value(e))
                elif u.ap > 0 and not e.is_afv and d <= 2 * max(1, u.ap_range):
                    if not self.maps.sees_est(view, u.hex, e.hex, u.down):
                        continue
                    f = ct.attenuated(u.ap, max(1, u.ap_range), d) - view.terrain.trees(e.hex)
                    if f > 0:
                        from core.ironcross.ai.evaluation import ap_attack_value

                        best = max(best, ap_attack_value(f, [(e, view.hex_dice(e.hex, e.down))]))
            return best
        now = value(u.facing or 1)
        best = (0.0, None)
        for f in range(1, 7):
            if f == (u.facing or 1):
                continue
            g = value(f) - now
            if g > best[0]:
                best = (g, f)
        return best

    def _score_start(self, view, a, units, ctx: dict):
        """(score, stage, AFV id, plan note) of a StartMove (see ``_start_move``), None when the
        move is pointless. ``ctx``: pcs, urg, reaction, per_unit_fail."""
        pcs, urg, reaction = ctx["pcs"], ctx["urg"], ctx["reaction"]
        afv = next((u for u in units if u.is_afv), None)
        stage = 2 if afv is None else (0 if len(units) == 1 else 1)
        note = None
        leaves_men = bool(a.leader) and len(units) == 1  # 8.3 C: the leader alone
        if units[0].hex is None:  # reinforcements entering (24.1)
            util, h = self._entry_plan(view, units)
            if h is None:
                return None
            # the entry bonus: once a group (24.1), or once a unit while moves need PCs
            # (entry_per_unit: a leader's PC for the whole group is weighed unit for unit, 8.3 A)
            per_unit = pcs and self.settings.entry_per_unit > 0
            gain = 2.0 * (len(units) if per_unit else 1) + 0.5 * len(units) * urg + 0.1 * max(-10.0, util)
            if per_unit and len(units) == 1 and not a.leader:
                # a leader entering alone leaves the men he could bring in (8.3 A)
                leaves_men = any(units[0].is_leader_for(o) for o in self._waiting_at_entry(view, units[0]))
        else:
            mp, one = 99.0, False
            for u in units:
                m_, o_ = view.allowance(u.id)
                mp, one = min(mp, m_), one or o_
            if a.directed_by:
                mp = min(mp, 2 if reaction else 4)  # 8.3 C
            dest = units[0].hex
            gain = 0.0
            if mp > 0 or one:
                gain, dest, _path, _down, _up = self._plan(view, units, mp, one)
                if afv is not None and not reaction:
                    ov = self._overrun_potential(view, units)
                    if ov > 0.4 and ov > gain:
                        gain, dest = ov, None  # 9.0: start the move to overrun an adjacent enemy hex
            if dest == units[0].hex:
                if len(units) == 1 and units[0].has_facing and not units[0].is_afv:
                    fg, side_ = self._facing_gain(view, units[0])  # 8.72/8.73: turn only
                    if side_ is not None and fg > 0.15:
                        return (fg * self._move_p(view, a, units, pcs), stage, None, ("face", side_))
                return None
            if gain <= 0:
                return None
        p = self._move_p(view, a, units, pcs)
        fail = self._fail_cost(view, a, units, pcs, ctx["per_unit_fail"])
        score = p * gain - (1.0 - p) * fail
        if leaves_men:
            score -= 0.3  # the leader leaving his men (8.3 C: they move with +2 then)
        return (score, stage, afv.id if afv is not None else None, note)

    @staticmethod
    def _waiting_at_entry(view, u) -> list:
        """The other off-map units of ``u``'s entry (24.1) that have not moved this phase."""
        e = view.entry_of(u.id)
        return [o for o in view.own_units(on_map=False) if o.hex is None and not o.eliminated and not o.moved
                and o.id != u.id and view.entry_of(o.id) is e]

    def _start_move(self, view, actions: list[Action]) -> Action | None:
        """Which group moves next (8.0 order; see the module). AFV moves are priced afresh at every
        decision; the other groups per unit (expected gain of the move over its units) and lazily:
        in the order of their last price this phase (valid while the enemy position is the same),
        until no remaining one can beat the best."""
        reaction = view.phase is Phase.REACTION_MOVEMENT
        ctx = {"pcs": self._pcs_needed(view), "urg": self._urg(view), "reaction": reaction}
        ctx["per_unit_fail"] = (0.15 if self.posture == "defend" else 0.3) * ctx["urg"]
        phase_key = (view.player_turn, view.phase)
        if getattr(self, "_ms_key", None) != phase_key:
            self._ms_key, self._ms = phase_key, {}
            if not reaction:
                # the last own Movement Phase (two Player Turns ago): did an attacker's group move?
                moved = getattr(self, "_mv_moved", {})
                last = moved.get(view.player_turn - 2)
                self._stalls = getattr(self, "_stalls", 0) + 1 if last is False else 0
                moved[view.player_turn] = self.posture != "attack"
                self._mv_moved = moved
                self._dc.pop("weights", None)
                self._note_unit_stalls(view)
        stale = self._ms
        mkey = self.maps._key
        # 8.32 pairs (a leader and one unit) only where the leader's whole group is too big to stop
        whole: set[str] = set()
        for a in actions:
            if a.kind == "start_move" and a.leader and len(a.units) > 2:
                us = [view.unit(x) for x in a.units]
                if all(u is not None for u in us) and sum(u.men for u in us) <= 6:
                    whole.add(a.leader)
        afv_moves, others = [], []
        for a in actions:
            if a.kind != "start_move":
                continue
            if a.leader and len(a.units) == 2 and a.leader in whole:
                continue
            units = [view.unit(x) for x in a.units]
            if any(u is None for u in units):
                continue
            if sum(u.men for u in units) > 6 or sum(u.is_cw for u in units) > 1:
                continue  # 8.62/8.63: the group could never stop anywhere
            (afv_moves if any(u.is_afv for u in units) else others).append((a, units))
        st = self.settings
        defend = self.posture == "defend"
        thr = (st.defend_reaction_move_threshold if defend else st.reaction_move_threshold) if reaction else \
            (st.defend_move_threshold if defend else st.move_threshold)
        # 8.0: per AFV its best way of moving; AFVs alone first, then AFVs with infantry
        best_afv: dict[str, tuple] = {}
        for a, units in afv_moves:
            r = self._score_start(view, a, units, ctx)
            if r is not None and r[0] > thr and (r[2] not in best_afv or r[0] > best_afv[r[2]][0]):
                best_afv[r[2]] = (r[0], r[1], a, r[3])
        for stage in (0, 1):
            pick = [(c[0], c[2]) for c in best_afv.values() if c[1] == stage]
            if pick:
                a = self._best(pick)[1]
                self._note_face_plan(a, {x[2]: x[3] for x in best_afv.values()})
                return a
        inf = float("inf")

        def bound(a):
            st = stale.get(a)
            return st[0] if st is not None and st[1] == mkey else inf

        order = sorted(others, key=lambda x: (-bound(x[0]), _key(x[0])))
        scored: list[tuple[float, Action]] = []
        notes: dict = {}
        top = -inf
        for a, units in order:
            b = bound(a)
            if b <= top or (b <= thr and b != inf):
                break  # no remaining group can beat the best (or the threshold)
            r = self._score_start(view, a, units, ctx)
            # per unit: a group's PC (a leader's, 8.3 A; a directed group's single +2 PC, 8.3 C)
            # pays only if its chance beats the units' own PCs, unit for unit
            s = r[0] / len(units) if r is not None else -inf
            stale[a] = (s, mkey)
            if r is not None and s > thr + self._hidden_reluctance(view, units):
                scored.append((s, a))
                notes[a] = r[3]
                top = max(top, s)
        if scored:
            a = self._best(scored)[1]
            self._note_face_plan(a, notes)
            if view.unit(a.units[0]).hex is not None and not reaction:
                self._mv_moved[view.player_turn] = True
            return a
        end = self._end_steps(view, actions)  # 20.1, 8.65
        return end if end is not None else EndPhase()

    def _hidden_reluctance(self, view, units) -> float:
        """Hidden discipline: the extra gain per unit a group standing in an own hidden hex (24.2)
        needs to move (moving reveals it, 24.22) while no visible enemy unit has LOS to it (10.3:
        nobody could see it yet); 0 otherwise (and always with the default ``hidden_discipline`` 0)."""
        extra = self.settings.hidden_discipline
        if extra <= 0.0:
            return 0.0
        h = units[0].hex
        if h is None or h not in view.own_hidden_hexes():
            return 0.0
        if any(e.hex is not None and view.los(e.hex, h).clear for e in view.enemy_units()):
            return 0.0
        return extra

    def _note_unit_stalls(self, view) -> None:
        """At the start of an own Movement Phase: per unit, the own Movement Phases in a row it
        stood in the same hex while away from its goal cluster in attack posture (its boldness,
        :meth:`_risk_weight`); any other unit 0."""
        prev = getattr(self, "_mv_pos", {})
        old = getattr(self, "_unit_stalls", {})
        pos, st = {}, {}
        for u in view.own_units():
            pos[u.id] = u.hex
            if self.posture == "attack" and prev.get(u.id) == u.hex and \
                    self.maps.goal_mp(u.hex, u.is_afv, self._assign.get(u.id)) > 0:
                st[u.id] = old.get(u.id, 0) + 1
        self._mv_pos, self._unit_stalls = pos, st

    def _note_face_plan(self, a, notes: dict) -> None:
        p = notes.get(a)
        self._face_plan = (frozenset(a.units), p[1]) if p and p[0] == "face" else None

    # ================================================================== during a move
    @staticmethod
    def _moving_allowance(mv: dict, units) -> tuple[float, bool]:
        """(MPs the moving group has left, whether it may still make its one-hex move, 8.11-8.14)
        from ``view.moving()`` ``mv``."""
        mp = min(mv["mp"].get(u.id, 0) for u in units)
        one = any(mv["one_hex"].get(u.id) for u in units) and mv["hexes_moved"] == 0
        return mp, one

    def _step(self, view, actions: list[Action]) -> Action | None:
        mv = view.moving()
        units = [view.unit(x) for x in mv["units"]]
        units = [u for u in units if u is not None and not u.eliminated]
        if not units:
            return StopMove() if StopMove() in actions else None
        if mv["entering"]:
            enters = {a.hex: a for a in actions if a.kind == "enter"}
            if not enters:
                return StopMove() if StopMove() in actions else None
            _u, h = self._entry_plan(view, units)
            if h in enters:
                return enters[h]
            best = min(sorted(enters), key=lambda x: (self.maps.goal_mp(x, any(u.is_afv for u in units)), x))
            return enters[best]
        fp = getattr(self, "_face_plan", None)
        if fp is not None and fp[0] == frozenset(u.id for u in units):
            self._face_plan = None
            f = Face(fp[1])
            if f in actions:
                return f
        ov = self._overrun(view, actions, units)  # 9.0 when favourable
        if ov is not None:
            return ov
        here = units[0].hex
        ids = frozenset(u.id for u in units)
        route = getattr(self, "_route", None)
        if route is not None and route[0] == ids and route[3] == self.maps._key and here in route[1]:
            # nothing changed since the plan (no enemy fired, nobody moved): follow it
            path, down_end = route[1], route[2]
            i = path.index(here)
            if i + 1 < len(path):
                st = Step(path[i + 1])
                if st in actions:
                    return st
            elif down_end and ToggleState() in actions and not units[0].down:
                self._route = None
                return ToggleState()  # 3.13: end the move DOWN
        else:
            mp, one = self._moving_allowance(mv, units)
            gain, dest, path, down_end, up_first = self._plan(view, units, mp, one, moving=True)
            if up_first:
                if ToggleState() in actions:
                    # 3.13: stand UP where it stands, then follow the path (the route is kept)
                    self._route = (ids, path, down_end, self.maps._key)
                    return ToggleState()
                gain, dest, path, down_end, _up = self._plan(view, units, mp, one, moving=True, stand_up=False)
            self._route = (ids, path, down_end, self.maps._key) if dest != here or down_end else None
            if dest != here and gain > 0.02 and len(path) > 1:
                st = Step(path[1])
                if st in actions:
                    return st
            if dest == here and down_end and ToggleState() in actions and not units[0].down:
                self._route = None
                return ToggleState()  # 3.13: end the move DOWN
        self._route = None
        # stopping: face the best targets (MGs, ATGs, 8.72/8.73) or the nearest enemy (AFVs, 8.74)
        faces = [a for a in actions if a.kind == "face"]
        if faces:
            f = units[0] if len(units) == 1 else next((u for u in units if u.is_afv), None)
            if f is not None and f.has_facing and not f.is_afv and self.maps.enemies_all:
                fg, side_ = self._facing_gain(view, f)
                if side_ is not None and fg > 0.05 and Face(side_) in faces:
                    return Face(side_)
            elif f is not None and f.has_facing:
                focus = self._focus(view, here)
                if focus != here and not (f.facing and view.in_frontal_area(here, f.facing, focus)):
                    good = [a for a in faces if view.in_frontal_area(here, a.hexside, focus)]
                    if good:
                        return sorted(good, key=_key)[0]
        if StopMove() in actions:
            return StopMove()
        # 8.62: the group may not stop here: the best hex it may step to
        steps = [a for a in actions if a.kind == "step"]
        if steps:
            ids = {u.id for u in units}
            own_men, afv_hexes, inf_hexes = self._position_context(view, ids)
            g = self._gprops(units)
            full = self._full_hexes(own_men, afv_hexes, g, here)
            scored = []
            for a in steps:
                opp, d_up = self.maps.fire_risk(a.hex, g["down"]) if g["inf"] else ({}, {})
                r = _blend(opp, d_up)
                s = self._utility(view, g, a.hex, (r, r, 0.0), False, inf_hexes) - (50.0 if a.hex in full else 0.0)
                scored.append((s, a))
            return self._best(scored)[1]
        return None

    # ================================================================== end of the Movement Phase
    def _end_steps(self, view, actions: list[Action]) -> Action | None:
        """Crew replacement (20.1) for a valuable CW that lost crew, when an infantry unit that is
        worth less stands with it; a wreck push (8.65) by an AFV that stood still next to a wreck on
        its way to the goals. None when neither pays."""
        scored = []
        for a in actions:
            if a.kind == "crew_replacement":
                u, c = view.unit(a.unit), view.unit(a.cw)
                if u is None or c is None or u.is_commander or u.is_ft or u.weapon == "LMG":
                    continue
                gain = _crew_worth(c, c.crew + 1) - _crew_worth(c, c.crew) - 0.8 * unit_value(u)
                if gain > 0.2:
                    scored.append((gain, a))
            elif a.kind == "push_wreck":
                u = view.unit(a.afv)
                if u is None:
                    continue
                m = self.maps
                cl = self._assign.get(u.id)
                here, there = m.goal_mp(u.hex, True, cl), m.goal_mp(a.wreck, True, cl)
                if here <= 0 or there > here - 0.4:
                    continue  # the wreck's hex is not on its way to its goal
                # 8.65: the AFV stood still all phase (no better move): the wreck blocks its way
                gain = 0.3 + (here - there) / 10.0 - (0.2 if view.terrain.trees(a.to) >= 2 else 0.0)
                gain += 0.01 * max(-10.0, min(10.0, m.goal_mp(a.to, True, cl) - there))  # off the way
                scored.append((gain, a))
        s, a = self._best(scored)
        return a
