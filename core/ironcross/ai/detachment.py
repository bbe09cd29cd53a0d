"""The heuristic AI's choice of a scenario detachment (24.1 special options: Scenario 5 EXCEPTION,
Scenario 6 SPECIAL), from the data only.

For each possible pick (a squad, a commander, a CW, an AFV) it compares, per goal cluster of the
strategy (:mod:`core.ironcross.ai.strategy`, ``InfluenceMaps.goal_mp``), when the pick's units would get
there: from the group's own start (its set-up zone at Game Turn 0, or its entry edge from its entry
turn on) and from the detachment's entry (from its turn on), in Movement Phases at the units'
own rate (8.1). A pick is detached when the detachment brings it to some cluster at least
:data:`MIN_GAIN` Movement Phases sooner than the main body would (a flank entry nearer to goals the
main body reaches late) and in time for the game's end; the best gains first, within the limits.
A commander goes only with men to lead (a squad chosen or qualifying). No pick gains: the option
is not used.
"""

from __future__ import annotations

from core.ironcross.actions import Action, EndSetup

__all__ = ["choose_detachment", "MIN_GAIN"]

#: Movement Phases a pick must gain by the detachment's entry on its best goal cluster
MIN_GAIN = 1.0

_ORDER = {"squad": 0, "afv": 1, "crew_weapon": 2, "commander": 3}


def _rate(view, u) -> float:
    """MP per Movement Phase when NORMAL (8.11-8.14), as the strategy counts them."""
    from core.ironcross.ai.strategy import _mp_per_turn

    return _mp_per_turn(view, u)


def _arrival(maps, hexes, turn: int, afv: bool, rate: float, cluster: int) -> float:
    """Movement Phases until units starting at ``hexes`` reach goal cluster ``cluster``: a set-up
    zone (``turn`` 0) from the first Movement Phase, an entry from its turn (entering costs about
    one hex more, 24.1)."""
    mp = min((maps.goal_mp(h, afv, cluster) for h in hexes), default=60.0)
    if mp >= 60.0:
        return float("inf")
    if turn <= 0:
        return mp / rate
    return (turn - 1) + (mp + 1.0) / rate


def detachment_gains(ai, view, info: dict) -> dict[tuple[str, ...], tuple[float, str]]:
    """units of each offered pick -> (Movement Phases gained on the best goal cluster by the
    detachment's entry, the pick's limit kind); a pick that cannot move gains nothing (-inf)."""
    from core.ironcross.detachment import pick_kind

    maps = ai.maps
    clusters = list(getattr(maps, "clusters", None) or [])
    start, entry = info["group_start"], info["entry"]
    out: dict[tuple[str, ...], tuple[float, str]] = {}
    for units in info["offers"]:
        us = [view.unit(x) for x in units]
        us = [u for u in us if u is not None]
        if not us:
            continue
        kind = pick_kind(us[0])[0]
        rate = min(_rate(view, u) for u in us)
        afv = any(u.is_afv for u in us)
        best = float("-inf")
        if rate > 0:
            for i in range(len(clusters)):
                t_det = _arrival(maps, entry["hexes"], entry["turn"], afv, rate, i)
                if t_det > view.game_length:
                    continue  # the detachment would come too late for this goal anyway
                t_main = _arrival(maps, start["hexes"], start["turn"], afv, rate, i)
                best = max(best, min(t_main, 99.0) - t_det)
        out[tuple(units)] = (best, kind)
    return out


def choose_detachment(ai, view, actions: list[Action]) -> Action:
    """The next :class:`core.ironcross.actions.Detach` of the open detachment choice, or
    :class:`EndSetup` when no further pick gains :data:`MIN_GAIN` (see the module). ``ai``: the
    :class:`core.ironcross.ai.heuristic.HeuristicPlayer` (its strategy's goal clusters are set)."""
    info = view.detachment()
    picks = {tuple(a.units): a for a in actions if a.kind == "detach"}
    if info is None or not picks:
        return EndSetup()
    cache = ai.__dict__.setdefault("_detachment_gains", {})
    key = (info["name"], view.side)
    if key not in cache:
        cache[key] = detachment_gains(ai, view, info)
    gains = cache[key]
    good = [(g, kind, units) for units, (g, kind) in gains.items() if units in picks and g >= MIN_GAIN]
    chosen = [view.unit(x) for x in info["chosen"]]
    men = any(u is not None and u.is_infantry for u in chosen) or any(k == "squad" for _, k, _ in good)
    good = [x for x in good if x[1] != "commander" or men]
    if not good:
        return EndSetup()
    g, kind, units = min(good, key=lambda x: (-x[0], _ORDER.get(x[1], 9), x[2]))
    return picks[units]
