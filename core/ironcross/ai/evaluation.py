"""Expected effects of attacks, from the exact probabilities of the dice.

Pure functions over numbers and units: unit values, PC pass chances, the expected value of an AP
attack (``combat_tables.ap_result_probabilities``), of an AT shot, a grenade, a flamethrower and an
assault. Values are in "infantry-man equivalents": eliminating a rifleman is worth about 1.
"""

from __future__ import annotations

from functools import lru_cache

from core.ironcross import combat_tables as ct
from core.ironcross.state import Morale, Unit

__all__ = ["unit_value", "pc_pass", "ap_attack_value", "at_kill_probability", "grenade_value",
           "flame_value", "assault_odds"]


def unit_value(u: Unit) -> float:
    """What losing ``u`` costs its side."""
    if u.is_afv:
        return 6.0 + 0.5 * max(0, u.at - 8) + 0.2 * u.ap
    if u.is_cw:
        base = {"MMG": 3.0, "Mor": 2.5, "ATR": 2.0}.get(u.weapon, 3.0 if u.is_atg else 2.0)
        return base * (0.5 + 0.5 * (u.crew / max(1, u.crew_max)))
    if u.is_commander:
        return 2.0 + 0.15 * (u.pr - 8)
    v = 1.0 + 0.08 * (u.pr - 7) + 0.08 * u.ap
    if u.weapon == "LMG":
        v += 0.6
    if u.is_ft:
        v += 0.8
    if u.pr >= 9:
        v += 0.3  # an acting leader (5.2)
    return v


@lru_cache(maxsize=256)
def pc_pass(pr: int, modifier: int = 0) -> float:
    """P(2d6 + modifier <= pr) (4.0)."""
    dist = ct.dice_total_distribution(2)
    return sum(p for t, p in enumerate(dist) if t + modifier <= pr)


@lru_cache(maxsize=4096)
def _ap_probs(firepower: int, n: int) -> tuple[float, float, float]:
    pr = ct.ap_result_probabilities(firepower, n)
    return (pr[ct.ApResult.ELIMINATED], pr[ct.ApResult.SUPPRESSED], pr[ct.ApResult.PINNED])


def result_value(t: Unit, pe: float, ps: float, pp: float) -> float:
    """Expected loss of value of ``t`` for E/S/P probabilities, through the cumulative table (11.45)."""
    v = unit_value(t)
    if t.is_afv:
        return v * (0.45 * pe + 0.2 * ps)  # E: commander killed; P no effect on AFVs
    e_share = 0.65 if t.is_cw else 1.0  # CW: crew losses (11.43)
    if t.morale is Morale.NORMAL:
        return v * (e_share * pe + 0.45 * ps + 0.18 * pp)
    if t.morale is Morale.PINNED:
        return v * (e_share * pe + 0.3 * (ps + pp))
    special = 1.0 - pc_pass(t.pr)  # S on S: the special roll
    return v * (e_share * pe + special * ps * e_share + 0.02 * pp)


def ap_attack_value(firepower: int, targets: list[tuple[Unit, int]]) -> float:
    """Expected value of an AP attack of final ``firepower`` at ``targets`` ((unit, dice) each)."""
    if firepower <= 0:
        # only all 1s can still eliminate (11.44)
        return sum(result_value(t, (1 / 6) ** n if n > 1 else 0.0, 0.0, 0.0) for t, n in targets)
    out = 0.0
    for t, n in targets:
        pe, ps, pp = _ap_probs(firepower, n)
        out += result_value(t, pe, ps, pp)
    return out


def at_kill_probability(at: int, n_dice: int, armour: int, higher: bool) -> float:
    """P(destroy) of an AT shot (12.3): total + armour (+1 higher) <= AT, or all 1s (12.33)."""
    need = at - armour - (1 if higher else 0)
    dist = ct.dice_total_distribution(n_dice)
    p = sum(pr for t, pr in enumerate(dist) if t <= need)
    if need < n_dice:
        p += (1 / 6) ** n_dice
    return min(1.0, p)


def grenade_value(targets: list[Unit], building: bool) -> float:
    """Expected value of a thrown grenade (15.6): one die per non-AFV target."""
    if building:
        pe, ps, pp = 1 / 6, 2 / 6, 2 / 6
    else:
        pe, ps, pp = 1 / 6, 1 / 6, 2 / 6
    return sum(result_value(t, pe, ps, pp) for t in targets if not t.is_afv)


def flame_value(targets: list[Unit], rng: int) -> float:
    """Expected value of a flamethrower attack (16.0): 2d6, E up to 8 (range 1) / 6 (range 2), else S."""
    dist = ct.dice_total_distribution(2)
    lim = 8 if rng == 1 else 6
    pe = sum(p for t, p in enumerate(dist) if t <= lim)
    return sum(result_value(t, pe, 1 - pe, 0.0) for t in targets if not t.is_afv)


