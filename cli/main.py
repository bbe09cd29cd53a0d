"""The ``ironcross`` command line (click); ``python -m cli`` runs it too.

It sits on top of the import graph (``core/``, ``maps/`` and ``scenarios/`` never import it) and
knows no rule system: ``playtest``, ``replay`` and ``validate`` ask the scenario's (or replay's)
:class:`core.rule_system.RuleSystem` (``docs/rule-systems.md``).

Exit codes: 0 success, 1 invalid input (a message naming the file, the place and the problem,
never a traceback), 2 usage error (click's own), 3 a playtest whose batch ran but in which some
games raised (they are listed with their seed and replay, and left out of the shares).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path

import click

from cli.output_file import OUTPUT_FILE
from core.behaviour_settings import block_spec, split_spec, with_stored
from core.playtest import DEFAULT_AI, ai_spec_text, games_text, shared_pool
from maps.document_file import DocumentError

__all__ = ["main", "cli"]

DATA_DIRS = (Path(__file__).resolve().parent.parent / "maps" / "data",
             Path(__file__).resolve().parent.parent / "scenarios" / "data")


#: the most games (or trials) one command accepts: a batch's game list is built before the first
#: game, so an absurd number is refused in words instead of filling the memory
MAX_GAMES = 1_000_000


class InputError(click.ClickException):
    """Invalid input: printed as the message alone, exit code 1."""

    exit_code = 1

    def show(self, file=None) -> None:  # no "Error:" prefix noise; one line per problem
        click.echo(self.format_message(), err=True)


def folder_wanted(option: str, path: str | None) -> None:
    """Refuse (:class:`InputError`, exit 1) a ``path`` given to the folder ``option`` that exists
    and is no folder, before any game is played (the folder is made when it is missing)."""
    if path and os.path.exists(path) and not os.path.isdir(path):
        raise InputError(f"{option} {path}: is a file; a folder is wanted")


@contextmanager
def playable(scenario) -> Iterator[None]:
    """Inside it, a scenario file that cannot be read or played is an :class:`InputError` naming
    ``scenario``: its own document error as it is, a rule system's refusal (``ScenarioError``, a
    ``ValueError``; a missing key) as "cannot be played", an OS error as "cannot read"."""
    try:
        yield
    except DocumentError as e:
        raise InputError(str(e)) from None
    except (KeyError, ValueError) as e:
        raise InputError(f"{scenario}: cannot be played: {e}") from None
    except OSError as e:
        raise InputError(f"{scenario}: cannot read: {e}") from None


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="ironcross")
def cli() -> None:
    """Iron Cross scenario editor and map toolkit, headless."""


@cli.command()
@click.argument("files", nargs=-1, required=True, type=click.Path())
@click.option("--warnings", "show_warnings", is_flag=True,
              help="also run the design checks on valid scenarios and print each warning as "
                   "'FILE: warning: $.path: message' (a region a side must take that its units cannot reach "
                   "in time, a side with no units, an entry edge outside the map sections, an OOB entry read "
                   "but not used); warnings never make validate fail, unless --strict")
@click.option("--strict", is_flag=True, help="like --warnings, and exit 1 when there is any warning")
def validate(files: tuple[str, ...], show_warnings: bool, strict: bool) -> None:
    """Validate map, terrain chart, errata, scenario, counter and replay FILES.

    Errors make a file invalid (exit 1). With --warnings the design checks of each valid scenario
    follow its OK line; they are warnings, not errors (exit 0), unless --strict."""
    from core.document_kinds import file_warnings, validate_file

    bad = warned = 0
    for f in files:
        try:
            summary = validate_file(f)
            ws = file_warnings(f) if (show_warnings or strict) else []
        except DocumentError as e:
            bad += 1
            click.echo(str(e), err=True)
        else:
            more = f" ({len(ws)} warning{'s' if len(ws) != 1 else ''})" if (show_warnings or strict) else ""
            click.echo(f"{f}: OK - {summary}{more}")
            for w in ws:
                click.echo(f"{f}: warning: {w}")
            warned += bool(ws)
    if bad:
        raise InputError(f"{bad} of {len(files)} file(s) invalid")
    if strict and warned:
        raise InputError(f"{warned} of {len(files)} file(s) with warnings (--strict)")


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="print every system as JSON, with its terrain mapping")
def systems(as_json: bool) -> None:
    """List the rule systems a scenario may name in its "rule_system" (absent = the default):
    their players (--ai) and the behaviour settings they take with their defaults, rule levels (--rules,
    the first is the default) and optional rules (--option)."""
    import json as _json

    from core.rule_system import DEFAULT_SYSTEM, installed, module_of, names

    out = installed()
    for name in sorted(set(names()) - {s.name for s in out}):
        click.echo(f"{name}: not part of this checkout ({module_of(name)} is missing)", err=True)
    if as_json:
        click.echo(_json.dumps([{"name": s.name, "title": s.title, "seed": s.seed, "default": s.name == DEFAULT_SYSTEM,
                                 "players": dict(s.players), "rules": list(s.rules), "options": dict(s.options),
                                 "settings": _player_defaults(s),
                                 "terrain_mapping": s.terrain_mapping} for s in out], indent=1))
        return
    for s in out:
        click.echo(f"{s.name}: {s.title}" + (" (the default)" if s.name == DEFAULT_SYSTEM else "") + f"; rulebook source {s.seed} (not distributed with the toolkit)")
        click.echo("  players: " + "; ".join(f"{k} - {v}" for k, v in s.players.items()))
        for player, values in _player_defaults(s).items():
            click.echo(f"  {player} settings (--ai SIDE={player}:NAME=VALUE; docs/ai.md), defaults: "
                       + ", ".join(f"{k}={v:g}" for k, v in values.items()))
        click.echo("  rules: " + ", ".join(s.rules) + (f" (default {s.rules[0]})" if s.rules else ""))
        if s.options:
            click.echo("  options: " + "; ".join(f"{k} - {v}" for k, v in s.options.items()))


def _player_defaults(system) -> dict[str, dict[str, float]]:
    """{player: {setting: default}} of the system's players that take behaviour settings."""
    out = {}
    if system.settings_space is None:
        return out
    for player in system.players:
        try:
            out[player] = dict(system.settings_space(player)[1])
        except KeyError:  # a player without settings
            continue
    return out


