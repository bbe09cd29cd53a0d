"""A balance answer that says when it depends on the AI: default against default, then each side
tuned against the other's defaults (:mod:`core.tuning`), on the same game seeds (paired games).

A side's **gain** from tuning is its share of wins with the tuned settings less its share with the
defaults, over the same seeds; its 95 % interval is the paired one (per-game differences, each -1,
0 or 1: mean +- 1.96 standard errors). The verdict:

* **robust** -- for both sides the whole interval of the gain lies within 10 points of 0: tuning
  either side does not move the shares by more than 10 points;
* **AI-dependent** -- for a side the whole interval lies above 10 points: the answer depends on the
  AI; the verdict names the side, its gain and the settings that moved;
* **undecided** -- neither (the intervals straddle 10 points): more games are needed to say. The
  text then says which way the point estimates lean (AI-dependent when a side's gain is above 10
  points, else robust) and about how many paired games would decide it: the interval's half-width
  shrinks as 1/sqrt(games), so with the same spread of the per-game differences it clears 10 points
  after ``games x (half-width / distance of the gain from 10)^2`` games (see :func:`games_to_decide`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

from core.playtest import GameResult, run_batch, wilson_interval
from core.tuning import TuneResult, default_study_name, stored_setup_problem, study_setup, tune

__all__ = ["ROBUST_POINTS", "paired_gain", "games_to_decide", "SideTuning", "RobustAnswer", "robust_balance",
           "verdict"]

#: the largest move of a share (in points) a robust answer allows
ROBUST_POINTS = 10.0


def paired_gain(before: list[GameResult], after: list[GameResult], side: str) -> tuple[float, float, float]:
    """(gain, low, high) in points of ``side``'s share of wins from ``before`` to ``after``, games
    paired by index (same seeds); errored games left out of both. 95 % normal interval of the mean
    of per-game differences."""
    a = {r.index: r for r in before if r.outcome != "error"}
    b = {r.index: r for r in after if r.outcome != "error"}
    d = [(b[i].outcome == side) - (a[i].outcome == side) for i in sorted(a.keys() & b.keys())]
    if not d:
        return (0.0, 0.0, 0.0)
    n = len(d)
    m = sum(d) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in d) / (n - 1)) if n > 1 else 0.0
    half = 1.959964 * sd / math.sqrt(n)
    return (100 * m, 100 * (m - half), 100 * (m + half))


def _shares(results: list[GameResult]) -> dict:
    played = [r for r in results if r.outcome != "error"]
    n = len(played)
    out = {}
    for k in ("german", "russian", "draw"):
        c = sum(1 for r in played if r.outcome == k)
        out[k] = {"count": c, "share": c / n if n else 0.0, "ci95": list(wilson_interval(c, n))}
    return out


@dataclass
class SideTuning:
    """One side tuned against the other's defaults: the tuning run, the paired batch and the gain."""

    side: str
    tuning: TuneResult
    moved: dict[str, tuple[float, float]]
    shares: dict
    gain: tuple[float, float, float]


@dataclass
class RobustAnswer:
    """``default``: shares of default vs default; ``tuned``: side -> :class:`SideTuning`;
    ``verdict`` / ``text``: see :func:`verdict`."""

    games: int
    seed: int
    default: dict
    tuned: dict[str, SideTuning] = field(default_factory=dict)
    verdict: str = ""
    text: str = ""


def games_to_decide(gain: tuple[float, float, float], games: int) -> tuple[str, int | None]:
    """Which way one side's ``gain`` (points, low, high; paired over ``games`` games) leans, and about
    how many paired games would put its whole interval on that side of the 10-point bounds.

    Returns ``("AI-dependent", n)`` when the gain is above :data:`ROBUST_POINTS` (n games for the
    low end to clear it), else ``("robust", n)`` (n games for the interval to fit within +-10).
    ``n`` is ``games`` when the interval already decides, None when the gain sits on a bound (no
    number of games decides) or ``games`` < 1. Assumes the per-game differences keep their spread:
    an estimate, rounded up to the next ten games."""
    m, lo, hi = gain
    half = (hi - lo) / 2
    lean = "AI-dependent" if m > ROBUST_POINTS else "robust"
    room = m - ROBUST_POINTS if lean == "AI-dependent" else ROBUST_POINTS - abs(m)
    if games < 1 or room <= 0:
        return (lean, None)
    if half <= room:
        return (lean, games)
    return (lean, int(math.ceil(games * (half / room) ** 2 / 10.0)) * 10)


def _games(t: SideTuning) -> int:
    return sum(v["count"] for v in t.shares.values()) if t.shares else 0


