"""``ironcross balance``: what small change would bring a scenario to the balance the designer
wants (:mod:`core.whatif`; ``docs/balance.md``, "What would balance it?")."""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path

import click

from cli.main import MAX_GAMES, InputError, check_backend, cli, playable
from cli.output_file import OUTPUT_FILE

__all__ = ["balance_cmd", "table_lines", "read_change_file"]


def read_change_file(path: str) -> list[str]:
    """The changes of a change file: one a line, in the change grammar; ``#`` starts a comment,
    blank lines are skipped. Raises InputError naming the file for one that cannot be read."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"{path}: cannot read the change file: {e}") from None
    return [line.split("#", 1)[0].strip() for line in text.splitlines() if line.split("#", 1)[0].strip()]


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def table_lines(result, side: str, target: float, robust: str = "not checked") -> list[str]:
    """The ranked table as text: rank, change, each outcome's share with its 95 % interval,
    games, distance to the target in points and what became of it; then the best change."""
    from core.whatif import table_rows

    rows = table_rows(result, side, target)
    w = max([len(r["change"]) for r in rows] + [6])
    out = [f"{'#':>3} {'change':{w}}  {'german':>15}  {'russian':>15}  {'draw':>15}  {'games':>5}  {'dist':>5}  status"]
    for i, r in enumerate(rows, 1):
        if r["status"] == "invalid":
            out.append(f"{i:>3} {r['change']:{w}}  {'':>15}  {'':>15}  {'':>15}  {0:>5}  {'':>5}  "
                       f"invalid, not played: {r['reason']}")
            continue
        cells = []
        for k in ("german", "russian", "draw"):
            s = r["shares"][k]
            # a candidate the budget never reached has no shares: blank, not 0 % [0 %-0 %]
            cells.append(f"{_pct(s['share']):>4} [{_pct(s['ci95'][0])}-{_pct(s['ci95'][1])}]" if r["games"] else "")
        dist = f"{r['distance']:.0f}" if r["distance"] is not None else "-"
        status = ("kept" if r["games"] else "not played: the budget ran out") if r["status"] == "kept" else r["reason"]
        out.append(f"{i:>3} {r['change']:{w}}  {cells[0]:>15}  {cells[1]:>15}  {cells[2]:>15}  {r['games']:>5}  "
                   f"{dist:>5}  {status}")
    best = result.best
    as_is = result.as_is_on_target()
    if as_is is not None:
        p, lo, hi = as_is.share(side)
        out.append(f"No change needed: the scenario as it is -- {side} {_pct(p)} [{_pct(lo)}-{_pct(hi)}] over "
                   f"{len(as_is.played)} games -- is in the band and no change comes closer to the target "
                   f"{_pct(target)}")
    elif best is None:
        out.append("Best change: none played")
    else:
        p, lo, hi = best.share(side)
        lo_b, hi_b = result.singles.in_band
        where = "contains" if lo <= target <= hi else "does not contain"
        reach = "in the band" if lo_b <= p <= hi_b else "outside the band"
        out.append(f"Best change: {best.candidate.label} -- {side} {_pct(p)} [{_pct(lo)}-{_pct(hi)}] over "
                   f"{len(best.played)} games ({reach} {_pct(lo_b)}-{_pct(hi_b)}; its interval {where} the target "
                   f"{_pct(target)}); robust/AI-dependent: {robust}")
    return out


@cli.command("balance")
@click.argument("scenario", type=click.Path())
@click.option("--target", required=True, metavar="SIDE=PERCENT", help="the balance wanted, e.g. german=50")
@click.option("--band", default=5.0, show_default=True, type=click.FloatRange(0, 50),
              help="points either side of the target that count as reaching it")
@click.option("--budget", default=2000, show_default=True, type=click.IntRange(1, MAX_GAMES), help="games in all")
@click.option("--try", "tries", multiple=True, metavar="CHANGE",
              help="a change to try (repeatable; docs/balance.md has the grammar): turns=8, russian.oob-=LMG")
@click.option("--changes", "change_file", type=click.Path(), default=None, metavar="FILE",
              help="a file of changes to try, one a line (# comments)")
@click.option("--kinds", default=None, metavar="K1,K2",
              help="with no --try: the kinds of change tried by default (default: all that apply but ammo)")
@click.option("--first", default=8, show_default=True, type=click.IntRange(1),
              help="games every candidate plays in the first round")
@click.option("--precision", default=10.0, show_default=True, type=click.FloatRange(0.1, 50),
              help="stop when the best candidates' 95 % intervals are no wider than +- this many points")
@click.option("--no-combine", is_flag=True, help="never try two-change combinations")
@click.option("--seed", default=1, show_default=True, type=int, help="batch seed: game i plays derive_seed(S, i)")
@click.option("--ai", "ai_spec", default=None, metavar="SIDE=NAME,...", help="the players (default heuristic)")
@click.option("--rules", default=None, help="rule level (default: the system's first)")
@click.option("--workers", type=click.IntRange(1), default=None, help="local worker processes (default: CPU count)")
@click.option("--scheduler", default=None, metavar="ADDRESS", help="run the games on this Dask scheduler instead")
@click.option("--connect-timeout", type=click.FloatRange(0.1), default=5.0, show_default=True,
              help="seconds to wait for the --scheduler")
@click.option("--json", "json_out", type=OUTPUT_FILE, default=None, help="write the table as JSON")
@click.option("--robust", is_flag=True, help="check the best change's answer against tuned AIs (expensive)")
@click.option("--trials", default=10, show_default=True, type=click.IntRange(2, MAX_GAMES),
              help="with --robust: tuning trials a side (at least 2: the first trial is the defaults)")
@click.option("--tune-games", default=10, show_default=True, type=click.IntRange(1, MAX_GAMES),
              help="with --robust: games a tuning trial")
@click.option("--quiet", is_flag=True, help="no progress bar")
def balance_cmd(scenario: str, target: str, band: float, budget: int, tries: tuple[str, ...], change_file: str | None,
                kinds: str | None, first: int, precision: float, no_combine: bool, seed: int, ai_spec: str | None,
                rules: str | None, workers: int | None, scheduler: str | None, connect_timeout: float,
                json_out: str | None, robust: bool, trials: int, tune_games: int, quiet: bool) -> None:
    """What small change would bring SCENARIO to the --target balance? Candidate changes (the
    defaults that apply to the scenario, or --try / --changes) are validated, the valid ones race
    on the same seeds (successive halving; an interval outside the band drops a candidate), and
    the ranked table and the best change are printed. Ctrl-C keeps the table so far (exit 130)."""
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    from cli.progress_log import LoggedProgress
    from core.playtest import DEFAULT_AI, PlaytestError, parse_ai
    from core.rule_system import load_scenario
    from core.whatif import parse_target, search, table_rows
    from maps.document_file import atomic_write_text

    check_backend(scheduler, connect_timeout)
    with playable(scenario):
        loaded = load_scenario(scenario)
        # playable before any candidate is written or played (a file that is JSON but no scenario stops here)
        loaded.system.load_setup(scenario, seed, None)
    system = loaded.system
    if system.whatif_changes is None:
        raise InputError(f"{scenario}: {system.title} names no what-if changes: nothing to try")
    try:
        side, share = parse_target(target, system.sides)
    except ValueError as e:
        raise click.UsageError(str(e)) from None
    try:
        ai = {**DEFAULT_AI, **parse_ai(ai_spec)} if ai_spec else dict(DEFAULT_AI)
    except ValueError as e:
        raise InputError(f"--ai: {e}") from None
    # the players, their settings and the rules checked as ironcross playtest checks them: else
    # every game would raise and the search would play nothing
    from cli.main import _checked_ai

    ai = _checked_ai(ai, system, scenario, loaded.data)
    try:
        system.resolve_rules(rules, ())
    except ValueError as e:
        raise click.UsageError(f"--rules: {e}") from None
    wk = system.whatif_changes()
    changes = list(tries) + (read_change_file(change_file) if change_file else [])
    try:
        if not changes:
            chosen = tuple(k.strip() for k in kinds.split(",")) if kinds else None
            if chosen:
                bad = [k for k in chosen if k not in wk.KINDS]
                if bad:
                    raise click.UsageError(f"--kinds: unknown kind(s) {', '.join(bad)}; kinds: {', '.join(wk.KINDS)}")
            changes = wk.default_changes(loaded.data, str(loaded.path), *(() if chosen is None else (chosen,)))
        for c in changes:
            wk.parse_change(c, loaded.data, str(loaded.path))
    except ValueError as e:
        raise InputError(f"--try: {e}") from None
    click.echo(f"{loaded.title}: target {side} {share:.0%} +- {band:g} points; {len(changes)} change(s), budget "
               f"{budget} games, first round {first} games each, seed {seed}")
    round_one = (len(changes) + 1) * first  # the scenario as it is races too
    if budget < round_one:
        click.echo(f"NOTE: the first round needs {round_one} games ({len(changes) + 1} candidates, the scenario as it is "
                   f"included, x {first}); a budget of {budget} leaves some candidates unplayed (more --budget, "
                   "fewer --try or a smaller --first)")
    progress = LoggedProgress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                              TextColumn("{task.fields[lead]}"), TimeElapsedColumn(), disable=quiet)
    t0 = time.perf_counter()
    result = None
    from core.playtest import shared_pool

    # the workers start before the progress bar's refresh thread: forked from one thread
    with contextlib.ExitStack() as held:
        try:
            held.enter_context(shared_pool(workers, start=True) if scheduler is None else contextlib.nullcontext())
        except KeyboardInterrupt:
            click.echo("interrupted while the workers started: nothing played", err=True)
            raise SystemExit(130) from None
        held.enter_context(progress)
        task = progress.add_task("games", total=budget, lead="validating")

        def on_progress(spent: int, total: int, arms) -> None:
            alive = [a for a in arms if a.invalid is None and a.dropped is None and a.played]
            lead = min(alive, key=lambda a: a.distance(side, share), default=None)
            progress.update(task, completed=spent,
                            lead=f"{len(alive)} racing; closest {lead.candidate.label} {lead.share(side)[0]:.0%}"
                            if lead else "")

        try:
            result = search(loaded, side=side, target=share, changes=changes, band=band / 100, budget=budget,
                            seed=seed, first=first, precision=precision / 100, combine=not no_combine, ai=ai,
                            rules=rules, workers=workers, scheduler=scheduler, on_progress=on_progress)
        except ValueError as e:
            raise InputError(str(e)) from None
        except PlaytestError as e:
            raise InputError(f"--scheduler: {e}" if scheduler else str(e)) from None
        except KeyboardInterrupt:
            click.echo("interrupted while validating: nothing played", err=True)
            raise SystemExit(130)
    wall = time.perf_counter() - t0
    robust_text, robust_doc = "not checked", None
    if robust and result.best is not None and not result.interrupted:
        from core.robust_balance import robust_balance

        click.echo(f"checking the best change against tuned AIs ({trials} trials x {tune_games} games a side) ...")
        try:
            ans = robust_balance(result.best.path, system, games=max(20, len(result.best.played)), seed=seed,
                                 trials=trials, tune_games=tune_games, workers=workers, scheduler=scheduler)
            robust_text = f"{ans.verdict} ({ans.text})"
            robust_doc = {"verdict": ans.verdict, "text": ans.text}
        except KeyboardInterrupt:
            robust_text = "interrupted"
        except PlaytestError as e:
            raise InputError(f"--scheduler: {e}" if scheduler else str(e)) from None
    if result.interrupted:
        click.echo("INTERRUPTED: the table covers the games played so far", err=True)
    for line in table_lines(result, side, share, robust_text):
        click.echo(line)
    spent = result.pairs.spent if result.pairs else result.singles.spent
    click.echo(f"{spent} games in {wall:.0f} s; candidate files in {result.folder}"
               + ("; two-change combinations raced" if result.pairs else ""))
    if json_out:
        doc = {"scenario": scenario, "target": {"side": side, "share": share, "band": band / 100}, "seed": seed,
               "budget": budget, "spent": spent, "first": first, "ai": ai, "rules": rules,
               "interrupted": result.interrupted, "wall_s": wall, "rows": table_rows(result, side, share),
               "best": result.best.candidate.label if result.best else None,
               "as_is_on_target": result.as_is_on_target() is not None, "robust": robust_doc or robust_text}
        try:
            atomic_write_text(json_out, json.dumps(doc, indent=1) + "\n")
        except OSError as e:
            raise InputError(f"{json_out}: cannot write: {e}") from None
        click.echo(f"wrote {json_out}")
    if result.interrupted:
        raise SystemExit(130)
