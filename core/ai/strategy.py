"""The heuristic AI's strategy (issue 14): its posture and goals, from the victory conditions,
re-planned every Player Turn. A mixin of :class:`core.ai.heuristic.HeuristicPlayer`.

* **Posture.** The scenario's victory conditions are evaluated on the position as this side sees
  it (``PlayerView.outcome``: own units, the enemy units it may see, hex control). A side the
  conditions name the winner now **holds** (posture ``"defend"``); any other side **attacks**
  (``"attack"``): a side that is behind, or level (a draw), must change the position. During the
  set-up the position is hypothetical: own units on the own objective hexes of the set-up zone,
  the enemy as placed so far (the side that sets up second sees the first).
* **Goals.** From ``view.objectives`` (derived from the victory regions, never from scenario
  code): the hexes of the small "occupy" regions (or of a large one the side has not entered),
  the enemy-held hexes of the "clear" regions (to attack; a lost objective hex becomes one), and,
  when a small "clear" region holds no enemy, its hexes (to keep the enemy out by being there).
  The influence maps measure hex and MP distances from these goals (``InfluenceMaps.set_goals``).
"""

from __future__ import annotations

from core.ai.influence import bfs_distance
from core.ironcross.state import Phase

__all__ = ["StrategyMixin", "SMALL_REGION"]

#: a region of at most this many hexes is a place to stand on; a larger one (e.g. "south of the
#: road") only says where the side must be or must not be
SMALL_REGION = 40


class StrategyMixin:
    """Posture and goals per Player Turn."""

    def _replan(self, view) -> None:
        """Recompute posture and goals when a new Player Turn (or the set-up) begins."""
        setup = view.phase is Phase.SETUP
        key = ("setup",) if setup else (view.player_turn,)
        if getattr(self, "_plan_key", None) == key:
            return
        self._plan_key = key
        if getattr(self, "_enemy_dist", None) is None:
            src = set(view.setup_zones(view.enemy)) | set(view.entry_hexes(view.enemy))
            self._enemy_dist = bfs_distance(view, src) if src else {}
        small = [o for o in view.objectives if len(o["hexes"]) <= SMALL_REGION]
        self._small_hexes = {h for o in small for h in o["hexes"]}
        self.outcome_now = self._outcome_now(view, setup)
        # with nothing to win (no objectives) there is nothing to attack for
        self.posture = "defend" if (self.outcome_now == view.side or not view.objectives) else "attack"
        goal, attack, guard = self._goals(view)
        self.maps.set_goals(view, goal, attack, guard)

    def _outcome_now(self, view, setup: bool) -> str:
        """The result if the game ended now (during the set-up: with own units on the own
        objective hexes of the set-up zone)."""
        placed = None
        if setup:
            zone = set(view.setup_zones())
            want = sorted({h for o in view.objectives if o["goal"] == "occupy" for h in o["hexes"]} & zone)
            pending = sorted(u.id for u in view.own_units(on_map=False)
                             if u.hex is None and not u.eliminated and view.entry_of(u.id) is None)
            if want and pending:
                placed = {uid: want[i % len(want)] for i, uid in enumerate(pending)}
        return view.outcome(placed)[0]

    def _goals(self, view) -> tuple[set[str], set[str], set[str]]:
        """(hexes to occupy, enemy-held hexes to clear, own-held objective hexes to keep)."""
        enemy_hexes = {e.hex for e in view.enemy_units()}
        own_hexes = {u.hex for u in view.own_units()}
        goal: set[str] = set()
        attack: set[str] = set()
        guard: set[str] = set()
        for o in view.objectives:
            region = set(o["hexes"])
            small = len(region) <= SMALL_REGION
            if o["goal"] == "clear":
                held = region & enemy_hexes
                if held:
                    attack |= held
                elif small:
                    guard |= region
            else:
                if small:
                    goal |= region - enemy_hexes
                    attack |= region & enemy_hexes
                elif not region & own_hexes:
                    goal |= region - enemy_hexes
        guard |= goal & own_hexes
        return goal, attack, guard
