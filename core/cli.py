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


def main(argv: list[str] | None = None) -> int:
    """Console-script entry point; returns the exit code."""
    try:
        cli.main(args=argv, prog_name="ironcross", standalone_mode=True)
    except SystemExit as e:
        return int(e.code or 0)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
