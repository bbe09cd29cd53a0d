"""The blunder report of a Red Flags game: choices a wargamer calls errors, read off the events and
the game state by the playtest runner, independent of the AI that played (any player is judged the
same way; docs/ai.md, "Blunder report").

The runner (:mod:`core.playtest`) asks the rule system for a watcher (``RuleSystem.blunder_watch``)
and calls :meth:`BlunderWatch.before` before every decision (the state, the deciding side and its
choice) and :meth:`BlunderWatch.after` after it (the events it logged); :meth:`BlunderWatch.finish`
gives ``{side: {kind: [item, ...]}}``, each item a JSON-ready dict with the turn (``turn``), the hex
and the units. The kinds and their definitions are :data:`KINDS`. Red Flags has no hidden units:
every enemy unit on the map is known to both sides.
"""

from __future__ import annotations

from typing import Any

from core.redflags.state import COMBAT_KINDS
from core.redflags.view import PlayerView

__all__ = ["KINDS", "BlunderWatch", "blunder_watch", "NEAR"]

#: how close (hexes) an enemy ground combat unit stands for leaving a hex to be a blunder: a move
#: of most ground units (the movement table: infantry 2-3 hexes), then fire at short range
NEAR = 4

#: kind -> its definition (docs/ai.md, "Blunder report": the Red Flags kinds)
KINDS: dict[str, str] = {
    "hit_together": "one artillery or bombing attack (general.artillery_hits: a hit on one unit in the hex is a "
                    "hit on every unit in it) hit two or more own combat units standing in one hex (commanders, "
                    "observers and transports aside)",
    "dug_in_left": f"an own combat unit that set up dug in (r.setup) left it by its own move, extension or contraction "
                   f"while an enemy ground combat unit stood within {NEAR} hexes of it",
    "objective_abandoned": f"a move leaves an objective hex the side's combat units stood in without any (r.control: "
                           f"the enemy takes it by standing in it alone) while an enemy ground combat unit stood "
                           f"within {NEAR} hexes of it",
}


def _combat(u) -> bool:
    """A ground combat unit in play on the map (r.control: commanders, observers, transports and
    aircraft do not count)."""
    return u.kind in COMBAT_KINDS and u.on_map and u.ground


class BlunderWatch:
    """Watches one Red Flags game (see the module)."""

    def __init__(self, game):
        self.found: dict[str, dict[str, list[dict]]] = {}
        self._side: str | None = None
        self._dug_in: dict[str, tuple[str, ...]] = {}   # the deciding side's dug-in units -> their hexes
        self._held: dict[str, list[str]] = {}           # objective hex -> the deciding side's combat units in it
        self._near: dict[str, list[str]] = {}           # hex -> enemy combat units within NEAR (asked lazily)
        self._enemies: list = []

    def _add(self, side: str, kind: str, **item: Any) -> None:
        self.found.setdefault(side, {}).setdefault(kind, []).append(item)

    def _enemies_near(self, hexes) -> list[str]:
        """Ids of the enemy ground combat units (as they stood before the decision) within NEAR
        hexes of any of ``hexes``, sorted."""
        out = set()
        for h in hexes:
            got = self._near.get(h)
            if got is None:
                got = self._near[h] = [e.uid for e in self._enemies if any(PlayerView.distance(h, x) <= NEAR for x in e.hexes)]
            out.update(got)
        return sorted(out)

    # ------------------------------------------------------------------ before a decision
    def before(self, game, side: str, action, legal) -> None:
        """Remember what the decision may give up: the side's dug-in units and the objective hexes
        its combat units stand in, with the enemy as it stands now."""
        self._side = side
        self._near = {}
        kind = getattr(action, "kind", None)
        if game.phase == "setup" or kind not in ("move", "extend", "contract"):
            self._dug_in, self._held, self._enemies = {}, {}, []
            return
        units = game.units.values()
        self._enemies = [u for u in units if u.side != side and _combat(u)]
        self._dug_in = {u.uid: tuple(u.hexes) for u in units if u.side == side and u.dug_in and _combat(u)}
        self._held = {}
        for h in game.objectives:
            mine = sorted(u.uid for u in game.units_in(h) if u.side == side and _combat(u))
            if mine:
                self._held[h] = mine

    # ------------------------------------------------------------------ after a decision
    def after(self, game, events: list[dict]) -> None:
        """Read the events the decision logged, with the state after it."""
        side = self._side
        for e in events:
            if e.get("kind") != "fire" or e.get("rule") != "general.artillery_hits":
                continue
            hit = [game.units[x] for x, n in (e.get("hits") or {}).items() if n and x in game.units]
            by_side: dict[str, list[str]] = {}
            for u in hit:
                if u.kind in COMBAT_KINDS and u.ground:
                    by_side.setdefault(u.side, []).append(u.uid)
            for s, uids in sorted(by_side.items()):
                if len(uids) >= 2:
                    self._add(s, "hit_together", turn=game.turn, hex=e.get("hex"), units=sorted(uids),
                              by=e.get("unit"))
        if side is None or not (self._dug_in or self._held):
            return
        for uid, hexes in self._dug_in.items():
            u = game.units[uid]
            if not u.dug_in and u.in_play:
                near = self._enemies_near(hexes)
                if near:
                    self._add(side, "dug_in_left", turn=game.turn, hex=hexes[0], units=[uid], enemies=near)
        for h, before in self._held.items():
            if any(u.side == side and _combat(u) for u in game.units_in(h)):
                continue
            gone = [x for x in before if game.units[x].in_play]  # moved away, not lost
            near = self._enemies_near([h]) if gone else []
            if near:
                self._add(side, "objective_abandoned", turn=game.turn, hex=h, units=gone, enemies=near)
        self._dug_in, self._held = {}, {}

    def finish(self, game) -> dict[str, dict[str, list[dict]]]:
        """``{side: {kind: [item, ...]}}`` of the whole game (kinds in :data:`KINDS` order)."""
        return {side: {k: kinds[k] for k in KINDS if k in kinds} for side, kinds in sorted(self.found.items())}


def blunder_watch(game) -> BlunderWatch:
    """The watcher of one game (``RuleSystem.blunder_watch``)."""
    return BlunderWatch(game)
