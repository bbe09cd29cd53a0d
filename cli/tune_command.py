"""``ironcross tune``: search one side's AI behaviour settings against the fixed other side
(:mod:`core.tuning`, Optuna), and write them as a settings file ``--ai SIDE=heuristic:@FILE`` reads
and a scenario's ``ai_settings`` can hold."""

from __future__ import annotations

import contextlib
import json
import shlex
import sys
from pathlib import Path

import click

from cli.main import MAX_GAMES, InputError, check_backend, cli, playable, refuse_other_sides_file
from cli.output_file import OUTPUT_FILE

__all__ = ["tune_cmd", "share_line", "robust_playtest", "robust_lines", "study_files", "kept_files", "eta_progress",
           "time_left_column"]


def eta_progress(*extra, quiet: bool = False, get_time=None):
    """A rich progress display for the long runs (tuning trials, robust stages): a bar a task with
    its description, count, the ``extra`` columns, time elapsed and time left (``ETA``, from
    :func:`time_left_column`); ``get_time``: the clock (tests). A task's field ``kept`` is the
    count it took at once from an earlier run (kept trials or games): set it with the count
    (``progress.update(task, completed=n, kept=n)``) so that it counts as done, not as pace."""
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    from cli.progress_log import LoggedProgress

    return LoggedProgress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), *extra,
                          TimeElapsedColumn(), TextColumn("ETA"), time_left_column(), disable=quiet, get_time=get_time)


def time_left_column():
    """A rich progress column: the time left of a task at the pace of the work it played since it
    started (its ``completed`` less its field ``kept``, over its elapsed time), ``-:--:--`` until
    it has played some. Over the whole task, not rich's last 30 s: one tuning trial of a large
    scenario (20 games at 9 s on 2 workers) takes longer than that."""
    from rich.progress import ProgressColumn
    from rich.text import Text

    from cli.progress_log import clock, time_left

    class TimeLeftColumn(ProgressColumn):
        def render(self, task) -> Text:
            left = time_left(task)
            return Text("-:--:--" if left is None else clock(left), style="progress.remaining")

    return TimeLeftColumn()


def share_line(label: str, d: dict) -> str:
    """``"  default  12 of 40 won  30.0 %  [18.1 % - 45.4 %], 3 draws, score 0.341"``."""
    lo, hi = d["ci95"]
    return (f"  {label:8s} {d['wins']:3d} of {d['games']} won  {d['share']:6.1%}  [{lo:.1%} - {hi:.1%}], "
            f"{d['draws']} draws, score {d['score']:.3f}")


@cli.command("tune")
@click.argument("scenario", type=click.Path())
@click.option("--side", required=True, help="the side whose AI settings are searched (german or russian)")
@click.option("--trials", default=30, show_default=True, type=click.IntRange(1, MAX_GAMES),
              help="trials in the study (a resumed study counts the ones it has)")
@click.option("--games", default=20, show_default=True, type=click.IntRange(1, MAX_GAMES),
              help="games a trial; the same seeds for every trial (common random numbers)")
@click.option("--seed", default=1, show_default=True, type=int, help="games' batch seed and the sampler's seed")
@click.option("--player", default="heuristic", show_default=True, help="the tuned side's player")
@click.option("--against", "against", default="heuristic", show_default=True, metavar="SPEC",
              help="the other side's player, with settings if any (heuristic:@settings.json)")
@click.option("--check-games", type=click.IntRange(0, MAX_GAMES), default=None,
              help="games of the final check on fresh seeds, default and tuned each (default: --games; 0: none)")
@click.option("--storage", type=click.Path(), default=None,
              help="the Optuna SQLite file (default: OUT.optuna.db); the same file resumes or extends the study")
@click.option("--workers", type=click.IntRange(1), default=None, help="local worker processes (default: CPU count)")
@click.option("--scheduler", default=None, metavar="ADDRESS", help="run the games on this Dask scheduler instead")
@click.option("--connect-timeout", type=click.FloatRange(0.1), default=5.0, show_default=True,
              help="seconds to wait for the --scheduler")