def shipped_files() -> list[Path]:
    """The data files shipped with the toolkit (maps/data and scenarios/data), sorted."""
    out: list[Path] = []
    for d in DATA_DIRS:
        if d.is_dir():
            out.extend(sorted(d.glob("*.json")))
    return out


@cli.group()
def errata() -> None:
    """Published errata: apply them to a map and see exactly what changed."""


@errata.command("apply")
@click.argument("map_file", metavar="MAP", type=click.Path())
@click.argument("errata_file", metavar="ERRATA", type=click.Path())
@click.option("-o", "--output", "out", required=True, type=OUTPUT_FILE, help="where to write the corrected map")
@click.option("--force", is_flag=True, help="overwrite values that match neither the printed nor the corrected value")
def errata_apply(map_file: str, errata_file: str, out: str, force: bool) -> None:
    """Apply ERRATA to MAP and write the corrected map to OUT; prints every change.

    Refuses (exit 1, nothing written) when the map shows neither the printed nor the corrected
    value of a correction, unless --force.
    """
    from maps.errata import ErrataMismatchError, apply_errata, label_corrected, load_errata
    from maps.mapfile import load_map_file, save_map

    try:
        doc = load_map_file(map_file)
        err = load_errata(errata_file)
        new, changes = apply_errata(doc, err, force=force)
    except DocumentError as e:
        raise InputError(str(e)) from None
    except ErrataMismatchError as e:
        raise InputError(f"{map_file}: {e}\nnothing written") from None
    for ch in changes:
        click.echo(str(ch))
    if any(ch.status in ("applied", "forced") for ch in changes):  # a no-op run leaves the file as it was
        new = label_corrected(doc, new, Path(map_file).name, err.title)
    try:
        save_map(out, new)
    except DocumentError as e:
        raise InputError(str(e)) from None
    except OSError as e:
        raise InputError(f"{out}: cannot write: {e}") from None
    counts: dict[str, int] = {}
    for ch in changes:
        counts[ch.status] = counts.get(ch.status, 0) + 1
    click.echo(f"wrote {out}: " + ", ".join(f"{n} {s}" for s, n in counts.items()))


@cli.command()
@click.argument("map_file", metavar="MAP", type=click.Path())
@click.argument("firer", metavar="FROM")
@click.argument("target", metavar="TO")
@click.option("--firer-down", is_flag=True, help="the firer is DOWN (10.31 c: marsh blocks)")
@click.option("--json", "as_json", is_flag=True, help="print the answer as a JSON object")
def los(map_file: str, firer: str, target: str, firer_down: bool, as_json: bool) -> None:
    """Line of sight FROM hex TO hex on MAP (rule 10.3), with the reason.

    Example: ironcross los maps/data/iron_cross_mapsheet.json 4307 4312
    """
    import json as _json

    from maps.hexmap import UnknownHexError
    from maps.los import line_of_sight
    from maps.mapfile import load_map

    try:
        m = load_map(map_file)
        r = line_of_sight(m, firer, target, firer_down=firer_down)
    except DocumentError as e:
        raise InputError(str(e)) from None
    except UnknownHexError as e:
        raise InputError(f"{map_file}: {e}") from None
    if as_json:
        click.echo(_json.dumps(r.to_json(), indent=1))
        return
    verdict = "CLEAR" if r.clear else f"BLOCKED ({r.rule}) at {r.blocking_hex} by {r.blocking_feature}"
    click.echo(f"LOS {r.firer} -> {r.target}: {verdict}")
    click.echo(f"  range {r.range}; levels {r.firer_level} -> {r.target_level}; firer {'DOWN' if firer_down else 'UP'}")
    click.echo(f"  why: {r.reason}")
    click.echo(f"  trees/AFVs/wrecks along the LOS (11.16 b): {r.trees_afvs_wrecks}; marsh hexes (23.2 e): {r.marsh_hexes}")
    parts = []
    for h in r.hexes:
        tag = h.id
        extra = []
        if h.contact == "hexside":
            extra.append(f"along hexside with {h.partner}")
        elif h.contact == "vertex":
            extra.append("corner only")
        if h.trees:
            extra.append(f"{h.trees} tree{'s' if h.trees > 1 else ''}")
        if h.level:
            extra.append(f"level {h.level}")
        if h.marsh:
            extra.append("marsh")
        if h.building:
            name = m.buildings[h.building].display_name()
            extra.append(name if h.role == "intermediate" else f"{name} in the {h.role}'s own hex: no block, 10.33")
        parts.append(tag + (f" ({', '.join(extra)})" if extra else ""))
    click.echo("  hexes: " + " -> ".join(parts))
    for o in r.sighting:
        click.echo(f"  sighting chart: {o.hex} at {o.x} hexes, {o.feature}, height {float(o.height):g} "
                   f"vs line {float(o.line_height):.2f}{'  BLOCKS' if o.blocks else ''}")


@cli.command()
@click.argument("map_file", metavar="MAP", type=click.Path())
@click.option("-o", "--output", "out", required=True, type=OUTPUT_FILE,
              help="the picture to write: OUT.png or OUT.svg")
