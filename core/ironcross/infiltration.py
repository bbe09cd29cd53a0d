"""Russian infiltration (24.3, a scenario rule: wherever the scenario allows it, under the basic and
the advanced rules alike).

A mixin of :class:`core.ironcross.game.Game`. The infiltration is one item of the set-up queue,
after the German set-up (24.31): ``(side, "infiltration", zone)``. Its steps are decisions offered
through ``legal_actions``:

1. the Russian designates one squad plus optionally one commander (:class:`Infiltrate`) or
   declines (``EndSetup``) (24.31);
2. he announces the Infiltration Hex (:class:`InfiltrationHex`) in the scenario's zone, not
   occupied by an on-map German unit (24.32); if it is a German hidden hex the attempt fails at once
   (24.35);
3. the German may reveal hidden hexes closer to it than his nearest on-map unit
   (:class:`RevealHidden`, or ``EndSetup`` to go on) (24.32);
4. 2d6 + modifiers on the Infiltration Resolution Table (24.33; the best PR is the squad's, never
   the commander's);
5. SN/SS/SP: the Russian places each infiltrator (``Place``) within two hexes, no closer to any
   German unit than the Infiltration Hex (24.34); then hidden hexes stacked with or adjacent to them
   are revealed (24.36: SUPPRESSED, moved to an adjacent hex by the Russian (``Place``), a Grenade
   Attack on the Germans; PINNED when adjacent) and AP mines under them attack (24.37); the
   Russian's first Player Turn then begins with its Support Fire Phase;
   F#: # infiltrators chosen at random (dice) are eliminated, the others enter as usual.

The record of the attempt is ``state.records["infiltration"]`` (public once announced).
"""

from __future__ import annotations

from core.ironcross import combat_tables as ct
from core.ironcross.actions import Action, EndSetup, IllegalAction, Infiltrate, InfiltrationHex, Place, RevealHidden
from core.ironcross.state import Morale, Unit, UnitKind, other_side
from maps import hexgrid


def _dist(a: str, b: str) -> int:
    return hexgrid.distance(hexgrid.parse_hex_id(a), hexgrid.parse_hex_id(b))