@click.option("-o", "--out", "out", required=True, type=OUTPUT_FILE, help="the settings file to write")
@click.option("--quiet", is_flag=True, help="no progress bar")
def tune_cmd(scenario: str, side: str, trials: int, games: int, seed: int, player: str, against: str,
             check_games: int | None, storage: str | None, workers: int | None, scheduler: str | None,
             connect_timeout: float, out: str, quiet: bool) -> None:
    """Search the behaviour settings of SIDE's AI that maximise its score in SCENARIO against the
    unchanged other side (Optuna; docs/ai.md), check them on fresh seeds and write them to OUT.

    A game scores 1 won, 0.5 drawn, 0 lost, plus a tie-breaker within 0.1 for the units eliminated
    on both sides. Ctrl-C stops the search and keeps the best found so far (exit 130)."""
    from rich.progress import TextColumn

    from core.playtest import PlaytestError
    from core.rule_system import for_scenario
    from maps.document_file import atomic_write_text

    check_backend(scheduler, connect_timeout)
    with playable(scenario):
        system = for_scenario(scenario)
        system.load_setup(scenario, seed, None)
    side = side.strip().lower()
    if side not in system.sides:
        raise click.UsageError(f"--side: {side!r} is no side of {system.title} ({' or '.join(system.sides)})")
    if system.settings_space is None:
        raise InputError(f"{scenario}: {system.title}'s players take no behaviour settings: nothing to tune")
    try:
        space, defaults = system.settings_space(player)
    except KeyError:
        raise InputError(f"--player: {player!r} takes no behaviour settings in {system.title}") from None
    other = next(s for s in system.sides if s != side)
    refuse_other_sides_file("--against", other, against)  # the opponent plays the other side
    try:
        against = system.player_settings(against) if ":" in against else against
    except ValueError as e:
        raise InputError(f"--against: {e}") from None
    if against.partition(":")[0] not in system.players:
        raise InputError(f"--against: unknown AI player {against!r}; known: {', '.join(sorted(system.players))}")
    storage = storage or out + ".optuna.db"
    check_games = games if check_games is None else check_games
    click.echo(f"Tuning {side} ({player}) against {other} ({against}) in {scenario}: {trials} trials x {games} "
               f"games, seed {seed}, study in {storage}")
    import time

    from core.playtest import shared_pool
    from core.robust_balance import scenario_version
    from core.tuning import default_study_name, read_studies, stored_setup_problem, study_setup, tune

    # a kept study this run cannot extend is refused before anything starts
    name = default_study_name(scenario, side, player)
    kept = 0
    try:
        problem = stored_setup_problem(storage, name, study_setup(games, seed, against, None, space, defaults,
                                                                  scenario_version(scenario)))
        if problem is None and Path(storage).is_file():
            kept = next((st.trials for st in read_studies(storage) if st.name == name), 0)
    except ImportError as e:
        raise InputError(f"tune needs Optuna (pip install optuna): {e}") from None
    except ValueError as e:
        raise InputError(str(e)) from None
    if problem is not None:
        raise InputError(problem)
    if kept:
        click.echo(f"the study has {kept} trial(s) already: " + (f"{max(0, trials - kept)} more to run" if trials > kept
                                                                  else "none to run (a larger --trials extends it)"))
    progress = eta_progress(TextColumn("{task.fields[best]}"), quiet=quiet)
    t0 = time.perf_counter()
    try:
        # the workers start before the progress bar's refresh thread: forked from one thread
        with shared_pool(workers, start=True) if scheduler is None else contextlib.nullcontext(), progress:
            # a resumed study's trials are done, not pace
            done = min(kept, trials)
            task = progress.add_task("trials", total=trials, best="", completed=done, kept=done)
            check_task = None

            def on_trial(done: int, score: float, best: float) -> None:
                progress.update(task, completed=done, best=f"last {score:.3f} best {best:.3f}")

            def on_check_start(total: int, same: bool) -> None:
                # no trial beat the defaults: one batch is both the default's and the tuned check
                nonlocal check_task
                check_task = progress.add_task("check", total=total,
                                               best="fresh seeds, tuned = defaults: one batch" if same else "fresh seeds")

            def on_check(n: int) -> None:
                progress.update(check_task, advance=n)

            res = tune(scenario, side, space, player=player, opponent=against, trials=trials, games=games, seed=seed,
                       workers=workers, scheduler=scheduler, storage=storage, check_games=check_games,
                       defaults=defaults, canonical=system.player_settings, on_trial=on_trial, on_check=on_check,
                       on_check_start=on_check_start)
    except KeyboardInterrupt:
        click.echo("interrupted before any trial completed: nothing written", err=True)
        raise SystemExit(130)
    except PlaytestError as e:
        raise InputError(f"--scheduler: {e}" if scheduler else str(e)) from None
    except ImportError as e:
        raise InputError(f"tune needs Optuna (pip install optuna): {e}") from None
    except ValueError as e:  # a study stored with other games/seeds, or no study file
        raise InputError(str(e)) from None
    by = "ironcross tune " + " ".join(shlex.quote(a) for a in sys.argv[2:]) if sys.argv[1:2] == ["tune"] else \
        f"ironcross tune {scenario} --side {side} --trials {trials} --games {games} --seed {seed}"
    body = res.best_spec.partition(":")[2]  # the canonical k=v text (defaults left out)
    settings = {k: json.loads(v) for k, v in (kv.split("=", 1) for kv in body.split(",") if kv)}
    # no setting moved (no trial beat the defaults): the file holds the defaults and says so
    doc = {"player": player, "side": side, "settings": settings,
           "provenance": "tuned" if settings else "default", "by": by, "scenario": scenario, "against": against, "seed": seed,
           "trials": res.trials, "games": games, "score": res.best_score, "default_score": res.default_score,
           "interrupted": res.interrupted, "check": res.check}
    try:
        atomic_write_text(out, json.dumps(doc, indent=1) + "\n")
    except OSError as e:
        raise InputError(f"{out}: cannot write: {e}") from None
    click.echo(f"{res.trials} trials in {time.perf_counter() - t0:.0f} s; best score {res.best_score:.3f}"
               + (f" (default {res.default_score:.3f})" if res.default_score is not None else "")
               + f" on the tuning seeds")
    moved = {k: v for k, v in res.best.items() if k in defaults and abs(v - float(defaults[k])) > 1e-9}
    click.echo("settings: " + (", ".join(f"{k} {defaults[k]:g} -> {v:.3g}" for k, v in moved.items())
                               or "the defaults (no trial beat them)"))
    if res.check:
        click.echo(f"check on fresh seeds (batch seed {res.check['seed']}), {side} wins with 95 % intervals:")
        click.echo(share_line("default", res.check["default"]))
        click.echo(share_line("tuned", res.check["tuned"]))
        if moved and res.check["tuned"]["score"] < res.check["default"]["score"]:
            click.echo(f"NOTE: on the fresh seeds the tuned settings score less than the defaults "
                       f"({res.check['tuned']['score']:.3f} against {res.check['default']['score']:.3f}): what they "
                       "gained on the tuning seeds did not carry over; more --games a trial (or more trials) may "
                       "find settings that do")
    click.echo(f"wrote {out} (use: --ai {side}={player}:@{out})")
    if res.interrupted:
        raise SystemExit(130)