@click.option("--section", default=None, help='draw only this map section, e.g. "Map 2"')
def render(map_file: str, out: str, section: str | None) -> None:
    """Draw MAP as a hex map picture (PNG or SVG by the extension of OUT).

    Example: ironcross render maps/data/iron_cross_mapsheet.json -o map2.png --section "Map 2"
    """
    ext = Path(out).suffix.lower()
    if ext not in (".png", ".svg"):
        raise InputError(f"{out}: cannot render to {ext or 'a file without extension'}; use .png or .svg")
    from maps.mapfile import load_map

    try:
        m = load_map(map_file)
    except DocumentError as e:
        raise InputError(str(e)) from None
    # Qt only here, imported lazily: nothing outside editor/ imports it at module level
    from editor.drawing.map_painter import UnknownSectionError, render_file

    try:
        size = render_file(m, out, section)
    except UnknownSectionError as e:
        raise InputError(f"{map_file}: {e}") from None
    except OSError as e:
        raise InputError(f"{out}: cannot write: {e}") from None
    what = f"section {section!r}" if section else "whole map"
    click.echo(f"wrote {out}: {m.name}, {what}, {size.width()}x{size.height()} px")


def _echo_blunders(report: dict, played: int) -> None:
    """The blunder report's lines (docs/ai.md): per side, each kind with its count a game, the games
    with one and the mean Game Turn of the first."""
    per_side = report.get("per_side") or {}
    if not report.get("kinds"):
        return
    if not per_side:
        click.echo("Blunders: none committed (the kinds: " + ", ".join(report["kinds"]) + ")")
        return
    click.echo("Blunders (a game; games with one of " f"{played}; first in Game Turn, mean):")
    for side, kinds in per_side.items():
        for kind, d in kinds.items():
            first = f", first in turn {d['first_turn']:.1f}" if d.get("first_turn") is not None else ""
            click.echo(f"  {side:8s} {kind:28s} {d['per_game']:5.2f}  ({games_text(d['games'])}{first})")


def check_backend(scheduler: str | None, connect_timeout: float | None = None) -> None:
    """The batch runner's backend options as a command got them: an empty ``--scheduler`` address,
    or ``--workers`` beside ``--scheduler`` (the cluster's workers play the games), is a usage error
    naming them, never a silent choice of one backend. With ``connect_timeout`` the scheduler is
    asked now (:func:`core.playtest.check_scheduler`), before the command makes any file:
    InputError (exit 1) naming the address and why."""
    if scheduler is None:
        return
    if not scheduler.strip():
        raise click.UsageError("--scheduler: an empty address (tcp://HOST:8786)")
    ctx = click.get_current_context()
    if ctx.get_parameter_source("workers") is click.core.ParameterSource.COMMANDLINE:
        raise click.UsageError("--workers with --scheduler: the Dask cluster's workers play the games; "
                               "give one or the other")
    if connect_timeout is not None:
        from core.playtest import PlaytestError, check_scheduler

        try:
            check_scheduler(scheduler, connect_timeout)
        except PlaytestError as e:
            raise InputError(f"--scheduler: {e}") from None


def _spec_to_read(spec: str) -> str:
    """A player with its settings as a heading shows them: numbers to 3 significant digits (a tuned
    file's values have 17); ``--json`` and the replays keep the exact values."""
    name, _, settings = spec.partition(":")
    if not settings:
        return spec
    parts = []
    for kv in settings.split(","):
        k, _, v = kv.partition("=")
        try:
            v = f"{float(v):.3g}"
        except ValueError:
            pass
        parts.append(f"{k}={v}")
    return f"{name}:{','.join(parts)}"


def refuse_other_sides_file(option: str, side: str, spec: str) -> None:
    """Refuse (:class:`InputError`, exit 1) a settings file in the player ``spec`` (``NAME:@FILE,...``)
    that ``ironcross tune`` tuned for the other side than ``side``, the side that will play it:
    settings tuned against the other side's AI are no answer for this one (copy them to a file of
    their own to use them anyway). ``option`` names where it was given (``--ai german``, ``--against``)."""
    for part in (x.strip() for x in spec.partition(":")[2].split(",")):
        tuned_for = _tuned_side(part[1:]) if part.startswith("@") and part[1:].strip() else None
        if tuned_for is not None and tuned_for != side:
            raise InputError(f"{option}: {part[1:]} holds settings tuned for the {tuned_for} side (its \"side\"), "
                             f"and the {side} side would play them; give it to the {tuned_for} side, or copy its "
                             "settings into a file of their own to use them anyway")


def _tuned_side(path: str) -> str | None:
    """The side a settings file was tuned for (its ``"side"``, as ``ironcross tune`` writes it), None
    when it names none or cannot be read (the rule system's settings reader then says why)."""
    from maps.document_file import DocumentError, read_json

    try:  # the safe reader: a missing file or no regular file (a FIFO) is a DocumentError, never a wait
        data = read_json(path)
    except DocumentError:
        return None   # reported with the file and the problem when the settings are read
    side = data.get("side") if isinstance(data, dict) else None
    return side if isinstance(side, str) else None


def _stored_specs_of(data) -> dict[str, str]:
    """side -> player spec ``NAME:k=v,...`` of the settings a scenario file's raw JSON stores per side
    (``ai_settings``; :func:`core.behaviour_settings.stored_specs` of the validated blocks, read here
    from the file's data as the header needs them); sides whose block changes no setting are left out."""
    blocks = data.get("ai_settings") if isinstance(data, dict) else None
    if not isinstance(blocks, dict):
        return {}
    return {side: block_spec(str(block.get("player", "heuristic")), block["settings"]) for side, block in blocks.items()
            if isinstance(block, dict) and isinstance(block.get("settings"), dict) and block["settings"]}


