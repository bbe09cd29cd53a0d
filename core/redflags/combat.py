"""Firing and bombing in Red Flags and Iron Crosses, a mixin of :class:`~.game.Game`.

A unit nominates a hex and the enemy unit it engages there (Firing and bombing: hex to hex). Every
weapon of the unit that may engage that target (personnel weapons only personnel; anti-vehicle
weapons artillery, vehicles and tanks; only anti-aircraft weapons aircraft) and reaches it throws
its dice (the weapon table: D6 per figure, crew figure, engineer, AFV, aircraft); the commander in
the hex adds 1D6. The engaged unit returns fire if it can (it sees the firer, is in range, is not
shaken and not marked enfiladed); who fires first is the 1D6 roll-off with its exceptions (dug in
first, reconnaissance last; ties at once, r.initiative_tie). Artillery hits count against every
unit in the hex: the hits scored against the engaged unit count as hits on each unit there (bombs
and strafing, which engage no unit, throw against each unit's own hit number). Dice become hits, hits casualties, casualties morale checks as
reconstructed (r.hits, r.armour, r.damage, r.morale).
"""

from __future__ import annotations

from core.redflags.actions import Bomb, Fire, IllegalAction, Strafe
from core.redflags.state import CASUALTY_ORDER, Unit
from core.redflags.tables import Weapon, rules_value
from maps import hexgrid

__all__ = ["CombatRules", "AttackGroup"]

#: (weapon id, number of dice, weapon) of one attack; the commander's die joins the first group.
AttackGroup = tuple[str, int, Weapon]