def robust_lines(title: str, ans) -> list[str]:
    """The text of a :class:`core.robust_balance.RobustAnswer`: the shares of each pairing with
    their 95 % intervals, each side's gain from tuning with its paired interval and the settings
    that moved, and the verdict."""

    def row(label: str, shares: dict) -> str:
        return f"  {label:24s} " + "  ".join(
            f"{k} {v['share']:6.1%} [{v['ci95'][0]:.0%}-{v['ci95'][1]:.0%}]" for k, v in shares.items())

    out = [f"{title}: {ans.games} games a pairing, seed {ans.seed}", row("default vs default", ans.default)]
    for side, t in ans.tuned.items():
        out.append(row(f"{side} tuned" + (f" ({t.played} games)" if t.played is not None else ""), t.shares))
        if t.default_shares is not None:  # stopped in these games: the default over the same seeds
            out.append(row(f"default, the same {t.played}", t.default_shares))
    for side, t in ans.tuned.items():
        g = t.gain
        moved = ", ".join(f"{k} {a:g} -> {b:.3g}" for k, (a, b) in t.moved.items()) or "none"
        over = (f" over the first {t.played} of {ans.games} paired games (the run was stopped in them)"
                if t.played is not None else "")
        out.append(f"  {side} gains {g[0]:+.1f} points [{g[1]:+.1f}, {g[2]:+.1f}]{over} from tuning "
                   f"({t.tuning.trials} trials, tuning score {t.tuning.best_score:.3f}"
                   + (f" vs default {t.tuning.default_score:.3f}" if t.tuning.default_score is not None else "")
                   + f"); settings moved: {moved}")
    if ans.verdict != "interrupted":
        out.append(f"Verdict: {ans.verdict.upper()} -- {ans.text}")
    return out


def study_files(directory: str, scenario: str):
    """side -> the SQLite study file of a robust run's tuning of that side:
    ``directory/<scenario stem>-<side>.optuna.db`` (the directory is made). Raises InputError when
    the directory cannot be made."""
    d = Path(directory)
    try:
        d.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise InputError(f"{directory}: cannot make the study directory: {e}") from None
    stem = Path(scenario).stem
    return lambda side: str(d / f"{stem}-{side}.optuna.db")


def kept_files(directory: str, scenario: str):
    """pairing ("default", or the tuned side) -> the file that keeps a robust run's check games of
    that pairing (:func:`core.robust_balance.kept_batch`): ``directory/<scenario stem>-checks-<pairing>.json``,
    beside the studies of :func:`study_files` (which makes the directory)."""
    stem = Path(scenario).stem
    return lambda pairing: str(Path(directory) / f"{stem}-checks-{pairing}.json")


