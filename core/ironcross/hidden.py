"""Hidden hexes (24.2, a scenario rule: in force whenever the scenario grants a side hidden hexes,
under the basic and the advanced rules alike): choosing them at set-up, keeping them out of the
opponent's sight, and every way they are revealed (24.22, 24.23).

A mixin of :class:`core.ironcross.game.Game`. A hidden unit is on the map for its owner (it has a
``hex``) and carries ``Unit.hidden``; for the opponent it is "not placed on the map" (24.23): it
is not in his view (:meth:`HiddenRules.visible_units`, ``Game.view``), it is never an enemy in
his legal actions (``Game.enemy_in`` skips it: no fire, grenade, flame, mortar or overrun target)
and attacks against its hex do not affect it. Readings are in ``docs/rules-interpretations.md``
("Hidden hexes and infiltration").

Visibility API (for views and AI players):

* ``game.is_visible_to(unit, side)`` -- may ``side`` see ``unit`` now?
* ``game.visible_units(side)`` -- every unit ``side`` may see (its own, on or off the map, and the
  opponent's revealed on-map units);
* ``game.hidden_hexes_of(side)`` -- ``side``'s hexes that still hold hidden units (its own secret).
"""

from __future__ import annotations

from core.ironcross.actions import Action, IllegalAction, RevealHidden
from core.ironcross.state import Morale, Unit, other_side
from maps import hexgrid

#: action kinds that are fire combat in the sense of 24.22 ("a hidden unit ... fires")
_FIRE_KINDS = frozenset({"fire", "grenade", "flame", "mortar", "lane_fire", "spray_fire"})


def _adjacent(a: str, b: str) -> bool:
    return hexgrid.distance(hexgrid.parse_hex_id(a), hexgrid.parse_hex_id(b)) == 1


