"""A designer's fixed set-up played by any Iron Cross player (the editor's "use this set-up",
``ironcross playtest --setup FILE``): :class:`FixedSetupPlayer`.

Moved here from ``core.playtest`` with the rule-system boundary (``core.playtest.FixedSetupPlayer``
still names it for older imports); :data:`core.ironcross.system.SYSTEM` wraps the players in it
when the set-up is fixed (:func:`core.ironcross.scenario_setup.apply_fixed_setup`).
"""

from __future__ import annotations

__all__ = ["FixedSetupPlayer"]


class FixedSetupPlayer:
    """Wraps a player so that a designer's fixed set-up (``GameSetup.fixed``, see
    :func:`core.ironcross.scenario_setup.apply_fixed_setup`) is what gets placed: each fixed unit
    goes to its hex with its facing, UP/DOWN and hidden as the designer set it, the designer's
    mines go where he put them; the other set-up choices (units he did not place, IPs, mines left
    over) are the wrapped player's, kept out of the designer's hexes when it has a choice; the
    designer's IPs go in their hexes (18.1); a
    detachment (24.1 special option) never takes a unit the designer placed. After the set-up
    every decision is the wrapped player's."""

    def __init__(self, inner, fixed: dict, side: str):
        self.inner = inner
        self.name = getattr(inner, "name", "player")
        self.units = {k: v for k, v in (fixed.get("units") or {}).items()}
        self.hidden = {h for h, s in (fixed.get("hidden_hexes") or {}).items() if s == side}
        self.mines_left = {h: {"ap": int(m.get("ap", 0)), "at": int(m.get("at", 0))}
                           for h, m in (fixed.get("mines") or {}).items() if m.get("side") == side}
        self.ips = {h: int(i["points"]) for h, i in (fixed.get("ips") or {}).items() if i.get("side") == side}
        self.fixed_hexes = {v["hex"] for v in self.units.values()} | self.hidden | set(self.mines_left) | set(self.ips)

    def designers_choice(self, view, side: str, actions):
        """The set-up decision at hand when the designer's set-up settles it (24.1: a unit, mine
        factors or a hidden hex he placed) -- what the editor's Hot-seat lets it decide for a
        human side too; None when the decision is the side's own (a unit he did not place, mines
        left over) or no set-up placement is at hand."""
        places = [a for a in actions if getattr(a, "kind", "") == "place"]
        if not places or getattr(view.phase, "value", view.phase) != "setup":
            return None
        what = places[0].unit
        if what.startswith(("AP-mines:", "AT-mines:")):
            key = "ap" if what.startswith("AP") else "at"
            if not any(int(a.unit.split(":")[1]) <= self.mines_left.get(a.hex, {}).get(key, 0) for a in places):
                return None
        elif what not in self.units:
            return None
        return self.choose(view, side, actions)

    def choose(self, view, side: str, actions):
        if any(getattr(a, "kind", "") == "detach" for a in actions):
            # 24.1 special option: a unit the designer placed stays with its group
            keep = [a for a in actions if getattr(a, "kind", "") != "detach" or not set(a.units) & set(self.units)]
            return self.inner.choose(view, side, keep)
        places = [a for a in actions if getattr(a, "kind", "") == "place"]
        if not places:
            return self.inner.choose(view, side, actions)
        what = places[0].unit
        if what.startswith(("AP-mines:", "AT-mines:")):
            key = "ap" if what.startswith("AP") else "at"
            best, best_n = None, 0
            for a in places:
                n = int(a.unit.split(":")[1])
                if n <= self.mines_left.get(a.hex, {}).get(key, 0) and n > best_n:
                    best, best_n = a, n
            if best is not None:
                self.mines_left[best.hex][key] -= best_n
                return best
            return self._free(view, side, actions)
        if what.startswith("IP"):
            # 18.1 the designer's IP (apply_fixed_setup narrowed its marker to its hex)
            mine = [a for a in places if self.ips.get(a.hex) == int(what[2:])]
            if mine:
                del self.ips[mine[0].hex]
                return mine[0]
            return self._free(view, side, actions)
        p = self.units.get(what)
        if p is None:
            return self._free(view, side, actions)
        here = [a for a in places if a.hex == p["hex"]]
        hidden = p["hex"] in self.hidden
        for ok in (lambda a: a.down == bool(p.get("down")) and a.facing == p.get("facing") and a.hidden == hidden,
                   lambda a: a.down == bool(p.get("down")) and a.facing == p.get("facing"),
                   lambda a: a.facing == p.get("facing"),
                   lambda a: True):
            match = [a for a in here if ok(a)]
            if match:
                return match[0]
        return self.inner.choose(view, side, actions)

    def _free(self, view, side: str, actions):
        keep = [a for a in actions if getattr(a, "kind", "") != "place"
                or (a.hex not in self.fixed_hexes and not getattr(a, "hidden", False))]
        if any(getattr(a, "kind", "") == "place" for a in keep):
            return self.inner.choose(view, side, keep)
        return self.inner.choose(view, side, actions)
