"""Heuristic tactics beyond plain move-and-fire: overruns (9.0), the scenarios' hidden
hexes (24.2) and infiltration (24.3), and the advanced rules' MG modes (21.0).

A mixin of :class:`core.ironcross.ai.heuristic.HeuristicPlayer`; every method scores the legal actions it
is given and returns one of them (or EndPhase/EndSetup/None). Scores use the exact dice
probabilities (``core.ironcross.ai.evaluation``) and the influence maps (``core.ironcross.ai.influence``).
"""

from __future__ import annotations

from core.ironcross.ai.evaluation import (ap_attack_value, assault_odds, overrun_blocked, overrun_outcome, pc_pass,
                                         unit_value)
from core.ironcross import combat_tables as ct
from core.ironcross.actions import Action, EndPhase, EndSetup, Overrun
from core.ironcross.state import Phase
from maps import hexgrid

__all__ = ["TacticsMixin"]


def _d(a: str, b: str) -> int:
    return hexgrid.distance(hexgrid.parse_hex_id(a), hexgrid.parse_hex_id(b))


#: infiltration results (24.3) by the modified roll
_INFIL_OK = {"SN": 1.0, "SS": 0.6, "SP": 0.8}


class TacticsMixin:
    """Overruns, hidden hexes, infiltration, MG modes."""

    # ================================================================== overruns (9.0)
    def _overrun_score(self, view, afv, group, a) -> float | None:
        """Expected gain of overrun ``a`` by ``afv`` (moving with ``group``) minus the expected loss
        of the AFV (9.2 A/B), weighed by the objectives."""
        defenders = view.enemy_at(a.hex)
        if not defenders or afv is None:
            return None
        t = view.terrain
        higher = t.level(afv.hex) > t.level(a.hex)
        men = sum(u.men for u in group if u.id != afv.id and not u.is_afv) if a.with_infantry else 0
        ev, p_loss = overrun_outcome(afv, defenders, t.trees(a.hex), view.ips.get(a.hex, 0),
                                     t.is_marsh(a.hex), higher, men)
        if a.with_infantry and men < sum(d.men for d in defenders):
            return None  # 9.3 refused: the infantry would halt outside, plain overrun instead
        factor = 1.0 if a.hex in self._covered_goal_hexes(view) else self._objective_factor(a.hex)
        score = ev * factor - p_loss * unit_value(afv)
        if a.with_infantry:
            score += 0.5 if factor > 1.0 else 0.0
            score -= 0.15 * len([u for u in group if u.id != afv.id])  # the infantry's risk in the assault
        return score

    def _covered_goal_hexes(self, view) -> frozenset:
        """With ``overrun_uncovered`` 1, in this side's last Movement Phase: the enemy-held goal
        hexes that own NORMAL infantry next to them (17.11: not marked elsewhere) can assault in this
        Player Turn at the odds the hex needs (:meth:`_assault_need`); empty otherwise. Once a
        decision (own units move between decisions)."""
        c = self._dc.get("covered_goals")
        if c is not None:
            return c
        out = set()
        m = self.maps
        if self.settings.overrun_uncovered and m.attack and view.phase is Phase.MOVEMENT and view.is_phasing \
                and self._turns_left(view) <= 1:
            for h, (defenders, own) in self._goal_holders_and_neighbours(view).items():
                att = [u for u in own if u.assault_hex in (None, h)]
                if att and assault_odds(att, defenders) >= self._assault_need(view, h):
                    out.add(h)
        c = self._dc["covered_goals"] = frozenset(out)
        return c

    def _goal_holders_and_neighbours(self, view) -> dict[str, tuple[list, list]]:
        """The enemy-held goal hexes an infantry assault can clear (no AFV among the holders:
        17.13) -> (their holders, the own NORMAL infantry next to them), in hex id order; once a
        decision (own units move between decisions). What ``overrun_uncovered`` and
        ``approach_spread`` weigh the assault on each by (17.0, :func:`assault_odds`)."""
        c = self._dc.get("goal_holders")
        if c is None:
            c = self._dc["goal_holders"] = {}
            side = view.side
            for h in sorted(self.maps.attack):
                defenders = view.enemy_at(h)
                if defenders and not any(d.is_afv for d in defenders):
                    c[h] = (defenders, [u for n in view.neighbours(h) for u in view.units_at(n)
                                        if u.side == side and u.is_infantry and u.normal])
        return c

    def _overrun(self, view, actions: list[Action], units) -> Action | None:
        """The best legal overrun when it is favourable (score > 0.4), else None."""
        ovs = [a for a in actions if a.kind == "overrun"]
        if not ovs:
            return None
        mv = view.moving()
        afv = view.unit(mv["afv"]) if mv and mv.get("afv") else next((u for u in units if u.is_afv), None)
        scored = []
        for a in ovs:
            s = self._overrun_score(view, afv, units, a)
            if s is not None:
                scored.append((s, a))
        s, a = self._best(scored)
        if a is None or s <= 0.4:
            return None
        if a.hex in self._covered_goal_hexes(view) and afv is not None and self._plans_uncovered_overrun(view, units):
            return None  # overrun_uncovered: on to the goal hex the infantry cannot assault
        return a

    def _plans_uncovered_overrun(self, view, units) -> bool:
        """Does the moving group's plan (:meth:`_plan`, with the MPs it has left) end next to an
        enemy-held goal hex that own infantry cannot assault this Player Turn and an AFV may overrun
        (no enemy AFV there nor a wreck, 9.13: a hex the AFV's overrun can clear)?"""
        mv = view.moving()
        if not mv:
            return False
        here = units[0].hex
        mp, one = self._moving_allowance(mv, units)
        _gain, dest, _path, _down, _up = self._plan(view, units, mp, one, moving=True)
        if dest == here:
            return False
        cov = self._covered_goal_hexes(view)
        return any(n in self.maps.attack and n not in cov and view.enemy_at(n) and not overrun_blocked(view, n)
                   for n in view.neighbours(dest))

    def _overrun_potential(self, view, units) -> float:
        """Before a move: the best overrun score of an AFV of ``units`` at an adjacent enemy hex."""
        if view.phase is not Phase.MOVEMENT:
            return 0.0
        afv = next((u for u in units if u.is_afv), None)
        if afv is None or afv.overrun_done or afv.immobilized or not afv.normal or afv.overrun <= 0:
            return 0.0
        best = 0.0
        for n in view.neighbours(afv.hex):
            ds = view.enemy_at(n)
            if not ds or overrun_blocked(view, n):
                continue
            s = self._overrun_score(view, afv, units, Overrun(n, len(units) > 1))
            if s is None:
                s = self._overrun_score(view, afv, units, Overrun(n, False))
            best = max(best, s or 0.0)
        return best

    # ================================================================== hidden hexes (24.2) at set-up
    def _hide_filter(self, view, u, h: str, pick: list[Action]) -> list[Action]:
        """Keep the hidden or the open placements of ``pick``: key stacks (MGs, ATGs, objective
        hexes) go hidden while the side has hidden hexes left; AFVs never (24.21)."""
        hid = [a for a in pick if getattr(a, "hidden", False)]
        vis = [a for a in pick if not getattr(a, "hidden", False)]
        if not hid:
            return vis or pick
        if not vis:
            return hid  # an own hidden hex: only hidden units may join it
        if u.is_afv:
            return vis  # whatever the rules: hidden placements are offered when the scenario grants them
        left = view.hidden_hexes_left()
        if left <= 0:
            return vis
        key_weapon = u.is_mg or u.is_atg
        on_objective = h in (self._small_hexes or set())
        if key_weapon:
            return hid
        if on_objective:
            pending = sum(1 for o in view.own_units(on_map=False)
                          if o.hex is None and not o.eliminated and (o.is_mg or o.is_atg) and o.id != u.id
                          and view.entry_of(o.id) is None)
            return hid if left > pending else vis
        return vis

    def _reveal_for_infiltration(self, view, actions: list[Action]) -> Action:
        """24.32: the German may reveal hidden hexes closer to the Infiltration Hex than his nearest
        on-map unit: each raises the infiltration's distance modifier. Reveal the closest when it
        makes a difference (within 4 hexes)."""
        rec = view.infiltration()
        ih = rec.get("hex")
        rev = [a for a in actions if a.kind == "reveal_hidden"]
        if ih and rev:
            a = min(rev, key=lambda r: (_d(r.hex, ih), r.hex))
            if _d(a.hex, ih) <= 4:
                return a
        return EndSetup()

    # ================================================================== infiltration (24.3)
    def _infil_hex_base(self, view, zone) -> list[tuple[float, int, str]]:
        """(position gain per unit, modifier without PR, hex) for each possible Infiltration Hex."""
        enemies = view.enemy_units()
        entry = set(view.entry_hexes()) | set(view.setup_zones())
        m = self.maps
        base_d = min((m.objective_distance(h) for h in entry), default=20)
        out = []
        for h in sorted(zone):
            if not view.contains(h) or view.enemy_at(h):
                continue
            if view.terrain.entry_cost(h, "infantry", False) is None:
                continue
            near = min((_d(h, e.hex) for e in enemies), default=None)
            mod = view.infiltration_terrain_modifier(h) + (0 if near is None else ct.infiltration_distance_modifier(near))
            gain = 0.12 * min(12, max(0, base_d - m.objective_distance(h)))
            out.append((gain, mod, h))
        return out

    @staticmethod
    def _infil_probs(mod: int) -> dict[str, float]:
        dist = ct.dice_total_distribution(2)
        out: dict[str, float] = {}
        for t, p in enumerate(dist):
            if p:
                r = ct.infiltration_result(t + mod)
                out[r] = out.get(r, 0.0) + p
        return out

    def _infil_ev(self, gain: float, mod: int, units) -> float:
        n = len(units)
        val = sum(unit_value(u) for u in units) / max(1, n)
        ev = 0.0
        for r, p in self._infil_probs(mod).items():
            if r in _INFIL_OK:
                ev += p * gain * n * _INFIL_OK[r]
            elif r.startswith("F"):
                ev -= p * min(int(r[1:]), n) * val
        return ev

    def _infiltration(self, view, actions: list[Action], zone) -> Action | None:
        kinds = {a.kind for a in actions}
        m = self.maps
        if "infiltrate" in kinds:
            cands = self._infil_hex_base(view, zone)
            cands.sort(key=lambda x: (-(x[0] - 0.1 * x[1]), x[2]))
            top = []
            for gain, mod, h in cands[:40]:  # threat only for the promising hexes (LOS is dear)
                top.append((gain - 0.6 * m.threat(h, True), mod, h))
            off = {u.id: u for u in view.own_units(on_map=False) if u.hex is None and not u.eliminated}
            scored = []
            plans = {}
            for a in actions:
                if a.kind != "infiltrate":
                    continue
                units = [u for u in off.values() if u.squad == a.squad and not u.is_commander and u.is_infantry]
                if not units:
                    continue
                if a.commander and a.commander in off:
                    units.append(off[a.commander])
                # 24.33 best PR in the infiltrating squad: the commander's does not count
                pmod = ct.infiltration_pr_modifier(max(u.pr for u in units if not u.is_commander))
                best = max(((self._infil_ev(g, mod + pmod, units), h) for g, mod, h in top), default=None,
                           key=lambda x: (x[0], x[1]))
                if best is None:
                    continue
                ev = best[0] - (0.2 if a.commander else 0.0)  # the commander is missed elsewhere
                scored.append((ev, a))
                plans[a] = best[1]
            s, a = self._best(scored)
            if a is None or s < 0.4:
                return EndSetup()
            self._infil_plan = plans[a]
            return a
        if "infiltration_hex" in kinds:
            hexes = {a.hex: a for a in actions if a.kind == "infiltration_hex"}
            plan = getattr(self, "_infil_plan", None)
            if plan in hexes:
                return hexes[plan]
            rec = view.infiltration()
            units = [view.unit(x) for x in rec.get("units", [])]
            units = [u for u in units if u is not None] or view.own_units(on_map=False)[:1]
            pmod = ct.infiltration_pr_modifier(max((u.pr for u in units if not u.is_commander), default=8))  # 24.33
            scored = [(self._infil_ev(g, mod + pmod, units), hexes[h]) for g, mod, h in
                      self._infil_hex_base(view, hexes)]
            return self._best(scored)[1]
        places = [a for a in actions if a.kind == "place"]
        if places:  # deploy the infiltrators in cover, out of the enemy's fire, toward the objective
            scored = []
            for a in places:
                s = 0.35 * view.hex_dice(a.hex, a.down) - 1.5 * m.threat(a.hex, a.down)
                s -= 0.1 * min(m.objective_distance(a.hex), 20)
                s += 0.3 if a.down else 0.0
                scored.append((s, a))
            return self._best(scored)[1]
        return None

    # ================================================================== MG modes (21.0)
    def _approach_hexes(self, view) -> set[str]:
        """Open hexes on the enemy's shortest approaches to the objectives (for Fire Lanes)."""
        ap = self._dc.get("approach")
        if ap is not None:
            return ap
        ed = self._enemy_dist or {}
        m = self.maps
        tot = {h: d + m.objective_distance(h) for h, d in ed.items()}
        best = min(tot.values(), default=0)
        ap = {h for h, t in tot.items() if t <= best + 2 and view.hex_dice(h, False) <= 2}
        self._dc["approach"] = ap
        return ap

    def _mg_mode_values(self, view, u, fl_targets: list[str]) -> dict[tuple, float]:
        """Value of each mode (("DF",), ("SP",), ("FL", target)) for own MG ``u`` now."""
        enemies = [e for e in view.enemy_units() if _d(u.hex, e.hex) <= u.ap_range]
        by_hex: dict[str, list] = {}
        for e in enemies:
            by_hex.setdefault(e.hex, []).append(e)
        df = 0.0
        sp = 0.0
        sp_hexes = 0
        for h, es in sorted(by_hex.items()):
            if u.facing and not view.in_frontal_area(u.hex, u.facing, h):
                continue
            if not view.los(u.hex, h, u.down).clear:
                continue
            fp = view.ap_firepower([u.id], h)
            df = max(df, ap_attack_value(fp, [(e, view.ap_dice_against(e.id, False)) for e in es]))
            if view.in_spray_area(u.id, h):
                sp_hexes += 1
                fs = view.mode_firepower(u.id, h, "SP")
                sp += sum(ap_attack_value(fs, [(e, view.ap_dice_against(e.id, False))]) for e in es)
        out = {("DF",): df + 0.1, ("SP",): sp if sp_hexes >= 2 else -1.0}
        if view.is_phasing:
            return out  # FL/SP do not fire in the Moving Fire Phase: DF unless spraying pays now
        approach = self._approach_hexes(view)
        own_hexes = {o.hex for o in view.own_units() if o.id != u.id}
        far = [t for t in fl_targets if _d(u.hex, t) >= max(2, u.ap_range - 1)]
        for t in far or fl_targets[:24]:
            lane = view.fire_lane(u.id, t)
            if not lane or own_hexes.intersection(lane):
                continue  # 21.23: the lane would hit own units
            now = 0.0
            for h in lane:
                es = by_hex.get(h)
                if es:
                    fs = view.mode_firepower(u.id, h, "FL")
                    now += sum(ap_attack_value(fs, [(e, view.ap_dice_against(e.id, False))]) for e in es)
            out[("FL", t)] = now + 0.12 * sum(1 for h in lane if h in approach) - (0.05 if not now else 0.0)
        return out

    def _mg_modes(self, view, actions: list[Action]) -> Action:
        """21.41: DF by default; FL along the enemy's approach; SP with several enemy hexes in front."""
        by_unit: dict[str, list[Action]] = {}
        for a in actions:
            if a.kind == "mg_mode":
                by_unit.setdefault(a.unit, []).append(a)
        for uid in sorted(by_unit):
            u = view.unit(uid)
            if u is None or not u.on_map:
                continue
            opts = by_unit[uid]
            fl = sorted(a.target for a in opts if a.mode == "FL")
            vals = self._mg_mode_values(view, u, fl)
            best = max(sorted(vals), key=lambda k: vals[k])
            cur = ("FL", u.fl_target) if u.mg_mode == "FL" else ((u.mg_mode or "DF"),)
            if best == cur or vals[best] <= vals.get(cur, vals[("DF",)]) + 0.05:
                continue
            want = [a for a in opts if (a.mode,) + ((a.target,) if a.mode == "FL" else ()) == best]
            if want:
                return want[0]
        return EndPhase()

    # ================================================================== FL / SP fire (21.2, 21.3)
    def _price_mode(self, view, a: Action, opportunity: bool) -> float | None:
        u = view.unit(a.unit)
        if u is None or not u.on_map:
            return None
        reaction = view.phase is Phase.REACTION_MOVEMENT
        p = pc_pass(u.pr, 1 if (opportunity and reaction) else 0)
        cost = self._fire_cost(view, u, view.phase, opportunity)
        ev = 0.0
        if a.kind == "lane_fire":
            lane = view.fire_lane(u.id)
            w = view.window_hex() if opportunity else None
            hexes = [w] if w is not None else lane
            for h in hexes:
                if h not in lane:
                    continue
                fs = view.mode_firepower(u.id, h, "FL")
                for t in view.units_at(h):
                    v = ap_attack_value(fs, [(t, view.ap_dice_against(t.id, u.moved))])
                    ev += v * self._objective_factor(h) if t.side != view.side else -1.3 * v
            return p * ev - cost - 0.1
        if a.kind == "spray_fire":
            hexes = set()
            for x in a.targets:
                t = view.unit(x)
                if t is None or t.hex is None:
                    continue
                hexes.add(t.hex)
                fs = view.mode_firepower(u.id, t.hex, "SP")
                ev += ap_attack_value(fs, [(t, view.ap_dice_against(t.id, u.moved))]) * self._objective_factor(t.hex)
            return p * ev - cost - 0.05 * len(hexes)
        return None  # ChangeToSpray: not priced (a PC for a quarter of the factors)