def _played_specs(data, ai: dict[str, str]) -> dict[str, str]:
    """side -> the player spec each side's games are played with: ``ai`` with the scenario's stored
    settings where they apply (:func:`core.behaviour_settings.with_stored`, as the games take them;
    ``--json``'s ``ai_played``; ``ai`` keeps what was asked, which a replay asks again)."""
    return with_stored(ai, _stored_specs_of(data))


def _stored_note(ai: dict[str, str], played: dict[str, str], side: str) -> str:
    """`` (the scenario's stored settings: k=v,...)`` when ``side`` plays with settings the scenario
    stores (``played``, :func:`_played_specs`, differs from what was asked), else empty: the header
    says which settings play, not only the player's name."""
    if played[side] == ai[side]:
        return ""
    return " (the scenario's stored settings: " + split_spec(played[side])[1] + ")"


def _checked_ai(ai: dict[str, str], system, scenario: str, data) -> dict[str, str]:
    """``ai`` with every player known to the scenario's rule system and its behaviour settings
    validated and written out (``NAME:k=v,...``; a ``@FILE`` read now, so the games and their
    replays carry the values); the settings the scenario stores per side (``ai_settings``) are
    checked too. Raises InputError (exit 1) naming the side and the unknown player, the unknown
    setting or the value out of range."""
    out = {}
    for side, spec in ai.items():
        name, _, settings = spec.partition(":")
        if name not in system.players:
            raise InputError(f"--ai: unknown AI player {name!r} for {side} in {system.title}; "
                             f"known: {', '.join(sorted(system.players))}")
        if settings.strip() and system.player_settings is None:
            raise InputError(f"--ai {side}: {system.title}'s players take no behaviour settings")
        refuse_other_sides_file(f"--ai {side}", side, spec)
        try:
            out[side] = system.player_settings(spec) if system.player_settings is not None else spec
        except ValueError as e:
            raise InputError(f"--ai {side}: {e}") from None
    stored = (data or {}).get("ai_settings") if isinstance(data, dict) else None
    if isinstance(stored, dict) and system.player_settings is not None:
        for side, block in stored.items():
            if isinstance(block, dict) and str(block.get("player", "heuristic")) not in system.players:
                raise InputError(f"{scenario}: $.ai_settings.{side}.player: unknown AI player {block.get('player')!r}; "
                                 f"known: {', '.join(sorted(system.players))}")
            values = block.get("settings") if isinstance(block, dict) else None
            # a value that is no number is named by the scenario's own check when it is read
            # ($.ai_settings.SIDE.settings.NAME), not quoted again here as a text
            if isinstance(values, dict) and values and all(
                    isinstance(v, (int, float)) and not isinstance(v, bool) for v in values.values()):
                spec = block_spec(str(block.get("player", "heuristic")), values)
                try:
                    system.player_settings(spec)
                except ValueError as e:
                    raise InputError(f"{scenario}: $.ai_settings.{side}.settings: {e}") from None
    return out


@cli.command()
@click.argument("scenario", type=click.Path())
@click.option("--games", default=20, show_default=True, type=click.IntRange(1, MAX_GAMES), help="number of games")
@click.option("--seed", default=1, show_default=True, type=int, help="batch seed; game i uses a seed derived from it")
@click.option("--ai", "ai_spec", default=ai_spec_text(DEFAULT_AI), show_default=True,
              help="players per side, from the scenario's rule system (every system has heuristic, which plays to "
                   "the victory conditions, and random; 'ironcross systems' lists them); a side left out takes "
                   "the default. Behaviour settings after a colon: german=heuristic:aggression=0.7,fire_threshold=0.1 "
                   "or german=heuristic:@settings.json (docs/ai.md)")
@click.option("--rules", default=None, metavar="LEVEL",
              help="rule level of the scenario's rule system (default: its first; 'ironcross systems' lists them)")
@click.option("--option", "options", multiple=True, metavar="NAME",
              help="optional rule of the scenario's rule system (repeatable; 'ironcross systems' lists them)")
@click.option("--workers", type=click.IntRange(1), default=None, help="local worker processes (default: CPU count)")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="run the batches on the Dask distributed scheduler at ADDRESS (tcp://host:8786) instead")
@click.option("--connect-timeout", type=click.FloatRange(0.1), default=5.0, show_default=True,
              help="seconds to wait for the --scheduler")
@click.option("--json", "json_out", type=OUTPUT_FILE, default=None, help="write the results as JSON")
@click.option("--replays", type=click.Path(), default=None, help="save each game's replay here")
@click.option("--report", "report_dir", type=click.Path(), default=None,
              help="write PNG pictures here: outcomes, casualties by turn, heat maps over the map")
@click.option("--setup", "setup_file", type=click.Path(), default=None, metavar="FILE",
              help="start every game from the designer's set-up: a placement file (the editor saves "
                   "NAME.placement.json beside the scenario); checked like the editor's Validation dock")
@click.option("--quiet", is_flag=True, help="no progress bar")
@click.option("--robust", is_flag=True,
              help="say whether the answer depends on the AI: default vs default, then each side tuned against the "
                   "other (ironcross tune) on the same seeds; robust when no side gains more than 10 points")
@click.option("--trials", default=30, show_default=True, type=click.IntRange(1, MAX_GAMES), help="with --robust: tuning trials a side")
@click.option("--tune-games", default=20, show_default=True, type=click.IntRange(1, MAX_GAMES),
              help="with --robust: games a tuning trial")
@click.option("--storage", "storage_dir", type=click.Path(), default=None, metavar="DIR",
              help="with --robust: keep each side's tuning study (SCENARIO-SIDE.optuna.db) and each pairing's "
                   "check games (SCENARIO-checks-PAIRING.json) in DIR; run again to resume a stopped run, or with "
                   "more --games to play only the games added")
