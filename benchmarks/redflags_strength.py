"""The Red Flags heuristic against the random player on the shipped Red Flags scenario.

For each side the heuristic plays that side and the random player the other, over ``--games``
games (default 40), every game through :data:`core.redflags.system.SYSTEM` alone (seeded as the
playtest runner seeds games: ``derive_seed(seed, i)``, players ``derive_seed(game seed, 1|2)``).
Prints the win table: wins / losses / draws of the heuristic side, its share of the decisive games
with the 95 % Wilson interval, the mean turns and the median seconds a game; and the same for
heuristic against heuristic (the scenario's balance). Asserts nothing.

Target (issue 18): the heuristic wins at least 85 % of the decisive games on each side.

Run: .venv/bin/python benchmarks/redflags_strength.py                 (40 games a side)
     .venv/bin/python benchmarks/redflags_strength.py --games 10 --seed 7
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.dice import derive_seed  # noqa: E402
from core.redflags.system import SYSTEM  # noqa: E402

SCENARIO = ROOT / "scenarios" / "data" / "redflags_1_hill_j.json"
SIDES = ("german", "russian")


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of k successes in n trials ((0, 1) for n = 0)."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / d
    return (max(0.0, c - h), min(1.0, c + h))


def play(path: Path, seed: int, ai: dict[str, str]):
    setup = SYSTEM.load_setup(str(path), seed)
    g = SYSTEM.new_game(setup, seed, SYSTEM.rules[0], ())
    players = SYSTEM.make_players(setup, ai, seed)
    while not g.is_terminal():
        side = g.current_side()
        g.apply(players[side].choose(SYSTEM.view(g, side), side, g.legal_actions()))
    return g


def row(path: Path, ai: dict[str, str], games: int, seed: int, label: str, side: str | None) -> str:
    outcomes, turns, secs, reasons = [], [], [], {}
    for i in range(games):
        t = time.perf_counter()
        g = play(path, derive_seed(seed, i), ai)
        secs.append(time.perf_counter() - t)
        outcomes.append(g.outcome)
        turns.append(g.turn)
        key = "sudden death" if "sudden death" in g.reason else "objectives"
        reasons[key] = reasons.get(key, 0) + 1
    if side is None:
        counts = {s: outcomes.count(s) for s in ("german", "russian", "draw")}
        return (f"| {label} | {counts['german']} | {counts['russian']} | {counts['draw']} | - | "
                f"{statistics.mean(turns):.1f} | {statistics.median(secs):.2f} | {reasons} |")
    other = "russian" if side == "german" else "german"
    w, l, d = outcomes.count(side), outcomes.count(other), outcomes.count("draw")
    lo, hi = wilson(w, w + l)
    share = f"{w / (w + l):.0%} [{lo:.0%}-{hi:.0%}]" if w + l else "-"
    return (f"| {label} | {w} | {l} | {d} | {share} | {statistics.mean(turns):.1f} | {statistics.median(secs):.2f} | "
            f"{reasons} |")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--scenario", default=str(SCENARIO))
    ap.add_argument("--no-balance", action="store_true", help="skip heuristic against heuristic")
    a = ap.parse_args(argv)
    path = Path(a.scenario)
    print(f"{path.name}: {a.games} games a row, batch seed {a.seed}\n")
    print("| heuristic plays | wins | losses | draws | decisive won [95 %] | mean turns | median s | ended by |")
    print("|---|---|---|---|---|---|---|---|")
    for side in SIDES:
        other = "russian" if side == "german" else "german"
        print(row(path, {side: "heuristic", other: "random"}, a.games, a.seed, side, side), flush=True)
    if not a.no_balance:
        print("\n| heuristic vs heuristic | german wins | russian wins | draws | - | mean turns | median s | ended by |")
        print("|---|---|---|---|---|---|---|---|")
        print(row(path, {"german": "heuristic", "russian": "heuristic"}, a.games, a.seed, "both", None), flush=True)


if __name__ == "__main__":
    main()
