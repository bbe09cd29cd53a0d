"""What each blunder kind costs (docs/ai.md, "Blunder report"): paired batches of games.

For a scenario and a side, the default heuristic and a variant that avoids one blunder kind through
its behaviour settings play the same game seeds against the unchanged opponent (the default
heuristic). For each kind it prints how often the side made that blunder a game with the defaults
and with the variant (the variant must avoid it, or the comparison says nothing), the side's share
of wins for both, and the change with its paired 95 % interval (per-game differences); plus the
seconds a game as a multiple of the yardstick (``s = 0; for i in range(2_000_000): s += i * i % 7``,
timed in the same run). A kind the default never commits in the batch is not played (nothing to
avoid; ``--play-all`` plays it anyway).

Run: .venv/bin/python benchmarks/blunder_cost.py --scenario 1 --side german --games 40 --workers 2
     .venv/bin/python benchmarks/blunder_cost.py --scenario 3 --side russian --kinds hidden_revealed_by_own_move
     .venv/bin/python benchmarks/blunder_cost.py --scenario 5 --games 200 --variant aggression=2
     .venv/bin/python benchmarks/blunder_cost.py --scenario 3 --side both --games 200 --variant hold_objective=3,defend_hold_objective=3

``--variant SETTINGS`` plays any settings variant the same way (a behaviour change to keep or drop:
docs/ai.md, "Not done yet": the variants measured), with how many of the paired games it played differently;
for a scenario file of another rule system, its own kinds (``SYSTEM_VARIANTS``: Red Flags', the 20 mm
rules') and ``--variant`` in that system's settings::

     .venv/bin/python benchmarks/blunder_cost.py --scenario scenarios/data/redflags_1_hill_j.json --side both --games 200
     .venv/bin/python benchmarks/blunder_cost.py --scenario scenarios/data/redflags_1_hill_j.json --side both --variant hold_objective=2
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.arguments import positive_int, run_benchmark  # noqa: E402
from benchmarks.yardstick import Yardstick  # noqa: E402
from core.playtest import run_batch, wilson_interval  # noqa: E402
from core.robust_balance import paired_gain  # noqa: E402

#: rule system -> kind -> the settings of a variant that avoids it (each system's heuristic settings:
#: core/ironcross/ai/settings.py, core/redflags/ai_settings.py, core/twentymm/ai_settings.py); a
#: system without kinds here measures --variant only
SYSTEM_VARIANTS: dict[str, dict[str, str]] = {
    "ironcross": {
        "intensive_fire_burnout": "intensive_fire_cost=1000.0",
        "hidden_revealed_by_own_move": "hidden_discipline=5.0",
        "halted_in_open_under_mg": "open_stack_caution=1.0",
        "lone_assault_failed": "assault_ratio_last_turn=1.3",
        "objective_abandoned": "hold_objective=3.0,defend_hold_objective=3.0",
        "decisive_enemy_unattacked": "end_game_concentration_per_enemy=6.0,objective_target_factor_last_turn=8.0",
        "poor_target": "poor_target_ratio=0.5",
        "known_minefield_reentered": "mine_caution=1",
    },
    "redflags": {
        "hit_together": "crowd_cost=4.0,setup_crowd_cost=4.0",
        "dug_in_left": "dug_in_stay=4.0",
        "objective_abandoned": "hold_objective=4.0",
    },
    "twentymm": {
        "hidden_revealed_by_own_move": "hidden_discipline=4.0",
        "objective_abandoned": "hold_objective=4.0",
    },
}
#: Iron Cross's (the shipped scenarios by number)
VARIANTS: dict[str, str] = SYSTEM_VARIANTS["ironcross"]


def _per_game(results, side: str, kind: str) -> float:
    played = [r for r in results if r.outcome != "error"]
    return sum(len((r.blunders.get(side) or {}).get(kind, [])) for r in played) / max(1, len(played))


def _share(results, side: str) -> str:
    played = [r for r in results if r.outcome != "error"]
    k = sum(1 for r in played if r.outcome == side)
    lo, hi = wilson_interval(k, len(played))
    return f"{k}/{len(played)} {k / max(1, len(played)):.0%} [{lo:.0%}-{hi:.0%}]"


def _finish(results, side: str) -> str:
    """The "no finish" evidence: games ``side`` lost with only one or two enemy units left on the
    objective hexes at the end, and the enemy units there a game (``GameResult.objective_units``)."""
    other = "russian" if side == "german" else "german"
    played = [r for r in results if r.outcome != "error"]
    close = sum(1 for r in played if r.won_with_few_left(other))
    mean = sum(r.objective_units.get(other, 0) for r in played) / max(1, len(played))
    return f"lost with 1-2 enemy units on the objectives {close}, enemy units there {mean:.2f} a game"


def _differ(base, var) -> int:
    """Paired games (the same seed) that the variant played differently: another result or
    another sequence of actions."""
    return sum(1 for a, b in zip(base, var) if (a.outcome, a.actions) != (b.outcome, b.actions))


def _side_rows(path: str, args, base, side: str, kinds: list[str], ai: dict[str, str],
               blunder_kinds=tuple(VARIANTS), finish: bool = True, variants: dict[str, str] = VARIANTS) -> None:
    """Print ``side``'s rows: its default share, each kind's variant and each ``--variant`` against
    the same default batch ``base`` (the other side unchanged); ``blunder_kinds``: the kinds the
    scenario's rule system reports, counted before and after each ``--variant``; ``finish``: print
    the "no finish" evidence (Iron Cross's runner counts the units left on the objectives);
    ``variants``: the system's kind -> settings that avoid it."""
    print(f"default: {side} wins {_share(base, side)}" + (f"; {_finish(base, side)}" if finish else ""))
    if kinds:
        print(f"{'kind':30s} {'a game: default':>15s} {'variant':>8s}  {'variant wins':24s} change, points [95 %]")
    for kind in kinds:
        committed = _per_game(base, side, kind)
        if committed == 0 and not args.play_all:
            # nothing to avoid: the kind costs the side nothing in these games (a variant batch would
            # only measure what its settings change elsewhere, which --variant does)
            print(f"{kind:30s} {committed:15.2f} {'-':>8s}  {'not played: never committed':24s} "
                  f"({variants[kind]})", flush=True)
            continue
        spec = f"heuristic:{variants[kind]}"
        var = run_batch(path, args.games, args.seed, {**ai, side: spec}, workers=args.workers)
        g, lo, hi = paired_gain(base, var, side)
        print(f"{kind:30s} {committed:15.2f} {_per_game(var, side, kind):8.2f}  "
              f"{_share(var, side):24s} {g:+.1f} [{lo:+.1f}, {hi:+.1f}]   ({variants[kind]}; "
              f"{_differ(base, var)} games differ)", flush=True)
    for text in args.variant:
        var = run_batch(path, args.games, args.seed, {**ai, side: f"heuristic:{text}"}, workers=args.workers)
        g, lo, hi = paired_gain(base, var, side)
        changed = _differ(base, var)
        print(f"variant {text}: {side} wins {_share(var, side)}, change {g:+.1f} points "
              f"[{lo:+.1f}, {hi:+.1f}]; {changed} of {len(base)} games played differently"
              + (f"; {_finish(base, side)} -> {_finish(var, side)}" if finish else ""), flush=True)
        # the blunder table before and after: what the change does to each kind, a game
        rows = [f"{k} {_per_game(base, side, k):.2f} -> {_per_game(var, side, k):.2f}" for k in blunder_kinds]
        if rows:
            print(f"  {side} blunders a game, default -> variant: " + "; ".join(rows), flush=True)


def _scenario(ap: argparse.ArgumentParser, text: str, shipped: dict[int, Path]) -> tuple[str, str, object]:
    """(file, name for the heading, rule system) of ``--scenario``: a shipped Iron Cross scenario's
    number or a scenario file of any rule system (the blunder kinds' variants are Iron Cross's; a
    ``--variant`` is any system's settings); anything else ends the program through ``ap.error``
    (exit 2) naming the problem."""
    from core.rule_system import get as system_named
    from core.rule_system import load_scenario
    from maps.document_file import DocumentError

    if text.strip().isdigit():
        n = int(text)
        if n not in shipped:
            ap.error(f"--scenario: no shipped scenario {n} (shipped: {', '.join(map(str, sorted(shipped)))})")
        return str(shipped[n]), f"Scenario {n}", system_named("ironcross")
    try:
        loaded = load_scenario(text)
    except DocumentError as e:
        ap.error(f"--scenario: {e}")
    if loaded.system.settings_space is None:
        ap.error(f"--scenario {text}: {loaded.system.title}'s players take no behaviour settings")
    return text, Path(text).name, loaded.system


def _checked_variant(ap: argparse.ArgumentParser, system, text: str) -> None:
    """A ``--variant`` settings text checked by the scenario's rule system before any game: an
    unknown setting or a value out of range ends the program through ``ap.error`` (exit 2)."""
    try:
        system.player_settings(f"heuristic:{text}")
    except ValueError as e:
        ap.error(f"--variant: {e}")


def main(argv: list[str] | None = None) -> int:
    from benchmarks.ai_strength import scenario_paths

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", default="1",
                    help="shipped Iron Cross scenario number, or a scenario file of any rule system whose "
                         "heuristic takes settings (one without blunder kinds: --variant only) (default 1)")
    ap.add_argument("--side", choices=("german", "russian", "both"), default="german",
                    help="the side that plays the variants (both: each in turn, against one default batch; "
                         "default german)")
    ap.add_argument("--games", type=positive_int, default=40, help="games a batch (default 40)")
    ap.add_argument("--seed", type=int, default=1, help="batch seed: game i of every batch uses a seed derived from "
                                                        "it, so the batches are paired (default 1)")
    ap.add_argument("--workers", type=positive_int, default=os.cpu_count() or 1,
                    help="local worker processes (default: the CPU count)")
    ap.add_argument("--kinds", default=None, help="comma-separated blunder kinds of the scenario's rule system "
                                                  "(default: all, unless --variant is given)")
    ap.add_argument("--variant", action="append", default=[], metavar="SETTINGS",
                    help="also (or, without --kinds, only) play this settings variant, e.g. "
                         "'defend_reaction_move_threshold=5' (repeatable): a behaviour change measured the same way")
    ap.add_argument("--play-all", action="store_true",
                    help="also play the kinds the default never commits in the batch (skipped otherwise: "
                         "nothing to avoid)")
    args = ap.parse_args(argv)
    path, name, system = _scenario(ap, args.scenario, scenario_paths())
    variants = SYSTEM_VARIANTS.get(system.name, {})
    if not variants:
        # no blunder kinds with variants: this system measures --variant only
        if args.kinds:
            ap.error(f"--kinds: {system.title} has no blunder kinds with variants; its scenario "
                     "measures --variant SETTINGS")
        if not args.variant:
            ap.error(f"--variant SETTINGS is needed for a {system.title} scenario (its heuristic's settings)")
        args.kinds = ""
    if args.kinds is None:
        args.kinds = "" if args.variant else ",".join(variants)
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    bad = [k for k in kinds if k not in variants]
    if bad:
        ap.error(f"unknown kind(s) {', '.join(bad)}; known: {', '.join(variants)}")
    for text in args.variant:
        if not text.strip():
            ap.error("--variant: empty (give the settings that differ from the defaults, e.g. aggression=2)")
        _checked_variant(ap, system, text)  # a clear error before any game
    ys = Yardstick.measure().seconds
    ai = {"german": "heuristic", "russian": "heuristic"}
    t0 = time.perf_counter()
    base = run_batch(path, args.games, args.seed, ai, workers=args.workers)
    per = statistics.median(r.seconds for r in base)
    sides = ("german", "russian") if args.side == "both" else (args.side,)
    print(f"{name}, {args.side}, {args.games} paired games, seed {args.seed}; yardstick {ys:.2f} s; "
          f"median game {per:.2f} s = {per / ys:.1f} yardsticks")
    for side in sides:  # one default batch serves both sides: each variant changes one side only
        _side_rows(path, args, base, side, kinds, ai, tuple(system.blunder_kinds), system.name == "ironcross",
                   variants)
    total = time.perf_counter() - t0
    print(f"all batches: {total:.0f} s = {total / ys:.0f} yardsticks")
    return 0


if __name__ == "__main__":
    sys.exit(run_benchmark(main))
