"""The ``ironcross`` command line (click).

Exit codes: 0 success, 1 invalid input (a message naming the file, the place and the problem,
never a traceback), 2 usage error (click's own).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from maps.document_file import DocumentError

__all__ = ["main", "cli"]

DATA_DIRS = (Path(__file__).resolve().parent.parent / "maps" / "data",
             Path(__file__).resolve().parent.parent / "scenarios" / "data")


class InputError(click.ClickException):
    """Invalid input: printed as the message alone, exit code 1."""

    exit_code = 1

    def show(self, file=None) -> None:  # no "Error:" prefix noise; one line per problem
        click.echo(self.format_message(), err=True)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="ironcross")
def cli() -> None:
    """Iron Cross scenario editor and map toolkit, headless."""


@cli.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
def validate(files: tuple[str, ...]) -> None:
    """Validate map, terrain chart, errata, scenario, counter and replay FILES."""
    from core.document_kinds import validate_file

    bad = 0
    for f in files:
        try:
            summary = validate_file(f)
        except DocumentError as e:
            bad += 1
            click.echo(str(e), err=True)
        else:
            click.echo(f"{f}: OK - {summary}")
    if bad:
        raise InputError(f"{bad} of {len(files)} file(s) invalid")


def shipped_files() -> list[Path]:
    """The data files shipped with the toolkit (maps/data and scenarios/data), sorted."""
    out: list[Path] = []
    for d in DATA_DIRS:
        if d.is_dir():
            out.extend(sorted(d.glob("*.json")))
    return out


@cli.command()
def demo() -> None:
    """The main job until the playtest runner lands: validate and summarise the shipped data."""
    from core.document_kinds import validate_file

    files = shipped_files()
    bad = 0
    click.echo(f"Validating {len(files)} shipped data file(s):")
    for f in files:
        try:
            summary = validate_file(f)
        except DocumentError as e:
            bad += 1
            click.echo(str(e), err=True)
        else:
            click.echo(f"  {f.relative_to(f.parent.parent.parent)}: OK\n    {summary}")
    if bad:
        raise InputError(f"{bad} shipped file(s) invalid")
    click.echo("All shipped data files are valid.")


@cli.group()
def errata() -> None:
    """Published errata: apply them to a map and see exactly what changed."""


@errata.command("apply")
@click.argument("map_file", metavar="MAP", type=click.Path(dir_okay=False))
@click.argument("errata_file", metavar="ERRATA", type=click.Path(dir_okay=False))
@click.option("-o", "--output", "out", required=True, type=click.Path(dir_okay=False), help="where to write the corrected map")
@click.option("--force", is_flag=True, help="overwrite values that match neither the printed nor the corrected value")
def errata_apply(map_file: str, errata_file: str, out: str, force: bool) -> None:
    """Apply ERRATA to MAP and write the corrected map to OUT; prints every change.

    Refuses (exit 1, nothing written) when the map shows neither the printed nor the corrected
    value of a correction, unless --force.
    """
    from maps.errata import ErrataMismatchError, apply_errata, load_errata
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
@click.argument("map_file", metavar="MAP", type=click.Path(dir_okay=False))
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
            extra.append(m.buildings[h.building].display_name())
        parts.append(tag + (f" ({', '.join(extra)})" if extra else ""))
    click.echo("  hexes: " + " -> ".join(parts))
    for o in r.sighting:
        click.echo(f"  sighting chart: {o.hex} at {o.x} hexes, {o.feature}, height {float(o.height):g} "
                   f"vs line {float(o.line_height):.2f}{'  BLOCKS' if o.blocks else ''}")


@cli.command()
@click.argument("map_file", metavar="MAP", type=click.Path(dir_okay=False))
@click.option("-o", "--output", "out", required=True, type=click.Path(dir_okay=False),
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
    from editor.map_painter import UnknownSectionError, render_file

    try:
        size = render_file(m, out, section)
    except UnknownSectionError as e:
        raise InputError(f"{map_file}: {e}") from None
    except OSError as e:
        raise InputError(f"{out}: cannot write: {e}") from None
    what = f"section {section!r}" if section else "whole map"
    click.echo(f"wrote {out}: {m.name}, {what}, {size.width()}x{size.height()} px")


def main(argv: list[str] | None = None) -> int:
    """Console-script entry point; returns the exit code."""
    try:
        cli.main(args=argv, prog_name="ironcross", standalone_mode=True)
    except SystemExit as e:
        return int(e.code or 0)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
