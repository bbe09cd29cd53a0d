"""Mortars (14.0): declared rounds, crew limits, minimum range, indirect fire through a spotting
commander, the Scatter Table and Scatter Diagram, mortar dice and unmodified AP factors.

A mixin of :class:`core.ironcross.game.Game`; the action is :class:`MortarFire` (``unit``,
``target``, ``rounds``, ``spotter``). Procedure (14.0 a-c), in this order:

1. The declaration is checked in full (phase, eligibility, building hex, own hex, LOS or spotter,
   rounds within 14.12/14.13, mortar fire before any other fire of the phase).
2. Indirect fire: the spotting commander's PC (14.22 b, a regular PC, 4.11). If it fails the mortar
   may not use indirect fire this Player Turn and has not fired (it took no PC).
3. The mortar's fire PC (14.0, 10.12). Taking it counts as firing (4.0).
4. Each round in turn, resolved separately and completely (14.0, 14.52): the scatter die (14.3 a),
   the direction die when it scatters (14.3 b, :data:`SCATTER_DIAGRAM`), then one AP attack with
   the printed AP factor (14.51) on every unit in the impact hex (14.5, 11.41), dice as 11.3
   without trees, AFV/wreck cover and elevation (14.4).

**Scatter Diagram** (not reproduced in the rulebook; our definition): the direction die ``d``
(1-6) moves the Impact marker across hexside ``d`` of the sheet numbering used for facings (8.7,
:mod:`maps.hexgrid`): 1 = top of the sheet, 2 = upper right, 3 = lower right, 4 = bottom,
5 = lower left, 6 = upper left; an S2 result moves it two hexes in a straight line that way. A
round whose impact hex is off the map is lost (no effect).

**Mortar fire first** (14.0 "Mortar fire resolution takes place before any other type of fire combat
in a phase"): once the deciding side has resolved any other attack (Fire, Grenade, Flame) in a
fire phase, its mortars may no longer fire in that phase (refused under 14.0).
"""

from __future__ import annotations

from core.ironcross import combat_tables as ct
from core.ironcross.actions import Action, IllegalAction, MortarFire
from core.ironcross.state import Phase, Unit
from maps import hexgrid

__all__ = ["MortarRules", "SCATTER_DIAGRAM", "mortar_max_rounds", "scatter_hex"]

#: The Scatter Diagram (14.3 b) as defined here: direction die -> hexside of the sheet (8.7 numbering).
SCATTER_DIAGRAM: dict[int, int] = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6}


def mortar_max_rounds(crew: int, crew_max: int, indirect: bool) -> int:
    """14.12: five rounds with a full crew, three with two crew members (or any reduced crew of two
    or more), two with one; 14.13: indirect fire at most two."""
    if crew <= 0:
        return 0
    n = 5 if crew >= crew_max else 3 if crew >= 2 else 2
    return min(n, 2) if indirect else n


def scatter_hex(target: str, direction_die: int, distance: int) -> hexgrid.Hex:
    """The hex ``distance`` hexes from ``target`` in the Scatter Diagram direction of the die."""
    h = hexgrid.parse_hex_id(target)
    side = SCATTER_DIAGRAM[direction_die]
    for _ in range(distance):
        h = hexgrid.neighbour(h, side)
    return h


