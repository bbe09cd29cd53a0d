"""Behaviour settings of the Red Flags and Iron Crosses heuristic player (:mod:`core.redflags.players`).

Every number the heuristic carries that says *how* it plays, not what the rules are, as one named,
range-checked field: chosen on the command line (``--ai german=heuristic:aggression=0.7`` or
``@settings.json``), searched by ``ironcross tune`` and by the robust balance verdict
(``ironcross playtest --robust``). The defaults are the heuristic's long-standing values (each
setting multiplies a term by 1.0 or stands where the same constant stood), except ``aggression``:
2.5 for the attacker since paired games on seeds the tuning never saw showed it gains 25.5 points
with it; and the defender's own weights (``defend_aggression`` 0.11, ``defend_cover`` 0.08,
``defend_fire_position`` 0.3, ``defend_self_preservation`` 0.42: a defender that holds its ground)
since paired games on fresh seeds showed the tuned defender's gain lies in them (docs/ai.md). Parsing, validation and error messages are the
system-neutral ones of :mod:`core.behaviour_settings`; each field's meaning is also in
``docs/ai.md`` ("Red Flags and Iron Crosses").
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["RedFlagsSettings", "SEARCH_SPACE"]


class RedFlagsSettings(BaseModel):
    """How the Red Flags heuristic plays (every default: the heuristic's original value). Scores are
    in unit values (a figure about 1, :func:`core.redflags.players.unit_value`)."""

    model_config = ConfigDict(extra="forbid", frozen=True, validate_assignment=True)

    # -- movement and positions -----------------------------------------------------------------
    aggression: float = Field(2.5, ge=0.0, le=10.0, description=(
        "progress toward the objective hexes: multiplier of what each hex of distance from the nearest "
        "objective not held costs a position (the attacker's clock, rising to the last turn, and the "
        "defender's pull; 0 = ignore the objectives' distance, 10 = rush them; 2.5 since paired games "
        "showed the attacker too slow at 1, docs/ai.md)"))
    defend_aggression: float = Field(0.11, ge=0.0, le=4.0, description=(
        "for the defender (the side holding the objectives at the start): multiplier of aggression "
        "(0.11 x 2.5 = 0.275 since paired games showed the defender gains holding its ground; 0.4 x "
        "2.5 = 1 before, the pull its distance term always had)"))
    hold_objective: float = Field(1.0, ge=0.0, le=4.0, description=(
        "multiplier of the value of standing on an objective hex (3 unit values not held, 2.5 held by an "
        "attacker, 3 held by a defender, an attacker's 0.5 more)"))
    self_preservation: float = Field(1.0, ge=0.0, le=4.0, description=(
        "multiplier of the enemy fire a position invites (the expected value the enemy could take from "
        "the unit there, half weight each) when choosing where to move or set up (0 = ignore danger)"))
    defend_self_preservation: float = Field(0.42, ge=0.0, le=4.0, description=(
        "for the defender: multiplier of self_preservation (0.42 since paired games, docs/ai.md; 1: as "
        "the attacker weighs it)"))
    cover: float = Field(0.6, ge=0.0, le=4.0, description=(
        "unit values a hex with cover is worth to infantry and guns"))
    defend_cover: float = Field(0.08, ge=0.0, le=4.0, description=(
        "for the defender: multiplier of cover (0.08 x 0.6 = 0.048 since paired games, docs/ai.md; 1: as "
        "the attacker values it)"))
    dug_in_stay: float = Field(1.0, ge=0.0, le=4.0, description=(
        "unit values a dug-in unit's own hex is worth to it (staying keeps the dug-in status)"))
    fire_position: float = Field(1.0, ge=0.0, le=4.0, description=(
        "multiplier of the better fire a move gives a unit that has not fired (its best target's "
        "expected value from there over from here)"))
    defend_fire_position: float = Field(0.3, ge=0.0, le=4.0, description=(
        "for the defender: multiplier of fire_position (0.3 since paired games, docs/ai.md; 1: as the "
        "attacker weighs it)"))
    crowd_cost: float = Field(0.4, ge=0.0, le=4.0, description=(
        "unit values a move pays per other own unit (commanders aside) in the hex it enters "
        "(artillery hits every unit of a hex)"))
    defend_crowd_cost: float = Field(1.0, ge=0.0, le=10.0, description=(
        "for the defender: multiplier of crowd_cost (1: as the attacker prices it)"))
    setup_crowd_cost: float = Field(0.5, ge=0.0, le=4.0, description=(
        "unit values a set-up hex pays per own unit (commanders aside) already placed in it (artillery "
        "hits every unit of a hex)"))
    defend_setup_crowd_cost: float = Field(8.0, ge=0.0, le=10.0, description=(
        "for the defender: multiplier of setup_crowd_cost (8 since paired games, docs/ai.md: 4 unit values "
        "a unit already placed, about one combat unit a hex; 1: as the attacker prices it)"))
    # -- fire -----------------------------------------------------------------------------------
    return_fire_caution: float = Field(0.7, ge=0.0, le=4.0, description=(
        "weight of the return fire a shot invites (the target's expected fire back, halved when the "
        "target shoots first) against the shot's expected value"))
    charge_cost: float = Field(0.6, ge=0.0, le=4.0, description=(
        "fire discipline: unit values a shot with special charges pays per charge the unit has (they "
        "are gone for good)"))
    air_attack_threshold: float = Field(0.3, ge=0.0, le=4.0, description=(
        "the expected value an aircraft's bombing or strafing run must reach before it attacks"))


#: Settings ``ironcross tune`` searches (name -> (low, high, log scale)); the others keep their value.
SEARCH_SPACE: dict[str, tuple[float, float, bool]] = {
    "aggression": (0.5, 8.0, True),
    "defend_aggression": (0.05, 2.0, True),
    "defend_self_preservation": (0.1, 4.0, True),
    "defend_cover": (0.02, 4.0, True),
    "defend_fire_position": (0.05, 3.0, True),
    "hold_objective": (0.25, 4.0, True),
    "self_preservation": (0.25, 4.0, True),
    "cover": (0.0, 2.0, False),
    "fire_position": (0.0, 3.0, False),
    "crowd_cost": (0.0, 1.5, False),
    "defend_crowd_cost": (0.25, 10.0, True),
    "defend_setup_crowd_cost": (0.25, 10.0, True),
    "return_fire_caution": (0.0, 2.0, False),
    "charge_cost": (0.1, 3.0, True),
}
