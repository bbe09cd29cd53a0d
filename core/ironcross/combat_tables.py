"""Combat arithmetic of Iron Cross: pure functions over numbers, each citing its rule.

AP firepower and its reductions (11.1, 11.2, 11.16), result levels (11.42), AP results (11.43,
11.44), the Cumulative Combat Results Table (11.45), AT results (12.3), the Intensive MG Fire
table (11.15), the grenade and flamethrower tables (15.6, 16.0), the mortar scatter table (14.3)
and the infiltration table (24.3). Exact probabilities of the dice are here too, for the AI.
"""

from __future__ import annotations

import math
from enum import Enum
from functools import lru_cache

__all__ = [
    "ApResult",
    "attenuated",
    "result_levels",
    "ap_result",
    "cumulative",
    "CumulativeOutcome",
    "at_destroys",
    "intensive_fire_effect",
    "grenade_result",
    "flamethrower_result",
    "scatter_result",
    "infiltration_result",
    "ap_mine_result",
    "infiltration_pr_modifier",
    "infiltration_distance_modifier",
    "dice_total_distribution",
    "ap_result_probabilities",
]


class ApResult(str, Enum):
    """Levels of AP combat results (11.4), from worst for the target down."""

    ELIMINATED = "E"
    SUPPRESSED = "S"
    PINNED = "P"
    NO_EFFECT = "NE"


def attenuated(factor: int, initial_range: int, rng: int) -> int:
    """A unit's factor at range ``rng`` (11.2): full within its initial range, then one less for
    each further multiple (or fraction) of the initial range; never below zero.

    11.22 example: AP 4, range 7 -> 4 at 1-7 hexes, 3 at 8-14, 2 at 15-21.
    """
    if initial_range <= 0:
        raise ValueError("initial range must be positive")
    if rng <= initial_range:
        return factor
    return max(0, factor - (math.ceil(rng / initial_range) - 1))


def result_levels(firepower: int) -> tuple[int, int, int]:
    """(P, S, E) levels for a final AP firepower total (11.42): P = total, S = P/2 rounded up,
    E = S/2 rounded up. 11.43 example: 8 -> (8, 4, 2). A total of 0 or less gives (0, 0, 0)."""
    if firepower <= 0:
        return (0, 0, 0)
    p = firepower
    s = math.ceil(p / 2)
    e = math.ceil(s / 2)
    return (p, s, e)


def ap_result(firepower: int, dice: tuple[int, ...]) -> ApResult:
    """The AP result of a roll (11.43), with all 1s on two or more dice eliminating (11.44)."""
    if len(dice) > 1 and all(d == 1 for d in dice):
        return ApResult.ELIMINATED
    p, s, e = result_levels(firepower)
    total = sum(dice)
    if total <= e:
        return ApResult.ELIMINATED
    if total <= s:
        return ApResult.SUPPRESSED
    if total <= p:
        return ApResult.PINNED
    return ApResult.NO_EFFECT


class CumulativeOutcome(str, Enum):
    """What the Cumulative Combat Results Table gives (11.45)."""

    PINNED = "P"
    SUPPRESSED = "S"
    SPECIAL_ROLL = "special"


def cumulative(before: str, result: ApResult) -> CumulativeOutcome | None:
    """The Cumulative Combat Results Table: ``before`` is "NORMAL", "PINNED" or "SUPPRESSED";
    ``result`` a P or S result. Returns the new status (or the special roll), None for no change.

    Pinned+Pinned -> Suppressed; Pinned+Suppressed -> Suppressed; Suppressed+Pinned -> Suppressed;
    Suppressed+Suppressed -> Special Roll (a PC: fail = eliminated, pass = stays SUPPRESSED).
    """
    if result not in (ApResult.PINNED, ApResult.SUPPRESSED):
        return None
    if before == "NORMAL":
        return CumulativeOutcome.PINNED if result is ApResult.PINNED else CumulativeOutcome.SUPPRESSED
    if before == "PINNED":
        return CumulativeOutcome.SUPPRESSED
    if before == "SUPPRESSED":
        return CumulativeOutcome.SUPPRESSED if result is ApResult.PINNED else CumulativeOutcome.SPECIAL_ROLL
    raise ValueError(f"unknown morale status {before!r}")


def at_destroys(at_factor: int, dice: tuple[int, ...], armour: int, target_higher: bool) -> bool:
    """AT fire result (12.3): dice total + the target's frontal or flank armour modifier (+1 if the
    target is on a higher level) <= AT factor destroys; all 1s destroys with no modifiers (12.33)."""
    if len(dice) > 1 and all(d == 1 for d in dice):
        return True
    return sum(dice) + armour + (1 if target_higher else 0) <= at_factor


def intensive_fire_effect(total: int) -> tuple[str, int | None]:
    """Intensive MG Fire Effects (11.15) for a 2d6 total: (effect, player turns out of action
    after this one: 1 jammed, 2 major malfunction, None broken for the game, 0 no effect)."""
    if total in (6, 8):
        return ("no effect", 0)
    if total in (5, 9):
        return ("major malfunction", 2)
    if total == 7:
        return ("broken", None)
    return ("jammed", 1)