def playtest(scenario: str, games: int, seed: int, ai_spec: str, rules: str | None, options: tuple[str, ...],
             workers: int | None,
             scheduler: str | None, connect_timeout: float, json_out: str | None, replays: str | None,
             report_dir: str | None, setup_file: str | None, quiet: bool, robust: bool = False, trials: int = 30,
             tune_games: int = 20, storage_dir: str | None = None) -> None:
    """Play GAMES whole games of SCENARIO headless with AI players and summarise them.

    The scenario's rule system (its "rule_system"; absent = Iron Cross) plays the games. A game
    that raises is reported with its seed and error and its replay is saved (to --replays, else
    to ./playtest-errors); the other games go on. With --setup FILE every game starts from the
    units, facings, hidden hexes, mines and 24.1 "less" choices of that placement file (the AIs set
    up only what it does not place); a set-up with problems is refused (exit 1), each named with
    its place in the file.
    """
    import json as _json
    import time as _time

    from core.playtest import (DEFAULT_ERROR_DIR, BatchInterrupted, BatchLost, PlaytestError, ReplayWriteError, parse_ai,
                               run_batch, summarise)
    from core.rule_system import load_scenario

    for option, folder in (("--replays", replays), ("--report", report_dir), ("--storage", storage_dir)):
        folder_wanted(option, folder)

    try:
        loaded = load_scenario(scenario)
    except DocumentError as e:
        raise InputError(str(e)) from None
    system = loaded.system
    try:
        rules = system.resolve_rules(rules, tuple(options))
    except ValueError as e:
        raise click.UsageError(f"--rules/--option: {e}") from None
    try:
        ai = parse_ai(ai_spec)
    except ValueError as e:
        raise InputError(f"--ai: {e}") from None
    ai = _checked_ai(ai, system, scenario, loaded.data)
    for opt, value in (("--json", json_out), ("--replays", replays)):
        if value is not None and not str(value).strip():
            raise click.UsageError(f"{opt}: an empty file name")
    check_backend(scheduler, connect_timeout if robust else None)  # a robust run makes its files first
    if not robust:  # options that only a robust run reads, given without it: said, not ignored
        ctx = click.get_current_context()
        alone = [opt for opt, name in (("--trials", "trials"), ("--tune-games", "tune_games"), ("--storage", "storage_dir"))
                 if ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE]
        if alone:
            raise click.UsageError(f"{', '.join(alone)} only with --robust")
    if robust:  # the robust verdict (cli/tune_command.py) plays its own batches
        # at the scenario's first rule level, the AIs setting up, no replays or pictures: an option
        # it would not read is refused, not ignored (a verdict under other rules would be wrong)
        ctx = click.get_current_context()
        unread = [opt for opt, name in (("--rules", "rules"), ("--option", "options"), ("--setup", "setup_file"),
                                        ("--replays", "replays"), ("--report", "report_dir"))
                  if ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE
                  and not (opt == "--rules" and rules == system.rules[0] and not options)]
        if unread:
            raise click.UsageError(f"{', '.join(unread)} not with --robust: a robust run plays the scenario's first "
                                   "rule level with the AIs' own set-ups and keeps no replays or pictures")
        if trials < 2:
            raise click.UsageError("--trials: a robust run needs at least 2 tuning trials a side (the first trial "
                                   "is the defaults)")
        from cli.tune_command import robust_playtest

        return robust_playtest(scenario, system, games=games, seed=seed, trials=trials, tune_games=tune_games,
                               workers=workers, scheduler=scheduler, json_out=json_out, quiet=quiet, ai=ai,
                               storage_dir=storage_dir)
    fixed = None
    if setup_file:
        if system.load_placement is None:
            raise InputError(f"--setup {setup_file}: {system.title} scenarios have no designer's set-up files")
        try:
            fixed = system.load_placement(setup_file)
        except DocumentError as e:
            raise InputError(str(e)) from None
    with playable(scenario):
        system.load_setup(scenario, seed, None)
        problems = system.check_placement(scenario, fixed, seed) if fixed is not None else []
    if problems:
        raise InputError(str(DocumentError(setup_file, problems))
                         + f"\n{setup_file}: {len(problems)} problem(s) with scenario {scenario}; no game played")
    title = loaded.title
    played = _played_specs(loaded.data, ai)  # the settings each side plays with (the scenario's stored ones too)
    where = f"Dask scheduler {scheduler}" if scheduler else f"{workers or 'all'} local worker(s)"
    opts = (" + " + " + ".join(options)) if options else ""
    click.echo(f"{title} - {games_text(games)}, seed {seed}, {system.title} rules {rules}{opts}, "
               + ", ".join(f"{side.capitalize()}: {_spec_to_read(ai[side])}{_stored_note(ai, played, side)}"
                           for side in system.sides)
               + f", on {where}")
    if fixed is not None:
        about = system.describe_placement(fixed) if system.describe_placement is not None else "loaded"
        click.echo(f"Designer's set-up {setup_file}: {about}")
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    from cli.progress_log import LoggedProgress

    progress = LoggedProgress(TextColumn("games"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[rate]}"),
                              TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(), disable=quiet, transient=False)
    t0 = _time.perf_counter()
    results: list = []
    lost = None   # why the Dask cluster failed part-way (BatchLost), if it did
    try:
        # the workers start before the progress bar's refresh thread: forked from one thread
        with shared_pool(workers, start=True) if scheduler is None else nullcontext(), progress:
            task = progress.add_task("games", total=games, rate="")
            done = [0]

            def tick(n: int) -> None:
                done[0] += n
                rate = done[0] / max(1e-9, _time.perf_counter() - t0)
                progress.update(task, advance=n, rate=f"{rate:.2f} games/s")

            results = run_batch(loaded, games, seed, ai, rules=rules, options=tuple(options), workers=workers,
                                scheduler=scheduler,
                                replay_dir=replays, error_dir=DEFAULT_ERROR_DIR, connect_timeout=connect_timeout,
                                on_progress=tick, fixed_setup=fixed)
    except BatchInterrupted as e:   # Ctrl-C: the finished games are summarised and kept, exit 130
        results = e.results
    except BatchLost as e:   # the cluster failed part-way: its finished games are summarised and kept, exit 1
        results, lost = e.results, f"--scheduler: {e}"
    except KeyboardInterrupt:  # while the workers started or stopped: the games finished (if any) stand
        pass
    except ReplayWriteError as e:
        raise InputError(str(e)) from None
    except PlaytestError as e:
        raise InputError(f"--scheduler: {e}" if scheduler else str(e)) from None
    except OSError as e:
        raise InputError(f"cannot write replays: {e}") from None
    elapsed = _time.perf_counter() - t0
    partial = len(results) < games   # interrupted: everything below covers the finished games only
    s = summarise(results, loaded)
    click.echo("")
    if lost:
        click.echo(f"{lost}\nBATCH LOST: {len(results)} of {games} games finished before the cluster failed; "
                   "the summary covers them only", err=True)
    elif partial:
        click.echo(f"INTERRUPTED: {len(results)} of {games} games finished; the summary covers them only", err=True)
        if not results:
            click.echo("no game finished: nothing to summarise" + (f" or to write to {json_out}" if json_out else ""),
                       err=True)
            raise SystemExit(130)
    click.echo(f"{games_text(len(results))} in {elapsed:.1f} s. Outcomes (count, share of the games played to the end, "
               f"95 % confidence interval):")
    for k, v in s["outcomes"].items():
        r = s["rates"].get(k)
        if r is None:  # "error": listed below, never part of the shares
            click.echo(f"  {k:8s} {v:5d}  (left out of the shares)")
            continue
        click.echo(f"  {k:8s} {v:5d}  {r['rate']:6.1%}  [{r['ci95'][0]:.1%} - {r['ci95'][1]:.1%}]")
    click.echo(f"Game length: {s['turns']['mean']:.1f} Game Turns on average (sd {s['turns']['stdev']:.1f})")
    for side in system.sides:
        c = s["casualties_per_game"][side]
        txt = ", ".join(f"{k} {v:.1f}" for k, v in c.items()) or "none"
        click.echo(f"Casualties per game, {side}: {txt}")
        rows = s["casualties_by_turn"][side]
        if rows:
            click.echo("  by Game Turn: " + " ".join(f"{r['turn']}:{r['mean']:.1f}" for r in rows))
    causes = s["eliminations_by_cause"]
    if causes:
        click.echo("Eliminations per game by cause: " + ", ".join(f"{k} {v:.1f}" for k, v in causes.items()))
    fc = s["first_contact"]
    if fc["mean_turn"] is not None:
        click.echo(f"First contact: turn {fc['mean_turn']:.1f} on average ({fc['games_with_contact']} of "
                   f"{games_text(len(results))})")
    if s["hot_hexes"]:
        click.echo("Most fought-over hexes: " + ", ".join(f"{h} ({n})" for h, n in s["hot_hexes"][:6]))
    if s["fire_origins"]:
        click.echo("Most fired from: " + ", ".join(f"{h} ({n})" for h, n in s["fire_origins"][:6]))
    t = s["trust"]
    click.echo(f"Trust: {t['played']} of {t['games']} games played to the end; "
               f"{t['seconds_per_game']['median']:.2f} s and {t['decisions_per_game']['median']:.0f} decisions "
               f"a game (median)")
    for w in t["warnings"]:
        click.echo(f"WARNING: {w}")
    _echo_blunders(t.get("blunders") or {}, t["played"])
    for e in s["errors"]:
        click.echo(f"ERROR in game {e['index']} (seed {e['seed']}): {e['error'].splitlines()[0]}"
                   + (f"; replay {e['replay']}" if e["replay"] else ""), err=True)
    if json_out:
        from maps.document_file import atomic_write_text

        doc = {"scenario": scenario, "rule_system": system.name, "setup": setup_file, "title": title, "games": games,
               "partial": partial, "games_finished": len(results), "cluster_failed": lost, "seed": seed, "rules": rules,
               "options": list(options), "ai": ai, "ai_played": played,
               "backend": {"scheduler": scheduler} if scheduler else {"workers": workers or "cpu_count"},
               "outcomes": s["outcomes"], "rates": s["rates"], "trust": s["trust"], "summary": s,
               "per_game": [{"index": r.index, "seed": r.seed, "outcome": r.outcome, "turns": r.turns,
                             "casualties": r.casualties, "casualties_by_turn": r.casualties_by_turn,
                             "first_contact": r.first_contact, "eliminations_by_rule": r.eliminations_by_rule,
                             "idle": r.idle, "seconds": r.seconds, "decisions": r.actions,
                             "reason": r.reason, "error": r.error, "blunders": r.blunders,
                             "replay": r.replay} for r in results]}
        text = _json.dumps(doc, indent=1) + "\n"
        try:
            atomic_write_text(json_out, text)
        except OSError as e:   # the games are played: their results go to a temporary file, named
            import os
            import tempfile

            fd, alt = tempfile.mkstemp(prefix="ironcross-playtest-", suffix=".json")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            raise InputError(f"{json_out}: cannot write: {e.strerror or e}; the results are in {alt}") from None
        click.echo(f"wrote {json_out}" + (f" (partial: {len(results)} of {games} games)" if partial else ""))
    if report_dir:
        from cli.playtest_report import write_report  # Qt, imported only for --report

        try:
            paths = write_report(results, loaded, report_dir, title=title, summary=s, ai=ai)
        except DocumentError as e:
            raise InputError(f"--report {report_dir}: {e}") from None
        except OSError as e:
            raise InputError(f"--report {report_dir}: cannot write: {e}") from None
        click.echo(f"wrote {len(paths)} pictures to {report_dir}: " + ", ".join(Path(p).name for p in paths))
    if lost:
        raise SystemExit(1)  # the cluster failed: what finished is kept and summarised
    if partial:
        raise SystemExit(130)  # interrupted: what finished is kept and summarised
    if s["errors"]:
        raise SystemExit(3)  # the batch ran, but some games raised: its answer is incomplete


