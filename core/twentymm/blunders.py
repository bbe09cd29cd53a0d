"""The blunder report of a 20 mm game: choices a wargamer calls errors, read off the events and the
game state by the playtest runner, independent of the AI that played (docs/ai.md, "Blunder
report"). The runner calls :meth:`BlunderWatch.before` before each decision, :meth:`BlunderWatch.after`
after it and :meth:`BlunderWatch.finish` at the end (``{side: {kind: [item, ...]}}``, each item with
the Game Turn ``turn``, the place in table inches ``at`` (and the hex under it) and the units).
"""

from __future__ import annotations

from typing import Any

from core.twentymm.model import other

__all__ = ["KINDS", "BlunderWatch", "blunder_watch", "NEAR_INCHES"]

#: how close (table inches) a known enemy unit stands for leaving an objective to be a blunder: about
#: two infantry moves
NEAR_INCHES = 12.0

#: kind -> its definition (docs/ai.md, "Blunder report": the 20 mm kinds)
KINDS: dict[str, str] = {
    "hidden_revealed_by_own_move": "an own hidden unit (Hidden Troops) revealed by its own move out of ground cover "
                                   "(Visibility and Spotting) before any enemy unit had spotted it",
    "objective_abandoned": f"a move takes the last own unit that holds an objective (infantry, vehicle or gun within "
                           f"its radius, and no enemy) out of its radius while an enemy unit the side knows of "
                           f"stood within {NEAR_INCHES:g} inches of it",
}


class BlunderWatch:
    """Watches one 20 mm game (see the module)."""

    def __init__(self, game):
        self.found: dict[str, dict[str, list[dict]]] = {}
        self._side: str | None = None
        self._unspotted: set[str] = set()        # the mover, when hidden and spotted by no enemy
        self._held: list[tuple[int, list[str]]] = []   # objectives the side holds -> enemies near
        self._mover: str | None = None

    def _add(self, side: str, kind: str, **item: Any) -> None:
        self.found.setdefault(side, {}).setdefault(kind, []).append(item)

    @staticmethod
    def _known_enemies(game, side: str) -> list:
        """Enemy units on the table that some own unit knows of (Hidden Troops)."""
        mine = game.living(side)
        return [e for e in game.living(other(side)) if game.on_table(e)
                and (not e.hidden or any(m.uid in e.known_by for m in mine))]

    def before(self, game, side: str, action, legal) -> None:
        """Remember what the decision's move may give up: the mover's cover from sight, and the
        objectives the side holds with an enemy near."""
        self._side, self._unspotted, self._held, self._mover = side, set(), [], None
        if type(action).__name__ != "Move" or not action.path:
            return
        u = game.units.get(action.uid)
        if u is None:
            return
        self._mover = u.uid
        if u.hidden and not u.known_by:
            self._unspotted = {u.uid}
        enemies = None
        for i, o in enumerate(game.setup.objectives):
            if game.holder(o) != side:
                continue
            if enemies is None:
                enemies = self._known_enemies(game, side)
            p = tuple(o["point"])
            near = sorted(e.uid for e in enemies if game.table.distance(e.pos, p) <= NEAR_INCHES)
            if near:
                self._held.append((i, near))

    def after(self, game, events: list[dict]) -> None:
        """Read the events the decision logged, with the state after it."""
        side = self._side
        if side is None or self._mover is None:
            return
        for e in events:
            if e.get("kind") == "revealed" and e.get("uid") in self._unspotted and e.get("why") == "moved out of cover":
                pos = tuple(e.get("pos") or ())
                self._add(side, "hidden_revealed_by_own_move", turn=game.game_turn, at=[round(x, 2) for x in pos],
                          hex=game.table.hex_at(pos).id if pos else None, units=[e["uid"]])
        for i, near in self._held:
            o = game.setup.objectives[i]
            if game.holder(o) is None and game.units[self._mover].alive:
                p = tuple(o["point"])
                self._add(side, "objective_abandoned", turn=game.game_turn, at=[round(x, 2) for x in p],
                          hex=game.table.hex_at(p).id, objective=o.get("name"), units=[self._mover], enemies=near)
        self._mover = None

    def finish(self, game) -> dict[str, dict[str, list[dict]]]:
        """``{side: {kind: [item, ...]}}`` of the whole game (kinds in :data:`KINDS` order)."""
        return {side: {k: kinds[k] for k in KINDS if k in kinds} for side, kinds in sorted(self.found.items())}


def blunder_watch(game) -> BlunderWatch:
    """The watcher of one game (``RuleSystem.blunder_watch``)."""
    return BlunderWatch(game)
