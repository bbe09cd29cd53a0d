"""Set-up (24.1): placing units in their set-up zones, hidden hexes (24.21, where the scenario grants them), IPs
(18.1), mines (19.1), then the Russian infiltration (24.3, :mod:`core.ironcross.infiltration`).

A mixin of :class:`core.ironcross.game.Game`; it reads and changes only the game's state.
"""

from __future__ import annotations


from core.ironcross.actions import Action, EndSetup, IllegalAction, Place
from core.ironcross.setup import SetupError
from core.ironcross.state import Unit, stacking_problem
from maps import hexgrid

#: (unit id, hex, has a facing, hidden) -> that unit's placements in the hex (:meth:`_unit_places`),
#: (marker, hex) -> the placement of an IP or mine marker there: frozen values, the same in every
#: game of a process, so a set-up that offers hundreds of thousands of them a game makes each once
_PLACES: dict[tuple, object] = {}
_PLACES_MAX = 100_000


def _keep(key: tuple, value):
    """Keep ``value`` under ``key`` in :data:`_PLACES` (emptied first when it holds more than
    :data:`_PLACES_MAX` keys) and return it."""
    if len(_PLACES) > _PLACES_MAX:
        _PLACES.clear()
    _PLACES[key] = value
    return value


def _marker_place(marker: str, h: str) -> Place:
    """``Place(marker, h)`` (an IP or mine marker, 18.1, 19.1), made once a process."""
    key = (marker, h)
    p = _PLACES.get(key)
    return p if p is not None else _keep(key, Place(marker, h))


