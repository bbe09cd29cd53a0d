"""What would balance the lopsided shipped scenarios? Runs the what-if search (:mod:`core.whatif`,
``ironcross balance``) on each named scenario toward 50 % for the side the balance sheet finds
losing, prints the ranked table and the wall time (also in yardsticks), and writes one section per
scenario into ``docs/balance.md`` between the markers ``<!-- whatif:begin -->`` and
``<!-- whatif:end -->`` (``benchmarks/balance.py`` keeps that block when it regenerates the sheet).

Usage::

    .venv/bin/python benchmarks/whatif.py --budget 2000 --workers 2            # every lopsided one
    .venv/bin/python benchmarks/whatif.py --scenario 1 --budget 160 --first 4 --confirm 0   # Scenario 1, small
    .venv/bin/python benchmarks/whatif.py --scenario RF1 --budget 2000 --workers 2           # Red Flags 1
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.arguments import positive_int, run_benchmark  # noqa: E402
from benchmarks.yardstick import Yardstick  # noqa: E402

BEGIN, END = "<!-- whatif:begin -->", "<!-- whatif:end -->"

#: the scheme, written into docs/balance.md with the results (the why of the search)
SCHEME = """### What-if search: the scheme

`ironcross balance SCENARIO --target german=50 [--band 5] [--budget 2000] [--try CHANGE]... [--changes FILE]
[--kinds K1,K2] [--first 8] [--precision 10] [--workers W | --scheduler ADDRESS] [--json OUT] [--seed S] [--robust]`
(and the Play mode's *Balance* panel) race candidate changes of a scenario toward a target share of
wins (`core/whatif.py`).

- **Candidates** are changes in the rule system's change grammar (Iron Cross:
  `core/ironcross/whatif_changes.py`, reached through the rule system's `whatif_changes`):
  `turns=8`, `turns+=1`, `russian.oob-=LMG`, `russian.oob+=R`, `german.oob+=MMG`, `LMG@B` names a squad,
  `russian.entry+=1` (or `russian.entry[2]+=1`, the second group), `german.grenades-=2`,
  `german.ips+=1`, `russian.mines.AP+=2`, `german.setup+=1` / `-=1` (the set-up zone one hex ring
  wider / narrower), `russian.entry_edge+=1` / `-=1` (entry hexes one hex wider / narrower along the
  edge), `victory.count+=1` (every "at least N units"; `victory.count[2]` one of them),
  `victory.band+=1` (every victory-point band boundary), `german.hidden+=1`, `russian.ammo+=2`. A
  change file holds one a line (`#` comments). Without `--try` the defaults are every kind that
  applies to the scenario except ammo (the basic rules never deplete ammo, 22.0). Red Flags and Iron
  Crosses has its own grammar (`core/redflags/whatif_changes.py`): `turns+=1`, `german.oob+=ger_pak40`
  (a copy of the side's first unit of that roster type, in its group), `russian.oob-=sov_t60`,
  `russian.setup+=1` (the set-up block one hex wider on every side), `victory.count[1]-=1` (the
  objective hexes a result needs).
- **Validation first**: each candidate scenario is written atomically to its own file and checked
  as `ironcross validate --warnings` checks a scenario, with the engine's set-up; a candidate with
  an error, or with a design warning the scenario did not already have (an objective out of reach,
  hidden hexes nobody can use, ...), is listed with its reason and never played.
- **Common random numbers**: every candidate plays game i on the seed `derive_seed(S, i)`, the
  seeds `ironcross playtest --seed S` uses, so candidates differ by the change, not the dice, and
  a candidate's first n games are those of a playtest of its file.
- **Successive halving with interval elimination** (not a bandit): every candidate plays
  `--first` games; after each round a candidate whose 95 % Wilson interval of the target side's
  share lies wholly outside the band (target +- `--band` points) is dropped, and of the rest only
  the better half by distance to the target goes on (at least three); the survivors' games double
  each round. It stops when at most three survive with intervals no wider than +- `--precision`
  points, when none survives, or when the budget is spent. Why this and not a bandit (UCB,
  Thompson): the question is "which changes land in the band, and how sure", not "maximise wins
  while searching"; halving gives every survivor the same seeds in every round (common random
  numbers stay paired, which a bandit's uneven allocation breaks), its rounds are whole batches
  (one pool or Dask submission per candidate, not one game at a time) and its cost is bounded and
  known in advance.
- **Two-change combinations** of the top three single changes (never two of the same field) race
  with the budget left when no single change's share lies in the band, together with the **second
  chances**: the single changes halved out (not excluded) that edit the same field as one of the
  top three, with the games they played (after 8 games a share is noise: a step of the game length
  between one that overshoots and the scenario as it is must not be lost on its first round).
  Second chances came with commit `50cb2dc`; a section searched at an earlier commit ran without.
- **Robust or AI-dependent**: `--robust` runs the robust verdict (`core/robust_balance.py`) on the
  best change (expensive); otherwise the table says "not checked".
- Ctrl-C keeps the table so far (exit 130); the same seed gives the same table.
- **In the editor** (Play mode, *Balance* panel): *Apply* makes the chosen change one undoable edit,
  *Confirm with a playtest* runs the Playtest dock's batch of the changed scenario, and then the heat
  maps of the change (eliminations, fire targets or fire origins) are drawn beside today's on one
  scale, each titled with its side's share and games; today's batch is the last Playtest batch when
  it played the scenario before the change, else the as-is scenario on the confirming batch's seeds.
"""


#: the lopsided scenarios of the balance sheet (docs/balance.md) and the side each should favour
#: less: the target is the losing side at 50 %
LOPSIDED = {
    "1": ("scenario_1_demyansk_pocket.json", "german"),
    "3": ("scenario_3_closing_the_ring.json", "russian"),
    "4": ("scenario_4_tula.json", "russian"),
    "5": ("scenario_5_through_the_marshes.json", "german"),
    "6": ("scenario_6_spartakovka.json", "german"),
    # Red Flags and Iron Crosses: the Soviet side won 29 of 40 heuristic games (docs/redflags.md)
    "RF1": ("redflags_1_hill_j.json", "german"),
}


def heading(loaded) -> str:
    """The name a section is titled with: an Iron Cross scenario's title ("Scenario 1: Demyansk
    Pocket"), another system's with the system named ("Red Flags and Iron Crosses, Scenario 1:
    Hill J")."""
    if loaded.system.name == "ironcross":
        return loaded.title
    return f"{loaded.system.title.split(' -- ')[0]}, {loaded.title}"


def named_arms(res, side: str) -> list:
    """The arms a section names: the proposed change when its share lies in the band, else the
    nearest share and the nearest of the best-measured candidates (one arm when they are one)."""
    if res.singles.reaches(res.best):
        return [res.best]
    arms = [a for r in (res.singles, res.pairs) if r is not None for a in r.arms
            if a.invalid is None and a.played and a.candidate.changes]
    if not arms:
        return []
    near = min(arms, key=lambda a: (a.distance(side, 0.5), -len(a.played)))
    most = max(len(a.played) for a in arms)
    sure = min((a for a in arms if len(a.played) == most), key=lambda a: a.distance(side, 0.5))
    return [near] if sure is near else [near, sure]


def confirm(arms: list, side: str, games: int, args) -> dict[str, tuple]:
    """Play ``games`` new games of each arm's scenario file: the games of the batch seed that come
    after the search's (game ``i`` on ``derive_seed(seed, i)``, from the first the search did not
    play), so the confirmation shares no game with the search: change label -> (share, low, high,
    games, first game index) of ``side``'s wins."""
    from core.dice import derive_seed
    from core.playtest import DEFAULT_AI, run_batch, wilson_interval

    out = {}
    for a in arms:
        first = len(a.outcomes)
        rs = run_batch(a.path, 0, args.seed, dict(DEFAULT_AI), workers=args.workers, scheduler=args.scheduler,
                       seeds=[derive_seed(args.seed, i) for i in range(first, first + games)])
        played = [r for r in rs if r.outcome != "error"]
        k = sum(1 for r in played if r.outcome == side)
        lo, hi = wilson_interval(k, len(played))
        out[a.candidate.label] = (k / len(played) if played else 0.0, lo, hi, len(played), first)
    return out


def section(number: str, loaded, side: str, res, args, wall: float, ys: Yardstick, n_changes: int,
            confirmed: dict[str, tuple] | None = None, commit: str = "") -> list[str]:
    """The markdown section of one scenario's search (``confirmed``: see :func:`confirm`; ``commit``
    the source it ran at: sections of several runs share the block)."""
    from cli.balance_command import table_lines

    spent = res.pairs.spent if res.pairs else res.singles.spent
    racing = any(a.dropped is None and a.invalid is None for a in (res.pairs or res.singles).arms)
    why = ("the budget spent: the intervals are only as narrow as that" if spent >= args.budget else
           "the race ended before the budget: at most three candidates were left, their intervals narrow enough"
           if racing else
           "the race ended before the budget: no candidate was left in it")
    lines = [f"### What would balance {heading(loaded)}?", "",
             f"`ironcross balance {Path(loaded.path).relative_to(ROOT)} --target {side}=50 --budget {args.budget} "
             f"--first {args.first} --seed {args.seed}{f' --kinds {args.kinds}' if args.kinds else ''}` over the {n_changes} "
             f"default changes that apply{f' of the kinds {args.kinds}' if args.kinds else ''} (heuristic "
             f"AI both sides, {loaded.system.rules[0]} rules): {spent} games of a budget of **{args.budget}** ({why}), "
             f"{ys.fmt(wall)} on {args.workers} workers" + (", interrupted" if res.interrupted else "") +
             f"; searched on {datetime.now(timezone.utc):%Y-%m-%d} at commit `{commit[:10]}`.", ""]
    lo_band, hi_band = res.singles.in_band
    named = named_arms(res, side)

    def said(a) -> str:
        return f"**{a.candidate.label}** ({'; '.join(c.description for c in a.candidate.changes)})"

    if named and res.singles.reaches(named[0]):
        p, lo, hi = named[0].share(side)
        lines.append(f"Proposed: {said(named[0])}: {side} {p:.0%} (95 % interval {lo:.0%}-{hi:.0%}) over "
                     f"{len(named[0].played)} games.")
        lines.append("")
    elif named:
        txt = []
        for a in named:
            p, lo, hi = a.share(side)
            txt.append(f"{said(a)}: {side} {p:.0%} ({lo:.0%}-{hi:.0%}) over {len(a.played)} games")
        if racing:
            lines.append(f"No change of these kinds brought {side} into the band {lo_band:.0%}-{hi_band:.0%} within "
                         f"the budget; candidates were still racing when it was spent. Nearest: "
                         + "; best measured: ".join(txt) + ". A larger budget narrows the intervals.")
        else:
            lines.append(f"No change of these kinds, alone or two together, brings {side} into the band "
                         f"{lo_band:.0%}-{hi_band:.0%}: every candidate left the race (its interval outside the band, "
                         f"or halved as farther from the target). Nearest: " + "; best measured: ".join(txt) + ". The "
                         "imbalance needs a larger change than one step of a default kind (try `--try` with bigger "
                         "steps or other kinds).")
        lines.append("")
    for a in named:
        if confirmed and a.candidate.label in confirmed:
            p, lo, hi, n, first = confirmed[a.candidate.label]
            sp, slo, shi = a.share(side)
            agree = "agrees with" if lo <= shi and slo <= hi else "does NOT agree with"
            lines += [f"Confirming playtest of **{a.candidate.label}**: {n} new games (seed {args.seed}, games "
                      f"{first} to {first + n - 1}, after the search's {first}): {side} {p:.1%} ({lo:.1%}-{hi:.1%}), "
                      f"which {agree} the search's {sp:.0%} ({slo:.0%}-{shi:.0%}).", ""]
    lines += ["```"] + table_lines(res, side, 0.5) + ["```", ""]
    return lines


SECTION = "### What would balance "


def kept_sections(out: Path, searched: set[str]) -> dict[str, list[str]]:
    """Scenario title -> the lines of its section in the what-if block of ``out`` (empty without
    one), for the titles not in ``searched``: a run on some scenarios keeps the others' sections."""
    text = out.read_text(encoding="utf-8") if out.exists() else ""
    if BEGIN not in text or END not in text:
        return {}
    block = text.split(BEGIN, 1)[1].split(END, 1)[0]
    out_sections: dict[str, list[str]] = {}
    title = None
    for line in block.splitlines():
        if line.startswith(SECTION):
            title = line[len(SECTION):].rstrip("?")
            out_sections[title] = []
        elif line.startswith("## ") or line.startswith("### "):
            title = None
        if title is not None:
            out_sections[title].append(line)
    return {t: lines for t, lines in out_sections.items() if t not in searched}


def write_block(out: Path, body: list[str]) -> None:
    """Put ``body`` between the markers of ``out`` (appended when it has none), atomically."""
    text = out.read_text(encoding="utf-8") if out.exists() else ""
    block = "\n".join([BEGIN, *body, END])
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        text = head + block + rest.split(END, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scenario", action="append", choices=list(LOPSIDED),
                    help="Iron Cross scenario number, or RF1 (Red Flags and Iron Crosses 1); repeatable; default all")
    ap.add_argument("--budget", type=int, default=2000)
    ap.add_argument("--first", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=positive_int, default=2)
    ap.add_argument("--scheduler", default=None)
    ap.add_argument("--kinds", default=None, help="comma-separated kinds of change (default: all that apply but ammo)")
    ap.add_argument("--out", default=str(ROOT / "docs" / "balance.md"))
    ap.add_argument("--no-write", action="store_true", help="print only")
    ap.add_argument("--confirm", type=int, default=200, metavar="GAMES",
                    help="play this many games of the change(s) the section names (0: none)")
    args = ap.parse_args(argv)
    from cli.balance_command import table_lines
    from core.rule_system import load_scenario
    from core.whatif import search

    ys = Yardstick.measure()
    print(ys.describe())
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    body = ["## What would balance it?", "",
            "Generated by `benchmarks/whatif.py` (each section says when and at which commit it was searched; "
            "a run on some scenarios keeps the others' sections): the what-if search (`ironcross balance`, see "
            "the scheme below) for each lopsided scenario, toward 50 % for the losing side.", "",
            *SCHEME.splitlines(), ""]
    chosen = [n for n in LOPSIDED if n in set(args.scenario or LOPSIDED)]
    loaded_all = {n: load_scenario(ROOT / "scenarios" / "data" / LOPSIDED[n][0]) for n in LOPSIDED}
    kept = kept_sections(Path(args.out), {heading(loaded_all[n]) for n in chosen})
    missing = [n for n in LOPSIDED if n not in chosen and heading(loaded_all[n]) not in kept]
    if missing:
        body += [f"Not searched yet: Scenario{'s' if len(missing) > 1 else ''} {', '.join(map(str, missing))} of the "
                 "lopsided ones (`benchmarks/whatif.py --scenario N`).", ""]
    for number in LOPSIDED:
        loaded = loaded_all[number]
        if number not in chosen:
            body += kept.get(heading(loaded), [])
            continue
        side = LOPSIDED[number][1]
        wk = loaded.system.whatif_changes()
        changes = wk.default_changes(loaded.data, str(loaded.path),
                                     *((tuple(args.kinds.split(",")),) if args.kinds else ()))
        t0 = time.perf_counter()
        res = search(loaded, side=side, target=0.5, changes=changes, budget=args.budget, seed=args.seed,
                     first=args.first, workers=args.workers, scheduler=args.scheduler,
                     on_progress=lambda s, b, _a: print(f"  {s}/{b} games", end="\r", flush=True))
        wall = time.perf_counter() - t0
        print()
        for line in table_lines(res, side, 0.5):
            print(line)
        print(f"{heading(loaded)}: wall {ys.fmt(wall)}")
        confirmed = confirm(named_arms(res, side), side, args.confirm, args) if args.confirm else None
        for label, (p, lo, hi, n, first) in (confirmed or {}).items():
            print(f"confirmed {label}: {side} {p:.1%} [{lo:.1%}-{hi:.1%}] over {n} new games from game {first}")
        body += section(number, loaded, side, res, args, wall, ys, len(changes), confirmed, commit)
    if not args.no_write:
        write_block(Path(args.out), body)
        print(f"wrote the what-if block of {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(run_benchmark(main))