@cli.command()
@click.argument("file", type=click.Path())
@click.option("--verify", is_flag=True, help="re-run the game from its seed and decisions and compare every event")
@click.option("--log", "show_log", is_flag=True,
              help="print the game's log, decision by decision, in the sentences of the editor's Watch")
def replay(file: str, verify: bool, show_log: bool) -> None:
    """Show, --log or --verify a replay FILE (JSON lines written by playtest --replays).

    The game is read (--log) and re-run (--verify) by the replay's rule system (its header's
    "rule_system"; absent, as in replays written before rule systems had names, = Iron Cross)."""
    from core.replay import first_divergence, read_replay, replay_decisions, replay_system

    try:
        rp = read_replay(file)
        system = replay_system(file, rp)
    except DocumentError as e:
        raise InputError(str(e)) from None
    h = rp.header
    rolls = sum(1 for e in rp.events if e.get("kind") == "roll")
    end = next((e for e in reversed(rp.events) if e.get("kind") == "game_over"), None)
    click.echo(f"{file}: scenario {h['scenario']} ({system.title}), seed {h['seed']}, "
               f"rules {h.get('rules') or system.rules[0]}, "
               f"{len(rp.events)} events, {rolls} die rolls, outcome {end.get('outcome', 'unknown') if end else 'unfinished'}")
    if show_log:
        _print_log(file, rp.events, system)
    if not verify:
        return
    import json as _json

    from core.rule_system import ScenarioError, load_scenario

    if h.get("outcome") == "error":
        return _verify_error_replay(file, rp, system)
    try:
        scen = Path(h["scenario"])
        if not scen.is_absolute() and not scen.exists():  # older replays: relative to where playtest ran
            alt = Path(file).resolve().parent / scen
            scen = alt if alt.exists() else scen
        loaded = load_scenario(scen)
        played_by = loaded.system
        if played_by.name != system.name:
            raise InputError(f"{file}: a {system.title} game, but its scenario {scen} is now a {played_by.title} "
                             "scenario (its rule_system)")
        if h.get("scenario_sha256") and h["scenario_sha256"] != loaded.sha256:
            click.echo(f"{file}: note: its scenario {scen} has changed since the game was played "
                       "(content hash); a divergence may come from that", err=True)
        # a game from a designer's set-up re-runs from it (Iron Cross: its left_out settles the 24.1 choices)
        setup = system.load_setup(str(scen), h["seed"], h.get("fixed_setup"))
    except DocumentError as e:
        raise InputError(f"{file}: its scenario: {e}") from None
    except ScenarioError as e:
        raise InputError(f"{file}: its scenario cannot be played: {e}") from None
    try:  # every decision read before any is played: a hand-edited one is named by line and index
        actions = replay_decisions(file, rp, system)
    except DocumentError as e:
        raise InputError(str(e)) from None
    game = system.new_game(setup, h["seed"], *_header_rules(file, h, system))
    try:
        for i, a in enumerate(actions):
            game.apply(a)
    except Exception as e:  # an illegal action on re-run is a divergence, not a crash
        click.echo(f"{file}: DIVERGED: decision {i} ({system.action_to_json(a)}) is refused on re-run: {e}", err=True)
        raise SystemExit(1)
    rerun = _json.loads(_json.dumps(game.events, default=str))
    d = first_divergence(rp.events, rerun)
    if d is None:
        click.echo(f"verified: the re-run reproduces all {len(rerun)} events exactly")
        return
    i, a, b = d
    if a is None:
        click.echo(f"{file}: DIVERGED: the replay ends after {i} events but the re-run goes on "
                   f"(next: {b.get('kind')} {b.get('rule', '')}); the file looks truncated", err=True)
    elif b is None:
        click.echo(f"{file}: DIVERGED: the re-run ends after {i} events but the replay has more", err=True)
    else:
        keys = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
        click.echo(f"{file}: DIVERGED at event {i} ({a.get('kind')}, rule {a.get('rule') or '-'}): "
                   + "; ".join(f"{k}: recorded {a.get(k)!r}, re-run {b.get(k)!r}" for k in keys), err=True)
    raise SystemExit(1)


