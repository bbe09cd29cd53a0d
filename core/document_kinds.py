"""Which loader validates which kind of document, by the file's ``format`` field.

``ironcross validate FILE...`` reads each file's ``format`` and calls the loader registered here;
each loader raises :class:`maps.document_file.DocumentError` for an invalid file and returns a
one-line summary for a valid one. New document kinds (scenarios, counters, replays) register
here as they land.

A scenario (``ironcross-scenario``) of any rule system is summarised and checked by the system its
``"rule_system"`` names (absent = Iron Cross; an unknown name is an error at ``$.rule_system``
naming the known systems), through :class:`core.rule_system.RuleSystem`. Formats a rule system
owns (Iron Cross: ``ironcross-placement``, a designer's set-up) come from its ``document_kinds``.
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


def _system(path: str, data):
    """The rule system a scenario's data names; DocumentError at ``$.rule_system`` for an unknown one
    (:func:`core.rule_system.system_of_data`, the scenario loader's own error)."""
    from core.rule_system import system_of_data

    return system_of_data(path, data)


def _scenario(path: str, data) -> str:
    """A scenario's line, from its rule system (``RuleSystem.summarise_scenario``)."""
    return _system(path, data).summarise_scenario(path, data)


def _counters(path: str, data) -> str:
    from scenarios.counters import load_counters

    return load_counters(path, data=data).summary()


#: format name -> loader(path, parsed JSON) -> one-line summary; raises DocumentError.
DOCUMENT_KINDS: dict[str, Callable[[str, object], str]] = {
    "ironcross-map": _map,
    "ironcross-terrain-chart": _terrain_chart,
    "ironcross-errata": _errata,
    "ironcross-counters": _counters,
    "ironcross-scenario": _scenario,
}


def _system_kinds() -> dict[str, Callable[[str, object], str]]:
    """The document formats every known rule system owns (``RuleSystem.document_kinds``)."""
    from core.rule_system import installed

    out: dict[str, Callable[[str, object], str]] = {}
    for system in installed():
        out.update(system.document_kinds)
    return out


def _names_a_system(data) -> bool:
    """A scenario of any rule system: a file whose top level names its ``rule_system`` (its own
    ``format``, e.g. ``twentymm-scenario``, is the system's to check)."""
    return isinstance(data, dict) and "rule_system" in data


def _loader(fmt, data=None) -> Callable[[str, object], str] | None:
    if _names_a_system(data):
        return _scenario
    if not isinstance(fmt, str):
        return None
    return DOCUMENT_KINDS.get(fmt) or _system_kinds().get(fmt)


def validate_file(path: str | os.PathLike[str]) -> str:
    """Validate one document of any known kind; returns its summary or raises DocumentError."""
    path = str(path)
    try:
        data = read_json(path)
    except DocumentError:
        if _starts_like_a_replay(path):  # JSON lines: a header line, then one event a line
            return _replay(path)
        raise
    fmt = data.get("format") if isinstance(data, dict) else None
    if fmt == "ironcross-replay":
        return _replay(path)
    loader = _loader(fmt, data)
    if loader is None:
        known = ", ".join(sorted(set(DOCUMENT_KINDS) | set(_system_kinds())))
        raise DocumentError(path, [Problem("$.format", f"unknown format {fmt!r}; known formats: {known}")])
    try:
        return loader(path, data)
    except DocumentError:
        raise
    except ValueError as e:  # loaders of other kinds raise ValueError subclasses with a full message
        raise DocumentError(path, [Problem("$", str(e))]) from None


def _starts_like_a_replay(path: str) -> bool:
    """True when the file's first line is a replay header (``"format": "ironcross-replay"``)."""
    from maps.json_file import JsonFileProblem, limit_for, parse_json, read_text_file

    try:
        first = read_text_file(path, limit=limit_for("ironcross-replay")).lstrip().split("\n", 1)[0]
        head = parse_json(first)
    except (OSError, JsonFileProblem):
        return False
    return isinstance(head, dict) and head.get("format") == "ironcross-replay"


def _replay(path: str) -> str:
    """Validate a replay (:func:`core.replay.read_replay`, its rule system and its decisions); its summary."""
    from core.replay import read_replay, replay_decisions, replay_system

    rp = read_replay(path)
    system = replay_system(path, rp)
    decisions = replay_decisions(path, rp, system)
    return (f"replay of {rp.header['scenario']!s} ({system.title}), seed {rp.header['seed']!s}, "
            f"{len(rp.events)} events, {len(decisions)} decisions")


def _scenario_warnings(path: str) -> list:
    """A scenario's design warnings, from its rule system (``RuleSystem.scenario_warnings``)."""
    return _system(path, read_json(path)).scenario_warnings(path)


#: format name -> design checks(path) -> warnings (``$.path: message`` each); kinds not listed have none.
WARNING_KINDS: dict[str, Callable[[str], list]] = {
    "ironcross-scenario": _scenario_warnings,
}


def file_warnings(path: str | os.PathLike[str]) -> list:
    """The design warnings of a document that validates (``ironcross validate --warnings``): for a
    scenario its rule system's ``scenario_warnings``, for other kinds none.
    Raises DocumentError as :func:`validate_file` does."""
    path = str(path)
    data = read_json(path)
    fmt = data.get("format") if isinstance(data, dict) else None
    check = _scenario_warnings if _names_a_system(data) else WARNING_KINDS.get(fmt) if isinstance(fmt, str) else None
    return check(path) if check is not None else []