def verdict(tuned: dict[str, SideTuning]) -> tuple[str, str]:
    """("robust" | "AI-dependent" | "undecided", one line saying why). An undecided line also says
    which way the gains lean and about how many paired games would decide (:func:`games_to_decide`)."""
    gains = "; ".join(f"{t.side} {t.gain[0]:+.1f} [{t.gain[1]:+.1f}, {t.gain[2]:+.1f}]" for t in tuned.values())
    dep = [t for t in tuned.values() if t.gain[1] > ROBUST_POINTS]
    if dep:
        t = max(dep, key=lambda x: x.gain[0])
        moved = ", ".join(f"{k} {a:g} -> {b:.3g}" for k, (a, b) in t.moved.items()) or "none"
        return ("AI-dependent", f"{t.side} gains {t.gain[0]:+.1f} points [{t.gain[1]:+.1f}, {t.gain[2]:+.1f}] "
                                f"from tuning (settings moved: {moved})")
    if all(-ROBUST_POINTS <= t.gain[1] and t.gain[2] <= ROBUST_POINTS for t in tuned.values()):
        return ("robust", f"tuning moves no side's share by more than {ROBUST_POINTS:g} points ({gains})")
    leans = {t.side: games_to_decide(t.gain, _games(t)) for t in tuned.values()}
    up = {s: n for s, (lean, n) in leans.items() if lean == "AI-dependent"}
    if up:
        # one side's gain clearing 10 points decides: the side that needs the fewest games
        known = [n for n in up.values() if n is not None]
        lean, need = "AI-dependent", (min(known) if known else None)
        lean += f" ({', '.join(f'{s} {tuned[s].gain[0]:+.1f}' for s in up)})"
    else:
        # every side's interval must fit within 10 points: the side that needs the most games
        ns = [n for _lean, n in leans.values()]
        lean, need = "robust", (None if None in ns else max(ns, default=None))
    if need is not None:
        more = f"about {need:,} paired games would decide it"
    elif any(_games(t) < 1 for t in tuned.values()):
        more = "more games needed"
    else:
        more = f"a gain of exactly {ROBUST_POINTS:g} points: no number of games decides it"
    return ("undecided", f"the intervals of the gains straddle {ROBUST_POINTS:g} points ({gains}): "
                         f"leans {lean}; {more}")


def robust_balance(scenario_path: str, system, *, games: int = 40, seed: int = 1, trials: int = 30,
                   tune_games: int = 20, workers: int | None = None, scheduler: str | None = None,
                   storage: Callable[[str], str | None] | None = None, player: str = "heuristic",
                   on_stage: Callable[[str], None] | None = None,
                   on_trial: Callable[[int, float, float], None] | None = None) -> RobustAnswer:
    """Default vs default over ``games`` games seeded ``seed``; then for each side: tune it
    (``trials`` x ``tune_games`` games, seed ``seed + 1``: the tuning seeds are not the verdict's)
    against the other's defaults and play the tuned settings on the verdict's seeds. ``system``:
    the scenario's rule system (its ``settings_space`` and ``player_settings``); ``storage(side)``:
    an SQLite file per side for the study (None: in memory). Raises like :func:`core.tuning.tune`."""
    space, defaults = system.settings_space(player)
    ai = {s: player for s in system.sides}
    say = on_stage or (lambda _s: None)
    tune_seed = seed + 1  # the tuning seeds are not the verdict's
    # a kept study the tuning could not extend is refused now, not after the default batch
    for side in system.sides:
        f = storage(side) if storage else None
        if f:
            problem = stored_setup_problem(f, default_study_name(scenario_path, side, player),
                                           study_setup(tune_games, tune_seed, player, None, space, defaults))
            if problem is not None:
                raise ValueError(problem)
    say("default vs default")
    base = run_batch(scenario_path, games, seed, ai, workers=workers, scheduler=scheduler)
    ans = RobustAnswer(games, seed, _shares(base))
    for side in system.sides:
        say(f"tuning {side}")
        t = tune(scenario_path, side, space, player=player, opponent=player, trials=trials, games=tune_games,
                 seed=tune_seed, workers=workers, scheduler=scheduler, storage=storage(side) if storage else None,
                 defaults=defaults, canonical=system.player_settings, on_trial=on_trial)
        say(f"{side} tuned vs default")
        played = run_batch(scenario_path, games, seed, {**ai, side: t.best_spec}, workers=workers, scheduler=scheduler)
        moved = {k: (float(defaults[k]), v) for k, v in t.best.items()
                 if k in defaults and not math.isclose(v, float(defaults[k]))}
        ans.tuned[side] = SideTuning(side, t, moved, _shares(played), paired_gain(base, played, side))
        if t.interrupted:
            break
    ans.verdict, ans.text = verdict(ans.tuned) if len(ans.tuned) == len(system.sides) else ("interrupted", "")
    return ans
