"""``ironcross export tiled`` and ``ironcross import tiled``: a map to and from a Tiled map.

The file formats and what they hold are in :mod:`cli.tiled_map` and ``docs/export.md``.
"""

from __future__ import annotations

from pathlib import Path

import click

from cli.output_file import OUTPUT_FILE
from maps.document_file import DocumentError

__all__ = ["export", "import_"]


def _input_error(message: str) -> click.ClickException:
    from cli.main import InputError

    return InputError(message)


@click.group()
def export() -> None:
    """Write a scenario or a map in another tool's format (VASSAL, Tiled)."""


@export.command("tiled")
@click.argument("map_file", metavar="MAP", type=click.Path())
@click.option("-o", "--output", "out", required=True, type=OUTPUT_FILE,
              help="the Tiled map to write: NAME.tmx (XML) or NAME.tmj (JSON); NAME-tiles.png is written beside it")
def export_tiled_command(map_file: str, out: str) -> None:
    """Write MAP as a Tiled hexagonal map (terrain, levels and trees as tile layers, buildings,
    roads, gullies, obstacles and named features as objects, every hex's id and values as properties).

    Example: ironcross export tiled maps/data/iron_cross_mapsheet.json -o sheet.tmx
    """
    from cli.tiled_map import NOT_DRAWN, export_tiled
    from maps.mapfile import load_map_file

    if Path(out).suffix.lower() not in (".tmx", ".tmj"):
        raise _input_error(f"{out}: a Tiled map must end in .tmx or .tmj")
    try:
        doc = load_map_file(map_file)
    except DocumentError as e:
        raise _input_error(str(e)) from None
    try:
        written = export_tiled(doc, out)
    except OSError as e:
        raise _input_error(f"{out}: cannot write: {e}") from None
    ex = doc.extent
    click.echo(f"wrote {' and '.join(written)}: {doc.name}, columns {ex.first_column:02d}-{ex.last_column:02d}, "
               f"rows {ex.first_row:02d}-{ex.last_row:02d}, {len(doc.buildings)} buildings, {len(doc.roads)} roads, "
               f"{len(doc.gullies)} gullies, {len(doc.features)} named features")
    click.echo("Tiled holds these only as text properties (shown in its Properties panel, not drawn):")
    for line in NOT_DRAWN:
        click.echo(f"  - {line}")


@export.command("vassal")
@click.argument("scenario", metavar="SCENARIO", type=click.Path())
@click.option("-o", "--output", "out", required=True, type=OUTPUT_FILE,
              help="the VASSAL module to write: NAME.vmod")
def export_vassal_command(scenario: str, out: str) -> None:
    """Write SCENARIO as a VASSAL module: the board drawn by the product's painter with a hex grid
    named by the printed hex ids, a palette of every counter and marker, the designer's set-up
    (SCENARIO's NAME.placement.json when it exists), entry boxes, private windows, a turn track and
    the scenario's text as help.

    Example: ironcross export vassal scenarios/data/scenario_6_spartakovka.json -o s6.vmod
    """
    from cli.vassal_module import plan_from_files, write_vmod

    if Path(out).suffix.lower() != ".vmod":
        raise _input_error(f"{out}: a VASSAL module must end in .vmod")
    try:
        plan = plan_from_files(scenario)
    except (DocumentError, ValueError) as e:  # an invalid file, a scenario that cannot be exported
        raise _input_error(str(e)) from None
    try:
        summary = write_vmod(plan, out)
    except OSError as e:
        raise _input_error(f"{out}: cannot write: {e.strerror or e}" if str(out) not in str(e) else str(e)) from None
    w, h = summary["board"]
    click.echo(f"wrote {out}: {plan.title}, {', '.join(plan.sections)} ({w}x{h} px board), "
               f"{summary['pieces']} counters and {summary['markers']} markers in the palette, "
               f"{summary['placed']} units set up, {summary['entering']} in entry boxes, "
               f"{summary['size'] / 1e6:.1f} MB")


@click.group("import")
def import_() -> None:
    """Read a map back from another tool's format (Tiled)."""


@import_.command("tiled")
@click.argument("tmx_file", metavar="NAME.tmx", type=click.Path())
@click.option("-o", "--output", "out", required=True, type=OUTPUT_FILE,
              help="the map file to write (JSON)")
def import_tiled_command(tmx_file: str, out: str) -> None:
    """Read a Tiled map written by `ironcross export tiled` (perhaps touched up in Tiled) back as a
    map file, with pytmx; the map is checked like any map file before it is written.

    Example: ironcross import tiled sheet.tmx -o sheet.json
    """
    from cli.tiled_map import TiledError, import_tiled
    from maps.mapfile import save_map

    try:
        doc = import_tiled(tmx_file)
    except (TiledError, DocumentError) as e:
        raise _input_error(str(e)) from None
    try:
        save_map(out, doc)
    except OSError as e:
        raise _input_error(f"{out}: cannot write: {e.strerror or e}") from None
    click.echo(f"wrote {out}: {doc.name}, {len(doc.hexes)} hexes listed, {len(doc.buildings)} buildings, "
               f"{len(doc.roads)} roads, {len(doc.gullies)} gullies, {len(doc.features)} named features")