class InfiltrationRules:
    """24.3 Russian infiltration."""

    # ================================================================== queue
    def _queue_infiltration(self) -> None:
        """24.31: the infiltration comes after the German set-up (units, hidden hexes, mines). 24.3
        "may only be used if the option is present in the scenario instructions": it is queued for
        every side the scenario grants it to, whatever the rules (basic or advanced)."""
        for side, zone in sorted(self.setup.infiltration.items()):
            if not zone:
                continue
            opp = [i for i, item in enumerate(self._setup_queue) if item[0] == other_side(side)]
            at = opp[-1] + 1 if opp else len(self._setup_queue)
            self._setup_queue.insert(at, (side, "infiltration", frozenset(zone)))

    @property
    def _infil(self) -> dict:
        return self.state.records.setdefault("infiltration", {})

    def _infiltration_decider(self) -> str | None:
        """Who decides the current infiltration step (None: the item is finished or impossible)."""
        side, _, _ = self._setup_queue[0]
        rec = self._infil
        stage = rec.get("stage")
        if stage is None:
            if not self._infiltration_squads(side):
                self._event("infiltration", rule="24.31", side=side, stage="none",
                            reason="no squad off the map to infiltrate")
                return None
            rec.update({"side": side, "stage": "designate"})
            return side
        if stage == "done":
            return None
        if stage == "german_option":
            return other_side(side)
        return side

    # ================================================================== helpers
    def _infiltration_squads(self, side: str) -> dict[str, list[str]]:
        """24.31: squads (their men not yet on the map) that may infiltrate."""
        out: dict[str, list[str]] = {}
        for uid, u in sorted(self.state.units.items()):
            if u.side == side and u.kind is UnitKind.INFANTRY and u.hex is None and not u.eliminated and u.squad:
                out.setdefault(u.squad, []).append(uid)
        return out

    def _infiltration_commanders(self, side: str) -> list[str]:
        return [uid for uid, u in sorted(self.state.units.items())
                if u.side == side and u.is_commander and u.hex is None and not u.eliminated]

    def _on_map_enemies(self, side: str) -> list[Unit]:
        """The on-map (visible) units of the opponent of ``side``: hidden units are not on the map."""
        return [u for u in self.state.units.values() if u.side != side and u.on_map and not u.hidden]

    def _nearest_enemy_distance(self, side: str, hex_id: str) -> int | None:
        ds = [_dist(hex_id, u.hex) for u in self._on_map_enemies(side)]
        return min(ds) if ds else None

    def _infiltrators(self) -> list[Unit]:
        return [self.state.units[x] for x in self._infil.get("units", []) if not self.state.units[x].eliminated]

    def _infiltration_terrain_modifier(self, hex_id: str) -> tuple[int, str]:
        """24.3 table: multi-hex building -3, single-hex building -2, gully -1, trees -#trees. A hex
        that is several of these gets the most favourable one (the hex's terrain type)."""
        h = hexgrid.parse_hex_id(hex_id)
        opts = [(0, "other")]
        b = self.terrain.building_kind(h)
        if b == "multi":
            opts.append((-3, "multi-hex building"))
        elif b == "single":
            opts.append((-2, "single-hex building"))
        if self.map.is_gully(h):
            opts.append((-1, "gully"))
        t = self.terrain.trees(hex_id)
        if t:
            opts.append((-t, f"{t} trees"))
        return min(opts)

    # ================================================================== legal actions
    def _infiltration_actions(self) -> list[Action]:
        side, _, zone = self._setup_queue[0]
        rec = self._infil
        stage = rec.get("stage")
        out: list[Action] = []
        if stage == "designate":
            comms = self._infiltration_commanders(side)
            for sq in self._infiltration_squads(side):
                out.append(Infiltrate(sq, None))
                out.extend(Infiltrate(sq, c) for c in comms)
            out.append(EndSetup())  # 24.31 the Russian may choose not to infiltrate
        elif stage == "hex":
            for h in sorted(zone):
                if not self.map.contains(hexgrid.parse_hex_id(h)):
                    continue
                if any(u.side != side and not u.hidden for u in self.state.units_at(h)):
                    continue  # 24.32 not occupied by an on-map German unit
                out.append(InfiltrationHex(h))
        elif stage == "german_option":
            out.extend(RevealHidden(h) for h in self._closer_hidden_hexes())
            out.append(EndSetup())
        elif stage in ("place", "displace"):
            uid = rec["queue"][0]
            u = self.state.units[uid]
            downs = (False, True) if (stage == "place" and rec.get("result") == "SN") else (True,)
            facings = (1, 2, 3, 4, 5, 6) if u.has_facing else (None,)
            for h in self._infiltrator_hexes(u, stage):
                for d in downs:
                    for f in facings:
                        out.append(Place(uid, h, d, f))
        return out

    def _closer_hidden_hexes(self) -> list[str]:
        """24.32: German hidden hexes closer to the Infiltration Hex than his nearest on-map unit."""
        side = self._infil["side"]
        ih = self._infil["hex"]
        near = self._nearest_enemy_distance(side, ih)
        return [h for h in self.hidden_hexes_of(other_side(side)) if near is None or _dist(h, ih) < near]

    def _infiltrator_hexes(self, u: Unit, stage: str) -> list[str]:
        """24.34: within two hexes of the Infiltration Hex, no closer to any (on-map) German unit than
        it is, within stacking limits; 24.36: a hex adjacent to the revealed hidden hex."""
        side = u.side
        out = []
        if stage == "place":
            ih = self._infil["hex"]
            enemies = self._on_map_enemies(side)
            # hexes of the map only (above row 01 or left of column 00 there is no hex id)
            cands = [h.id for h in hexgrid.area(hexgrid.parse_hex_id(ih), 2) if self.map.contains(h)]
            ok = lambda h: all(_dist(h, e.hex) >= _dist(ih, e.hex) for e in enemies)  # noqa: E731
        else:
            # hexes of the map only (left of column 00 there is no hex id)
            cands = [n.id for n in hexgrid.neighbours(hexgrid.parse_hex_id(u.hex)) if self.map.contains(n)]
            ok = lambda h: not any(x.side != side and not x.hidden for x in self.state.units_at(h))  # noqa: E731
        for h in sorted(cands):
            if not self.map.contains(hexgrid.parse_hex_id(h)):
                continue
            if self.terrain.entry_cost(h, "infantry", False) is None:
                continue
            if not ok(h) or not self._stack_ok(h, [u]):
                continue
            out.append(h)
        return out

    # ================================================================== apply
    def _apply_infiltration(self, a: Action) -> None:
        side, _, zone = self._setup_queue[0]
        rec = self._infil
        stage = rec.get("stage")
        if a not in self._infiltration_actions():
            raise IllegalAction("24.3", f"{a} is not a legal infiltration step now ({stage})")
        if stage == "designate":
            if isinstance(a, EndSetup):
                rec["stage"] = "done"
                self._event("infiltration", rule="24.31", side=side, stage="declined")
                return self._finish_infiltration()
            units = list(self._infiltration_squads(side)[a.squad]) + ([a.commander] if a.commander else [])
            rec.update({"stage": "hex", "squad": a.squad, "commander": a.commander, "units": units})
            self._event("infiltration", rule="24.31", side=side, stage="designated", squad=a.squad,
                        commander=a.commander, units=units)
            return
        if stage == "hex":
            rec["hex"] = a.hex
            self._event("infiltration", rule="24.32", side=side, stage="hex", hex=a.hex)
            if any(u.hidden and u.side != side for u in self.state.units_at(a.hex)):
                return self._infiltration_into_hidden_hex(a.hex)
            if self._closer_hidden_hexes():
                rec["stage"] = "german_option"
                return
            return self._resolve_infiltration()
        if stage == "german_option":
            if isinstance(a, RevealHidden):
                self._voluntary_reveal(a, other_side(side), rule="24.32")
                if self._closer_hidden_hexes():
                    return
            return self._resolve_infiltration()
        if stage in ("place", "displace"):
            u = self.state.units[a.unit]
            frm = u.hex
            u.hex, u.down, u.facing, u.entered = a.hex, a.down, a.facing, True
            if stage == "place":
                res = rec["result"]
                if res == "SP":
                    u.morale, u.down = Morale.PINNED, True
                elif res == "SS":
                    u.morale, u.down = Morale.SUPPRESSED, True
                self._event("placed", rule="24.34", unit=u.id, hex=a.hex, down=u.down, facing=a.facing,
                            morale=u.morale.value)
            else:
                self._event("displaced", rule="24.36", unit=u.id, frm=frm, hex=a.hex, facing=a.facing)
            self._update_control(a.hex)
            rec["queue"].pop(0)
            return self._continue_infiltration_placement()
        raise IllegalAction("24.3", f"no infiltration step {stage!r}")

    # ================================================================== resolution
    def _resolve_infiltration(self) -> None:
        """24.33: 2d6 + best PR in the infiltrating squad + terrain + distance to the nearest on-map
        German unit. The best PR is the squad's men's only: a commander is not part of a squad
        (24.31 "ONE squad PLUS ... one commander"), so his PR does not count."""
        rec = self._infil
        side, ih = rec["side"], rec["hex"]
        units = self._infiltrators()
        best = max(u.pr for u in units if not u.is_commander)  # 24.33 "Best PR in the Infiltrating Squad"
        pr_mod = ct.infiltration_pr_modifier(best)
        ter_mod, ter = self._infiltration_terrain_modifier(ih)
        near = self._nearest_enemy_distance(side, ih)
        dist_mod = 0 if near is None else ct.infiltration_distance_modifier(near)
        r = self.roll(2, f"infiltration at {ih}", "24.33")
        total = r.total + pr_mod + ter_mod + dist_mod
        res = ct.infiltration_result(total)
        rec.update({"roll": r.total, "modified": total, "result": res})
        self._event("infiltration", rule="24.33", side=side, stage="roll", hex=ih, dice=r.total, best_pr=best,
                    pr_modifier=pr_mod, terrain=ter, terrain_modifier=ter_mod, nearest=near,
                    distance_modifier=dist_mod, modified=total, result=res)
        if res.startswith("F"):
            self._infiltration_casualties(int(res[1:]), "24.34")
            rec["stage"] = "done"
            return self._finish_infiltration()
        rec["stage"] = "place"
        rec["queue"] = [u.id for u in units]
        return self._continue_infiltration_placement()

    def _infiltration_casualties(self, n: int, rule: str) -> None:
        """F#: # randomly selected infiltrators are removed (eliminated); the others enter as though
        no infiltration had been attempted."""
        pool = self._infiltrators()
        for _ in range(min(n, len(pool))):
            i = self.dice.choice_index(len(pool), "infiltration casualty", rule)
            u = pool.pop(i)
            u.eliminated = True
            self._event("eliminated", rule=rule, unit=u.id, side=u.side, hex=None)
        self._event("infiltration", rule=rule, side=self._infil["side"], stage="failed", casualties=n,
                    survivors=[u.id for u in pool])

    def _infiltration_grenade_attack(self, hex_id: str, rule: str) -> None:
        """24.35/24.36: a Grenade Attack (15.6) on the German units in ``hex_id``; PINNED and
        SUPPRESSED results are ignored (no grenade of the Russian supply is used)."""
        side = self._infil["side"]
        building = self.terrain.is_building(hex_id)
        for t in sorted(self.state.units_at(hex_id), key=lambda x: x.id):
            if t.side == side or t.is_afv or t.eliminated:
                continue
            r = self.roll(1, f"grenade attack on {t.id} ({rule})", "15.6")
            res = ct.grenade_result(r.total, building)
            self._event("grenade_result", rule=rule, unit=t.id, die=r.total, result=res.value,
                        ignored=res in (ct.ApResult.PINNED, ct.ApResult.SUPPRESSED))
            if res is not ct.ApResult.ELIMINATED:
                continue
            if t.is_cw:
                before, down = t.morale, t.down
                self._cw_crew_losses(t, 10, "15.8")
                if not t.eliminated:
                    t.morale, t.down = before, down  # the S of 15.8 ignored (24.35)
            else:
                self._eliminate(t, "15.6")

    def _infiltration_into_hidden_hex(self, ih: str) -> None:
        """24.35: the Infiltration Hex is a German hidden hex: automatic failure, one die of
        casualties, the Germans there permanently revealed and grenade-attacked (P/S ignored)."""
        rec = self._infil
        side = rec["side"]
        self._reveal([u for u in self.state.units_at(ih) if u.hidden and u.side != side], "24.35",
                     "the Infiltration Hex is a hidden hex")
        r = self.roll(1, "infiltration casualties", "24.35")
        rec.update({"result": f"F{r.total}", "hidden_hex": True})
        self._event("infiltration", rule="24.35", side=side, stage="hidden_hex", hex=ih, casualties=r.total)
        self._infiltration_casualties(r.total, "24.35")
        self._infiltration_grenade_attack(ih, "24.35")
        rec["stage"] = "done"
        return self._finish_infiltration()

    def _continue_infiltration_placement(self) -> None:
        rec = self._infil
        while rec.get("queue"):
            u = self.state.units[rec["queue"][0]]
            if u.eliminated:
                rec["queue"].pop(0)
                continue
            if not self._infiltrator_hexes(u, rec["stage"]):
                # no hex the rules allow: the unit is lost (it cannot stay stacked with the enemy)
                # or, while placing, it enters later with its group
                rec["queue"].pop(0)
                if rec["stage"] == "displace":
                    self._eliminate(u, "24.36")
                else:
                    self._event("not_placed", rule="24.34", unit=u.id, reason="no hex within the limits")
                continue
            return  # the Russian decides where
        self._after_infiltrators_placed()

    def _after_infiltrators_placed(self) -> None:
        """24.36 hidden hexes stacked with or adjacent to infiltrators, then 24.37 AP mines."""
        rec = self._infil
        side = rec["side"]
        revealed = rec.setdefault("revealed", [])
        while True:
            inf = [u for u in self._infiltrators() if u.on_map]
            hidden = sorted({u.hex for u in self.state.units.values()
                             if u.hidden and u.on_map and u.side != side})
            stacked = [h for h in hidden if any(u.hex == h for u in inf)]
            adjacent = [h for h in hidden if h not in stacked and any(_dist(u.hex, h) == 1 for u in inf)]
            if not stacked and not adjacent:
                break
            for h in stacked + adjacent:
                self._reveal_hex(h, "24.36", "hidden hex stacked with or adjacent to infiltrating units")
                revealed.append(h)
            displace = []
            for h in stacked:
                self._infiltration_grenade_attack(h, "24.36")
                for u in [x for x in inf if x.hex == h]:
                    self._set_morale(u, ct.ApResult.SUPPRESSED, "24.36")
                    if not u.eliminated:
                        u.down = True
                        displace.append(u.id)
            if displace:
                rec["stage"] = "displace"
                rec["queue"] = displace
                return self._continue_infiltration_placement()
        for u in self._infiltrators():
            if u.on_map and any(_dist(u.hex, h) == 1 for h in revealed):
                self._set_morale(u, ct.ApResult.PINNED, "24.36")
        # 24.37 AP mines under infiltrators, after the hidden Germans are revealed
        for h in sorted({u.hex for u in self._infiltrators() if u.on_map}):
            m = self.state.mines.get(h)
            if m and m.get("ap", 0) > 0:
                self._mine_attack(h, [u for u in self._infiltrators() if u.hex == h])
        rec["stage"] = "done"
        rec["begin_at_support_fire"] = True  # 24.34
        self._event("infiltration", rule="24.34", side=side, stage="deployed",
                    units=[u.id for u in self._infiltrators() if u.on_map])
        return self._finish_infiltration()

    def _finish_infiltration(self) -> None:
        self._infil["stage"] = "done"

    # ================================================================== sequence of play
    def _skip_morale_phase(self) -> bool:
        """24.34: after a successful infiltration the scenario begins with the Russian Player Turn
        Support Fire Phase: the Morale Phase of that side's first Player Turn is skipped."""
        rec = self.state.records.get("infiltration")
        if not rec or not rec.get("begin_at_support_fire") or self.state.phasing != rec.get("side"):
            return False
        rec["begin_at_support_fire"] = False
        self._event("morale_phase_skipped", rule="24.34", side=rec["side"],
                    reason="the scenario begins with the Support Fire Phase after a successful infiltration")
        return True