class DeploymentRules:
    """Set-up of the forces before the first Player Turn (24.1, 8.62, 18.1, 19.1)."""

    def _check_setup_hexes(self) -> None:
        """24.1 MAP: every hex the set-up names -- set-up zones (and so hidden hexes, 24.21), IP
        and mine zones (18.1, 19.1), entry hexes, infiltration zones (24.32) -- lies on the map and
        in the scenario's playing area, so no ``Place``, entry or Infiltration Hex is ever offered
        off it. The playing area itself must lie on the map. Raises :class:`SetupError` naming
        each group and hex (the game is not started)."""
        s = self.setup
        full = s.hexmap
        problems: list[str] = []

        def check(what: str, hexes, on=None) -> None:
            for h in sorted(hexes):
                try:
                    hx = hexgrid.parse_hex_id(h)
                except ValueError as e:
                    problems.append(f"{what}: {e}")
                    continue
                if not full.contains(hx):
                    problems.append(f"{what}: hex {h} is not on map {full.name!r}")
                elif on is not None and not on.contains(hx):
                    problems.append(f"{what}: hex {h} is outside the scenario's playing area")

        if s.playing_area:
            check("playing area", s.playing_area)
        for d in s.deployments:
            check(f"{d.side} set-up zone of {d.group or ', '.join(d.units)}", d.zone, self.map)
        for a in s.allotments:
            check(f"{a.side} IP/mine zone of {a.group or 'the side'}", a.zone, self.map)
        for e in s.entries:
            check(f"{e.side} entry hexes of {e.group or ', '.join(e.units)}", e.hexes, self.map)
        for side, zone in sorted(s.infiltration.items()):
            check(f"{side} infiltration zone", zone, self.map)
        for d in s.detachments:
            check(f"{d.side} entry hexes of detachment {d.name}", d.entry.hexes, self.map)
        if problems:
            raise SetupError("; ".join(problems))

    def _advance_setup(self) -> None:
        while self._setup_queue:
            side, what, data = self._setup_queue[0]
            if what == "unit" and (self.units[data[0]].hex is not None or self.units[data[0]].eliminated):
                self._setup_queue.pop(0)
                continue
            if what == "detachment":
                dec = self._detachment_decider()  # 24.1 special option (closes itself when nothing is left)
                if dec is None:
                    continue
                self._decider = dec
                return
            if what == "infiltration":
                dec = self._infiltration_decider()  # 24.3
                if dec is None:
                    self._setup_queue.pop(0)
                    continue
                self._decider = dec
                return
            self._decider = side
            return
        self._event("setup_done", rule="24.1")
        self._start_player_turn()

    def _stack_ok(self, hex_id: str, adding: list[Unit]) -> bool:
        """8.62/8.63: at most six men plus one AFV, and one CW counter, in a hex."""
        ids = {a.id for a in adding}
        return stacking_problem([u for u in self.state.units_at(hex_id) if u.id not in ids] + adding) is None

    def _setup_actions(self) -> list[Action]:
        side, what, data = self._setup_queue[0]
        out: list[Action] = []
        if what == "infiltration":
            return self._infiltration_actions()  # 24.3
        if what == "detachment":
            return self._detachment_actions(data)  # 24.1 special option
        if what == "unit":
            uid, zone = data
            u = self.units[uid]
            # what does not depend on the hex, once: hidden hexes left (24.21), the unit alone
            # within the stacking limits (8.61-8.63)
            left = self._hidden_hexes_left(side)
            alone_ok = stacking_problem([u]) is None
            for h in sorted(zone):
                out.extend(self._unit_places(u, side, h, left, alone_ok))
        elif what == "ip":
            pts, zone = data
            for h in sorted(zone):
                out.extend(self._ip_places(pts, h))
        else:
            left, zone = data
            for h in sorted(zone):
                out.extend(self._mine_places(side, what, left, h))
        out.append(EndSetup())
        return out

    def _ip_places(self, pts: int, h: str) -> list[Action]:
        """The placement of an IP marker of ``pts`` points in hex ``h`` of its zone, if legal (18.1:
        any hex infantry and CW units can occupy; one IP marker a hex)."""
        if h not in self.state.ips and self.terrain.entry_cost(h, "infantry", False) is not None:
            return [_marker_place(f"IP{pts}", h)]
        return []

    def _mine_places(self, side: str, what: str, left: int, h: str) -> list[Action]:
        """The placements of ``side``'s AP (``what`` "ap_mines") or AT mine factors in hex ``h`` of
        its zone with ``left`` factors still to place, in the order of :meth:`_setup_actions`."""
        if self.terrain.is_building(h):
            return []  # 19.14 mines may not be in buildings
        m = self.state.mines.get(h, {})
        if m and m.get("side") != side:
            return []  # one side's minefield a hex (the record keeps one owner)
        if what == "ap_mines":
            # 19.12 at most 4 AP factors
            return [_marker_place(f"AP-mines:{n}", h) for n in range(1, min(left, 4 - m.get("ap", 0)) + 1)]
        # 19.12 at most 7 AT factors, and at least 2 in a hex mined with AT factors
        lo = 1 if m.get("at", 0) >= 2 else 2
        return [_marker_place(f"AT-mines:{n}", h) for n in range(lo, min(left, 7 - m.get("at", 0)) + 1)]

    def _unit_places(self, u: Unit, side: str, h: str, left: int | None = None,
                     alone_ok: bool | None = None) -> list[Action]:
        """The placements of ``u`` in hex ``h`` of its set-up zone (24.1), in the order of
        :meth:`_setup_actions`: no enemy there, AFVs not on a wreck nor in terrain they cannot
        enter, stacking (8.61-8.63), hidden hexes (24.21), every facing (8.7), UP or DOWN (3.12).
        ``left`` (hidden hexes ``side`` may still make) and ``alone_ok`` (``u`` alone within the
        stacking limits) when the caller has them for many hexes."""
        out: list[Action] = []
        here = self.state.units_at(h)
        if here:
            if self.enemy_in(h, side):
                return out
            if not self._stack_ok(h, [u]):
                return out
        elif alone_ok is False or (alone_ok is None and stacking_problem([u]) is not None):
            return out  # an empty hex: no enemy, and the unit alone decides the stacking
        if u.is_afv and self.state.wrecks.get(h):
            return out
        if u.is_afv and self.terrain.entry_cost(h, "afv", False) is None:
            return out
        if self.setup.caps and self._cap_problem(u, h) is not None:
            return out  # 24.1 the scenario's set-up cap inside a sub-zone
        uid = u.id
        facings = (1, 2, 3, 4, 5, 6) if u.has_facing else (None,)
        if left is None:
            left = self._hidden_hexes_left(side)
        # 24.21 a hidden hex holds only hidden units; AFVs may not be hidden
        for hidden in ((False, True) if left > 0 or self.state.hidden_hexes.get(h) == side else (False,)):
            if here:
                if not self._hidden_placement_ok(u, h, hidden):
                    continue
            elif hidden and (u.is_afv or left <= 0):
                continue  # an empty hex is no hidden hex yet: a new one needs one left (24.21)
            # 3.12: UP or DOWN as the owner wishes, for every facing (8.7)
            key = (uid, h, u.has_facing, hidden)
            ps = _PLACES.get(key)
            if ps is None:
                ps = _keep(key, tuple([Place(uid, h, down, f, hidden) for f in facings for down in (False, True)]))
            out += ps
        return out

    def _cap_problem(self, u: Unit, h: str) -> str | None:
        """Why setting ``u`` up in ``h`` would exceed one of the scenario's set-up caps inside a
        sub-zone (24.1 unit deployment restrictions), or None."""
        from core.ironcross.placement import cap_problem

        where = {x.id: x.hex for x in self.state.units.values() if x.hex is not None and x.id != u.id}
        return cap_problem(self.setup, u.id, h, where)

    def _setup_action_legal(self, a: Place) -> bool:
        """``a`` is among :meth:`_setup_actions` now (a unit's placement is checked in its own hex
        only, :meth:`_unit_places`)."""
        side, what, data = self._setup_queue[0]
        if what == "unit":
            uid, zone = data
            return (a.unit == uid and isinstance(a.hex, str) and a.hex in zone
                    and a in self._unit_places(self.units[uid], side, a.hex))
        if what == "ip":
            pts, zone = data
            return isinstance(a.hex, str) and a.hex in zone and a in self._ip_places(pts, a.hex)
        if what in ("ap_mines", "at_mines"):
            left, zone = data
            return isinstance(a.hex, str) and a.hex in zone and a in self._mine_places(side, what, left, a.hex)
        return a in self._setup_actions()

    def _apply_setup(self, a: Action) -> None:
        side, what, data = self._setup_queue[0]
        if what == "infiltration":
            self._apply_infiltration(a)  # 24.3
            if self._infil.get("stage") == "done":
                self._setup_queue.pop(0)
            self._advance_setup()
            return
        if what == "detachment":
            self._apply_detachment(a)  # 24.1 special option
            self._advance_setup()
            return
        if isinstance(a, EndSetup):
            # skip the rest of this item (an unplaced unit stays off the map)
            self._setup_queue.pop(0)
            if what == "unit":
                self._event("not_placed", rule="24.1", unit=data[0])
            self._advance_setup()
            return
        if not isinstance(a, Place):
            raise IllegalAction("24.1", "during set-up only Place and EndSetup are possible")
        if what == "unit" and a.unit == data[0] and isinstance(a.hex, str) and a.hex in data[1] and self.setup.caps:
            why = self._cap_problem(self.units[a.unit], a.hex)
            if why is not None:
                raise IllegalAction("24.1", why)  # the scenario's set-up cap inside a sub-zone
        if not self._setup_action_legal(a):
            raise IllegalAction("24.1", f"{a} is not a legal placement now")
        if what == "unit":
            u = self.units[a.unit]
            if self._hidden_setup_blocked(side, a.hex):
                return self._advance_setup()  # 24.23: the opponent's hidden units were there
            u.hex, u.down, u.facing = a.hex, a.down, a.facing
            if a.hidden:
                self._place_hidden(u, a.hex)  # 24.21 recorded secretly (views hide it)
            self._event("placed", rule="24.1", unit=u.id, hex=a.hex, down=a.down, facing=a.facing,
                        **({"hidden": True, "secret": True} if a.hidden else {}))
            self._update_control(a.hex)
            self._setup_queue.pop(0)
        elif what == "ip":
            self.state.ips[a.hex] = data[0]
            self._event("ip_placed", rule="18.1", side=side, hex=a.hex, points=data[0])
            self._setup_queue.pop(0)
        else:
            left, zone = data
            n = int(a.unit.split(":")[1])
            # 19.11 recorded secretly (views hide them, Game.view); 19.13 both types in one hex
            m = self.state.mines.setdefault(a.hex, {"side": side, "ap": 0, "at": 0, "revealed_ap": False,
                                                    "revealed_at": False})
            m["ap" if what == "ap_mines" else "at"] += n
            self._event("mines_placed", rule="19.11", side=side, secret=True, hex=a.hex, factors=n, type=what)
            left -= n
            if left > 0:
                self._setup_queue[0] = (side, what, (left, zone))
            else:
                self._setup_queue.pop(0)
        self._advance_setup()

