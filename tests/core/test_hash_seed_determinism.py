"""Determinism whatever Python's string hashing: for every shipped scenario of every rule system,
a game played under ``PYTHONHASHSEED=1`` verifies (``ironcross replay FILE --verify``) under
``PYTHONHASHSEED=2``, and the same game played there writes the same replay byte for byte (the
players' choices too: no order taken from a set or a hash reaches an event or a decision).

Each scenario is shortened to two Game Turns, its later entries brought forward (same map, forces and
rules) and played by the random players (their choices follow the order of the legal actions), to
keep this cheap: order effects show from the first turns (set-up, spotting, the first fire). The
heuristic players over whole games: ``benchmarks/hash_seed.py``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.scenario_copies import scenario_copy

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "scenarios" / "data"


def shipped_scenarios() -> list[Path]:
    """Every shipped scenario file (of any rule system): the JSON files of scenarios/data with turns."""
    return [p for p in sorted(DATA.glob("*.json")) if "turns" in json.loads(p.read_text())]


def _start(hash_seed: int, code: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONHASHSEED=str(hash_seed))
    return subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _finish(p: subprocess.Popen) -> tuple[str, str]:
    out, err = p.communicate(timeout=900)
    assert p.returncode == 0, out[-3000:] + err[-3000:]
    return out, err


PLAY = """
import sys
from cli.main import main
for sc, out in zip(sys.argv[1::2], sys.argv[2::2]):
    rc = main(["playtest", sc, "--games", "1", "--seed", "5", "--workers", "1", "--quiet", "--replays", out,
               "--ai", "german=random,russian=random"])
    assert rc == 0, (sc, rc)
"""

VERIFY = """
import sys
from cli.main import main
for f in sys.argv[1:]:
    rc = main(["replay", f, "--verify"])
    assert rc == 0, (f, rc)
"""


def test_every_shipped_scenario_replay_written_under_one_hash_seed_verifies_under_another(tmp_path):
    scenarios = shipped_scenarios()
    systems = {json.loads(p.read_text()).get("rule_system", "ironcross") for p in scenarios}
    assert {"ironcross", "redflags", "twentymm"} <= systems and len(scenarios) >= 8
    args = {h: [] for h in (1, 2)}
    for p in scenarios:
        sc = scenario_copy(tmp_path, p, turns=2)
        for h in (1, 2):
            args[h] += [str(sc), str(tmp_path / f"h{h}" / p.stem)]
    runs = [_start(h, PLAY.replace("sys.argv[1::2]", repr(args[h][0::2])).replace("sys.argv[2::2]", repr(args[h][1::2])))
            for h in (1, 2)]   # both at once
    for p in runs:
        _finish(p)
    written = {h: sorted((tmp_path / f"h{h}").glob("*/*.jsonl")) for h in (1, 2)}
    assert len(written[1]) == len(scenarios) == len(written[2])
    out, _err = _finish(_start(2, VERIFY.replace("sys.argv[1:]", repr([str(f) for f in written[1]]))))
    assert out.count("verified: the re-run reproduces all") == len(scenarios)
    for a, b in zip(written[1], written[2]):
        assert a.read_bytes() == b.read_bytes(), f"{a.parent.name}: the same game differs under another hash seed"
