"""File fuzz at scale: thousands of seeded mutants of the shipped files through every command.

Each mutant (``tests/file_mutants.py``: a map, terrain chart, errata, counters, a scenario of each rule
system, a placement, a replay or an AI settings file with one mutation) goes through the commands that
read its kind (``validate``, ``los``, ``render``, ``errata apply``, ``export tiled`` + ``import tiled``,
``replay``, ``replay --verify`` and ``replay --log``, ``playtest --games 1``, ``export vassal``, ``balance``, ``tune``),
each run in-process in a worker subprocess. A command that does not answer within ``--timeout`` seconds (60)
counts as a hang: its worker is killed and a fresh one takes the next case. Prints the counts of
commands: tracebacks, hangs, refused (a one-line error naming the file), accepted; and every traceback
and hang with its case, so it can be replayed with ``--only INDEX``. Exit status 1 when a command
raised or hung.

``playtest``, ``balance`` and ``tune`` play whole games when the mutant is valid (seconds to tens of
seconds) and ``export vassal`` builds a module, so these run on every mutant the case's first command
refuses (that refusal must come before any game) and on ``--playtest-share`` of the accepted ones (an
AI settings file's only command, ``playtest --ai german=heuristic:@FILE``, always runs).

    python benchmarks/fuzz_files.py --cases 1000 --workers 2
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.arguments import positive_int  # noqa: E402
from benchmarks.yardstick import Yardstick  # noqa: E402


# --------------------------------------------------------------------------- the worker side


def worker(seed: int, playtest_share: float) -> None:
    """Read case indices on stdin; for each command print ``start`` then its ``result`` (JSON lines)."""
    import random

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from tests.file_mutants import is_long, make_case, run_command, write_case

    for line in sys.stdin:
        i = int(line)
        case = make_case(seed, i)
        with tempfile.TemporaryDirectory() as d:
            cmds = write_case(case, Path(d))
            first = None
            for k, cmd in enumerate(cmds):
                if is_long(cmd) and first == "accepted" and random.Random(f"{seed}:{i}:{k}").random() >= playtest_share:
                    continue
                print(json.dumps({"start": i, "cmd": cmd[0]}), flush=True)
                verdict, out = run_command(cmd, d)
                first = first or verdict
                name = " ".join(cmd[:2]) if cmd[0] in ("export", "import", "errata") else cmd[0]
                name += "".join(f" {flag}" for flag in ("--verify", "--log") if flag in cmd)
                print(json.dumps({"result": i, "cmd": name, "verdict": verdict, "kind": case.kind,
                                  "what": case.what, "out": out[-600:].replace(d, "DIR") if verdict == "traceback" else ""}),
                      flush=True)
        print(json.dumps({"done": i}), flush=True)
    return 0


# --------------------------------------------------------------------------- the parent side


class Worker:
    """One worker subprocess and a thread moving its output lines to a queue."""

    def __init__(self, seed: int, share: float):
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--worker", "--seed", str(seed), "--playtest-share", str(share)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT)
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait()


def run_cases(indices: list[int], seed: int, share: float, timeout: float, counts, problems, lock) -> None:
    """Feed ``indices`` to a worker, one at a time, applying ``timeout`` to each command."""
    w = Worker(seed, share)
    for i in indices:
        w.proc.stdin.write(f"{i}\n")
        w.proc.stdin.flush()
        current = None
        while True:
            try:
                line = w.lines.get(timeout=timeout if current else max(timeout, 300))
            except queue.Empty:
                with lock:
                    counts["hang"] += 1
                    problems.append(f"HANG case {i} {current or 'start-up'} (> {timeout:g} s)")
                w.kill()
                w = Worker(seed, share)
                break
            if line is None:  # the worker died (a crash, not a Python exception)
                with lock:
                    counts["traceback"] += 1
                    problems.append(f"CRASH case {i} {current} (worker exit {w.proc.wait()})")
                w = Worker(seed, share)
                break
            msg = json.loads(line)
            if "start" in msg:
                current = msg["cmd"]
            elif "result" in msg:
                current = None
                with lock:
                    counts[msg["verdict"]] += 1
                    counts[f"{msg['kind']}:{msg['verdict']}"] += 1
                    counts[f"command {msg['cmd']}"] += 1
                    if msg["verdict"] == "traceback":
                        problems.append(f"TRACEBACK case {i} {msg['kind']} {msg['what']} {msg['cmd']}: {msg['out']}")
            elif "done" in msg:
                break
    w.proc.stdin.close()
    w.kill()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=26)
    ap.add_argument("--workers", type=positive_int, default=2)
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds a command may take before it is a hang")
    ap.add_argument("--playtest-share", type=float, default=0.02,
                    help="share of accepted scenario/placement mutants also played (a game is long)")
    ap.add_argument("--only", default=None, metavar="INDEX", help="run one case (its index) and print its outcome")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker:
        return worker(a.seed, a.playtest_share)
    counts: collections.Counter = collections.Counter()
    problems: list[str] = []
    lock = threading.Lock()
    indices = [int(a.only)] if a.only is not None else list(range(a.cases))
    ys = Yardstick.measure().seconds
    t0 = time.perf_counter()
    shares = [indices[k::a.workers] for k in range(a.workers)]
    threads = [threading.Thread(target=run_cases, args=(s, a.seed, a.playtest_share, a.timeout, counts, problems, lock))
               for s in shares if s]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    took = time.perf_counter() - t0
    for p in problems:
        print(p)
    total = sum(counts[k] for k in ("traceback", "hang", "refused", "accepted"))
    print(f"file fuzz: {len(indices)} mutants (seed {a.seed}), {total} command runs in {took:.0f} s "
          f"({took / ys:.0f} yardsticks; yardstick {ys:.2f} s), {a.workers} workers")
    print(f"  tracebacks {counts['traceback']}, hangs (> {a.timeout:g} s) {counts['hang']}, "
          f"refused {counts['refused']}, accepted {counts['accepted']}")
    kinds = sorted({k.split(":")[0] for k in counts if ":" in k})
    for kind in kinds:
        print(f"  {kind}: " + ", ".join(f"{v} {counts[f'{kind}:{v}']}" for v in ("refused", "accepted", "traceback")))
    print("  runs by command: " + ", ".join(f"{k[8:]} {v}" for k, v in sorted(counts.items()) if k.startswith("command ")))
    return 1 if counts["traceback"] or counts["hang"] else 0


if __name__ == "__main__":
    sys.exit(main())
