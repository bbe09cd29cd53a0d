"""Paired games of two source trees: what a change of code (not of settings) does to a side's results.

``benchmarks/blunder_cost.py --variant`` measures a behaviour change that is a setting. A change
that is no setting (a fix in the AI's caches, a new rule clause) is measured here the same way:
the tree given by ``--base`` (an earlier commit unpacked with ``git archive COMMIT | tar -x -C
DIR``) and this tree each play the same batch, ``ironcross playtest SCENARIO --games N --seed S
--json`` (the same game seeds, the default players), and the games are paired by index.

Prints, per scenario: each tree's wins, draws and the side's paired change in points with its 95 %
interval (:func:`core.robust_balance.paired_gain`), how many games were played differently
(outcome, Game Turns or decisions), and the wall time of each batch in seconds and yardsticks.

Run::

    mkdir BASE && git archive bdbf2f0 | tar -x -C BASE      (BASE: a new directory outside the tree)
    .venv/bin/python benchmarks/paired_commits.py --base BASE --scenarios 6 --games 200 --workers 2
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.arguments import positive_int, run_benchmark  # noqa: E402
from benchmarks.balance import scenario_paths  # noqa: E402
from benchmarks.yardstick import Yardstick  # noqa: E402
from core.playtest import GameResult  # noqa: E402
from core.robust_balance import paired_gain  # noqa: E402

SIDES = ("german", "russian")


def play(tree: Path, scenario: Path, games: int, seed: int, workers: int) -> tuple[list[dict], float]:
    """``per_game`` of ``ironcross playtest`` run by the source tree ``tree`` (its own code, this
    interpreter) and the wall time in seconds. Raises RuntimeError naming the tree and the command's
    error output when it fails (exit 1 or 2; 3, games that raised, is reported by the results)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "batch.json"
        cmd = [sys.executable, "-m", "cli", "playtest", str(scenario), "--games", str(games), "--seed", str(seed),
               "--workers", str(workers), "--json", str(out), "--quiet"]
        t0 = time.perf_counter()
        done = subprocess.run(cmd, cwd=tree, capture_output=True, text=True)
        seconds = time.perf_counter() - t0
        if done.returncode not in (0, 3):
            raise RuntimeError(f"{tree}: {' '.join(cmd)} exited {done.returncode}: {done.stderr.strip()}")
        return json.loads(out.read_text())["per_game"], seconds


def _results(per_game: list[dict]) -> list[GameResult]:
    return [GameResult(g["index"], g["seed"], g["outcome"], g.get("turns", 0), actions=g.get("decisions", 0))
            for g in per_game]


def _differ(a: dict, b: dict) -> bool:
    return any(a.get(k) != b.get(k) for k in ("outcome", "turns", "decisions", "casualties"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", required=True, type=Path, help="the source tree to compare with (e.g. an earlier commit)")
    ap.add_argument("--scenarios", default="6", help="comma-separated shipped scenario numbers (default 6)")
    ap.add_argument("--games", type=positive_int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=positive_int, default=1)
    args = ap.parse_args(argv)
    if not (args.base / "cli").is_dir():
        ap.error(f"--base {args.base}: not a source tree of this project (no cli/ there)")
    if args.games < 2 or args.games > 100_000:
        ap.error(f"--games {args.games}: between 2 and 100000")
    paths = scenario_paths()
    try:
        nums = [int(x) for x in args.scenarios.split(",") if x.strip()]
    except ValueError:
        ap.error(f"--scenarios {args.scenarios!r}: comma-separated numbers")
    bad = [n for n in nums if n not in paths]
    if bad:
        ap.error(f"no shipped scenario {', '.join(map(str, bad))}")
    ys = Yardstick.measure().seconds
    for n in nums:
        # the base tree reads its own copy of the scenario: a change of the file is part of the change
        rel = paths[n].relative_to(ROOT)
        try:
            before, t_base = play(args.base, args.base / rel, args.games, args.seed, args.workers)
            after, t_new = play(ROOT, paths[n], args.games, args.seed, args.workers)
        except RuntimeError as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
        a, b = {g["index"]: g for g in before}, {g["index"]: g for g in after}
        diff = sum(_differ(a[i], b[i]) for i in a.keys() & b.keys())
        print(f"Scenario {n}, {args.games} paired games, seed {args.seed}: {diff} played differently; "
              f"base {t_base:.0f} s = {t_base / ys:.0f} yardsticks, this tree {t_new:.0f} s = {t_new / ys:.0f} "
              f"yardsticks (yardstick {ys:.2f} s)")
        ra, rb = _results(before), _results(after)
        for side in SIDES:
            w0 = sum(r.outcome == side for r in ra)
            w1 = sum(r.outcome == side for r in rb)
            g, lo, hi = paired_gain(ra, rb, side)
            print(f"  {side:8} wins {w0} -> {w1}, change {g:+.1f} points [{lo:+.1f}, {hi:+.1f}]")
        print(f"  draws {sum(r.outcome == 'draw' for r in ra)} -> {sum(r.outcome == 'draw' for r in rb)}")
    return 0


if __name__ == "__main__":
    sys.exit(run_benchmark(main))