def assault_odds(attackers: list[Unit], defenders: list[Unit]) -> float:
    """A quick strength ratio of an assault (17.0): attackers' expected hits per round (their
    PCs, +1, counted) against the defenders' (NORMAL defenders fire first, 17.21 a). Above ~1.3
    the attacker is favoured; 0 without attackers; large with no defenders."""
    if not attackers:
        return 0.0
    leaders = [u for u in attackers if any(u.is_leader_for(o) for o in attackers if o is not u)]
    if leaders:
        ld = max(leaders, key=lambda x: (x.pr, x.is_commander, x.id))
        p_led = pc_pass(ld.pr, 1)
    else:
        ld, p_led = None, 0.0
    att = 0.0
    n_att = 0.0
    for u in attackers:
        p = p_led if ld is not None and (u is ld or ld.is_leader_for(u)) else pc_pass(u.pr, 1)
        att += p * u.assault / 6
        n_att += p
    deff = 0.0
    n_def = 0
    for d in defenders:
        if d.is_afv:
            continue
        w = 1.0 if d.morale is Morale.NORMAL else 0.8 if d.morale is Morale.PINNED else 0.6
        men = d.crew if d.is_cw else 1
        deff += w * max(d.assault, 1) / 6
        n_def += max(1, min(men, 1))
    if n_def == 0:
        return 10.0
    # strength ratio weighted by numbers (losses fall one unit per hit, 17.23)
    return (att * max(n_att, 0.1)) / max(1e-6, deff * n_def)


def overrun_outcome(afv: Unit, defenders: list[Unit], trees: int, ips: int, marsh: bool, higher: bool,
                    combined_men: int = 0) -> tuple[float, float]:
    """(expected value taken from the defenders, probability the AFV is destroyed) of an overrun
    (9.2): A) special AT fire by each NORMAL ATR/ATG in the hex at the frontal armour (a PC, then
    12.3); B) defensive infantry fire (skipped in a combined overrun, 9.32): the highest-PR NORMAL
    infantry unit's PC, then 3d6 <= men + trees + IPs + NORMAL commanders + 2 in marsh; C) per
    defender 2d6 + trees + IPs (+1 all PINNED/SUPPRESSED) <= overrun factor eliminates, else
    SUPPRESSED (in an IP hex NORMAL units only PINNED, 18.4). ``combined_men``: the accompanying
    infantry's men (9.3: they go in only with at least the defenders' men), who then assault the
    survivors at once (9.33), counted roughly."""
    live = [d for d in defenders if not d.eliminated and not d.is_afv]
    if not live:
        return (0.0, 0.0)
    p_live = 1.0
    for d in live:  # A
        if d.normal and (d.is_atr or d.is_atg) and d.at > 0 and (not d.is_atr or d.full_crew):
            n = 3 if d.moved else 2
            p_live *= 1.0 - pc_pass(d.pr) * at_kill_probability(d.at, n, afv.frontal, higher)
    combined = combined_men > 0 and combined_men >= sum(d.men for d in live)
    p_b = 0.0
    normal_inf = [d for d in live if d.is_infantry and d.normal]
    if normal_inf and not combined:  # B
        best = max(normal_inf, key=lambda d: (d.pr, d.id))
        men = sum(d.men for d in live if d.normal and (d.is_infantry or d.is_cw))
        comm = sum(1 for d in live if d.normal and d.is_commander)
        number = men + trees + ips + comm + (2 if marsh else 0)
        dist3 = ct.dice_total_distribution(3)
        p_b = pc_pass(best.pr) * sum(p for t, p in enumerate(dist3) if t <= number)
    p_c = p_live * (1.0 - p_b)  # the AFV survives to attack
    all_down = all(d.morale is not Morale.NORMAL for d in live)
    mod = trees + ips + (1 if all_down else 0)
    dist2 = ct.dice_total_distribution(2)
    pe = sum(p for t, p in enumerate(dist2) if t + mod <= afv.overrun)
    ev = 0.0
    for d in live:  # C
        if ips and d.morale is Morale.NORMAL:
            v = result_value(d, pe, 0.0, 1.0 - pe)
        else:
            v = result_value(d, pe, 1.0 - pe, 0.0)
        if combined:  # 9.33: the survivors, SUPPRESSED, face an immediate assault without PCs
            v += (1.0 - pe) * unit_value(d) * 0.5
        ev += v
    return (p_c * ev, 1.0 - p_c)


def overrun_blocked(view, h: str) -> bool:
    """Does a hex hold what no AFV may overrun (9.13): an enemy AFV, as this side sees it
    (``view.enemy_at``), or a wreck (``view.wrecks``)? ``h``: a hex id. The AI's overrun
    choices, plans and checks all ask this one question."""
    return any(e.is_afv for e in view.enemy_at(h)) or bool(view.wrecks.get(h))


__all__ += ["overrun_outcome", "overrun_blocked", "result_value"]
