"""Behaviour settings of the 20 mm heuristic player (:mod:`core.twentymm.players`).

Every number the heuristic carries that says *how* it plays, not what the rules are, as one named,
range-checked field: chosen on the command line (``--ai german=heuristic:aggression=0.7`` or
``@settings.json``), searched by ``ironcross tune`` and by the robust balance verdict
(``ironcross playtest --robust``). The defaults are the heuristic's long-standing values (each
setting multiplies a term by 1.0 or stands where the same constant stood), except two measured in
paired games: the defender's cover (1 a step of better cover instead of 0.25) and counter-assault
odds (3.125 times the defenders' dice instead of 1.5), and the attacker's advance, cover and assault
odds (``aggression`` 2.5, ``cover`` 0.125, ``assault_ratio`` 1.25). The defender's own multipliers
(``defend_aggression`` 0.4, ``defend_cover`` 8, ``defend_assault_ratio`` 2.5) give its pull, cover
and odds (1, 1 and 3.125, exactly in binary floating point); where a scenario names no attacker,
both sides play with the attacker's values. Parsing, validation and
error messages are the system-neutral ones of :mod:`core.behaviour_settings`; each field's meaning
is also in ``docs/ai.md`` ("The 20 mm rules: behaviour settings").
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["TwentyMMSettings", "SEARCH_SPACE"]


class TwentyMMSettings(BaseModel):
    """How the 20 mm heuristic plays (every default: the heuristic's original value). Scores are in
    the heuristic's units (about one man killed)."""

    model_config = ConfigDict(extra="forbid", frozen=True, validate_assignment=True)

    aggression: float = Field(2.5, ge=0.0, le=4.0, description=(
        "the attacker's advance: multiplier of what each inch a move gains toward the nearest objective "
        "is worth (0.12 an inch for infantry, 0.06 for other units; 0 = ignore the objectives)"))
    defend_aggression: float = Field(0.4, ge=0.0, le=4.0, description=(
        "the defender's pull: multiplier of aggression for a defender more than 8 inches from the "
        "nearest objective (0.04 an inch gained toward it; 2.5 x 0.4 = 1, the defender's original pull)"))
    hold_objective: float = Field(1.0, ge=0.0, le=4.0, description=(
        "what a defender within 6 inches of an objective pays to move away from it"))
    cover: float = Field(0.125, ge=0.0, le=4.0, description=(
        "what a move gains per step of better ground cover at its end (none, soft, hard)"))
    defend_cover: float = Field(8.0, ge=0.0, le=16.0, description=(
        "for the defender: multiplier of cover (8 x 0.125 = 1 a step since paired games showed the "
        "defender gains with it, docs/ai.md; the attacker keeps cover alone: more cost it its advance)"))
    vehicle_caution: float = Field(0.5, ge=0.0, le=4.0, description=(
        "what a vehicle's move pays per known enemy anti-tank gun, anti-tank rifle or panzerfaust "
        "within 10 inches of its end"))
    hidden_discipline: float = Field(0.8, ge=0.0, le=4.0, description=(
        "what a hidden unit pays to end a move without ground cover"))
    assault_ratio: float = Field(1.25, ge=0.5, le=4.0, description=(
        "the assault dice a unit must have, as a multiple of the defenders', before it assaults"))
    defend_assault_ratio: float = Field(2.5, ge=0.25, le=4.0, description=(
        "for the defender: multiplier of assault_ratio (its own odds for a counter-assault, as "
        "defend_cover is of cover; 1.25 x 2.5 = 3.125 since paired games showed the defender gains "
        "with it, docs/ai.md: it waits for far better odds than the attacker)"))
    act_threshold: float = Field(0.05, ge=0.0, le=2.0, description=(
        "the least score an action needs before the heuristic takes it instead of ending its turn"))


#: Settings ``ironcross tune`` searches (name -> (low, high, log scale)); the others keep their value.
SEARCH_SPACE: dict[str, tuple[float, float, bool]] = {
    "aggression": (0.25, 4.0, True),
    "defend_aggression": (0.25, 4.0, True),
    "hold_objective": (0.0, 3.0, False),
    "cover": (0.0, 1.0, False),
    "defend_cover": (0.5, 8.0, True),
    "vehicle_caution": (0.0, 2.0, False),
    "hidden_discipline": (0.0, 2.0, False),
    "assault_ratio": (1.0, 3.0, False),
    "defend_assault_ratio": (0.5, 4.0, True),
}