def grenade_result(die: int, building: bool) -> ApResult:
    """Grenade Combat Table (15.6): building target 1 E, 2-3 S, 4-5 P, 6 NE; otherwise 1 E, 2 S,
    3-4 P, 5-6 NE."""
    if building:
        table = {1: "E", 2: "S", 3: "S", 4: "P", 5: "P", 6: "NE"}
    else:
        table = {1: "E", 2: "S", 3: "P", 4: "P", 5: "NE", 6: "NE"}
    return ApResult(table[die])


def flamethrower_result(total: int, rng: int) -> ApResult:
    """Flamethrower Combat Table (16.0): range 1: 2-8 E, 9-12 S; range 2: 2-6 E, 7-12 S."""
    if rng == 1:
        return ApResult.ELIMINATED if total <= 8 else ApResult.SUPPRESSED
    if rng == 2:
        return ApResult.ELIMINATED if total <= 6 else ApResult.SUPPRESSED
    raise ValueError("flamethrowers reach 1 or 2 hexes")


def scatter_result(modified_die: int) -> int:
    """Mortar Round Scatter Table (14.3): the die, modified and clamped to 1-6, gives 0 (T: hits
    the target hex), 1 (S1) or 2 (S2) hexes of scatter."""
    d = min(6, max(1, modified_die))
    return 0 if d <= 3 else 1 if d <= 5 else 2


def infiltration_pr_modifier(best_pr: int) -> int:
    """Infiltration table (24.3): best PR in the infiltrating squad: <=8 0, 9 -1, 10 -2, 11 -3."""
    return 0 if best_pr <= 8 else -min(3, best_pr - 8)


def infiltration_distance_modifier(hexes: int) -> int:
    """Infiltration table (24.3): distance to the closest on-map German unit (the infiltration hex
    not counted, the German's counted): 1 +6, 2 +5, ... 6 +1, 7+ 0."""
    return max(0, 7 - hexes) if hexes >= 1 else 6


def infiltration_result(modified: int) -> str:
    """Infiltration Resolution Table (24.3): <1 SN; 1-2 SS; 3-4 SP; 5 F0; 6-7 F1; 8-9 F2; 10+ F3."""
    if modified < 1:
        return "SN"
    if modified <= 2:
        return "SS"
    if modified <= 4:
        return "SP"
    if modified == 5:
        return "F0"
    if modified <= 7:
        return "F1"
    if modified <= 9:
        return "F2"
    return "F3"


@lru_cache(maxsize=64)
def dice_total_distribution(n: int) -> tuple[float, ...]:
    """P(total == t) for t = 0 .. 6n on n six-sided dice (exact, as floats)."""
    dist = [1.0]
    for _ in range(n):
        new = [0.0] * (len(dist) + 6)
        for t, p in enumerate(dist):
            if p:
                for d in range(1, 7):
                    new[t + d] += p / 6
        dist = new
    return tuple(dist[: 6 * n + 1])


def ap_result_probabilities(firepower: int, n_dice: int) -> dict[ApResult, float]:
    """Exact probabilities of E, S, P and no effect for an AP attack (11.42-11.44)."""
    dist = dice_total_distribution(n_dice)
    p, s, e = result_levels(firepower)
    all_ones = (1 / 6) ** n_dice if n_dice > 1 else 0.0
    out = {r: 0.0 for r in ApResult}
    for t, pr in enumerate(dist):
        if pr == 0:
            continue
        if t <= e:
            out[ApResult.ELIMINATED] += pr
        elif t <= s:
            out[ApResult.SUPPRESSED] += pr
        elif t <= p:
            out[ApResult.PINNED] += pr
        else:
            out[ApResult.NO_EFFECT] += pr
    if n_dice > 1 and e < n_dice:  # all 1s (total n) eliminates even when above the E level
        for r in (ApResult.SUPPRESSED, ApResult.PINNED, ApResult.NO_EFFECT):
            lo = {ApResult.SUPPRESSED: e, ApResult.PINNED: s, ApResult.NO_EFFECT: p}[r]
            hi = {ApResult.SUPPRESSED: s, ApResult.PINNED: p, ApResult.NO_EFFECT: 10**6}[r]
            if lo < n_dice <= hi:
                out[r] -= all_ones
                out[ApResult.ELIMINATED] += all_ones
    return out


def ap_mine_result(die: int, factors: int) -> ApResult:
    """19.24: one die <= 1/4 of the AP factors eliminated, <= 1/2 SUPPRESSED, <= all PINNED,
    otherwise no effect (fractions rounded up)."""
    q, h = -(-factors // 4), -(-factors // 2)
    if die <= q:
        return ApResult.ELIMINATED
    if die <= h:
        return ApResult.SUPPRESSED
    if die <= factors:
        return ApResult.PINNED
    return ApResult.NO_EFFECT
