"""Ammo depletion (22.0, advanced rules). A mixin of :class:`core.ironcross.game.Game`.

The scenario's ammo point number (24.1 "(10)") is on ``Unit.ammo`` for each LMG man of the squad and
for each CW that has one (:mod:`core.ironcross.scenario_setup`); ``None`` means unlimited ammo. Only
with ``rules="advanced"`` does it deplete (22.0: under the basic rules only grenades deplete).

* 22.1 a point is spent only when the unit actually fires: after its fire PC passed (a failed PC
  costs nothing); out of ammo (0 points) it may fire no more in the game; there is no resupply.
* 22.2 costs: MG DF 1, DF with Intensive Fire 3, SP 1 for one hex and 2 in all when it attacks several
  hexes, FL 2 whatever the number of hexes; ATR 1; mortar 1 per round; ATG 1; any other unit that
  carries an ammo number 1 per fire combat (e.g. a flamethrower with its own number in an "ONLY"
  list, Scenario 4's "FT PR9 (4)": 1 per flame attack).
* Our reading: an attack whose cost exceeds the points left is not allowed (Intensive Fire needs 3,
  FL needs 2; an SP fire with 1 point left may attack only one hex), so ammo never goes negative.
"""

from __future__ import annotations

from core.ironcross.state import Unit

__all__ = ["AmmoRules", "fire_cost"]


def fire_cost(u: Unit, *, intensive: bool = False) -> int:
    """22.2 points for one DF/AT fire combat (FL and SP are costed in :mod:`.mg_modes`)."""
    if u.is_mg and intensive:
        return 3
    return 1


class AmmoRules:
    """22.0 ammo depletion."""

    @property
    def advanced(self) -> bool:
        return getattr(self, "rules", "basic") == "advanced"

    def _ammo_tracked(self, u: Unit) -> bool:
        """22.0: only under the advanced rules, only units with an ammo number."""
        return self.advanced and u.ammo is not None

    def _has_ammo(self, u: Unit, points: int = 1) -> bool:
        """22.1: may ``u`` spend ``points`` now (always true for untracked units)?"""
        return not self._ammo_tracked(u) or u.ammo >= points

    def _spend_ammo(self, u: Unit, points: int, why: str) -> None:
        """22.1/22.3: mark off ``points`` boxes (never below zero: callers check first)."""
        if not self._ammo_tracked(u) or points <= 0:
            return
        if u.ammo < points:  # pragma: no cover - every caller checks _has_ammo first
            raise AssertionError(f"22.1: {u.id} has {u.ammo} ammo points, {points} needed")
        u.ammo -= points
        self._event("ammo", rule="22.2", unit=u.id, spent=points, left=u.ammo, purpose=why)
        if u.ammo == 0:
            self._event("out_of_ammo", rule="22.1", unit=u.id)
