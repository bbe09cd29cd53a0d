"""A benchmark stopped by ``kill PID`` (SIGTERM to the script alone, as one stops a long run in the
background) stops its pool's workers with it: they leave stop signals to their parent, so without
the benchmarks' entry point (:func:`benchmarks.arguments.run_benchmark`) they played on as
orphans. The run ends with one line naming the stop and exit 130, never a traceback."""

from __future__ import annotations

import select
import signal
import subprocess
import sys
from pathlib import Path

import psutil

from tests.scenario_copies import scenario_copy

ROOT = Path(__file__).resolve().parents[2]
S1 = ROOT / "scenarios" / "data" / "scenario_1_demyansk_pocket.json"


def test_sigterm_to_a_benchmark_stops_its_workers_and_says_so(tmp_path):
    sc = scenario_copy(tmp_path, S1, turns=2)
    p = subprocess.Popen([sys.executable, "benchmarks/blunder_cost.py", "--scenario", str(sc), "--games", "400",
                          "--workers", "2", "--variant", "hidden_discipline=2"], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    parent = psutil.Process(p.pid)
    try:
        workers: list[psutil.Process] = []
        for _ in range(1200):  # until both pool workers run (at most 2 minutes)
            workers = parent.children(recursive=True)
            if len(workers) >= 2 or p.poll() is not None:
                break
            select.select([], [], [], 0.1)
        assert p.poll() is None and len(workers) >= 2, p.communicate()
        p.send_signal(signal.SIGTERM)  # the script alone, not its process group
        out, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 130, out + err
    assert "Traceback" not in err and err.strip().splitlines()[-1].startswith("stopped"), err
    gone, alive = psutil.wait_procs(workers, timeout=30)
    assert not alive, [w.pid for w in alive]  # no worker plays on without its parent