class HiddenRules:
    """24.2 hidden hexes."""

    # ================================================================== visibility API
    @property
    def advanced(self) -> bool:
        """Advanced rules (21.0-23.0) in force (``Game(..., rules="advanced")``). Hidden hexes (24.2)
        and infiltration (24.3) are scenario rules and do not depend on it."""
        return self.rules == "advanced"

    def is_visible_to(self, unit: Unit, side: str) -> bool:
        """Whether ``side`` may see ``unit``: its own units always; enemy units when on the map and
        not hidden (24.2)."""
        if unit.side == side:
            return True
        return unit.on_map and not unit.hidden

    def visible_units(self, side: str) -> list[Unit]:
        """Every unit ``side`` may see (own units on or off the map; enemy on-map revealed units),
        in id order. The objects are the game's own: do not change them."""
        return [u for _, u in sorted(self.state.units.items()) if self.is_visible_to(u, side)]

    def hidden_hexes_of(self, side: str) -> list[str]:
        """``side``'s hexes that still hold hidden units (secret: ask only for your own side)."""
        return sorted({u.hex for u in self.state.units.values() if u.side == side and u.hidden and u.on_map})

    def _hidden_at(self, hex_id: str, side: str | None = None) -> list[Unit]:
        return [u for u in self.state.units_at(hex_id) if u.hidden and (side is None or u.side == side)]

    # ================================================================== 24.21 set-up
    def _hidden_hexes_left(self, side: str) -> int:
        allowed = self.setup.hidden_hexes.get(side, 0)  # 24.2: as many as the scenario grants, any rules
        return allowed - sum(1 for s in self.state.hidden_hexes.values() if s == side)

    def _hidden_placement_ok(self, u: Unit, hex_id: str, hidden: bool) -> bool:
        """24.21: a hex is hidden or not as a whole; new hidden hexes while the side has some left;
        AFVs may not be deployed in hidden hexes."""
        own = [x for x in self.state.units_at(hex_id) if x.side == u.side]
        is_hidden_hex = self.state.hidden_hexes.get(hex_id) == u.side and any(x.hidden for x in own)
        if not hidden:
            return not is_hidden_hex
        if u.is_afv:
            return False
        if is_hidden_hex:
            return True
        return not own and self._hidden_hexes_left(u.side) > 0

    def _place_hidden(self, u: Unit, hex_id: str) -> None:
        u.hidden = True
        if hex_id not in self.state.hidden_hexes:
            self.state.hidden_hexes[hex_id] = u.side
            self._event("hidden_hex", rule="24.21", side=u.side, secret=True, hex=hex_id)

    # ================================================================== reveals
    def _reveal(self, units: list[Unit], rule: str, why: str) -> list[Unit]:
        units = [u for u in units if u.hidden]
        if not units:
            return []
        for u in units:
            u.hidden = False
        by_hex: dict[str, list[str]] = {}
        for u in units:
            by_hex.setdefault(u.hex, []).append(u.id)
        for h, ids in sorted(by_hex.items(), key=lambda kv: kv[0] or ""):
            self._event("revealed", rule=rule, side=units[0].side, hex=h, units=sorted(ids), reason=why)
            self._update_control(h)
        return units

    def _reveal_hex(self, hex_id: str, rule: str, why: str) -> list[Unit]:
        """All hidden units in ``hex_id`` are placed on the map."""
        return self._reveal(self._hidden_at(hex_id), rule, why)

    def _reveal_actions(self, side: str) -> list[Action]:
        """24.22: the owner may reveal a hidden hex whenever he decides (not during a move or an
        opportunity fire window)."""
        return [RevealHidden(h) for h in self.hidden_hexes_of(side)]

    def _voluntary_reveal(self, a: RevealHidden, side: str, rule: str = "24.22") -> None:
        if a.hex not in self.hidden_hexes_of(side):
            raise IllegalAction(rule, f"{a.hex} is not one of your hidden hexes")
        self._reveal(self._hidden_at(a.hex, side), rule, "voluntarily revealed by the owner")

    def _reveal_firers(self, a: Action, side: str | None) -> list[Unit]:
        """24.22: a hidden unit that fires (or attempts to: 4.0) is revealed, and only it. Called
        before the fire is resolved; returns the units revealed (``apply`` hides them again when
        the action turns out illegal)."""
        if a.kind not in _FIRE_KINDS and not hasattr(a, "firers"):
            return []
        ids: list[str] = []
        for f in ("firers", "thrower", "unit"):
            v = getattr(a, f, None)
            if isinstance(v, str):
                ids.append(v)
            elif isinstance(v, tuple):
                ids.extend(x for x in v if isinstance(x, str))
        us = [self.state.units[x] for x in ids if x in self.state.units]
        return self._reveal([u for u in us if u.hidden and u.side == side], "24.22", "fired")

    def _reveal_fired_unit(self, u: Unit) -> None:
        """For fire the engine triggers by itself (no action names the firer): 24.22."""
        if u.hidden:
            self._reveal([u], "24.22", "fired")

    # ---------------------------------------------------------------- movement (24.22, 24.23)
    def _hidden_entry_blocked(self, a: Action) -> bool:
        """24.23: an enemy unit about to enter a hex with hidden units: they are placed on the map
        at once. The move into the hex does not happen (8.23: it is now enemy-occupied); the group
        keeps its MPs and may go on elsewhere or stop. An Overrun (9.0) goes on against all the
        units now on the map if it is still legal. Returns True when the action is used up."""
        if self.moving is None or a.kind not in ("step", "enter", "overrun"):
            return False
        group = self._group()
        if not group:
            return False
        side = group[0].side
        hidden = [u for u in self._hidden_at(a.hex) if u.side != side]
        if not hidden or a not in self._move_actions():
            return False
        self._reveal(hidden, "24.23", f"enemy unit about to enter {a.hex}")
        if a.kind == "overrun" and a in self._move_actions():
            return False
        self._event("entry_prevented", rule="24.23", units=[u.id for u in group], hex=a.hex,
                    reason="the hex holds enemy units (8.23)")
        return True

    def _reveal_on_move(self, frm: str | None, to: str) -> None:
        """24.22: any unit moving into or out of a hidden hex reveals all units in it."""
        if frm is not None:
            self._reveal_hex(frm, "24.22", "a unit moved out of the hidden hex")
        self._reveal_hex(to, "24.22", "a unit moved into the hidden hex")

    # ---------------------------------------------------------------- morale phase (24.22)
    def _morale_phase_reveals(self) -> None:
        """24.22: a NORMAL enemy unit beginning the Morale Phase adjacent to a hidden hex reveals all
        units in it (checked at the start of every Morale Phase, before 7.0)."""
        for h in sorted({u.hex for u in self.state.units.values() if u.hidden and u.on_map}):
            owner = self._hidden_at(h)[0].side
            for e in sorted(self.state.units_of(other_side(owner)), key=lambda x: x.id):
                if e.on_map and e.morale is Morale.NORMAL and _adjacent(e.hex, h):
                    self._reveal_hex(h, "24.22", f"NORMAL enemy unit {e.id} adjacent at the Morale Phase")
                    break

    # ---------------------------------------------------------------- assault (24.23)
    def _unconceal_for_assault(self, target: str, side: str) -> list[Unit]:
        """24.23: an assault designated on what turns out to be a hidden hex: the hidden defenders
        fight it; they are placed on the map when it is resolved (:meth:`_reveal_after_assault`)."""
        hidden = [u for u in self._hidden_at(target) if u.side != side]
        for u in hidden:
            u.hidden = False
        return hidden

    def _reveal_after_assault(self, target: str, concealed: list[Unit], origin: str | None,
                              moved_in: list[Unit]) -> None:
        if concealed:
            ids = sorted(u.id for u in concealed)
            self._event("revealed", rule="24.23", side=concealed[0].side, hex=target, units=ids,
                        reason="the assaulted hex was a hidden hex (revealed after the assault)")
        if moved_in and origin is not None:
            self._reveal(moved_in, "24.22", "assaulted out of the hidden hex")
            self._reveal_hex(origin, "24.22", "a unit moved out of the hidden hex (assault)")

    # ---------------------------------------------------------------- set-up into an enemy hidden hex
    def _hidden_setup_blocked(self, side: str, hex_id: str) -> bool:
        """A unit placed at set-up into a hex with the opponent's hidden units: 24.23 (about to
        enter): they are revealed and the placement does not happen (choose again)."""
        hidden = [u for u in self._hidden_at(hex_id) if u.side != side]
        if not hidden:
            return False
        self._reveal(hidden, "24.23", f"enemy unit about to be placed in {hex_id}")
        self._event("placement_prevented", rule="24.23", side=side, hex=hex_id)
        return True

    # ================================================================== views
    def _hide_in_view(self, snap: dict, side: str) -> dict:
        """Remove from ``snap`` (a state snapshot) what ``side`` may not know of hidden hexes."""
        opp_hidden = {u.id: u.hex for u in self.state.units.values() if u.side != side and u.hidden}
        snap["units"] = {k: v for k, v in snap["units"].items() if k not in opp_hidden}
        secret_hexes = set(opp_hidden.values())
        # the set-up control of a hex held only by hidden units would give it away
        snap["control"] = {h: s for h, s in snap["control"].items() if not (h in secret_hexes and s != side)}
        snap["hidden_hexes"] = {h: s for h, s in snap.get("hidden_hexes", {}).items()
                                if s == side or h not in secret_hexes}
        return snap