def _print_log(file: str, events: list, system) -> None:
    """The replay's log as the editor's Watch words it (:func:`core.game_log.log_lines`), one
    decision's sentences after another; an event the system cannot word (a hand-edited file) is an
    InputError naming the file and the event's index."""
    from core.game_log import decisions_of, log_lines

    bad = (KeyError, TypeError, ValueError, AttributeError, IndexError)
    i = 0
    for group in decisions_of(events):
        try:
            lines = log_lines(system, group)
        except bad as e:
            # the event that cannot be worded, named by its index in the file's events (line - 2)
            j, err = i, e
            for k, ev in enumerate(group):
                try:
                    log_lines(system, [ev])
                except bad as e2:
                    j, err = i + k, e2
                    break
            # read_replay has checked that every event is an object with a "kind"
            raise InputError(f"{file}: event {j} (line {j + 2}, {events[j]['kind']!r}) cannot be read: "
                             f"{type(err).__name__}: {err}") from None
        for text in lines:
            click.echo(text)
        i += len(group)


def _header_rules(file: str, h: dict, system) -> tuple[str, tuple[str, ...]]:
    """(rule level, optional rules) a replay's header names (no level: the system's first), checked
    as a game checks them (:meth:`RuleSystem.resolve_rules`): InputError naming the file otherwise
    (a hand-edited header)."""
    options = h.get("options", ())
    if not isinstance(options, (list, tuple)) or not all(isinstance(o, str) for o in options):
        raise InputError(f"{file}: its header's 'options' should be a list of optional rule names, not {options!r}")
    try:
        return system.resolve_rules(str(h.get("rules") or system.rules[0]), tuple(options)), tuple(options)
    except ValueError as e:
        raise InputError(f"{file}: its header: {e}") from None


