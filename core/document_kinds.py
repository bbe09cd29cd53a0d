"""Which loader validates which kind of document, by the file's ``format`` field.

``ironcross validate FILE...`` reads each file's ``format`` and calls the loader registered here;
each loader raises :class:`maps.document_file.DocumentError` for an invalid file and returns a
one-line summary for a valid one. New document kinds (scenarios, counters, replays) register
here as they land.
"""

from __future__ import annotations

import os
from typing import Callable

from maps.document_file import DocumentError, Problem, read_json

__all__ = ["DOCUMENT_KINDS", "WARNING_KINDS", "validate_file", "file_warnings"]


def _map(path: str, data) -> str:
    from maps.mapfile import map_from_data

    m = map_from_data(data, path)
    s = m.summary()
    parts = [_count(s["hexes"], "hex", "hexes"), _count(s["sections"], "section"),
             _count(s["buildings"], "building") + f" ({_count(s['building_hexes'], 'building hex', 'building hexes')})",
             _count(s["woods_hexes"], "woods hex", "woods hexes"), _count(s["hill_hexes"], "hill hex", "hill hexes"),
             _count(s["road_hexes"], "road hex", "road hexes"), _count(s["gully_hexes"], "gully hex", "gully hexes"),
             _count(s["bridges"], "bridge"), _count(s["marsh_hexes"], "marsh hex", "marsh hexes")]
    return f"map {m.name!r}: " + ", ".join(parts)


def _count(n: int, one: str, many: str | None = None) -> str:
    """``3 bridges`` / ``1 bridge``."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _terrain_chart(path: str, data) -> str:
    from maps.terrain_chart import load_terrain_chart

    chart = load_terrain_chart(path)
    rows = list(chart.rows)
    return f"terrain chart: {len(rows)} rows"


def _errata(path: str, data) -> str:
    from maps.errata import BuildingCorrection, HexCorrection, LabelCorrection, ScenarioCorrection, load_errata

    e = load_errata(path, data)
    n = {k: sum(isinstance(c, k) for c in e.corrections)
         for k in (HexCorrection, BuildingCorrection, LabelCorrection, ScenarioCorrection)}
    return (f"errata {e.title!r}: {_count(len(e.corrections), 'correction')} ({_count(n[HexCorrection], 'hex value')}, "
            f"{_count(n[BuildingCorrection], 'building')}, {_count(n[LabelCorrection], 'label')}, "
            f"{_count(n[ScenarioCorrection], 'scenario reference')})")


def _scenario(path: str, data) -> str:
    from scenarios.scenario_file import scenario_from_data

    sc = scenario_from_data(data, path)
    g, r = sc.german, sc.russian
    return (f"scenario {sc.number or '-'} {sc.title!r}: {', '.join(sc.map.sections)}, {sc.turns} turns, "
            f"German {len(g.units())} OOB unit entries in {len(g.groups)} group(s), "
            f"Russian {len(r.units())} in {len(r.groups)} group(s)"
            + (f"; own roster: {_count(len(sc.roster.add), 'addition')}, {_count(len(sc.roster.override), 'override')}"
               if sc.roster is not None else ""))


def _counters(path: str, data) -> str:
    from scenarios.counters import load_counters

    return load_counters(path, data=data).summary()


def _placement(path: str, data) -> str:
    """A designer's set-up: its structure, and when the scenario it belongs to lies beside it
    (``NAME.placement.json`` next to ``NAME.json``), every placement problem on that scenario."""
    from pathlib import Path

    from core.ironcross.placement import check_fixed_setup, placement_from_data

    fixed = placement_from_data(data, path)
    p = Path(path)
    scen = p.with_name(p.name[:-len(".placement.json")] + ".json") if p.name.endswith(".placement.json") else None
    where = ""
    if scen is not None and scen.is_file():
        from core.ironcross.scenario_setup import SetupError, load_setup

        try:
            _sc, setup = load_setup(scen, left_out=fixed["left_out"] or None)
        except (SetupError, KeyError) as e:
            raise DocumentError(path, [Problem("$", f"its scenario {scen.name} cannot be set up: {e}")]) from None
        problems = check_fixed_setup(setup, fixed)
        if problems:
            raise DocumentError(path, problems)
        where = f", checked against {scen.name}"
    return (f"set-up: {_count(len(fixed['units']), 'unit')} placed, {_count(len(fixed['hidden_hexes']), 'hidden hex', 'hidden hexes')}, "
            f"{_count(len(fixed['mines']), 'mined hex', 'mined hexes')}, "
            + (f"{_count(len(fixed['ips']), 'IP')}, " if fixed.get("ips") else "")
            + f"{len(fixed['left_out'])} left out{where}")


#: format name -> loader(path, parsed JSON) -> one-line summary; raises DocumentError.
DOCUMENT_KINDS: dict[str, Callable[[str, object], str]] = {
    "ironcross-map": _map,
    "ironcross-terrain-chart": _terrain_chart,
    "ironcross-errata": _errata,
    "ironcross-counters": _counters,
    "ironcross-scenario": _scenario,
    "ironcross-placement": _placement,
}


def validate_file(path: str | os.PathLike[str]) -> str:
    """Validate one document of any known kind; returns its summary or raises DocumentError."""
    path = str(path)
    data = read_json(path)
    fmt = data.get("format") if isinstance(data, dict) else None
    loader = DOCUMENT_KINDS.get(fmt) if isinstance(fmt, str) else None
    if loader is None:
        known = ", ".join(sorted(DOCUMENT_KINDS))
        raise DocumentError(path, [Problem("$.format", f"unknown format {fmt!r}; known formats: {known}")])
    try:
        return loader(path, data)
    except DocumentError:
        raise
    except ValueError as e:  # loaders of other kinds raise ValueError subclasses with a full message
        raise DocumentError(path, [Problem("$", str(e))]) from None


def _scenario_warnings(path: str) -> list:
    from core.ironcross.design_checks import scenario_file_warnings

    return scenario_file_warnings(path)


#: format name -> design checks(path) -> warnings (``$.path: message`` each); kinds not listed have none.
WARNING_KINDS: dict[str, Callable[[str], list]] = {
    "ironcross-scenario": _scenario_warnings,
}


def file_warnings(path: str | os.PathLike[str]) -> list:
    """The design warnings of a document that validates (``ironcross validate --warnings``): for a
    scenario :func:`core.ironcross.design_checks.scenario_file_warnings`, for other kinds none.
    Raises DocumentError as :func:`validate_file` does."""
    path = str(path)
    data = read_json(path)
    fmt = data.get("format") if isinstance(data, dict) else None
    check = WARNING_KINDS.get(fmt) if isinstance(fmt, str) else None
    return check(path) if check is not None else []
