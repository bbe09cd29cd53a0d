"""Assault (17.0): designation at the end of movement phases and resolution in the Assault Phase.

A mixin of :class:`core.ironcross.game.Game`.

* Designation (17.0, 6.0 C/D): at the end of the Movement Phase (Phasing Player) and of the
  Reaction Movement Phase (Non-phasing Player) the deciding side places Assault markers with
  :class:`DesignateAssault` on NORMAL infantry units of one hex, pointing at an adjacent hex. The hex
  need not be enemy occupied (17.0): empty hexes may be designated too. Hexes holding friendly
  units only, hexes infantry may not enter and hexes holding an enemy AFV (17.13) may not.
* Resolution (6.0 G, 17.0 a-f): the Phasing Player performs his assaults first, then the
  Non-phasing Player; each performs one marked stack at a time by choosing ``DesignateAssault``
  again (the stack's units and its marked hex) in the Assault Phase, or ends his part with
  ``EndPhase`` (assault is voluntary, 17.0). Each assault is completed before the next (17.31).
* Casualties (17.23): each hit eliminates one enemy unit (a CW whole, whatever its crew), and the
  owner decides which of his units in the fight he removes: the fight (:class:`AssaultFight`, kept
  in ``Game.fight``) stops after each fire step that scored hits and the owner of the units hit
  becomes the deciding side, with one :class:`TakeCasualty` per candidate, one hit at a time.
  Hits fired together (17.21 b, 17.0 e) are all allotted (the assaulting side first, then the
  defender) before any unit is removed. A choice that is no choice (hits >= units, or every
  candidate identical in every respect) is made by the engine and logged (``casualties_forced``).
  The same fight serves the 9.33 immediate assault of a combined overrun.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from core.ironcross import combat_tables as ct
from core.ironcross.actions import Action, DesignateAssault, IllegalAction, TakeCasualty
from core.ironcross.state import Morale, Unit, other_side
from maps import hexgrid


#: Unit fields that do not make two units different for a casualty choice (17.23): the id and the
#: display name. Everything else (counter values and state) must be equal for the choice to be forced.
_NOT_COMPARED = ("id", "name")


def _identical(units: list[Unit]) -> bool:
    """True when all ``units`` are equal in every field but their id and name (so which of them
    is removed cannot matter, 17.23)."""
    keys = [f.name for f in fields(Unit) if f.name not in _NOT_COMPARED]
    first = units[0]
    return all(all(getattr(u, k) == getattr(first, k) for k in keys) for u in units[1:])


@dataclass
class AssaultFight:
    """An assault being fought out in ``target`` (17.2), kept between the owners' casualty choices
    (17.23).

    ``kind``: "assault" (Assault Phase, 17.0) or "overrun" (the immediate assault of 9.33);
    ``side``: the assaulting side; ``attackers``/``defenders``: ids of the units fighting;
    ``prev_decider``: the side that decides again when the fight is over; ``after``: what the end
    of the fight needs (the 17.0 f / 9.33 continuation). ``step`` is the fire step last fired:
    "" (none yet), "a", "b", "c" (the initial round, 17.21) or "round" (17.0 e, number ``round``).
    ``hits``: side -> hits of that step still to be allotted to that side's units; ``chosen``:
    side -> its units chosen as casualties, removed together once every hit of the step is
    allotted (17.21 b, 17.23: eliminated units of a simultaneous step have fired already).
    """

    kind: str
    side: str
    target: str
    attackers: list[str]
    defenders: list[str]
    prev_decider: str | None
    after: dict = field(default_factory=dict)
    step: str = ""
    round: int = 1
    hits: dict[str, int] = field(default_factory=dict)
    chosen: dict[str, list[str]] = field(default_factory=dict)


class AssaultRules:
    """Assault designation (17.0) and resolution (17.1-17.3)."""

    def _end_of_movement_phase(self) -> None:
        """8.62 is enforced when each move ends; nothing else happens here yet."""
        return

    # ================================================================== designation (17.0, 17.11)
    def _can_be_marked(self, u: Unit, side: str) -> bool:
        """17.11/17.13: only NORMAL infantry units (commanders included) of ``side`` on the map,
        not yet marked, may receive an Assault marker. CWs and AFVs never assault (17.13)."""
        return u.side == side and u.on_map and u.is_infantry and u.normal and u.assault_hex is None

    def _assault_target_problem(self, from_hex: str, target: str, side: str,
                                designating: bool = True) -> tuple[str, str] | None:
        """Why ``target`` may not be assaulted from ``from_hex`` by ``side`` now (rule, message), or None.
        A hex holding friendly units only may not be designated; by the Assault Phase it may hold the
        side's own units from an earlier assault (17.32), which is no obstacle then."""
        a, b = hexgrid.parse_hex_id(from_hex), hexgrid.parse_hex_id(target)
        if not self.map.contains(b):
            return ("17.0", f"{target} is not on the map")
        if hexgrid.distance(a, b) != 1:
            return ("17.0", f"{target} is not adjacent to {from_hex}")
        units = self.state.units_at(target)
        if any(u.is_afv and u.side != side for u in units):
            return ("17.13", f"{target} holds an enemy AFV, which may not be assaulted")
        if designating and units and all(u.side == side for u in units):
            return ("17.0", f"{target} holds friendly units only (an assault is made against enemy or empty hexes)")
        if self.terrain.entry_cost(target, "infantry", False) is None:
            return ("17.0", f"infantry may not enter {target}")
        return None

    def _assault_designations(self, side: str) -> list[Action]:
        """DesignateAssault for every marked-able stack (all its eligible units, and each unit alone)
        and every adjacent hex it may assault."""
        out: list[Action] = []
        by_hex: dict[str, list[Unit]] = {}
        for u in self.state.units_of(side):
            if self._can_be_marked(u, side):
                by_hex.setdefault(u.hex, []).append(u)
        for hx, us in sorted(by_hex.items()):
            ids = sorted(u.id for u in us)
            groups = [tuple(ids)] + ([(i,) for i in ids] if len(ids) > 1 else [])
            for n in hexgrid.neighbours(hexgrid.parse_hex_id(hx)):
                if not self.map.contains(n):   # left of column 00 there is no hex (nor hex id)
                    continue
                if self._assault_target_problem(hx, n.id, side) is not None:
                    continue
                out.extend(DesignateAssault(g, n.id) for g in groups)
        return out

    def _designate_assault(self, a: DesignateAssault, side: str) -> None:
        """Place Assault markers (17.0): any non-empty set of markable units of one hex."""
        if not a.units or len(set(a.units)) != len(a.units):
            raise IllegalAction("17.0", "name each unit to be marked once")
        us = [self.unit(x) for x in a.units]
        for u in us:
            if not self._can_be_marked(u, side):
                raise IllegalAction("17.11" if not u.is_infantry else "17.13",
                                    f"{u.id} may not receive an Assault marker (NORMAL infantry of the "
                                    f"deciding side, not yet marked)")
        if len({u.hex for u in us}) != 1:
            raise IllegalAction("17.0", "an Assault marker is placed on the units of one hex")
        p = self._assault_target_problem(us[0].hex, a.target, side)
        if p is not None:
            raise IllegalAction(*p)
        for u in us:
            u.assault_hex = a.target
        self._event("assault_designated", rule="17.0", side=side, units=list(a.units), frm=us[0].hex,
                    target=a.target)

    # ================================================================== the Assault Phase (6.0 G)
    def _start_assault_phase(self) -> None:
        self._assault_cleared: set[str] = set()

    def _end_assault_phase(self) -> None:
        """Assault markers are removed at the end of the Assault Phase (unused ones lapse)."""
        for u in self.state.units.values():
            u.assault_hex = None

    def _may_assault_now(self, u: Unit, target: str) -> tuple[str, str] | None:
        """17.13-17.15: why marked unit ``u`` may not assault ``target`` now, or None."""
        if not u.on_map:
            return ("17.15", f"{u.id} is no longer on the map")
        if not u.normal:
            return ("17.13", f"{u.id} is not NORMAL (3.22, 17.13)")
        if u.moving_fired and u.grenade_hex != target:
            return ("17.14", f"{u.id} fired in the Moving Fire Phase (only grenades into {target} allow an assault)")
        return None

    def _assault_actions(self, side: str) -> list[Action]:
        """One DesignateAssault per marked stack (its units in one hex and its marked hex) that has
        at least one unit still able to assault."""
        groups: dict[tuple[str, str], list[str]] = {}
        for u in self.state.units_of(side):
            if u.assault_hex and u.on_map:
                groups.setdefault((u.hex, u.assault_hex), []).append(u.id)
        out: list[Action] = []
        for (hx, target), ids in sorted(groups.items()):
            if self._assault_target_problem(hx, target, side, designating=False) is not None:
                continue
            if any(self._may_assault_now(self.units[i], target) is None for i in ids):
                out.append(DesignateAssault(tuple(sorted(ids)), target))
        return out

    def _perform_assault(self, a: DesignateAssault, side: str) -> None:
        """Resolve one assault (17.0 a-f) by the marked units ``a.units`` (one hex) into ``a.target``."""
        if not a.units or len(set(a.units)) != len(a.units):
            raise IllegalAction("17.0", "name each assaulting unit once")
        us = [self.unit(x) for x in a.units]
        for u in us:
            if u.side != side or u.assault_hex != a.target or not u.on_map:
                raise IllegalAction("17.11", f"{u.id} is not stacked with an Assault marker pointing at {a.target}")
        if len({u.hex for u in us}) != 1:
            raise IllegalAction("17.0", "an assault is made by the units of one hex (one stack at a time)")
        origin = us[0].hex
        p = self._assault_target_problem(origin, a.target, side, designating=False)
        if p is not None:
            raise IllegalAction(*p)
        target = a.target
        eligible = []
        for u in us:
            u.assault_hex = None  # the marker is used now (assaulting or not)
            why = self._may_assault_now(u, target)
            if why is None:
                eligible.append(u)
            else:
                self._event("cannot_assault", rule=why[0], unit=u.id, reason=why[1])
        if not eligible:
            raise IllegalAction("17.13", "no unit of this stack may assault now")
        defenders_at_start = bool(self.enemy_in(target, side))
        # 17.0 a / 17.12: the PCs
        if target in self._assault_cleared and not defenders_at_start:
            passed = list(eligible)  # 17.32: defenders eliminated by an earlier assault: no PC
            self._event("assault_no_pc", rule="17.32", units=[u.id for u in passed], target=target)
        else:
            passed = self._assault_pcs(eligible, target)
        if not passed:
            self._event("assault", rule="17.0", side=side, frm=origin, target=target, attackers=[])
            return
        concealed = self._unconceal_for_assault(target, side)  # 24.23 hidden defenders fight
        defenders_at_start = defenders_at_start or bool(concealed)
        # move in, up to the stacking limit (8.62; 17.32 "up to the normal stacking limit")
        moved_in: list[Unit] = []
        for u in passed:
            if self._stack_ok(target, moved_in + [u]):
                moved_in.append(u)
            else:
                self._event("assault_stays", rule="8.62", unit=u.id, reason="stacking limit in the assaulted hex")
        for u in moved_in:
            u.hex = target
        self._event("assault", rule="17.0", side=side, frm=origin, target=target, attackers=[u.id for u in moved_in])
        defenders = sorted(self.enemy_in(target, side), key=lambda x: x.id)
        after = {"origin": origin, "concealed": [u.id for u in concealed], "moved_in": [u.id for u in moved_in],
                 "defenders_at_start": defenders_at_start}
        if defenders:
            self._note_first_shot()
            self._start_fight("assault", side, target, moved_in, defenders, after)  # 17.2
        else:
            self._assault_over(side, target, after)

    def _assault_over(self, side: str, target: str, after: dict) -> None:
        """17.0 f and what follows an assault: survivors DOWN, 17.32, control, 19.2 AP mines,
        24.22/24.23 reveals. ``after`` holds ``origin``, ``concealed``, ``moved_in`` (unit ids) and
        ``defenders_at_start``."""
        s = self.state
        moved_in = [self.units[x] for x in after["moved_in"]]
        concealed = [self.units[x] for x in after["concealed"]]
        survivors = s.units_at(target)
        for u in survivors:
            u.down = True  # 17.0 f: all surviving units DOWN
        if survivors:
            self._event("assault_over", rule="17.0 f", target=target, survivors=[u.id for u in survivors],
                        winner=survivors[0].side)
        if after["defenders_at_start"] and not self.enemy_in(target, side) and survivors:
            self._assault_cleared.add(target)  # 17.32
        self._update_control(target)
        # 19.2: in an assault the mines detonate after the assault resolution
        m = s.mines.get(target)
        if m and m.get("ap") and moved_in:
            self._mine_attack_after_assault(target)
        self._reveal_after_assault(target, concealed, after["origin"], moved_in)  # 24.23, 24.22

    def _assault_pcs(self, eligible: list[Unit], target: str) -> list[Unit]:
        """17.12: a modified PC (+1) for each unit; a leader in the stack may take one PC with his PR
        for himself and every unit he leads (5.1, 5.2); if he passes they all assault. Units he does
        not lead take their own PCs. Taking the PC counts as assaulting (4.0)."""
        leaders = [u for u in eligible if any(u.is_leader_for(o) for o in eligible if o is not u)]
        passed: list[Unit] = []
        rest = list(eligible)
        if leaders:
            ld = max(leaders, key=lambda x: (x.pr, x.is_commander, x.id))
            led = [ld] + [o for o in eligible if o is not ld and ld.is_leader_for(o)]
            ok = self.pc(ld, f"assault {target} (leading {len(led) - 1})", "17.12", modifier=1)
            if ok:
                passed.extend(led)
            else:
                self._event("assault_failed", rule="17.12", units=[u.id for u in led], target=target)
            rest = [u for u in eligible if u not in led]
        for u in rest:
            if self.pc(u, f"assault {target}", "17.12", modifier=1):
                passed.append(u)
            else:
                self._event("assault_failed", rule="17.12", units=[u.id], target=target)
        return passed

    def _mine_attack_after_assault(self, hex_id: str) -> None:
        """19.2/19.22/19.24: AP mines in the assaulted hex are revealed and attack EACH infantry/CW
        unit in the hex after the assault. AT mines are not detonated by infantry (19.21)."""
        m = self.state.mines[hex_id]
        m["revealed_ap"] = True
        self._event("mines_revealed", rule="19.22", hex=hex_id, ap=m["ap"])
        for u in sorted(self.state.units_at(hex_id), key=lambda x: x.id):
            if u.is_afv:
                continue
            r = self.roll(1, f"AP mine attack on {u.id}", "19.24")
            self._apply_ap_result(u, ct.ap_mine_result(r.total, m["ap"]), "19.24")

    # ================================================================== assault fire (17.2)
    def _assault_fire(self, u: Unit, purpose: str) -> bool:
        """17.23: one die <= the Assault factor eliminates an enemy unit; one shot per round even
        for a CW with several crew members (17.24)."""
        r = self.roll(1, f"assault fire {u.id} ({purpose})", "17.23")
        hit = r.total <= u.assault
        self._event("assault_fire", rule="17.23", unit=u.id, die=r.total, rating=u.assault, hit=hit, step=purpose)
        return hit

    def _start_fight(self, kind: str, side: str, target: str, attackers: list[Unit], defenders: list[Unit],
                     after: dict) -> None:
        """Begin the fire rounds (17.21 a-c, 17.22, 17.0 e) of ``attackers`` (of ``side``) against
        ``defenders`` in ``target`` and run them until a casualty choice (17.23) needs the owner or
        the fight is over (then the ``kind`` continuation runs: :meth:`_assault_over` or the 9.33 end
        of the overrun)."""
        self.fight = AssaultFight(kind, side, target, [u.id for u in attackers], [u.id for u in defenders],
                                  self._decider, dict(after))
        self._fight_run()

    def _fight_units(self, side: str) -> list[Unit]:
        """The units of ``side`` still in the fight (not eliminated)."""
        f = self.fight
        ids = f.attackers if side == f.side else f.defenders
        return [self.units[x] for x in ids if not self.units[x].eliminated]

    def _casualty_candidates(self, side: str) -> list[Unit]:
        """17.23: the units ``side`` may still remove for the current hits (in the fight, not yet
        chosen in this step), by id."""
        chosen = self.fight.chosen.get(side, [])
        return sorted((u for u in self._fight_units(side) if u.id not in chosen), key=lambda u: u.id)

    def _fight_run(self) -> None:
        """Advance the fight: allot the current hits (asking the owner when he has a choice),
        remove the casualties, fire the next step; stop when a choice is open, else finish."""
        f = self.fight
        while True:
            chooser = self._next_casualty_chooser()
            if chooser is not None:
                self._decider = chooser  # 17.23: the owner decides which units he removes
                self._event("casualty_choice", rule="17.23", side=chooser, hex=f.target, hits=f.hits[chooser],
                            candidates=[u.id for u in self._casualty_candidates(chooser)])
                return
            self._remove_casualties()
            if not self._fight_fire_next():
                break
        self.fight = None
        self._decider = f.prev_decider
        if f.kind == "assault":
            self._assault_over(f.side, f.target, f.after)
        else:
            self._overrun_assault_over(f)  # 9.33

    def _next_casualty_chooser(self) -> str | None:
        """The side that must choose a casualty now, or None when every hit is allotted. Hits are
        allotted by the assaulting side first, then by the defender; forced choices (hits >= units,
        or all candidates identical) are made here and logged."""
        f = self.fight
        for side in (f.side, other_side(f.side)):
            while f.hits.get(side, 0) > 0:
                cands = self._casualty_candidates(side)
                need = f.hits[side]
                if not cands:
                    f.hits[side] = 0  # nobody left to hit
                elif need >= len(cands):
                    self._force_casualties(side, cands, "as many hits as units: all are eliminated")
                elif _identical(cands):
                    self._force_casualties(side, cands[:need], "the candidates are identical")
                else:
                    return side
        return None

    def _force_casualties(self, side: str, units: list[Unit], reason: str) -> None:
        """17.23 without a choice: allot the hits to ``units`` and log the skipped decision."""
        f = self.fight
        f.chosen.setdefault(side, []).extend(u.id for u in units)
        f.hits[side] -= len(units)
        self._event("casualties_forced", rule="17.23", side=side, hex=f.target, units=[u.id for u in units],
                    reason=reason)

    def _take_casualty(self, a: TakeCasualty) -> None:
        """Apply the owner's choice ``a`` (17.23) and resume the fight. Raises IllegalAction when
        ``a.unit`` is not one of the deciding side's candidates (nothing changes then)."""
        f = self.fight
        side = self._decider
        if f is None or f.hits.get(side, 0) <= 0:
            raise IllegalAction("17.23", "no assault casualty to choose now")
        if a.unit not in [u.id for u in self._casualty_candidates(side)]:
            raise IllegalAction("17.23", f"{a.unit} is not a unit of {side} in the assault in {f.target} "
                                         f"still to be removed")
        f.chosen.setdefault(side, []).append(a.unit)
        f.hits[side] -= 1
        self._event("casualty_chosen", rule="17.23", side=side, unit=a.unit, hex=f.target, hits_left=f.hits[side])
        self._fight_run()

    def _casualty_actions(self, side: str) -> list[Action]:
        """17.23: one TakeCasualty per candidate of the deciding side."""
        f = self.fight
        if f is None or f.hits.get(side, 0) <= 0:
            return []
        return [TakeCasualty(u.id) for u in self._casualty_candidates(side)]

    def casualty_choice(self, side: str) -> dict | None:
        """The open casualty choice (17.23) as ``side`` may see it, or None when there is none.

        Both sides see ``side`` (who decides), ``hex``, ``hits`` (still to allot), ``rule``; the
        deciding side also sees ``candidates`` (its unit ids it may remove) and ``chosen`` (its
        units already chosen in this step, removed when every hit is allotted)."""
        f = self.fight
        dec = self._decider
        if f is None or dec is None or f.hits.get(dec, 0) <= 0:
            return None
        out = {"side": dec, "hex": f.target, "hits": f.hits[dec], "rule": "17.23",
               "step": f.step if f.step != "round" else f"round {f.round}"}
        if side == dec:
            out["candidates"] = [u.id for u in self._casualty_candidates(dec)]
            out["chosen"] = list(f.chosen.get(dec, []))
        return out

    def _remove_casualties(self) -> None:
        """Remove every chosen casualty of the step together (17.21 b, 17.0 e simultaneous). A hit
        eliminates a whole unit, a CW with all its crew (17.23; 17.24 only limits its fire); a CW's
        replacements go with it (20.3)."""
        f = self.fight
        crew = False
        for side in (f.side, other_side(f.side)):
            for uid in f.chosen.get(side, []):
                u = self.units[uid]
                if not u.eliminated:
                    self._eliminate(u, "17.23")
                    crew = crew or bool(u.is_cw and u.replacements)
        f.chosen, f.hits = {}, {}
        if crew:
            self._crew_reversion()  # 20.3

    def _fight_fire_next(self) -> bool:
        """Fire the next step of the fight and record its hits per side hit; False when the fight
        is over (17.0 d/e: only one side left, or a stalemate)."""
        f = self.fight
        enemy = other_side(f.side)
        att, dfn = self._fight_units(f.side), self._fight_units(enemy)

        def volley(units: list[Unit], purpose: str) -> int:
            return sum(self._assault_fire(u, purpose) for u in units)

        if f.step == "":
            f.step = "a"  # 17.21 a: NORMAL defenders fire, results applied immediately
            f.hits = {f.side: volley([d for d in dfn if d.morale is Morale.NORMAL], "initial a")}
            return True
        if f.step == "a":
            f.step = "b"  # 17.21 b: all attackers and PINNED defenders, results applied together
            h_att = volley(att, "initial b")
            h_def = volley([d for d in dfn if d.morale is Morale.PINNED], "initial b")
            f.hits = {enemy: h_att, f.side: h_def}
            return True
        if f.step == "b":
            f.step = "c"  # 17.21 c: SUPPRESSED defenders still there, results applied immediately
            f.hits = {f.side: volley([d for d in dfn if d.morale is Morale.SUPPRESSED], "initial c")}
            return True
        if not (att and dfn):
            return False  # 17.0 d/e: only one side (or nobody) is left -> f
        if f.step == "c":
            for d in dfn:
                if d.morale is not Morale.NORMAL:
                    d.morale = Morale.NORMAL  # 17.22
                    self._event("recovered", rule="17.22", unit=d.id)
            f.step = "round"
        elif f.round >= 500:  # both sides with assault factor 0: nobody can ever hit
            self._event("assault_stalemate", rule="17.0 e", rounds=f.round)
            return False
        f.round += 1  # 17.0 e: simultaneous rounds; eliminated units still fire (17.23)
        a_hits = volley(att, f"round {f.round}")
        d_hits = volley(dfn, f"round {f.round}")
        f.hits = {enemy: a_hits, f.side: d_hits}
        return True