def _verify_error_replay(file: str, rp, system) -> None:
    """``replay --verify`` of a game that raised: play it again from its scenario, seed and players
    (the header's ``ai``) and check that it takes the same decisions, logs the same events and raises
    the same error at the same place. Exit 0 when the error is reproduced, 1 otherwise."""
    from core.playtest import _play
    from core.replay import first_divergence

    h = rp.header
    first = (h.get("error") or "").splitlines()[0] if h.get("error") else ""
    if not h.get("ai"):
        raise InputError(f"{file}: an error replay without its players ('ai' in the header) cannot be re-played")
    rules, options = _header_rules(file, h, system)
    res, payload = _play(h["scenario"], h.get("index", 0), h["seed"], h["ai"], rules, options, True, 200_000,
                         h.get("fixed_setup"))
    again = (res.error or "").splitlines()[0] if res.error else ""
    if res.outcome != "error":
        click.echo(f"{file}: NOT REPRODUCED: the re-run ends without an error (outcome {res.outcome}); recorded: {first}",
                   err=True)
        raise SystemExit(1)
    rerun = payload["events"] if payload else []
    d = first_divergence(rp.events, rerun)
    same_actions = payload is not None and payload["header"].get("actions") == h.get("actions")
    if again == first and d is None and same_actions:
        click.echo(f"reproduced: the re-run takes the same {len(h.get('actions') or [])} decisions, logs the same "
                   f"{len(rerun)} events and raises the same error: {first}")
        return
    why = []
    if again != first:
        why.append(f"the re-run raises {again!r}")
    if not same_actions:
        why.append("the players' decisions differ")
    if d is not None:
        why.append(f"the events differ from event {d[0]}")
    click.echo(f"{file}: NOT REPRODUCED: recorded {first!r}; " + "; ".join(why), err=True)
    raise SystemExit(1)


# -- further commands, each in its own module (registered on import)
from cli import tune_command as _tune_command  # noqa: E402,F401  ironcross tune
from cli.export_commands import export as _export, import_ as _import  # noqa: E402 (they use InputError)

cli.add_command(_export)
cli.add_command(_import)
from cli import balance_command as _balance_command  # noqa: E402,F401  ironcross balance


def stop_as_ctrl_c(signum, frame) -> None:
    """SIGTERM (``kill``, a job scheduler's stop or time limit) ends a run as Ctrl-C does: the
    finished games are summarised and kept (exit 130), the workers stopped. Once: a second
    SIGTERM (a scheduler repeats it) does not interrupt the summary and the files being written."""
    import signal

    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise KeyboardInterrupt


class _ReaderMayLeave:
    """Standard output that outlives its reader: once the program reading it has gone (a broken pipe:
    ``ironcross playtest ... --json out.json | head -1``), what is written after is dropped and the
    command goes on to write its files and exit with its own code. Without it click ends the
    command at the first line it cannot print (exit 1, nothing said), before the JSON of games
    already played is written."""

    def __init__(self, stream):
        self._stream = stream
        self._gone = False

    def write(self, text: str) -> int:
        if not self._gone:
            try:
                return self._stream.write(text)
            except BrokenPipeError:
                self._reader_gone()
        return len(text)

    def flush(self) -> None:
        if not self._gone:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._reader_gone()

    def _reader_gone(self) -> None:
        import os

        self._gone = True
        # the interpreter flushes the real stream at exit too: point its file descriptor at the
        # null device so that flush does not fail again ("Exception ignored ... BrokenPipeError")
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, self._stream.fileno())
        finally:
            os.close(devnull)

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def main(argv: list[str] | None = None) -> int:
    """Console-script entry point; returns the exit code. SIGTERM stops a command as Ctrl-C does
    (:func:`stop_as_ctrl_c`) while it runs; a reader of standard output that goes away does not
    stop it (:class:`_ReaderMayLeave`)."""
    import signal
    import threading

    main_thread = threading.current_thread() is threading.main_thread()  # where signal handlers live
    previous = signal.signal(signal.SIGTERM, stop_as_ctrl_c) if main_thread else None
    stdout = sys.stdout
    if stdout is not None and hasattr(stdout, "fileno"):
        sys.stdout = _ReaderMayLeave(stdout)
    try:
        cli.main(args=argv, prog_name="ironcross", standalone_mode=True)
    except SystemExit as e:
        return int(e.code or 0)
    finally:
        sys.stdout = stdout
        if main_thread:  # a handler set outside Python reads as None: the default then
            signal.signal(signal.SIGTERM, previous if previous is not None else signal.SIG_DFL)
    return 0


if __name__ == "__main__":  # pragma: no cover
    # run as a script this file is "__main__", not the module ``cli.main`` on which the commands in
    # their own modules (tune, balance) register themselves: hand over to that module
    from cli.main import main as _registered_main

    sys.exit(_registered_main())