def robust_playtest(scenario: str, system, *, games: int, seed: int, trials: int, tune_games: int,
                    workers: int | None, scheduler: str | None, json_out: str | None, quiet: bool,
                    ai: dict[str, str] | None = None, storage_dir: str | None = None) -> None:
    """``ironcross playtest SCENARIO --robust`` (:func:`core.robust_balance.robust_balance`): the
    player both sides' ``--ai`` name (default heuristic), its defaults against each side tuned.
    ``storage_dir``: each side's study in ``DIR/<scenario stem>-<side>.optuna.db`` and each
    pairing's check games in ``DIR/<scenario stem>-checks-<pairing>.json`` (resumed, or extended by
    more ``games``, when run again; :func:`study_files`, :func:`kept_files`)."""
    from dataclasses import asdict

    from core.playtest import PlaytestError
    from core.robust_balance import robust_balance
    from maps.document_file import atomic_write_text

    if system.settings_space is None:
        raise InputError(f"--robust: {system.title}'s players take no behaviour settings to tune")
    names = {spec.partition(":")[0] for spec in (ai or {}).values()} or {"heuristic"}
    if len(names) != 1 or any(":" in spec for spec in (ai or {}).values()):
        raise click.UsageError("--robust compares one player's defaults with each side tuned: name the same "
                               "player without settings for both sides in --ai")
    player = names.pop()
    try:
        system.settings_space(player)
    except KeyError:
        raise InputError(f"--robust: the player {player!r} takes no behaviour settings to tune") from None
    click.echo(f"{scenario}: robust balance, {games} games a pairing, {trials} tuning trials x {tune_games} games "
               "a side")

    from core.playtest import shared_pool

    # one bar a stage (robust_stages: the default games, then each side's tuning and tuned games)
    progress = eta_progress(quiet=quiet)
    bar: list = []

    def step(i: int, n: int) -> None:
        side = system.sides[(i - 1) // 2] if i else ""
        what, total = (("default games", games) if i == 0 else (f"tuning {side} (trials)", trials) if i % 2
                       else (f"{side} tuned games", games))
        if bar:
            progress.update(bar[0], completed=bar[1])  # the stage before is done
        bar[:] = [progress.add_task(f"{i + 1}/{n} {what}", total=total, kept=0), total, 0]

    def advance(n: int) -> None:
        if bar:
            progress.advance(bar[0], n)

    def kept_now(n: int) -> None:
        """The stage takes n trials or games an earlier run kept: done, not pace."""
        if bar:
            bar[2] += n
            progress.update(bar[0], advance=n, kept=bar[2])

    def trial(done: int, score: float, best: float) -> None:
        if bar:
            progress.update(bar[0], completed=done)

    ans = None
    try:
        # the workers start before the progress bar's refresh thread: forked from one thread
        with shared_pool(workers, start=True) if scheduler is None else contextlib.nullcontext(), progress:
            ans = robust_balance(scenario, system, games=games, seed=seed, trials=trials, tune_games=tune_games,
                                 workers=workers, scheduler=scheduler, player=player,
                                 storage=study_files(storage_dir, scenario) if storage_dir else None,
                                 kept=kept_files(storage_dir, scenario) if storage_dir else None,
                                 on_stage=None if quiet else (lambda s: progress.console.print(f"... {s}")),
                                 on_step=step, on_games=advance, on_kept=kept_now, on_trial=trial)
    except (PlaytestError, ValueError) as e:  # ValueError: a study or kept games of other games or seeds
        raise InputError(str(e)) from None
    except KeyboardInterrupt:
        pass  # stopped in the default games: nothing to report
    if ans is not None:  # stopped in a tuning or a tuned side's games: the rows done, the one stopped so far
        for line in robust_lines(scenario, ans):
            click.echo(line)
        if json_out:
            doc = {"scenario": scenario, "games": games, "seed": seed, "trials": trials, "tune_games": tune_games,
                   "default": ans.default, "verdict": ans.verdict, "text": ans.text, "stopped_in": ans.stopped_in,
                   "tuned": {s: {"shares": t.shares, "gain": list(t.gain), "played": t.played,
                                 "default_shares": t.default_shares,
                                 "moved": {k: list(v) for k, v in t.moved.items()},
                                 "settings": t.tuning.best, "spec": t.tuning.best_spec,
                                 "tuning": {k: v for k, v in asdict(t.tuning).items() if k != "history"}}
                             for s, t in ans.tuned.items()}}
            try:
                atomic_write_text(json_out, json.dumps(doc, indent=1) + "\n")
            except OSError as e:
                raise InputError(f"{json_out}: cannot write: {e}") from None
            click.echo(f"wrote {json_out}")
    if ans is None or ans.verdict == "interrupted":
        kept = (f"; the tuning trials and check games done are kept in {storage_dir}: run again to resume"
                if storage_dir else "")
        click.echo("interrupted: no verdict" + kept, err=True)
        raise SystemExit(130)
