"""Paired speed: the same games played by two source trees of this project, interleaved, on one
core each in turn, with the yardstick timed between them.

On a busy machine a figure measured at one time and compared with one measured at another says
more about the load than about the code. Here a worker process per tree (the tree given by
``--base``, e.g. an earlier commit unpacked with ``git archive COMMIT | tar -x -C DIR``, and this
tree) plays heuristic-vs-heuristic games of a scenario, one game of one tree, then the same game of
the other, alternating which goes first; the yardstick (``benchmarks/yardstick.py``) is timed
between the pairs. Each worker plays one warm-up game first (not counted: a worker of a batch
pays that start once, not per game).

Prints, per scenario: the median game of each tree in seconds and in yardsticks (each game divided
by the yardstick timed next to it, then the median), the median of the per-game ratios new/base,
and whether the two trees played the same games (outcome and decisions of each).

Run::

    mkdir BASE && git archive 5cf9f25 | tar -x -C BASE      (BASE: a new directory outside the tree)
    .venv/bin/python benchmarks/paired_speed.py --base BASE --scenarios 1,6 --games 5
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.arguments import positive_int, run_benchmark  # noqa: E402
from benchmarks.yardstick import Yardstick  # noqa: E402

SCENARIOS = {1: "scenario_1_demyansk_pocket.json", 3: "scenario_3_closing_the_ring.json",
             6: "scenario_6_spartakovka.json"}

#: the worker: reads "SCENARIO INDEX SEED" lines, plays each game with the tree it runs in (its
#: working directory first on the import path) and answers one JSON line
WORKER = r"""
import json, sys
sys.path.insert(0, ".")
from core.playtest import _play
from core.rule_system import load_scenario
loaded = {}
for line in sys.stdin:
    path, index, seed = line.split()
    sc = loaded.get(path) or loaded.setdefault(path, load_scenario(path))
    res, _ = _play(sc, int(index), int(seed), {"german": "heuristic", "russian": "heuristic"}, None, (), False,
                   200000)
    print(json.dumps({"seconds": res.seconds, "outcome": res.outcome, "actions": res.actions,
                      "error": res.error}), flush=True)
"""


class Worker:
    """A process playing games with the tree at ``tree`` (see :data:`WORKER`)."""

    def __init__(self, tree: Path):
        self.tree = tree
        self.proc = subprocess.Popen([sys.executable, "-c", WORKER], cwd=tree, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)

    def play(self, scenario: Path, index: int, seed: int) -> dict:
        """One game: {"seconds", "outcome", "actions", "error"}; RuntimeError when the worker died."""
        self.proc.stdin.write(f"{scenario} {index} {seed}\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the worker of {self.tree} ended (exit {self.proc.wait()})")
        return json.loads(line)

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", required=True, help="the source tree to compare with (a checkout or archive of it)")
    ap.add_argument("--scenarios", default="1,6", help="Iron Cross scenario numbers (default 1,6)")
    ap.add_argument("--games", type=positive_int, default=5, help="games per scenario (default 5)")
    ap.add_argument("--seed", type=int, default=1, help="game i plays with seed derive_seed(SEED, i)")
    args = ap.parse_args(argv)
    from core.dice import derive_seed

    base = Path(args.base).resolve()
    if not (base / "core" / "playtest.py").is_file():
        ap.error(f"--base {base}: not a source tree of this project (no core/playtest.py)")
    trees = {"base": base, "new": ROOT}
    workers = {k: Worker(t) for k, t in trees.items()}
    try:
        for n in (int(x) for x in args.scenarios.split(",") if x.strip()):
            path = ROOT / "scenarios" / "data" / SCENARIOS[n]
            for w in workers.values():
                w.play(path, 10_000, derive_seed(args.seed, 10_000))  # warm-up, not counted
            secs: dict[str, list[float]] = {"base": [], "new": []}
            multiples: dict[str, list[float]] = {"base": [], "new": []}
            same = True
            for i in range(args.games):
                seed = derive_seed(args.seed, i)
                ys = Yardstick.measure(runs=3)
                got = {}
                for name in (("base", "new") if i % 2 == 0 else ("new", "base")):
                    got[name] = workers[name].play(path, i, seed)
                for name, r in got.items():
                    secs[name].append(r["seconds"])
                    multiples[name].append(ys.multiple(r["seconds"]))
                same = same and (got["base"]["outcome"], got["base"]["actions"]) == (
                    got["new"]["outcome"], got["new"]["actions"])
                print(f"  Scenario {n} game {i}: base {ys.fmt(got['base']['seconds'])}, "
                      f"new {ys.fmt(got['new']['seconds'])} ({got['new']['outcome']}, "
                      f"{got['new']['actions']} decisions; yardstick {ys.seconds:.3f} s)", flush=True)
            ratio = statistics.median(b / a for a, b in zip(secs["base"], secs["new"]))
            print(f"Scenario {n}, {args.games} games: median game base {statistics.median(secs['base']):.2f} s = "
                  f"{statistics.median(multiples['base']):.1f} yardsticks, new {statistics.median(secs['new']):.2f} s = "
                  f"{statistics.median(multiples['new']):.1f} yardsticks; median ratio new/base {ratio:.2f}; "
                  f"same games: {same}", flush=True)
    finally:
        for w in workers.values():
            w.close()
    return 0


if __name__ == "__main__":
    sys.exit(run_benchmark(main))