class MortarRules:
    """Mortar fire (14.0)."""

    def _mortar_memory(self) -> dict:
        """``last``: mortar id -> (player turn, target hex) of its last fire (14.3 a, -1);
        ``no_indirect``: mortar id -> the Player Turn in which its spotter failed (14.22 b)."""
        return self.state.records.setdefault("mortars", {"last": {}, "no_indirect": {}})

    # ---------------------------------------------------------------- eligibility
    def _mortar_ineligibility(self, u: Unit, side: str) -> tuple[str, str] | None:
        s = self.state
        if not u.is_mortar:
            return ("14.0", f"{u.id} is not a mortar")
        if u.side != side:
            return ("10.1", f"{u.id} is not yours")
        if s.phase not in (Phase.SUPPORT_FIRE, Phase.DEFENSIVE_FIRE, Phase.MOVING_FIRE):
            return ("14.0", "mortars fire in the Support, Defensive and Moving Fire Phases")
        if not u.on_map or not u.normal:
            return ("10.11", f"{u.id} is not a NORMAL unit on the map")
        if u.fired or u.opp_fired:
            return ("10.11", f"{u.id} has already fired this Player Turn")
        if u.crew <= 0:
            return ("14.12", f"{u.id} has no crew")
        if not self._has_ammo(u, 1):
            return ("22.1", f"{u.id} is out of ammo")
        if s.phase is Phase.MOVING_FIRE and u.moved:
            return ("14.0", "a mortar that moved may not fire in the Moving Fire Phase (like other CWs)")
        if s.phase is Phase.DEFENSIVE_FIRE and u.reaction_moved:
            return ("10.13", f"{u.id} moved in the Reaction Movement Phase")
        if self.terrain.is_building(u.hex):
            return ("14.0", "mortars may not fire from building hexes")
        if self._non_mortar_fire_done():
            return ("14.0", "mortar fire is resolved before any other fire combat in a phase")
        return None

    def _spotters(self, u: Unit, target: str) -> list[Unit]:
        """14.22 a: NORMAL commanders within two hexes of the mortar that have not moved or fired
        this Player Turn and can trace LOS to the target hex."""
        out = []
        mh = hexgrid.parse_hex_id(u.hex)
        for c in self.state.units_of(u.side):
            if not (c.is_commander and c.on_map and c.normal) or c.moved or c.fired or c.opp_fired:
                continue
            if hexgrid.distance(mh, hexgrid.parse_hex_id(c.hex)) > 2:
                continue
            if c.hex != target and self.los(c.hex, target, firer_down=c.down).clear:
                out.append(c)
        return sorted(out, key=lambda c: c.id)

    def _mortar_problem(self, a: MortarFire, side: str) -> tuple[str, str] | None:
        u = self.units.get(a.unit)
        if u is None:
            return ("24.1", f"no unit {a.unit!r} in this game")
        bad = self._mortar_ineligibility(u, side)
        if bad:
            return bad
        if not self.map.contains(hexgrid.parse_hex_id(a.target)):
            return ("10.21", f"{a.target} is not on the map")
        if a.target == u.hex:
            return ("14.21", "a mortar may not fire into its own hex")
        if not self.enemy_in(a.target, side):
            return ("10.21", f"{a.target} holds no enemy unit")
        direct = self.los(u.hex, a.target, firer_down=u.down).clear
        if a.spotter is None:
            if not direct:
                return ("14.2", f"{a.target} is not in the mortar's LOS (indirect fire needs a spotter, 14.22)")
        else:
            if direct:
                return ("14.22", "indirect fire is for target hexes the mortar cannot see")
            if self._mortar_memory()["no_indirect"].get(u.id) == self.state.player_turn:
                return ("14.22 b", "the spotter failed his PC: no indirect fire this Player Turn")
            if a.spotter not in {c.id for c in self._spotters(u, a.target)}:
                return ("14.22 a", f"{a.spotter} cannot spot {a.target} for {u.id}")
        most = mortar_max_rounds(u.crew, u.crew_max, a.spotter is not None)
        if isinstance(a.rounds, int) and 1 <= a.rounds <= most and not self._has_ammo(u, a.rounds):
            return ("22.2", f"{u.id} has {u.ammo} ammo points left: one per round")
        if not isinstance(a.rounds, int) or a.rounds < 1 or a.rounds > most:
            rule = "14.13" if a.spotter is not None and a.rounds > 2 else "14.12" if a.rounds > 1 else "14.11"
            return (rule, f"{u.id} may fire 1 to {most} rounds now")
        return None

    def _mortar_actions(self, side: str) -> list[Action]:
        out: list[Action] = []
        s = self.state
        # 10.21 / 24.2: a hex with visible enemy units (hidden ones are not on the map for ``side``)
        enemy_hexes = sorted({x.hex for x in s.units.values() if x.on_map and x.side != side and not x.hidden})
        for u in sorted(s.units_of(side), key=lambda x: x.id):
            if not u.is_mortar or self._mortar_ineligibility(u, side) is not None:
                continue
            denied = self._mortar_memory()["no_indirect"].get(u.id) == s.player_turn
            for h in enemy_hexes:
                if h == u.hex:
                    continue
                if self.los(u.hex, h, firer_down=u.down).clear:
                    for n in range(1, mortar_max_rounds(u.crew, u.crew_max, False) + 1):
                        if self._has_ammo(u, n):  # 22.2 one point per round
                            out.append(MortarFire(u.id, h, n))
                elif not denied:
                    for c in self._spotters(u, h):
                        for n in range(1, mortar_max_rounds(u.crew, u.crew_max, True) + 1):
                            if self._has_ammo(u, n):  # 22.2 one point per round
                                out.append(MortarFire(u.id, h, n, spotter=c.id))
        return out

    # ---------------------------------------------------------------- resolution
    def _mortar_fire(self, a: MortarFire) -> None:
        side = self._decider
        bad = self._mortar_problem(a, side)
        if bad:
            raise IllegalAction(*bad)
        s = self.state
        u = self.units[a.unit]
        mem = self._mortar_memory()
        indirect = a.spotter is not None
        self._event("mortar_declared", rule="14.0", unit=u.id, target=a.target, rounds=a.rounds,
                    spotter=a.spotter)
        if indirect:
            c = self.units[a.spotter]
            if not self.pc(c, f"spot {a.target} for {u.id}", "14.22"):
                mem["no_indirect"][u.id] = s.player_turn
                self._event("spotting_failed", rule="14.22 b", unit=u.id, spotter=c.id)
                return
        # 10.0 b / 23.33 (advanced): direct fire observes the target hex before the PC; an
        # unobserved hex adds 1 to the scatter die (our reading). Indirect fire already has its +1.
        unobserved = not indirect and self._observation_on() and not self._observe(side, u.hex, a.target)
        self._mark_fired(u)
        last = mem["last"].get(u.id)
        mem["last"][u.id] = [s.player_turn, a.target]
        if not self.pc(u, f"mortar fire at {a.target}", "14.0"):
            self._event("mortar_fire", rule="14.0", unit=u.id, passed=False)
            return
        self._event("mortar_fire", rule="14.0", unit=u.id, passed=True)
        self._spend_ammo(u, a.rounds, f"{a.rounds} mortar rounds at {a.target}")  # 22.2 one per round
        self._note_fired(u, "i")  # 23.2 observer i
        self._note_first_shot()
        mod = 0
        if unobserved:
            mod += 1  # 23.33 unobserved target hex: more scatter
        if last is not None and last[0] < s.player_turn and last[1] == a.target:
            mod -= 1  # 14.3 a same target hex as the last Player Turn in which it fired
        if indirect:
            mod += 1  # 14.3 a indirect fire
        if a.rounds > 3:
            mod += 1  # 14.3 a more than three rounds
        rng = hexgrid.distance(hexgrid.parse_hex_id(u.hex), hexgrid.parse_hex_id(a.target))
        if rng < u.ap_range:
            mod += 1  # 14.21 / 14.3 a under the minimum range
        for i in range(1, a.rounds + 1):  # 14.52 each round separately and completely
            self._mortar_round(u, a.target, i, mod)

    def _mortar_round(self, u: Unit, target: str, i: int, mod: int) -> None:
        r = self.roll(1, f"scatter, round {i} of {u.id}", "14.3")
        dist = ct.scatter_result(r.total + mod)
        impact = hexgrid.parse_hex_id(target)
        direction = None
        if dist:
            d = self.roll(1, f"scatter direction, round {i} of {u.id}", "14.3 b")
            direction = SCATTER_DIAGRAM[d.total]
            impact = scatter_hex(target, d.total, dist)
        on_map = self.map.contains(impact)
        self._event("mortar_round", rule="14.3", unit=u.id, round=i, die=r.total, modifier=mod,
                    result="T" if dist == 0 else f"S{dist}", direction=direction,
                    impact=impact.id if on_map else None)
        if not on_map:
            self._event("mortar_round_lost", rule="14.3", unit=u.id, round=i)  # off the map: no effect
            return
        fp = u.ap  # 14.51 the printed AP factor, never modified
        for t in sorted(self.state.units_at(impact.id), key=lambda x: x.id):  # 14.5 / 11.41 every unit
            if t.eliminated or t.hidden:  # 24.2: hidden units are not on the map
                continue
            n = self._ap_dice_against(t, impact.id, u.moved, mortar=True)  # 14.4
            roll = self.roll(n, f"mortar round {i} at {t.id}", "14.5")
            res = ct.ap_result(fp, roll.dice)
            self._event("ap_result", rule="11.44" if roll.all_ones else "14.5", unit=t.id, dice=list(roll.dice),
                        firepower=fp, levels=list(ct.result_levels(fp)), result=res.value, mortar=u.id)
            self._apply_ap_result(t, res, "14.5")
