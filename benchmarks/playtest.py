"""Playtest figures, with their targets. Prints, asserts nothing.

1. heuristic against random, each side of Scenarios 1 and 3: the heuristic side's share of the
   decisive games (target >= 90 %); when no "heuristic" player is registered yet it says so and
   measures random against random (the German side's share) as the baseline;
2. median wall time of one game (heuristic vs heuristic when available, else random vs random)
   for Scenario 1 (target <= 2 s) and Scenario 6 (target <= 30 s);
3. throughput of the local pool with 2 workers against 1 worker (target >= 1.7 x);
4. peak memory (RSS) of a worker process (target <= 300 MB);
5. eliminations by the engine's own bookkeeping (must be 0: a unit removed by no rule of play is an engine bug) over heuristic-vs-heuristic
   games of each shipped scenario, basic rules, with every elimination's cause;
6. (only when asked: --only batch) one whole batch of Scenario 1 through the CLI's own runner
   (``run_batch``, the local pool), heuristic vs heuristic: wall time, games per second and the
   time 10,000 games take at that rate (target: 10,000 games on 2 workers <= 40 min).

Every time is also printed as a multiple of the yardstick (``benchmarks/yardstick.py``: the loop
``s = 0; for i in range(2_000_000): s += i * i % 7``) measured at the start of the same run (figure
2: each game against the yardstick measured just before and after it, which follows a machine whose
speed drifts); the
targets of the speed work are in those multiples (one worker: Scenario 1 median <= 3, Scenario 6
<= 35; 2 workers / 1 worker >= 1.9) because seconds do not travel between machines.

Run: .venv/bin/python benchmarks/playtest.py            (default: 10 games per side and scenario)
     .venv/bin/python benchmarks/playtest.py --games 200  (the target's figure; long)
     .venv/bin/python benchmarks/playtest.py --quick      (a smoke run: a few games each)
     .venv/bin/python benchmarks/playtest.py --only bookkeeping --bookkeeping-games 20
     .venv/bin/python benchmarks/playtest.py --only batch --batch-games 10000 --workers 2   (~35 min)
     .venv/bin/python benchmarks/playtest.py --only throughput --throughput-games 200
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.arguments import positive_int, run_benchmark  # noqa: E402
from benchmarks.yardstick import Yardstick  # noqa: E402
from core.ironcross.players import PLAYERS  # noqa: E402
from core.playtest import _play, run_batch, summarise, wilson_interval  # noqa: E402

DATA = ROOT / "scenarios" / "data"
SCEN = {1: DATA / "scenario_1_demyansk_pocket.json", 3: DATA / "scenario_3_closing_the_ring.json",
        6: DATA / "scenario_6_spartakovka.json"}


def _timed_game(args) -> tuple[float, int, str]:
    """One game in a worker process: (seconds, peak RSS in bytes of this process, outcome)."""
    path, index, seed, ai = args
    t0 = time.perf_counter()
    res, _ = _play(str(path), index, seed, ai, "basic", (), False, 200_000)
    dt = time.perf_counter() - t0
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux: kB
    return dt, rss, res.outcome


def win_shares(smart: str, games: int, workers: int, seed: int, ys: Yardstick) -> None:
    print(f"\n1. {smart} against random, {games} games per side and scenario (share of decisive games won "
          f"by the {smart} side, 95 % CI):")
    for n in (1, 3):
        for side in ("german", "russian"):
            other = "russian" if side == "german" else "german"
            ai = {side: smart, other: "random"}
            t0 = time.perf_counter()
            rs = run_batch(str(SCEN[n]), games, seed, ai, workers=workers)
            wins = sum(r.outcome == side for r in rs)
            losses = sum(r.outcome == other for r in rs)
            draws = sum(r.outcome == "draw" for r in rs)
            errs = sum(r.outcome == "error" for r in rs)
            dec = wins + losses
            lo, hi = wilson_interval(wins, dec)
            share = f"{wins / dec:.1%} [{lo:.0%}-{hi:.0%}]" if dec else "n/a (no decisive game)"
            print(f"   Scenario {n}, {smart} as {side:7s}: {share}  ({wins} won, {losses} lost, {draws} drawn,"
                  f" {errs} errors; {ys.fmt(time.perf_counter() - t0, 0)})", flush=True)


def median_times(ai_name: str, counts: dict[int, int], seed: int, ys: Yardstick,
                 measure=Yardstick.measure, play=None) -> float:
    """Figure 2: each game timed in this process, sequentially, and read against the yardstick
    measured just before and just after it (the smaller of the two: the machine's speed can drift
    by a factor of two within minutes on a shared virtual machine, so one yardstick at the start of
    the run does not fit a game played minutes later). Prints each scenario's median in seconds and
    the median of the games' own multiples, with the yardsticks seen. Returns the peak RSS in bytes.
    ``ys`` (the run's first yardstick) starts the first game's pair; ``measure`` and ``play`` stand
    in for the yardstick and :func:`_timed_game` in tests."""
    play = play or _timed_game
    print(f"\n2. Median wall time of one {ai_name}-vs-{ai_name} game (one process, sequential; each game "
          "against the yardstick measured beside it):")
    peak = 0
    before = ys.seconds
    for n, k in counts.items():
        ts, multiples, seen = [], [], [before]
        for i in range(k):
            dt, rss, _ = play((SCEN[n], i, seed + i, {"german": ai_name, "russian": ai_name}))
            after = measure(3).seconds
            ts.append(dt)
            multiples.append(dt / min(before, after))
            seen.append(after)
            before = after
            peak = max(peak, rss)
        target = {1: "target <= 3", 6: "target <= 35"}.get(n, "")
        print(f"   Scenario {n}: median {statistics.median(ts):.2f} s = {statistics.median(multiples):.1f} yardsticks "
              f"over {k} games (min {min(multiples):.1f}, max {max(multiples):.1f}; {target}); yardstick "
              f"{min(seen):.3f}-{max(seen):.3f} s beside them", flush=True)
    return peak


def throughput(ai: dict, games: int, seed: int, ys: Yardstick) -> int:
    print(f"\n3. Throughput of the local pool, Scenario 1, {games} games ({ai['german']} vs {ai['russian']}):")
    rates = {}
    peak = 0
    for w in (1, 2):
        t0 = time.perf_counter()
        with ProcessPoolExecutor(max_workers=w) as ex:
            out = list(ex.map(_timed_game, [(SCEN[1], i, seed + i, ai) for i in range(games)]))
        dt = time.perf_counter() - t0
        rates[w] = games / dt
        peak = max([peak] + [o[1] for o in out])
        print(f"   {w} worker(s): {rates[w]:.3f} games/s ({ys.fmt(dt, 1)}; "
              f"{ys.multiple(dt) / games:.1f} yardsticks a game)", flush=True)
    print(f"   ratio 2 workers / 1 worker: {rates[2] / rates[1]:.2f} x (target >= 1.9)  (this machine has {os.cpu_count()} CPUs;"
          f" load average now {os.getloadavg()[0]:.1f})")
    return peak


def batch(games: int, workers: int, seed: int, ys: Yardstick) -> None:
    """Figure 6: one batch of ``games`` Scenario 1 games through ``run_batch`` on ``workers`` processes."""
    print(f"\n6. One batch of {games} heuristic-vs-heuristic games of Scenario 1 through the runner "
          f"({workers} workers, seed {seed}):", flush=True)
    t0 = time.perf_counter()
    rs = run_batch(str(SCEN[1]), games, seed, {"german": "heuristic", "russian": "heuristic"}, workers=workers)
    dt = time.perf_counter() - t0
    errors = sum(r.outcome == "error" for r in rs)
    print(f"   {games} games in {ys.fmt(dt, 1)} ({dt / 60:.1f} min): {games / dt:.2f} games/s, {errors} errors; "
          f"10,000 games at this rate: {10_000 / games * dt / 60:.1f} min = "
          f"{ys.multiple(10_000 / games * dt):.0f} yardsticks  (load average now "
          f"{os.getloadavg()[0]:.1f})", flush=True)


def bookkeeping(games: int, workers: int, seed: int, ys: Yardstick) -> int:
    """Figure 5: units eliminated by no attack, mine, scenario roll or crew rule; returns the total."""
    print(f"\n5. Eliminations by cause, {games} heuristic-vs-heuristic games of each shipped scenario "
          f"(--rules basic; 'bookkeeping' must be 0):")
    total = 0
    for path in sorted(DATA.glob("scenario_*.json")):
        t0 = time.perf_counter()
        rs = run_batch(str(path), games, seed, {"german": "heuristic", "russian": "heuristic"}, workers=workers)
        s = summarise(rs)
        bk = s["bookkeeping_eliminations"]
        total += bk["total"]
        causes = ", ".join(f"{k} {v * len([r for r in rs if r.outcome != 'error']):.0f}"
                           for k, v in s["eliminations_by_cause"].items())
        rules = (" (" + ", ".join(f"rule {r}: {n}" for r, n in bk["by_rule"].items()) + ")") if bk["total"] else ""
        errs = len(s["errors"])
        print(f"   {path.stem}: bookkeeping {bk['total']}{rules}; all eliminations by cause: {causes}; "
              f"{errs} errors; {ys.fmt(time.perf_counter() - t0, 0)}", flush=True)
    print(f"   total eliminated by bookkeeping: {total}")
    return total


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=positive_int, default=10, help="games per side and scenario for the win shares")
    ap.add_argument("--quick", action="store_true", help="a smoke run: a few games of each figure")
    ap.add_argument("--workers", type=positive_int, default=os.cpu_count() or 1, help="workers for the win-share batches")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bookkeeping-games", type=positive_int, default=20, help="games per scenario for figure 5")
    ap.add_argument("--throughput-games", type=positive_int, default=8,
                    help="Scenario 1 games per worker count for figure 3 (more games: less start-up share)")
    ap.add_argument("--batch-games", type=positive_int, default=10_000, help="games of the batch of figure 6")
    ap.add_argument("--only", choices=("wins", "times", "throughput", "bookkeeping", "batch"), action="append",
                    help="print only these figures (repeatable); default: all but batch")
    args = ap.parse_args(argv)
    only = set(args.only or ("wins", "times", "throughput", "bookkeeping"))
    smart = "heuristic" if "heuristic" in PLAYERS else None
    games = 4 if args.quick else args.games
    if smart is None:
        print('No "heuristic" player is registered yet (core/ironcross/players.py): measuring random vs random instead.')
    name = smart or "random"
    ys = Yardstick.measure()
    print(ys.describe())
    t0 = time.perf_counter()
    if "wins" not in only:
        pass
    elif smart:
        win_shares(smart, games, args.workers, args.seed, ys)
    else:
        print(f"\n1. random against random, {games} games per scenario (baseline; German share of decisive games):")
        for n in (1, 3):
            rs = run_batch(str(SCEN[n]), games, args.seed, {"german": "random", "russian": "random"},
                           workers=args.workers)
            g = sum(r.outcome == "german" for r in rs)
            r_ = sum(r.outcome == "russian" for r in rs)
            d = sum(r.outcome == "draw" for r in rs)
            e = sum(r.outcome == "error" for r in rs)
            share = f"{g / (g + r_):.1%}" if g + r_ else "n/a (no decisive game)"
            print(f"   Scenario {n}: German {g}, Russian {r_}, draw {d}, error {e}; German share of decisive: {share}",
                  flush=True)
    peak = 0
    if "times" in only:
        peak = median_times(name, {1: 2 if args.quick else 5, 6: 1 if args.quick else 3}, args.seed, ys)
    if "throughput" in only:
        peak = max(peak, throughput({"german": name, "russian": name}, 4 if args.quick else args.throughput_games,
                                    args.seed, ys))
    if peak:
        print(f"\n4. Peak memory (RSS) of a worker process: {peak / 2**20:.0f} MB")
    if "bookkeeping" in only and smart:
        bookkeeping(2 if args.quick else args.bookkeeping_games, args.workers, args.seed, ys)
    if "batch" in only and smart:
        batch(40 if args.quick else args.batch_games, args.workers, args.seed, ys)
    print(f"\n(total {ys.fmt(time.perf_counter() - t0, 0)}; {ys.describe()})")
    return 0


if __name__ == "__main__":
    sys.exit(run_benchmark(main))
