"""Same games: record the per-game results of fixed playtest batches, or check them against a record.

A change that must not change play (moving modules, a new loader, a faster data structure) is
checked by recording before it and comparing after it. The batches are seeded, so the games are
the same on every machine; what differs run to run (the wall time ``seconds`` and the ``replay``
path) is left out of the record.

The batches (``BATCHES``): Iron Cross Scenario 1 (6 games), Scenario 3 (4) and Scenario 6 (2), the
Red Flags and the 20 mm shipped scenarios (6 each), all at seed 1 with the default players, each
run as ``ironcross playtest SCENARIO --games N --seed 1 --json OUT --quiet`` (the command a
designer runs; exit 3, some games raised, is recorded like any other result).

Run::

    .venv/bin/python benchmarks/same_games.py record before.json
    .venv/bin/python benchmarks/same_games.py compare before.json      # exit 1 on any difference

Prints one line per batch (games, outcomes, time, and the time as a multiple of the yardstick
``s = 0; for i in range(2_000_000): s += i * i % 7`` timed in the same run); ``compare`` names the
first differing game and field of each batch that differs.
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
from benchmarks.yardstick import Yardstick  # noqa: E402

DATA = ROOT / "scenarios" / "data"

#: (label, scenario file, games) of every batch, all at seed 1.
BATCHES: tuple[tuple[str, str, int], ...] = (
    ("ironcross scenario 1", "scenario_1_demyansk_pocket.json", 6),
    ("ironcross scenario 3", "scenario_3_closing_the_ring.json", 4),
    ("ironcross scenario 6", "scenario_6_spartakovka.json", 2),
    ("redflags", "redflags_1_hill_j.json", 6),
    ("twentymm", "twentymm_1_village_counterattack.json", 6),
)
SEED = 1
#: per-game fields that differ from run to run and say nothing about the game played
VOLATILE = ("seconds", "replay")


def run_batch(scenario: Path, games: int, workers: int) -> tuple[list[dict], float]:
    """``per_game`` of one ``ironcross playtest --json`` run (volatile fields removed) and its wall
    time in seconds. Raises RuntimeError with the command's error output when it fails (exit 1 or 2)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "batch.json"
        cmd = [sys.executable, "-m", "cli", "playtest", str(scenario), "--games", str(games), "--seed", str(SEED),
               "--workers", str(workers), "--json", str(out), "--quiet", "--replays", str(Path(tmp) / "replays")]
        t0 = time.perf_counter()
        done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        seconds = time.perf_counter() - t0
        if done.returncode not in (0, 3):
            raise RuntimeError(f"{' '.join(cmd)} exited {done.returncode}: {done.stderr.strip()}")
        doc = json.loads(out.read_text())
    return [{k: v for k, v in g.items() if k not in VOLATILE} for g in doc["per_game"]], seconds


def record(workers: int) -> dict[str, list[dict]]:
    """Run every batch; returns label -> per_game. Prints one line per batch."""
    ys = Yardstick.measure()
    unit = ys.seconds
    print(ys.describe())
    out: dict[str, list[dict]] = {}
    for label, name, games in BATCHES:
        per_game, seconds = run_batch(DATA / name, games, workers)
        outcomes = ", ".join(g["outcome"] for g in per_game)
        print(f"{label}: {games} games in {seconds:.1f} s ({seconds / unit:.1f} yardsticks): {outcomes}")
        out[label] = per_game
    return out


def differences(old: dict[str, list[dict]], new: dict[str, list[dict]]) -> list[str]:
    """One line per batch whose games differ: the first game and the fields that differ."""
    lines = []
    for label in sorted(set(old) | set(new)):
        a, b = old.get(label), new.get(label)
        if a is None or b is None:
            lines.append(f"{label}: only in the {'new' if a is None else 'recorded'} run")
            continue
        if len(a) != len(b):
            lines.append(f"{label}: {len(a)} games recorded, {len(b)} now")
            continue
        for ga, gb in zip(a, b):
            if ga != gb:
                keys = sorted(k for k in set(ga) | set(gb) if ga.get(k) != gb.get(k))
                lines.append(f"{label}: game {ga.get('index')} differs in {', '.join(keys)}")
                break
    return lines


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("action", choices=("record", "compare"))
    p.add_argument("file", help="the record (JSON): written by record, read by compare")
    p.add_argument("--workers", type=positive_int, default=1, help="local worker processes per batch (default 1)")
    args = p.parse_args(argv)
    now = record(args.workers)
    if args.action == "record":
        Path(args.file).write_text(json.dumps(now, indent=1, sort_keys=True) + "\n")
        print(f"wrote {args.file}")
        return 0
    old = json.loads(Path(args.file).read_text())
    diff = differences(old, now)
    for line in diff:
        print(f"DIFFERENT: {line}")
    total = sum(len(v) for v in now.values())
    print(f"{'identical' if not diff else 'NOT identical'}: {total} games in {len(now)} batches compared with {args.file}")
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(run_benchmark(main))
