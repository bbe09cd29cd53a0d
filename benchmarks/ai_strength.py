"""The AI strength gate: the heuristic AI against the random player, each side of each
shipped scenario. Prints a table, asserts nothing.

Every shipped scenario of every rule system (``core.rule_system``): Iron Cross's by number, the
others by key ("redflags_1", "twentymm_1"). For each scenario and each side the heuristic player
plays that side and the random player the other, over ``--games`` games (default 40, seeded as
``ironcross playtest`` seeds them). Columns: wins / losses / draws / errors of the heuristic side;
its share of the decisive games won with the 95 % Wilson interval
(``core.playtest.wilson_interval``); its share of all games played to the end that it lost; the
median wall time of a game; the mean Game Turns a game lasted; the mean number of its units a
game that never entered / never acted (the trust report). ``--ended-by`` adds under each row how
the games ended (the system's reason, up to its first colon: Red Flags' "sudden death", the 20 mm
rules' "the last turn ended", ...). Games that raised are listed and left out of the shares.

Targets: the heuristic side wins at least 90 % of the decisive games everywhere and
loses at most 5 % of all games. A scenario's balance (heuristic against heuristic) of any system:
``ironcross playtest FILE --games N --seed S`` (its default players; outcome shares with their
intervals, game length); Iron Cross's balance sheet: ``benchmarks/balance.py``.

Run: .venv/bin/python benchmarks/ai_strength.py                       (40 games a cell: long)
     .venv/bin/python benchmarks/ai_strength.py --games 4 --workers 1 --scenarios 1,3
     .venv/bin/python benchmarks/ai_strength.py --scenarios redflags_1,twentymm_1 --ended-by
     .venv/bin/python benchmarks/ai_strength.py --sides german --json out.json
     .venv/bin/python benchmarks/ai_strength.py --scenarios 1,5 --settings stand_up_to_move=0

``--settings`` plays Iron Cross's heuristic with behaviour settings (``core/ironcross/ai/settings.py``,
docs/ai.md) in every Iron Cross cell: the gate a behaviour change must pass before it becomes a default.
The other systems' cells play their default players.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.arguments import positive_int, run_benchmark  # noqa: E402
from benchmarks.yardstick import Yardstick  # noqa: E402
from core.playtest import run_batch, trust_report, wilson_interval  # noqa: E402

DATA = ROOT / "scenarios" / "data"
SIDES = ("german", "russian")


def scenario_paths() -> dict[int, Path]:
    """Scenario number -> file of each shipped scenario (``scenario_N_*.json``)."""
    out = {}
    for p in sorted(DATA.glob("scenario_*.json")):
        try:
            out[int(p.stem.split("_")[1])] = p
        except (IndexError, ValueError):
            continue
    return out


def other_system_paths() -> dict[str, Path]:
    """Key -> file of each shipped scenario of a rule system other than Iron Cross (its top-level
    ``rule_system``; ``redflags_1_hill_j.json`` -> "redflags_1")."""
    out = {}
    for p in sorted(DATA.glob("*.json")):
        if p.stem.startswith("scenario_"):
            continue
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and data.get("rule_system") not in (None, "ironcross"):
            out["_".join(p.stem.split("_")[:2])] = p
    return out


def cell(path: Path, side: str, games: int, seed: int, workers: int, replays: str | None = None,
         settings: str | None = None) -> dict:
    """One cell of the table: the heuristic AI as ``side`` against random, ``games`` games;
    ``settings``: its behaviour settings (``"name=value,..."``), None for the defaults."""
    other = "russian" if side == "german" else "german"
    ai = {side: f"heuristic:{settings}" if settings else "heuristic", other: "random"}
    t0 = time.perf_counter()
    rdir = str(Path(replays) / f"{path.stem}_{side}") if replays else None
    rs = run_batch(str(path), games, seed, ai, workers=workers, replay_dir=rdir)
    wins = sum(r.outcome == side for r in rs)
    losses = sum(r.outcome == other for r in rs)
    draws = sum(r.outcome == "draw" for r in rs)
    errors = [r for r in rs if r.outcome == "error"]
    played = wins + losses + draws
    dec = wins + losses
    lo, hi = wilson_interval(wins, dec)
    ended_by = Counter((r.reason or "").split(":")[0].strip() or "-" for r in rs if r.outcome != "error")
    tr = trust_report(rs)
    return {"scenario": path.stem, "side": side, "games": games, "wins": wins, "losses": losses, "draws": draws,
            "errors": len(errors), "decisive_won": wins / dec if dec else None, "ci95": (lo, hi),
            "lost_share": losses / played if played else None,
            "median_seconds": statistics.median([r.seconds for r in rs]) if rs else 0.0,
            "mean_turns": statistics.mean([r.turns for r in rs if r.outcome != "error"]) if played else None,
            "ended_by": dict(ended_by.most_common()),
            "never_entered": tr["never_entered"][side]["mean"], "never_acted": tr["never_acted"][side]["mean"],
            "idle_most_often": {"never_entered": tr["never_entered"][side]["most_often"],
                                "never_acted": tr["never_acted"][side]["most_often"]},
            "error_games": [{"seed": r.seed, "index": r.index, "error": (r.error or "").splitlines()[0],
                             "replay": r.replay} for r in errors],
            "wall_seconds": time.perf_counter() - t0}


def meets(c: dict) -> bool:
    return (c["decisive_won"] is not None and c["decisive_won"] >= 0.9 and c["lost_share"] is not None
            and c["lost_share"] <= 0.05)


def print_row(c: dict, ended_by: bool = False, ys: Yardstick | None = None) -> None:
    """One row of the table; ``ended_by``: and a line of how the cell's games ended; ``ys``: the
    median seconds a game also as yardsticks (column ys/game)."""
    dw = "    n/a" if c["decisive_won"] is None else f"{c['decisive_won']:6.1%}"
    ci = "" if c["decisive_won"] is None else f"[{c['ci95'][0]:4.0%}-{c['ci95'][1]:4.0%}]"
    lost = "  n/a" if c["lost_share"] is None else f"{c['lost_share']:5.1%}"
    turns = "  n/a" if c["mean_turns"] is None else f"{c['mean_turns']:5.1f}"
    ok = "ok" if meets(c) else "SHORT"
    print(f"{c['scenario'][:28]:28s} {c['side']:7s} {c['wins']:4d} {c['losses']:4d} {c['draws']:4d} {c['errors']:4d}"
          f"  {dw} {ci:13s} {lost:>6s} {c['median_seconds']:7.1f}"
          + (f" {ys.multiple(c['median_seconds']):7.1f}" if ys else "")
          + f" {turns:>5s}  {c['never_entered']:5.1f}"
          f" {c['never_acted']:5.1f}  {ok}", flush=True)
    if ended_by:
        print("    ended by: " + "; ".join(f"{n} x {why}" for why, n in c["ended_by"].items()))
    for e in c["error_games"]:
        print(f"    error, seed {e['seed']}: {e['error']}" + (f" (replay {e['replay']})" if e["replay"] else ""))


def select_scenarios(ap: argparse.ArgumentParser, text: str | None,
                     other_systems: bool = False) -> dict[int | str, Path]:
    """Scenario number -> file of the shipped Iron Cross scenarios ``--scenarios`` names ("1,3,6";
    all when ``text`` is empty), in the order given; with ``other_systems`` also the shipped
    scenarios of the other rule systems, by key ("redflags_1", "twentymm_1"; all of them when
    ``text`` is empty). A bad list ends the program through ``ap.error``."""
    paths: dict[int | str, Path] = dict(scenario_paths())
    others = other_system_paths() if other_systems else {}
    if not text:
        return {**paths, **others}
    wanted: list[int | str] = []
    for x in (x.strip() for x in text.split(",")):
        if not x:
            continue
        if x in others:
            wanted.append(x)
            continue
        try:
            wanted.append(int(x))
        except ValueError:
            ap.error(f"--scenarios expects numbers (e.g. 1,3,6){' or keys such as ' + ', '.join(others) if others else ''}"
                     f", not {x!r}")
    missing = [n for n in wanted if n not in paths and n not in others]
    if missing:
        ap.error(f"no shipped scenario {missing}; known: {sorted(paths)}" + (f" and {', '.join(others)}" if others else ""))
    return {n: paths[n] if n in paths else others[n] for n in wanted}


def check_settings(ap: argparse.ArgumentParser, text: str, option: str) -> None:
    """Iron Cross heuristic behaviour settings ``text`` ("name=value,...") checked before any game
    is played: an unknown name or a value out of range ends the program through ``ap.error``
    (exit 2) with the setting named."""
    from core.ironcross.ai.settings import SettingsError, parse_settings

    try:
        parse_settings(text, f"{option}: ")
    except SettingsError as e:
        ap.error(str(e))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=positive_int, default=40, help="games per scenario and side (default 40)")
    ap.add_argument("--workers", type=positive_int, default=os.cpu_count() or 1, help="local worker processes")
    ap.add_argument("--scenarios", default=None,
                    help="comma-separated Iron Cross scenario numbers and other systems' keys, e.g. 1,3,redflags_1 "
                         "(default: every shipped scenario of every rule system)")
    ap.add_argument("--sides", default="german,russian", help="sides the heuristic AI plays (default both)")
    ap.add_argument("--seed", type=int, default=1, help="batch seed (each game's seed derives from it)")
    ap.add_argument("--replays", default=None, help="save every game's replay under this folder")
    ap.add_argument("--json", dest="json_out", default=None, help="also write the table as JSON here")
    ap.add_argument("--ended-by", action="store_true", help="print under each row how its games ended (the reason)")
    ap.add_argument("--settings", default=None, metavar="NAME=VALUE,...",
                    help="Iron Cross heuristic behaviour settings for every Iron Cross cell (e.g. stand_up_to_move=0)")
    args = ap.parse_args(argv)
    if args.settings:
        check_settings(ap, args.settings, "--settings")
    paths = select_scenarios(ap, args.scenarios, other_systems=True)
    sides = [s.strip() for s in args.sides.split(",") if s.strip()]
    if any(s not in SIDES for s in sides):
        ap.error("--sides: german and/or russian")
    ys = Yardstick.measure()
    print(ys.describe())
    print(f"Heuristic AI{' (settings ' + args.settings + ')' if args.settings else ''} against random, "
          f"{args.games} games per cell, seed {args.seed}, {args.workers} worker(s). "
          "Target: >= 90 % of decisive games won, <= 5 % of all games lost.")
    print(f"{'scenario':28s} {'side':7s} {'won':>4s} {'lost':>4s} {'draw':>4s} {'err':>4s}  {'dec.won':>6s} "
          f"{'95 % CI':13s} {'lost':>6s} {'s/game':>7s} {'ys/game':>7s} {'turns':>5s}  {'!ent':>5s} {'!act':>5s}")
    t0 = time.perf_counter()
    cells = []
    for n, path in paths.items():
        for side in sides:
            c = cell(path, side, args.games, args.seed, args.workers, args.replays,
                     args.settings if isinstance(n, int) else None)
            cells.append(c)
            c["median_yardsticks"] = ys.multiple(c["median_seconds"])
            print_row(c, args.ended_by, ys)
    short = [c for c in cells if not meets(c)]
    print(f"\n{len(cells) - len(short)} of {len(cells)} cells meet the target; total {ys.fmt(time.perf_counter() - t0, 0)}."
          " (!ent / !act: the heuristic side's units a game that never entered / never acted)")
    if args.json_out:
        Path(args.json_out).write_text(json.dumps({"games": args.games, "seed": args.seed, "settings": args.settings, "yardstick_seconds": ys.seconds, "cells": cells}, indent=1)
                                       + "\n")
        print(f"wrote {args.json_out}")
    return 0


if __name__ == "__main__":
    sys.exit(run_benchmark(main))