class CombatRules:
    """Mixin: fire options, engagements, hits, morale, air attacks (needs the game's state)."""

    # ------------------------------------------------------------------ weapons and dice
    def _personnel_weapons(self, u: Unit, tc: str, charges: bool) -> list[tuple[str, int]]:
        """(weapon id, how many figures/crew figures/engineers use it) for a personnel unit."""
        counts: dict[str, int] = {}
        for w in u.figures:
            if w not in self.weapons:
                continue
            if w == "infantry_at" and tc == "personnel":
                w = "rifle"  # Units: 'troops so armed are also assumed to be armed with a rifle'
            counts[w] = counts.get(w, 0) + 1
        if u.support and u.support_crew:
            counts[u.support] = counts.get(u.support, 0) + u.support_crew
        if charges and u.kind == "engineer" and u.charges:
            counts["demolition_charge"] = min(u.charges, len(u.figures))  # weapon table: one charge per engineer
        return list(counts.items())

    def weapon_counts(self, u: Unit, tc: str, charges: bool = False) -> list[tuple[str, int]]:
        """What ``u`` fires at a target of class ``tc``: (weapon id, count) before range checks."""
        if u.kind == "artillery":
            if u.limbered or u.limber_turn == self.turn_no or not u.crew:
                return []
            w = self.weapons[u.gun]  # type: ignore[index]
            if w.ground_equivalent and tc != "aircraft":
                return [(w.ground_equivalent, u.crew)]  # Firing and bombing: AA against ground targets
            return [(u.gun, u.crew)]  # type: ignore[list-item]
        if u.armoured:
            return [(u.gun, u.vehicles)] if u.vehicles else []  # type: ignore[list-item]
        if u.personnel and u.kind not in ("observer", "commander"):
            return self._personnel_weapons(u, tc, charges)
        return []

    def hit_number(self, w: Weapon, target: Unit, hex_id: str) -> int | None:
        """The score each die of ``w`` needs against ``target`` in ``hex_id`` (r.hits, r.armour);
        None when it cannot hurt it (penetration two or more classes below the armour)."""
        if target.kind == "aircraft":
            return self.hits["aircraft"]
        if target.armoured:
            if w.penetration is None:
                return None
            d = w.penetration - self.armour[target.afv_class]  # type: ignore[index]
            if d > 0:
                return self.hits["afv_penetration_above"]
            if d == 0:
                return self.hits["afv_penetration_equal"]
            if d == -1:
                return self.hits["afv_penetration_one_below"]
            return None
        if target.kind == "transport":
            return self.hits["soft_vehicle"]
        if target.dug_in or self.terrain.cover(hex_id):
            return self.hits["personnel_cover"]
        return self.hits["personnel_open"]

    def attack_groups(self, u: Unit, target: Unit, hex_id: str, dist: int, charges: bool = False) -> list[AttackGroup]:
        """The dice ``u`` throws engaging ``target`` in ``hex_id`` at range ``dist``: one group per
        weapon that may engage it (Firing and bombing) and reaches it (weapon table), each
        ``(weapon, dice)``; the commander in ``u``'s hex adds 1D6 to the first group."""
        tc = target.target_class
        out: list[AttackGroup] = []
        for wid, n in self.weapon_counts(u, tc, charges):
            w = self.weapons[wid]
            if tc not in w.targets or n <= 0:
                continue
            if w.range is None or dist > w.range:
                continue
            if tc == "vehicle" and target.armoured and self.hit_number(w, target, hex_id) is None:
                continue  # r.armour: it cannot hurt this AFV
            out.append((wid, w.dice * n, w))
        out.sort(key=lambda g: (-(g[2].penetration or 0), g[0]))
        if out and self.commander_in(u):
            wid, n, w = out[0]
            out[0] = (wid, n + 1, w)  # Units: Commander '+1D6 firepower'
        return out

    def commander_in(self, u: Unit) -> bool:
        """A commander of ``u``'s side stands in one of ``u``'s hexes (Units: Commander)."""
        if u.kind == "commander" or not u.hexes:
            return False
        for c in self.units.values():
            if c.kind == "commander" and c.side == u.side and c.status == "ok" and c.hexes and c.hexes[0] in u.hexes:
                return True
        return False

    # ------------------------------------------------------------------ who may fire at what
    def firing_hex(self, u: Unit, hex_id: str, los_needed: bool = True) -> tuple[str, int] | None:
        """The hex of ``u`` it fires from at ``hex_id`` (nearest with LOS), and the range; None if
        it sees ``hex_id`` from none of its hexes."""
        best = None
        for h in u.hexes:
            d = hexgrid.distance(self.terrain.hex(h), self.terrain.hex(hex_id))
            if los_needed and not self.los(h, hex_id):
                continue
            if best is None or d < best[1]:
                best = (h, d)
        return best

    def spotter_for(self, u: Unit, hex_id: str) -> Unit | None:
        """Who spots ``hex_id`` for ``u``'s indirect fire (General Rules; r.indirect): a
        reconnaissance unit (or reconnaissance aircraft) of the side that sees it, else an
        observer that sees it and has directed no other target this turn (Units: observer)."""
        observers = []
        for s in self.units.values():
            if s.side != u.side or s.status != "ok":
                continue
            if s.kind == "aircraft" and s.role == "reconnaissance" and s.hexes:
                return s
            if s.kind == "recon" and s.hexes and any(self.los(h, hex_id) for h in s.hexes):
                return s
            if s.kind == "observer":
                observers.append(s)
        for s in observers:
            where = s.hexes or (self.units[s.carried_by].hexes if s.carried_by else [])
            if not where or not self.los(where[0], hex_id):
                continue
            if s.directed_turn == self.turn_no and s.directed != hex_id:
                continue
            return s
        return None

    def may_fire(self, u: Unit) -> bool:
        """``u`` may fire in this activation (not fired yet, ok, on the map, not carried)."""
        return (u.status == "ok" and not u.fired and bool(u.hexes) and u.kind not in ("transport", "observer", "commander",
                                                                                          "aircraft"))

    def fire_options(self, u: Unit) -> list[Fire]:
        """Every legal :class:`Fire` of ``u`` now."""
        if not self.may_fire(u):
            return []
        out: list[Fire] = []
        enemies = [e for e in self.units.values() if e.side != u.side and e.on_map]
        for e in sorted(enemies, key=lambda x: x.uid):
            if e.carried_by:
                continue
            for h in e.hexes:
                if self._fire_problem(u, h, e, False) is None:
                    out.append(Fire(u.uid, h, e.uid))
                    if u.kind == "engineer" and u.charges and self._fire_problem(u, h, e, True) is None:
                        out.append(Fire(u.uid, h, e.uid, True))
        return out

    def _fire_problem(self, u: Unit, h: str, e: Unit, charges: bool) -> tuple[str, str] | None:
        """Why ``u`` may not fire at ``e`` in ``h`` (rule, reason), or None."""
        if e.kind == "aircraft":
            if not any(self.weapons[w].targets == frozenset({"aircraft"}) for w, _n in self.weapon_counts(u, "aircraft")):
                return ("fire.anti_aircraft", "only anti-aircraft weapons may be used against aircraft")
            d = min(hexgrid.distance(self.terrain.hex(x), self.terrain.hex(h)) for x in u.hexes)
            if not self.attack_groups(u, e, h, d):
                return ("fire.weapon_table", f"{e.uid} in {h} is out of range")
            return None
        if charges and (u.kind != "engineer" or not u.charges):
            return ("fire.demolition", f"{u.uid} has no demolition charges")
        direct = self.firing_hex(u, h)
        if direct is None:
            gun = self.weapons[u.gun] if u.kind == "artillery" and u.gun else None
            if gun is None or not gun.indirect:
                return ("general.los", f"{u.uid} cannot see {h}")
            if self.spotter_for(u, h) is None:
                return ("general.indirect", f"{u.uid} cannot see {h} and no reconnaissance unit or observer spots it")
            d = min(hexgrid.distance(self.terrain.hex(x), self.terrain.hex(h)) for x in u.hexes)
        else:
            d = direct[1]
        groups = self.attack_groups(u, e, h, d, charges)
        if not groups:
            return ("fire.targets", f"{u.uid} has no weapon that may engage {e.uid} at {d} hexes")
        if charges and not any(g[0] == "demolition_charge" for g in groups):
            return ("fire.demolition", f"{e.uid} is beyond the charges' 1 hex")
        return None

    # ------------------------------------------------------------------ Fire
    def _apply_fire(self, a: Fire) -> None:
        u = self._own_unit(a.unit)
        if not self.may_fire(u):
            rule = "r.rally" if u.status == "shaken" else "general.move_fire"
            raise IllegalAction(rule, f"{u.uid} may not fire now")
        e = self.units.get(a.target)
        if e is None or e.side == u.side or not e.on_map or a.hex not in e.hexes:
            raise IllegalAction("fire.hex_to_hex", f"no enemy unit {a.target!r} in {a.hex}")
        why = self._fire_problem(u, a.hex, e, a.charges)
        if why is not None:
            raise IllegalAction(*why)
        self._engage(u, a.hex, e, a.charges)
        u.fired = True

    def _engage(self, u: Unit, h: str, e: Unit, charges: bool) -> None:
        """Resolve an engagement of ``e`` in ``h`` by ``u`` (Firing and bombing)."""
        air = e.kind == "aircraft"
        direct = self.firing_hex(u, h) if not air else None
        if air:
            src, d = min(((x, hexgrid.distance(self.terrain.hex(x), self.terrain.hex(h))) for x in u.hexes),
                         key=lambda p: p[1])
            spotter = None
        elif direct is None:
            spotter = self.spotter_for(u, h)
            src, d = min(((x, hexgrid.distance(self.terrain.hex(x), self.terrain.hex(h))) for x in u.hexes),
                         key=lambda p: p[1])
            if spotter is not None and spotter.kind == "observer":
                spotter.directed = h
                spotter.directed_turn = self.turn_no
        else:
            src, d = direct
            spotter = None
        enfiladed = (not air) and self.enfilades(e, src)
        self._event("engage", rule="fire.hex_to_hex", unit=u.uid, hex=h, target=e.uid, source=src, range=d,
                    spotter=spotter.uid if spotter else None, enfilade=enfiladed, charges=charges)
        if enfiladed and not e.enfiladed:
            e.enfiladed = True
            self._event("enfiladed", rule="r.enfilade", unit=e.uid, by=u.uid, source=src)
        ret = self._return_groups(e, u, src)
        self._exchange(u, h, e, src, d, charges, ret)

    def _return_groups(self, e: Unit, u: Unit, src: str) -> tuple[str, int] | None:
        """Where and at what range ``e`` returns fire at ``u`` in ``src``, or None when it cannot
        (Firing and bombing: enfiladed units may not return fire until activated; r.rally)."""
        if e.status != "ok" or not e.hexes or e.carried_by or e.enfiladed or e.kind == "aircraft":
            return None
        if u.kind == "aircraft":
            d = min(hexgrid.distance(self.terrain.hex(x), self.terrain.hex(src)) for x in e.hexes)
            return (e.hexes[0], d) if self.attack_groups(e, u, src, d) else None
        back = self.firing_hex(e, src)
        if back is None:
            return None
        if not self.attack_groups(e, u, src, back[1]):
            return None
        return back

    def _initiative(self, u: Unit, e: Unit) -> str:
        """'first' (``u`` fires first), 'second' or 'both' (Firing and bombing: the 1D6 roll-off)."""
        if u.dug_in != e.dug_in:
            who = "first" if u.dug_in else "second"
            self._event("initiative", rule="fire.initiative", unit=u.uid, target=e.uid, first=u.uid if u.dug_in else e.uid,
                        reason="dug in units always have the right to fire first")
            return who
        ur, er = u.kind == "recon", e.kind == "recon"
        if ur != er:
            who = "second" if ur else "first"
            self._event("initiative", rule="fire.initiative", unit=u.uid, target=e.uid, first=e.uid if ur else u.uid,
                        reason="reconnaissance units always fire last")
            return who
        a = self.roll(1, f"initiative: {u.uid}", "fire.initiative").total
        b = self.roll(1, f"initiative: {e.uid}", "fire.initiative").total
        if a == b:
            self._event("initiative", rule="r.initiative_tie", unit=u.uid, target=e.uid, first=None, scores=[a, b],
                        reason="equal scores: both fire at once")
            return "both"
        self._event("initiative", rule="fire.initiative", unit=u.uid, target=e.uid, first=u.uid if a > b else e.uid,
                    scores=[a, b], reason="the highest score fires first")
        return "first" if a > b else "second"

    def _exchange(self, u: Unit, h: str, e: Unit, src: str, d: int, charges: bool, ret: tuple[str, int] | None) -> None:
        hit_units: list[str] = []
        if ret is None:
            self._attack(u, e, h, d, charges, hit_units)
        else:
            order = self._initiative(u, e)
            if order == "both":
                mine = self.attack_groups(u, e, h, d, charges)
                theirs = self.attack_groups(e, u, src, ret[1])
                self._attack(u, e, h, d, charges, hit_units, groups=mine)
                self._attack(e, u, src, ret[1], False, hit_units, groups=theirs, returning=True)
            else:
                first, second = ((u, e, h, d, charges), (e, u, src, ret[1], False)) if order == "first" else \
                    ((e, u, src, ret[1], False), (u, e, h, d, charges))
                self._attack(*first, hit_units, returning=first[0] is e)
                f2, t2, h2, d2, c2 = second
                if f2.in_play and t2.in_play and f2.hexes and self.attack_groups(f2, t2, h2, d2, c2):
                    self._attack(f2, t2, h2, d2, c2, hit_units, returning=f2 is e)
        self._morale_checks(hit_units)

    def _attack(self, f: Unit, t: Unit, h: str, d: int, charges: bool, hit_units: list[str],
                groups: list[AttackGroup] | None = None, returning: bool = False) -> None:
        """``f`` throws its dice at ``t`` in ``h``; artillery dice count against every unit there."""
        if groups is None:
            groups = self.attack_groups(f, t, h, d, charges)
        if not groups:
            return
        rolls = []
        for wid, n, w in groups:
            r = self.roll(n, f"fire: {f.uid} {w.name} at {t.uid} in {h}", "fire.weapon_table")
            rolls.append((wid, w, list(r.dice)))
        if charges and f.kind == "engineer":
            used = min(f.charges, len(f.figures))
            f.charges -= used
            self._event("charges", rule="fire.demolition", unit=f.uid, used=used, left=f.charges)
        hits: dict[str, int] = {}
        for wid, w, dice in rolls:
            # the dice score hits against the engaged unit ``t`` (its hit number); artillery hits
            # "take effect on all the units in the hex (i.e. a hit on one unit will count as a hit on
            # all the units in the hex)" (general.artillery_hits): each other unit there takes the
            # same hits, whatever its own hit number (a Tiger beside a rifle section takes the
            # section's hits). Units of the firer's side there are spared (an assault hex).
            hn = self.hit_number(w, t, h)
            n = sum(1 for x in dice if x >= hn) if hn is not None else 0
            if not n:
                continue
            victims = self.units_in(h) if w.artillery and t.kind != "aircraft" else [t]
            for v in victims:
                if v.side == f.side and v is not t:
                    continue
                if v.target_class not in w.targets:
                    continue
                hits[v.uid] = hits.get(v.uid, 0) + n
        self._event("fire", rule="general.artillery_hits" if any(g[2].artillery for g in groups) else "fire.weapon_table",
                    unit=f.uid, target=t.uid, hex=h, range=d, returning=returning,
                    weapons={wid: n for wid, n, _w in groups}, hits=dict(sorted(hits.items())))
        for vid in sorted(hits, key=lambda x: (x != t.uid, x)):
            v = self.units[vid]
            if v.in_play:
                self._take_hits(v, hits[vid], f"fire by {f.uid}")
                if vid not in hit_units:
                    hit_units.append(vid)

    # ------------------------------------------------------------------ hits, morale
    def _take_hits(self, v: Unit, n: int, cause: str, rule: str = "r.damage") -> None:
        """Apply ``n`` hits to ``v`` (r.damage, r.casualty_order); an elimination is logged under
        ``rule`` (r.damage for fire, r.mines, fire.bombing, fire.strafing)."""
        where = v.hexes[0] if v.hexes else (self.units[v.carried_by].hexes[0] if v.carried_by else None)
        if v.kind in ("aircraft", "transport"):
            if n < self.htd[v.kind]:
                return
            self._event("hits", rule="r.damage", unit=v.uid, hits=n, left=0)
            return self._eliminate(v, rule, where, cause)
        if v.armoured:
            htd = self.htd[v.afv_class]  # type: ignore[index]
            v.damage += n
            while v.damage >= htd and v.vehicles:
                v.vehicles -= 1
                v.damage -= htd
            if v.vehicles == 0:
                v.damage = 0
            self._event("hits", rule="r.damage", unit=v.uid, hits=n, left=v.vehicles, damage=v.damage)
            if v.vehicles == 0:
                self._eliminate(v, rule, where, cause)
            return
        if v.kind == "artillery":
            v.crew = max(0, v.crew - n)
            self._event("hits", rule="r.damage", unit=v.uid, hits=n, left=v.crew)
            if v.crew == 0:
                self._eliminate(v, rule, where, cause)
            return
        removed = []
        for _ in range(n):
            if v.figures:
                i = min(range(len(v.figures)), key=lambda k: (CASUALTY_ORDER.get(v.figures[k], 0), k))
                removed.append(v.figures.pop(i))
            elif v.support_crew:
                v.support_crew -= 1
                removed.append(v.support or "support")
            else:
                break
        if v.kind == "engineer":
            v.charges = min(v.charges, len(v.figures))
        self._event("hits", rule="r.casualty_order", unit=v.uid, hits=n, removed=removed, left=v.strength)
        if v.strength == 0:
            self._eliminate(v, rule, where, cause)

    def _eliminate(self, v: Unit, rule: str, where: str | None, cause: str, status: str = "eliminated") -> None:
        v.status = status
        self._event("eliminated", rule=rule, unit=v.uid, side=v.side, unit_kind=v.kind, hex=where, cause=cause,
                    status=status)
        hexes = list(v.hexes)
        v.hexes = []
        if v.kind == "transport":
            if v.carrying:
                p = self.units[v.carrying]
                p.hexes = hexes[:1]
                p.carried_by = None
                v.carrying = None
                self._event("passengers", rule="r.passengers", unit=p.uid, hex=hexes[0] if hexes else None)
                if p.in_play and hexes:
                    self._pending_morale.append(p.uid)
            if v.towing:
                g = self.units[v.towing]
                g.tow = None
                v.towing = None
        if v.kind == "artillery" and v.tow and v.tow in self.units:
            t = self.units[v.tow]
            if t.towing == v.uid:
                t.towing = None
        self._dirty()

    def _morale_checks(self, hit_units: list[str]) -> None:
        for uid in hit_units + [x for x in self._pending_morale if x not in hit_units]:
            v = self.units[uid]
            if v.in_play and v.kind != "aircraft":
                self.morale_check(v)
        self._pending_morale.clear()

    def morale_check(self, v: Unit) -> bool:
        """1D6 + modifiers >= the pass score (r.morale; the commander's +1 is printed). A failure
        shakes an ok unit and breaks a shaken one (removed). Returns True when it passes."""
        m = self.morale
        mod = 0
        parts = {}
        if self.commander_in(v):
            mod += m["commander"]
            parts["commander"] = m["commander"]
        if v.quality == "above_average":
            mod += m["above_average"]
            parts["quality"] = m["above_average"]
        elif v.quality == "below_average":
            mod += m["below_average"]
            parts["quality"] = m["below_average"]
        weak = (v.damage > 0) if v.armoured else (v.strength * 2 <= v.start_strength and v.kind not in ("transport",))
        if weak:
            mod += m["half_strength"]
            parts["half_strength"] = m["half_strength"]
        r = self.roll(m["dice"], f"morale: {v.uid}", "r.morale")
        ok = r.total + mod >= m["pass"]
        self._event("morale", rule="r.morale", unit=v.uid, total=r.total, modifiers=parts, passed=ok,
                    result="steady" if ok else ("broken" if v.status == "shaken" else "shaken"))
        if not ok:
            if v.status == "shaken":
                where = v.hexes[0] if v.hexes else None
                self._eliminate(v, "r.morale", where, "morale", status="broken")
            else:
                v.status = "shaken"
        return ok

    # ------------------------------------------------------------------ enfilade
    def enfilades(self, t: Unit, src: str) -> bool:
        """Fire from ``src`` enfilades ``t`` (r.enfilade): from its rear half (behind the line across
        its front through its hex), or for a unit in two hexes from a hex in line with them."""
        if not t.hexes or t.kind == "aircraft":
            return False
        s = hexgrid.to_cube(self.terrain.hex(src))
        if len(t.hexes) == 2:
            a = hexgrid.to_cube(self.terrain.hex(t.hexes[0]))
            b = hexgrid.to_cube(self.terrain.hex(t.hexes[1]))
            d = (b[0] - a[0], b[1] - a[1], b[2] - a[2])
            v = (s[0] - a[0], s[1] - a[1], s[2] - a[2])
            # collinear in cube space: v is a multiple of the unit step d
            k = next((v[i] // d[i] for i in range(3) if d[i]), 0)
            if all(v[i] == k * d[i] for i in range(3)) and k != 0:
                return True
        c = hexgrid.to_cube(self.terrain.hex(t.hexes[0]))
        f = hexgrid._CUBE_DIRS[t.facing]
        v = (s[0] - c[0], s[1] - c[1], s[2] - c[2])
        return v[0] * f[0] + v[1] * f[1] + v[2] * f[2] < 0

    # ------------------------------------------------------------------ mines
    def _minefield(self, u: Unit, h: str) -> None:
        """The minefield attacks ``u`` entering ``h`` (r.mines: 4D6 per hex of mines)."""
        w = self.weapons["minefield"]
        hn = self.hit_number(w, u, h)
        r = self.roll(w.dice, f"minefield in {h} against {u.uid}", "fire.minefield")
        n = sum(1 for x in r.dice if hn is not None and x >= hn)
        self._event("fire", rule="r.mines", unit=None, target=u.uid, hex=h, weapons={"minefield": w.dice},
                    hits={u.uid: n} if n else {})
        if n:
            self._take_hits(u, n, f"minefield in {h}", "r.mines")
            self._morale_checks([u.uid])

    # ------------------------------------------------------------------ air attacks
    def bomb_hex(self, u: Unit, face: int | None) -> str | None:
        """Where ``u``'s bombs fall (Firing and bombing; r.bomb_pattern): dive-bombers hex 1 (in
        front); others the ``face`` (1D6) hex of the pattern."""
        pattern = rules_value("bomb_pattern")
        turns = pattern[0] if u.role == "dive_bomber" else pattern[(face or 1) - 1]
        return self.terrain.in_front(u.hexes[0], u.heading, turns)

    def strafe_hex(self, u: Unit) -> str | None:
        """The hex 2 in front of a fighter (Firing and bombing: strafing)."""
        return self.terrain.in_front(u.hexes[0], u.heading, (0, 0))

    def _air_attack_ok(self, u: Unit, bomb: bool) -> tuple[str, str] | None:
        if u.kind != "aircraft" or u.status != "ok" or not u.hexes:
            return ("movement.aircraft", f"{u.uid} is not over the battlefield")
        if u.attacked:
            return ("r.aircraft", f"{u.uid} has attacked in this activation")
        if bomb:
            if u.role not in ("dive_bomber", "ground_attack", "bomber") or u.bombs <= 0:
                return ("fire.bombing", f"{u.uid} has no bomb load")
        elif u.role != "fighter" or u.strafes <= 0:
            return ("fire.strafing", f"{u.uid} cannot strafe (fighters only, 4 times)")
        return None

    def _apply_air_attack(self, a: Bomb | Strafe) -> None:
        u = self._own_unit(a.unit)
        bomb = isinstance(a, Bomb)
        why = self._air_attack_ok(u, bomb)
        if why is not None:
            raise IllegalAction(*why)
        u.attacked = True
        if bomb:
            u.bombs -= 1
            face = None
            if u.role != "dive_bomber":
                face = self.roll(1, f"bombed area of {u.uid}", "fire.bombing").total
            h = self.bomb_hex(u, face)
            w = self.weapons["bombs"]
            rule = "fire.bombing"
        else:
            u.strafes -= 1
            h = self.strafe_hex(u)
            w = self.weapons["strafing"]
            rule = "fire.strafing"
        self._event("air_attack", rule=rule, unit=u.uid, hex=h, over=u.hexes[0], heading=u.heading,
                    kind_of_attack="bomb" if bomb else "strafe", left=u.bombs if bomb else u.strafes)
        if h is None or not self.terrain.in_area(h):
            self._event("air_attack_off", rule=rule, unit=u.uid, hex=h)
            return
        hit_units: list[str] = []
        # the first anti-aircraft gun of the attacked hex engages the aircraft (fire.anti_aircraft,
        # fire.initiative); the aircraft's dice fall before, after or with its fire
        aa, back = None, None
        for v in sorted(self.units_in(h), key=lambda x: x.uid):
            if v.side != u.side:
                back = self._return_groups(v, u, u.hexes[0])
                if back is not None:
                    aa = v
                    break
        if aa is None or back is None:
            self._air_dice(u, w, h, hit_units)
        else:
            order = self._initiative(u, aa)
            if order == "first":
                self._air_dice(u, w, h, hit_units)
                if aa.in_play and self.attack_groups(aa, u, u.hexes[0], back[1]):
                    self._attack(aa, u, u.hexes[0], back[1], False, hit_units, returning=True)
            elif order == "second":
                self._attack(aa, u, u.hexes[0], back[1], False, hit_units, returning=True)
                if u.in_play:
                    self._air_dice(u, w, h, hit_units)
            else:
                over = u.hexes[0]
                self._attack(aa, u, over, back[1], False, hit_units, returning=True)
                self._air_dice(u, w, h, hit_units)
        self._morale_checks(hit_units)

    def _air_dice(self, u: Unit, w, h: str, hit_units: list[str]) -> None:
        r = self.roll(w.dice, f"{w.name} of {u.uid} on {h}", "fire.bombing" if w.id == "bombs" else "fire.strafing")
        hits: dict[str, int] = {}
        for v in self.units_in(h):
            if v.target_class not in w.targets:
                continue
            hn = self.hit_number(w, v, h)
            if hn is None:
                continue
            n = sum(1 for x in r.dice if x >= hn)
            if n:
                hits[v.uid] = n
        self._event("fire", rule="general.artillery_hits", unit=u.uid, target=None, hex=h, weapons={w.id: w.dice},
                    hits=dict(sorted(hits.items())))
        for vid in sorted(hits):
            v = self.units[vid]
            if v.in_play:
                self._take_hits(v, hits[vid], f"{w.name} of {u.uid}", "fire.bombing" if w.id == "bombs" else "fire.strafing")
                hit_units.append(vid)
