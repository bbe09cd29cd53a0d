"""Instructions a game costs, counted by Valgrind (callgrind): a speed figure that a busy machine
does not move.

Wall time on a shared machine moves with the load (another process on the other core made a
Scenario 1 game 1.7 times slower while the yardstick loop hardly moved), so a change of a few per
cent cannot be seen in seconds. The count of machine instructions the interpreter executes for the
same game is the same from run to run (two runs of one Scenario 1 game differed by 0.02 %) whatever
else runs. It does not see cache misses (memory-bound work such as garbage collection counts less
than it costs), so it decides between two versions of the code, and the yardstick figures of
``benchmarks/playtest.py`` on a quiet machine stay the figures of the targets.

Each tree (this one, and the one given by ``--base``, e.g. an earlier commit unpacked with
``git archive COMMIT | tar -x -C DIR``) plays the same heuristic-vs-heuristic games under
``valgrind --tool=callgrind`` with ``PYTHONHASHSEED=0``, once with a warm-up game only (the
start-up: imports, the compiling of modules not yet cached, the map's tables built once a process)
and once with the warm-up game and the games; the difference divided by the games is the cost of a
game. Prints, per tree, millions of instructions a game, the ratio new/base, and whether both trees
played the same games (outcome and decisions of each). Valgrind slows a game about 60 times: one Scenario 1 game
takes about a minute, and each tree plays the warm-up game twice.

Run::

    .venv/bin/python benchmarks/instructions.py --scenario 1 --games 1
    mkdir BASE && git archive 55f3070 | tar -x -C BASE      (BASE: a new directory outside the tree)
    .venv/bin/python benchmarks/instructions.py --scenario 1 --games 2 --base BASE
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.arguments import positive_int  # noqa: E402

SCENARIOS = {1: "scenario_1_demyansk_pocket.json", 3: "scenario_3_closing_the_ring.json",
             5: "scenario_5_through_the_marshes.json", 6: "scenario_6_spartakovka.json"}

#: a warm-up game, then the games, played in the tree it runs in (its working directory first on the
#: import path); prints "outcome decisions" a game
WORKER = r"""
import sys
sys.path.insert(0, ".")
from core.playtest import _play
path, games, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
_play(path, 0, seed - 1, {"german": "heuristic", "russian": "heuristic"}, None, (), False, 200_000)  # warm-up
for i in range(games):
    res, _ = _play(path, i, seed + i, {"german": "heuristic", "russian": "heuristic"}, None, (), False, 200_000)
    print(res.outcome, res.actions, flush=True)
"""


def _count(tree: Path, scenario: str, games: int, seed: int) -> tuple[int, list[str]]:
    """(instructions, one "outcome decisions" line a game) of ``games`` games played in ``tree``."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c", WORKER,
           str(tree / "scenarios" / "data" / scenario), str(games), str(seed)]
    p = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True)
    m = re.search(r"Collected\s*:\s*(\d+)", p.stderr)
    if p.returncode != 0 or m is None:
        tail = "\n".join(p.stderr.strip().splitlines()[-5:])
        raise SystemExit(f"{tree}: the games under valgrind failed (exit {p.returncode}):\n{tail}")
    return int(m.group(1)), p.stdout.split("\n")[:games]


def _per_game(tree: Path, scenario: str, games: int, seed: int) -> tuple[float, list[str]]:
    start, _ = _count(tree, scenario, 0, seed)
    total, lines = _count(tree, scenario, games, seed)
    return (total - start) / games, lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scenario", type=int, choices=sorted(SCENARIOS), default=1)
    ap.add_argument("--games", type=positive_int, default=1, help="games a tree (about a minute each for Scenario 1)")
    ap.add_argument("--seed", type=int, default=1000, help="seed of the first game (the next ones count up)")
    ap.add_argument("--base", type=Path, help="another source tree of this project to compare with")
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt install valgrind): no instruction counts", file=sys.stderr)
        return 2
    if args.games < 1:
        ap.error("--games must be at least 1")
    sc = SCENARIOS[args.scenario]
    new, new_lines = _per_game(ROOT, sc, args.games, args.seed)
    print(f"Scenario {args.scenario}, {args.games} game(s) from seed {args.seed}: "
          f"this tree {new / 1e6:,.0f} M instructions a game")
    if args.base is not None:
        base, base_lines = _per_game(args.base.resolve(), sc, args.games, args.seed)
        print(f"  base {base / 1e6:,.0f} M instructions a game; new/base {new / base:.3f}; "
              f"same games: {new_lines == base_lines}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
