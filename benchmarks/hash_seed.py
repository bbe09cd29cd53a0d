"""Determinism whatever Python's string hashing, over whole games with the default (heuristic)
players: for every shipped scenario of every rule system, one game played under
``PYTHONHASHSEED=1`` and the same game under ``PYTHONHASHSEED=2`` must write the same replay byte
for byte, and the first must verify (``ironcross replay FILE --verify``) under the second. The
suite's ``tests/core/test_hash_seed_determinism.py`` does the same on two-turn games by the random
players. Prints one line a scenario (same / DIFFER, verified / not) and the seconds, also as
multiples of the yardstick. Exit status 1 when any game differs or does not verify.

    python benchmarks/hash_seed.py [--seed S]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.arguments import run_benchmark  # noqa: E402
from benchmarks.yardstick import Yardstick  # noqa: E402


def _cli(hash_seed: int, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONHASHSEED=str(hash_seed))
    return subprocess.run([sys.executable, "-m", "cli", *args], cwd=ROOT, env=env, capture_output=True, text=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=5, help="batch seed of the one game a scenario")
    args = ap.parse_args(argv)
    ys = Yardstick.measure()
    yard = ys.seconds
    print(ys.describe())
    tmp = Path(tempfile.mkdtemp(prefix="ironcross-hash-seed-"))
    bad = 0
    for sc in sorted((ROOT / "scenarios" / "data").glob("*.json")):
        if "turns" not in json.loads(sc.read_text()):
            continue   # the counters file
        t0 = time.perf_counter()
        files = []
        for h in (1, 2):
            out = tmp / sc.stem / f"h{h}"
            r = _cli(h, "playtest", str(sc), "--games", "1", "--seed", str(args.seed), "--workers", "1", "--quiet",
                     "--replays", str(out))
            if r.returncode != 0:
                print(f"{sc.stem}: playtest failed under PYTHONHASHSEED={h}: {r.stderr.strip()[-300:]}")
                bad += 1
            files += sorted(out.glob("*.jsonl"))
        if len(files) != 2:
            continue
        same = files[0].read_bytes() == files[1].read_bytes()
        v = _cli(2, "replay", str(files[0]), "--verify")
        dt = time.perf_counter() - t0
        ok = v.returncode == 0
        bad += (not same) + (not ok)
        print(f"{sc.stem}: {'same' if same else 'DIFFER'}; {'verified' if ok else 'NOT VERIFIED'} under another "
              f"hash seed; {dt:.1f} s ({dt / yard:.0f} yardsticks)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(run_benchmark(main))
